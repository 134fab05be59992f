package skiplist

// Memory figures (docs/internals.md §Objects, §Encodings; object.c objectComputeSize).
//
//	zset skiplist = 16 (robj) + 16 (zset) + 32 (zskiplist) + 56 (dict) + 8 × dict slots
//	              + usable(header node, 24 + 16 × 32 = 536)
//	              + avg over the first S nodes (level-0 order) of
//	                (usable(member sds) + 24 (dictEntry) + usable(24 + 16 × level)) × dict size

const (
	// ZsetBytes is sizeof(zset): dict pointer + zskiplist pointer.
	ZsetBytes = 16
	// ListBytes is sizeof(zskiplist): header, tail, length, level.
	ListBytes = 32
)

// NodeBytes is the allocation request of a node with level levels: 24 + 16 × level.
func NodeBytes(level int) int { return 24 + 16*level }

// HeaderBytes is the header node's request (32 levels): 536.
const HeaderBytes = 24 + 16*MaxLevel

// SampleSum adds elem(n) over the first samples nodes in order (samples ≤ 0: all), as
// objectComputeSize walks level 0 from the header. Returns the sum and the nodes sampled.
func (l *List) SampleSum(samples int, elem func(n *Node) int) (sum int64, n int) {
	for x := l.First(); x != nil && (samples <= 0 || n < samples); x = x.lv(0).Forward {
		sum += int64(elem(x))
		n++
	}
	return sum, n
}
