package engine

import (
	"testing"

	"redscope/engine/alloc"
	"redscope/engine/sds"
)

// TestHeldMemory: a long string counts its allocated pages and HeldPageCost per page of its
// length; everything else counts its MEMORY USAGE (671088688 and 56: redis-server 7.0.15 with
// Debian's jemalloc).
func TestHeldMemory(t *testing.T) {
	e := New(Options{Version: V70, Allocator: alloc.Jemalloc16})
	e.Do("SETBIT", "huge", "4294967295", "1")
	e.Do("SETBIT", "small", "7", "1")
	if m, _ := e.PeekMemoryUsage([]byte("huge"), 5); m != 671088688 {
		t.Fatalf("MEMORY USAGE huge %d", m)
	}
	pages := int64(536870912 / sds.PageSize)
	wantHuge := sds.PageSize + pages*HeldPageCost + 64
	if h, ok := e.PeekHeldMemory([]byte("huge"), 5); !ok || h != wantHuge {
		t.Fatalf("held huge %d, want %d", h, wantHuge)
	}
	if h, _ := e.PeekHeldMemory([]byte("small"), 5); h != 56 {
		t.Fatalf("held small %d", h)
	}
	if _, ok := e.PeekHeldMemory([]byte("nope"), 5); ok {
		t.Fatal("a missing key")
	}
	if d := e.DatasetHeldMemory(); d != wantHuge+56 {
		t.Fatalf("dataset %d", d)
	}
	// Writing a page allocates it: held grows by one page, MEMORY USAGE does not move.
	e.Do("SETBIT", "huge", "0", "1")
	if h, _ := e.PeekHeldMemory([]byte("huge"), 5); h != wantHuge+sds.PageSize {
		t.Fatalf("held after a second page %d", h)
	}
}

// TestBitScanEvent: BITCOUNT and BITPOS report the range they went over in bits, and the answer.
func TestBitScanEvent(t *testing.T) {
	e := New(Options{Trace: true})
	e.Do("SET", "c", "\xff\xf0\x00")
	scan := func(args ...string) (BitScanEvent, bool) {
		b := make([][]byte, len(args))
		for i, a := range args {
			b[i] = []byte(a)
		}
		for _, ev := range e.Exec(b).Events {
			if s, ok := ev.(BitScanEvent); ok {
				return s, true
			}
		}
		return BitScanEvent{}, false
	}
	cases := []struct {
		args []string
		want BitScanEvent
	}{
		{[]string{"BITCOUNT", "c"}, BitScanEvent{Key: "c", Cmd: "bitcount", First: 0, Last: 23, Result: 12}},
		{[]string{"BITCOUNT", "c", "1", "1"}, BitScanEvent{Key: "c", Cmd: "bitcount", First: 8, Last: 15, Result: 4}},
		{[]string{"BITCOUNT", "c", "5", "30", "BIT"}, BitScanEvent{Key: "c", Cmd: "bitcount", First: 5, Last: 23, Result: 7}},
		// On \xff\xf0\x00 (as in diff/bitmap.txt): BITPOS b 1 7 15 BIT = 7, BITPOS b 0 7 15 BIT = 12.
		{[]string{"BITPOS", "c", "1", "7", "15", "BIT"}, BitScanEvent{Key: "c", Cmd: "bitpos", Bit: 1, First: 7, Last: 15, Result: 7}},
		{[]string{"BITPOS", "c", "0", "7", "15", "BIT"}, BitScanEvent{Key: "c", Cmd: "bitpos", Bit: 0, First: 7, Last: 15, Result: 12}},
		{[]string{"BITPOS", "c", "1", "2"}, BitScanEvent{Key: "c", Cmd: "bitpos", Bit: 1, First: 16, Last: 23, Result: -1}},
	}
	for _, c := range cases {
		got, ok := scan(c.args...)
		if !ok || got != c.want {
			t.Errorf("%v: %+v %v, want %+v", c.args, got, ok, c.want)
		}
	}
	// All ones and no end: the answer is the first bit past the string.
	e.Do("SET", "f", "\xff\xff\xff")
	if got, _ := scan("BITPOS", "f", "0"); !got.Past || got.Result != 24 || got.Last != 23 {
		t.Errorf("past: %+v", got)
	}
	// A missing key or an empty range scans nothing.
	if _, ok := scan("BITCOUNT", "nope"); ok {
		t.Error("missing key")
	}
	if _, ok := scan("BITCOUNT", "c", "2", "1"); ok {
		t.Error("empty range")
	}
}
