package hll

import (
	"bufio"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
)

// ---- the readers against redis-server 7.0.15 ----

// redisBlock is one "> label" block of testdata/redis-7.0.15.txt (recorded by record.sh).
type redisBlock struct{ label, out string }

func readRedisFixture(t *testing.T) []redisBlock {
	t.Helper()
	f, err := os.Open("testdata/redis-7.0.15.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var blocks []redisBlock
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "> "):
			blocks = append(blocks, redisBlock{label: line[2:]})
		case len(blocks) > 0:
			b := &blocks[len(blocks)-1]
			if b.out != "" {
				b.out += "\n"
			}
			b.out += line
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return blocks
}

// redisOut is the output of the nth (0-based) block labelled label.
func redisOut(t *testing.T, blocks []redisBlock, label string, nth int) string {
	t.Helper()
	for _, b := range blocks {
		if b.label == label {
			if nth == 0 {
				return b.out
			}
			nth--
		}
	}
	t.Fatalf("no block %q in the fixture", label)
	return ""
}

// redisBulk unquotes a redis-cli --no-raw bulk reply ("HYLL\x01…": sdscatrepr's escapes are
// a subset of Go's).
func redisBulk(t *testing.T, out string) []byte {
	t.Helper()
	s, err := strconv.Unquote(out)
	if err != nil {
		t.Fatalf("%.60s…: %v", out, err)
	}
	return []byte(s)
}

// redisRegs parses a PFDEBUG GETREG line (16 384 numbers).
func redisRegs(t *testing.T, out string) []int {
	t.Helper()
	f := strings.Fields(out)
	if len(f) != Registers {
		t.Fatalf("GETREG: %d values", len(f))
	}
	r := make([]int, len(f))
	for i, s := range f {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatal(err)
		}
		r[i] = n
	}
	return r
}

// encode is this package's encoder as PFADD drives it: each element through SparseSet (with
// hll-sparse-max-bytes maxBytes) and, once promoted, DenseSet; a change invalidates the cache.
func encode(elems []string, maxBytes int64) []byte {
	b := NewSparse()
	for _, e := range elems {
		index, count, _ := PatLen([]byte(e))
		if IsSparse(b) {
			nb, _, res := SparseSet(b, index, count, maxBytes)
			if res != Promote {
				b = nb
				continue
			}
			b, _ = SparseToDense(b)
		}
		if _, upd := DenseSet(b, index, count); upd {
			Invalidate(b)
		}
	}
	return b
}

func seq(n int) []string {
	s := make([]string, n)
	for i := range s {
		s[i] = strconv.Itoa(i + 1)
	}
	return s
}

// opsText walks b with Ops and prints the opcodes as PFDEBUG DECODE does; it also checks that
// the opcodes lie end to end from byte 16 and register 0 and that the walk is complete.
func opsText(t *testing.T, b []byte) string {
	t.Helper()
	var parts []string
	off, first := HdrSize, 0
	it := Ops(b)
	for it.Next() {
		op := it.Op()
		if op.Off != off || op.First != first {
			t.Fatalf("op %v at byte %d register %d, want byte %d register %d", op, op.Off, op.First, off, first)
		}
		off += op.Len()
		first += op.Run
		parts = append(parts, op.String())
	}
	if !it.Complete() || off != len(b) || first != Registers {
		t.Fatalf("walk ends at byte %d of %d, register %d (complete %v)", off, len(b), first, it.Complete())
	}
	return strings.Join(parts, " ")
}

// TestHLLReadersAgainstRedis: strings GET returned from redis-server 7.0.15 after PFADDs
// (testdata/redis-7.0.15.txt). For each: this package's encoder, fed the same elements, builds
// the same bytes; Ops walks the sparse ones into exactly the opcodes the server's PFDEBUG DECODE
// printed; Decode and DenseRegisters give the registers PFDEBUG GETREG listed (register by
// register for the dense one through DenseRegister too); Recognise names the encoding PFDEBUG
// ENCODING gave; CachedCard reads a stale cache after PFADD and PFCOUNT's answer after it.
func TestHLLReadersAgainstRedis(t *testing.T) {
	blocks := readRedisFixture(t)
	cases := []struct {
		key   string
		elems []string
	}{{"h1", []string{"a", "b", "c"}}, {"h2", seq(300)}, {"h3", seq(1500)}}
	for _, c := range cases {
		b := redisBulk(t, redisOut(t, blocks, "GET "+c.key, 0))
		if got := Recognise(b); got != "sparse" {
			t.Fatalf("%s: Recognise %q", c.key, got)
		}
		if own := encode(c.elems, 3000); string(own) != string(b) {
			t.Fatalf("%s: the encoder's %d bytes differ from redis-server's %d", c.key, len(own), len(b))
		}
		decode := redisBulk(t, redisOut(t, blocks, "PFDEBUG DECODE "+c.key, 0))
		if got := opsText(t, b); got != string(decode) {
			t.Fatalf("%s: Ops\n %.200s\nPFDEBUG DECODE\n %.200s", c.key, got, decode)
		}
		if card, valid := CachedCard(b); valid || card != 0 {
			t.Fatalf("%s after PFADD: cache %d valid %v", c.key, card, valid)
		}
	}
	// h1 after PFCOUNT h1: the cache holds its answer.
	count := redisOut(t, blocks, "PFCOUNT h1", 0)
	b := redisBulk(t, redisOut(t, blocks, "GET h1", 1))
	if card, valid := CachedCard(b); !valid || "(integer) "+strconv.FormatUint(card, 10) != count {
		t.Fatalf("h1 after PFCOUNT (%s): cache %d valid %v", count, card, valid)
	}

	// h2's registers: decoded from its sparse bytes, as GETREG listed them.
	var regs [Registers]uint8
	b = redisBulk(t, redisOut(t, blocks, "GET h2", 0))
	if !Decode(b, &regs) {
		t.Fatal("h2 not decoded")
	}
	want := redisRegs(t, redisOut(t, blocks, "PFDEBUG GETREG h2", 0))
	nonzero := 0
	for i, w := range want {
		if int(regs[i]) != w {
			t.Fatalf("h2 register %d: %d, GETREG %d", i, regs[i], w)
		}
		if w != 0 {
			nonzero++
		}
	}
	if nonzero < 250 || redisOut(t, blocks, "PFDEBUG ENCODING h2", 0) != "dense" {
		t.Fatalf("h2: %d registers set", nonzero)
	}

	// d: 20 000 elements, dense.
	b = redisBulk(t, redisOut(t, blocks, "GET d", 0))
	if got, enc := Recognise(b), redisOut(t, blocks, "PFDEBUG ENCODING d", 0); got != enc || got != "dense" || len(b) != DenseSize {
		t.Fatalf("d: Recognise %q, server %q, %d bytes", got, enc, len(b))
	}
	if own := encode(seq(20000), 3000); string(own) != string(b) {
		t.Fatal("d: the encoder's bytes differ from redis-server's")
	}
	want = redisRegs(t, redisOut(t, blocks, "PFDEBUG GETREG d", 0))
	clear(regs[:])
	if !DenseRegisters(b, &regs) {
		t.Fatal("d: DenseRegisters refused it")
	}
	var all [Registers]uint8
	if !Decode(b, &all) || all != regs {
		t.Fatal("d: Decode differs from DenseRegisters")
	}
	var h [64]int
	for i, w := range want {
		v, ok := DenseRegister(b, i)
		if !ok || v != w || int(regs[i]) != w {
			t.Fatalf("d register %d: DenseRegister %d %v, DenseRegisters %d, GETREG %d", i, v, ok, regs[i], w)
		}
		h[w]++
	}
	if h[0] == Registers || h[0] == 0 {
		t.Fatalf("d: %d zero registers", h[0])
	}
	if got := "(integer) " + strconv.FormatUint(Estimate(&h), 10); got != redisOut(t, blocks, "PFCOUNT d", 0) {
		t.Fatalf("d: estimate from GETREG's registers %s, PFCOUNT %s", got, redisOut(t, blocks, "PFCOUNT d", 0))
	}
}

// ---- the readers against the encoder ----

// TestHLLOpsAgainstEncoder: after random SparseSet updates (spread out, or crowded onto a few
// hundred registers for VAL splits and merges), Ops walks opcodes that lie end to end, print as
// AppendDecode does, have the kind their first byte says and rebuild the model's registers;
// Decode gives the same registers, and so does DenseRegisters after SparseToDense.
func TestHLLOpsAgainstEncoder(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	kinds := [3]int{}
	for round := 0; round < 40; round++ {
		b := NewSparse()
		var model [Registers]uint8
		span := Registers
		if round%2 == 0 {
			span = 64 + rng.IntN(400)
		}
		for k := 0; k < 300; k++ {
			i, v := rng.IntN(span), 1+rng.IntN(SparseValMaxValue)
			nb, _, res := SparseSet(b, i, v, 1<<20)
			if res == Updated {
				model[i] = uint8(v)
			}
			b = nb
		}
		if got, want := opsText(t, b), string(AppendDecode(nil, b)); got != want {
			t.Fatalf("round %d: Ops %q, AppendDecode %q", round, got, want)
		}
		var regs [Registers]uint8
		it := Ops(b)
		for it.Next() {
			op := it.Op()
			c := b[op.Off]
			switch {
			case op.Kind == OpXZero && isXZero(c), op.Kind == OpZero && isZero(c):
				if op.Val != 0 {
					t.Fatalf("zero run %v with a value", op)
				}
			case op.Kind == OpVal && isVal(c):
				for k := op.First; k < op.First+op.Run; k++ {
					regs[k] = uint8(op.Val)
				}
			default:
				t.Fatalf("op %v over byte %#x", op, c)
			}
			kinds[op.Kind]++
		}
		if regs != model {
			t.Fatalf("round %d: registers from Ops differ from the model", round)
		}
		var dec, den [Registers]uint8
		d, _ := SparseToDense(b)
		if !Decode(b, &dec) || dec != model || !DenseRegisters(d, &den) || den != model {
			t.Fatalf("round %d: Decode / DenseRegisters differ from the model", round)
		}
	}
	if kinds[OpZero] == 0 || kinds[OpXZero] == 0 || kinds[OpVal] == 0 {
		t.Fatalf("kinds seen %v", kinds)
	}
}

// TestHLLOpsCorrupt: a walk stops before a cut XZERO, a run past register 16383 and anything after
// the last register, and Complete says the string is not valid; a short sum is not valid either.
func TestHLLOpsCorrupt(t *testing.T) {
	hdr := string(NewSparse()[:HdrSize])
	walk := func(body string) (ops []string, complete bool) {
		it := Ops([]byte(hdr + body))
		for it.Next() {
			ops = append(ops, it.Op().String())
		}
		return ops, it.Complete()
	}
	cases := []struct {
		name, body string
		ops        string
		complete   bool
	}{
		{"empty", "\x7f\xff", "Z:16384", true},
		{"no opcodes", "", "", false},
		{"cut XZERO", "\x80\x7f", "v:1,1", false},
		{"short", "\x40\x00\x81", "Z:1 v:1,2", false},
		{"past the end", "\x7f\xfe\x83", "Z:16383", false},
		{"after the end", "\x7f\xff\x00", "Z:16384", false},
		{"exact with ZERO and VAL", "\x7f\xfb\x03", "Z:16380 z:4", true},
	}
	for _, c := range cases {
		ops, complete := walk(c.body)
		if strings.Join(ops, " ") != c.ops || complete != c.complete {
			t.Errorf("%s: ops %q complete %v, want %q %v", c.name, ops, complete, c.ops, c.complete)
		}
		var regs [Registers]uint8
		if Decode([]byte(hdr+c.body), &regs) != c.complete {
			t.Errorf("%s: Decode disagrees with Complete", c.name)
		}
	}
	// Random bytes never panic and never yield a run past the last register.
	rng := rand.New(rand.NewPCG(9, 10))
	for k := 0; k < 5000; k++ {
		b := []byte(hdr)
		for n := rng.IntN(20); n > 0; n-- {
			b = append(b, byte(rng.IntN(256)))
		}
		it := Ops(b)
		for it.Next() {
			if op := it.Op(); op.First+op.Run > Registers || op.Off+op.Len() > len(b) {
				t.Fatalf("op %v outside %q", op, b)
			}
		}
		it.Complete()
	}
}

// TestHLLDenseRegistersAgainstDenseSet: registers written with DenseSet (every bit position of the
// 3-byte / 4-register packing) read back through DenseRegister and DenseRegisters; a string of
// the wrong length or encoding, or an index out of range, is refused.
func TestHLLDenseRegistersAgainstDenseSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	b := make([]byte, DenseSize)
	copy(b, "HYLL")
	var want [Registers]uint8
	for i := range want {
		want[i] = uint8(rng.IntN(RegMax + 1))
		DenseSet(b, i, int(want[i]))
	}
	var got [Registers]uint8
	if !DenseRegisters(b, &got) || got != want {
		t.Fatal("DenseRegisters differs from what DenseSet wrote")
	}
	for i := range want {
		if v, ok := DenseRegister(b, i); !ok || v != int(want[i]) {
			t.Fatalf("register %d: %d %v, want %d", i, v, ok, want[i])
		}
	}
	for _, i := range []int{-1, Registers} {
		if _, ok := DenseRegister(b, i); ok {
			t.Errorf("register %d accepted", i)
		}
	}
	for name, bad := range map[string][]byte{
		"short":  b[:DenseSize-1],
		"long":   append(append([]byte(nil), b...), 0),
		"sparse": NewSparse(),
		"magic":  append([]byte("HYLX"), b[4:]...),
	} {
		var regs [Registers]uint8
		if DenseRegisters(bad, &regs) || regs != [Registers]uint8{} {
			t.Errorf("%s: DenseRegisters accepted it or wrote registers", name)
		}
		if _, ok := DenseRegister(bad, 0); ok {
			t.Errorf("%s: DenseRegister accepted it", name)
		}
	}
}

// TestHLLRecogniseAndCachedCard: the header checks and the cache field.
func TestHLLRecogniseAndCachedCard(t *testing.T) {
	for in, want := range map[string]string{
		string(NewSparse()):                       "sparse",
		string(NewSparse()[:HdrSize]):             "sparse", // the header alone is enough
		"HYLL\x00" + strings.Repeat("\x00", 11):   "dense",
		"HYLL\x02" + strings.Repeat("\x00", 11):   "", // unknown encoding
		"HYLX\x01" + strings.Repeat("\x00", 13):   "",
		string(NewSparse()[:HdrSize-1]):           "", // shorter than the header
		"":                                        "",
		"hyll\x01" + strings.Repeat("\x00", 13):   "", // the magic is case sensitive
		"HYLL\x01" + strings.Repeat("\xff", 1000): "sparse",
	} {
		if got := Recognise([]byte(in)); got != want {
			t.Errorf("Recognise(%.20q) = %q, want %q", in, got, want)
		}
	}
	b := NewSparse()
	if card, valid := CachedCard(b); card != 0 || !valid {
		t.Fatalf("new HLL: %d %v", card, valid)
	}
	SetCache(b, 1<<40+12345)
	if card, valid := CachedCard(b); card != 1<<40+12345 || !valid {
		t.Fatalf("after SetCache: %d %v", card, valid)
	}
	Invalidate(b)
	if card, valid := CachedCard(b); card != 1<<40+12345 || valid {
		t.Fatalf("after Invalidate: %d %v", card, valid)
	}
	if _, valid := CachedCard(b[:HdrSize-1]); valid {
		t.Fatal("short header read")
	}
}
