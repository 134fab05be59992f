package engine

import (
	"strconv"
	"testing"

	"redscope/engine/alloc"
)

// Hash and set commands through Exec, tracing off.

// BenchmarkHSET writes 1 000 fields into each of many hashes (listpack up to 512 fields, then
// hashtable), cycling over 10 000 field names.
func BenchmarkHSET(b *testing.B) {
	e := New(Options{Version: V74, Allocator: alloc.Jemalloc})
	cmds := make([][][]byte, 10000)
	for i := range cmds {
		cmds[i] = argv("HSET", "h"+strconv.Itoa(i%10), "field:"+strconv.Itoa(i), "value")
	}
	benchExec(b, e, KindInt, cmds...)
}

func BenchmarkHGET(b *testing.B) {
	e := New(Options{Version: V74, Allocator: alloc.Jemalloc})
	for i := 0; i < 1000; i++ {
		e.Exec(argv("HSET", "big", "field:"+strconv.Itoa(i), "value"))
		if i < 100 {
			e.Exec(argv("HSET", "small", "field:"+strconv.Itoa(i), "value"))
		}
	}
	for _, key := range []string{"small", "big"} {
		cmds := make([][][]byte, 100)
		for i := range cmds {
			cmds[i] = argv("HGET", key, "field:"+strconv.Itoa(i))
		}
		b.Run(key, func(b *testing.B) { benchExec(b, e, KindBulk, cmds...) })
	}
}

func BenchmarkSADD(b *testing.B) {
	e := New(Options{Version: V74, Allocator: alloc.Jemalloc})
	cmds := make([][][]byte, 10000)
	for i := range cmds {
		cmds[i] = argv("SADD", "s"+strconv.Itoa(i%10), "member:"+strconv.Itoa(i))
	}
	benchExec(b, e, KindInt, cmds...)
}

func BenchmarkSINTERCARD(b *testing.B) {
	e := New(Options{Version: V74, Allocator: alloc.Jemalloc})
	for i := 0; i < 1000; i++ {
		e.Exec(argv("SADD", "a", "m"+strconv.Itoa(i)))
		e.Exec(argv("SADD", "b", "m"+strconv.Itoa(i*2)))
	}
	cmd := argv("SINTERCARD", "2", "a", "b")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if r := e.Exec(cmd).Reply; r.Int != 500 {
			b.Fatal(r)
		}
	}
}
