package engine

import (
	"strconv"
	"testing"

	"redscope/engine/alloc"
)

// The course (seeds/000, lab 02c) measured on Redis 8.8: SCARD wset = 800000, MEMORY USAGE wset
// = 34677578 for the week's viewers u0…u799999 added day by day (day d: one SADD of the 200 000
// ids 100000·(d-1) … 100000·(d-1)+199999). The engine computes it with the 8.x model
// (setHTAllocSize): 24 (kvobj) + 56 (dict) + 8×2^20 (buckets) + 24×800000 + Σ(1+len+1) = 34677578.
func TestSetMemory88CourseFigure(t *testing.T) {
	e := New(Options{Version: V88})
	args := make([]string, 0, 200002)
	for d := 0; d < 7; d++ {
		args = append(args[:0], "SADD", "wset")
		for i := d * 100000; i < d*100000+200000; i++ {
			args = append(args, "u"+strconv.Itoa(i))
		}
		e.Do(args...)
	}
	if r := e.Do("SCARD", "wset"); r.Int != 800000 {
		t.Fatalf("SCARD wset = %s", r.FormatCLI())
	}
	if r := e.Do("MEMORY", "USAGE", "wset"); r.Kind != KindInt || r.Int != 34677578 {
		t.Fatalf("MEMORY USAGE wset = %s, want 34677578 (the course's Redis 8.8 figure)", r.FormatCLI())
	}
	// Not sampled any more: SAMPLES changes nothing.
	if r := e.Do("MEMORY", "USAGE", "wset", "SAMPLES", "0"); r.Int != 34677578 {
		t.Fatalf("MEMORY USAGE wset SAMPLES 0 = %s", r.FormatCLI())
	}
}

// The parts of the 8.x formula, on small sets whose table state is known.
func TestSetMemory8xFormula(t *testing.T) {
	e := New(Options{Version: V88, Allocator: alloc.Jemalloc})
	e.Do("CONFIG", "SET", "set-max-listpack-entries", "0")
	// "" is an sds8 (usable(3+0+1) = 8), "a" an sds5 (3), 40 bytes an sds8 (usable(3+40+1) = 48).
	long := string(make([]byte, 40))
	e.Do("SADD", "s", "", "a", long)
	if r := e.Do("OBJECT", "ENCODING", "s"); r.Str != "hashtable" {
		t.Fatalf("encoding %s", r.FormatCLI())
	}
	// kvobj "s": usable(16+1+1+1+1 = 20) = 24; the dict was created for the 3 members: 4 buckets.
	want := int64(24 + 56 + 8*4 + 24*3 + 8 + 3 + 48)
	if r := e.Do("MEMORY", "USAGE", "s"); r.Int != want {
		t.Fatalf("MEMORY USAGE s = %s, want %d", r.FormatCLI(), want)
	}
	// 7.x is unchanged: sampled usable sizes, robj + key sds + dictEntry.
	e70 := New(Options{Version: V70, Allocator: alloc.Jemalloc})
	e70.Do("CONFIG", "SET", "set-max-intset-entries", "0")
	e70.Do("SADD", "s", "", "a", long)
	want70 := int64(16 + 56 + 8*4 + (24 + 8) + (24 + 8) + (24 + 48) + 8 + 24)
	if r := e70.Do("MEMORY", "USAGE", "s"); r.Int != want70 {
		t.Fatalf("7.0 MEMORY USAGE s = %s, want %d", r.FormatCLI(), want70)
	}
}
