package engine

import (
	"crypto/sha1"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"redscope/engine/dict"
)

// The DEBUG subcommands (debug.c debugCommand of 7.0.15) and the access tracking behind OBJECT
// IDLETIME / FREQ (evict.c, object.c).
//
// DEBUG OBJECT prints "Value at:<address> refcount:1 encoding:listpack serializedlength:14
// lru:<clock> lru_seconds_idle:0" (+ " ql_nodes:1 ql_avg_node:3.00 ql_listpack_max:-2
// ql_compressed:0 ql_uncompressed_size:19" for a quicklist). serializedlength is the value's
// RDB size (engine/rdb.go, LZF included); the address is a made-up, stable number (there is no
// C pointer); lru is the 24-bit LRU clock in seconds of the last access (LRU policies) or the
// LFU word ldt<<8 | counter (LFU policies), as the object's 24-bit field holds them.
//
// DEBUG DIGEST / DIGEST-VALUE are Redis's order-independent dataset hash: per key, SHA1-based
// mixDigest (xor the SHA1 of the data into the 20-byte digest, then replace the digest by its
// own SHA1) of the key, the 4-byte big-endian type, the value (strings and list elements mixed
// in order; set members xored; hash field/value and zset member/score-as-%.17g pairs mixed in a
// per-element digest that is xored in; stream IDs as "ms.seq" then fields and values mixed) and
// "!!expire!!" xored in when the key has a TTL; keys are xored into the final digest after the
// 4-byte db index is mixed in. An empty dataset is forty zeros.
//
// DEBUG POPULATE makes "key:N" = "value:N" strings (embstr, zero-padded to the size given).
//
// DEBUG RELOAD saves every key of every database in its RDB form and loads it back, so
// encodings change as on the server (a small hashtable set of integers comes back as an intset,
// a small skiplist zset as a listpack; keys already expired are dropped by the load). DEBUG
// SLEEP blocks a server running on real time, as Redis does; on the logical clock (lessons, the
// browser) it advances the clock instead of freezing the page. SET-ACTIVE-EXPIRE 0 stops the
// active expire cycle a protocol server runs (Engine.ActiveExpireCycle, db.go); the page has
// none (keys expire when touched).

// debugState holds what the DEBUG subcommands switch on and off.
type debugState struct {
	skipChecksum    bool         // DEBUG SET-SKIP-CHECKSUM-VALIDATION
	noActiveExpire  bool         // DEBUG SET-ACTIVE-EXPIRE 0
	packedThreshold int          // DEBUG QUICKLIST-PACKED-THRESHOLD (0: the default 1 GiB)
	noTouch         bool         // the running command reads without updating access times (OBJECT)
	ps              persistState // SAVE, BGSAVE, the AOF (persist.go)
	lfuRand         *rand.Rand
}

// ActiveExpireEnabled reports DEBUG SET-ACTIVE-EXPIRE (a server running an active expire cycle
// must skip it when false).
func (e *Engine) ActiveExpireEnabled() bool { return !e.dbg.noActiveExpire }

func init() {
	registerDebug("object", 3, debugObject)
	registerDebug("reload", 0, debugReload)
	registerDebug("digest", 2, debugDigest)
	registerDebug("digest-value", 0, debugDigestValue)
	registerDebug("set-active-expire", 3, func(e *Engine, args [][]byte) Reply {
		e.dbg.noActiveExpire = atoi(args[2]) == 0
		return OK
	})
	registerDebug("set-skip-checksum-validation", 3, func(e *Engine, args [][]byte) Reply {
		e.dbg.skipChecksum = atoi(args[2]) != 0
		return OK
	})
	registerDebug("quicklist-packed-threshold", 3, debugPackedThreshold)
	registerDebug("listpack", 3, debugListpack)
	registerDebug("quicklist", 0, debugQuicklist)
	registerDebug("stringmatch-test", 2, func(e *Engine, args [][]byte) Reply {
		return Status("Apparently Redis did not crash: test passed")
	})
	registerDebug("sleep", 3, debugSleep)
	registerDebug("populate", 0, debugPopulate)
	registerDebug("htstats-key", 3, debugHTStatsKey)
	registerDebug("protocol", 3, debugProtocol)
	registerDebug("log", 3, func(e *Engine, args [][]byte) Reply { return OK })
	registerDebug("leak", 3, func(e *Engine, args [][]byte) Reply { return OK })
	registerDebug("error", 3, func(e *Engine, args [][]byte) Reply {
		return Err(strings.NewReplacer("\r", " ", "\n", " ").Replace(string(args[2])))
	})
	registerDebug("change-repl-id", 2, func(e *Engine, args [][]byte) Reply { return OK })
	registerDebug("pause-cron", 3, func(e *Engine, args [][]byte) Reply { return OK })
	registerDebug("set-disable-deny-scripts", 3, func(e *Engine, args [][]byte) Reply { return OK })
	registerDebug("aof-flush-sleep", 3, func(e *Engine, args [][]byte) Reply { return OK })
	registerDebug("structsize", 2, func(e *Engine, args [][]byte) Reply {
		return BulkStr("bits:64 robj:16 dictentry:24 sdshdr5:1 sdshdr8:3 sdshdr16:5 sdshdr32:9 sdshdr64:17 ")
	})
}

// atoi is C's atoi: optional white space and sign, then digits; anything else stops it.
func atoi(b []byte) int64 {
	s := strings.TrimLeft(string(b), " \t\n\v\f\r")
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	var v int64
	for _, c := range []byte(s) {
		if c < '0' || c > '9' {
			break
		}
		v = v*10 + int64(c-'0')
	}
	if neg {
		return -v
	}
	return v
}

// ---- access tracking (LRU / LFU) ----

const (
	lruClockMax = 1<<24 - 1
	lfuInitVal  = 5
	lfuMaxCount = 255
)

func (e *Engine) lruClock() uint32 { return uint32(e.NowMs()/1000) & lruClockMax }

func (e *Engine) lfuMinutes() uint32 { return uint32(e.NowMs()/60000) & 0xffff }

// initLRU is createObject's lru: the LRU clock, or minutes<<8 | LFU_INIT_VAL under LFU.
func (e *Engine) initLRU(o *Object) {
	if e.lfuPolicy() {
		o.lru = e.lfuMinutes()<<8 | lfuInitVal
	} else {
		o.lru = e.lruClock()
	}
}

// touchObject is the access-time update of lookupKey (updateLFU under an LFU policy).
func (e *Engine) touchObject(o *Object) {
	if e.dbg.noTouch || o == nil || noTouchCommand(e.running) {
		return
	}
	if e.lfuPolicy() {
		o.lru = e.lfuMinutes()<<8 | uint32(e.lfuLogIncr(e.lfuDecay(o)))
		return
	}
	o.lru = e.lruClock()
}

// noTouchCommand: the commands that look keys up with LOOKUP_NOTOUCH (db.c existsCommand,
// typeCommand; expire.c ttlGenericCommand; object.c objectCommand).
func noTouchCommand(name []byte) bool {
	switch len(name) {
	case 3:
		return eqFold(name, "ttl")
	case 4:
		return eqFold(name, "pttl") || eqFold(name, "type")
	case 6:
		return eqFold(name, "exists") || eqFold(name, "object")
	case 10:
		return eqFold(name, "expiretime")
	case 11:
		return eqFold(name, "pexpiretime")
	}
	return false
}

// lfuDecay is LFUDecrAndReturn: one off per lfu-decay-time minutes since the field's minutes.
func (e *Engine) lfuDecay(o *Object) uint8 {
	ldt, c := o.lru>>8, uint8(o.lru&255)
	decay := e.cfg.Int("lfu-decay-time")
	if decay <= 0 {
		return c
	}
	now := e.lfuMinutes()
	var elapsed uint32
	if now >= ldt {
		elapsed = now - ldt
	} else {
		elapsed = 65535 - ldt + now
	}
	periods := int64(elapsed) / decay
	if periods >= int64(c) {
		return 0
	}
	return c - uint8(periods)
}

// lfuLogIncr is LFULogIncr: +1 with probability 1/((c-5)·lfu-log-factor+1), from a random
// source of its own (seeded from the engine's seed) so other seeded streams are not disturbed.
func (e *Engine) lfuLogIncr(c uint8) uint8 {
	if c == lfuMaxCount {
		return c
	}
	if e.dbg.lfuRand == nil {
		e.dbg.lfuRand = rand.New(rand.NewPCG(e.seed, 0x1f0))
	}
	base := float64(c) - lfuInitVal
	if base < 0 {
		base = 0
	}
	p := 1.0 / (base*float64(e.cfg.Int("lfu-log-factor")) + 1)
	if e.dbg.lfuRand.Float64() < p {
		c++
	}
	return c
}

// idleMs is estimateObjectIdleTime: the LRU clock minus the field (whatever the field holds:
// after a switch from an LFU policy the LFU word reads as a clock, as in Redis).
func (e *Engine) idleMs(o *Object) int64 {
	now, then := e.lruClock(), o.lru
	if now >= then {
		return int64(now-then) * 1000
	}
	return int64(now+(lruClockMax-then)) * 1000
}

// setLRUOrLFU is objectSetLRUOrLFU (RESTORE IDLETIME / FREQ, DEBUG RELOAD).
func (e *Engine) setLRUOrLFU(o *Object, freq, idleSec int64) {
	if e.lfuPolicy() {
		if freq >= 0 {
			o.lru = e.lfuMinutes()<<8 | uint32(freq)
		}
		return
	}
	if idleSec >= 0 {
		clock := int64(e.lruClock())
		abs := clock - idleSec
		if abs < 0 {
			abs = (clock + lruClockMax/2) % lruClockMax
		}
		o.lru = uint32(abs)
	}
}

// ---- DEBUG OBJECT ----

func debugObject(e *Engine, args [][]byte) Reply {
	o := e.db.keys[string(args[2])]
	if o == nil {
		return ErrNoSuchKey
	}
	refcount := 1
	if o.Shared {
		refcount = 2147483647
	}
	extra := ""
	if o.Type == TypeList && o.Enc == EncQuicklist {
		q := o.Val.(*listValue).ql
		sz := 0
		for n := q.Head(); n != nil; n = n.Next() {
			sz += n.Size()
		}
		compressed := 0
		if e.cfg.Int("list-compress-depth") != 0 {
			compressed = 1
		}
		extra = fmt.Sprintf(" ql_nodes:%d ql_avg_node:%.2f ql_listpack_max:%d ql_compressed:%d ql_uncompressed_size:%d",
			q.NodeCount(), float64(q.Count())/float64(q.NodeCount()), q.Fill(), compressed, sz)
	}
	addr := uint64(0x7f0000000000)
	for _, c := range args[2] {
		addr = addr*31 + uint64(c)
	}
	addr = 0x7f0000000000 | addr&0xffffffff0
	return Status(fmt.Sprintf("Value at:0x%x refcount:%d encoding:%s serializedlength:%d lru:%d lru_seconds_idle:%d%s",
		addr, refcount, o.Enc, e.SerializedLength(o), o.lru, e.idleMs(o)/1000, extra))
}

// ---- DEBUG RELOAD ----

// DEBUG RELOAD's options.
const (
	reloadMerge = 1 << iota
	reloadNoFlush
	reloadNoSave
)

var reloadKeywords = []strKeyword{{"merge", reloadMerge}, {"noflush", reloadNoFlush}, {"nosave", reloadNoSave}}

// debugReload is DEBUG RELOAD [MERGE] [NOFLUSH] [NOSAVE]: SAVE, empty the dataset (functions
// too), load the RDB file back (engine/persist.go).
func debugReload(e *Engine, args [][]byte) Reply {
	var opts int
	for _, a := range args[2:] {
		f := keywordFlag(a, reloadKeywords)
		if f == 0 {
			return Err("ERR DEBUG RELOAD only supports the MERGE, NOFLUSH and NOSAVE options.")
		}
		opts |= f
	}
	flush, save, merge := opts&reloadNoFlush == 0, opts&reloadNoSave == 0, opts&reloadMerge != 0
	e.persistTick()
	if save && e.rdbSave() != nil {
		return Err("ERR")
	}
	if flush {
		e.emptyData(false)
	}
	b, err := e.storage().ReadFile(e.cfg.Get("dir"), e.cfg.Get("dbfilename"))
	if err != nil || e.loadRDBFile(b, merge, false) != nil {
		return e.errRDBLoad()
	}
	return OK
}

// ---- DEBUG DIGEST / DIGEST-VALUE ----

type digest [20]byte

func (d *digest) xor(b []byte) {
	h := sha1.Sum(b)
	for i := range d {
		d[i] ^= h[i]
	}
}

func (d *digest) mix(b []byte) {
	d.xor(b)
	*d = sha1.Sum(d[:])
}

func (d digest) String() string { return fmt.Sprintf("%x", d[:]) }

// objectDigest is xorObjectDigest.
func (e *Engine) objectDigest(d *digest, key string, o *Object) {
	var aux [4]byte
	t := uint32(o.Type) // OBJ_STRING 0 … OBJ_HASH 4; OBJ_STREAM is 6 (5 is OBJ_MODULE)
	if o.Type == TypeStream {
		t = 6
	}
	binary.BigEndian.PutUint32(aux[:], t)
	d.mix(aux[:])
	var buf [24]byte
	switch o.Type {
	case TypeString:
		d.mix(o.StringBytes())
	case TypeList:
		it := o.Val.(*listValue).iterAt(0, false)
		for {
			v, ok := it.next()
			if !ok {
				break
			}
			d.mix(v)
		}
	case TypeSet:
		setEach(o, func(s []byte, iv int64, isInt bool) bool {
			d.xor(memberBytes(s, iv, isInt, buf[:]))
			return true
		})
	case TypeZSet:
		z := o.Val.(*zsetValue)
		each := func(m []byte, score float64) {
			var el digest
			el.mix(m)
			el.mix(appendG17(nil, score))
			d.xor(el[:])
		}
		if z.lp != nil {
			for p := z.lp.First(); p >= 0; {
				sp := z.lp.Next(p)
				each(z.lp.GetString(p, buf[:]), z.zzlScore(sp))
				p = z.lp.Next(sp)
			}
		} else {
			for n := z.zsl.First(); n != nil; n = n.Next() {
				each(bstrOf(n.Member), n.Score)
			}
		}
	case TypeHash:
		hashEach(o, func(f, s []byte, iv int64, isInt bool, _ int64) bool {
			var el digest
			el.mix(f)
			el.mix(memberBytes(s, iv, isInt, buf[:]))
			d.xor(el[:])
			return true
		})
	case TypeStream:
		stv(o).rangeEach(StreamID{}, maxStreamID, false, func(en *nodeEntry) bool {
			d.mix([]byte(strconv.FormatUint(en.id.Ms, 10) + "." + strconv.FormatUint(en.id.Seq, 10)))
			for _, f := range en.fields {
				d.mix(f)
			}
			return true
		})
	}
	if _, ok := e.db.expires[key]; ok {
		d.xor([]byte("!!expire!!"))
	}
}

func debugDigest(e *Engine, args [][]byte) Reply {
	var final digest
	cur := e.db
	defer func() { e.db = cur }()
	for i, db := range e.dbs {
		if len(db.keys) == 0 {
			continue
		}
		e.db = db
		var aux [4]byte
		binary.BigEndian.PutUint32(aux[:], uint32(i))
		final.mix(aux[:])
		for k, o := range db.keys {
			var d digest
			d.mix([]byte(k))
			e.objectDigest(&d, k, o)
			final.xor(d[:])
		}
	}
	return Status(final.String())
}

func debugDigestValue(e *Engine, args [][]byte) Reply {
	out := make([]Reply, 0, len(args)-2)
	for _, k := range args[2:] {
		var d digest
		if o := e.db.keys[string(k)]; o != nil {
			e.objectDigest(&d, string(k), o)
		}
		out = append(out, Status(d.String()))
	}
	return Reply{Kind: KindArray, Array: out}
}

// ---- the others ----

func debugPackedThreshold(e *Engine, args [][]byte) Reply {
	sz, ok := memtoull(string(args[2]))
	if !ok || sz > 1<<32-1<<20 {
		return Err("ERR argument must be a memory value bigger than 1 and smaller than 4gb")
	}
	if sz == 0 {
		sz = 1 << 30
	}
	e.dbg.packedThreshold = int(sz)
	return OK
}

// debugLookup is objectCommandLookupOrReply: a live key (expired ones go), untouched.
func (e *Engine) debugLookup(key []byte) *Object {
	e.dbg.noTouch = true
	defer func() { e.dbg.noTouch = false }()
	return e.Lookup(key)
}

func debugListpack(e *Engine, args [][]byte) Reply {
	return e.debugPrint(args[2], EncListpack, "listpack", "Listpack")
}

// debugPrint is DEBUG LISTPACK / QUICKLIST: Redis prints the structure of key on its stdout when
// key has encoding enc; here only the reply remains.
func (e *Engine) debugPrint(key []byte, enc Encoding, name, title string) Reply {
	o := e.debugLookup(key)
	if o == nil {
		return ErrNoSuchKey
	}
	if o.Enc != enc {
		return Err("ERR Not a " + name + " encoded object.")
	}
	return Status(title + " structure printed on stdout")
}

func debugQuicklist(e *Engine, args [][]byte) Reply {
	if len(args) != 3 && len(args) != 4 {
		return debugUnknown(args)
	}
	return e.debugPrint(args[2], EncQuicklist, "quicklist", "Quicklist")
}

// debugSleep: strtod of the argument in seconds. On real time the engine sleeps (the whole
// server waits, as Redis's nanosleep does); on the logical clock the clock moves instead.
func debugSleep(e *Engine, args [][]byte) Reply {
	sec := strtodPrefix(string(args[2]))
	d := time.Duration(sec * float64(time.Second))
	if d < 0 {
		d = 0
	}
	switch e.clock.(type) {
	case WallClock, *WallClock:
		time.Sleep(d)
	case *ManualClock:
		e.AdvanceClock(d)
	default:
		return Err("ERR DEBUG SLEEP needs the real or the logical clock")
	}
	return OK
}

// strtodPrefix is strtod(s, NULL): the longest numeric prefix, 0 when none.
func strtodPrefix(s string) float64 {
	s = strings.TrimLeft(s, " \t\n\v\f\r")
	for n := len(s); n > 0; n-- {
		if f, err := strconv.ParseFloat(s[:n], 64); err == nil {
			return f
		}
	}
	return 0
}

// debugPopulate is DEBUG POPULATE count [prefix] [size]: string keys prefix:N (default "key")
// holding "value:N", or with size a value of exactly size bytes starting with "value:N" and
// padded with zero bytes; existing keys are left alone. Values are plain createStringObject
// results (an embstr up to 44 bytes, never int-encoded).
func debugPopulate(e *Engine, args [][]byte) Reply {
	if len(args) < 3 || len(args) > 5 {
		return debugUnknown(args)
	}
	count, ok := string2ll(args[2])
	if !ok {
		return errNotPositive
	}
	if count < 0 {
		return errNotPositive
	}
	size := int64(0)
	if len(args) == 5 {
		v, ok := string2ll(args[4])
		if !ok || v < 0 {
			return errNotPositive
		}
		size = v
	}
	prefix := "key"
	if len(args) >= 4 {
		prefix = string(args[3])
	}
	dirty := e.cfg.stats.dirty
	for j := int64(0); j < count; j++ {
		key := []byte(prefix + ":" + itoa(j))
		if e.Lookup(key) != nil {
			continue
		}
		val := []byte("value:" + itoa(j))
		if size > 0 {
			v := make([]byte, size)
			copy(v, val)
			val = v
		}
		e.add(key, e.newStringFromBytes(key, val, false))
	}
	e.cfg.stats.dirty = dirty // debugCommand's POPULATE: dbAdd and signalModifiedKey, no server.dirty++
	return OK
}

// debugHTStatsKey is DEBUG HTSTATS-KEY: dictGetStats of a hashtable set or hash, or of a
// skiplist zset's dict. The chain lengths follow the engine's seeded hash, not a server's
// random one; table sizes and element counts are Redis's.
func debugHTStatsKey(e *Engine, args [][]byte) Reply {
	o := e.debugLookup(args[2])
	if o == nil {
		return ErrNoSuchKey
	}
	var text string
	switch v := o.Val.(type) {
	case *setValue:
		if o.Enc == EncHashtable {
			text = dictStats(v.ht.TableSize, v.ht.TableUsed, v.ht.IsRehashing(), bucketLens(v.ht.Buckets()))
		}
	case *hashValue:
		if o.Enc == EncHashtable {
			text = dictStats(v.ht.TableSize, v.ht.TableUsed, v.ht.IsRehashing(), bucketLens(v.ht.Buckets()))
		}
	case *zsetValue:
		if v.dict != nil {
			text = dictStats(v.dict.TableSize, v.dict.TableUsed, v.dict.IsRehashing(), bucketLens(v.dict.Buckets()))
		}
	}
	if text == "" {
		return Err("ERR The value stored at the specified key is not represented using an hash table")
	}
	return Verbatim(text) // debug.c: addReplyVerbatim
}

// bucketLens maps [table][bucket index] to chain length.
func bucketLens[K dict.Bytes](bs []dict.Bucket[K]) [2]map[uint64]int {
	out := [2]map[uint64]int{{}, {}}
	for _, b := range bs {
		out[b.Table][b.Index] = len(b.Keys)
	}
	return out
}

// dictStats is dict.c dictGetStats / _dictGetStatsHt (floats computed in single precision as
// the C code does).
func dictStats(size, used func(int) uint64, rehashing bool, lens [2]map[uint64]int) string {
	var b strings.Builder
	for t := 0; t <= 1; t++ {
		if t == 1 && !rehashing {
			break
		}
		name := "main hash table"
		if t == 1 {
			name = "rehashing target"
		}
		if used(t) == 0 {
			fmt.Fprintf(&b, "Hash table %d stats (%s):\nNo stats available for empty dictionaries\n", t, name)
			continue
		}
		const vectLen = 50
		var cl [vectLen]uint64
		slots, maxChain, tot := uint64(0), 0, 0
		for i := uint64(0); i < size(t); i++ {
			n := lens[t][i]
			if n == 0 {
				cl[0]++
				continue
			}
			slots++
			cl[min(n, vectLen-1)]++
			maxChain = max(maxChain, n)
			tot += n
		}
		fmt.Fprintf(&b, "Hash table %d stats (%s):\n table size: %d\n number of elements: %d\n different slots: %d\n max chain length: %d\n avg chain length (counted): %.02f\n avg chain length (computed): %.02f\n Chain length distribution:\n",
			t, name, size(t), used(t), slots, maxChain, float32(tot)/float32(slots), float32(used(t))/float32(slots))
		for i := 0; i < vectLen-1; i++ {
			if cl[i] == 0 {
				continue
			}
			fmt.Fprintf(&b, "   %d: %d (%.02f%%)\n", i, cl[i], float32(cl[i])/float32(size(t))*100)
		}
	}
	return b.String()
}

func debugUnknown(args [][]byte) Reply { return errSubcommandSyntax("DEBUG", args[1]) }

// debugProtocol is DEBUG PROTOCOL <type> (debug.c): one reply of each RESP3 type, as a client's
// test suite asks for them; attrib's attribute and push's push message exist in RESP3 only.
func debugProtocol(e *Engine, args [][]byte) Reply {
	switch strings.ToLower(string(args[2])) {
	case "string":
		return BulkStr("Hello World")
	case "integer":
		return Int(12345)
	case "double":
		return e.doubleReply(3.141)
	case "bignum":
		return BigNum("1234567999999999999999999999999999999")
	case "null":
		return NilReply
	case "array":
		return Array(Int(0), Int(1), Int(2))
	case "set":
		return Set(Int(0), Int(1), Int(2))
	case "map":
		return Map(Int(0), Bool(false), Int(1), Bool(true), Int(2), Bool(false))
	case "attrib":
		return BulkStr("Some real reply following the attribute").
			WithAttribute(BulkStr("key-popularity"), Array(BulkStr("key:123"), Int(90)))
	case "push":
		return PushThen(Err("ERR RESP2 is not supported by this command"),
			BulkStr("Some real reply following the push reply"), BulkStr("server-cpu-usage"), Int(42))
	case "true":
		return Bool(true)
	case "false":
		return Bool(false)
	case "verbatim":
		return Verbatim("This is a verbatim\nstring")
	}
	return Err("ERR Wrong protocol type name. Please use one of the following: string|integer|double|bignum|null|array|set|map|attrib|push|verbatim|true|false")
}
