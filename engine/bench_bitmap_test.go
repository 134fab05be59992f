package engine

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// Benchmarks through Exec with tracing off, as the protocol server runs commands.

// BenchmarkSETBIT sets random bits of a 1 MiB bitmap.
func BenchmarkSETBIT(b *testing.B) {
	e := New(Options{})
	e.Do("SETBIT", "bm", strconv.Itoa(8<<20-1), "1")
	r := rand.New(rand.NewPCG(1, 2))
	args := make([][][]byte, 4096)
	for i := range args {
		args[i] = [][]byte{[]byte("SETBIT"), []byte("bm"), []byte(strconv.Itoa(r.IntN(8 << 20))), []byte(strconv.Itoa(i & 1))}
	}
	benchExec(b, e, KindInt, args...)
}

// BenchmarkBITCOUNT counts a 1 MiB bitmap of random bytes.
func BenchmarkBITCOUNT(b *testing.B) {
	e := New(Options{})
	r := rand.New(rand.NewPCG(3, 4))
	val := make([]byte, 1<<20)
	for i := range val {
		val[i] = byte(r.Uint32())
	}
	setString(e, "bm", string(val))
	args := [][]byte{[]byte("BITCOUNT"), []byte("bm")}
	b.SetBytes(1 << 20)
	benchExec(b, e, KindInt, args)
}

// BenchmarkBITOP is the course's attendance lab: AND of 7 days of 12 500 bytes (100 000
// students).
func BenchmarkBITOP(b *testing.B) {
	e := New(Options{})
	r := rand.New(rand.NewPCG(5, 6))
	args := [][]byte{[]byte("BITOP"), []byte("AND"), []byte("res")}
	for d := 1; d <= 7; d++ {
		val := make([]byte, 12500)
		for i := range val {
			val[i] = byte(r.Uint32() | r.Uint32()) // ~75 % present
		}
		k := "att:d" + strconv.Itoa(d)
		setString(e, k, string(val))
		args = append(args, []byte(k))
	}
	b.SetBytes(7 * 12500)
	benchExec(b, e, KindInt, args)
}
