package engine

import (
	"strconv"
	"unsafe"

	"redscope/engine/dict"
	"redscope/engine/intset"
	"redscope/engine/listpack"
)

// The set value type and its three encodings (t_set.c of 7.0.15 / 7.2.6 / 7.4.1, re-implemented
// from the rules in docs/internals.md §Encodings, §Dict):
//
//   - intset: all members are strict int64s (string2ll) and there are at most
//     set-max-intset-entries (capped at 2^30) of them;
//   - listpack (7.2+ only): at most set-max-listpack-entries members of at most
//     set-max-listpack-value bytes;
//   - hashtable: a dict (engine/dict) with the engine's shared hash seed and random source.
//
// 7.0 creates an intset when the first member is an integer, else a hashtable; 7.2+ uses the
// number of members in the command as a size hint (setTypeCreate / setTypeMaybeConvert). A set
// never goes back to a smaller encoding except through the store commands and SPOP's rebuild
// (docs/internals.md §Encodings).

// setValue is Object.Val of a set; Object.Enc says which field is live.
type setValue struct {
	is   *intset.Intset
	lp   *listpack.Listpack
	ht   *dict.Dict[string, struct{}]
	eng  *Engine
	tkey string // key name for trace events (set by the commands while tracing)
}

// ---------------------------------------------------------------- trace events

func (e *Engine) emitLP(key string, ch listpack.Change, val []byte) {
	if !e.tracing || ch.Kind == listpack.KindNone {
		return
	}
	e.emit(ListpackEvent{Key: key, Op: ch.Kind.String(), Offset: ch.Offset, Added: ch.Added, Removed: ch.Removed,
		Entries: ch.Entries, Moved: ch.Moved, OldTotal: ch.OldTotal, NewTotal: ch.NewTotal, Realloc: ch.Realloc,
		Value: string(val)})
}

func (e *Engine) emitIS(key string, v int64, ch intset.Change) {
	if !e.tracing || ch.Kind == intset.KindNone {
		return
	}
	e.emit(IntsetEvent{Key: key, Op: ch.Kind.String(), Value: v, Pos: ch.Pos, OldWidth: ch.OldEnc, NewWidth: ch.NewEnc,
		Moved: ch.Moved, OldBytes: ch.OldBytes, NewBytes: ch.NewBytes})
}

func (e *Engine) emitPick(key, cmd, method string, idx int, member []byte) {
	if e.tracing {
		e.emit(RandomPickEvent{Key: key, Cmd: cmd, Method: method, Index: idx, Member: string(member)})
	}
}

// ---------------------------------------------------------------- shared helpers

// valueDictEnv is the dict environment every value hash table of this engine shares: Redis has
// one hash seed and one set of random generators per process.
func (e *Engine) valueDictEnv() *dict.Env {
	if e.vdict == nil {
		e.vdict = dict.NewEnv(uint16(e.ver), e.seed, e.rng)
	}
	return e.vdict
}

// dictObserver forwards a value dict's events while tracing; keyOf reads the key name.
func (e *Engine) dictObserver(keyOf *string) dict.Observer {
	return func(ev dict.Event) {
		if !e.tracing {
			return
		}
		e.emit(DictEvent{Key: *keyOf, Op: ev.Kind.String(), Table: ev.Table, Index: ev.Index, ChainLen: ev.ChainLen,
			Moved: ev.Moved, Visited: ev.Visited, Bucket: ev.Bucket, RehashIdx: ev.RehashIdx, OldSize: ev.OldSize,
			NewSize: ev.NewSize})
	}
}

// bstr views b as a string without copying; only for lookups that do not keep the key.
func bstr(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// sdsUsable is usable(sdsnewlen(n bytes)): the exact-size sds Redis makes for members, fields and
// values (sds5 below 32 bytes except the empty string, which gets an sds8).
func (e *Engine) sdsUsable(n int) int {
	h := 1
	switch {
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
	return e.alloc.Usable(h + n + 1)
}

// cfgLimit reads an unsigned size config (a value above MaxInt64 reads as "no limit").
func (e *Engine) cfgLimit(name string) int {
	n := e.cfg.Int(name)
	if n < 0 || n > 1<<62 {
		return 1 << 62
	}
	return int(n)
}

func (e *Engine) intsetMaxEntries() int {
	n := e.cfgLimit("set-max-intset-entries")
	if n >= 1<<30 {
		n = 1 << 30
	}
	return n
}

// rand31 is libc rand(): 31 random bits from the engine's source.
func (e *Engine) rand31() uint64 { return uint64(e.rng.Uint32() >> 1) }

// lpNextRandom is lpNextRandom: walk forward from p (entry index *idx) and pick each tuple
// start with probability remaining/available, so a single pass picks `remaining` tuples
// uniformly and in listpack order. Returns the picked offset (−1 when the end is reached).
func (e *Engine) lpNextRandom(lp *listpack.Listpack, p int, idx *int, remaining, tupleLen int) int {
	i := *idx
	total := lp.Len()
	for i < total && p >= 0 {
		if i%tupleLen != 0 {
			p = lp.Next(p)
			i++
			continue
		}
		available := (total - i) / tupleLen
		r := float64(e.rand31()) / float64(1<<31-1)
		if r <= float64(remaining)/float64(available) {
			*idx = i
			return p
		}
		p = lp.Next(p)
		i++
	}
	return -1
}

// lpEntryString returns the entry at p as bytes (an integer formatted into buf).
func lpEntryString(lp *listpack.Listpack, p int, buf []byte) []byte {
	return lp.GetString(p, buf)
}

// lpEstimateRepeatedInt is lpEstimateBytesRepeatedInteger.
func lpEstimateRepeatedInt(v int64, n int) int {
	return listpack.HeaderSize + listpack.EntrySizeInt(v)*n + 1
}

// sdigits10 counts decimal digits, the sign included.
func sdigits10(v int64) int {
	return len(strconv.AppendInt(make([]byte, 0, 20), v, 10))
}

// ---------------------------------------------------------------- construction

func (e *Engine) newSetValue() *setValue {
	return &setValue{eng: e}
}

func (e *Engine) newListpack(capacity int) *listpack.Listpack {
	lp := listpack.NewCap(capacity)
	lp.Alloc = e.alloc
	return lp
}

func (e *Engine) newSetDict(v *setValue) *dict.Dict[string, struct{}] {
	d := dict.NewSet[string](e.valueDictEnv())
	d.Observer = e.dictObserver(&v.tkey)
	return d
}

func (e *Engine) setObject(v *setValue, enc Encoding) *Object {
	return &Object{Type: TypeSet, Enc: enc, Val: v}
}

func (e *Engine) newIntsetSet() *Object {
	v := e.newSetValue()
	v.is = intset.New()
	return e.setObject(v, EncIntset)
}

func (e *Engine) newListpackSet(capacity int) *Object {
	v := e.newSetValue()
	v.lp = e.newListpack(capacity)
	return e.setObject(v, EncListpack)
}

func (e *Engine) newHashtableSet(hint int) *Object {
	v := e.newSetValue()
	v.ht = e.newSetDict(v)
	if hint > 0 {
		v.ht.Expand(uint64(hint))
	}
	return e.setObject(v, EncHashtable)
}

// setTypeCreate picks the encoding of a new set from its first member and the number of members
// the command brings (7.0 ignores the hint).
func (e *Engine) setTypeCreate(first []byte, hint int) *Object {
	_, isInt := string2ll(first)
	if !e.ver.Has(V72) {
		if isInt {
			return e.newIntsetSet()
		}
		return e.newHashtableSet(0)
	}
	if isInt && hint <= e.cfgLimit("set-max-intset-entries") {
		return e.newIntsetSet()
	}
	if hint <= e.cfgLimit("set-max-listpack-entries") {
		return e.newListpackSet(0)
	}
	return e.newHashtableSet(hint)
}

func sv(o *Object) *setValue { return o.Val.(*setValue) }

// setKeyFor records the key name for trace events.
func (e *Engine) traceSet(key []byte, o *Object) {
	if e.tracing && o != nil {
		sv(o).tkey = string(key)
	}
}

// setSize is setTypeSize.
func setSize(o *Object) int {
	v := sv(o)
	switch o.Enc {
	case EncIntset:
		return v.is.Len()
	case EncListpack:
		return v.lp.Len()
	}
	return v.ht.Len()
}

// setEach walks the members in the encoding's order (intset ascending, listpack order, dict
// iteration order). For an integer member isInt is set and s is nil.
func setEach(o *Object, fn func(s []byte, iv int64, isInt bool) bool) {
	v := sv(o)
	switch o.Enc {
	case EncIntset:
		v.is.All(func(_ int, x int64) bool { return fn(nil, x, true) })
	case EncListpack:
		for p := v.lp.First(); p >= 0; p = v.lp.Next(p) {
			s, x, isInt, _ := v.lp.Get(p)
			if !fn(s, x, isInt) {
				return
			}
		}
	default:
		v.ht.Range(func(en *dict.Entry[string, struct{}]) bool {
			return fn(unsafe.Slice(unsafe.StringData(en.Key), len(en.Key)), 0, false)
		})
	}
}

// memberBytes formats an iteration result.
func memberBytes(s []byte, iv int64, isInt bool, buf []byte) []byte {
	if isInt {
		return strconv.AppendInt(buf[:0], iv, 10)
	}
	return s
}

// setConvert is setTypeConvertAndExpand: rebuild the set as a hashtable presized for cap
// members, or (7.2+) as a listpack.
func (e *Engine) setConvert(o *Object, enc Encoding, capacity int, why Why) {
	v := sv(o)
	from := o.Enc
	var buf [24]byte
	switch enc {
	case EncHashtable:
		d := e.newSetDict(v)
		d.Expand(uint64(capacity))
		setEach(o, func(s []byte, iv int64, isInt bool) bool {
			d.Add(string(memberBytes(s, iv, isInt, buf[:])), struct{}{})
			return true
		})
		v.is, v.lp, v.ht = nil, nil, d
	case EncListpack:
		est := capacity * 2
		if o.Enc == EncIntset && v.is.Len() > 0 {
			est = max(lpEstimateRepeatedInt(v.is.Min(), capacity), lpEstimateRepeatedInt(v.is.Max(), capacity))
		}
		lp := e.newListpack(est)
		setEach(o, func(s []byte, iv int64, isInt bool) bool {
			if isInt {
				lp.AppendInt(iv)
			} else {
				lp.Append(s)
			}
			return true
		})
		v.is, v.ht, v.lp = nil, nil, lp
	}
	o.Enc = enc
	if e.tracing {
		e.emit(EncodingEvent{Key: v.tkey, From: from.String(), To: enc.String(), Why: why})
	}
}

// setMaybeConvert is 7.2+'s setTypeMaybeConvert: a command bringing more members than the
// encoding can hold converts the set to a hashtable before anything is added.
func (e *Engine) setMaybeConvert(o *Object, hint int) {
	if !e.ver.Has(V72) {
		return
	}
	if o.Enc == EncListpack && hint > e.cfgLimit("set-max-listpack-entries") {
		e.setConvert(o, EncHashtable, hint, Why{Code: WhyBringsMore, N: int64(hint), Limit: int64(e.cfgLimit("set-max-listpack-entries")), Name: "set-max-listpack-entries"})
	} else if o.Enc == EncIntset && hint > e.cfgLimit("set-max-intset-entries") {
		e.setConvert(o, EncHashtable, hint, Why{Code: WhyBringsMore, N: int64(hint), Limit: int64(e.cfgLimit("set-max-intset-entries")), Name: "set-max-intset-entries"})
	}
}

// setAdd is setTypeAdd: reports whether m was added.
func (e *Engine) setAdd(o *Object, m []byte) bool {
	v := sv(o)
	switch o.Enc {
	case EncHashtable:
		_, added := v.ht.AddOrFind(string(m))
		return added
	case EncListpack:
		lp := v.lp
		if p := lp.First(); p >= 0 && lp.Find(p, m, 0) >= 0 {
			return false
		}
		if lp.Len() < e.cfgLimit("set-max-listpack-entries") && len(m) <= e.cfgLimit("set-max-listpack-value") && lp.SafeToAdd(len(m)) {
			ch := lp.Append(m)
			e.emitLP(v.tkey, ch, m)
			return true
		}
		why := Why{Code: WhyEntries, N: int64(lp.Len() + 1), Limit: int64(e.cfgLimit("set-max-listpack-entries")), Name: "set-max-listpack-entries"}
		if len(m) > e.cfgLimit("set-max-listpack-value") {
			why = Why{Code: WhyValue, N: int64(len(m)), Limit: int64(e.cfgLimit("set-max-listpack-value")), Name: "set-max-listpack-value"}
		}
		e.setConvert(o, EncHashtable, lp.Len()+1, why)
		v.ht.Add(string(m), struct{}{})
		return true
	}
	// intset
	if x, ok := string2ll(m); ok {
		added, ch := v.is.Add(x)
		if !added {
			return false
		}
		e.emitIS(v.tkey, x, ch)
		if v.is.Len() > e.intsetMaxEntries() {
			e.setConvert(o, EncHashtable, v.is.Len(), Why{Code: WhyEntries, N: int64(v.is.Len()), Limit: int64(e.intsetMaxEntries()), Name: "set-max-intset-entries"})
		}
		return true
	}
	n := v.is.Len()
	if !e.ver.Has(V72) {
		e.setConvert(o, EncHashtable, n, Why{Code: WhyNonInt})
		v.ht.Add(string(m), struct{}{})
		return true
	}
	maxLen, tot := 0, 0
	if n != 0 {
		maxLen = max(sdigits10(v.is.Max()), sdigits10(v.is.Min()))
		tot = max(lpEstimateRepeatedInt(v.is.Max(), n), lpEstimateRepeatedInt(v.is.Min(), n))
	}
	lpVal := e.cfgLimit("set-max-listpack-value")
	if n < e.cfgLimit("set-max-listpack-entries") && len(m) <= lpVal && maxLen <= lpVal && tot+len(m) <= listpack.MaxSafetySize {
		e.setConvert(o, EncListpack, n+1, Why{Code: WhyNonIntLP})
		ch := v.lp.Append(m)
		e.emitLP(v.tkey, ch, m)
		v.lp.ShrinkToFit()
		return true
	}
	e.setConvert(o, EncHashtable, n+1, Why{Code: WhyNonIntBig})
	v.ht.Add(string(m), struct{}{})
	return true
}

// setRemove is setTypeRemove.
func (e *Engine) setRemove(o *Object, m []byte) bool {
	v := sv(o)
	switch o.Enc {
	case EncHashtable:
		if v.ht.Delete(bstr(m)) {
			v.ht.ResizeIfNeeded() // 7.0/7.2 htNeedsResize + dictResize; nothing under 7.4 rules
			return true
		}
		return false
	case EncListpack:
		lp := v.lp
		p := lp.First()
		if p < 0 {
			return false
		}
		if p = lp.Find(p, m, 0); p < 0 {
			return false
		}
		_, ch := lp.Delete(p)
		e.emitLP(v.tkey, ch, nil)
		return true
	}
	x, ok := string2ll(m)
	if !ok {
		return false
	}
	removed, ch := v.is.Remove(x)
	if removed {
		e.emitIS(v.tkey, x, ch)
	}
	return removed
}

// setIsMember is setTypeIsMember.
func (e *Engine) setIsMember(o *Object, m []byte) bool {
	v := sv(o)
	switch o.Enc {
	case EncHashtable:
		return v.ht.Contains(bstr(m))
	case EncListpack:
		p := v.lp.First()
		return p >= 0 && v.lp.Find(p, m, 0) >= 0
	}
	x, ok := string2ll(m)
	return ok && v.is.Find(x)
}

// setRandom is setTypeRandomElement (the set must not be empty).
func (e *Engine) setRandom(o *Object, cmd string) (s []byte, iv int64, isInt bool) {
	v := sv(o)
	switch o.Enc {
	case EncHashtable:
		en := v.ht.GetFairRandomKey()
		s = []byte(en.Key)
		e.emitPick(v.tkey, cmd, "dict-fair-random", -1, s)
		return s, 0, false
	case EncListpack:
		i := int(e.rand31() % uint64(v.lp.Len()))
		p := v.lp.Seek(i)
		s, iv, isInt, _ = v.lp.Get(p)
		if e.tracing {
			var buf [24]byte
			e.emitPick(v.tkey, cmd, "rand-index", i, memberBytes(s, iv, isInt, buf[:]))
		}
		return s, iv, isInt
	}
	i := int(e.rand31() % uint64(v.is.Len()))
	iv, _ = v.is.Get(i)
	if e.tracing {
		e.emitPick(v.tkey, cmd, "rand-index", i, strconv.AppendInt(nil, iv, 10))
	}
	return nil, iv, true
}

// maybeConvertToIntset turns an all-integer result set into an intset when it fits (7.2+ store
// commands).
func (e *Engine) maybeConvertToIntset(o *Object) {
	if o.Enc == EncIntset || setSize(o) > e.intsetMaxEntries() {
		return
	}
	v := sv(o)
	is := intset.New()
	setEach(o, func(s []byte, iv int64, isInt bool) bool {
		if !isInt {
			iv, _ = string2ll(s)
		}
		is.Add(iv)
		return true
	})
	from := o.Enc
	v.is, v.lp, v.ht = is, nil, nil
	o.Enc = EncIntset
	if e.tracing {
		e.emit(EncodingEvent{Key: v.tkey, From: from.String(), To: "intset", Why: Why{Code: WhyOnlyInts}})
	}
}

// CloneValue is COPY's setTypeDup: an intset or listpack is copied byte for byte into an
// exact-size allocation; a hashtable is rebuilt, presized to its length, in iteration order.
func (v *setValue) CloneValue() any {
	n := &setValue{eng: v.eng}
	switch {
	case v.is != nil:
		n.is = v.is.Clone()
	case v.lp != nil:
		lp, err := listpack.FromBytes(v.lp.Bytes())
		if err != nil {
			lp = v.lp.Clone()
		}
		lp.Alloc = v.lp.Alloc
		n.lp = lp
	case v.ht != nil:
		d := dict.NewSet[string](v.ht.Env())
		if v.eng != nil {
			d.Observer = v.eng.dictObserver(&n.tkey)
		}
		d.Expand(uint64(v.ht.Len()))
		v.ht.Range(func(en *dict.Entry[string, struct{}]) bool {
			d.Add(en.Key, struct{}{})
			return true
		})
		n.ht = d
	}
	return n
}

// setValueMemory is objectComputeSize's set part without the robj (docs/internals.md §Encodings).
func (e *Engine) setValueMemory(o *Object, samples int) int64 {
	v := sv(o)
	switch o.Enc {
	case EncIntset:
		return int64(v.is.Usable(e.alloc))
	case EncListpack:
		return int64(v.lp.Usable(e.alloc))
	}
	if e.ver.KVObj() {
		return e.setHTAllocSize(v.ht)
	}
	// Redis adds the extrapolated average to asize with the robj's 16 bytes already in it, in
	// double precision, then truncates: 584 + 1479.9999999999998 is 2064, but 568 + … is
	// 2047.99… (redis-server 7.0.15: 46 members in 64 buckets → 2096, not 2095).
	return v.ht.MemoryUsage(16, samples, func(en *dict.Entry[string, struct{}]) int {
		return dict.EntryBytes + e.sdsUsable(len(en.Key))
	}) - 16
}

// setHTAllocSize is the 8.x MEMORY USAGE of a hashtable set's value (the kvobj is added by
// keyEntryOverhead). 8.x keeps a running total of the members' allocation sizes in the set
// dict's metadata (for per-slot memory accounting), and the value's size is no longer sampled:
//
//	sizeof(dict) 56 + dictMemUsage (24 × members + 8 × buckets, both tables while rehashing)
//	+ Σ sdsAllocSize(member)
//
// where sdsAllocSize is header + alloc + 1 without allocator rounding: a member shorter than 32
// bytes is an sds5 (no alloc field) costing 1+len+1, longer ones (and the empty member, an sds8)
// record their usable size as alloc. SAMPLES is ignored. This reproduces the course's Redis 8.8
// figure: 800 000 members u0…u799999 in a table of 2^20 buckets (not rehashing) give
// 24 (kvobj "wset") + 56 + 8×1048576 + 24×800000 + 7088890 = 34677578.
func (e *Engine) setHTAllocSize(d *dict.Dict[string, struct{}]) int64 {
	total := int64(dict.HeaderBytes) + d.TableBytes() + int64(d.Len())*dict.EntryBytes
	d.Range(func(en *dict.Entry[string, struct{}]) bool {
		total += int64(e.sdsAllocSize(len(en.Key)))
		return true
	})
	return total
}

// sdsAllocSize is 8.x's sdsAllocSize of a freshly created sds of n bytes: an sds5 (1 ≤ n < 32)
// has no alloc field and counts 1+n+1; other types store alloc = usable − header − 1, so they
// count their usable size.
func (e *Engine) sdsAllocSize(n int) int {
	if n > 0 && n < 32 {
		return 1 + n + 1
	}
	return e.sdsUsable(n)
}

// SetMembers lists a set's members in the encoding's order (for visualizers and tests).
func (e *Engine) SetMembers(key []byte) []string {
	o := e.Peek(key)
	if o == nil || o.Type != TypeSet {
		return nil
	}
	var out []string
	var buf [24]byte
	setEach(o, func(s []byte, iv int64, isInt bool) bool {
		out = append(out, string(memberBytes(s, iv, isInt, buf[:])))
		return true
	})
	return out
}
