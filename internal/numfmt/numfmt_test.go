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

func TestBytes(t *testing.T) {
	for n, want := range map[int64]string{0: "0 B", 9: "9 B", 10<<10 - 1: "10239 B", 10 << 10: "10.0 KiB",
		196608: "192.0 KiB", 1<<20 - 1: "1024.0 KiB", 1 << 20: "1.00 MiB", 6291456: "6.00 MiB",
		10485760: "10.0 MiB", 671088688: "640.0 MiB", 1<<30 - 1: "1024.0 MiB", 4 << 30: "4.0 GiB"} {
		if got := Bytes(n); got != want {
			t.Errorf("Bytes(%d) = %q, want %q", n, got, want)
		}
	}
}
