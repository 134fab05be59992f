package engine

import (
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"redscope/engine/alloc"
	"redscope/engine/sds"
)

func bfDo(e *Engine, args ...string) string {
	return e.Do(append([]string{"BITFIELD"}, args...)...).FormatCLI()
}

// TestBitfieldCourseProgress is the course's u7 progress lab (seed 000, §3.6): +10 from 120 is
// 2 with WRAP (the default), 127 with SAT and nil with FAIL, which leaves 120 in place; one
// string of 7-bit cells addressed as #(student*40+lesson).
func TestBitfieldCourseProgress(t *testing.T) {
	e := New(Options{Version: V70})
	cell := "#" + strconv.Itoa(12345*40+7)
	for _, c := range []struct{ args, want string }{
		{"SET u7 " + cell + " 120", "1) (integer) 0\n"},
		{"INCRBY u7 " + cell + " 10", "1) (integer) 2\n"},
		{"SET u7 " + cell + " 120 OVERFLOW SAT INCRBY u7 " + cell + " 10", "1) (integer) 2\n2) (integer) 127\n"},
		{"SET u7 " + cell + " 120 OVERFLOW FAIL INCRBY u7 " + cell + " 10 GET u7 " + cell, "1) (integer) 127\n2) (nil)\n3) (integer) 120\n"},
		{"SET u7 " + cell + " 30", "1) (integer) 120\n"},
	} {
		if got := bfDo(e, append([]string{"prog"}, strings.Fields(c.args)...)...); got != c.want {
			t.Fatalf("BITFIELD prog %s = %q, want %q", c.args, got, c.want)
		}
	}
	if got := e.Do("BITFIELD_RO", "prog", "GET", "u7", cell).FormatCLI(); got != "1) (integer) 30\n" {
		t.Fatalf("BITFIELD_RO = %q", got)
	}
	// the string ends with the cell's last bit, (12345*40+7)*7+6, and was created exact (sdsnewlen)
	if o := e.Lookup([]byte("prog")); o.Buf.Len() != 432082 || o.SDS != sds.New(e.alloc, 432082) {
		t.Fatalf("prog len %d %+v", o.Buf.Len(), o.SDS)
	}
}

// TestBitfieldFailStillCreates: every written field is made room for before the ops run
// (Debian 7.0.15: `BITFIELD k OVERFLOW FAIL SET u2 0 7` → [nil], and k exists, 1 byte).
func TestBitfieldFailStillCreates(t *testing.T) {
	e := New(Options{Version: V70, Allocator: alloc.Jemalloc16})
	if got := bfDo(e, "k", "OVERFLOW", "FAIL", "SET", "u2", "0", "7"); got != "1) (nil)\n" {
		t.Fatalf("got %q", got)
	}
	o := e.Lookup([]byte("k"))
	if o == nil || o.Buf.Len() != 1 || o.Enc != EncRaw {
		t.Fatalf("key %+v", o)
	}
	// grows greedily to the farthest written bit, again without writing (#100 of u8 = byte 100)
	if got := bfDo(e, "k", "OVERFLOW", "FAIL", "INCRBY", "u8", "#100", "-1"); got != "1) (nil)\n" {
		t.Fatalf("got %q", got)
	}
	if o := e.Lookup([]byte("k")); o.Buf.Len() != 101 || o.SDS.Usable != 224 {
		t.Fatalf("after growth %+v", o.SDS) // 7.0.15: STRLEN 101, MEMORY USAGE 248 = 16+224+8
	}
	if m, _ := e.MemoryUsage([]byte("k"), 0); m != 16+224+8+24 {
		t.Fatalf("MEMORY USAGE %d", m)
	}
}

// naiveGet reads a w-bit field bit by bit (MSB first).
func naiveGet(p []byte, off int64, w int) uint64 {
	var v uint64
	for i := 0; i < w; i++ {
		v = v<<1 | uint64(naiveBit(p, off+int64(i)))
	}
	return v
}

func naiveSet(p []byte, off int64, w int, v uint64) {
	for i := 0; i < w; i++ {
		b := byte(v>>(w-1-i)) & 1
		o := off + int64(i)
		p[o>>3] = p[o>>3]&^(1<<(7-uint(o&7))) | b<<(7-uint(o&7))
	}
}

// randFieldType draws a BITFIELD type: signed or not, then its width (u1…u63, i1…i64).
func randFieldType(r *rand.Rand) (typ string, signed bool, w int) {
	signed = r.IntN(2) == 0
	w = 1 + r.IntN(63)
	typ = "u"
	if signed {
		w = 1 + r.IntN(64)
		typ = "i"
	}
	return typ + strconv.Itoa(w), signed, w
}

// TestBitfieldFieldsReference: random SET/GET of every width at every bit alignment against a
// bit-by-bit model of the string.
func TestBitfieldFieldsReference(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	e := New(Options{})
	model := []byte{}
	for i := 0; i < 20000; i++ {
		typ, signed, w := randFieldType(r)
		off := r.Int64N(600)
		v := int64(r.Uint64())
		if need := int((off+int64(w)-1)>>3) + 1; need > len(model) {
			model = append(model, make([]byte, need-len(model))...)
		}
		old := naiveGet(model, off, w)
		wantOld := int64(old)
		if signed && w < 64 && old>>(w-1) != 0 {
			wantOld = int64(old | ^uint64(0)<<w)
		}
		got := bfDo(e, "k", "SET", typ, itoa(off), itoa(v), "GET", typ, itoa(off))
		newv := uint64(v) & (^uint64(0) >> (64 - w))
		naiveSet(model, off, w, newv)
		wantNew := int64(newv)
		if signed && w < 64 && newv>>(w-1) != 0 {
			wantNew = int64(newv | ^uint64(0)<<w)
		}
		want := "1) (integer) " + itoa(wantOld) + "\n2) (integer) " + itoa(wantNew) + "\n"
		if got != want {
			t.Fatalf("SET %s %d %d: %q, want %q", typ, off, v, got, want)
		}
	}
	if o := e.Lookup([]byte("k")); string(o.Buf.Bytes()) != string(model) {
		t.Fatal("string differs from the model")
	}
}

// TestBitfieldIncrbyReference checks INCRBY's overflow handling against exact arithmetic for
// every width and mode (INCRBY reads an in-range value, where Redis's checks are exact).
func TestBitfieldIncrbyReference(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	e := New(Options{})
	modes := []string{"WRAP", "SAT", "FAIL"}
	edge := []int64{0, 1, -1, 1<<63 - 1, -1 << 63, 2, -2}
	for i := 0; i < 20000; i++ {
		typ, signed, w := randFieldType(r)
		var lo, hi big.Int // range of the type
		if signed {
			lo.Lsh(big.NewInt(-1), uint(w-1))
			hi.Lsh(big.NewInt(1), uint(w-1))
		} else {
			hi.Lsh(big.NewInt(1), uint(w))
		}
		hi.Sub(&hi, big.NewInt(1))
		// start from a random in-range value: w random bits, sign-extended for signed types
		u := r.Uint64() >> (64 - w)
		if r.IntN(4) == 0 {
			u = []uint64{0, 1, ^uint64(0) >> (64 - w), ^uint64(0) >> (65 - w)}[r.IntN(4)]
		}
		start := new(big.Int).SetUint64(u)
		if signed && u>>(w-1) != 0 {
			start.SetInt64(int64(u | ^uint64(0)<<(w-1)<<1))
		}
		incr := int64(r.Uint64())
		switch r.IntN(4) {
		case 0:
			incr = edge[r.IntN(len(edge))]
		case 1:
			incr = r.Int64N(64) - 32
		}
		mode := modes[r.IntN(3)]
		bfDo(e, "k", "SET", typ, "3", start.String())
		got := bfDo(e, "k", "OVERFLOW", mode, "INCRBY", typ, "3", itoa(incr), "GET", typ, "3")

		sum := new(big.Int).Add(start, big.NewInt(incr))
		res := new(big.Int).Set(sum)
		overflow := sum.Cmp(&lo) < 0 || sum.Cmp(&hi) > 0
		if overflow {
			switch mode {
			case "SAT":
				if sum.Cmp(&lo) < 0 {
					res.Set(&lo)
				} else {
					res.Set(&hi)
				}
			case "WRAP":
				mod := new(big.Int).Lsh(big.NewInt(1), uint(w))
				res.Sub(res, &lo).Mod(res, mod).Add(res, &lo)
			}
		}
		var want string
		if overflow && mode == "FAIL" {
			want = "1) (nil)\n2) (integer) " + start.String() + "\n"
		} else {
			want = "1) (integer) " + res.String() + "\n2) (integer) " + res.String() + "\n"
		}
		if got != want {
			t.Fatalf("%s: %s from %s INCRBY %d = %q, want %q", mode, typ, start, incr, got, want)
		}
	}
}

// TestBitfieldEvents checks BitfieldEvent for each op and outcome.
func TestBitfieldEvents(t *testing.T) {
	e := New(Options{Trace: true})
	res := e.Exec(mustSplit(t, `BITFIELD k SET u8 0 250 OVERFLOW SAT INCRBY u8 0 10 OVERFLOW FAIL INCRBY u8 0 1 OVERFLOW WRAP INCRBY u8 0 7 GET i8 0`))
	var got []BitfieldEvent
	for _, ev := range res.Events {
		if ev, ok := ev.(BitfieldEvent); ok {
			got = append(got, ev)
		}
	}
	want := []BitfieldEvent{
		{Key: "k", Op: "set", Bits: 8, Arg: 250, Old: 0, New: 250, Overflow: "wrap", Outcome: "ok"},
		{Key: "k", Op: "incrby", Bits: 8, Arg: 10, Old: 250, New: 255, Overflow: "sat", Outcome: "saturated"},
		{Key: "k", Op: "incrby", Bits: 8, Arg: 1, Old: 255, New: 255, Overflow: "fail", Outcome: "failed"},
		{Key: "k", Op: "incrby", Bits: 8, Arg: 7, Old: 255, New: 6, Overflow: "wrap", Outcome: "wrapped"},
		{Key: "k", Op: "get", Signed: true, Bits: 8, Old: 6, New: 6, Overflow: "wrap", Outcome: "ok"},
	}
	if len(got) != len(want) {
		t.Fatalf("events %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("event %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if r := res.Reply.FormatCLI(); r != "1) (integer) 0\n2) (integer) 255\n3) (nil)\n4) (integer) 6\n5) (integer) 6\n" {
		t.Fatalf("reply %q", r)
	}
}
