// Package dict is a faithful model of Redis's dict.c: the chained hash table behind hashtable
// sets, hashes, sorted-set member maps and the keyspace.
//
// Two tables of power-of-two bucket arrays, chains with new entries at the head, a rehashidx
// walking ht0 during incremental rehash, the expand/shrink rules of each Redis generation
// (Rules), SipHash-1-2 bucket placement keyed per engine seed, iteration in bucket order, SCAN's
// reverse-binary cursor, and the three random-pick algorithms with their bias — so bucket
// layouts, iteration orders, SCAN cursors and SRANDMEMBER statistics come out the way a real
// server's do (docs/internals.md §Dict; dict.c of 7.0.15 and 7.4.1, re-implemented from the rules).
package dict

import (
	"math/bits"
)

// MaxBuckets bounds a single table allocation; a larger request is treated like a failed
// allocation (dictTryExpand's malloc failure) instead of exhausting the simulator's memory.
var MaxBuckets uint64 = 1 << 30

const initialExp = 2 // DICT_HT_INITIAL_EXP: 4 buckets

// Entry is one dictEntry: a key, a value and the next entry of its chain.
type Entry[K Bytes, V any] struct {
	Key  K // never modify: the entry's position depends on it
	Val  V
	next *Entry[K, V]
	hash uint64 // cached SipHash of Key (Redis recomputes it; the result is the same)
}

// Dict is one Redis dict.
type Dict[K Bytes, V any] struct {
	env             *Env
	table           [2][]*Entry[K, V]
	used            [2]uint64
	rehashIdx       int64 // -1 when not rehashing
	pauseRehash     int
	pauseAutoResize int
	noValue         bool

	// Observer, when set, receives every structural change (observe.go).
	Observer Observer
	// ResizeAllowed, when set, is dictType.expandAllowed/resizeAllowed: asked before an automatic
	// resize with the new bucket array's bytes and the current fill ratio (the keyspace uses it
	// to refuse growth past maxmemory). Nil allows everything.
	ResizeAllowed func(moreMem uint64, usedRatio float64) bool
}

// New makes an empty dict (no table allocated yet; the first insert allocates 4 buckets).
func New[K Bytes, V any](env *Env) *Dict[K, V] {
	if env == nil {
		env = NewEnv(0, 0, nil)
	}
	return &Dict[K, V]{env: env, rehashIdx: -1}
}

// NewSet makes a dict for a set: keys only. In 7.2+ Redis stores set members without a value
// field (16-byte dictEntryNoValue, a lone member directly in its bucket); that changes only the
// allocation accounting (AllocBytes), not placement or order.
func NewSet[K Bytes](env *Env) *Dict[K, struct{}] {
	d := New[K, struct{}](env)
	d.noValue = true
	return d
}

// Env returns the shared environment.
func (d *Dict[K, V]) Env() *Env { return d.env }

// Len is dictSize: entries in both tables.
func (d *Dict[K, V]) Len() int { return int(d.used[0] + d.used[1]) }

// Slots is dictSlots/dictBuckets: the bucket count of both tables.
func (d *Dict[K, V]) Slots() uint64 { return uint64(len(d.table[0]) + len(d.table[1])) }

// IsRehashing reports an incremental rehash in progress.
func (d *Dict[K, V]) IsRehashing() bool { return d.rehashIdx != -1 }

// RehashIndex is rehashidx (-1 when not rehashing).
func (d *Dict[K, V]) RehashIndex() int64 { return d.rehashIdx }

// TableSize is the bucket count of table t (0 or 1); 0 when unallocated.
func (d *Dict[K, V]) TableSize(t int) uint64 {
	if t < 0 || t > 1 {
		return 0
	}
	return uint64(len(d.table[t]))
}

// TableUsed is the entry count of table t.
func (d *Dict[K, V]) TableUsed(t int) uint64 {
	if t < 0 || t > 1 {
		return 0
	}
	return d.used[t]
}

// PauseRehashing / ResumeRehashing nest like dictPauseRehashing (a safe iterator holds one).
func (d *Dict[K, V]) PauseRehashing() { d.pauseRehash++ }

// ResumeRehashing undoes PauseRehashing.
func (d *Dict[K, V]) ResumeRehashing() {
	if d.pauseRehash > 0 {
		d.pauseRehash--
	}
}

// PauseAutoResize / ResumeAutoResize: 7.4's dictPauseAutoResize (ZREMRANGEBY* and zset store
// commands hold it while deleting many entries, then call ShrinkIfNeeded once).
func (d *Dict[K, V]) PauseAutoResize() { d.pauseAutoResize++ }

// ResumeAutoResize undoes PauseAutoResize.
func (d *Dict[K, V]) ResumeAutoResize() {
	if d.pauseAutoResize > 0 {
		d.pauseAutoResize--
	}
}

func (d *Dict[K, V]) hash(k K) uint64 { return Sum12(d.env.Key, k) }

// Hash returns the key's 64-bit hash (dictGetHash).
func (d *Dict[K, V]) Hash(k K) uint64 { return d.hash(k) }

func (d *Dict[K, V]) mask(t int) uint64 {
	n := uint64(len(d.table[t]))
	if n == 0 {
		return 0
	}
	return n - 1
}

func eq[K Bytes](a, b K) bool { return string(a) == string(b) }

func (d *Dict[K, V]) emit(ev Event) {
	ev.RehashIdx = d.rehashIdx
	d.Observer(ev)
}

func (d *Dict[K, V]) chainLen(t int, idx uint64) int {
	n := 0
	for e := d.table[t][idx]; e != nil; e = e.next {
		n++
	}
	return n
}

// nextExp is _dictNextExp: the exponent of the smallest power of two ≥ size, at least 4.
func nextExp(size uint64) int {
	if size <= 1<<initialExp {
		return initialExp
	}
	if size >= 1<<63-1 {
		return 63
	}
	return 64 - bits.LeadingZeros64(size-1)
}

// ---------------------------------------------------------------- resizing

func (d *Dict[K, V]) resizeAllowed(size uint64) bool {
	if d.ResizeAllowed == nil {
		return true
	}
	ratio := 0.0
	if s0 := len(d.table[0]); s0 > 0 {
		ratio = float64(d.used[0]) / float64(s0)
	}
	return d.ResizeAllowed((uint64(1)<<nextExp(size))*8, ratio)
}

// allocate is the common part of 7.0's _dictExpand and 7.4's _dictResize once the size checks
// passed: make a table for size and either install it or start rehashing into it.
func (d *Dict[K, V]) allocate(size uint64) bool {
	exp := nextExp(size)
	newSize := uint64(1) << exp
	if newSize < size || newSize > MaxBuckets {
		return false
	}
	old := uint64(len(d.table[0]))
	if old == newSize && d.table[0] != nil {
		return false // rehashing to the same size is not useful
	}
	t := make([]*Entry[K, V], newSize)
	install := d.table[0] == nil || (d.env.Rules.InstallWhenEmpty && d.used[0] == 0)
	if install {
		d.table[0] = t
		d.used[0] = 0
		d.table[1] = nil
		d.used[1] = 0
		d.rehashIdx = -1
	} else {
		d.table[1] = t
		d.used[1] = 0
		d.rehashIdx = 0
	}
	if d.Observer != nil {
		d.emit(Event{Kind: EvResize, OldSize: old, NewSize: newSize, Shrink: newSize < old, Installed: install})
	}
	return true
}

// Expand is dictExpand: allocate a table for size entries (rounded up to a power of two, at
// least 4). 7.0: refused while rehashing or when size < Len; 7.4+: also when size is not larger
// than the current table. Returns whether a table was allocated.
func (d *Dict[K, V]) Expand(size uint64) bool {
	if d.IsRehashing() || d.used[0] > size {
		return false
	}
	if d.env.Rules.ExpandMustGrow && uint64(len(d.table[0])) >= size {
		return false
	}
	return d.allocate(size)
}

// Shrink is 7.4's dictShrink: refused while rehashing, when size < Len, or when size is not
// smaller than the current table.
func (d *Dict[K, V]) Shrink(size uint64) bool {
	if d.IsRehashing() || d.used[0] > size || uint64(len(d.table[0])) <= size {
		return false
	}
	return d.allocate(size)
}

// ExpandIfNeeded is dictExpandIfNeeded/_dictExpandIfNeeded, checked before every insert.
// Returns true (DICT_OK) when it expanded, was rehashing, or allocated the first table.
func (d *Dict[K, V]) ExpandIfNeeded() bool {
	if d.IsRehashing() {
		return true
	}
	s0 := uint64(len(d.table[0]))
	if s0 == 0 {
		d.Expand(1 << initialExp)
		return true
	}
	r := &d.env.Rules
	mode := d.env.Resize
	u := d.used[0]
	var force bool
	if r.ForceRatioInclusive {
		force = u >= r.ForceResizeRatio*s0
	} else {
		force = u/s0 > r.ForceResizeRatio
	}
	if (mode == ResizeEnable && u >= s0) || (mode != ResizeForbid && force) {
		if d.resizeAllowed(u + 1) {
			d.Expand(u + 1)
		}
		return true
	}
	return false
}

// ShrinkIfNeeded is 7.4's dictShrinkIfNeeded (called inside every delete under 7.4+ rules, and
// by ZREMRANGEBY*/zset stores after a paused batch). Returns true (DICT_OK) when it shrank, was
// rehashing, or the table is already minimal.
func (d *Dict[K, V]) ShrinkIfNeeded() bool {
	if d.IsRehashing() {
		return true
	}
	s0 := uint64(len(d.table[0]))
	if s0 <= 1<<initialExp {
		return true
	}
	r := &d.env.Rules
	mode := d.env.Resize
	u := d.used[0]
	if (mode == ResizeEnable && u*r.ShrinkFillDivisor <= s0) ||
		(mode != ResizeForbid && u*r.ShrinkFillDivisor*r.ForceResizeRatio <= s0) {
		if d.resizeAllowed(u) {
			d.Shrink(u)
		}
		return true
	}
	return false
}

func (d *Dict[K, V]) shrinkAfterDelete() {
	if d.env.Rules.ShrinkOnDelete && d.pauseAutoResize == 0 {
		d.ShrinkIfNeeded()
	}
}

// NeedsResize is 7.0/7.2's htNeedsResize (server.c): more than 4 slots (both tables) and a fill
// below 10% (used×100/slots < 10).
func (d *Dict[K, V]) NeedsResize() bool {
	slots := d.Slots()
	used := uint64(d.Len())
	return slots > 1<<initialExp && used*100/slots < d.env.Rules.NeedsResizePercent
}

// Resize is 7.0/7.2's dictResize: shrink (or grow) to the smallest power of two ≥ Len (min 4).
// Refused while rehashing or when resizing is not enabled.
func (d *Dict[K, V]) Resize() bool {
	if d.env.Resize != ResizeEnable || d.IsRehashing() {
		return false
	}
	minimal := d.used[0]
	if minimal < 1<<initialExp {
		minimal = 1 << initialExp
	}
	if d.env.Rules.ExpandMustGrow { // 7.4 has no dictResize; behave like a shrink-to-fit
		return d.Shrink(minimal)
	}
	return d.Expand(minimal)
}

// ResizeIfNeeded is what Redis 7.0/7.2 commands do after deleting from a value's dict:
// `if (htNeedsResize(d)) dictResize(d)` — setTypeRemove (SREM, SPOP, SMOVE), hashTypeDelete
// (HDEL), zsetDel (ZREM), ZREMRANGEBY*, and the zset store commands. Call it exactly where they
// do. Under 7.4+ rules it does nothing (the dict shrinks inside Delete) and returns false.
func (d *Dict[K, V]) ResizeIfNeeded() bool {
	if d.env.Rules.ShrinkOnDelete {
		return false
	}
	if d.NeedsResize() {
		return d.Resize()
	}
	return false
}

// CronResize is serverCron's resize of the keyspace dicts (tryResizeHashTables): 7.0/7.2
// htNeedsResize+dictResize; 7.4+ ShrinkIfNeeded, else ExpandIfNeeded. Redis does not do this
// for value dicts.
func (d *Dict[K, V]) CronResize() {
	if d.env.Rules.ShrinkOnDelete {
		if !d.ShrinkIfNeeded() {
			d.ExpandIfNeeded()
		}
		return
	}
	if d.NeedsResize() {
		d.Resize()
	}
}

// ---------------------------------------------------------------- rehashing

// rehashAvoided: with dict_can_resize = AVOID, rehashing waits unless the size ratio is extreme.
func (d *Dict[K, V]) rehashAvoided() bool {
	s0, s1 := uint64(len(d.table[0])), uint64(len(d.table[1]))
	r := &d.env.Rules
	if r.ForceRatioInclusive {
		return (s1 > s0 && s1 < r.ForceResizeRatio*s0) ||
			(s1 < s0 && s0 < r.ShrinkFillDivisor*r.ForceResizeRatio*s1)
	}
	return (s1 > s0 && s1/s0 < r.ForceResizeRatio) || (s1 < s0 && s0/s1 < r.ForceResizeRatio)
}

// moveBucket moves every entry of ht0[idx] to the head of its ht1 chain (the chain's order is
// reversed on the way, as in Redis).
func (d *Dict[K, V]) moveBucket(idx uint64) int {
	m1 := d.mask(1)
	shrinking := len(d.table[1]) < len(d.table[0])
	moved := 0
	for e := d.table[0][idx]; e != nil; {
		next := e.next
		var h uint64
		if shrinking {
			h = idx & m1
		} else {
			h = e.hash & m1
		}
		e.next = d.table[1][h]
		d.table[1][h] = e
		d.used[0]--
		d.used[1]++
		moved++
		e = next
	}
	d.table[0][idx] = nil
	return moved
}

// completeIfDone swaps ht1 into ht0 once ht0 is empty.
func (d *Dict[K, V]) completeIfDone() bool {
	if d.used[0] != 0 {
		return false
	}
	old := uint64(len(d.table[0]))
	d.table[0] = d.table[1]
	d.used[0] = d.used[1]
	d.table[1] = nil
	d.used[1] = 0
	d.rehashIdx = -1
	if d.Observer != nil {
		d.emit(Event{Kind: EvRehashDone, OldSize: old, NewSize: uint64(len(d.table[0]))})
	}
	return true
}

// Rehash is dictRehash(d, n): up to n bucket moves, visiting at most 10·n empty buckets.
// Returns true while entries remain to be moved.
func (d *Dict[K, V]) Rehash(n int) bool {
	if d.env.Resize == ResizeForbid || !d.IsRehashing() {
		return false
	}
	if d.env.Resize == ResizeAvoid && d.rehashAvoided() {
		return false
	}
	emptyVisits := n * 10
	for ; n > 0 && d.used[0] != 0; n-- {
		visited := 0
		for d.table[0][d.rehashIdx] == nil {
			d.rehashIdx++
			visited++
			emptyVisits--
			if emptyVisits == 0 {
				if d.Observer != nil {
					d.emit(Event{Kind: EvRehashStep, Index: uint64(d.rehashIdx), Visited: visited})
				}
				return true
			}
		}
		idx := uint64(d.rehashIdx)
		moved := d.moveBucket(idx)
		d.rehashIdx++
		if d.Observer != nil {
			d.emit(Event{Kind: EvRehashStep, Index: idx, Moved: moved, Visited: visited})
		}
	}
	return !d.completeIfDone()
}

// rehashStep is _dictRehashStep: one step unless paused by a safe iterator or a scan.
func (d *Dict[K, V]) rehashStep() {
	if d.pauseRehash == 0 {
		d.Rehash(1)
	}
}

// bucketRehash is 7.4's _dictBucketRehash: move ht0[idx] without advancing rehashidx.
func (d *Dict[K, V]) bucketRehash(idx uint64) {
	if d.pauseRehash != 0 || d.env.Resize == ResizeForbid || !d.IsRehashing() {
		return
	}
	if d.env.Resize == ResizeAvoid && d.rehashAvoided() {
		return
	}
	moved := d.moveBucket(idx)
	if d.Observer != nil {
		d.emit(Event{Kind: EvRehashStep, Index: idx, Moved: moved, Bucket: true})
	}
	d.completeIfDone()
}

// stepFor does the rehash work an add/find/delete of a key with hash h does first.
// It returns ht0's index for h as computed before the step (7.4 uses it to skip ht0).
func (d *Dict[K, V]) stepFor(h uint64) uint64 {
	idx := h & d.mask(0)
	if !d.IsRehashing() {
		return idx
	}
	if d.env.Rules.BucketRehash && int64(idx) >= d.rehashIdx && d.table[0][idx] != nil {
		d.bucketRehash(idx)
	} else {
		d.rehashStep()
	}
	return idx
}

// skipT0 is 7.4's "the key's ht0 bucket was already moved" test.
func (d *Dict[K, V]) skipT0(idx0 uint64) bool {
	return d.env.Rules.BucketRehash && int64(idx0) < d.rehashIdx
}

// ---------------------------------------------------------------- add / find / delete

// AddOrFind is dictAddRaw: insert k (value zero) at the head of its chain and return the new
// entry with added=true, or return the existing entry with added=false.
func (d *Dict[K, V]) AddOrFind(k K) (e *Entry[K, V], added bool) {
	h := d.hash(k)
	idx0 := d.stepFor(h)
	d.ExpandIfNeeded()
	var idx uint64
	for t := 0; t <= 1; t++ {
		if t == 0 && d.skipT0(idx0) {
			continue
		}
		idx = h & d.mask(t)
		for x := d.table[t][idx]; x != nil; x = x.next {
			if x.hash == h && eq(x.Key, k) {
				return x, false
			}
		}
		if !d.IsRehashing() {
			break
		}
	}
	t := 0
	if d.IsRehashing() {
		t = 1
	}
	e = &Entry[K, V]{Key: k, next: d.table[t][idx], hash: h}
	d.table[t][idx] = e
	d.used[t]++
	if d.Observer != nil {
		d.emit(Event{Kind: EvInsert, Table: t, Index: idx, ChainLen: d.chainLen(t, idx)})
	}
	return e, true
}

// Add is dictAdd: insert k→v unless k exists. Returns whether it was added.
func (d *Dict[K, V]) Add(k K, v V) bool {
	e, added := d.AddOrFind(k)
	if added {
		e.Val = v
	}
	return added
}

// Replace is dictReplace: add k→v, or overwrite the value of an existing k. Returns true when k
// was added.
func (d *Dict[K, V]) Replace(k K, v V) bool {
	e, added := d.AddOrFind(k)
	e.Val = v
	return added
}

// locate is the lookup dictFind and dictGenericDelete share: one rehash step, then k's chain in
// table 0 (unless the step says table 0 cannot hold it) and, while rehashing, in table 1. It
// returns the entry, the entry before it in its chain (nil at the chain's head), and where the
// chain is; x is nil when k is absent.
func (d *Dict[K, V]) locate(k K) (x, prev *Entry[K, V], t int, idx uint64) {
	if d.Len() == 0 {
		return nil, nil, 0, 0
	}
	h := d.hash(k)
	idx0 := d.stepFor(h)
	for t = 0; t <= 1; t++ {
		if t == 0 && d.skipT0(idx0) {
			continue
		}
		idx = h & d.mask(t)
		prev = nil
		for x = d.table[t][idx]; x != nil; x = x.next {
			if x.hash == h && eq(x.Key, k) {
				return x, prev, t, idx
			}
			prev = x
		}
		if !d.IsRehashing() {
			break
		}
	}
	return nil, nil, 0, 0
}

// FindEntry is dictFind (it performs a rehash step like Redis). Nil when absent.
func (d *Dict[K, V]) FindEntry(k K) *Entry[K, V] {
	x, _, _, _ := d.locate(k)
	return x
}

// Find is dictFetchValue.
func (d *Dict[K, V]) Find(k K) (v V, ok bool) {
	if e := d.FindEntry(k); e != nil {
		return e.Val, true
	}
	return v, false
}

// Contains reports whether k is present (a dictFind, with its rehash step).
func (d *Dict[K, V]) Contains(k K) bool { return d.FindEntry(k) != nil }

// Unlink is dictUnlink/dictGenericDelete: remove k and return its entry (nil when absent).
// Under 7.4+ rules the dict may shrink afterwards.
func (d *Dict[K, V]) Unlink(k K) *Entry[K, V] {
	x, prev, t, idx := d.locate(k)
	if x == nil {
		return nil
	}
	if prev != nil {
		prev.next = x.next
	} else {
		d.table[t][idx] = x.next
	}
	x.next = nil
	d.used[t]--
	if d.Observer != nil {
		d.emit(Event{Kind: EvDelete, Table: t, Index: idx, ChainLen: d.chainLen(t, idx)})
	}
	d.shrinkAfterDelete()
	return x
}

// Delete is dictDelete. Returns whether k was present.
func (d *Dict[K, V]) Delete(k K) bool { return d.Unlink(k) != nil }

// Clear is dictEmpty: drop everything, back to no table at all.
func (d *Dict[K, V]) Clear() {
	d.table = [2][]*Entry[K, V]{}
	d.used = [2]uint64{}
	d.rehashIdx = -1
	d.pauseRehash = 0
	d.pauseAutoResize = 0
}

// ---------------------------------------------------------------- iteration

// Iterator is dictIterator. A safe iterator pauses rehashing from its first Next until
// Release, so the dict may be modified while iterating; an unsafe one must not see changes.
type Iterator[K Bytes, V any] struct {
	d           *Dict[K, V]
	table       int
	index       int64
	safe        bool
	started     bool
	entry, next *Entry[K, V]
}

// Iterator returns an unsafe iterator (dictGetIterator).
func (d *Dict[K, V]) Iterator() *Iterator[K, V] {
	return &Iterator[K, V]{d: d, index: -1}
}

// SafeIterator returns a safe iterator (dictGetSafeIterator); call Release when done.
func (d *Dict[K, V]) SafeIterator() *Iterator[K, V] {
	return &Iterator[K, V]{d: d, index: -1, safe: true}
}

// Next is dictNext: entries of ht0 in bucket order (each chain head to tail), then of ht1.
func (it *Iterator[K, V]) Next() *Entry[K, V] {
	d := it.d
	for {
		if it.entry == nil {
			if !it.started {
				it.started = true
				if it.safe {
					d.PauseRehashing()
				}
			}
			it.index++
			if it.index >= int64(len(d.table[it.table])) {
				if d.IsRehashing() && it.table == 0 {
					it.table = 1
					it.index = 0
					if len(d.table[1]) == 0 {
						return nil
					}
				} else {
					return nil
				}
			}
			it.entry = d.table[it.table][it.index]
		} else {
			it.entry = it.next
		}
		if it.entry != nil {
			it.next = it.entry.next
			return it.entry
		}
	}
}

// Release is dictReleaseIterator: a safe iterator resumes rehashing.
func (it *Iterator[K, V]) Release() {
	if it.started && it.safe {
		it.d.ResumeRehashing()
		it.started = false
	}
}

// Range calls fn for every entry in iteration order until fn returns false. The dict must not
// be modified meanwhile (it is an unsafe iteration with no rehash step).
func (d *Dict[K, V]) Range(fn func(e *Entry[K, V]) bool) {
	for t := 0; t <= 1; t++ {
		if t == 1 && !d.IsRehashing() {
			return
		}
		for _, e := range d.table[t] {
			for ; e != nil; e = e.next {
				if !fn(e) {
					return
				}
			}
		}
	}
}

// Keys returns the keys in iteration order.
func (d *Dict[K, V]) Keys() []K {
	out := make([]K, 0, d.Len())
	d.Range(func(e *Entry[K, V]) bool { out = append(out, e.Key); return true })
	return out
}
