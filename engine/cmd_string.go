package engine

import (
	"bytes"
	"math"
	"math/big"
	"strconv"

	"github.com/zeebo/xxh3"
)

// String and counter commands (t_string.c): GET SET SETNX SETEX PSETEX GETSET GETDEL GETEX MGET
// MSET MSETNX APPEND STRLEN GETRANGE SUBSTR SETRANGE INCR DECR INCRBY DECRBY INCRBYFLOAT, and the
// newer MSETEX, DELEX, DIGEST (8.4) and INCREX (8.8). Replies, error texts and the order in
// which arguments are checked follow 7.0.15 (docs/internals.md §Strings, §TTL, §Counters); version
// differences are gated on the profile.

func init() {
	const w, r, f, d = FlagWrite, FlagReadonly, FlagFast, FlagDenyOOM
	register(
		&Command{Name: "get", Arity: 2, Flags: r | f, Cats: "string", Fn: cmdGet},
		&Command{Name: "set", Arity: -3, Flags: w | d, Cats: "string", KeyFlags: []string{"RW access update variable_flags"}, KeyNotes: []string{"RW and ACCESS due to the optional `GET` argument"}, KeyFlagsFn: setKeyFlags, Fn: cmdSet},
		&Command{Name: "setnx", Arity: 3, Flags: w | d | f, Cats: "string", KeyFlags: []string{"OW insert"}, Fn: cmdSetnx},
		&Command{Name: "setex", Arity: 4, Flags: w | d, Cats: "string", KeyFlags: []string{"OW update"}, Fn: cmdSetex},
		&Command{Name: "psetex", Arity: 4, Flags: w | d, Cats: "string", KeyFlags: []string{"OW update"}, Fn: cmdPsetex},
		&Command{Name: "getset", Arity: 3, Flags: w | d | f, Cats: "string", KeyFlags: []string{"RW access update"}, Fn: cmdGetset},
		&Command{Name: "getdel", Arity: 2, Flags: w | f, Cats: "string", KeyFlags: []string{"RW access delete"}, Fn: cmdGetdel},
		&Command{Name: "getex", Arity: -2, Flags: w | f, Cats: "string", KeyFlags: []string{"RW access update"}, KeyNotes: []string{"RW and UPDATE because it changes the TTL"}, Fn: cmdGetex},
		&Command{Name: "mget", Arity: -2, Flags: r | f, FirstKey: 1, LastKey: -1, Step: 1, Cats: "string", Tips: "request_policy:multi_shard", Fn: cmdMget},
		&Command{Name: "mset", Arity: -3, Flags: w | d, FirstKey: 1, LastKey: -1, Step: 2, Cats: "string", Tips: "request_policy:multi_shard response_policy:all_succeeded", KeyFlags: []string{"OW update"}, Fn: cmdMset},
		&Command{Name: "msetnx", Arity: -3, Flags: w | d, FirstKey: 1, LastKey: -1, Step: 2, Cats: "string", Tips: "request_policy:multi_shard response_policy:agg_min", KeyFlags: []string{"OW insert"}, Fn: cmdMsetnx},
		&Command{Name: "append", Arity: 3, Flags: w | d | f, Cats: "string", KeyFlags: []string{"RW insert"}, Paged: true, Cost: appendCost, Fn: cmdAppend},
		&Command{Name: "strlen", Arity: 2, Flags: r | f, Cats: "string", KeyFlags: []string{"RO"}, Paged: true, Fn: cmdStrlen},
		&Command{Name: "getrange", Arity: 4, Flags: r, Cats: "string", Paged: true, Cost: getrangeCost, Fn: cmdGetrange},
		&Command{Name: "substr", Arity: 4, Flags: r, Cats: "string", Paged: true, Cost: getrangeCost, Fn: cmdGetrange},
		&Command{Name: "setrange", Arity: 4, Flags: w | d, Cats: "string", Paged: true, Cost: appendCost, Fn: cmdSetrange},
		&Command{Name: "incr", Arity: 2, Flags: w | d | f, Cats: "string", KeyFlags: []string{"RW access update"}, Fn: cmdIncr},
		&Command{Name: "decr", Arity: 2, Flags: w | d | f, Cats: "string", KeyFlags: []string{"RW access update"}, Fn: cmdDecr},
		&Command{Name: "incrby", Arity: 3, Flags: w | d | f, Cats: "string", KeyFlags: []string{"RW access update"}, Fn: cmdIncrby},
		&Command{Name: "decrby", Arity: 3, Flags: w | d | f, Cats: "string", KeyFlags: []string{"RW access update"}, Fn: cmdDecrby},
		&Command{Name: "incrbyfloat", Arity: 3, Flags: w | d | f, Cats: "string", KeyFlags: []string{"RW access update"}, Fn: cmdIncrbyfloat},
		&Command{Name: "msetex", Arity: -4, Flags: w | d, Since: V84, Cats: "string", KeyNum: KeyNum{1, 1, 2}, Fn: cmdMsetex},
		&Command{Name: "delex", Arity: -2, Flags: w | f, Since: V84, Cats: "string", Fn: cmdDelex},
		&Command{Name: "digest", Arity: 2, Flags: r | f, Since: V84, Cats: "string", Fn: cmdDigest},
		&Command{Name: "increx", Arity: -2, Flags: w | d | f, Since: V88, Cats: "string", Fn: cmdIncrex},
	)
}

// ---------------------------------------------------------------------------------------------
// helpers

// lookupKey is Lookup without converting the key to a string unless the key has expired
// (the map lookups with string(key) do not allocate): the hot path of every string command.
func (e *Engine) lookupKey(key []byte) *Object {
	if len(e.db.expires) > 0 {
		if when, ok := e.db.expires[string(key)]; ok && e.NowMs() > when {
			return e.Lookup(key) // expires it, with its event
		}
	}
	o := e.db.keys[string(key)]
	e.touchObject(o) // LRU/LFU access (cmd_debug.go)
	return o
}

// hasTTL reports whether key has an expire.
func (e *Engine) hasTTL(key []byte) bool {
	_, ok := e.db.expires[string(key)]
	return ok
}

// stringValueReply is addReplyBulk of a string object.
func stringValueReply(o *Object) Reply {
	if o.Enc == EncInt {
		return Reply{Kind: KindBulk, Str: strconv.FormatInt(o.Int, 10)}
	}
	return Reply{Kind: KindBulk, Str: string(o.Buf.Bytes())}
}

// errExpireTime is addReplyErrorExpireTime (the command's full name).
func errExpireTime(cmd string) Reply {
	return errInvalidExpire(cmd)
}

// cstr is a C view of an argument: Redis compares option keywords with strcasecmp or byte by
// byte up to the NUL, so bytes after an embedded NUL are ignored.
func cstr(b []byte) []byte {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return b[:i]
	}
	return b
}

// emitTTLKept records that a write left key's TTL in place.
func (e *Engine) emitTTLKept(key []byte) {
	if !e.tracing {
		return
	}
	if w, ok := e.db.expires[string(key)]; ok {
		e.emit(TTLEvent{Key: string(key), Action: "kept", Before: w, After: w})
	}
}

// emitNewString traces the creation of a string value: its encoding (and why) and, for raw
// strings, the sds allocation.
func (e *Engine) emitNewString(key []byte, cmd string, oldEnc string, o *Object) {
	if !e.tracing {
		return
	}
	n := int64(o.Buf.Len())
	var why Why
	switch o.Enc {
	case EncInt:
		if o.Shared {
			why = Why{Code: WhySharedInt, Limit: 9999}
		} else {
			why = Why{Code: WhyInt}
		}
	case EncEmbstr:
		if e.ver.KVObj() {
			why = Why{Code: WhyEmbstrKV, N: n, Limit: embstrSizeLimit}
		} else {
			why = Why{Code: WhyEmbstr, N: n, Limit: embstrSizeLimit}
		}
	default:
		switch {
		case o.Buf.Len() <= embstrSizeLimit:
			why = Why{Code: WhyRawKV, N: n, Limit: embstrSizeLimit}
		case o.Buf.Len() >= protoMbulkBigArg && cmd != "incrbyfloat":
			why = Why{Code: WhyBigArg, N: n, Limit: protoMbulkBigArg}
		default:
			why = Why{Code: WhyRaw, N: n, Limit: embstrSizeLimit}
		}
	}
	if oldEnc != o.Enc.String() {
		e.emit(EncodingEvent{Key: string(key), From: oldEnc, To: o.Enc.String(), Why: why})
	}
	if o.Enc == EncRaw {
		e.emit(SDSEvent{Key: string(key), Cmd: cmd, After: o.SDS, Requested: o.Buf.Len(), Realloc: true})
	}
}

// storeArgString is setKey with a value built from an argument (tryObjectEncoding). old is
// the current value (nil when missing); keepTTL keeps key's TTL. An existing string object is
// reused in place.
func (e *Engine) storeArgString(key, val []byte, old *Object, keepTTL bool, cmd string) *Object {
	oldEnc := ""
	if old != nil && e.tracing {
		oldEnc = old.Enc.String()
	}
	hasExpire := keepTTL && e.hasTTL(key)
	var o *Object
	if old != nil && old.Type == TypeString {
		o = e.fillArgString(old, key, val, hasExpire)
		if e.tracing {
			e.emit(KeyEvent{Key: string(key), Action: "overwritten", Type: "string"})
		}
		if !keepTTL {
			if _, ok := e.db.expires[string(key)]; ok {
				e.removeExpire(string(key))
			}
		}
		e.signalModifiedBytes(e.db, key)
	} else {
		o = e.fillArgString(nil, key, val, hasExpire)
		e.setKey(key, o, keepTTL)
	}
	e.emitNewString(key, cmd, oldEnc, o)
	if keepTTL {
		e.emitTTLKept(key)
	}
	return o
}

// replaceValue is dbOverwrite / dbAdd with a new object, keeping the TTL (INCR, INCRBYFLOAT).
func (e *Engine) replaceValue(key []byte, old, o *Object, cmd string) {
	oldEnc := ""
	if old != nil {
		oldEnc = old.Enc.String()
		e.setKey(key, o, true)
		e.emitNewString(key, cmd, oldEnc, o)
		e.emitTTLKept(key)
		return
	}
	e.add(key, o)
	e.emitNewString(key, cmd, oldEnc, o)
}

// ---------------------------------------------------------------------------------------------
// SET family option parsing (parseExtendedStringArgumentsOrReply)

const (
	optNX = 1 << iota
	optXX
	optGET
	optKeepTTL
	optPersist
	optEX
	optPX
	optEXAT
	optPXAT
	optIFEQ
	optIFNE
	optIFDEQ
	optIFDNE
)

const (
	optExpireMask = optEX | optPX | optEXAT | optPXAT
	optIFMask     = optIFEQ | optIFNE | optIFDEQ | optIFDNE
)

// The keyword families of the string commands: the four expire forms (SET, GETEX, MSETEX,
// INCREX) and the four compare-and-set conditions (SET and DELEX, 8.4).
var (
	expireKeywords = []strKeyword{{"ex", optEX}, {"px", optPX}, {"exat", optEXAT}, {"pxat", optPXAT}}
	ifKeywords     = []strKeyword{{"ifeq", optIFEQ}, {"ifne", optIFNE}, {"ifdeq", optIFDEQ}, {"ifdne", optIFDNE}}
)

// parsing contexts
const (
	ctxGET    = iota // GETEX
	ctxSET           // SET
	ctxMSETEX        // MSETEX (8.4): NX/XX and the expire options, no GET
)

type strOpts struct {
	flags  int
	expire []byte // the EX/PX/EXAT/PXAT argument
	match  []byte // the IF* argument
}

// parseStrOpts parses args (the options after the fixed arguments). Only the syntax is checked
// here, like Redis; values are checked later.
func (e *Engine) parseStrOpts(args [][]byte, ctx int) (strOpts, bool) {
	var o strOpts
	set := ctx == ctxSET
	setLike := ctx == ctxSET || ctx == ctxMSETEX
	ifOK := set && e.ver.Has(V84)
	for j := 0; j < len(args); j++ {
		opt := cstr(args[j])
		hasNext := j+1 < len(args)
		fl := o.flags
		expFlag, ifFlag := keywordFlag(opt, expireKeywords), keywordFlag(opt, ifKeywords)
		switch {
		case eqFold(opt, "nx") && fl&(optXX|optIFMask) == 0 && setLike:
			o.flags |= optNX
		case eqFold(opt, "xx") && fl&(optNX|optIFMask) == 0 && setLike:
			o.flags |= optXX
		case eqFold(opt, "get") && set:
			o.flags |= optGET
		case eqFold(opt, "keepttl") && fl&(optPersist|optExpireMask) == 0 && setLike:
			o.flags |= optKeepTTL
		case eqFold(opt, "persist") && ctx == ctxGET && fl&(optExpireMask|optKeepTTL) == 0:
			o.flags |= optPersist
		case expFlag != 0 && fl&(optKeepTTL|optPersist|optExpireMask&^expFlag) == 0 && hasNext:
			// The same form again is allowed (the later value wins); another form is not.
			o.flags |= expFlag
			o.expire = args[j+1]
			j++
		case ifFlag != 0 && ifOK && hasNext && fl&(optNX|optXX|optIFMask) == 0:
			o.flags |= ifFlag
			o.match = args[j+1]
			j++
		default:
			return o, false
		}
	}
	return o, true
}

// expireMs is getExpireMillisecondsOrReply: the absolute expiry in ms, or an error reply.
func (e *Engine) expireMs(arg []byte, flags int, cmd string) (int64, Reply, bool) {
	v, ok := string2ll(arg)
	if !ok {
		return 0, ErrNotInt, false
	}
	seconds := flags&(optEX|optEXAT) != 0
	if v <= 0 || (seconds && v > math.MaxInt64/1000) {
		return 0, errExpireTime(cmd), false
	}
	if seconds {
		v *= 1000
	}
	if flags&(optEX|optPX) != 0 {
		v += e.NowMs() // wraps like the C code; caught below
	}
	if v <= 0 {
		return 0, errExpireTime(cmd), false
	}
	return v, Reply{}, true
}

// digestHex is DIGEST's value: XXH3-64 (seed 0) as 16 lowercase hex digits.
func digestHex(p []byte) string {
	var buf [16]byte
	const hexd = "0123456789abcdef"
	h := xxh3.Hash(p)
	for i := 15; i >= 0; i-- {
		buf[i] = hexd[h&15]
		h >>= 4
	}
	return string(buf[:])
}

// condMatches evaluates an IF* condition against an existing string value.
func condMatches(flags int, o *Object, match []byte) bool {
	val := o.StringBytes()
	switch {
	case flags&optIFEQ != 0:
		return bytes.Equal(val, match)
	case flags&optIFNE != 0:
		return !bytes.Equal(val, match)
	case flags&optIFDEQ != 0:
		return eqFold(match, digestHex(val))
	case flags&optIFDNE != 0:
		return !eqFold(match, digestHex(val))
	}
	return true
}

// ---------------------------------------------------------------------------------------------
// GET / SET family

func cmdGet(e *Engine, args [][]byte) Reply {
	o, werr := e.lookupTyped(args[1], TypeString)
	if o == nil {
		return orMissing(werr, NilReply)
	}
	return stringValueReply(o)
}

func cmdSet(e *Engine, args [][]byte) Reply {
	opts, ok := e.parseStrOpts(args[3:], ctxSET)
	if !ok {
		return ErrSyntax
	}
	return e.setGeneric(args[1], args[2], opts, "set", OK, NilReply)
}

func cmdSetnx(e *Engine, args [][]byte) Reply {
	return e.setGeneric(args[1], args[2], strOpts{flags: optNX}, "setnx", Int(1), Int(0))
}

func cmdSetex(e *Engine, args [][]byte) Reply {
	return e.setGeneric(args[1], args[3], strOpts{flags: optEX, expire: args[2]}, "setex", OK, NilReply)
}

func cmdPsetex(e *Engine, args [][]byte) Reply {
	return e.setGeneric(args[1], args[3], strOpts{flags: optPX, expire: args[2]}, "psetex", OK, NilReply)
}

// setGeneric is setGenericCommand.
func (e *Engine) setGeneric(key, val []byte, opts strOpts, cmd string, okReply, abortReply Reply) Reply {
	flags := opts.flags
	var when int64
	if opts.expire != nil {
		var errR Reply
		var ok bool
		if when, errR, ok = e.expireMs(opts.expire, flags, cmd); !ok {
			return errR
		}
	}
	old := e.lookupKey(key)
	var getReply Reply
	if flags&optGET != 0 {
		if old != nil && old.Type != TypeString {
			return ErrWrongType
		}
		if old == nil {
			getReply = NilReply
		} else {
			getReply = stringValueReply(old)
		}
	}
	found := old != nil
	abort := func() Reply {
		if flags&optGET != 0 {
			return getReply
		}
		return abortReply
	}
	if (flags&optNX != 0 && found) || (flags&(optXX|optIFEQ|optIFDEQ) != 0 && !found) {
		return abort()
	}
	if found && flags&optIFMask != 0 {
		if old.Type != TypeString {
			return ErrWrongType
		}
		if !condMatches(flags, old, opts.match) {
			return abort()
		}
	}
	// 7.4+ keeps the old TTL in place when a new one follows (setKey with KEEPTTL).
	keep := flags&optKeepTTL != 0 || (opts.expire != nil && e.ver.Has(V74))
	e.storeArgString(key, val, old, keep, cmd)
	if opts.expire != nil {
		e.setExpire(string(key), when)
	}
	if flags&optGET != 0 {
		return getReply
	}
	return okReply
}

func cmdGetset(e *Engine, args [][]byte) Reply {
	old := e.lookupKey(args[1])
	if old != nil && old.Type != TypeString {
		return ErrWrongType
	}
	r := NilReply
	if old != nil {
		r = stringValueReply(old)
	}
	e.storeArgString(args[1], args[2], old, false, "getset")
	return r
}

func cmdGetdel(e *Engine, args [][]byte) Reply {
	o, werr := e.lookupTyped(args[1], TypeString)
	if o == nil {
		return orMissing(werr, NilReply)
	}
	r := stringValueReply(o)
	e.Delete(args[1])
	return r
}

func cmdGetex(e *Engine, args [][]byte) Reply {
	opts, ok := e.parseStrOpts(args[2:], ctxGET)
	if !ok {
		return ErrSyntax
	}
	key := args[1]
	o, werr := e.lookupTyped(key, TypeString)
	if o == nil {
		return orMissing(werr, NilReply)
	}
	var when int64
	if opts.expire != nil {
		var errR Reply
		if when, errR, ok = e.expireMs(opts.expire, opts.flags, "getex"); !ok {
			return errR
		}
	}
	r := stringValueReply(o)
	switch {
	case opts.flags&(optPXAT|optEXAT) != 0 && when <= e.NowMs():
		// checkAlreadyExpired: an absolute time in the past deletes the key.
		e.Delete(key)
	case opts.expire != nil:
		e.setExpire(string(key), when)
		e.cfg.stats.dirty++ // getexCommand's server.dirty++
	case opts.flags&optPersist != 0:
		if e.removeExpire(string(key)) {
			e.cfg.stats.dirty++ // getexCommand: server.dirty++ only when a TTL was removed
		}
	}
	return r
}

func cmdMget(e *Engine, args [][]byte) Reply {
	items := make([]Reply, len(args)-1)
	for i, k := range args[1:] {
		o := e.lookupKey(k)
		if o == nil || o.Type != TypeString {
			items[i] = NilReply
		} else {
			items[i] = stringValueReply(o)
		}
	}
	return Reply{Kind: KindArray, Array: items}
}

func cmdMset(e *Engine, args [][]byte) Reply {
	if len(args)%2 == 0 {
		return errArity("mset")
	}
	for j := 1; j < len(args); j += 2 {
		e.storeArgString(args[j], args[j+1], e.lookupKey(args[j]), false, "mset")
	}
	return OK
}

func cmdMsetnx(e *Engine, args [][]byte) Reply {
	if len(args)%2 == 0 {
		return errArity("msetnx")
	}
	for j := 1; j < len(args); j += 2 {
		if e.lookupKey(args[j]) != nil {
			return Int(0)
		}
	}
	for j := 1; j < len(args); j += 2 {
		e.storeArgString(args[j], args[j+1], e.lookupKey(args[j]), false, "msetnx")
	}
	return Int(1)
}

// cmdMsetex is MSETEX numkeys key value [key value …] [NX|XX] [EX|PX|EXAT|PXAT|KEEPTTL] (8.4):
// all keys or none; 1 when set, 0 when NX/XX stopped it. Error texts for a bad numkeys are not
// documented; ours follow the other numkeys commands.
func cmdMsetex(e *Engine, args [][]byte) Reply {
	n, ok := string2ll(args[1])
	if !ok {
		return ErrNotInt
	}
	if n <= 0 || n > int64(len(args)-2)/2 {
		if n <= 0 {
			return errNumkeysZero
		}
		return errArity("msetex")
	}
	end := 2 + 2*int(n)
	opts, ok := e.parseStrOpts(args[end:], ctxMSETEX)
	if !ok {
		return ErrSyntax
	}
	var when int64
	if opts.expire != nil {
		var errR Reply
		if when, errR, ok = e.expireMs(opts.expire, opts.flags, "msetex"); !ok {
			return errR
		}
	}
	if opts.flags&(optNX|optXX) != 0 {
		for j := 2; j < end; j += 2 {
			exists := e.lookupKey(args[j]) != nil
			if (opts.flags&optNX != 0 && exists) || (opts.flags&optXX != 0 && !exists) {
				return Int(0)
			}
		}
	}
	keep := opts.flags&optKeepTTL != 0 || opts.expire != nil
	for j := 2; j < end; j += 2 {
		e.storeArgString(args[j], args[j+1], e.lookupKey(args[j]), keep, "msetex")
		if opts.expire != nil {
			e.setExpire(string(args[j]), when)
		}
	}
	return Int(1)
}

// ---------------------------------------------------------------------------------------------
// APPEND / STRLEN / GETRANGE / SETRANGE

func cmdAppend(e *Engine, args [][]byte) Reply {
	key, val := args[1], args[2]
	o := e.lookupKey(key)
	if o == nil {
		o = e.fillArgString(nil, key, val, false)
		e.add(key, o)
		e.emitNewString(key, "append", "", o)
		return Int(int64(o.StringLen()))
	}
	if o.Type != TypeString {
		return ErrWrongType
	}
	if !e.fitsStringLength(int64(o.StringLen()), int64(len(val))) {
		return ErrMaxBulkLen
	}
	o = e.unshareString(key, o, "append")
	e.appendString(key, o, val, "append")
	e.signalModifiedBytes(e.db, key)
	e.emitTTLKept(key)
	return Int(int64(o.Buf.Len()))
}

// fitsStringLength is 7.0's checkStringLength(size, append): the total must not exceed
// proto-max-bulk-len (and must not overflow).
func (e *Engine) fitsStringLength(size, add int64) bool {
	total := size + add
	if total < size || total < add {
		return false
	}
	return e.checkStringLength(total)
}

func cmdStrlen(e *Engine, args [][]byte) Reply {
	o, werr := e.lookupTyped(args[1], TypeString)
	if o == nil {
		return orMissing(werr, Int(0))
	}
	return Int(int64(o.StringLen()))
}

func cmdGetrange(e *Engine, args [][]byte) Reply {
	start, end, ok := string2llPair(args[2], args[3])
	if !ok {
		return ErrNotInt
	}
	empty := BulkStr("")
	o, werr := e.lookupTyped(args[1], TypeString)
	if o == nil {
		return orMissing(werr, empty)
	}
	var str []byte
	var n int64
	if o.Enc == EncInt {
		str = strconv.AppendInt(nil, o.Int, 10)
		n = int64(len(str))
	} else {
		n = int64(o.Buf.Len())
	}
	start, end, ok = getrangeBounds(e.ver, start, end, n)
	if !ok {
		return empty
	}
	if str != nil {
		return BulkStr(string(str[start : end+1]))
	}
	if o.Buf.Len() <= 1<<20 {
		return BulkStr(string(o.Buf.Bytes()[start : end+1]))
	}
	out := make([]byte, end-start+1)
	o.Buf.ReadAt(out, int(start))
	return Reply{Kind: KindBulk, Str: string(out)}
}

// getrangeBounds clamps GETRANGE's start and end to a string of n bytes, by the profile's rules;
// ok false: the reply is "". The command and its Cost (the bytes it copies) share it.
func getrangeBounds(v Version, start, end, n int64) (int64, int64, bool) {
	// 8.0 (#12272) clamps as the rank commands do (rankRange): negative indexes count from the
	// end, and an end before the string, a start past it, or start > end give "".
	if !v.Has(V80) {
		// Before 8.0 (getrangeCommand): two negative indexes with start > end give "", and an
		// end still negative once counted from the end stands for the first byte.
		if start < 0 && end < 0 && start > end {
			return 0, 0, false
		}
		if end < 0 && end+n < 0 {
			end = -n
		}
	}
	return rankRange(start, end, n)
}

// getrangeCost: GETRANGE copies the clamped range.
func getrangeCost(e *Engine, args [][]byte) Cost {
	if e == nil {
		return Cost{}
	}
	start, end, ok := string2llPair(args[2], args[3])
	o := e.Peek(args[1])
	if !ok || o == nil || o.Type != TypeString {
		return Cost{}
	}
	if s, t, ok := getrangeBounds(e.ver, start, end, int64(o.StringLen())); ok {
		return Cost{CopyBytes: t - s + 1}
	}
	return Cost{}
}

// appendCost: APPEND and SETRANGE leave the string storing what it stores now plus the bytes
// written (a write into a long sparse string allocates at most those).
func appendCost(e *Engine, args [][]byte) Cost {
	if e == nil {
		return Cost{}
	}
	val := args[len(args)-1]
	if len(val) == 0 {
		return Cost{}
	}
	return Cost{StoreBytes: e.storedBytes(args[1]) + int64(len(val))}
}

func cmdSetrange(e *Engine, args [][]byte) Reply {
	key, val := args[1], args[3]
	offset, ok := string2ll(args[2])
	if !ok {
		return ErrNotInt
	}
	if offset < 0 {
		return Err("ERR offset is out of range")
	}
	o := e.lookupKey(key)
	if o == nil {
		if len(val) == 0 {
			return Int(0)
		}
		if !e.fitsStringLength(offset, int64(len(val))) {
			return ErrMaxBulkLen
		}
		o = e.newRawString(key, int(offset)+len(val), "setrange")
		e.add(key, o)
		if e.tracing {
			e.emit(EncodingEvent{Key: string(key), To: "raw", Why: Why{Code: WhySetrange, N: offset + int64(len(val))}})
		}
	} else {
		if o.Type != TypeString {
			return ErrWrongType
		}
		olen := o.StringLen()
		if len(val) == 0 {
			return Int(int64(olen))
		}
		if !e.fitsStringLength(offset, int64(len(val))) {
			return ErrMaxBulkLen
		}
		o = e.unshareString(key, o, "setrange")
		e.growString(key, o, int(offset)+len(val), "setrange")
		e.signalModifiedBytes(e.db, key)
		e.emitTTLKept(key)
	}
	o.Buf.WriteAt(val, int(offset))
	e.Work.BytesMoved += int64(len(val))
	return Int(int64(o.Buf.Len()))
}

// ---------------------------------------------------------------------------------------------
// INCR family

func cmdIncr(e *Engine, args [][]byte) Reply { return e.incrDecr(args[1], 1, "incr") }
func cmdDecr(e *Engine, args [][]byte) Reply { return e.incrDecr(args[1], -1, "decr") }

func cmdIncrby(e *Engine, args [][]byte) Reply {
	n, ok := string2ll(args[2])
	if !ok {
		return ErrNotInt
	}
	return e.incrDecr(args[1], n, "incrby")
}

func cmdDecrby(e *Engine, args [][]byte) Reply {
	n, ok := string2ll(args[2])
	if !ok {
		return ErrNotInt
	}
	if n == math.MinInt64 {
		return Err("ERR decrement would overflow")
	}
	return e.incrDecr(args[1], -n, "decrby")
}

// stringObjectInt is getLongLongFromObject: int encoding, or a strict integer string.
func stringObjectInt(o *Object) (int64, bool) {
	if o == nil {
		return 0, true
	}
	if o.Enc == EncInt {
		return o.Int, true
	}
	if o.Buf.Len() > 20 {
		return 0, false
	}
	return string2ll(o.Buf.Bytes())
}

// addOverflows is incrDecrCommand's overflow test.
func addOverflows(old, incr int64) bool {
	return (incr < 0 && old < 0 && incr < math.MinInt64-old) ||
		(incr > 0 && old > 0 && incr > math.MaxInt64-old)
}

// incrDecr is incrDecrCommand.
func (e *Engine) incrDecr(key []byte, incr int64, cmd string) Reply {
	dirty := e.cfg.stats.dirty
	o, werr := e.lookupTyped(key, TypeString)
	if werr != nil {
		return ErrWrongType
	}
	v, ok := stringObjectInt(o)
	if !ok {
		return ErrNotInt
	}
	if addOverflows(v, incr) {
		return ErrOverflow
	}
	v += incr
	e.storeInt(key, o, v, cmd)
	e.changed(key, dirty, 1) // incrDecrCommand's one server.dirty++ (a value created or replaced is no change of its own)
	return Int(v)
}

// storeInt writes an integer result: in place when the value is a private int outside the
// shared range, else a new object (createStringObjectFromLongLongForValue). The TTL stays.
func (e *Engine) storeInt(key []byte, o *Object, v int64, cmd string) {
	if o != nil && o.Enc == EncInt && !o.Shared && (v < 0 || v >= sharedIntegers) {
		o.Int = v
		e.emitTTLKept(key)
		return
	}
	shared := v >= 0 && v < sharedIntegers && e.useSharedIntegers()
	expirable := o != nil && e.ver.KVObj() && e.hasTTL(key)
	// Without tracing, an int-encoded value (a shared integer, e.g. INCR from 5 to 6) is given
	// in place the fields a fresh object would have: no allocation and no keyspace store on the
	// INCR hot path. (With tracing, replaceValue emits the key and encoding events.)
	if o != nil && !e.tracing && o.Type == TypeString && o.Enc == EncInt && o.Expirable == expirable {
		o.Int, o.Shared = v, shared
		return
	}
	n := &Object{Type: TypeString, Enc: EncInt, Int: v, Shared: shared, Expirable: expirable}
	e.replaceValue(key, o, n, cmd)
}

func cmdIncrbyfloat(e *Engine, args [][]byte) Reply {
	key := args[1]
	o, werr := e.lookupTyped(key, TypeString)
	if werr != nil {
		return ErrWrongType
	}
	v, ok := stringObjectLD(o)
	if !ok {
		return ErrNotFloat
	}
	incr, ok := parseLongDouble(args[2])
	if !ok {
		return ErrNotFloat
	}
	if v.IsInf() || incr.IsInf() {
		return errIncrNaN
	}
	sum, ok := ldAdd(v, incr)
	if !ok {
		return errIncrNaN
	}
	return Reply{Kind: KindBulk, Str: e.storeLongDouble(key, o, sum, "incrbyfloat")}
}

// storeLongDouble writes v, formatted as a long double the way INCRBYFLOAT prints it, as the new
// string value of key (o is the old value or nil; its TTL stays) and returns the text written.
func (e *Engine) storeLongDouble(key []byte, o *Object, v *big.Float, cmd string) string {
	s := appendLongDouble(nil, v)
	n := e.newStringFromBytes(key, s, o != nil && e.hasTTL(key))
	e.replaceValue(key, o, n, cmd)
	return string(s)
}

// ---------------------------------------------------------------------------------------------
// 8.4: DELEX, DIGEST

func cmdDelex(e *Engine, args [][]byte) Reply {
	key := args[1]
	var flags int
	var match []byte
	if len(args) > 2 {
		if len(args) != 4 {
			return ErrSyntax
		}
		if flags = keywordFlag(cstr(args[2]), ifKeywords); flags == 0 {
			return ErrSyntax
		}
		match = args[3]
	}
	o := e.lookupKey(key)
	if o == nil {
		return Int(0)
	}
	if flags != 0 {
		if o.Type != TypeString {
			return ErrWrongType
		}
		if !condMatches(flags, o, match) {
			return Int(0)
		}
	}
	e.Delete(key)
	return Int(1)
}

func cmdDigest(e *Engine, args [][]byte) Reply {
	o, werr := e.lookupTyped(args[1], TypeString)
	if o == nil {
		return orMissing(werr, NilReply)
	}
	return BulkStr(digestHex(o.StringBytes()))
}

// ---------------------------------------------------------------------------------------------
// 8.8: INCREX

// cmdIncrex is INCREX key [BYFLOAT f | BYINT n] [LBOUND l] [UBOUND u] [SATURATE]
// [EX s | PX ms | EXAT t | PXAT t | PERSIST] [ENX] (docs/internals.md §Newer string commands). Reply: [new value,
// applied increment] — integers in integer mode, bulk strings (INCRBYFLOAT formatting) with
// BYFLOAT. A result outside the bounds (or the type's range) is skipped ([current, 0], key and
// TTL untouched) unless SATURATE clamps it to the bound. The expiry options apply only when the
// value was written; ENX sets the TTL only when the key has none.
//
// Documented behaviour only (no 8.8 server here): the error texts for option conflicts are
// guesses (syntax error) except where they reuse Redis's shared replies.
func cmdIncrex(e *Engine, args [][]byte) Reply {
	key := args[1]
	const (
		mInt = iota
		mFloat
	)
	mode := mInt
	var incrArg, lboundArg, uboundArg, expireArg []byte
	var byGiven, saturate, enx bool
	expFlags := 0
	for j := 2; j < len(args); j++ {
		opt := cstr(args[j])
		hasNext := j+1 < len(args)
		switch {
		case (eqFold(opt, "byint") || eqFold(opt, "byfloat")) && hasNext && !byGiven:
			byGiven = true
			if eqFold(opt, "byfloat") {
				mode = mFloat
			}
			incrArg = args[j+1]
			j++
		case eqFold(opt, "lbound") && hasNext && lboundArg == nil:
			lboundArg = args[j+1]
			j++
		case eqFold(opt, "ubound") && hasNext && uboundArg == nil:
			uboundArg = args[j+1]
			j++
		case eqFold(opt, "saturate"):
			saturate = true
		case eqFold(opt, "enx"):
			enx = true
		case eqFold(opt, "persist") && expFlags == 0:
			expFlags = optPersist
		case hasNext && expFlags == 0 && keywordFlag(opt, expireKeywords) != 0:
			expFlags = keywordFlag(opt, expireKeywords)
			expireArg = args[j+1]
			j++
		default:
			return ErrSyntax
		}
	}
	if enx && expFlags&optExpireMask == 0 {
		return ErrSyntax // ENX needs EX/PX/EXAT/PXAT (and cannot go with PERSIST)
	}
	var when int64
	if expireArg != nil {
		var errR Reply
		var ok bool
		if when, errR, ok = e.expireMs(expireArg, expFlags, "increx"); !ok {
			return errR
		}
	}
	o, werr := e.lookupTyped(key, TypeString)
	if werr != nil {
		return ErrWrongType
	}
	var applied bool
	var reply Reply
	if mode == mInt {
		incr := int64(1)
		if incrArg != nil {
			var ok bool
			if incr, ok = string2ll(incrArg); !ok {
				return ErrNotInt
			}
		}
		lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
		if lboundArg != nil {
			var ok bool
			if lo, ok = string2ll(lboundArg); !ok {
				return ErrNotInt
			}
		}
		if uboundArg != nil {
			var ok bool
			if hi, ok = string2ll(uboundArg); !ok {
				return ErrNotInt
			}
		}
		if lo > hi {
			return errLboundUbound
		}
		cur, ok := stringObjectInt(o)
		if !ok {
			return ErrNotInt
		}
		// The exact result in 128 bits: cur + incr, then the bounds.
		res := new(big.Int).Add(big.NewInt(cur), big.NewInt(incr))
		var nv int64
		switch {
		case res.Cmp(big.NewInt(lo)) < 0:
			if !saturate {
				return Array(Int(cur), Int(0))
			}
			nv = lo
		case res.Cmp(big.NewInt(hi)) > 0:
			if !saturate {
				return Array(Int(cur), Int(0))
			}
			nv = hi
		default:
			nv = res.Int64()
		}
		d := new(big.Int).Sub(big.NewInt(nv), big.NewInt(cur))
		if !d.IsInt64() {
			return ErrOverflow // the applied increment itself does not fit (clamped far away)
		}
		e.storeInt(key, o, nv, "increx")
		applied = true
		reply = Array(Int(nv), Int(d.Int64()))
	} else {
		incr, ok := parseLongDouble(incrArg)
		if !ok {
			return ErrNotFloat
		}
		lo, hi := new(big.Float).SetInf(true), new(big.Float).SetInf(false)
		if lboundArg != nil {
			if lo, ok = parseLongDouble(lboundArg); !ok {
				return ErrNotFloat
			}
		}
		if uboundArg != nil {
			if hi, ok = parseLongDouble(uboundArg); !ok {
				return ErrNotFloat
			}
		}
		if lo.Cmp(hi) > 0 {
			return errLboundUbound
		}
		cur, ok := stringObjectLD(o)
		if !ok {
			return ErrNotFloat
		}
		if cur.IsInf() || incr.IsInf() {
			return errIncrNaN
		}
		sum, ok := ldAdd(cur, incr)
		if !ok {
			// Beyond ±LDBL_MAX: out of the type's range.
			if !saturate {
				return Array(BulkStr(formatLongDouble(cur)), BulkStr("0"))
			}
			if incr.Sign() > 0 {
				sum = maxLD80()
			} else {
				sum = new(big.Float).Neg(maxLD80())
			}
		}
		switch {
		case sum.Cmp(lo) < 0:
			if !saturate {
				return Array(BulkStr(formatLongDouble(cur)), BulkStr("0"))
			}
			sum = lo
		case sum.Cmp(hi) > 0:
			if !saturate {
				return Array(BulkStr(formatLongDouble(cur)), BulkStr("0"))
			}
			sum = hi
		}
		if sum.IsInf() {
			return errIncrNaN
		}
		d, ok := ldSub(sum, cur)
		if !ok {
			return errIncrNaN
		}
		s := e.storeLongDouble(key, o, sum, "increx")
		applied = true
		reply = Array(Reply{Kind: KindBulk, Str: s}, BulkStr(formatLongDouble(d)))
	}
	if applied {
		switch {
		case expFlags&optPersist != 0:
			e.removeExpire(string(key))
		case expireArg != nil:
			if enx && e.hasTTL(key) {
				e.emitTTLKept(key)
			} else if expFlags&(optEXAT|optPXAT) != 0 && when <= e.NowMs() {
				e.Delete(key)
			} else {
				e.setExpire(string(key), when)
			}
		}
	}
	return reply
}

// maxLD80 is LDBL_MAX, (2 − 2^−63) × 2^16383.
func maxLD80() *big.Float {
	m := new(big.Float).SetPrec(ld80Prec).SetInt(new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 64), big.NewInt(1)))
	return m.SetMantExp(m, ld80MaxExp-64)
}
