package engine

import (
	"math"
	"sort"
	"strconv"

	"redscope/engine/dict"
)

// Hash commands: HSET HSETNX HMSET HGET HMGET HDEL HLEN HEXISTS HSTRLEN HKEYS HVALS HGETALL
// HINCRBY HINCRBYFLOAT HSCAN HRANDFIELD; 7.4+: HEXPIRE HPEXPIRE HEXPIREAT HPEXPIREAT HTTL HPTTL
// HEXPIRETIME HPEXPIRETIME HPERSIST; 8.0+: HSETEX HGETEX HGETDEL (see t_hash.go).

func init() {
	register(
		&Command{Name: "hset", Arity: -4, Flags: FlagWrite | FlagDenyOOM | FlagFast, Cats: "hash", Fn: cmdHSet},
		&Command{Name: "hmset", Arity: -4, Flags: FlagWrite | FlagDenyOOM | FlagFast, Cats: "hash", Fn: cmdHSet},
		&Command{Name: "hsetnx", Arity: 4, Flags: FlagWrite | FlagDenyOOM | FlagFast, Cats: "hash", KeyFlags: []string{"RW insert"}, Fn: cmdHSetNX},
		&Command{Name: "hget", Arity: 3, Flags: FlagReadonly | FlagFast, Cats: "hash", Fn: cmdHGet},
		&Command{Name: "hmget", Arity: -3, Flags: FlagReadonly | FlagFast, Cats: "hash", Fn: cmdHMGet},
		&Command{Name: "hdel", Arity: -3, Flags: FlagWrite | FlagFast, Cats: "hash", KeyFlags: []string{"RW delete"}, Fn: cmdHDel},
		&Command{Name: "hlen", Arity: 2, Flags: FlagReadonly | FlagFast, Cats: "hash", KeyFlags: []string{"RO"}, Fn: cmdHLen},
		&Command{Name: "hexists", Arity: 3, Flags: FlagReadonly | FlagFast, Cats: "hash", KeyFlags: []string{"RO"}, Fn: cmdHExists},
		&Command{Name: "hstrlen", Arity: 3, Flags: FlagReadonly | FlagFast, Cats: "hash", KeyFlags: []string{"RO"}, Fn: cmdHStrlen},
		&Command{Name: "hkeys", Arity: 2, Flags: FlagReadonly, Cats: "hash", Tips: "nondeterministic_output_order", Fn: cmdHGetAll},
		&Command{Name: "hvals", Arity: 2, Flags: FlagReadonly, Cats: "hash", Tips: "nondeterministic_output_order", Fn: cmdHGetAll},
		&Command{Name: "hgetall", Arity: 2, Flags: FlagReadonly, Cats: "hash", Tips: "nondeterministic_output_order", Fn: cmdHGetAll},
		&Command{Name: "hincrby", Arity: 4, Flags: FlagWrite | FlagDenyOOM | FlagFast, Cats: "hash", KeyFlags: []string{"RW access update"}, Fn: cmdHIncrBy},
		&Command{Name: "hincrbyfloat", Arity: 4, Flags: FlagWrite | FlagDenyOOM | FlagFast, Cats: "hash", KeyFlags: []string{"RW access update"}, Fn: cmdHIncrByFloat},
		&Command{Name: "hscan", Arity: -3, Flags: FlagReadonly, Cats: "hash", Tips: "nondeterministic_output", Fn: cmdHScan},
		&Command{Name: "hrandfield", Arity: -2, Flags: FlagReadonly, Cats: "hash", Tips: "nondeterministic_output", Cost: countCost, Fn: cmdHRandField},
		&Command{Name: "hexpire", Arity: -6, Flags: FlagWrite | FlagDenyOOM | FlagFast, Since: V74, Cats: "hash", Fn: cmdHExpire},
		&Command{Name: "hpexpire", Arity: -6, Flags: FlagWrite | FlagDenyOOM | FlagFast, Since: V74, Cats: "hash", Fn: cmdHExpire},
		&Command{Name: "hexpireat", Arity: -6, Flags: FlagWrite | FlagDenyOOM | FlagFast, Since: V74, Cats: "hash", Fn: cmdHExpire},
		&Command{Name: "hpexpireat", Arity: -6, Flags: FlagWrite | FlagDenyOOM | FlagFast, Since: V74, Cats: "hash", Fn: cmdHExpire},
		&Command{Name: "httl", Arity: -5, Flags: FlagReadonly | FlagFast, Since: V74, Cats: "hash", Fn: cmdHTTL},
		&Command{Name: "hpttl", Arity: -5, Flags: FlagReadonly | FlagFast, Since: V74, Cats: "hash", Fn: cmdHTTL},
		&Command{Name: "hexpiretime", Arity: -5, Flags: FlagReadonly | FlagFast, Since: V74, Cats: "hash", Fn: cmdHTTL},
		&Command{Name: "hpexpiretime", Arity: -5, Flags: FlagReadonly | FlagFast, Since: V74, Cats: "hash", Fn: cmdHTTL},
		&Command{Name: "hpersist", Arity: -5, Flags: FlagWrite | FlagFast, Since: V74, Cats: "hash", Fn: cmdHPersist},
		&Command{Name: "hsetex", Arity: -6, Flags: FlagWrite | FlagDenyOOM | FlagFast, Since: V80, Cats: "hash", Fn: cmdHSetEx},
		&Command{Name: "hgetex", Arity: -5, Flags: FlagWrite | FlagFast, Since: V80, Cats: "hash", Fn: cmdHGetEx},
		&Command{Name: "hgetdel", Arity: -5, Flags: FlagWrite | FlagFast, Since: V80, Cats: "hash", Fn: cmdHGetDel},
	)
}

// lookupHashOrCreate is hashTypeLookupWriteOrCreate.
func (e *Engine) lookupHashOrCreate(key []byte) (*Object, *Reply) {
	o, werr := e.lookupTyped(key, TypeHash)
	if werr != nil {
		return nil, werr
	}
	if o == nil {
		o = e.newHashObject()
		e.traceHash(key, o)
		e.add(key, o)
	}
	return o, nil
}

func valueReply(s []byte, iv int64, isInt bool) Reply {
	if isInt {
		return bulkInt(iv)
	}
	return Bulk(s)
}

func cmdHSet(e *Engine, args [][]byte) Reply {
	if len(args)%2 == 1 {
		return errArity(lowerASCII(args[0]))
	}
	dirty := e.cfg.stats.dirty
	o, werr := e.lookupHashOrCreate(args[1])
	if werr != nil {
		return *werr
	}
	e.hashTryConversion(o, args[2:])
	created := int64(0)
	for i := 2; i < len(args); i += 2 {
		if !e.hashSet(o, args[i], args[i+1], false) {
			created++
		}
	}
	e.signalModifiedBytes(e.db, args[1])
	e.cfg.stats.dirty = dirty + int64(len(args)-2)/2 // hsetCommand's server.dirty += (c->argc - 2)/2
	if args[0][1] == 's' || args[0][1] == 'S' {
		return Int(created)
	}
	return OK
}

func cmdHSetNX(e *Engine, args [][]byte) Reply {
	dirty := e.cfg.stats.dirty
	o, werr := e.lookupHashOrCreate(args[1])
	if werr != nil {
		return *werr
	}
	_, _, _, res := e.hashGet(args[1], o, args[2], true)
	if res == getOK {
		return Int(0)
	}
	if res == getExpiredHash {
		o = e.newHashObject()
		e.traceHash(args[1], o)
		e.add(args[1], o)
	}
	e.hashTryConversion(o, args[2:4])
	e.hashSet(o, args[2], args[3], false)
	e.changed(args[1], dirty, 1) // hsetnxCommand's one server.dirty++ (the hash created is no change of its own)
	return Int(1)
}

func cmdHGet(e *Engine, args [][]byte) Reply {
	o, werr := e.lookupTyped(args[1], TypeHash)
	if o == nil {
		return orMissing(werr, NilReply)
	}
	s, iv, isInt, res := e.hashGet(args[1], o, args[2], true)
	if res != getOK {
		return NilReply
	}
	return valueReply(s, iv, isInt)
}

func cmdHMGet(e *Engine, args [][]byte) Reply {
	o, werr := e.lookupTyped(args[1], TypeHash)
	if werr != nil {
		return *werr
	}
	out, _ := e.hashGetFields(args[1], o, args[2:])
	return Reply{Kind: KindArray, Array: out}
}

// hashGetFields is the reply of HMGET and HGETEX for fields of hash o (nil: no hash): each
// value, or nil. A hash whose last fields expired while being read is gone: the object
// returned is then nil.
func (e *Engine) hashGetFields(key []byte, o *Object, fields [][]byte) ([]Reply, *Object) {
	out := make([]Reply, len(fields))
	for i, f := range fields {
		out[i] = NilReply
		if o == nil {
			continue
		}
		s, iv, isInt, res := e.hashGet(key, o, f, true)
		switch res {
		case getOK:
			out[i] = valueReply(s, iv, isInt)
		case getExpiredHash:
			o = nil
		}
	}
	return out, o
}

func cmdHDel(e *Engine, args [][]byte) Reply {
	return e.removeEach(args[1], TypeHash, args[2:], e.hashDelete, hashLen)
}

func cmdHLen(e *Engine, args [][]byte) Reply {
	o, werr := e.lookupTyped(args[1], TypeHash)
	if o == nil {
		return orMissing(werr, Int(0))
	}
	return Int(int64(hashLen(o)))
}

func cmdHExists(e *Engine, args [][]byte) Reply {
	o, werr := e.lookupTyped(args[1], TypeHash)
	if o == nil {
		return orMissing(werr, Int(0))
	}
	if _, _, _, res := e.hashGet(args[1], o, args[2], true); res == getOK {
		return Int(1)
	}
	return Int(0)
}

func cmdHStrlen(e *Engine, args [][]byte) Reply {
	o, werr := e.lookupTyped(args[1], TypeHash)
	if o == nil {
		return orMissing(werr, Int(0))
	}
	s, iv, isInt, res := e.hashGet(args[1], o, args[2], true)
	if res != getOK {
		return Int(0)
	}
	if isInt {
		return Int(int64(sdigits10(iv)))
	}
	return Int(int64(len(s)))
}

// HKEYS / HVALS / HGETALL (the RESP2 map is a flat array).
func cmdHGetAll(e *Engine, args [][]byte) Reply {
	keys := !eqFold(args[0], "hvals")
	vals := !eqFold(args[0], "hkeys")
	o, werr := e.lookupTyped(args[1], TypeHash)
	if o == nil {
		return orMissing(werr, EmptyArr.AsMapIf(keys && vals))
	}
	n := hashLen(o)
	if keys && vals {
		n *= 2
	}
	out := make([]Reply, 0, n)
	hashEach(o, func(f, s []byte, iv int64, isInt bool, expire int64) bool {
		if e.hashExpired(expire) {
			return true
		}
		if keys {
			out = append(out, Bulk(f))
		}
		if vals {
			out = append(out, valueReply(s, iv, isInt))
		}
		return true
	})
	return Reply{Kind: KindArray, Array: out}.AsMapIf(keys && vals)
}

// hashIncrField is the lookup HINCRBY and HINCRBYFLOAT share (hashTypeLookupWriteOrCreate, then
// hashTypeGetValue): the hash at key, created when missing, and the field's value (s, or iv when
// isInt); found is false for a missing field. A hash whose last field has just expired was
// deleted by the read: a new empty one takes its place.
func (e *Engine) hashIncrField(key, field []byte) (o *Object, s []byte, iv int64, isInt, found bool, werr *Reply) {
	o, werr = e.lookupHashOrCreate(key)
	if werr != nil {
		return nil, nil, 0, false, false, werr
	}
	s, iv, isInt, res := e.hashGet(key, o, field, true)
	if res == getExpiredHash {
		o = e.newHashObject()
		e.traceHash(key, o)
		e.add(key, o)
	}
	return o, s, iv, isInt, res == getOK, nil
}

func cmdHIncrBy(e *Engine, args [][]byte) Reply {
	incr, ok := string2ll(args[3])
	if !ok {
		return ErrNotInt
	}
	dirty := e.cfg.stats.dirty
	o, s, iv, isInt, found, werr := e.hashIncrField(args[1], args[2])
	if werr != nil {
		return *werr
	}
	var value int64
	if found {
		if isInt {
			value = iv
		} else if value, ok = string2ll(s); !ok {
			return Err("ERR hash value is not an integer")
		}
	}
	if (incr < 0 && value < 0 && incr < math.MinInt64-value) || (incr > 0 && value > 0 && incr > math.MaxInt64-value) {
		return ErrOverflow
	}
	value += incr
	e.hashSet(o, args[2], strconv.AppendInt(nil, value, 10), true)
	e.changed(args[1], dirty, 1) // hincrbyCommand's one server.dirty++
	return Int(value)
}

func cmdHIncrByFloat(e *Engine, args [][]byte) Reply {
	incr, ok := parseLongDouble(args[3])
	if !ok {
		return ErrNotFloat
	}
	if incr.IsInf() {
		return Err("ERR value is NaN or Infinity")
	}
	dirty := e.cfg.stats.dirty
	o, s, iv, isInt, found, werr := e.hashIncrField(args[1], args[2])
	if werr != nil {
		return *werr
	}
	value := ldFromInt(0)
	if found {
		if isInt {
			value = ldFromInt(iv)
		} else if value, ok = parseLongDouble(s); !ok {
			return Err("ERR hash value is not a float")
		}
	}
	sum, ok := ldAdd(value, incr)
	if !ok {
		return errIncrNaN
	}
	out := appendLongDouble(nil, sum)
	e.hashSet(o, args[2], out, true)
	e.changed(args[1], dirty, 1) // hincrbyfloatCommand's one server.dirty++
	return Bulk(out)
}

func cmdHScan(e *Engine, args [][]byte) Reply { return e.scanKey(args, TypeHash) }

// ---------------------------------------------------------------- HRANDFIELD

func cmdHRandField(e *Engine, args [][]byte) Reply {
	if len(args) >= 3 {
		l, withValues, r := parseRandWith(args, "withvalues")
		if r != nil {
			return *r
		}
		return e.hrandfieldWithCount(args[1], l, withValues).AsPairsIf(withValues)
	}
	o, werr := e.lookupTyped(args[1], TypeHash)
	if o == nil {
		return orMissing(werr, NilReply)
	}
	if e.ver.Has(V74) && e.hashExpireAll(args[1], o) {
		return NilReply
	}
	f, _ := e.hashRandomPair(o, false)
	return f
}

// hashRandomPair is hashTypeRandomElement: a fair random dict entry, or lpRandomPair's
// rand() % fields on a listpack.
func (e *Engine) hashRandomPair(o *Object, withValue bool) (field, value Reply) {
	v := hv(o)
	if o.Enc == EncHashtable {
		en := v.ht.GetFairRandomKey()
		e.emitPick(v.tkey, "hrandfield", "dict-fair-random", -1, []byte(en.Key))
		return BulkStr(en.Key), Bulk(en.Val.val)
	}
	tuple := hashTuple(o)
	i := int(e.rand31()%uint64(hashLen(o))) * tuple
	p := v.lp.Seek(i)
	s, iv, isInt, _ := v.lp.Get(p)
	field = valueReply(s, iv, isInt)
	e.emitPick(v.tkey, "hrandfield", "rand-index", i/tuple, []byte(field.Str))
	if withValue {
		s, iv, isInt, _ = v.lp.Get(v.lp.Next(p))
		value = valueReply(s, iv, isInt)
	}
	return field, value
}

func (e *Engine) hrandfieldWithCount(key []byte, l int64, withValues bool) Reply {
	o, werr := e.lookupTyped(key, TypeHash)
	if o == nil {
		return orMissing(werr, EmptyArr)
	}
	count, uniq := randCount(l)
	if e.ver.Has(V74) && e.hashExpireAll(key, o) {
		return EmptyArr
	}
	v := hv(o)
	size := uint64(hashLen(o))
	if count == 0 {
		return EmptyArr
	}
	var out []Reply
	add := func(f, val Reply) {
		out = append(out, f)
		if withValues {
			out = append(out, val)
		}
	}
	// CASE 1: negative count or 1.
	if !uniq || count == 1 {
		if count > maxRandomReply {
			return errTooManyPicks
		}
		if o.Enc == EncHashtable {
			for ; count > 0; count-- {
				f, val := e.hashRandomPair(o, withValues)
				add(f, val)
			}
		} else {
			for count > 0 {
				n := min(count, 1000)
				count -= n
				e.lpRandomPairs(o, int(n), add)
			}
		}
		return Reply{Kind: KindArray, Array: out}
	}
	// CASE 2: everything, in order.
	if count >= size {
		hashEach(o, func(f, s []byte, iv int64, isInt bool, _ int64) bool {
			add(Bulk(f), valueReply(s, iv, isInt))
			return true
		})
		return Reply{Kind: KindArray, Array: out}
	}
	// CASE 3: copy, then remove fair-random fields.
	if count*3 > size {
		tmp := dict.New[string, []byte](e.valueDictEnv())
		tmp.Expand(size)
		hashEach(o, func(f, s []byte, iv int64, isInt bool, _ int64) bool {
			var val []byte
			if withValues {
				if isInt {
					val = strconv.AppendInt(nil, iv, 10)
				} else {
					val = append([]byte{}, s...)
				}
			}
			tmp.Add(string(f), val)
			return true
		})
		dropFairRandom(e, tmp, count, v.tkey, "hrandfield")
		tmp.Range(func(en *dict.Entry[string, []byte]) bool {
			add(BulkStr(en.Key), Bulk(en.Val))
			return true
		})
		return Reply{Kind: KindArray, Array: out}
	}
	// CASE 4.
	if o.Enc != EncHashtable {
		// lpRandomPairsUnique: one lpNextRandom pass, listpack order.
		lp := v.lp
		tuple := hashTuple(o)
		p := lp.First()
		idx := 0
		for remaining := int(count); remaining > 0 && p >= 0; remaining-- {
			p = e.lpNextRandom(lp, p, &idx, remaining, tuple)
			if p < 0 {
				break
			}
			s, iv, isInt, _ := lp.Get(p)
			f := valueReply(s, iv, isInt)
			e.emitPick(v.tkey, "hrandfield", "lp-next-random", idx/tuple, []byte(f.Str))
			p = lp.Next(p)
			idx++
			s, iv, isInt, _ = lp.Get(p)
			add(f, valueReply(s, iv, isInt))
			p = lp.Next(p)
			idx++
		}
		return Reply{Kind: KindArray, Array: out}
	}
	seen := dict.New[string, struct{}](e.valueDictEnv())
	seen.Expand(count)
	for added := uint64(0); added < count; {
		f, val := e.hashRandomPair(o, withValues)
		if !seen.Add(f.Str, struct{}{}) {
			continue
		}
		added++
		add(f, val)
	}
	return Reply{Kind: KindArray, Array: out}
}

// lpRandomPairs is lpRandomPairs: n independent rand() % fields picks, fetched in one ordered
// pass and replied in pick order.
func (e *Engine) lpRandomPairs(o *Object, n int, add func(f, v Reply)) {
	v := hv(o)
	lp := v.lp
	tuple := hashTuple(o)
	total := hashLen(o)
	type pick struct{ index, order int }
	picks := make([]pick, n)
	for i := range picks {
		picks[i] = pick{int(e.rand31()%uint64(total)) * tuple, i}
	}
	sort.Slice(picks, func(a, b int) bool { return picks[a].index < picks[b].index })
	fs := make([]Reply, n)
	vs := make([]Reply, n)
	p := lp.Seek(picks[0].index)
	idx := picks[0].index
	pi := 0
	for p >= 0 && pi < n {
		s, iv, isInt, _ := lp.Get(p)
		f := valueReply(s, iv, isInt)
		p = lp.Next(p)
		s, iv, isInt, _ = lp.Get(p)
		val := valueReply(s, iv, isInt)
		for pi < n && idx == picks[pi].index {
			fs[picks[pi].order], vs[picks[pi].order] = f, val
			e.emitPick(v.tkey, "hrandfield", "rand-index", idx/tuple, []byte(f.Str))
			pi++
		}
		idx += tuple
		for i := 0; i < tuple-1 && p >= 0; i++ {
			p = lp.Next(p)
		}
	}
	for i := range fs {
		add(fs[i], vs[i])
	}
}

// ---------------------------------------------------------------- field expiration (7.4+)

// parseFieldsBlock checks "FIELDS numfields field…" starting at args[at] (the FIELDS keyword).
func parseFieldsBlock(args [][]byte, at int, numErr string) (int, Reply, bool) {
	if at >= len(args) || !eqFold(args[at], "fields") {
		return 0, errFieldsMissing, false
	}
	if at+1 >= len(args) {
		return 0, Err("ERR " + numErr), false
	}
	n, ok := string2ll(args[at+1])
	if !ok || n < 1 {
		return 0, Err("ERR " + numErr), false
	}
	if n != int64(len(args)-at-2) {
		return 0, Err("ERR The `numfields` parameter must match the number of arguments"), false
	}
	return int(n), Reply{}, true
}

func cmdHExpire(e *Engine, args [][]byte) Reply {
	name := lowerASCII(args[0])
	seconds := name == "hexpire" || name == "hexpireat"
	var base int64
	if name == "hexpire" || name == "hpexpire" {
		base = e.NowMs()
	}
	o, werr := e.lookupTyped(args[1], TypeHash)
	if werr != nil {
		return *werr
	}
	expire, r, ok := e.parseSubkeyExpire(args[2], seconds, base, name)
	if !ok {
		return r
	}
	at := 3
	cond := ""
	for _, c := range []string{"nx", "xx", "gt", "lt"} {
		if eqFold(args[3], c) {
			cond = c
			at = 4
		}
	}
	n, r, ok := parseFieldsBlock(args, at, "Parameter `numFields` should be greater than 0")
	if !ok {
		return r
	}
	out := make([]Reply, n)
	if o == nil {
		for i := range out {
			out[i] = Int(-2)
		}
		return Reply{Kind: KindArray, Array: out}
	}
	e.hashPrepareHFE(o)
	deleted := false
	for i, f := range args[at+2:] {
		res := e.hashSetExpiry(o, f, expire, cond)
		deleted = deleted || res == 2
		out[i] = Int(res)
		if res == 1 || res == 2 {
			e.signalModifiedBytes(e.db, args[1])
		}
	}
	if deleted && hashLen(o) == 0 {
		e.Delete(args[1])
	}
	return Reply{Kind: KindArray, Array: out}
}

func cmdHTTL(e *Engine, args [][]byte) Reply {
	name := lowerASCII(args[0])
	return e.hashEachField(args, func(o *Object, f []byte, now int64) int64 {
		_, _, _, expire, found := hashFind(o, f)
		switch {
		case !found:
			return -2
		case expire == 0:
			return -1
		case (o.Enc == EncListpackEx && expire <= now) || (o.Enc == EncHashtable && expire < now):
			return -2
		case name == "httl":
			return (expire + 999 - now) / 1000
		case name == "hpttl":
			return expire - now
		case name == "hexpiretime":
			return (expire + 999) / 1000
		default:
			return expire
		}
	})
}

func cmdHPersist(e *Engine, args [][]byte) Reply {
	return e.hashEachField(args, func(o *Object, f []byte, _ int64) int64 {
		res := e.hashPersist(o, f)
		if res == 1 {
			e.signalModifiedBytes(e.db, args[1])
		}
		return res
	})
}

// hashEachField is the loop HTTL, HPTTL, HEXPIRETIME, HPEXPIRETIME and HPERSIST share
// (httlGenericCommand, hpersistCommand): the hash at key (WRONGTYPE first), then FIELDS
// numfields, then one integer per field: -2 when the key is missing, else what field answers
// (now is the time read once, after the arguments).
func (e *Engine) hashEachField(args [][]byte, field func(o *Object, f []byte, now int64) int64) Reply {
	o, werr := e.lookupTyped(args[1], TypeHash)
	if werr != nil {
		return *werr
	}
	n, r, ok := parseFieldsBlock(args, 2, "Number of fields must be a positive integer")
	if !ok {
		return r
	}
	out := make([]Reply, n)
	now := e.NowMs()
	for i, f := range args[4:] {
		if o == nil {
			out[i] = Int(-2)
			continue
		}
		out[i] = Int(field(o, f, now))
	}
	return Reply{Kind: KindArray, Array: out}
}

// ---------------------------------------------------------------- 8.0: HSETEX HGETEX HGETDEL

// parseSubkeyExpire turns HEXPIRE's time or an EX/PX/EXAT/PXAT argument into absolute ms (HFE
// limits).
func (e *Engine) parseSubkeyExpire(arg []byte, unitSeconds bool, base int64, cmd string) (int64, Reply, bool) {
	v, ok := string2ll(arg)
	if !ok {
		return 0, ErrNotInt, false
	}
	if v < 0 {
		return 0, errExpireNegative, false
	}
	errTime := errInvalidExpire(cmd)
	if unitSeconds {
		if v > hfeMaxAbsTimeMs/1000 {
			return 0, errTime, false
		}
		v *= 1000
	}
	if v > hfeMaxAbsTimeMs-base {
		return 0, errTime, false
	}
	return v + base, Reply{}, true
}

// expireOption recognises EX/PX/EXAT/PXAT: seconds unit and relative base.
func (e *Engine) expireOption(a []byte) (isOpt, seconds bool, base int64) {
	switch {
	case eqFold(a, "ex"):
		return true, true, e.NowMs()
	case eqFold(a, "px"):
		return true, false, e.NowMs()
	case eqFold(a, "exat"):
		return true, true, 0
	case eqFold(a, "pxat"):
		return true, false, 0
	}
	return false, false, 0
}

// HSETEX key [FNX|FXX] [EX s|PX ms|EXAT s|PXAT ms|KEEPTTL] FIELDS numfields field value …
func cmdHSetEx(e *Engine, args [][]byte) Reply {
	cond := ""
	hasExp, keepTTL := false, false
	var expireAt int64
	first, nfields := -1, 0
	for i := 2; i < len(args); i++ {
		a := args[i]
		if eqFold(a, "fields") {
			if first != -1 {
				return Err("ERR FIELDS keyword specified multiple times")
			}
			if i+1 >= len(args) {
				return errArity("hsetex")
			}
			n, ok := string2ll(args[i+1])
			if !ok || n < 1 || n > math.MaxInt32 {
				return Err("ERR invalid number of fields")
			}
			first = i + 2
			nfields = int(n)
			if int64(first)+2*n != int64(len(args)) {
				return errArity("hsetex") // the FIELDS block must end the command
			}
			i = first + 2*nfields - 1
			continue
		}
		if isOpt, secs, base := e.expireOption(a); isOpt {
			if hasExp || keepTTL {
				return errOnlyOneExpiry
			}
			if i+1 >= len(args) {
				return Err("ERR missing expire time")
			}
			i++
			t, r, ok := e.parseSubkeyExpire(args[i], secs, base, "hsetex")
			if !ok {
				return r
			}
			hasExp, expireAt = true, t
			continue
		}
		switch {
		case eqFold(a, "keepttl"):
			if hasExp || keepTTL {
				return errOnlyOneExpiry
			}
			keepTTL = true
		case eqFold(a, "fnx") || eqFold(a, "fxx"):
			if cond != "" {
				return Err("ERR Only one of FXX or FNX arguments can be specified")
			}
			cond = lowerASCII(a)
		default:
			return Err(cleanErr("ERR unknown argument: " + string(a)))
		}
	}
	if first == -1 {
		return Err("ERR missing FIELDS argument")
	}
	if first+2*nfields != len(args) {
		return errArity("hsetex")
	}
	o, werr := e.lookupTyped(args[1], TypeHash)
	if werr != nil {
		return *werr
	}
	pairs := args[first : first+2*nfields]
	if cond != "" {
		for i := 0; i < len(pairs); i += 2 {
			exists := false
			if o != nil {
				_, _, _, res := e.hashGet(args[1], o, pairs[i], true)
				exists = res == getOK
				if res == getExpiredHash {
					o = nil
				}
			}
			if (cond == "fnx" && exists) || (cond == "fxx" && !exists) {
				return Int(0)
			}
		}
	}
	if o == nil {
		o = e.newHashObject()
		e.traceHash(args[1], o)
		e.add(args[1], o)
	}
	e.hashTryConversion(o, pairs)
	for i := 0; i < len(pairs); i += 2 {
		e.hashSet(o, pairs[i], pairs[i+1], keepTTL)
	}
	if hasExp {
		e.hashPrepareHFE(o)
		for i := 0; i < len(pairs); i += 2 {
			e.hashSetExpiry(o, pairs[i], expireAt, "")
		}
		if hashLen(o) == 0 {
			e.Delete(args[1])
		}
	}
	e.signalModifiedBytes(e.db, args[1])
	return Int(1)
}

// HGETEX key [EX s|PX ms|EXAT s|PXAT ms|PERSIST] FIELDS numfields field …
func cmdHGetEx(e *Engine, args [][]byte) Reply {
	hasExp, persist := false, false
	var expireAt int64
	at := 2
	for at < len(args) && !eqFold(args[at], "fields") {
		a := args[at]
		isOpt, secs, base := e.expireOption(a)
		switch {
		case isOpt || eqFold(a, "persist"):
			if hasExp || persist {
				return Err("ERR Only one of EX, PX, EXAT, PXAT or PERSIST arguments can be specified")
			}
			if !isOpt {
				persist = true
				at++
				continue
			}
			if at+1 >= len(args) {
				return ErrSyntax
			}
			t, r, ok := e.parseSubkeyExpire(args[at+1], secs, base, "hgetex")
			if !ok {
				return r
			}
			hasExp, expireAt = true, t
			at += 2
		default:
			return errFieldsMissing
		}
	}
	_, r, ok := parseFieldsBlock(args, at, "Number of fields must be a positive integer")
	if !ok {
		return r
	}
	o, werr := e.lookupTyped(args[1], TypeHash)
	if werr != nil {
		return *werr
	}
	fields := args[at+2:]
	out, o := e.hashGetFields(args[1], o, fields)
	if o != nil && (hasExp || persist) {
		if hasExp {
			e.hashPrepareHFE(o)
			for _, f := range fields {
				if res := e.hashSetExpiry(o, f, expireAt, ""); res == 1 || res == 2 {
					e.signalModifiedBytes(e.db, args[1])
				}
			}
			if hashLen(o) == 0 {
				e.Delete(args[1])
			}
		} else if o.Enc != EncListpack {
			for _, f := range fields {
				if e.hashPersist(o, f) == 1 {
					e.signalModifiedBytes(e.db, args[1])
				}
			}
		}
	}
	return Reply{Kind: KindArray, Array: out}
}

// HGETDEL key FIELDS numfields field …
func cmdHGetDel(e *Engine, args [][]byte) Reply {
	n, r, ok := parseFieldsBlock(args, 2, "Number of fields must be a positive integer")
	if !ok {
		return r
	}
	o, werr := e.lookupTyped(args[1], TypeHash)
	if werr != nil {
		return *werr
	}
	out := make([]Reply, n)
	for i, f := range args[4:] {
		out[i] = NilReply
		if o == nil {
			continue
		}
		s, iv, isInt, res := e.hashGet(args[1], o, f, true)
		switch res {
		case getOK:
			out[i] = valueReply(s, iv, isInt)
			e.hashDelete(o, f)
			e.signalModifiedBytes(e.db, args[1])
			if hashLen(o) == 0 {
				e.Delete(args[1])
				o = nil
			}
		case getExpiredHash:
			o = nil
		}
	}
	return Reply{Kind: KindArray, Array: out}
}
