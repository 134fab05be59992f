package lesson

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"redscope/engine"
)

// watchedWalk is Watched as it was before it kept each exchange's keys (issue 11): a walk over
// all the events of Recent.
func watchedWalk(p *Player) []string {
	var out []string
	seen := map[string]bool{}
	add := func(k string) {
		if !seen[k] && len(out) < 6 {
			seen[k] = true
			out = append(out, k)
		}
	}
	if p.lesson != nil {
		for _, k := range p.lesson.Keys {
			add(k)
		}
	}
	prev := ""
recent:
	for _, x := range p.Recent() {
		for _, ev := range x.Events {
			if len(out) == 6 {
				break recent
			}
			if k, ok := engine.EventKey(ev); ok && (k != prev || len(out) == 0) {
				prev = k
				add(k)
			}
		}
	}
	return out
}

// TestWatchedIsWalk: Watched, which walks each exchange's events once, lists what the walk over
// all of Recent listed, after random typed commands naming one or many keys (MSET, DEL, RENAME,
// PFADD …), steps, Back and Reset, with lesson keys and without.
func TestWatchedIsWalk(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 1))
	key := func() string { return fmt.Sprintf("k%d", r.IntN(14)) }
	lines := []func() string{
		func() string { return "SET " + key() + " v" },
		func() string { return "MSET " + key() + " 1 " + key() + " 2 " + key() + " 3 " + key() + " 4" },
		func() string { return "DEL " + key() + " " + key() + " " + key() },
		func() string { return "RENAME " + key() + " " + key() },
		func() string { return "PFADD h" + key() + " a b c d e f g" },
		func() string { return "RPUSH l" + key() + " x y" },
		func() string { return "SADD s" + key() + " m" },
		func() string { return "MSET a 1 b 2 c 3 d 4 e 5 f 6 g 7 h 8 i 9" },
		func() string { return "PING" },
		func() string { return "GET " + key() },
		func() string { return "BOGUS " + key() },
	}
	for _, src := range []string{"", "title en: t\nkeys a k3\nstep\nen: one\n> SET a 1\n> MSET x 1 y 2\nstep\nen: two\n> DEL a\n> SET k3 z\nstep\nen: three\n> SET q 1\n",
		"title en: t\nkeys a b c d e f\nstep\nen: one\n> SET a 1\n"} {
		var p *Player
		if src == "" {
			p = NewPlayer(Config{Version: engine.DefaultVersion, Limits: &DefaultLimits})
		} else {
			p = loaded(t, src)
		}
		for i := 0; i < 400; i++ {
			switch n := r.IntN(40); {
			case n == 0:
				p.Step()
			case n == 1:
				p.Back()
			case n == 2 && i%7 == 0:
				p.Reset()
			default:
				p.Exec(lines[r.IntN(len(lines))]())
			}
			if got, want := p.Watched(), watchedWalk(p); !reflect.DeepEqual(got, want) {
				t.Fatalf("lesson %q, after %d lines: Watched %q, the walk gives %q", src[:min(len(src), 20)], i, got, want)
			}
		}
	}
}
