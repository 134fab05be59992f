package lesson

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"redscope/engine"
	"redscope/engine/alloc"
)

// exportPort is the port of the redis-server TestTranscriptReplaysOnRedis starts: REDSCOPE_EXPORT_PORT,
// or one the kernel gives as unused (a fixed port let two test runs on one machine talk to each
// other's server).
func exportPort() string {
	if p := os.Getenv("REDSCOPE_EXPORT_PORT"); p != "" {
		return p
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "7020"
	}
	defer ln.Close()
	return fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)
}

// startRedis starts Debian's redis-server 7.0 on exportPort, or skips.
func startRedis(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("needs redis-server")
	}
	srv, err1 := exec.LookPath("redis-server")
	_, err2 := exec.LookPath("redis-cli")
	if err1 != nil || err2 != nil {
		t.Skip("redis-server / redis-cli not installed")
	}
	// A free port may be taken by another test's server between the probe and the start: then
	// this redis-server cannot bind, and whatever answers there is not it (its process_id says).
	for try := 0; try < 5; try++ {
		port := exportPort()
		if c, err := net.DialTimeout("tcp", "127.0.0.1:"+port, 200*time.Millisecond); err == nil {
			c.Close()
			if os.Getenv("REDSCOPE_EXPORT_PORT") != "" {
				t.Skipf("port %s is busy", port)
			}
			continue
		}
		cmd := exec.Command(srv, "--port", port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		up := false
		for i := 0; i <= 100 && !up; i++ {
			select {
			case <-exited:
				i = 100
				continue
			default:
			}
			out, _ := exec.Command("redis-cli", "-p", port, "info", "server").Output()
			up = bytes.Contains(out, []byte(fmt.Sprintf("process_id:%d\r\n", cmd.Process.Pid)))
			if up && !bytes.Contains(out, []byte("redis_version:7.0.")) {
				cmd.Process.Kill()
				t.Skip("the installed redis-server is not 7.0")
			}
			if !up {
				time.Sleep(50 * time.Millisecond)
			}
		}
		if !up {
			cmd.Process.Kill()
			<-exited
			continue
		}
		t.Cleanup(func() {
			exec.Command("redis-cli", "-p", port, "shutdown", "nosave").Run()
			<-exited
		})
		return port
	}
	t.Fatal("redis-server did not start")
	return ""
}

// replay feeds a redis-cli input file to the real server as `redis-cli --no-raw -p PORT < FILE`
// does, after FLUSHALL, and returns what redis-cli printed.
func replay(t *testing.T, port, file string) string {
	t.Helper()
	if out, err := exec.Command("redis-cli", "-p", port, "flushall").CombinedOutput(); err != nil {
		t.Fatalf("flushall: %v %s", err, out)
	}
	cmd := exec.Command("redis-cli", "--no-raw", "-p", port)
	cmd.Stdin = strings.NewReader(file)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("redis-cli: %v", err)
	}
	// redis-cli prints the time of a command slower than 0.5 s on a line of its own, "(0.83s)"
	// (SETBIT huge 4294967295 1 allocates 512 MB): not a reply.
	return slowLine.ReplaceAllString(string(out), "")
}

var slowLine = regexp.MustCompile(`(?m)^\([0-9]+\.[0-9]+s\)\n`)

// engineReplies is what the Player printed for the commands of a run, as redis-cli prints them.
func engineReplies(xs []Exchange) string {
	var b strings.Builder
	for _, x := range xs {
		if x.Advance != "" || IsRingLine(x.Cmd) {
			continue
		}
		b.WriteString(x.Reply)
		b.WriteByte('\n')
	}
	return b.String()
}

// replayable: the lesson runs on 7.0, needs no module (BF.*), no clock moves (a real server's
// clock cannot be moved), no ring lines and no cluster.
func replayable(l *Lesson) bool {
	if l.Since != 0 && !engine.V70.Has(l.Since) {
		return false
	}
	e := engine.New(engine.Options{Version: engine.V70})
	for _, s := range l.Steps {
		for _, a := range s.Actions {
			if a.Cmd == "" || IsRingLine(a.Cmd) || IsClusterLine(a.Cmd) || a.Client != 0 { // cluster: internal/difftest TestClusterLessonsOnRealCluster // clients: TestClientLessonsReplayOnRedis
				return false
			}
			args, err := engine.SplitArgs(a.Cmd)
			if err != nil || len(args) == 0 || !e.HasCommand(string(args[0])) || strings.HasPrefix(strings.ToLower(string(args[0])), "bf.") {
				return false
			}
		}
	}
	return true
}

// TestTranscriptReplaysOnRedis exports every built-in lesson that is valid on 7.0 as a redis-cli
// input file, replays it with redis-cli against Debian's redis-server 7.0.15, and compares every
// reply with the engine's (7.0, jemalloc-16). A console session with binary values does the same.
func TestTranscriptReplaysOnRedis(t *testing.T) {
	port := startRedis(t)
	cfg := Config{Version: engine.V70, Allocator: alloc.Jemalloc16}
	n := 0
	for _, l := range builtinLessons(t) {
		if !replayable(l) {
			t.Logf("%s: not replayable on a plain 7.0 server (since/module/advance/ring)", l.Name)
			continue
		}
		n++
		file := l.Transcript()
		xs := runExchanges(l, cfg)
		got := replay(t, port, file)
		if msg := compareReplies(got, xs); msg != "" {
			t.Errorf("%s: the real server answers differently: %s\nfile:\n%s", l.Name, msg, clipLines(file))
		}
		if lines := strings.Count(file, "\n"); lines != countCmds(xs) {
			t.Errorf("%s: %d lines for %d commands", l.Name, lines, countCmds(xs))
		}
	}
	if n < 3 {
		t.Fatalf("only %d built-in lessons replayed", n)
	}
	// A console session (sandbox), with binary keys and values and quotes, and a lesson's steps
	// interleaved with console lines.
	p := NewPlayer(cfg)
	for _, line := range []string{
		`SET "bin\x00key" "a\x00b\xffc"`,
		`GET "bin\x00key"`,
		`SET q "say \"hi\"\r\n\ttab"`,
		`GET q`,
		`SET 'single quoted' 'it''s'`,
		`SET 'single quoted' 'it\'s'`,
		`GET 'single quoted'`,
		`APPEND "bin\x00key" "\\"`,
		`GETRANGE "bin\x00key" 0 -1`,
		`SETRANGE e 3 ""`,
		`NOSUCHCOMMAND x`,
		`SET "" empty`,
		`GET ""`,
		`RPUSH l "a b" c "\x01"`,
		`LRANGE l 0 -1`,
		`DEBUG SDSLEN q`,
	} {
		p.Exec(line)
	}
	want := engineReplies(p.Last())
	file := p.Transcript()
	// The unbalanced line does not split: it is not in the file (redis-cli would refuse it too).
	wantLines := 15
	if strings.Count(file, "\n") != wantLines {
		t.Fatalf("%d lines:\n%s", strings.Count(file, "\n"), file)
	}
	got := replay(t, port, file)
	// Drop the engine's reply to the unsplittable line, and DEBUG (disabled on this server).
	wantNoBad := strings.Replace(want, "Invalid argument(s)\n", "", 1)
	gotLines, wantLinesS := strings.Split(got, "\n"), strings.Split(wantNoBad, "\n")
	if len(gotLines) != len(wantLinesS) {
		t.Fatalf("session: redis-cli printed\n%s\nengine\n%s", got, wantNoBad)
	}
	for i := range gotLines {
		if strings.HasPrefix(gotLines[i], "(error) ERR DEBUG command not allowed") {
			continue
		}
		if gotLines[i] != wantLinesS[i] {
			t.Errorf("session line %d: redis-cli %q, engine %q", i, gotLines[i], wantLinesS[i])
		}
	}
	// Steps and console lines interleave as a replay runs them.
	l, err := Parse("mix", []byte("title en: m\nstep\n> SET a 1\nstep\n> INCR a\n"))
	if err != nil {
		t.Fatal(err)
	}
	p = NewPlayer(cfg)
	p.Load(l)
	p.Exec("SET a 10")
	p.Step()
	p.Exec("INCRBY a 5")
	if got := p.Transcript(); got != "SET a 10\nSET a 1\nINCRBY a 5\nINCR a\n" {
		t.Fatalf("interleaving: %q", got)
	}
	if got := replay(t, port, p.Transcript()); got != "OK\nOK\n(integer) 6\n(integer) 7\n" {
		t.Fatalf("interleaved replay: %q", got)
	}
}

// compareReplies compares redis-cli's output with the engine's replies, command by command.
// MEMORY USAGE of a skiplist sorted set is skipped: it adds up the nodes' random levels, which
// come from each server's own random source.
func compareReplies(got string, xs []Exchange) string {
	xs = markSkiplistMemory(xs)
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	i := 0
	for _, x := range xs {
		if x.Advance != "" || IsRingLine(x.Cmd) {
			continue
		}
		want := strings.Split(x.Reply, "\n")
		if i+len(want) > len(lines) {
			return fmt.Sprintf("redis-cli printed %d lines; %q expects more", len(lines), x.Cmd)
		}
		g := strings.Join(lines[i:i+len(want)], "\n")
		i += len(want)
		if x.Reply == skipReply {
			continue
		}
		if g != x.Reply {
			return fmt.Sprintf("%q: redis-cli %q, engine %q", x.Cmd, g, x.Reply)
		}
	}
	if i != len(lines) {
		return fmt.Sprintf("redis-cli printed %d lines, the engine %d", len(lines), i)
	}
	return ""
}

const skipReply = "\x00skip"

// markSkiplistMemory replays the commands on a sandbox player and replaces the reply of each
// MEMORY USAGE of a skiplist-encoded key with skipReply (keeping its line count).
func markSkiplistMemory(xs []Exchange) []Exchange {
	p := NewPlayer(Config{Version: engine.V70, Allocator: alloc.Jemalloc16})
	out := make([]Exchange, len(xs))
	for i, x := range xs {
		out[i] = x
		if x.Advance != "" || IsRingLine(x.Cmd) {
			continue
		}
		p.Exec(x.Cmd)
		if key, ok := memoryUsageKey(x.Cmd); ok && p.Key(key).Encoding == "skiplist" {
			out[i].Reply = skipReply
		}
	}
	return out
}

func countCmds(xs []Exchange) int {
	n := 0
	for _, x := range xs {
		if x.Advance == "" {
			n++
		}
	}
	return n
}

func clipLines(s string) string {
	if len(s) > 3000 {
		return s[:3000] + fmt.Sprintf("… (%d bytes)", len(s))
	}
	return s
}

// TestTranscriptRepeatedArg: an "arg TEXT*N" line is written whole in the redis-cli file (the
// short form TEXT×N is only for display), and a real server replays it with the same replies.
func TestTranscriptRepeatedArg(t *testing.T) {
	l, err := Parse("big", []byte("title en: t\nstep\n> SET s:set\narg b*100000\n> APPEND s:set\narg \"\\x00\\\"\"*3\n> STRLEN s:set\n> GETRANGE s:set 99999 -1\n"))
	if err != nil {
		t.Fatal(err)
	}
	file := l.Transcript()
	lines := strings.Split(strings.TrimSuffix(file, "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines", len(lines))
	}
	args, err := engine.SplitArgs(lines[0])
	if err != nil || len(args) != 3 || string(args[2]) != strings.Repeat("b", 100000) {
		t.Fatalf("SET line: %v, %d args", err, len(args))
	}
	if lines[1] != `APPEND s:set "\x00\"\x00\"\x00\""` {
		t.Fatalf("APPEND line %q", lines[1])
	}
	xs := runExchanges(l, Config{Version: engine.V70, Allocator: alloc.Jemalloc16})
	if xs[0].Cmd != "SET s:set b×100000" || xs[2].Reply != "(integer) 100006" || xs[3].Reply != `"b\x00\"\x00\"\x00\""` {
		t.Fatalf("engine: %+v", xs)
	}
	port := startRedis(t)
	if msg := compareReplies(replay(t, port, file), xs); msg != "" {
		t.Fatal(msg)
	}
}

// TestReplayableLessonsIgnoreTheHashSeed: a real server hashes with a random per-process seed, so
// a reply TestTranscriptReplaysOnRedis compares must not depend on it. The figure at risk is
// MEMORY USAGE of a hashtable caught while rehashing: 8 bytes per bucket of both tables, and
// whether the rehash has finished depends on how many of the old table's buckets the seed left
// empty (100 one-member SADDs: about 1 seed in 50 finishes the 64 → 128 rehash). Every
// replayable lesson that reads MEMORY USAGE of a hashtable is run under 64 hash seeds; every
// reply must be the same as under the default seed.
func TestReplayableLessonsIgnoreTheHashSeed(t *testing.T) {
	cfg := Config{Version: engine.V70, Allocator: alloc.Jemalloc16}
	swept := 0
	for _, l := range builtinLessons(t) {
		if !(replayable(l) || replayedWithClients(l)) || !readsHashtableMemory(l, cfg) {
			continue
		}
		swept++
		l := l
		t.Run(l.Name, func(t *testing.T) {
			t.Parallel()
			base := engineReplies(markSkiplistMemory(runExchanges(l, cfg)))
			for seed := uint64(1); seed <= 64; seed++ {
				ls := *l
				ls.Seed = seed
				got := engineReplies(markSkiplistMemory(runExchanges(&ls, cfg)))
				if got == base {
					continue
				}
				g, w := strings.Split(got, "\n"), strings.Split(base, "\n")
				for i := range min(len(g), len(w)) {
					if g[i] != w[i] {
						t.Fatalf("hash seed %d: reply %d is %q, under the default seed %q: a real server's answer here is a lottery", seed, i, g[i], w[i])
					}
				}
				t.Fatalf("hash seed %d: %d reply lines, %d under the default seed", seed, len(g), len(w))
			}
		})
	}
	if swept == 0 {
		t.Fatal("no replayable lesson reads MEMORY USAGE of a hashtable")
	}
}

// runExchanges plays the whole lesson and returns every exchange of its steps, in order.
func runExchanges(l *Lesson, cfg Config) []Exchange {
	var xs []Exchange
	for _, st := range Run(l, cfg)[1:] {
		xs = append(xs, st.Outputs.Commands...)
	}
	return xs
}

// readsHashtableMemory: some MEMORY USAGE of the lesson measures a hashtable-encoded key.
func readsHashtableMemory(l *Lesson, cfg Config) bool {
	p := NewPlayer(cfg)
	p.Load(l)
	for p.Step() {
		for _, x := range p.State().Outputs.Commands {
			if key, ok := memoryUsageKey(x.Cmd); ok && p.Key(key).Encoding == "hashtable" {
				return true
			}
		}
	}
	return false
}

// memoryUsageKey is the key of a MEMORY USAGE command line.
func memoryUsageKey(cmd string) (string, bool) {
	args, _ := engine.SplitArgs(cmd)
	if len(args) >= 3 && strings.EqualFold(string(args[0]), "memory") && strings.EqualFold(string(args[1]), "usage") {
		return string(args[2]), true
	}
	return "", false
}
