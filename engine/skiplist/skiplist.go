// Package skiplist is a faithful model of Redis's zskiplist (t_zset.c), the ordered half of a
// skiplist-encoded sorted set (docs/internals.md §Skiplist and doubles).
//
// A header node with 32 levels, nodes with a random level (P = 1/4, at most 32) drawn from an
// injected generator, order by (score, member bytes), spans on every forward link so ranks are
// O(log n), backward links on level 0, and the same algorithms as Redis for insert, delete,
// in-place score update, rank and range lookups — so levels, spans and memory figures (24 + 16
// bytes per level) come out as in a real server given the same random draws.
package skiplist

import (
	"math"
	"math/rand/v2"
	"unsafe"
)

const (
	// MaxLevel is ZSKIPLIST_MAXLEVEL (32 since Redis 5.0.? / 6; 64 before).
	MaxLevel = 32
	// P is ZSKIPLIST_P.
	P = 0.25
	// threshold is ZSKIPLIST_P × RAND_MAX as the int Redis compares random() against.
	threshold uint32 = 536870911 // (int)(0.25 × 2147483647)
)

// Level is one zskiplistLevel: a forward link and the number of level-0 steps it spans.
type Level struct {
	Forward *Node
	Span    uint64
}

// Node is one zskiplistNode. Its levels follow it in the same allocation, as zskiplistNode's
// flexible array member does: a level-1 node is 56 bytes, one 64-byte cache line, so a search
// that reads a node's score and forward link touches one line (levels of a node: lv). The
// memory figures the engine reports are Redis's (memory.go), not these.
type Node struct {
	Score    float64
	Backward *Node
	Member   string
	level    int32 // levels in use
	capacity int32 // levels the allocation holds (a reused node may shrink)
	l0       Level // level 0; levels 1 … capacity-1 follow in memory (nodeN)
}

// nodeN is a Node with room for N levels: the first in Node.l0, the others in more, right after.
type nodeN[A any] struct {
	Node
	more A
}

// newNode allocates a node with room for level levels: exactly up to 4 (255 nodes in 256),
// then 8, 16 or 32.
func newNode(level int) *Node {
	var n *Node
	c := level
	switch {
	case level <= 1:
		n, c = new(Node), 1
	case level == 2:
		n = &new(nodeN[[1]Level]).Node
	case level == 3:
		n = &new(nodeN[[2]Level]).Node
	case level == 4:
		n = &new(nodeN[[3]Level]).Node
	case level <= 8:
		n, c = &new(nodeN[[7]Level]).Node, 8
	case level <= 16:
		n, c = &new(nodeN[[15]Level]).Node, 16
	default:
		n, c = &new(nodeN[[MaxLevel - 1]Level]).Node, MaxLevel
	}
	n.level, n.capacity = int32(level), int32(c)
	return n
}

// lv is level i of n (i < n.level): the allocation's i-th Level after l0.
func (n *Node) lv(i int) *Level {
	return (*Level)(unsafe.Add(unsafe.Pointer(&n.l0), uintptr(i)*unsafe.Sizeof(Level{})))
}

// Levels are n's levels, lowest first.
func (n *Node) Levels() []Level { return unsafe.Slice(&n.l0, n.level) }

// Next is the level-0 successor (nil at the tail).
func (n *Node) Next() *Node { return n.lv(0).Forward }

// Prev is the backward link (nil for the first node).
func (n *Node) Prev() *Node { return n.Backward }

// Level is the node's number of levels.
func (n *Node) Level() int { return int(n.level) }

// List is one zskiplist.
type List struct {
	header *Node
	tail   *Node
	length uint64
	level  int
	rng    *rand.Rand

	// Observer, when set, receives a Change record for every insert, delete and score update.
	Observer func(Change)
}

// New makes an empty skiplist drawing node levels from r (nil: a fixed-seed generator).
func New(r *rand.Rand) *List {
	if r == nil {
		r = rand.New(rand.NewPCG(0, 0))
	}
	return &List{header: newNode(MaxLevel), level: 1, rng: r}
}

// Len is the number of elements.
func (l *List) Len() uint64 { return l.length }

// Level is the current level of the list (the highest node level, at least 1).
func (l *List) Level() int { return l.level }

// Header is the 32-level header node (Member "" and Score 0; not an element).
func (l *List) Header() *Node { return l.header }

// First is the lowest element, nil when empty.
func (l *List) First() *Node { return l.header.lv(0).Forward }

// Last is the highest element, nil when empty.
func (l *List) Last() *Node { return l.tail }

// RandomLevel is zslRandomLevel: 1, plus one for every draw of random() below P × RAND_MAX,
// capped at 32.
func (l *List) RandomLevel() int {
	level := 1
	for l.rng.Uint32()>>1 < threshold {
		level++
	}
	if level > MaxLevel {
		return MaxLevel
	}
	return level
}

// less is the skiplist order: by score, then by member bytes (memcmp, shorter prefix first).
func before(n *Node, score float64, member string) bool {
	return n.Score < score || (n.Score == score && n.Member < member)
}

// Insert is zslInsert: add a new element (the caller guarantees member is not present, as
// Redis's dict lookup does) and return its node. A NaN score is refused (nil).
func (l *List) Insert(score float64, member string) *Node {
	if math.IsNaN(score) {
		return nil
	}
	return l.insertLevel(score, member, l.RandomLevel())
}

func (l *List) insertLevel(score float64, member string, level int) *Node {
	return l.insertNode(score, member, level, nil)
}

// insertNode is insertLevel that may reuse old, a node just unlinked, as the new node.
func (l *List) insertNode(score float64, member string, level int, old *Node) *Node {
	var update [MaxLevel]*Node
	var rank [MaxLevel]uint64
	x := l.header
	for i := l.level - 1; i >= 0; i-- {
		if i == l.level-1 {
			rank[i] = 0
		} else {
			rank[i] = rank[i+1]
		}
		for f := x.lv(i).Forward; f != nil && before(f, score, member); f = x.lv(i).Forward {
			rank[i] += x.lv(i).Span
			x = f
		}
		update[i] = x
	}
	oldLevel := l.level
	if level > l.level {
		for i := l.level; i < level; i++ {
			rank[i] = 0
			update[i] = l.header
			update[i].lv(i).Span = l.length
		}
		l.level = level
	}
	if old != nil && int(old.capacity) >= level {
		x = old
		x.Backward, x.level = nil, int32(level)
		clear(x.Levels())
	} else {
		x = newNode(level)
	}
	x.Member, x.Score = member, score
	for i := 0; i < level; i++ {
		x.lv(i).Forward = update[i].lv(i).Forward
		update[i].lv(i).Forward = x
		x.lv(i).Span = update[i].lv(i).Span - (rank[0] - rank[i])
		update[i].lv(i).Span = rank[0] - rank[i] + 1
	}
	for i := level; i < l.level; i++ {
		update[i].lv(i).Span++
	}
	if update[0] != l.header {
		x.Backward = update[0]
	}
	if x.lv(0).Forward != nil {
		x.lv(0).Forward.Backward = x
	} else {
		l.tail = x
	}
	l.length++
	if l.Observer != nil {
		l.Observer(l.change(OpInsert, x, score, rank[0]+1, update[:max(level, oldLevel)], rank[:]))
	}
	return x
}

// deleteNode is zslDeleteNode: unlink x given its update vector.
func (l *List) deleteNode(x *Node, update *[MaxLevel]*Node) {
	for i := 0; i < l.level; i++ {
		if update[i].lv(i).Forward == x {
			update[i].lv(i).Span += x.lv(i).Span - 1
			update[i].lv(i).Forward = x.lv(i).Forward
		} else {
			update[i].lv(i).Span--
		}
	}
	if x.lv(0).Forward != nil {
		x.lv(0).Forward.Backward = x.Backward
	} else {
		l.tail = x.Backward
	}
	for l.level > 1 && l.header.lv(l.level-1).Forward == nil {
		l.level--
	}
	l.length--
}

// seek fills update with the last node before (score, member) on every level and the rank
// of each, returning the candidate node after update[0].
func (l *List) seek(score float64, member string, update *[MaxLevel]*Node, rank *[MaxLevel]uint64) *Node {
	x := l.header
	var r uint64
	for i := l.level - 1; i >= 0; i-- {
		for f := x.lv(i).Forward; f != nil && before(f, score, member); f = x.lv(i).Forward {
			r += x.lv(i).Span
			x = f
		}
		update[i] = x
		if rank != nil {
			rank[i] = r
		}
	}
	return x.lv(0).Forward
}

// Delete is zslDelete: remove (score, member) and return its node, or nil when absent.
func (l *List) Delete(score float64, member string) *Node {
	var update [MaxLevel]*Node
	var rank [MaxLevel]uint64
	x := l.seek(score, member, &update, &rank)
	if x == nil || x.Score != score || x.Member != member {
		return nil
	}
	l.unlinkObserved(x, score, &update, &rank)
	return x
}

// unlinkObserved is zslDeleteNode of x (found with the given score, its update and rank
// vectors from seek), reported to the Observer as an OpDelete with the level the list has after.
func (l *List) unlinkObserved(x *Node, score float64, update *[MaxLevel]*Node, rank *[MaxLevel]uint64) {
	var ch Change
	if l.Observer != nil {
		ch = l.change(OpDelete, x, score, rank[0]+1, update[:l.level], rank[:])
	}
	l.deleteNode(x, update)
	if l.Observer != nil {
		ch.ListLevel = l.level
		l.Observer(ch)
	}
}

// UpdateScore is zslUpdateScore: change member's score from cur to score. When the node would
// stay at the same position (its predecessor's score < new score < its successor's score) the
// score is changed in place; otherwise the node is removed and a new node (new random level)
// inserted. Returns the node now holding member, nil when (cur, member) is absent or score is
// NaN.
func (l *List) UpdateScore(cur float64, member string, score float64) *Node {
	if math.IsNaN(score) {
		return nil
	}
	var update [MaxLevel]*Node
	var rank [MaxLevel]uint64
	x := l.seek(cur, member, &update, &rank)
	if x == nil || x.Score != cur || x.Member != member {
		return nil
	}
	if (x.Backward == nil || x.Backward.Score < score) &&
		(x.lv(0).Forward == nil || x.lv(0).Forward.Score > score) {
		x.Score = score
		if l.Observer != nil {
			ch := l.change(OpUpdateInPlace, x, cur, rank[0]+1, nil, nil)
			ch.NewRank = ch.Rank
			l.Observer(ch)
		}
		return x
	}
	l.unlinkObserved(x, cur, &update, &rank)
	// zslUpdateScore frees x and zslInsert allocates the new node, which jemalloc serves from
	// the memory just freed. Without an observer (which keeps nodes in its change records) x
	// itself becomes the new node: the same list, without a cold allocation per update.
	var reuse *Node
	if l.Observer == nil {
		reuse = x
	}
	return l.insertNode(score, member, l.RandomLevel(), reuse)
}

// GetRank is zslGetRank: the 1-based rank of (score, member), 0 when absent.
func (l *List) GetRank(score float64, member string) uint64 {
	x := l.header
	var rank uint64
	for i := l.level - 1; i >= 0; i-- {
		for f := x.lv(i).Forward; f != nil && (f.Score < score || (f.Score == score && f.Member <= member)); f = x.lv(i).Forward {
			rank += x.lv(i).Span
			x = f
		}
		if x != l.header && x.Score == score && x.Member == member {
			return rank
		}
	}
	return 0
}

// GetByRank is zslGetElementByRank: the element at 1-based rank, nil when out of range.
func (l *List) GetByRank(rank uint64) *Node {
	if rank == 0 {
		return nil
	}
	x := l.header
	var traversed uint64
	for i := l.level - 1; i >= 0; i-- {
		for x.lv(i).Forward != nil && traversed+x.lv(i).Span <= rank {
			traversed += x.lv(i).Span
			x = x.lv(i).Forward
		}
		if traversed == rank {
			return x
		}
	}
	return nil
}

// Range calls fn for every node from first to last until fn returns false.
func (l *List) Range(fn func(n *Node) bool) {
	for x := l.First(); x != nil; x = x.lv(0).Forward {
		if !fn(x) {
			return
		}
	}
}

// Members lists the members in order.
func (l *List) Members() []string {
	out := make([]string, 0, l.length)
	l.Range(func(n *Node) bool { out = append(out, n.Member); return true })
	return out
}
