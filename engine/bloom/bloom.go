// Package bloom is a scalable Bloom filter built by RedisBloom's rules (the BF.* commands): a
// chain of sub-filters, each sized from its capacity and error rate, hashed with 64-bit
// MurmurHash2 (MurmurHash64A) and probed by double hashing.
//
// Rules, as RedisBloom (src/sb.c, deps/bloom/bloom.c, src/rebloom.c) implements them:
//
//   - bits per entry bpe = |ln(error)| / ln²2 (ln²2 taken as 0.480453013918201);
//   - bits = trunc(capacity · bpe), at least 1, then rounded up to a whole number of 64-bit words:
//     bytes = (bits/64 + 1)·8 unless bits is already a multiple of 64; the filter then uses all
//     bytes·8 bits;
//   - hashes k = ceil(0.693147180559945 · bpe);
//   - the first sub-filter of a scaling chain gets error·0.5 (ERROR_TIGHTENING_RATIO), a
//     NONSCALING one the error as given; each later sub-filter gets half its predecessor's error
//     and capacity·expansion;
//   - a new sub-filter is added when the newest one holds as many items as its capacity;
//   - an item's hash is a = MurmurHash64A(item, seed 0xc6a4a7935bd1e995), b = MurmurHash64A(item,
//     seed a); probe i (0 ≤ i < k) is bit (a + i·b) mod 2⁶⁴ mod bits, bit x being bit x%8 (least
//     significant first) of byte x/8;
//   - an item counts as present when every probe of any one sub-filter is set;
//   - memory reported (BF.INFO Size, MEMORY usage callback) = 32 (the chain struct) + 64 per
//     sub-filter (its link struct) + the bytes of every sub-filter.
package bloom

import (
	"errors"
	"math"

	"redscope/engine/murmur"
)

// Constants of RedisBloom.
const (
	TighteningRatio = 0.5
	ln2             = 0.693147180559945
	ln2Squared      = 0.480453013918201
	HashSeed        = 0xc6a4a7935bd1e995
	ChainStructSize = 32 // sizeof(SBChain)
	LinkStructSize  = 64 // sizeof(SBLink): struct bloom (56) + item count
)

// Errors of filter creation and insertion.
var (
	ErrInvalid = errors.New("bloom: invalid capacity or error rate")
	ErrOOM     = errors.New("bloom: filter too large")
	ErrFull    = errors.New("bloom: non scaling filter is full")
)

// MaxBytes is the largest sub-filter the simulator agrees to create (a real server's calloc
// would fail somewhere around the machine's memory; 64 GiB stands for that limit). Bit storage
// is sparse, so a large empty filter costs little.
var MaxBytes uint64 = 64 << 30

// Filter is one sub-filter (SBLink: struct bloom + its item count).
type Filter struct {
	Hashes  int     // k
	Entries uint64  // capacity
	Error   float64 // error rate it was sized for
	BPE     float64 // bits per entry
	Bits    uint64  // bytes·8
	Bytes   uint64
	Items   uint64 // items added to this sub-filter
	set     bitset
}

// BPE is bits per entry for an error rate.
func BPE(errRate float64) float64 {
	b := -(math.Log(errRate) / ln2Squared)
	if b < 0 {
		b = -b
	}
	return b
}

// NewFilter sizes a sub-filter for entries items at errRate.
func NewFilter(entries uint64, errRate float64) (*Filter, error) {
	f, err := SizeFilter(entries, errRate)
	if err != nil {
		return nil, err
	}
	f.set = newBitset(f.Bytes)
	return f, nil
}

// SizeFilter computes a sub-filter's geometry without allocating its bits.
func SizeFilter(entries uint64, errRate float64) (*Filter, error) {
	if entries < 1 || !(errRate > 0) || errRate >= 1 {
		return nil, ErrInvalid
	}
	bpe := BPE(errRate)
	fb := float64(entries) * bpe
	if !(fb < 1<<63) {
		return nil, ErrOOM
	}
	bits := uint64(fb)
	if bits == 0 {
		bits = 1
	}
	var bytes uint64
	if bits%64 != 0 {
		bytes = (bits/64 + 1) * 8
	} else {
		bytes = bits / 8
	}
	if bytes > MaxBytes {
		return nil, ErrOOM
	}
	return &Filter{
		Hashes:  int(math.Ceil(ln2 * bpe)),
		Entries: entries,
		Error:   errRate,
		BPE:     bpe,
		Bits:    bytes * 8,
		Bytes:   bytes,
	}, nil
}

// Hash is an item's pair of 64-bit hashes.
type Hash struct{ A, B uint64 }

// HashItem hashes an item as RedisBloom's 64-bit filters do.
func HashItem(item []byte) Hash {
	a := murmur.Sum64A(item, HashSeed)
	return Hash{A: a, B: murmur.Sum64A(item, a)}
}

// Position is probe i's bit.
func (f *Filter) Position(h Hash, i int) uint64 {
	return (h.A + uint64(i)*h.B) % f.Bits
}

// Test reports whether bit x is set.
func (f *Filter) Test(x uint64) bool { return f.set.test(x) }

// Contains reports whether every probe of h is set.
func (f *Filter) Contains(h Hash) bool {
	for i := 0; i < f.Hashes; i++ {
		if !f.set.test(f.Position(h, i)) {
			return false
		}
	}
	return true
}

// SetBits sets every probe of h (the caller has established that they were not all set).
func (f *Filter) setAll(h Hash, probes []Probe) []Probe {
	for i := 0; i < f.Hashes; i++ {
		x := f.Position(h, i)
		was := f.set.testAndSet(x)
		if probes != nil {
			probes = append(probes, Probe{Bit: x, WasSet: was})
		}
	}
	return probes
}

// BitsSet counts the set bits (for visualizers; O(bytes)).
func (f *Filter) BitsSet() uint64 { return f.set.count() }

// Probe is one bit an insertion touched.
type Probe struct {
	Bit    uint64
	WasSet bool
}

// Chain is a scalable Bloom filter (SBChain).
type Chain struct {
	Filters   []*Filter
	Items     uint64 // items added to all sub-filters
	Growth    uint32 // expansion
	NoScaling bool
}

// NewChain makes a chain with one sub-filter of capacity items. A scaling chain's first
// sub-filter gets errRate·TighteningRatio.
func NewChain(capacity uint64, errRate float64, growth uint32, noScaling bool) (*Chain, error) {
	if capacity == 0 || errRate == 0 || errRate >= 1 {
		return nil, ErrInvalid
	}
	e := errRate
	if !noScaling {
		e *= TighteningRatio
	}
	f, err := NewFilter(capacity, e)
	if err != nil {
		return nil, err
	}
	return &Chain{Filters: []*Filter{f}, Growth: growth, NoScaling: noScaling}, nil
}

// Capacity is the sum of the sub-filters' capacities (BF.INFO Capacity).
func (c *Chain) Capacity() uint64 {
	var n uint64
	for _, f := range c.Filters {
		n += f.Entries
	}
	return n
}

// MemUsage is BF.INFO Size: the chain and link structs plus every sub-filter's bytes.
func (c *Chain) MemUsage() uint64 {
	n := uint64(ChainStructSize)
	for _, f := range c.Filters {
		n += LinkStructSize + f.Bytes
	}
	return n
}

// Contains reports whether an item may be present: some sub-filter, newest first, has all its
// probes set.
func (c *Chain) Contains(item []byte) bool {
	h := HashItem(item)
	for i := len(c.Filters) - 1; i >= 0; i-- {
		if c.Filters[i].Contains(h) {
			return true
		}
	}
	return false
}

// AddResult describes one insertion (for trace events).
type AddResult struct {
	Hash        Hash
	Added       bool    // false: the item (or a collision) was already present
	Filter      int     // sub-filter that matched (Added false) or took the item
	Probes      []Probe // the bits set, when the caller asked for them
	FilterAdded bool    // a new sub-filter was appended before the insertion
}

// Add inserts item. It returns ErrFull for a full NONSCALING chain and ErrOOM/ErrInvalid when a
// new sub-filter cannot be made. With wantProbes the probes are reported in res.
func (c *Chain) Add(item []byte, wantProbes bool) (res AddResult, err error) {
	h := HashItem(item)
	res.Hash = h
	for i := len(c.Filters) - 1; i >= 0; i-- {
		if c.Filters[i].Contains(h) {
			res.Filter = i
			return res, nil
		}
	}
	cur := c.Filters[len(c.Filters)-1]
	if cur.Items >= cur.Entries {
		if c.NoScaling {
			return res, ErrFull
		}
		f, err := NewFilter(cur.Entries*uint64(c.Growth), cur.Error*TighteningRatio)
		if err != nil {
			return res, err
		}
		c.Filters = append(c.Filters, f)
		cur = f
		res.FilterAdded = true
	}
	if wantProbes {
		res.Probes = make([]Probe, 0, cur.Hashes)
	}
	res.Probes = cur.setAll(h, res.Probes)
	cur.Items++
	c.Items++
	res.Added = true
	res.Filter = len(c.Filters) - 1
	return res, nil
}

// Clone is a deep copy (COPY).
func (c *Chain) Clone() *Chain {
	n := &Chain{Items: c.Items, Growth: c.Growth, NoScaling: c.NoScaling}
	n.Filters = make([]*Filter, len(c.Filters))
	for i, f := range c.Filters {
		g := *f
		g.set = f.set.clone()
		n.Filters[i] = &g
	}
	return n
}
