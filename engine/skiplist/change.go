package skiplist

// Change records for the visualizer: one per insert, delete or score update, built only when
// an Observer is set.

// Op names a change.
type Op uint8

const (
	// OpInsert: a node was linked in (also the second half of a moving UpdateScore).
	OpInsert Op = iota + 1
	// OpDelete: a node was unlinked (also the first half of a moving UpdateScore).
	OpDelete
	// OpUpdateInPlace: UpdateScore changed the score without moving the node.
	OpUpdateInPlace
)

func (o Op) String() string {
	switch o {
	case OpInsert:
		return "insert"
	case OpDelete:
		return "delete"
	case OpUpdateInPlace:
		return "update-in-place"
	}
	return "unknown"
}

// Link is one entry of the update vector: on Level, the node whose forward link changed
// (Header true for the list header), its 1-based rank (0 for the header) and its span after
// the change.
type Link struct {
	Level  int
	Member string
	Score  float64
	Header bool
	Rank   uint64
	Span   uint64
}

// Change is one structural change.
type Change struct {
	Op        Op
	Member    string
	Score     float64 // the node's score (for an in-place update: the new score)
	OldScore  float64 // OpUpdateInPlace: the previous score
	Level     int     // the node's level
	ListLevel int     // the list's level after the change
	Rank      uint64  // 1-based rank of the node (after an insert, before a delete)
	NewRank   uint64  // OpUpdateInPlace: equals Rank (the order did not change)
	Update    []Link  // the update vector, lowest level first (nil for in-place updates)
}

func (l *List) change(op Op, x *Node, score float64, rank uint64, update []*Node, ranks []uint64) Change {
	ch := Change{Op: op, Member: x.Member, Score: x.Score, Level: x.Level(), ListLevel: l.level, Rank: rank}
	if op == OpUpdateInPlace {
		ch.OldScore = score
	}
	for i, u := range update {
		lk := Link{Level: i, Span: u.lv(i).Span}
		if u == l.header {
			lk.Header = true
		} else {
			lk.Member, lk.Score = u.Member, u.Score
			lk.Rank = ranks[i]
		}
		ch.Update = append(ch.Update, lk)
	}
	return ch
}
