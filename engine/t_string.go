package engine

import (
	"redscope/engine/sds"
)

// String objects: how values are created (tryObjectEncoding), unshared before an in-place write
// (dbUnshareStringValue) and grown (sdsgrowzero / sdscatlen), with the SDS and encoding events the
// visualizer animates. Shared by the string, bitmap, bitfield and HyperLogLog commands.

const (
	sharedIntegers   = 10000 // OBJ_SHARED_INTEGERS
	embstrSizeLimit  = 44    // OBJ_ENCODING_EMBSTR_SIZE_LIMIT
	protoMbulkBigArg = 32 * 1024
)

// useSharedIntegers is false when maxmemory is set with an LRU/LFU policy (each key then keeps its
// own LRU field, so the shared pool is not used).
func (e *Engine) useSharedIntegers() bool {
	if e.cfg.hot.maxmemory == 0 {
		return true
	}
	p := e.cfg.Get("maxmemory-policy")
	return !(len(p) > 4 && (p[len(p)-3:] == "lru" || p[len(p)-3:] == "lfu"))
}

// newStringObject builds the object a SET-family command stores for the argument val
// (tryObjectEncoding): a shared integer 0..9999, an int, an embstr up to 44 bytes, or a raw sds.
// See fillArgString for the version rules.
func (e *Engine) newStringObject(key, val []byte) *Object {
	return e.fillArgString(nil, key, val, false)
}

// fillArgString is newStringObject writing into o (reusing its byte storage) or into a new
// object when o is nil. hasExpire: the key keeps a TTL (KEEPTTL), which matters for the 8.x
// kvobj layout.
//
// Version rules:
//   - ≤ 20 bytes that are a strict int64 → int, shared for 0..9999 (not with maxmemory + an
//     LRU/LFU policy);
//   - ≤ 44 bytes → embstr; in 8.x only when it fits the 64-byte kvobj together with the key
//     (kvobjEmbedFits), else a raw sds of exactly that size (sdsnewlen);
//   - longer → raw. Arguments of 32 KiB or more (PROTO_MBULK_BIG_ARG) are the client's query
//     buffer itself (bigArgSDS); shorter ones an exact sdsnewlen. trimStringObjectIfNeeded then
//     drops spare room above 10% of the length: 7.0 for every raw argument, 7.2+ only for big
//     arguments (MEMORY USAGE is the same either way; DEBUG SDSLEN's avail differs).
func (e *Engine) fillArgString(o *Object, key, val []byte, hasExpire bool) *Object {
	if o == nil {
		o = &Object{}
	}
	o.Type = TypeString
	o.Val = nil
	o.Shared = false
	o.Expirable = hasExpire && e.ver.KVObj()
	if len(val) <= 20 {
		if v, ok := string2ll(val); ok {
			o.Enc = EncInt
			o.Int = v
			o.Shared = v >= 0 && v < sharedIntegers && e.useSharedIntegers()
			o.Buf = sds.Buf{}
			o.SDS = sds.Header{}
			return o
		}
	}
	setBufBytes(&o.Buf, val)
	o.Int = 0
	if len(val) <= embstrSizeLimit {
		if !e.ver.KVObj() {
			o.Enc = EncEmbstr
			o.SDS = sds.Header{Type: sds.Type8, Len: len(val), Alloc: len(val)}
			return o
		}
		if kvobjEmbedFits(len(key), len(val), hasExpire) {
			o.Enc = EncEmbstr
			o.SDS = e.kvobjEmbeddedSDS(key, len(val), hasExpire)
			return o
		}
		o.Enc = EncRaw
		o.SDS = sds.New(e.alloc, len(val)) // kvobjSet: sdsnewlen, not trimmed
		return o
	}
	o.Enc = EncRaw
	if len(val) >= protoMbulkBigArg {
		o.SDS = e.bigArgSDS(len(val))
	} else {
		o.SDS = sds.New(e.alloc, len(val))
	}
	if (len(val) >= protoMbulkBigArg || !e.ver.Has(V72)) && o.SDS.Avail() > o.SDS.Len/10 {
		o.SDS = o.SDS.Resize(e.alloc, o.SDS.Len, false)
	}
	return o
}

// newStringFromBytes is createStringObject: embstr up to 44 bytes (subject to the 8.x kvobj
// fit), else an exact raw sdsnewlen; never int, never trimmed. INCRBYFLOAT results use it.
func (e *Engine) newStringFromBytes(key, val []byte, hasExpire bool) *Object {
	o := &Object{Type: TypeString, Buf: sds.FromBytes(val)}
	o.Expirable = hasExpire && e.ver.KVObj()
	if len(val) <= embstrSizeLimit && (!e.ver.KVObj() || kvobjEmbedFits(len(key), len(val), hasExpire)) {
		o.Enc = EncEmbstr
		if e.ver.KVObj() {
			o.SDS = e.kvobjEmbeddedSDS(key, len(val), hasExpire)
		} else {
			o.SDS = sds.Header{Type: sds.Type8, Len: len(val), Alloc: len(val)}
		}
		return o
	}
	o.Enc = EncRaw
	o.SDS = sds.New(e.alloc, len(val))
	return o
}

// kvobjEmbeddedSDS is the sds8 header of a value embedded in an 8.x kvobj: its alloc takes all
// the room left at the end of the allocation.
func (e *Engine) kvobjEmbeddedSDS(key []byte, n int, hasExpire bool) sds.Header {
	pre := 16 + kvobjKeySize(len(key))
	if hasExpire {
		pre += 8
	}
	total := e.alloc.Usable(pre + 3 + n + 1)
	al := total - pre - 3 - 1
	if al > 255 {
		al = 255
	}
	return sds.Header{Type: sds.Type8, Len: n, Alloc: al, Usable: total - pre}
}

// bigArgSDS models an argument of at least PROTO_MBULK_BIG_ARG bytes: Redis reads it straight
// into the client's query buffer and keeps that sds as the object. The buffer starts as the
// 16 KiB read buffer (sds16, sdsnewlen(16384)) and is grown non-greedily to n+2 bytes (the
// value and its CRLF) — a realloc when the header type stays sds16, else a fresh allocation —
// then the CRLF is dropped. Measured on 7.0.15: a 65 530-byte SET lands in an 81 920-byte
// allocation with 5 bytes of avail (sds16 alloc clamped at 65 535), where sdsnewlen would have
// used 65 536. This is the first big argument of a connection; a connection that already
// carried bigger arguments can keep a bigger buffer.
func (e *Engine) bigArgSDS(n int) sds.Header {
	qb := sds.New(e.alloc, 16384).WithLen(0)
	h, _ := qb.MakeRoomFor(e.alloc, n+2, false)
	return h.WithLen(n)
}

// setBufBytes replaces b's content with p, reusing b's storage when it is a small buffer.
func setBufBytes(b *sds.Buf, p []byte) {
	if b.Len() <= sds.DenseLimit && len(p) <= sds.DenseLimit && b.Len() > 0 {
		b.Resize(len(p))
		b.WriteAt(p, 0)
		return
	}
	*b = sds.FromBytes(p)
}

// newRawString makes a zero-filled raw string of exactly n bytes (sdsnewlen), as SETRANGE,
// SETBIT and BITFIELD do for a new key.
func (e *Engine) newRawString(key []byte, n int, cmd string) *Object {
	o := &Object{Type: TypeString, Enc: EncRaw}
	o.Buf.Resize(n)
	o.SDS = sds.New(e.alloc, n)
	e.emit(SDSEvent{Key: string(key), Cmd: cmd, After: o.SDS, Requested: n, Realloc: true})
	return o
}

// unshareString makes the value of key a private raw sds before an in-place write
// (dbUnshareStringValue): int and embstr values are copied into an exact-size raw sds.
func (e *Engine) unshareString(key []byte, o *Object, cmd string) *Object {
	if o.Enc == EncRaw {
		return o
	}
	val := o.StringBytes()
	n := &Object{Type: TypeString, Enc: EncRaw, Buf: sds.FromBytes(val)}
	n.SDS = sds.New(e.alloc, len(val))
	e.db.keys[string(key)] = n
	e.emit(EncodingEvent{Key: string(key), From: o.Enc.String(), To: "raw", Why: Why{Code: WhyInPlace, Name: cmd}})
	e.emit(SDSEvent{Key: string(key), Cmd: cmd, After: n.SDS, Requested: len(val), Realloc: true})
	return n
}

// growString is sdsgrowzero: make the string at least newLen bytes (zero-filled), growing the
// allocation greedily. Nothing happens when it is already long enough.
func (e *Engine) growString(key []byte, o *Object, newLen int, cmd string) {
	cur := o.Buf.Len()
	if newLen <= cur {
		return
	}
	before := o.SDS
	h, grew := before.MakeRoomFor(e.alloc, newLen-cur, true)
	o.SDS = h.WithLen(newLen)
	o.Buf.Resize(newLen)
	e.emit(SDSEvent{Key: string(key), Cmd: cmd, Before: before, After: o.SDS, Requested: newLen,
		Greedy: true, Realloc: grew, TypeChange: grew && h.Type != before.Type})
}

// appendString is sdscatlen: append p, growing greedily.
func (e *Engine) appendString(key []byte, o *Object, p []byte, cmd string) {
	before := o.SDS
	h, grew := before.MakeRoomFor(e.alloc, len(p), true)
	o.Buf.Append(p)
	o.SDS = h.WithLen(o.Buf.Len())
	e.emit(SDSEvent{Key: string(key), Cmd: cmd, Before: before, After: o.SDS, Requested: o.SDS.Len,
		Greedy: true, Realloc: grew, TypeChange: grew && h.Type != before.Type})
}

// checkStringLength is Redis's checkStringLength: size must not exceed proto-max-bulk-len.
func (e *Engine) checkStringLength(size int64) bool {
	return size <= e.cfg.Int("proto-max-bulk-len")
}
