package alloc

import "testing"

func TestClasses(t *testing.T) {
	first8 := []int{8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320}
	first16 := []int{8, 16, 32, 48, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320}
	check := func(a Allocator, want []int) {
		var got []int
		last := 0
		for n := 1; len(got) < len(want); n++ {
			if u := a.Usable(n); u != last {
				got = append(got, u)
				last = u
			}
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("%v classes = %v, want %v", a, got, want)
			}
		}
	}
	check(Jemalloc, first8)
	check(Jemalloc16, first16)
	for _, c := range []struct{ n, want int }{
		{536870922, 671088640}, {1048586, 1310720}, {2000011, 2097152}, {100006, 114688}, {14337, 16384},
	} {
		for _, a := range []Allocator{Jemalloc, Jemalloc16} {
			if got := a.Usable(c.n); got != c.want {
				t.Errorf("%v.Usable(%d) = %d, want %d", a, c.n, got, c.want)
			}
		}
	}
}
