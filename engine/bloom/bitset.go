package bloom

import "math/bits"

// bitset is a filter's bit array: flat up to flatLimit bytes, otherwise pages allocated on the
// first write (a reserved 1 GiB filter costs nothing until items arrive).
type bitset struct {
	flat  []byte
	pages map[uint64]*[pageSize]byte
}

const (
	pageShift = 12
	pageSize  = 1 << pageShift
	flatLimit = 16 << 20
)

func newBitset(nbytes uint64) bitset {
	if nbytes <= flatLimit {
		return bitset{flat: make([]byte, nbytes)}
	}
	return bitset{pages: map[uint64]*[pageSize]byte{}}
}

func (s *bitset) test(x uint64) bool {
	byteIdx, mask := x>>3, byte(1)<<(x&7)
	if s.pages == nil {
		return s.flat[byteIdx]&mask != 0
	}
	p := s.pages[byteIdx>>pageShift]
	return p != nil && p[byteIdx&(pageSize-1)]&mask != 0
}

// testAndSet sets bit x and reports whether it was already set.
func (s *bitset) testAndSet(x uint64) bool {
	byteIdx, mask := x>>3, byte(1)<<(x&7)
	var b *byte
	if s.pages == nil {
		b = &s.flat[byteIdx]
	} else {
		p := s.pages[byteIdx>>pageShift]
		if p == nil {
			p = new([pageSize]byte)
			s.pages[byteIdx>>pageShift] = p
		}
		b = &p[byteIdx&(pageSize-1)]
	}
	was := *b&mask != 0
	*b |= mask
	return was
}

func (s *bitset) count() uint64 {
	var n uint64
	for _, c := range s.flat {
		n += uint64(bits.OnesCount8(c))
	}
	for _, p := range s.pages {
		for _, c := range p {
			n += uint64(bits.OnesCount8(c))
		}
	}
	return n
}

func (s bitset) clone() bitset {
	n := bitset{}
	if s.flat != nil {
		n.flat = append([]byte(nil), s.flat...)
	}
	if s.pages != nil {
		n.pages = make(map[uint64]*[pageSize]byte, len(s.pages))
		for k, p := range s.pages {
			q := *p
			n.pages[k] = &q
		}
	}
	return n
}
