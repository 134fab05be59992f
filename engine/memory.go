package engine

// MEMORY USAGE, as Redis computes it (REDIS-FACTS §1.3, §1.4, §6).
//
// 7.x: value + usable(key sds) + 24 (the keyspace dictEntry). A 7.0 `SET foo bar` is an embstr of
// usable(16+3+3+1 = 23) = 24, a key sds5 "foo" of usable(1+3+1) = 8, and 24: 56 with the 8-byte
// quantum (Redis's own build) and 64 with Debian's 16-byte quantum.
// 8.x: the key is embedded in the value object (kvobj), so there is no key sds and no dictEntry.

// MemoryUsage returns MEMORY USAGE key [SAMPLES samples] (samples 0 = all), or ok=false for a
// missing key.
func (e *Engine) MemoryUsage(key []byte, samples int) (size int64, ok bool) {
	o := e.Lookup(key)
	if o == nil {
		return 0, false
	}
	return e.objectMemory(key, o, samples), true
}

// objectMemory dispatches on the value type. Each type's file adds its own case.
func (e *Engine) objectMemory(key []byte, o *Object, samples int) int64 {
	switch o.Type {
	case TypeString:
		return e.stringMemory(key, o)
	}
	return 0
}

// stringMemory is the 7.x formula; the strings owner refines it for 8.x.
func (e *Engine) stringMemory(key []byte, o *Object) int64 {
	var v int
	switch o.Enc {
	case EncInt:
		v = 16
	case EncEmbstr:
		v = e.alloc.Usable(16 + 3 + o.Buf.Len() + 1)
	default:
		v = 16 + o.SDS.Usable
	}
	return int64(v + e.keySDSUsable(key) + 24)
}

// keySDSUsable is usable(sdsnewlen(key)): the keyspace's copy of the key name.
func (e *Engine) keySDSUsable(key []byte) int {
	h := 1
	switch n := len(key); {
	case n == 0:
		h = 3
	case n < 32:
		h = 1
	case n < 256:
		h = 3
	case n < 65536:
		h = 5
	default:
		h = 9
	}
	return e.alloc.Usable(h + len(key) + 1)
}
