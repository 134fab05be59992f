package engine

import (
	"math"
	"sort"
	"unsafe"

	"redscope/engine/dict"
	"redscope/engine/listpack"
	"redscope/engine/skiplist"
)

// Sorted-set commands over ranges and several keys: ZREMRANGEBYSCORE ZREMRANGEBYRANK
// ZREMRANGEBYLEX ZUNION ZINTER ZDIFF ZUNIONSTORE ZINTERSTORE ZDIFFSTORE ZINTERCARD ZRANGESTORE
// ZMPOP BZMPOP BZPOPMIN BZPOPMAX, answering as Redis 7.0.15 does (t_zset.c), with the later
// profiles' differences:
//   - the store commands build the result as a skiplist and convert it to a listpack when it fits
//     zset-max-listpack-entries/-value (zsetConvertToListpackIfNeeded); the union's dict is
//     pre-sized to the result (7.x: a separate accumulator dict) or, from 8.0, to the largest
//     input and grown while adding;
//   - ZRANGESTORE starts a listpack unless the rank range is longer than
//     zset-max-listpack-entries (7.0: a skiplist as it is; 7.2+: zsetTypeCreate pre-sizes its dict);
//   - 8.8 adds AGGREGATE COUNT (redis/redis#14892): the input scores are ignored, every input
//     holding a member adds its weight (default 1), summed as SUM does;
//   - 7.4+ pauses the dict's auto-resize while ZREMRANGEBY* and ZDIFF delete many members and
//     shrinks once afterwards (7.0/7.2: htNeedsResize + dictResize).
//
// The blocking commands never block: when nothing can be served they answer as a timeout does
// (a nil array).

func init() {
	w := FlagWrite | FlagDenyOOM
	register(
		&Command{Name: "zremrangebyscore", Arity: 4, Flags: FlagWrite, Cats: "sortedset", KeyFlags: []string{"RW delete"}, Fn: cmdZremrange},
		&Command{Name: "zremrangebyrank", Arity: 4, Flags: FlagWrite, Cats: "sortedset", KeyFlags: []string{"RW delete"}, Fn: cmdZremrange},
		&Command{Name: "zremrangebylex", Arity: 4, Flags: FlagWrite, Cats: "sortedset", KeyFlags: []string{"RW delete"}, Fn: cmdZremrange},
		&Command{Name: "zunionstore", Arity: -4, Flags: w, Cats: "sortedset", FirstKey: 1, LastKey: 1, Step: 1, KeyNum: KeyNum{2, 1, 1}, KeyFlags: []string{"OW update", "RO access"}, Fn: cmdZsetopStore},
		&Command{Name: "zinterstore", Arity: -4, Flags: w, Cats: "sortedset", FirstKey: 1, LastKey: 1, Step: 1, KeyNum: KeyNum{2, 1, 1}, KeyFlags: []string{"OW update", "RO access"}, Fn: cmdZsetopStore},
		&Command{Name: "zdiffstore", Arity: -4, Flags: w, Cats: "sortedset", FirstKey: 1, LastKey: 1, Step: 1, KeyNum: KeyNum{2, 1, 1}, KeyFlags: []string{"OW update", "RO access"}, Fn: cmdZsetopStore},
		&Command{Name: "zunion", Arity: -3, Flags: FlagReadonly, Cats: "sortedset", KeyNum: KeyNum{1, 1, 1}, Fn: cmdZsetop},
		&Command{Name: "zinter", Arity: -3, Flags: FlagReadonly, Cats: "sortedset", KeyNum: KeyNum{1, 1, 1}, Fn: cmdZsetop},
		&Command{Name: "zdiff", Arity: -3, Flags: FlagReadonly, Cats: "sortedset", KeyNum: KeyNum{1, 1, 1}, Fn: cmdZsetop},
		&Command{Name: "zintercard", Arity: -3, Flags: FlagReadonly, Cats: "sortedset", KeyNum: KeyNum{1, 1, 1}, Fn: cmdZsetop},
		&Command{Name: "zrangestore", Arity: -5, Flags: w, FirstKey: 1, LastKey: 2, Step: 1, Cats: "sortedset", KeyFlags: []string{"OW update", "RO access"}, Fn: cmdZrangestore},
		&Command{Name: "zmpop", Arity: -4, Flags: FlagWrite, Cats: "sortedset", KeyNum: KeyNum{1, 1, 1}, KeyFlags: []string{"RW access delete"}, Fn: cmdZmpop},
		&Command{Name: "bzmpop", Arity: -5, Flags: FlagWrite | FlagBlocking, Cats: "sortedset", KeyNum: KeyNum{2, 1, 1}, KeyFlags: []string{"RW access delete"}, Fn: cmdZmpop},
		&Command{Name: "bzpopmin", Arity: -3, Flags: FlagWrite | FlagNoScript | FlagFast | FlagBlocking, FirstKey: 1, LastKey: -2, Step: 1, Cats: "sortedset", KeyFlags: []string{"RW access delete"}, Fn: cmdBzpop},
		&Command{Name: "bzpopmax", Arity: -3, Flags: FlagWrite | FlagNoScript | FlagFast | FlagBlocking, FirstKey: 1, LastKey: -2, Step: 1, Cats: "sortedset", KeyFlags: []string{"RW access delete"}, Fn: cmdBzpop},
	)
}

// ---------------------------------------------------------------- ZREMRANGEBY*

// cmdZremrange is zremrangeGenericCommand.
func cmdZremrange(e *Engine, args [][]byte) Reply {
	var rt zrangeType
	switch {
	case eqFold(args[0], "zremrangebyrank"):
		rt = zrangeRank
	case eqFold(args[0], "zremrangebyscore"):
		rt = zrangeScore
	default:
		rt = zrangeLex
	}
	b, bad := e.parseZRangeBounds(rt, false, args[2], args[3])
	if bad != nil {
		return *bad
	}
	start, end := b.start, b.end
	key := args[1]
	dirty := e.cfg.stats.dirty
	o, werr := e.lookupTyped(key, TypeZSet)
	if o == nil {
		return orMissing(werr, Int(0))
	}
	z := e.zsetOf(o, key)
	if rt == zrangeRank {
		var ok bool
		if start, end, ok = rankRange(start, end, int64(z.card())); !ok {
			return Int(0)
		}
	}
	var deleted int64
	if z.lp != nil {
		switch rt {
		case zrangeRank:
			// zzlDeleteRangeByRank: one lpDeleteRange of the pairs.
			deleted = end - start + 1
			ch := z.lp.DeleteRange(int(2*start), int(2*deleted))
			z.lpEvent("delete", "", ch)
		default:
			// zzlDeleteRangeByScore / zzlDeleteRangeByLex: from the first pair in range while
			// the pairs stay within it.
			c := z.seek(b)
			for el, ok := c.at(); ok && !z.beyond(b, el); el, ok = c.at() {
				var ch listpack.Change
				c.eptr, ch = z.lp.DeleteRangeAt(c.eptr, 2)
				z.lpEvent("delete", "", ch)
				deleted++
			}
		}
		if z.card() == 0 {
			e.Delete(key)
		}
		e.changed(key, dirty, deleted) // zremrangeGenericCommand's server.dirty += deleted
		return Int(deleted)
	}
	removed := func(n *skiplist.Node) { z.dict.Delete(n.Member) }
	v74 := e.ver.Has(V74)
	if v74 {
		z.dict.PauseAutoResize()
	}
	var n uint64
	switch rt {
	case zrangeRank:
		n = z.zsl.DeleteRangeByRank(uint64(start+1), uint64(end+1), removed)
	case zrangeScore:
		n = z.zsl.DeleteRangeByScore(b.sr, removed)
	default:
		n = z.zsl.DeleteRangeByLex(b.lr, removed)
	}
	if v74 {
		z.dict.ResumeAutoResize()
	} else {
		z.dict.ResizeIfNeeded()
	}
	if z.dict.Len() == 0 {
		e.Delete(key)
	} else if v74 {
		z.dict.ShrinkIfNeeded()
	}
	e.changed(key, dirty, int64(n)) // zremrangeGenericCommand's server.dirty += deleted
	return Int(int64(n))
}

// ---------------------------------------------------------------- ZUNION / ZINTER / ZDIFF

const (
	zopUnion = iota
	zopInter
	zopDiff
)

// AGGREGATE's functions (from 1: keywordFlag's 0 is no keyword).
const (
	zaggrSum = 1 + iota
	zaggrMin
	zaggrMax
	zaggrCount // 8.8
)

var zaggrKeywords = []strKeyword{{"sum", zaggrSum}, {"min", zaggrMin}, {"max", zaggrMax}, {"count", zaggrCount}}

// zsetopSrc is one input (zsetopsrc): a sorted set, a set (every member scores 1) or a missing
// key (o == nil).
type zsetopSrc struct {
	o      *Object
	z      *zsetValue
	weight float64
}

func (s *zsetopSrc) length() int {
	switch {
	case s.o == nil:
		return 0
	case s.z != nil:
		return s.z.card()
	}
	return setSize(s.o)
}

// each walks the input in zuiNext's order: a sorted set from the highest (score, member) down,
// a set in its encoding's order. m is valid only during the call.
func (s *zsetopSrc) each(fn func(m []byte, score float64) bool) {
	if s.o == nil {
		return
	}
	if z := s.z; z != nil {
		if z.lp != nil {
			var buf [24]byte
			for sptr := z.lp.Last(); sptr >= 0; {
				eptr := z.lp.Prev(sptr)
				m := lpEntryString(z.lp, eptr, buf[:0])
				if !fn(m, z.zzlScore(sptr)) {
					return
				}
				sptr = z.lp.Prev(eptr)
			}
			return
		}
		for x := z.zsl.Last(); x != nil; x = x.Prev() {
			if !fn(bstrOf(x.Member), x.Score) {
				return
			}
		}
		return
	}
	var buf [24]byte
	setEach(s.o, func(m []byte, iv int64, isInt bool) bool {
		return fn(memberBytes(m, iv, isInt, buf[:]), 1)
	})
}

// find is zuiFind.
func (s *zsetopSrc) find(e *Engine, m []byte) (float64, bool) {
	if s.o == nil {
		return 0, false
	}
	if s.z != nil {
		return s.z.score(m)
	}
	if e.setIsMember(s.o, m) {
		return 1, true
	}
	return 0, false
}

func zunionInterAggregate(target *float64, val float64, aggregate int) {
	switch aggregate {
	case zaggrSum, zaggrCount:
		*target += val
		// +inf + -inf: Redis keeps the convention that the result is 0.
		if math.IsNaN(*target) {
			*target = 0
		}
	case zaggrMin:
		if val < *target {
			*target = val
		}
	case zaggrMax:
		if val > *target {
			*target = val
		}
	}
}

func cmdZsetop(e *Engine, args [][]byte) Reply {
	switch {
	case eqFold(args[0], "zunion"):
		return e.zsetopGeneric(args, nil, 1, zopUnion, false)
	case eqFold(args[0], "zinter"):
		return e.zsetopGeneric(args, nil, 1, zopInter, false)
	case eqFold(args[0], "zdiff"):
		return e.zsetopGeneric(args, nil, 1, zopDiff, false)
	}
	return e.zsetopGeneric(args, nil, 1, zopInter, true)
}

func cmdZsetopStore(e *Engine, args [][]byte) Reply {
	switch {
	case eqFold(args[0], "zunionstore"):
		return e.zsetopGeneric(args, args[1], 2, zopUnion, false)
	case eqFold(args[0], "zinterstore"):
		return e.zsetopGeneric(args, args[1], 2, zopInter, false)
	}
	return e.zsetopGeneric(args, args[1], 2, zopDiff, false)
}

// zsetopGeneric is zunionInterDiffGenericCommand.
func (e *Engine) zsetopGeneric(args [][]byte, dstkey []byte, numkeysIdx int, op int, cardOnly bool) Reply {
	setnum, ok := string2ll(args[numkeysIdx])
	if !ok {
		return ErrNotInt
	}
	if setnum < 1 {
		return Err("ERR at least 1 input key is needed for '" + lowerASCII(args[0]) + "' command")
	}
	if setnum > int64(len(args)-(numkeysIdx+1)) {
		return ErrSyntax
	}
	n := int(setnum)
	src := make([]zsetopSrc, n)
	j := numkeysIdx + 1
	for i := 0; i < n; i, j = i+1, j+1 {
		src[i].weight = 1
		o := e.Lookup(args[j])
		if o == nil {
			continue
		}
		switch o.Type {
		case TypeZSet:
			src[i].z = e.zsetOf(o, args[j])
		case TypeSet:
			e.traceSet(args[j], o)
		default:
			return ErrWrongType
		}
		src[i].o = o
	}
	aggregate := zaggrSum
	withscores := false
	limit := int64(0)
	for remaining := len(args) - j; remaining > 0; remaining = len(args) - j {
		a := args[j]
		switch {
		case op != zopDiff && !cardOnly && remaining >= n+1 && eqFold(a, "weights"):
			j++
			for i := 0; i < n; i, j = i+1, j+1 {
				wv, ok := e.string2d(args[j])
				if !ok {
					return Err("ERR weight value is not a float")
				}
				src[i].weight = wv
			}
		case op != zopDiff && !cardOnly && remaining >= 2 && eqFold(a, "aggregate"):
			aggregate = keywordFlag(args[j+1], zaggrKeywords)
			if aggregate == 0 || aggregate == zaggrCount && !e.ver.Has(V88) {
				return ErrSyntax
			}
			j += 2
		case dstkey == nil && !cardOnly && eqFold(a, "withscores"):
			withscores = true
			j++
		case cardOnly && remaining >= 2 && eqFold(a, "limit"):
			l, ok := string2ll(args[j+1])
			if !ok || l < 0 {
				return errLimitNegative
			}
			limit = l
			j += 2
		default:
			return ErrSyntax
		}
	}
	if op != zopDiff {
		// glibc's qsort of a small array is a merge sort: stable.
		sort.SliceStable(src, func(a, b int) bool { return src[a].length() < src[b].length() })
	}
	if cardOnly {
		return Int(e.zinterCard(src, limit))
	}
	dst := e.newZsetSkiplist(0)
	z := dst.Val.(*zsetValue)
	if dstkey != nil && e.tracing {
		z.bind(e, dstkey)
	} else {
		z.zsl.Observer = nil
	}
	maxelelen, totelelen := 0, 0
	note := func(m string) {
		totelelen += len(m)
		maxelelen = max(maxelelen, len(m))
	}
	switch op {
	case zopInter:
		if src[0].length() > 0 {
			src[0].each(func(m []byte, sc float64) bool {
				score := weightedScore(src[0].weight, sc, aggregate)
				if aggregate == zaggrCount {
					sc = 1 // also for a repeated key below
				}
				for k := 1; k < n; k++ {
					var v float64
					if src[k].o == src[0].o {
						v = sc * src[k].weight
					} else if f, ok := src[k].find(e, m); ok {
						if aggregate == zaggrCount {
							f = 1
						}
						v = f * src[k].weight
					} else {
						return true
					}
					zunionInterAggregate(&score, v, aggregate)
				}
				ms := string(m)
				z.zsl.Insert(score, ms)
				z.dict.Add(ms, score)
				note(ms)
				return true
			})
		}
	case zopUnion:
		e.zunionInto(z, src, aggregate)
		z.dict.Range(func(en *dictEntryF) bool { note(en.Key); return true })
	default:
		e.zdiffInto(z, src)
		z.dict.Range(func(en *dictEntryF) bool { note(en.Key); return true })
	}
	if dstkey == nil {
		per := 1
		if withscores {
			per = 2
		}
		out := make([]Reply, 0, per*int(z.zsl.Len()))
		for x := z.zsl.First(); x != nil; x = x.Next() {
			out = append(out, BulkStr(x.Member))
			if withscores {
				out = append(out, e.doubleReply(x.Score))
			}
		}
		return Reply{Kind: KindArray, Array: out}.AsPairsIf(withscores)
	}
	if z.zsl.Len() == 0 {
		e.Delete(dstkey)
		return Int(0)
	}
	e.zsetConvertToListpackIfNeeded(dst, maxelelen, totelelen)
	e.setKey(dstkey, dst, false)
	return Int(int64(z.card()))
}

// dictEntryF is a zset dict entry.
type dictEntryF = dict.Entry[string, float64]

// bstrOf views s as bytes without copying; the callee must not modify or keep them.
func bstrOf(s string) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// zinterCard is ZINTERCARD: the intersection's size, stopping at limit (0 = no limit).
func (e *Engine) zinterCard(src []zsetopSrc, limit int64) int64 {
	var card int64
	if src[0].length() == 0 {
		return 0
	}
	src[0].each(func(m []byte, _ float64) bool {
		for k := 1; k < len(src); k++ {
			if src[k].o == src[0].o {
				continue
			}
			if _, ok := src[k].find(e, m); !ok {
				return true
			}
		}
		card++
		return limit == 0 || card < limit
	})
	return card
}

// eachWeighted calls fn for every member of every non-empty input, in input order, with its
// score times the input's weight (the union's walk in zunionInterDiffGenericCommand).
func eachWeighted(src []zsetopSrc, aggregate int, fn func(m []byte, score float64)) {
	for i := range src {
		if src[i].length() == 0 {
			continue
		}
		w := src[i].weight
		src[i].each(func(m []byte, sc float64) bool {
			fn(m, weightedScore(w, sc, aggregate))
			return true
		})
	}
}

// zunionInto fills z with the union. 7.x aggregates in a separate dict and then inserts every
// member into a dict pre-sized for the result; 8.x aggregates in the result's own dict,
// pre-sized for the largest input.
func (e *Engine) zunionInto(z *zsetValue, src []zsetopSrc, aggregate int) {
	n := len(src)
	if e.ver.Has(V80) {
		z.dict.Expand(uint64(src[n-1].length()))
		eachWeighted(src, aggregate, func(m []byte, score float64) {
			if en := z.dict.FindEntry(bstr(m)); en != nil {
				zunionInterAggregate(&en.Val, score, aggregate)
			} else {
				z.dict.Add(string(m), score)
			}
		})
		z.dict.Range(func(en *dictEntryF) bool {
			z.zsl.Insert(en.Val, en.Key)
			return true
		})
		return
	}
	type acc struct {
		m string
		s float64
	}
	idx := make(map[string]int, src[n-1].length())
	var list []acc
	eachWeighted(src, aggregate, func(m []byte, score float64) {
		if k, ok := idx[bstr(m)]; ok {
			zunionInterAggregate(&list[k].s, score, aggregate)
		} else {
			ms := string(m)
			idx[ms] = len(list)
			list = append(list, acc{ms, score})
		}
	})
	z.dict.Expand(uint64(len(list)))
	for _, a := range list {
		z.zsl.Insert(a.s, a.m)
		z.dict.Add(a.m, a.s)
	}
}

// zdiffInto fills z with the members of src[0] that no other input has (zdiff with its two
// algorithms, which differ only in the dict's history).
func (e *Engine) zdiffInto(z *zsetValue, src []zsetopSrc) {
	n := len(src)
	if src[0].length() == 0 {
		return
	}
	// zsetChooseDiffAlgorithm
	var one, two int64
	algo := 0
	for j := 0; j < n; j++ {
		if j > 0 && src[0].o == src[j].o {
			return
		}
		one += int64(src[0].length())
		two += int64(src[j].length())
	}
	one /= 2
	if one <= two {
		algo = 1
	} else {
		algo = 2
	}
	if algo == 1 {
		rest := src[1:]
		sort.SliceStable(rest, func(a, b int) bool { return rest[a].length() > rest[b].length() })
		src[0].each(func(m []byte, sc float64) bool {
			for j := 1; j < n; j++ {
				if src[j].o == src[0].o {
					return true
				}
				if _, ok := src[j].find(e, m); ok {
					return true
				}
			}
			ms := string(m)
			z.zsl.Insert(sc, ms)
			z.dict.Add(ms, sc)
			return true
		})
		return
	}
	card := 0
	v74 := e.ver.Has(V74)
	for j := 0; j < n && (j == 0 || card > 0); j++ {
		if src[j].length() == 0 {
			continue
		}
		src[j].each(func(m []byte, sc float64) bool {
			if j == 0 {
				ms := string(m)
				z.zsl.Insert(sc, ms)
				z.dict.Add(ms, sc)
				card++
			} else {
				if v74 {
					z.dict.PauseAutoResize()
				}
				if en := z.dict.Unlink(bstr(m)); en != nil {
					z.zsl.Delete(en.Val, en.Key)
					card--
				}
				if v74 {
					z.dict.ResumeAutoResize()
				}
			}
			return card != 0
		})
	}
	if v74 {
		z.dict.ShrinkIfNeeded()
	} else {
		z.dict.ResizeIfNeeded()
	}
}

// zsetConvertToListpackIfNeeded converts a skiplist result that fits the listpack limits.
func (e *Engine) zsetConvertToListpackIfNeeded(o *Object, maxelelen, totelelen int) {
	z := o.Val.(*zsetValue)
	if z.lp != nil {
		return
	}
	entries := e.cfg.Int("zset-max-listpack-entries")
	value := e.cfg.Int("zset-max-listpack-value")
	if int64(z.zsl.Len()) <= entries && int64(maxelelen) <= value && totelelen <= listpackSafetySize {
		z.convertToListpack(Why{Code: WhyFitsLP, N: int64(z.zsl.Len()), Limit: entries, Extra: value})
		o.Enc = EncListpack
	}
}

// listpackSafetySize is LISTPACK_MAX_SAFETY_SIZE (lpSafeToAdd with no listpack).
const listpackSafetySize = 1 << 30

// convertToListpack is zsetConvert(skiplist → listpack): a new listpack to which every member
// is appended in order.
func (z *zsetValue) convertToListpack(why Why) {
	zsl := z.zsl
	lp := listpack.New()
	lp.Alloc = z.al
	z.lp = lp
	z.zsl, z.dict = nil, nil
	for x := zsl.First(); x != nil; x = x.Next() {
		z.zzlInsertAt(-1, bstrOf(x.Member), x.Score)
	}
	if z.e != nil && z.e.tracing {
		z.e.emit(EncodingEvent{Key: z.key, From: "skiplist", To: "listpack", Why: why})
	}
}

// ---------------------------------------------------------------- ZRANGESTORE

type zpair struct {
	m string
	s float64
}

// ZRANGESTORE dst src min max [BYSCORE|BYLEX] [REV] [LIMIT offset count].
func cmdZrangestore(e *Engine, args [][]byte) Reply {
	zo, r := parseZrangeOptions(args, 5, zrangeAuto, 0, true)
	if r != nil {
		return *r
	}
	rt, rev, offset, limit := zo.rt, zo.dir == 2, zo.offset, zo.limit
	b, bad := e.parseZRangeBounds(rt, rev, args[3], args[4])
	if bad != nil {
		return *bad
	}
	dstkey, key := args[1], args[2]
	o, werr := e.lookupTyped(key, TypeZSet)
	if werr != nil {
		return *werr
	}
	if o == nil {
		return e.zrangeStoreResult(dstkey, -1, nil)
	}
	z := e.zsetOf(o, key)
	var res []zpair
	length := z.walkRange(b, offset, limit, func(el zsetElem) {
		res = append(res, zpair{z.memberString(el), el.score})
	})
	return e.zrangeStoreResult(dstkey, length, res)
}

// zrangeStoreResult is the store handler: a new zset sized by length (-1 = unknown) to which
// the pairs are added in order (zsetAdd, converting as ZADD does); an empty result deletes dst.
func (e *Engine) zrangeStoreResult(dstkey []byte, length int64, res []zpair) Reply {
	if len(res) == 0 {
		e.Delete(dstkey)
		return Int(0)
	}
	entries := e.cfg.Int("zset-max-listpack-entries")
	var o *Object
	switch {
	case e.ver.Has(V72):
		if max(length, 0) <= entries {
			o = e.newZsetListpack()
		} else {
			o = e.newZsetSkiplist(int(length))
		}
	case length > entries:
		o = e.newZsetSkiplist(0)
	default:
		o = e.newZsetListpack()
	}
	z := o.Val.(*zsetValue)
	z.bind(e, dstkey)
	if o.Enc == EncSkiplist && e.tracing {
		e.emit(EncodingEvent{Key: string(dstkey), From: "", To: "skiplist", Why: Why{Code: WhyBringsMore, N: length, Limit: entries, Name: "zset-max-listpack-entries"}})
	}
	for _, p := range res {
		z.add(e, p.s, bstrOf(p.m), 0)
	}
	if z.zsl != nil {
		o.Enc = EncSkiplist
	}
	e.setKey(dstkey, o, false)
	return Int(int64(len(res)))
}

// ---------------------------------------------------------------- ZMPOP / BZMPOP / BZPOP*

// zpopGeneric is genericZpopCommand for the multi-key forms: the first existing key is popped
// (a wrong type there is an error). nested: ZMPOP's [key, [[member, score] …]]; otherwise
// BZPOP*'s flat [key, member, score].
func (e *Engine) zpopGeneric(keys [][]byte, max bool, count int64, nested bool) Reply {
	dirty := e.cfg.stats.dirty
	var o *Object
	var key []byte
	for _, k := range keys {
		x, werr := e.lookupTyped(k, TypeZSet)
		if werr != nil {
			return *werr
		}
		if x != nil {
			o, key = x, k
			break
		}
	}
	if o == nil {
		return NilArray
	}
	z := e.zsetOf(o, key)
	n := min(count, int64(z.card()))
	var out []Reply
	if nested {
		out = make([]Reply, 0, n)
	} else {
		out = make([]Reply, 0, 2*n+1)
		out = append(out, Bulk(key))
	}
	for i := int64(0); i < n; i++ {
		c := z.seekRank(0, max)
		el, _ := c.at()
		m := z.memberString(el)
		if nested {
			out = append(out, Array(BulkStr(m), e.doubleReply(el.score)))
		} else {
			out = append(out, BulkStr(m), e.doubleReply(el.score))
		}
		z.del(bstrOf(m))
	}
	if z.card() == 0 {
		e.Delete(key)
	}
	e.changed(key, dirty, n) // genericZpopCommand: server.dirty++ per element popped
	if nested {
		return Array(Bulk(key), Reply{Kind: KindArray, Array: out})
	}
	return Reply{Kind: KindArray, Array: out}
}

// ZMPOP numkeys key [key ...] MIN|MAX [COUNT count]; BZMPOP timeout numkeys key [key ...] MIN|MAX [COUNT count].
func cmdZmpop(e *Engine, args [][]byte) Reply {
	block := eqFold(args[0], "bzmpop")
	keys, where, count, ms, r := e.parseMpop(args, block, "min", "max")
	if r != nil {
		return *r
	}
	if !block {
		return e.zpopGeneric(keys, where, count, true)
	}
	return e.zpopBlocking("bzmpop", keys, where, count, true, ms)
}

// zpopBlocking is blockingGenericZpopCommand: pop from the first key holding a sorted set, or
// block (blocking.go) and be served from the key that becomes ready.
func (e *Engine) zpopBlocking(name string, keys [][]byte, max bool, count int64, nested bool, ms int64) Reply {
	if r := e.zpopGeneric(keys, max, count, nested); r.Kind != KindNilArray {
		return r
	}
	return e.block(name, TypeZSet, keys, nil, e.blockingDeadline(ms), NilArray, func(key []byte) (Reply, bool) {
		return e.zpopGeneric([][]byte{key}, max, count, nested), true
	})
}

// parseMpop parses the arguments ZMPOP/BZMPOP/LMPOP/BLMPOP share (zmpopGenericCommand,
// lmpopGenericCommand): numkeys (after the timeout when block), the keys, the side (first:
// lowerA, second: lowerB) and COUNT, then the blocking forms' timeout (ms, parseTimeout). second
// reports the side lowerB.
func (e *Engine) parseMpop(args [][]byte, block bool, lowerA, lowerB string) (keys [][]byte, second bool, count, ms int64, r *Reply) {
	numkeysIdx := 1
	if block {
		numkeysIdx = 2
	}
	keys, second, count, r = parseMpopKeys(args, numkeysIdx, lowerA, lowerB)
	if r == nil && block {
		ms, r = e.parseTimeout(args[1])
	}
	return keys, second, count, ms, r
}

func parseMpopKeys(args [][]byte, numkeysIdx int, lowerA, lowerB string) (keys [][]byte, second bool, count int64, r *Reply) {
	errNumkeys := errNumkeysZero
	numkeys, ok := string2ll(args[numkeysIdx])
	if !ok || numkeys < 1 {
		return nil, false, 0, &errNumkeys
	}
	if numkeys >= int64(len(args)) { // where_idx would be past the arguments
		return nil, false, 0, &ErrSyntax
	}
	whereIdx := numkeysIdx + int(numkeys) + 1
	if whereIdx >= len(args) {
		return nil, false, 0, &ErrSyntax
	}
	if second, ok = eitherKeyword(args[whereIdx], lowerA, lowerB); !ok {
		return nil, false, 0, &ErrSyntax
	}
	count = -1
	for j := whereIdx + 1; j < len(args); j++ {
		more := len(args) - 1 - j
		if count == -1 && eqFold(args[j], "count") && more > 0 {
			j++
			n, ok := string2ll(args[j])
			if !ok || n < 1 {
				e := Err("ERR count should be greater than 0")
				return nil, false, 0, &e
			}
			count = n
			continue
		}
		return nil, false, 0, &ErrSyntax
	}
	if count == -1 {
		count = 1
	}
	return args[numkeysIdx+1 : whereIdx], second, count, nil
}

// BZPOPMIN / BZPOPMAX key [key ...] timeout.
func cmdBzpop(e *Engine, args [][]byte) Reply {
	ms, r := e.parseTimeout(args[len(args)-1])
	if r != nil {
		return *r
	}
	max := eqFold(args[0], "bzpopmax")
	name := "bzpopmin"
	if max {
		name = "bzpopmax"
	}
	return e.zpopBlocking(name, args[1:len(args)-1], max, 1, false, ms)
}

// weightedScore is an input element's contribution: its score (1 for AGGREGATE COUNT) times the
// input's weight, with NaN (0 × inf) taken as 0, as zunionInterDiffGenericCommand does.
func weightedScore(w, sc float64, aggregate int) float64 {
	if aggregate == zaggrCount {
		sc = 1
	}
	if score := w * sc; !math.IsNaN(score) {
		return score
	}
	return 0
}
