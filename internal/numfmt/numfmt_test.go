package numfmt

import (
	"math"
	"testing"
)

func TestGroup(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 7: "7", 999: "999", 1000: "1 000", 12500: "12 500",
		536870912: "536 870 912", -1234: "-1 234", -100: "-100", math.MinInt64: "-9 223 372 036 854 775 808"} {
		if got := Group(n); got != want {
			t.Errorf("Group(%d) = %q, want %q", n, got, want)
		}
	}
}
