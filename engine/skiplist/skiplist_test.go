package skiplist

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"redscope/engine/alloc"
)

// check verifies spans (each equals the level-0 distance it covers), backward links, tail,
// length, list level and order.
func check(t *testing.T, l *List) {
	t.Helper()
	var nodes []*Node
	pos := map[*Node]uint64{l.header: 0}
	for x := l.First(); x != nil; x = x.Next() {
		nodes = append(nodes, x)
		pos[x] = uint64(len(nodes))
	}
	if uint64(len(nodes)) != l.length {
		t.Fatalf("length %d, walked %d", l.length, len(nodes))
	}
	for i, x := range nodes {
		var want *Node
		if i > 0 {
			want = nodes[i-1]
			if !before(want, x.Score, x.Member) {
				t.Fatalf("order broken at %d: %v/%q then %v/%q", i, want.Score, want.Member, x.Score, x.Member)
			}
		}
		if x.Backward != want {
			t.Fatalf("backward of %q wrong", x.Member)
		}
	}
	if len(nodes) > 0 && l.tail != nodes[len(nodes)-1] || len(nodes) == 0 && l.tail != nil {
		t.Fatal("tail wrong")
	}
	maxLevel := 1
	for _, x := range append([]*Node{l.header}, nodes...) {
		if x != l.header && x.Level() > maxLevel {
			maxLevel = x.Level()
		}
		for i, lv := range x.Levels() {
			if x == l.header && i >= l.level {
				break
			}
			if lv.Forward == nil {
				if x == l.header && l.length > 0 {
					t.Fatalf("header level %d < list level has no forward link", i)
				}
				continue
			}
			if got := pos[lv.Forward] - pos[x]; lv.Span != got {
				t.Fatalf("node %q level %d span %d, real distance %d", x.Member, i, lv.Span, got)
			}
		}
	}
	if l.level != maxLevel {
		t.Fatalf("list level %d, highest node level %d", l.level, maxLevel)
	}
}

// Verified on redis-server 7.0.15 (zset-max-listpack-entries 0, so the key is a skiplist):
//
//	ZADD z 1 b 1 a 1 ab 1 "" 0 z 2 a0 -inf x +inf y 1 'a\x00' 1 B 1 '\xff' 1.5 m
//
// (the last members are the literal backslash strings redis-cli received). ZRANGE 0 -1 gave
// x z "" B \xff a a\x00 ab b m a0 y; ZRANK as listed below.
func serverZset(seed uint64) *List {
	l := New(rand.New(rand.NewPCG(seed, 1)))
	for _, p := range []struct {
		s float64
		m string
	}{{1, "b"}, {1, "a"}, {1, "ab"}, {1, ""}, {0, "z"}, {2, "a0"}, {math.Inf(-1), "x"},
		{math.Inf(1), "y"}, {1, `a\x00`}, {1, "B"}, {1, `\xff`}, {1.5, "m"}} {
		l.Insert(p.s, p.m)
	}
	return l
}

func TestOrderAndRankMatchRedis(t *testing.T) {
	for seed := uint64(1); seed <= 5; seed++ {
		l := serverZset(seed)
		check(t, l)
		want := []string{"x", "z", "", "B", `\xff`, "a", `a\x00`, "ab", "b", "m", "a0", "y"}
		if got := l.Members(); !slices.Equal(got, want) {
			t.Fatalf("order %q", got)
		}
		zrank := map[string]int64{"x": 0, "z": 1, "": 2, "a": 5, `a\x00`: 6, "ab": 7, "b": 8, `\xff`: 4, "m": 9, "a0": 10, "y": 11}
		for m, r := range zrank {
			n := l.GetByRank(uint64(r + 1))
			if n == nil || n.Member != m {
				t.Fatalf("GetByRank(%d) = %v, want %q", r+1, n, m)
			}
			if got := l.GetRank(n.Score, m); got != uint64(r+1) {
				t.Fatalf("GetRank(%q) = %d, want %d", m, got, r+1)
			}
		}
		if l.GetRank(1, "nope") != 0 || l.GetByRank(0) != nil || l.GetByRank(13) != nil {
			t.Fatal("absent lookups")
		}
	}
}

func collect(from *Node, last *Node) []string {
	var out []string
	if from == nil || last == nil {
		return out
	}
	for x := from; ; x = x.Next() {
		out = append(out, x.Member)
		if x == last {
			break
		}
	}
	return out
}

// ZRANGEBYSCORE on the same key, redis-server 7.0.15.
func TestScoreRangesMatchRedis(t *testing.T) {
	l := serverZset(2)
	inf := math.Inf(1)
	cases := []struct {
		r    ScoreRange
		want []string
	}{
		{ScoreRange{Min: 1, Max: 1}, []string{"", "B", `\xff`, "a", `a\x00`, "ab", "b"}},
		{ScoreRange{Min: 1, Max: 2, MinEx: true}, []string{"m", "a0"}},
		{ScoreRange{Min: -inf, Max: 1, MaxEx: true}, []string{"x", "z"}},
		{ScoreRange{Min: 1, Max: 1, MinEx: true, MaxEx: true}, nil},
		{ScoreRange{Min: 1, Max: 1.5, MaxEx: true}, []string{"", "B", `\xff`, "a", `a\x00`, "ab", "b"}},
		{ScoreRange{Min: -inf, Max: inf, MinEx: true}, []string{"z", "", "B", `\xff`, "a", `a\x00`, "ab", "b", "m", "a0", "y"}},
		{ScoreRange{Min: 2, Max: 1}, nil},
		{ScoreRange{Min: 1.5, Max: inf}, []string{"m", "a0", "y"}},
	}
	for i, c := range cases {
		got := collect(l.FirstInRange(c.r), l.LastInRange(c.r))
		if !slices.Equal(got, c.want) {
			t.Errorf("case %d %+v: %q, want %q", i, c.r, got, c.want)
		}
		for n := int64(0); n < int64(len(c.want)); n++ {
			if x := l.NthInRange(c.r, n); x == nil || x.Member != c.want[n] {
				t.Errorf("case %d NthInRange(%d) = %v", i, n, x)
			}
			if x := l.NthInRange(c.r, -n-1); x == nil || x.Member != c.want[len(c.want)-1-int(n)] {
				t.Errorf("case %d NthInRange(%d) = %v", i, -n-1, x)
			}
		}
		if l.NthInRange(c.r, int64(len(c.want))) != nil || l.NthInRange(c.r, -int64(len(c.want))-1) != nil {
			t.Errorf("case %d: NthInRange past the end", i)
		}
	}
}

func lex(t *testing.T, min, max string) LexRange {
	a, ok1 := ParseLexBound([]byte(min))
	b, ok2 := ParseLexBound([]byte(max))
	if !ok1 || !ok2 {
		t.Fatalf("parse %q %q", min, max)
	}
	return LexRange{a, b}
}

// ZRANGEBYLEX on ZADD l 0 a 0 b 0 c 0 d 0 ab 0 "" (skiplist), redis-server 7.0.15; "a b" and
// "+x +" are rejected with "ERR min or max not valid string range item".
func TestLexRangesMatchRedis(t *testing.T) {
	l := New(rand.New(rand.NewPCG(3, 3)))
	for _, m := range []string{"a", "b", "c", "d", "ab", ""} {
		l.Insert(0, m)
	}
	cases := []struct {
		min, max string
		want     []string
	}{
		{"-", "+", []string{"", "a", "ab", "b", "c", "d"}},
		{"[a", "(c", []string{"a", "ab", "b"}},
		{"(a", "[c", []string{"ab", "b", "c"}},
		{"+", "-", nil},
		{"[a", "[a", []string{"a"}},
		{"(a", "(a", nil},
		{"[a", "(a", nil},
		{"-", "(b", []string{"", "a", "ab"}},
		{"(b", "+", []string{"c", "d"}},
		{"-", "-", nil},
		{"+", "+", nil},
		{"[", "+", []string{"", "a", "ab", "b", "c", "d"}},
		{"(", "+", []string{"a", "ab", "b", "c", "d"}},
		{"[b", "-", nil},
	}
	for _, c := range cases {
		r := lex(t, c.min, c.max)
		got := collect(l.FirstInLexRange(r), l.LastInLexRange(r))
		if !slices.Equal(got, c.want) {
			t.Errorf("%s %s: %q, want %q", c.min, c.max, got, c.want)
		}
	}
	for _, bad := range []string{"a", "+x", "-x", ""} {
		if _, ok := ParseLexBound([]byte(bad)); ok {
			t.Errorf("%q accepted", bad)
		}
	}
	if b, ok := ParseLexBound([]byte("+\x00junk")); !ok || b.Inf != 1 {
		t.Error(`"+\0…" must parse as + (C stops at the NUL)`)
	}
}

// Random insert/delete/update sequences against a sorted reference, spans checked throughout.
func TestRandomOpsKeepSpans(t *testing.T) {
	r := rand.New(rand.NewPCG(42, 42))
	l := New(r)
	ref := map[string]float64{}
	sorted := func() []string {
		ms := make([]string, 0, len(ref))
		for m := range ref {
			ms = append(ms, m)
		}
		sort.Slice(ms, func(i, j int) bool {
			a, b := ms[i], ms[j]
			if ref[a] != ref[b] {
				return ref[a] < ref[b]
			}
			return a < b
		})
		return ms
	}
	for step := 0; step < 5000; step++ {
		m := fmt.Sprintf("m%d", r.IntN(400))
		score := float64(r.IntN(50))
		old, has := ref[m]
		switch op := r.IntN(3); {
		case op == 0 && !has:
			if l.Insert(score, m) == nil {
				t.Fatal("insert refused")
			}
			ref[m] = score
		case op == 1 && has:
			if l.Delete(old, m) == nil {
				t.Fatalf("delete %s missing", m)
			}
			delete(ref, m)
		case op == 2 && has:
			n := l.UpdateScore(old, m, score)
			if n == nil || n.Score != score || n.Member != m {
				t.Fatalf("update %s", m)
			}
			ref[m] = score
		}
		if step%250 == 0 {
			check(t, l)
			if !slices.Equal(l.Members(), sorted()) {
				t.Fatal("order differs from reference")
			}
			for i, mm := range sorted() {
				if l.GetRank(ref[mm], mm) != uint64(i+1) {
					t.Fatalf("rank of %s", mm)
				}
			}
		}
	}
	if l.Delete(1, "never") != nil || l.UpdateScore(1, "never", 2) != nil {
		t.Fatal("absent member handled as present")
	}
	if l.Insert(math.NaN(), "nan") != nil {
		t.Fatal("NaN inserted")
	}
}

// zslUpdateScore updates in place when the new score keeps the node between its neighbours
// (strictly), and otherwise moves it (delete + insert with a fresh level).
func TestUpdateScoreInPlace(t *testing.T) {
	l := New(rand.New(rand.NewPCG(9, 9)))
	for i, m := range []string{"a", "b", "c"} {
		l.Insert(float64(10*(i+1)), m)
	}
	var chs []Change
	l.Observer = func(c Change) { chs = append(chs, c) }
	nb := l.GetByRank(2)
	if n := l.UpdateScore(20, "b", 25); n != nb || len(chs) != 1 || chs[0].Op != OpUpdateInPlace || chs[0].Rank != 2 || chs[0].OldScore != 20 {
		t.Fatalf("in place: %+v", chs)
	}
	chs = nil
	// Equal to the successor's score: not strictly between → moves (and lands before c by member order).
	if n := l.UpdateScore(25, "b", 30); n == nb || len(chs) != 2 || chs[0].Op != OpDelete || chs[1].Op != OpInsert || chs[1].Rank != 2 {
		t.Fatalf("move: %+v", chs)
	}
	chs = nil
	l.UpdateScore(30, "b", 5)
	if got := l.Members(); !slices.Equal(got, []string{"b", "a", "c"}) || chs[1].Rank != 1 {
		t.Fatalf("after move to front: %q %+v", got, chs)
	}
	check(t, l)
}

// The insert record carries the node level, the update vector with the predecessors' ranks,
// and the new rank.
func TestInsertChangeRecord(t *testing.T) {
	l := New(rand.New(rand.NewPCG(1, 1)))
	for i := 0; i < 20; i++ {
		l.Insert(float64(i), fmt.Sprintf("n%02d", i))
	}
	var ch Change
	l.Observer = func(c Change) { ch = c }
	l.Insert(9.5, "mid")
	if ch.Op != OpInsert || ch.Rank != 11 || ch.Level != l.GetByRank(11).Level() || ch.ListLevel != l.Level() {
		t.Fatalf("%+v", ch)
	}
	if len(ch.Update) < ch.Level {
		t.Fatalf("update vector %d < level %d", len(ch.Update), ch.Level)
	}
	u0 := ch.Update[0]
	if u0.Member != "n09" || u0.Rank != 10 || u0.Span != 1 {
		t.Fatalf("level-0 predecessor %+v", u0)
	}
	for _, lk := range ch.Update {
		if !lk.Header && l.GetRank(lk.Score, lk.Member) != lk.Rank {
			t.Fatalf("link %+v rank wrong", lk)
		}
	}
}

// P = 1/4: three quarters of the nodes have level 1, 3/16 level 2, …; capped at 32.
func TestRandomLevelDistribution(t *testing.T) {
	l := New(rand.New(rand.NewPCG(5, 5)))
	var hist [MaxLevel + 1]int
	const n = 400000
	for i := 0; i < n; i++ {
		lv := l.RandomLevel()
		if lv < 1 || lv > MaxLevel {
			t.Fatalf("level %d", lv)
		}
		hist[lv]++
	}
	for lv, want := range map[int]float64{1: 0.75, 2: 0.1875, 3: 0.046875} {
		got := float64(hist[lv]) / n
		if math.Abs(got-want) > 0.004 {
			t.Errorf("P(level=%d) = %.4f, want %.4f", lv, got, want)
		}
	}
}

// MEMORY USAGE of one-member skiplist zsets on redis-server 7.0.15 (jemalloc 16-byte quantum;
// ZADD zkN 1 m with zset-max-listpack-entries 0): 904 for a level-1 node, 920 for level 2, 936
// for level 3 (33, 5 and 1 keys of 40). Formula: 16 + 16 + 32 + 56 + 8×4 + usable(536) +
// usable(sds "m") + 24 + usable(24 + 16×level) + usable(key sds) + 24.
func TestMemoryMatchesRedis70(t *testing.T) {
	a := alloc.Jemalloc16
	for level, want := range map[int]int64{1: 904, 2: 920, 3: 936} {
		l := New(nil)
		l.insertLevel(1, "m", level)
		sum, n := l.SampleSum(5, func(x *Node) int {
			return a.Usable(1+len(x.Member)+1) + 24 + a.Usable(NodeBytes(x.Level()))
		})
		fixed := int64(16 + ZsetBytes + ListBytes + 56 + 8*4 + a.Usable(HeaderBytes))
		got := int64(float64(fixed)+float64(sum)/float64(n)*1) + int64(a.Usable(1+3+1)+24)
		if got != want {
			t.Errorf("level %d: %d, want %d", level, got, want)
		}
	}
}

func TestDeleteRanges(t *testing.T) {
	mk := func() *List {
		l := New(rand.New(rand.NewPCG(7, 7)))
		for i := 1; i <= 30; i++ {
			l.Insert(float64(i), fmt.Sprintf("m%02d", i))
		}
		return l
	}
	l := mk()
	var gone []string
	n := l.DeleteRangeByScore(ScoreRange{Min: 5, Max: 10, MinEx: true}, func(x *Node) { gone = append(gone, x.Member) })
	if n != 5 || !slices.Equal(gone, []string{"m06", "m07", "m08", "m09", "m10"}) {
		t.Fatalf("by score: %d %v", n, gone)
	}
	check(t, l)
	l = mk()
	if n := l.DeleteRangeByRank(1, 3, nil); n != 3 || l.First().Member != "m04" {
		t.Fatalf("by rank: %d first %s", n, l.First().Member)
	}
	if n := l.DeleteRangeByRank(25, 100, nil); n != 3 || l.Last().Member != "m27" {
		t.Fatalf("by rank tail: %d last %s", n, l.Last().Member)
	}
	check(t, l)
	eq := New(rand.New(rand.NewPCG(7, 8)))
	for _, m := range []string{"a", "b", "c", "d"} {
		eq.Insert(0, m)
	}
	if n := eq.DeleteRangeByLex(lex(t, "(a", "[c"), nil); n != 2 || !slices.Equal(eq.Members(), []string{"a", "d"}) {
		t.Fatalf("by lex: %d %v", n, eq.Members())
	}
	check(t, eq)
}
