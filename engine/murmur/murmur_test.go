package murmur

import "testing"

// The 0..7 tail bytes and whole blocks both count: every prefix of a 17-byte string (two
// blocks and a tail of one) hashes differently, and the seed changes the result.
func TestSum64ATailAndSeed(t *testing.T) {
	msg := []byte("abcdefghijklmnopq")
	seen := map[uint64]int{}
	for n := 0; n <= len(msg); n++ {
		h := Sum64A(msg[:n], 0xadc83b19)
		if prev, dup := seen[h]; dup {
			t.Fatalf("prefixes %d and %d collide at %#x", prev, n, h)
		}
		seen[h] = n
		if Sum64A(msg[:n], 0xc6a4a7935bd1e995) == h {
			t.Fatalf("prefix %d: seed ignored", n)
		}
	}
	// RedisBloom's first hash of "hello" (seed 0xc6a4a7935bd1e995), as bloom.c computes it.
	if got := Sum64A([]byte("hello"), 0xc6a4a7935bd1e995); got != 0x5ba5b8a59803e699 {
		t.Fatalf("hello: %#x", got)
	}
}
