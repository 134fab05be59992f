package scene

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"redscope/engine"
	"redscope/lesson"
)

// TestDrawsFairAndSkewed plays the fair-draws lesson: the scene's counts add up to the draws,
// agree member by member with the reply the engine gave, stay near the fair line on the
// 10-member listpack, stray far from it on the 1000-member hashtable (dictGetFairRandomKey), and
// give every member exactly once when every rank is read with ZRANGE i i.
func TestDrawsFairAndSkewed(t *testing.T) {
	l := encBuiltin(t, "fair-draws")
	for _, v := range []engine.Version{engine.V72, engine.DefaultVersion} {
		cfg := lesson.Config{Version: v}
		at := func(pos int) (*Draws, Input) {
			in := encAt(t, l, cfg, pos, "en")
			return updated(&Draws{}, in), in
		}
		if s, _ := at(1); s.Key != "" {
			t.Errorf("%v step 1 (no draws): drew %q", v, s.Key)
		}
		for _, c := range []struct {
			pos     int
			key     string
			members int64
			method  string
		}{{2, "small", 10, "rand-index"}, {3, "big", 1000, "dict-fair-random"}} {
			s, in := at(c.pos)
			if s.Key != c.key || s.Members != c.members || s.Total != 100000 || s.Method != c.method {
				t.Fatalf("%v step %d: %s, %d members, %d draws, %s", v, c.pos, s.Key, s.Members, s.Total, s.Method)
			}
			// The counts are the reply's, member by member.
			fromReply := map[string]int64{}
			for _, x := range in.Last {
				for _, line := range strings.Split(x.Reply, "\n") {
					_, q, _ := strings.Cut(line, ") ")
					m, err := strconv.Unquote(q)
					if err != nil {
						t.Fatalf("%v step %d: reply line %q", v, c.pos, line)
					}
					fromReply[m]++
				}
			}
			var want []int64
			for _, n := range fromReply {
				want = append(want, n)
			}
			for int64(len(want)) < c.members {
				want = append(want, 0)
			}
			slices.Sort(want)
			if !slices.Equal(want, s.Counts) {
				t.Errorf("%v step %d: counts differ from the reply", v, c.pos)
			}
		}
		small, _ := at(2)
		big, _ := at(3)
		if small.Chi2 > 4*float64(small.Members-1) || float64(small.Min) < 0.95*small.Expected() {
			t.Errorf("%v: listpack draws not fair: chi-square %.0f, fewest %d", v, small.Chi2, small.Min)
		}
		if big.Chi2 < 3*float64(big.Members-1) || float64(big.Min) > 0.6*big.Expected() || float64(big.Max) < 1.6*big.Expected() {
			t.Errorf("%v: hashtable draws look fair: chi-square %.0f, fewest %d, most %d", v, big.Chi2, big.Min, big.Max)
		}
		t.Logf("%v: listpack chi-square %.0f (%d … %d), hashtable chi-square %.0f (%d … %d)", v, small.Chi2, small.Min, small.Max, big.Chi2, big.Min, big.Max)
		if fair, _ := at(5); fair.Method != "rank" || fair.Members != 1000 || fair.Min != 1 || fair.Max != 1 || fair.Chi2 != 0 {
			t.Errorf("%v: ZRANGE i i over every rank: %+v", v, fair)
		}
	}
}
