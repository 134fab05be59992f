package dict

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"redscope/engine/alloc"
)

func env70(seed uint64) *Env { return NewEnv(700, seed, nil) }
func env74(seed uint64) *Env { return NewEnv(704, seed, nil) }

type sizes struct{ s0, u0, s1, u1 uint64 }

func sizesOf[K Bytes, V any](d *Dict[K, V]) sizes {
	return sizes{d.TableSize(0), d.TableUsed(0), d.TableSize(1), d.TableUsed(1)}
}

// wantSizes fails the test unless d's two tables have the sizes and fill counts want.
func wantSizes[K Bytes, V any](t *testing.T, d *Dict[K, V], want sizes, what string) {
	t.Helper()
	if s := sizesOf(d); s != want {
		t.Fatalf("%s: tables %+v, want %+v", what, s, want)
	}
}

func addN(d *Dict[string, struct{}], prefix string, from, to int) {
	for i := from; i <= to; i++ {
		d.Add(fmt.Sprintf("%s%d", prefix, i), struct{}{})
	}
}

// checkInvariants verifies every entry sits in the bucket its hash designates, the used
// counters, that ht0 below rehashidx is empty, and that no key appears twice.
func checkInvariants[K Bytes, V any](t *testing.T, d *Dict[K, V]) {
	t.Helper()
	seen := map[string]bool{}
	for tb := 0; tb <= 1; tb++ {
		n := uint64(0)
		for i, e := range d.table[tb] {
			if tb == 0 && d.IsRehashing() && int64(i) < d.rehashIdx && e != nil {
				t.Fatalf("ht0[%d] not empty below rehashidx %d", i, d.rehashIdx)
			}
			for ; e != nil; e = e.next {
				if got := d.hash(e.Key) & d.mask(tb); got != uint64(i) {
					t.Fatalf("key %q in ht%d[%d], hash says %d", e.Key, tb, i, got)
				}
				if seen[string(e.Key)] {
					t.Fatalf("key %q twice", e.Key)
				}
				seen[string(e.Key)] = true
				n++
			}
		}
		if n != d.used[tb] {
			t.Fatalf("ht%d counts %d entries, used says %d", tb, n, d.used[tb])
		}
	}
	if !d.IsRehashing() && d.table[1] != nil {
		t.Fatal("ht1 allocated while not rehashing")
	}
}

// Verified on Debian's redis-server 7.0.15 with one SADD per member (non-integer members) and
// DEBUG HTSTATS-KEY: the table sizes and element counts right after the n-th add. These points
// do not depend on the hash seed: the add that finds used == size starts a rehash into a table
// twice as large and lands in it.
func TestGrowthMatchesRedis70(t *testing.T) {
	cases := []struct {
		n    int
		want sizes
	}{
		{1, sizes{4, 1, 0, 0}},
		{4, sizes{4, 4, 0, 0}},
		{5, sizes{4, 4, 8, 1}},
		{9, sizes{8, 8, 16, 1}},
		{17, sizes{16, 16, 32, 1}},
		{65, sizes{64, 64, 128, 1}},
		{129, sizes{128, 128, 256, 1}},
	}
	for _, seed := range []uint64{1, 2, 3} {
		for _, c := range cases {
			for _, e := range []*Env{env70(seed), env74(seed)} {
				d := NewSet[string](e)
				addN(d, "m", 1, c.n)
				if got := sizesOf(d); got != c.want {
					t.Errorf("seed %d rules %d n=%d: %+v, want %+v", seed, e.Rules.Version, c.n, got, c.want)
				}
				checkInvariants(t, d)
			}
		}
	}
}

// Server: 200 members in one SADD → still rehashing 128 → 256 (DEBUG HTSTATS-KEY showed
// 128/21 + 256/179 for the server's random seed); 1000 members → 1024 buckets, done.
func TestGrowthLongRuns(t *testing.T) {
	d := NewSet[string](env70(5))
	addN(d, "x", 1, 200)
	if s := sizesOf(d); s.s0 != 128 || s.s1 != 256 || s.u0+s.u1 != 200 || s.u1 < 100 {
		t.Fatalf("200 adds: %+v", s)
	}
	checkInvariants(t, d)
	d2 := NewSet[string](env70(5))
	for i := 1; i <= 1000; i++ {
		d2.Add(fmt.Sprintf("member:%04d", i), struct{}{})
	}
	wantSizes(t, d2, sizes{1024, 1000, 0, 0}, "1000 adds")
}

// Server: an intset of 512 converted by a 513th integer → dictExpand(513) → 1024/513; an
// intset of 100 converted by "abc" → dictExpand(100) → 128/101.
func TestPresizeMatchesRedis70(t *testing.T) {
	d := NewSet[string](env70(1))
	if !d.Expand(513) {
		t.Fatal("Expand(513) refused")
	}
	addN(d, "", 1, 513)
	wantSizes(t, d, sizes{1024, 513, 0, 0}, "Expand(513), 513 adds")
	d = NewSet[string](env70(1))
	d.Expand(100)
	addN(d, "", 1, 100)
	d.Add("abc", struct{}{})
	wantSizes(t, d, sizes{128, 101, 0, 0}, "Expand(100), 101 adds")
}

// finishRehash does misses (SISMEMBER of an absent member) until the rehash is over.
func finishRehash[V any](d *Dict[string, V]) {
	for i := 0; d.IsRehashing() && i < 100000; i++ {
		d.Find("zz")
	}
}

// rehashedSet is a set of prefix1..prefixN with any rehash its growth started finished.
func rehashedSet(env *Env, prefix string, n int) *Dict[string, struct{}] {
	d := NewSet[string](env)
	addN(d, prefix, 1, n)
	finishRehash(d)
	return d
}

// Verified on redis-server 7.0.15: SREM one member at a time on a 129-member set (256
// buckets). htNeedsResize fires at 25 left (25×100/256 = 9 < 10) and dictResize starts a
// rehash into 32 buckets (ht1 empty right after); the next SREMs move buckets; after the rehash
// 32 buckets; at 3 left (3×100/32 = 9) another resize to 4. HDEL on a 1024-bucket hash fires at
// 102 left; ZREM on a 256-bucket zset at 25.
func TestShrinkMatchesRedis70(t *testing.T) {
	d := rehashedSet(env70(9), "m", 129)
	wantSizes(t, d, sizes{256, 129, 0, 0}, "start")
	srem := func(k string) {
		if !d.Delete(k) {
			t.Fatalf("SREM %s: missing", k)
		}
		d.ResizeIfNeeded()
	}
	for i := 129; i >= 27; i-- {
		srem(fmt.Sprintf("m%d", i))
	}
	wantSizes(t, d, sizes{256, 26, 0, 0}, "26 left")
	srem("m26")
	wantSizes(t, d, sizes{256, 25, 32, 0}, "25 left: (want rehash to 32 just started)")
	srem("m25")
	if s := sizesOf(d); s.s0 != 256 || s.s1 != 32 || s.u0+s.u1 != 24 {
		t.Fatalf("24 left: %+v", s)
	}
	finishRehash(d)
	wantSizes(t, d, sizes{32, 24, 0, 0}, "after rehash")
	for i := 24; i >= 5; i-- {
		srem(fmt.Sprintf("m%d", i))
	}
	wantSizes(t, d, sizes{32, 4, 0, 0}, "4 left")
	srem("m4")
	wantSizes(t, d, sizes{32, 3, 4, 0}, "3 left")
	finishRehash(d)
	wantSizes(t, d, sizes{4, 3, 0, 0}, "end")
	checkInvariants(t, d)

	h := New[string, string](env70(3))
	for i := 1; i <= 600; i++ {
		h.Replace(fmt.Sprintf("f%d", i), "v")
	}
	finishRehash(h)
	wantSizes(t, h, sizes{1024, 600, 0, 0}, "hash start")
	for i := 600; i >= 104; i-- {
		h.Delete(fmt.Sprintf("f%d", i))
		h.ResizeIfNeeded()
	}
	if h.IsRehashing() {
		t.Fatal("hash resized before 102 left")
	}
	h.Delete("f103")
	h.ResizeIfNeeded()
	wantSizes(t, h, sizes{1024, 102, 128, 0}, "hash 102 left")
}

// 7.0 never shrinks inside Delete: only the command layer's ResizeIfNeeded does.
func TestNoShrinkWithoutCommandCall70(t *testing.T) {
	d := rehashedSet(env70(1), "m", 129)
	for i := 129; i >= 2; i-- {
		d.Delete(fmt.Sprintf("m%d", i))
	}
	wantSizes(t, d, sizes{256, 1, 0, 0}, "1 left")
	if !d.NeedsResize() {
		t.Fatal("htNeedsResize false at 1/256")
	}
}

// 7.4: shrink inside delete when used×8 ≤ size (docs/internals.md §Dict: a 64-bucket set shrinks to 8
// when SREM leaves 8 members). ResizeIfNeeded does nothing under these rules.
func TestShrinkOnDelete74(t *testing.T) {
	d := rehashedSet(env74(4), "member-with-a-long-name-", 40)
	wantSizes(t, d, sizes{64, 40, 0, 0}, "start")
	for i := 40; i >= 10; i-- {
		d.Delete(fmt.Sprintf("member-with-a-long-name-%d", i))
	}
	wantSizes(t, d, sizes{64, 9, 0, 0}, "9 left")
	d.Delete("member-with-a-long-name-9")
	if s := sizesOf(d); s.s0 != 64 || s.s1 != 8 || s.u0+s.u1 != 8 {
		t.Fatalf("8 left: %+v (want shrink 64 → 8 started)", s)
	}
	if d.ResizeIfNeeded() {
		t.Fatal("ResizeIfNeeded acted under 7.4 rules")
	}
	checkInvariants(t, d)
	// Empty ht0: 7.4 installs a resized table at once (no rehash).
	e := NewSet[string](env74(4))
	addN(e, "k", 1, 5)
	finishRehash(e)
	e.PauseAutoResize()
	for i := 1; i <= 5; i++ {
		e.Delete(fmt.Sprintf("k%d", i))
	}
	e.ResumeAutoResize()
	wantSizes(t, e, sizes{8, 0, 0, 0}, "paused")
	e.ShrinkIfNeeded()
	if s := sizesOf(e); s != (sizes{4, 0, 0, 0}) || e.IsRehashing() {
		t.Fatalf("shrink of an empty table: %+v rehashing=%v", s, e.IsRehashing())
	}
}

// Force ratio with resizing avoided (a fork child exists): 7.0 grows when used/size > 5
// (integer division, i.e. at 24 entries in 4 buckets), 7.4 when used ≥ 4 × size (at 16).
func TestForceResizeRatio(t *testing.T) {
	for _, c := range []struct {
		env     *Env
		growsAt int // the add that starts the rehash
	}{{env70(1), 25}, {env74(1), 17}} {
		d := NewSet[string](c.env)
		c.env.Resize = ResizeAvoid
		for i := 1; i <= 40; i++ {
			d.Add(fmt.Sprintf("k%d", i), struct{}{})
			if d.TableSize(1) != 0 || d.TableSize(0) != 4 {
				if i != c.growsAt {
					t.Fatalf("rules %d: grew at add %d, want %d", c.env.Rules.Version, i, c.growsAt)
				}
				break
			}
		}
		if d.TableSize(1) != 32 && d.TableSize(0) != 32 {
			t.Fatalf("rules %d: grew to %d/%d, want 32", c.env.Rules.Version, d.TableSize(0), d.TableSize(1))
		}
		// Rehash 4 → 32 is 8×: allowed under AVOID (ratio ≥ 5 resp. ≥ 4).
		before := d.RehashIndex()
		d.Rehash(1)
		if d.IsRehashing() && d.RehashIndex() == before {
			t.Fatalf("rules %d: rehash did not advance under AVOID", c.env.Rules.Version)
		}
		c.env.Resize = ResizeForbid
		idx := d.RehashIndex()
		d.Rehash(5)
		if d.RehashIndex() != idx {
			t.Fatal("rehash advanced while FORBID")
		}
	}
}

// Iteration follows bucket order, each chain from its head, and new entries go to the head.
func TestIterationOrderAndChainHead(t *testing.T) {
	d := NewSet[string](env70(11))
	d.Expand(16)
	var keys []string
	for i := 0; i < 10; i++ {
		k := fmt.Sprintf("key%d", i)
		keys = append(keys, k)
		d.Add(k, struct{}{})
	}
	// Expected order: by bucket index; within a bucket, reverse insertion order.
	want := slices.Clone(keys)
	pos := map[string]int{}
	for i, k := range keys {
		pos[k] = i
	}
	slices.SortStableFunc(want, func(a, b string) int {
		ba, bb := d.BucketOf(0, a), d.BucketOf(0, b)
		if ba != bb {
			if ba < bb {
				return -1
			}
			return 1
		}
		return pos[b] - pos[a]
	})
	if got := d.Keys(); !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
	it := d.Iterator()
	var viaIt []string
	for e := it.Next(); e != nil; e = it.Next() {
		viaIt = append(viaIt, e.Key)
	}
	it.Release()
	if !slices.Equal(viaIt, want) {
		t.Fatalf("iterator %v, want %v", viaIt, want)
	}
	// Buckets() shows the same chains.
	var flat []string
	for _, b := range d.Buckets() {
		flat = append(flat, b.Keys...)
		if d.ChainLen(b.Table, b.Index) != len(b.Keys) {
			t.Fatal("ChainLen disagrees with Buckets")
		}
	}
	if !slices.Equal(flat, want) {
		t.Fatalf("Buckets %v, want %v", flat, want)
	}
}

// A rehash step moves a whole chain and reverses it in the destination (each entry is pushed
// at the head), as dictRehash does.
func TestRehashMovesChainReversed(t *testing.T) {
	e := env70(2)
	d := NewSet[string](e)
	d.Expand(4)
	// Find three keys that share bucket 0 of a 4-table and bucket 0 of an 8-table.
	var ks []string
	for i := 0; len(ks) < 3; i++ {
		k := fmt.Sprintf("c%d", i)
		if d.hash(k)&7 == 0 {
			ks = append(ks, k)
		}
	}
	for _, k := range ks {
		d.Add(k, struct{}{})
	}
	if got := d.Buckets()[0].Keys; !slices.Equal(got, []string{ks[2], ks[1], ks[0]}) {
		t.Fatalf("chain %v", got)
	}
	d.Expand(8)
	d.Rehash(1)
	if d.IsRehashing() {
		t.Fatal("rehash not complete after moving the only bucket")
	}
	if got := d.Buckets()[0].Keys; !slices.Equal(got, ks) {
		t.Fatalf("after rehash chain %v, want %v", got, ks)
	}
}

// Rehash steps visit at most 10 empty buckets; 7.4 moves the looked-up key's own bucket.
func TestRehashStepLimitsAndBucketRehash(t *testing.T) {
	for _, e := range []*Env{env70(3), env74(3)} {
		d := NewSet[string](e)
		d.Expand(64)
		// One key in a high bucket, then force a rehash to 128.
		var k string
		for i := 0; ; i++ {
			k = fmt.Sprintf("h%d", i)
			if d.hash(k)&63 >= 40 {
				break
			}
		}
		d.Add(k, struct{}{})
		bucket := d.hash(k) & 63
		d.Expand(128)
		var evs []Event
		d.Observer = func(ev Event) { evs = append(evs, ev) }
		absent := "absent-0"
		for i := 1; d.hash(absent)&63 == bucket; i++ {
			absent = fmt.Sprintf("absent-%d", i)
		}
		d.Find(absent)
		if d.RehashIndex() != 10 || len(evs) != 1 || evs[0].Visited != 10 || evs[0].Moved != 0 {
			t.Fatalf("rules %d: rehashidx %d, events %+v", e.Rules.Version, d.RehashIndex(), evs)
		}
		evs = nil
		d.Find(k)
		if e.Rules.BucketRehash {
			if d.IsRehashing() || len(evs) != 2 || !evs[0].Bucket || evs[0].Index != bucket || evs[1].Kind != EvRehashDone {
				t.Fatalf("7.4 bucket rehash: events %+v", evs)
			}
		} else if d.RehashIndex() != 20 {
			t.Fatalf("7.0: rehashidx %d after second find", d.RehashIndex())
		}
		checkInvariants(t, d)
	}
}

func TestObserverEvents(t *testing.T) {
	d := NewSet[string](env70(1))
	var evs []Event
	d.Observer = func(ev Event) { evs = append(evs, ev) }
	addN(d, "m", 1, 5)
	// 1st add allocates (installed), 5 inserts, 5th add starts a rehash to 8.
	var kinds []EventKind
	for _, ev := range evs {
		kinds = append(kinds, ev.Kind)
	}
	want := []EventKind{EvResize, EvInsert, EvInsert, EvInsert, EvInsert, EvResize, EvInsert}
	if !slices.Equal(kinds, want) {
		t.Fatalf("kinds %v, want %v", kinds, want)
	}
	if !evs[0].Installed || evs[0].NewSize != 4 || evs[5].Installed || evs[5].OldSize != 4 || evs[5].NewSize != 8 {
		t.Fatalf("resize events %+v %+v", evs[0], evs[5])
	}
	if last := evs[6]; last.Table != 1 || last.ChainLen != 1 {
		t.Fatalf("insert during rehash %+v", last)
	}
	evs = nil
	d.Delete("m1")
	var del *Event
	for i := range evs {
		if evs[i].Kind == EvDelete {
			del = &evs[i]
		}
	}
	if del == nil || evs[0].Kind != EvRehashStep {
		t.Fatalf("delete events %+v", evs)
	}
}

// Safe iteration pauses rehashing and tolerates deletes of the current entry.
func TestSafeIteratorDeletes(t *testing.T) {
	d := NewSet[string](env70(5))
	addN(d, "m", 1, 100) // rehashing 64 → 128 at this point
	if !d.IsRehashing() {
		t.Fatal("expected a rehash in progress")
	}
	it := d.SafeIterator()
	n := 0
	for e := it.Next(); e != nil; e = it.Next() {
		idx := d.RehashIndex()
		d.Delete(e.Key)
		if d.RehashIndex() != idx {
			t.Fatal("rehash advanced under a safe iterator")
		}
		n++
	}
	it.Release()
	if n != 100 || d.Len() != 0 {
		t.Fatalf("visited %d, left %d", n, d.Len())
	}
}

// DEBUG HTSTATS-KEY text of a one-member hashtable set, captured byte for byte from
// redis-server 7.0.15 (SADD s1 abc).
func TestStatsText(t *testing.T) {
	d := NewSet[string](env70(1))
	d.Add("abc", struct{}{})
	want := "Hash table 0 stats (main hash table):\n" +
		" table size: 4\n" +
		" number of elements: 1\n" +
		" different slots: 1\n" +
		" max chain length: 1\n" +
		" avg chain length (counted): 1.00\n" +
		" avg chain length (computed): 1.00\n" +
		" Chain length distribution:\n" +
		"   0: 3 (75.00%)\n" +
		"   1: 1 (25.00%)\n"
	if got := d.Stats(true); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	// During a rehash both tables are listed; an empty ht1 has the short message.
	addN(d, "m", 1, 3)
	d.PauseRehashing()
	d.Add("m4", struct{}{})
	d.ResumeRehashing()
	d.Expand(64) // refused: already rehashing
	s := d.Stats(true)
	if !strings.Contains(s, "Hash table 1 stats (rehashing target):\n table size: 8\n number of elements: 1\n") {
		t.Fatalf("rehash stats:\n%s", s)
	}
	e := NewSet[string](env70(1))
	e.Add("x", struct{}{})
	e.Delete("x")
	if got := e.Stats(true); got != "Hash table 0 stats (main hash table):\nNo stats available for empty dictionaries\n" {
		t.Fatalf("empty: %q", got)
	}
	if short := d.Stats(false); strings.Contains(short, "different slots") {
		t.Fatalf("short form has details:\n%s", short)
	}
}

// sdsUsable is usable(sdsnewlen(s)) for short strings (sds5: 1-byte header + NUL below 32
// bytes, sds8 below 256).
func sdsUsable(a alloc.Allocator, n int) int {
	h := 1
	if n >= 32 {
		h = 3
	}
	return a.Usable(h + n + 1)
}

// MEMORY USAGE of hashtable sets and hashes on redis-server 7.0.15 (jemalloc 16-byte quantum):
//   - 129 members m1..m129, one SADD each: 7304 (ht0 128 + ht1 256 = 384 buckets)
//   - the same after the rehash finished: 6280 (256 buckets, docs/internals.md §Encodings)
//   - 1000 members "member:0001"…: 48296 (1024 buckets)
//   - HSET h f1 <65 bytes>: 248 (4 buckets)
//
// Each figure = objectComputeSize + usable(key sds) + 24 (the keyspace entry).
func TestMemoryUsageMatchesRedis70(t *testing.T) {
	a := alloc.Jemalloc16
	setElem := func(e *Entry[string, struct{}]) int { return EntryMemUsage(700) + sdsUsable(a, len(e.Key)) }
	keyPart := func(key string) int64 { return int64(sdsUsable(a, len(key)) + 24) }

	d := NewSet[string](env70(21))
	addN(d, "m", 1, 129)
	if got := d.MemoryUsage(16, 5, setElem) + keyPart("s"); got != 7304 {
		t.Errorf("129 members while rehashing: %d, want 7304", got)
	}
	if got := d.MemoryUsage(16, 0, setElem) + keyPart("s"); got != 7304 {
		t.Errorf("SAMPLES 0: %d, want 7304", got)
	}
	finishRehash(d)
	if got := d.MemoryUsage(16, 5, setElem) + keyPart("s"); got != 6280 {
		t.Errorf("129 members: %d, want 6280", got)
	}
	d2 := NewSet[string](env70(21))
	for i := 1; i <= 1000; i++ {
		d2.Add(fmt.Sprintf("member:%04d", i), struct{}{})
	}
	if got := d2.MemoryUsage(16, 5, setElem) + keyPart("s2"); got != 48296 {
		t.Errorf("1000 members: %d, want 48296", got)
	}
	h := New[string, string](env70(21))
	h.Expand(0)
	h.Replace("f1", strings.Repeat("x", 65))
	hashElem := func(e *Entry[string, string]) int {
		return sdsUsable(a, len(e.Key)) + sdsUsable(a, len(e.Val)) + EntryMemUsage(700)
	}
	if got := h.MemoryUsage(16, 5, hashElem) + keyPart("h"); got != 248 {
		t.Errorf("hash: %d, want 248", got)
	}
	// The sampled average is truncated together with the fixed part, in double precision.
	if got := Extrapolate(100, 7, 3, 10); got != 123 {
		t.Errorf("Extrapolate = %d, want 123 (100 + 23.33)", got)
	}
}

func TestAllocBytes(t *testing.T) {
	a := alloc.Jemalloc
	d70 := NewSet[string](env70(1))
	d72 := NewSet[string](NewEnv(702, 1, nil))
	for _, d := range []*Dict[string, struct{}]{d70, d72} {
		addN(d, "m", 1, 16)
	}
	// 7.0: 24 bytes per member. 7.2+: 16 bytes per member that is not last in its chain.
	chained := 0
	for _, b := range d72.Buckets() {
		chained += len(b.Keys) - 1
	}
	want70 := int64(56 + 16*8 + 16*24)
	want72 := int64(56+16*8) + int64(chained*16)
	if got := d70.AllocBytes(a.Usable); got != want70 {
		t.Errorf("7.0: %d, want %d", got, want70)
	}
	if got := d72.AllocBytes(a.Usable); got != want72 {
		t.Errorf("7.2: %d, want %d", got, want72)
	}
}

func TestByteSliceKeys(t *testing.T) {
	d := New[[]byte, int](env74(1))
	for i := 0; i < 500; i++ {
		d.Add([]byte(fmt.Sprint(i)), i)
	}
	for i := 0; i < 500; i++ {
		if v, ok := d.Find([]byte(fmt.Sprint(i))); !ok || v != i {
			t.Fatalf("find %d: %v %v", i, v, ok)
		}
	}
	if d.Add([]byte("7"), 0) {
		t.Fatal("duplicate added")
	}
	s := New[string, int](env74(1))
	if s.Hash("abc") != d.Hash([]byte("abc")) {
		t.Fatal("string and []byte keys hash differently")
	}
	checkInvariants(t, d)
}

// Random operation sequences against a map, under both rule sets, with invariant checks.
func TestRandomOpsAgainstMap(t *testing.T) {
	for _, e := range []*Env{env70(77), env74(77)} {
		d := New[string, int](e)
		ref := map[string]int{}
		r := e.Rand
		for step := 0; step < 20000; step++ {
			k := fmt.Sprintf("k%d", r.IntN(3000))
			switch op := r.IntN(10); {
			case op < 5:
				added := d.Replace(k, step)
				_, had := ref[k]
				if added == had {
					t.Fatalf("Replace %s added=%v had=%v", k, added, had)
				}
				ref[k] = step
			case op < 8:
				ok := d.Delete(k)
				_, had := ref[k]
				if ok != had {
					t.Fatalf("Delete %s = %v, had %v", k, ok, had)
				}
				delete(ref, k)
				d.ResizeIfNeeded()
			default:
				v, ok := d.Find(k)
				if rv, had := ref[k]; ok != had || v != rv {
					t.Fatalf("Find %s", k)
				}
			}
			if d.Len() != len(ref) {
				t.Fatalf("len %d vs %d", d.Len(), len(ref))
			}
			if step%997 == 0 {
				checkInvariants(t, d)
			}
		}
	}
}
