// Package murmur is Austin Appleby's MurmurHash64A (the 64-bit MurmurHash2), the one hash both
// of Redis's probabilistic types use: hyperloglog.c hashes elements with it under seed
// 0xadc83b19 (engine/hll), and RedisBloom's bloom.c hashes items with it twice, first under
// seed 0xc6a4a7935bd1e995 and then under the first hash (engine/bloom).
//
// The input is read in 8-byte little-endian blocks (as Redis reads it on x86), the length is
// mixed into the seed, and the 0..7 tail bytes are folded in before the final avalanche. For
// example Sum64A([]byte("hello"), 0xc6a4a7935bd1e995) is 0x5ba5b8a59803e699.
package murmur

import "encoding/binary"

// Sum64A is MurmurHash64A of data under seed.
func Sum64A(data []byte, seed uint64) uint64 {
	const m = 0xc6a4a7935bd1e995
	const r = 47
	h := seed ^ (uint64(len(data)) * m)
	n := len(data) &^ 7
	for i := 0; i < n; i += 8 {
		k := binary.LittleEndian.Uint64(data[i:])
		k *= m
		k ^= k >> r
		k *= m
		h ^= k
		h *= m
	}
	tail := data[n:]
	if len(tail) > 0 {
		for i := len(tail) - 1; i >= 0; i-- {
			h ^= uint64(tail[i]) << (8 * uint(i))
		}
		h *= m
	}
	h ^= h >> r
	h *= m
	h ^= h >> r
	return h
}
