package skiplist

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

func benchMembers(n int) []string {
	ms := make([]string, n)
	for i := range ms {
		ms[i] = "member:" + strconv.Itoa(i)
	}
	return ms
}

// 1e5 inserts with random scores per iteration.
func BenchmarkInsert1e5(b *testing.B) {
	ms := benchMembers(100000)
	r := rand.New(rand.NewPCG(1, 2))
	scores := make([]float64, len(ms))
	for i := range scores {
		scores[i] = r.Float64() * 1e6
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		l := New(rand.New(rand.NewPCG(3, 4)))
		for j, m := range ms {
			l.Insert(scores[j], m)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e5, "ns/insert")
}

// buildBench is the benchmarks' list: 100 000 members with random scores in [0, 1e6), the
// members and their scores; the timer and allocation count start after it.
func buildBench(b *testing.B) (*List, []string, []float64) {
	ms := benchMembers(100000)
	r := rand.New(rand.NewPCG(1, 2))
	scores := make([]float64, len(ms))
	l := New(rand.New(rand.NewPCG(3, 4)))
	for i, m := range ms {
		scores[i] = r.Float64() * 1e6
		l.Insert(scores[i], m)
	}
	b.ReportAllocs()
	b.ResetTimer()
	return l, ms, scores
}

func BenchmarkGetRank(b *testing.B) {
	l, ms, scores := buildBench(b)
	for i := 0; i < b.N; i++ {
		j := i % len(ms)
		if l.GetRank(scores[j], ms[j]) == 0 {
			b.Fatal("missing")
		}
	}
}

func BenchmarkGetByRank(b *testing.B) {
	l, _, _ := buildBench(b)
	for i := 0; i < b.N; i++ {
		if l.GetByRank(uint64(i%100000)+1) == nil {
			b.Fatal("missing")
		}
	}
}

// ZINCRBY-like updates: small increments (mostly in place) and random new scores (moves).
func BenchmarkUpdateScoreSmall(b *testing.B) {
	l, ms, scores := buildBench(b)
	for i := 0; i < b.N; i++ {
		j := i % len(ms)
		l.UpdateScore(scores[j], ms[j], scores[j]+1e-9)
		scores[j] += 1e-9
	}
}

func BenchmarkUpdateScoreMove(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 9))
	l, ms, scores := buildBench(b)
	for i := 0; i < b.N; i++ {
		j := i % len(ms)
		ns := r.Float64() * 1e6
		l.UpdateScore(scores[j], ms[j], ns)
		scores[j] = ns
	}
}
