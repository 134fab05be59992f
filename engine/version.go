package engine

import "fmt"

// Version is a Redis version profile, major*100+minor (7.0 → 700, 8.8 → 808).
//
// A profile decides which commands exist (a newer command answers with Redis's unknown-command
// error), how doubles print (7.0: %.17g; 7.2+: shortest round-trip), HyperLogLog sparse growth
// (7.0 greedy sdsMakeRoomFor; 7.2+ +min(len,300)), set/list listpack encodings (7.2+), hash field
// TTLs (7.4+), and the MEMORY USAGE model (7.x: robj + key sds + dictEntry; 8.x: kvobj with the
// key embedded). See docs/internals.md §Versions.
type Version uint16

const (
	V70 Version = 700
	V72 Version = 702
	V74 Version = 704
	V80 Version = 800
	V82 Version = 802
	V84 Version = 804
	V88 Version = 808
)

// Versions lists every profile, oldest first.
var Versions = []Version{V70, V72, V74, V80, V82, V84, V88}

// DefaultVersion is the profile used when none is chosen.
const DefaultVersion = V88

func (v Version) String() string { return fmt.Sprintf("%d.%d", v/100, v%100) }

// ParseVersion accepts "7.0", "8.8", also with a patch ("7.0.15").
func ParseVersion(s string) (Version, error) {
	if s == "" {
		return DefaultVersion, nil
	}
	var maj, min int
	var patch int
	n, _ := fmt.Sscanf(s, "%d.%d.%d", &maj, &min, &patch)
	if n < 2 {
		return 0, fmt.Errorf("unknown Redis version %q (want one of %v)", s, Versions)
	}
	v := Version(maj*100 + min)
	for _, k := range Versions {
		if k == v {
			return v, nil
		}
	}
	return 0, fmt.Errorf("unknown Redis version %q (want one of %v)", s, Versions)
}

// Has reports whether this profile is at least w.
func (v Version) Has(w Version) bool { return v >= w }

// KVObj reports the 8.x memory layout (key embedded in the value object).
func (v Version) KVObj() bool { return v >= V80 }
