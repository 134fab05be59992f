package lesson

import (
	"encoding/json"
	"reflect"
	"testing"

	"redscope/engine"
	"redscope/engine/alloc"
)

const handoverLesson = `lesson queue
title en: Queue
scene list
keys jobs

step
en: push
> RPUSH jobs a b c

step
en: pop
> LPOP jobs

step
en: last
> LLEN jobs
`

// TestHandoverResume: a session with steps, typed lines on three clients (a blocked BRPOP woken
// by another client's push, a MULTI left open, a clock move, a refused line) handed over to a
// fresh player with the same lesson resumes identically: the same state, transcript, replies,
// dataset digest and blocked client; the pending line is carried, not run.
func TestHandoverResume(t *testing.T) {
	l, err := Parse("queue.lesson", []byte(handoverLesson))
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Version: engine.V70, Allocator: alloc.Jemalloc16, Limits: &DefaultLimits, Lang: "en"}
	a := NewPlayer(cfg)
	a.Load(l)
	a.Step()
	a.Exec("SET counter 10")
	a.SetActiveClient(2)
	a.Exec("BRPOP waiting 0")
	a.SetActiveClient(1)
	a.Step()
	a.Exec("RPUSH waiting x")
	a.Exec("advance 5s")
	a.SetActiveClient(3)
	a.Exec("MULTI")
	a.Exec("INCR counter")
	a.Exec("DEBUG SLEEP 0")
	a.Exec("BRPOP other 0")
	a.SetActiveClient(2)
	a.Exec("BLPOP other 0")

	h := a.Handover()
	h.Lesson = "queue"
	h.Pending = &TypedLine{Pos: h.Pos, Client: 2, Line: `EVAL "return 1" 0`}
	text := h.Encode()
	got, err := DecodeHandover(text)
	if err != nil {
		t.Fatalf("decode: %v\n%s", err, text)
	}
	if !reflect.DeepEqual(got, h) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, h)
	}
	if got.Version != engine.V70 || got.Allocator != alloc.Jemalloc16 || got.Pos != 2 || got.Active != 2 || len(got.Typed) != 9 {
		t.Fatalf("handover %+v", got)
	}

	// The receiving player starts on the default profile and allocator: Resume sets h's.
	b := NewPlayer(Config{Limits: &DefaultLimits, Lang: "en"})
	b.Load(l)
	b.Resume(got)
	state := func(p *Player) string {
		s, err := json.Marshal(p.State())
		if err != nil {
			t.Fatal(err)
		}
		return string(s)
	}
	if sa, sb := state(a), state(b); sa != sb {
		t.Fatalf("state after resume:\n got %s\nwant %s", sb, sa)
	}
	if ta, tb := a.Transcript(), b.Transcript(); ta != tb {
		t.Fatalf("transcript after resume:\n got %s\nwant %s", tb, ta)
	}
	for n := 1; n <= Clients; n++ {
		if a.Waiting(n) != b.Waiting(n) {
			t.Errorf("client %d waits in %q after resume, %q before", n, b.Waiting(n), a.Waiting(n))
		}
	}
	if b.Waiting(2) != "BLPOP other 0" {
		t.Errorf("client 2 waits in %q", b.Waiting(2))
	}
	for _, cmd := range []string{"DEBUG DIGEST", "GET counter", "LRANGE jobs 0 -1", "TTL counter"} {
		if ra, rb := a.Exec(cmd).Reply, b.Exec(cmd).Reply; ra != rb {
			t.Errorf("%s: %q after resume, %q before", cmd, rb, ra)
		}
	}
	// Client 3's transaction is still open on both: EXEC runs it the same way.
	a.SetActiveClient(3)
	b.SetActiveClient(3)
	if ra, rb := a.Exec("EXEC").Reply, b.Exec("EXEC").Reply; ra != rb {
		t.Errorf("EXEC: %q after resume, %q before", rb, ra)
	}
	// Back from the resumed position reproduces the step before on both.
	a.Back()
	b.Back()
	if sa, sb := state(a), state(b); sa != sb {
		t.Fatalf("state after Back:\n got %s\nwant %s", sb, sa)
	}
}

func TestDecodeHandoverErrors(t *testing.T) {
	for _, s := range []string{"", "hello", handoverMagic + "\npos x", handoverMagic + "\nlesson unquoted", handoverMagic + "\nbogus 1", handoverMagic + "\ntyped 1 2", handoverMagic + "\nversion 6.0"} {
		if _, err := DecodeHandover(s); err == nil {
			t.Errorf("DecodeHandover(%q) accepted", s)
		}
	}
	h, err := DecodeHandover(Handover{Lesson: "✎ custom", Source: []byte("title x\nstep\n> SET \"a\tb\" 1\n")}.Encode())
	if err != nil || h.Lesson != "✎ custom" || string(h.Source) != "title x\nstep\n> SET \"a\tb\" 1\n" {
		t.Fatalf("custom lesson: %+v %v", h, err)
	}
}

func TestLineNeedsLua(t *testing.T) {
	for line, want := range map[string]bool{
		`EVAL "return 1" 0`: true, "evalsha abc 0": true, "EVAL_RO x 0": true, "FCALL f 0": true,
		"fcall_ro f 0": true, "FUNCTION LIST": true, "SCRIPT FLUSH": true, "  script load x": true,
		"HELP EVAL": false, "SET k v": false, "": false, "advance 5s": false, "MULTI": false, "GET eval": false,
	} {
		if got := LineNeedsLua(line); got != want {
			t.Errorf("LineNeedsLua(%q) = %v, want %v", line, got, want)
		}
	}
	l, err := Parse("x.lesson", []byte("lesson x\ntitle en: x\n\nstep\nen: a\n> SET k v\n\nstep\nen: b\n> EVAL \"return 1\" 0\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !l.NeedsLua() {
		t.Error("a lesson with EVAL does not need Lua")
	}
	l2, _ := Parse("y.lesson", []byte(handoverLesson))
	if l2.NeedsLua() {
		t.Error("a lesson without scripts needs Lua")
	}
	// Parse finds it once: the app asks at every change of place, and walking a 5 000-step
	// lesson each time made every step of TestLongLessonNext four times slower.
	l2.Steps[0].Actions[0].Cmd = `EVAL "return 1" 0`
	if l2.NeedsLua() || !l2.runsScripts() {
		t.Error("NeedsLua walks the steps again")
	}
	var none *Lesson
	if none.NeedsLua() {
		t.Error("the sandbox needs Lua")
	}
}
