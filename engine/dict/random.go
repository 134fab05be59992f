package dict

// Random picking, the three algorithms of dict.c (docs/internals.md §Dict). Redis draws from three
// global generators (genrand64 for bucket indexes, libc random() for the chain position, libc
// rand() in GetFairRandomKey); here all draws come from the Env's *rand.Rand, in the same order
// and with the same modulo arithmetic, so the statistics (and their bias) are Redis's.

// GetRandomKey is dictGetRandomKey: one rehash step, then random buckets until a non-empty one
// (while rehashing, only indexes ≥ rehashidx across both tables), then a uniformly random
// element of that chain. Elements in long chains are picked less often. Nil when empty.
func (d *Dict[K, V]) GetRandomKey() *Entry[K, V] {
	if d.Len() == 0 {
		return nil
	}
	if d.IsRehashing() {
		d.rehashStep()
	}
	env := d.env
	var he *Entry[K, V]
	if d.IsRehashing() {
		s0 := uint64(len(d.table[0]))
		span := d.Slots() - uint64(d.rehashIdx)
		for he == nil {
			h := uint64(d.rehashIdx) + env.randomULong()%span
			if h >= s0 {
				he = d.table[1][h-s0]
			} else {
				he = d.table[0][h]
			}
		}
	} else {
		m := d.mask(0)
		for he == nil {
			he = d.table[0][env.randomULong()&m]
		}
	}
	n := uint64(0)
	for x := he; x != nil; x = x.next {
		n++
	}
	k := env.random31() % n
	for ; k > 0; k-- {
		he = he.next
	}
	return he
}

// GetSomeKeys is dictGetSomeKeys: up to count entries (fewer when the dict is smaller or the
// step budget of 10·count runs out), appended to dst. It does up to count rehash steps, starts at
// a random index of the larger table and walks consecutive buckets of both tables, taking whole
// chains (reservoir sampling once count is reached inside a chain), and jumps to a new random
// index after more than max(count, 4) consecutive empty buckets. Duplicates are possible only
// across jumps.
func (d *Dict[K, V]) GetSomeKeys(dst []*Entry[K, V], count int) []*Entry[K, V] {
	if count <= 0 {
		return dst
	}
	out, _ := d.someKeys(dst, uint64(count))
	return out
}

// someKeys appends to dst (growing it to base+count) and returns the filled slice and how many
// are valid.
func (d *Dict[K, V]) someKeys(dst []*Entry[K, V], count uint64) ([]*Entry[K, V], uint64) {
	if size := uint64(d.Len()); size < count {
		count = size
	}
	base := len(dst)
	if count == 0 {
		return dst, 0
	}
	for cap(dst)-base < int(count) {
		dst = append(dst[:cap(dst)], nil)
	}
	des := dst[base : base+int(count)]
	maxSteps := count * 10
	for j := uint64(0); j < count; j++ {
		if !d.IsRehashing() {
			break
		}
		d.rehashStep()
	}
	tables := 1
	if d.IsRehashing() {
		tables = 2
	}
	maxMask := d.mask(0)
	if tables > 1 && maxMask < d.mask(1) {
		maxMask = d.mask(1)
	}
	env := d.env
	i := env.randomULong() & maxMask
	emptyLen := uint64(0)
	stored := uint64(0)
	for stored < count && maxSteps > 0 {
		maxSteps--
		for j := 0; j < tables; j++ {
			if tables == 2 && j == 0 && i < uint64(d.rehashIdx) {
				// ht0 below rehashidx is empty; if i is also past ht1's end (shrinking),
				// nothing is there in either table: jump to rehashidx.
				if i >= uint64(len(d.table[1])) {
					i = uint64(d.rehashIdx)
				} else {
					continue
				}
			}
			if i >= uint64(len(d.table[j])) {
				continue
			}
			he := d.table[j][i]
			if he == nil {
				emptyLen++
				if emptyLen >= 5 && emptyLen > count {
					i = env.randomULong() & maxMask
					emptyLen = 0
				}
				continue
			}
			emptyLen = 0
			for ; he != nil; he = he.next {
				if stored < count {
					des[stored] = he
				} else {
					r := env.randomULong() % (stored + 1)
					if r < count {
						des[r] = he
					}
				}
				stored++
			}
			if stored >= count {
				return dst[:base+int(count)], count
			}
		}
		i = (i + 1) & maxMask
	}
	if stored > count {
		stored = count
	}
	return dst[:base+int(stored)], stored
}

// fairCount is GETFAIR_NUM_ENTRIES.
const fairCount = 15

// GetFairRandomKey is dictGetFairRandomKey: GetSomeKeys(15), then a uniform pick among what came
// back (GetRandomKey when nothing did). Smoother than GetRandomKey but still biased: SRANDMEMBER,
// SPOP and HRANDFIELD on hashtable encodings use it, which is why 200 000 SRANDMEMBER on a
// 1 000-member hashtable set give a chi-square an order of magnitude above 999.
func (d *Dict[K, V]) GetFairRandomKey() *Entry[K, V] {
	var buf [fairCount]*Entry[K, V]
	out, n := d.someKeys(buf[:0], fairCount)
	if n == 0 {
		return d.GetRandomKey()
	}
	return out[d.env.random31()%n]
}
