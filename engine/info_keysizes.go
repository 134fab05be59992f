package engine

import (
	"strconv"
	"strings"
)

// INFO keysizes (8.0+ profiles): per database and per basic type, a base-2 logarithmic histogram
// of key sizes. Checked against the pull request that added the section to Redis (redis/redis
// #13592, head commit 2f276c573, "Add KEYSIZES section to INFO" and its fixes; no 8.x release is
// in the source mirror):
//
//   - the size is a string's length in bytes (stringObjectLen: an int-encoded string counts its
//     decimal digits), a list's, set's, sorted set's or hash's element count (listTypeLength,
//     setTypeSize, zsetLength, hashTypeLength(o, 0): hash fields whose TTL passed but that were
//     not yet deleted still count). Streams and module types (the bloom filter) are not counted;
//   - bin i holds sizes in [2^i, 2^(i+1)) (db.c updateKeysizesHist with util.h log2ceil, which is
//     63 - clz: the floor); a size of 0 (the empty string) is in no bin; there are 48 bins
//     (kvstore.h MAX_KEYSIZES_BINS);
//   - a bin prints as its lower bound with a binary suffix, 1 2 4 … 512 1K 2K … 512K 1M … 1G …
//     1T … (server.c genRedisInfoString, expSizeLabels); empty bins are left out;
//   - a line per database with keys and per type with a counted key, "db<n>_<name>:" then
//     "<bin>=<count>" joined by commas, types in OBJ_* order: strings, lists, sets, zsets,
//     hashes (distrib_strings_sizes, distrib_lists_items, distrib_sets_items, distrib_zsets_items,
//     distrib_hashes_items);
//   - the section follows keyspace and is in INFO's default set (genInfoSectionDict's
//     default_sections), so also in all and everything.
//
// Redis keeps the histogram incrementally in each write path; the engine counts the keyspace when
// the section is asked for (O(keys), as INFO memory's dataset figure already is), which gives the
// histogram those updates aim at. Where the pull request's server misses an update, its figures
// drift and the engine's do not (docs/config.md §INFO names the case found).

// keysizesBins is kvstore.h MAX_KEYSIZES_BINS.
const keysizesBins = 48

// keysizesTypes are the counted types in OBJ_* order with their INFO names.
var keysizesTypes = [...]struct {
	t    ObjType
	name string
}{
	{TypeString, "distrib_strings_sizes"},
	{TypeList, "distrib_lists_items"},
	{TypeSet, "distrib_sets_items"},
	{TypeZSet, "distrib_zsets_items"},
	{TypeHash, "distrib_hashes_items"},
}

// keysizesBin is the bin of size n >= 1: floor(log2(n)) (log2ceil in util.h), capped at the
// last bin.
func keysizesBin(n uint64) int {
	b := -1
	for n > 0 {
		n >>= 1
		b++
	}
	if b >= keysizesBins {
		b = keysizesBins - 1
	}
	return b
}

// keysizesLabel is bin i's label: 2^(i mod 10) with the suffix of its power of 1024
// (expSizeLabels: "1" … "512", "1K" … "512K", "1M", …).
func keysizesLabel(i int) string {
	suffix := ""
	if i >= 10 {
		suffix = string("KMGTPE"[i/10-1])
	}
	return strconv.Itoa(1<<(i%10)) + suffix
}

// keysizesSize is the size a key of a counted type is filed under; ok is false for the types the
// histogram leaves out.
func keysizesSize(o *Object) (slot int, n uint64, ok bool) {
	switch o.Type {
	case TypeString:
		return 0, uint64(o.StringLen()), true
	case TypeList:
		return 1, uint64(o.Val.(*listValue).length()), true
	case TypeSet:
		return 2, uint64(setSize(o)), true
	case TypeZSet:
		return 3, uint64(o.Val.(*zsetValue).card()), true
	case TypeHash:
		return 4, uint64(hashLen(o)), true
	}
	return 0, 0, false
}

// writeKeysizes appends the lines of the keysizes section (without its header).
func (e *Engine) writeKeysizes(b *strings.Builder) {
	for i, d := range e.dbs {
		if len(d.keys) == 0 {
			continue
		}
		var hist [len(keysizesTypes)][keysizesBins]uint64
		for _, o := range d.keys {
			if t, n, ok := keysizesSize(o); ok && n > 0 {
				hist[t][keysizesBin(n)]++
			}
		}
		for t, h := range hist {
			first := true
			for bin, c := range h {
				if c == 0 {
					continue
				}
				if first {
					b.WriteString("db" + strconv.Itoa(i) + "_" + keysizesTypes[t].name + ":")
					first = false
				} else {
					b.WriteByte(',')
				}
				b.WriteString(keysizesLabel(bin) + "=" + strconv.FormatUint(c, 10))
			}
			if !first {
				b.WriteString("\r\n")
			}
		}
	}
}
