package engine

import (
	"strconv"

	"redscope/engine/dict"
	"redscope/engine/listpack"
)

// The hash value type (t_hash.c of 7.0.15 / 7.2.6 / 7.4.1, re-implemented from
// docs/internals.md §Encodings, §Hash field expiry):
//
//   - listpack: field, value, field, value, … (at most hash-max-listpack-entries fields, fields
//     and values of at most hash-max-listpack-value bytes);
//   - listpackex (7.4+): the first HEXPIRE-family command on a listpack hash turns it into
//     triplets field, value, ttl (unix ms, 0 = none) kept sorted by ttl, no-TTL fields last;
//     it never goes back to listpack;
//   - hashtable: a dict of field → value. 7.0/7.2 fields are sds; 7.4+ fields are "mstr"
//     strings, which carry 2 flag bytes + a 16-byte ExpireMeta once they got a TTL.
//
// Field expiry is lazy, with the engine clock: reads treat a field whose time is < now as
// missing and delete it (and the key when it was the last field); HLEN still counts it.

// hashLPNoTTL is HASH_LP_NO_TTL.
const hashLPNoTTL = 0

// hfeMaxAbsTimeMs is HFE_MAX_ABS_TIME_MSEC: (2^48 − 1) >> 2.
const hfeMaxAbsTimeMs = (1<<48 - 1) >> 2

// hashField is one hashtable field's value and TTL.
type hashField struct {
	val    []byte
	expire int64 // unix ms, 0 = none
	meta   bool  // 7.4+: the field mstr was allocated with ExpireMeta (+18 bytes)
}

// hashValue is Object.Val of a hash.
type hashValue struct {
	lp   *listpack.Listpack // EncListpack (pairs) and EncListpackEx (triplets)
	ht   *dict.Dict[string, *hashField]
	hfe  bool // hashtable dict carries HFE metadata (7.4+, after the first HEXPIRE)
	eng  *Engine
	tkey string
}

func hv(o *Object) *hashValue { return o.Val.(*hashValue) }

func (e *Engine) newHashObject() *Object {
	v := &hashValue{eng: e, lp: e.newListpack(0)}
	return &Object{Type: TypeHash, Enc: EncListpack, Val: v}
}

func (e *Engine) newHashDict(v *hashValue) *dict.Dict[string, *hashField] {
	d := dict.New[string, *hashField](e.valueDictEnv())
	d.Observer = e.dictObserver(&v.tkey)
	return d
}

func (e *Engine) traceHash(key []byte, o *Object) {
	if e.tracing && o != nil {
		hv(o).tkey = string(key)
	}
}

// hashTuple is the number of listpack entries per field.
func hashTuple(o *Object) int {
	if o.Enc == EncListpackEx {
		return 3
	}
	return 2
}

// hashLen is hashTypeLength(o, 0): logically expired fields still count.
func hashLen(o *Object) int {
	v := hv(o)
	if o.Enc == EncHashtable {
		return v.ht.Len()
	}
	return v.lp.Len() / hashTuple(o)
}

// hashExpired reports a field TTL that has passed (expireAt < now).
func (e *Engine) hashExpired(expire int64) bool {
	return expire != 0 && expire < e.NowMs()
}

// hashLenLive is hashTypeLength(o, 1): without the logically expired fields.
func (e *Engine) hashLenLive(o *Object) int {
	n := 0
	hashEach(o, func(_ []byte, _ []byte, _ int64, _ bool, expire int64) bool {
		if !e.hashExpired(expire) {
			n++
		}
		return true
	})
	return n
}

// hashEach walks field, value, ttl in the encoding's order. A listpack integer value comes as
// (nil, iv, true); fields are always given as bytes (an integer field formatted).
func hashEach(o *Object, fn func(field, val []byte, iv int64, isInt bool, expire int64) bool) {
	v := hv(o)
	if o.Enc == EncHashtable {
		v.ht.Range(func(en *dict.Entry[string, *hashField]) bool {
			return fn([]byte(en.Key), en.Val.val, 0, false, en.Val.expire)
		})
		return
	}
	lp := v.lp
	var fbuf [24]byte
	for p := lp.First(); p >= 0; {
		f := lp.GetString(p, fbuf[:])
		vp := lp.Next(p)
		if vp < 0 {
			return
		}
		s, iv, isInt, _ := lp.Get(vp)
		var expire int64
		p = lp.Next(vp)
		if o.Enc == EncListpackEx {
			if p < 0 {
				return
			}
			_, expire, _, _ = lp.Get(p)
			p = lp.Next(p)
		}
		if !fn(f, s, iv, isInt, expire) {
			return
		}
	}
}

// hashLocate finds a field in a listpack hash: the offsets of field, value and ttl (−1 ttl for a
// plain listpack); fp < 0 when absent.
func hashLocate(o *Object, field []byte) (fp, vp, tp int) {
	lp := hv(o).lp
	p := lp.First()
	if p < 0 {
		return -1, -1, -1
	}
	fp = lp.Find(p, field, hashTuple(o)-1)
	if fp < 0 {
		return -1, -1, -1
	}
	vp = lp.Next(fp)
	tp = -1
	if o.Enc == EncListpackEx {
		tp = lp.Next(vp)
	}
	return fp, vp, tp
}

// hashFind returns a field's value and TTL without expiring anything.
func hashFind(o *Object, field []byte) (s []byte, iv int64, isInt bool, expire int64, found bool) {
	v := hv(o)
	if o.Enc == EncHashtable {
		en := v.ht.FindEntry(bstr(field))
		if en == nil {
			return nil, 0, false, 0, false
		}
		return en.Val.val, 0, false, en.Val.expire, true
	}
	fp, vp, tp := hashLocate(o, field)
	if fp < 0 {
		return nil, 0, false, 0, false
	}
	s, iv, isInt, _ = v.lp.Get(vp)
	if tp >= 0 {
		_, expire, _, _ = v.lp.Get(tp)
	}
	return s, iv, isInt, expire, true
}

// Results of hashGet.
const (
	getOK = iota
	getNotFound
	getExpired     // the field had expired (and was deleted when lazy)
	getExpiredHash // …and it was the last one: the key is gone
)

// hashGet is hashTypeGetValue: a field whose TTL has passed reads as missing and, when lazy,
// is deleted (with the key when the hash becomes empty).
func (e *Engine) hashGet(key []byte, o *Object, field []byte, lazy bool) (s []byte, iv int64, isInt bool, res int) {
	s, iv, isInt, expire, found := hashFind(o, field)
	if !found {
		return nil, 0, false, getNotFound
	}
	if !e.hashExpired(expire) {
		return s, iv, isInt, getOK
	}
	if !lazy {
		return nil, 0, false, getExpired
	}
	e.hashDelete(o, field)
	e.signalModifiedBytes(e.db, key) // (hashTypeGetValue: a field expired lazily)
	if e.tracing {
		e.emit(FieldExpireEvent{Key: hv(o).tkey, Field: string(field), ExpireAt: expire, Reason: "lazy"})
	}
	if hashLen(o) == 0 {
		e.Delete(key)
		return nil, 0, false, getExpiredHash
	}
	return nil, 0, false, getExpired
}

// hashDelete is hashTypeDelete.
func (e *Engine) hashDelete(o *Object, field []byte) bool {
	v := hv(o)
	if o.Enc == EncHashtable {
		if v.ht.Delete(bstr(field)) {
			v.ht.ResizeIfNeeded() // 7.0/7.2: htNeedsResize + dictResize
			return true
		}
		return false
	}
	fp, _, _ := hashLocate(o, field)
	if fp < 0 {
		return false
	}
	_, ch := v.lp.DeleteRangeAt(fp, hashTuple(o))
	e.emitLP(v.tkey, ch, nil)
	return true
}

// hashConvertHT is hashTypeConvert(→ hashtable): a dict presized to the field count, filled in
// listpack order (fields with a TTL keep it and get ExpireMeta).
func (e *Engine) hashConvertHT(o *Object, why Why) {
	v := hv(o)
	if o.Enc == EncHashtable {
		return
	}
	from := o.Enc
	d := e.newHashDict(v)
	d.Expand(uint64(hashLen(o)))
	hashEach(o, func(f, s []byte, iv int64, isInt bool, expire int64) bool {
		var val []byte
		if isInt {
			val = strconv.AppendInt(nil, iv, 10)
		} else {
			val = append([]byte{}, s...)
		}
		d.Add(string(f), &hashField{val: val, expire: expire, meta: expire != 0})
		return true
	})
	v.hfe = from == EncListpackEx
	v.lp, v.ht = nil, d
	o.Enc = EncHashtable
	if e.tracing {
		e.emit(EncodingEvent{Key: v.tkey, From: from.String(), To: "hashtable", Why: why})
	}
}

// hashConvertLPEx is the listpack → listpackex conversion of the first HFE command: a 0 TTL
// entry is inserted after every value.
func (e *Engine) hashConvertLPEx(o *Object) {
	v := hv(o)
	lp := v.lp
	for p := lp.First(); p >= 0; {
		vp := lp.Next(p)
		if vp < 0 {
			break
		}
		tp, ch := lp.InsertInt(vp, hashLPNoTTL, listpack.After)
		e.emitLP(v.tkey, ch, []byte("0"))
		if tp < 0 {
			break
		}
		p = lp.Next(tp)
	}
	o.Enc = EncListpackEx
	if e.tracing {
		e.emit(EncodingEvent{Key: v.tkey, From: "listpack", To: "listpackex", Why: Why{Code: WhyHFE}})
	}
}

// hashTryConversion is hashTypeTryConversion for the field/value arguments of a write.
func (e *Engine) hashTryConversion(o *Object, args [][]byte) {
	if o.Enc == EncHashtable {
		return
	}
	maxEntries := e.cfgLimit("hash-max-listpack-entries")
	if e.ver.Has(V72) {
		if n := len(args) / 2; n > maxEntries {
			e.hashConvertHT(o, Why{Code: WhyBringsMore, N: int64(n), Limit: int64(maxEntries), Name: "hash-max-listpack-entries"})
			hv(o).ht.Expand(uint64(n))
			return
		}
	}
	maxVal := e.cfgLimit("hash-max-listpack-value")
	sum := 0
	for _, a := range args {
		if len(a) > maxVal {
			e.hashConvertHT(o, Why{Code: WhyValue, N: int64(len(a)), Limit: int64(maxVal), Name: "hash-max-listpack-value"})
			return
		}
		sum += len(a)
	}
	if !hv(o).lp.SafeToAdd(sum) {
		e.hashConvertHT(o, Why{Code: WhyLPMax})
	}
}

// lpexInsert is listpackExAddInternal: a triplet goes before the first tuple whose TTL is 0 or
// ≥ its own, or at the end (TTL 0 always at the end).
func (e *Engine) lpexInsert(v *hashValue, field, val []byte, valInt int64, valIsInt bool, ttl int64) {
	lp := v.lp
	at := -1
	if ttl != hashLPNoTTL {
		for p := lp.First(); p >= 0; {
			vp := lp.Next(p)
			tp := lp.Next(vp)
			if tp < 0 {
				break
			}
			_, t, _, _ := lp.Get(tp)
			if t == hashLPNoTTL || t >= ttl {
				at = p
				break
			}
			p = lp.Next(tp)
		}
	}
	if at < 0 {
		at = lp.TotalBytes() - 1 // the EOF byte: append
	}
	p, ch := lp.InsertInt(at, ttl, listpack.Before)
	e.emitLP(v.tkey, ch, strconv.AppendInt(nil, ttl, 10))
	if valIsInt {
		p, ch = lp.InsertInt(p, valInt, listpack.Before)
		e.emitLP(v.tkey, ch, strconv.AppendInt(nil, valInt, 10))
	} else {
		p, ch = lp.Insert(p, val, listpack.Before)
		e.emitLP(v.tkey, ch, val)
	}
	_, ch = lp.Insert(p, field, listpack.Before)
	e.emitLP(v.tkey, ch, field)
}

// lpexUpdateExpiry is listpackExUpdateExpiry: the triplet is removed and re-inserted at its
// place for the new TTL.
func (e *Engine) lpexUpdateExpiry(o *Object, field []byte, fp, vp int, ttl int64) {
	v := hv(o)
	s, iv, isInt, _ := v.lp.Get(vp)
	var val []byte
	if !isInt {
		val = append([]byte{}, s...)
	}
	f := append([]byte{}, field...)
	_, ch := v.lp.DeleteRangeAt(fp, 3)
	e.emitLP(v.tkey, ch, nil)
	e.lpexInsert(v, f, val, iv, isInt, ttl)
}

// hashSet is hashTypeSet: reports whether the field existed (update). keepTTL is HINCRBY's
// HASH_SET_KEEP_TTL; otherwise an overwritten field loses its TTL.
func (e *Engine) hashSet(o *Object, field, value []byte, keepTTL bool) bool {
	v := hv(o)
	if o.Enc != EncHashtable {
		maxVal := e.cfgLimit("hash-max-listpack-value")
		if len(field) > maxVal || len(value) > maxVal {
			e.hashConvertHT(o, Why{Code: WhyValue, N: int64(max(len(field), len(value))), Limit: int64(maxVal), Name: "hash-max-listpack-value"})
		}
	}
	update := false
	switch o.Enc {
	case EncListpack, EncListpackEx:
		lp := v.lp
		if fp, vp, _ := hashLocate(o, field); fp >= 0 {
			vp, ch := lp.Replace(vp, value)
			e.emitLP(v.tkey, ch, value)
			update = true
			if o.Enc == EncListpackEx {
				// listpackex: the field's TTL entry follows its value.
				fp = lp.Prev(vp)
				tp := lp.Next(vp)
				_, ttl, _, _ := lp.Get(tp)
				if !keepTTL && ttl != hashLPNoTTL {
					e.lpexUpdateExpiry(o, field, fp, vp, hashLPNoTTL)
					if e.tracing {
						e.emit(FieldTTLEvent{Key: v.tkey, Field: string(field), Before: ttl})
					}
				}
			}
		} else if o.Enc == EncListpack {
			ch := lp.Append(field)
			e.emitLP(v.tkey, ch, field)
			ch = lp.Append(value)
			e.emitLP(v.tkey, ch, value)
		} else {
			e.lpexInsert(v, field, value, 0, false, hashLPNoTTL)
		}
		if hashLen(o) > e.cfgLimit("hash-max-listpack-entries") {
			e.hashConvertHT(o, Why{Code: WhyEntries, N: int64(hashLen(o)), Limit: int64(e.cfgLimit("hash-max-listpack-entries")), Name: "hash-max-listpack-entries"})
		}
	default:
		// 7.0 looks the field up first (dictFind) and only adds a missing one, so an update
		// never grows the table; 7.2+ goes straight to dictAddRaw, whose expand check runs
		// before it finds the existing field (redis-server 7.0.15: 16 fields in 16 buckets
		// stay in 16 buckets after HSET of an existing field).
		var en *dict.Entry[string, *hashField]
		added := false
		if !e.ver.Has(V72) {
			en = v.ht.FindEntry(string(field))
		}
		if en == nil {
			en, added = v.ht.AddOrFind(string(field))
		}
		if added {
			en.Val = &hashField{val: append([]byte{}, value...)}
		} else {
			update = true
			hf := en.Val
			if !keepTTL {
				if hf.expire != 0 && e.tracing {
					e.emit(FieldTTLEvent{Key: v.tkey, Field: string(field), Before: hf.expire})
				}
				hf.expire, hf.meta = 0, false // a new field mstr without metadata
			}
			hf.val = append(hf.val[:0:0], value...)
		}
	}
	return update
}

// hashSetExpiry is hashTypeSetEx for one field (the hash is listpackex or hashtable): 1 set,
// 0 condition not met, -2 no field, 2 deleted because the time is not in the future.
func (e *Engine) hashSetExpiry(o *Object, field []byte, expireAt int64, cond string) int64 {
	v := hv(o)
	var prev int64
	var fp, vp int
	if o.Enc == EncListpackEx {
		var tp int
		fp, vp, tp = hashLocate(o, field)
		if fp < 0 {
			return -2
		}
		_, prev, _, _ = v.lp.Get(tp)
	} else {
		en := v.ht.FindEntry(bstr(field))
		if en == nil {
			return -2
		}
		prev = en.Val.expire
	}
	if prev == 0 {
		if cond == "xx" || cond == "gt" {
			return 0
		}
	} else if (cond == "gt" && prev >= expireAt) || (cond == "lt" && prev <= expireAt) || cond == "nx" {
		return 0
	}
	if expireAt <= e.NowMs() {
		e.hashDelete(o, field)
		if e.tracing {
			e.emit(FieldExpireEvent{Key: v.tkey, Field: string(field), ExpireAt: expireAt, Reason: "past-time"})
		}
		return 2
	}
	if o.Enc == EncListpackEx {
		e.lpexUpdateExpiry(o, field, fp, vp, expireAt)
	} else {
		hf := v.ht.FindEntry(bstr(field)).Val
		hf.expire, hf.meta = expireAt, true
	}
	if e.tracing {
		e.emit(FieldTTLEvent{Key: v.tkey, Field: string(field), Before: prev, After: expireAt})
	}
	return 1
}

// hashPrepareHFE is hashTypeSetExInit: a listpack becomes listpackex; a hashtable gets its HFE
// metadata.
func (e *Engine) hashPrepareHFE(o *Object) {
	switch o.Enc {
	case EncListpack:
		e.hashConvertLPEx(o)
	case EncHashtable:
		hv(o).hfe = true
	}
}

// hashPersist removes a field's TTL: 1 removed, -1 no TTL, -2 no field (or expired).
func (e *Engine) hashPersist(o *Object, field []byte) int64 {
	v := hv(o)
	switch o.Enc {
	case EncListpack:
		if fp, _, _ := hashLocate(o, field); fp >= 0 {
			return -1
		}
		return -2
	case EncListpackEx:
		fp, vp, tp := hashLocate(o, field)
		if fp < 0 {
			return -2
		}
		_, prev, _, _ := v.lp.Get(tp)
		if prev == hashLPNoTTL {
			return -1
		}
		if prev < e.NowMs() {
			return -2
		}
		e.lpexUpdateExpiry(o, field, fp, vp, hashLPNoTTL)
		if e.tracing {
			e.emit(FieldTTLEvent{Key: v.tkey, Field: string(field), Before: prev})
		}
		return 1
	}
	en := v.ht.FindEntry(bstr(field))
	if en == nil {
		return -2
	}
	if en.Val.expire == 0 {
		return -1
	}
	if en.Val.expire < e.NowMs() {
		return -2
	}
	if e.tracing {
		e.emit(FieldTTLEvent{Key: v.tkey, Field: string(field), Before: en.Val.expire})
	}
	en.Val.expire = 0 // the ExpireMeta stays attached (memory unchanged)
	return 1
}

// hashExpireAll is hashTypeExpireIfNeeded: delete every field whose time has passed; reports
// whether the key was deleted.
func (e *Engine) hashExpireAll(key []byte, o *Object) bool {
	if o.Enc == EncListpack {
		return false
	}
	var dead [][]byte
	now := e.NowMs()
	hashEach(o, func(f, _ []byte, _ int64, _ bool, expire int64) bool {
		if expire != 0 && expire <= now {
			dead = append(dead, append([]byte{}, f...))
		}
		return true
	})
	for _, f := range dead {
		e.hashDelete(o, f)
		if e.tracing {
			e.emit(FieldExpireEvent{Key: hv(o).tkey, Field: string(f), Reason: "sweep"})
		}
	}
	if hashLen(o) == 0 {
		e.Delete(key)
		return true
	}
	return false
}

// CloneValue is COPY's hashTypeDup: a listpack (or listpackex) is copied into an exact-size
// allocation; a hashtable is rebuilt, presized, in iteration order (field TTLs kept).
func (v *hashValue) CloneValue() any {
	n := &hashValue{eng: v.eng, hfe: v.hfe}
	if v.lp != nil {
		lp, err := listpack.FromBytes(v.lp.Bytes())
		if err != nil {
			lp = v.lp.Clone()
		}
		lp.Alloc = v.lp.Alloc
		n.lp = lp
		return n
	}
	d := dict.New[string, *hashField](v.ht.Env())
	if v.eng != nil {
		d.Observer = v.eng.dictObserver(&n.tkey)
	}
	d.Expand(uint64(v.ht.Len()))
	v.ht.Range(func(en *dict.Entry[string, *hashField]) bool {
		hf := *en.Val
		hf.val = append([]byte{}, hf.val...)
		d.Add(en.Key, &hf)
		return true
	})
	n.ht = d
	return n
}

// mstrUsable is usable(hfieldNew): mstr header (1 byte below 32 bytes, 3 below 65536, else 9)
// + field + NUL, plus 2 flag bytes and a 16-byte ExpireMeta when the field carries metadata.
func (e *Engine) mstrUsable(n int, meta bool) int {
	h := 9
	switch {
	case n < 32:
		h = 1
	case n < 65536:
		h = 3
	}
	sz := h + n + 1
	if meta {
		sz += 2 + 16
	}
	return e.alloc.Usable(sz)
}

// hashValueMemory is objectComputeSize's hash part without the robj.
func (e *Engine) hashValueMemory(o *Object, samples int) int64 {
	v := hv(o)
	switch o.Enc {
	case EncListpack:
		return int64(v.lp.Usable(e.alloc))
	case EncListpackEx:
		return int64(e.alloc.Usable(32) + v.lp.Usable(e.alloc))
	}
	mstr := e.ver.Has(V74)
	// The robj's 16 bytes are in asize before the double-precision extrapolation is added and
	// truncated, as for sets (setValueMemory).
	base := int64(0)
	if !e.ver.KVObj() {
		base = 16
	}
	return v.ht.MemoryUsage(base, samples, func(en *dict.Entry[string, *hashField]) int {
		f := e.sdsUsable(len(en.Key))
		if mstr {
			f = e.mstrUsable(len(en.Key), en.Val.meta)
		}
		return f + e.sdsUsable(len(en.Val.val)) + dict.EntryBytes
	}) - base
}

// hashSmallItems lists a listpack hash's fields and values (fields only with NOVALUES) for
// HSCAN; expired fields of a listpackex are skipped.
func (e *Engine) hashSmallItems(o *Object, noValues bool) [][]byte {
	var out [][]byte
	hashEach(o, func(f, s []byte, iv int64, isInt bool, expire int64) bool {
		if e.hashExpired(expire) {
			return true
		}
		out = append(out, append([]byte{}, f...))
		if !noValues {
			if isInt {
				out = append(out, strconv.AppendInt(nil, iv, 10))
			} else {
				out = append(out, append([]byte{}, s...))
			}
		}
		return true
	})
	return out
}

// hashScanHT is the dictScan loop of HSCAN on a hashtable hash.
func (e *Engine) hashScanHT(o *Object, cursor uint64, count int64, noValues bool) (uint64, [][]byte) {
	d := hv(o).ht
	if !noValues {
		count *= 2
	}
	if count > 1<<59 {
		count = 1 << 59
	}
	maxIter := count * 10
	var items [][]byte
	for {
		cursor = d.Scan(cursor, func(en *dict.Entry[string, *hashField]) {
			if e.hashExpired(en.Val.expire) {
				return
			}
			items = append(items, []byte(en.Key))
			if !noValues {
				items = append(items, en.Val.val)
			}
		})
		if cursor == 0 || maxIter == 0 || int64(len(items)) >= count {
			break
		}
		maxIter--
	}
	return cursor, items
}

// HashFields lists a hash's fields, values and TTLs in the encoding's order (for visualizers
// and tests), without expiring anything.
func (e *Engine) HashFields(key []byte) (fields, values []string, ttls []int64) {
	o := e.Peek(key)
	if o == nil || o.Type != TypeHash {
		return nil, nil, nil
	}
	hashEach(o, func(f, s []byte, iv int64, isInt bool, expire int64) bool {
		fields = append(fields, string(f))
		if isInt {
			values = append(values, strconv.FormatInt(iv, 10))
		} else {
			values = append(values, string(s))
		}
		ttls = append(ttls, expire)
		return true
	})
	return
}
