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

// Node is one zskiplistNode.
type Node struct {
	Member   string
	Score    float64
	Backward *Node
	Levels   []Level
	inline   [2]Level // Levels of a node with level ≤ 2 (15/16 of them) live here, next to the node
}

// Next is the level-0 successor (nil at the tail).
func (n *Node) Next() *Node { return n.Levels[0].Forward }

// Prev is the backward link (nil for the first node).
func (n *Node) Prev() *Node { return n.Backward }

// Level is the node's number of levels.
func (n *Node) Level() int { return len(n.Levels) }

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
	return &List{header: &Node{Levels: make([]Level, MaxLevel)}, level: 1, rng: r}
}

// Len is the number of elements.
func (l *List) Len() uint64 { return l.length }

// Level is the current level of the list (the highest node level, at least 1).
func (l *List) Level() int { return l.level }

// Header is the 32-level header node (Member "" and Score 0; not an element).
func (l *List) Header() *Node { return l.header }

// First is the lowest element, nil when empty.
func (l *List) First() *Node { return l.header.Levels[0].Forward }

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
		for f := x.Levels[i].Forward; f != nil && before(f, score, member); f = x.Levels[i].Forward {
			rank[i] += x.Levels[i].Span
			x = f
		}
		update[i] = x
	}
	oldLevel := l.level
	if level > l.level {
		for i := l.level; i < level; i++ {
			rank[i] = 0
			update[i] = l.header
			update[i].Levels[i].Span = l.length
		}
		l.level = level
	}
	if old != nil {
		x = old
		lv := x.Levels
		*x = Node{Member: member, Score: score}
		if level > len(x.inline) && cap(lv) >= level {
			x.Levels = lv[:level]
			clear(x.Levels)
		}
	} else {
		x = &Node{Member: member, Score: score}
	}
	if x.Levels == nil {
		if level <= len(x.inline) {
			x.Levels = x.inline[:level:level]
		} else {
			x.Levels = make([]Level, level)
		}
	}
	for i := 0; i < level; i++ {
		x.Levels[i].Forward = update[i].Levels[i].Forward
		update[i].Levels[i].Forward = x
		x.Levels[i].Span = update[i].Levels[i].Span - (rank[0] - rank[i])
		update[i].Levels[i].Span = rank[0] - rank[i] + 1
	}
	for i := level; i < l.level; i++ {
		update[i].Levels[i].Span++
	}
	if update[0] != l.header {
		x.Backward = update[0]
	}
	if x.Levels[0].Forward != nil {
		x.Levels[0].Forward.Backward = x
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
		if update[i].Levels[i].Forward == x {
			update[i].Levels[i].Span += x.Levels[i].Span - 1
			update[i].Levels[i].Forward = x.Levels[i].Forward
		} else {
			update[i].Levels[i].Span--
		}
	}
	if x.Levels[0].Forward != nil {
		x.Levels[0].Forward.Backward = x.Backward
	} else {
		l.tail = x.Backward
	}
	for l.level > 1 && l.header.Levels[l.level-1].Forward == nil {
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
		for f := x.Levels[i].Forward; f != nil && before(f, score, member); f = x.Levels[i].Forward {
			r += x.Levels[i].Span
			x = f
		}
		update[i] = x
		if rank != nil {
			rank[i] = r
		}
	}
	return x.Levels[0].Forward
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
		(x.Levels[0].Forward == nil || x.Levels[0].Forward.Score > score) {
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
		for f := x.Levels[i].Forward; f != nil && (f.Score < score || (f.Score == score && f.Member <= member)); f = x.Levels[i].Forward {
			rank += x.Levels[i].Span
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
		for x.Levels[i].Forward != nil && traversed+x.Levels[i].Span <= rank {
			traversed += x.Levels[i].Span
			x = x.Levels[i].Forward
		}
		if traversed == rank {
			return x
		}
	}
	return nil
}

// Range calls fn for every node from first to last until fn returns false.
func (l *List) Range(fn func(n *Node) bool) {
	for x := l.First(); x != nil; x = x.Levels[0].Forward {
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
