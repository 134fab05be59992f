// Package transcript reads redscope's transcript files and replays them: on an engine alone
// (profile transcripts, testdata/transcripts/profile/) or against a real redis-server and
// redscope's RESP server side by side (differential transcripts, testdata/transcripts/diff/).
//
// Format:
//
//	# comment
//	@version 7.0            header: the profile (diff files: 7.0 when absent)
//	@allocator jemalloc-16  header: size classes (diff files always run jemalloc-16)
//	> SET foo bar           a command, split as redis-cli splits it
//	OK                      expected reply lines, exactly as `redis-cli --no-raw` prints them
//	> @sort SMEMBERS s      '@sort ' before a command: compare the array reply after sorting
//	> @clock XPENDING s g - + 9   '@clock ': the reply holds wall-clock readings (idle times,
//	                        delivery and seen times): in diff files the two servers' integers may
//	                        differ by up to ClockSlackMs (1 s); everything else must be identical
//
// Expected lines are optional in diff files (the real server is the reference) and required in
// profile files. Blank lines and lines starting with '#' are ignored everywhere. Trailing white
// space of expected lines is not significant (editors strip it); the differential comparison of
// the two servers' replies is byte-exact.
package transcript

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"

	"redscope/engine"
	"redscope/engine/alloc"
)

// File is a parsed transcript.
type File struct {
	Path         string
	Version      engine.Version // 0 when the file has no @version
	Allocator    alloc.Allocator
	HasAllocator bool
	Steps        []Step
}

// Step is one command and what it should answer.
type Step struct {
	Line  int      // line number of the "> " line
	Text  string   // the command as written, without "> " and "@sort "
	Args  [][]byte // split arguments
	Sort  bool     // compare the array reply's elements as a multiset
	Clock bool     // integers are wall-clock readings: compared within ClockSlackMs (diff files)
	Want  []string // expected redis-cli lines; nil when none were given
}

// ParseFile reads and parses a transcript file.
func ParseFile(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Parse(path, f)
}

// Parse parses a transcript; name is used in error messages.
func Parse(name string, r io.Reader) (*File, error) {
	f := &File{Path: name}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 64<<20)
	ln := 0
	cur := -1 // index of the last command
	for sc.Scan() {
		ln++
		line := strings.TrimRight(sc.Text(), "\r")
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "" || strings.HasPrefix(trimmed, "#"):
			continue
		case strings.HasPrefix(line, ">"):
			text := strings.TrimPrefix(line, ">")
			text = strings.TrimPrefix(text, " ")
			st := Step{Line: ln}
			if rest, ok := strings.CutPrefix(text, "@sort "); ok {
				st.Sort = true
				text = rest
			}
			if rest, ok := strings.CutPrefix(text, "@clock "); ok {
				st.Clock = true
				text = rest
			}
			st.Text = text
			args, err := engine.SplitArgs(text)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: cannot split %q: %v", name, ln, text, err)
			}
			if len(args) == 0 {
				return nil, fmt.Errorf("%s:%d: empty command", name, ln)
			}
			st.Args = args
			f.Steps = append(f.Steps, st)
			cur = len(f.Steps) - 1
		case strings.HasPrefix(line, "@") && cur < 0:
			key, val, _ := strings.Cut(trimmed, " ")
			val = strings.TrimSpace(val)
			switch key {
			case "@version":
				v, err := engine.ParseVersion(val)
				if err != nil || val == "" {
					return nil, fmt.Errorf("%s:%d: bad @version %q", name, ln, val)
				}
				f.Version = v
			case "@allocator":
				a, err := alloc.Parse(val)
				if err != nil || val == "" {
					return nil, fmt.Errorf("%s:%d: bad @allocator %q", name, ln, val)
				}
				f.Allocator, f.HasAllocator = a, true
			default:
				return nil, fmt.Errorf("%s:%d: unknown header %q (want @version or @allocator)", name, ln, key)
			}
		case cur < 0:
			return nil, fmt.Errorf("%s:%d: reply line %q before any command", name, ln, line)
		default:
			f.Steps[cur].Want = append(f.Steps[cur].Want, strings.TrimRight(line, " \t"))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return f, nil
}

// Failure is one step whose reply was not the expected one.
type Failure struct {
	Path string
	Line int
	Cmd  string
	What string // "want" (expected lines) or "redis" (the reference server)
	Want string // redis-cli rendering of the expected reply
	Got  string // redis-cli rendering of redscope's reply
}

func (f Failure) String() string {
	label := "want"
	if f.What == "redis" {
		label = "redis-server"
	}
	return fmt.Sprintf("%s:%d: > %s\n  %s:\n%s  redscope:\n%s", f.Path, f.Line, f.Cmd,
		label, indent(f.Want), indent(f.Got))
}

func indent(s string) string {
	if s == "" {
		return "    (nothing)\n"
	}
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if l == "" {
			continue
		}
		b.WriteString("    ")
		b.WriteString(l)
	}
	if !strings.HasSuffix(s, "\n") {
		b.WriteByte('\n')
	}
	return b.String()
}

// SortReply sorts an array reply's elements by their RESP2 encoding (for '@sort').
func SortReply(r engine.Reply) engine.Reply {
	if r.Kind != engine.KindArray {
		return r
	}
	items := append([]engine.Reply(nil), r.Array...)
	keys := make([]string, len(items))
	for i, it := range items {
		keys[i] = string(it.AppendRESP2(nil))
	}
	idx := make([]int, len(items))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return keys[idx[a]] < keys[idx[b]] })
	out := make([]engine.Reply, len(items))
	for i, j := range idx {
		out[i] = items[j]
	}
	return engine.Reply{Kind: engine.KindArray, Array: out}
}

// CheckWant compares a reply with a step's expected lines. With '@sort' the element lines are
// compared as a multiset, whatever order they were written in.
func CheckWant(st *Step, r engine.Reply) (ok bool, got string) {
	got = r.FormatCLI()
	gotLines := splitLines(got)
	want := st.Want
	if st.Sort {
		return slices.Equal(sortedValues(want), sortedValues(gotLines)), got
	}
	return slices.Equal(want, gotLines), got
}

func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return lines
}

// sortedValues strips redis-cli's "N) " element numbers and sorts the rest.
func sortedValues(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		t := strings.TrimLeft(l, " ")
		j := 0
		for j < len(t) && t[j] >= '0' && t[j] <= '9' {
			j++
		}
		if j > 0 && strings.HasPrefix(t[j:], ") ") {
			t = t[j+2:]
		}
		out[i] = t
	}
	sort.Strings(out)
	return out
}

func joinWant(lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return strings.Join(lines, "\n") + "\n"
}
