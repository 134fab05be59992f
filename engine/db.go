package engine

import "sort"

// DB is one numbered keyspace: values and absolute expiry times (Unix ms).
type DB struct {
	keys    map[string]*Object
	expires map[string]int64
}

func newDB() *DB {
	return &DB{keys: map[string]*Object{}, expires: map[string]int64{}}
}

// expireIfNeeded deletes key when its time has passed (Redis: expired when now > when).
func (e *Engine) expireIfNeeded(key string) bool {
	when, ok := e.db.expires[key]
	if !ok || e.NowMs() <= when {
		return false
	}
	o := e.db.keys[key]
	delete(e.db.keys, key)
	delete(e.db.expires, key)
	e.cfg.stats.expired++ // INFO's expired_keys
	if o != nil {
		e.emit(KeyEvent{Key: key, Action: "expired", Type: o.Type.String()})
		e.signalStreamGone(key, o)
	}
	e.expired = true       // (the server deletes it, not the client: tracking's NOLOOP)
	e.signalKey(e.db, key) // deleteExpiredKeyAndPropagate: no change in server.dirty
	e.expired = false
	return true
}

// Lookup returns the live value of key, or nil (expiring it lazily).
func (e *Engine) Lookup(key []byte) *Object {
	if len(e.db.expires) > 0 {
		if _, ok := e.db.expires[string(key)]; ok && e.expireIfNeeded(string(key)) {
			return nil
		}
	}
	o := e.db.keys[string(key)] // (no string made: a SET-less lookup allocates nothing)
	e.touchObject(o)            // access time / LFU counter (cmd_debug.go)
	return o
}

// add stores a new key (it must not exist). Like dbAdd it signals the key as ready for the
// clients blocked on it (blocking.go).
func (e *Engine) add(key []byte, o *Object) {
	e.db.keys[string(key)] = o
	e.keyBorn(string(key))
	e.initLRU(o)
	e.emit(KeyEvent{Key: string(key), Action: "created", Type: o.Type.String()})
	e.signalModifiedBytes(e.db, key)
	e.signalReady(string(key), o.Type)
}

// setKey is Redis's setKey: store o under key, replacing any value; the TTL is cleared unless
// keepTTL.
func (e *Engine) setKey(key []byte, o *Object, keepTTL bool) {
	k := string(key)
	old, existed := e.db.keys[k]
	e.db.keys[k] = o
	e.initLRU(o)
	if existed {
		e.emit(KeyEvent{Key: k, Action: "overwritten", Type: o.Type.String()})
		e.signalStreamGone(k, old) // dbOverwrite signals a stream replaced
	} else {
		e.keyBorn(k)
		e.emit(KeyEvent{Key: k, Action: "created", Type: o.Type.String()})
		e.signalReady(k, o.Type) // dbAdd; an overwrite signals nothing (7.0's dbOverwrite)
	}
	if !keepTTL {
		e.removeExpire(k)
	}
	e.signalModifiedKey(e.db, k)
}

// Delete removes key; it reports whether it existed.
func (e *Engine) Delete(key []byte) bool {
	k := string(key)
	o, ok := e.db.keys[k]
	if !ok {
		return false
	}
	delete(e.db.keys, k)
	delete(e.db.expires, k)
	e.emit(KeyEvent{Key: k, Action: "deleted", Type: o.Type.String()})
	e.signalStreamGone(k, o)
	e.signalModifiedKey(e.db, k)
	return true
}

// signalStreamGone: a stream value o left key (deleted, expired, overwritten, renamed away), so
// the XREADGROUP clients blocked on it must be answered (db.c dbGenericDelete, dbOverwrite).
func (e *Engine) signalStreamGone(key string, o *Object) {
	if o != nil && o.Type == TypeStream {
		e.signalReady(key, TypeStream)
	}
}

// Expire returns key's absolute expiry (ms) or -1.
func (e *Engine) Expire(key string) int64 {
	if w, ok := e.db.expires[key]; ok {
		return w
	}
	return -1
}

func (e *Engine) setExpire(key string, when int64) {
	e.kvobjExpireSlot(key) // 8.x: the key object may need an expire field (memory.go)
	before := e.Expire(key)
	e.db.expires[key] = when
	e.emit(TTLEvent{Key: key, Action: "set", Before: before, After: when})
	e.signalKey(e.db, key)
}

func (e *Engine) removeExpire(key string) bool {
	w, ok := e.db.expires[key]
	if ok {
		delete(e.db.expires, key)
		e.emit(TTLEvent{Key: key, Action: "cleared", Before: w, After: -1})
		e.signalKey(e.db, key)
	}
	return ok
}

// ActiveExpireCycle is what serverCron's active expiry (expire.c, activeExpireCycle, run hz 10
// times a second) achieves for keys nobody reads: it deletes every key of every database whose
// time has passed (now > when), in key order per database, as a read of the key would, and
// serves the clients a deleted stream key unblocks. It returns how many keys it deleted. Redis
// samples 20 keys with a TTL per round and stops after 25 ms, so a key can outlive its TTL by a
// few cycles there; here each call finishes the job (it reads every TTL once: O(keys with a
// TTL)). After DEBUG SET-ACTIVE-EXPIRE 0 it does nothing. Hash field TTLs (7.4+) still expire
// only when read. A protocol server calls it every 100 ms under the engine lock; the engine
// itself never does (the page expires keys when they are touched).
func (e *Engine) ActiveExpireCycle() int {
	if e.dbg.noActiveExpire {
		return 0
	}
	now := e.NowMs()
	cur, nev := e.db, len(e.events)
	n := 0
	var due []string
	for _, db := range e.dbs {
		due = due[:0]
		for k, when := range db.expires {
			if now > when {
				due = append(due, k)
			}
		}
		if len(due) == 0 {
			continue
		}
		sort.Strings(due)
		e.db = db
		for _, k := range due {
			if e.expireIfNeeded(k) {
				n++
			}
		}
	}
	e.db = cur
	if n > 0 {
		e.handleBlocked()
	}
	e.events = e.events[:nev] // no command to trace them with
	return n
}

// KeyCount is DBSIZE.
func (e *Engine) KeyCount() int { return len(e.db.keys) }

// SortedKeys lists the keys of the current db in byte order (deterministic iteration for
// KEYS/SCAN and for snapshots).
func (e *Engine) SortedKeys() []string {
	ks := make([]string, 0, len(e.db.keys))
	for k := range e.db.keys {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// Peek returns the value of key in the current db without side effects: an expired key reads as
// nil but is not deleted and no event is emitted (for visualizers and snapshots, which must not
// change what later commands see).
func (e *Engine) Peek(key []byte) *Object {
	// string(key) inside the index expressions: the lookups do not copy the key.
	if when, ok := e.db.expires[string(key)]; ok && e.NowMs() > when {
		return nil
	}
	return e.db.keys[string(key)]
}

// PeekMemoryUsage is MEMORY USAGE key SAMPLES samples (0 = all; the command's default is 5)
// without Lookup's lazy expiry; ok=false when the key is missing or expired.
func (e *Engine) PeekMemoryUsage(key []byte, samples int) (size int64, ok bool) {
	o := e.Peek(key)
	if o == nil {
		return 0, false
	}
	return e.objectMemory(key, o, samples) + e.clusterEntryExtra(), true
}

// signalModifiedKey is db.c's signalModifiedKey: key of database d was written. It is the one
// call every write makes, wherever Redis makes it: the db hooks above (a key created, replaced,
// deleted, expired, a TTL set or removed) and each command that changes a value in place (HSET on
// an existing hash, SETRANGE, LPUSH…), at the place Redis calls it, so that a write that changes
// nothing signals exactly when Redis's does (SADD of a member already there: no; HSET of the same
// value: yes). It marks the clients WATCHing the key (multi.c touchWatchedKey); with nobody
// watching it is one length test.
//
// It also counts one change in server.dirty (INFO's rdb_changes_since_last_save). A command whose
// C code adds another amount notes the counter when it starts and sets it to that amount where it
// is known, as Redis does (HSET, RENAME, MOVE, COPY, RESTORE, SORT STORE, the list pushes and
// pops, LREM, SETBIT, BITFIELD, the stream commands; changed below for SADD, ZADD, PFADD, the pops
// and removeEach's HDEL/SREM/ZREM); a key created, replaced or deleted on the way is then no
// change of its own, as dbAdd, dbOverwrite and dbDelete count none. docs/persistence.md lists
// the amounts; TestDirtyCounter, TestDirtyCounts, TestStreamDirtyCounts, TestDirtyCommandCounts
// and TestDirtyTranscripts (internal/difftest) compare the counter's steps with redis-server 7.0.15.
func (e *Engine) signalModifiedKey(d *DB, key string) {
	e.cfg.stats.dirty++ // INFO's rdb_changes_since_last_save (one per modified key)
	e.signalKey(d, key)
}

// signalModifiedBytes is signalModifiedKey of a key as the command received it: the key becomes
// a string only when somebody watches or tracks keys (a SET's conversion was its one allocation).
func (e *Engine) signalModifiedBytes(d *DB, key []byte) {
	e.cfg.stats.dirty++
	if len(e.wst.keys) != 0 || e.tracker != nil {
		e.signalKey(d, string(key))
	}
}

// signalKey is signalModifiedKey without a change of its own in server.dirty: a TTL set or
// removed (db.c setExpire and removeExpire count nothing: the command that calls them does, as
// EXPIRE, PERSIST and GETEX do, or counts the whole write once, as SET … EX, SETEX and RESTORE
// do) and a lazy or active expiry (deleteExpiredKeyAndPropagate counts expired_keys, not a change).
func (e *Engine) signalKey(d *DB, key string) {
	if len(e.wst.keys) != 0 { // (inlined: nothing more while nobody watches)
		e.signalWatchers(d, key)
	}
	if e.tracker != nil {
		e.tracker.TrackModified(key, e.expired)
	}
}

func (e *Engine) signalWatchers(d *DB, key string) {
	if e.wst.names[key] > 0 {
		e.touch(e.dbIndex(d), key)
	}
}

// signalFlushedDb is db.c's: database db (-1: all of them) is about to be emptied, so the
// clients watching one of its keys are marked (touchAllWatchedKeysInDb).
func (e *Engine) signalFlushedDb(db int) {
	if e.tracker != nil {
		e.tracker.TrackFlush()
	}
	for i := range e.dbs {
		if db == -1 || db == i {
			e.touchAllWatchedKeysInDb(i, -1)
		}
	}
}

// lookupTyped is lookupKeyRead/lookupKeyWrite followed by checkType, the one typed lookup of the
// command files: the live value of key when it has type t, (nil, nil) when the key is missing (or
// has just expired), and (nil, WRONGTYPE) when it holds another type. A hash or set found is
// tagged with its key name for the trace events of its encoding (traceHash, traceSet).
func (e *Engine) lookupTyped(key []byte, t ObjType) (*Object, *Reply) {
	o := e.lookupKey(key)
	if o == nil {
		return nil, nil
	}
	if o.Type != t {
		return nil, &ErrWrongType
	}
	switch t {
	case TypeHash:
		e.traceHash(key, o)
	case TypeSet:
		e.traceSet(key, o)
	}
	return o, nil
}

// removeEach is the loop of hdelCommand, sremCommand and zremCommand (t_hash.c, t_set.c,
// t_zset.c): remove each item from the container at key, delete the key as soon as it is empty,
// and signal the key when anything was removed; the reply is the number removed, and so is
// server.dirty's growth (deleting the emptied key, or the key's lazy expiry, is no change of its
// own).
func (e *Engine) removeEach(key []byte, typ ObjType, items [][]byte, remove func(*Object, []byte) bool, size func(*Object) int) Reply {
	dirty := e.cfg.stats.dirty
	o, werr := e.lookupTyped(key, typ)
	if werr != nil {
		return *werr
	}
	removed := int64(0)
	for _, it := range items {
		if o == nil {
			break
		}
		if remove(o, it) {
			removed++
			if size(o) == 0 {
				e.Delete(key)
				break
			}
		}
	}
	e.changed(key, dirty, removed)
	return Int(removed)
}

// changed ends a command whose C code signals key when it changed n > 0 items and adds n to
// server.dirty (server.dirty += added, deleted, popped…): dirty is the counter when the command
// began, and the db hooks the command went through (a key created, an emptied key deleted, a lazy
// expiry) count nothing of their own. SADD, ZADD, the removeEach commands, ZREMRANGEBY*, the
// sorted-set pops and SPOP with a count end here.
func (e *Engine) changed(key []byte, dirty, n int64) {
	if n > 0 {
		e.signalModifiedBytes(e.db, key)
	}
	e.cfg.stats.dirty = dirty + n
}

// orMissing is the answer when lookupTyped found no value of the type asked for: WRONGTYPE when
// the key holds another type, else the command's reply for a missing key.
func orMissing(werr *Reply, missing Reply) Reply {
	if werr != nil {
		return *werr
	}
	return missing
}

// Prefetch looks up, without any effect, the first key of each command of a pipeline (args[1] of
// a command whose table entry puts its first key there) in database db, and reads each value's
// type. A pipeline's lookups then miss the caches side by side instead of one after the other:
// the keyspace of a redis-benchmark run (100 000 keys) is far larger than the caches, and a
// lookup's misses (the map's group, the key's bytes, the object) were a third of an INCR's cost
// in the RESP server (BENCHMARKS.md, RESP server).
func (e *Engine) Prefetch(db int, cmds [][][]byte) {
	if db < 0 || db >= len(e.dbs) || len(cmds) < 2 {
		return
	}
	keys := e.dbs[db].keys
	var sink ObjType
	for _, a := range cmds {
		if len(a) < 2 {
			continue
		}
		c := e.command(a[0])
		if c == nil || c.FirstKey != 1 {
			continue
		}
		if o := keys[string(a[1])]; o != nil {
			sink |= o.Type
		}
	}
	prefetchSink = sink
}

var prefetchSink ObjType
