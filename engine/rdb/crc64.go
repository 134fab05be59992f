package rdb

// CRC-64/Jones, the checksum at the end of a DUMP payload and of an RDB file (crc64.c).
//
// Parameters: polynomial 0xad93d23594c935a9, reflected input and output, initial value 0, no
// final xor. Check value: CRC64("123456789") = 0xe9c6d914c4b8d9ca. The footer stores it
// little-endian. This is a byte-at-a-time table version of the same function (Redis uses a
// sliced-by-8 table; the result is identical).

const jonesPoly = 0xad93d23594c935a9

var crcTable = func() (t [256]uint64) {
	// Reflected polynomial: reverse the bits of 0xad93d23594c935a9.
	var rev uint64
	for i := 0; i < 64; i++ {
		if uint64(jonesPoly)&(1<<uint(i)) != 0 {
			rev |= 1 << uint(63-i)
		}
	}
	for i := range t {
		c := uint64(i)
		for k := 0; k < 8; k++ {
			if c&1 != 0 {
				c = c>>1 ^ rev
			} else {
				c >>= 1
			}
		}
		t[i] = c
	}
	return
}()

// CRC64 continues crc over b (start with 0).
func CRC64(crc uint64, b []byte) uint64 {
	for _, x := range b {
		crc = crcTable[byte(crc)^x] ^ crc>>8
	}
	return crc
}
