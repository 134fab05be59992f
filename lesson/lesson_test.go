package lesson

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"redscope/engine"
	"redscope/engine/alloc"
)

const sample = `# a comment
lesson demo
title vi: Thử nghiệm
title en: A trial
scene bits
keys k other
seed 42
vi: Giới thiệu.
en: Intro.

step
vi: Bước một,
vi: hai dòng.
en: Step one.
> ECHO "hello world"
expect reply: "hello world"
> PING
expect reply: PONG

step
advance 1500ms
> ECHO user:1
expect reply: "user:1"
expect type user:1: none
`

func TestParse(t *testing.T) {
	l, err := Parse("lessons/x.lesson", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	if l.Name != "demo" || l.Title.VI != "Thử nghiệm" || l.Title.EN != "A trial" || l.Scene != "bits" || l.Seed != 42 {
		t.Fatalf("header: %+v", l)
	}
	if strings.Join(l.Keys, ",") != "k,other" || l.Intro.In("en") != "Intro." {
		t.Fatalf("keys/intro: %+v", l)
	}
	if len(l.Steps) != 2 {
		t.Fatalf("steps: %d", len(l.Steps))
	}
	s := l.Steps[0]
	if s.Caption.VI != "Bước một, hai dòng." || s.Caption.In("en") != "Step one." {
		t.Fatalf("caption %q", s.Caption.VI)
	}
	if len(s.Actions) != 2 || s.Actions[0].Cmd != `ECHO "hello world"` || s.Actions[0].Expect[0].Want != `"hello world"` {
		t.Fatalf("actions %+v", s.Actions)
	}
	a := l.Steps[1].Actions
	if len(a) != 2 || a[0].Advance != 1500*time.Millisecond || a[1].Expect[1].Key != "user:1" || a[1].Expect[1].Want != "none" {
		t.Fatalf("step 2: %+v", a)
	}
	if l.Steps[1].Caption.In("vi") != "" {
		t.Fatalf("empty caption expected")
	}
}

func TestParseMultiLineReply(t *testing.T) {
	l, err := Parse("m", []byte("title en: t\nstep\n> X\nexpect reply: 1) \"a\"\nexpect reply: 2) \"b\"\nexpect encoding k: int\n"))
	if err != nil {
		t.Fatal(err)
	}
	ex := l.Steps[0].Actions[0].Expect
	if len(ex) != 2 || ex[0].Want != "1) \"a\"\n2) \"b\"" || ex[1].Kind != CheckEncoding {
		t.Fatalf("%+v", ex)
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"step\n> PING\n", "x:1: missing title"},
		{"title vi: a\n", "a lesson needs at least one step"},
		{"title vi: a\n> PING\n", "x:2: command before the first step"},
		{"title vi: a\nstep\nexpect reply: OK\n", "x:3: expect without a command"},
		{"title vi: a\nstep\n> PING\nexpect size: 3\n", "x:4: unknown check"},
		{"title vi: a\nscene pie\n", "x:2: unknown scene"},
		{"title vi: a\nstep\n> ECHO \"a\n", "x:3: cannot split command"},
		{"title vi: a\nstep\nadvance -3s\n", "x:3: advance needs"},
		{"title vi: a\nstep\nvi: x\n", "x:2: step 1 has no command"},
		{"title vi: a\nwhat\n", "x:2: unknown header line"},
		{"title vi: a\nsince 6.2\n", "x:2: unknown Redis version"},
		{"title vi: a\nstep\n> PING\nfoo bar\n", "x:4: unknown line in a step"},
	}
	for _, c := range cases {
		_, err := Parse("x", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.src, err, c.want)
		}
	}
}

// loaded is a player (default config) with the lesson src loaded.
func loaded(t *testing.T, src string) *Player {
	t.Helper()
	p := NewPlayer(Config{})
	p.Load(mustParse(t, src))
	return p
}

func mustParse(t *testing.T, src string) *Lesson {
	t.Helper()
	l, err := Parse("t", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestPlayerStepBackReset(t *testing.T) {
	l := mustParse(t, sample)
	p := NewPlayer(Config{Version: engine.V70, Allocator: alloc.Jemalloc16})
	p.Load(l)
	if p.Pos() != 0 || p.Len() != 2 || p.Caption("en") != "Intro." || len(p.Last()) != 0 {
		t.Fatalf("start: pos %d len %d", p.Pos(), p.Len())
	}
	if !p.Step() || p.Pos() != 1 {
		t.Fatal("step 1")
	}
	if got := p.Last(); len(got) != 2 || got[0].Reply != `"hello world"` || got[1].Reply != "PONG" || !got[0].Checks[0].OK {
		t.Fatalf("step 1 exchanges %+v", got)
	}
	if p.Caption("vi") != "Bước một, hai dòng." {
		t.Fatal(p.Caption("vi"))
	}
	p.Step()
	if p.Pos() != 2 || p.Engine().NowMs() != engine.StartMs+1500 {
		t.Fatalf("clock %d", p.Engine().NowMs())
	}
	if p.Step() {
		t.Fatal("stepped past the end")
	}
	if f := p.Failed(); len(f) != 0 {
		t.Fatalf("failed checks %+v", f)
	}
	old := p.Engine()
	if !p.Back() || p.Pos() != 1 || p.Engine() == old || p.Engine().NowMs() != engine.StartMs {
		t.Fatalf("back: pos %d clock %d", p.Pos(), p.Engine().NowMs())
	}
	// The replayed position shows the same exchanges as the live one.
	if got := p.Last(); len(got) != 2 || got[1].Reply != "PONG" {
		t.Fatalf("after back %+v", got)
	}
	p.Back()
	if p.Back() || p.Pos() != 0 || len(p.Last()) != 0 {
		t.Fatal("back at 0")
	}
	p.Seek(2)
	if p.Pos() != 2 {
		t.Fatal("seek")
	}
	p.Seek(-4)
	if p.Pos() != 0 {
		t.Fatal("seek clamp")
	}
	p.Seek(99)
	p.Reset()
	if p.Pos() != 0 || p.Engine().NowMs() != engine.StartMs {
		t.Fatal("reset")
	}
}

func TestFailedCheck(t *testing.T) {
	p := loaded(t, "title en: t\nstep\n> PING\nexpect reply: PANG\nexpect encoding k: int\n")
	p.Step()
	f := p.Failed()
	if len(f) != 2 || f[0].Got != "PONG" || f[0].Check != "expect reply: PANG" || f[1].Got != "(nil)" {
		t.Fatalf("%+v", f)
	}
}

func TestConsoleExtrasReplay(t *testing.T) {
	p := loaded(t, "title en: t\nstep\n> SELECT 1\nstep\n> ECHO b\nstep\n> ECHO c\n")
	x := p.Exec(`ECHO "at 0"`)
	if x.Reply != `"at 0"` || !x.Console {
		t.Fatalf("%+v", x)
	}
	p.Step() // SELECT 1
	p.Exec("SELECT 3")
	p.Step()
	p.Exec("ECHO two")
	if p.Engine().CurrentDB() != 3 {
		t.Fatalf("db %d", p.Engine().CurrentDB())
	}
	// Back to 1: the console line typed at 1 is replayed, the one at 2 is dropped.
	p.Back()
	if p.Pos() != 1 || p.Engine().CurrentDB() != 3 {
		t.Fatalf("pos %d db %d", p.Pos(), p.Engine().CurrentDB())
	}
	last := p.Last()
	if len(last) != 2 || last[0].Cmd != "SELECT 1" || last[1].Cmd != "SELECT 3" || !last[1].Console {
		t.Fatalf("last %+v", last)
	}
	p.Step()
	p.Back()
	if len(p.Last()) != 2 {
		t.Fatalf("console line at 2 came back: %+v", p.Last())
	}
	p.Back()
	if p.Engine().CurrentDB() != 0 || len(p.Last()) != 1 || p.Last()[0].Cmd != `ECHO "at 0"` {
		t.Fatalf("pos 0: %+v", p.Last())
	}
	p.Reset()
	if len(p.Last()) != 0 {
		t.Fatal("reset keeps console lines")
	}
	bad := p.Exec(`ECHO "unbalanced`)
	if bad.Reply != "Invalid argument(s)" || !bad.Error {
		t.Fatalf("%+v", bad)
	}
}

func TestSetConfigReplays(t *testing.T) {
	l := mustParse(t, "title en: t\nstep\n> SELECT 2\nstep\n> ECHO b\n")
	p := NewPlayer(Config{Version: engine.V88})
	p.Load(l)
	p.Step()
	p.Step()
	p.SetConfig(Config{Version: engine.V70, Allocator: alloc.Jemalloc16})
	st := p.State()
	if st.Step != 2 || st.Version != "7.0" || st.Allocator != "jemalloc-16" || p.Engine().CurrentDB() != 2 {
		t.Fatalf("%+v", st)
	}
}

func TestStateJSONAndRun(t *testing.T) {
	l := mustParse(t, sample)
	states := Run(l, Config{Version: engine.V72})
	if len(states) != 3 || states[0].Step != 0 || states[2].Step != 2 || states[2].Steps != 2 {
		t.Fatalf("%+v", states)
	}
	b, err := json.Marshal(states[1])
	if err != nil {
		t.Fatal(err)
	}
	want := `{"lesson":"demo","step":1,"steps":2,"version":"7.2","allocator":"jemalloc","outputs":{"commands":[{"cmd":"ECHO \"hello world\"","reply":"\"hello world\"","checks":[{"check":"expect reply: \"hello world\"","ok":true,"got":"\"hello world\""}]},{"cmd":"PING","reply":"PONG","checks":[{"check":"expect reply: PONG","ok":true,"got":"PONG"}]}],"keys":[{"key":"k","exists":false,"type":"none","encoding":"","len":-1,"memory":-1,"ttlMs":-2},{"key":"other","exists":false,"type":"none","encoding":"","len":-1,"memory":-1,"ttlMs":-2}]},"clients":[{"n":1},{"n":2},{"n":3}],"active":1}`
	if string(b) != want {
		t.Fatalf("json\n%s\nwant\n%s", b, want)
	}
}

// TestStringKeyInfo measures a real string key once the string commands exist.
func TestStringKeyInfo(t *testing.T) {
	if !engine.New(engine.Options{}).HasCommand("append") {
		t.Skip("SET/APPEND not implemented yet")
	}
	l := mustParse(t, "title en: t\nkeys k\nstep\n> SET k hello\nexpect encoding k: embstr\nstep\n> APPEND k \" world\"\nexpect reply: (integer) 11\nexpect encoding k: raw\nexpect len k: 11\n")
	p := NewPlayer(Config{Version: engine.V70, Allocator: alloc.Jemalloc16})
	p.Load(l)
	p.Seek(2)
	if f := p.Failed(); len(f) != 0 {
		t.Fatalf("%+v", f)
	}
	k := p.State().Outputs.Keys[0]
	// sds.go's documented example: 11 bytes asked for 22, sds8, malloc(26) → 32 usable, alloc 28.
	if k.SDS == nil || k.SDS.Type != "sds8" || k.SDS.Alloc != 28 || k.SDS.Avail != 17 || k.SDS.Usable != 32 || k.Len != 11 {
		t.Fatalf("%+v %+v", k, k.SDS)
	}
}

// TestRepeatedArg: an "arg TEXT*N" line appends one argument made of TEXT repeated N times; the
// engine runs the full command, the exchange shows the short form, Back replays it, and checks
// before or after the line apply to the command.
func TestRepeatedArg(t *testing.T) {
	l := mustParse(t, `title en: t
step
> SET big
expect reply: OK
arg x*100000
expect len big: 100000
> APPEND big
arg "ab \x00"*3
expect reply: (integer) 100012
> HSET h f
arg v*2
args 1..2 > g%d w%d
expect reply: (integer) 3
step
> GETRANGE big 99998 -1
expect reply: "xxab \x00ab \x00ab \x00"
`)
	a := l.Steps[0].Actions
	if a[0].Cmd != "SET big x×100000" || len(a[0].Run) != len("SET big ")+100000 || !strings.HasSuffix(a[0].Run, " "+strings.Repeat("x", 100000)) {
		t.Fatalf("SET: Cmd %q, Run %d bytes", a[0].Cmd, len(a[0].Run))
	}
	if a[1].Cmd != `APPEND big "ab \x00"×3` || a[1].Run != `APPEND big "ab \x00ab \x00ab \x00"` {
		t.Fatalf("APPEND: %q / %q", a[1].Cmd, a[1].Run)
	}
	if a[2].Cmd != "HSET h f v×2 g1 w1 g2 w2" || a[2].Run != "HSET h f vv g1 w1 g2 w2" {
		t.Fatalf("HSET: %q / %q", a[2].Cmd, a[2].Run)
	}
	if len(a[0].Expect) != 2 || len(a[1].Expect) != 1 {
		t.Fatalf("checks: %+v %+v", a[0].Expect, a[1].Expect)
	}
	p := NewPlayer(Config{})
	p.Load(l)
	p.Step()
	p.Step()
	p.Back()
	p.Step()
	for i, st := range Run(l, Config{})[1:] {
		for _, x := range st.Outputs.Commands {
			for _, c := range x.Checks {
				if !c.OK {
					t.Errorf("step %d: %s: got %q", i+1, c.Check, c.Got)
				}
			}
		}
	}
	if got := p.Key("big").Len; got != 100012 {
		t.Fatalf("after Back and Step: STRLEN big = %d", got)
	}
	if x := p.State().Outputs.Commands[0]; x.Cmd != "GETRANGE big 99998 -1" {
		t.Fatalf("state shows %q", x.Cmd)
	}
	st := Run(l, Config{})[1]
	if x := st.Outputs.Commands[0]; x.Cmd != "SET big x×100000" || x.Reply != "OK" {
		t.Fatalf("state() of step 1 shows %q → %q", x.Cmd, x.Reply)
	}
	for _, c := range []struct{ src, want string }{
		{"> SET a\narg x\n", "arg needs TEXT*N"},
		{"> SET a\narg x*0\n", "arg needs TEXT*N"},
		{"> SET a\narg x*-3\n", "arg needs TEXT*N"},
		{"> SET a\narg *5\n", "arg needs TEXT*N"},
		{"> SET a\narg \"\"*5\n", "arg needs TEXT*N"},
		{"> SET a\narg a b*5\n", "arg needs TEXT*N"},
		{"> SET a\narg \"x*5\n", "arg needs TEXT*N"},
		{"> SET a\narg xy*20000000\n", "at most 33554432"},
		{"arg x*5\n", "arg without a command"},
		{"advance 1s\narg x*5\n", "arg without a command"},
	} {
		_, err := Parse("x", []byte("title en: t\nstep\n"+c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.src, err, c.want)
		}
	}
	// TEXT may itself contain '*': N is after the last one.
	l = mustParse(t, "title en: t\nstep\n> SET a\narg \"*\"*4\n")
	if l.Steps[0].Actions[0].Run != "SET a ****" {
		t.Fatalf("%q", l.Steps[0].Actions[0].Run)
	}
}

// The split form kept for args/arg lines is what splitting Run gives, and every call of Args
// returns its own copy (the engine may keep and change what it runs).
func TestActionArgsMatchRun(t *testing.T) {
	l, err := Parse("t", []byte("title en: t\nstep\n> HSET h\nargs 1..3 > f%d v%d\n> SET s\narg \"a b\"*3\n> APPEND s\narg x*2\nargs 1..2 > y%d\n> GET s\n"))
	if err != nil {
		t.Fatal(err)
	}
	acts := l.Steps[0].Actions
	for _, a := range acts[:3] {
		want, err := engine.SplitArgs(a.Run)
		if err != nil {
			t.Fatal(err)
		}
		got := a.Args()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Args %q, split Run %q", a.Cmd, got, want)
		}
		got[len(got)-1][0] = '!'
		if again := a.Args(); reflect.DeepEqual(again, got) {
			t.Errorf("%s: Args shares memory between calls", a.Cmd)
		}
	}
	if acts[3].Args() != nil {
		t.Errorf("a plain command has Args %q", acts[3].Args())
	}
}

// parseAndHeader reads src with Parse and with ParseHeader; either failing fails the test.
func parseAndHeader(t *testing.T, name, src string) (l, h *Lesson) {
	t.Helper()
	l, err := Parse(name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	h, err = ParseHeader(name, []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return l, h
}

// ParseHeader gives the name and title Parse gives, for every built-in lesson shape.
func TestParseHeaderMatchesParse(t *testing.T) {
	for _, src := range []string{
		"lesson a-b\ntitle vi: Một\ntitle vi: hai\ntitle en: One\ncourse 001 3.2\nscene sds\nkeys a\ncourse 003 uc1\nvi: intro\nstep\n> SET a 1\n",
		"title en: only english\nstep\nen: title vi: not a title\n> PING\n",
		"# c\n  title vi:   x  \nstep 2\n> PING\n",
	} {
		l, h := parseAndHeader(t, "x/file.lesson", src)
		if h.Name != l.Name || h.Title != l.Title || !reflect.DeepEqual(h.Course, l.Course) {
			t.Errorf("%q: header %q %+v %v, Parse %q %+v %v", src, h.Name, h.Title, h.Course, l.Name, l.Title, l.Course)
		}
	}
	if _, err := ParseHeader("t", []byte("step\ntitle en: late\n")); err == nil {
		t.Error("a title after the first step was taken")
	}
}
