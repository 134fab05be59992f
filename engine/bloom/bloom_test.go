package bloom

import (
	"strconv"
	"testing"
)

// Reference values in this file come from RedisBloom's own deps/bloom/bloom.c and
// deps/murmur2/MurmurHash2.c compiled in a throwaway harness (not part of redscope) that drives
// bloom_init/bloom_check_h/bloom_add_h the way src/sb.c chains them.

func TestHashItemMatchesMurmurHash64A(t *testing.T) {
	cases := []struct {
		s    string
		a, b uint64
	}{
		{"", 0x1ab11ea5a7b2c56e, 0xbbddcb5ab56dd547},
		{"a", 0x4292cee227b9150a, 0x7e9b527031f50c11},
		{"hello", 0x5ba5b8a59803e699, 0xa7d451d588a0c2a4},
		{"p:1", 0xde22cc674c47151e, 0x3d7e075880772328},
		{"product:12345", 0x6ae9c06a076aa2f1, 0xed593a3ceb7d379f},
		{"abcdefgh", 0xd435df7a565a8af1, 0xbf3d673c0b1029cf},
		{"abcdefghi", 0xa2c004e44bd0a465, 0x28459a22cef68950},
	}
	for _, c := range cases {
		if h := HashItem([]byte(c.s)); h.A != c.a || h.B != c.b {
			t.Errorf("%q: got %#x,%#x want %#x,%#x", c.s, h.A, h.B, c.a, c.b)
		}
	}
}

// The course's BF.RESERVE bf:products 0.01 1000000 → BF.INFO Size 1378568: the first filter is
// sized for 0.005 (tightening), 11027776 bits = 1378472 bytes, 8 hashes, plus 32 + 64 bytes.
func TestReserveOneMillion(t *testing.T) {
	c, err := NewChain(1000000, 0.01, 2, false)
	if err != nil {
		t.Fatal(err)
	}
	f := c.Filters[0]
	if f.Bits != 11027776 || f.Bytes != 1378472 || f.Hashes != 8 || f.Error != 0.005 {
		t.Errorf("filter: bits %d bytes %d hashes %d error %v", f.Bits, f.Bytes, f.Hashes, f.Error)
	}
	if got := c.MemUsage(); got != 1378568 {
		t.Errorf("MemUsage %d want 1378568", got)
	}
	for _, s := range []string{"p:1", "p:2", "p:3"} {
		if r, err := c.Add([]byte(s), false); err != nil || !r.Added {
			t.Errorf("add %s: %+v %v", s, r, err)
		}
	}
	if !c.Contains([]byte("p:2")) || c.Contains([]byte("p:999999")) || c.Items != 3 {
		t.Errorf("contains/items wrong: items %d", c.Items)
	}
}

type chainCase struct {
	capacity  uint64
	errRate   float64
	growth    uint32
	noScaling bool
	n         int
	prefix    string
	probes    int
	// harness results
	items, capacitySum, size uint64
	filters, full, fp        int
}

func TestChainMatchesReference(t *testing.T) {
	cases := []chainCase{
		{100, 0.01, 2, false, 1000, "item:", 100000, 995, 1500, 2976, 4, 0, 755},
		{1000, 0.001, 4, false, 20000, "x", 50000, 19980, 21000, 48256, 3, 0, 46},
		{50, 0.1, 2, true, 100, "y", 1000, 50, 50, 128, 1, 45, 100},
		{7, 0.3, 3, false, 500, "z", 10000, 420, 847, 1328, 5, 0, 1535},
	}
	for _, cc := range cases {
		c, err := NewChain(cc.capacity, cc.errRate, cc.growth, cc.noScaling)
		if err != nil {
			t.Fatal(err)
		}
		full := 0
		for i := 0; i < cc.n; i++ {
			_, err := c.Add([]byte(cc.prefix+strconv.Itoa(i)), false)
			if err == ErrFull {
				full++
			} else if err != nil {
				t.Fatal(err)
			}
		}
		fp := 0
		for i := 0; i < cc.probes; i++ {
			if c.Contains([]byte("probe:" + strconv.Itoa(i))) {
				fp++
			}
		}
		if c.Items != cc.items || c.Capacity() != cc.capacitySum || c.MemUsage() != cc.size ||
			len(c.Filters) != cc.filters || full != cc.full || fp != cc.fp {
			t.Errorf("%+v: items %d capacity %d size %d filters %d full %d fp %d", cc, c.Items,
				c.Capacity(), c.MemUsage(), len(c.Filters), full, fp)
		}
		// no false negatives: every added item is found
		for i := 0; i < cc.n && !cc.noScaling; i++ {
			if !c.Contains([]byte(cc.prefix + strconv.Itoa(i))) {
				t.Fatalf("false negative %s%d", cc.prefix, i)
			}
		}
	}
}

func TestChainGeometry(t *testing.T) {
	// capacity 7 @0.3, expansion 3: reference sub-filters (entries, bits, hashes).
	want := []struct {
		entries, bits uint64
		hashes        int
	}{{7, 64, 3}, {21, 128, 4}, {63, 448, 5}, {189, 1600, 6}, {567, 5568, 7}}
	c, _ := NewChain(7, 0.3, 3, false)
	for i := 0; i < 500; i++ {
		c.Add([]byte("z"+strconv.Itoa(i)), false)
	}
	for i, w := range want {
		f := c.Filters[i]
		if f.Entries != w.entries || f.Bits != w.bits || f.Hashes != w.hashes {
			t.Errorf("filter %d: %d %d %d want %+v", i, f.Entries, f.Bits, f.Hashes, w)
		}
	}
}

func TestInvalidAndHuge(t *testing.T) {
	if _, err := NewChain(0, 0.01, 2, false); err != ErrInvalid {
		t.Errorf("capacity 0: %v", err)
	}
	if _, err := NewChain(10, 1, 2, false); err != ErrInvalid {
		t.Errorf("error 1: %v", err)
	}
	if _, err := NewChain(1<<62, 1e-300, 2, false); err != ErrOOM {
		t.Errorf("huge: %v", err)
	}
	// a 1 GiB-class filter is sparse: reserving and probing it costs only touched pages
	c, err := NewChain(1<<30, 0.001, 2, false)
	if err != nil {
		t.Fatal(err)
	}
	c.Add([]byte("x"), false)
	if !c.Contains([]byte("x")) || len(c.Filters[0].set.pages) > c.Filters[0].Hashes {
		t.Errorf("sparse filter misbehaves")
	}
	d := c.Clone()
	d.Add([]byte("y"), false)
	if c.Contains([]byte("y")) || !d.Contains([]byte("y")) {
		t.Errorf("clone shares bits")
	}
}

func TestProbesReported(t *testing.T) {
	c, _ := NewChain(100, 0.01, 2, false)
	r, err := c.Add([]byte("hello"), true)
	if err != nil || !r.Added || len(r.Probes) != c.Filters[0].Hashes {
		t.Fatalf("%+v %v", r, err)
	}
	for i, p := range r.Probes {
		if want := (r.Hash.A + uint64(i)*r.Hash.B) % c.Filters[0].Bits; p.Bit != want || p.WasSet {
			t.Errorf("probe %d: %+v want bit %d unset", i, p, want)
		}
	}
	r, _ = c.Add([]byte("hello"), true)
	if r.Added || r.Filter != 0 {
		t.Errorf("second add: %+v", r)
	}
}
