package quicklist

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"redscope/engine/alloc"
)

func counts(q *Quicklist) []int {
	var out []int
	for n := q.Head(); n != nil; n = n.Next() {
		out = append(out, n.Count())
	}
	return out
}

func contents(q *Quicklist) []string {
	var out []string
	it := q.Iterator(FromHead)
	var e Entry
	for it.Next(&e) {
		out = append(out, string(e.Bytes(nil)))
	}
	return out
}

// Measured on redis-server 7.0.15 (Debian, 16-byte quantum): 200 RPUSHes of 100-byte elements with
// list-max-listpack-size -2 → MEMORY USAGE 21712. A node takes an element while
// 7 + 103·k + 100 + 8 ≤ 8192, so nodes hold 79, 79, 42.
func TestNodeFillFromServer(t *testing.T) {
	q := New(Options{Fill: -2, Alloc: alloc.Jemalloc16})
	for i := 1; i <= 200; i++ {
		q.PushTail(fmt.Appendf(nil, "%0100d", i))
	}
	if got := counts(q); !slices.Equal(got, []int{79, 79, 42}) {
		t.Fatalf("node counts %v", got)
	}
	key := 8 // usable(sds5 "l100")
	if got := q.MemoryUsage(alloc.Jemalloc16, 5) + int64(key+24); got != 21712 {
		t.Fatalf("MEMORY USAGE %d, want 21712", got)
	}
	if err := q.Check(); err != nil {
		t.Fatal(err)
	}
}

// One 9000-byte element: 7.0 keeps it in a packed node (9014-byte listpack → 10240), MEMORY USAGE
// 10368 on 7.0.15 [run]; 7.4+ makes it a plain node (9000 → 10240, same figure, docs/internals.md §Encodings).
func TestBigElement(t *testing.T) {
	big := []byte(strings.Repeat("x", 9000))
	for _, c := range []struct {
		rules Rules
		plain bool
	}{{Rules70, false}, {Rules72, false}, {Rules74, true}} {
		q := New(Options{Fill: -2, Rules: c.rules, Alloc: alloc.Jemalloc16})
		q.PushTail([]byte("a"))
		q.PushTail(big)
		q.PushTail([]byte("b"))
		if q.NodeCount() != 3 || q.Head().Next().IsPlain() != c.plain {
			t.Fatalf("rules %d: %d nodes, plain %v", c.rules, q.NodeCount(), q.Head().Next().IsPlain())
		}
		one := New(Options{Fill: -2, Rules: c.rules})
		one.PushTail(big)
		if got := one.MemoryUsage(alloc.Jemalloc16, 5) + 8 + 24; got != 10368 {
			t.Fatalf("rules %d: memory %d", c.rules, got)
		}
		if s := contents(q); len(s) != 3 || s[1] != string(big) {
			t.Fatal("contents")
		}
		v, _ := q.Pop(Tail, nil)
		v2, _ := q.Pop(Tail, nil)
		if string(v) != "b" || string(v2) != string(big) || q.Check() != nil {
			t.Fatal("pop")
		}
	}
}

func TestFillClampAndLimits(t *testing.T) {
	if New(Options{Fill: -100}).Fill() != -5 || New(Options{Fill: 1 << 20}).Fill() != FillMax {
		t.Fatal("clamp")
	}
	// Positive fill: count limit, plus the 8 KiB safety cap.
	q := New(Options{Fill: 3})
	for i := 0; i < 7; i++ {
		q.PushTail([]byte(strconv.Itoa(i)))
	}
	if got := counts(q); !slices.Equal(got, []int{3, 3, 1}) {
		t.Fatalf("fill 3: %v", got)
	}
	q = New(Options{Fill: 100})
	for i := 0; i < 4; i++ {
		q.PushTail([]byte(strings.Repeat("y", 3000)))
	}
	if got := counts(q); !slices.Equal(got, []int{2, 2}) {
		t.Fatalf("safety cap: %v", got)
	}
	// fill 0: one element per node.
	q = New(Options{Fill: 0})
	q.PushHead([]byte("a"))
	q.PushHead([]byte("b"))
	if q.NodeCount() != 2 {
		t.Fatal("fill 0")
	}
	if !ExceedsLimit(-2, 8193, 1) || ExceedsLimit(-2, 8192, 1) || !ExceedsLimit(5, 100, 6) || !ExceedsLimit(5, 8193, 1) {
		t.Fatal("ExceedsLimit")
	}
}

func TestIndexAndIterators(t *testing.T) {
	q := New(Options{Fill: 4})
	for i := 0; i < 30; i++ {
		q.PushTail([]byte("v" + strconv.Itoa(i)))
	}
	for _, idx := range []int{0, 3, 4, 17, 29, -1, -4, -5, -30} {
		e, _, ok := q.Index(idx)
		want := idx
		if want < 0 {
			want += 30
		}
		if !ok || string(e.Bytes(nil)) != "v"+strconv.Itoa(want) {
			t.Fatalf("index %d: %q", idx, e.Bytes(nil))
		}
	}
	if _, _, ok := q.Index(30); ok {
		t.Fatal("index 30")
	}
	if _, _, ok := q.Index(-31); ok {
		t.Fatal("index -31")
	}
	it, _ := q.IteratorAt(FromTail, -1)
	var e Entry
	n := 0
	for it.Next(&e) {
		if string(e.Bytes(nil)) != "v"+strconv.Itoa(29-n) {
			t.Fatalf("reverse %d", n)
		}
		n++
	}
	if n != 30 {
		t.Fatal("reverse count")
	}
}

// Random operations against a []string model, checking invariants after each step.
func TestRandomAgainstModel(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for round := 0; round < 150; round++ {
		fill := []int{-1, -2, 1, 3, 8, 0}[round%6]
		rules := Rules(round % 3)
		q := New(Options{Fill: fill, Rules: rules})
		var m []string
		for op := 0; op < 150; op++ {
			v := elem(r)
			switch k := r.IntN(10); {
			case k < 3 || len(m) == 0:
				q.PushTail([]byte(v))
				m = append(m, v)
			case k == 3:
				q.PushHead([]byte(v))
				m = append([]string{v}, m...)
			case k == 4:
				got, _ := q.Pop(Head, nil)
				if string(got) != m[0] {
					t.Fatalf("pop head %q want %q", got, m[0])
				}
				m = m[1:]
			case k == 5:
				i := r.IntN(len(m))
				e, it, _ := q.Index(i)
				after := r.IntN(2) == 0
				if after {
					q.InsertAfter(&it, &e, []byte(v))
					i++
				} else {
					q.InsertBefore(&it, &e, []byte(v))
				}
				m = slices.Insert(m, i, v)
			case k == 6:
				i := r.IntN(2*len(m)) - len(m)
				q.ReplaceAtIndex(i, []byte(v))
				if i < 0 {
					i += len(m)
				}
				m[i] = v
			case k == 7:
				s, c := r.IntN(2*len(m))-len(m), r.IntN(5)
				q.DelRange(s, c)
				if s < 0 {
					s += len(m)
				}
				m = slices.Delete(m, s, min(s+c, len(m)))
			case k == 8:
				target := m[r.IntN(len(m))]
				lrem(q, 0, []byte(target))
				m = slices.DeleteFunc(m, func(x string) bool { return x == target })
			default:
				s, e := r.IntN(len(m)+2)-1, r.IntN(len(m)+2)-2
				ltrim(q, s, e)
				m = trimModel(m, s, e)
			}
			if err := q.Check(); err != nil {
				t.Fatalf("round %d op %d: %v", round, op, err)
			}
			if got := contents(q); !slices.Equal(got, m) && !(len(got) == 0 && len(m) == 0) {
				t.Fatalf("round %d op %d: content\n got %q\nwant %q", round, op, got, m)
			}
		}
	}
}

func trimModel(m []string, start, end int) []string {
	n := len(m)
	if start < 0 {
		start += n
	}
	if end < 0 {
		end += n
	}
	start = max(start, 0)
	if start > end || start >= n {
		return nil
	}
	end = min(end, n-1)
	return slices.Clone(m[start : end+1])
}

func elem(r *rand.Rand) string {
	switch r.IntN(5) {
	case 0:
		return strconv.Itoa(r.IntN(1000) - 500)
	case 1:
		return strings.Repeat("z", r.IntN(3000))
	case 2:
		if r.IntN(8) == 0 {
			return strings.Repeat("B", 8000+r.IntN(2000))
		}
	}
	return "e" + strconv.Itoa(r.IntN(20))
}

func TestEventsAndNoPanic(t *testing.T) {
	q := New(Options{Fill: 2})
	var kinds []EventKind
	q.OnEvent = func(ev Event) { kinds = append(kinds, ev.Kind) }
	q.PushTail([]byte("a"))
	q.PushTail([]byte("b"))
	q.PushTail([]byte("c"))
	if !slices.Contains(kinds, EvNodeNew) || !slices.Contains(kinds, EvListpack) {
		t.Fatalf("events %v", kinds)
	}
	e, it, _ := q.Index(0)
	kinds = kinds[:0]
	q.InsertAfter(&it, &e, []byte("x")) // full head node, not at tail: split
	if !slices.Contains(kinds, EvSplit) {
		t.Fatalf("no split event: %v", kinds)
	}
	if got := contents(q); !slices.Equal(got, []string{"a", "x", "b", "c"}) {
		t.Fatalf("%v", got)
	}
	// Out-of-range operations are refused without panicking.
	if q.ReplaceAtIndex(10, []byte("y")) || q.DelRange(10, 1) || q.DelRange(0, 0) {
		t.Fatal("out of range accepted")
	}
	empty := New(Options{Fill: -2})
	if _, ok := empty.Pop(Head, nil); ok {
		t.Fatal("pop empty")
	}
	if empty.MemoryUsage(alloc.Jemalloc, 5) != 56 {
		t.Fatal("empty memory")
	}
}

func BenchmarkPushTail(b *testing.B) {
	v := []byte("element-value")
	b.ReportAllocs()
	for b.Loop() {
		q := New(Options{Fill: -2})
		for i := 0; i < 1000; i++ {
			q.PushTail(v)
		}
	}
}
