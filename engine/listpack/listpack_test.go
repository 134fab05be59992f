package listpack

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"redscope/engine/alloc"
)

func hsetModel(lp *Listpack, f, v string) {
	if p := lp.First(); p >= 0 {
		if p = lp.Find(p, []byte(f), 1); p >= 0 {
			lp.Replace(lp.Next(p), []byte(v))
			return
		}
	}
	lp.Append([]byte(f))
	lp.Append([]byte(v))
}

// Bytes taken from DUMP on redis-server 7.0.15: HSET h2 field1 100 field2 -5000 field3 hello.
func TestHashBytesFromServer(t *testing.T) {
	lp := New()
	hsetModel(lp, "field1", "100")
	hsetModel(lp, "field2", "-5000")
	hsetModel(lp, "field3", "hello")
	want := []byte("\x2c\x00\x00\x00\x06\x00\x86field1\x07\x64\x01\x86field2\x07\xf1\x78\xec\x03\x86field3\x07\x85hello\x06\xff")
	if !bytes.Equal(lp.Bytes(), want) {
		t.Fatalf("bytes\n got %q\nwant %q", lp.Bytes(), want)
	}
	if err := Validate(lp.Bytes(), true); err != nil {
		t.Fatal(err)
	}
	// MEMORY USAGE h2 = 96 on both allocators: 16 + usable(44)=48 + usable(key "h2")=8 + 24.
	for _, a := range []alloc.Allocator{alloc.Jemalloc, alloc.Jemalloc16} {
		if got := 16 + lp.Usable(a) + a.Usable(1+2+1) + 24; got != 96 {
			t.Fatalf("%v memory %d, want 96", a, got)
		}
	}
	// HSET h f v → 13-byte listpack, MEMORY USAGE 64.
	h := New()
	hsetModel(h, "f", "v")
	if h.TotalBytes() != 13 || 16+h.Usable(alloc.Jemalloc16)+8+24 != 64 {
		t.Fatalf("HSET h f v: %d bytes", h.TotalBytes())
	}
}

func TestEncodings(t *testing.T) {
	cases := []struct {
		in   string
		want string // encoding + data + backlen
		enc  Encoding
	}{
		{"0", "\x00\x01", EncUint7},
		{"127", "\x7f\x01", EncUint7},
		{"128", "\xc0\x80\x02", EncInt13},
		{"-1", "\xdf\xff\x02", EncInt13},
		{"-4096", "\xd0\x00\x02", EncInt13},
		{"4095", "\xcf\xff\x02", EncInt13},
		{"4096", "\xf1\x00\x10\x03", EncInt16},
		{"-5000", "\xf1\x78\xec\x03", EncInt16},
		{"32767", "\xf1\xff\x7f\x03", EncInt16},
		{"-32769", "\xf2\xff\x7f\xff\x04", EncInt24},
		{"8388607", "\xf2\xff\xff\x7f\x04", EncInt24},
		{"8388608", "\xf3\x00\x00\x80\x00\x05", EncInt32},
		{"-2147483648", "\xf3\x00\x00\x00\x80\x05", EncInt32},
		{"2147483648", "\xf4\x00\x00\x00\x80\x00\x00\x00\x00\x09", EncInt64},
		{"-9223372036854775808", "\xf4\x00\x00\x00\x00\x00\x00\x00\x80\x09", EncInt64},
		{"", "\x80\x01", EncStr6},
		{"hello", "\x85hello\x06", EncStr6},
		{"-0", "\x82-0\x03", EncStr6},
		{"+1", "\x82+1\x03", EncStr6},
		{"01", "\x8201\x03", EncStr6},
		{"9223372036854775808", "\x939223372036854775808\x14", EncStr6},
	}
	for _, c := range cases {
		lp := New()
		ch := lp.Append([]byte(c.in))
		got := lp.Bytes()[HeaderSize : lp.TotalBytes()-1]
		if string(got) != c.want || ch.Enc != c.enc || ch.Added != len(c.want) {
			t.Errorf("%q: got %q (%v, %d), want %q (%v)", c.in, got, ch.Enc, ch.Added, c.want, c.enc)
		}
		if EntrySize([]byte(c.in)) != len(c.want) {
			t.Errorf("%q: EntrySize %d", c.in, EntrySize([]byte(c.in)))
		}
		s := lp.GetString(lp.First(), nil)
		if string(s) != c.in {
			t.Errorf("%q: read back %q", c.in, s)
		}
	}
}

func TestStringLengthClassesAndBacklen(t *testing.T) {
	// len → entry size: 6-bit up to 63, 12-bit from 64 (backlen 2 once 2+len > 127), 32-bit ≥ 4096.
	for _, c := range []struct{ n, size int }{
		{63, 65}, {64, 67}, {125, 128}, {126, 130}, {4095, 4099}, {4096, 4103},
		{16377, 16384}, {16378, 16386}, // L = 16382 → 2-byte backlen, L = 16383 → 3 bytes
	} {
		s := bytes.Repeat([]byte{'x'}, c.n)
		if got := EntrySize(s); got != c.size {
			t.Errorf("len %d: entry %d, want %d", c.n, got, c.size)
		}
		lp := New()
		lp.Append(s)
		lp.Append([]byte("tail"))
		if err := Validate(lp.Bytes(), true); err != nil {
			t.Fatalf("len %d: %v", c.n, err)
		}
		if p := lp.Prev(lp.Last()); p != HeaderSize {
			t.Fatalf("len %d: Prev gave %d", c.n, p)
		}
	}
	// docs/internals.md §Listpack: L = 200 → backlen bytes 01 C8.
	buf := make([]byte, 2)
	putBacklen(buf, 200)
	if buf[0] != 0x01 || buf[1] != 0xC8 {
		t.Fatalf("backlen(200) = % x", buf)
	}
	for _, c := range []struct{ l, n int }{{127, 1}, {128, 2}, {16382, 2}, {16383, 3},
		{2097150, 3}, {2097151, 4}, {268435454, 4}, {268435455, 5}} {
		if BacklenSize(c.l) != c.n {
			t.Errorf("BacklenSize(%d) = %d, want %d", c.l, BacklenSize(c.l), c.n)
		}
	}
}

func TestStringToInt64(t *testing.T) {
	ok := []string{"0", "-1", "9223372036854775807", "-9223372036854775808", "12345678901234567"}
	bad := []string{"", "-", "-0", "00", "01", "+1", " 1", "1 ", "1a", "9223372036854775808",
		"-9223372036854775809", "18446744073709551616", "99999999999999999999", "1.0"}
	for _, s := range ok {
		v, k := StringToInt64([]byte(s))
		if !k || strconv.FormatInt(v, 10) != s {
			t.Errorf("%q rejected", s)
		}
	}
	for _, s := range bad {
		if _, k := StringToInt64([]byte(s)); k {
			t.Errorf("%q accepted", s)
		}
	}
}

func TestInsertDeleteReplaceChanges(t *testing.T) {
	lp := New()
	if lp.TotalBytes() != 7 || lp.Usable(alloc.Jemalloc) != 8 {
		t.Fatal("empty listpack")
	}
	ch := lp.Append([]byte("a"))
	if ch.Offset != 6 || ch.Added != 3 || ch.Moved != 1 || ch.NewTotal != 10 || !ch.Realloc {
		t.Fatalf("append: %+v", ch)
	}
	lp.Append([]byte("c"))
	p, ch := lp.Insert(lp.Last(), []byte("b"), Before)
	if p != 9 || ch.Moved != 4 || ch.NewTotal != 16 {
		t.Fatalf("insert: p=%d %+v", p, ch)
	}
	// 16 bytes: under the 8-byte quantum a 16-byte allocation has no room; growing to 18 reallocs.
	p, ch = lp.Insert(p, []byte("1000"), After) // 13-bit int: 3 bytes
	if p != 12 || ch.Added != 3 || ch.Moved != 4 || ch.NewTotal != 19 || !ch.Realloc {
		t.Fatalf("insert after: p=%d %+v", p, ch)
	}
	if got := dump(lp); got != "a b 1000 c" {
		t.Fatalf("content %q", got)
	}
	p, ch = lp.Replace(p, []byte("xyz"))
	if p != 12 || ch.Kind != KindReplace || ch.Added != 5 || ch.Removed != 3 || ch.Moved != 4 || ch.NewTotal != 21 {
		t.Fatalf("replace: %+v", ch)
	}
	next, ch := lp.Delete(9)
	if next != 9 || ch.Removed != 3 || ch.Moved != 9 || ch.NewTotal != 18 || !ch.Realloc {
		t.Fatalf("delete: next=%d %+v", next, ch)
	}
	if got := dump(lp); got != "a xyz c" || lp.Len() != 3 {
		t.Fatalf("content %q", got)
	}
	// Delete the last entry: next is -1.
	if next, _ := lp.Delete(lp.Last()); next != -1 {
		t.Fatal("delete last")
	}
	if err := Validate(lp.Bytes(), true); err != nil {
		t.Fatal(err)
	}
}

func TestSeekFindDeleteRange(t *testing.T) {
	lp := New()
	for i := 0; i < 10; i++ {
		lp.Append([]byte("k" + strconv.Itoa(i)))
		lp.AppendInt(int64(i * 1000))
	}
	if s := lp.GetString(lp.Seek(-1), nil); string(s) != "9000" {
		t.Fatalf("seek -1: %s", s)
	}
	if s := lp.GetString(lp.Seek(3), nil); string(s) != "1000" {
		t.Fatalf("seek 3: %s", s)
	}
	if lp.Seek(20) != -1 || lp.Seek(-21) != -1 {
		t.Fatal("seek out of range")
	}
	// Find with skip 1 only looks at fields: "3000" is a value, never a field.
	if lp.Find(lp.First(), []byte("3000"), 1) != -1 {
		t.Fatal("found a value as a field")
	}
	p := lp.Find(lp.First(), []byte("k7"), 1)
	if p < 0 || string(lp.GetString(lp.Next(p), nil)) != "7000" {
		t.Fatal("find k7")
	}
	// Integer match: searching "2000" from the first value with skip 1.
	if p := lp.Find(lp.Seek(1), []byte("2000"), 1); p != lp.Seek(5) {
		t.Fatal("find int")
	}
	if lp.Find(lp.Seek(1), []byte("02000"), 1) != -1 {
		t.Fatal("non-canonical int matched")
	}
	ch := lp.DeleteRange(2, 4) // k1 1000 k2 2000
	if ch.Kind != KindDeleteRange || ch.Entries != 4 || lp.Len() != 16 {
		t.Fatalf("delete range %+v", ch)
	}
	ch = lp.DeleteRange(-4, 100) // truncates k8 8000 k9 9000
	if ch.Kind != KindTruncate || ch.Moved != 0 || lp.Len() != 12 {
		t.Fatalf("truncate %+v", ch)
	}
	if got := dump(lp); got != "k0 0 k3 3000 k4 4000 k5 5000 k6 6000 k7 7000" {
		t.Fatalf("content %q", got)
	}
	if err := Validate(lp.Bytes(), true); err != nil {
		t.Fatal(err)
	}
	// HDEL-style pair delete.
	p = lp.Find(lp.First(), []byte("k4"), 1)
	if next, ch := lp.DeleteRangeAt(p, 2); next != p || ch.Entries != 2 {
		t.Fatal("pair delete")
	}
	if got := dump(lp); got != "k0 0 k3 3000 k5 5000 k6 6000 k7 7000" {
		t.Fatalf("content %q", got)
	}
}

func TestMerge(t *testing.T) {
	a, b := New(), New()
	for i := 0; i < 5; i++ {
		a.Append([]byte("a" + strconv.Itoa(i)))
	}
	for i := 0; i < 3; i++ {
		b.AppendInt(int64(i))
	}
	m, keptFirst, _ := Merge(a, b)
	if !keptFirst || dump(m) != "a0 a1 a2 a3 a4 0 1 2" || Validate(m.Bytes(), true) != nil {
		t.Fatal("merge append")
	}
	a, b = New(), New()
	a.AppendInt(1)
	b.Append([]byte("longer-string"))
	m, keptFirst, _ = Merge(a, b)
	if keptFirst || dump(m) != "1 longer-string" || Validate(m.Bytes(), true) != nil {
		t.Fatal("merge prepend")
	}
}

func TestUnknownCount(t *testing.T) {
	lp := New()
	for i := 0; i < 65536; i++ {
		lp.AppendInt(int64(i % 100))
	}
	if lp.HeaderCount() != NumUnknown || lp.Len() != 65536 || lp.Seek(-1) < 0 {
		t.Fatal("unknown count")
	}
	lp.DeleteRange(0, 2)
	if lp.HeaderCount() != NumUnknown || lp.Len() != 65534 || lp.HeaderCount() != 65534 {
		t.Fatal("count restored by lpLength")
	}
}

func TestValidateRejects(t *testing.T) {
	good := New()
	good.Append([]byte("hello"))
	good.AppendInt(300)
	b := good.Bytes()
	if Validate(b, true) != nil {
		t.Fatal("good rejected")
	}
	mut := func(f func(c []byte) []byte) []byte { c := append([]byte(nil), b...); return f(c) }
	bad := [][]byte{
		nil, {7, 0, 0, 0, 0, 0}, mut(func(c []byte) []byte { c[0]++; return c }),
		mut(func(c []byte) []byte { c[len(c)-1] = 0; return c }),
		mut(func(c []byte) []byte { c[4] = 5; return c }),         // wrong count
		mut(func(c []byte) []byte { c[6] = 0xF7; return c }),      // bad encoding
		mut(func(c []byte) []byte { c[12] = 9; return c }),        // wrong backlen
		mut(func(c []byte) []byte { c[6] = 0x80 | 40; return c }), // string runs past the end
	}
	for i, c := range bad {
		if Validate(c, true) == nil {
			t.Errorf("case %d accepted", i)
		}
		if _, err := FromBytes(c); err == nil {
			t.Errorf("case %d: FromBytes accepted", i)
		}
	}
}

// Bad positions never panic (a position inside an entry may corrupt the listpack — like a stray
// pointer in Redis — but out-of-range ones are refused).
func TestBadPositions(t *testing.T) {
	lp := New()
	lp.Append([]byte("x"))
	for _, p := range []int{-5, -1, 0, 3, 9, 100, math.MaxInt} {
		lp.Next(p)
		lp.Prev(p)
		lp.Get(p)
		lp.Insert(p, []byte("y"), After)
		lp.Replace(p, []byte("y"))
		lp.Delete(p)
		lp.DeleteRangeAt(p, 3)
		lp.Find(p, []byte("x"), 0)
	}
	if dump(lp) != "x" {
		t.Fatal("bad positions changed the listpack")
	}
}

// Random operations against a [][]byte model; checks content, validity and the memory model.
func TestRandomAgainstModel(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 200; round++ {
		lp := New()
		var model []string
		for op := 0; op < 200; op++ {
			v := randValue(r)
			switch k := r.IntN(6); {
			case k == 0 || len(model) == 0:
				lp.Append([]byte(v))
				model = append(model, v)
			case k == 1:
				lp.Prepend([]byte(v))
				model = append([]string{v}, model...)
			case k == 2:
				i := r.IntN(len(model))
				_, ch := lp.Insert(lp.Seek(i), []byte(v), After)
				if ch.Failed {
					t.Fatal("insert failed")
				}
				model = append(model[:i+1], append([]string{v}, model[i+1:]...)...)
			case k == 3:
				i := r.IntN(len(model))
				lp.Replace(lp.Seek(i-len(model)), []byte(v))
				model[i] = v
			case k == 4:
				i := r.IntN(len(model))
				lp.Delete(lp.Seek(i))
				model = append(model[:i], model[i+1:]...)
			default:
				i, n := r.IntN(len(model)), r.IntN(4)
				lp.DeleteRange(i, n)
				model = append(model[:i], model[min(i+n, len(model)):]...)
			}
		}
		if err := Validate(lp.Bytes(), true); err != nil {
			t.Fatal(err)
		}
		want := New()
		for _, m := range model {
			want.Append([]byte(m))
		}
		if !bytes.Equal(lp.Bytes(), want.Bytes()) {
			t.Fatalf("round %d: bytes differ from a fresh build", round)
		}
		// Allocation is always exactly the total after these operations.
		for _, a := range []alloc.Allocator{alloc.Jemalloc, alloc.Jemalloc16} {
			if lp.Usable(a) != a.Usable(lp.TotalBytes()) {
				t.Fatalf("usable %d for %d bytes", lp.Usable(a), lp.TotalBytes())
			}
		}
		// Walk backwards.
		i := len(model) - 1
		for p := lp.Last(); p >= 0; p = lp.Prev(p) {
			if string(lp.GetString(p, nil)) != model[i] {
				t.Fatalf("backward walk at %d", i)
			}
			i--
		}
		if i != -1 {
			t.Fatal("backward walk length")
		}
	}
}

func TestCapacityHint(t *testing.T) {
	lp := NewCap(100)
	lp.Append([]byte("abc"))
	if lp.Usable(alloc.Jemalloc) != 112 { // class(100)
		t.Fatalf("usable %d", lp.Usable(alloc.Jemalloc))
	}
	lp.ShrinkToFit()
	if lp.Usable(alloc.Jemalloc) != 16 {
		t.Fatalf("after shrink %d", lp.Usable(alloc.Jemalloc))
	}
}

func randValue(r *rand.Rand) string {
	switch r.IntN(8) {
	case 0:
		return strconv.Itoa(r.IntN(128))
	case 1:
		return strconv.Itoa(r.IntN(8192) - 4096)
	case 2:
		return strconv.FormatInt(r.Int64N(1<<33)-(1<<32), 10)
	case 3:
		return strconv.FormatInt(int64(r.Uint64()), 10)
	case 4:
		return string(bytes.Repeat([]byte{'a' + byte(r.IntN(26))}, r.IntN(64)))
	case 5:
		return string(bytes.Repeat([]byte{'b'}, 64+r.IntN(200)))
	case 6:
		if r.IntN(20) == 0 {
			return string(bytes.Repeat([]byte{'c'}, 4096+r.IntN(100)))
		}
		return "0" + strconv.Itoa(r.IntN(100))
	}
	return []string{"-0", "+5", "", " 1", "1e3", "9223372036854775808"}[r.IntN(6)]
}

func dump(lp *Listpack) string {
	var out []byte
	for p := lp.First(); p >= 0; p = lp.Next(p) {
		if len(out) > 0 {
			out = append(out, ' ')
		}
		out = append(out, lp.GetString(p, nil)...)
	}
	return string(out)
}

func benchFields(n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = []byte("field:" + strconv.Itoa(i))
	}
	return out
}

func benchAppend(b *testing.B, n int) {
	fields := benchFields(n)
	b.ReportAllocs()
	for b.Loop() {
		lp := New()
		for _, f := range fields {
			lp.Append(f)
		}
	}
}

func benchFind(b *testing.B, n int) {
	fields := benchFields(n)
	lp := New()
	for _, f := range fields {
		lp.Append(f)
		lp.Append([]byte("value"))
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if lp.Find(lp.First(), fields[i%n], 1) < 0 {
			b.Fatal("not found")
		}
		i++
	}
}

func BenchmarkAppend128(b *testing.B) { benchAppend(b, 128) }
func BenchmarkAppend512(b *testing.B) { benchAppend(b, 512) }
func BenchmarkFind128(b *testing.B)   { benchFind(b, 128) }
func BenchmarkFind512(b *testing.B)   { benchFind(b, 512) }

// Every position, including ones inside entries, on fresh copies: no panic, ever.
func TestNoPanicAnyPosition(t *testing.T) {
	base := New()
	for _, v := range []string{"a", "300", strings.Repeat("q", 70), "-5000", strings.Repeat("w", 5000), "9"} {
		base.Append([]byte(v))
	}
	for p := -2; p < base.TotalBytes()+2; p++ {
		for op := 0; op < 8; op++ {
			lp := base.Clone()
			switch op {
			case 0:
				lp.Insert(p, []byte("zz"), After)
			case 1:
				lp.Insert(p, []byte("12"), Before)
			case 2:
				lp.Replace(p, []byte(strings.Repeat("r", 100)))
			case 3:
				lp.Delete(p)
			case 4:
				lp.DeleteRangeAt(p, 3)
			case 5:
				lp.Find(p, []byte("9"), 1)
			case 6:
				lp.Prev(p)
				lp.Next(p)
				lp.GetString(p, nil)
			case 7:
				lp.Compare(p, []byte("a"))
			}
			// Whatever happened, walking it must not panic either.
			for q := lp.First(); q >= 0; q = lp.Next(q) {
				lp.Get(q)
			}
			lp.Len()
			Validate(lp.Bytes(), true)
		}
	}
}
