package engine

// LMPOP numkeys key [key ...] LEFT|RIGHT [COUNT count] and BLMPOP timeout numkeys key [key ...]
// LEFT|RIGHT [COUNT count], answering as Redis 7.0.15 does (t_list.c lmpopGenericCommand). The
// arguments are parsed first (numkeys, side, COUNT), then BLMPOP's timeout (7.0's truncation
// rules, parseTimeout); the first key holding a list is popped from (a wrong type there is an
// error, keys after it are not looked at). BLMPOP never blocks: with nothing to pop it answers
// as a timed-out client does, a nil array — the same as LMPOP.

func init() {
	register(
		&Command{Name: "lmpop", Arity: -4, Flags: FlagWrite, Fn: cmdLmpop},
		&Command{Name: "blmpop", Arity: -5, Flags: FlagWrite, Fn: cmdLmpop},
	)
}

func cmdLmpop(e *Engine, args [][]byte) Reply {
	block := eqFold(args[0], "blmpop")
	numkeysIdx := 1
	if block {
		numkeysIdx = 2
	}
	keys, right, count, r := parseMpop(args, numkeysIdx, "left", "right")
	if r != nil {
		return *r
	}
	if block {
		if r := e.parseTimeout(args[1]); r != nil {
			return *r
		}
	}
	head := !right
	for _, key := range keys {
		o, werr := e.lookupList(key)
		if werr != nil {
			return *werr
		}
		if o == nil {
			continue
		}
		l := e.listOf(o, key)
		llen := int64(l.length())
		if llen == 0 {
			continue
		}
		n := int(min(count, llen))
		var elems Reply
		if head {
			elems = l.rangeReply(0, n, false)
			l.delRange(0, n)
		} else {
			elems = l.rangeReply(-1, n, true)
			l.delRange(-n, n)
		}
		e.listElementsRemoved(key, o, l)
		return Array(Bulk(key), elems)
	}
	return NilArray
}
