package engine

import (
	"bytes"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"redscope/engine/alloc"
	"redscope/engine/sds"
)

func bmInt(t *testing.T, e *Engine, want int64, args ...string) {
	t.Helper()
	r := e.Do(args...)
	if r.Kind != KindInt || r.Int != want {
		t.Fatalf("%v = %s, want %d", args, strings.TrimSpace(r.FormatCLI()), want)
	}
}

// TestSetbitHuge: the largest offset answers at once, reports Redis's MEMORY USAGE and sds
// figures (Debian 7.0.15: 671088688, sds len 536870912 avail 134217718, zmalloc 671088640) and
// keeps the process small; reading, negating and combining it stays small too.
func TestSetbitHuge(t *testing.T) {
	runtime.GC()
	var m0 runtime.MemStats
	runtime.ReadMemStats(&m0)

	e := New(Options{Version: V70, Allocator: alloc.Jemalloc16})
	bmInt(t, e, 0, "SETBIT", "huge", "4294967295", "1")
	o := e.Lookup([]byte("huge"))
	if o.SDS.Len != 536870912 || o.SDS.Avail() != 134217718 || o.SDS.Usable != 671088640 {
		t.Fatalf("sds = %+v", o.SDS)
	}
	if m, _ := e.MemoryUsage([]byte("huge"), 0); m != 671088688 {
		t.Fatalf("MEMORY USAGE = %d", m)
	}
	if o.Buf.PagesInUse() != 1 {
		t.Fatalf("pages in use %d", o.Buf.PagesInUse())
	}
	bmInt(t, e, 1, "BITCOUNT", "huge")
	bmInt(t, e, 1, "BITCOUNT", "huge", "-1", "-1")
	bmInt(t, e, 4294967295, "BITPOS", "huge", "1")
	bmInt(t, e, 0, "BITPOS", "huge", "0")
	bmInt(t, e, 4294967288, "BITPOS", "huge", "0", "-1")
	bmInt(t, e, 1, "GETBIT", "huge", "4294967295")
	bmInt(t, e, 0, "GETBIT", "huge", "4294967294")

	// NOT: 8191 pages point at the shared 0xFF page, one is real.
	bmInt(t, e, 536870912, "BITOP", "NOT", "inv", "huge")
	inv := e.Lookup([]byte("inv"))
	if inv.Buf.PagesInUse() != 1 {
		t.Fatalf("NOT huge: %d private pages", inv.Buf.PagesInUse())
	}
	bmInt(t, e, 4294967295, "BITCOUNT", "inv")
	bmInt(t, e, 4294967295, "BITPOS", "inv", "0")
	bmInt(t, e, 4294967295, "BITPOS", "inv", "0", "-1")
	bmInt(t, e, 0, "BITPOS", "inv", "1")
	bmInt(t, e, 536870912, "BITOP", "AND", "z", "inv", "huge")
	bmInt(t, e, 0, "BITCOUNT", "z")
	bmInt(t, e, -1, "BITPOS", "z", "1")
	bmInt(t, e, 536870912, "BITOP", "XOR", "x", "inv", "huge", "nokey")
	bmInt(t, e, 4294967296, "BITCOUNT", "x")
	bmInt(t, e, 4294967296, "BITPOS", "x", "0")
	// Writing into a shared page copies it.
	bmInt(t, e, 1, "SETBIT", "inv", "0", "0")
	bmInt(t, e, 4294967294, "BITCOUNT", "inv")
	bmInt(t, e, 1, "GETBIT", "x", "0")
	// BITFIELD past the string: the value grows beyond proto-max-bulk-len, as Redis allows.
	r := e.Do("BITFIELD", "huge", "SET", "u8", "4294967295", "255")
	if r.FormatCLI() != "1) (integer) 128\n" {
		t.Fatalf("BITFIELD = %q", r.FormatCLI())
	}
	if o := e.Lookup([]byte("huge")); o.SDS.Len != 536870913 || o.SDS.Avail() != 134217717 {
		t.Fatalf("after BITFIELD sds = %+v", o.SDS)
	}
	bmInt(t, e, 8, "BITCOUNT", "huge")

	runtime.GC()
	var m1 runtime.MemStats
	runtime.ReadMemStats(&m1)
	if grew := int64(m1.HeapAlloc) - int64(m0.HeapAlloc); grew > 32<<20 {
		t.Errorf("heap grew by %d MiB", grew>>20)
	}
	runtime.KeepAlive(e)

	if r := e.Do("SETBIT", "huge", "4294967296", "1"); r.Str != "ERR bit offset is not an integer or out of range" {
		t.Fatalf("offset 2^32: %q", r.Str)
	}
}

// TestBitOffsetLimitFollowsConfig: the offset limit is proto-max-bulk-len bytes (checked on
// 7.0.15 with CONFIG SET proto-max-bulk-len 1mb).
func TestBitOffsetLimitFollowsConfig(t *testing.T) {
	e := New(Options{})
	if r := e.Do("CONFIG", "SET", "proto-max-bulk-len", "1mb"); r.IsError() {
		t.Skip("CONFIG SET:", r.Str)
	}
	bmInt(t, e, 0, "SETBIT", "k", "8388607", "1")
	if r := e.Do("SETBIT", "k", "8388608", "1"); !r.IsError() {
		t.Fatal("offset past proto-max-bulk-len accepted")
	}
	if r := e.Do("BITFIELD", "k", "GET", "u8", "#1048576"); !r.IsError() {
		t.Fatal("BITFIELD offset past proto-max-bulk-len accepted")
	}
	if r := e.Do("BITFIELD", "k", "GET", "u8", "#1048575"); r.FormatCLI() != "1) (integer) 1\n" {
		t.Fatalf("BITFIELD last byte: %q", r.FormatCLI())
	}
}

// naive bit helpers used as the reference.
func naiveBit(p []byte, i int64) int {
	if i>>3 >= int64(len(p)) {
		return 0
	}
	return int(p[i>>3]>>(7-uint(i&7))) & 1
}

// naiveRange is the clamped range the engine computes (bitRange.normalize): the model below
// counts and searches bits by brute force within it; the clamping itself is pinned by the
// bitmap transcripts, whose replies came from redis-server.
func naiveRange(l, start, end int64, isBit bool) (int64, int64, bool) {
	return bitRange{start, end, isBit}.normalize(l)
}

// randomBitmap makes a value with runs of zeros, runs of 0xff and random bytes.
func randomBitmap(r *rand.Rand, n int) []byte {
	p := make([]byte, n)
	for i := 0; i < n; {
		k := min(n-i, 1+r.IntN(40))
		switch r.IntN(3) {
		case 1:
			for j := 0; j < k; j++ {
				p[i+j] = 0xff
			}
		case 2:
			for j := 0; j < k; j++ {
				p[i+j] = byte(r.Uint32())
			}
		}
		i += k
	}
	return p
}

// TestBitcountBitposReference compares BITCOUNT and BITPOS with a bit-by-bit reference over
// random values and ranges (byte and bit units, with and without an end).
func TestBitcountBitposReference(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	e := New(Options{Version: V70})
	for iter := 0; iter < 300; iter++ {
		n := r.IntN(70)
		val := randomBitmap(r, n)
		setString(e, "v", string(val))
		for q := 0; q < 20; q++ {
			isBit := r.IntN(2) == 1
			span := int64(n)*8*int64(1+r.IntN(2)) + 3
			start, end := r.Int64N(2*span)-span, r.Int64N(2*span)-span
			unit := "BYTE"
			if isBit {
				unit = "BIT"
			}
			// BITCOUNT
			var want int64
			s, en, empty := naiveRange(int64(n), start, end, isBit)
			if start < 0 && end < 0 && start > end {
				empty = true
			}
			if !empty {
				if !isBit {
					s, en = s*8, en*8+7
				}
				for i := s; i <= en; i++ {
					want += int64(naiveBit(val, i))
				}
			}
			got := e.Do("BITCOUNT", "v", itoa(start), itoa(end), unit)
			if got.Int != want {
				t.Fatalf("BITCOUNT %q %d %d %s = %d, want %d", val, start, end, unit, got.Int, want)
			}
			// BITPOS with an end
			for bit := 0; bit < 2; bit++ {
				want := int64(-1)
				s, en, empty := naiveRange(int64(n), start, end, isBit)
				if !empty {
					if !isBit {
						s, en = s*8, en*8+7
					}
					for i := s; i <= en; i++ {
						if naiveBit(val, i) == bit {
							want = i
							break
						}
					}
				}
				got := e.Do("BITPOS", "v", itoa(int64(bit)), itoa(start), itoa(end), unit)
				if got.Int != want {
					t.Fatalf("BITPOS %q %d %d %d %s = %d, want %d", val, bit, start, end, unit, got.Int, want)
				}
				// without an end: bytes from start to the end, zero-padded on the right for bit 0
				want = -1
				s, en, empty = naiveRange(int64(n), start, -1, false)
				if !empty {
					want = -1
					for i := s * 8; i <= en*8+7; i++ {
						if naiveBit(val, i) == bit {
							want = i
							break
						}
					}
					if want < 0 && bit == 0 {
						want = (en + 1) * 8
					}
				}
				got = e.Do("BITPOS", "v", itoa(int64(bit)), itoa(start))
				if got.Int != want {
					t.Fatalf("BITPOS %q %d %d = %d, want %d", val, bit, start, got.Int, want)
				}
			}
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestBitopReference compares every operation with the bit-by-bit definition, on small
// values of different lengths (missing keys, int-encoded values) and on paged values above
// 1 MiB with zero pages, 0xff runs and uniform pages made by NOT.
func TestBitopReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	e := New(Options{Version: V88})
	ops := []string{"and", "or", "xor", "not", "diff", "diff1", "andor", "one"}
	for iter := 0; iter < 400; iter++ {
		nk := 1 + r.IntN(5)
		var keys []string
		var vals [][]byte
		for j := 0; j < nk; j++ {
			k := fmt.Sprintf("s%d", j)
			var v []byte
			switch r.IntN(6) {
			case 0:
				e.Delete([]byte(k))
			case 1:
				v = []byte(itoa(r.Int64N(1 << 40)))
				setString(e, k, string(v))
			default:
				v = randomBitmap(r, r.IntN(100))
				setString(e, k, string(v))
			}
			keys, vals = append(keys, k), append(vals, v)
		}
		op := ops[r.IntN(len(ops))]
		if op == "not" {
			keys, vals = keys[:1], vals[:1]
		}
		if (op == "diff" || op == "diff1" || op == "andor") && len(keys) < 2 {
			continue
		}
		want := naiveBitop(op, vals)
		got := e.Do(append([]string{"BITOP", op, "dst"}, keys...)...)
		if got.Int != int64(len(want)) {
			t.Fatalf("BITOP %s %q: reply %v, want %d", op, vals, got, len(want))
		}
		o := e.Lookup([]byte("dst"))
		if len(want) == 0 {
			if o != nil {
				t.Fatalf("BITOP %s %q: empty result kept dst", op, vals)
			}
			continue
		}
		if !bytes.Equal(o.Buf.Bytes(), want) {
			t.Fatalf("BITOP %s %q = %q, want %q", op, vals, o.Buf.Bytes(), want)
		}
		if o.Enc != EncRaw || o.SDS != sds.New(e.alloc, len(want)) {
			t.Fatalf("dst object %v %+v", o.Enc, o.SDS)
		}
	}

	// Paged sources: three bitmaps of 1–3 MiB.
	mk := func(k string, n int) []byte {
		p := make([]byte, n)
		for i := 0; i < 40; i++ { // a few dense islands, one 0xff run of several pages
			off := r.IntN(n - 500)
			copy(p[off:], randomBitmap(r, 500))
		}
		for i := n / 3; i < n/3+3*sds.PageSize; i++ {
			p[i] = 0xff
		}
		setString(e, k, string(p))
		return p
	}
	a, b := mk("A", 1<<20+12345), mk("B", 3<<20-7)
	bmInt(t, e, int64(len(a)), "BITOP", "NOT", "C", "A")
	c := naiveNot(a)
	for _, op := range ops {
		keys, vals := []string{"A", "B", "C", "nokey"}, [][]byte{a, b, c, nil}
		if op == "not" {
			keys, vals = []string{"C"}, [][]byte{c}
		}
		want := naiveBitop(op, vals)
		bmInt(t, e, int64(len(want)), append([]string{"BITOP", op, "dst"}, keys...)...)
		o := e.Lookup([]byte("dst"))
		if !o.Buf.Equal(want) {
			t.Fatalf("paged BITOP %s differs", op)
		}
		var ones int64
		for _, v := range want {
			ones += int64(bits.OnesCount8(v))
		}
		bmInt(t, e, ones, "BITCOUNT", "dst")
	}
	// NOT of NOT shares the 0xff pages of C: nearly nothing is private.
	if got := e.Lookup([]byte("C")).Buf.PagesInUse(); got > 45 {
		t.Fatalf("NOT result uses %d private pages", got)
	}
}

func naiveNot(p []byte) []byte {
	out := make([]byte, len(p))
	for i, v := range p {
		out[i] = ^v
	}
	return out
}

// naiveBitop computes a BITOP result byte by byte from the definitions of the operations (each
// one bitwise, so a byte is eight bits computed at once; fast enough for MiB values).
func naiveBitop(op string, srcs [][]byte) []byte {
	n := 0
	for _, s := range srcs {
		n = max(n, len(s))
	}
	at := func(s []byte, i int) byte {
		if i < len(s) {
			return s[i]
		}
		return 0
	}
	out := make([]byte, n)
	for i := range out {
		x := at(srcs[0], i)
		var or, once, twice byte
		acc := x
		for j, s := range srcs {
			v := at(s, i)
			twice |= once & v
			once ^= v
			if j > 0 {
				or |= v
				switch op {
				case "and":
					acc &= v
				case "or":
					acc |= v
				case "xor":
					acc ^= v
				}
			}
		}
		switch op {
		case "not":
			acc = ^x
		case "diff":
			acc = x &^ or
		case "diff1":
			acc = or &^ x
		case "andor":
			acc = x & or
		case "one":
			acc = once &^ twice
		}
		out[i] = acc
	}
	return out
}

// TestAttendanceLab reproduces the course's attendance lab (seed 000, §3.5) at full size:
// 100 000 students × 7 days, SETBIT per present student, then every BITOP the lab runs; the
// counts must equal a per-student tally. The lab's own figures came from its random data,
// except the memory of one day: 12 500 bytes grown by SETBIT report 16416 on 8.x.
func TestAttendanceLab(t *testing.T) {
	const students = 100000
	r := rand.New(rand.NewPCG(2026, 1))
	e := New(Options{Version: V88})
	var present [7][students]bool
	days := make([]string, 7)
	for d := range days {
		days[d] = fmt.Sprintf("att:d%d", d+1)
		for s := 0; s < students; s++ {
			if r.Float64() < 0.65 {
				present[d][s] = true
				bmInt(t, e, 0, "SETBIT", days[d], itoa(int64(s)), "1")
			}
		}
	}
	if m, _ := e.MemoryUsage([]byte("att:d1"), 0); m != 16416 || e.Lookup([]byte("att:d1")).Buf.Len() != 12500 {
		t.Fatalf("att:d1 MEMORY USAGE = %d, len %d", m, e.Lookup([]byte("att:d1")).Buf.Len())
	}
	count := func(f func(s int) bool) int64 {
		var n int64
		for s := 0; s < students; s++ {
			if f(s) {
				n++
			}
		}
		return n
	}
	days7 := func(f func(n int) bool) func(int) bool {
		return func(s int) bool {
			n := 0
			for d := 0; d < 7; d++ {
				n += b2i(present[d][s])
			}
			return f(n)
		}
	}
	check := func(want int64, args ...string) {
		t.Helper()
		bmInt(t, e, 12500, args...)
		bmInt(t, e, want, "BITCOUNT", args[2])
	}
	all := append([]string{"BITOP", "AND", "res"}, days...)
	check(count(days7(func(n int) bool { return n == 7 })), all...)
	all[1] = "OR"
	check(count(days7(func(n int) bool { return n > 0 })), all...)
	all[1] = "ONE"
	check(count(days7(func(n int) bool { return n == 1 })), all...)
	check(count(func(s int) bool { return present[5][s] && !present[6][s] }), "BITOP", "DIFF", "res", days[5], days[6])
	check(count(func(s int) bool { return !present[5][s] && present[6][s] }), "BITOP", "DIFF1", "res", days[5], days[6])
	all[1] = "ANDOR"
	check(count(func(s int) bool { return present[0][s] && days7(func(n int) bool { return n >= 2 })(s) }), all...)
}

// TestBitmapEvents checks the trace of SETBIT/GETBIT, the sds helpers and BITOP.
func TestBitmapEvents(t *testing.T) {
	e := New(Options{Version: V70, Trace: true})
	res := e.Exec([][]byte{[]byte("SETBIT"), []byte("k"), []byte("100"), []byte("1")})
	var sawSDS, sawKey bool
	var bit BitEvent
	for _, ev := range res.Events {
		switch ev := ev.(type) {
		case SDSEvent:
			sawSDS = ev.After.Len == 13 && ev.Cmd == "setbit"
		case KeyEvent:
			sawKey = ev.Action == "created"
		case BitEvent:
			bit = ev
		}
	}
	if !sawSDS || !sawKey {
		t.Fatalf("SETBIT events %#v", res.Events)
	}
	if bit != (BitEvent{Key: "k", Offset: 100, Byte: 12, Bit: 4, Old: 0, New: 1, Write: true}) {
		t.Fatalf("bit event %+v", bit)
	}
	res = e.Exec([][]byte{[]byte("GETBIT"), []byte("k"), []byte("100")})
	if len(res.Events) != 1 || res.Events[0] != (BitEvent{Key: "k", Offset: 100, Byte: 12, Bit: 4, Old: 1, New: 1}) {
		t.Fatalf("GETBIT events %#v", res.Events)
	}
	setString(e, "a", "\xf0\x0f")
	res = e.Exec([][]byte{[]byte("BITOP"), []byte("XOR"), []byte("d"), []byte("a"), []byte("k"), []byte("nokey")})
	var bo *BitopEvent
	for _, ev := range res.Events {
		if ev, ok := ev.(BitopEvent); ok {
			bo = &ev
		}
	}
	if bo == nil || bo.Op != "xor" || bo.ResultLen != 13 || len(bo.Inputs) != 3 ||
		!bytes.Equal(bo.Inputs[0], append([]byte{0xf0, 0x0f}, make([]byte, 11)...)) ||
		len(bo.Inputs[2]) != 13 || bo.Result[0] != 0xf0 || bo.Result[12] != 0x08 ||
		bo.SourceLens[0] != 2 || bo.SourceLens[1] != 13 || bo.SourceLens[2] != 0 {
		t.Fatalf("bitop event %+v", bo)
	}
	res = e.Exec([][]byte{[]byte("BITOP"), []byte("AND"), []byte("d"), []byte("n1")})
	if bo, ok := res.Events[0].(BitopEvent); !ok || !bo.Deleted || bo.Result == nil && bo.ResultLen != 0 {
		t.Fatalf("empty bitop events %#v", res.Events)
	}
}

// TestBitmapNoPanic throws random argument lists at every bitmap command.
func TestBitmapNoPanic(t *testing.T) {
	words := []string{"0", "1", "-1", "7", "8", "#1", "#-1", "u8", "i64", "u63", "i1", "u64", "GET", "SET",
		"INCRBY", "OVERFLOW", "SAT", "FAIL", "WRAP", "BIT", "BYTE", "AND", "NOT", "ONE", "DIFF", "k", "l",
		"4294967295", "9223372036854775807", "-9223372036854775808", "#4611686018427387904", "", "x\x00"}
	cmds := []string{"SETBIT", "GETBIT", "BITCOUNT", "BITPOS", "BITOP", "BITFIELD", "BITFIELD_RO"}
	r := rand.New(rand.NewPCG(5, 6))
	for _, v := range []Version{V70, V74, V82} {
		e := New(Options{Version: v})
		e.add([]byte("l"), &Object{Type: TypeList})
		setString(e, "k", "hello")
		for i := 0; i < 20000; i++ {
			args := []string{cmds[r.IntN(len(cmds))]}
			for n := r.IntN(9); n > 0; n-- {
				args = append(args, words[r.IntN(len(words))])
			}
			if rep := e.Do(args...); rep.IsError() && strings.Contains(rep.Str, "internal error") {
				t.Fatalf("%q: %s", args, rep.Str)
			}
			if k := e.Lookup([]byte("k")); k != nil && k.Buf.Len() > 1<<20 {
				e.Delete([]byte("k"))
			}
		}
	}
}
