package engine

import (
	"strconv"
	"testing"
)

// BenchmarkXADD: automatic IDs on the engine clock, one field pair per entry (a new node every
// 100 entries).
func BenchmarkXADD(b *testing.B) {
	e := New(Options{Version: V70})
	args := argv("XADD", "jobs", "*", "task", "resize:0123456789")
	benchExec(b, e, KindBulk, args)
}

// BenchmarkXREADGROUPXACK: the course's queue loop on a 10 000-entry stream — read one new entry
// for a consumer, acknowledge it.
func BenchmarkXREADGROUPXACK(b *testing.B) {
	e := New(Options{Version: V70})
	const n = 10000
	for i := 1; i <= n; i++ {
		e.Do("XADD", "jobs", strconv.Itoa(i)+"-0", "task", "resize")
	}
	read := argv("XREADGROUP", "GROUP", "workers", "w1", "COUNT", "1", "STREAMS", "jobs", ">")
	ack := argv("XACK", "jobs", "workers", "")
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%n == 0 {
			b.StopTimer()
			e.Do("XGROUP", "DESTROY", "jobs", "workers")
			e.Do("XGROUP", "CREATE", "jobs", "workers", "0")
			b.StartTimer()
		}
		e.Exec(read)
		ack[3] = []byte(strconv.Itoa(i%n+1) + "-0")
		e.Exec(ack)
	}
}

// BenchmarkXRANGE: ten entries from the middle of a 10 000-entry stream.
func BenchmarkXRANGE(b *testing.B) {
	e := New(Options{Version: V70})
	for i := 1; i <= 10000; i++ {
		e.Do("XADD", "s", strconv.Itoa(i)+"-0", "f", strconv.Itoa(i))
	}
	args := argv("XRANGE", "s", "5000", "+", "COUNT", "10")
	benchExec(b, e, KindArray, args)
}

// BenchmarkStreamMemoryUsage: MEMORY USAGE of a 10 000-entry stream with 1000 pending entries
// (the rax node counts are computed from the keys each time).
func BenchmarkStreamMemoryUsage(b *testing.B) {
	e := New(Options{Version: V70})
	for i := 1; i <= 10000; i++ {
		e.Do("XADD", "s", strconv.Itoa(i)+"-0", "f", strconv.Itoa(i))
	}
	e.Do("XGROUP", "CREATE", "s", "g", "0")
	e.Do("XREADGROUP", "GROUP", "g", "c", "COUNT", "1000", "STREAMS", "s", ">")
	args := argv("MEMORY", "USAGE", "s")
	benchExec(b, e, KindInt, args)
}
