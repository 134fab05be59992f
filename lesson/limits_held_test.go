package lesson

import (
	"math/rand/v2"
	"testing"

	"redscope/engine"
)

// TestCheckArgsHeldIsSizes: the held memory checkArgs measures while it checks KeyBytes, which
// guard.exec takes as its measure before the command (it called sizes), is sizes(e, args):
// arguments naming keys of several types and sizes, twice, missing, expired; -1 without a
// KeyBytes limit or an engine.
func TestCheckArgsHeldIsSizes(t *testing.T) {
	clock := &engine.ManualClock{Ms: engine.StartMs}
	e := engine.New(engine.Options{Clock: clock})
	do := func(args ...string) {
		bs := make([][]byte, len(args))
		for i, a := range args {
			bs[i] = []byte(a)
		}
		e.Exec(bs)
	}
	do("SET", "s", "v")
	do("SET", "big", string(make([]byte, 100000)))
	do("SETBIT", "paged", "40000000", "1")
	do("RPUSH", "l", "a", "b", "c")
	do("PFADD", "h", "a", "b")
	do("HSET", "hh", "f", "v")
	do("SET", "gone", "x", "PX", "10")
	do("SET", "", "empty name")
	clock.Ms += 100
	names := []string{"s", "big", "paged", "l", "h", "hh", "gone", "", "nokey", "u1"}
	r := rand.New(rand.NewPCG(11, 3))
	lim := DefaultLimits
	for i := 0; i < 5000; i++ {
		args := [][]byte{[]byte("MGET")}
		for j := r.IntN(8); j >= 0; j-- {
			args = append(args, []byte(names[r.IntN(len(names))]))
		}
		elems := 0
		held, err := lim.checkArgs(args, &elems, e)
		if err != nil {
			t.Fatalf("%q: %v", args, err)
		}
		if want := sizes(e, args); held != want {
			t.Fatalf("%q: checkArgs measured %d, sizes %d", args, held, want)
		}
	}
	noKeyBytes := lim
	noKeyBytes.KeyBytes = 0
	elems := 0
	if held, _ := noKeyBytes.checkArgs([][]byte{[]byte("GET"), []byte("s")}, &elems, e); held != -1 {
		t.Errorf("without KeyBytes: held %d, want -1", held)
	}
	if held, _ := lim.checkArgs([][]byte{[]byte("GET"), []byte("s")}, &elems, nil); held != -1 {
		t.Errorf("without an engine: held %d, want -1", held)
	}
}
