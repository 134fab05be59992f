package engine

import (
	"math"
	"math/big"
	"strings"
)

// List commands: LPUSH RPUSH LPUSHX RPUSHX LPOP RPOP LLEN LRANGE LINDEX LSET LINSERT LPOS LREM
// LMOVE RPOPLPUSH LTRIM BLPOP BRPOP BLMOVE BRPOPLPUSH, answering as Redis 7.0.15 does
// (t_list.c). When nothing can be served the blocking commands block (blocking.go) for a client
// that can wait; otherwise they answer at once: inside MULTI or a script a nil array (BLPOP,
// BRPOP) or a nil bulk (BLMOVE, BRPOPLPUSH), as CLIENT_DENY_BLOCKING does, and for a client that
// cannot wait (Engine.Exec) the timeout's nil array.

func init() {
	w := FlagWrite | FlagDenyOOM | FlagFast
	register(
		&Command{Name: "lpush", Arity: -3, Flags: w, Cats: "list", KeyFlags: []string{"RW insert"}, Fn: cmdPush},
		&Command{Name: "rpush", Arity: -3, Flags: w, Cats: "list", KeyFlags: []string{"RW insert"}, Fn: cmdPush},
		&Command{Name: "lpushx", Arity: -3, Flags: w, Cats: "list", KeyFlags: []string{"RW insert"}, Fn: cmdPush},
		&Command{Name: "rpushx", Arity: -3, Flags: w, Cats: "list", KeyFlags: []string{"RW insert"}, Fn: cmdPush},
		&Command{Name: "lpop", Arity: -2, Flags: FlagWrite | FlagFast, Cats: "list", KeyFlags: []string{"RW access delete"}, Fn: cmdPop},
		&Command{Name: "rpop", Arity: -2, Flags: FlagWrite | FlagFast, Cats: "list", KeyFlags: []string{"RW access delete"}, Fn: cmdPop},
		&Command{Name: "llen", Arity: 2, Flags: FlagReadonly | FlagFast, Cats: "list", KeyFlags: []string{"RO"}, Fn: cmdLlen},
		&Command{Name: "lrange", Arity: 4, Flags: FlagReadonly, Cats: "list", Fn: cmdLrange},
		&Command{Name: "lindex", Arity: 3, Flags: FlagReadonly, Cats: "list", Fn: cmdLindex},
		&Command{Name: "lset", Arity: 4, Flags: FlagWrite | FlagDenyOOM, Cats: "list", Fn: cmdLset},
		&Command{Name: "linsert", Arity: 5, Flags: FlagWrite | FlagDenyOOM, Cats: "list", KeyFlags: []string{"RW insert"}, Fn: cmdLinsert},
		&Command{Name: "lpos", Arity: -3, Flags: FlagReadonly, Cats: "list", Fn: cmdLpos},
		&Command{Name: "lrem", Arity: 4, Flags: FlagWrite, Cats: "list", KeyFlags: []string{"RW delete"}, Fn: cmdLrem},
		&Command{Name: "ltrim", Arity: 4, Flags: FlagWrite, Cats: "list", KeyFlags: []string{"RW delete"}, Fn: cmdLtrim},
		&Command{Name: "lmove", Arity: 5, Flags: FlagWrite | FlagDenyOOM, FirstKey: 1, LastKey: 2, Step: 1, Cats: "list", KeyFlags: []string{"RW access delete", "RW insert"}, Fn: cmdLmove},
		&Command{Name: "rpoplpush", Arity: 3, Flags: FlagWrite | FlagDenyOOM, FirstKey: 1, LastKey: 2, Step: 1, Cats: "list", KeyFlags: []string{"RW access delete", "RW insert"}, Fn: cmdLmove},
		&Command{Name: "blmove", Arity: 6, Flags: FlagWrite | FlagDenyOOM | FlagBlocking | FlagNoScript, FirstKey: 1, LastKey: 2, Step: 1, Cats: "list", KeyFlags: []string{"RW access delete", "RW insert"}, Fn: cmdLmove},
		&Command{Name: "brpoplpush", Arity: 4, Flags: FlagWrite | FlagDenyOOM | FlagBlocking | FlagNoScript, FirstKey: 1, LastKey: 2, Step: 1, Cats: "list", KeyFlags: []string{"RW access delete", "RW insert"}, Fn: cmdLmove},
		&Command{Name: "blpop", Arity: -3, Flags: FlagWrite | FlagBlocking | FlagNoScript, FirstKey: 1, LastKey: -2, Step: 1, Cats: "list", KeyFlags: []string{"RW access delete"}, Fn: cmdBpop},
		&Command{Name: "brpop", Arity: -3, Flags: FlagWrite | FlagBlocking | FlagNoScript, FirstKey: 1, LastKey: -2, Step: 1, Cats: "list", KeyFlags: []string{"RW access delete"}, Fn: cmdBpop},
	)
}

// LPUSH/RPUSH/LPUSHX/RPUSHX key element [element ...].
func cmdPush(e *Engine, args [][]byte) Reply {
	head := args[0][0]|0x20 == 'l'
	xx := len(args[0]) == 6
	dirty := e.cfg.stats.dirty
	defer func() { // pushGenericCommand: server.dirty += the elements pushed (dbAdd is no change)
		if e.cfg.stats.dirty != dirty {
			e.cfg.stats.dirty = dirty + int64(len(args)-2)
		}
	}()
	o, werr := e.lookupTyped(args[1], TypeList)
	if werr != nil {
		return *werr
	}
	if o == nil {
		if xx {
			return Int(0)
		}
		o = e.newListObject()
		e.add(args[1], o)
	}
	l := e.listOf(o, args[1])
	if l.lp != nil {
		add := 0
		for _, a := range args[2:] {
			add += len(a)
		}
		l.tryConvertListpack(o, add, len(args)-2)
	}
	for _, a := range args[2:] {
		l.push(a, head)
	}
	e.signalModifiedBytes(e.db, args[1])
	return Int(int64(l.length()))
}

// elementsRemoved is listElementsRemoved: delete the key when empty, else try the shrinking
// conversion; rdb_changes_since_last_save counts the count elements removed (server.dirty +=
// count; dbDelete is no change of its own).
func (e *Engine) listElementsRemoved(key []byte, o *Object, l *listValue, count int) {
	dirty := e.cfg.stats.dirty
	defer func() { e.cfg.stats.dirty = dirty + int64(count) }()
	e.signalModifiedBytes(e.db, key)
	if l.length() == 0 {
		e.Delete(key)
		return
	}
	l.tryConvertQuicklist(o)
}

// LPOP/RPOP key [count].
func cmdPop(e *Engine, args [][]byte) Reply {
	head := args[0][0]|0x20 == 'l'
	hascount := len(args) == 3
	var count int64
	if len(args) > 3 {
		return errArity(lowerASCII(args[0]))
	} else if hascount {
		n, r := parsePositiveLong(args[2])
		if r != nil {
			return *r
		}
		count = n
	}
	o, werr := e.lookupTyped(args[1], TypeList)
	if werr != nil {
		return *werr
	}
	if o == nil {
		if hascount {
			return NilArray
		}
		return NilReply
	}
	if hascount && count == 0 {
		return EmptyArr
	}
	l := e.listOf(o, args[1])
	if !hascount {
		v, _ := l.pop(head, nil)
		e.listElementsRemoved(args[1], o, l, 1)
		return Bulk(v)
	}
	llen := int64(l.length())
	n := min(count, llen)
	var r Reply
	if head {
		r = l.rangeReply(0, int(n), false)
		l.delRange(0, int(n))
	} else {
		r = l.rangeReply(-1, int(n), true)
		l.delRange(int(-n), int(n))
	}
	e.listElementsRemoved(args[1], o, l, int(n))
	return r
}

func cmdLlen(e *Engine, args [][]byte) Reply {
	_, l, r := e.lookupList(args[1], Int(0))
	if l == nil {
		return r
	}
	return Int(int64(l.length()))
}

// LRANGE key start stop.
func cmdLrange(e *Engine, args [][]byte) Reply {
	_, l, start, end, r := e.listRange(args, EmptyArr)
	if l == nil {
		return r
	}
	start, end, ok := rankRange(start, end, int64(l.length()))
	if !ok {
		return EmptyArr
	}
	return l.rangeReply(int(start), int(end-start+1), false)
}

// lookupList is lookupKeyReadOrReply and checkType for a list: the list at key and its value;
// l is nil when there is none, with the reply r (WRONGTYPE, or missing for a missing key).
func (e *Engine) lookupList(key []byte, missing Reply) (o *Object, l *listValue, r Reply) {
	o, werr := e.lookupTyped(key, TypeList)
	if o == nil {
		return nil, nil, orMissing(werr, missing)
	}
	return o, e.listOf(o, key), Reply{}
}

// listRange is the opening LRANGE and LTRIM share (lrangeCommand, ltrimCommand): start and
// stop as integers, read before the lookup, then the list at key. l is nil when there is no list
// to work on, with the reply r (missing, for a missing key).
func (e *Engine) listRange(args [][]byte, missing Reply) (o *Object, l *listValue, start, end int64, r Reply) {
	start, end, ok := string2llPair(args[2], args[3])
	if !ok {
		return nil, nil, 0, 0, ErrNotInt
	}
	o, l, r = e.lookupList(args[1], missing)
	return o, l, start, end, r
}

// LINDEX key index.
func cmdLindex(e *Engine, args [][]byte) Reply {
	_, l, idx, r := e.listIndex(args, NilReply)
	if l == nil {
		return r
	}
	if idx >= math.MaxInt32*1024 || idx <= -math.MaxInt32*1024 {
		return NilReply
	}
	v, found := l.iterAt(int(idx), false).next()
	if !found {
		return NilReply
	}
	return Bulk(v)
}

// listIndex is the opening LINDEX and LSET share (lindexCommand, lsetCommand): the list at key,
// then the index as an integer. l is nil when there is no list to work on, with the reply r
// (missing, for a missing key).
func (e *Engine) listIndex(args [][]byte, missing Reply) (o *Object, l *listValue, idx int64, r Reply) {
	if o, l, r = e.lookupList(args[1], missing); l == nil {
		return nil, nil, 0, r
	}
	idx, ok := string2ll(args[2])
	if !ok {
		return nil, nil, 0, ErrNotInt
	}
	return o, l, idx, Reply{}
}

// LSET key index element.
func cmdLset(e *Engine, args [][]byte) Reply {
	o, l, idx, r := e.listIndex(args, ErrNoSuchKey)
	if l == nil {
		return r
	}
	if l.lp != nil {
		l.tryConvertListpack(o, len(args[3]), 1)
	}
	if idx >= math.MaxInt32*1024 || idx <= -math.MaxInt32*1024 {
		return errOutOfRange
	}
	if l.lp != nil {
		p := l.lp.Seek(int(idx))
		if p < 0 {
			return errOutOfRange
		}
		_, ch := l.lp.Replace(p, args[3])
		l.lpEvent("replace", args[3], ch)
	} else if !l.ql.ReplaceAtIndex(int(idx), args[3]) {
		return errOutOfRange
	}
	l.tryConvertQuicklist(o)
	e.signalModifiedBytes(e.db, args[1])
	return OK
}

// LINSERT key BEFORE|AFTER pivot element.
func cmdLinsert(e *Engine, args [][]byte) Reply {
	after, ok := eitherKeyword(args[2], "before", "after")
	if !ok {
		return ErrSyntax
	}
	o, l, r := e.lookupList(args[1], Int(0))
	if l == nil {
		return r
	}
	if l.lp != nil {
		l.tryConvertListpack(o, len(args[4]), 1)
	}
	pivot, v := args[3], args[4]
	inserted := false
	if l.lp != nil {
		for p := l.lp.First(); p >= 0; p = l.lp.Next(p) {
			if l.lp.Compare(p, pivot) {
				where := 0
				if after {
					where = 1
				}
				var ch = l.lpInsert(p, v, where)
				l.lpEvent("insert", v, ch)
				inserted = true
				break
			}
		}
	} else {
		it := l.ql.Iterator(0)
		var en = newQLEntry()
		for it.Next(en) {
			if qlCompare(en, pivot) {
				if after {
					l.ql.InsertAfter(&it, en, v)
				} else {
					l.ql.InsertBefore(&it, en, v)
				}
				inserted = true
				break
			}
		}
	}
	if !inserted {
		return Int(-1)
	}
	e.signalModifiedBytes(e.db, args[1])
	return Int(int64(l.length()))
}

// LPOS key element [RANK rank] [COUNT num-matches] [MAXLEN len].
func cmdLpos(e *Engine, args [][]byte) Reply {
	rank, count, maxlen := int64(1), int64(-1), int64(0)
	for j := 3; j < len(args); j++ {
		more := len(args) - 1 - j
		switch {
		case eqFold(args[j], "rank") && more > 0:
			j++
			n, ok := string2ll(args[j])
			if !ok {
				return ErrNotInt
			}
			// 7.2+ reads RANK with getRangeLongFromObjectOrReply(-LONG_MAX, LONG_MAX) (t_list.c,
			// lposCommand; redis#12167), so LONG_MIN, whose negation overflows, is refused; 7.0
			// accepts it.
			if n == math.MinInt64 && e.ver.Has(V72) {
				return Err("ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807")
			}
			if n == 0 {
				return Err("ERR RANK can't be zero: use 1 to start from the first match, 2 from the second ... or use negative to start from the end of the list")
			}
			rank = n
		case (eqFold(args[j], "count") || eqFold(args[j], "maxlen")) && more > 0:
			opt := strings.ToUpper(string(args[j]))
			j++
			n, ok := string2ll(args[j])
			if !ok || n < 0 {
				return Err("ERR " + opt + " can't be negative")
			}
			if opt == "COUNT" {
				count = n
			} else {
				maxlen = n
			}
		default:
			return ErrSyntax
		}
	}
	rev := false
	if rank < 0 {
		rank = -rank // LONG_MIN stays negative, as in C
		rev = true
	}
	o, werr := e.lookupTyped(args[1], TypeList)
	if werr != nil {
		return *werr
	}
	if o == nil {
		if count != -1 {
			return EmptyArr
		}
		return NilReply
	}
	l := e.listOf(o, args[1])
	llen := int64(l.length())
	start := 0
	if rev {
		start = -1
	}
	it := l.iterAt(start, rev)
	var out []Reply
	index, matches, matchindex := int64(0), int64(0), int64(-1)
	for maxlen == 0 || index < maxlen {
		v, ok := it.next()
		if !ok {
			break
		}
		if string(v) == string(args[2]) {
			matches++
			if rev {
				matchindex = llen - index - 1
			} else {
				matchindex = index
			}
			if matches >= rank {
				if count != -1 {
					out = append(out, Int(matchindex))
					if count != 0 && matches-rank+1 >= count {
						break
					}
				} else {
					break
				}
			}
		}
		index++
		matchindex = -1
	}
	if count != -1 {
		return Reply{Kind: KindArray, Array: append([]Reply{}, out...)}
	}
	if matchindex != -1 {
		return Int(matchindex)
	}
	return NilReply
}

// LREM key count element.
func cmdLrem(e *Engine, args [][]byte) Reply {
	toremove, ok := string2ll(args[2])
	if !ok {
		return ErrNotInt
	}
	o, l, r := e.lookupList(args[1], Int(0))
	if l == nil {
		return r
	}
	rev := toremove < 0
	if rev {
		toremove = -toremove
	}
	removed := int64(0)
	v := args[3]
	if l.lp != nil {
		p := l.lp.First()
		if rev {
			p = l.lp.Last()
		}
		for p >= 0 {
			if l.lp.Compare(p, v) {
				var ch = l.lpDelete(&p, rev)
				l.lpEvent("delete", nil, ch)
				removed++
				if toremove != 0 && removed == toremove {
					break
				}
				continue
			}
			if rev {
				p = l.lp.Prev(p)
			} else {
				p = l.lp.Next(p)
			}
		}
	} else {
		dir := 0
		if rev {
			dir = 1
		}
		it := l.ql.Iterator(qlDir(dir))
		en := newQLEntry()
		for it.Next(en) {
			if qlCompare(en, v) {
				it.DelEntry(en)
				removed++
				if toremove != 0 && removed == toremove {
					break
				}
			}
		}
	}
	dirty := e.cfg.stats.dirty // lremCommand: server.dirty++ per element removed
	if l.length() == 0 {
		e.Delete(args[1])
	} else if removed > 0 {
		l.tryConvertQuicklist(o)
		e.signalModifiedBytes(e.db, args[1])
	}
	e.cfg.stats.dirty = dirty + removed
	return Int(removed)
}

// LTRIM key start stop.
func cmdLtrim(e *Engine, args [][]byte) Reply {
	o, l, start, end, r := e.listRange(args, OK)
	if l == nil {
		return r
	}
	llen := int64(l.length())
	ltrim, rtrim := llen, int64(0) // an empty range empties the list
	if start, end, ok := rankRange(start, end, llen); ok {
		ltrim, rtrim = start, llen-end-1
	}
	l.delRange(0, int(ltrim))
	l.delRange(int(-rtrim), int(rtrim))
	e.listElementsRemoved(args[1], o, l, int(ltrim+rtrim))
	return OK
}

// parseListPosition is getListPositionFromObjectOrReply: LEFT (head) or RIGHT.
func parseListPosition(b []byte) (head bool, ok bool) {
	return eitherKeyword(b, "right", "left")
}

// parseTimeout is getTimeoutFromObjectOrReply in seconds; it returns the timeout in ms (0 =
// forever). The value is a long double times 1000 in long double arithmetic, rounded up (ceill:
// 7.0.10+ and 7.2+), then
//   - 7.0: converted to long long. A product outside the long long range (also ±inf) converts
//     to LLONG_MIN on x86-64, so redis-server 7.0.15 answers "timeout is negative" for `inf` or
//     `1e30` (verified).
//   - 7.2+: "timeout is out of range" when the product exceeds LLONG_MAX, and again when adding
//     the current time would overflow.
func (e *Engine) parseTimeout(b []byte) (int64, *Reply) {
	v, ok := parseLongDouble(b)
	if !ok {
		r := Err("ERR timeout is not a float or out of range")
		return 0, &r
	}
	ms := new(big.Float).SetPrec(ld80Prec)
	if v.IsInf() {
		ms.SetInf(v.Sign() < 0)
	} else {
		ms, _ = round80(new(big.Float).Mul(v, big.NewFloat(1000)))
	}
	negative := func() (int64, *Reply) { r := errTimeoutNegative; return 0, &r }
	outOfRange := func() (int64, *Reply) { r := errTimeoutRange; return 0, &r }
	inRange := !ms.IsInf() && ms.Cmp(ldTwo63) < 0 && ms.Cmp(new(big.Float).Neg(ldTwo63)) >= 0
	ceil := func() int64 {
		t, _ := ms.Int64() // truncated toward zero
		if !ms.IsInt() && ms.Sign() > 0 {
			t++ // ceill of a positive fraction
		}
		return t
	}
	if !e.ver.Has(V72) {
		// Measured on 7.0.15: a product of 2^63-1 or more already converts to LLONG_MIN
		// ("9223372036854775.8075" → 9223372036854775807.5 ms is negative, …8070 → …806.5 is not).
		if !inRange || ms.Cmp(ldTwo63m1) >= 0 {
			return negative() // (long long) of an out-of-range value: LLONG_MIN
		}
		t := ceil()
		if t < 0 {
			return negative()
		}
		return t, nil
	}
	if ms.Cmp(ldTwo63m1) > 0 { // ftval > LLONG_MAX (also +inf)
		return outOfRange()
	}
	if !inRange {
		return negative()
	}
	t := ceil()
	if t < 0 {
		return negative()
	}
	if t > 0 && t > math.MaxInt64-e.NowMs() {
		return outOfRange()
	}
	return t, nil
}

// ldTwo63 is 2^63, the first long double the conversion to long long cannot hold.
var ldTwo63 = new(big.Float).SetMantExp(big.NewFloat(1), 63)

// ldTwo63m1 is LLONG_MAX.
var ldTwo63m1 = new(big.Float).SetPrec(ld80Prec).SetInt64(math.MaxInt64)

// LMOVE / RPOPLPUSH / BLMOVE / BRPOPLPUSH.
func cmdLmove(e *Engine, args [][]byte) Reply {
	fromHead, toHead := false, true // RPOPLPUSH
	switch {
	case eqFold(args[0], "lmove"), eqFold(args[0], "blmove"):
		var ok1, ok2 bool
		fromHead, ok1 = parseListPosition(args[3])
		if !ok1 {
			return ErrSyntax
		}
		toHead, ok2 = parseListPosition(args[4])
		if !ok2 {
			return ErrSyntax
		}
	}
	blocking := eqFold(args[0], "blmove") || eqFold(args[0], "brpoplpush")
	var ms int64
	if blocking {
		var r *Reply
		if ms, r = e.parseTimeout(args[len(args)-1]); r != nil {
			return *r
		}
	}
	src, dst := args[1], args[2]
	so, werr := e.lookupTyped(src, TypeList)
	if werr != nil {
		return *werr
	}
	if so == nil {
		if blocking {
			// blmoveGenericCommand: block on the source only; the destination is looked at when
			// the client is served.
			name := lowerASCII(args[0])
			target := append([]byte(nil), dst...)
			return e.block(name, TypeList, [][]byte{src}, target, e.blockingDeadline(ms), NilReply, func(key []byte) (Reply, bool) {
				return e.lmoveServe(key, target, fromHead, toHead), true
			})
		}
		return NilReply
	}
	return e.lmoveServe(src, dst, fromHead, toHead)
}

// lmoveServe moves one element of the existing list src to dst (lmoveGenericCommand, and
// serveClientBlockedOnList for BLMOVE: a destination of another type answers WRONGTYPE and
// nothing is popped).
func (e *Engine) lmoveServe(src, dst []byte, fromHead, toHead bool) Reply {
	so, werr := e.lookupTyped(src, TypeList)
	if so == nil {
		return orMissing(werr, NilReply)
	}
	sl := e.listOf(so, src)
	if sl.length() == 0 {
		return NilReply
	}
	do, werr := e.lookupTyped(dst, TypeList)
	if werr != nil {
		return *werr
	}
	dirty := e.cfg.stats.dirty
	defer func() { e.cfg.stats.dirty = dirty + 1 }() // lmoveGenericCommand's one server.dirty++
	v, isInt := sl.pop(fromHead, nil)
	if do == nil {
		do = e.newListObject()
		e.add(dst, do)
	}
	dl := e.listOf(do, dst)
	if dl.lp != nil {
		add := len(v)
		if isInt {
			add = 0
		}
		dl.tryConvertListpack(do, add, 1)
	}
	dl.push(v, toHead)
	e.signalModifiedBytes(e.db, dst) // lmoveHandlePush
	e.signalModifiedBytes(e.db, src)
	if sl.length() == 0 {
		e.Delete(src)
	} else {
		sl.tryConvertQuicklist(so)
	}
	return Bulk(v)
}

// BLPOP / BRPOP key [key ...] timeout.
func cmdBpop(e *Engine, args [][]byte) Reply {
	head := args[0][1]|0x20 == 'l'
	ms, r := e.parseTimeout(args[len(args)-1])
	if r != nil {
		return *r
	}
	keys := args[1 : len(args)-1]
	if key, o, werr := e.firstList(keys); werr != nil {
		return *werr
	} else if o != nil {
		return e.listPopOne(key, o, head)
	}
	return e.block(lowerASCII(args[0]), TypeList, keys, nil, e.blockingDeadline(ms), NilArray, func(key []byte) (Reply, bool) {
		o, _ := e.lookupTyped(key, TypeList)
		return e.listPopOne(key, o, head), true
	})
}

// firstList is the key walk of BLPOP, BRPOP, LMPOP and BLMPOP: the first key holding a
// non-empty list (nil when none does), or WRONGTYPE for another type met before it.
func (e *Engine) firstList(keys [][]byte) ([]byte, *Object, *Reply) {
	for _, key := range keys {
		o, werr := e.lookupTyped(key, TypeList)
		if werr != nil {
			return nil, nil, werr
		}
		if o != nil && e.listOf(o, key).length() > 0 {
			return key, o, nil
		}
	}
	return nil, nil, nil
}

// listPopOne pops one element of the non-empty list o: the [key, element] reply of BLPOP/BRPOP.
func (e *Engine) listPopOne(key []byte, o *Object, head bool) Reply {
	l := e.listOf(o, key)
	v, _ := l.pop(head, nil)
	e.listElementsRemoved(key, o, l, 1)
	return Array(Bulk(key), Bulk(v))
}
