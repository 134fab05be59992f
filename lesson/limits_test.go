package lesson

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"redscope/assets"
	"redscope/engine"
	"redscope/engine/alloc"
)

func limited() *Player {
	return NewPlayer(Config{Version: engine.V70, Allocator: alloc.Jemalloc16, Limits: &DefaultLimits})
}

// TestBuiltinLessonsWithinLimits: every built-in lesson passes the static limits and plays to the
// end under DefaultLimits without a refusal, showing exactly what an unlimited run shows.
func TestBuiltinLessonsWithinLimits(t *testing.T) {
	for _, src := range assets.Lessons() {
		l, err := ParseLimited(src.Name+".lesson", src.Src, engine.DefaultVersion, &DefaultLimits)
		if err != nil {
			t.Fatalf("%s: %v", src.Name, err)
		}
		for _, v := range []engine.Version{engine.V70, engine.DefaultVersion} {
			if l.Since != 0 && !v.Has(l.Since) {
				continue
			}
			free := Run(l, Config{Version: v})
			bounded := Run(l, Config{Version: v, Limits: &DefaultLimits})
			for i := range free {
				for _, x := range bounded[i].Outputs.Commands {
					if x.Refused != "" {
						t.Errorf("%s %s step %d: %s refused: %s", src.Name, v, i, x.Cmd, x.Reply)
					}
				}
				a, _ := json.Marshal(free[i])
				b, _ := json.Marshal(bounded[i])
				if string(a) != string(b) {
					t.Errorf("%s %s step %d differs under limits:\n%s\n%s", src.Name, v, i, a, b)
				}
			}
		}
	}
}

// TestConsoleRefusals: each request past a limit is refused with the limit's name, changes
// nothing, and the player keeps working (and replays the same way after Back).
func TestConsoleRefusals(t *testing.T) {
	p := limited()
	mustOK := func(line, want string) {
		t.Helper()
		if x := p.Exec(line); x.Reply != want || x.Refused != "" {
			t.Fatalf("%s → %q (refused %q), want %q", truncate(line, 60), x.Reply, x.Refused, want)
		}
	}
	refused := func(line, limit string) Exchange {
		t.Helper()
		x := p.Exec(line)
		if x.Refused != limit || !x.Error || !strings.HasPrefix(x.Reply, RefusedPrefix) || !strings.Contains(x.Reply, "limit "+limit) {
			t.Fatalf("%s → %q (refused %q), want a refusal by %s", truncate(line, 60), x.Reply, x.Refused, limit)
		}
		mustOK("PING", "PONG") // still working
		return x
	}
	// A command line of megabytes.
	x := refused("SET big "+strings.Repeat("x", 3<<20), "LineBytes")
	if len(x.Cmd) > 300 {
		t.Errorf("the refused line is kept whole for display: %d bytes", len(x.Cmd))
	}
	mustOK("EXISTS big", "(integer) 0")
	// Far offsets: the string is as long as on a real server (up to proto-max-bulk-len, 512 MB)
	// but its zero bytes are not stored, so making it and working on it bit by bit or page by
	// page runs; MEMORY USAGE is the real server's (redis-server 7.0.15, Debian's jemalloc).
	mustOK("SETBIT k 4294967295 1", "(integer) 0")
	mustOK("STRLEN k", "(integer) 536870912")
	mustOK("MEMORY USAGE k", "(integer) 671088688")
	mustOK("BITCOUNT k", "(integer) 1")
	mustOK("BITPOS k 1", "(integer) 4294967295")
	mustOK("BITPOS k 1 0 -1 BIT", "(integer) 4294967295")
	mustOK("GETBIT k 4294967295", "(integer) 1")
	mustOK("BITFIELD k SET u8 #40000000 1", "1) (integer) 0")
	mustOK("BITFIELD k GET u8 #40000000", "1) (integer) 1")
	mustOK("GETRANGE k -3 -1", `"\x00\x00\x01"`)
	mustOK("BITOP NOT n k", "(integer) 536870912")
	mustOK("BITCOUNT n", "(integer) 4294967294")
	mustOK("SETRANGE far 500000000 x", "(integer) 500000001")
	if o := p.Engine().Peek([]byte("k")); o.Buf.PagesInUse() != 2 {
		t.Fatalf("k stores %d pages", o.Buf.PagesInUse())
	}
	// What would copy such a string whole is refused, the engine unchanged.
	for _, line := range []string{"GET k", "GETRANGE k 0 -1", "GETRANGE k 0 40000000", "GETDEL k", "SET k v GET", "INCR k", "DUMP k", "MGET a k"} {
		refused(line, "StringBytes")
	}
	mustOK("STRLEN k", "(integer) 536870912")
	// One command over many long strings: their pages count (KeyBytes).
	refused("BITOP AND d"+strings.Repeat(" k", 300), "KeyBytes")
	mustOK("BITOP AND d k k k", "(integer) 536870912")
	mustOK("DEL d n far", "(integer) 3")
	// Counts that repeat members.
	mustOK("SADD s a", "(integer) 1")
	refused("SRANDMEMBER s -10000000", "ReplyItems")
	mustOK("SRANDMEMBER s -3", "1) \"a\"\n2) \"a\"\n3) \"a\"")
	// A Bloom filter of gigabytes.
	refused("BF.RESERVE bf 0.0001 1000000000", "Memory")
	// One string stores at most StringBytes (counted in 64 KiB pages once it is kept in pages):
	// 129 SETRANGEs of 260 000 bytes fit, a 130th does not.
	chunk := strings.Repeat("y", 260000)
	for i := 0; i < 129; i++ {
		mustOK(fmt.Sprintf("SETRANGE k2 %d %s", i*260000, chunk), fmt.Sprintf("(integer) %d", (i+1)*260000))
	}
	refused("APPEND k2 "+chunk, "StringBytes")
	// The whole dataset: k2 stores 32 MiB; COPY duplicates its pages, and past 128 MiB writes
	// are refused until something is deleted.
	for _, key := range []string{"k3", "k4", "k5"} {
		mustOK("COPY k2 "+key, "(integer) 1")
	}
	refused("SET one more", "Memory")
	refused("COPY k2 k6", "Memory")
	mustOK("DEL k5", "(integer) 1")
	mustOK("SET one more", "OK")
	mustOK("DEL k2 k3", "(integer) 2")
	// A reply too long to show is cut (the command ran).
	mustOK("SETRANGE r 999999 z", "(integer) 1000000")
	if x := p.Exec("GET r"); !strings.Contains(x.Reply, "limit ReplyBytes") || len(x.Reply) > DefaultLimits.ReplyBytes+200 || x.Refused != "" {
		t.Fatalf("GET of 1 MB: %d bytes of reply, refused %q", len(x.Reply), x.Refused)
	}
	// Many elements in one line: a console line has its own budget, under LineBytes.
	var b strings.Builder
	b.WriteString("PFADD h")
	for i := 0; i < 30000; i++ {
		fmt.Fprintf(&b, " %d", i)
	}
	mustOK(b.String(), "(integer) 1")
	// Refused lines are not remembered: the replay after Back/Step shows the same state.
	keys := func() string {
		var b strings.Builder
		for _, k := range []string{"k", "k2", "k4", "k5", "one", "r", "h", "s", "big", "bf", "n", "far"} {
			j, _ := json.Marshal(p.Key(k))
			b.Write(j)
		}
		return b.String()
	}
	before := keys()
	p.SetConfig(p.Config()) // replays the console lines
	if after := keys(); after != before {
		t.Fatalf("replay differs:\n%s\n%s", before, after)
	}
	for _, x := range p.Last() {
		if x.Refused != "" {
			t.Fatalf("a refused line was replayed: %s", truncate(x.Cmd, 80))
		}
	}
}

// TestLessonLimits: a lesson that asks for too much is refused before it is expanded or played,
// with the limit and the line number.
func TestLessonLimits(t *testing.T) {
	head := "title en: t\nstep\nen: x\n"
	cases := []struct {
		name, src, limit string
		line             int
	}{
		// Ten million PFADD elements through `args` lines: refused before Parse expands them.
		{"ten-million", head + strings.Repeat("> PFADD h\nargs 1..100000 > e%d\n", 100), "StepElements", 13},
		{"big-arg-lines", head + "> HSET h\n" + strings.Repeat("args 1..90000 > field:%d value:%d\n", 3), "ArgBytes", 6},
		{"repeat", head + "repeat 1..5000 > PFADD h a%d b c d e f g h i j k l m n o p q r s t u v w x y z aa bb cc dd ee ff gg hh ii jj kk ll mm nn oo pp qq rr ss tt uu vv ww xx yy zz a1 a2 a3 a4 a5 a6 a7 a8 a9 b1 b2 b3 b4 b5 b6 b7 b8 b9 c1 c2 c3 c4 c5 c6 c7 c8 c9 d1 d2 d3 d4 d5 d6 d7 d8 d9 e1 e2 e3 e4 e5 e6 e7 e8 e9 f1 f2 f3\n", "StepElements", 4},
		{"huge-text", head + "> SET a b\n" + strings.Repeat("# padding padding padding\n", 50000), "LessonBytes", 0},
		{"long-line", head + "> SET a " + strings.Repeat("v", 300<<10) + "\n", "LineBytes", 4},
		{"randmember", head + "> SRANDMEMBER s -1000000000\n", "ReplyItems", 4},
		// An `arg` line is counted as TEXT×N bytes before Parse builds it.
		{"arg", head + "> SET a\narg 0123456789*500000\n", "ArgBytes", 5},
		{"arg-args", head + "> SET a\narg x*4000000\nargs 1..30000 > f%d\n", "ArgBytes", 6},
	}
	for _, c := range cases {
		_, err := ParseLimited(c.name, []byte(c.src), engine.V70, &DefaultLimits)
		var le *LimitError
		if !errors.As(err, &le) || le.Limit != c.limit || le.Line != c.line {
			t.Errorf("%s: %v, want limit %s at line %d", c.name, err, c.limit, c.line)
			continue
		}
		if !strings.Contains(err.Error(), "limit "+c.limit) {
			t.Errorf("%s: message %q does not name the limit", c.name, err)
		}
	}
	// Unknown commands and malformed lines: clear messages with the line number.
	for _, c := range []struct{ src, want string }{
		{head + "> SET a 1\n> FROBNICATE a\n", "bad.lesson:5: unknown command \"FROBNICATE\" in Redis 7.0"},
		{head + "> HSETEX h EX 10 FIELDS 1 f v\n", "bad.lesson:4: unknown command \"HSETEX\" in Redis 7.0"},
		{head + "> SET a \"unbalanced\n", "bad.lesson:4: cannot split command: Invalid argument(s)"},
		{head + "> SET a 1\nexpect frobs: 2\n", "bad.lesson:5: unknown check"},
		{"step\n> SET a 1\n", "bad.lesson:1: missing title"},
		{head + "scene <img src=x>\n", "bad.lesson:4: unknown line in a step"},
		{"title en: t\nscene <img src=x>\n", "bad.lesson:2: unknown scene \"<img src=x>\""},
	} {
		_, err := ParseLimited("bad.lesson", []byte(c.src), engine.V70, &DefaultLimits)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q…", c.src, err, c.want)
		}
	}
	// A lesson that shows the unknown-command error on purpose is fine.
	if _, err := ParseLimited("ok", []byte(head+"> FROB\nexpect reply: (error) ERR unknown command 'FROB', with args beginning with: \n"), engine.V70, &DefaultLimits); err != nil {
		t.Errorf("expected unknown command: %v", err)
	}
}

// TestStepElementsAtRuntime: a step whose commands pass one by one is stopped when their
// arguments add up past the step's budget; the next step starts afresh.
func TestStepElementsAtRuntime(t *testing.T) {
	lim := DefaultLimits
	lim.StepElements = 10
	var src strings.Builder
	src.WriteString("title en: t\nstep\nen: x\n")
	for i := 0; i < 3; i++ {
		fmt.Fprintf(&src, "> SADD s%d a b c d\n", i)
	}
	src.WriteString("step\nen: y\n> SADD t a b c d\n")
	l, err := Parse("t", []byte(src.String()))
	if err != nil {
		t.Fatal(err)
	}
	p := NewPlayer(Config{Limits: &lim})
	p.Load(l)
	p.Step()
	got := []string{}
	for _, x := range p.Last() {
		got = append(got, x.Refused)
	}
	if strings.Join(got, ",") != ",,StepElements" {
		t.Fatalf("refusals %q", got)
	}
	p.Step()
	if x := p.Last()[0]; x.Refused != "" || x.Reply != "(integer) 4" {
		t.Fatalf("next step: %+v", x)
	}
}

func TestBoundReply(t *testing.T) {
	r := engine.Array(engine.BulkStr(strings.Repeat("a", 100)), engine.BulkStr("b"), engine.BulkStr("c"))
	out, cut := boundReply(r, 50)
	if !cut || len(out.Array) != 1 || len(out.Array[0].Str) != 50 {
		t.Fatalf("%+v %v", out, cut)
	}
	if _, cut := boundReply(engine.BulkStr("short"), 50); cut {
		t.Fatal("short reply cut")
	}
}

// TestRepeatedArgWithinLimits: a 100 000-byte argument from an `arg` line plays under the
// limits, and SETRANGE past proto-max-bulk-len is the engine's own error, not a refusal; an `arg`
// argument past ArgBytes in a lesson that skipped the static check is refused when it runs.
func TestRepeatedArgWithinLimits(t *testing.T) {
	src := "title en: t\nstep\nen: x\n> SET s:set\narg x*100000\nexpect reply: OK\n" +
		"> SETRANGE s:far 536870912 x\nexpect reply: (error) ERR string exceeds maximum allowed size (proto-max-bulk-len)\n"
	l, err := ParseLimited("t", []byte(src), engine.V70, &DefaultLimits)
	if err != nil {
		t.Fatal(err)
	}
	p := limited()
	p.Load(l)
	p.Step()
	for _, x := range p.Last() {
		if x.Refused != "" {
			t.Errorf("%s refused: %s", x.Cmd, x.Reply)
		}
	}
	if len(p.Failed()) != 0 || p.Key("s:set").Len != 100000 || p.Key("s:far").Exists {
		t.Fatalf("failed %v, s:set %+v", p.Failed(), p.Key("s:set"))
	}
	l, err = Parse("t", []byte("title en: t\nstep\nen: x\n> SET a\narg 0123456789*500000\n> STRLEN a\n"))
	if err != nil {
		t.Fatal(err)
	}
	p.Load(l)
	p.Step()
	if x := p.Last(); x[0].Refused != "ArgBytes" || x[0].Cmd != "SET a 0123456789×500000" || x[1].Reply != "(integer) 0" {
		t.Fatalf("%+v", x)
	}
}

// LCS fills a table of (len a + 1) × (len b + 1) cells: strings of a few KB are fine, two of
// 10 000 bytes (10^8 cells) are refused by LCSCells before the engine starts.
func TestLCSCellsLimit(t *testing.T) {
	p := limited()
	for _, l := range []string{"SETRANGE a 1999 x", "SETRANGE b 1999 y", "SETRANGE c 9999 x", "SETRANGE d 9999 y"} {
		if x := p.Exec(l); x.Refused != "" || x.Error {
			t.Fatalf("%s → %q", l, x.Reply)
		}
	}
	if x := p.Exec("LCS a b LEN"); x.Refused != "" || x.Reply != "(integer) 1999" {
		t.Fatalf("LCS a b LEN → %q (refused %q)", x.Reply, x.Refused)
	}
	x := p.Exec("LCS c d")
	if x.Refused != "LCSCells" || !strings.Contains(x.Reply, "100020001 cells") {
		t.Fatalf("LCS c d → %q (refused %q), want a refusal by LCSCells", x.Reply, x.Refused)
	}
}

// EXEC runs the queued commands, which name keys EXEC does not: the guard measures the whole
// dataset again afterwards, so a transaction cannot slip past Memory.
func TestExecRemeasuresMemory(t *testing.T) {
	lim := DefaultLimits
	lim.Memory = 1 << 20
	p := NewPlayer(Config{Limits: &lim})
	for _, l := range []string{"MULTI", "SETRANGE a 600000 x", "SETRANGE b 600000 x", "EXEC"} {
		if x := p.Exec(l); x.Refused != "" || x.Error {
			t.Fatalf("%s → %q (refused %q)", l, x.Reply, x.Refused)
		}
	}
	if x := p.Exec("SET c 1"); x.Refused != "Memory" {
		t.Fatalf("SET after a 1.2 MB transaction → %q (refused %q), want a refusal by Memory", x.Reply, x.Refused)
	}
	if x := p.Exec("DEL a b"); x.Refused != "" || x.Reply != "(integer) 2" {
		t.Fatalf("DEL a b → %q", x.Reply)
	}
	if x := p.Exec("SET c 1"); x.Refused != "" || x.Reply != "OK" {
		t.Fatalf("SET c 1 after DEL → %q (refused %q)", x.Reply, x.Refused)
	}
}
