package engine

import (
	"strconv"

	"redscope/engine/listpack"
	"redscope/engine/quicklist"
)

// Lists (t_list.c of 7.0.15 / 7.2.6, docs/internals.md §Encodings).
//
// 7.0: every list is a quicklist (quicklist.Rules70). 7.2+: a new list is a plain listpack; it
// becomes a quicklist when lpBytes + the pushed arguments' bytes (or the entry count, for a
// positive list-max-listpack-size) exceed a node's limit, and goes back to a listpack after a
// removal (pop, LREM, LTRIM, LSET, LMOVE source) when the quicklist has one packed node within
// half the limits. Integer elements popped and pushed by LMOVE count 0 bytes (Redis sees an
// int-encoded object there).

// listValue is the Val of a list Object.
type listValue struct {
	lp  *listpack.Listpack   // EncListpack (7.2+)
	ql  *quicklist.Quicklist // EncQuicklist
	e   *Engine
	key string
}

func (e *Engine) quicklistRules() quicklist.Rules {
	switch {
	case e.ver.Has(V74):
		return quicklist.Rules74
	case e.ver.Has(V72):
		return quicklist.Rules72
	}
	return quicklist.Rules70
}

func (e *Engine) newQuicklist() *quicklist.Quicklist {
	return quicklist.New(quicklist.Options{
		Fill:  int(e.cfg.Int("list-max-listpack-size")),
		Rules: e.quicklistRules(),
		Alloc: e.alloc,
		// DEBUG QUICKLIST-PACKED-THRESHOLD (cmd_debug.go); Redis's is global, this one applies
		// to lists created after it.
		PackedThreshold: e.dbg.packedThreshold,
	})
}

// newListObject creates an empty list: a quicklist in 7.0, a listpack in 7.2+.
func (e *Engine) newListObject() *Object {
	l := &listValue{e: e}
	if e.ver.Has(V72) {
		l.lp = listpack.New()
		l.lp.Alloc = e.alloc
		return &Object{Type: TypeList, Enc: EncListpack, Val: l}
	}
	l.ql = e.newQuicklist()
	return &Object{Type: TypeList, Enc: EncQuicklist, Val: l}
}

// listOf returns the list value of o bound to the command (for trace events).
func (e *Engine) listOf(o *Object, key []byte) *listValue {
	l := o.Val.(*listValue)
	l.e = e
	if e.tracing {
		l.key = string(key)
		if l.ql != nil {
			l.observe()
		}
	} else if l.ql != nil && l.ql.OnEvent != nil {
		l.ql.OnEvent = nil
	}
	return l
}

func (l *listValue) observe() {
	e, key, q := l.e, l.key, l.ql
	q.OnEvent = func(ev quicklist.Event) {
		qe := QuicklistEvent{Key: key, NodeCount: q.NodeCount(), Change: ev.Change}
		switch ev.Kind {
		case quicklist.EvNodeNew:
			qe.Op = "node-new"
		case quicklist.EvNodeDel:
			qe.Op = "node-del"
		case quicklist.EvSplit:
			qe.Op = "split"
		case quicklist.EvMerge:
			qe.Op = "merge"
		default:
			qe.Op = "listpack"
		}
		if ev.Node != nil {
			qe.NodeBytes, qe.NodeElems = ev.Node.Size(), ev.Node.Count()
		}
		e.emit(qe)
	}
}

func (l *listValue) lpEvent(op string, entry []byte, ch listpack.Change) {
	if l.e != nil && l.e.tracing {
		l.e.emitLP(l.key, ch, entry)
	}
}

// CloneValue is COPY (listTypeDup): the listpack copied into an exact allocation, or every
// quicklist node copied as it is.
func (l *listValue) CloneValue() any {
	n := &listValue{e: l.e}
	if l.lp != nil {
		n.lp = cloneListpackExact(l.lp)
		return n
	}
	q := l.e.newQuicklist()
	q.SetFill(l.ql.Fill())
	for nd := l.ql.Head(); nd != nil; nd = nd.Next() {
		if nd.IsPlain() {
			q.AppendPlain(append([]byte(nil), nd.PlainBytes()...))
		} else {
			q.AppendListpack(cloneListpackExact(nd.Listpack()))
		}
	}
	n.ql = q
	return n
}

func cloneListpackExact(lp *listpack.Listpack) *listpack.Listpack {
	c, err := listpack.FromBytes(lp.Bytes())
	if err != nil {
		c = lp.Clone()
	}
	c.Alloc = lp.Alloc
	return c
}

// length is listTypeLength.
func (l *listValue) length() int {
	if l.lp != nil {
		return l.lp.Len()
	}
	return l.ql.Count()
}

// enc is the Object encoding matching the value.
func (l *listValue) enc() Encoding {
	if l.lp != nil {
		return EncListpack
	}
	return EncQuicklist
}

// tryConvertListpack is listTypeTryConvertListpack (growing): addBytes of new argument bytes and
// addCount new elements.
func (l *listValue) tryConvertListpack(o *Object, addBytes, addCount int) {
	if l.lp == nil {
		return
	}
	fill := int(l.e.cfg.Int("list-max-listpack-size"))
	if !quicklist.ExceedsLimit(fill, l.lp.TotalBytes()+addBytes, l.lp.Len()+addCount) {
		return
	}
	q := l.e.newQuicklist()
	lp := l.lp
	l.lp = nil
	l.ql = q
	if l.e.tracing {
		l.observe()
	}
	if lp.Len() > 0 {
		q.AppendListpack(lp)
	}
	o.Enc = EncQuicklist
	if l.e.tracing {
		l.e.emit(EncodingEvent{Key: l.key, From: "listpack", To: "quicklist",
			Why: Why{Code: WhyListNode, N: int64(lp.TotalBytes()), Extra: int64(addBytes), Limit: int64(fill)}})
	}
}

// tryConvertQuicklist is listTypeTryConvertQuicklist with shrinking (after removals).
func (l *listValue) tryConvertQuicklist(o *Object) {
	if l.ql == nil || !l.e.ver.Has(V72) {
		return
	}
	q := l.ql
	if q.NodeCount() != 1 || q.Head().IsPlain() {
		return
	}
	fill := q.Fill()
	size, count := quicklist.NodeLimit(fill)
	if size >= 0 && q.Head().Size() > size/2 {
		return
	}
	if count >= 0 && q.Count() > count/2 {
		return
	}
	l.lp = q.Head().Listpack()
	l.ql = nil
	o.Enc = EncListpack
	if l.e.tracing {
		l.e.emit(EncodingEvent{Key: l.key, From: "quicklist", To: "listpack",
			Why: Why{Code: WhyListShrink, N: int64(l.lp.TotalBytes())}})
	}
}

// tryConvertQuicklistAuto is 7.2's listTypeTryConversion(LIST_CONV_AUTO) of a list just built
// (SORT … STORE, sort.c; loading an RDB value, rdb.c rdbLoadObject): one packed node within the
// full node limits, not half of them as after removals, becomes a listpack. With
// list-max-listpack-size 3 a loaded [a b c] is a listpack again. why names the cause in the
// event (WhyNone: none is emitted, as for a value being loaded).
func (l *listValue) tryConvertQuicklistAuto(o *Object, why WhyCode) {
	q := l.ql
	if q == nil || !l.e.ver.Has(V72) || q.NodeCount() != 1 || q.Head().IsPlain() {
		return
	}
	size, count := quicklist.NodeLimit(q.Fill())
	if size >= 0 && q.Head().Size() > size {
		return
	}
	if count >= 0 && q.Count() > count {
		return
	}
	l.lp = q.Head().Listpack()
	l.ql = nil
	o.Enc = EncListpack
	if l.e.tracing && why != WhyNone {
		l.e.emit(EncodingEvent{Key: l.key, From: "quicklist", To: "listpack", Why: Why{Code: why}})
	}
}

// push is listTypePush.
func (l *listValue) push(v []byte, head bool) {
	if l.e != nil && l.e.tracing {
		defer func() { l.e.emit(ListEvent{Key: l.key, Op: "push", Head: head, Value: string(v), Len: l.length()}) }()
	}
	if l.lp != nil {
		var ch listpack.Change
		if head {
			ch = l.lp.Prepend(v)
		} else {
			ch = l.lp.Append(v)
		}
		l.lpEvent("insert", v, ch)
		return
	}
	if head {
		l.ql.Push(v, quicklist.Head)
	} else {
		l.ql.Push(v, quicklist.Tail)
	}
}

// pop is listTypePop: the value and whether it was stored as an integer.
func (l *listValue) pop(head bool, dst []byte) (v []byte, isInt bool) {
	if l.e != nil && l.e.tracing {
		defer func() {
			if v != nil || isInt {
				l.e.emit(ListEvent{Key: l.key, Op: "pop", Head: head, Value: string(v), Len: l.length()})
			}
		}()
	}
	if l.lp != nil {
		p := l.lp.Seek(0)
		if !head {
			p = l.lp.Seek(-1)
		}
		if p < 0 {
			return nil, false
		}
		s, v, isInt, _ := l.lp.Get(p)
		if isInt {
			dst = strconv.AppendInt(dst[:0], v, 10)
		} else {
			dst = append(dst[:0], s...)
		}
		_, ch := l.lp.Delete(p)
		l.lpEvent("delete", nil, ch)
		return dst, isInt
	}
	end := quicklist.Tail
	if head {
		end = quicklist.Head
	}
	// Whether the element was an integer: look before popping.
	isInt = false
	var n *quicklist.Node
	if head {
		n = l.ql.Head()
	} else {
		n = l.ql.Tail()
	}
	if n != nil && !n.IsPlain() {
		lp := n.Listpack()
		p := lp.First()
		if !head {
			p = lp.Last()
		}
		_, _, isInt, _ = lp.Get(p)
	}
	v, _ = l.ql.Pop(end, dst)
	return v, isInt
}

// listIter walks a list from an index in one direction.
type listIter struct {
	l   *listValue
	p   int
	rev bool
	qi  quicklist.Iter
	qe  quicklist.Entry
	ok  bool
	buf [24]byte
}

// iterAt is listTypeInitIterator at index (negative from the tail), walking toward the tail
// (or the head when rev).
func (l *listValue) iterAt(index int, rev bool) *listIter {
	it := &listIter{l: l, rev: rev, p: -1}
	if l.lp != nil {
		it.p = l.lp.Seek(index)
		return it
	}
	dir := quicklist.FromHead
	if rev {
		dir = quicklist.FromTail
	}
	it.qi, it.ok = l.ql.IteratorAt(dir, index)
	return it
}

// next returns the next element's bytes (valid until the next call) and whether there was one.
func (it *listIter) next() ([]byte, bool) {
	if it.l.lp != nil {
		if it.p < 0 {
			return nil, false
		}
		s, v, isInt, _ := it.l.lp.Get(it.p)
		if isInt {
			s = strconv.AppendInt(it.buf[:0], v, 10)
		}
		cur := it.p
		if it.rev {
			it.p = it.l.lp.Prev(cur)
		} else {
			it.p = it.l.lp.Next(cur)
		}
		return s, true
	}
	if !it.ok {
		return nil, false
	}
	if !it.qi.Next(&it.qe) {
		it.ok = false
		return nil, false
	}
	return it.qe.Bytes(it.buf[:0]), true
}

// rangeReply is addListRangeReply: count elements from index from, backward when rev.
func (l *listValue) rangeReply(from, count int, rev bool) Reply {
	out := make([]Reply, 0, count)
	it := l.iterAt(from, rev)
	for i := 0; i < count; i++ {
		v, ok := it.next()
		if !ok {
			break
		}
		out = append(out, Bulk(v))
	}
	return Reply{Kind: KindArray, Array: out}
}

// delRange is listTypeDelRange (start may be negative).
func (l *listValue) delRange(start, count int) {
	if count <= 0 {
		return
	}
	if l.lp != nil {
		ch := l.lp.DeleteRange(start, count)
		l.lpEvent("delete-range", nil, ch)
		return
	}
	l.ql.DelRange(start, count)
}

// listMemory is MEMORY USAGE's value part for a list, without the robj.
func (e *Engine) listMemory(o *Object, samples int) int64 {
	l := o.Val.(*listValue)
	if l.lp != nil {
		return int64(l.lp.Usable(e.alloc))
	}
	return l.ql.MemoryUsage(e.alloc, samples) - 16
}

// lpInsert inserts v before (where 0) or after (where 1) the entry at p.
func (l *listValue) lpInsert(p int, v []byte, where int) listpack.Change {
	w := listpack.Before
	if where == 1 {
		w = listpack.After
	}
	_, ch := l.lp.Insert(p, v, w)
	return ch
}

// lpDelete deletes the entry at *p and moves *p to the next entry in the walk's direction.
func (l *listValue) lpDelete(p *int, rev bool) listpack.Change {
	prev := -1
	if rev {
		prev = l.lp.Prev(*p)
	}
	next, ch := l.lp.Delete(*p)
	if rev {
		*p = prev
	} else {
		*p = next
	}
	return ch
}

func newQLEntry() *quicklist.Entry                 { return &quicklist.Entry{} }
func qlCompare(en *quicklist.Entry, s []byte) bool { return quicklist.Compare(en, s) }
func qlDir(d int) quicklist.Direction {
	if d == 1 {
		return quicklist.FromTail
	}
	return quicklist.FromHead
}

// ListNode is one node of a list as PeekList reports it: a quicklist node (a listpack, or one
// plain element), or the whole listpack of a listpack-encoded list.
type ListNode struct {
	Plain   bool
	Header  []byte      // a packed node's 6 header bytes: total bytes and entry count, little-endian
	Bytes   int         // node->sz: the listpack's total bytes (header 6 + entries + end 1), or the plain element's length
	Usable  int         // the allocation's size class
	Count   int         // elements in the node
	Entries []ListEntry // the first elements of the node (at most PeekList's perNode)
}

// ListEntry is one element of a node with the bytes its listpack entry takes (encoding + data +
// backlen): "hello" is 7 bytes (1 + 5 + 1), the integer 42 is 2 (one 7-bit int byte + backlen).
type ListEntry struct {
	Value  string
	Int    bool
	Size   int
	Offset int    // byte offset of the entry in its listpack (what ListpackEvent.Offset names)
	Enc    string // the listpack encoding: "6bit-str", "7bit-uint", "16bit-int", …
	Head   int    // bytes of the encoding header (a 7-bit uint or 13-bit int is all header)
	Back   int    // bytes of the backlen
	Raw    []byte // the entry's first bytes as stored (at most 16)
}

// ListView is a list's storage: its nodes head first. A long quicklist reports its first nodes and
// its tail node; NodeCount counts them all.
type ListView struct {
	Quicklist bool // EncQuicklist (else a single listpack, 7.2+)
	Len       int
	Fill      int // list-max-listpack-size of the quicklist (or of the config, for a listpack)
	NodeCount int
	Nodes     []ListNode // at most maxNodes: the first maxNodes−1 and the tail
	Skipped   int        // nodes between them that are not reported
}

// PeekList reads a list's nodes without side effects (no lazy expiry, no events); ok is false
// when key does not hold a list. perNode bounds the entries reported per node, maxNodes the
// nodes.
func (e *Engine) PeekList(key []byte, perNode, maxNodes int) (v ListView, ok bool) {
	o := e.Peek(key)
	if o == nil || o.Type != TypeList {
		return v, false
	}
	l, ok := o.Val.(*listValue)
	if !ok {
		return v, false
	}
	maxNodes = max(maxNodes, 2)
	v.Len = l.length()
	if l.lp != nil {
		v.Fill = int(e.cfg.Int("list-max-listpack-size"))
		v.NodeCount = 1
		v.Nodes = []ListNode{e.lpNode(l.lp, perNode)}
		return v, true
	}
	v.Quicklist, v.Fill, v.NodeCount = true, l.ql.Fill(), l.ql.NodeCount()
	i := 0
	for n := l.ql.Head(); n != nil; n = n.Next() {
		if i < maxNodes-1 || n.Next() == nil {
			var ln ListNode
			if n.IsPlain() {
				ln = ListNode{Plain: true, Bytes: n.Size(), Usable: n.Usable(e.alloc), Count: 1}
				if perNode > 0 {
					b := n.PlainBytes()
					ln.Entries = []ListEntry{{Value: string(b[:min(len(b), 64)]), Size: len(b)}}
				}
			} else {
				ln = e.lpNode(n.Listpack(), perNode)
				ln.Bytes, ln.Usable = n.Size(), n.Usable(e.alloc)
			}
			v.Nodes = append(v.Nodes, ln)
		} else {
			v.Skipped++
		}
		i++
	}
	return v, true
}

func (e *Engine) lpNode(lp *listpack.Listpack, perNode int) ListNode {
	work := lp.Work // reading is not the command's work
	defer func() { lp.Work = work }()
	n := ListNode{Bytes: lp.TotalBytes(), Usable: lp.Usable(e.alloc), Count: lp.Len(), Header: append([]byte(nil), lp.Bytes()[:listpack.HeaderSize]...)}
	for p := lp.First(); p >= 0 && len(n.Entries) < perNode; p = lp.Next(p) {
		s, iv, isInt, ok := lp.Get(p)
		if !ok {
			break
		}
		size := lp.EntrySizeAt(p)
		enc := lp.EncodingAt(p)
		en := ListEntry{Int: isInt, Size: size, Offset: p, Enc: enc.String(), Raw: append([]byte(nil), lp.Bytes()[p:p+min(size, 16)]...)}
		switch enc {
		case listpack.EncUint7:
			en.Head = 1
		case listpack.EncInt13:
			en.Head = 2
		case listpack.EncStr12:
			en.Head = 2
		case listpack.EncStr32:
			en.Head = 5
		default:
			en.Head = 1 // one encoding byte (6-bit strings, 16…64-bit integers)
		}
		// size = l + BacklenSize(l), where l (encoding + data) is what the backlen stores
		en.Back = 1
		for en.Back < 5 && listpack.BacklenSize(size-en.Back) != en.Back {
			en.Back++
		}
		if isInt {
			en.Value = strconv.FormatInt(iv, 10)
		} else {
			en.Value = string(s[:min(len(s), 64)])
		}
		n.Entries = append(n.Entries, en)
	}
	return n
}
