package engine

import (
	"math"
	"strconv"

	"redscope/engine/dict"
	"redscope/engine/skiplist"
)

// Sorted-set commands: ZADD ZINCRBY ZSCORE ZMSCORE ZRANK ZREVRANK ZCARD ZCOUNT ZLEXCOUNT ZREM
// ZRANGE ZREVRANGE ZRANGEBYSCORE ZREVRANGEBYSCORE ZRANGEBYLEX ZREVRANGEBYLEX ZPOPMIN ZPOPMAX
// ZRANDMEMBER ZSCAN, answering as Redis 7.0.15 does (t_zset.c), with the 7.2 differences
// (WITHSCORE of ZRANK/ZREVRANK, shortest doubles, pre-sized conversions).

func init() {
	w := FlagWrite | FlagDenyOOM | FlagFast
	r := FlagReadonly | FlagFast
	register(
		&Command{Name: "zadd", Arity: -4, Flags: w, Cats: "sortedset", Fn: cmdZadd},
		&Command{Name: "zincrby", Arity: 4, Flags: w, Cats: "sortedset", KeyFlags: []string{"RW access update"}, Fn: cmdZincrby},
		&Command{Name: "zscore", Arity: 3, Flags: r, Cats: "sortedset", Fn: cmdZscore},
		&Command{Name: "zmscore", Arity: -3, Flags: r, Cats: "sortedset", Fn: cmdZmscore},
		&Command{Name: "zrank", Arity: -3, Flags: r, Cats: "sortedset", OldArity: oldArity3, Fn: cmdZrank},
		&Command{Name: "zrevrank", Arity: -3, Flags: r, Cats: "sortedset", OldArity: oldArity3, Fn: cmdZrank},
		&Command{Name: "zcard", Arity: 2, Flags: r, Cats: "sortedset", KeyFlags: []string{"RO"}, Fn: cmdZcard},
		&Command{Name: "zcount", Arity: 4, Flags: r, Cats: "sortedset", Fn: cmdZcount},
		&Command{Name: "zlexcount", Arity: 4, Flags: r, Cats: "sortedset", Fn: cmdZlexcount},
		&Command{Name: "zrem", Arity: -3, Flags: FlagWrite | FlagFast, Cats: "sortedset", KeyFlags: []string{"RW delete"}, Fn: cmdZrem},
		&Command{Name: "zrange", Arity: -4, Flags: FlagReadonly, Cats: "sortedset", Fn: cmdZrange},
		&Command{Name: "zrevrange", Arity: -4, Flags: FlagReadonly, Cats: "sortedset", Fn: cmdZrange},
		&Command{Name: "zrangebyscore", Arity: -4, Flags: FlagReadonly, Cats: "sortedset", Fn: cmdZrange},
		&Command{Name: "zrevrangebyscore", Arity: -4, Flags: FlagReadonly, Cats: "sortedset", Fn: cmdZrange},
		&Command{Name: "zrangebylex", Arity: -4, Flags: FlagReadonly, Cats: "sortedset", Fn: cmdZrange},
		&Command{Name: "zrevrangebylex", Arity: -4, Flags: FlagReadonly, Cats: "sortedset", Fn: cmdZrange},
		&Command{Name: "zpopmin", Arity: -2, Flags: FlagWrite | FlagFast, Cats: "sortedset", KeyFlags: []string{"RW access delete"}, Fn: cmdZpop},
		&Command{Name: "zpopmax", Arity: -2, Flags: FlagWrite | FlagFast, Cats: "sortedset", KeyFlags: []string{"RW access delete"}, Fn: cmdZpop},
		&Command{Name: "zrandmember", Arity: -2, Flags: FlagReadonly, Cats: "sortedset", Tips: "nondeterministic_output", Cost: countCost, Fn: cmdZrandmember},
		&Command{Name: "zscan", Arity: -3, Flags: FlagReadonly, Cats: "sortedset", Tips: "nondeterministic_output", Fn: cmdZscan},
	)
}

func cmdZadd(e *Engine, args [][]byte) Reply    { return zaddGeneric(e, args, 0) }
func cmdZincrby(e *Engine, args [][]byte) Reply { return zaddGeneric(e, args, zaddIncr) }

// zaddGeneric is zaddGenericCommand (ZADD and ZINCRBY).
func zaddGeneric(e *Engine, args [][]byte, flags int) Reply {
	si := 2
	for ; si < len(args); si++ {
		f := keywordFlag(args[si], zaddKeywords)
		if f == 0 {
			break
		}
		flags |= f
	}
	ch := flags&zaddCH != 0
	incr := flags&zaddIncr != 0
	nx, xx := flags&zaddNX != 0, flags&zaddXX != 0
	gt, lt := flags&zaddGT != 0, flags&zaddLT != 0
	elements := len(args) - si
	if elements%2 != 0 || elements == 0 {
		return ErrSyntax
	}
	elements /= 2
	if nx && xx {
		return Err("ERR XX and NX options at the same time are not compatible")
	}
	if (gt && nx) || (lt && nx) || (gt && lt) {
		return Err("ERR GT, LT, and/or NX options at the same time are not compatible")
	}
	if incr && elements > 1 {
		return Err("ERR INCR option supports a single increment-element pair")
	}
	var one [1]float64
	scores := one[:0]
	if elements > 1 {
		scores = make([]float64, 0, elements)
	}
	for j := 0; j < elements; j++ {
		v, ok := e.string2d(args[si+j*2])
		if !ok {
			return ErrNotFloat
		}
		scores = append(scores, v)
	}
	key := args[1]
	dirty := e.cfg.stats.dirty
	o, werr := e.lookupTyped(key, TypeZSet)
	if werr != nil {
		return *werr
	}
	var score float64
	added, updated, processed := 0, 0, 0
	if o == nil {
		if xx {
			goto reply
		}
		maxEntries := e.cfg.Int("zset-max-listpack-entries")
		maxValue := e.cfg.Int("zset-max-listpack-value")
		first := int64(len(args[si+1]))
		if e.ver.Has(V72) {
			if int64(elements) <= maxEntries && first <= maxValue {
				o = e.newZsetListpack()
			} else {
				o = e.newZsetSkiplist(elements)
			}
		} else if maxEntries == 0 || maxValue < first {
			o = e.newZsetSkiplist(0)
		} else {
			o = e.newZsetListpack()
		}
		e.add(key, o)
		if o.Enc == EncSkiplist && e.tracing {
			e.emit(EncodingEvent{Key: string(key), From: "", To: "skiplist", Why: Why{Code: WhyNewZset}})
		}
	} else if e.ver.Has(V72) && o.Enc == EncListpack && int64(elements) > e.cfg.Int("zset-max-listpack-entries") {
		z := e.zsetOf(o, key)
		z.convertToSkiplist(elements, Why{Code: WhyBringsMore, N: int64(elements), Limit: e.cfg.Int("zset-max-listpack-entries"), Name: "zset-max-listpack-entries"})
		o.Enc = EncSkiplist
	}
	{
		z := e.zsetOf(o, key)
		for j := 0; j < elements; j++ {
			out, ns, ok := z.add(e, scores[j], args[si+1+j*2], flags)
			if z.zsl != nil {
				o.Enc = EncSkiplist
			}
			if !ok {
				return errZNaN
			}
			if out&zaddOutAdded != 0 {
				added++
			}
			if out&zaddOutUpdated != 0 {
				updated++
			}
			if out&zaddOutNop == 0 {
				processed++
			}
			score = ns
		}
	}
	e.changed(key, dirty, int64(added+updated)) // zaddGenericCommand's server.dirty += (added+updated)
reply:
	if incr {
		if processed > 0 {
			return e.doubleReply(score)
		}
		return NilReply
	}
	if ch {
		return Int(int64(added + updated))
	}
	return Int(int64(added))
}

func cmdZscore(e *Engine, args [][]byte) Reply {
	o, werr := e.lookupTyped(args[1], TypeZSet)
	if o == nil {
		return orMissing(werr, NilReply)
	}
	s, ok := e.zsetOf(o, args[1]).score(args[2])
	if !ok {
		return NilReply
	}
	return e.doubleReply(s)
}

func cmdZmscore(e *Engine, args [][]byte) Reply {
	o, werr := e.lookupTyped(args[1], TypeZSet)
	if werr != nil {
		return *werr
	}
	out := make([]Reply, 0, len(args)-2)
	for _, m := range args[2:] {
		if o == nil {
			out = append(out, NilReply)
			continue
		}
		s, ok := e.zsetOf(o, args[1]).score(m)
		if !ok {
			out = append(out, NilReply)
		} else {
			out = append(out, e.doubleReply(s))
		}
	}
	return Array(out...)
}

// oldArity3: ZRANK's and ZREVRANK's arity before WITHSCORE (7.2).
var oldArity3 = struct {
	Until Version
	Arity int
}{V72, 3}

// ZRANK / ZREVRANK key member [WITHSCORE] (WITHSCORE since 7.2; 7.0's arity is exactly 3).
func cmdZrank(e *Engine, args [][]byte) Reply {
	name := "zrank"
	reverse := eqFold(args[0], "zrevrank")
	if reverse {
		name = "zrevrank"
	}
	withscore := false
	if !e.ver.Has(V72) {
		if len(args) != 3 {
			return errArity(name)
		}
	} else {
		if len(args) > 4 {
			return errArity(name)
		}
		if len(args) == 4 {
			if !eqFold(args[3], "withscore") {
				return ErrSyntax
			}
			withscore = true
		}
	}
	none := NilReply
	if withscore {
		none = NilArray
	}
	o, werr := e.lookupTyped(args[1], TypeZSet)
	if o == nil {
		return orMissing(werr, none)
	}
	r, s := e.zsetOf(o, args[1]).rank(args[2], reverse)
	if r < 0 {
		return none
	}
	if withscore {
		return Array(Int(r), e.doubleReply(s))
	}
	return Int(r)
}

func cmdZcard(e *Engine, args [][]byte) Reply {
	o, werr := e.lookupTyped(args[1], TypeZSet)
	if o == nil {
		return orMissing(werr, Int(0))
	}
	return Int(int64(e.zsetOf(o, args[1]).card()))
}

// parseScoreRange is zslParseRange.
func (e *Engine) parseScoreRange(min, max []byte) (skiplist.ScoreRange, bool) {
	var r skiplist.ScoreRange
	var ok bool
	if r.Min, r.MinEx, ok = e.parseRangeScore(min); !ok {
		return r, false
	}
	if r.Max, r.MaxEx, ok = e.parseRangeScore(max); !ok {
		return r, false
	}
	return r, true
}

func cmdZcount(e *Engine, args [][]byte) Reply    { return e.zcountGeneric(args, zrangeScore) }
func cmdZlexcount(e *Engine, args [][]byte) Reply { return e.zcountGeneric(args, zrangeLex) }

// zcountGeneric is ZCOUNT (rt zrangeScore) and ZLEXCOUNT (zrangeLex): the elements from the first
// in range up to the maximum; a skiplist counts ZCOUNT's by rank, as zcountCommand does.
func (e *Engine) zcountGeneric(args [][]byte, rt zrangeType) Reply {
	b, bad := e.parseZRangeBounds(rt, false, args[2], args[3])
	if bad != nil {
		return *bad
	}
	o, werr := e.lookupTyped(args[1], TypeZSet)
	if o == nil {
		return orMissing(werr, Int(0))
	}
	z := e.zsetOf(o, args[1])
	c := z.seek(b)
	if rt == zrangeScore && z.lp == nil {
		if c.node == nil {
			return Int(0)
		}
		first := z.zsl.GetRank(c.node.Score, c.node.Member)
		last := z.zsl.LastInRange(b.sr)
		return Int(int64(z.zsl.GetRank(last.Score, last.Member) - first + 1))
	}
	n := int64(0)
	for {
		el, ok := c.at()
		if !ok || z.beyond(b, el) {
			break
		}
		n++
		c.next()
	}
	return Int(n)
}

func parseLexRange(min, max []byte) (skiplist.LexRange, bool) {
	a, ok1 := skiplist.ParseLexBound(min)
	b, ok2 := skiplist.ParseLexBound(max)
	return skiplist.LexRange{Min: a, Max: b}, ok1 && ok2
}

func cmdZrem(e *Engine, args [][]byte) Reply {
	var z *zsetValue // bound to the key once, at the first member
	return e.removeEach(args[1], TypeZSet, args[2:], func(o *Object, m []byte) bool {
		if z == nil {
			z = e.zsetOf(o, args[1])
		}
		return z.del(m)
	}, func(*Object) int { return z.card() })
}

type zrangeType uint8

const (
	zrangeAuto zrangeType = iota
	zrangeRank
	zrangeScore
	zrangeLex
)

// zrangeOptions are the options of zrangeGenericCommand read after the range: WITHSCORES (not
// for ZRANGESTORE), LIMIT offset count, and where the command leaves them open (ZRANGE,
// ZRANGESTORE) REV, BYSCORE and BYLEX; anything else is a syntax error. LIMIT needs BYSCORE or
// BYLEX. dir is 1 forward, 2 reverse.
type zrangeOptions struct {
	rt            zrangeType
	dir           int
	withscores    bool
	offset, limit int64
}

func parseZrangeOptions(args [][]byte, from int, rt zrangeType, dir int, store bool) (zrangeOptions, *Reply) {
	zo := zrangeOptions{rt: rt, dir: dir, limit: -1}
	for j := from; j < len(args); j++ {
		left := len(args) - j - 1
		a := args[j]
		switch {
		case !store && eqFold(a, "withscores"):
			zo.withscores = true
		case eqFold(a, "limit") && left >= 2:
			var ok bool
			if zo.offset, ok = string2ll(args[j+1]); !ok {
				return zo, &ErrNotInt
			}
			if zo.limit, ok = string2ll(args[j+2]); !ok {
				return zo, &ErrNotInt
			}
			j += 2
		case zo.dir == 0 && eqFold(a, "rev"):
			zo.dir = 2
		case zo.rt == zrangeAuto && eqFold(a, "bylex"):
			zo.rt = zrangeLex
		case zo.rt == zrangeAuto && eqFold(a, "byscore"):
			zo.rt = zrangeScore
		default:
			return zo, &ErrSyntax
		}
	}
	if zo.dir == 0 {
		zo.dir = 1
	}
	if zo.rt == zrangeAuto {
		zo.rt = zrangeRank
	}
	if zo.limit != -1 && zo.rt == zrangeRank {
		return zo, &errLimitByScoreLex
	}
	return zo, nil
}

// cmdZrange covers ZRANGE and the six older range commands (zrangeGenericCommand).
func cmdZrange(e *Engine, args [][]byte) Reply {
	rt := zrangeAuto
	dir := 0 // 0 auto, 1 forward, 2 reverse
	switch {
	case eqFold(args[0], "zrange"):
	case eqFold(args[0], "zrevrange"):
		rt, dir = zrangeRank, 2
	case eqFold(args[0], "zrangebyscore"):
		rt, dir = zrangeScore, 1
	case eqFold(args[0], "zrevrangebyscore"):
		rt, dir = zrangeScore, 2
	case eqFold(args[0], "zrangebylex"):
		rt, dir = zrangeLex, 1
	case eqFold(args[0], "zrevrangebylex"):
		rt, dir = zrangeLex, 2
	}
	zo, r := parseZrangeOptions(args, 4, rt, dir, false)
	if r != nil {
		return *r
	}
	rt, dir, withscores, offset, limit := zo.rt, zo.dir, zo.withscores, zo.offset, zo.limit
	if withscores && rt == zrangeLex {
		return Err("ERR syntax error, WITHSCORES not supported in combination with BYLEX")
	}
	b, bad := e.parseZRangeBounds(rt, dir == 2, args[2], args[3])
	if bad != nil {
		return *bad
	}
	o, werr := e.lookupTyped(args[1], TypeZSet)
	if o == nil {
		return orMissing(werr, EmptyArr)
	}
	z := e.zsetOf(o, args[1])
	out := []Reply{}
	z.walkRange(b, offset, limit, func(el zsetElem) {
		out = append(out, z.memberReply(el))
		if withscores && rt != zrangeLex {
			out = append(out, e.doubleReply(el.score))
		}
	})
	return Reply{Kind: KindArray, Array: out}.AsPairsIf(withscores)
}

// zrangeBounds is a parsed range of ZRANGE / ZRANGESTORE: ranks, scores or lex bounds, and the
// direction.
type zrangeBounds struct {
	rt         zrangeType
	rev        bool
	start, end int64
	sr         skiplist.ScoreRange
	lr         skiplist.LexRange
}

// parseZRangeBounds reads min and max for range type rt (REV swaps them for scores and lex, as
// zrangeGenericCommand does), with Redis's error for each type.
func (e *Engine) parseZRangeBounds(rt zrangeType, rev bool, minArg, maxArg []byte) (b zrangeBounds, bad *Reply) {
	b.rt, b.rev = rt, rev
	if rev && rt != zrangeRank {
		minArg, maxArg = maxArg, minArg
	}
	var ok bool
	switch rt {
	case zrangeRank:
		if b.start, b.end, ok = string2llPair(minArg, maxArg); !ok {
			return b, &ErrNotInt
		}
	case zrangeScore:
		if b.sr, ok = e.parseScoreRange(minArg, maxArg); !ok {
			return b, &errZMinMax
		}
	default:
		if b.lr, ok = parseLexRange(minArg, maxArg); !ok {
			return b, &errZLex
		}
	}
	return b, nil
}

// beyond tells whether el is past the far end of score or lex range b in the walk's direction:
// above the maximum, or below the minimum when b.rev.
func (z *zsetValue) beyond(b zrangeBounds, el zsetElem) bool {
	if b.rt == zrangeScore {
		if b.rev {
			return !b.sr.GteMin(el.score)
		}
		return !b.sr.LteMax(el.score)
	}
	m := z.memberString(el)
	if b.rev {
		return !b.lr.GteMin(m)
	}
	return !b.lr.LteMax(m)
}

// walkRange calls fn for each element of range b in order (offset and limit apply to scores and
// lex, as LIMIT does); length is the number of elements a rank range holds, the store handler's
// size hint, or -1 for the other types.
func (z *zsetValue) walkRange(b zrangeBounds, offset, limit int64, fn func(zsetElem)) (length int64) {
	if b.rt == zrangeRank {
		start, end, ok := rankRange(b.start, b.end, int64(z.card()))
		if !ok {
			return 0
		}
		cnt := end - start + 1
		c := z.seekRank(int(start), b.rev)
		for i := int64(0); i < cnt; i++ {
			el, ok := c.at()
			if !ok {
				break
			}
			fn(el)
			c.next()
		}
		return cnt
	}
	if offset > 0 && offset >= int64(z.card()) {
		return -1
	}
	c := z.seek(b)
	if _, ok := c.at(); !ok || offset < 0 { // offset < 0: C's while (offset--) walks off the end
		return -1
	}
	for ; offset > 0; offset-- {
		c.next()
	}
	for ; limit != 0; limit-- {
		el, ok := c.at()
		if !ok {
			break
		}
		if z.beyond(b, el) {
			break
		}
		fn(el)
		c.next()
	}
	return -1
}

// parsePositiveLong is getPositiveLongFromObjectOrReply.
func parsePositiveLong(b []byte) (int64, *Reply) {
	n, ok := string2ll(b)
	if !ok || n < 0 {
		return 0, &errNotPositive
	}
	return n, nil
}

// ZPOPMIN / ZPOPMAX key [count].
func cmdZpop(e *Engine, args [][]byte) Reply {
	if len(args) > 3 {
		return ErrSyntax
	}
	max := eqFold(args[0], "zpopmax")
	count := int64(-1)
	if len(args) == 3 {
		n, r := parsePositiveLong(args[2])
		if r != nil {
			return *r
		}
		count = n
	}
	dirty := e.cfg.stats.dirty
	o, werr := e.lookupTyped(args[1], TypeZSet)
	if o == nil || count == 0 {
		return orMissing(werr, EmptyArr)
	}
	if count == -1 {
		count = 1
	}
	z := e.zsetOf(o, args[1])
	n := int64(z.card())
	if count > n {
		count = n
	}
	out := make([]Reply, 0, 2*count)
	for i := int64(0); i < count; i++ {
		c := z.seekRank(0, max)
		el, _ := c.at()
		m := z.memberString(el)
		out = append(out, BulkStr(m), e.doubleReply(el.score))
		z.del([]byte(m))
	}
	if z.card() == 0 {
		e.Delete(args[1])
	}
	e.changed(args[1], dirty, count) // genericZpopCommand: server.dirty++ per element popped
	// t_zset.c, zpopMinMaxCommand: nested with a count
	return Array(out...).AsPairsIf(len(args) == 3)
}

// ZRANDMEMBER key [count [WITHSCORES]].
func cmdZrandmember(e *Engine, args [][]byte) Reply {
	if len(args) >= 3 {
		l, withscores, r := parseRandWith(args, "withscores")
		if r != nil {
			return *r
		}
		return zrandmemberWithCount(e, args[1], l, withscores).AsPairsIf(withscores)
	}
	o, werr := e.lookupTyped(args[1], TypeZSet)
	if o == nil {
		return orMissing(werr, NilReply)
	}
	z := e.zsetOf(o, args[1])
	el := z.randomElement()
	return z.memberReply(el)
}

// randomElement is zsetTypeRandomElement: a uniform listpack pair, or dictGetFairRandomKey.
func (z *zsetValue) randomElement() zsetElem {
	if z.lp != nil {
		i := z.rng.IntN(z.card())
		c := z.seekRank(i, false)
		el, _ := c.at()
		return el
	}
	ent := z.dict.GetFairRandomKey()
	return zsetElem{lpMember: -1, node: &skiplist.Node{Member: ent.Key, Score: ent.Val}, score: ent.Val}
}

func zrandmemberWithCount(e *Engine, key []byte, l int64, withscores bool) Reply {
	o, werr := e.lookupTyped(key, TypeZSet)
	if o == nil {
		return orMissing(werr, EmptyArr)
	}
	z := e.zsetOf(o, key)
	size := int64(z.card())
	c, uniq := randCount(l)
	count := int64(c)
	if count == 0 {
		return EmptyArr
	}
	var out []Reply
	emit := func(el zsetElem) {
		out = append(out, z.memberReply(el))
		if withscores {
			out = append(out, e.doubleReply(el.score))
		}
	}
	// CASE 1: repetitions allowed (or a single element).
	if !uniq || count == 1 {
		for ; count > 0; count-- {
			emit(z.randomElement())
		}
		return Reply{Kind: KindArray, Array: out}
	}
	// CASE 2: the whole zset, from the highest score down (zuiNext walks backwards).
	if count >= size {
		c := z.seekRank(0, true)
		for {
			el, ok := c.at()
			if !ok {
				break
			}
			emit(el)
			c.next()
		}
		return Reply{Kind: KindArray, Array: out}
	}
	// CASE 3: copy everything into a temporary dict and remove random members.
	if count*3 > size {
		d := dict.New[string, float64](e.valueDictEnv())
		d.Expand(uint64(size))
		c := z.seekRank(0, true)
		for {
			el, ok := c.at()
			if !ok {
				break
			}
			d.Add(z.memberString(el), el.score)
			c.next()
		}
		dropFairRandom(e, d, uint64(count), "", "")
		d.Range(func(en *dict.Entry[string, float64]) bool {
			emit(zsetElem{lpMember: -1, node: &skiplist.Node{Member: en.Key, Score: en.Val}, score: en.Val})
			return true
		})
		return Reply{Kind: KindArray, Array: out}
	}
	// CASE 4.
	if z.lp != nil {
		// lpRandomPairsUnique: one pass, picking each pair with probability remaining/left.
		remaining := count
		idx := int64(0)
		for eptr := z.lp.First(); eptr >= 0 && remaining > 0; idx++ {
			sptr := z.lp.Next(eptr)
			rnd := float64(z.rng.Uint32()>>1) / float64(math.MaxInt32)
			if rnd <= float64(remaining)/float64(size-idx) {
				emit(zsetElem{lpMember: eptr, score: z.zzlScore(sptr)})
				remaining--
			}
			eptr = z.lp.Next(sptr)
		}
		return Reply{Kind: KindArray, Array: out}
	}
	seen := map[string]bool{}
	for int64(len(seen)) < count {
		el := z.randomElement()
		if seen[el.node.Member] {
			continue
		}
		seen[el.node.Member] = true
		emit(el)
	}
	return Reply{Kind: KindArray, Array: out}
}

// ZSCAN key cursor [MATCH pattern] [COUNT count].
func cmdZscan(e *Engine, args [][]byte) Reply { return e.scanKey(args, TypeZSet) }

// zscanValue walks a sorted set for ZSCAN: a listpack whole (cursor 0), a skiplist's dict with
// the reverse-binary cursor, at most COUNT×10 buckets and until 2×COUNT replies.
func (e *Engine) zscanValue(key []byte, o *Object, cursor uint64, so scanOptions) Reply {
	count := so.count
	z := e.zsetOf(o, key)
	out := []Reply{}
	add := func(member string, score Reply) {
		if !so.match([]byte(member)) {
			return
		}
		out = append(out, BulkStr(member), score)
	}
	if z.lp != nil {
		for eptr := z.lp.First(); eptr >= 0; {
			sptr := z.lp.Next(eptr)
			add(z.zzlMember(eptr), z.zzlMemberReply(sptr))
			eptr = z.lp.Next(sptr)
		}
		return Array(BulkStr("0"), Reply{Kind: KindArray, Array: out})
	}
	type pair struct {
		m string
		s float64
	}
	var got []pair
	maxIter := count * 10
	limit := count * 2
	for {
		cursor = z.dict.Scan(cursor, func(en *dict.Entry[string, float64]) {
			got = append(got, pair{en.Key, en.Val})
		})
		if cursor == 0 || maxIter == 0 || int64(len(got)*2) >= limit {
			break
		}
		maxIter--
	}
	for _, p := range got {
		var b [40]byte
		add(p.m, BulkStr(string(appendLD17(b[:0], p.s))))
	}
	return Array(BulkStr(strconv.FormatUint(cursor, 10)), Reply{Kind: KindArray, Array: out})
}

// appendLD17 is createStringObjectFromLongDouble(score, 0): "%.17Lg" of the score widened to
// long double, which prints a double exactly like "%.17g"; inf as "inf"/"-inf".
func appendLD17(dst []byte, d float64) []byte {
	return appendG17(dst, d)
}
