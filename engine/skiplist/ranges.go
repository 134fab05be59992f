package skiplist

// Score and lexicographic ranges (zrangespec / zlexrangespec and the zsl*InRange family).
//
// Redis writes each walk twice, once for scores (zslFirstInRange, zslDeleteRangeByScore …) and
// once for members (zslFirstInLexRange, zslDeleteRangeByLex …), the same code with another
// comparison. Here the walks are written once over nodeRange, which ScoreRange compares by score
// and LexRange by member; the exported methods keep Redis's names.

// nodeRange is a range the walks below can test a node against.
type nodeRange interface {
	Empty() bool
	nodeGteMin(n *Node) bool // the node is at or above the range's minimum
	nodeLteMax(n *Node) bool // the node is at or below the range's maximum
}

func (r ScoreRange) nodeGteMin(n *Node) bool { return r.GteMin(n.Score) }
func (r ScoreRange) nodeLteMax(n *Node) bool { return r.LteMax(n.Score) }
func (r LexRange) nodeGteMin(n *Node) bool   { return r.GteMin(n.Member) }
func (r LexRange) nodeLteMax(n *Node) bool   { return r.LteMax(n.Member) }

// isInRange is zslIsInRange / zslIsInLexRange: r is not empty, the last element is at or above
// its minimum and the first at or below its maximum.
func isInRange[R nodeRange](l *List, r R) bool {
	if r.Empty() {
		return false
	}
	if l.tail == nil || !r.nodeGteMin(l.tail) {
		return false
	}
	if x := l.First(); x == nil || !r.nodeLteMax(x) {
		return false
	}
	return true
}

// firstInRange is zslFirstInRange / zslFirstInLexRange: down the levels past every node below
// the minimum; the next node, if within the maximum.
func firstInRange[R nodeRange](l *List, r R) *Node {
	if !isInRange(l, r) {
		return nil
	}
	x := descend(l, r, false, nil).lv(0).Forward
	if x == nil || !r.nodeLteMax(x) {
		return nil
	}
	return x
}

// lastInRange is zslLastInRange / zslLastInLexRange: down the levels past every node within
// the maximum; that node, if at or above the minimum.
func lastInRange[R nodeRange](l *List, r R) *Node {
	if !isInRange(l, r) {
		return nil
	}
	x := descend(l, r, true, nil)
	if x == l.header || !r.nodeGteMin(x) {
		return nil
	}
	return x
}

// deleteInRange is zslDeleteRangeByScore / zslDeleteRangeByLex: find the first node at or above
// the minimum (recording the update vector), then delete nodes while they are within the maximum.
func deleteInRange[R nodeRange](l *List, r R, removed func(n *Node)) uint64 {
	var update [MaxLevel]*Node
	x := descend(l, r, false, &update)
	return l.deleteRun(x.lv(0).Forward, &update, r.nodeLteMax, removed)
}

// descend walks down the levels from the header past every node below r's minimum (toMax:
// every node within its maximum) and returns the last node passed (the header when none);
// update, when not nil, records that node at each level, as the delete walks need.
func descend[R nodeRange](l *List, r R, toMax bool, update *[MaxLevel]*Node) *Node {
	x := l.header
	for i := l.level - 1; i >= 0; i-- {
		for f := x.lv(i).Forward; f != nil && (toMax && r.nodeLteMax(f) || !toMax && !r.nodeGteMin(f)); f = x.lv(i).Forward {
			x = f
		}
		if update != nil {
			update[i] = x
		}
	}
	return x
}

// ScoreRange is zrangespec: Min..Max with optional exclusive ends ("(" in ZRANGEBYSCORE).
type ScoreRange struct {
	Min, Max     float64
	MinEx, MaxEx bool
}

// GteMin is zslValueGteMin.
func (r ScoreRange) GteMin(v float64) bool {
	if r.MinEx {
		return v > r.Min
	}
	return v >= r.Min
}

// LteMax is zslValueLteMax.
func (r ScoreRange) LteMax(v float64) bool {
	if r.MaxEx {
		return v < r.Max
	}
	return v <= r.Max
}

// Empty reports a range that can never match (min > max, or min == max with an exclusive end).
func (r ScoreRange) Empty() bool {
	return r.Min > r.Max || (r.Min == r.Max && (r.MinEx || r.MaxEx))
}

// IsInRange is zslIsInRange: whether some element may lie in r.
func (l *List) IsInRange(r ScoreRange) bool { return isInRange(l, r) }

// FirstInRange is zslFirstInRange: the lowest element in r, nil if none.
func (l *List) FirstInRange(r ScoreRange) *Node { return firstInRange(l, r) }

// LastInRange is zslLastInRange: the highest element in r, nil if none.
func (l *List) LastInRange(r ScoreRange) *Node { return lastInRange(l, r) }

// NthInRange is 7.4's zslNthInRange: the n-th element (0-based) of r, counting from the low
// end, or from the high end for negative n (-1 = LastInRange). It answers like walking from
// FirstInRange/LastInRange n steps, using ranks instead of a walk. Nil when out of range.
func (l *List) NthInRange(r ScoreRange, n int64) *Node {
	var edge *Node
	if n >= 0 {
		edge = l.FirstInRange(r)
	} else {
		edge = l.LastInRange(r)
	}
	if edge == nil {
		return nil
	}
	rank := l.GetRank(edge.Score, edge.Member)
	var target uint64
	if n >= 0 {
		target = rank + uint64(n)
	} else {
		back := uint64(-(n + 1))
		if back >= rank {
			return nil
		}
		target = rank - back
	}
	x := l.GetByRank(target)
	if x == nil || !r.GteMin(x.Score) || !r.LteMax(x.Score) {
		return nil
	}
	return x
}

// LexBound is one end of a lexicographic range: "-" (Inf -1), "+" (Inf +1), or "[value" /
// "(value" (Inf 0, Ex for "(").
type LexBound struct {
	Inf   int8
	Value string
	Ex    bool
}

// ParseLexBound is zslParseLexRangeItem: "+" and "-" (a NUL may follow, as C sees the string
// end there), "(" exclusive and "[" inclusive prefixes. ok=false for anything else (the caller
// replies "ERR min or max not valid string range item").
func ParseLexBound(s []byte) (b LexBound, ok bool) {
	if len(s) == 0 {
		return b, false
	}
	switch s[0] {
	case '+', '-':
		if len(s) > 1 && s[1] != 0 {
			return b, false
		}
		b.Inf = 1
		if s[0] == '-' {
			b.Inf = -1
		}
		b.Ex = true
		return b, true
	case '(':
		return LexBound{Value: string(s[1:]), Ex: true}, true
	case '[':
		return LexBound{Value: string(s[1:])}, true
	}
	return b, false
}

// cmpLex is sdscmplex: compare a member (or bound) against a bound, with "-" below and "+"
// above every string; two identical infinite bounds compare equal.
func cmpLex(a, b LexBound) int {
	if a.Inf != 0 || b.Inf != 0 {
		if a.Inf == b.Inf {
			return 0
		}
		if a.Inf == -1 || b.Inf == 1 {
			return -1
		}
		return 1
	}
	switch {
	case a.Value < b.Value:
		return -1
	case a.Value > b.Value:
		return 1
	}
	return 0
}

// LexRange is zlexrangespec.
type LexRange struct{ Min, Max LexBound }

// GteMin is zslLexValueGteMin.
func (r LexRange) GteMin(member string) bool {
	c := cmpLex(LexBound{Value: member}, r.Min)
	if r.Min.Ex {
		return c > 0
	}
	return c >= 0
}

// LteMax is zslLexValueLteMax.
func (r LexRange) LteMax(member string) bool {
	c := cmpLex(LexBound{Value: member}, r.Max)
	if r.Max.Ex {
		return c < 0
	}
	return c <= 0
}

// Empty reports a range that can never match.
func (r LexRange) Empty() bool {
	c := cmpLex(r.Min, r.Max)
	return c > 0 || (c == 0 && (r.Min.Ex || r.Max.Ex))
}

// IsInLexRange is zslIsInLexRange.
func (l *List) IsInLexRange(r LexRange) bool { return isInRange(l, r) }

// FirstInLexRange is zslFirstInLexRange (meaningful when all scores are equal, as ZRANGEBYLEX
// assumes).
func (l *List) FirstInLexRange(r LexRange) *Node { return firstInRange(l, r) }

// LastInLexRange is zslLastInLexRange.
func (l *List) LastInLexRange(r LexRange) *Node { return lastInRange(l, r) }

// DeleteRangeByScore is zslDeleteRangeByScore: remove every element in r, calling removed for
// each (the caller deletes it from the zset's dict). Returns the count.
func (l *List) DeleteRangeByScore(r ScoreRange, removed func(n *Node)) uint64 {
	return deleteInRange(l, r, removed)
}

// DeleteRangeByLex is zslDeleteRangeByLex.
func (l *List) DeleteRangeByLex(r LexRange, removed func(n *Node)) uint64 {
	return deleteInRange(l, r, removed)
}

// DeleteRangeByRank is zslDeleteRangeByRank: remove 1-based ranks start..end inclusive.
func (l *List) DeleteRangeByRank(start, end uint64, removed func(n *Node)) uint64 {
	var update [MaxLevel]*Node
	var traversed uint64
	x := l.header
	for i := l.level - 1; i >= 0; i-- {
		for x.lv(i).Forward != nil && traversed+x.lv(i).Span < start {
			traversed += x.lv(i).Span
			x = x.lv(i).Forward
		}
		update[i] = x
	}
	traversed++
	return l.deleteRun(x.lv(0).Forward, &update, func(*Node) bool {
		ok := traversed <= end
		traversed++
		return ok
	}, removed)
}

func (l *List) deleteRun(x *Node, update *[MaxLevel]*Node, in func(*Node) bool, removed func(*Node)) uint64 {
	var n uint64
	for x != nil && in(x) {
		next := x.lv(0).Forward
		l.deleteNode(x, update)
		if l.Observer != nil {
			l.Observer(Change{Op: OpDelete, Member: x.Member, Score: x.Score, Level: x.Level(), ListLevel: l.level})
		}
		if removed != nil {
			removed(x)
		}
		n++
		x = next
	}
	return n
}
