package engine

import (
	"strconv"
	"strings"
	"testing"

	"redscope/engine/alloc"
)

// Helpers shared by the engine's tests: an engine on the profile Debian's redis-server 7.0.15
// matches (jemalloc with its 16-byte quantum) on a logical clock, the "this command answers this
// redis-cli text" check (for the engine and for one client), "command => reply" scripts,
// argument vectors, a string stored as SET stores it, and the set and hash tests' checks of
// replies, encodings and memory.

// newTestEngine is the 7.0 profile on jemalloc-16 with a logical clock at StartMs and tracing on.
func newTestEngine() (*Engine, *ManualClock) {
	c := &ManualClock{Ms: StartMs}
	return New(Options{Version: V70, Allocator: alloc.Jemalloc16, Clock: c, Trace: true}), c
}

// newEngineAt is profile v on jemalloc-16 with a logical clock at StartMs (no tracing).
func newEngineAt(v Version) (*Engine, *ManualClock) {
	c := &ManualClock{Ms: StartMs}
	return New(Options{Version: v, Allocator: alloc.Jemalloc16, Clock: c}), c
}

// want checks that args answer w as redis-cli prints it (without the final newline).
func want(t *testing.T, e *Engine, w string, args ...string) {
	t.Helper()
	if got := e.Do(args...).FormatCLI(); got != w+"\n" {
		t.Errorf("%v: got %q want %q", args, got, w+"\n")
	}
}

// doLines runs "command => expected" lines (redis-cli quoting; the lines of a multi-line reply
// joined with " | "); blank lines and # comments are skipped.
func doLines(t *testing.T, e *Engine, lines string) {
	t.Helper()
	for _, ln := range strings.Split(strings.TrimSpace(lines), "\n") {
		ln = strings.TrimSpace(ln)
		if ln == "" || strings.HasPrefix(ln, "#") {
			continue
		}
		cmd, w, ok := strings.Cut(ln, " => ")
		if !ok {
			t.Fatalf("bad script line %q", ln)
		}
		got := oneLine(e.Exec(mustSplit(t, cmd)).Reply)
		if got != w {
			t.Errorf("%s\n  got  %s\n  want %s", cmd, got, w)
		}
	}
}

// oneLine is a reply as redis-cli prints it, its lines joined with " | ".
func oneLine(r Reply) string {
	return strings.ReplaceAll(strings.TrimSuffix(r.FormatCLI(), "\n"), "\n", " | ")
}

// mustSplit splits a command line with redis-cli's quoting (sdssplitargs).
func mustSplit(t *testing.T, line string) [][]byte {
	t.Helper()
	args, err := SplitArgs(line)
	if err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	return args
}

// argv is a command's arguments as byte strings.
func argv(parts ...string) [][]byte {
	out := make([][]byte, len(parts))
	for i, p := range parts {
		out[i] = []byte(p)
	}
	return out
}

// benchExec is the timed loop of the Exec benchmarks: cmds round-robin, b.N commands in all,
// each checked to answer a reply of kind want (a wrong answer fails the benchmark instead of
// timing an error path). The setup before it is not timed.
func benchExec(b *testing.B, e *Engine, want ReplyKind, cmds ...[][]byte) {
	b.Helper()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if r := e.Exec(cmds[i%len(cmds)]).Reply; r.Kind != want {
			b.Fatal(r)
		}
	}
}

// setString stores a SET-style string value without depending on the strings commands.
func setString(e *Engine, key, val string) {
	e.setKey([]byte(key), e.newStringObject([]byte(key), []byte(val)), false)
}

// cdo runs a command on client c.
func cdo(c *Client, args ...string) Result {
	return c.Exec(argv(args...))
}

// cwant is want for client c.
func cwant(t *testing.T, c *Client, w string, args ...string) {
	t.Helper()
	if got := cdo(c, args...).Reply.FormatCLI(); got != w+"\n" {
		t.Errorf("%v: got %q want %q", args, got, w+"\n")
	}
}

// newSetEngine is profile v on allocator a with the random seed 42 (SPOP, SRANDMEMBER…).
func newSetEngine(v Version, a alloc.Allocator) *Engine {
	return New(Options{Version: v, Allocator: a, Seed: 42})
}

// doInt runs a command that must answer an integer, and returns it.
func doInt(t *testing.T, e *Engine, args ...string) int64 {
	t.Helper()
	r := e.Do(args...)
	if r.Kind != KindInt {
		t.Fatalf("%v: want an integer, got %+v", args, r)
	}
	return r.Int
}

// doStr runs a command that must not answer an error, and returns its string.
func doStr(t *testing.T, e *Engine, args ...string) string {
	t.Helper()
	r := e.Do(args...)
	if r.Kind == KindError {
		t.Fatalf("%v: %s", args, r.Str)
	}
	return r.Str
}

// wantEnc checks OBJECT ENCODING of key.
func wantEnc(t *testing.T, e *Engine, key, enc string) {
	t.Helper()
	if got := doStr(t, e, "OBJECT", "ENCODING", key); got != enc {
		t.Fatalf("OBJECT ENCODING %s = %q, want %q", key, got, enc)
	}
}

// wantMem checks MEMORY USAGE with args (a key, SAMPLES n).
func wantMem(t *testing.T, e *Engine, want int64, args ...string) {
	t.Helper()
	if got := doInt(t, e, append([]string{"MEMORY", "USAGE"}, args...)...); got != want {
		t.Fatalf("MEMORY USAGE %v = %d, want %d", args, got, want)
	}
}

// seq is prefix+from … prefix+to.
func seq(prefix string, from, to int) []string {
	out := []string{}
	for i := from; i <= to; i++ {
		out = append(out, prefix+strconv.Itoa(i))
	}
	return out
}

// replyStrings is the strings of an array reply.
func replyStrings(r Reply) []string {
	var out []string
	for _, x := range r.Array {
		out = append(out, x.Str)
	}
	return out
}
