package bitops

import (
	"bytes"
	"math/bits"
	"math/rand/v2"
	"testing"

	"redscope/engine/sds"
)

func bit(p []byte, i int64) int {
	if i>>3 >= int64(len(p)) {
		return 0
	}
	return int(p[i>>3]>>(7-uint(i&7))) & 1
}

// pagedSample makes a paged Buf (and its flat copy) with zero pages, a uniform 0xff page made
// by Fill, dense islands and a partial last page.
func pagedSample(r *rand.Rand) (sds.Buf, []byte) {
	n := sds.DenseLimit + 3*sds.PageSize + r.IntN(sds.PageSize)
	flat := make([]byte, n)
	var b sds.Buf
	b.Resize(n)
	b.Fill(2*sds.PageSize, sds.PageSize, 0xff)
	for i := 2 * sds.PageSize; i < 3*sds.PageSize; i++ {
		flat[i] = 0xff
	}
	for k := 0; k < 20; k++ {
		off := r.IntN(n - 64)
		if off >= sds.PageSize && off < 3*sds.PageSize { // keep page 2 uniform
			off += 2 * sds.PageSize
		}
		p := make([]byte, 1+r.IntN(64))
		for i := range p {
			p[i] = byte(r.Uint32())
		}
		b.WriteAt(p, off)
		copy(flat[off:], p)
	}
	return b, flat
}

func TestCountAndPosPaged(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	b, flat := pagedSample(r)
	if !b.Equal(flat) {
		t.Fatal("sample differs from its flat copy")
	}
	var total int64
	for _, v := range flat {
		total += int64(bits.OnesCount8(v))
	}
	if got := CountBytes(&b, 0, int64(len(flat))); got != total {
		t.Fatalf("CountBytes = %d, want %d", got, total)
	}
	nbits := int64(len(flat)) * 8
	for q := 0; q < 200; q++ {
		first := r.Int64N(nbits)
		last := first + r.Int64N(min(nbits-first, 1<<19))
		if q%3 == 0 { // short ranges inside or across a byte
			last = min(first+r.Int64N(20), nbits-1)
		}
		var want int64
		for i := first; i <= last; i++ {
			want += int64(bit(flat, i))
		}
		if got := Count(&b, first, last); got != want {
			t.Fatalf("Count(%d, %d) = %d, want %d", first, last, got, want)
		}
		for v := 0; v < 2; v++ {
			wantPos := int64(-1)
			for i := first; i <= last; i++ {
				if bit(flat, i) == v {
					wantPos = i
					break
				}
			}
			if got := Pos(&b, v, first, last); got != wantPos {
				t.Fatalf("Pos(%d, %d, %d) = %d, want %d", v, first, last, got, wantPos)
			}
		}
	}
	// inside the 0xff page: the first zero is after it
	if got := PosBytes(&b, 0, 2*sds.PageSize, 3*sds.PageSize); got != -1 {
		t.Fatalf("PosBytes in the 0xff page = %d", got)
	}
	if got := PosBytes(&b, 1, 2*sds.PageSize, 3*sds.PageSize); got != 2*sds.PageSize*8 {
		t.Fatalf("PosBytes(1) in the 0xff page = %d", got)
	}
}

// TestApplyOps compares Apply with Op.Byte applied byte by byte (Op.Byte is itself checked
// against the definitions below) on small and paged inputs of different lengths.
func TestApplyOps(t *testing.T) {
	// Op.Byte against the definitions, bit by bit, for three sources.
	for x := 0; x < 256; x += 7 {
		for y := 0; y < 256; y += 5 {
			for z := 0; z < 256; z += 37 {
				src := []byte{byte(x), byte(y), byte(z)}
				for op := AND; op <= ONE; op++ {
					got := op.Byte(src)
					for i := 0; i < 8; i++ {
						if int(got>>i&1) != defBit(op, x>>i&1, y>>i&1, z>>i&1) {
							t.Fatalf("%s(%#x,%#x,%#x) bit %d = %d", op, x, y, z, i, got>>i&1)
						}
					}
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(2, 2))
	check := func(op Op, flats [][]byte, bufs []*sds.Buf) {
		t.Helper()
		res := Apply(op, bufs)
		n := 0
		for _, f := range flats {
			n = max(n, len(f))
		}
		if res.Len() != n {
			t.Fatalf("%s: len %d, want %d", op, res.Len(), n)
		}
		got := res.Bytes()
		src := make([]byte, len(flats))
		for i := 0; i < n; i++ {
			for j, f := range flats {
				src[j] = 0
				if i < len(f) {
					src[j] = f[i]
				}
			}
			if w := op.Byte(src); got[i] != w {
				t.Fatalf("%s: byte %d = %#x, want %#x", op, i, got[i], w)
			}
		}
	}
	for iter := 0; iter < 200; iter++ {
		k := 1 + r.IntN(4)
		flats := make([][]byte, k)
		bufs := make([]*sds.Buf, k)
		for j := range flats {
			if r.IntN(5) == 0 {
				continue // missing key
			}
			p := make([]byte, r.IntN(90))
			for i := range p {
				p[i] = byte(r.Uint32())
			}
			flats[j] = p
			b := sds.FromBytes(p)
			bufs[j] = &b
		}
		for op := AND; op <= ONE; op++ {
			if op == NOT {
				check(op, flats[:1], bufs[:1])
			} else {
				check(op, flats, bufs)
			}
		}
	}
	a, fa := pagedSample(r)
	b, fb := pagedSample(r)
	small := []byte("\xff\x0f\xf0abc")
	s := sds.FromBytes(small)
	for op := AND; op <= ONE; op++ {
		if op == NOT {
			check(op, [][]byte{fa}, []*sds.Buf{&a})
			continue
		}
		check(op, [][]byte{fa, fb, small, nil}, []*sds.Buf{&a, &b, &s, nil})
		check(op, [][]byte{small, fb}, []*sds.Buf{&s, &b})
	}
	// ApplyInto with dirty scratch storage gives the same bytes
	for op := AND; op <= ONE; op++ {
		k := 4
		if op == NOT {
			k = 1
		}
		bufs := []*sds.Buf{&s, &s, nil, &s}[:k]
		want := Apply(op, bufs)
		scratch := bytes.Repeat([]byte{0x5a}, 10)
		got := ApplyInto(op, bufs, scratch)
		if !got.Equal(want.Bytes()) || &got.Bytes()[0] != &scratch[0] {
			t.Fatalf("%s: ApplyInto = %q, want %q (or scratch not used)", op, got.Bytes(), want.Bytes())
		}
	}
	// uniform results are not materialised: NOT of a mostly-zero paged value
	inv := Apply(NOT, []*sds.Buf{&a})
	if inv.PagesInUse() > 21 {
		t.Fatalf("NOT result holds %d private pages", inv.PagesInUse())
	}
	if back := Apply(NOT, []*sds.Buf{&inv}); !back.Equal(fa) {
		t.Fatal("NOT NOT differs")
	}
	if e := Apply(OR, []*sds.Buf{nil, nil}); e.Len() != 0 {
		t.Fatal("empty sources made a value")
	}
}

// defBit is the definition of op on one bit of three sources.
func defBit(op Op, a, b, c int) int {
	switch op {
	case AND:
		return a & b & c
	case OR:
		return a | b | c
	case XOR:
		return a ^ b ^ c
	case NOT:
		return 1 - a
	case DIFF:
		return a &^ (b | c)
	case DIFF1:
		return (b | c) &^ a
	case ANDOR:
		return a & (b | c)
	}
	if a+b+c == 1 { // ONE
		return 1
	}
	return 0
}

func TestBitfieldGetSet(t *testing.T) {
	var b sds.Buf
	b.Resize(20)
	Set(&b, 5, 64, 0x0123456789abcdef)
	if got := GetUnsigned(&b, 5, 64); got != 0x0123456789abcdef {
		t.Fatalf("u64 at 5 = %#x", got)
	}
	// bits 5..68: byte 0 keeps its top 5 bits (zero), byte 8 holds the last 5 bits at its top
	if want := []byte{0x00, 0x09, 0x1a, 0x2b, 0x3c, 0x4d, 0x5e, 0x6f, 0x78}; !bytes.Equal(b.Bytes()[:9], want) {
		t.Fatalf("bytes % x", b.Bytes()[:9])
	}
	Set(&b, 0, 5, 0x1f)
	Set(&b, 69, 3, 0x7)
	if got := GetUnsigned(&b, 0, 64); got != 0xf8091a2b3c4d5e6f {
		t.Fatalf("u64 at 0 = %#x", got)
	}
	if b.At(8) != 0x7f {
		t.Fatalf("byte 8 = %#x", b.At(8))
	}
	if got := GetSigned(&b, 0, 5); got != -1 {
		t.Fatalf("i5 = %d", got)
	}
	if got := GetSigned(&b, 69, 3); got != -1 {
		t.Fatalf("i3 = %d", got)
	}
	if got := GetUnsigned(&b, 150, 20); got != 0 { // past the end reads zeros
		t.Fatalf("past end = %d", got)
	}
}

// TestCheckSignedQuirk: the wrapped max−value of Redis's check (verified on 7.0.15:
// OVERFLOW SAT SET i8 0 -9223372036854775808 stores 127; -9223372036854775680 stores -128).
func TestCheckSignedQuirk(t *testing.T) {
	for _, c := range []struct {
		v    int64
		want int64
	}{
		{-1 << 63, 127}, {-1<<63 + 127, 127}, {-1<<63 + 128, -128}, {-129, -128}, {128, 127}, {5, 0},
	} {
		limit, ov := CheckSigned(c.v, 0, 8, Sat)
		if ov == 0 {
			limit = c.v
		}
		if c.want != 0 && limit != c.want || c.want == 0 && ov != 0 {
			t.Errorf("SAT SET i8 %d → %d (overflow %d), want %d", c.v, limit, ov, c.want)
		}
	}
	if l, ov := CheckUnsigned(^uint64(0), 0, 8, Wrap); ov != 1 || l != 255 {
		t.Errorf("WRAP SET u8 -1 → %d %d", l, ov)
	}
	if l, ov := CheckUnsigned(120, 10, 7, Wrap); ov != 1 || l != 2 {
		t.Errorf("u7 120+10 WRAP → %d %d", l, ov)
	}
	if l, ov := CheckUnsigned(120, 10, 7, Sat); ov != 1 || l != 127 {
		t.Errorf("u7 120+10 SAT → %d %d", l, ov)
	}
}

func BenchmarkPopCount(b *testing.B) {
	p := make([]byte, 1<<20)
	for i := range p {
		p[i] = byte(i * 7)
	}
	b.SetBytes(int64(len(p)))
	for i := 0; i < b.N; i++ {
		PopCount(p)
	}
}
