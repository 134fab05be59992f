package hll

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// registers decodes any valid HLL into 16 384 values (through SparseToDense for sparse).
func registers(t *testing.T, b []byte) []int {
	t.Helper()
	d := b
	if IsSparse(b) {
		var ok bool
		if d, ok = SparseToDense(b); !ok {
			t.Fatal("corrupt sparse")
		}
	}
	r := make([]int, Registers)
	for i := range r {
		r[i] = DenseGet(d, i)
	}
	return r
}

// TestSparseSetModel: random sparse updates agree with a plain register array, the opcodes stay
// canonical enough to cover exactly 16 384 registers, and histogram, merge and dense conversion
// all see the same registers.
func TestSparseSetModel(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for round := 0; round < 30; round++ {
		b := NewSparse()
		model := make([]int, Registers)
		span := Registers
		if round%3 == 0 {
			span = 64 + rng.IntN(300) // crowd a few registers to exercise VAL splits and merges
		}
		for k := 0; k < 400; k++ {
			i, v := rng.IntN(span), 1+rng.IntN(SparseValMaxValue)
			nb, old, res := SparseSet(b, i, v, 1<<20)
			if old != model[i] {
				t.Fatalf("round %d: old %d, model %d", round, old, model[i])
			}
			switch {
			case v > model[i]:
				if res != Updated {
					t.Fatalf("res %d want Updated", res)
				}
				model[i] = v
			default:
				if res != Unchanged {
					t.Fatalf("res %d want Unchanged", res)
				}
			}
			b = nb
		}
		got := registers(t, b)
		for i := range got {
			if got[i] != model[i] {
				t.Fatalf("round %d: register %d = %d, model %d (%s)", round, i, got[i], model[i], AppendDecode(nil, b))
			}
		}
		// No two adjacent VAL opcodes with the same value and room to merge survive an update's
		// neighbourhood often; at least the encoding must be no longer than one byte per register run.
		var h1, h2 [64]int
		if !SparseHisto(b, &h1) {
			t.Fatal("histogram: not 16384 registers")
		}
		d, _ := SparseToDense(b)
		DenseHisto(d, &h2)
		if h1 != h2 {
			t.Fatal("sparse and dense histograms differ")
		}
		var m1, m2 [Registers]uint8
		if !Merge(&m1, b) || !Merge(&m2, d) || m1 != m2 {
			t.Fatal("merge differs")
		}
		if Estimate(&h1) != func() uint64 { var h [64]int; RawHisto(&m1, &h); return Estimate(&h) }() {
			t.Fatal("raw estimate differs")
		}
	}
}

func TestSparseLimitsAndPromotion(t *testing.T) {
	b := NewSparse()
	if _, _, res := SparseSet(b, 5, 33, 3000); res != Promote {
		t.Fatalf("value 33: %d", res)
	}
	// XZERO:16384 split in the middle needs 5 bytes instead of 2: 21 bytes > 20.
	if _, _, res := SparseSet(b, 100, 1, 20); res != Promote {
		t.Fatalf("limit: %d", res)
	}
	nb, _, res := SparseSet(b, 100, 1, 21)
	if res != Updated || string(AppendDecode(nil, nb)) != "Z:100 v:1,1 Z:16283" || len(nb) != 21 {
		t.Fatalf("%d %s", res, AppendDecode(nil, nb))
	}
	// Neighbours with the same value merge: v:1,1 v:1,1 → v:1,2.
	nb, _, _ = SparseSet(nb, 101, 1, 3000)
	if got := string(AppendDecode(nil, nb)); got != "Z:100 v:1,2 Z:16282" {
		t.Fatal(got)
	}
	// Raising one register of a VAL run splits it.
	nb, _, _ = SparseSet(nb, 100, 3, 3000)
	if got := string(AppendDecode(nil, nb)); got != "Z:100 v:3,1 v:1,1 Z:16282" {
		t.Fatal(got)
	}
	// Short zero runs use ZERO, long ones XZERO.
	nb, _, _ = SparseSet(nb, 164, 2, 3000)
	if got := string(AppendDecode(nil, nb)); got != "Z:100 v:3,1 v:1,1 z:62 v:2,1 Z:16219" {
		t.Fatal(got)
	}
	if !CacheValid(NewSparse()) || CacheValid(nb) {
		t.Fatal("cache bit")
	}
}

func TestDenseRoundTrip(t *testing.T) {
	b := make([]byte, DenseSize)
	copy(b, "HYLL")
	for i := 0; i < Registers; i++ {
		DenseSet(b, i, (i*7)%64)
	}
	for i := 0; i < Registers; i++ {
		if got := DenseGet(b, i); got != (i*7)%64 {
			t.Fatalf("register %d = %d", i, got)
		}
	}
	if _, upd := DenseSet(b, 3, 2); upd {
		t.Fatal("lowering a register")
	}
}

func TestEstimateVectors(t *testing.T) {
	var h [64]int
	h[0] = Registers
	if e := Estimate(&h); e != 0 {
		t.Fatalf("empty: %d", e)
	}
	// "1".."n" into a dense HLL (docs/internals.md §HyperLogLog, run on 7.0.15).
	b := make([]byte, DenseSize)
	copy(b, "HYLL")
	want := map[int]uint64{1: 1, 7: 7, 100: 100, 1000: 1001, 10000: 9988, 100000: 99562}
	for i := 1; i <= 100000; i++ {
		DenseAdd(b, []byte(strconv.Itoa(i)))
		if w, ok := want[i]; ok {
			if c, _ := Count(b); c != w {
				t.Errorf("n=%d: %d want %d", i, c, w)
			}
		}
	}
}

func TestCorruptInputsDoNotPanic(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for k := 0; k < 20000; k++ {
		b := []byte("HYLL\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00")
		for n := rng.IntN(12); n > 0; n-- {
			b = append(b, byte(rng.IntN(256)))
		}
		b = b[:len(b):len(b)]
		var h [64]int
		SparseHisto(b, &h)
		var m [Registers]uint8
		Merge(&m, b)
		SparseToDense(b)
		AppendDecode(nil, b)
		SparseSet(b, rng.IntN(Registers), 1+rng.IntN(40), int64(rng.IntN(40)))
		SparseSetTraced(b, rng.IntN(Registers), 1+rng.IntN(40), 3000)
	}
}

// SparseSetTraced decodes the rewrite from the predecessor opcode on; decoding both strings
// from the first opcode (DecodeRange) must give the same texts.
func TestSparseSetTracedMatchesFullDecode(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for k := 0; k < 200; k++ {
		b := NewSparse()
		for n := 0; n < 400; n++ {
			index, count := rng.IntN(Registers), 1+rng.IntN(8)
			if k%2 == 0 {
				index = rng.IntN(64) * 7 // clustered: merges of neighbouring VALs
			}
			lo, first := -1, 0
			for p := HdrSize; p < len(b); {
				span, _, oplen := opAt(b, p)
				if index <= first+span-1 {
					break
				}
				lo = first
				p += oplen
				first += span
			}
			if lo < 0 {
				lo = first
			}
			orig := append([]byte(nil), b...)
			nb, _, res, ch := SparseSetTraced(b, index, count, 3000)
			if res != Updated {
				b = nb
				continue
			}
			hi := index
			for range 4 {
				_, _, t1 := DecodeRange(orig, lo, hi)
				_, _, t2 := DecodeRange(nb, lo, hi)
				if nh := max(t1, t2, hi); nh != hi {
					hi = nh
					continue
				}
				break
			}
			before, _, _ := DecodeRange(orig, lo, hi)
			after, _, _ := DecodeRange(nb, lo, hi)
			if ch.Before != before || ch.After != after {
				t.Fatalf("k %d n %d index %d: traced %q → %q, full decode %q → %q", k, n, index, ch.Before, ch.After, before, after)
			}
			b = nb
		}
	}
}
