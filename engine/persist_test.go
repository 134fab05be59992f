package engine

import (
	"encoding/binary"
	"strings"
	"testing"
	"time"

	"redscope/engine/rdb"
)

// persistField is one INFO persistence field.
func persistField(t *testing.T, e *Engine, name string) string {
	t.Helper()
	for _, ln := range strings.Split(e.Info([][]byte{[]byte("persistence")}), "\r\n") {
		if k, v, ok := strings.Cut(ln, ":"); ok && k == name {
			return v
		}
	}
	t.Fatalf("INFO persistence has no %s", name)
	return ""
}

// TestSaveWritesRDBFile: SAVE writes a whole RDB file (the profile's magic, AUX fields, the
// keys, EOF, a CRC-64 of the rest) to dir/dbfilename through the engine's Storage, resets the
// dirty counter and moves LASTSAVE.
func TestSaveWritesRDBFile(t *testing.T) {
	for _, c := range []struct {
		v     Version
		magic string
	}{{V70, "REDIS0010"}, {V72, "REDIS0011"}, {V74, "REDIS0012"}} {
		e, clock := newEngineAt(c.v)
		st := memStorage{}
		e.SetStorage(st)
		e.SetDir("/data")
		doLines(t, e, `
			SET k v => OK
			SELECT 2 => OK
			RPUSH l a b => (integer) 2
			PEXPIRE l 5000 => (integer) 1`)
		if got := persistField(t, e, "rdb_changes_since_last_save"); got != "4" { // SET 1, RPUSH 2 (one per element), PEXPIRE 1, as redis-server 7.4.1 counts
			t.Errorf("%s: dirty %s before SAVE, want 4", c.v, got)
		}
		clock.Advance(90 * time.Second)
		want(t, e, "OK", "SAVE")
		b, err := st.ReadFile("/data", "dump.rdb")
		if err != nil {
			t.Fatalf("%s: %v", c.v, err)
		}
		if !strings.HasPrefix(string(b), c.magic) || !strings.Contains(string(b), "redis-ver") {
			t.Errorf("%s: file starts %q", c.v, b[:20])
		}
		eof := len(b) - 9
		if b[eof] != rdb.OpEOF || binary.LittleEndian.Uint64(b[eof+1:]) != rdb.CRC64(0, b[:eof+1]) {
			t.Errorf("%s: no EOF + CRC-64 footer", c.v)
		}
		if got := persistField(t, e, "rdb_changes_since_last_save"); got != "0" {
			t.Errorf("%s: dirty %s after SAVE", c.v, got)
		}
		now := (StartMs + 90000) / 1000
		if got := e.Do("LASTSAVE").Int; got != now {
			t.Errorf("%s: LASTSAVE %d, want %d", c.v, got, now)
		}
		// The file loads back: a fresh engine on the same storage gets both keys and the TTL.
		f, _ := newEngineAt(c.v)
		f.SetStorage(st)
		f.SetDir("/data")
		want(t, f, "OK", "DEBUG", "RELOAD", "NOSAVE")
		doLines(t, f, `
			GET k => "v"
			SELECT 2 => OK
			LRANGE l 0 -1 => 1) "a" | 2) "b"`)
		if ttl := f.Do("PTTL", "l").Int; ttl <= 0 || ttl > 5000 {
			t.Errorf("%s: PTTL %d after the load", c.v, ttl)
		}
	}
}

// TestBgsaveTimeline: with rdb-key-save-delay the save stays in progress for keys × delay µs of
// the engine's clock; SAVE and BGSAVE are refused meanwhile; at the end the dirty counter keeps
// only the writes made during the save, and LASTSAVE is the end time.
func TestBgsaveTimeline(t *testing.T) {
	e, clock := newEngineAt(V74)
	doLines(t, e, `
		MSET a 1 b 2 c 3 d 4 => OK
		CONFIG SET rdb-key-save-delay 500000 => OK
		BGSAVE => Background saving started
		SET e 5 => OK
		SAVE => (error) ERR Background save already in progress
		BGSAVE => (error) ERR Background save already in progress
		BGREWRITEAOF => Background append only file rewriting scheduled`)
	if got := persistField(t, e, "rdb_bgsave_in_progress"); got != "1" {
		t.Fatalf("in progress %s", got)
	}
	if got := persistField(t, e, "aof_rewrite_scheduled"); got != "1" {
		t.Errorf("aof_rewrite_scheduled %s", got)
	}
	clock.Advance(1999 * time.Millisecond) // 4 keys × 0.5 s
	if got := persistField(t, e, "rdb_bgsave_in_progress"); got != "1" {
		t.Fatalf("ended early")
	}
	if got := persistField(t, e, "rdb_current_bgsave_time_sec"); got != "1" {
		t.Errorf("rdb_current_bgsave_time_sec %s", got)
	}
	clock.Advance(time.Millisecond)
	for f, w := range map[string]string{"rdb_bgsave_in_progress": "0", "rdb_changes_since_last_save": "1",
		"rdb_last_bgsave_time_sec": "2", "rdb_saves": "1", "aof_rewrites": "1", "aof_rewrite_scheduled": "0"} {
		if got := persistField(t, e, f); got != w {
			t.Errorf("%s: %s, want %s", f, got, w)
		}
	}
	if got := e.Do("LASTSAVE").Int; got != StartMs/1000+2 {
		t.Errorf("LASTSAVE %d", got)
	}
	want(t, e, "OK", "CONFIG", "RESETSTAT")
	if got := persistField(t, e, "rdb_saves"); got != "0" {
		t.Errorf("rdb_saves %s after RESETSTAT", got)
	}
}

// TestBgsaveInExecIsScheduled: inside EXEC, BGSAVE answers "scheduled" and runs after it.
func TestBgsaveInExecIsScheduled(t *testing.T) {
	e, _ := newEngineAt(V74)
	c := e.NewClient()
	for _, cmd := range []string{"MULTI", "SET k v", "BGSAVE"} {
		c.Exec(argv(strings.Fields(cmd)...))
	}
	r := c.Exec(argv("EXEC")).Reply
	if len(r.Array) != 2 || r.Array[1].Str != "Background saving scheduled" {
		t.Fatalf("EXEC: %s", r.FormatCLI())
	}
	if got := persistField(t, e, "rdb_saves"); got != "1" {
		t.Errorf("rdb_saves %s: the scheduled BGSAVE did not run", got)
	}
	if got := persistField(t, e, "rdb_changes_since_last_save"); got != "0" {
		t.Errorf("dirty %s", got)
	}
}

// TestFlushallDirty: FLUSHALL counts the keys it removed; with save points it saves, so the
// counter is 0.
func TestFlushallDirty(t *testing.T) {
	e, _ := newEngineAt(V74)
	doLines(t, e, `
		MSET a 1 b 2 => OK
		FLUSHALL => OK`)
	if got := persistField(t, e, "rdb_changes_since_last_save"); got != "4" {
		t.Errorf("dirty %s after FLUSHALL without save points, want 4", got)
	}
	doLines(t, e, `
		CONFIG SET save "3600 1 300 100" => OK
		SET a 1 => OK
		FLUSHALL => OK`)
	if got := persistField(t, e, "rdb_changes_since_last_save"); got != "0" {
		t.Errorf("dirty %s after FLUSHALL with save points", got)
	}
}

// TestDebugLoadAOF: without an AOF the dataset is emptied and the load fails; with appendonly
// yes the dataset is reloaded through the RDB encoding (a stream's last ID, entries-added and
// max-deleted-entry-id survive) and the dirty counter is 0; with appendonly switched off again
// the AOF is what was there at the switch.
func TestDebugLoadAOF(t *testing.T) {
	e, _ := newEngineAt(V74)
	doLines(t, e, `
		SET k v => OK
		DEBUG LOADAOF => (error) ERR Error trying to load the AOF files, check server logs.
		DBSIZE => (integer) 0
		CONFIG SET appendonly yes => OK
		XADD s 1-1 a b => "1-1"
		XADD s 2-2 a b => "2-2"
		XDEL s 2-2 => (integer) 1
		SET x 10 => OK
		EXPIRE x 1000 => (integer) 1
		DEBUG LOADAOF => OK
		XLEN s => (integer) 1
		TTL x => (integer) 1000`)
	info := e.Do("XINFO", "STREAM", "s")
	fields := map[string]string{}
	for i := 0; i+1 < len(info.Array); i += 2 {
		fields[info.Array[i].Str] = strings.TrimSpace(info.Array[i+1].FormatCLI())
	}
	for k, w := range map[string]string{"last-generated-id": `"2-2"`, "max-deleted-entry-id": `"2-2"`, "entries-added": "(integer) 2"} {
		if fields[k] != w {
			t.Errorf("XINFO STREAM after LOADAOF: %s is %s, want %s", k, fields[k], w)
		}
	}
	if got := persistField(t, e, "rdb_changes_since_last_save"); got != "0" {
		t.Errorf("dirty %s after LOADAOF", got)
	}
	doLines(t, e, `
		CONFIG SET appendonly no => OK
		SET later 1 => OK
		DEBUG LOADAOF => OK
		EXISTS later => (integer) 0
		EXISTS x => (integer) 1`)
}

// TestDebugReloadErrors: NOSAVE without a file, and a file whose checksum is wrong, fail the
// load with the profile's text; MERGE replaces keys already there, NOFLUSH alone refuses them.
func TestDebugReloadErrors(t *testing.T) {
	e, _ := newEngineAt(V70)
	want(t, e, "(error) ERR Error trying to load the RDB dump", "DEBUG", "RELOAD", "NOSAVE")
	e74, _ := newEngineAt(V74)
	st := memStorage{}
	e74.SetStorage(st)
	doLines(t, e74, `
		SET k v => OK
		SAVE => OK
		SET k changed => OK
		DEBUG RELOAD NOSAVE NOFLUSH => (error) ERR Error trying to load the RDB dump, check server logs.
		DEBUG RELOAD NOSAVE NOFLUSH MERGE => OK
		GET k => "v"`)
	b, _ := st.ReadFile("/", "dump.rdb")
	b[len(b)-1] ^= 1
	want(t, e74, "(error) ERR Error trying to load the RDB dump, check server logs.", "DEBUG", "RELOAD", "NOSAVE")
	want(t, e74, "OK", "DEBUG", "SET-SKIP-CHECKSUM-VALIDATION", "1")
	want(t, e74, "OK", "DEBUG", "RELOAD", "NOSAVE")
	want(t, e74, `"v"`, "GET", "k")
}

// TestRestoreStream62: a stream in the 6.2 form (RDB_TYPE_STREAM_LISTPACKS, no first ID, max
// deleted ID, entries-added or group entries-read) loads as rdbLoadObject loads it: entries-added
// is the length, max-deleted-entry-id 0-0, and each group's entries-read is estimated from its
// last ID (redis-server 7.4.1 gives the same for such a payload: a group at the first entry has
// read 1, a group at 0-0 has read 0 and a lag of the whole length). The payload is made here
// from a 7.0 DUMP by dropping those fields.
func TestRestoreStream62(t *testing.T) {
	e, _ := newEngineAt(V74)
	doLines(t, e, `
		XADD s 1-0 data a => "1-0"
		XADD s 2-0 data b => "2-0"
		XADD s 3-0 data c => "3-0"
		XDEL s 1-0 => (integer) 1
		XGROUP CREATE s g1 2-0 => OK
		XGROUP CREATE s g2 0 => OK`)
	flat := func(r Reply) string { return strings.Join(strings.Fields(r.FormatCLI()), " ") }
	if got := flat(e.Do("XREADGROUP", "GROUP", "g1", "alice", "COUNT", "1", "STREAMS", "s", ">")); got != `1) 1) "s" 2) 1) 1) "3-0" 2) 1) "data" 2) "c"` {
		t.Fatalf("XREADGROUP: %s", got)
	}
	e70, _ := newEngineAt(V70)
	body, _, ok := rdb.Verify([]byte(e.Do("DUMP", "s").Str), 12, false)
	if !ok {
		t.Fatal("DUMP payload")
	}
	r := &rdb.Reader{B: body}
	if r.Byte() != rdb.TypeStreamListpacks3 {
		t.Fatal("not a 7.4 stream")
	}
	w := e70.rdbWriter()
	w.Type(rdb.TypeStreamListpacks)
	copyLen := func() uint64 { // a length 6.2 has too
		n := r.Len()
		w.Len(n)
		return n
	}
	copyString := func() {
		s, _, _ := r.String()
		w.String(s)
	}
	nodes := copyLen()
	for i := uint64(0); i < nodes; i++ {
		copyString() // master ID
		copyString() // listpack
	}
	for i := 0; i < 3; i++ { // length, last ID
		copyLen()
	}
	for i := 0; i < 5; i++ { // first ID, max deleted ID, entries added: not in 6.2
		r.Len()
	}
	groups := copyLen()
	for i := uint64(0); i < groups; i++ {
		copyString() // name
		copyLen()    // last ID
		copyLen()
		r.Len() // entries read: not in 6.2
		pel := copyLen()
		for j := uint64(0); j < pel; j++ {
			w.Raw(r.Bytes(16))
			w.Millis(r.Millis())
			copyLen() // delivery count
		}
		consumers := copyLen()
		for j := uint64(0); j < consumers; j++ {
			copyString() // name
			w.Millis(r.Millis())
			r.Millis() // active time: 7.2+
			cp := copyLen()
			for k := uint64(0); k < cp; k++ {
				w.Raw(r.Bytes(16))
			}
		}
	}
	if r.Err != nil || r.Pos != len(body) {
		t.Fatalf("payload not read to its end: %v at %d of %d", r.Err, r.Pos, len(body))
	}
	payload := string(rdb.Wrap(w.B, 9))
	if got := e.Do("RESTORE", "old", "0", payload); got.IsError() {
		t.Fatalf("RESTORE: %s", got.Str)
	}
	want(t, e, "(integer) 2", "XLEN", "old")
	if got := flat(e.Do("XINFO", "GROUPS", "old")); got != `1) 1) "name" 2) "g1" 3) "consumers" 4) (integer) 1 5) "pending" 6) (integer) 1 7) "last-delivered-id" 8) "3-0" 9) "entries-read" 10) (integer) 2 11) "lag" 12) (integer) 0 `+
		`2) 1) "name" 2) "g2" 3) "consumers" 4) (integer) 0 5) "pending" 6) (integer) 0 7) "last-delivered-id" 8) "0-0" 9) "entries-read" 10) (integer) 0 11) "lag" 12) (integer) 2` {
		t.Errorf("XINFO GROUPS: %s", got)
	}
	info := e.Do("XINFO", "STREAM", "old")
	fields := map[string]string{}
	for i := 0; i+1 < len(info.Array); i += 2 {
		fields[info.Array[i].Str] = strings.TrimSpace(info.Array[i+1].FormatCLI())
	}
	for k, w := range map[string]string{"max-deleted-entry-id": `"0-0"`, "entries-added": "(integer) 2", "recorded-first-entry-id": `"2-0"`} {
		if fields[k] != w {
			t.Errorf("%s: %s, want %s", k, fields[k], w)
		}
	}
}

// TestLoadRDBFileNeverPanics: every truncation of a saved file, and every single-byte change of
// it with checksum validation off, loads or fails the load — never a panic.
func TestLoadRDBFileNeverPanics(t *testing.T) {
	e, _ := newEngineAt(V74)
	st := memStorage{}
	e.SetStorage(st)
	doLines(t, e, `
		SET s hello => OK
		RPUSH l a b c => (integer) 3
		SADD st 1 2 x => (integer) 3
		HSET h f v => (integer) 1
		ZADD z 1 a => (integer) 1
		XADD x 1-1 f v => "1-1"
		XGROUP CREATE x g 0 => OK
		EXPIRE s 100 => (integer) 1
		SAVE => OK`)
	file, _ := st.ReadFile("/", "dump.rdb")
	f, _ := newEngineAt(V74)
	f.dbg.skipChecksum = true
	for i := 0; i < len(file); i++ {
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("truncated at %d: panic %v", i, p)
				}
			}()
			if f.loadRDBFile(file[:i], true, false) == nil {
				t.Errorf("a file truncated at %d of %d loaded", i, len(file))
			}
		}()
		for _, x := range []byte{0x01, 0x80, 0xff} {
			b := append([]byte(nil), file...)
			b[i] ^= x
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("byte %d ^ %#x: panic %v", i, x, p)
					}
				}()
				f.loadRDBFile(b, true, false)
			}()
		}
	}
}
