package bench

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"redscope/engine"
	"redscope/lesson"
	"redscope/scene"
)

// BenchmarkTypedWeek is the page's per-command Go work natively, without the DOM: the course
// week's PFADDs of 1 000 elements typed into a player under the page's limits, each followed by
// what app.changed does outside the DOM (the scene's Update on the Recent window, the watched
// keys and their figures, the text alternative).
func BenchmarkTypedWeek(b *testing.B) {
	for i := 0; i < b.N; i++ {
		typedWeek(b, 7, 300)
	}
}

func typedWeek(tb testing.TB, days, perDay int) (p *lesson.Player, player, page time.Duration) {
	p = lesson.NewPlayer(lesson.Config{Version: engine.DefaultVersion, Limits: &lesson.DefaultLimits, Lang: "vi"})
	sc := scene.NewAuto("", nil)
	for d := 0; d < days; d++ {
		for c := 0; c < perDay; c++ {
			var sb strings.Builder
			sb.WriteString("PFADD d" + strconv.Itoa(d+1))
			lo := d*150000 + c*1000
			for i := 0; i < 1000; i++ {
				sb.WriteString(" u" + strconv.Itoa(lo+i))
			}
			t0 := time.Now()
			p.Exec(sb.String())
			t1 := time.Now()
			sc.Update(scene.Input{Engine: p.Engine(), Keys: p.Watched(), Last: lesson.EngineExchanges(p.Recent()), Lang: "vi"})
			for _, k := range p.Watched() {
				p.Key(k)
			}
			scene.Describe(sc)
			player += t1.Sub(t0)
			page += time.Since(t1)
		}
	}
	return
}

// TestTypedWeekSplit logs the split natively: the player's time (engine, tracing, limits) and the
// page's work without the DOM. `go test -run TestTypedWeekSplit -v -cpuprofile cpu.out
// ./wasm/bench` gives the profile BENCHMARKS.md quotes. It checks the last day's PFCOUNT.
func TestTypedWeekSplit(t *testing.T) {
	if testing.Short() {
		t.Skip("2 100 PFADDs of 1 000 elements")
	}
	p, pl, pg := typedWeek(t, 7, 300)
	t.Logf("player %v, page (no DOM) %v", pl, pg)
	// Day 7 on a plain engine (the days are separate keys).
	e := engine.New(engine.Options{})
	for c := 0; c < 300; c++ {
		args := []string{"PFADD", "d7"}
		for i := 0; i < 1000; i++ {
			args = append(args, "u"+strconv.Itoa(6*150000+c*1000+i))
		}
		e.Do(args...)
	}
	if got, want := p.Exec("PFCOUNT d7").Reply, "(integer) "+strconv.FormatInt(e.Do("PFCOUNT", "d7").Int, 10); got != want {
		t.Errorf("PFCOUNT d7 = %s through the player, %s on a plain engine", got, want)
	}
}
