package bitops

import (
	"strings"

	"redscope/engine/sds"
)

// Op is a BITOP operation.
type Op uint8

// The BITOP operations. With X the first source and Y1..Yn the others:
//
//	AND, OR, XOR  the bitwise operation over all sources
//	NOT           ¬X (exactly one source)
//	DIFF          X ∧ ¬(Y1 ∨ … ∨ Yn)    (Redis 8.2)
//	DIFF1         ¬X ∧ (Y1 ∨ … ∨ Yn)    (Redis 8.2)
//	ANDOR         X ∧ (Y1 ∨ … ∨ Yn)     (Redis 8.2)
//	ONE           bits set in exactly one source (Redis 8.2)
//
// Sources shorter than the longest are read as if padded with zero bytes.
const (
	AND Op = iota
	OR
	XOR
	NOT
	DIFF
	DIFF1
	ANDOR
	ONE
)

var opNames = [...]string{"and", "or", "xor", "not", "diff", "diff1", "andor", "one"}

func (op Op) String() string {
	if int(op) < len(opNames) {
		return opNames[op]
	}
	return "?"
}

// ParseOp finds an operation by name (any case).
func ParseOp(name string) (Op, bool) {
	for i, n := range opNames {
		if strings.EqualFold(name, n) {
			return Op(i), true
		}
	}
	return 0, false
}

// Since82 reports the operations added in Redis 8.2.
func (op Op) Since82() bool { return op >= DIFF }

// NeedsTwo reports the operations that need at least two sources.
func (op Op) NeedsTwo() bool { return op == DIFF || op == DIFF1 || op == ANDOR }

// Byte applies op to one byte of each source (the value of uniform runs).
func (op Op) Byte(src []byte) byte {
	x := src[0]
	var or, once, common byte
	for _, v := range src[1:] {
		or |= v
	}
	switch op {
	case AND:
		for _, v := range src[1:] {
			x &= v
		}
		return x
	case OR:
		return x | or
	case XOR:
		for _, v := range src[1:] {
			x ^= v
		}
		return x
	case NOT:
		return ^x
	case DIFF:
		return x &^ or
	case DIFF1:
		return or &^ x
	case ANDOR:
		return x & or
	}
	for _, v := range src { // ONE
		common |= once & v
		once ^= v
	}
	return once &^ common
}

// preload is the input apply starts from: X for AND, OR, XOR, NOT and ONE, the first Y for
// DIFF, DIFF1 and ANDOR (or -1: none, start from zeros).
func (op Op) preload(nin int) int {
	if op.NeedsTwo() {
		if nin > 1 {
			return 1
		}
		return -1
	}
	return 0
}

// apply computes op over the equal-length inputs into dst (len(dst) == len(each input)).
// dst may not alias an input. With preloaded, dst already holds in[op.preload(len(in))] (a
// copy made while allocating it, which saves clearing a fresh slice); otherwise the first
// pass reads two inputs at once.
func (op Op) apply(dst []byte, in [][]byte, preloaded bool) {
	switch op {
	case AND, OR, XOR:
		k := kernel(op)
		rest := in[1:]
		switch {
		case preloaded:
		case len(in) >= 2:
			k.run(dst, in[0], in[1])
			rest = in[2:]
		default:
			copy(dst, in[0])
		}
		for _, s := range rest {
			k.run(dst, dst, s)
		}
	case NOT:
		if preloaded {
			kNot.run(dst, dst, dst)
		} else {
			kNot.run(dst, in[0], in[0])
		}
	case ONE:
		// common collects the bits seen at least twice; dst is the running parity.
		if !preloaded {
			copy(dst, in[0])
		}
		if len(in) == 1 {
			return
		}
		common := make([]byte, len(dst))
		for _, s := range in[1:] {
			oneStep(dst, common, s)
		}
		kAndNot.run(dst, dst, common)
	case DIFF, DIFF1, ANDOR:
		// dst = Y1 ∨ … ∨ Yn (zeros when there is no Y), then combined with X.
		ys := in[min(1, len(in)):]
		switch {
		case preloaded:
			ys = ys[min(1, len(ys)):]
		case len(ys) >= 2:
			kOr.run(dst, ys[0], ys[1])
			ys = ys[2:]
		case len(ys) == 1:
			copy(dst, ys[0])
			ys = nil
		default:
			clear(dst)
		}
		for _, s := range ys {
			kOr.run(dst, dst, s)
		}
		switch x := in[0]; op {
		case DIFF:
			kAndNot.run(dst, x, dst)
		case DIFF1:
			kAndNot.run(dst, dst, x)
		default:
			kAnd.run(dst, dst, x)
		}
	}
}

// kernel is a word-wise binary operation d = a ∘ b over equal-length slices; d may be a or b.
type kernel uint8

const (
	kAnd    = kernel(AND)
	kOr     = kernel(OR)
	kXor    = kernel(XOR)
	kNot    = kernel(NOT)  // d = ^a (b unused)
	kAndNot = kernel(DIFF) // d = a &^ b
)

func (k kernel) run(d, a, b []byte) {
	n := len(d)
	a, b = a[:n], b[:n]
	dw, aw, bw := words(d), words(a), words(b)
	aw, bw = aw[:len(dw)], bw[:len(dw)]
	switch k {
	case kAnd:
		for i := range dw {
			dw[i] = aw[i] & bw[i]
		}
	case kOr:
		for i := range dw {
			dw[i] = aw[i] | bw[i]
		}
	case kXor:
		for i := range dw {
			dw[i] = aw[i] ^ bw[i]
		}
	case kNot:
		for i := range dw {
			dw[i] = ^aw[i]
		}
	case kAndNot:
		for i := range dw {
			dw[i] = aw[i] &^ bw[i]
		}
	}
	for i := len(dw) * 8; i < n; i++ {
		switch k {
		case kAnd:
			d[i] = a[i] & b[i]
		case kOr:
			d[i] = a[i] | b[i]
		case kXor:
			d[i] = a[i] ^ b[i]
		case kNot:
			d[i] = ^a[i]
		case kAndNot:
			d[i] = a[i] &^ b[i]
		}
	}
}

// oneStep adds source s to ONE's running parity d and its seen-twice mask c.
func oneStep(d, c, s []byte) {
	n := len(d)
	c, s = c[:n], s[:n]
	dw, cw, sw := words(d), words(c), words(s)
	cw, sw = cw[:len(dw)], sw[:len(dw)]
	for i := range dw {
		cw[i] |= dw[i] & sw[i]
		dw[i] ^= sw[i]
	}
	for i := len(dw) * 8; i < n; i++ {
		c[i] |= d[i] & s[i]
		d[i] ^= s[i]
	}
}

// Apply computes op over the sources (nil = a missing key, read as empty) and returns the
// result, as long as the longest source; the result is empty when every source is.
//
// Results up to sds.DenseLimit are one slice. Longer ones are built page by page: a page where
// every source is a run of one byte (unallocated, uniform or past its end) becomes a run of the
// result byte without being materialised, so `BITOP NOT dst huge` of a 512 MiB key with one bit
// set costs one real page plus pointers to the shared 0xFF page.
func Apply(op Op, srcs []*sds.Buf) sds.Buf { return ApplyInto(op, srcs, nil) }

// ApplyInto is Apply that may build a result of up to sds.DenseLimit bytes in scratch, storage
// the caller no longer needs (such as the replaced destination's), instead of allocating.
// scratch must not be the storage of a source.
func ApplyInto(op Op, srcs []*sds.Buf, scratch []byte) sds.Buf {
	maxlen := 0
	for _, s := range srcs {
		if s != nil && s.Len() > maxlen {
			maxlen = s.Len()
		}
	}
	if maxlen == 0 {
		return sds.Buf{}
	}
	in := make([][]byte, len(srcs))
	fills := make([]byte, len(srcs))
	var padded [][]byte
	// view fills in[i] with source i's bytes [off, off+k), zero-padded, and reports whether all
	// sources are uniform over the window (their bytes then in fills).
	view := func(off, k int) bool {
		allUniform := true
		for i, s := range srcs {
			var data []byte
			var fill byte
			ok := true
			if s != nil {
				data, fill, ok = s.View(off, k)
			}
			if !ok {
				if padded == nil {
					padded = make([][]byte, len(srcs))
				}
				if cap(padded[i]) < k {
					padded[i] = make([]byte, k)
				}
				data = padded[i][:k]
				s.ReadAt(data, off)
			}
			if data == nil {
				fills[i] = fill
				in[i] = nil
			} else {
				allUniform = false
				in[i] = data
			}
		}
		return allUniform
	}
	expand := func(k int) {
		for i := range in {
			if in[i] != nil {
				continue
			}
			if k <= sds.PageSize {
				in[i] = sds.UniformPage(fills[i])[:k]
			} else { // a missing or empty source under a dense result
				in[i] = make([]byte, k)
				fillBytes(in[i], fills[i])
			}
		}
	}
	if maxlen <= sds.DenseLimit {
		if view(0, maxlen) {
			var dst []byte
			if cap(scratch) >= maxlen {
				dst = scratch[:maxlen]
			} else {
				dst = make([]byte, maxlen)
			}
			fillBytes(dst, op.Byte(fills))
			return sds.Adopt(dst)
		}
		expand(maxlen)
		if cap(scratch) >= maxlen {
			dst := scratch[:maxlen]
			op.apply(dst, in, false)
			return sds.Adopt(dst)
		}
		var dst []byte
		if p := op.preload(len(in)); p >= 0 {
			dst = append([]byte(nil), in[p]...) // allocated and filled in one pass
		} else {
			dst = make([]byte, maxlen)
		}
		op.apply(dst, in, true)
		return sds.Adopt(dst)
	}
	var res sds.Buf
	res.Resize(maxlen)
	for off := 0; off < maxlen; off += sds.PageSize {
		k := min(sds.PageSize, maxlen-off)
		if view(off, k) {
			if v := op.Byte(fills); v != 0 {
				res.Fill(off, k, v)
			}
			continue
		}
		expand(k)
		op.apply(res.WritableView(off, k), in, false)
	}
	return res
}

func fillBytes(p []byte, v byte) {
	if v == 0 {
		clear(p)
		return
	}
	for i := range p {
		p[i] = v
	}
}
