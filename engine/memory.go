package engine

import "redscope/engine/sds"

// MEMORY USAGE, as Redis computes it (object.c objectComputeSize; docs/internals.md §Strings, §Encodings).
//
// 7.x (profiles 7.0–7.4): value + usable(key sds) + 24 (the keyspace dictEntry), where the value
// counts its robj (16 bytes) — an embstr is one allocation robj+sds8, usable(16+3+len+1). A 7.0
// `SET foo bar` is an embstr of usable(23) = 24, a key sds5 "foo" of usable(1+3+1) = 8, and 24:
// 56 with the 8-byte quantum (Redis's own build) and 64 with Debian's 16-byte quantum.
//
// 8.x (profiles ≥ 8.0): the key lives inside the value object ("kvobj"): one allocation of
//
//	robj 16 | [expire 8] | key-header-size 1 | key sds (sds5/8/16/32 header + key + NUL) | [embedded value sds8]
//
// and MEMORY USAGE is usable(kvobj) + the value's own allocations (a raw string's sds, a
// listpack, …). There is no key sds and no dictEntry. An embstr is embedded only when
// 16 + (keylen+3) + (8 if the object has an expire field) + 4 + vallen ≤ 64 (the cache line);
// otherwise the value is a separate raw sds, even at ≤ 44 bytes. The expire field is allocated
// when the key is created with a TTL or gets one later, for keys of 128 bytes or more, and
// whenever the allocation's rounding leaves 8 spare bytes anyway.
//
// Course figures (Redis 8.8, 8-byte quantum) this model reproduces: 1000 × APPEND of 100 bytes →
// 196640 (kvobj 32 + greedy sds 196608); one SET of 100 000 bytes → 114712 (24 + 114688);
// `SETRANGE s:far 10000000 x` → 10485784 (24 + 10485760).
//
// Other types: add a case to objectMemory and use keyEntryOverhead for the key part.

// MemoryUsage returns MEMORY USAGE key [SAMPLES samples] (samples 0 = all), or ok=false for a
// missing key. Like Redis (memoryCommand reads the keyspace table directly) it does not expire
// the key: a key past its expiry that nothing has touched yet still reports its size.
func (e *Engine) MemoryUsage(key []byte, samples int) (size int64, ok bool) {
	o := e.db.keys[string(key)]
	if o == nil {
		return 0, false
	}
	return e.objectMemory(key, o, samples) + e.clusterEntryExtra(), true
}

// objectMemory dispatches on the value type. Each type's file adds its own case.
func (e *Engine) objectMemory(key []byte, o *Object, samples int) int64 {
	switch o.Type {
	case TypeString:
		return e.stringMemory(key, o)
	case TypeSet:
		return e.keyEntryOverhead(key, o) + e.setValueMemory(o, samples)
	case TypeHash:
		return e.keyEntryOverhead(key, o) + e.hashValueMemory(o, samples)
	case TypeZSet:
		return e.keyEntryOverhead(key, o) + e.zsetMemory(o, samples)
	case TypeList:
		return e.keyEntryOverhead(key, o) + e.listMemory(o, samples)
	case TypeStream:
		return e.keyEntryOverhead(key, o) + e.streamMemory(o, samples)
	case TypeBloom:
		return e.bloomMemory(key, o)
	}
	return 0
}

// keyEntryOverhead is what MEMORY USAGE counts for a key besides its value's own allocations:
// 7.x: the robj (16) + the key sds + the dictEntry (24); 8.x: the whole kvobj allocation (robj,
// optional expire field, embedded key). Non-string types add their structures to this.
func (e *Engine) keyEntryOverhead(key []byte, o *Object) int64 {
	if e.ver.KVObj() {
		return int64(e.kvobjUsable(key, o))
	}
	return int64(16 + e.keySDSUsable(key) + 24)
}

// stringMemory is MEMORY USAGE of a string value.
func (e *Engine) stringMemory(key []byte, o *Object) int64 {
	if e.ver.KVObj() {
		v := e.kvobjUsable(key, o)
		if o.Enc == EncRaw {
			v += o.SDS.Usable
		}
		return int64(v)
	}
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

// keySDSUsable is usable(sdsnewlen(key)): the 7.x keyspace's copy of the key name.
func (e *Engine) keySDSUsable(key []byte) int { return e.sdsUsable(len(key)) }

// kvobjKeyThreshold is KEY_SIZE_TO_INCLUDE_EXPIRE_THRESHOLD: keys this long always get the
// expire field.
const kvobjKeyThreshold = 128

// kvobjKeySize is the embedded key: 1 byte recording the header size, then the sds (type from
// the length, sds5 also for the empty key) with its NUL.
func kvobjKeySize(keylen int) int {
	return 1 + sds.ReqType(keylen).HeaderSize() + keylen + 1
}

// kvobjBase is the kvobj's size without the expire field.
func kvobjBase(key []byte, o *Object) int {
	n := 16 + kvobjKeySize(len(key))
	if o.Type == TypeString && o.Enc == EncEmbstr {
		n += 3 + o.Buf.Len() + 1 // embedded sds8 value
	}
	return n
}

// kvobjHasExpireField reports whether the object's allocation holds an expire field.
func (e *Engine) kvobjHasExpireField(key []byte, o *Object) bool {
	if o.Expirable || len(key) >= kvobjKeyThreshold {
		return true
	}
	if _, ok := e.db.expires[string(key)]; ok {
		return true // a TTL written without setExpire (RENAME, COPY…) still needs the field
	}
	base := kvobjBase(key, o)
	return e.alloc.Usable(base) >= base+8 // pre-reserved in the allocation's spare room
}

// kvobjUsable is usable(kvobj) for the 8.x layout.
func (e *Engine) kvobjUsable(key []byte, o *Object) int {
	n := kvobjBase(key, o)
	if e.kvobjHasExpireField(key, o) {
		n += 8
	}
	return e.alloc.Usable(n)
}

// kvobjEmbedFits is kvobjSet's test for keeping a ≤ 44-byte string embedded in the kvobj. It
// counts the key as keylen+3 whatever its sds type, as Redis does.
func kvobjEmbedFits(keylen, vallen int, hasExpire bool) bool {
	n := 16 + keylen + 3 + 4 + vallen
	if hasExpire {
		n += 8
	}
	return n <= 64
}

// kvobjExpireSlot runs when a TTL is set on key (db.go setExpire) in the 8.x layout: a kvobj
// without an expire field is reallocated with one (kvobjSetExpire → kvobjSet), which can turn an
// embedded string into a separate raw sds when the bigger object no longer fits the cache line.
func (e *Engine) kvobjExpireSlot(key string) {
	if !e.ver.KVObj() {
		return
	}
	o := e.db.keys[key]
	if o == nil || o.Expirable {
		return
	}
	kb := []byte(key)
	base := kvobjBase(kb, o)
	if len(key) >= kvobjKeyThreshold || e.alloc.Usable(base) >= base+8 {
		o.Expirable = true // the field was already there
		return
	}
	if o.Type == TypeString && o.Enc == EncEmbstr && !kvobjEmbedFits(len(key), o.Buf.Len(), true) {
		o.Enc = EncRaw
		o.SDS = sds.New(e.alloc, o.Buf.Len())
		if e.tracing {
			e.emit(EncodingEvent{Key: key, From: "embstr", To: "raw", Why: Why{Code: WhyExpireKV, N: int64(o.Buf.Len())}})
			e.emit(SDSEvent{Key: key, Cmd: "expire", After: o.SDS, Requested: o.Buf.Len(), Realloc: true})
		}
	}
	o.Expirable = true
}
