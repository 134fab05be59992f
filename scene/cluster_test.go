package scene

import (
	"fmt"
	"strings"
	"testing"

	"redscope/engine"
	"redscope/lesson"
)

// newTestCluster is a traced three-master cluster with one lone node (7003) that knows the
// others, holding keys product:0 … product:n-1, each written on the node serving its slot.
func newTestCluster(tb testing.TB, n int) *engine.Cluster {
	tb.Helper()
	cl := engine.NewCluster(engine.ClusterOptions{Masters: 3, Empty: 1, Port: 7000,
		Options: engine.Options{Version: engine.DefaultVersion, Seed: 1, Trace: true}})
	nodes := cl.Nodes()
	for i := 0; i < n; i++ {
		k := "product:" + fmt.Sprint(i)
		o := cl.SlotOwner(engine.KeySlot([]byte(k)))
		if r := nodes[o].Exec([][]byte{[]byte("SET"), []byte(k), []byte("1")}); r.Reply.IsError() {
			tb.Fatalf("SET %s on node %d: %s", k, o, r.Reply.Str)
		}
	}
	if r := nodes[0].Exec([][]byte{[]byte("CLUSTER"), []byte("MEET"), []byte("127.0.0.1"), []byte("7003")}); r.Reply.IsError() {
		tb.Fatal(r.Reply.Str)
	}
	return cl
}

// The key sample is bounded, in slot order, and the counts are the nodes' own.
func TestClusterKeySample(t *testing.T) {
	cl := newTestCluster(t, 2000)
	s := &Cluster{}
	s.Update(Input{Engine: cl.Nodes()[0], Lang: "en", Keys: []string{"product:1999"}})
	total := 0
	for i, row := range s.Nodes {
		total += row.KeyCount
		if row.KeyCount != cl.Nodes()[i].KeyCount() {
			t.Errorf("node %d: %d keys drawn as %d", i, cl.Nodes()[i].KeyCount(), row.KeyCount)
		}
		if row.KeyCount > 0 && len(row.Keys) != ClusterKeysDrawn {
			t.Errorf("node %d: %d keys sampled, want %d", i, len(row.Keys), ClusterKeysDrawn)
		}
		prev := -1
		for j, k := range row.Keys {
			sl := engine.KeySlot([]byte(k))
			if cl.SlotOwner(sl) != i {
				t.Errorf("node %d draws %s of slot %d", i, k, sl)
			}
			if j == 0 && k == "product:1999" {
				continue // the lesson's key comes first
			}
			if sl < prev {
				t.Errorf("node %d: %s (slot %d) after slot %d", i, k, sl, prev)
			}
			prev = sl
		}
	}
	if total != 2000 {
		t.Errorf("the rows count %d keys, want 2000", total)
	}
	owner := cl.SlotOwner(engine.KeySlot([]byte("product:1999")))
	if got := s.Nodes[owner].Keys[0]; got != "product:1999" {
		t.Errorf("the lesson's key is not drawn first on its node: %s", got)
	}
}

// A reshard animates slot by slot from the engine's ClusterReshardEvent: at t=0 nothing has
// arrived, midway some slots travel, at t=1 (and so under reduced motion) all have arrived and
// the note gives the counts the engine measured.
func TestClusterReshardAnimation(t *testing.T) {
	cl := newTestCluster(t, 3000)
	evs, ev, err := cl.Reshard(0, 299, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(ev.Moves) != 300 || ev.KeysAfter[3] != ev.Keys || ev.KeysBefore[0]-ev.KeysAfter[0] != ev.Keys || ev.SlotsAfter[3] != 300 {
		t.Fatalf("reshard event: %d moves, %d keys, before %v after %v, slots after %v", len(ev.Moves), ev.Keys, ev.KeysBefore, ev.KeysAfter, ev.SlotsAfter)
	}
	migrated := 0
	for _, e := range evs {
		if _, ok := e.(engine.ClusterKeyMigratedEvent); ok {
			migrated++
		}
	}
	if migrated != ev.Keys || ev.Keys == 0 {
		t.Fatalf("%d keys migrated, the summary says %d", migrated, ev.Keys)
	}
	s := &Cluster{}
	s.Update(Input{Engine: cl.Nodes()[0], Lang: "en", Last: []engine.Exchange{{Cmd: "cluster reshard 0-299 7003", Events: evs}}})
	if len(s.Reshard) != 1 {
		t.Fatalf("%d reshard events in the scene", len(s.Reshard))
	}
	for _, c := range []struct {
		t          float64
		lo, hi     int // slots arrived
		travelling bool
	}{{0, 0, 0, false}, {0.5, 1, 299, true}, {1, 300, 300, false}} {
		st := s.reshardAnim(c.t)
		travel := 0
		for _, ph := range st.phase {
			if ph > 0 && ph < 1 {
				travel++
			}
		}
		if st.done < c.lo || st.done > c.hi || (travel > 0) != c.travelling {
			t.Errorf("t=%.1f: %d slots arrived, %d travelling", c.t, st.done, travel)
		}
		note := s.reshardText(c.t)
		r := Stage(1280, 800)
		prims := s.Frame(r, c.t)
		if msg := pictureSpan(prims, r); msg != "" {
			t.Errorf("t=%.1f: %s", c.t, msg)
		}
		found := false
		for _, p := range prims {
			if p.Kind == KText && strings.Contains(p.Text, "7003") && (strings.Contains(p.Text, "reshard") || strings.Contains(p.Text, "moved")) {
				found = true
			}
		}
		if !found {
			t.Errorf("t=%.1f: no reshard note drawn (%q)", c.t, note)
		}
	}
	want := fmt.Sprintf("300 slots moved to 127.0.0.1:7003 with %d keys; keys 7000 %d→%d, 7003 0→%d", ev.Keys, ev.KeysBefore[0], ev.KeysAfter[0], ev.Keys)
	if got := s.reshardText(1); got != want {
		t.Errorf("settled note:\n got %q\nwant %q", got, want)
	}
	if got := s.reshardText(0); !strings.Contains(got, "0 of 300 slots") {
		t.Errorf("note at t=0: %q", got)
	}
}

// BenchmarkClusterUpdate is the cluster scene's Update on a three-master cluster of 1 000 …
// 1 000 000 keys: flat, because the key marks come from the engine's bounded sample.
func BenchmarkClusterUpdate(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000, 1000000} {
		cl := newTestCluster(b, n)
		in := Input{Engine: cl.Nodes()[0], Lang: "en"}
		b.Run(fmt.Sprintf("keys=%d", n), func(b *testing.B) {
			s := &Cluster{}
			for b.Loop() {
				s.Update(in)
			}
		})
	}
}

// Every step of ring-vs-slots draws at 360, 1280 and 1920 (settled and mid-reshard) without a
// text off the stage, under 10 px, over another or of poor contrast, in both languages; the
// picture's figures are the ring's events' and the cluster's nodes'.
func TestRingSlotsLayout(t *testing.T) {
	l := encBuiltin(t, "ring-vs-slots")
	p := lesson.NewPlayer(lesson.Config{Version: engine.DefaultVersion})
	p.Load(l)
	for step := 1; p.Step(); step++ {
		for _, lang := range []string{"vi", "en"} {
			s := New(l.Scene).(*ringSlots)
			s.Update(Input{Engine: p.Engine(), Keys: p.Watched(), Last: lastOf(p), Lang: lang})
			for _, st := range []Rect{Stage(360, 740), Stage(1280, 800), Stage(1920, 1080)} {
				for _, tt := range []float64{0.4, 1} {
					checkLayout(t, fmt.Sprintf("step %d %s %.0fx%.0f t=%.1f", step, lang, st.W, st.H, tt), s.Frame(st, tt), st)
				}
			}
			if step == 4 {
				if s.before == nil || s.ring.Ev.RingMoved <= 0 || len(s.cl.Reshard) != 3 {
					t.Fatalf("step 4: ring before %v, moved %d, %d reshards", s.before != nil, s.ring.Ev.RingMoved, len(s.cl.Reshard))
				}
				// The ring's moved keys all went to the new node, which had none.
				ev := s.ring.Ev
				if ev.RingLoad[3] != ev.RingMoved {
					t.Errorf("ring: 7003 holds %d keys, %d moved", ev.RingLoad[3], ev.RingMoved)
				}
				sum := 0
				for i := range s.before.Nodes {
					sum += s.before.RingLoad[i] - ev.RingLoad[i]
				}
				if sum != ev.RingMoved {
					t.Errorf("ring: the old nodes lost %d keys, %d moved", sum, ev.RingMoved)
				}
				foot := s.footer(1)
				cl := p.Engine().Cluster()
				if len(foot) != 2 || !strings.Contains(foot[1].text, num(int64(cl.KeyCount(3)))) || !strings.Contains(foot[1].text, "4\u202f096 slot") {
					t.Errorf("step 4 footer %q (7003 holds %d keys)", foot, cl.KeyCount(3))
				}
			}
		}
	}
}
