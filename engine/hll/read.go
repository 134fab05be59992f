package hll

import (
	"encoding/binary"
	"strconv"
)

// Reading an HLL string from outside the engine: the page's scenes and the lesson player show a
// key's header, its opcodes and its registers, and read them only through the functions below,
// so the format is decoded in this package alone.
//
// A real example, PFADD h a b c on redis-server 7.0.15 (hll-sparse-max-bytes 3000); GET h is
// 27 bytes:
//
//	HYLL 01 000000 0000000000000080   header: magic, sparse, 3 unused, cache invalid
//	60 f3                             XZERO  registers     0..8435  (8436 zeros)   off 16
//	80                                VAL    register   8436 = 1                  off 18
//	50 b1                             XZERO  registers  8437..12710 (4274 zeros)  off 19
//	84                                VAL    register  12711 = 2                  off 21
//	4b fb                             XZERO  registers 12712..15779 (3068 zeros)  off 22
//	80                                VAL    register  15780 = 1                  off 24
//	42 5a                             XZERO  registers 15781..16383 (603 zeros)   off 25
//
// Ops walks these seven opcodes (PFDEBUG DECODE h prints them "Z:8436 v:1,1 Z:4274 v:2,1 Z:3068
// v:1,1 Z:603"); Recognise says "sparse"; CachedCard says the cache is stale until PFCOUNT h
// writes 3 into bytes 8..15. A dense string is the same header with encoding byte 0, then
// 16 384 six-bit registers, register i in bits 6i..6i+5 counted from the least significant bit
// of byte 16: DenseRegister reads one, DenseRegisters all of them.
//
// These readers are strict where the commands are byte-exact: they never read past len(b) (an
// XZERO cut by the end of a crafted value ends the walk, where Redis would read the terminator),
// and they report a string whose opcodes do not cover exactly the 16 384 registers as invalid.

// Opcode kinds of a sparse HLL (hyperloglog.c, HLL_SPARSE_IS_ZERO / _IS_XZERO / _IS_VAL).
const (
	OpZero  = iota // 00xxxxxx: 1..64 zero registers
	OpXZero        // 01xxxxxx yyyyyyyy: 1..16384 zero registers
	OpVal          // 1vvvvvxx: 1..4 registers of value 1..32
)

// Op is one opcode of a sparse HLL.
type Op struct {
	Kind  int // OpZero, OpXZero or OpVal
	Off   int // byte offset in the string (the header's 16 bytes included)
	First int // first register it covers
	Run   int // registers covered
	Val   int // the registers' value (VAL; 0 for the zero runs)
}

// Len is the opcode's size in bytes.
func (o Op) Len() int {
	if o.Kind == OpXZero {
		return 2
	}
	return 1
}

// String is the opcode as PFDEBUG DECODE prints it: z:RUN (ZERO), Z:RUN (XZERO), v:VAL,RUN.
func (o Op) String() string { return string(appendOp(nil, o.Kind, o.Val, o.Run)) }

// appendOp appends one opcode in PFDEBUG DECODE form.
func appendOp(dst []byte, kind, val, run int) []byte {
	switch kind {
	case OpZero:
		dst = append(dst, "z:"...)
	case OpXZero:
		dst = append(dst, "Z:"...)
	default:
		dst = append(dst, "v:"...)
		dst = strconv.AppendInt(dst, int64(val), 10)
		dst = append(dst, ',')
	}
	return strconv.AppendInt(dst, int64(run), 10)
}

// opKind is the kind of the opcode whose first byte is c.
func opKind(c byte) int {
	switch {
	case isZero(c):
		return OpZero
	case isXZero(c):
		return OpXZero
	}
	return OpVal
}

// OpIter walks the opcodes of a sparse HLL string, in order:
//
//	it := hll.Ops(b)
//	for it.Next() {
//		op := it.Op()
//		…
//	}
//	if !it.Complete() { /* corrupt: cut, past register 16383, or short of it */ }
type OpIter struct {
	b     []byte
	p     int // byte offset of the next opcode
	first int // first register of the next opcode
	op    Op
	bad   bool // the walk stopped on a cut opcode or one running past the last register
}

// Ops starts a walk over the opcodes of the sparse HLL string b (header included; the caller
// knows it is sparse, see Recognise). Nothing is decoded before the first Next.
func Ops(b []byte) OpIter { return OpIter{b: b, p: HdrSize} }

// Next decodes the next opcode; false at the end of the string or at a corrupt opcode (an XZERO
// cut by the end, or a run past register 16383), which is not returned.
func (it *OpIter) Next() bool {
	if it.bad || it.p >= len(it.b) {
		return false
	}
	kind, run, val, n := readOp(it.b, it.p)
	if n == 0 || it.first+run > Registers {
		it.bad = true
		return false
	}
	it.op = Op{Kind: kind, Off: it.p, First: it.first, Run: run, Val: val}
	it.p += n
	it.first += run
	return true
}

// readOp decodes the opcode at byte p < len(b): its kind, run, value and size in bytes (n = 0
// for an XZERO cut by the end of b).
func readOp(b []byte, p int) (kind, run, val, n int) {
	c := b[p]
	switch {
	case isVal(c):
		return OpVal, valLen(c), valValue(c), 1
	case isZero(c):
		return OpZero, int(c&0x3f) + 1, 0, 1
	case p+1 < len(b):
		return OpXZero, (int(c&0x3f)<<8 | int(b[p+1])) + 1, 0, 2
	}
	return OpXZero, 0, 0, 0
}

// Op is the opcode the last successful Next decoded.
func (it *OpIter) Op() Op { return it.op }

// Complete reports, once Next has returned false, whether the walk reached the end of the
// string having covered exactly the 16 384 registers (the string's opcodes are valid).
func (it *OpIter) Complete() bool {
	return !it.bad && it.p >= len(it.b) && it.first == Registers
}

// Recognise tells an HLL string from any other: "sparse" or "dense" (PFDEBUG ENCODING's words)
// when b holds at least the 16-byte header with the magic "HYLL" and encoding byte 1 or 0, ""
// otherwise. Only the header is read, so the first 16 bytes of a value are enough; whether the
// rest is well formed is for Valid, Ops and DenseRegisters to say.
func Recognise(b []byte) string {
	if len(b) < HdrSize || string(b[:4]) != "HYLL" {
		return ""
	}
	switch b[4] {
	case EncDense:
		return "dense"
	case EncSparse:
		return "sparse"
	}
	return ""
}

// CachedCard reads the cardinality PFCOUNT cached in the header (bytes 8..15, little-endian) and
// whether it is still valid (PFADD and PFMERGE set the top bit of byte 15 when they change a
// register); 0, false for a string shorter than the header.
func CachedCard(b []byte) (card uint64, valid bool) {
	if len(b) < HdrSize {
		return 0, false
	}
	v := binary.LittleEndian.Uint64(b[8:HdrSize])
	return v &^ (1 << 63), v>>63 == 0
}

// isDense reports whether b is a well-formed dense HLL: the header and exactly 12 304 bytes.
func isDense(b []byte) bool { return Recognise(b) == "dense" && len(b) == DenseSize }

// DenseRegister is register i (0..16383) of the dense HLL string b; ok is false when b is not a
// dense HLL of 12 304 bytes or i is out of range.
func DenseRegister(b []byte, i int) (v int, ok bool) {
	if !isDense(b) || i < 0 || i >= Registers {
		return 0, false
	}
	return DenseGet(b, i), true
}

// DenseRegisters decodes the 16 384 registers of the dense HLL string b into regs (three bytes
// hold four registers); false, with regs untouched, when b is not a dense HLL of 12 304 bytes.
func DenseRegisters(b []byte, regs *[Registers]uint8) bool {
	if !isDense(b) {
		return false
	}
	body := b[HdrSize:DenseSize]
	for i, j := 0, 0; j+3 <= len(body); i, j = i+4, j+3 {
		v := uint32(body[j]) | uint32(body[j+1])<<8 | uint32(body[j+2])<<16
		regs[i] = uint8(v & RegMax)
		regs[i+1] = uint8(v >> 6 & RegMax)
		regs[i+2] = uint8(v >> 12 & RegMax)
		regs[i+3] = uint8(v >> 18 & RegMax)
	}
	return true
}

// Decode reads the 16 384 registers of an HLL string of either encoding into regs; false when b
// is not a valid HLL (no header, a dense body of the wrong length, sparse opcodes that are cut
// or do not cover exactly the 16 384 registers). On false regs may hold part of the registers.
func Decode(b []byte, regs *[Registers]uint8) bool {
	switch Recognise(b) {
	case "dense":
		return DenseRegisters(b, regs)
	case "sparse": // Ops's walk, without an Op per opcode
		first := 0
		for p := HdrSize; p < len(b); {
			_, run, val, n := readOp(b, p)
			if n == 0 || first+run > Registers {
				return false
			}
			if r := regs[first : first+run]; val == 0 {
				clear(r)
			} else {
				for k := range r {
					r[k] = uint8(val)
				}
			}
			p += n
			first += run
		}
		return first == Registers
	}
	return false
}
