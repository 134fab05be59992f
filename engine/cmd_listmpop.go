package engine

// LMPOP numkeys key [key ...] LEFT|RIGHT [COUNT count] and BLMPOP timeout numkeys key [key ...]
// LEFT|RIGHT [COUNT count], answering as Redis 7.0.15 does (t_list.c lmpopGenericCommand). The
// arguments are parsed first (numkeys, side, COUNT), then BLMPOP's timeout (7.0's truncation
// rules, parseTimeout); the first key holding a list is popped from (a wrong type there is an
// error, keys after it are not looked at). With nothing to pop BLMPOP blocks (blocking.go) and
// is served from the key that becomes ready; where it may not block it answers a nil array, the
// same as LMPOP.

func init() {
	register(
		&Command{Name: "lmpop", Arity: -4, Flags: FlagWrite, Cats: "list", KeyNum: KeyNum{1, 1, 1}, KeyFlags: []string{"RW access delete"}, Fn: cmdLmpop},
		&Command{Name: "blmpop", Arity: -5, Flags: FlagWrite | FlagBlocking, Cats: "list", KeyNum: KeyNum{2, 1, 1}, KeyFlags: []string{"RW access delete"}, Fn: cmdLmpop},
	)
}

func cmdLmpop(e *Engine, args [][]byte) Reply {
	block := eqFold(args[0], "blmpop")
	keys, right, count, ms, r := e.parseMpop(args, block, "left", "right")
	if r != nil {
		return *r
	}
	head := !right
	if key, o, werr := e.firstList(keys); werr != nil {
		return *werr
	} else if o != nil {
		return e.listPopCount(key, o, e.listOf(o, key), head, count)
	}
	if block {
		return e.block("blmpop", TypeList, keys, nil, e.blockingDeadline(ms), NilArray, func(key []byte) (Reply, bool) {
			o, _ := e.lookupTyped(key, TypeList)
			return e.listPopCount(key, o, e.listOf(o, key), head, count), true
		})
	}
	return NilArray
}

// listPopCount pops up to count elements of a non-empty list: LMPOP's [key, [elements]] reply
// (listPopRangeAndReplyWithKey).
func (e *Engine) listPopCount(key []byte, o *Object, l *listValue, head bool, count int64) Reply {
	n := int(min(count, int64(l.length())))
	var elems Reply
	if head {
		elems = l.rangeReply(0, n, false)
		l.delRange(0, n)
	} else {
		elems = l.rangeReply(-1, n, true)
		l.delRange(-n, n)
	}
	e.listElementsRemoved(key, o, l, n)
	return Array(Bulk(key), elems)
}
