package difftest

import (
	"os"
	"testing"
	"time"

	"redscope/engine"
)

// Stream blocking under the 7.4 profile, played in lockstep on a real redis-server 7.4 (the
// binary REDSCOPE_REDIS74 names; skipped without it) and on redscope with a 7.4 engine. From 7.2
// a blocked command is run again when its key is ready (blocked.c handleClientsBlockedOnKey,
// unblockClientOnKey), and an XREADGROUP client (unblock_on_nokey) also when its key is deleted
// or changes type: it answers its own NOGROUP or WRONGTYPE error where 7.0 answered "UNBLOCKED
// the stream key no longer exists"; and a blocked call is counted in commandstats when it ends.
var streamBlockingScenarios74 = []bscenario{
	{"XREADGROUP BLOCK: the key deleted, flushed, destroyed group, renamed over", []bstep{
		bat(3, "XGROUP CREATE s g $ MKSTREAM", "OK"),
		bsend(0, "XREADGROUP GROUP g alice BLOCK 0 STREAMS s >", 1),
		bsend(1, "XREAD BLOCK 0 STREAMS s $", 2),
		bat(3, "DEL s", "(integer) 1"),
		brecv(0, "(error) NOGROUP No such key 's' or consumer group 'g' in XREADGROUP with GROUP option"),
		binfo("blocked_clients", "1"), // XREAD keeps waiting
		bat(3, "XGROUP CREATE s g $ MKSTREAM", "OK"),
		bsend(0, "XREADGROUP GROUP g alice BLOCK 0 STREAMS s >", 2),
		bat(3, "FLUSHALL", "OK"),
		brecv(0, "(error) NOGROUP No such key 's' or consumer group 'g' in XREADGROUP with GROUP option"),
		bat(3, "XGROUP CREATE s g $ MKSTREAM", "OK"),
		bsend(0, "XREADGROUP GROUP g alice BLOCK 0 STREAMS s >", 2),
		bat(3, "XGROUP DESTROY s g", "(integer) 1"),
		brecv(0, "(error) NOGROUP No such key 's' or consumer group 'g' in XREADGROUP with GROUP option"),
		bat(3, "XGROUP CREATE s g $ MKSTREAM", "OK"),
		bsend(0, "XREADGROUP GROUP g alice BLOCK 0 STREAMS s >", 2),
		bat(3, "XADD s2 1-1 f v", `"1-1"`),
		bat(3, "RENAME s2 s", "OK"), // s2 had no group g
		brecv(0, "(error) NOGROUP No such key 's' or consumer group 'g' in XREADGROUP with GROUP option"),
		brecv(1, `1) 1) "s"`, `   2) 1) 1) "1-1"`, `         2) 1) "f"`, `            2) "v"`),
	}},
	{"XREADGROUP BLOCK: another type under the name answers WRONGTYPE", []bstep{
		bat(3, "XGROUP CREATE s g $ MKSTREAM", "OK"),
		bsend(0, "XREADGROUP GROUP g alice BLOCK 0 STREAMS s >", 1),
		bat(3, "SET s x", "OK"),
		brecv(0, "(error) WRONGTYPE Operation against a key holding the wrong kind of value"),
		bat(3, "DEL s"), bat(3, "XGROUP CREATE s g $ MKSTREAM", "OK"),
		bsend(0, "XREADGROUP GROUP g alice BLOCK 0 STREAMS s >", 1),
		bat(3, "MULTI"), bat(3, "DEL s", "QUEUED"), bat(3, "SADD s e1", "QUEUED"), bat(3, "EXEC"),
		brecv(0, "(error) WRONGTYPE Operation against a key holding the wrong kind of value"),
		binfo("total_blocking_keys", "0"),
	}},
	{"a blocked call counts when it ends: commandstats and errorstats", []bstep{
		bat(3, "XGROUP CREATE s g $ MKSTREAM", "OK"),
		bat(3, "CONFIG RESETSTAT", "OK"),
		bsend(0, "XREADGROUP GROUP g alice BLOCK 0 STREAMS s >", 1),
		bat(3, "XGROUP DESTROY s g", "(integer) 1"),
		brecv(0, "(error) NOGROUP No such key 's' or consumer group 'g' in XREADGROUP with GROUP option"),
		bsend(0, "BLPOP y 0", 1),
		bat(3, "CLIENT UNBLOCK $id0 ERROR", "(integer) 1"),
		brecv(0, "(error) UNBLOCKED client unblocked via CLIENT UNBLOCK"),
		bsend(0, "BLPOP x 0.05", 1), brecv(0, "(nil)"),
		bpause(10 * time.Millisecond),
		bat(3, "INFO errorstats", `"# Errorstats\r\nerrorstat_NOGROUP:count=1\r\nerrorstat_UNBLOCKED:count=1\r\n"`),
	}},
}

func TestStreamBlockingScenarios74(t *testing.T) {
	bin := os.Getenv("REDSCOPE_REDIS74")
	if bin == "" {
		t.Skip("REDSCOPE_REDIS74 (a redis-server 7.4 binary) is not set")
	}
	srv, scope := scopeServer(t)
	playLockstepOn(t, streamBlockingScenarios74, func(t *testing.T) (string, string) {
		srv.SetEngine(engine.New(engine.Options{Version: engine.V74, Clock: engine.WallClock{}}))
		return startRefServer(t, bin), scope
	})
}
