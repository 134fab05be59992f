package lesson

import (
	"fmt"
	"testing"
)

// TestRecentBounded: after many typed commands Recent keeps the step's own exchanges and the
// newest RecentConsole typed ones, only those keep their events and split lines, Last keeps them
// all, Gen changes on a step but not on Exec, and Typed lists the lines replayed before the
// current step.
func TestRecentBounded(t *testing.T) {
	p := loaded(t, "title en: t\nstep\nen: one\n> SET a 1\n> SET b 2\nstep\nen: two\n> GET a\n")
	p.Step()
	g := p.Gen()
	for i := 0; i < 100; i++ {
		p.Exec(fmt.Sprintf("SET k%d v", i))
	}
	if p.Gen() != g {
		t.Fatal("Exec changed Gen")
	}
	if n := len(p.Last()); n != 102 {
		t.Fatalf("Last has %d", n)
	}
	r := p.Recent()
	if len(r) != 2+RecentConsole || r[0].Cmd != "SET a 1" || r[1].Cmd != "SET b 2" || r[2].Cmd != fmt.Sprintf("SET k%d v", 100-RecentConsole) || r[len(r)-1].Cmd != "SET k99 v" {
		t.Fatalf("Recent %d: %q %q %q", len(r), r[0].Cmd, r[2].Cmd, r[len(r)-1].Cmd)
	}
	for i, x := range p.Last() {
		if kept := i < 2 || i >= len(p.Last())-RecentConsole; kept != (len(x.Events) > 0) || !kept && x.Args != nil {
			t.Fatalf("exchange %d %q: %d events, %d split arguments", i, x.Cmd, len(x.Events), len(x.Args))
		}
	}
	if w := p.Watched(); len(w) != 6 || w[0] != "a" || w[1] != "b" {
		t.Fatalf("Watched %v", w)
	}
	p.Step()
	if p.Gen() == g || len(p.Last()) != 1 {
		t.Fatalf("after step: gen %d, last %d", p.Gen(), len(p.Last()))
	}
	if ty := p.Typed(); len(ty) != 100 || ty[0] != "SET k0 v" {
		t.Fatalf("Typed %d", len(ty))
	}
	p.Back()
	if len(p.Last()) != 102 || len(p.Recent()) != 2+RecentConsole || len(p.Typed()) != 0 {
		t.Fatalf("after back: last %d recent %d typed %d", len(p.Last()), len(p.Recent()), len(p.Typed()))
	}
}

// TestCulprits: a check that fails because of a typed line names that line, and only it.
func TestCulprits(t *testing.T) {
	p := loaded(t, "title en: t\nstep\nen: one\n> SET a 1\nstep\nen: two\n> APPEND a x\nexpect len a: 2\n")
	p.Step()
	p.Exec("SET b 1")
	p.Exec("SET a hello")
	p.Step()
	f := p.Failed()
	if len(f) != 1 || f[0].Key != "a" || f[0].Want != "2" || f[0].Got != "6" {
		t.Fatalf("failed %+v", f)
	}
	if c := p.Culprits(f[0]); len(c) != 1 || c[0] != "SET a hello" {
		t.Fatalf("culprits %q", c)
	}
}
