package dict

import "math/rand/v2"

// Rules are the sizing and rehash rules of one Redis generation (docs/internals.md §Dict; dict.c of
// 7.0.15, 7.2.6 and 7.4.1).
//
//	                         7.0 / 7.2                          7.4+
//	grow (resize enabled)    used ≥ size                        same
//	grow (resize "avoided")  used/size > 5 (integer division)    used ≥ 4 × size
//	shrink                   only when a command calls           inside every delete:
//	                         htNeedsResize (slots > 4 and         size > 4 and used × 8 ≤ size
//	                         used×100/slots < 10) + dictResize    (avoided: used × 32 ≤ size)
//	rehash step              one bucket of ht0 at rehashidx      same, but an add/find/delete whose
//	                         (≤ 10 empty buckets visited)         key sits in a not-yet-moved
//	                                                              non-empty bucket moves that bucket
//	resize of an empty ht0   starts a (trivial) rehash            installs the new table at once
//	dictExpand(size)         refused only while rehashing or      also refused when size ≤ current
//	                         size < used                          size
//
// 7.2 changed the set dict to "no value" entries (16 bytes, a lone member stored directly in its
// bucket) but kept the 7.0 sizing rules.
type Rules struct {
	// Version is the profile these rules came from (major*100+minor, e.g. 700, 704).
	Version uint16
	// ForceResizeRatio is dict_force_resize_ratio: 5 in 7.0/7.2, 4 in 7.4+.
	ForceResizeRatio uint64
	// ForceRatioInclusive selects the 7.4 test `used >= ratio*size` instead of 7.0's
	// `used/size > ratio`.
	ForceRatioInclusive bool
	// ShrinkOnDelete: 7.4+ shrinks inside dictDelete (fill ≤ 1/ShrinkFillDivisor).
	ShrinkOnDelete bool
	// ShrinkFillDivisor is 7.4's HASHTABLE_MIN_FILL (8: shrink when used×8 ≤ size).
	ShrinkFillDivisor uint64
	// NeedsResizePercent is 7.0/7.2's HASHTABLE_MIN_FILL (10: htNeedsResize when used×100/slots < 10).
	NeedsResizePercent uint64
	// BucketRehash: 7.4+ rehashes the key's own bucket when it is still in ht0 (_dictBucketRehash).
	BucketRehash bool
	// InstallWhenEmpty: 7.4+ _dictResize installs the new table directly when ht0 is empty.
	InstallWhenEmpty bool
	// ExpandMustGrow: 7.4+ dictExpand refuses a size not larger than the current table.
	ExpandMustGrow bool
	// NoValueSets: sets use dictEntryNoValue (7.2+); only affects allocation accounting.
	NoValueSets bool
}

// Rules70 are the rules of Redis 7.0 (and 7.2 apart from NoValueSets).
var Rules70 = Rules{
	Version:            700,
	ForceResizeRatio:   5,
	NeedsResizePercent: 10,
	ShrinkFillDivisor:  8,
}

// Rules72 are the rules of Redis 7.2: 7.0's sizing with no-value set entries.
var Rules72 = func() Rules { r := Rules70; r.Version = 702; r.NoValueSets = true; return r }()

// Rules74 are the rules of Redis 7.4 and later (also 8.x, which kept dict.c's rules).
var Rules74 = Rules{
	Version:             704,
	ForceResizeRatio:    4,
	ForceRatioInclusive: true,
	ShrinkOnDelete:      true,
	ShrinkFillDivisor:   8,
	NeedsResizePercent:  10,
	BucketRehash:        true,
	InstallWhenEmpty:    true,
	ExpandMustGrow:      true,
	NoValueSets:         true,
}

// RulesFor returns the rules of a version profile given as major*100+minor (700, 702, 704, 800…).
func RulesFor(version uint16) Rules {
	switch {
	case version >= 704:
		r := Rules74
		r.Version = version
		return r
	case version >= 702:
		r := Rules72
		r.Version = version
		return r
	}
	r := Rules70
	if version != 0 {
		r.Version = version
	}
	return r
}

// ResizeMode is Redis's global dict_can_resize.
type ResizeMode uint8

const (
	// ResizeEnable is the normal state.
	ResizeEnable ResizeMode = iota
	// ResizeAvoid is set while a fork child exists (BGSAVE, BGREWRITEAOF): tables grow or shrink
	// only past the force ratio, and rehashing pauses unless the size ratio is extreme.
	ResizeAvoid
	// ResizeForbid forbids resizing and rehashing entirely.
	ResizeForbid
)

// Env is what all dicts of one simulated server share: the rules, the hash key (Redis's global
// dict_hash_function_seed), the random source (Redis's global PRNGs) and dict_can_resize.
type Env struct {
	Rules  Rules
	Key    SipKey
	Rand   *rand.Rand
	Resize ResizeMode
}

// NewEnv makes an Env for a version profile (major*100+minor), deriving the hash key from seed.
// r is the engine's random source; nil makes one from the seed.
func NewEnv(version uint16, seed uint64, r *rand.Rand) *Env {
	if r == nil {
		r = rand.New(rand.NewPCG(seed, seed^0x6a09e667f3bcc909))
	}
	return &Env{Rules: RulesFor(version), Key: SeedKey(seed), Rand: r}
}

// randomULong is Redis's 64-bit genrand64_int64().
func (e *Env) randomULong() uint64 { return e.Rand.Uint64() }

// random31 is libc random()/rand(): 31 random bits.
func (e *Env) random31() uint64 { return uint64(e.Rand.Uint32() >> 1) }
