package dict

import (
	"strconv"
	"testing"
)

func benchKeys(n int) []string {
	ks := make([]string, n)
	for i := range ks {
		ks[i] = "key:" + strconv.Itoa(i)
	}
	return ks
}

// benchDict is a 7.4 dict of ks, each mapped to its index.
func benchDict(ks []string) *Dict[string, int] {
	d := New[string, int](env74(1))
	for j, k := range ks {
		d.Add(k, j)
	}
	return d
}

// 1e5 keys per iteration; ns/op is per key.
func BenchmarkDictAdd1e5(b *testing.B) {
	ks := benchKeys(100000)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		d := New[string, int](env70(1))
		for j, k := range ks {
			d.Add(k, j)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e5, "ns/key")
}

func BenchmarkDictFind1e5(b *testing.B) {
	ks := benchKeys(100000)
	d := benchDict(ks)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, k := range ks {
			if _, ok := d.Find(k); !ok {
				b.Fatal(k)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e5, "ns/key")
}

func BenchmarkDictFindBytes1e5(b *testing.B) {
	ks := benchKeys(100000)
	bk := make([][]byte, len(ks))
	d := New[[]byte, int](env74(1))
	for j, k := range ks {
		bk[j] = []byte(k)
		d.Add(bk[j], j)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, k := range bk {
			if _, ok := d.Find(k); !ok {
				b.Fatal(string(k))
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e5, "ns/key")
}

func BenchmarkDictDelete1e5(b *testing.B) {
	ks := benchKeys(100000)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		d := benchDict(ks)
		b.StartTimer()
		for _, k := range ks {
			d.Delete(k)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e5, "ns/key")
}

func BenchmarkGetFairRandomKey(b *testing.B) {
	d := bigSet(1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if d.GetFairRandomKey() == nil {
			b.Fatal("nil")
		}
	}
}

func BenchmarkScanFull1e5(b *testing.B) {
	ks := benchKeys(100000)
	d := benchDict(ks)
	b.ReportAllocs()
	b.ResetTimer()
	n := 0
	for i := 0; i < b.N; i++ {
		c := uint64(0)
		for {
			c = d.Scan(c, func(*Entry[string, int]) { n++ })
			if c == 0 {
				break
			}
		}
	}
}
