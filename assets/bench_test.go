package assets

import (
	"testing"

	"redscope/lesson"
)

// BenchmarkBuiltinLessons plays each built-in lesson from the start to its end under the
// browser's limits, as Back from the last step replays it (go test -bench BuiltinLessons
// ./assets; figures in BENCHMARKS.md).
func BenchmarkBuiltinLessons(b *testing.B) {
	for _, src := range Lessons() {
		l, err := lesson.Parse(src.Name, src.Src)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(src.Name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				p := lesson.NewPlayer(lesson.Config{Limits: &lesson.DefaultLimits})
				p.Load(l)
				for p.Step() {
				}
			}
		})
	}
}
