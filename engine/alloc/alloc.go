// Package alloc models the jemalloc size classes that decide every MEMORY USAGE figure.
//
// Redis asks the allocator for n bytes and then records malloc_usable_size(), the size class n was
// rounded up to. Which classes exist depends on how jemalloc was built:
//
//   - Redis's own build (`make`, the official Docker images the course labs ran on) links the bundled
//     jemalloc configured with --with-lg-quantum=3: an 8-byte quantum, so the small classes are
//     8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, …  `SET m1 y` reports 56.
//   - Debian's redis-server package links the system libjemalloc2 with the default 16-byte quantum:
//     8, 16, 32, 48, 64, 80, 96, …  The same `SET m1 y` reports 64.
//
// Above the quantum range both follow the same rule, four classes per doubling: for a request of n
// bytes let p be the smallest power of two ≥ n; the class is n rounded up to a multiple of
// max(quantum, p/8). A 536 870 922-byte request (SETBIT at offset 2^32−1) lands in the
// 671 088 640-byte class; 100 006 bytes (a 100 000-byte raw string) in 114 688.
package alloc

import (
	"fmt"
	"math/bits"
)

// Allocator selects a size-class table.
type Allocator uint8

const (
	// Jemalloc is Redis's bundled jemalloc with an 8-byte quantum (the default).
	Jemalloc Allocator = iota
	// Jemalloc16 is a distribution's system jemalloc with the default 16-byte quantum.
	Jemalloc16
)

// Names lists the accepted allocator names, default first.
var Names = []string{"jemalloc", "jemalloc-16"}

// Parse turns a command-line/URL name into an Allocator.
func Parse(name string) (Allocator, error) {
	switch name {
	case "", "jemalloc", "jemalloc-8":
		return Jemalloc, nil
	case "jemalloc-16":
		return Jemalloc16, nil
	}
	return Jemalloc, fmt.Errorf("unknown allocator %q (want jemalloc or jemalloc-16)", name)
}

func (a Allocator) String() string {
	if a == Jemalloc16 {
		return "jemalloc-16"
	}
	return "jemalloc"
}

// Quantum is the spacing of the smallest classes.
func (a Allocator) Quantum() int {
	if a == Jemalloc16 {
		return 16
	}
	return 8
}

// Usable returns malloc_usable_size(malloc(n)): the size class n is rounded up to.
func (a Allocator) Usable(n int) int {
	if n <= 8 {
		return 8
	}
	q := a.Quantum()
	if n <= q {
		return q
	}
	p := 1 << bits.Len(uint(n-1)) // smallest power of two ≥ n
	d := p / 8
	if d < q {
		d = q
	}
	return (n + d - 1) / d * d
}
