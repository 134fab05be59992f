// Package intset is a byte-exact model of Redis's intset (intset.c): the sorted array of integers
// behind small all-integer sets.
//
// Layout: [encoding u32 LE][length u32 LE][length × width bytes, little-endian, ascending], where
// encoding is the width in bytes (2, 4 or 8). The width is the smallest that holds every member;
// adding a wider value upgrades the whole set (the new value is then necessarily the smallest or
// the largest, so it goes first or last) and nothing ever downgrades. Every add and remove reallocs
// to exactly 8 + n × width, so MEMORY USAGE counts usable(8 + n × width) (docs/internals.md §Encodings).
// An empty intset (intsetNew) is malloc(8).
//
// Verified byte-for-byte against redis-server 7.0.15 with DUMP (RDB type 11 carries these bytes).
package intset

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"

	"redscope/engine/alloc"
)

// Encoding widths.
const (
	Enc16 = 2
	Enc32 = 4
	Enc64 = 8
	// HeaderSize is sizeof(intset).
	HeaderSize = 8
)

// Kind names what a Change did.
type Kind uint8

const (
	KindNone    Kind = iota
	KindInsert       // value inserted at Pos, tail moved
	KindUpgrade      // encoding widened, then value put at Pos (0 or Len−1)
	KindRemove       // value at Pos removed, tail moved
)

func (k Kind) String() string {
	return [...]string{"none", "insert", "upgrade", "remove"}[k]
}

// Change describes one mutation for the visualizer.
type Change struct {
	Kind     Kind
	Pos      int // index of the inserted/removed value
	OldEnc   int // width before
	NewEnc   int // width after
	Moved    int // bytes shifted by memmove (insert/remove) or rewritten by the upgrade loop
	OldBytes int // blob size before
	NewBytes int // blob size after
}

// Work counts cumulative cost.
type Work struct {
	Probes int64 // values read by binary searches
	Moved  int64 // bytes moved or rewritten
}

// Intset holds the exact bytes.
type Intset struct {
	b    []byte
	Work Work
}

// ErrCorrupt is returned for bytes that are not a valid intset.
var ErrCorrupt = errors.New("intset: invalid encoding")

// New is intsetNew: width 2, no members, 8 bytes.
func New() *Intset {
	s := &Intset{b: make([]byte, HeaderSize, 64)}
	s.b[0] = Enc16
	return s
}

// FromBytes copies b after intsetValidateIntegrity(deep=1): known width, exact size, not empty,
// strictly ascending.
func FromBytes(b []byte) (*Intset, error) {
	if err := Validate(b, true); err != nil {
		return nil, err
	}
	return &Intset{b: slices.Clone(b)}, nil
}

// FromBytesUnchecked copies b, which passed Validate(b, false) (a RESTORE with
// sanitize-dump-payload no keeps an intset that is not sorted).
func FromBytesUnchecked(b []byte) *Intset { return &Intset{b: slices.Clone(b)} }

// Validate is intsetValidateIntegrity.
func Validate(b []byte, deep bool) error {
	if len(b) < HeaderSize {
		return ErrCorrupt
	}
	w := int(le32(b[0:]))
	if w != Enc16 && w != Enc32 && w != Enc64 {
		return ErrCorrupt
	}
	n := uint64(le32(b[4:]))
	if uint64(HeaderSize)+n*uint64(w) != uint64(len(b)) {
		return ErrCorrupt
	}
	if n == 0 {
		return ErrCorrupt
	}
	if !deep {
		return nil
	}
	s := Intset{b: b}
	prev := s.get(0)
	for i := 1; i < int(n); i++ {
		cur := s.get(i)
		if cur <= prev {
			return ErrCorrupt
		}
		prev = cur
	}
	return nil
}

func le32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

func put32(b []byte, v uint32) {
	b[0], b[1], b[2], b[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
}

// Clone returns an independent copy.
func (s *Intset) Clone() *Intset { return &Intset{b: slices.Clone(s.b)} }

// Bytes returns the intset's bytes (shared, do not modify).
func (s *Intset) Bytes() []byte { return s.b }

// BlobLen is intsetBlobLen: 8 + n × width.
func (s *Intset) BlobLen() int { return len(s.b) }

// Usable is malloc_usable_size of the allocation (it is always exactly BlobLen bytes).
func (s *Intset) Usable(a alloc.Allocator) int { return a.Usable(len(s.b)) }

// Len is intsetLen.
func (s *Intset) Len() int { return int(le32(s.b[4:])) }

// Encoding is the width in bytes (2, 4, 8).
func (s *Intset) Encoding() int { return int(le32(s.b[0:])) }

// ValueEncoding is _intsetValueEncoding: the width v needs.
func ValueEncoding(v int64) int {
	switch {
	case v < math.MinInt32 || v > math.MaxInt32:
		return Enc64
	case v < math.MinInt16 || v > math.MaxInt16:
		return Enc32
	}
	return Enc16
}

func getEnc(b []byte, i, w int) int64 {
	o := HeaderSize + i*w
	switch w {
	case Enc64:
		var u uint64
		for k := 0; k < 8; k++ {
			u |= uint64(b[o+k]) << (8 * k)
		}
		return int64(u)
	case Enc32:
		return int64(int32(le32(b[o:])))
	}
	return int64(int16(uint16(b[o]) | uint16(b[o+1])<<8))
}

func setEnc(b []byte, i, w int, v int64) {
	o := HeaderSize + i*w
	u := uint64(v)
	for k := 0; k < w; k++ {
		b[o+k] = byte(u >> (8 * k))
	}
}

func (s *Intset) get(i int) int64 { return getEnc(s.b, i, s.Encoding()) }

// Get is intsetGet: the value at position i.
func (s *Intset) Get(i int) (int64, bool) {
	if i < 0 || i >= s.Len() {
		return 0, false
	}
	return s.get(i), true
}

// Min and Max return the first and last values (0 when empty).
func (s *Intset) Min() int64 {
	if s.Len() == 0 {
		return 0
	}
	return s.get(0)
}

// Max returns the last (largest) value, 0 when empty.
func (s *Intset) Max() int64 {
	n := s.Len()
	if n == 0 {
		return 0
	}
	return s.get(n - 1)
}

// Search is intsetSearch: the position of v, or where it would be inserted.
func (s *Intset) Search(v int64) (pos int, found bool) {
	n := s.Len()
	if n == 0 {
		return 0, false
	}
	s.Work.Probes += 2
	if v > s.get(n-1) {
		return n, false
	}
	if v < s.get(0) {
		return 0, false
	}
	lo, hi, mid := 0, n-1, -1
	var cur int64 = -1
	for hi >= lo {
		mid = int(uint(lo+hi) >> 1)
		cur = s.get(mid)
		s.Work.Probes++
		if v > cur {
			lo = mid + 1
		} else if v < cur {
			hi = mid - 1
		} else {
			break
		}
	}
	if v == cur {
		return mid, true
	}
	return lo, false
}

// Find is intsetFind.
func (s *Intset) Find(v int64) bool {
	if ValueEncoding(v) > s.Encoding() {
		return false
	}
	_, ok := s.Search(v)
	return ok
}

func (s *Intset) resize(n, w int) {
	size := HeaderSize + n*w
	if size > cap(s.b) {
		s.b = slices.Grow(s.b, size-len(s.b))
	}
	s.b = s.b[:size]
}

// Add is intsetAdd: returns false when v was already present.
func (s *Intset) Add(v int64) (bool, Change) {
	w := s.Encoding()
	n := s.Len()
	ch := Change{OldEnc: w, NewEnc: w, OldBytes: len(s.b)}
	if vw := ValueEncoding(v); vw > w {
		// Upgrade: widen back to front, leaving room first (v < 0) or last (v > 0).
		prepend := 0
		if v < 0 {
			prepend = 1
		}
		put32(s.b[0:], uint32(vw))
		s.resize(n+1, vw)
		for i := n - 1; i >= 0; i-- {
			setEnc(s.b, i+prepend, vw, getEnc(s.b, i, w))
		}
		pos := n
		if prepend == 1 {
			pos = 0
		}
		setEnc(s.b, pos, vw, v)
		put32(s.b[4:], uint32(n+1))
		ch.Kind, ch.Pos, ch.NewEnc, ch.Moved, ch.NewBytes = KindUpgrade, pos, vw, n*vw, len(s.b)
		s.Work.Moved += int64(n * vw)
		return true, ch
	}
	pos, found := s.Search(v)
	if found {
		ch.Pos, ch.NewBytes = pos, len(s.b)
		return false, ch
	}
	s.resize(n+1, w)
	if pos < n {
		o := HeaderSize + pos*w
		copy(s.b[o+w:], s.b[o:HeaderSize+n*w])
		ch.Moved = (n - pos) * w
		s.Work.Moved += int64(ch.Moved)
	}
	setEnc(s.b, pos, w, v)
	put32(s.b[4:], uint32(n+1))
	ch.Kind, ch.Pos, ch.NewBytes = KindInsert, pos, len(s.b)
	return true, ch
}

// Remove is intsetRemove: returns false when v was not present.
func (s *Intset) Remove(v int64) (bool, Change) {
	w := s.Encoding()
	ch := Change{OldEnc: w, NewEnc: w, OldBytes: len(s.b), NewBytes: len(s.b)}
	if ValueEncoding(v) > w {
		return false, ch
	}
	pos, found := s.Search(v)
	if !found {
		return false, ch
	}
	n := s.Len()
	if pos < n-1 {
		o := HeaderSize + pos*w
		copy(s.b[o:], s.b[o+w:HeaderSize+n*w])
		ch.Moved = (n - 1 - pos) * w
		s.Work.Moved += int64(ch.Moved)
	}
	s.resize(n-1, w)
	put32(s.b[4:], uint32(n-1))
	if c := cap(s.b); c > 4096 && c > 4*len(s.b) {
		s.b = slices.Clip(slices.Clone(s.b))
	}
	ch.Kind, ch.Pos, ch.NewBytes = KindRemove, pos, len(s.b)
	return true, ch
}

// Random is intsetRandom: the value at rand() % len, drawn from r (ok=false when empty).
func (s *Intset) Random(r *rand.Rand) (int64, bool) {
	n := s.Len()
	if n == 0 {
		return 0, false
	}
	return s.get(r.IntN(n)), true
}

// All calls f for every value in ascending order until f returns false.
func (s *Intset) All(f func(i int, v int64) bool) {
	w := s.Encoding()
	n := s.Len()
	for i := 0; i < n; i++ {
		if !f(i, getEnc(s.b, i, w)) {
			return
		}
	}
}
