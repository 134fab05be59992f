package bitops

import (
	"encoding/binary"

	"redscope/engine/sds"
)

// BITFIELD integer fields: a field of w bits (1..64) starts at any bit offset and is stored
// big-endian in Redis's MSB-first bit order, so it spans at most 9 bytes.

// Overflow is a BITFIELD OVERFLOW mode.
type Overflow uint8

const (
	Wrap Overflow = iota // the default: two's-complement wrap to w bits
	Sat                  // clamp to the type's minimum or maximum
	Fail                 // refuse the write; the op replies nil
)

func (o Overflow) String() string {
	return [...]string{"wrap", "sat", "fail"}[o]
}

// window reads the 9 bytes at byte off>>3 (zeros past the end) as a 72-bit big-endian window,
// returning its top 64 bits and last byte.
func window(b *sds.Buf, off uint64) (hi uint64, lo byte, buf [9]byte) {
	b.ReadAt(buf[:], int(off>>3))
	return binary.BigEndian.Uint64(buf[:8]), buf[8], buf
}

// GetUnsigned reads the w-bit unsigned field at bit offset off (bits past the end read as 0).
func GetUnsigned(b *sds.Buf, off uint64, w int) uint64 {
	hi, lo, _ := window(b, off)
	s := off & 7
	v := hi << s
	if s != 0 {
		v |= uint64(lo) >> (8 - s)
	}
	return v >> (64 - uint(w))
}

// GetSigned reads the w-bit two's-complement field at bit offset off.
func GetSigned(b *sds.Buf, off uint64, w int) int64 {
	v := GetUnsigned(b, off, w)
	if w < 64 && v&(1<<(w-1)) != 0 {
		v |= ^uint64(0) << uint(w)
	}
	return int64(v)
}

// Set writes the low w bits of v as the field at bit offset off. The string must already be
// long enough (the BITFIELD command grows it before executing).
func Set(b *sds.Buf, off uint64, w int, v uint64) {
	_, _, buf := window(b, off)
	s := uint(off & 7)
	// The field occupies bits s .. s+w-1 of the 72-bit window.
	field := v << (64 - uint(w)) // left-aligned
	mask := ^uint64(0) << (64 - uint(w))
	hi := binary.BigEndian.Uint64(buf[:8])
	hi = hi&^(mask>>s) | field>>s
	binary.BigEndian.PutUint64(buf[:8], hi)
	if s+uint(w) > 64 { // spills into the ninth byte
		sh := 64 - s // bits of the field already placed
		buf[8] = buf[8]&^byte(mask<<sh>>56) | byte(field<<sh>>56)
	}
	n := (int(s) + w + 7) / 8
	b.WriteAt(buf[:n], int(off>>3))
}

// CheckUnsigned is Redis's unsigned overflow check for value+incr in w bits (w ≤ 63). It
// returns 0 (fits), 1 (overflow) or -1 (underflow) and, unless the mode is Fail, the value to
// store instead: the wrapped or saturated one. SET checks its value with incr 0; the value is
// then the 64-bit two's-complement reading of the argument, so a negative SET overflows.
func CheckUnsigned(value uint64, incr int64, w int, ow Overflow) (limit uint64, overflow int) {
	max := uint64(1)<<uint(w) - 1
	maxincr := int64(max - value)
	minincr := -int64(value)
	switch {
	case value > max || incr > 0 && incr > maxincr:
		overflow = 1
		if ow == Sat {
			return max, overflow
		}
	case incr < 0 && incr < minincr:
		overflow = -1
		if ow == Sat {
			return 0, overflow
		}
	default:
		return 0, 0
	}
	return (value + uint64(incr)) & max, overflow
}

// CheckSigned is Redis's signed overflow check for value+incr in w bits (w ≤ 64), with the
// same results as CheckUnsigned. The intermediate differences wrap in 64 bits exactly as
// Redis computes them, which gives one odd case Redis also has: with OVERFLOW SAT,
// `SET i8 0 -9223372036854775808` stores 127, not -128 (max−value wraps negative).
func CheckSigned(value, incr int64, w int, ow Overflow) (limit int64, overflow int) {
	max := int64(1<<63 - 1)
	if w < 64 {
		max = 1<<(uint(w)-1) - 1
	}
	min := -max - 1
	maxincr := int64(uint64(max) - uint64(value))
	minincr := min - value
	switch {
	case value > max || w != 64 && incr > maxincr || value >= 0 && incr > 0 && incr > maxincr:
		overflow = 1
		if ow == Sat {
			return max, overflow
		}
	case value < min || w != 64 && incr < minincr || value < 0 && incr < 0 && incr < minincr:
		overflow = -1
		if ow == Sat {
			return min, overflow
		}
	default:
		return 0, 0
	}
	c := uint64(value) + uint64(incr)
	if w < 64 {
		if c&(1<<(uint(w)-1)) != 0 {
			c |= ^uint64(0) << uint(w)
		} else {
			c &^= ^uint64(0) << uint(w)
		}
	}
	return int64(c), overflow
}
