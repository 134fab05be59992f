package scene

import (
	"fmt"
	"strings"
	"testing"

	"redscope/engine"
	"redscope/engine/alloc"
	"redscope/lesson"
)

// BenchmarkHLLTyped measures one typed PFADD of 1 000 elements on the hll scene: the scene's
// Update and its settled frame on a laptop stage, after `history` earlier typed PFADDs (the
// player's Recent window holds up to lesson.RecentConsole of them, each with its 1 000 HLL
// events). The cost per command should not grow with the history.
func BenchmarkHLLTyped(b *testing.B) {
	for _, history := range []int{0, 7, 100} {
		b.Run(fmt.Sprintf("history%d", history), func(b *testing.B) {
			p := lesson.NewPlayer(lesson.Config{Version: engine.V70, Allocator: alloc.Jemalloc16})
			pfadd := func(n int) string {
				var sb strings.Builder
				sb.WriteString("PFADD week")
				for i := 0; i < 1000; i++ {
					fmt.Fprintf(&sb, " u%d-%d", n, i)
				}
				return sb.String()
			}
			for i := 0; i < history; i++ {
				p.Exec(pfadd(i))
			}
			p.Exec(pfadd(history))
			in := Input{Engine: p.Engine(), Keys: []string{"week"}, Last: lesson.EngineExchanges(p.Recent()), Lang: "en"}
			s := New("hll").(*HLL)
			r := Stage(1280, 800)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s.Update(in)
				s.Frame(r, 1)
			}
		})
	}
}
