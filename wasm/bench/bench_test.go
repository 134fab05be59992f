package bench

import (
	"testing"
	"time"

	"redscope/engine"
	"redscope/engine/alloc"
)

// The article's week (seeds/000 §3.7): 800 000 true viewers, PFCOUNT of the seven days and of
// their merge both 807767 (the figure `redscope lab hll` reproduces with the same ids).
func TestCourseWeek(t *testing.T) {
	for _, o := range []engine.Options{{}, {Version: engine.V70, Allocator: alloc.Jemalloc16}} {
		e := engine.New(o)
		t0 := time.Now()
		r := CourseWeek.Run(e)
		t.Logf("%v: %+v in %v", e.Version(), r, time.Since(t0))
		if r.Err != "" {
			t.Fatal(r.Err)
		}
		if r.Elements != 1_400_000 || r.Distinct != 800_000 || r.Commands != 1403 {
			t.Fatalf("workload %+v", r)
		}
		if r.OnTheFly != 807767 || r.Merged != 807767 {
			t.Fatalf("PFCOUNT %d / %d, want 807767", r.OnTheFly, r.Merged)
		}
		if got := e.Do("PFCOUNT", "d1").Int; got < 199000 || got > 201000 {
			t.Fatalf("PFCOUNT d1 = %d", got)
		}
	}
}

func TestSmallAndInvalid(t *testing.T) {
	e := engine.New(engine.Options{})
	r := Week{Days: 2, PerDay: 3, Overlap: 0.5, Batch: 2}.Run(e)
	// step round(1.5) = 2: day 1 u0 u1 u2, day 2 u2 u3 u4 → 5 distinct, batches 2+1 per day.
	if r.Err != "" || r.Elements != 6 || r.Distinct != 5 || r.Commands != 4+3 || r.OnTheFly != 5 || r.Merged != 5 {
		t.Fatalf("%+v", r)
	}
	if got := e.Do("PFCOUNT", "d2").Int; got != 3 {
		t.Fatalf("PFCOUNT d2 = %d", got)
	}
	for _, w := range []Week{{}, {Days: 1, PerDay: 1, Overlap: 2, Batch: 1}, {Days: 1001, PerDay: 1, Batch: 1},
		{Days: 1000, PerDay: 10_000_000, Batch: 1}, {Days: 1, PerDay: 1, Overlap: -0.1, Batch: 1}} {
		if r := w.Run(e); r.Err == "" || r.Commands != 0 {
			t.Errorf("%+v accepted: %+v", w, r)
		}
	}
}

func BenchmarkCourseWeek(b *testing.B) {
	for b.Loop() {
		CourseWeek.Run(engine.New(engine.Options{}))
	}
}
