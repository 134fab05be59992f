package engine

import (
	"math"

	"redscope/engine/intset"
	"redscope/engine/listpack"
	"redscope/engine/rdb"
)

// Values in their RDB form (rdb.c rdbSaveObjectType / rdbSaveObject / rdbLoadObject), for DUMP,
// RESTORE, DEBUG RELOAD and DEBUG OBJECT's serializedlength. The byte-level primitives (lengths,
// strings, LZF, CRC-64, the payload frame) live in engine/rdb.
//
// What each encoding becomes (the type byte, then the value):
//   - string → 0: the string (an int-encoded object as an integer string: `SET k 1000` gives
//     00 C1 E8 03);
//   - list: quicklist (and a 7.2+ listpack list, as one node) → 18: node count, then per node its
//     container (2 packed, 1 plain) and its listpack (or plain element) as a string;
//   - set: intset → 11 (the intset blob), listpack (7.2+) → 20, hashtable → 2 (count, members in
//     dict iteration order);
//   - zset: listpack → 17, skiplist → 5 (count, then member + 8-byte little-endian double from
//     the highest score down);
//   - hash: listpack → 16, hashtable → 4 (count, field value pairs in dict order); 7.4's
//     listpackex → 25 and a hashtable with field TTLs → 24;
//   - stream → 19 (7.0) / 21 (7.2+: consumers also carry active-time): the rax (16-byte master
//     ID, listpack) pairs, length, last ID, first ID, max deleted ID, entries added, then groups
//     with their PEL (raw 16-byte IDs, delivery time, delivery count) and consumers (name,
//     seen-time, [active-time], PEL IDs).
//
// Every blob (listpack, intset) goes through the string encoding, so above 20 bytes it is
// LZF-compressed when rdbcompression is yes. Loading keeps listpack and intset blobs as they
// are (an exact allocation) and converts by the thresholds as rdbLoadObject does: 7.0 turns an
// intset, listpack hash or listpack zset with more entries than the *-max-*-entries limit into
// a hashtable/skiplist; a hashtable-form payload (types 2, 4, 5) is rebuilt in the small
// encoding when it fits (a set as intset when it has no more members than
// set-max-intset-entries and all are integers — 7.2+ also a listpack —, a hash as listpack
// while entries and values fit, a zset as listpack when count and longest member fit).
// A 7.2+ list of one small node becomes a listpack again (listTypeTryConversion).
//
// Validation: listpacks are checked as deeply as sanitize-dump-payload yes would do (every
// entry, duplicates) — stricter than Redis's default "no", which only checks their headers and
// trusts the entries (a corrupt entry would crash the server later; here it must not panic the
// page); every payload a real server produces passes. Duplicates (listpack fields, intset order)
// are checked only with sanitize-dump-payload yes or clients, as in Redis.
// Quicklist node compression is not kept in memory; with list-compress-depth > 0 DUMP compresses
// the inner nodes as Redis keeps them. Not modelled: module values, the pre-7.0 types (zipmap, ziplist, RDB_TYPE_LIST) on RESTORE.

// rdbVersion is RDB_VERSION of the profile.
func (e *Engine) rdbVersion() uint16 {
	switch {
	case e.ver.Has(V74):
		return 12
	case e.ver.Has(V72):
		return 11
	}
	return 10
}

func (e *Engine) rdbWriter() *rdb.Writer {
	return &rdb.Writer{Compress: e.cfg.Get("rdbcompression") != "no"}
}

// DumpPayload is createDumpPayload: the bytes DUMP returns for o (type, value, RDB version,
// CRC-64). MIGRATE sends the same bytes.
func (e *Engine) DumpPayload(o *Object) []byte {
	w := e.rdbWriter()
	w.Type(e.rdbType(o))
	e.rdbSaveValue(w, o)
	return rdb.Wrap(w.B, e.rdbVersion())
}

// SerializedLength is rdbSavedObjectLen (DEBUG OBJECT serializedlength): the value's bytes
// without the type byte.
func (e *Engine) SerializedLength(o *Object) int {
	w := e.rdbWriter()
	e.rdbSaveValue(w, o)
	return len(w.B)
}

// RestorePayload checks a DUMP payload's footer and decodes its value (as RESTORE and MIGRATE's
// receiving side do); key is the key it will be stored under (the 8.x layout embeds it).
func (e *Engine) RestorePayload(key, payload []byte, hasExpire bool) (*Object, error) {
	if _, _, ok := rdb.Verify(payload, e.rdbVersion(), e.dbg.skipChecksum); !ok {
		return nil, ErrDumpPayload
	}
	// Like rioInitWithBuffer over the whole argument, the value is read from the payload
	// including its footer: a value that runs into the footer still loads.
	r := &rdb.Reader{B: payload}
	t := r.Byte()
	if r.Err != nil {
		return nil, ErrBadData
	}
	o := e.rdbLoadValue(r, t, key, hasExpire)
	if o == nil || r.Err != nil {
		return nil, ErrBadData
	}
	return o, nil
}

func (e *Engine) rdbType(o *Object) byte {
	switch o.Type {
	case TypeString:
		return rdb.TypeString
	case TypeList:
		return rdb.TypeListQuicklist2
	case TypeSet:
		switch o.Enc {
		case EncIntset:
			return rdb.TypeSetIntset
		case EncListpack:
			return rdb.TypeSetListpack
		}
		return rdb.TypeSet
	case TypeZSet:
		if o.Enc == EncListpack {
			return rdb.TypeZSetListpack
		}
		return rdb.TypeZSet2
	case TypeHash:
		switch o.Enc {
		case EncListpack:
			return rdb.TypeHashListpack
		case EncListpackEx:
			return rdb.TypeHashListpackEx
		}
		if hashHasTTL(o) {
			return rdb.TypeHashMetadata
		}
		return rdb.TypeHash
	case TypeStream:
		if e.ver.Has(V72) {
			return rdb.TypeStreamListpacks3
		}
		return rdb.TypeStreamListpacks2
	}
	return rdb.TypeModule2
}

func hashHasTTL(o *Object) bool {
	has := false
	hashEach(o, func(_, _ []byte, _ int64, _ bool, expire int64) bool {
		has = expire != 0
		return !has
	})
	return has
}

// hashMinExpire is the smallest field TTL of a hash, 0 without TTLs (a listpackex then saves 0).
func hashMinExpire(o *Object) int64 {
	min := int64(0)
	hashEach(o, func(_, _ []byte, _ int64, _ bool, expire int64) bool {
		if expire != 0 && (min == 0 || expire < min) {
			min = expire
		}
		return true
	})
	return min
}

func (e *Engine) rdbSaveValue(w *rdb.Writer, o *Object) {
	var buf [24]byte
	switch o.Type {
	case TypeString:
		if o.Enc == EncInt {
			w.Int(o.Int)
		} else {
			w.String(o.Buf.Bytes())
		}
	case TypeList:
		l := o.Val.(*listValue)
		if l.lp != nil {
			w.Len(1)
			w.Len(rdb.ContainerPacked)
			w.String(l.lp.Bytes())
			return
		}
		w.Len(uint64(l.ql.NodeCount()))
		depth := int(e.cfg.Int("list-compress-depth"))
		count := l.ql.NodeCount()
		i := 0
		for n := l.ql.Head(); n != nil; n, i = n.Next(), i+1 {
			if n.IsPlain() {
				w.Len(rdb.ContainerPlain)
				w.String(n.PlainBytes())
				continue
			}
			w.Len(rdb.ContainerPacked)
			// With list-compress-depth > 0 Redis keeps the inner nodes LZF-compressed
			// (quicklistCompressNode) and saves that blob as it is. The engine does not keep
			// nodes compressed; it compresses them here as Redis would have.
			if depth > 0 && count >= 2*depth && i >= depth && i < count-depth {
				if c := quicklistLZF(n.Listpack().Bytes()); c != nil {
					w.LZFBlob(c, n.Size())
					continue
				}
			}
			w.String(n.Listpack().Bytes())
		}
	case TypeSet:
		v := sv(o)
		switch o.Enc {
		case EncIntset:
			w.String(v.is.Bytes())
		case EncListpack:
			w.String(v.lp.Bytes())
		default:
			w.Len(uint64(v.ht.Len()))
			setEach(o, func(s []byte, iv int64, isInt bool) bool {
				w.String(memberBytes(s, iv, isInt, buf[:]))
				return true
			})
		}
	case TypeZSet:
		z := o.Val.(*zsetValue)
		if z.lp != nil {
			w.String(z.lp.Bytes())
			return
		}
		w.Len(z.zsl.Len())
		for n := z.zsl.Last(); n != nil; n = n.Prev() {
			w.String(bstrOf(n.Member))
			w.Double(n.Score)
		}
	case TypeHash:
		v := hv(o)
		switch o.Enc {
		case EncListpack:
			w.String(v.lp.Bytes())
		case EncListpackEx:
			w.Millis(hashMinExpire(o))
			w.String(v.lp.Bytes())
		default:
			meta := hashHasTTL(o)
			if meta {
				w.Millis(hashMinExpire(o))
			}
			w.Len(uint64(v.ht.Len()))
			min := hashMinExpire(o)
			hashEach(o, func(f, s []byte, iv int64, isInt bool, expire int64) bool {
				if meta {
					// 7.4: each field's TTL relative to the minimum, +1 (0 = no TTL).
					if expire == 0 {
						w.Len(0)
					} else {
						w.Len(uint64(expire-min) + 1)
					}
				}
				w.String(f)
				w.String(memberBytes(s, iv, isInt, buf[:]))
				return true
			})
		}
	case TypeStream:
		e.rdbSaveStream(w, stv(o))
	}
}

// quicklistLZF is quicklistCompressNode: nodes under 48 bytes stay raw, and the compressed form
// (limited to the node's size) must save at least 8 bytes.
func quicklistLZF(lp []byte) []byte {
	if len(lp) < 48 {
		return nil
	}
	c := rdb.LZFCompress(lp, len(lp))
	if c == nil || len(c)+8 >= len(lp) {
		return nil
	}
	return c
}

// rdbSaveStreamHead writes what every stream RDB type begins with (rdb.c rdbSaveObject): the
// listpack nodes under their master IDs, the length and the last ID. RDB_TYPE_STREAM_LISTPACKS
// (Redis <= 6.2) goes on with the groups; the later types first add the first ID, the
// max-deleted ID and entries-added.
func rdbSaveStreamHead(w *rdb.Writer, s *streamValue) {
	w.Len(uint64(len(s.nodes)))
	for _, n := range s.nodes {
		k := n.master.key()
		w.String(k[:])
		w.String(n.lp.Bytes())
	}
	w.Len(s.length)
	w.Len(s.lastID.Ms)
	w.Len(s.lastID.Seq)
}

func (e *Engine) rdbSaveStream(w *rdb.Writer, s *streamValue) {
	rdbSaveStreamHead(w, s)
	w.Len(s.firstID.Ms)
	w.Len(s.firstID.Seq)
	w.Len(s.maxDeletedID.Ms)
	w.Len(s.maxDeletedID.Seq)
	w.Len(s.entriesAdded)
	w.Len(uint64(len(s.groups)))
	for _, g := range s.groups {
		w.String([]byte(g.name))
		w.Len(g.lastID.Ms)
		w.Len(g.lastID.Seq)
		w.Len(uint64(g.entriesRead))
		w.Len(uint64(len(g.pel)))
		for _, id := range g.pel {
			k := id.key()
			w.Raw(k[:])
			n := g.nacks[id]
			w.Millis(n.deliveryTime)
			w.Len(n.deliveryCount)
		}
		w.Len(uint64(len(g.consumers)))
		for _, c := range g.consumers {
			w.String([]byte(c.name))
			w.Millis(c.seenTime)
			if e.ver.Has(V72) {
				w.Millis(c.activeTime)
			}
			w.Len(uint64(len(c.pel)))
			for _, id := range c.pel {
				k := id.key()
				w.Raw(k[:])
			}
		}
	}
}

// ---- loading ----

func (e *Engine) loadListpack(b []byte) *listpack.Listpack {
	lp, err := listpack.FromBytes(b)
	if err != nil {
		return nil
	}
	lp.Alloc = e.alloc
	return lp
}

// rdbLoadString is a string value (rdbLoadEncodedStringObject + tryObjectEncoding).
func (e *Engine) rdbLoadString(key, s []byte, hasExpire bool) *Object {
	if len(s) <= 20 {
		if _, ok := string2ll(s); ok {
			return e.fillArgString(nil, key, s, hasExpire)
		}
	}
	return e.newStringFromBytes(key, append([]byte(nil), s...), hasExpire)
}

func (e *Engine) rdbLoadValue(r *rdb.Reader, t byte, key []byte, hasExpire bool) *Object {
	switch t {
	case rdb.TypeString:
		s, _, _ := r.String()
		if r.Err != nil {
			return nil
		}
		return e.rdbLoadString(key, s, hasExpire)
	case rdb.TypeListQuicklist2:
		return e.rdbLoadList(r)
	case rdb.TypeSet:
		return e.rdbLoadSetHT(r)
	case rdb.TypeSetIntset:
		b, _, _ := r.String()
		// intsetValidateIntegrity checks order and duplicates only with sanitize-dump-payload
		// yes (or clients); an unsorted intset is harmless to the engine (lookups miss).
		deep := e.cfg.Get("sanitize-dump-payload") != "no"
		if r.Err != nil || intset.Validate(b, deep) != nil {
			return nil
		}
		is, err := intset.FromBytes(b)
		if err != nil {
			is = intset.FromBytesUnchecked(b)
		}
		v := e.newSetValue()
		v.is = is
		return e.rdbSetObject(v, EncIntset, is.Len(), "set-max-intset-entries")
	case rdb.TypeSetListpack:
		if !e.ver.Has(V72) {
			return nil
		}
		lp := e.rdbLoadListpack(r, 1)
		if lp == nil {
			return nil
		}
		v := e.newSetValue()
		v.lp = lp
		return e.rdbSetObject(v, EncListpack, lp.Len(), "set-max-listpack-entries")
	case rdb.TypeZSet2:
		return e.rdbLoadZSetSkiplist(r)
	case rdb.TypeZSetListpack:
		lp := e.rdbLoadListpack(r, 2)
		if lp == nil {
			return nil
		}
		o := e.newZsetListpack()
		z := o.Val.(*zsetValue)
		z.lp = lp
		if why, over := e.overEntries(z.card(), "zset-max-listpack-entries"); over {
			z.convertToSkiplist(z.card(), why)
			o.Enc = EncSkiplist
		}
		return o
	case rdb.TypeHash:
		return e.rdbLoadHashHT(r, key)
	case rdb.TypeHashListpack, rdb.TypeHashListpackEx:
		tuple, enc := 2, EncListpack
		if t == rdb.TypeHashListpackEx {
			if !e.ver.Has(V74) {
				return nil
			}
			r.Millis() // the minimum TTL, informative
			tuple, enc = 3, EncListpackEx
		}
		lp := e.rdbLoadListpack(r, tuple)
		if lp == nil {
			return nil
		}
		o := e.newHashObject()
		hv(o).lp = lp
		o.Enc = enc
		if why, over := e.overEntries(hashLen(o), "hash-max-listpack-entries"); over {
			e.hashConvertHT(o, why)
		}
		return o
	case rdb.TypeHashMetadata:
		if !e.ver.Has(V74) {
			return nil
		}
		return e.rdbLoadHashMeta(r)
	case rdb.TypeStreamListpacks, rdb.TypeStreamListpacks2, rdb.TypeStreamListpacks3:
		if t == rdb.TypeStreamListpacks3 && !e.ver.Has(V72) {
			return nil
		}
		return e.rdbLoadStream(r, t)
	}
	return nil
}

// rdbLoadListpack reads the string holding a listpack of tuple-sized entries (a set's members,
// a zset's member-score pairs, a hash's field-value pairs or field-value-TTL triples) and
// validates it; nil when it is not a valid, non-empty listpack.
func (e *Engine) rdbLoadListpack(r *rdb.Reader, tuple int) *listpack.Listpack {
	b, _, _ := r.String()
	lp := e.loadListpackNoDups(b, tuple)
	if r.Err != nil || lp == nil || lp.Len() == 0 {
		return nil
	}
	return lp
}

// rdbSetObject wraps a loaded intset or listpack set of n members as an object of encoding enc,
// converted to a hashtable when n passes the limit the config parameter sets (rdbLoadObject
// checks the member count after reading the blob).
func (e *Engine) rdbSetObject(v *setValue, enc Encoding, n int, limit string) *Object {
	o := e.setObject(v, enc)
	if why, over := e.overEntries(n, limit); over {
		e.setConvert(o, EncHashtable, n, why)
	}
	return o
}

// overEntries reports a loaded small encoding holding more than its *-max-*-entries limit name
// allows (the limits are 0…LONG_MAX), with the reason of the conversion rdbLoadObject then makes.
func (e *Engine) overEntries(n int, name string) (Why, bool) {
	limit := e.cfgLimit(name)
	if n <= limit {
		return Why{}, false
	}
	return Why{Code: WhyEntries, N: int64(n), Limit: int64(limit), Name: name}, true
}

// rdbLoadCount reads the element count of a hashtable-form value (list nodes, set members, zset
// or hash entries): nil-valued when unreadable, zero, or more than the bytes left could hold.
func rdbLoadCount(r *rdb.Reader) (uint64, bool) {
	n := r.Len()
	if r.Err != nil || n == 0 || n > uint64(len(r.B)) {
		return 0, false
	}
	return n, true
}

// loadListpackNoDups is lpValidateIntegrityAndDups: a valid listpack whose entry count is a
// multiple of tuple and — with sanitize-dump-payload yes or clients, as for any client's
// RESTORE — whose first element of each tuple is unique. (With "no" Redis checks only the
// header; the entries and the tuple count are checked here anyway, a duplicate is let through
// as Redis lets it through.)
func (e *Engine) loadListpackNoDups(b []byte, tuple int) *listpack.Listpack {
	lp := e.loadListpack(b)
	if lp == nil || lp.Len()%tuple != 0 {
		return nil
	}
	if e.cfg.Get("sanitize-dump-payload") == "no" {
		return lp
	}
	seen := map[string]bool{}
	var buf [24]byte
	i := 0
	for p := lp.First(); p >= 0; p = lp.Next(p) {
		if i%tuple == 0 {
			s := string(lp.GetString(p, buf[:]))
			if seen[s] {
				return nil
			}
			seen[s] = true
		}
		i++
	}
	return lp
}

func (e *Engine) rdbLoadList(r *rdb.Reader) *Object {
	n, ok := rdbLoadCount(r)
	if !ok {
		return nil
	}
	l := &listValue{e: e, ql: e.newQuicklist()}
	o := &Object{Type: TypeList, Enc: EncQuicklist, Val: l}
	for ; n > 0; n-- {
		c := r.Len()
		if c != rdb.ContainerPacked && c != rdb.ContainerPlain {
			return nil
		}
		b, _, _ := r.String()
		if r.Err != nil || len(b) == 0 {
			return nil
		}
		if c == rdb.ContainerPlain {
			l.ql.AppendPlain(append([]byte(nil), b...))
			continue
		}
		lp := e.loadListpack(b)
		if lp == nil {
			return nil
		}
		if lp.Len() == 0 {
			continue
		}
		l.ql.AppendListpack(lp)
	}
	if l.ql.Count() == 0 {
		return nil
	}
	l.tryConvertQuicklistAuto(o, WhyNone) // 7.2+: listTypeTryConversion(LIST_CONV_AUTO)
	return o
}

func (e *Engine) rdbLoadSetHT(r *rdb.Reader) *Object {
	n, ok := rdbLoadCount(r)
	if !ok {
		return nil
	}
	var o *Object
	maxIS := e.cfgLimit("set-max-intset-entries")
	if maxIS > 1<<30 {
		maxIS = 1 << 30
	}
	if n > uint64(maxIS) {
		o = e.newHashtableSet(0)
		if n > 4 {
			sv(o).ht.Expand(n)
		}
	} else {
		o = e.newIntsetSet()
	}
	v := sv(o)
	maxLen, sumLen := 0, 0
	for i := uint64(0); i < n; i++ {
		s, _, _ := r.String()
		if r.Err != nil {
			return nil
		}
		maxLen = max(maxLen, len(s))
		sumLen += len(s)
		if o.Enc == EncIntset {
			if iv, ok := string2ll(s); ok {
				if added, _ := v.is.Add(iv); !added {
					return nil
				}
				continue
			}
			if e.ver.Has(V72) && setSize(o) < e.cfgLimit("set-max-listpack-entries") &&
				int64(maxLen) <= e.cfg.Int("set-max-listpack-value") && sumLen <= listpackSafetySize {
				e.setConvert(o, EncListpack, int(n), Why{Code: WhyNonIntLP})
			} else {
				e.setConvert(o, EncHashtable, int(n), Why{Code: WhyNonInt})
				if !e.ver.Has(V72) {
					v.ht.Expand(n)
				}
			}
		}
		if o.Enc == EncListpack {
			if setSize(o) < e.cfgLimit("set-max-listpack-entries") &&
				int64(len(s)) <= e.cfg.Int("set-max-listpack-value") && v.lp.SafeToAdd(len(s)) {
				if v.lp.First() >= 0 && v.lp.Find(v.lp.First(), s, 0) >= 0 {
					return nil
				}
				v.lp.Append(s)
				continue
			}
			e.setConvert(o, EncHashtable, int(n), Why{Code: WhyNonIntBig})
		}
		if !v.ht.Add(string(s), struct{}{}) {
			return nil
		}
	}
	return o
}

func (e *Engine) rdbLoadZSetSkiplist(r *rdb.Reader) *Object {
	n, ok := rdbLoadCount(r)
	if !ok {
		return nil
	}
	hint := 0
	if n > 4 {
		hint = int(n)
	}
	o := e.newZsetSkiplist(hint)
	z := o.Val.(*zsetValue)
	maxLen, totLen := 0, 0
	for ; n > 0; n-- {
		m, _, _ := r.String()
		score := r.Double()
		if r.Err != nil || math.IsNaN(score) {
			return nil
		}
		if _, dup := z.dict.Find(string(m)); dup {
			return nil
		}
		maxLen = max(maxLen, len(m))
		totLen += len(m)
		ms := string(m)
		z.zsl.Insert(score, ms)
		z.dict.Add(ms, score)
	}
	e.zsetConvertToListpackIfNeeded(o, maxLen, totLen)
	return o
}

func (e *Engine) rdbLoadHashHT(r *rdb.Reader, key []byte) *Object {
	o, v, n, _, ok := e.rdbNewHash(r)
	if !ok {
		return nil
	}
	maxVal := e.cfg.Int("hash-max-listpack-value")
	seen := map[string]bool{}
	for o.Enc == EncListpack && n > 0 {
		n--
		f, val, ok := rdbLoadFieldValue(r, seen)
		if !ok {
			return nil
		}
		if int64(len(f)) > maxVal || int64(len(val)) > maxVal || !v.lp.SafeToAdd(len(f)+len(val)) {
			e.hashConvertHT(o, Why{Code: WhyValue, N: int64(max(len(f), len(val))), Limit: maxVal, Name: "hash-max-listpack-value"})
			if !v.ht.Add(string(f), &hashField{val: append([]byte(nil), val...)}) {
				return nil
			}
			break
		}
		v.lp.Append(f)
		v.lp.Append(val)
	}
	if o.Enc == EncHashtable && n > 4 {
		v.ht.Expand(n)
	}
	for ; o.Enc == EncHashtable && n > 0; n-- {
		f, _, _ := r.String()
		val, _, _ := r.String()
		if r.Err != nil {
			return nil
		}
		if !v.ht.Add(string(f), &hashField{val: append([]byte(nil), val...)}) {
			return nil
		}
	}
	return o
}

// rdbNewHash reads a hash payload's field count and makes the hash that will hold it: a
// listpack, or a hashtable at once (over) when the count passes hash-max-listpack-entries.
func (e *Engine) rdbNewHash(r *rdb.Reader) (o *Object, v *hashValue, n uint64, over, ok bool) {
	n, ok = rdbLoadCount(r)
	if !ok {
		return nil, nil, 0, false, false
	}
	o = e.newHashObject()
	v = hv(o)
	why, over := e.overEntries(int(n), "hash-max-listpack-entries")
	if over {
		e.hashConvertHT(o, why)
	}
	return o, v, n, over, true
}

// rdbLoadFieldValue reads one field and its value of a hash payload; ok is false
// on a read error or a field already in seen (a duplicate field makes the payload bad).
func rdbLoadFieldValue(r *rdb.Reader, seen map[string]bool) (f, val []byte, ok bool) {
	f, _, _ = r.String()
	val, _, _ = r.String()
	if r.Err != nil || seen[string(f)] {
		return nil, nil, false
	}
	seen[string(f)] = true
	return f, val, true
}

// rdbLoadHashMeta is RDB_TYPE_HASH_METADATA (7.4): the minimum TTL, then per field its TTL
// relative to it (+1; 0 = none), the field and the value; a listpackex while it fits.
func (e *Engine) rdbLoadHashMeta(r *rdb.Reader) *Object {
	minExp := r.Millis()
	o, v, n, over, ok := e.rdbNewHash(r)
	if !ok {
		return nil
	}
	if over {
		v.hfe = true
	} else {
		o.Enc = EncListpackEx
	}
	maxVal := e.cfg.Int("hash-max-listpack-value")
	seen := map[string]bool{}
	for ; n > 0; n-- {
		ttl := r.Len()
		f, val, ok := rdbLoadFieldValue(r, seen)
		if !ok {
			return nil
		}
		var at int64
		if ttl != 0 {
			at = minExp + int64(ttl) - 1
			if at > hfeMaxAbsTimeMs || at < 0 {
				return nil
			}
		}
		if o.Enc == EncListpackEx && (int64(len(f)) > maxVal || int64(len(val)) > maxVal) {
			e.hashConvertHT(o, Why{Code: WhyValue, N: int64(max(len(f), len(val))), Limit: maxVal, Name: "hash-max-listpack-value"})
		}
		if o.Enc == EncListpackEx {
			iv, isInt := string2ll(val)
			e.lpexInsert(v, f, val, iv, isInt && len(val) <= 20, at)
			continue
		}
		if !v.ht.Add(string(f), &hashField{val: append([]byte(nil), val...), expire: at, meta: at != 0}) {
			return nil
		}
	}
	return o
}

func streamIDFromKey(b []byte) StreamID {
	var id StreamID
	for i := 0; i < 8; i++ {
		id.Ms = id.Ms<<8 | uint64(b[i])
		id.Seq = id.Seq<<8 | uint64(b[8+i])
	}
	return id
}

// rdbLoadStream reads a stream of type t. The 6.2 form (RDB_TYPE_STREAM_LISTPACKS) has no first
// ID, max deleted ID, entries-added or group entries-read: as rdbLoadObject does, entries-added
// is the length, the first ID the first live entry, and a group's entries-read is estimated
// from its last ID (streamEstimateDistanceFromFirstEverEntry).
func (e *Engine) rdbLoadStream(r *rdb.Reader, t byte) *Object {
	v1, v3 := t == rdb.TypeStreamListpacks, t == rdb.TypeStreamListpacks3
	o := e.newStreamObject()
	s := stv(o)
	n := r.Len()
	if r.Err != nil || n > uint64(len(r.B)) {
		return nil
	}
	for ; n > 0; n-- {
		k, _, _ := r.String()
		if r.Err != nil || len(k) != 16 {
			return nil
		}
		b, _, _ := r.String()
		lp := e.loadListpack(b)
		if r.Err != nil || lp == nil || lp.First() < 0 {
			return nil
		}
		id := streamIDFromKey(k)
		if len(s.nodes) > 0 && s.nodes[len(s.nodes)-1].master.cmp(id) >= 0 {
			return nil // re-added or out of order
		}
		s.nodes = append(s.nodes, &streamNode{master: id, lp: lp})
	}
	s.length = r.Len()
	s.lastID = StreamID{r.Len(), r.Len()}
	if v1 {
		s.entriesAdded = s.length
		s.firstID = s.firstValidID()
	} else {
		s.firstID = StreamID{r.Len(), r.Len()}
		s.maxDeletedID = StreamID{r.Len(), r.Len()}
		s.entriesAdded = r.Len()
	}
	if r.Err != nil || (s.length > 0 && len(s.nodes) == 0) {
		return nil
	}
	ng := r.Len()
	if r.Err != nil || ng > uint64(len(r.B)) {
		return nil
	}
	for ; ng > 0; ng-- {
		name, _, _ := r.String()
		last := StreamID{r.Len(), r.Len()}
		var read int64
		if v1 {
			read = s.estimateDistance(last)
		} else {
			read = int64(r.Len())
		}
		if r.Err != nil {
			return nil
		}
		g := s.createGroup(name, last, read)
		if g == nil {
			return nil
		}
		np := r.Len()
		if r.Err != nil || np > uint64(len(r.B)) {
			return nil
		}
		for ; np > 0; np-- {
			raw := r.Bytes(16)
			dt := r.Millis()
			dc := r.Len()
			if r.Err != nil {
				return nil
			}
			id := streamIDFromKey(raw)
			if !g.pel.insert(id) {
				return nil
			}
			g.nacks[id] = &streamNACK{deliveryTime: dt, deliveryCount: dc}
		}
		nc := r.Len()
		if r.Err != nil || nc > uint64(len(r.B)) {
			return nil
		}
		for ; nc > 0; nc-- {
			cname, _, _ := r.String()
			if r.Err != nil || g.consumer(cname) != nil {
				return nil
			}
			c := &streamConsumer{name: string(cname), seenTime: r.Millis()}
			c.activeTime = c.seenTime
			if v3 {
				c.activeTime = r.Millis()
			}
			g.consumers = append(g.consumers, c)
			sortConsumers(g)
			np := r.Len()
			if r.Err != nil || np > uint64(len(r.B)) {
				return nil
			}
			for ; np > 0; np-- {
				raw := r.Bytes(16)
				if r.Err != nil {
					return nil
				}
				id := streamIDFromKey(raw)
				nack := g.nacks[id]
				if nack == nil || nack.consumer != nil || !c.pel.insert(id) {
					return nil // consumer PEL entry missing from the group PEL
				}
				nack.consumer = c
			}
		}
		for _, nack := range g.nacks {
			if nack.consumer == nil {
				return nil // a group PEL entry without consumer
			}
		}
	}
	return o
}

func sortConsumers(g *streamCG) {
	for i := len(g.consumers) - 1; i > 0 && g.consumers[i].name < g.consumers[i-1].name; i-- {
		g.consumers[i], g.consumers[i-1] = g.consumers[i-1], g.consumers[i]
	}
}
