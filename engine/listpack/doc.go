// Package listpack is a byte-exact model of Redis's listpack (listpack.c, Redis 7.0–7.4): the
// compact serialized list behind small hashes, sorted sets, sets (7.2+), lists (7.2+) and every
// quicklist node.
//
// # Layout (listpack.c; docs/internals.md §Listpack)
//
//	[total bytes u32 LE][count u16 LE][entry]…[0xFF]
//
// count 65535 means "unknown, walk the entries". An empty listpack is 7 bytes. Each entry is
// encoding(+length) + data + backlen, where backlen is the size of encoding+data written so the list
// can be walked right to left: 1 byte if L ≤ 127, 2 if L < 16383, 3 if L < 2097151, 4 if
// L < 268435455, else 5 (the strict "<" bounds are Redis's). The last backlen byte holds the low 7
// bits; every byte but the left-most has bit 7 set.
//
//	0xxxxxxx                 7-bit uint 0..127            2-byte entry
//	10LLLLLL data            string, len 0..63
//	110xxxxx xxxxxxxx        13-bit int −4096..4095       3-byte entry (high bits first byte)
//	1110LLLL LLLLLLLL data   string, len 64..4095
//	0xF0 len32 data          string, len ≥ 4096
//	0xF1/F2/F3/F4 LE data    16/24/32/64-bit two's complement int
//
// A string that is a strict int64 (string2ll rules: no '+', no leading zeros, "-0" rejected, at
// most 20 bytes) is always stored as an integer — StringToInt64.
//
// # Positions
//
// An entry is addressed by its byte offset in Bytes() (an int, −1 = none), exactly like Redis's
// `unsigned char *p`. Offsets are invalidated by any mutation except where a method returns a new
// one (Insert returns the new entry, Delete the entry that followed the deleted one).
//
// # Reports for the visualizer
//
// Every mutating method returns a Change: where the entry went, how many bytes it took, how many
// bytes memmove shifted, the old and new totals, and whether Redis would call realloc. The
// cumulative Work counters (bytes scanned while seeking/finding, bytes moved, comparisons) let the
// course lab contrast listpack with hashtable cost.
//
// # Memory
//
// Redis reallocs a listpack to exactly its total bytes when it grows past the allocation's usable
// size and on every shrink (lpInsert, lpShrinkToFit), so the usable size is class(total) except
// after NewCap with a larger capacity hint. The listpack records the last size asked of the
// allocator; Usable(a) returns malloc_usable_size of it, which is what MEMORY USAGE counts
// (docs/internals.md §Encodings: a listpack hash is 16 + Usable + usable(key sds) + 24).
//
// Verified byte-for-byte against Debian's redis-server 7.0.15 through DUMP (RDB types 16/17/18
// carry the raw listpack): see engine/quicklist/redis_test.go, run with REDSCOPE_REDIS_PORT set.
//
// Positions are bounds-checked: an offset outside the entries is refused (−1 / Change.Failed),
// never a panic. An offset pointing into the middle of an entry cannot always be detected — like a
// stray pointer in Redis it may corrupt the listpack; callers only pass offsets this package gave.
package listpack
