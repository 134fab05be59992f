package engine

import (
	"bytes"
	"math"
	"strings"
)

// Stream commands: XADD XLEN XRANGE XREVRANGE XREAD XREADGROUP XGROUP XSETID XACK XPENDING
// XCLAIM XAUTOCLAIM XDEL XTRIM XINFO, answering as Redis 7.0.15 does (t_stream.c), with the
// 7.2 differences (consumers' active-time / inactive, XCLAIM and XAUTOCLAIM creating the
// consumer first, the XREADGROUP unbalanced-list text, XSETID's max_deleted_entry_id check), 7.4's
// XREAD "+" (the last entry) and 8.2's XDELEX / XACKDEL.
// The structure is in t_stream.go.
//
// XREAD / XREADGROUP with BLOCK answer at once when an entry can be served; when nothing can,
// the client waits for an XADD (xreadBlock; the mechanism is blocking.go's).

func init() {
	w := FlagWrite | FlagDenyOOM | FlagFast
	register(
		&Command{Name: "xadd", Arity: -5, Flags: w, Cats: "stream", Tips: "nondeterministic_output", KeyNotes: []string{"UPDATE instead of INSERT because of the optional trimming feature"}, Fn: streamDirty(cmdXadd)},
		&Command{Name: "xlen", Arity: 2, Flags: FlagReadonly | FlagFast, Cats: "stream", KeyFlags: []string{"RO"}, Fn: cmdXlen},
		&Command{Name: "xrange", Arity: -4, Flags: FlagReadonly, Cats: "stream", Fn: cmdXrange},
		&Command{Name: "xrevrange", Arity: -4, Flags: FlagReadonly, Cats: "stream", Fn: cmdXrange},
		&Command{Name: "xread", Arity: -4, Flags: FlagReadonly | FlagBlocking, Cats: "stream", KeyExtra: []KeySpec{{Flags: "RO access", Keyword: "STREAMS", StartFrom: 1, LastKey: -1, Step: 1, Limit: 2}}, KeysFn: xreadKeys, Fn: streamDirty(cmdXread)},
		&Command{Name: "xreadgroup", Arity: -7, Flags: FlagWrite | FlagBlocking, Cats: "stream", KeyExtra: []KeySpec{{Flags: "RO access", Keyword: "STREAMS", StartFrom: 4, LastKey: -1, Step: 1, Limit: 2}}, KeysFn: xreadKeys, Fn: streamDirty(cmdXread)},
		&Command{Name: "xsetid", Arity: -3, Flags: w, Cats: "stream", Fn: streamDirty(cmdXsetid)},
		&Command{Name: "xack", Arity: -4, Flags: FlagWrite | FlagFast, Cats: "stream", Fn: streamDirty(cmdXack)},
		&Command{Name: "xpending", Arity: -3, Flags: FlagReadonly, Cats: "stream", Tips: "nondeterministic_output", Fn: cmdXpending},
		&Command{Name: "xclaim", Arity: -6, Flags: FlagWrite | FlagFast, Cats: "stream", Tips: "nondeterministic_output", Fn: streamDirty(cmdXclaim)},
		&Command{Name: "xautoclaim", Arity: -6, Flags: FlagWrite | FlagFast, Cats: "stream", Tips: "nondeterministic_output", KeyFlags: []string{"RW delete"}, Fn: streamDirty(cmdXautoclaim)},
		&Command{Name: "xdel", Arity: -3, Flags: FlagWrite | FlagFast, Cats: "stream", KeyFlags: []string{"RW delete"}, Fn: streamDirty(cmdXdel)},
		&Command{Name: "xtrim", Arity: -4, Flags: FlagWrite, Cats: "stream", Tips: "nondeterministic_output", KeyFlags: []string{"RW delete"}, Fn: streamDirty(cmdXtrim)},
		&Command{Name: "xdelex", Arity: -5, Flags: FlagWrite | FlagFast, Since: V82, Cats: "stream", Fn: cmdXdelex},
		&Command{Name: "xackdel", Arity: -6, Flags: FlagWrite | FlagFast, Since: V82, Cats: "stream", Fn: cmdXdelex},
		&Command{Name: "xgroup", Arity: -2, Sub: map[string]*Command{
			"create":         &Command{Name: "create", Arity: -5, Flags: FlagWrite | FlagDenyOOM, Cats: "stream", KeyFlags: []string{"RW insert"}, Fn: streamDirty(cmdXgroup), FirstKey: 2, LastKey: 2, Step: 1},
			"setid":          &Command{Name: "setid", Arity: -5, Flags: FlagWrite, Cats: "stream", Fn: streamDirty(cmdXgroup), FirstKey: 2, LastKey: 2, Step: 1},
			"destroy":        &Command{Name: "destroy", Arity: 4, Flags: FlagWrite, Cats: "stream", KeyFlags: []string{"RW delete"}, Fn: streamDirty(cmdXgroup), FirstKey: 2, LastKey: 2, Step: 1},
			"createconsumer": &Command{Name: "createconsumer", Arity: 5, Flags: FlagWrite | FlagDenyOOM, Cats: "stream", KeyFlags: []string{"RW insert"}, Fn: streamDirty(cmdXgroup), FirstKey: 2, LastKey: 2, Step: 1},
			"delconsumer":    &Command{Name: "delconsumer", Arity: 5, Flags: FlagWrite, Cats: "stream", KeyFlags: []string{"RW delete"}, Fn: streamDirty(cmdXgroup), FirstKey: 2, LastKey: 2, Step: 1},
			"help":           {Name: "help", Arity: 2, Flags: FlagLoading | FlagStale, Cats: "stream", Fn: streamDirty(cmdXgroup)},
		}},
		&Command{Name: "xinfo", Arity: -2, Sub: map[string]*Command{
			"consumers": &Command{Name: "consumers", Arity: 4, Flags: FlagReadonly, Cats: "stream", Tips: "nondeterministic_output", Fn: cmdXinfo, FirstKey: 2, LastKey: 2, Step: 1},
			"groups":    &Command{Name: "groups", Arity: 3, Flags: FlagReadonly, Cats: "stream", Fn: cmdXinfo, FirstKey: 2, LastKey: 2, Step: 1},
			"stream":    &Command{Name: "stream", Arity: -3, Flags: FlagReadonly, Cats: "stream", Fn: cmdXinfo, FirstKey: 2, LastKey: 2, Step: 1},
			"help":      {Name: "help", Arity: 2, Flags: FlagLoading | FlagStale, Cats: "stream", Fn: cmdXinfo},
		}},
	)
}

// streamDirty runs a stream command counting server.dirty (INFO's rdb_changes_since_last_save)
// as t_stream.c does, instead of once per signalled key: XADD 1; XDEL and XTRIM one per entry
// removed; XACK one per entry acknowledged; XCLAIM and XAUTOCLAIM one per entry claimed or
// dropped from the PEL as deleted (XCLAIM's LASTID one more when nothing was claimed); every
// consumer created one (streamCreateConsumer); XGROUP CREATE, SETID, DESTROY and DELCONSUMER,
// and XSETID one when they change something; XREADGROUP one per stream it served (7.0) or whose
// group or PEL it changed (7.2+: propCount). The command adds its count with e.addDirty.
func streamDirty(fn func(e *Engine, args [][]byte) Reply) func(e *Engine, args [][]byte) Reply {
	return func(e *Engine, args [][]byte) Reply {
		st := e.cfg.stats
		d0, x0 := st.dirty, st.xdirty
		st.xdirty = 0
		r := fn(e, args)
		st.dirty = d0 + st.xdirty
		st.xdirty = x0
		return r
	}
}

func (e *Engine) addDirty(n int64) { e.cfg.stats.xdirty += n }

func errNoGroup(format string, a ...string) Reply {
	return Err(cleanErr("NOGROUP " + fmtArgs(format, a...)))
}

// fmtArgs replaces each %s of format by the next argument.
func fmtArgs(format string, a ...string) string {
	var b strings.Builder
	for _, s := range a {
		i := strings.Index(format, "%s")
		if i < 0 {
			break
		}
		b.WriteString(format[:i])
		b.WriteString(s)
		format = format[i+2:]
	}
	b.WriteString(format)
	return b.String()
}

// string2ull is Redis's util.c string2ull: string2ll (negative refused), else strtoull base 10
// (leading spaces, a sign, leading zeros; a '-' negates modulo 2^64; overflow fails).
func string2ull(b []byte) (uint64, bool) {
	if v, ok := string2ll(b); ok {
		if v < 0 {
			return 0, false
		}
		return uint64(v), true
	}
	if len(b) == 0 {
		return 0, false
	}
	i, neg := strtolStart(b)
	if i == len(b) {
		return 0, false
	}
	var v uint64
	for ; i < len(b); i++ {
		c := b[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		if v > (math.MaxUint64-uint64(c-'0'))/10 {
			return 0, false // ERANGE
		}
		v = v*10 + uint64(c-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}

// parseStreamID is streamGenericParseIDOrReply. strict refuses "-" and "+"; seqGiven (XADD) allows
// "ms-*" and reports whether the sequence was given.
func parseStreamID(b []byte, missingSeq uint64, strict bool, seqGiven *bool) (StreamID, bool) {
	if len(b) > 127 {
		return StreamID{}, false
	}
	if i := strings.IndexByte(string(b), 0); i >= 0 {
		b = b[:i] // the C code copies into a NUL-terminated buffer
	}
	if strict && len(b) == 1 && (b[0] == '-' || b[0] == '+') {
		return StreamID{}, false
	}
	if seqGiven != nil {
		*seqGiven = true
	}
	if len(b) == 1 && b[0] == '-' {
		return StreamID{}, true
	}
	if len(b) == 1 && b[0] == '+' {
		return maxStreamID, true
	}
	msPart, seqPart, dot := b, []byte(nil), false
	if i := strings.IndexByte(string(b), '-'); i >= 0 {
		msPart, seqPart, dot = b[:i], b[i+1:], true
	}
	ms, ok := string2ull(msPart)
	if !ok {
		return StreamID{}, false
	}
	seq := missingSeq
	if dot {
		if seqGiven != nil && len(seqPart) == 1 && seqPart[0] == '*' {
			seq = 0
			*seqGiven = false
		} else if seq, ok = string2ull(seqPart); !ok {
			return StreamID{}, false
		}
	}
	return StreamID{ms, seq}, true
}

// parseIntervalID is streamParseIntervalIDOrReply: "(" makes the bound exclusive (strict parse).
func parseIntervalID(b []byte, missingSeq uint64) (id StreamID, exclude, ok bool) {
	if len(b) > 1 && b[0] == '(' {
		id, ok = parseStreamID(b[1:], missingSeq, true, nil)
		return id, true, ok
	}
	id, ok = parseStreamID(b, missingSeq, false, nil)
	return id, false, ok
}

// entryReply is [id, [field, value, …]].
func entryReply(en *nodeEntry) Reply {
	fv := make([]Reply, len(en.fields))
	for i, f := range en.fields {
		fv[i] = Bulk(f)
	}
	return Array(BulkStr(en.id.String()), Reply{Kind: KindArray, Array: fv})
}

// ---- XADD / XTRIM ----

// parseAddTrim is streamParseAddOrTrimArgsOrReply; for XADD it returns the ID position.
func (e *Engine) parseAddTrim(args [][]byte, xadd bool) (a trimArgs, idpos int, id StreamID, idGiven, seqGiven, noMk bool, r *Reply) {
	fail := func(x Reply) (trimArgs, int, StreamID, bool, bool, bool, *Reply) {
		return a, -1, id, false, false, false, &x
	}
	limitGiven := false
	i := 2
	for ; i < len(args); i++ {
		more := len(args) - 1 - i
		opt := args[i]
		switch {
		case xadd && len(opt) == 1 && opt[0] == '*':
			goto done
		case (eqFold(opt, "maxlen") || eqFold(opt, "minid")) && more > 0:
			if a.strategy != 0 {
				return fail(errStreamBothTrim)
			}
			a.approx = false
			next := args[i+1]
			if more >= 2 && len(next) == 1 && next[0] == '~' {
				a.approx = true
				i++
			} else if more >= 2 && len(next) == 1 && next[0] == '=' {
				i++
			}
			if eqFold(opt, "maxlen") {
				n, ok := string2ll(args[i+1])
				if !ok {
					return fail(ErrNotInt)
				}
				if n < 0 {
					return fail(errStreamMaxlenNeg)
				}
				a.maxlen, a.strategy = n, 1
			} else {
				m, ok := parseStreamID(args[i+1], 0, true, nil)
				if !ok {
					return fail(errStreamID)
				}
				a.minid, a.strategy = m, 2
			}
			i++
			a.argIdx = i
		case eqFold(opt, "limit") && more > 0:
			n, ok := string2ll(args[i+1])
			if !ok {
				return fail(ErrNotInt)
			}
			if n < 0 {
				return fail(errStreamLimitNeg)
			}
			a.limit, limitGiven = n, true
			i++
		case xadd && eqFold(opt, "nomkstream"):
			noMk = true
		case xadd:
			var sg bool
			v, ok := parseStreamID(opt, 0, true, &sg)
			if !ok {
				return fail(errStreamID)
			}
			id, idGiven, seqGiven = v, true, sg
			goto done
		default:
			return fail(ErrSyntax)
		}
	}
done:
	if a.limit != 0 && a.strategy == 0 {
		return fail(errStreamLimitNoTr)
	}
	if !xadd && a.strategy == 0 {
		return fail(errStreamXtrimNoTr)
	}
	if limitGiven {
		if !a.approx {
			return fail(errStreamLimitExact)
		}
	} else if a.approx {
		a.limit = 100 * e.cfg.Int("stream-node-max-entries")
		if a.limit <= 0 {
			a.limit = 10000
		}
		if a.limit > 1000000 {
			a.limit = 1000000
		}
	} else {
		a.limit = 0
	}
	return a, i, id, idGiven, seqGiven, noMk, nil
}

// XADD key [NOMKSTREAM] [MAXLEN|MINID [=|~] threshold [LIMIT count]] *|id field value [field value …].
func cmdXadd(e *Engine, args [][]byte) Reply {
	a, idpos, id, idGiven, seqGiven, noMk, r := e.parseAddTrim(args, true)
	if r != nil {
		return *r
	}
	fieldPos := idpos + 1
	if n := len(args) - fieldPos; n < 2 || n%2 == 1 {
		return errArity("xadd")
	}
	if idGiven && seqGiven && id.isZero() {
		return errStreamIDZero
	}
	o, werr := e.lookupTyped(args[1], TypeStream)
	if werr != nil {
		return *werr
	}
	if o == nil {
		if noMk {
			return NilReply
		}
		o = e.newStreamObject()
		e.add(args[1], o)
	}
	s := stv(o)
	if s.lastID == maxStreamID {
		return errStreamExhausted
	}
	var use *StreamID
	if idGiven {
		use = &id
	}
	got, aerr := e.streamAppend(args[1], s, args[fieldPos:], use, seqGiven)
	switch aerr {
	case appendEDOM:
		return errStreamIDSmall
	case appendERANGE:
		return errStreamTooLarge
	}
	e.streamTrim(args[1], s, &a)
	e.signalModifiedBytes(e.db, args[1])
	e.signalReady(string(args[1]), TypeStream)
	e.addDirty(1)
	return BulkStr(got.String())
}

// XTRIM key MAXLEN|MINID [=|~] threshold [LIMIT count].
func cmdXtrim(e *Engine, args [][]byte) Reply {
	a, _, _, _, _, _, r := e.parseAddTrim(args, false)
	if r != nil {
		return *r
	}
	o, werr := e.lookupTyped(args[1], TypeStream)
	if o == nil {
		return orMissing(werr, Int(0))
	}
	n := e.streamTrim(args[1], stv(o), &a)
	if n > 0 {
		e.signalModifiedBytes(e.db, args[1])
	}
	e.addDirty(n)
	return Int(n)
}

func cmdXlen(e *Engine, args [][]byte) Reply {
	o, werr := e.lookupTyped(args[1], TypeStream)
	if o == nil {
		return orMissing(werr, Int(0))
	}
	return Int(int64(stv(o).length))
}

// XRANGE key start end [COUNT n] / XREVRANGE key end start [COUNT n].
func cmdXrange(e *Engine, args [][]byte) Reply {
	rev := len(args[0]) == 9
	sa, ea := args[2], args[3]
	if rev {
		sa, ea = ea, sa
	}
	start, sx, ok := parseIntervalID(sa, 0)
	if !ok {
		return errStreamID
	}
	if sx && !start.incr() {
		return errStreamStartIntvl
	}
	end, ex, ok := parseIntervalID(ea, math.MaxUint64)
	if !ok {
		return errStreamID
	}
	if ex && !end.decr() {
		return errStreamEndIntvl
	}
	count := int64(-1)
	for j := 4; j < len(args); j++ {
		if eqFold(args[j], "count") && j+1 < len(args) {
			n, ok := string2ll(args[j+1])
			if !ok {
				return ErrNotInt
			}
			count = max(n, 0)
			j++
		} else {
			return ErrSyntax
		}
	}
	o, werr := e.lookupTyped(args[1], TypeStream)
	if o == nil {
		return orMissing(werr, EmptyArr)
	}
	if count == 0 {
		return NilArray
	}
	out := []Reply{}
	stv(o).rangeEach(start, end, rev, func(en *nodeEntry) bool {
		out = append(out, entryReply(en))
		return count < 0 || int64(len(out)) < count
	})
	return Reply{Kind: KindArray, Array: out}
}

// ---- XREAD / XREADGROUP ----

// xreadBlock is where XREAD/XREADGROUP BLOCK goes when nothing can be served: the client waits
// (blocking.go) on the STREAMS keys, each with the ID an entry must be greater than (ids[i]; `$`
// already resolved to the stream's last ID at block time, 0-0 for a missing key; duplicates keep
// their first ID, as blockForKeys does). Inside MULTI or a script, and for the implicit client of
// Engine.Exec, it answers at once the timeout's nil array (CLIENT_DENY_BLOCKING).
//
// Serving a ready stream key is 7.0's serveClientsBlockedOnStreamKey (blocked.c):
//   - XREADGROUP first looks its group up again: a group destroyed meanwhile answers
//     "-NOGROUP the consumer group this client was blocked on no longer exists"; otherwise
//     the bound is the group's last-delivered ID now (another consumer may have moved it).
//   - the client is served when the stream's last ID (s->last_id, which may be an entry deleted
//     since, or set by XSETID) is past the bound: the entries after it, at most COUNT, as
//     [[key, entries]] — possibly an empty entry list. XREADGROUP creates its consumer then
//     and the entries enter the PEL (not with NOACK). Otherwise it keeps waiting.
//   - XREADGROUP clients are answered "-UNBLOCKED the stream key no longer exists" when the key
//     is deleted or replaced by another type (unblockDeletedStreamReadgroupClients); XREAD
//     clients keep waiting. From 7.2 the XREADGROUP is run again instead, so it answers the
//     NOGROUP "No such key …" or WRONGTYPE error of the command (blocking.go serveKeyAgain).
//
// A stream key is signalled (signalKeyAsReady) by XADD, XGROUP DESTROY, its creation (dbAdd:
// XGROUP CREATE MKSTREAM, RENAME, COPY…), and when a stream value goes away: DEL, expiry,
// overwrite, RENAME of its name, FLUSHDB/FLUSHALL and SWAPDB (db.c dbGenericDelete,
// dbOverwrite, scanDatabaseForDeletedStreams).
func (e *Engine) xreadBlock(args [][]byte, keys [][]byte, ids []StreamID, idArg int, timeoutMs, count int64, group, consumer []byte, noack bool) Reply {
	bound := map[string]StreamID{}
	for i, k := range keys {
		if _, ok := bound[string(k)]; !ok {
			bound[string(k)] = ids[i]
		}
	}
	group, consumer = bytes.Clone(group), bytes.Clone(consumer)
	sp := blockSpec{
		cmd: strings.ToLower(string(args[0])), kind: TypeStream, keys: keys,
		deadline: e.blockingDeadline(timeoutMs), deny: NilArray,
	}
	sp.serve = func(key []byte) (Reply, bool) {
		o := e.db.keys[string(key)]
		if o == nil || o.Type != TypeStream {
			return Reply{}, false
		}
		s := stv(o)
		gt := bound[string(key)]
		var g *streamCG
		if group != nil {
			if g = s.group(group); g == nil {
				return errStreamBlockedNoGroup, true
			}
			gt = g.lastID
		}
		if s.lastID.cmp(gt) <= 0 {
			return Reply{}, false
		}
		start := gt
		start.incr()
		var c *streamConsumer
		if g != nil {
			c = e.lookupOrCreateConsumer(key, g, consumer)
		}
		return MapOfPairs(Array(Bulk(key), e.replyRange(key, s, start, count, g, c, noack))), true
	}
	if group != nil {
		sp.gone = func(key []byte) (Reply, bool) { return errStreamBlockedGone, true }
	}
	// 7.2+ runs the command again when served; `$` must then mean the ID resolved now.
	for i := range keys {
		if string(args[idArg+i]) == "$" {
			if sp.args == nil {
				sp.args = copyArgv(args)
			}
			sp.args[idArg+i] = []byte(ids[i].String())
		}
	}
	return e.blockFor(sp)
}

// XREAD [COUNT n] [BLOCK ms] STREAMS key… id… / XREADGROUP GROUP g c [COUNT n] [BLOCK ms] [NOACK] STREAMS key… id….
func cmdXread(e *Engine, args [][]byte) Reply {
	xreadgroup := len(args[0]) == 10
	timeout := int64(-1)
	count := int64(0)
	streamsArg, nstreams := 0, 0
	noack := false
	var groupName, consumerName []byte
	for i := 1; i < len(args); i++ {
		more := len(args) - i - 1
		o := args[i]
		switch {
		case eqFold(o, "block") && more > 0:
			if e.InScript() && !e.ver.Has(V74) { // t_stream.c xreadCommand, until 7.4
				return Err(cleanErr("ERR " + string(args[0]) + " command is not allowed with BLOCK option from scripts"))
			}
			i++
			t, ok := string2ll(args[i])
			if !ok {
				return errStreamTimeoutInt
			}
			if t < 0 {
				return errTimeoutNegative
			}
			if t > 0 && e.ver.Has(V72) && t > math.MaxInt64-e.NowMs() {
				return errTimeoutRange
			}
			timeout = t
		case eqFold(o, "count") && more > 0:
			i++
			n, ok := string2ll(args[i])
			if !ok {
				return ErrNotInt
			}
			count = max(n, 0)
		case eqFold(o, "streams") && more > 0:
			streamsArg = i + 1
			nstreams = len(args) - streamsArg
			if nstreams%2 != 0 {
				if e.ver.Has(V72) {
					sym := "ID or '$'"
					if xreadgroup {
						sym = "ID or '>'"
					} else if e.ver.Has(V80) { // 8.0-m01's text; 7.4.1 still says "ID or '$'"
						sym = "ID, '+', or '$'"
					}
					return Err("ERR Unbalanced '" + strings.ToLower(string(args[0])) + "' list of streams: for each stream key an " + sym + " must be specified.")
				}
				return Err("ERR Unbalanced XREAD list of streams: for each stream key an ID or '$' must be specified.")
			}
			nstreams /= 2
			i = len(args)
		case eqFold(o, "group") && more >= 2:
			if !xreadgroup {
				return errStreamGroupOpt
			}
			groupName, consumerName = args[i+1], args[i+2]
			i += 2
		case eqFold(o, "noack"):
			if !xreadgroup {
				return errStreamNoackOpt
			}
			noack = true
		default:
			return ErrSyntax
		}
	}
	if streamsArg == 0 {
		return ErrSyntax
	}
	if xreadgroup && groupName == nil {
		return errStreamNoGroupOpt
	}
	keys := args[streamsArg : streamsArg+nstreams]
	ids := make([]StreamID, nstreams)
	groups := make([]*streamCG, nstreams)
	for k := 0; k < nstreams; k++ {
		key, arg := keys[k], args[streamsArg+nstreams+k]
		o, werr := e.lookupTyped(key, TypeStream)
		if werr != nil {
			return *werr
		}
		if groupName != nil {
			g := groupOf(o, groupName)
			if g == nil {
				return errNoGroup("No such key '%s' or consumer group '%s' in XREADGROUP with GROUP option", string(key), string(groupName))
			}
			groups[k] = g
		}
		switch {
		case string(arg) == "$":
			if xreadgroup {
				return errStreamDollarRG
			}
			if o != nil {
				ids[k] = stv(o).lastID
			}
			continue
		case string(arg) == "+" && e.ver.Has(V74):
			// 7.4: "+" reads the stream's last entry (its last ID minus one is the bound).
			if xreadgroup {
				return errStreamPlusRG
			}
			if o != nil {
				ids[k] = stv(o).lastID
				if !ids[k].decr() {
					return Err("ERR the stream last element ID is 0-0")
				}
			}
			continue
		case string(arg) == ">":
			if !xreadgroup {
				return errStreamGtXread
			}
			ids[k] = maxStreamID
			continue
		}
		id, ok := parseStreamID(arg, 0, true, nil)
		if !ok {
			return errStreamID
		}
		ids[k] = id
	}
	var out []Reply
	for k := 0; k < nstreams; k++ {
		o := e.Lookup(keys[k])
		if o == nil {
			continue
		}
		s := stv(o)
		gt := ids[k]
		sync, history := false, false
		var consumer *streamConsumer
		if groupName != nil {
			if gt != maxStreamID {
				sync, history = true, true
			} else if s.length > 0 {
				if s.lastValidID().cmp(groups[k].lastID) > 0 {
					sync = true
					gt = groups[k].lastID
				}
			}
			if e.ver.Has(V72) {
				consumer = e.lookupOrCreateConsumer(keys[k], groups[k], consumerName)
				consumer.seenTime = e.NowMs()
			}
		} else if s.length > 0 && s.lastValidID().cmp(gt) > 0 {
			sync = true
		}
		if !sync {
			continue
		}
		if groupName != nil && consumer == nil {
			consumer = e.lookupOrCreateConsumer(keys[k], groups[k], consumerName)
		}
		start := gt
		start.incr()
		var entries Reply
		if history {
			entries = e.replyFromConsumerPEL(s, start, count, groups[k], consumer)
		} else {
			entries = e.replyRange(keys[k], s, start, count, groups[k], consumer, noack)
		}
		if groupName != nil && (!e.ver.Has(V72) || !history && len(entries.Array) > 0) {
			e.addDirty(1) // 7.0: `if (groups) server.dirty++`; 7.2+: `if (propCount) server.dirty++`
		}
		out = append(out, Array(Bulk(keys[k]), entries))
	}
	if len(out) > 0 {
		return MapOfPairs(out...) // a map keyed by stream in RESP3
	}
	if timeout != -1 {
		return e.xreadBlock(args, keys, ids, streamsArg+nstreams, timeout, count, groupName, consumerName, noack)
	}
	return NilArray
}

// replyRange is streamReplyWithRange from start to the end, delivering to a group's consumer
// (moving the group's last ID, creating or re-assigning NACKs) when g is set.
func (e *Engine) replyRange(key []byte, s *streamValue, start StreamID, count int64, g *streamCG, c *streamConsumer, noack bool) Reply {
	out := []Reply{}
	now := e.NowMs()
	s.rangeEach(start, maxStreamID, false, func(en *nodeEntry) bool {
		if g != nil && en.id.cmp(g.lastID) > 0 {
			if g.entriesRead != -1 && !s.rangeHasTombstones(en.id, nil) {
				g.entriesRead++
			} else if s.entriesAdded != 0 {
				g.entriesRead = s.estimateDistance(en.id)
			}
			g.lastID = en.id
		}
		out = append(out, entryReply(en))
		if g != nil && !noack {
			n, exists := g.nacks[en.id]
			if !exists {
				n = &streamNACK{deliveryTime: now, deliveryCount: 1, consumer: c}
				g.nacks[en.id] = n
				g.pel.insert(en.id)
				c.pel.insert(en.id)
			} else {
				if n.consumer != nil {
					n.consumer.pel.remove(en.id)
				}
				n.consumer, n.deliveryTime, n.deliveryCount = c, now, 1
				c.pel.insert(en.id)
			}
			c.activeTime = now
			e.emit(StreamEvent{Key: string(key), Action: "delivered", ID: en.id.String(), Group: g.name, Consumer: c.name, Count: 1})
		}
		return count == 0 || int64(len(out)) < count
	})
	return Reply{Kind: KindArray, Array: out}
}

// replyFromConsumerPEL is streamReplyWithRangeFromConsumerPEL: the consumer's pending entries
// from start; an entry deleted since answers [id, nil].
func (e *Engine) replyFromConsumerPEL(s *streamValue, start StreamID, count int64, g *streamCG, c *streamConsumer) Reply {
	out := []Reply{}
	for i := c.pel.search(start); i < len(c.pel) && (count == 0 || int64(len(out)) < count); i++ {
		id := c.pel[i]
		if en, ok := s.lookupEntry(id); ok {
			out = append(out, entryReply(en))
			n := g.nacks[id]
			n.deliveryTime = e.NowMs()
			n.deliveryCount++
		} else {
			out = append(out, Array(BulkStr(id.String()), NilArray))
		}
	}
	return Reply{Kind: KindArray, Array: out}
}

// ---- XGROUP ----

var xgroupHelp = helpLines("XGROUP")

func cmdXgroup(e *Engine, args [][]byte) Reply {
	opt := args[1]
	var s *streamValue
	var o *Object
	var cg *streamCG
	mkstream := false
	entriesRead := int64(-1)
	create, setid := eqFold(opt, "create"), eqFold(opt, "setid")
	if len(args) >= 4 {
		for i := 5; i < len(args); {
			switch {
			case create && eqFold(args[i], "mkstream"):
				mkstream = true
				i++
			case (create || setid) && eqFold(args[i], "entriesread") && i+1 < len(args):
				n, ok := string2ll(args[i+1])
				if !ok {
					return ErrNotInt
				}
				if n < 0 && n != -1 {
					return errStreamEntriesRd
				}
				entriesRead = n
				i += 2
			default:
				return errSubcommandSyntax("XGROUP", opt)
			}
		}
		var werr *Reply
		o, werr = e.lookupTyped(args[2], TypeStream)
		if werr != nil {
			return *werr
		}
		if o != nil {
			s = stv(o)
		}
	}
	if len(args) >= 4 && !mkstream {
		if s == nil {
			return errStreamKeyMissing
		}
		if cg = s.group(args[3]); cg == nil && (setid || eqFold(opt, "createconsumer") || eqFold(opt, "delconsumer")) {
			return errNoGroup("No such consumer group '%s' for key name '%s'", string(args[3]), string(args[2]))
		}
	}
	key := args[1]
	if len(args) > 2 {
		key = args[2]
	}
	switch {
	case len(args) == 2 && eqFold(opt, "help"):
		return helpReply(xgroupHelp)(e, args)
	case create && len(args) >= 5 && len(args) <= 8:
		var id StreamID
		if string(args[4]) == "$" {
			if s != nil {
				id = s.lastID
			}
		} else {
			var ok bool
			if id, ok = parseStreamID(args[4], 0, true, nil); !ok {
				return errStreamID
			}
		}
		if s == nil {
			o = e.newStreamObject()
			e.add(args[2], o)
			s = stv(o)
		}
		if s.createGroup(args[3], id, entriesRead) == nil {
			return errStreamBusyGroup
		}
		e.emit(StreamEvent{Key: string(key), Action: "group-created", Group: string(args[3]), ID: id.String()})
		e.addDirty(1)
		return OK
	case setid && (len(args) == 5 || len(args) == 7):
		var id StreamID
		if string(args[4]) == "$" {
			id = s.lastID
		} else {
			var ok bool
			if id, ok = parseStreamID(args[4], 0, false, nil); !ok {
				return errStreamID
			}
		}
		cg.lastID, cg.entriesRead = id, entriesRead
		e.emit(StreamEvent{Key: string(key), Action: "group-setid", Group: cg.name, ID: id.String()})
		e.addDirty(1)
		return OK
	case eqFold(opt, "destroy") && len(args) == 4:
		if cg == nil {
			return Int(0)
		}
		s.destroyGroup(args[3])
		e.emit(StreamEvent{Key: string(key), Action: "group-destroyed", Group: cg.name})
		e.signalReady(string(key), TypeStream) // its blocked XREADGROUP clients hear NOGROUP
		e.addDirty(1)
		return Int(1)
	case eqFold(opt, "createconsumer") && len(args) == 5:
		if e.createConsumer(key, cg, args[4]) == nil {
			return Int(0)
		}
		return Int(1)
	case eqFold(opt, "delconsumer") && len(args) == 5:
		c := e.lookupConsumer(cg, args[4], true)
		if c == nil {
			return Int(0)
		}
		n := int64(len(c.pel))
		cg.delConsumer(c)
		e.emit(StreamEvent{Key: string(key), Action: "consumer-deleted", Group: cg.name, Consumer: c.name, Count: n})
		e.addDirty(1)
		return Int(n)
	}
	return errSubcommandSyntax("XGROUP", opt)
}

// XSETID key last-id [ENTRIESADDED n] [MAXDELETEDID id].
func cmdXsetid(e *Engine, args [][]byte) Reply {
	id, ok := parseStreamID(args[2], 0, true, nil)
	if !ok {
		return errStreamID
	}
	var maxDel StreamID
	entriesAdded := int64(-1)
	for i := 3; i < len(args); i += 2 {
		more := len(args) - 1 - i
		switch {
		case eqFold(args[i], "entriesadded") && more > 0:
			n, ok := string2ll(args[i+1])
			if !ok {
				return ErrNotInt
			}
			if n < 0 {
				return Err("ERR entries_added must be positive")
			}
			entriesAdded = n
		case eqFold(args[i], "maxdeletedid") && more > 0:
			m, ok := parseStreamID(args[i+1], 0, true, nil)
			if !ok {
				return errStreamID
			}
			if id.cmp(m) < 0 {
				return Err("ERR The ID specified in XSETID is smaller than the provided max_deleted_entry_id")
			}
			maxDel = m
		default:
			return ErrSyntax
		}
	}
	o, werr := e.lookupTyped(args[1], TypeStream)
	if o == nil {
		return orMissing(werr, ErrNoSuchKey)
	}
	s := stv(o)
	if s.length > 0 {
		if id.cmp(s.lastValidID()) < 0 {
			return Err("ERR The ID specified in XSETID is smaller than the target stream top item")
		}
		if entriesAdded != -1 && s.length > uint64(entriesAdded) {
			return Err("ERR The entries_added specified in XSETID is smaller than the target stream length")
		}
	}
	if e.ver.Has(V72) && id.cmp(s.maxDeletedID) < 0 {
		return Err("ERR The ID specified in XSETID is smaller than current max_deleted_entry_id")
	}
	s.lastID = id
	if entriesAdded != -1 {
		s.entriesAdded = uint64(entriesAdded)
	}
	if !maxDel.isZero() {
		s.maxDeletedID = maxDel
	}
	e.addDirty(1)
	return OK
}

// ---- XACK / XPENDING / XCLAIM / XAUTOCLAIM ----

// groupOf is the consumer group name of stream o: nil when o is nil or has no such group.
func groupOf(o *Object, name []byte) *streamCG {
	if o == nil {
		return nil
	}
	return stv(o).group(name)
}

// lookupGroup is a stream key with one of its consumer groups, as XPENDING and XCLAIM need
// them: WRONGTYPE for another type, NOGROUP when the key or the group is missing.
func (e *Engine) lookupGroup(key, group []byte) (*Object, *streamCG, *Reply) {
	o, werr := e.lookupTyped(key, TypeStream)
	if werr != nil {
		return nil, nil, werr
	}
	g := groupOf(o, group)
	if g == nil {
		r := errNoKeyOrGroup(key, group)
		return nil, nil, &r
	}
	return o, g, nil
}

// errNoKeyOrGroup is the NOGROUP error of XPENDING, XCLAIM, XAUTOCLAIM and XACKDEL.
func errNoKeyOrGroup(key, group []byte) Reply {
	return errNoGroup("No such key '%s' or consumer group '%s'", string(key), string(group))
}

func cmdXack(e *Engine, args [][]byte) Reply {
	o, werr := e.lookupTyped(args[1], TypeStream)
	if werr != nil {
		return *werr
	}
	g := groupOf(o, args[2])
	if g == nil {
		return Int(0)
	}
	ids, ok := strictIDs(args[3:])
	if !ok {
		return errStreamID
	}
	n := int64(0)
	for _, id := range ids {
		if g.ack(id) {
			n++
			e.emit(StreamEvent{Key: string(args[1]), Action: "acked", ID: id.String(), Group: g.name})
		}
	}
	e.addDirty(n)
	return Int(n)
}

// XPENDING key group [[IDLE min-idle] start end count [consumer]].
func cmdXpending(e *Engine, args [][]byte) Reply {
	justinfo := len(args) == 3
	if len(args) != 3 && (len(args) < 6 || len(args) > 9) {
		return ErrSyntax
	}
	var start, end StreamID
	var count, minidle int64
	var consumerName []byte
	if len(args) >= 6 {
		si := 3
		if eqFold(args[3], "idle") {
			n, ok := string2ll(args[4])
			if !ok {
				return ErrNotInt
			}
			minidle = n
			if len(args) < 8 {
				return ErrSyntax
			}
			si += 2
		}
		n, ok := string2ll(args[si+2])
		if !ok {
			return ErrNotInt
		}
		count = max(n, 0)
		var sx, ex bool
		if start, sx, ok = parseIntervalID(args[si], 0); !ok {
			return errStreamID
		}
		if sx && !start.incr() {
			return errStreamStartIntvl
		}
		if end, ex, ok = parseIntervalID(args[si+1], math.MaxUint64); !ok {
			return errStreamID
		}
		if ex && !end.decr() {
			return errStreamEndIntvl
		}
		if si+3 < len(args) {
			consumerName = args[si+3]
		}
	}
	_, g, r := e.lookupGroup(args[1], args[2])
	if r != nil {
		return *r
	}
	if justinfo {
		if len(g.pel) == 0 {
			return Array(Int(0), NilReply, NilReply, NilArray)
		}
		cs := []Reply{}
		for _, c := range g.consumers {
			if len(c.pel) > 0 {
				cs = append(cs, Array(BulkStr(c.name), bulkInt(int64(len(c.pel)))))
			}
		}
		return Array(Int(int64(len(g.pel))), BulkStr(g.pel[0].String()), BulkStr(g.pel[len(g.pel)-1].String()), Reply{Kind: KindArray, Array: cs})
	}
	pel := g.pel
	if consumerName != nil {
		c := e.lookupConsumer(g, consumerName, true)
		if c == nil {
			return EmptyArr
		}
		pel = c.pel
	}
	now := e.NowMs()
	out := []Reply{}
	for i := pel.search(start); count > 0 && i < len(pel) && pel[i].cmp(end) <= 0; i++ {
		n := g.nacks[pel[i]]
		if minidle != 0 && now-n.deliveryTime < minidle {
			continue
		}
		count--
		idle := max(now-n.deliveryTime, 0)
		out = append(out, Array(BulkStr(pel[i].String()), BulkStr(n.consumer.name), Int(idle), Int(int64(n.deliveryCount))))
	}
	return Reply{Kind: KindArray, Array: out}
}

// claimTo moves a NACK to consumer c (XCLAIM / XAUTOCLAIM).
func (g *streamCG) claimTo(id StreamID, n *streamNACK, c *streamConsumer) {
	if n.consumer != c {
		if n.consumer != nil {
			n.consumer.pel.remove(id)
		}
		c.pel.insert(id)
		n.consumer = c
	}
}

// XCLAIM key group consumer min-idle-time id… [IDLE ms] [TIME ms] [RETRYCOUNT n] [FORCE] [JUSTID] [LASTID id].
func cmdXclaim(e *Engine, args [][]byte) Reply {
	o, g, r := e.lookupGroup(args[1], args[2])
	if r != nil {
		return *r
	}
	s := stv(o)
	minidle, ok := string2ll(args[4])
	if !ok {
		return Err("ERR Invalid min-idle-time argument for XCLAIM")
	}
	minidle = max(minidle, 0)
	var ids []StreamID
	j := 5
	for ; j < len(args); j++ {
		id, ok := parseStreamID(args[j], 0, true, nil)
		if !ok {
			break
		}
		ids = append(ids, id)
	}
	now := e.NowMs()
	retry, delivery := int64(-1), int64(-1)
	force, justid := false, false
	var lastID StreamID
	for ; j < len(args); j++ {
		more := len(args) - 1 - j
		opt := args[j]
		switch {
		case eqFold(opt, "force"):
			force = true
		case eqFold(opt, "justid"):
			justid = true
		case (eqFold(opt, "idle") || eqFold(opt, "time") || eqFold(opt, "retrycount")) && more > 0:
			// IDLE ms, TIME unix-ms and RETRYCOUNT n: an integer each, else
			// "Invalid IDLE option argument for XCLAIM" naming the option (upper case, as Redis).
			j++
			n, ok := string2ll(args[j])
			if !ok {
				return Err("ERR Invalid " + strings.ToUpper(string(opt)) + " option argument for XCLAIM")
			}
			switch {
			case eqFold(opt, "idle"):
				delivery = now - n
			case eqFold(opt, "time"):
				delivery = n
			default:
				retry = n
			}
		case eqFold(opt, "lastid") && more > 0:
			j++
			id, ok := parseStreamID(args[j], 0, true, nil)
			if !ok {
				return errStreamID
			}
			lastID = id
		default:
			return Err(cleanErr("ERR Unrecognized XCLAIM option '" + string(opt) + "'"))
		}
	}
	lastMoved := lastID.cmp(g.lastID) > 0
	if lastMoved {
		g.lastID = lastID
	}
	if delivery != -1 {
		if delivery < 0 || delivery > now {
			delivery = now
		}
	} else {
		delivery = now
	}
	cl := e.newStreamClaim(args[1], g, args[3], now, "claimed")
	cl.delivery, cl.retry, cl.justid = delivery, retry, justid
	out := []Reply{}
	for _, id := range ids {
		n, has := g.nacks[id]
		en, exists := s.lookupEntry(id)
		if !exists {
			if has {
				e.ackGone(args[1], g, id)
			}
			continue
		}
		if force && !has {
			n = &streamNACK{deliveryTime: now, deliveryCount: 1}
			g.nacks[id] = n
			g.pel.insert(id)
			has = true
		}
		if !has {
			continue
		}
		if n.consumer != nil && minidle != 0 && now-n.deliveryTime < minidle {
			continue
		}
		out = append(out, e.claim(cl, id, n, en))
		lastMoved = false // (propagated with the XCLAIM)
	}
	if lastMoved {
		e.addDirty(1)
	}
	return Reply{Kind: KindArray, Array: out}
}

// streamClaim is what XCLAIM and XAUTOCLAIM share (t_stream.c, xclaimCommand and
// xautoclaimCommand): the group, the claiming consumer (7.2+ creates it up front and marks it
// seen; 7.0 creates it at the first entry it claims) and how a claimed entry's delivery is set.
type streamClaim struct {
	key      []byte
	g        *streamCG
	name     []byte          // the claiming consumer's name
	c        *streamConsumer // nil until created
	now      int64
	delivery int64 // the delivery time a claimed entry gets (XCLAIM IDLE or TIME, else now)
	retry    int64 // XCLAIM RETRYCOUNT, or -1
	justid   bool
	reason   string // the "delivered" event's Reason
}

func (e *Engine) newStreamClaim(key []byte, g *streamCG, name []byte, now int64, reason string) *streamClaim {
	cl := &streamClaim{key: key, g: g, name: name, now: now, delivery: now, retry: -1, reason: reason}
	if e.ver.Has(V72) {
		cl.c = e.lookupOrCreateConsumer(key, g, name)
		cl.c.seenTime = now
	}
	return cl
}

// claim moves the pending entry id (its NACK n, its entry en) to the claiming consumer: out of
// the previous owner's PEL into the claimer's, with the new delivery time and count (RETRYCOUNT,
// or one more unless JUSTID). It returns the entry's reply element.
func (e *Engine) claim(cl *streamClaim, id StreamID, n *streamNACK, en *nodeEntry) Reply {
	if cl.c == nil {
		cl.c = e.lookupOrCreateConsumer(cl.key, cl.g, cl.name)
	}
	c := cl.c
	if n.consumer != c && n.consumer != nil {
		n.consumer.pel.remove(id)
	}
	n.deliveryTime = cl.delivery
	if cl.retry >= 0 {
		n.deliveryCount = uint64(cl.retry)
	} else if !cl.justid {
		n.deliveryCount++
	}
	if n.consumer != c {
		c.pel.insert(id)
		n.consumer = c
	}
	c.activeTime = cl.now
	e.addDirty(1)
	e.emit(StreamEvent{Key: string(cl.key), Action: "delivered", ID: id.String(), Group: cl.g.name, Consumer: c.name, Count: int64(n.deliveryCount), Reason: cl.reason})
	if cl.justid {
		return BulkStr(id.String())
	}
	return entryReply(en)
}

// ackGone drops from g's PEL an ID whose entry was deleted (XCLAIM and XAUTOCLAIM meet them).
func (e *Engine) ackGone(key []byte, g *streamCG, id StreamID) {
	g.ack(id)
	e.addDirty(1)
	e.emit(StreamEvent{Key: string(key), Action: "acked", ID: id.String(), Group: g.name, Reason: "entry no longer exists"})
}

// autoclaimMaxCount is the largest XAUTOCLAIM COUNT whose transient ID array (16 bytes each) the
// reference server could allocate: 40 TiB / 16.
const autoclaimMaxCount = 40 << 40 / 16

// XAUTOCLAIM key group consumer min-idle-time start [COUNT count] [JUSTID].
func cmdXautoclaim(e *Engine, args [][]byte) Reply {
	o, werr := e.lookupTyped(args[1], TypeStream)
	minidle, ok := string2ll(args[4])
	if !ok {
		return Err("ERR Invalid min-idle-time argument for XAUTOCLAIM")
	}
	minidle = max(minidle, 0)
	start, sx, ok := parseIntervalID(args[5], 0)
	if !ok {
		return errStreamID
	}
	if sx && !start.incr() {
		return errStreamStartIntvl
	}
	count := int64(100)
	justid := false
	for j := 6; j < len(args); j++ {
		more := len(args) - 1 - j
		switch {
		case eqFold(args[j], "count") && more > 0:
			n, ok := string2ll(args[j+1])
			if !ok || n < 1 || n > math.MaxInt64/16 {
				return Err("ERR COUNT must be > 0")
			}
			count = n
			j++
		case eqFold(args[j], "justid"):
			justid = true
		default:
			return ErrSyntax
		}
	}
	if werr != nil {
		return *werr
	}
	g := groupOf(o, args[2])
	if g == nil {
		return errNoKeyOrGroup(args[1], args[2])
	}
	// Redis allocates COUNT stream IDs up front (ztrymalloc of 16·COUNT bytes) for the deleted
	// IDs it may report. The engine allocates nothing in advance but fails where that allocation
	// fails: measured on Debian's redis-server 7.0.15 (x86-64, jemalloc), 16·COUNT up to 40 TiB
	// succeeds and anything larger does not.
	if count > autoclaimMaxCount {
		return Err("ERR Insufficient memory, failed allocating transient memory, COUNT too high.")
	}
	s := stv(o)
	now := e.NowMs()
	cl := e.newStreamClaim(args[1], g, args[3], now, "autoclaimed")
	cl.justid = justid
	attempts := count * 10
	if count > math.MaxInt64/10 {
		attempts = math.MaxInt64
	}
	claimed := []Reply{}
	deleted := []Reply{}
	i := g.pel.search(start)
	for ; attempts > 0 && count > 0 && i < len(g.pel); i++ {
		attempts--
		id := g.pel[i]
		n := g.nacks[id]
		en, exists := s.lookupEntry(id)
		if !exists {
			e.ackGone(args[1], g, id)
			deleted = append(deleted, BulkStr(id.String()))
			count--
			i-- // the next PEL entry moved into position i
			continue
		}
		if minidle != 0 && now-n.deliveryTime < minidle {
			continue
		}
		claimed = append(claimed, e.claim(cl, id, n, en))
		count--
	}
	next := StreamID{}
	if i < len(g.pel) {
		next = g.pel[i]
	}
	return Array(BulkStr(next.String()), Reply{Kind: KindArray, Array: claimed}, Reply{Kind: KindArray, Array: deleted})
}

// ---- XDEL ----

func cmdXdel(e *Engine, args [][]byte) Reply {
	o, werr := e.lookupTyped(args[1], TypeStream)
	if o == nil {
		return orMissing(werr, Int(0))
	}
	s := stv(o)
	ids, ok := strictIDs(args[2:])
	if !ok {
		return errStreamID
	}
	n, first := int64(0), false
	for _, id := range ids {
		if ok, wasFirst := e.xdelEntry(args[1], s, id); ok {
			first = first || wasFirst
			n++
		}
	}
	e.addDirty(n)
	if n > 0 {
		e.signalModifiedBytes(e.db, args[1])
		s.updateFirstID(first)
	}
	return Int(n)
}

// xdelEntry deletes entry id of s (streamDelete) as XDEL and XDELEX do: an id above
// max-deleted-entry-id becomes it. ok says whether there was such an entry to delete, wasFirst
// whether it was the stream's first (whose first-entry id updateFirstID then moves).
func (e *Engine) xdelEntry(key []byte, s *streamValue, id StreamID) (ok, wasFirst bool) {
	if !e.streamDelete(key, s, id) {
		return false, false
	}
	if id.cmp(s.maxDeletedID) > 0 {
		s.maxDeletedID = id
	}
	return true, id == s.firstID
}

// ---- XDELEX / XACKDEL (8.2) ----
//
// XDELEX key [KEEPREF|DELREF|ACKED] IDS numids id… and XACKDEL key group [KEEPREF|DELREF|ACKED]
// IDS numids id… answer one integer per ID: -1 no such entry, 1 deleted, 2 kept because a
// consumer group still refers to it (ACKED). KEEPREF (the default) deletes the entry and leaves
// every PEL as it is; DELREF also drops the ID from every group's PEL (even when the entry is
// already gone); ACKED deletes only entries that every group has been delivered and has
// acknowledged. XACKDEL first acknowledges the ID in its group. No 8.2 server was available:
// this follows the command documentation, and the two argument-count error texts (errors.go) are
// the engine's own wording.

// referenced reports whether some group still needs entry id: pending in its PEL, or not yet
// delivered to it.
func (s *streamValue) referenced(id StreamID) bool {
	for _, g := range s.groups {
		if _, ok := g.nacks[id]; ok || g.lastID.cmp(id) < 0 {
			return true
		}
	}
	return false
}

func cmdXdelex(e *Engine, args [][]byte) Reply {
	ackdel := eqFold(args[0], "xackdel")
	i := 2
	if ackdel {
		i = 3
	}
	policy := "keepref"
	if i < len(args) && (eqFold(args[i], "keepref") || eqFold(args[i], "delref") || eqFold(args[i], "acked")) {
		policy = string(bytes.ToLower(args[i]))
		i++
	}
	if i+1 >= len(args) || !eqFold(args[i], "ids") {
		return ErrSyntax
	}
	n, ok := string2ll(args[i+1])
	if !ok || n <= 0 {
		return errStreamNumIDs
	}
	if n != int64(len(args)-i-2) {
		return errStreamNumIDsMatch
	}
	ids, ok := strictIDs(args[i+2:])
	if !ok {
		return errStreamID
	}
	o, werr := e.lookupTyped(args[1], TypeStream)
	if werr != nil {
		return *werr
	}
	out := make([]Reply, len(ids))
	if o == nil {
		for k := range out {
			out[k] = Int(-1)
		}
		return Reply{Kind: KindArray, Array: out}
	}
	s := stv(o)
	var g *streamCG
	if ackdel {
		if g = s.group(args[2]); g == nil {
			return errNoKeyOrGroup(args[1], args[2])
		}
	}
	deleted, first := 0, false
	for k, id := range ids {
		if g != nil && g.ack(id) {
			e.emit(StreamEvent{Key: string(args[1]), Action: "acked", ID: id.String(), Group: g.name})
		}
		_, exists := s.lookupEntry(id)
		if policy == "delref" {
			for _, gr := range s.groups {
				gr.ack(id)
			}
		}
		switch {
		case !exists:
			out[k] = Int(-1)
		case policy == "acked" && s.referenced(id):
			out[k] = Int(2)
		default:
			_, wasFirst := e.xdelEntry(args[1], s, id)
			first = first || wasFirst
			deleted++
			out[k] = Int(1)
		}
	}
	if deleted > 0 {
		e.signalModifiedBytes(e.db, args[1])
		s.updateFirstID(first)
	}
	return Reply{Kind: KindArray, Array: out}
}

// ---- XINFO ----

var xinfoHelp = helpLines("XINFO")

func entriesReadReply(g *streamCG) Reply {
	if g.entriesRead == -1 {
		return NilReply
	}
	return Int(g.entriesRead)
}

func cmdXinfo(e *Engine, args [][]byte) Reply {
	opt := args[1]
	if eqFold(opt, "help") {
		if len(args) != 2 {
			return errSubcommandSyntax("XINFO", opt)
		}
		return helpReply(xinfoHelp)(e, args)
	}
	if len(args) < 3 {
		return errSubcommandSyntax("XINFO", opt)
	}
	o, werr := e.lookupTyped(args[2], TypeStream)
	if o == nil {
		return orMissing(werr, ErrNoSuchKey)
	}
	s := stv(o)
	now := e.NowMs()
	switch {
	case eqFold(opt, "consumers") && len(args) == 4:
		g := s.group(args[3])
		if g == nil {
			return errNoGroup("No such consumer group '%s' for key name '%s'", string(args[3]), string(args[2]))
		}
		out := []Reply{}
		for _, c := range g.consumers {
			r := []Reply{BulkStr("name"), BulkStr(c.name), BulkStr("pending"), Int(int64(len(c.pel))), BulkStr("idle"), Int(max(now-c.seenTime, 0))}
			if e.ver.Has(V72) {
				inactive := int64(-1)
				if c.activeTime != -1 {
					inactive = now - c.activeTime
				}
				r = append(r, BulkStr("inactive"), Int(inactive))
			}
			out = append(out, Map(r...))
		}
		return Reply{Kind: KindArray, Array: out}
	case eqFold(opt, "groups") && len(args) == 3:
		out := []Reply{}
		for _, g := range s.groups {
			out = append(out, Map(BulkStr("name"), BulkStr(g.name), BulkStr("consumers"), Int(int64(len(g.consumers))),
				BulkStr("pending"), Int(int64(len(g.pel))), BulkStr("last-delivered-id"), BulkStr(g.lastID.String()),
				BulkStr("entries-read"), entriesReadReply(g), BulkStr("lag"), s.lag(g)))
		}
		return Reply{Kind: KindArray, Array: out}
	case eqFold(opt, "stream"):
		return e.xinfoStream(s, args)
	}
	return errSubcommandSyntax("XINFO", opt)
}

func (e *Engine) xinfoStream(s *streamValue, args [][]byte) Reply {
	full, count := true, int64(10)
	optv := args[3:]
	if len(optv) == 0 {
		full = false
	} else {
		if len(optv) != 1 && len(optv) != 3 {
			return errSubcommandSyntax("XINFO", args[1])
		}
		if !eqFold(optv[0], "full") {
			return errSubcommandSyntax("XINFO", args[1])
		}
		if len(optv) == 3 {
			if !eqFold(optv[1], "count") {
				return errSubcommandSyntax("XINFO", args[1])
			}
			n, ok := string2ll(optv[2])
			if !ok {
				return ErrNotInt
			}
			if n < 0 {
				n = 10
			}
			count = n
		}
	}
	r := []Reply{
		BulkStr("length"), Int(int64(s.length)),
		BulkStr("radix-tree-keys"), Int(int64(len(s.nodes))),
		BulkStr("radix-tree-nodes"), Int(int64(s.raxNodes())),
		BulkStr("last-generated-id"), BulkStr(s.lastID.String()),
		BulkStr("max-deleted-entry-id"), BulkStr(s.maxDeletedID.String()),
		BulkStr("entries-added"), Int(int64(s.entriesAdded)),
		BulkStr("recorded-first-entry-id"), BulkStr(s.firstID.String()),
	}
	if !full {
		first, last := NilReply, NilReply
		s.rangeEach(StreamID{}, maxStreamID, false, func(en *nodeEntry) bool { first = entryReply(en); return false })
		s.rangeEach(StreamID{}, maxStreamID, true, func(en *nodeEntry) bool { last = entryReply(en); return false })
		r = append(r, BulkStr("groups"), Int(int64(len(s.groups))), BulkStr("first-entry"), first, BulkStr("last-entry"), last)
		return Map(r...)
	}
	entries := []Reply{}
	s.rangeEach(StreamID{}, maxStreamID, false, func(en *nodeEntry) bool {
		entries = append(entries, entryReply(en))
		return count == 0 || int64(len(entries)) < count
	})
	groups := []Reply{}
	for _, g := range s.groups {
		pending := fullPEL(g, g.pel, count, true)
		consumers := []Reply{}
		for _, c := range g.consumers {
			cp := fullPEL(g, c.pel, count, false)
			cr := []Reply{BulkStr("name"), BulkStr(c.name), BulkStr("seen-time"), Int(c.seenTime)}
			if e.ver.Has(V72) {
				cr = append(cr, BulkStr("active-time"), Int(c.activeTime))
			}
			cr = append(cr, BulkStr("pel-count"), Int(int64(len(c.pel))), BulkStr("pending"), Reply{Kind: KindArray, Array: cp})
			consumers = append(consumers, Map(cr...))
		}
		groups = append(groups, Map(BulkStr("name"), BulkStr(g.name), BulkStr("last-delivered-id"), BulkStr(g.lastID.String()),
			BulkStr("entries-read"), entriesReadReply(g), BulkStr("lag"), s.lag(g), BulkStr("pel-count"), Int(int64(len(g.pel))),
			BulkStr("pending"), Reply{Kind: KindArray, Array: pending}, BulkStr("consumers"), Reply{Kind: KindArray, Array: consumers}))
	}
	r = append(r, BulkStr("entries"), Reply{Kind: KindArray, Array: entries}, BulkStr("groups"), Reply{Kind: KindArray, Array: groups})
	return Map(r...)
}

// strictIDs parses every argument as a stream ID (streamParseStrictIDOrReply: "-" and "+" are
// refused), all before the command acts on any, as XACK, XDEL and XDELEX do; ok is false at the
// first that is not one.
func strictIDs(args [][]byte) (ids []StreamID, ok bool) {
	ids = make([]StreamID, 0, len(args))
	for _, a := range args {
		id, ok := parseStreamID(a, 0, true, nil)
		if !ok {
			return nil, false
		}
		ids = append(ids, id)
	}
	return ids, true
}

// fullPEL is XINFO STREAM FULL's list of the pending entries ids of group g, the first count of
// them (all for 0): each its id, the owning consumer's name when owner (the group's own list; a
// consumer's list leaves it out), the last delivery time and the delivery count.
func fullPEL(g *streamCG, ids []StreamID, count int64, owner bool) []Reply {
	out := []Reply{}
	for _, id := range ids {
		if count != 0 && int64(len(out)) >= count {
			break
		}
		n := g.nacks[id]
		entry := []Reply{BulkStr(id.String())}
		if owner {
			entry = append(entry, BulkStr(n.consumer.name))
		}
		out = append(out, Array(append(entry, Int(n.deliveryTime), Int(int64(n.deliveryCount)))...))
	}
	return out
}
