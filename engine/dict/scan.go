package dict

import "math/bits"

// Scan is dictScan: emit every entry of the bucket(s) the cursor designates and return the next
// cursor (0 when the iteration is complete). The cursor counts in reverse-binary order over the
// table's mask, so a SCAN that starts at 0 and runs until 0 returns every element present the
// whole time even if the table grows, shrinks or rehashes in between (elements may repeat).
// While rehashing it visits the cursor's bucket of the smaller table and then every expansion
// of it in the larger one. Rehashing is paused during the callbacks.
func (d *Dict[K, V]) Scan(cursor uint64, fn func(e *Entry[K, V])) uint64 {
	if d.Len() == 0 {
		return 0
	}
	if fn == nil {
		fn = func(*Entry[K, V]) {}
	}
	d.PauseRehashing()
	defer d.ResumeRehashing()
	return d.ScanBuckets(cursor, func(t int, idx uint64) {
		for e := d.table[t][idx]; e != nil; {
			next := e.next
			fn(e)
			e = next
		}
	})
}

// ScanBuckets reports which buckets Scan(cursor) visits, as (table, index) pairs, in Scan's
// order, without emitting entries: Scan walks each bucket it reports, and the visualizer draws
// the cursor with it.
func (d *Dict[K, V]) ScanBuckets(cursor uint64, fn func(table int, index uint64)) uint64 {
	if d.Len() == 0 {
		return 0
	}
	v := cursor
	if !d.IsRehashing() {
		m0 := d.mask(0)
		fn(0, v&m0)
		v |= ^m0
		return bits.Reverse64(bits.Reverse64(v) + 1)
	}
	small, large := 0, 1
	if len(d.table[0]) > len(d.table[1]) {
		small, large = 1, 0
	}
	m0, m1 := d.mask(small), d.mask(large)
	fn(small, v&m0)
	for {
		fn(large, v&m1)
		v |= ^m1
		v = bits.Reverse64(bits.Reverse64(v) + 1)
		if v&(m0^m1) == 0 {
			break
		}
	}
	return v
}
