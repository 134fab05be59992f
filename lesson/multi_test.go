package lesson

import (
	"reflect"
	"testing"
)

func replies(xs []Exchange) []string {
	var out []string
	for _, x := range xs {
		out = append(out, x.Cmd+" → "+x.Reply)
	}
	return out
}

// MULTI … EXEC typed in the console: queued lines answer QUEUED, EXEC runs them, and Back/Step
// replays the position exactly (replies, keys, an open MULTI). The lesson's steps run apart from
// the console's transaction, as another client: they are not queued, and they touch the
// console's WATCHed keys.
func TestConsoleMultiReplay(t *testing.T) {
	for _, limits := range []*Limits{nil, &DefaultLimits} {
		l := mustParse(t, "title en: t\nstep\n> SET k 1\nstep\n> INCR k\nstep\n> ECHO done\n")
		p := NewPlayer(Config{Limits: limits})
		p.Load(l)
		p.Step() // SET k 1
		for _, line := range []string{"WATCH k", "MULTI", "INCR k", "APPEND log a", "EXEC"} {
			p.Exec(line)
		}
		got := replies(p.Last())
		want := []string{"SET k 1 → OK", "WATCH k → OK", "MULTI → OK", "INCR k → QUEUED",
			"APPEND log a → QUEUED", "EXEC → 1) (integer) 2\n2) (integer) 1"}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("limits %v: %q\nwant %q", limits != nil, got, want)
		}
		var evs int
		for _, x := range p.Last()[3:5] {
			evs += len(x.Events)
		}
		if evs != 0 {
			t.Fatalf("queued lines emitted %d events", evs)
		}
		if len(p.Last()[5].Events) == 0 {
			t.Fatal("EXEC emitted no events")
		}
		// An open transaction and a watched key at position 2.
		p.Step() // INCR k → 3, by the lesson
		p.Exec("WATCH k")
		p.Exec("MULTI")
		p.Exec("SET k 100")
		atTwo := replies(p.Last())
		p.Step() // ECHO done: run by the lesson, not queued
		if x := p.Last()[0]; x.Reply != `"done"` {
			t.Fatalf("the lesson's step was queued: %+v", x)
		}
		p.Back()
		if got := replies(p.Last()); !reflect.DeepEqual(got, atTwo) {
			t.Fatalf("Back: %q\nwant %q", got, atTwo)
		}
		if k := p.Key("k"); k.Len != 1 { // "3": the queued SET has not run
			t.Fatalf("k after Back: %+v", k)
		}
		// The transaction is still open after the replay: EXEC runs the queued SET.
		if x := p.Exec("EXEC"); x.Reply != "1) OK" {
			t.Fatalf("EXEC after Back: %q", x.Reply)
		}
		if k := p.Key("k"); k.Len != 3 {
			t.Fatalf("k after EXEC: %+v", k)
		}
		// A lesson step writing a watched key aborts the console's EXEC.
		p.Back()
		p.Back() // position 1: k = 2
		p.Exec("WATCH k")
		p.Step() // INCR k by the lesson
		p.Exec("MULTI")
		p.Exec("SET k 0")
		if x := p.Exec("EXEC"); x.Reply != "(nil)" {
			t.Fatalf("EXEC after the lesson wrote the watched key: %q", x.Reply)
		}
		before := replies(p.Last())
		p.Step()
		p.Back()
		if got := replies(p.Last()); !reflect.DeepEqual(got, before) {
			t.Fatalf("replay of an aborted EXEC: %q\nwant %q", got, before)
		}
	}
}
