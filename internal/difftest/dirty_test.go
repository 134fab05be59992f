package difftest

import (
	"strconv"
	"strings"
	"testing"

	"redscope/internal/transcript"
)

// TestDirtyCounter compares, command by command, how far INFO's rdb_changes_since_last_save
// (server.dirty) moves on redis-server 7.0.15 and on redscope: the commands whose own amount
// differs from one per modified key (each command sets it) and a few that count one per key.
func TestDirtyCounter(t *testing.T) {
	moved := compareDirty(t, []string{
		"SET a 1", "SET a 2", "INCR a", "APPEND a x", "MSET b 1 c 2 d 3", "DEL b c d nokey",
		"RPUSH p a b c d e f g", "LPOP p", "RPOP p 2", "LPOP p 0", "LMOVE p p2 LEFT RIGHT", "RPOPLPUSH p p2",
		"LMPOP 1 p LEFT COUNT 5", "LPOP p", "LPOP nop 2", "RPUSH p2 x y z", "BLPOP p2 0", "BRPOP p2 0", "BLMOVE p2 p3 LEFT LEFT 0",
		"RPUSH p4 a b c", "BLMPOP 0 1 p4 RIGHT COUNT 2", "BRPOPLPUSH p4 p5 0", "LMOVE p5 p5 LEFT RIGHT",
		"RPUSH l a b c", "LPUSH l d e", "LPUSHX nol a b", "RPUSHX l f g h", "LREM l 0 a", "LPOP l",
		"SADD s a b c", "SADD s a", "SADD s a d e", "SREM s a b", "SREM s zz",
		"HSET h f1 v f2 v", "HSET h f1 v", "HMSET h f3 v f4 w", "HDEL h f1 f2 nof",
		"ZADD z 1 a 2 b", "ZREM z a b c",
		"SETBIT bm 0 1", "SETBIT bm 0 1", "SETBIT bm 0 0", "SETBIT bm2 0 0", "SETBIT bm2 100 0",
		"XADD x 1-1 f v", "XADD x 2-1 f v", "XADD x MAXLEN 1 3-1 f v", "XADD nox NOMKSTREAM * f v",
		"XGROUP CREATE x g 0", "XGROUP CREATE x g 0", "XGROUP CREATE y g $ MKSTREAM",
		"XGROUP SETID x g 0", "XGROUP CREATECONSUMER x g alice", "XGROUP CREATECONSUMER x g alice",
		"XADD q 1-0 d a", "XADD q 2-0 d b", "XADD q 3-0 d c", "XADD q 4-0 d d", "XADD q 5-0 d e",
		"XGROUP CREATE q g1 0", "XGROUP CREATECONSUMER q g1 alice",
		"XREADGROUP GROUP g1 alice COUNT 2 STREAMS q >", "XREADGROUP GROUP g1 alice NOACK COUNT 2 STREAMS q >",
		"XREADGROUP GROUP g1 alice COUNT 2 STREAMS q 0", "XREADGROUP GROUP g1 alice STREAMS q 9000",
		"XREADGROUP GROUP g1 bob COUNT 2 STREAMS q 0", "XREADGROUP GROUP g1 carol COUNT 9 STREAMS q >",
		"XREADGROUP GROUP g1 carol STREAMS q >", "XREADGROUP GROUP g1 dave STREAMS q x >",
		"XREADGROUP GROUP nog alice STREAMS q >",
		"XGROUP DESTROY x g", "XGROUP DESTROY x g",
		"RENAME a a2", "RENAME a2 a2", "RENAMENX a2 a2", "RENAMENX a2 s", "RENAMENX a2 a3", "EXPIRE a3 100", "PERSIST a3",
		"BITFIELD bf SET i5 0 0", "BITFIELD bf SET i5 0 0", "BITFIELD bf SET i5 0 1", "BITFIELD bf SET i5 0 1",
		"BITFIELD bf2 INCRBY i5 0 1", "BITFIELD bf2 INCRBY i5 0 1", "BITFIELD bf SET i5 90 0",
		"BITFIELD bf3 SET u8 0 1 SET u8 8 2 GET u8 0", "BITFIELD bf3 SET u8 0 1 SET u8 8 3", "BITFIELD bf4 OVERFLOW FAIL INCRBY u2 0 5", "BITFIELD bf4 OVERFLOW SAT INCRBY u2 0 5 GET u2 0",
		"SET t1 v EX 100", "SET t1 v2", "SET t2 v PX 100000", "SETEX t3 100 v", "PSETEX t4 100000 v", "SET t1 v3 EX 50 GET",
		"SET t5 v KEEPTTL", "GETEX t1 EX 100", "GETEX t1 PERSIST", "GETEX t1 PERSIST", "GETEX t1", "GETEX t1 PXAT 1",
		"EXPIRE t2 100 NX", "EXPIRE t2 100", "PERSIST t2", "PERSIST t2", "SET t6 v EX 100", "RENAME t6 t7", "EXPIRE t7 0",
		"SET t8 v EX 100", "COPY t8 t9", "SET t8 w", "SET t10 v NX EX 10", "SET t10 v XX PX 10000",
		"FLUSHALL",
	})
	if moved < 30 {
		t.Errorf("only %d commands moved the counter", moved)
	}
}

// compareDirty runs each line on a fresh redis-server 7.0.15 and a fresh redscope and compares
// how far INFO's rdb_changes_since_last_save (server.dirty) moves with it (the increments: the
// two servers start from different counts). It reports how many lines moved it on redis-server.
func compareDirty(t *testing.T, lines []string) (moved int) {
	t.Helper()
	sv := freshServers(t)
	ref, got := dialPair(t, sv.ref, sv.scope)
	dirty := func(c *transcript.Conn) int64 {
		t.Helper()
		v, ok := infoFields(doInfo(t, c, "persistence"))["rdb_changes_since_last_save"]
		n, err := strconv.ParseInt(v, 10, 64)
		if !ok || err != nil {
			t.Fatalf("rdb_changes_since_last_save %q", v)
		}
		return n
	}
	for _, line := range lines {
		args := strings.Fields(line)
		var d [2]int64
		for i, c := range []*transcript.Conn{ref, got} {
			before := dirty(c)
			if _, _, err := c.DoStrings(args...); err != nil {
				t.Fatal(err)
			}
			d[i] = dirty(c) - before
		}
		if d[0] != d[1] {
			t.Errorf("%s: dirty +%d on redis-server, +%d on redscope", line, d[0], d[1])
		}
		if d[0] != 0 {
			moved++
		}
	}
	return moved
}

// TestDirtyTranscripts replays every testdata/transcripts/diff/*.txt as TestDiffTranscripts does
// and compares, step by step, how far server.dirty (INFO's rdb_changes_since_last_save, read on a
// second connection so that MULTI does not queue it) moves on redis-server 7.0.15 and on
// redscope: every command of every transcript, TTLs, lazy expiry and key creation included. A
// step that resets the counter (SAVE, DEBUG RELOAD, FLUSHALL's save) on either server is not
// compared.
func TestDirtyTranscripts(t *testing.T) {
	sv := startServers(t)
	compared, moved := 0, 0
	eachTranscript(t, "diff", func(t *testing.T, path string, f *transcript.File) {
		sv.fresh(t)
		ref, got := dialPair(t, sv.ref, sv.scope)
		refInfo, gotInfo := dialPair(t, sv.ref, sv.scope)
		dirty := func(c *transcript.Conn) int64 {
			t.Helper()
			v := infoFields(doInfo(t, c, "persistence"))["rdb_changes_since_last_save"]
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				t.Fatalf("rdb_changes_since_last_save %q", v)
			}
			return n
		}
		fails := 0
		for _, st := range f.Steps {
			var d [2]int64
			for i, c := range [2][2]*transcript.Conn{{ref, refInfo}, {got, gotInfo}} {
				before := dirty(c[1])
				if _, _, err := c[0].Do(st.Args); err != nil {
					t.Fatalf("%s:%d: > %s: %v", path, st.Line, st.Text, err)
				}
				d[i] = dirty(c[1]) - before
			}
			if d[0] < 0 || d[1] < 0 {
				continue
			}
			compared++
			if d[0] != 0 {
				moved++
			}
			if d[0] != d[1] {
				if fails++; fails <= maxReported {
					t.Errorf("%s:%d: > %s: dirty +%d on redis-server, +%d on redscope", path, st.Line, st.Text, d[0], d[1])
				}
			}
		}
	})
	t.Logf("%d steps compared, %d moved the counter on redis-server", compared, moved)
	if moved < 1000 {
		t.Errorf("only %d steps moved the counter", moved)
	}
}
