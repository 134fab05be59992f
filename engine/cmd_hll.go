package engine

import (
	"bytes"
	"slices"
	"sync"

	"redscope/engine/hll"
	"redscope/engine/sds"
)

// HyperLogLog commands: PFADD, PFCOUNT, PFMERGE, PFDEBUG, PFSELFTEST (docs/internals.md §HyperLogLog).
//
// An HLL is a raw string value; the bytes live in engine/hll's format and the sds allocation is
// modelled here, because it decides MEMORY USAGE:
//   - a new HLL is sdsnewlen(18) (sds5);
//   - before each sparse register write (count ≤ 32) the buffer gets room for 3 more bytes:
//     7.0 with the greedy sdsMakeRoomFor(3); 7.2+ only when alloc < hll-sparse-max-bytes and
//     avail < 3, with sdsResize(len+3 + min(len+3, 300), capped at hll-sparse-max-bytes);
//   - promotion to dense allocates a new exact sds of 12 304 bytes.

func init() {
	register(
		&Command{Name: "pfadd", Arity: -2, Flags: FlagWrite | FlagDenyOOM | FlagFast, Cats: "hyperloglog", KeyFlags: []string{"RW insert"}, Fn: pfaddCommand},
		&Command{Name: "pfcount", Arity: -2, Flags: FlagReadonly | FlagMayReplicate, FirstKey: 1, LastKey: -1, Step: 1, Cats: "hyperloglog", KeyFlags: []string{"RW access"}, KeyNotes: []string{"RW because it may change the internal representation of the key, and propagate to replicas"}, Fn: pfcountCommand},
		&Command{Name: "pfmerge", Arity: -2, Flags: FlagWrite | FlagDenyOOM, FirstKey: 1, LastKey: -1, Step: 1, Cats: "hyperloglog", KeyFlags: []string{"RW access insert", "RO access"}, Fn: pfmergeCommand},
		&Command{Name: "pfdebug", Arity: 3, Flags: FlagWrite | FlagDenyOOM | FlagAdmin, FirstKey: 2, LastKey: 2, Step: 1, Cats: "hyperloglog", KeyFlags: []string{"RW access"}, Fn: pfdebugCommand},
		&Command{Name: "pfselftest", Arity: 1, Flags: FlagAdmin, Cats: "hyperloglog", Fn: func(e *Engine, args [][]byte) Reply { return OK }},
	)
}

// isHLL is isHLLObjectOrReply: a string value (raw or embstr, not int) that looks like an HLL.
func isHLL(o *Object) (Reply, bool) {
	if o.Type != TypeString {
		return ErrWrongType, false
	}
	if o.Enc != EncRaw && o.Enc != EncEmbstr {
		return errNotHLL, false
	}
	n := o.Buf.Len()
	if n < hll.HdrSize {
		return errNotHLL, false
	}
	var buf [hll.HdrSize]byte
	hdr := buf[:]
	if n <= sds.DenseLimit {
		hdr = o.Buf.Bytes() // aliases, no copy
	} else {
		o.Buf.ReadAt(hdr, 0)
	}
	if enc := hll.Recognise(hdr); enc == "" || (enc == "dense" && n != hll.DenseSize) {
		return errNotHLL, false
	}
	return Reply{}, true
}

func hllIsSparse(o *Object) bool { return o.Buf.At(4) == hll.EncSparse }

// hllTerms remembers the sds terminator of the rare sparse strings where Redis leaves a non-NUL
// byte there (a split of an XZERO cut in half by the end of a crafted value; see engine/hll).
// It is trusted only while the string keeps the length it had then: every other write that
// changes a string's length rewrites the terminator as NUL in Redis too. Objects are the keys,
// so a replaced value never inherits an entry.
var hllTerms sync.Map // *Object → hllTerm

type hllTerm struct {
	n int
	b byte
}

// hllBytes returns a sparse HLL's bytes with its terminator in place for the hll package.
func hllBytes(o *Object) []byte {
	b := o.Buf.Bytes()
	var t byte
	if v, ok := hllTerms.Load(o); ok {
		if ht := v.(hllTerm); ht.n == len(b) {
			t = ht.b
		} else {
			hllTerms.Delete(o)
		}
	}
	if cap(b) > len(b) {
		b[:len(b)+1][len(b)] = t
	} else if t != 0 {
		nb := make([]byte, len(b), len(b)+1)
		copy(nb, b)
		nb[:len(b)+1][len(b)] = t
		o.Buf.Adopt(nb)
		b = nb
	}
	return b
}

// hllKeepTerm records the terminator a sparse write left (or forgets it when NUL).
func hllKeepTerm(o *Object, b []byte) {
	if t := hll.Term(b); t != 0 {
		hllTerms.Store(o, hllTerm{n: len(b), b: t})
	} else {
		hllTerms.Delete(o)
	}
}

// hllInvalidate sets the cache-invalid bit (HLL_INVALIDATE_CACHE).
func hllInvalidate(o *Object) { o.Buf.SetAt(15, o.Buf.At(15)|0x80) }

// newHLLObject is createHLLObject: an empty sparse HLL in an exact sds of 18 bytes.
func (e *Engine) newHLLObject(key []byte, cmd string) *Object {
	o := &Object{Type: TypeString, Enc: EncRaw}
	o.Buf.Adopt(hll.NewSparse())
	o.SDS = sds.New(e.alloc, hll.EmptySparseSize)
	if e.tracing {
		e.emit(SDSEvent{Key: string(key), Cmd: cmd, After: o.SDS, Requested: hll.EmptySparseSize, Realloc: true})
	}
	return o
}

// hllGrowSparse models the room-making step that precedes every sparse register write.
func (e *Engine) hllGrowSparse(key []byte, o *Object, cmd string) {
	before := o.SDS
	if !e.ver.Has(V72) {
		h, grew := before.MakeRoomFor(e.alloc, 3, true)
		if !grew {
			return
		}
		o.SDS = h
		if e.tracing {
			e.emit(SDSEvent{Key: string(key), Cmd: cmd, Before: before, After: h, Requested: before.Len + 3,
				Greedy: true, Realloc: true, TypeChange: h.Type != before.Type})
		}
		return
	}
	limit := e.cfg.Int("hll-sparse-max-bytes")
	if int64(before.Alloc) >= limit || before.Avail() >= 3 {
		return
	}
	newlen := before.Len + 3
	newlen += min(newlen, 300)
	if int64(newlen) > limit {
		newlen = int(limit)
	}
	o.SDS = before.Resize(e.alloc, newlen, true)
	if e.tracing {
		e.emit(SDSEvent{Key: string(key), Cmd: cmd, Before: before, After: o.SDS, Requested: before.Len + 3,
			Realloc: o.SDS.Usable != before.Usable || o.SDS.Type != before.Type, TypeChange: o.SDS.Type != before.Type})
	}
}

// hllToDense is hllSparseToDense on the stored value (false: corrupt).
func (e *Engine) hllToDense(key []byte, o *Object, cmd string, why Why, index, value int) bool {
	sparse := hllBytes(o)
	dense, ok := hll.SparseToDense(sparse)
	if !ok {
		return false
	}
	before := o.SDS
	o.Buf.Adopt(dense)
	o.SDS = sds.New(e.alloc, hll.DenseSize)
	if e.tracing {
		k := string(key)
		e.emit(HLLPromoteEvent{Key: k, Why: why, SparseBytes: len(sparse), DenseBytes: hll.DenseSize,
			Index: index, Value: value, Limit: e.cfg.Int("hll-sparse-max-bytes")})
		e.emit(EncodingEvent{Key: k, From: "sparse", To: "dense", Why: why})
		e.emit(SDSEvent{Key: k, Cmd: cmd, Before: before, After: o.SDS, Requested: hll.DenseSize, Realloc: true,
			TypeChange: before.Type != o.SDS.Type})
	}
	return true
}

// hllSet sets register index to count if larger, through the sparse path (which may promote)
// or the dense one. It returns 1 when a register changed, 0 when not, -1 on corrupt data.
// ele (may be nil) and hash only feed the trace, which keeps ele: the caller passes a copy it
// does not change afterwards.
func (e *Engine) hllSet(key []byte, o *Object, index, count int, ele []byte, hash uint64, cmd string) int {
	if !hllIsSparse(o) {
		b := o.Buf.Bytes()
		old, upd := hll.DenseSet(b, index, count)
		if e.tracing {
			e.emitHLL(key, ele, hash, index, count, old, upd, "dense")
		}
		if upd {
			return 1
		}
		return 0
	}
	why := Why{Code: WhyHLLValue, N: int64(count), Limit: hll.SparseValMaxValue}
	if count <= hll.SparseValMaxValue {
		e.hllGrowSparse(key, o, cmd)
		b := hllBytes(o)
		limit := e.cfg.Int("hll-sparse-max-bytes")
		var (
			nb       []byte
			old, res int
			ch       hll.Change
		)
		if e.tracing {
			nb, old, res, ch = hll.SparseSetTraced(b, index, count, limit)
		} else {
			nb, old, res = hll.SparseSet(b, index, count, limit)
		}
		switch res {
		case hll.Invalid:
			return -1
		case hll.Unchanged:
			if e.tracing {
				e.emitHLL(key, ele, hash, index, count, old, false, "sparse")
			}
			return 0
		case hll.Updated:
			o.Buf.Adopt(nb)
			hllKeepTerm(o, nb)
			o.SDS = o.SDS.WithLen(len(nb))
			if e.tracing {
				e.emitHLL(key, ele, hash, index, count, old, true, "sparse")
				e.emit(HLLSparseEvent{Key: string(key), Before: ch.Before, After: ch.After, BytesBefore: len(b),
					BytesAfter: len(nb), Index: index, Rewrite: ch.Rewrite, Merged: ch.Merged})
			}
			return 1
		}
		why = Why{Code: WhyHLLBytes, N: int64(len(hllBytes(o))), Limit: e.cfg.Int("hll-sparse-max-bytes")}
	}
	if !e.hllToDense(key, o, cmd, why, index, count) {
		return -1
	}
	old, _ := hll.DenseSet(o.Buf.Bytes(), index, count)
	if e.tracing {
		e.emitHLL(key, ele, hash, index, count, old, true, "dense")
	}
	return 1 // a promotion always changes the register
}

func (e *Engine) emitHLL(key, ele []byte, hash uint64, index, count, old int, upd bool, enc string) {
	nv := old
	if upd {
		nv = count
	}
	e.emit(HLLEvent{Key: e.traceKey(key), Element: ele, Hash: hash, Index: index, Count: count, Old: old, New: nv, Encoding: enc})
}

// traceKey is string(key) for a trace event: the string of the previous call when the bytes are
// the same, so that the events of one command about one key (a PFADD's one per element, a
// PFMERGE's one per register) share one string instead of a copy each.
func (e *Engine) traceKey(key []byte) string {
	if string(key) != e.lastTraceKey {
		e.lastTraceKey = string(key)
	}
	return e.lastTraceKey
}

// hllOpen looks key up for a PF command that writes: nil when missing; the value is checked and
// unshared (an embstr HLL becomes raw).
func (e *Engine) hllOpen(key []byte, cmd string) (*Object, Reply, bool) {
	o := e.Lookup(key)
	if o == nil {
		return nil, Reply{}, true
	}
	if r, ok := isHLL(o); !ok {
		return nil, r, false
	}
	return e.unshareString(key, o, cmd), Reply{}, true
}

func pfaddCommand(e *Engine, args [][]byte) Reply {
	key := args[1]
	dirty := e.cfg.stats.dirty
	o, r, ok := e.hllOpen(key, "pfadd")
	if !ok {
		return r
	}
	updated := 0
	if o == nil {
		o = e.newHLLObject(key, "pfadd")
		e.add(key, o)
		updated++
	}
	var elems []byte // tracing: the copies of the elements the events keep, in one allocation
	if e.tracing {
		n := 0
		for _, ele := range args[2:] {
			n += len(ele)
		}
		elems = make([]byte, 0, n)
		e.events = slices.Grow(e.events, len(args)-2) // one HLLEvent per element at least
	}
	for i, ele := range args[2:] {
		if !e.tracing && !hllIsSparse(o) {
			// Dense fast path: nothing can fail or change the encoding any more.
			b := o.Buf.Bytes()
			for _, ele := range args[2+i:] {
				if hll.DenseAdd(b, ele) {
					updated++
				}
			}
			break
		}
		index, count, hash := hll.PatLen(ele)
		if e.tracing {
			start := len(elems)
			elems = append(elems, ele...)
			ele = elems[start:len(elems):len(elems)]
		}
		switch e.hllSet(key, o, index, count, ele, hash, "pfadd") {
		case 1:
			updated++
		case -1:
			e.cfg.stats.dirty = dirty // pfaddCommand returns before server.dirty += updated
			return errCorruptHLL
		}
	}
	if updated > 0 {
		hllInvalidate(o)
	}
	// pfaddCommand's server.dirty += updated: one for the key created, one per register raised
	e.changed(key, dirty, int64(updated))
	return Int(min(int64(updated), 1))
}

// hllUnion is the loop pfcountCommand and pfmergeCommand share: the registers of the HLLs at
// keys merged into one 8-bit array, each the maximum over the keys (missing keys count as
// empty), and whether any of them was dense. A key that is not an HLL, or a corrupt one, gives
// the error reply instead.
func (e *Engine) hllUnion(keys [][]byte) (max *[hll.Registers]uint8, anyDense bool, r Reply, ok bool) {
	max = new([hll.Registers]uint8)
	for _, k := range keys {
		o := e.Lookup(k)
		if o == nil {
			continue
		}
		if r, ok := isHLL(o); !ok {
			return nil, false, r, false
		}
		if !hllIsSparse(o) {
			anyDense = true
		}
		if !hll.Merge(max, hllBytes(o)) {
			return nil, false, errCorruptHLL, false
		}
	}
	return max, anyDense, Reply{}, true
}

func pfcountCommand(e *Engine, args [][]byte) Reply {
	if len(args) > 2 {
		// Union: merge into 8-bit registers, estimate, cache nothing.
		max, _, r, ok := e.hllUnion(args[1:])
		if !ok {
			return r
		}
		var h [64]int
		hll.RawHisto(max, &h)
		return Int(int64(hll.Estimate(&h)))
	}
	key := args[1]
	o, r, ok := e.hllOpen(key, "pfcount")
	if !ok {
		return r
	}
	if o == nil {
		return Int(0)
	}
	var hdr [hll.HdrSize]byte
	o.Buf.ReadAt(hdr[:], 0)
	if hll.CacheValid(hdr[:]) {
		return Int(int64(hll.Cached(hdr[:])))
	}
	card, ok := hll.Count(hllBytes(o))
	if !ok {
		return errCorruptHLL
	}
	hll.SetCache(hdr[:], card)
	o.Buf.WriteAt(hdr[8:], 8) // PFCOUNT writes the cache: a write
	e.signalModifiedBytes(e.db, key)
	return Int(int64(card))
}

func pfmergeCommand(e *Engine, args [][]byte) Reply {
	max, useDense, r, ok := e.hllUnion(args[1:])
	if !ok {
		return r
	}
	key := args[1]
	dirty := e.cfg.stats.dirty
	o := e.Lookup(key)
	if o == nil {
		o = e.newHLLObject(key, "pfmerge")
		e.add(key, o)
	} else {
		o = e.unshareString(key, o, "pfmerge")
	}
	if useDense && hllIsSparse(o) {
		if !e.hllToDense(key, o, "pfmerge", Why{Code: WhyHLLCmd, Name: "PFMERGE"}, -1, 0) {
			return errCorruptHLL
		}
	}
	for j, v := range max {
		if v != 0 {
			e.hllSet(key, o, j, int(v), nil, 0, "pfmerge") // Redis ignores the result here
		}
	}
	hllInvalidate(o)
	e.changed(key, dirty, 1) // pfmergeCommand's one server.dirty++ (the key created is no change of its own)
	return OK
}

func pfdebugCommand(e *Engine, args [][]byte) Reply {
	// The subcommand is a C string to Redis: it ends at the first NUL byte.
	sub := args[1]
	if i := bytes.IndexByte(sub, 0); i >= 0 {
		sub = sub[:i]
	}
	key := args[2]
	o, r, ok := e.hllOpen(key, "pfdebug")
	if !ok {
		return r
	}
	if o == nil {
		return Err("ERR The specified key does not exist")
	}
	switch {
	case eqFold(sub, "getreg"):
		if hllIsSparse(o) {
			if !e.hllToDense(key, o, "pfdebug", Why{Code: WhyHLLCmd, Name: "PFDEBUG GETREG"}, -1, 0) {
				return errCorruptHLL
			}
			e.cfg.stats.dirty++ // pfdebugCommand: server.dirty++ on the encoding change
		}
		b := o.Buf.Bytes()
		regs := make([]Reply, hll.Registers)
		for i := range regs {
			regs[i] = Int(int64(hll.DenseGet(b, i)))
		}
		return Reply{Kind: KindArray, Array: regs}
	case eqFold(sub, "decode"):
		if !hllIsSparse(o) {
			return Err("ERR HLL encoding is not sparse")
		}
		return Bulk(hll.AppendDecode(nil, hllBytes(o)))
	case eqFold(sub, "encoding"):
		if hllIsSparse(o) {
			return Status("sparse")
		}
		return Status("dense")
	case eqFold(sub, "todense"):
		if !hllIsSparse(o) {
			return Int(0)
		}
		if !e.hllToDense(key, o, "pfdebug", Why{Code: WhyHLLCmd, Name: "PFDEBUG TODENSE"}, -1, 0) {
			return errCorruptHLL
		}
		e.cfg.stats.dirty++ // pfdebugCommand: server.dirty++ on the encoding change
		return Int(1)
	}
	return Err(cleanErr("ERR Unknown PFDEBUG subcommand '" + string(sub) + "'"))
}
