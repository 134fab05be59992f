package engine

import (
	"math"
	"sort"
	"strconv"

	"redscope/engine/dict"
	"redscope/engine/listpack"
)

// Set commands: SADD SREM SISMEMBER SMISMEMBER SCARD SMEMBERS SSCAN SINTER SINTERCARD SUNION
// SDIFF SINTERSTORE SUNIONSTORE SDIFFSTORE SRANDMEMBER SPOP SMOVE (t_set.c, see t_set.go).

func init() {
	register(
		&Command{Name: "sadd", Arity: -3, Flags: FlagWrite | FlagDenyOOM | FlagFast, Cats: "set", KeyFlags: []string{"RW insert"}, Fn: cmdSAdd},
		&Command{Name: "srem", Arity: -3, Flags: FlagWrite | FlagFast, Cats: "set", KeyFlags: []string{"RW delete"}, Fn: cmdSRem},
		&Command{Name: "sismember", Arity: 3, Flags: FlagReadonly | FlagFast, Cats: "set", KeyFlags: []string{"RO"}, Fn: cmdSIsMember},
		&Command{Name: "smismember", Arity: -3, Flags: FlagReadonly | FlagFast, Cats: "set", Fn: cmdSMIsMember},
		&Command{Name: "scard", Arity: 2, Flags: FlagReadonly | FlagFast, Cats: "set", KeyFlags: []string{"RO"}, Fn: cmdSCard},
		&Command{Name: "smembers", Arity: 2, Flags: FlagReadonly, Cats: "set", Tips: "nondeterministic_output_order", Fn: cmdSMembers},
		&Command{Name: "sscan", Arity: -3, Flags: FlagReadonly, Cats: "set", Tips: "nondeterministic_output", Fn: cmdSScan},
		&Command{Name: "srandmember", Arity: -2, Flags: FlagReadonly, Cats: "set", Tips: "nondeterministic_output", Cost: countCost, Fn: cmdSRandMember},
		&Command{Name: "spop", Arity: -2, Flags: FlagWrite | FlagFast, Cats: "set", Tips: "nondeterministic_output", KeyFlags: []string{"RW access delete"}, Fn: cmdSPop},
		&Command{Name: "smove", Arity: 4, Flags: FlagWrite | FlagFast, FirstKey: 1, LastKey: 2, Step: 1, Cats: "set", KeyFlags: []string{"RW access delete", "RW insert"}, Fn: cmdSMove},
		&Command{Name: "sinter", Arity: -2, Flags: FlagReadonly, FirstKey: 1, LastKey: -1, Step: 1, Cats: "set", Tips: "nondeterministic_output_order", Fn: cmdSInter},
		&Command{Name: "sintercard", Arity: -3, Flags: FlagReadonly, Cats: "set", KeyNum: KeyNum{1, 1, 1}, Fn: cmdSInterCard},
		&Command{Name: "sinterstore", Arity: -3, Flags: FlagWrite | FlagDenyOOM, FirstKey: 1, LastKey: -1, Step: 1, Cats: "set", KeyFlags: []string{"RW update", "RO access"}, Fn: cmdSInterStore},
		&Command{Name: "sunion", Arity: -2, Flags: FlagReadonly, FirstKey: 1, LastKey: -1, Step: 1, Cats: "set", Tips: "nondeterministic_output_order", Fn: cmdSUnion},
		&Command{Name: "sunionstore", Arity: -3, Flags: FlagWrite | FlagDenyOOM, FirstKey: 1, LastKey: -1, Step: 1, Cats: "set", KeyFlags: []string{"OW update", "RO access"}, Fn: cmdSUnionStore},
		&Command{Name: "sdiff", Arity: -2, Flags: FlagReadonly, FirstKey: 1, LastKey: -1, Step: 1, Cats: "set", Tips: "nondeterministic_output_order", Fn: cmdSDiff},
		&Command{Name: "sdiffstore", Arity: -3, Flags: FlagWrite | FlagDenyOOM, FirstKey: 1, LastKey: -1, Step: 1, Cats: "set", KeyFlags: []string{"OW update", "RO access"}, Fn: cmdSDiffStore},
	)
}

// maxRandomReply bounds the replies of SRANDMEMBER/HRANDFIELD with a negative count: Redis
// would stream them until the client's output buffer limit kills the connection; the simulator
// refuses instead of exhausting memory.
const maxRandomReply = 1 << 22

func memberReply(s []byte, iv int64, isInt bool) Reply {
	if isInt {
		return bulkInt(iv)
	}
	return Bulk(s)
}

func cmdSAdd(e *Engine, args [][]byte) Reply {
	dirty := e.cfg.stats.dirty
	key := args[1]
	o, werr := e.lookupTyped(key, TypeSet)
	if werr != nil {
		return *werr
	}
	if o == nil {
		o = e.setTypeCreate(args[2], len(args)-2)
		e.traceSet(key, o)
		e.add(key, o)
	} else {
		e.setMaybeConvert(o, len(args)-2)
	}
	added := int64(0)
	for _, m := range args[2:] {
		if e.setAdd(o, m) {
			added++
		}
	}
	e.changed(key, dirty, added) // saddCommand's server.dirty += added
	return Int(added)
}

func cmdSRem(e *Engine, args [][]byte) Reply {
	return e.removeEach(args[1], TypeSet, args[2:], e.setRemove, setSize)
}

func cmdSMove(e *Engine, args [][]byte) Reply {
	dirty := e.cfg.stats.dirty
	src := e.Lookup(args[1])
	dst := e.Lookup(args[2])
	ele := args[3]
	if src == nil {
		return Int(0)
	}
	if src.Type != TypeSet || (dst != nil && dst.Type != TypeSet) {
		return ErrWrongType
	}
	e.traceSet(args[1], src)
	e.traceSet(args[2], dst)
	if src == dst {
		if e.setIsMember(src, ele) {
			return Int(1)
		}
		return Int(0)
	}
	if !e.setRemove(src, ele) {
		return Int(0)
	}
	if setSize(src) == 0 {
		e.Delete(args[1])
	}
	e.signalModifiedBytes(e.db, args[1])
	if dst == nil {
		dst = e.setTypeCreate(ele, 1)
		e.traceSet(args[2], dst)
		e.add(args[2], dst)
	}
	moved := int64(1) // smoveCommand: server.dirty++ for the removal, one more when ele was added
	if e.setAdd(dst, ele) {
		e.signalModifiedBytes(e.db, args[2])
		moved++
	}
	e.cfg.stats.dirty = dirty + moved
	return Int(1)
}

func cmdSIsMember(e *Engine, args [][]byte) Reply {
	o, werr := e.lookupTyped(args[1], TypeSet)
	if werr != nil {
		return *werr
	}
	if o != nil && e.setIsMember(o, args[2]) {
		return Int(1)
	}
	return Int(0)
}

func cmdSMIsMember(e *Engine, args [][]byte) Reply {
	o, werr := e.lookupTyped(args[1], TypeSet)
	if werr != nil {
		return *werr
	}
	out := make([]Reply, len(args)-2)
	for i, m := range args[2:] {
		if o != nil && e.setIsMember(o, m) {
			out[i] = Int(1)
		} else {
			out[i] = Int(0)
		}
	}
	return Reply{Kind: KindArray, Array: out}
}

func cmdSCard(e *Engine, args [][]byte) Reply {
	o, werr := e.lookupTyped(args[1], TypeSet)
	if o == nil {
		return orMissing(werr, Int(0))
	}
	return Int(int64(setSize(o)))
}

// setReply lists a set in its encoding's order.
func setReply(o *Object) Reply {
	out := make([]Reply, 0, setSize(o))
	setEach(o, func(s []byte, iv int64, isInt bool) bool {
		out = append(out, memberReply(s, iv, isInt))
		return true
	})
	return Reply{Kind: KindArray, Array: out}
}

func cmdSMembers(e *Engine, args [][]byte) Reply {
	return e.sinterGeneric(args[1:2], nil, false, 0)
}

func cmdSScan(e *Engine, args [][]byte) Reply { return e.scanKey(args, TypeSet) }

// scanValue is scanGenericCommand for a set or hash value: hashtables are walked with the
// dict's reverse-binary cursor (at most COUNT×10 buckets per call), small encodings are returned
// whole with cursor 0; MATCH filters afterwards (a hash pair goes away with its field).
func (e *Engine) scanValue(o *Object, cursor uint64, so scanOptions) Reply {
	count, noValues := so.count, so.noValues
	pairs := o.Type == TypeHash && !noValues
	var items [][]byte
	switch {
	case o.Type == TypeSet && o.Enc == EncHashtable:
		d := sv(o).ht
		if count > math.MaxInt64/10 {
			count = math.MaxInt64 / 10
		}
		maxIter := count * 10
		for {
			cursor = d.Scan(cursor, func(en *dict.Entry[string, struct{}]) {
				items = append(items, []byte(en.Key))
			})
			if cursor == 0 || maxIter == 0 || int64(len(items)) >= count {
				break
			}
			maxIter--
		}
	case o.Type == TypeHash && o.Enc == EncHashtable:
		cursor, items = e.hashScanHT(o, cursor, count, noValues)
	case o.Type == TypeSet:
		var buf [24]byte
		setEach(o, func(s []byte, iv int64, isInt bool) bool {
			items = append(items, append([]byte(nil), memberBytes(s, iv, isInt, buf[:])...))
			return true
		})
		cursor = 0
	default:
		items = e.hashSmallItems(o, noValues)
		cursor = 0
	}
	out := make([]Reply, 0, len(items))
	step := 1
	if pairs {
		step = 2
	}
	for i := 0; i+step-1 < len(items); i += step {
		if !so.match(items[i]) {
			continue
		}
		out = append(out, Bulk(items[i]))
		if pairs {
			out = append(out, Bulk(items[i+1]))
		}
	}
	return Array(BulkStr(strconv.FormatUint(cursor, 10)), Reply{Kind: KindArray, Array: out})
}

// ---------------------------------------------------------------- SRANDMEMBER / SPOP

// lpEachRandom picks n random members of a listpack set in one lpNextRandom pass, in listpack
// order (srandmemberWithCountCommand's CASE 2.5, spopWithCountCommand), calling pick with each
// one's entry index and offset.
func (e *Engine) lpEachRandom(lp *listpack.Listpack, n int, pick func(i, p int, s []byte, iv int64, isInt bool)) {
	p, i := lp.First(), 0
	for c := n; c > 0; c-- {
		p = e.lpNextRandom(lp, p, &i, c, 1)
		s, iv, isInt, _ := lp.Get(p)
		pick(i, p, s, iv, isInt)
		p = lp.Next(p)
		i++
	}
}

// setOneRandom is the opening SRANDMEMBER and SPOP share (srandmemberCommand, spopCommand): a
// third argument makes it the count form (withCount answers), more are a syntax error; else the
// set at key. o is nil when the reply r is already the answer.
func (e *Engine) setOneRandom(args [][]byte, withCount func([][]byte) Reply) (o *Object, r Reply) {
	if len(args) == 3 {
		return nil, withCount(args)
	}
	if len(args) > 3 {
		return nil, ErrSyntax
	}
	o, werr := e.lookupTyped(args[1], TypeSet)
	if o == nil {
		return nil, orMissing(werr, NilReply)
	}
	return o, Reply{}
}

func cmdSRandMember(e *Engine, args [][]byte) Reply {
	o, r := e.setOneRandom(args, e.srandmemberWithCount)
	if o == nil {
		return r
	}
	s, iv, isInt := e.setRandom(o, "srandmember")
	return memberReply(s, iv, isInt)
}

// parseRandCount is getRangeLongFromObjectOrReply(-LONG_MAX, LONG_MAX).
func parseRandCount(b []byte) (int64, Reply, bool) {
	l, ok := string2ll(b)
	if !ok {
		return 0, ErrNotInt, false
	}
	if l == math.MinInt64 {
		return 0, errRangeInt64, false
	}
	return l, Reply{}, true
}

// randCount splits a pick count: a negative count allows the same element again (count = -l).
func randCount(l int64) (count uint64, uniq bool) {
	if l < 0 {
		return uint64(-l), false
	}
	return uint64(l), true
}

// parseRandWith reads the "count [WITHVALUES|WITHSCORES]" of HRANDFIELD and ZRANDMEMBER
// (hrandfieldWithCountCommand, zrandmemberWithCountCommand): the count within ±LONG_MAX, then the
// word; with it the count must stay within ±LONG_MAX/2, as the reply holds two entries a pick.
func parseRandWith(args [][]byte, word string) (l int64, with bool, r *Reply) {
	l, rr, ok := parseRandCount(args[2])
	if !ok {
		return 0, false, &rr
	}
	if len(args) > 4 || (len(args) == 4 && !eqFold(args[3], word)) {
		return 0, false, &ErrSyntax
	}
	if len(args) == 4 {
		if l < -math.MaxInt64/2 || l > math.MaxInt64/2 {
			return 0, false, &errValueOutOfRange
		}
		return l, true, nil
	}
	return l, false, nil
}

// dropFairRandom is CASE 3 of SRANDMEMBER, HRANDFIELD and ZRANDMEMBER with a count: the copy tmp
// loses dictGetFairRandomKey entries until n remain, each shown as a pick of cmd when cmd is set.
func dropFairRandom[V any](e *Engine, tmp *dict.Dict[string, V], n uint64, tkey, cmd string) {
	for uint64(tmp.Len()) > n {
		en := tmp.GetFairRandomKey()
		if cmd != "" {
			e.emitPick(tkey, cmd, "dict-remove-fair", -1, []byte(en.Key))
		}
		tmp.Delete(en.Key)
	}
}

func (e *Engine) srandmemberWithCount(args [][]byte) Reply {
	l, r, ok := parseRandCount(args[2])
	if !ok {
		return r
	}
	count, uniq := randCount(l)
	o, werr := e.lookupTyped(args[1], TypeSet)
	if o == nil || count == 0 {
		return orMissing(werr, EmptyArr)
	}
	v := sv(o)
	size := uint64(setSize(o))
	// CASE 1: negative count (or 1): independent picks.
	if !uniq || count == 1 {
		if count > maxRandomReply {
			return errTooManyPicks
		}
		out := make([]Reply, 0, count)
		if o.Enc == EncListpack && count > 1 {
			for count > 0 {
				n := min(count, 1000)
				count -= n
				out = e.lpRandomEntries(v, int(n), out)
			}
			return Reply{Kind: KindArray, Array: out}
		}
		for ; count > 0; count-- {
			s, iv, isInt := e.setRandom(o, "srandmember")
			out = append(out, memberReply(s, iv, isInt))
		}
		return Reply{Kind: KindArray, Array: out}
	}
	// CASE 2: the whole set, in its order.
	if count >= size {
		return setReply(o)
	}
	out := make([]Reply, 0, count)
	// CASE 2.5 (7.2+): listpack, one pass of lpNextRandom, listpack order.
	if o.Enc == EncListpack {
		e.lpEachRandom(v.lp, int(count), func(i, _ int, s []byte, iv int64, isInt bool) {
			if e.tracing {
				var buf [24]byte
				e.emitPick(v.tkey, "srandmember", "lp-next-random", i, memberBytes(s, iv, isInt, buf[:]))
			}
			out = append(out, memberReply(s, iv, isInt))
		})
		return Reply{Kind: KindArray, Array: out}
	}
	tmp := dict.New[string, struct{}](e.valueDictEnv())
	var buf [24]byte
	if count*3 > size {
		// CASE 3: copy everything, then remove fair-random members until count remain.
		tmp.Expand(size)
		setEach(o, func(s []byte, iv int64, isInt bool) bool {
			tmp.Add(string(memberBytes(s, iv, isInt, buf[:])), struct{}{})
			return true
		})
		dropFairRandom(e, tmp, count, v.tkey, "srandmember")
	} else {
		// CASE 4: random picks until count distinct ones.
		tmp.Expand(count)
		for added := uint64(0); added < count; {
			s, iv, isInt := e.setRandom(o, "srandmember")
			if tmp.Add(string(memberBytes(s, iv, isInt, buf[:])), struct{}{}) {
				added++
			}
		}
	}
	tmp.Range(func(en *dict.Entry[string, struct{}]) bool {
		out = append(out, BulkStr(en.Key))
		return true
	})
	return Reply{Kind: KindArray, Array: out}
}

// lpRandomEntries is lpRandomEntries: n independent rand()%len picks, fetched in one ordered
// pass and replied in pick order.
func (e *Engine) lpRandomEntries(v *setValue, n int, out []Reply) []Reply {
	lp := v.lp
	total := lp.Len()
	type pick struct{ index, order int }
	picks := make([]pick, n)
	for i := range picks {
		picks[i] = pick{int(e.rand31() % uint64(total)), i}
	}
	sort.Slice(picks, func(a, b int) bool { return picks[a].index < picks[b].index })
	res := make([]Reply, n)
	p := lp.First()
	j := 0
	var buf [24]byte
	for _, pk := range picks {
		for j < pk.index {
			p = lp.Next(p)
			j++
		}
		s, iv, isInt, _ := lp.Get(p)
		res[pk.order] = memberReply(s, iv, isInt)
		if e.tracing {
			e.emitPick(v.tkey, "srandmember", "rand-index", pk.index, memberBytes(s, iv, isInt, buf[:]))
		}
	}
	return append(out, res...)
}

func cmdSPop(e *Engine, args [][]byte) Reply {
	dirty := e.cfg.stats.dirty
	o, r := e.setOneRandom(args, e.spopWithCount)
	if o == nil {
		return r
	}
	rep := e.setPopRandom(o)
	if setSize(o) == 0 {
		e.Delete(args[1])
	}
	e.changed(args[1], dirty, 1) // spopCommand's one server.dirty++
	return rep
}

// setPopRandom is setTypePopRandom: remove one random member and return it.
func (e *Engine) setPopRandom(o *Object) Reply {
	v := sv(o)
	if o.Enc == EncListpack {
		i := 0
		p := e.lpNextRandom(v.lp, v.lp.First(), &i, 1, 1)
		s, iv, isInt, _ := v.lp.Get(p)
		rep := memberReply(s, iv, isInt)
		if e.tracing {
			e.emitPick(v.tkey, "spop", "lp-next-random", i, []byte(rep.Str))
		}
		_, ch := v.lp.Delete(p)
		e.emitLP(v.tkey, ch, nil)
		return rep
	}
	s, iv, isInt := e.setRandom(o, "spop")
	rep := memberReply(s, iv, isInt)
	if isInt {
		_, ch := v.is.Remove(iv)
		e.emitIS(v.tkey, iv, ch)
	} else {
		e.setRemove(o, []byte(rep.Str))
	}
	return rep
}

func (e *Engine) spopWithCount(args [][]byte) Reply {
	l, ok := string2ll(args[2])
	if !ok || l < 0 {
		return errNotPositive
	}
	count := uint64(l)
	dirty := e.cfg.stats.dirty
	o, werr := e.lookupTyped(args[1], TypeSet)
	if o == nil || count == 0 {
		return orMissing(werr, EmptySet)
	}
	v := sv(o)
	size := uint64(setSize(o))
	if count >= size {
		rep := e.sunionDiffGeneric(args[1:2], nil, opUnion)
		e.Delete(args[1])
		e.cfg.stats.dirty = dirty + int64(size) // spopWithCountCommand's server.dirty += size
		return rep
	}
	out := make([]Reply, 0, count)
	remaining := size - count
	var buf [24]byte
	switch {
	case remaining*5 > count && o.Enc == EncListpack:
		lp := v.lp
		ps := make([]int, 0, count)
		e.lpEachRandom(lp, int(count), func(i, p int, s []byte, iv int64, isInt bool) {
			out = append(out, memberReply(s, iv, isInt))
			if e.tracing {
				e.emitPick(v.tkey, "spop", "lp-next-random", i, memberBytes(s, iv, isInt, buf[:]))
			}
			ps = append(ps, p)
		})
		// lpBatchDelete: remove the picked entries, last first so offsets stay valid.
		for k := len(ps) - 1; k >= 0; k-- {
			_, ch := lp.Delete(ps[k])
			e.emitLP(v.tkey, ch, nil)
		}
	case remaining*5 > count:
		for c := count; c > 0; c-- {
			out = append(out, e.setPopRandom(o))
		}
	default:
		// Rebuild from the members that stay (spopWithCountCommand; docs/internals.md §Encodings).
		var nset *Object
		if o.Enc == EncListpack {
			nset = e.newListpackSet(0)
			sv(nset).tkey = v.tkey
			lp := v.lp
			ps := make([]int, 0, remaining)
			e.lpEachRandom(lp, int(remaining), func(_, p int, s []byte, iv int64, isInt bool) {
				e.setAdd(nset, memberBytes(s, iv, isInt, buf[:]))
				ps = append(ps, p)
			})
			for k := len(ps) - 1; k >= 0; k-- {
				lp.Delete(ps[k])
			}
		} else {
			for c := remaining; c > 0; c-- {
				s, iv, isInt := e.setRandom(o, "spop")
				m := append([]byte(nil), memberBytes(s, iv, isInt, buf[:])...)
				if nset == nil {
					switch {
					case !e.ver.Has(V72):
						nset = e.setTypeCreate(m, 1)
					case isInt:
						nset = e.newIntsetSet()
					default:
						nset = e.newListpackSet(0)
					}
					sv(nset).tkey = v.tkey
				}
				e.setAdd(nset, m)
				e.setRemove(o, m)
			}
		}
		setEach(o, func(s []byte, iv int64, isInt bool) bool {
			out = append(out, memberReply(s, iv, isInt))
			return true
		})
		if e.tracing {
			e.emit(EncodingEvent{Key: v.tkey, From: o.Enc.String(), To: nset.Enc.String(),
				Why: Why{Code: WhySpopRebuild, N: int64(count), Extra: int64(remaining)}})
		}
		o.Enc, o.Val = nset.Enc, nset.Val
	}
	e.changed(args[1], dirty, int64(count)) // spopWithCountCommand's server.dirty += count
	return Reply{Kind: KindArray, Array: out}.AsSet()
}

// ---------------------------------------------------------------- SINTER family

func cmdSInter(e *Engine, args [][]byte) Reply { return e.sinterGeneric(args[1:], nil, false, 0) }

func cmdSInterStore(e *Engine, args [][]byte) Reply {
	return e.sinterGeneric(args[2:], args[1], false, 0)
}

func cmdSInterCard(e *Engine, args [][]byte) Reply {
	numkeys, ok := string2ll(args[1])
	if !ok || numkeys < 1 {
		return errNumkeysZero
	}
	if numkeys > int64(len(args)-2) {
		return errNumkeysTooMany
	}
	limit := int64(0)
	for j := 2 + int(numkeys); j < len(args); j++ {
		more := len(args) - 1 - j
		if eqFold(args[j], "limit") && more > 0 {
			j++
			n, ok := string2ll(args[j])
			if !ok || n < 0 {
				return errLimitNegative
			}
			limit = n
			continue
		}
		return ErrSyntax
	}
	return e.sinterGeneric(args[2:2+numkeys], nil, true, limit)
}

// lookupSets reads each key (missing = nil); a wrong type anywhere is an error.
func (e *Engine) lookupSets(keys [][]byte) ([]*Object, int, bool) {
	sets := make([]*Object, len(keys))
	empty := 0
	for j, k := range keys {
		o := e.Lookup(k)
		if o == nil {
			empty++
			continue
		}
		if o.Type != TypeSet {
			return nil, 0, false
		}
		e.traceSet(k, o)
		sets[j] = o
	}
	return sets, empty, true
}

func (e *Engine) sinterGeneric(keys [][]byte, dstkey []byte, cardOnly bool, limit int64) Reply {
	sets, empty, ok := e.lookupSets(keys)
	if !ok {
		return ErrWrongType
	}
	if empty > 0 {
		switch {
		case dstkey != nil:
			e.Delete(dstkey)
			return Int(0)
		case cardOnly:
			return Int(0)
		}
		return EmptySet
	}
	sort.SliceStable(sets, func(a, b int) bool { return setSize(sets[a]) < setSize(sets[b]) })
	var dst *Object
	if dstkey != nil {
		switch {
		case !e.ver.Has(V72) || sets[0].Enc == EncIntset:
			dst = e.newIntsetSet()
		case sets[0].Enc == EncListpack:
			dst = e.newListpackSet(sv(sets[0]).lp.TotalBytes())
		default:
			dst = e.newListpackSet(0)
		}
		e.traceSet(dstkey, dst)
	}
	var out []Reply
	card := int64(0)
	onlyInts := true
	var buf [24]byte
	setEach(sets[0], func(s []byte, iv int64, isInt bool) bool {
		m := memberBytes(s, iv, isInt, buf[:])
		for j := 1; j < len(sets); j++ {
			if sets[j] == sets[0] {
				continue
			}
			if !e.setIsMember(sets[j], m) {
				return true
			}
		}
		switch {
		case cardOnly:
			card++
			if limit > 0 && card >= limit {
				return false
			}
		case dstkey == nil:
			out = append(out, memberReply(s, iv, isInt))
		default:
			if !isInt && onlyInts && !(sets[0].Enc == EncHashtable && isStrictInt(s)) {
				onlyInts = false
			}
			e.setAdd(dst, append([]byte(nil), m...))
		}
		return true
	})
	switch {
	case cardOnly:
		return Int(card)
	case dstkey == nil:
		if out == nil {
			out = []Reply{}
		}
		return Reply{Kind: KindArray, Array: out}.AsSet()
	}
	if setSize(dst) > 0 {
		if e.ver.Has(V72) {
			if onlyInts {
				e.maybeConvertToIntset(dst)
			}
			if dst.Enc == EncListpack {
				sv(dst).lp.ShrinkToFit()
			}
		}
		e.setKey(dstkey, dst, false)
		return Int(int64(setSize(dst)))
	}
	e.Delete(dstkey)
	return Int(0)
}

func isStrictInt(s []byte) bool { _, ok := string2ll(s); return ok }

const (
	opUnion = iota
	opDiff
)

func cmdSUnion(e *Engine, args [][]byte) Reply { return e.sunionDiffGeneric(args[1:], nil, opUnion) }
func cmdSUnionStore(e *Engine, args [][]byte) Reply {
	return e.sunionDiffGeneric(args[2:], args[1], opUnion)
}
func cmdSDiff(e *Engine, args [][]byte) Reply { return e.sunionDiffGeneric(args[1:], nil, opDiff) }
func cmdSDiffStore(e *Engine, args [][]byte) Reply {
	return e.sunionDiffGeneric(args[2:], args[1], opDiff)
}

func (e *Engine) sunionDiffGeneric(keys [][]byte, dstkey []byte, op int) Reply {
	sets, _, ok := e.lookupSets(keys)
	if !ok {
		return ErrWrongType
	}
	sameset := false
	for j := 1; j < len(sets); j++ {
		if sets[0] != nil && sets[j] == sets[0] {
			sameset = true
		}
	}
	algo := 1
	if op == opDiff && sets[0] != nil && !sameset {
		var one, two int64
		for _, s := range sets {
			if s == nil {
				continue
			}
			one += int64(setSize(sets[0]))
			two += int64(setSize(s))
		}
		one /= 2
		if one > two {
			algo = 2
		}
		if algo == 1 && len(sets) > 1 {
			rest := sets[1:]
			sort.SliceStable(rest, func(a, b int) bool {
				sa, sb := 0, 0
				if rest[a] != nil {
					sa = setSize(rest[a])
				}
				if rest[b] != nil {
					sb = setSize(rest[b])
				}
				return sa > sb
			})
		}
	}
	dst := e.newIntsetSet()
	if dstkey != nil {
		e.traceSet(dstkey, dst)
	}
	card := 0
	var buf [24]byte
	switch {
	case op == opUnion:
		for _, s := range sets {
			if s == nil {
				continue
			}
			setEach(s, func(m []byte, iv int64, isInt bool) bool {
				if e.setAdd(dst, append([]byte(nil), memberBytes(m, iv, isInt, buf[:])...)) {
					card++
				}
				return true
			})
		}
	case sameset || sets[0] == nil:
	case algo == 1:
		setEach(sets[0], func(m []byte, iv int64, isInt bool) bool {
			mb := memberBytes(m, iv, isInt, buf[:])
			for j := 1; j < len(sets); j++ {
				if sets[j] == nil {
					continue
				}
				if sets[j] == sets[0] || e.setIsMember(sets[j], mb) {
					return true
				}
			}
			if e.setAdd(dst, append([]byte(nil), mb...)) {
				card++
			}
			return true
		})
	default:
		for j, s := range sets {
			if s == nil {
				continue
			}
			setEach(s, func(m []byte, iv int64, isInt bool) bool {
				mb := append([]byte(nil), memberBytes(m, iv, isInt, buf[:])...)
				if j == 0 {
					if e.setAdd(dst, mb) {
						card++
					}
				} else if e.setRemove(dst, mb) {
					card--
				}
				return true
			})
			if card == 0 {
				break
			}
		}
	}
	if dstkey == nil {
		return setReply(dst).AsSet()
	}
	if setSize(dst) > 0 {
		e.setKey(dstkey, dst, false)
		return Int(int64(setSize(dst)))
	}
	e.Delete(dstkey)
	return Int(0)
}
