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

// QuicklistEvent: a quicklist node was created, deleted, split or merged, or a listpack inside a
// node changed.
type QuicklistEvent struct {
	Key       string
	Op        string // "node-new", "node-del", "split", "merge", "listpack"
	NodeCount int    // nodes after the event
	NodeBytes int    // the node's size (node->sz)
	NodeElems int    // elements in the node
	Change    listpack.Change
}

func (QuicklistEvent) Kind() string { return "quicklist" }

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
			Reason: "lpBytes " + strconv.Itoa(lp.TotalBytes()) + " + " + strconv.Itoa(addBytes) + " new bytes exceed the node limit of list-max-listpack-size " + strconv.Itoa(fill)})
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
			Reason: "one packed node of " + strconv.Itoa(l.lp.TotalBytes()) + " bytes, within half the node limit"})
	}
}

// push is listTypePush.
func (l *listValue) push(v []byte, head bool) {
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
func (l *listValue) pop(head bool, dst []byte) ([]byte, bool) {
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
	isInt := false
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
	v, _ := l.ql.Pop(end, dst)
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
