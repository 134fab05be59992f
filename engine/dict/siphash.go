package dict

import (
	"encoding/binary"
	"math/bits"
)

// SipHash (Aumasson & Bernstein, "SipHash: a fast short-input PRF", 2012), written from the
// paper's definition. Redis hashes every dict key with SipHash-1-2 (one compression round per
// 8-byte word, two finalization rounds) keyed with a 16-byte per-process seed
// (siphash.c; docs/internals.md §Dict). SipHash-2-4 is the paper's default; the same routine with other round
// counts is what the reference test vectors check (siphash_test.go).

// Bytes is the set of key types the dict hashes: strings and byte slices.
type Bytes interface {
	~string | ~[]byte
}

// SipKey is the 128-bit key as two little-endian 64-bit words.
type SipKey struct{ K0, K1 uint64 }

// KeyFromBytes reads a 16-byte key (little-endian words, as the paper specifies).
func KeyFromBytes(b [16]byte) SipKey {
	return SipKey{binary.LittleEndian.Uint64(b[0:8]), binary.LittleEndian.Uint64(b[8:16])}
}

// SeedKey derives the dict hash key from an engine seed: two splitmix64 outputs. Redis draws
// its 16 bytes from /dev/urandom at startup; the simulator derives them from the seed so bucket
// positions are reproducible per seed.
func SeedKey(seed uint64) SipKey {
	s := seed
	next := func() uint64 {
		s += 0x9e3779b97f4a7c15
		z := s
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		return z ^ (z >> 31)
	}
	k0 := next()
	return SipKey{k0, next()}
}

type sipState struct{ v0, v1, v2, v3 uint64 }

func (s *sipState) round() {
	s.v0 += s.v1
	s.v1 = bits.RotateLeft64(s.v1, 13)
	s.v1 ^= s.v0
	s.v0 = bits.RotateLeft64(s.v0, 32)
	s.v2 += s.v3
	s.v3 = bits.RotateLeft64(s.v3, 16)
	s.v3 ^= s.v2
	s.v0 += s.v3
	s.v3 = bits.RotateLeft64(s.v3, 21)
	s.v3 ^= s.v0
	s.v2 += s.v1
	s.v1 = bits.RotateLeft64(s.v1, 17)
	s.v1 ^= s.v2
	s.v2 = bits.RotateLeft64(s.v2, 32)
}

// load64 reads 8 little-endian bytes of p at i.
func load64[T Bytes](p T, i int) uint64 {
	_ = p[i+7]
	return uint64(p[i]) | uint64(p[i+1])<<8 | uint64(p[i+2])<<16 | uint64(p[i+3])<<24 |
		uint64(p[i+4])<<32 | uint64(p[i+5])<<40 | uint64(p[i+6])<<48 | uint64(p[i+7])<<56
}

// newSip is the initial state under key k (the four "somepseudorandomlygeneratedbytes" words).
func newSip(k SipKey) sipState {
	return sipState{
		v0: k.K0 ^ 0x736f6d6570736575,
		v1: k.K1 ^ 0x646f72616e646f6d,
		v2: k.K0 ^ 0x6c7967656e657261,
		v3: k.K1 ^ 0x7465646279746573,
	}
}

// lastBlock is the final message word: the 0..7 bytes of p from end, then the message length
// mod 256 in the top byte.
func lastBlock[T Bytes](p T, end int) uint64 {
	b := uint64(len(p)) << 56
	for i := end; i < len(p); i++ {
		b |= uint64(p[i]) << (8 * uint(i-end))
	}
	return b
}

// SipHash computes SipHash-c-d of p under key k.
func SipHash[T Bytes](k SipKey, p T, c, d int) uint64 {
	s := newSip(k)
	end := len(p) &^ 7
	for i := 0; i < end; i += 8 {
		m := load64(p, i)
		s.v3 ^= m
		for r := 0; r < c; r++ {
			s.round()
		}
		s.v0 ^= m
	}
	b := lastBlock(p, end)
	s.v3 ^= b
	for r := 0; r < c; r++ {
		s.round()
	}
	s.v0 ^= b
	s.v2 ^= 0xff
	for r := 0; r < d; r++ {
		s.round()
	}
	return s.v0 ^ s.v1 ^ s.v2 ^ s.v3
}

// Sum12 is SipHash-1-2, Redis's dict hash function (siphash() in siphash.c): SipHash with c = 1
// and d = 2 written out, since every dict lookup hashes its key.
func Sum12[T Bytes](k SipKey, p T) uint64 {
	s := newSip(k)
	end := len(p) &^ 7
	for i := 0; i < end; i += 8 {
		m := load64(p, i)
		s.v3 ^= m
		s.round()
		s.v0 ^= m
	}
	b := lastBlock(p, end)
	s.v3 ^= b
	s.round()
	s.v0 ^= b
	s.v2 ^= 0xff
	s.round()
	s.round()
	return s.v0 ^ s.v1 ^ s.v2 ^ s.v3
}
