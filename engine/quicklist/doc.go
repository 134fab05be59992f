// Package quicklist is a model of Redis's quicklist (quicklist.c): a doubly linked list of nodes,
// each holding a listpack ("packed") or, for huge elements, one raw element ("plain"). It backs
// every list in Redis 7.0 and big lists in 7.2+.
//
// # Node size rules (quicklist.c; docs/internals.md §Encodings)
//
// fill = list-max-listpack-size, clamped to −5..32767. A negative fill is a byte limit per node
// (−1..−5 → 4, 8, 16, 32, 64 KiB); a positive one is an entry count, with an 8 KiB safety cap on
// the node size. A node accepts an element of sz bytes only if node.sz + sz + 8 stays within the
// limit (the +8 over-estimates the entry overhead; sz is the raw element length, not the encoded
// one). Two neighbouring nodes merge when a.sz + b.sz − 11 (7.0; − 7 from 7.2) fits.
//
// Where each version differs (Rules):
//
//   - Rules70 (7.0.x): a plain node is used only for elements of 1 GiB or more (packed_threshold),
//     so a 9000-byte element sits alone in a packed node. LSET replaces in place (lpReplace) unless
//     the new value is huge.
//   - Rules72 (7.2.x): merge estimate −7; LSET of a huge value splits the node around it.
//   - Rules74 (7.4+): an element is "large" — stored in a plain node — when it exceeds the node's
//     byte limit (negative fill) or 8 KiB (positive fill).
//
// Only Rules70 has been checked against a server (Debian's 7.0.15, byte-exact through DUMP).
//
// # Not modelled
//
// list-compress-depth > 0 (LZF compression of inner nodes) is not implemented: the depth is
// accepted and ignored, so node bytes are always the raw listpack. Bookmarks (used only by
// active defrag) are not modelled.
//
// # Memory (object.c objectComputeSize; docs/internals.md §Encodings)
//
// MEMORY USAGE of a quicklist = 16 (robj) + 40 (quicklist) + the average of (40 + usable(node
// allocation)) over the first `samples` nodes × the node count — MemoryUsage computes exactly
// that (the key and the keyspace dictEntry are the caller's).
//
// # Events
//
// Set Quicklist.OnEvent to observe node creation, deletion, splits, merges and every listpack
// change inside a node (Event.Change); with it nil nothing is recorded.
package quicklist
