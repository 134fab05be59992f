// Package bitops holds the pure bit algorithms behind Redis's bitmap commands, working on the
// engine's byte store (sds.Buf): population counts over byte or bit ranges (BITCOUNT), the first
// set or clear bit of a range (BITPOS), the BITOP operations, and BITFIELD's integer fields with
// their overflow rules.
//
// Bit numbering is Redis's: bit offset o lives in byte o>>3 at mask 1<<(7-(o&7)), so bit 0 is
// the most significant bit of byte 0.
//
// Everything here is written to skip what a paged sds.Buf does not store: unallocated pages
// count as zero bytes and shared uniform pages as runs of one byte, so scanning or combining a
// 512 MiB bitmap with one bit set touches one page.
package bitops

import (
	"math/bits"
	"unsafe"

	"redscope/engine/sds"
)

// words views the whole 8-byte words at the start of p as uint64s in the machine's byte order
// (no copy); the bytes past the last whole word are p[8*len(words(p)):]. Every use here is
// order-independent: bitwise operations, popcounts and comparisons with 0 or all ones.
func words(p []byte) []uint64 {
	if len(p) < 8 {
		return nil
	}
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(p))), len(p)/8)
}

// PopCount counts the set bits of p, eight bytes at a time.
func PopCount(p []byte) int64 {
	w := words(p)
	var c0, c1, c2, c3 int
	i := 0
	for ; i+4 <= len(w); i += 4 {
		c0 += bits.OnesCount64(w[i])
		c1 += bits.OnesCount64(w[i+1])
		c2 += bits.OnesCount64(w[i+2])
		c3 += bits.OnesCount64(w[i+3])
	}
	for ; i < len(w); i++ {
		c0 += bits.OnesCount64(w[i])
	}
	for _, c := range p[len(w)*8:] {
		c1 += bits.OnesCount8(c)
	}
	return int64(c0 + c1 + c2 + c3)
}

// CountBytes counts the set bits of bytes [from, to) of b (clamped to its length).
func CountBytes(b *sds.Buf, from, to int64) int64 {
	var n int64
	b.Runs(int(from), int(to), func(_, k int, data []byte, fill byte) bool {
		if data == nil {
			n += int64(k) * int64(bits.OnesCount8(fill))
		} else {
			n += PopCount(data)
		}
		return true
	})
	return n
}

// rangeMask is the mask of bits lo..hi (0 = most significant) of a byte.
func rangeMask(lo, hi uint) byte {
	return byte(0xff>>lo) & byte(0xff<<(7-hi))
}

// Count counts the set bits of b from bit first to bit last, both included; both must be
// inside the string (0 ≤ first ≤ last < 8·len).
func Count(b *sds.Buf, first, last int64) int64 {
	fb, lb := first>>3, last>>3
	if fb == lb {
		return int64(bits.OnesCount8(b.At(int(fb)) & rangeMask(uint(first&7), uint(last&7))))
	}
	n := int64(bits.OnesCount8(b.At(int(fb)) & rangeMask(uint(first&7), 7)))
	n += CountBytes(b, fb+1, lb)
	return n + int64(bits.OnesCount8(b.At(int(lb))&rangeMask(0, uint(last&7))))
}

// firstInByte is the index (0 = most significant) of the first bit equal to bit among bits
// lo..hi of c, or -1.
func firstInByte(c byte, bit int, lo, hi uint) int {
	if bit == 0 {
		c = ^c
	}
	c &= rangeMask(lo, hi)
	if c == 0 {
		return -1
	}
	return bits.LeadingZeros8(c)
}

// Pos returns the offset of the first bit equal to bit (0 or 1) from bit first to bit last
// (both included, inside the string), or -1 when there is none.
func Pos(b *sds.Buf, bit int, first, last int64) int64 {
	fb, lb := first>>3, last>>3
	if fb == lb {
		if i := firstInByte(b.At(int(fb)), bit, uint(first&7), uint(last&7)); i >= 0 {
			return fb<<3 + int64(i)
		}
		return -1
	}
	if i := firstInByte(b.At(int(fb)), bit, uint(first&7), 7); i >= 0 {
		return fb<<3 + int64(i)
	}
	if p := PosBytes(b, bit, fb+1, lb); p >= 0 {
		return p
	}
	if i := firstInByte(b.At(int(lb)), bit, 0, uint(last&7)); i >= 0 {
		return lb<<3 + int64(i)
	}
	return -1
}

// PosBytes returns the offset of the first bit equal to bit in bytes [from, to) of b, or -1.
func PosBytes(b *sds.Buf, bit int, from, to int64) int64 {
	skip := byte(0) // the byte value that holds no wanted bit
	skipWord := uint64(0)
	if bit == 0 {
		skip, skipWord = 0xff, ^uint64(0)
	}
	pos := int64(-1)
	b.Runs(int(from), int(to), func(off, k int, data []byte, fill byte) bool {
		if data == nil {
			if fill == skip {
				return true
			}
			pos = int64(off)<<3 + int64(firstInByte(fill, bit, 0, 7))
			return false
		}
		i := 0
		for _, w := range words(data) {
			if w != skipWord {
				break
			}
			i += 8
		}
		for ; i < len(data); i++ {
			if data[i] != skip {
				pos = int64(off+i)<<3 + int64(firstInByte(data[i], bit, 0, 7))
				return false
			}
		}
		return true
	})
	return pos
}
