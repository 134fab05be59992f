package dict

// Memory figures of a dict as MEMORY USAGE counts them (docs/internals.md §Objects, §Encodings; object.c
// objectComputeSize of 7.0.15 and 7.4.1):
//
//	set hashtable   16 (robj) + 56 (dict) + 8 × slots + avg(24 + usable(member sds)) × n
//	hash hashtable  16 + 56 + 8 × slots + avg(usable(field) + usable(value) + 24) × n
//	zset skiplist   16 + 16 (zset) + 32 (zskiplist) + 56 + 8 × slots + usable(header node)
//	                   + avg(usable(member sds) + 24 + usable(node)) × n
//
// slots counts both tables while rehashing; the average is over the first S entries in
// iteration order (S = SAMPLES, default 5, 0 = all), multiplied by n in double precision and
// truncated together with the fixed part. MEMORY USAGE then adds the key's sds and the
// keyspace's 24-byte dictEntry (7.x). Every version counts 24 bytes per element, even for 7.2+
// sets whose entries are really 16-byte dictEntryNoValue or no allocation at all.

const (
	// HeaderBytes is sizeof(dict): 56 in 7.0 (type, 2 table pointers, 2 used counters,
	// rehashidx, int16 pauserehash + 2 exponents, padded) and in 7.4 (same words; the pause
	// counter is a 15-bit field plus an int16 pauseAutoResize).
	HeaderBytes = 56
	// BucketBytes is one bucket pointer.
	BucketBytes = 8
	// EntryBytes is sizeof(dictEntry): key, value union, next.
	EntryBytes = 24
	// EntryNoValueBytes is sizeof(dictEntryNoValue) (7.2+ sets): key, next.
	EntryNoValueBytes = 16
)

// HeaderSize is sizeof(dict) for a version profile (major*100+minor): 56 for every 7.x/8.x.
func HeaderSize(version uint16) int { return HeaderBytes }

// EntryMemUsage is dictEntryMemUsage(): what MEMORY USAGE counts per element (24, all versions).
func EntryMemUsage(version uint16) int { return EntryBytes }

// TableBytes is the bucket arrays: 8 × slots (both tables while rehashing).
func (d *Dict[K, V]) TableBytes() int64 { return int64(d.Slots()) * BucketBytes }

// UsageBase is sizeof(dict) + 8 × slots, the dict's fixed part in MEMORY USAGE.
func (d *Dict[K, V]) UsageBase() int64 { return HeaderBytes + d.TableBytes() }

// SampleSum adds elem(e) over the first samples entries in iteration order (samples ≤ 0: all),
// the way objectComputeSize walks with a plain (non-rehashing) iterator. Returns the sum and
// how many entries were sampled.
func (d *Dict[K, V]) SampleSum(samples int, elem func(e *Entry[K, V]) int) (sum int64, n int) {
	d.Range(func(e *Entry[K, V]) bool {
		if samples > 0 && n >= samples {
			return false
		}
		sum += int64(elem(e))
		n++
		return true
	})
	return sum, n
}

// Extrapolate is objectComputeSize's `asize += (double)elesize/samples*count`: the sampled
// average times count, added to asize in double precision and truncated.
func Extrapolate(asize, elesize int64, samples, count int) int64 {
	if samples <= 0 {
		return asize
	}
	return int64(float64(asize) + float64(elesize)/float64(samples)*float64(count))
}

// MemoryUsage is the whole objectComputeSize for a hashtable value: fixed (the robj and any
// other headers the type adds, e.g. 16 for a set or hash) + UsageBase + the extrapolated
// per-element bytes (elem must include the 24-byte entry; see EntryMemUsage).
func (d *Dict[K, V]) MemoryUsage(fixed int64, samples int, elem func(e *Entry[K, V]) int) int64 {
	sum, n := d.SampleSum(samples, elem)
	return Extrapolate(fixed+d.UsageBase(), sum, n, d.Len())
}

// AllocBytes estimates the dict's real allocations (what INFO used_memory sees, not MEMORY
// USAGE): usable(header) + usable(8 × size) per table + the entries. Entries are 24 bytes;
// for sets under 7.2+ rules a bucket's last element is stored without an entry and the others
// use 16-byte no-value entries (exact for insert/rehash sequences, approximate after deletes).
func (d *Dict[K, V]) AllocBytes(usable func(int) int) int64 {
	total := int64(usable(HeaderBytes))
	for t := 0; t <= 1; t++ {
		if n := len(d.table[t]); n > 0 {
			total += int64(usable(n * BucketBytes))
		}
	}
	if d.noValue && d.env.Rules.NoValueSets {
		var chained int64
		for t := 0; t <= 1; t++ {
			for _, e := range d.table[t] {
				if e != nil {
					chained += int64(countChain(e) - 1)
				}
			}
		}
		return total + chained*int64(usable(EntryNoValueBytes))
	}
	return total + int64(d.Len())*int64(usable(EntryBytes))
}

func countChain[K Bytes, V any](e *Entry[K, V]) int {
	n := 0
	for ; e != nil; e = e.next {
		n++
	}
	return n
}
