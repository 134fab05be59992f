package dict

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

func chiSquare(counts map[string]int, size, draws int) float64 {
	exp := float64(draws) / float64(size)
	chi := 0.0
	for _, c := range counts {
		d := float64(c) - exp
		chi += d * d / exp
	}
	chi += float64(size-len(counts)) * exp // members never drawn
	return chi
}

func bigSet(seed uint64) *Dict[string, struct{}] {
	d := NewSet[string](env70(seed))
	for i := 1; i <= 1000; i++ {
		d.Add(fmt.Sprintf("member:%04d", i), struct{}{})
	}
	return d
}

// The course lab (seed article 001, §3.5): 200 000 SRANDMEMBER on a 1 000-member hashtable set
// give chi-square 13 870 and 13 977 on Redis 8.8 (uniform ≈ 999), picks per member between 69
// and 388. On redis-server 7.0.15 here, the same experiment (members "member:0001"…, one SADD,
// 1024 buckets) gave 12 801, 12 943 and 12 679, counts between 80 and 394. SRANDMEMBER without a
// count on a hashtable set is one GetFairRandomKey; the simulated dict must show the same bias,
// and a uniform pick must not.
func TestSrandmemberChiSquare(t *testing.T) {
	const draws = 200000
	for _, seed := range []uint64{1, 2, 3, 4} {
		d := bigSet(seed)
		if d.TableSize(0) != 1024 || d.IsRehashing() {
			t.Fatalf("layout %+v", sizesOf(d))
		}
		counts := map[string]int{}
		for i := 0; i < draws; i++ {
			counts[d.GetFairRandomKey().Key]++
		}
		chi := chiSquare(counts, 1000, draws)
		lo, hi := draws, 0
		for _, c := range counts {
			lo, hi = min(lo, c), max(hi, c)
		}
		t.Logf("seed %d: chi-square %.0f, picks %d..%d", seed, chi, lo, hi)
		if chi < 8000 || chi > 20000 {
			t.Errorf("seed %d: chi-square %.0f, want Redis-like 8 000..20 000", seed, chi)
		}
		if hi < 300 || lo > 120 {
			t.Errorf("seed %d: picks %d..%d, want a Redis-like spread (≈80..390)", seed, lo, hi)
		}

		// Control: uniform picks by index from the same generator.
		keys := d.Keys()
		uni := map[string]int{}
		r := rand.New(rand.NewPCG(seed, 99))
		for i := 0; i < draws; i++ {
			uni[keys[r.IntN(len(keys))]]++
		}
		if c := chiSquare(uni, 1000, draws); c < 850 || c > 1150 {
			t.Errorf("seed %d: uniform control chi-square %.0f, want ≈ 999", seed, c)
		}
	}
}

// dictGetRandomKey (one bucket, then one element of its chain) is far more biased still: a
// member alone in its bucket is drawn about three times as often as one in a chain of three.
func TestGetRandomKeyBias(t *testing.T) {
	d := bigSet(7)
	counts := map[string]int{}
	const draws = 200000
	for i := 0; i < draws; i++ {
		counts[d.GetRandomKey().Key]++
	}
	// Expected probability of a member = 1/(non-empty buckets) × 1/(its chain length).
	nonEmpty := len(d.Buckets())
	var alone, inThree []float64
	for _, b := range d.Buckets() {
		for _, k := range b.Keys {
			ratio := float64(counts[k]) / (float64(draws) / float64(nonEmpty) / float64(len(b.Keys)))
			switch len(b.Keys) {
			case 1:
				alone = append(alone, ratio)
			case 3:
				inThree = append(inThree, ratio)
			}
		}
	}
	mean := func(xs []float64) float64 {
		s := 0.0
		for _, x := range xs {
			s += x
		}
		return s / float64(len(xs))
	}
	// Both groups match the 1/(buckets·chainlen) model within 5%.
	if m := mean(alone); m < 0.95 || m > 1.05 {
		t.Errorf("alone members: observed/model %.3f", m)
	}
	if m := mean(inThree); len(inThree) > 0 && (m < 0.95 || m > 1.05) {
		t.Errorf("chain-of-3 members: observed/model %.3f", m)
	}
	if chi := chiSquare(counts, 1000, draws); chi < 25000 {
		t.Errorf("GetRandomKey chi-square %.0f, expected far above GetFairRandomKey's", chi)
	}
}

func TestGetSomeKeys(t *testing.T) {
	d := bigSet(3)
	got := d.GetSomeKeys(nil, 15)
	if len(got) != 15 {
		t.Fatalf("got %d keys", len(got))
	}
	// Without a jump the picks are whole consecutive chains, so they are distinct.
	seen := map[string]bool{}
	for _, e := range got {
		if seen[e.Key] {
			t.Fatalf("duplicate %s", e.Key)
		}
		seen[e.Key] = true
	}
	// More than the dict holds: capped at Len.
	small := NewSet[string](env70(1))
	addN(small, "a", 1, 3)
	if n := len(small.GetSomeKeys(nil, 10)); n != 3 {
		t.Fatalf("small: %d", n)
	}
	if n := len(small.GetSomeKeys(nil, 0)); n != 0 {
		t.Fatalf("count 0: %d", n)
	}
	empty := NewSet[string](env70(1))
	if empty.GetFairRandomKey() != nil || empty.GetRandomKey() != nil || len(empty.GetSomeKeys(nil, 5)) != 0 {
		t.Fatal("empty dict returned something")
	}
	// Appends after existing content.
	pre := []*Entry[string, struct{}]{nil}
	if out := d.GetSomeKeys(pre, 4); len(out) != 5 || out[0] != nil {
		t.Fatalf("append: len %d", len(out))
	}
}

// While rehashing, random picks only look at ht0 from rehashidx on and at ht1, and still find
// every element eventually.
func TestRandomDuringRehash(t *testing.T) {
	for _, e := range []*Env{env70(8), env74(8)} {
		d := NewSet[string](e)
		addN(d, "m", 1, 600)
		// Start a shrink so both tables are populated and ht1 is smaller.
		for i := 600; i > 40; i-- {
			d.Delete(fmt.Sprintf("m%d", i))
		}
		d.ResizeIfNeeded()
		d.PauseRehashing()
		if !d.IsRehashing() {
			d.ResumeRehashing()
			d.Shrink(40)
			d.PauseRehashing()
		}
		if !d.IsRehashing() {
			t.Fatalf("rules %d: no rehash to test", e.Rules.Version)
		}
		seen := map[string]bool{}
		for i := 0; i < 20000; i++ {
			seen[d.GetFairRandomKey().Key] = true
			seen[d.GetRandomKey().Key] = true
		}
		if len(seen) != 40 {
			t.Fatalf("rules %d: saw %d of 40 members", e.Rules.Version, len(seen))
		}
		d.ResumeRehashing()
	}
}
