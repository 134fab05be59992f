package intset

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"redscope/engine/alloc"
)

// DUMP on redis-server 7.0.15 after SADD s 1 2 3; SADD s 100000 (RDB type 11 payload).
func TestBytesFromServer(t *testing.T) {
	s := New()
	for _, v := range []int64{1, 2, 3} {
		s.Add(v)
	}
	// MEMORY USAGE s = 64 (intset 14 → 16, key "s" 8, +16 +24).
	if s.BlobLen() != 14 || 16+s.Usable(alloc.Jemalloc16)+8+24 != 64 {
		t.Fatalf("blob %d", s.BlobLen())
	}
	added, ch := s.Add(100000)
	if !added || ch.Kind != KindUpgrade || ch.OldEnc != 2 || ch.NewEnc != 4 || ch.Pos != 3 || ch.NewBytes != 24 {
		t.Fatalf("upgrade %+v", ch)
	}
	want := []byte("\x04\x00\x00\x00\x04\x00\x00\x00\x01\x00\x00\x00\x02\x00\x00\x00\x03\x00\x00\x00\xa0\x86\x01\x00")
	if !bytes.Equal(s.Bytes(), want) {
		t.Fatalf("got % x", s.Bytes())
	}
	// MEMORY USAGE = 80 on Debian (usable(24) = 32), 72 with the 8-byte quantum (docs/internals.md §Encodings).
	if 16+s.Usable(alloc.Jemalloc16)+8+24 != 80 || 16+s.Usable(alloc.Jemalloc)+8+24 != 72 {
		t.Fatal("memory")
	}
}

func TestAddRemoveFind(t *testing.T) {
	s := New()
	if ok, _ := s.Add(5); !ok {
		t.Fatal("add")
	}
	if ok, _ := s.Add(5); ok {
		t.Fatal("duplicate added")
	}
	_, ch := s.Add(-7)
	if ch.Kind != KindInsert || ch.Pos != 0 || ch.Moved != 2 {
		t.Fatalf("%+v", ch)
	}
	_, ch = s.Add(-40000) // upgrade to 32-bit, prepended
	if ch.Kind != KindUpgrade || ch.Pos != 0 || s.Encoding() != Enc32 {
		t.Fatalf("%+v", ch)
	}
	_, ch = s.Add(math.MinInt64)
	if s.Encoding() != Enc64 || ch.Pos != 0 || s.Min() != math.MinInt64 || s.Max() != 5 {
		t.Fatal("upgrade 64")
	}
	if !s.Find(-40000) || s.Find(6) || s.Find(math.MaxInt64) {
		t.Fatal("find")
	}
	ok, ch := s.Remove(math.MinInt64)
	if !ok || ch.Moved != 3*8 || s.Encoding() != Enc64 || s.BlobLen() != 8+3*8 {
		t.Fatalf("remove: no downgrade expected %+v", ch)
	}
	if ok, _ := s.Remove(1 << 40); ok {
		t.Fatal("removed missing")
	}
	if v, ok := s.Get(1); !ok || v != -7 {
		t.Fatal("get")
	}
	if _, ok := s.Get(3); ok {
		t.Fatal("get out of range")
	}
	if err := Validate(s.Bytes(), true); err != nil {
		t.Fatal(err)
	}
}

func TestValidate(t *testing.T) {
	bad := [][]byte{
		nil,
		[]byte("\x02\x00\x00\x00\x00\x00\x00\x00"),                 // empty
		[]byte("\x03\x00\x00\x00\x01\x00\x00\x00\x01\x00\x00"),     // bad width
		[]byte("\x02\x00\x00\x00\x02\x00\x00\x00\x01\x00"),         // short
		[]byte("\x02\x00\x00\x00\x02\x00\x00\x00\x02\x00\x01\x00"), // unsorted
		[]byte("\x02\x00\x00\x00\x02\x00\x00\x00\x01\x00\x01\x00"), // duplicate
	}
	for i, b := range bad {
		if _, err := FromBytes(b); err == nil {
			t.Errorf("case %d accepted", i)
		}
	}
}

func TestRandomAgainstModel(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for round := 0; round < 100; round++ {
		s := New()
		model := map[int64]bool{}
		for op := 0; op < 300; op++ {
			v := randInt(r)
			if r.IntN(3) == 0 {
				ok, _ := s.Remove(v)
				if ok != model[v] {
					t.Fatal("remove result")
				}
				delete(model, v)
			} else {
				ok, _ := s.Add(v)
				if ok == model[v] {
					t.Fatal("add result")
				}
				model[v] = true
			}
		}
		var want []int64
		for v := range model {
			want = append(want, v)
		}
		slices.Sort(want)
		var got []int64
		s.All(func(_ int, v int64) bool { got = append(got, v); return true })
		if !slices.Equal(got, want) {
			t.Fatal("content")
		}
		w := Enc16
		for _, v := range want {
			w = max(w, ValueEncoding(v))
		}
		if s.Encoding() < w || s.BlobLen() != 8+len(want)*s.Encoding() {
			t.Fatal("encoding/size")
		}
		if len(want) > 0 {
			if err := Validate(s.Bytes(), true); err != nil {
				t.Fatal(err)
			}
			if v, ok := s.Random(r); !ok || !model[v] {
				t.Fatal("random")
			}
		}
	}
}

func randInt(r *rand.Rand) int64 {
	switch r.IntN(4) {
	case 0:
		return r.Int64N(200) - 100
	case 1:
		return r.Int64N(1<<17) - 1<<16
	case 2:
		return r.Int64N(1<<33) - 1<<32
	}
	return int64(r.Uint64())
}

func BenchmarkAdd(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 1))
	vals := make([]int64, 512)
	for i := range vals {
		vals[i] = r.Int64N(1 << 20)
	}
	b.ReportAllocs()
	for b.Loop() {
		s := New()
		for _, v := range vals {
			s.Add(v)
		}
	}
}

func BenchmarkFind(b *testing.B) {
	s := New()
	for i := int64(0); i < 512; i++ {
		s.Add(i * 3)
	}
	b.ReportAllocs()
	i := int64(0)
	for b.Loop() {
		s.Find(i % 1600)
		i++
	}
}
