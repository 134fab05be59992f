package scene

import (
	"testing"

	"redscope/engine"
	"redscope/engine/alloc"
	"redscope/lesson"
)

// playTo plays the built-in lesson name to step n (7.0, Debian's allocator) and builds scene s.
func playTo(t *testing.T, name string, n int, s Scene) *lesson.Player {
	t.Helper()
	l := encBuiltin(t, name)
	p := lesson.NewPlayer(lesson.Config{Version: engine.V70, Allocator: alloc.Jemalloc16})
	p.Load(l)
	for i := 0; i < n; i++ {
		if !p.Step() {
			t.Fatalf("%s has no step %d", name, n)
		}
	}
	s.Update(Input{Engine: p.Engine(), Keys: p.Watched(), Last: lesson.EngineExchanges(p.Last()), Lang: "en"})
	return p
}

// TestRaceLanes: the lost update's read step draws client 1's GET in the left lane and client 2's
// in the right one, in the order they ran, each with the "5" it read; the write step ends with
// the key at "6" after two SETs.
func TestRaceLanes(t *testing.T) {
	s := &Race{}
	playTo(t, "lost-update", 2, s)
	if len(s.Rows) != 2 || s.Rows[0].Client != 1 || s.Rows[1].Client != 2 || s.Rows[0].Reply != `"5"` || s.Rows[1].Reply != `"5"` {
		t.Fatalf("rows %+v", s.Rows)
	}
	st := Stage(1280, 800)
	var x1, x2 float64 = -1, -1
	for _, q := range s.Frame(st, 1) {
		if q.Kind == KText && q.Text == "GET sold:sku-giay" {
			if x1 < 0 {
				x1 = q.X
			} else {
				x2 = q.X
			}
		}
	}
	if x1 < 0 || x2 <= x1+st.W*0.3 {
		t.Fatalf("GET cards at x %.0f and %.0f: not in two lanes", x1, x2)
	}
	playTo(t, "lost-update", 3, s)
	if s.Keys[0].Value != `"6"` || len(s.Rows) != 3 || s.Rows[0].Cmd != "SET sold:sku-giay 6" || s.Rows[1].Client != 2 {
		t.Fatalf("write step: key %+v rows %+v", s.Keys[0], s.Rows)
	}
	// The WATCH step: EXEC answered (nil), drawn as a refusal; the queued SET as queued.
	playTo(t, "lost-update", 6, s)
	var exec, set RaceRow
	for _, r := range s.Rows {
		switch r.Cmd {
		case "EXEC":
			exec = r
		case "SET sold:sku-giay 8":
			set = r
		}
	}
	if !exec.Nil || !set.Queued {
		t.Fatalf("EXEC %+v SET %+v", exec, set)
	}
}

// TestMemorySums: the profile step measures the hash and five strings; the Σ row is the sum of
// the five strings' MEMORY USAGE as the engine answers it (on 7.0 with Debian's allocator the same
// figures as redis-server 7.0.15: 144 for the hash, 72+88+72+72+56 for the strings).
func TestMemorySums(t *testing.T) {
	s := &Memory{}
	p := playTo(t, "profile-hash", 3, s)
	if len(s.Sums) != 1 || s.Sums[0].Type != "string" || s.Sums[0].Keys != 5 {
		t.Fatalf("sums %+v", s.Sums)
	}
	var sum int64
	for _, k := range p.Watched()[1:] {
		sum += p.Engine().Inspect(k).Memory
	}
	hash := p.Engine().Inspect("user:1").Memory
	if s.Sums[0].Bytes != sum || sum != 360 || hash != 144 {
		t.Fatalf("Σ %d, strings %d, hash %d", s.Sums[0].Bytes, sum, hash)
	}
	if s.Ratio != "2.5×" {
		t.Fatalf("ratio %q", s.Ratio)
	}
}
