package quicklist

import (
	"errors"
	"math"
	"slices"
	"strconv"

	"redscope/engine/alloc"
	"redscope/engine/listpack"
)

// Rules selects the version-specific behaviour (see the package documentation).
type Rules uint8

const (
	Rules70 Rules = iota
	Rules72
	Rules74
)

// Constants from quicklist.c.
const (
	SizeSafetyLimit        = 8192    // SIZE_SAFETY_LIMIT
	SizeEstimateOverhead   = 8       // SIZE_ESTIMATE_OVERHEAD
	DefaultPackedThreshold = 1 << 30 // 7.0/7.2 packed_threshold
	FillMax                = 32767   // (1 << 15) − 1 on 64-bit
	FillMin                = -5
	StructSize             = 40 // sizeof(quicklist)
	NodeStructSize         = 40 // sizeof(quicklistNode)
	robjSize               = 16
)

var optimizationLevel = [5]int{4096, 8192, 16384, 32768, 65536}

// End selects the head or the tail.
type End uint8

const (
	Head End = iota
	Tail
)

// Direction of an iterator: FromHead walks head→tail (AL_START_HEAD), FromTail tail→head.
type Direction uint8

const (
	FromHead Direction = iota
	FromTail
)

// Node is a quicklistNode.
type Node struct {
	prev, next *Node
	lp         *listpack.Listpack // packed node
	plain      []byte             // plain node (lp == nil)
	count      int
	sz         int // node->sz as Redis keeps it (lpBytes, or the plain element length)
}

// Next returns the next node (toward the tail) or nil.
func (n *Node) Next() *Node { return n.next }

// Prev returns the previous node or nil.
func (n *Node) Prev() *Node { return n.prev }

// IsPlain reports a plain (single raw element) node.
func (n *Node) IsPlain() bool { return n.lp == nil }

// Count is the number of elements in the node.
func (n *Node) Count() int { return n.count }

// Size is node->sz: the listpack's total bytes, or the plain element's length.
func (n *Node) Size() int { return n.sz }

// Listpack returns the node's listpack (nil for a plain node). Do not mutate it directly.
func (n *Node) Listpack() *listpack.Listpack { return n.lp }

// PlainBytes returns a plain node's element (nil for a packed node).
func (n *Node) PlainBytes() []byte { return n.plain }

// Usable is malloc_usable_size of the node's entry allocation.
func (n *Node) Usable(a alloc.Allocator) int {
	if n.lp != nil {
		return n.lp.Usable(a)
	}
	return a.Usable(len(n.plain))
}

// EventKind names a quicklist event.
type EventKind uint8

const (
	EvNodeNew  EventKind = iota // a node was linked in (Node)
	EvNodeDel                   // a node was unlinked (Node)
	EvSplit                     // Node was split; Other is the new node (not linked yet)
	EvMerge                     // Node (kept) absorbed Other (deleted next); Change is the lpMerge
	EvListpack                  // a listpack change inside Node
)

func (k EventKind) String() string {
	return [...]string{"node-new", "node-del", "split", "merge", "listpack"}[k]
}

// Event is reported to OnEvent.
type Event struct {
	Kind   EventKind
	Node   *Node
	Other  *Node
	Change listpack.Change
}

// Options configures a quicklist.
type Options struct {
	Fill            int             // list-max-listpack-size (0 → −2 is NOT implied; 0 means 1 per node)
	Rules           Rules           // version rules
	Alloc           alloc.Allocator // size classes used for realloc decisions inside listpacks
	PackedThreshold int             // DEBUG QUICKLIST-PACKED-THRESHOLD; 0 = the version default
}

// Quicklist is a quicklist.
type Quicklist struct {
	head, tail *Node
	count      int
	len        int
	fill       int
	rules      Rules
	alloc      alloc.Allocator
	threshold  int
	OnEvent    func(Event)
}

// New creates an empty quicklist (quicklistNew).
func New(o Options) *Quicklist {
	q := &Quicklist{rules: o.Rules, alloc: o.Alloc, threshold: o.PackedThreshold}
	q.SetFill(o.Fill)
	return q
}

// SetFill is quicklistSetFill (clamped to −5..32767).
func (q *Quicklist) SetFill(fill int) {
	q.fill = min(max(fill, FillMin), FillMax)
}

// Fill returns the clamped fill.
func (q *Quicklist) Fill() int { return q.fill }

// Count is the number of elements.
func (q *Quicklist) Count() int { return q.count }

// NodeCount is the number of nodes (ql->len).
func (q *Quicklist) NodeCount() int { return q.len }

// Head returns the first node.
func (q *Quicklist) Head() *Node { return q.head }

// Tail returns the last node.
func (q *Quicklist) Tail() *Node { return q.tail }

func (q *Quicklist) emit(ev Event) {
	if q.OnEvent != nil {
		q.OnEvent(ev)
	}
}

func (q *Quicklist) newLP() *listpack.Listpack {
	lp := listpack.New()
	lp.Alloc = q.alloc
	return lp
}

func (q *Quicklist) lpChanged(n *Node, ch listpack.Change) {
	if q.OnEvent != nil {
		q.OnEvent(Event{Kind: EvListpack, Node: n, Change: ch})
	}
}

// ---------------------------------------------------------------------------------------------
// Limits

// NodeLimit is quicklistNodeLimit (7.2+): the byte limit (for negative fill) or the count limit
// (positive fill, 0 → 1); the other value is −1.
func NodeLimit(fill int) (size, count int) {
	if fill >= 0 {
		return -1, max(fill, 1)
	}
	off := min(-fill-1, len(optimizationLevel)-1)
	return optimizationLevel[off], -1
}

// ExceedsLimit is quicklistNodeExceedsLimit (7.2+), also used by t_list to decide when a listpack
// list must become a quicklist.
func ExceedsLimit(fill, newSz, newCount int) bool {
	size, count := NodeLimit(fill)
	if size >= 0 {
		return newSz > size
	}
	if newSz > SizeSafetyLimit {
		return true
	}
	return newCount > count
}

// fitsLimit reports whether a node of sz bytes holding count elements is within the limits. For
// every fill the 7.0 formulation (optimization level, else safety limit and count ≤ fill) and the
// 7.2 one (quicklistNodeExceedsLimit) give the same answer.
func (q *Quicklist) fitsLimit(sz, count int) bool { return !ExceedsLimit(q.fill, sz, count) }

// IsLarge is isLargeElement: does an element of sz bytes go to its own plain node?
func (q *Quicklist) IsLarge(sz int) bool {
	if q.threshold > 0 {
		return sz >= q.threshold
	}
	if q.rules < Rules74 {
		return sz >= DefaultPackedThreshold
	}
	if q.fill >= 0 {
		return sz > SizeSafetyLimit
	}
	size, _ := NodeLimit(q.fill)
	return sz > size
}

// allowInsert is _quicklistNodeAllowInsert.
func (q *Quicklist) allowInsert(n *Node, sz int) bool {
	if n == nil || n.IsPlain() || q.IsLarge(sz) {
		return false
	}
	return q.fitsLimit(n.sz+sz+SizeEstimateOverhead, n.count+1)
}

// allowMerge is _quicklistNodeAllowMerge.
func (q *Quicklist) allowMerge(a, b *Node) bool {
	if a == nil || b == nil || a.IsPlain() || b.IsPlain() {
		return false
	}
	hdr := 7
	if q.rules == Rules70 {
		hdr = 11
	}
	mergeSz := int(uint32(a.sz + b.sz - hdr))
	return q.fitsLimit(mergeSz, a.count+b.count)
}

// ---------------------------------------------------------------------------------------------
// Node list plumbing

func (q *Quicklist) insertNode(old, nn *Node, after bool) {
	if after {
		nn.prev = old
		if old != nil {
			nn.next = old.next
			if old.next != nil {
				old.next.prev = nn
			}
			old.next = nn
		}
		if q.tail == old {
			q.tail = nn
		}
	} else {
		nn.next = old
		if old != nil {
			nn.prev = old.prev
			if old.prev != nil {
				old.prev.next = nn
			}
			old.prev = nn
		}
		if q.head == old {
			q.head = nn
		}
	}
	if q.len == 0 {
		q.head, q.tail = nn, nn
	}
	q.len++
	q.emit(Event{Kind: EvNodeNew, Node: nn})
}

func (q *Quicklist) delNode(n *Node) {
	if n.next != nil {
		n.next.prev = n.prev
	}
	if n.prev != nil {
		n.prev.next = n.next
	}
	if n == q.tail {
		q.tail = n.prev
	}
	if n == q.head {
		q.head = n.next
	}
	q.len--
	q.count -= n.count
	q.emit(Event{Kind: EvNodeDel, Node: n})
}

func newPlainNode(v []byte) *Node {
	return &Node{plain: slices.Clone(v), count: 1, sz: len(v)}
}

func (q *Quicklist) insertPlainNode(old *Node, v []byte, after bool) {
	q.insertNode(old, newPlainNode(v), after)
	q.count++
}

// newPackedNode is quicklistCreateNode + lpPrepend(lpNew(0), v): count and sz already set.
func (q *Quicklist) newPackedNode(v []byte) *Node {
	n := &Node{lp: q.newLP()}
	ch := n.lp.Prepend(v)
	n.count = 1
	n.sz = n.lp.TotalBytes()
	q.lpChanged(n, ch)
	return n
}

// ---------------------------------------------------------------------------------------------
// Push / pop

// PushHead is quicklistPushHead; it reports whether a new head node was created.
func (q *Quicklist) PushHead(v []byte) bool { return q.push(v, false) }

// PushTail is quicklistPushTail; it reports whether a new tail node was created.
func (q *Quicklist) PushTail(v []byte) bool { return q.push(v, true) }

// Push is quicklistPush.
func (q *Quicklist) Push(v []byte, where End) { q.push(v, where != Head) }

// push is quicklistPushHead (atTail false) or quicklistPushTail: a large element gets a plain
// node of its own; otherwise the end node takes it if its listpack may grow, else a new node
// does. It reports whether the end node changed.
func (q *Quicklist) push(v []byte, atTail bool) bool {
	end := q.head
	if atTail {
		end = q.tail
	}
	if q.IsLarge(len(v)) {
		q.insertPlainNode(end, v, atTail)
		return true
	}
	n := end
	if !q.allowInsert(end, len(v)) {
		n = &Node{lp: q.newLP()}
	}
	var ch listpack.Change
	if atTail {
		ch = n.lp.Append(v)
	} else {
		ch = n.lp.Prepend(v)
	}
	n.sz = n.lp.TotalBytes()
	if n != end {
		q.insertNode(end, n, atTail)
	}
	q.lpChanged(n, ch)
	q.count++
	n.count++
	return n != end
}

// AppendListpack is quicklistAppendListpack: a pre-built listpack becomes the new tail node
// (RDB loading, 7.2+ listpack→quicklist conversion). The quicklist takes ownership of lp.
func (q *Quicklist) AppendListpack(lp *listpack.Listpack) {
	n := &Node{lp: lp, count: lp.Len(), sz: lp.TotalBytes()}
	q.insertNode(q.tail, n, true)
	q.count += n.count
}

// AppendPlain is quicklistAppendPlainNode.
func (q *Quicklist) AppendPlain(v []byte) {
	n := newPlainNode(v)
	q.insertNode(q.tail, n, true)
	q.count++
}

// delIndex is quicklistDelIndex: deletes the entry at *p of n; *p becomes the following entry.
// It reports whether the node itself was deleted.
func (q *Quicklist) delIndex(n *Node, p *int) bool {
	if n.IsPlain() {
		q.delNode(n)
		return true
	}
	np, ch := n.lp.Delete(*p)
	*p = np
	q.lpChanged(n, ch)
	n.count--
	gone := false
	if n.count == 0 {
		gone = true
		q.delNode(n)
	} else {
		n.sz = n.lp.TotalBytes()
	}
	q.count--
	return gone
}

// Pop is quicklistPop: removes the head or tail element and returns it as a string appended to
// dst[:0] (integers in decimal).
func (q *Quicklist) Pop(where End, dst []byte) ([]byte, bool) {
	if q.count == 0 {
		return dst[:0], false
	}
	n := q.head
	pos := 0
	if where == Tail {
		n, pos = q.tail, -1
	}
	if n == nil {
		return dst[:0], false
	}
	if n.IsPlain() {
		dst = append(dst[:0], n.plain...)
		q.delIndex(n, nil)
		return dst, true
	}
	p := n.lp.Seek(pos)
	s, v, isInt, _ := n.lp.Get(p)
	if isInt {
		dst = strconv.AppendInt(dst[:0], v, 10)
	} else {
		dst = append(dst[:0], s...)
	}
	q.delIndex(n, &p)
	return dst, true
}

// ---------------------------------------------------------------------------------------------
// Iteration

// Entry is a quicklistEntry: the node, the listpack offset of the element (0 for a plain node),
// the signed offset inside the node as the iterator counts it, and the value.
type Entry struct {
	Node   *Node
	P      int
	Offset int
	Str    []byte // string value (points into the node; copy before mutating)
	Int    int64
	IsInt  bool
}

// Bytes returns the value as a string (integers formatted into buf).
func (e *Entry) Bytes(buf []byte) []byte {
	if e.IsInt {
		return strconv.AppendInt(buf[:0], e.Int, 10)
	}
	return e.Str
}

// Iter is a quicklistIter.
type Iter struct {
	q      *Quicklist
	cur    *Node
	zi     int
	hasZi  bool
	offset int
	dir    Direction
}

// Iterator is quicklistGetIterator.
func (q *Quicklist) Iterator(dir Direction) Iter {
	it := Iter{q: q, dir: dir, cur: q.head}
	if dir == FromTail {
		it.cur, it.offset = q.tail, -1
	}
	return it
}

// IteratorAt is quicklistGetIteratorAtIdx: an iterator positioned at index idx (negative from
// the tail) that then walks in dir. ok is false when idx is out of range.
func (q *Quicklist) IteratorAt(dir Direction, idx int) (Iter, bool) {
	forward := idx >= 0
	index := idx
	if !forward {
		index = -idx - 1
	}
	if index >= q.count {
		return Iter{}, false
	}
	seekForward, seekIndex := forward, index
	if index > (q.count-1)/2 {
		seekForward = !forward
		seekIndex = q.count - 1 - index
	}
	n := q.head
	if !seekForward {
		n = q.tail
	}
	accum := 0
	for n != nil {
		if accum+n.count > seekIndex {
			break
		}
		accum += n.count
		if seekForward {
			n = n.next
		} else {
			n = n.prev
		}
	}
	if n == nil {
		return Iter{}, false
	}
	if seekForward != forward {
		accum = q.count - n.count - accum
	}
	it := q.Iterator(dir)
	it.cur = n
	if forward {
		it.offset = index - accum
	} else {
		it.offset = -index - 1 + accum
	}
	return it, true
}

// Index is quicklistGetIteratorEntryAtIdx: the entry at idx plus an iterator (walking toward the
// head, as Redis creates it) usable for ReplaceEntry/InsertBefore/InsertAfter.
func (q *Quicklist) Index(idx int) (Entry, Iter, bool) {
	it, ok := q.IteratorAt(FromTail, idx)
	if !ok {
		return Entry{}, Iter{}, false
	}
	var e Entry
	if !it.Next(&e) {
		return Entry{}, Iter{}, false
	}
	return e, it, true
}

// Next is quicklistNext.
func (it *Iter) Next(e *Entry) bool {
	for {
		*e = Entry{P: -1}
		if it.q == nil || it.cur == nil {
			return false
		}
		e.Node = it.cur
		plain := it.cur.IsPlain()
		switch {
		case !it.hasZi:
			if plain {
				it.zi, it.hasZi = 0, true
			} else {
				it.zi = it.cur.lp.Seek(it.offset)
				it.hasZi = it.zi >= 0
			}
		case plain:
			it.hasZi = false
		default:
			if it.dir == FromHead {
				it.zi = it.cur.lp.Next(it.zi)
				it.offset++
			} else {
				it.zi = it.cur.lp.Prev(it.zi)
				it.offset--
			}
			it.hasZi = it.zi >= 0
		}
		e.Offset = it.offset
		if it.hasZi {
			e.P = it.zi
			if plain {
				e.Str = it.cur.plain
				return true
			}
			e.Str, e.Int, e.IsInt, _ = it.cur.lp.Get(it.zi)
			return true
		}
		if it.dir == FromHead {
			it.cur, it.offset = it.cur.next, 0
		} else {
			it.cur, it.offset = it.cur.prev, -1
		}
		it.hasZi = false
	}
}

// DelEntry is quicklistDelEntry: deletes the element the iterator just returned.
func (it *Iter) DelEntry(e *Entry) {
	if it.q == nil || e.Node == nil {
		return
	}
	prev, next := e.Node.prev, e.Node.next
	gone := it.q.delIndex(e.Node, &e.P)
	it.hasZi = false
	if gone {
		if it.dir == FromHead {
			it.cur, it.offset = next, 0
		} else {
			it.cur, it.offset = prev, -1
		}
	}
}

func (it *Iter) reset() {
	it.cur = nil
	it.hasZi = false
}

// Compare is quicklistCompare.
func Compare(e *Entry, s []byte) bool {
	if e.Node == nil {
		return false
	}
	if e.Node.IsPlain() {
		return string(e.Str) == string(s)
	}
	return e.Node.lp.Compare(e.P, s)
}

// ---------------------------------------------------------------------------------------------
// Split / merge

// splitNode is _quicklistSplitNode. With after, node keeps [0, offset] and the returned node gets
// [offset+1, end]; without, the returned node gets [0, offset−1] and node keeps [offset, end].
func (q *Quicklist) splitNode(n *Node, offset int, after bool) *Node {
	nn := &Node{lp: n.lp.Clone()}
	nn.lp.Alloc = q.alloc
	if offset < 0 {
		offset += n.count
	}
	const toEnd = math.MaxInt
	origStart, origExtent, newStart, newExtent := 0, offset, offset, toEnd
	if after {
		origStart, origExtent, newStart, newExtent = offset+1, toEnd, 0, offset+1
	}
	ch := n.lp.DeleteRange(origStart, origExtent)
	n.count = n.lp.Len()
	n.sz = n.lp.TotalBytes()
	q.lpChanged(n, ch)
	ch = nn.lp.DeleteRange(newStart, newExtent)
	nn.count = nn.lp.Len()
	nn.sz = nn.lp.TotalBytes()
	q.emit(Event{Kind: EvSplit, Node: n, Other: nn, Change: ch})
	return nn
}

// listpackMerge is _quicklistListpackMerge (a is left of b); returns the kept node.
func (q *Quicklist) listpackMerge(a, b *Node) *Node {
	merged, keptFirst, ch := listpack.Merge(a.lp, b.lp)
	if merged == nil {
		return nil
	}
	keep, drop := a, b
	if !keptFirst {
		keep, drop = b, a
	}
	keep.lp = merged
	drop.lp = nil
	keep.count = merged.Len()
	keep.sz = merged.TotalBytes()
	drop.count = 0
	q.emit(Event{Kind: EvMerge, Node: keep, Other: drop, Change: ch})
	q.delNode(drop)
	return keep
}

// mergeNodes is _quicklistMergeNodes around center; returns the node center ended up in.
func (q *Quicklist) mergeNodes(center *Node) *Node {
	var prev, prevPrev, next, nextNext *Node
	if center.prev != nil {
		prev = center.prev
		prevPrev = prev.prev
	}
	if center.next != nil {
		next = center.next
		nextNext = next.next
	}
	if q.allowMerge(prev, prevPrev) {
		q.listpackMerge(prevPrev, prev)
	}
	if q.allowMerge(next, nextNext) {
		q.listpackMerge(next, nextNext)
	}
	var target *Node
	if q.allowMerge(center, center.prev) {
		target = q.listpackMerge(center.prev, center)
	} else {
		target = center
	}
	if q.allowMerge(target, target.next) {
		target = q.listpackMerge(target, target.next)
	}
	return target
}

// ---------------------------------------------------------------------------------------------
// Insert / replace / delete range

// insert is _quicklistInsert.
func (q *Quicklist) insert(it *Iter, e *Entry, v []byte, after bool) {
	sz := len(v)
	n := e.Node
	if n == nil {
		if q.IsLarge(sz) {
			q.insertPlainNode(q.tail, v, after)
			return
		}
		// Redis leaves node->sz at 0 here (no quicklistNodeUpdateSz); mirrored.
		nn := &Node{lp: q.newLP()}
		ch := nn.lp.Prepend(v)
		q.insertNode(nil, nn, after)
		q.lpChanged(nn, ch)
		nn.count++
		q.count++
		return
	}
	full := !q.allowInsert(n, sz)
	atTail, atHead, availNext, availPrev := false, false, false, false
	if after && (e.Offset == n.count-1 || e.Offset == -1) {
		atTail = true
		availNext = q.allowInsert(n.next, sz)
	}
	if !after && (e.Offset == 0 || e.Offset == -n.count) {
		atHead = true
		availPrev = q.allowInsert(n.prev, sz)
	}
	if q.IsLarge(sz) {
		if n.IsPlain() || (atTail && after) || (atHead && !after) {
			q.insertPlainNode(n, v, after)
		} else {
			nn := q.splitNode(n, e.Offset, after)
			pn := newPlainNode(v)
			q.insertNode(n, pn, after)
			q.insertNode(pn, nn, after)
			q.count++
		}
		return
	}
	switch {
	case !full:
		where := listpack.Before
		if after {
			where = listpack.After
		}
		_, ch := n.lp.Insert(e.P, v, where)
		n.count++
		n.sz = n.lp.TotalBytes()
		q.lpChanged(n, ch)
	case atTail && availNext && after:
		nn := n.next
		ch := nn.lp.Prepend(v)
		nn.count++
		nn.sz = nn.lp.TotalBytes()
		q.lpChanged(nn, ch)
	case atHead && availPrev && !after:
		nn := n.prev
		ch := nn.lp.Append(v)
		nn.count++
		nn.sz = nn.lp.TotalBytes()
		q.lpChanged(nn, ch)
	case (atTail && !availNext && after) || (atHead && !availPrev && !after):
		nn := q.newPackedNode(v)
		q.insertNode(n, nn, after)
	default:
		nn := q.splitNode(n, e.Offset, after)
		var ch listpack.Change
		if after {
			ch = nn.lp.Prepend(v)
		} else {
			ch = nn.lp.Append(v)
		}
		nn.count++
		nn.sz = nn.lp.TotalBytes()
		q.insertNode(n, nn, after)
		q.lpChanged(nn, ch)
		q.mergeNodes(n)
	}
	q.count++
	it.reset()
}

// InsertBefore is quicklistInsertBefore (LINSERT BEFORE). The iterator is invalidated.
func (q *Quicklist) InsertBefore(it *Iter, e *Entry, v []byte) { q.insert(it, e, v, false) }

// InsertAfter is quicklistInsertAfter (LINSERT AFTER). The iterator is invalidated.
func (q *Quicklist) InsertAfter(it *Iter, e *Entry, v []byte) { q.insert(it, e, v, true) }

// ReplaceEntry is quicklistReplaceEntry (LSET). The iterator is invalidated.
func (q *Quicklist) ReplaceEntry(it *Iter, e *Entry, v []byte) {
	n := e.Node
	if n == nil {
		return
	}
	large := q.IsLarge(len(v))
	switch {
	case !n.IsPlain() && !large:
		np, ch := n.lp.Replace(e.P, v)
		e.P = np
		n.sz = n.lp.TotalBytes()
		q.lpChanged(n, ch)
	case n.IsPlain():
		if large {
			n.plain = slices.Clone(v)
			n.sz = len(v)
		} else {
			q.insert(it, e, v, true)
			q.delNode(n)
		}
	case q.rules == Rules70:
		q.insert(it, e, v, true)
		if n.count == 1 {
			q.delNode(n)
		} else {
			p := n.lp.Seek(-1)
			q.delIndex(n, &p)
		}
	default:
		var split *Node
		if e.Offset != n.count-1 && e.Offset != -1 {
			split = q.splitNode(n, e.Offset, true)
		}
		var nn *Node
		if large {
			nn = newPlainNode(v)
		} else {
			nn = q.newPackedNode(v)
		}
		q.insertNode(n, nn, true)
		if split != nil {
			q.insertNode(nn, split, true)
		}
		q.count++
		if n.count == 1 {
			q.delNode(n)
		} else {
			p := n.lp.Seek(-1)
			q.delIndex(n, &p)
			q.mergeNodes(nn)
		}
	}
	it.reset()
}

// ReplaceAtIndex is quicklistReplaceAtIndex; false when idx is out of range.
func (q *Quicklist) ReplaceAtIndex(idx int, v []byte) bool {
	e, it, ok := q.Index(idx)
	if !ok {
		return false
	}
	q.ReplaceEntry(&it, &e, v)
	return true
}

// DelRange is quicklistDelRange: deletes count elements starting at start (negative from the
// tail). It reports whether anything was deleted. LTRIM uses DelRange(0, l) and DelRange(−r, r).
func (q *Quicklist) DelRange(start, count int) bool {
	if count <= 0 {
		return false
	}
	extent := count
	if start >= 0 && extent > q.count-start {
		extent = q.count - start
	} else if start < 0 && extent > -start {
		extent = -start
	}
	it, ok := q.IteratorAt(FromTail, start)
	if !ok {
		return false
	}
	n, offset := it.cur, it.offset
	for extent > 0 && n != nil {
		next := n.next
		var del int
		entire := false
		switch {
		case offset == 0 && extent >= n.count:
			entire, del = true, n.count
		case offset >= 0 && extent+offset >= n.count:
			del = n.count - offset
		case offset < 0:
			del = min(-offset, extent)
		default:
			del = extent
		}
		if entire || n.IsPlain() {
			q.delNode(n)
		} else {
			ch := n.lp.DeleteRange(offset, del)
			n.sz = n.lp.TotalBytes()
			n.count -= del
			q.count -= del
			q.lpChanged(n, ch)
			if n.count == 0 {
				q.delNode(n)
			}
		}
		extent -= del
		n = next
		offset = 0
	}
	return true
}

// ---------------------------------------------------------------------------------------------
// Memory and checks

// MemoryUsage is objectComputeSize for a quicklist list: 16 + 40 + avg(40 + usable(entry)) over
// the first samples nodes (samples ≤ 0 = all) × node count, in Redis's floating-point order.
func (q *Quicklist) MemoryUsage(a alloc.Allocator, samples int) int64 {
	size := int64(robjSize + StructSize)
	if q.head == nil {
		return size
	}
	if samples <= 0 {
		samples = math.MaxInt
	}
	elesize, n := 0, 0
	for node := q.head; node != nil && n < samples; node = node.next {
		elesize += NodeStructSize + node.Usable(a)
		n++
	}
	return int64(float64(size) + float64(elesize)/float64(n)*float64(q.len))
}

// ErrInconsistent reports a broken invariant found by Check.
var ErrInconsistent = errors.New("quicklist: inconsistent")

// Check verifies links, counts and node sizes (for tests and fuzzing).
func (q *Quicklist) Check() error {
	total, nodes := 0, 0
	var prev *Node
	for n := q.head; n != nil; n = n.next {
		if n.prev != prev {
			return ErrInconsistent
		}
		if n.IsPlain() {
			if n.count != 1 || n.sz != len(n.plain) {
				return ErrInconsistent
			}
		} else {
			if err := listpack.Validate(n.lp.Bytes(), true); err != nil {
				return err
			}
			if n.count != n.lp.Len() || n.count == 0 {
				return ErrInconsistent
			}
		}
		total += n.count
		nodes++
		prev = n
	}
	if prev != q.tail || total != q.count || nodes != q.len {
		return ErrInconsistent
	}
	return nil
}
