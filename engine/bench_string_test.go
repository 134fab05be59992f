package engine

import (
	"strconv"
	"testing"
)

// Hot paths through Exec with tracing off. Run with -benchmem: SET of an existing key and GET
// allocate only the reply string; INCR of a private int allocates nothing.

func BenchmarkSET(b *testing.B) {
	e := New(Options{Version: V70})
	keys := make([][][]byte, 1024)
	for i := range keys {
		keys[i] = argv("SET", "key:"+strconv.Itoa(i), "value-"+strconv.Itoa(i))
	}
	benchExec(b, e, KindStatus, keys...)
}

func BenchmarkGET(b *testing.B) {
	e := New(Options{Version: V70})
	keys := make([][][]byte, 1024)
	for i := range keys {
		e.Exec(argv("SET", "key:"+strconv.Itoa(i), "value-"+strconv.Itoa(i)))
		keys[i] = argv("GET", "key:"+strconv.Itoa(i))
	}
	benchExec(b, e, KindBulk, keys...)
}

func BenchmarkINCR(b *testing.B) {
	e := New(Options{Version: V70})
	e.Do("SET", "counter", "100000")
	args := argv("INCR", "counter")
	benchExec(b, e, KindInt, args)
}

func BenchmarkAPPEND(b *testing.B) {
	e := New(Options{Version: V70})
	args := argv("APPEND", "log", "0123456789abcdef")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i&0xffff == 0 {
			e.Do("DEL", "log") // keep the string in the dense (≤ 1 MiB) range
		}
		if r := e.Exec(args).Reply; r.Kind != KindInt {
			b.Fatal(r)
		}
	}
}
