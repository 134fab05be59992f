package assets

import (
	"reflect"
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

// The app lists the lessons with lesson.ParseHeader and parses one only when it opens: the
// header scan must give every built-in lesson's name, title and course lines as Parse does.
func TestParseHeaderOfBuiltinLessons(t *testing.T) {
	for _, src := range Lessons() {
		h, err := lesson.ParseHeader(src.Name+".lesson", src.Src)
		if err != nil {
			t.Fatal(err)
		}
		l, err := lesson.Parse(src.Name+".lesson", src.Src)
		if err != nil {
			t.Fatal(err)
		}
		if h.Name != l.Name || h.Title != l.Title || !reflect.DeepEqual(h.Course, l.Course) {
			t.Errorf("%s: header %q %+v %v, Parse %q %+v %v", src.Name, h.Name, h.Title, h.Course, l.Name, l.Title, l.Course)
		}
	}
}
