// Package watchcases reads the cases of which writes touch a WATCHed key, as redis-server 7.0.15
// answers, from testdata/watch/cases.txt (its header gives the format): internal/difftest plays
// every case on a real redis-server and on redscope (TestWatchWrites), and the engine's tests
// play them on the engine alone with tracing off (TestWatchTouchedByEveryWriteTracingOff), so
// that `go test ./engine` checks WATCH where no redis-server is installed.
//
// Redis marks a WATCHer dirty when the command calls signalModifiedKey (db.c) for its key, and
// each command decides when: SADD only when a member was added, HSET always, SETBIT only when the
// bit changed, PFMERGE always, ZADD only when a score changed, FLUSHDB only for keys that exist
// (touchAllWatchedKeysInDb in multi.c). A case is played with two clients: the writer runs the
// setup in database 0, the watcher selects its database and WATCHes, the writer (back in
// database 0) runs the write, the watcher runs MULTI, PING, EXEC: a null array when the key was
// touched.
package watchcases

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// File is the cases' file, from the repository's root.
const File = "testdata/watch/cases.txt"

// Case is one write and what it does to the watcher.
type Case struct {
	Line  int    // the case's line in its file
	Cmd   string // the command-table name the case covers ("xgroup|create")
	Setup string // the writer's commands before WATCH, separated by " ; " (redis-cli quoting)
	DB    int    // the watcher's database
	Watch string // keys WATCHed (default "k")
	Write string // the writer's commands after WATCH, separated by " ; "
	Want  string // what redis-server 7.0.15's EXEC answers: Touched or Untouched
	// Random: the write's reply depends on each server's random choice (SPOP with a count); a
	// differential test compares only its kind
	Random bool
}

// What EXEC answers: a null array when a watched key was touched, the queued PING's reply when not.
const (
	Touched   = "nil"
	Untouched = "PONG"
)

// WatchKeys is what the watcher WATCHes.
func (c Case) WatchKeys() string {
	if c.Watch == "" {
		return "k"
	}
	return c.Watch
}

// SplitCmds splits a Setup or a Write into its commands.
func SplitCmds(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, " ; ")
}

// Load reads the cases of the file at path (File, seen from the caller's directory).
func Load(path string) ([]Case, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	cases, err := Parse(string(b))
	if err == nil && len(cases) == 0 {
		err = fmt.Errorf("1: no case")
	}
	if err != nil {
		return nil, fmt.Errorf("%s:%v", path, err)
	}
	return cases, nil
}

// Parse reads cases in the format of File: one a line, "command | setup | write | answer
// [options]" with an optional "# comment" after the answer; "-" is an empty setup; lines that
// start with # and empty lines are passed over. An error names the line.
func Parse(text string) ([]Case, error) {
	var cases []Case
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c, err := parseCase(line)
		if err != nil {
			return nil, fmt.Errorf("%d: %v: %s", i+1, err, line)
		}
		c.Line = i + 1
		cases = append(cases, c)
	}
	return cases, nil
}

func parseCase(line string) (Case, error) {
	f := strings.SplitN(line, " | ", 4)
	if len(f) != 4 {
		return Case{}, fmt.Errorf("%d fields, want 4 (command | setup | write | answer)", len(f))
	}
	for i := range f {
		f[i] = strings.TrimSpace(f[i])
	}
	if f[0] == "" || f[1] == "" || f[2] == "" {
		return Case{}, fmt.Errorf("an empty field (write - for no setup)")
	}
	c := Case{Cmd: f[0], Setup: f[1], Write: f[2]}
	if c.Setup == "-" {
		c.Setup = ""
	}
	answer, _, _ := strings.Cut(f[3], "#")
	words := strings.Fields(answer)
	if len(words) == 0 {
		return Case{}, fmt.Errorf("no answer")
	}
	switch words[0] {
	case "touched":
		c.Want = Touched
	case "untouched":
		c.Want = Untouched
	default:
		return Case{}, fmt.Errorf("answer %q, want touched or untouched", words[0])
	}
	for _, w := range words[1:] {
		name, val, _ := strings.Cut(w, "=")
		switch {
		case name == "db" && val != "":
			n, err := strconv.Atoi(val)
			if err != nil || n < 0 {
				return Case{}, fmt.Errorf("db=%s: not a database number", val)
			}
			c.DB = n
		case name == "watch" && val != "":
			c.Watch = strings.ReplaceAll(val, ",", " ")
		case w == "random":
			c.Random = true
		default:
			return Case{}, fmt.Errorf("unknown option %q (db=N, watch=KEY,KEY…, random)", w)
		}
	}
	return c, nil
}
