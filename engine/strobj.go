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
	if e.cfg.Int("maxmemory") == 0 {
		return true
	}
	p := e.cfg.Get("maxmemory-policy")
	return !(len(p) > 4 && (p[len(p)-3:] == "lru" || p[len(p)-3:] == "lfu"))
}

// newStringObject builds the object a SET-family command stores for val (tryObjectEncoding):
// a shared integer 0..9999, an int, an embstr up to 44 bytes, or an exact raw sds.
func (e *Engine) newStringObject(key, val []byte) *Object {
	if len(val) <= 20 {
		if v, ok := string2ll(val); ok {
			o := &Object{Type: TypeString, Enc: EncInt, Int: v}
			o.Shared = v >= 0 && v < sharedIntegers && e.useSharedIntegers()
			return o
		}
	}
	if len(val) <= embstrSizeLimit {
		o := &Object{Type: TypeString, Enc: EncEmbstr, Buf: sds.FromBytes(val)}
		o.SDS = sds.Header{Type: sds.Type8, Len: len(val), Alloc: len(val)}
		return o
	}
	o := &Object{Type: TypeString, Enc: EncRaw, Buf: sds.FromBytes(val)}
	o.SDS = sds.New(e.alloc, len(val))
	// trimStringObjectIfNeeded: more than 10% spare → alloc = len (same usable size).
	if o.SDS.Avail() > o.SDS.Len/10 {
		o.SDS = o.SDS.Resize(e.alloc, o.SDS.Len, false)
	}
	return o
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
	e.emit(EncodingEvent{Key: string(key), From: o.Enc.String(), To: "raw", Reason: cmd + " modifies the value in place"})
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
