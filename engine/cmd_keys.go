package engine

import (
	"math"
	"strconv"

	"redscope/engine/sds"
)

// Key-space commands: DEL UNLINK EXISTS TYPE TTL PTTL EXPIRE PEXPIRE EXPIREAT PEXPIREAT
// EXPIRETIME PEXPIRETIME PERSIST RENAME RENAMENX COPY DBSIZE FLUSHALL FLUSHDB KEYS SCAN RANDOMKEY
// TOUCH, answering as Redis 7.0.15 does (db.c, expire.c).

// ValueCloner is implemented by the Val of aggregate objects (lists, sets, zsets, hashes): COPY
// stores the deep copy it returns.
type ValueCloner interface{ CloneValue() any }

func init() {
	register(
		&Command{Name: "del", Arity: -2, Flags: FlagWrite, FirstKey: 1, LastKey: -1, Step: 1, Cats: "keyspace", Tips: "request_policy:multi_shard response_policy:agg_sum", KeyFlags: []string{"RM delete"}, Paged: true, Fn: cmdDel},
		&Command{Name: "unlink", Arity: -2, Flags: FlagWrite | FlagFast, FirstKey: 1, LastKey: -1, Step: 1, Cats: "keyspace", Tips: "request_policy:multi_shard response_policy:agg_sum", KeyFlags: []string{"RM delete"}, Paged: true, Fn: cmdDel},
		&Command{Name: "exists", Arity: -2, Flags: FlagReadonly | FlagFast, FirstKey: 1, LastKey: -1, Step: 1, Cats: "keyspace", Tips: "request_policy:multi_shard response_policy:agg_sum", KeyFlags: []string{"RO"}, Paged: true, Fn: cmdExists},
		&Command{Name: "touch", Arity: -2, Flags: FlagReadonly | FlagFast, FirstKey: 1, LastKey: -1, Step: 1, Cats: "keyspace", Tips: "request_policy:multi_shard response_policy:agg_sum", KeyFlags: []string{"RO"}, Paged: true, Fn: cmdExists},
		&Command{Name: "type", Arity: 2, Flags: FlagReadonly | FlagFast, Cats: "keyspace", KeyFlags: []string{"RO"}, Paged: true, Fn: cmdType},
		&Command{Name: "ttl", Arity: 2, Flags: FlagReadonly | FlagFast, Cats: "keyspace", Tips: "nondeterministic_output", Paged: true, Fn: cmdTTL},
		&Command{Name: "pttl", Arity: 2, Flags: FlagReadonly | FlagFast, Cats: "keyspace", Tips: "nondeterministic_output", Paged: true, Fn: cmdTTL},
		&Command{Name: "expiretime", Arity: 2, Flags: FlagReadonly | FlagFast, Cats: "keyspace", Paged: true, Fn: cmdTTL},
		&Command{Name: "pexpiretime", Arity: 2, Flags: FlagReadonly | FlagFast, Cats: "keyspace", Paged: true, Fn: cmdTTL},
		&Command{Name: "expire", Arity: -3, Flags: FlagWrite | FlagFast, Cats: "keyspace", Paged: true, Fn: cmdExpire},
		&Command{Name: "pexpire", Arity: -3, Flags: FlagWrite | FlagFast, Cats: "keyspace", Paged: true, Fn: cmdExpire},
		&Command{Name: "expireat", Arity: -3, Flags: FlagWrite | FlagFast, Cats: "keyspace", Paged: true, Fn: cmdExpire},
		&Command{Name: "pexpireat", Arity: -3, Flags: FlagWrite | FlagFast, Cats: "keyspace", Paged: true, Fn: cmdExpire},
		&Command{Name: "persist", Arity: 2, Flags: FlagWrite | FlagFast, Cats: "keyspace", Paged: true, Fn: cmdPersist},
		&Command{Name: "rename", Arity: 3, Flags: FlagWrite, FirstKey: 1, LastKey: 2, Step: 1, Cats: "keyspace", KeyFlags: []string{"RW access delete", "OW update"}, Paged: true, Fn: cmdRename},
		&Command{Name: "renamenx", Arity: 3, Flags: FlagWrite | FlagFast, FirstKey: 1, LastKey: 2, Step: 1, Cats: "keyspace", KeyFlags: []string{"RW access delete", "OW insert"}, Paged: true, Fn: cmdRename},
		&Command{Name: "copy", Arity: -3, Flags: FlagWrite | FlagDenyOOM, FirstKey: 1, LastKey: 2, Step: 1, Cats: "keyspace", KeyFlags: []string{"RO access", "OW update"}, Paged: true, Fn: cmdCopy},
		&Command{Name: "dbsize", Arity: 1, Flags: FlagReadonly | FlagFast, Cats: "keyspace", Tips: "request_policy:all_shards response_policy:agg_sum", Keyless: true, Fn: cmdDBSize},
		&Command{Name: "flushall", Arity: -1, Flags: FlagWrite, Cats: "keyspace dangerous", Tips: "request_policy:all_shards response_policy:all_succeeded", Keyless: true, Fn: cmdFlush},
		&Command{Name: "flushdb", Arity: -1, Flags: FlagWrite, Cats: "keyspace dangerous", Tips: "request_policy:all_shards response_policy:all_succeeded", Keyless: true, Fn: cmdFlush},
		&Command{Name: "keys", Arity: 2, Flags: FlagReadonly, Cats: "keyspace dangerous", Tips: "request_policy:all_shards nondeterministic_output_order", Keyless: true, Fn: cmdKeys},
		&Command{Name: "scan", Arity: -2, Flags: FlagReadonly, Cats: "keyspace", Tips: "nondeterministic_output request_policy:special", Keyless: true, Fn: cmdScan},
		&Command{Name: "randomkey", Arity: 1, Flags: FlagReadonly, Cats: "keyspace", Tips: "request_policy:all_shards nondeterministic_output", Keyless: true, Fn: cmdRandomKey},
	)
}

// DEL / UNLINK: an expired key is removed by the lookup and does not count.
func cmdDel(e *Engine, args [][]byte) Reply {
	var n int64
	for _, k := range args[1:] {
		if e.expireIfNeeded(string(k)) {
			continue
		}
		if e.Delete(k) {
			n++
		}
	}
	return Int(n)
}

// EXISTS / TOUCH count live keys (a key named twice counts twice).
func cmdExists(e *Engine, args [][]byte) Reply {
	var n int64
	for _, k := range args[1:] {
		if e.Lookup(k) != nil {
			n++
		}
	}
	return Int(n)
}

func cmdType(e *Engine, args [][]byte) Reply {
	o := e.Lookup(args[1])
	if o == nil {
		return Status("none")
	}
	return Status(o.Type.String())
}

// TTL PTTL EXPIRETIME PEXPIRETIME (ttlGenericCommand): -2 missing, -1 no expiry; seconds are
// rounded to nearest, (ms+500)/1000.
func cmdTTL(e *Engine, args [][]byte) Reply {
	name := args[0]
	ms := eqFold(name, "pttl") || eqFold(name, "pexpiretime")
	abs := eqFold(name, "expiretime") || eqFold(name, "pexpiretime")
	if e.Lookup(args[1]) == nil {
		return Int(-2)
	}
	when := e.Expire(string(args[1]))
	if when == -1 {
		return Int(-1)
	}
	t := when
	if !abs {
		t = when - e.NowMs()
	}
	if t < 0 {
		t = 0
	}
	if ms {
		return Int(t)
	}
	// Rounded in unsigned arithmetic: PEXPIREAT k 9223372036854775807 then EXPIRETIME k gives
	// 9223372036854776 on a real server, not an overflow.
	return Int(int64((uint64(t) + 500) / 1000))
}

const (
	expireNX = 1 << iota
	expireXX
	expireGT
	expireLT
)

// expireCondKeywords are EXPIRE's conditions.
var expireCondKeywords = []strKeyword{{"nx", expireNX}, {"xx", expireXX}, {"gt", expireGT}, {"lt", expireLT}}

// EXPIRE PEXPIRE EXPIREAT PEXPIREAT (expireGenericCommand).
func cmdExpire(e *Engine, args [][]byte) Reply {
	var cmd string
	var seconds, relative bool
	switch {
	case eqFold(args[0], "expire"):
		cmd, seconds, relative = "expire", true, true
	case eqFold(args[0], "pexpire"):
		cmd, relative = "pexpire", true
	case eqFold(args[0], "expireat"):
		cmd, seconds = "expireat", true
	default:
		cmd = "pexpireat"
	}
	flags := 0
	for _, a := range args[3:] {
		f := keywordFlag(a, expireCondKeywords)
		if f == 0 {
			return Err(cleanErr("ERR Unsupported option " + string(a)))
		}
		flags |= f
	}
	if flags&expireNX != 0 && flags&(expireXX|expireGT|expireLT) != 0 {
		return Err("ERR NX and XX, GT or LT options at the same time are not compatible")
	}
	if flags&expireGT != 0 && flags&expireLT != 0 {
		return Err("ERR GT and LT options at the same time are not compatible")
	}
	when, ok := string2ll(args[2])
	if !ok {
		return ErrNotInt
	}
	invalid := errInvalidExpire(cmd)
	if seconds {
		if when > math.MaxInt64/1000 || when < math.MinInt64/1000 {
			return invalid
		}
		when *= 1000
	}
	var base int64
	if relative {
		base = e.NowMs()
	}
	if when > math.MaxInt64-base {
		return invalid
	}
	when += base
	key := args[1]
	if e.Lookup(key) == nil {
		return Int(0)
	}
	if flags != 0 {
		cur := e.Expire(string(key))
		if flags&expireNX != 0 && cur != -1 {
			return Int(0)
		}
		if flags&expireXX != 0 && cur == -1 {
			return Int(0)
		}
		if flags&expireGT != 0 && (cur == -1 || when <= cur) {
			return Int(0)
		}
		if flags&expireLT != 0 && cur != -1 && when >= cur {
			return Int(0)
		}
	}
	if when <= e.NowMs() {
		e.Delete(key)
		return Int(1)
	}
	e.setExpire(string(key), when)
	e.cfg.stats.dirty++ // expireGenericCommand's server.dirty++
	return Int(1)
}

func cmdPersist(e *Engine, args [][]byte) Reply {
	if e.Lookup(args[1]) == nil {
		return Int(0)
	}
	if e.removeExpire(string(args[1])) {
		e.cfg.stats.dirty++ // persistCommand's server.dirty++
		return Int(1)
	}
	return Int(0)
}

// RENAME / RENAMENX: the value object moves to the new name with its TTL.
func cmdRename(e *Engine, args [][]byte) Reply {
	nx := eqFold(args[0], "renamenx")
	dirty := e.cfg.stats.dirty
	src, dst := args[1], args[2]
	o := e.Lookup(src)
	if o == nil {
		return ErrNoSuchKey
	}
	if string(src) == string(dst) {
		if nx {
			return Int(0)
		}
		return OK
	}
	when := e.Expire(string(src))
	if e.Lookup(dst) != nil {
		if nx {
			return Int(0)
		}
		e.Delete(dst)
	}
	s, d := string(src), string(dst)
	delete(e.db.keys, s)
	delete(e.db.expires, s)
	e.db.keys[d] = o
	e.keyBorn(d)
	e.emit(KeyEvent{Key: s, Action: "renamed", Type: o.Type.String(), To: d})
	e.signalReady(d, o.Type) // RENAME's dbAdd of the new name (blocking.go)
	e.signalStreamGone(s, o) // then its dbDelete of the old one
	if when != -1 {
		e.db.expires[d] = when
		e.emit(TTLEvent{Key: d, Action: "set", Before: -1, After: when})
	}
	e.signalModifiedKey(e.db, s)
	e.signalModifiedKey(e.db, d)
	e.cfg.stats.dirty = dirty + 1 // renameGenericCommand's one server.dirty++ (the deletions and the move are no changes of their own)
	if nx {
		return Int(1)
	}
	return OK
}

// COPY source destination [DB destination-db] [REPLACE].
func cmdCopy(e *Engine, args [][]byte) Reply {
	replace := false
	srcDB := e.db
	dstDB := e.db
	for j := 3; j < len(args); j++ {
		switch {
		case eqFold(args[j], "replace"):
			replace = true
		case eqFold(args[j], "db") && j+1 < len(args):
			n, ok := string2ll(args[j+1])
			if !ok || n < math.MinInt32 || n > math.MaxInt32 {
				return ErrNotInt
			}
			if n < 0 || int(n) >= len(e.dbs) {
				return errDBIndex
			}
			dstDB = e.dbs[n]
			j++
		default:
			return ErrSyntax
		}
	}
	src, dst := args[1], args[2]
	if srcDB == dstDB && string(src) == string(dst) {
		return errSameObject
	}
	dirty := e.cfg.stats.dirty
	if !e.keyToDB(src, dst, dstDB, replace, e.cloneObject) {
		return Int(0)
	}
	e.cfg.stats.dirty = dirty + 1 // copyCommand's one server.dirty++ (a value replaced is no change of its own)
	return Int(1)
}

// keyToDB is the write COPY and MOVE share (copyCommand, moveCommand): the value at src in the
// current database and its expiry go to dst in dstDB, as the object val makes of the source's
// (COPY clones it, MOVE takes it as it is). A value already at dst is deleted first with
// replace; without, nothing is written. It reports whether dst was written; the current
// database is the source's again when it returns.
func (e *Engine) keyToDB(src, dst []byte, dstDB *DB, replace bool, val func(*Object) *Object) bool {
	srcDB := e.db
	o := e.Lookup(src)
	if o == nil {
		return false
	}
	when := e.Expire(string(src))
	e.db = dstDB
	defer func() { e.db = srcDB }()
	if e.Lookup(dst) != nil {
		if !replace {
			return false
		}
		e.Delete(dst)
	}
	e.add(dst, val(o))
	if when != -1 {
		e.setExpire(string(dst), when)
	}
	return true
}

// cloneObject is COPY's deep copy: strings as dupStringObject makes them (an int stays int but is
// no longer shared; embstr stays embstr; raw becomes an exact-size raw sds), other types through
// ValueCloner.
func (e *Engine) cloneObject(o *Object) *Object {
	n := &Object{Type: o.Type, Enc: o.Enc}
	if o.Type == TypeString {
		switch o.Enc {
		case EncInt:
			n.Int = o.Int
		case EncEmbstr:
			b := o.Buf.Bytes()
			n.Buf = sds.FromBytes(b)
			n.SDS = sds.Header{Type: sds.Type8, Len: len(b), Alloc: len(b)}
		default:
			// Clone keeps a huge sparse bitmap sparse (a 512 MiB value with one bit set
			// stays one page); the modelled allocation is the exact copy Redis makes.
			n.Buf = o.Buf.Clone()
			n.SDS = sds.New(e.alloc, o.Buf.Len())
		}
		return n
	}
	n.Int = o.Int
	n.SDS = o.SDS
	if c, ok := o.Val.(ValueCloner); ok && o.Val != nil {
		n.Val = c.CloneValue()
	} else {
		n.Val = o.Val
	}
	return n
}

func cmdDBSize(e *Engine, args [][]byte) Reply { return Int(int64(e.KeyCount())) }

// FLUSHALL / FLUSHDB [ASYNC|SYNC].
func cmdFlush(e *Engine, args [][]byte) Reply {
	if len(args) > 2 || (len(args) == 2 && !eqFold(args[1], "async") && !eqFold(args[1], "sync")) {
		return ErrSyntax
	}
	if eqFold(args[0], "flushall") {
		e.cfg.stats.dirty += e.emptyData(true) // flushAllDataAndResetRDB (persist.go)
		e.flushAllSave()
	} else {
		e.signalFlushedDb(e.dbIndex(e.db))
		e.cfg.stats.dirty += int64(len(e.db.keys))
		e.flushCurrent()
	}
	return OK
}

// flushCurrent empties the current db in place (other references to the DB stay valid).
func (e *Engine) flushCurrent() {
	if e.tracing {
		for _, k := range e.SortedKeys() {
			e.emit(KeyEvent{Key: k, Action: "deleted", Type: e.db.keys[k].Type.String()})
		}
	}
	e.scanDeletedStreams(e.dbIndex(e.db), nil)
	clear(e.db.keys)
	clear(e.db.expires)
}

// keyIsExpired reports a key whose time has passed, without deleting it.
func (e *Engine) keyIsExpired(key string) bool {
	when, ok := e.db.expires[key]
	return ok && e.NowMs() > when
}

// KEYS pattern: expired keys are skipped but not deleted.
func cmdKeys(e *Engine, args [][]byte) Reply {
	pat := args[1]
	all := len(pat) == 1 && pat[0] == '*'
	out := []Reply{}
	for _, k := range e.SortedKeys() {
		if (all || stringMatch(pat, []byte(k), false)) && !e.keyIsExpired(k) {
			out = append(out, BulkStr(k))
		}
	}
	return Reply{Kind: KindArray, Array: out}
}

// parseScanCursor is parseScanCursorOrReply: strtoul base 10 (a leading '+' or '-' is
// accepted, '-n' wraps around), no leading space, nothing after the digits, no overflow.
func parseScanCursor(b []byte) (uint64, bool) {
	if len(b) > 0 && (b[0] == ' ' || (b[0] >= '\t' && b[0] <= '\r')) {
		return 0, false
	}
	i := 0
	neg := false
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		neg = b[i] == '-'
		i++
	}
	if i == len(b) {
		// strtoul parsed nothing: endptr is the start of the string.
		return 0, len(b) == 0
	}
	var v uint64
	for ; i < len(b); i++ {
		c := b[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		d := uint64(c - '0')
		if v > (math.MaxUint64-d)/10 {
			return 0, false
		}
		v = v*10 + d
	}
	if neg {
		v = -v
	}
	return v, true
}

// scanOptions are the options of SCAN, SSCAN, HSCAN and ZSCAN, read as scanGenericCommand
// (db.c) reads them: left to right, COUNT (an integer, at least 1) and MATCH for all, TYPE for
// SCAN alone, NOVALUES for HSCAN (7.4+); anything else, or an option missing its value, is a
// syntax error, found before any walking.
type scanOptions struct {
	count    int64
	pat      []byte // nil when there is none or it is "*" (everything matches)
	typ      []byte
	noValues bool
}

func parseScanOptions(args [][]byte, i int, typeOpt, noValuesOpt bool) (scanOptions, *Reply) {
	so := scanOptions{count: 10}
	for i < len(args) {
		j := len(args) - i
		switch {
		case eqFold(args[i], "count") && j >= 2:
			n, ok := string2ll(args[i+1])
			if !ok {
				return so, &ErrNotInt
			}
			if n < 1 {
				return so, &ErrSyntax
			}
			so.count = n
			i += 2
		case eqFold(args[i], "match") && j >= 2:
			so.pat = args[i+1]
			i += 2
		case typeOpt && eqFold(args[i], "type") && j >= 2:
			so.typ = args[i+1]
			i += 2
		case noValuesOpt && eqFold(args[i], "novalues"):
			so.noValues = true
			i++
		default:
			return so, &ErrSyntax
		}
	}
	if len(so.pat) == 1 && so.pat[0] == '*' {
		so.pat = nil
	}
	return so, nil
}

// match reports whether an element passes MATCH.
func (so *scanOptions) match(b []byte) bool { return so.pat == nil || stringMatch(so.pat, b, false) }

// scanKey is SSCAN, HSCAN and ZSCAN key cursor …: the cursor is checked first, then the key
// (missing: cursor 0 and nothing), then the options; the value is walked by its type.
func (e *Engine) scanKey(args [][]byte, t ObjType) Reply {
	cursor, ok := parseScanCursor(args[2])
	if !ok {
		return errInvalidCursor
	}
	o, werr := e.lookupTyped(args[1], t)
	if o == nil {
		return orMissing(werr, Array(BulkStr("0"), EmptyArr))
	}
	so, r := parseScanOptions(args, 3, false, t == TypeHash && e.ver.Has(V74))
	if r != nil {
		return *r
	}
	if t == TypeZSet {
		return e.zscanValue(args[1], o, cursor, so)
	}
	return e.scanValue(o, cursor, so)
}

// SCAN cursor [MATCH pattern] [COUNT count] [TYPE type]. The cursor is an index into the sorted
// key list; expired keys of the page are deleted as Redis does, and the cursor steps back over
// them so the iteration guarantee holds.
func cmdScan(e *Engine, args [][]byte) Reply {
	cursor, ok := parseScanCursor(args[1])
	if !ok {
		return errInvalidCursor
	}
	so, r := parseScanOptions(args, 2, true, false)
	if r != nil {
		return *r
	}
	count, typ := so.count, so.typ
	keys := e.SortedKeys()
	var next uint64
	var page []string
	if cursor < uint64(len(keys)) {
		end := uint64(len(keys))
		if uint64(count) < end-cursor {
			end = cursor + uint64(count)
			next = end
		}
		page = keys[cursor:end]
	}
	out := []Reply{}
	expired := uint64(0)
	for _, k := range page {
		if !so.match([]byte(k)) {
			continue
		}
		// A key of the page that matches the pattern and has expired is deleted, with or
		// without TYPE (db.c, scanGenericCommand: lookupKeyReadWithFlags for TYPE, else
		// expireIfNeeded), so INFO keyspace no longer counts it after the scan.
		if e.expireIfNeeded(k) {
			expired++
			continue
		}
		if typ != nil && !eqFoldStr(typ, e.db.keys[k].Type.String()) {
			continue
		}
		out = append(out, BulkStr(k))
	}
	// The keys after the page moved down by the keys just deleted: the next cursor follows
	// them, so the iteration still returns every key present for the whole scan.
	if next > 0 {
		next -= expired
	}
	return Array(BulkStr(strconv.FormatUint(next, 10)), Reply{Kind: KindArray, Array: out})
}

// eqFoldStr compares ASCII case-insensitively.
func eqFoldStr(a []byte, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// RANDOMKEY: a random live key (expired picks are deleted and the draw repeated), or nil.
func cmdRandomKey(e *Engine, args [][]byte) Reply {
	for e.KeyCount() > 0 {
		keys := e.SortedKeys()
		k := keys[e.rng.IntN(len(keys))]
		if e.expireIfNeeded(k) {
			continue
		}
		return BulkStr(k)
	}
	return NilReply
}

// stringMatch is Redis's glob matcher (stringmatchlen, 7.0.15): * ? [abc] [^a] [a-z] (reversed
// ranges are swapped) and \x escapes. A '[' class left open runs to the end of the pattern.
//
// A pattern that nests '*' more than 1000 deep matches nothing (the fix of CVE-2024-31228 in
// util.c, stringmatchlen_impl; Debian's 7.0.15 carries it too): "*?" repeated 1001 times never
// matches, so KEYS with 50 000 such pairs answers at once instead of recursing 50 000 deep.
func stringMatch(pattern, str []byte, nocase bool) bool {
	skip := false
	return globMatch(pattern, str, nocase, &skip, 0)
}

// matchNestingLimit is how deep '*' may nest in a glob pattern.
const matchNestingLimit = 1000

func globMatch(p, s []byte, nocase bool, skipLonger *bool, nesting int) bool {
	if nesting > matchNestingLimit {
		return false
	}
	// at returns p[i], or 0 past the end (the C code reads the string's terminating NUL).
	at := func(i int) byte {
		if i < len(p) && i >= 0 {
			return p[i]
		}
		return 0
	}
	lower := func(c byte) byte {
		if nocase && 'A' <= c && c <= 'Z' {
			return c + 'a' - 'A'
		}
		return c
	}
	pi, si := 0, 0
	plen, slen := len(p), len(s)
	for plen > 0 && slen > 0 {
		switch at(pi) {
		case '*':
			for plen > 0 && at(pi+1) == '*' {
				pi++
				plen--
			}
			if plen == 1 {
				return true
			}
			for slen > 0 {
				if globMatch(p[pi+1:pi+plen], s[si:si+slen], nocase, skipLonger, nesting+1) {
					return true
				}
				if *skipLonger {
					return false
				}
				si++
				slen--
			}
			*skipLonger = true
			return false
		case '?':
			si++
			slen--
		case '[':
			pi++
			plen--
			not := at(pi) == '^'
			if not {
				pi++
				plen--
			}
			match := false
			c := s[si]
			for {
				if at(pi) == '\\' && plen >= 2 {
					pi++
					plen--
					if at(pi) == c {
						match = true
					}
				} else if at(pi) == ']' {
					break
				} else if plen == 0 {
					pi--
					plen++
					break
				} else if plen >= 3 && at(pi+1) == '-' {
					start, end := at(pi), at(pi+2)
					if start > end {
						start, end = end, start
					}
					cc := c
					if nocase {
						start, end, cc = lower(start), lower(end), lower(c)
					}
					pi += 2
					plen -= 2
					if cc >= start && cc <= end {
						match = true
					}
				} else if lower(at(pi)) == lower(c) {
					match = true
				}
				pi++
				plen--
			}
			if not {
				match = !match
			}
			if !match {
				return false
			}
			si++
			slen--
		case '\\':
			if plen >= 2 {
				pi++
				plen--
			}
			fallthrough
		default:
			if lower(at(pi)) != lower(s[si]) {
				return false
			}
			si++
			slen--
		}
		pi++
		plen--
		if slen == 0 {
			for at(pi) == '*' {
				pi++
				plen--
			}
			break
		}
	}
	return plen == 0 && slen == 0
}
