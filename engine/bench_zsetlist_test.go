package engine

import (
	"strconv"
	"testing"
)

// Benchmarks through Exec (tracing off).

// BenchmarkZINCRBY: increments spread over 1000 members (a skiplist zset; scores move).
func BenchmarkZINCRBY(b *testing.B) {
	e := New(Options{Version: V70})
	members := make([][]byte, 1000)
	for i := range members {
		members[i] = []byte("member:" + strconv.Itoa(i))
	}
	args := [][]byte{[]byte("ZINCRBY"), []byte("board"), []byte("3"), nil}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		args[3] = members[i%len(members)]
		e.Exec(args)
	}
}

// BenchmarkZRANGE: the top 10 with scores of a 1000-member skiplist zset.
func BenchmarkZRANGE(b *testing.B) {
	e := New(Options{Version: V70})
	for i := 0; i < 1000; i++ {
		e.Do("ZADD", "board", strconv.Itoa(i*7%1000), "member:"+strconv.Itoa(i))
	}
	args := [][]byte{[]byte("ZRANGE"), []byte("board"), []byte("0"), []byte("9"), []byte("REV"), []byte("WITHSCORES")}
	benchExec(b, e, KindArray, args)
}

// BenchmarkLPUSH: one 16-byte element per command onto a growing quicklist.
func BenchmarkLPUSH(b *testing.B) {
	e := New(Options{Version: V70})
	args := [][]byte{[]byte("LPUSH"), []byte("queue"), []byte("job:0123456789ab")}
	benchExec(b, e, KindInt, args)
}
