package dict

import (
	"fmt"
	"strings"
)

// Bucket is one non-empty bucket, for drawing: its keys in chain order (head first).
type Bucket[K Bytes] struct {
	Table int
	Index uint64
	Keys  []K
}

// Buckets returns every non-empty bucket of ht0 then ht1, in index order.
func (d *Dict[K, V]) Buckets() []Bucket[K] {
	var out []Bucket[K]
	for t := 0; t <= 1; t++ {
		for i, e := range d.table[t] {
			if e == nil {
				continue
			}
			b := Bucket[K]{Table: t, Index: uint64(i)}
			for ; e != nil; e = e.next {
				b.Keys = append(b.Keys, e.Key)
			}
			out = append(out, b)
		}
	}
	return out
}

// ChainLen is the length of bucket idx of table t (0 when out of range).
func (d *Dict[K, V]) ChainLen(t int, idx uint64) int {
	if t < 0 || t > 1 || idx >= uint64(len(d.table[t])) {
		return 0
	}
	return d.chainLen(t, idx)
}

// BucketOf returns the bucket index k has in table t (its hash masked by the table size).
func (d *Dict[K, V]) BucketOf(t int, k K) uint64 {
	if t < 0 || t > 1 {
		return 0
	}
	return d.hash(k) & d.mask(t)
}

const statsVectLen = 50 // DICT_STATS_VECTLEN

// Stats is dictGetStats, the text of DEBUG HTSTATS-KEY (and of DEBUG HTSTATS for the keyspace):
// ht0's statistics, then ht1's while rehashing. full=false gives 7.4's short form (sizes and
// element counts only); 7.0/7.2 always print the full form.
func (d *Dict[K, V]) Stats(full bool) string {
	var sb strings.Builder
	d.statsHt(&sb, 0, full)
	if d.IsRehashing() {
		d.statsHt(&sb, 1, full)
	}
	return sb.String()
}

func (d *Dict[K, V]) statsHt(sb *strings.Builder, t int, full bool) {
	name := "main hash table"
	if t == 1 {
		name = "rehashing target"
	}
	if d.used[t] == 0 {
		fmt.Fprintf(sb, "Hash table %d stats (%s):\nNo stats available for empty dictionaries\n", t, name)
		return
	}
	size := uint64(len(d.table[t]))
	fmt.Fprintf(sb, "Hash table %d stats (%s):\n table size: %d\n number of elements: %d\n", t, name, size, d.used[t])
	if !full {
		return
	}
	var clv [statsVectLen]uint64
	var slots, maxChain, total uint64
	for _, e := range d.table[t] {
		if e == nil {
			clv[0]++
			continue
		}
		slots++
		n := uint64(0)
		for ; e != nil; e = e.next {
			n++
		}
		if n < statsVectLen {
			clv[n]++
		} else {
			clv[statsVectLen-1]++
		}
		if n > maxChain {
			maxChain = n
		}
		total += n
	}
	// C computes these in float (single precision) and prints them with %.02f.
	fmt.Fprintf(sb, " different slots: %d\n max chain length: %d\n avg chain length (counted): %.02f\n avg chain length (computed): %.02f\n Chain length distribution:\n",
		slots, maxChain, float64(float32(total)/float32(slots)), float64(float32(d.used[t])/float32(slots)))
	for i := 0; i < statsVectLen-1; i++ {
		if clv[i] == 0 {
			continue
		}
		fmt.Fprintf(sb, "   %d: %d (%.02f%%)\n", i, clv[i], float64(float32(clv[i])/float32(size)*100))
	}
}
