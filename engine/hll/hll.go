// Package hll is Redis's HyperLogLog as bytes: the 16-byte header with its cached cardinality,
// the dense encoding (16 384 six-bit registers packed LSB-first, 12 304 bytes in all) and the
// sparse encoding (ZERO / XZERO / VAL run-length opcodes), with Redis's exact rules for updating,
// splitting and merging opcodes, promotion to dense, the register histogram and Ertl's
// estimator. It is pure: no engine, no allocator model. The engine (cmd_hll.go) owns the sds
// allocation model and the commands.
//
// This package is the only code that knows the format: the page's scenes and the lesson player
// read a key's header, opcodes and registers through read.go (Recognise, CachedCard, Ops,
// DenseRegister, DenseRegisters, Decode), as hyperloglog.c alone decodes HLL strings in Redis.
//
// All functions take the whole string value (header included) and never panic on malformed
// input: a run past the end or a sum of runs different from 16 384 is reported as invalid.
//
// The terminator byte. Where Redis reads one byte past the end of a sparse string (an XZERO
// opcode cut in half by the end of a crafted value) it reads the sds terminator, which is
// normally NUL but which a split of such a cut opcode overwrites with the last byte of the new
// opcodes. To stay byte-exact the functions here see a sparse string's terminator as the byte
// just past len(b) inside cap(b) (0 when cap(b) == len(b)), and SparseSet maintains it as Redis
// does (sdsIncrLen writes NUL at the new end, then the opcodes are copied in).
package hll

import (
	"math"
	"math/bits"

	"redscope/engine/murmur"
)

// Layout constants (hyperloglog.c).
const (
	P          = 14     // index bits
	Q          = 64 - P // bits left for the run length
	Registers  = 1 << P // 16 384
	PMask      = Registers - 1
	HdrSize    = 16 // "HYLL", encoding, 3 unused, 8-byte cached cardinality
	DenseBytes = Registers * 6 / 8
	DenseSize  = HdrSize + DenseBytes // 12 304
	RegMax     = 63                   // largest value a 6-bit register holds
	Seed       = 0xadc83b19           // MurmurHash64A seed

	EncDense  = 0
	EncSparse = 1

	SparseValMaxValue = 32    // VAL opcodes hold 1..32
	SparseValMaxLen   = 4     // VAL run length 1..4
	SparseZeroMaxLen  = 64    // ZERO run length 1..64
	SparseXZeroMaxLen = 16384 // XZERO run length 1..16384

	// EmptySparseSize is a new HLL: the header and XZERO:16384.
	EmptySparseSize = HdrSize + 2
)

// Hash is MurmurHash64A with Redis's seed, 8-byte blocks read little-endian.
func Hash(data []byte) uint64 { return murmur.Sum64A(data, Seed) }

// PatLen is hllPatLen: the register an element goes to (low 14 bits of its hash) and the run
// length it proposes, 1 + the trailing zeros of the other 50 bits (1..51).
func PatLen(ele []byte) (index, count int, hash uint64) {
	hash = Hash(ele)
	index = int(hash & PMask)
	count = bits.TrailingZeros64(hash>>P|1<<Q) + 1
	return
}

// NewSparse returns a new empty HLL as Redis creates it: sparse, XZERO:16384, cache bytes zero.
func NewSparse() []byte {
	b := make([]byte, EmptySparseSize)
	copy(b, "HYLL")
	b[4] = EncSparse
	b[16] = 0x40 | byte((Registers-1)>>8)
	b[17] = byte((Registers - 1) & 0xff)
	return b
}

// Valid is the structural part of isHLLObjectOrReply: at least a header, the magic, a known
// encoding and, for dense, exactly DenseSize bytes. (The caller checks the type and that the
// value is not int-encoded.)
func Valid(b []byte) bool {
	if len(b) < HdrSize || b[0] != 'H' || b[1] != 'Y' || b[2] != 'L' || b[3] != 'L' {
		return false
	}
	if b[4] > EncSparse {
		return false
	}
	return b[4] != EncDense || len(b) == DenseSize
}

// IsSparse reports the header's encoding byte (of a Valid HLL).
func IsSparse(b []byte) bool { return b[4] == EncSparse }

// CacheValid reports whether the cached cardinality may be used (MSB of byte 15 clear).
func CacheValid(b []byte) bool { return b[15]&0x80 == 0 }

// Cached returns the cached cardinality (little-endian bytes 8..15).
func Cached(b []byte) uint64 {
	var v uint64
	for i := 7; i >= 0; i-- {
		v = v<<8 | uint64(b[8+i])
	}
	return v
}

// SetCache stores a cardinality in the header (which makes the cache valid).
func SetCache(b []byte, card uint64) {
	for i := 0; i < 8; i++ {
		b[8+i] = byte(card >> (8 * i))
	}
}

// Invalidate sets the cache's invalid bit; the other cache bytes are left as they are.
func Invalidate(b []byte) { b[15] |= 0x80 }

// ---- dense ----

// DenseGet reads register i of a dense HLL.
func DenseGet(b []byte, i int) int {
	regs := b[HdrSize:]
	bit := i * 6
	pos, s := bit>>3, uint(bit&7)
	v := int(regs[pos]) >> s
	if s > 2 { // the register spills into the next byte (never for the last register)
		v |= int(regs[pos+1]) << (8 - s)
	}
	return v & RegMax
}

// denseSet writes register i (v ≤ 63).
func denseSet(regs []byte, i, v int) {
	bit := i * 6
	pos, s := bit>>3, uint(bit&7)
	regs[pos] = regs[pos]&^byte(RegMax<<s) | byte(v<<s)
	if s > 2 {
		regs[pos+1] = regs[pos+1]&^byte(RegMax>>(8-s)) | byte(v>>(8-s))
	}
}

// DenseSet is hllDenseSet: register i becomes count if that is larger. It returns the old value
// and whether it changed. The cache is not touched (the command invalidates it).
func DenseSet(b []byte, i, count int) (old int, updated bool) {
	regs := b[HdrSize:DenseSize]
	bit := i * 6
	pos, s := bit>>3, uint(bit&7)
	if s <= 2 { // the register lies within one byte
		c := regs[pos]
		old = int(c>>s) & RegMax
		if count <= old {
			return old, false
		}
		regs[pos] = c&^byte(RegMax<<s) | byte(count<<s)
		return old, true
	}
	c0, c1 := regs[pos], regs[pos+1]
	old = (int(c0)>>s | int(c1)<<(8-s)) & RegMax
	if count <= old {
		return old, false
	}
	regs[pos] = c0&^byte(RegMax<<s) | byte(count<<s)
	regs[pos+1] = c1&^byte(RegMax>>(8-s)) | byte(count>>(8-s))
	return old, true
}

// DenseAdd hashes ele into a dense HLL (hllDenseAdd); it reports whether a register changed.
func DenseAdd(b []byte, ele []byte) bool {
	index, count, _ := PatLen(ele)
	_, upd := DenseSet(b, index, count)
	return upd
}

// DenseHisto adds a dense HLL's register values to h (four registers per three bytes).
func DenseHisto(b []byte, h *[64]int) {
	regs := b[HdrSize:DenseSize]
	for i := 0; i+3 <= len(regs); i += 3 {
		v := uint32(regs[i]) | uint32(regs[i+1])<<8 | uint32(regs[i+2])<<16
		h[v&63]++
		h[v>>6&63]++
		h[v>>12&63]++
		h[v>>18&63]++
	}
}

// ---- sparse ----

// Opcode helpers. ZERO 00xxxxxx, XZERO 01xxxxxx yyyyyyyy, VAL 1vvvvvxx.
func isZero(c byte) bool  { return c&0xc0 == 0 }
func isXZero(c byte) bool { return c&0xc0 == 0x40 }
func isVal(c byte) bool   { return c&0x80 != 0 }
func valValue(c byte) int { return int(c>>2&0x1f) + 1 }
func valLen(c byte) int   { return int(c&3) + 1 }
func valOp(v, n int) byte { return byte(0x80 | (v-1)<<2 | (n - 1)) }

// opAt decodes the opcode at p of b: its run length, register value (0 for zero runs) and size
// in bytes. An XZERO whose second byte is past the end reads the NUL terminator (0).
func opAt(b []byte, p int) (span, val, oplen int) {
	c := b[p]
	switch {
	case isZero(c):
		return int(c&0x3f) + 1, 0, 1
	case isVal(c):
		return valLen(c), valValue(c), 1
	}
	var lo int
	if p+1 < len(b) {
		lo = int(b[p+1])
	} else {
		lo = int(Term(b))
	}
	return (int(c&0x3f)<<8 | lo) + 1, 0, 2
}

// Term is the byte after the end of b: b's terminator (see the package comment).
func Term(b []byte) byte {
	if cap(b) > len(b) {
		return b[:len(b)+1][len(b)]
	}
	return 0
}

// putZero appends the shortest zero-run opcode for n registers (ZERO up to 64, XZERO above).
func putZero(dst []byte, n int) []byte {
	if n > SparseZeroMaxLen {
		n--
		return append(dst, 0x40|byte(n>>8), byte(n))
	}
	return append(dst, byte(n-1))
}

// Result of SparseSet.
const (
	Invalid   = -1 // corrupt sparse data (INVALIDOBJ)
	Unchanged = 0
	Updated   = 1
	Promote   = 2 // the caller must convert to dense and set the register there
)

// SparseSet is hllSparseSet without the allocation model: register index of the sparse HLL b
// becomes count if that is larger. Promote is returned (b untouched) when count > 32 or when the
// rewrite would make the string longer than maxBytes. On Updated the opcodes are rewritten
// (a single-register opcode in place, otherwise the run is split into up to five opcodes),
// adjacent equal VAL opcodes are merged (Redis scans five opcodes from the one before the
// update) and the cache is invalidated. The returned slice replaces b (it may have grown).
// old is the register's previous value.
func SparseSet(b []byte, index, count int, maxBytes int64) (nb []byte, old, res int) {
	if count > SparseValMaxValue {
		return b, 0, Promote
	}
	end := len(b)
	p, prev, first, span, oplen := HdrSize, -1, 0, 0, 0
	for p < end { // the hot loop: opcodes decoded inline
		c := b[p]
		switch {
		case c&0x80 != 0:
			span, oplen = int(c&3)+1, 1
		case c&0x40 == 0:
			span, oplen = int(c&0x3f)+1, 1
		case p+1 < end:
			span, oplen = (int(c&0x3f)<<8|int(b[p+1]))+1, 2
		default:
			span, _, oplen = opAt(b, p) // an XZERO cut by the end: reads the terminator
		}
		if index < first+span {
			break
		}
		prev = p
		p += oplen
		first += span
	}
	if span == 0 || p >= end || index < 0 {
		return b, 0, Invalid
	}
	_, val, _ := opAt(b, p)
	next := p + oplen
	if next >= end {
		next = -1
	}
	c := b[p]
	old = val
	switch {
	case isVal(c):
		if old >= count {
			return b, old, Unchanged
		}
		if span == 1 {
			b[p] = valOp(count, 1)
			return sparseUpdated(b, prev), old, Updated
		}
	case isZero(c) && span == 1:
		b[p] = valOp(count, 1)
		return sparseUpdated(b, prev), old, Updated
	}

	// General case: replace the opcode by up to three runs (at most 5 bytes).
	var seqBuf [5]byte
	seq := seqBuf[:0]
	last := first + span - 1
	if isVal(c) {
		if index != first {
			seq = append(seq, valOp(old, index-first))
		}
		seq = append(seq, valOp(count, 1))
		if index != last {
			seq = append(seq, valOp(old, last-index))
		}
	} else {
		if index != first {
			seq = putZero(seq, index-first)
		}
		seq = append(seq, valOp(count, 1))
		if index != last {
			seq = putZero(seq, last-index)
		}
	}
	delta := len(seq) - oplen
	if delta > 0 && int64(end)+int64(delta) > maxBytes {
		return b, old, Promote
	}
	newEnd := end + delta
	w := room(b, max(end, newEnd)+1) // the string and its terminator
	if delta != 0 && next >= 0 {
		copy(w[next+delta:], w[next:end])
	}
	w[newEnd] = 0    // sdsIncrLen
	copy(w[p:], seq) // a cut XZERO at the very end spills its last byte into the terminator
	return sparseUpdated(w[:newEnd], prev), old, Updated
}

// room returns b's storage extended to n bytes (copying b and its terminator when cap is short).
func room(b []byte, n int) []byte {
	if n <= cap(b) {
		return b[:n]
	}
	nb := make([]byte, n, n+n/4+8)
	copy(nb, b[:len(b)+min(1, cap(b)-len(b))])
	return nb
}

// sparseUpdated merges adjacent equal VAL opcodes near the update and invalidates the cache.
func sparseUpdated(b []byte, prev int) []byte {
	p := prev
	if p < 0 {
		p = HdrSize
	}
	end := len(b)
	for scan := 5; p < end && scan > 0; scan-- {
		c := b[p]
		if isXZero(c) {
			p += 2
			continue
		}
		if isZero(c) {
			p++
			continue
		}
		if p+1 < end && isVal(b[p+1]) {
			v1, v2 := valValue(c), valValue(b[p+1])
			if v1 == v2 {
				if n := valLen(c) + valLen(b[p+1]); n <= SparseValMaxLen {
					b[p] = valOp(v1, n)
					copy(b[p+1:], b[p+2:end])
					end--
					b[:end+1][end] = 0 // sdsIncrLen(-1)
					continue           // the merged opcode may merge again
				}
			}
		}
		p++
	}
	b = b[:end]
	Invalidate(b)
	return b
}

// SparseHisto adds a sparse HLL's register values to h; false when the runs do not cover
// exactly 16 384 registers.
func SparseHisto(b []byte, h *[64]int) bool {
	idx := 0
	for p := HdrSize; p < len(b); {
		span, val, oplen := opAt(b, p)
		idx += span
		h[val] += span
		p += oplen
	}
	return idx == Registers
}

// SparseToDense is hllSparseToDense: a new 12 304-byte dense HLL with the same header (magic and
// cache), or ok=false when the runs are corrupt.
func SparseToDense(b []byte) (dense []byte, ok bool) {
	dense = make([]byte, DenseSize)
	copy(dense, b[:HdrSize])
	dense[4] = EncDense
	regs := dense[HdrSize:]
	idx := 0
	for p := HdrSize; p < len(b); {
		span, val, oplen := opAt(b, p)
		if val != 0 {
			if idx+span > Registers {
				break
			}
			for k := 0; k < span; k++ {
				denseSet(regs, idx+k, val)
			}
		}
		idx += span
		p += oplen
	}
	if idx != Registers {
		return nil, false
	}
	return dense, true
}

// Merge is hllMerge: max[i] = max(max[i], register i of b). False on corrupt sparse data.
func Merge(max *[Registers]uint8, b []byte) bool {
	if !IsSparse(b) {
		regs := b[HdrSize:DenseSize]
		for i, j := 0, 0; j+3 <= len(regs); i, j = i+4, j+3 {
			v := uint32(regs[j]) | uint32(regs[j+1])<<8 | uint32(regs[j+2])<<16
			for k := 0; k < 4; k++ {
				if r := uint8(v >> (6 * k) & 63); r > max[i+k] {
					max[i+k] = r
				}
			}
		}
		return true
	}
	// Since the CVE-2021-32627/32628 fixes (7.0.0) every opcode, zero runs included, is checked
	// for running past the last register: such data is corrupt, even if the runs sum up.
	idx := 0
	for p := HdrSize; p < len(b); {
		span, val, oplen := opAt(b, p)
		if idx+span > Registers {
			return false
		}
		if val != 0 {
			for k := idx; k < idx+span; k++ {
				if uint8(val) > max[k] {
					max[k] = uint8(val)
				}
			}
		}
		idx += span
		p += oplen
	}
	return idx == Registers
}

// RawHisto is the histogram of 8-bit registers (the merged array of a multi-key PFCOUNT).
func RawHisto(max *[Registers]uint8, h *[64]int) {
	for _, v := range max {
		h[v&63]++
	}
}

// Histo fills h from a Valid HLL; false on corrupt sparse data.
func Histo(b []byte, h *[64]int) bool {
	if IsSparse(b) {
		return SparseHisto(b, h)
	}
	DenseHisto(b, h)
	return true
}

// Count estimates the cardinality of a Valid HLL (ok=false on corrupt sparse data).
func Count(b []byte) (card uint64, ok bool) {
	var h [64]int
	if !Histo(b, &h) {
		return 0, false
	}
	return Estimate(&h), true
}

// Estimate is Ertl's improved raw estimator over the register histogram, as Redis computes it
// (double arithmetic, llroundl: halves away from zero).
func Estimate(h *[64]int) uint64 {
	const m = float64(Registers)
	const alphaInf = 0.721347520444481703680 // 0.5/ln 2
	z := m * tau((m-float64(h[Q+1]))/m)
	for j := Q; j >= 1; j-- {
		z += float64(h[j])
		z *= 0.5
	}
	z += m * sigma(float64(h[0])/m)
	e := math.Round(float64(alphaInf*m*m) / z)
	return uint64(e)
}

func sigma(x float64) float64 {
	if x == 1 {
		return math.Inf(1)
	}
	y, z := 1.0, x
	for {
		x = float64(x * x)
		zp := z
		z += float64(x * y)
		y += y
		if z == zp {
			return z
		}
	}
}

func tau(x float64) float64 {
	if x == 0 || x == 1 {
		return 0
	}
	y, z := 1.0, 1-x
	for {
		x = math.Sqrt(x)
		zp := z
		y *= 0.5
		d := 1 - x
		z -= float64(float64(d*d) * y)
		if z == zp {
			return z / 3
		}
	}
}

// AppendDecode appends PFDEBUG DECODE's text for a sparse HLL: "Z:<n>" (XZERO), "z:<n>"
// (ZERO), "v:<value>,<n>" (VAL), space separated.
func AppendDecode(dst []byte, b []byte) []byte {
	return appendOps(dst, b, HdrSize, len(b))
}

func appendOps(dst []byte, b []byte, from, to int) []byte {
	sep := false
	for p := from; p < to; {
		span, val, oplen := opAt(b, p)
		if sep {
			dst = append(dst, ' ')
		}
		sep = true
		dst = appendOp(dst, opKind(b[p]), val, span)
		p += oplen
	}
	return dst
}

// DecodeRange renders, in DECODE form, the opcodes of sparse b that cover registers lo..hi,
// and returns the register range those opcodes actually span (for trace events).
func DecodeRange(b []byte, lo, hi int) (text string, from, to int) {
	return decodeRangeFrom(b, HdrSize, 0, lo, hi)
}

// decodeRangeFrom is DecodeRange starting at the opcode at byte p0, which holds register first
// (p0 = HdrSize, first = 0 decodes from the start).
func decodeRangeFrom(b []byte, p0, first, lo, hi int) (text string, from, to int) {
	start, stop := -1, -1
	from, to = -1, -1
	for p := p0; p < len(b); {
		span, _, oplen := opAt(b, p)
		last := first + span - 1
		if last >= lo && first <= hi {
			if start < 0 {
				start, from = p, first
			}
			stop, to = p+oplen, last
		}
		if first > hi {
			break
		}
		p += oplen
		first += span
	}
	if start < 0 {
		return "", lo, hi
	}
	return string(appendOps(nil, b, start, min(stop, len(b)))), from, to
}

// Change describes one sparse rewrite for trace events.
type Change struct {
	Before, After string // DECODE form of the affected opcodes
	Rewrite       string // "in-place" or "split"
	Merged        int    // bytes saved by merging adjacent equal VAL opcodes afterwards
}

// SparseSetTraced is SparseSet that also describes the rewrite (it copies the string first: use
// it only when tracing).
func SparseSetTraced(b []byte, index, count int, maxBytes int64) (nb []byte, old, res int, ch Change) {
	orig := make([]byte, len(b), len(b)+1)
	copy(orig, b)
	orig[:len(b)+1][len(b)] = Term(b)
	// The opcodes that may change: the one holding index and its predecessor (merges start there).
	// SparseSet leaves every byte before the predecessor (at byte lp) as it was, so the decoding
	// below starts there in both strings instead of at the first opcode.
	lo, lp, first := -1, HdrSize, 0
	span, oplen := 0, 0
	for p := HdrSize; p < len(orig); {
		span, _, oplen = opAt(orig, p)
		if index <= first+span-1 {
			break
		}
		lo, lp = first, p
		p += oplen
		first += span
	}
	if lo < 0 {
		lo = first
	}
	nb, old, res = SparseSet(b, index, count, maxBytes)
	if res != Updated {
		return
	}
	expect := len(orig)
	ch.Rewrite = "in-place"
	if span > 1 || oplen == 2 {
		ch.Rewrite = "split"
		pieces := []int{1}
		if index != first {
			pieces = append(pieces, index-first)
		}
		if last := first + span - 1; index != last {
			pieces = append(pieces, last-index)
		}
		n := 1
		for _, k := range pieces[1:] {
			if old == 0 && k > SparseZeroMaxLen {
				n += 2
			} else {
				n++
			}
		}
		expect += n - oplen
	}
	ch.Merged = expect - len(nb)
	// Widen the register range until it ends on an opcode boundary both before and after.
	hi := index
	for range 4 {
		_, _, t1 := decodeRangeFrom(orig, lp, lo, lo, hi)
		_, _, t2 := decodeRangeFrom(nb, lp, lo, lo, hi)
		if nh := max(t1, t2, hi); nh != hi {
			hi = nh
			continue
		}
		break
	}
	ch.Before, _, _ = decodeRangeFrom(orig, lp, lo, lo, hi)
	ch.After, _, _ = decodeRangeFrom(nb, lp, lo, lo, hi)
	return
}
