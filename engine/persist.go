package engine

import (
	"errors"
	"sort"
	"strings"

	"redscope/engine/rdb"
)

// Persistence as a Redis server shows it: SAVE, BGSAVE [SCHEDULE], BGREWRITEAOF, LASTSAVE, the
// dirty counter and INFO persistence (rdb.c saveCommand / bgsaveCommand / rdbSave /
// backgroundSaveDoneHandlerDisk, aof.c bgrewriteaofCommand, db.c flushAllDataAndResetRDB). The
// engine builds a real RDB file (rdbFile) and hands it to a Storage: the RESP server writes it to
// CONFIG GET dir / dbfilename on disk (server/persist.go), the browser and the labs keep it in
// memory. DEBUG RELOAD saves through the same Storage and loads the file back with loadRDBFile,
// so a dump.rdb written by redis-server loads too (DEBUG RELOAD NOSAVE).
//
// There is no fork: a BGSAVE takes its snapshot when it starts (what the child would see) and
// writes the file then. It is in progress (rdb_bgsave_in_progress:1) only while the simulated
// time rdb-key-save-delay asks for has not passed (rdbSaveKeyValuePair sleeps that many
// microseconds per key; 0 by default, so the save ends at once); its end is noticed by the next
// persistence command or INFO, which then applies what Redis's done handler does (the dirty
// counter loses what was saved, LASTSAVE moves, a scheduled BGREWRITEAOF runs).
//
// The append-only file is modelled, not written: see docs/persistence.md. An AOF rewrite
// (BGREWRITEAOF, CONFIG SET appendonly yes) keeps the dataset as an RDB preamble in memory;
// while appendonly is yes the AOF is the dataset itself (every write would be appended), so
// DEBUG LOADAOF reloads the current dataset through its RDB encoding; with appendonly no it
// loads what the last rewrite or the switch-off left, and answers Redis's error when there was
// never an AOF.

// Storage is where the engine's RDB file goes: SAVE and BGSAVE write CONFIG GET dir /
// dbfilename, DEBUG RELOAD writes and reads it.
type Storage interface {
	WriteFile(dir, name string, data []byte) error
	ReadFile(dir, name string) ([]byte, error)
}

// memStorage is the default Storage: files in memory (the browser has no file system).
type memStorage map[string][]byte

func (m memStorage) WriteFile(dir, name string, data []byte) error {
	m[dir+"\x00"+name] = append([]byte(nil), data...)
	return nil
}

func (m memStorage) ReadFile(dir, name string) ([]byte, error) {
	b, ok := m[dir+"\x00"+name]
	if !ok {
		return nil, errors.New("no such file")
	}
	return b, nil
}

// persistState is what rdb.c and aof.c keep in struct redisServer for INFO persistence.
type persistState struct {
	storage  Storage
	lastSave int64 // server.lastsave, seconds (0: the start time)
	// The running BGSAVE: bgEnd is when it ends (ms; 0: none runs), bgStart when it started.
	bgStart, bgEnd int64
	bgData         []byte
	dirtyBefore    int64 // server.dirty_before_bgsave
	bgFailed       bool  // rdb_last_bgsave_status:err
	bgLastSec      int64 // rdb_last_bgsave_time_sec
	bgDone         bool  // a BGSAVE ended (else rdb_last_bgsave_time_sec is -1)
	bgScheduled    bool  // rdb_bgsave_scheduled
	saves          int64 // rdb_saves
	// The AOF: aofFile is its content as of the last rewrite (nil: there never was one).
	aofFile      []byte
	aofRewrites  int64
	aofScheduled bool
	aofDone      bool
	// The last load (rdb_last_load_keys_loaded / expired).
	loaded, expired int64
}

// SetStorage chooses where SAVE, BGSAVE and DEBUG RELOAD keep the RDB file (default: memory).
func (e *Engine) SetStorage(s Storage) { e.dbg.ps.storage = s }

// SetDir sets CONFIG GET dir, which CONFIG SET refuses (a protected config): the RESP server's
// working directory, as redis-server reports its own.
func (e *Engine) SetDir(dir string) {
	if p, _ := e.cfg.lookup("dir"); p != nil {
		e.cfg.set(p, dir, 0)
	}
}

func (e *Engine) storage() Storage {
	if e.dbg.ps.storage == nil {
		e.dbg.ps.storage = memStorage{}
	}
	return e.dbg.ps.storage
}

func (e *Engine) lastSaveSec() int64 {
	if e.dbg.ps.lastSave == 0 {
		return e.startMs() / 1000
	}
	return e.dbg.ps.lastSave
}

// startMs is INFO's server start time (the RESP server's, or the logical clock's start).
func (e *Engine) startMs() int64 {
	if e.cfg.infoHost != nil {
		return e.cfg.infoHost().StartMs
	}
	return StartMs
}

func (e *Engine) bgsaveRunning() bool { return e.dbg.ps.bgEnd != 0 }

// persistTick notices a BGSAVE whose time has come (checkChildrenDone) and starts what was
// scheduled (serverCron: a scheduled BGREWRITEAOF, then a scheduled BGSAVE).
func (e *Engine) persistTick() {
	ps := &e.dbg.ps
	if ps.bgEnd != 0 && e.NowMs() >= ps.bgEnd {
		e.bgsaveDone()
	}
	if e.inMultiExec || ps.bgEnd != 0 {
		return
	}
	if ps.aofScheduled {
		ps.aofScheduled = false
		e.aofRewrite()
	}
	if ps.bgScheduled {
		ps.bgScheduled = false
		e.bgsaveStart()
	}
}

// rdbFile is rdbSaveRio: the whole RDB file of the dataset (aofBase: as an AOF's preamble).
func (e *Engine) rdbFile(aofBase bool) []byte {
	w := e.rdbWriter()
	w.FileHeader(e.rdbVersion())
	w.Aux("redis-ver", profileRedisVersion(e.ver))
	w.AuxInt("redis-bits", 64)
	w.AuxInt("ctime", e.NowMs()/1000)
	used, _ := e.infoMemory()
	w.AuxInt("used-mem", used)
	w.AuxInt("aof-base", int64(boolInt(aofBase)))
	if e.lua != nil {
		names := make([]string, 0, len(e.lua.libs))
		for n := range e.lua.libs {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			w.Type(rdb.OpFunction2)
			w.String([]byte(e.lua.libs[n].code))
		}
	}
	lru := strings.HasSuffix(e.cfg.Get("maxmemory-policy"), "-lru")
	for i, db := range e.dbs {
		if len(db.keys) == 0 {
			continue
		}
		w.Type(rdb.OpSelectDB)
		w.Len(uint64(i))
		w.Type(rdb.OpResizeDB)
		w.Len(uint64(len(db.keys)))
		w.Len(uint64(len(db.expires)))
		keys := make([]string, 0, len(db.keys))
		for k := range db.keys {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			o := db.keys[k]
			if exp, ok := db.expires[k]; ok {
				w.Type(rdb.OpExpireTimeMs)
				w.Millis(exp)
			}
			if lru {
				w.Type(rdb.OpIdle)
				w.Len(uint64(e.idleMs(o) / 1000))
			} else if e.lfuPolicy() {
				w.Type(rdb.OpFreq)
				w.Type(e.lfuDecay(o))
			}
			w.Type(e.rdbType(o))
			w.String([]byte(k))
			e.rdbSaveValue(w, o)
		}
	}
	w.FileFooter(e.cfg.Get("rdbchecksum") != "no")
	return w.B
}

// rdbSave is rdbSave: write the file; on success the dirty counter starts over and LASTSAVE
// moves.
func (e *Engine) rdbSave() error {
	if err := e.storage().WriteFile(e.cfg.Get("dir"), e.cfg.Get("dbfilename"), e.rdbFile(false)); err != nil {
		return err
	}
	e.cfg.stats.dirty = 0
	e.dbg.ps.lastSave = e.NowMs() / 1000
	e.dbg.ps.bgFailed = false
	return nil
}

// errLoadRDB is any file rdbLoad refuses.
var errLoadRDB = errors.New("bad RDB file")

// loadRDBFile is rdbLoadRio: it adds the file's functions and keys to the dataset (merge:
// RDBFLAGS_ALLOW_DUP, a key or library already there is replaced; else it fails the load).
// Keys whose time has passed are skipped, except in an AOF preamble (aof). The dirty counter is
// left as it was.
func (e *Engine) loadRDBFile(b []byte, merge, aof bool) error {
	ver, ok := rdb.FileVersion(b)
	if !ok || ver < 1 || ver > int(e.rdbVersion()) {
		return errLoadRDB
	}
	dirty := e.cfg.stats.dirty
	cur := e.db
	defer func() {
		e.db = cur
		e.cfg.stats.dirty = dirty
	}()
	r := &rdb.Reader{B: b, Pos: 9}
	db := e.dbs[0]
	exp, idle, freq := int64(-1), int64(-1), int64(-1)
	var loaded, expired int64
	now := e.NowMs()
	for {
		t := r.Byte()
		if r.Err != nil {
			return errLoadRDB
		}
		switch t {
		case rdb.OpExpireTime:
			exp = int64(r.Uint32LE()) * 1000
			continue
		case rdb.OpExpireTimeMs:
			exp = r.Millis()
			continue
		case rdb.OpFreq:
			freq = int64(r.Byte())
			continue
		case rdb.OpIdle:
			idle = int64(r.Len())
			continue
		case rdb.OpEOF:
		case rdb.OpSelectDB:
			i := r.Len()
			if r.Err != nil || i >= uint64(len(e.dbs)) {
				return errLoadRDB
			}
			db = e.dbs[i]
			continue
		case rdb.OpResizeDB:
			r.Len()
			r.Len()
			continue
		case rdb.OpSlotInfo:
			r.Len()
			r.Len()
			r.Len()
			continue
		case rdb.OpAux:
			r.String()
			r.String()
			continue
		case rdb.OpFunction2:
			code, _, _ := r.String()
			if r.Err != nil {
				return errLoadRDB
			}
			if _, errText := e.loadLibrary(string(code), merge); errText != "" {
				return errLoadRDB
			}
			continue
		case rdb.OpModuleAux, rdb.OpFunctionPre:
			return errLoadRDB // no module here; pre-GA functions are refused by 7.x too
		default:
			k, _, _ := r.String()
			k = append([]byte(nil), k...)
			if r.Err != nil {
				return errLoadRDB
			}
			e.db = db
			o := e.rdbLoadValue(r, t, k, exp >= 0)
			if o == nil || r.Err != nil {
				return errLoadRDB
			}
			if exp >= 0 && exp < now && !aof {
				expired++
			} else {
				if _, exists := db.keys[string(k)]; exists {
					if !merge {
						return errLoadRDB
					}
					e.Delete(k)
				}
				e.add(k, o)
				if exp >= 0 {
					e.setExpire(string(k), exp)
				}
				e.setLRUOrLFU(o, freq, idle)
				loaded++
			}
			exp, idle, freq = -1, -1, -1
			continue
		}
		break // EOF
	}
	// From version 5 the checksum follows EOF; it is read even when it is not checked.
	if ver >= 5 {
		if !r.Need(8) {
			return errLoadRDB
		}
		if e.cfg.Get("rdbchecksum") != "no" && !e.dbg.skipChecksum && !rdb.CheckFileCRC(b, r.Pos-1) {
			return errLoadRDB
		}
	}
	e.dbg.ps.loaded, e.dbg.ps.expired = loaded, expired
	return nil
}

// emptyData is emptyData(-1, …): every database emptied (functions too unless keepFunctions);
// it returns how many keys went.
func (e *Engine) emptyData(keepFunctions bool) int64 {
	e.signalFlushedDb(-1)
	var n int64
	cur := e.db
	for _, d := range e.dbs {
		n += int64(len(d.keys))
		e.db = d
		e.flushCurrent()
	}
	e.db = cur
	if !keepFunctions && e.lua != nil && len(e.lua.libs) != 0 {
		cmdFunctionFlush(e, [][]byte{[]byte("FUNCTION"), []byte("FLUSH")})
	}
	return n
}

// flushAllSave is the part of flushAllDataAndResetRDB after the flush: a running BGSAVE is
// killed (its end changes nothing) and, when save points are configured, the empty dataset is
// saved (the dirty counter is then 0).
func (e *Engine) flushAllSave() {
	ps := &e.dbg.ps
	ps.bgEnd, ps.bgData = 0, nil
	if e.cfg.Get("save") != "" {
		e.rdbSave()
	}
}

// ---- commands ----

func init() {
	register(
		&Command{Name: "save", Arity: 1, Flags: FlagAdmin | FlagNoScript | FlagNoAsyncLoading | FlagNoMulti, Cats: "dangerous", Fn: cmdSave},
		&Command{Name: "bgsave", Arity: -1, Flags: FlagAdmin | FlagNoScript | FlagNoAsyncLoading, Cats: "dangerous", Fn: cmdBgsave},
		&Command{Name: "bgrewriteaof", Arity: 1, Flags: FlagAdmin | FlagNoScript | FlagNoAsyncLoading, Cats: "dangerous", Fn: cmdBgrewriteaof},
		&Command{Name: "lastsave", Arity: 1, Flags: FlagLoading | FlagStale | FlagFast, Cats: "admin dangerous", Tips: "nondeterministic_output", Fn: cmdLastsave},
	)
	registerDebug("loadaof", 2, debugLoadAOF)
}

func cmdSave(e *Engine, args [][]byte) Reply {
	e.persistTick()
	if e.bgsaveRunning() {
		return Err("ERR Background save already in progress")
	}
	e.dbg.ps.saves++
	if e.rdbSave() != nil {
		return Err("ERR")
	}
	return OK
}

func cmdBgsave(e *Engine, args [][]byte) Reply {
	// SCHEDULE only matters while another child (an AOF rewrite) runs, which never lasts here.
	if len(args) > 1 && (len(args) != 2 || !eqFold(args[1], "schedule")) {
		return ErrSyntax
	}
	e.persistTick()
	switch {
	case e.bgsaveRunning():
		return Err("ERR Background save already in progress")
	case e.inMultiExec:
		// Inside EXEC the save is scheduled, SCHEDULE or not (server.in_exec).
		e.dbg.ps.bgScheduled = true
		return Status("Background saving scheduled")
	}
	e.bgsaveStart()
	return Status("Background saving started")
}

// bgsaveStart is rdbSaveBackground: the snapshot is taken now; the save ends after the
// rdb-key-save-delay of every key (at once by default).
func (e *Engine) bgsaveStart() {
	ps := &e.dbg.ps
	ps.saves++
	ps.dirtyBefore = e.cfg.stats.dirty
	ps.bgStart = e.NowMs()
	ps.bgData = e.rdbFile(false)
	var keys int64
	for _, d := range e.dbs {
		keys += int64(len(d.keys))
	}
	// debugDelay: a positive delay is microseconds, a negative one nanoseconds (busy loop).
	delay := e.cfg.Int("rdb-key-save-delay")
	var us int64
	if delay > 0 {
		us = delay * keys
	} else if delay < 0 {
		us = -delay * keys / 1000
	}
	ps.bgEnd = ps.bgStart + us/1000
	if us/1000 == 0 {
		e.bgsaveDone()
	}
}

// bgsaveDone is backgroundSaveDoneHandlerDisk after the child wrote its file.
func (e *Engine) bgsaveDone() {
	ps := &e.dbg.ps
	end := e.NowMs()
	if ps.bgEnd > end {
		end = ps.bgEnd
	}
	if err := e.storage().WriteFile(e.cfg.Get("dir"), e.cfg.Get("dbfilename"), ps.bgData); err != nil {
		ps.bgFailed = true
	} else {
		e.cfg.stats.dirty -= ps.dirtyBefore
		ps.lastSave = end / 1000
		ps.bgFailed = false
	}
	ps.bgLastSec = end/1000 - ps.bgStart/1000
	ps.bgDone = true
	ps.bgEnd, ps.bgData = 0, nil
}

func cmdBgrewriteaof(e *Engine, args [][]byte) Reply {
	e.persistTick()
	if e.bgsaveRunning() || e.inMultiExec {
		e.dbg.ps.aofScheduled = true
		return Status("Background append only file rewriting scheduled")
	}
	e.aofRewrite()
	return Status("Background append only file rewriting started")
}

// aofRewrite is rewriteAppendOnlyFileBackground finishing at once: the AOF becomes the dataset
// (an RDB preamble; see docs/persistence.md).
func (e *Engine) aofRewrite() {
	ps := &e.dbg.ps
	ps.aofFile = e.rdbFile(true)
	ps.aofRewrites++
	ps.aofDone = true
}

func cmdLastsave(e *Engine, args [][]byte) Reply {
	e.persistTick()
	return Int(e.lastSaveSec())
}

// appendonlyChanged follows CONFIG SET appendonly: yes starts the AOF with a rewrite
// (startAppendOnly), no stops it, leaving the AOF as it was then (stopAppendOnly).
func (e *Engine) appendonlyChanged(was, now string) {
	if was == now {
		return
	}
	if now == "yes" {
		e.aofRewrite()
	} else {
		e.dbg.ps.aofFile = e.rdbFile(true)
	}
}

// errRDBLoad is DEBUG RELOAD's error: 7.2 added the advice.
func (e *Engine) errRDBLoad() Reply {
	if e.ver.Has(V72) {
		return Err(errRDBLoad.Str + ", check server logs.")
	}
	return errRDBLoad
}

// DEBUG LOADAOF (debug.c): the dataset is emptied and the AOF loaded; the dirty counter is 0.
func debugLoadAOF(e *Engine, args [][]byte) Reply {
	e.persistTick()
	ps := &e.dbg.ps
	if e.cfg.Get("appendonly") == "yes" {
		ps.aofFile = e.rdbFile(true) // flushAppendOnlyFile: the AOF holds every write
	}
	e.emptyData(false)
	if ps.aofFile == nil {
		return errAOFLoad
	}
	if e.loadRDBFile(ps.aofFile, false, true) != nil {
		return errAOFLoad
	}
	e.cfg.stats.dirty = 0
	return OK
}
