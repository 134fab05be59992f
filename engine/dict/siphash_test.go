package dict

import (
	"math/rand/v2"
	"testing"
)

// The paper's reference key 00 01 … 0f and messages 00 01 … (n-1); SipHash-2-4 outputs as
// little-endian words (Aumasson & Bernstein, appendix A; the same table ships in Redis's
// siphash.c test vectors).
func TestSipHash24ReferenceVectors(t *testing.T) {
	var kb [16]byte
	for i := range kb {
		kb[i] = byte(i)
	}
	k := KeyFromBytes(kb)
	want := map[int]uint64{
		0:  0x726fdb47dd0e0e31,
		1:  0x74f839c593dc67fd,
		2:  0x0d6c8009d9a94f5a,
		3:  0x85676696d7fb7e2d,
		7:  0xab0200f58b01d137,
		8:  0x93f5f5799a932462,
		15: 0xa129ca6149be45e5,
		63: 0x958a324ceb064572,
	}
	msg := make([]byte, 64)
	for i := range msg {
		msg[i] = byte(i)
	}
	for n, w := range want {
		if got := SipHash(k, msg[:n], 2, 4); got != w {
			t.Errorf("SipHash-2-4 len %d = %#x, want %#x", n, got, w)
		}
		if got := SipHash(k, string(msg[:n]), 2, 4); got != w {
			t.Errorf("SipHash-2-4 (string) len %d = %#x, want %#x", n, got, w)
		}
	}
}

// Sum12 is the specialised SipHash-1-2; it must agree with the generic routine for every
// length around the 8-byte block boundaries, for strings and byte slices alike.
func TestSum12MatchesGeneric(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 70; n++ {
		for trial := 0; trial < 20; trial++ {
			k := SipKey{r.Uint64(), r.Uint64()}
			b := make([]byte, n)
			for i := range b {
				b[i] = byte(r.Uint32())
			}
			g := SipHash(k, b, 1, 2)
			if s := Sum12(k, b); s != g {
				t.Fatalf("len %d: Sum12 %#x != SipHash(1,2) %#x", n, s, g)
			}
			if s := Sum12(k, string(b)); s != g {
				t.Fatalf("len %d: Sum12(string) differs", n)
			}
			if n > 0 && SipHash(k, b, 2, 4) == g {
				t.Fatalf("len %d: 1-2 and 2-4 agree, round counts ignored", n)
			}
		}
	}
}

func TestSeedKeyDeterministic(t *testing.T) {
	if SeedKey(7) != SeedKey(7) {
		t.Fatal("SeedKey not deterministic")
	}
	if SeedKey(7) == SeedKey(8) {
		t.Fatal("different seeds give the same key")
	}
}
