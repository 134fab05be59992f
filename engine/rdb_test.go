package engine

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"redscope/engine/alloc"
	"redscope/engine/rdb"
)

// buildDataset makes one key of every type and encoding the profile has.
func buildDataset(t *testing.T, e *Engine) []string {
	t.Helper()
	cmds := [][]string{
		{"SET", "str", strings.Repeat("abc", 40)},
		{"SET", "int", "123456"},
		{"SET", "emb", "hello"},
		{"RPUSH", "list-small", "a", "b", "1", "2"},
		{"SADD", "set-int", "1", "2", "3"},
		{"SADD", "set-lp", "a", "b", "c"},
		{"HSET", "hash-lp", "f", "v", "g", "12"},
		{"ZADD", "zset-lp", "1", "a", "2.5", "b"},
		{"ZADD", "zset-sl", "1", strings.Repeat("m", 80), "2", "x"},
		{"HSET", "hash-ht", "f", strings.Repeat("v", 80)},
		{"XADD", "stream", "1-1", "a", "1"},
		{"XADD", "stream", "2-1", "a", "2", "b", "3"},
		{"XGROUP", "CREATE", "stream", "g", "0"},
		{"XREADGROUP", "GROUP", "g", "alice", "COUNT", "1", "STREAMS", "stream", ">"},
	}
	big := []string{"RPUSH", "list-big"}
	sbig := []string{"SADD", "set-ht"}
	for i := 0; i < 300; i++ {
		big = append(big, fmt.Sprintf("element-%d", i))
		sbig = append(sbig, fmt.Sprintf("m%d", i))
	}
	cmds = append(cmds, big, sbig)
	if e.ver.Has(V74) {
		cmds = append(cmds, []string{"HSET", "hash-lpex", "f", "v", "g", "w"}, []string{"HPEXPIRE", "hash-lpex", "100000", "FIELDS", "1", "f"},
			[]string{"HSET", "hash-htex", "f", strings.Repeat("v", 80), "g", "1"}, []string{"HPEXPIRE", "hash-htex", "50000", "FIELDS", "1", "g"})
	}
	var keys []string
	for _, c := range cmds {
		if r := e.Do(c...); r.IsError() {
			t.Fatalf("%v: %s", c, r.Str)
		}
		if c[0] != "XGROUP" && c[0] != "XREADGROUP" && c[0] != "HPEXPIRE" && !slices.Contains(keys, c[1]) {
			keys = append(keys, c[1])
		}
	}
	return keys
}

// TestDumpRestoreRoundTrip: on every profile, each key's DUMP ends with the profile's RDB
// version and a valid CRC-64, and RESTOREs (into the same engine) to a value with the same
// encoding, digest and memory usage; for encodings whose payload does not depend on a dict's
// order the restored key dumps to the same bytes.
func TestDumpRestoreRoundTrip(t *testing.T) {
	wantVer := map[Version]uint16{V70: 10, V72: 11, V74: 12, V80: 12, V82: 12, V84: 12, V88: 12}
	for _, v := range Versions {
		t.Run(v.String(), func(t *testing.T) {
			e := New(Options{Version: v, Allocator: alloc.Jemalloc16})
			for _, k := range buildDataset(t, e) {
				p := e.Do("DUMP", k)
				body, ver, ok := rdb.Verify([]byte(p.Str), 12, false)
				if !ok || ver != wantVer[v] || len(body) < 2 {
					t.Fatalf("%s: DUMP footer version %d ok=%v", k, ver, ok)
				}
				nk := k + "-copy"
				if r := e.Exec([][]byte{[]byte("RESTORE"), []byte(nk), []byte("0"), []byte(p.Str)}).Reply; r.IsError() {
					t.Fatalf("RESTORE %s: %s", k, r.Str)
				}
				for _, sub := range []string{"OBJECT ENCODING", "DEBUG DIGEST-VALUE", "TYPE"} {
					a := e.Do(append(strings.Fields(sub), k)...).FormatCLI()
					b := e.Do(append(strings.Fields(sub), nk)...).FormatCLI()
					if a != b {
						t.Errorf("%s %s: %q, restored %q", sub, k, a, b)
					}
				}
				enc := e.Do("OBJECT", "ENCODING", k).Str
				if enc != "hashtable" && enc != "skiplist" {
					if q := e.Do("DUMP", nk); q.Str != p.Str {
						t.Errorf("%s (%s): the restored key dumps differently", k, enc)
					}
				}
			}
		})
	}
}

// TestRestoreErrorsNeverPanic feeds truncated and bit-flipped payloads of every type to RESTORE
// with checksum validation off: each must answer OK or Redis's error, never panic.
func TestRestoreErrorsNeverPanic(t *testing.T) {
	for _, v := range []Version{V70, V74} {
		e := New(Options{Version: v, Allocator: alloc.Jemalloc16})
		keys := buildDataset(t, e)
		e.Do("DEBUG", "SET-SKIP-CHECKSUM-VALIDATION", "1")
		n := 0
		for _, k := range keys {
			p := []byte(e.Do("DUMP", k).Str)
			body := len(p) - 10
			for cut := 1; cut < body; cut += 1 + body/40 {
				bad := append(append([]byte{}, p[:cut]...), p[body:]...)
				for _, pl := range [][]byte{bad, flip(p, cut)} {
					r := e.Exec([][]byte{[]byte("RESTORE"), []byte("x" + strconv.Itoa(n)), []byte("0"), pl}).Reply
					n++
					if r.IsError() && r.Str != "ERR Bad data format" && r.Str != "ERR DUMP payload version or checksum are wrong" {
						t.Fatalf("RESTORE of a damaged %s: %q", k, r.Str)
					}
					if !r.IsError() { // what was accepted must read back without an internal error
						key := "x" + strconv.Itoa(n-1)
						for _, c := range [][]string{{"DEBUG", "DIGEST-VALUE", key}, {"DUMP", key}, {"MEMORY", "USAGE", key}} {
							if r := e.Do(c...); r.IsError() {
								t.Errorf("%v after RESTORE of a damaged %s: %s", c, k, r.Str)
							}
						}
					}
				}
			}
		}
	}
}

func flip(p []byte, at int) []byte {
	q := append([]byte{}, p...)
	q[at] ^= 0x5a
	return q
}

// TestDebugReloadKeepsDataset: DEBUG RELOAD keeps every key's digest on every profile.
func TestDebugReloadKeepsDataset(t *testing.T) {
	for _, v := range Versions {
		e := New(Options{Version: v, Allocator: alloc.Jemalloc16})
		buildDataset(t, e)
		before := e.Do("DEBUG", "DIGEST").Str
		if r := e.Do("DEBUG", "RELOAD"); r.IsError() {
			t.Fatalf("%s: %s", v, r.Str)
		}
		if after := e.Do("DEBUG", "DIGEST").Str; after != before || before == strings.Repeat("0", 40) {
			t.Errorf("%s: digest %s after reload, %s before", v, after, before)
		}
	}
}

// TestRestoreWakesBlockedClients: RESTORE adds the key as dbAdd does, so a client blocked on the
// list (or zset) is served by it, and a REPLACE of an existing key is no new key.
func TestRestoreWakesBlockedClients(t *testing.T) {
	for _, v := range []Version{V70, V88} {
		e, _, c, woken := blockingClientsV(t, v, 3)
		expect(t, c[2], "RPUSH src a b", "(integer) 2")
		expect(t, c[2], "ZADD zsrc 1 m", "(integer) 1")
		list := e.Do("DUMP", "src").Str
		zset := e.Do("DUMP", "zsrc").Str
		mustBlock(t, c[0], "BLPOP l 0")
		mustBlock(t, c[1], "BZPOPMIN z 0")
		if r := c[2].Exec([][]byte{[]byte("RESTORE"), []byte("l"), []byte("0"), []byte(list)}); oneLine(r.Reply) != "OK" {
			t.Fatalf("%s: RESTORE l: %s", v, oneLine(r.Reply))
		}
		if r := c[2].Exec([][]byte{[]byte("RESTORE"), []byte("z"), []byte("0"), []byte(zset)}); oneLine(r.Reply) != "OK" {
			t.Fatalf("%s: RESTORE z: %s", v, oneLine(r.Reply))
		}
		if len(woken[0]) != 1 || woken[0][0] != `1) "l" | 2) "a"` {
			t.Errorf("%s: BLPOP woken with %q", v, woken[0])
		}
		if len(woken[1]) != 1 || woken[1][0] != `1) "z" | 2) "m" | 3) "1"` {
			t.Errorf("%s: BZPOPMIN woken with %q", v, woken[1])
		}
		expect(t, c[2], "LRANGE l 0 -1", `1) "b"`)
	}
}
