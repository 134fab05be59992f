package difftest

import (
	"fmt"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Stream blocking scenarios: XREAD BLOCK and XREADGROUP BLOCK on several connections, played
// in lockstep on redis-server 7.0.15 and on redscope's RESP server with the harness of
// blocking_test.go (every reply compared byte for byte; the expected redis-cli text is what
// 7.0.15 answered). What they pin down (t_stream.c xreadCommand, blocked.c
// serveClientsBlockedOnStreamKey and unblockDeletedStreamReadgroupClients):
//
//   - who is woken: every XREAD client whose ID is behind the stream's last ID, in the order
//     they blocked, while a group's consumers share the group's last-delivered ID (one XADD
//     serves one XREADGROUP >);
//   - with what: the entries after the client's ID (COUNT bounds it), after `$` as resolved
//     when the client blocked; for XREADGROUP the entries enter the PEL unless NOACK;
//   - the ends that are not data: XGROUP DESTROY (NOGROUP), the key deleted, overwritten,
//     renamed, flushed (UNBLOCKED, for XREADGROUP only), timeouts in milliseconds, CLIENT
//     UNBLOCK, MULTI (never blocks).

var streamBlockingScenarios = []bscenario{
	{"XREAD BLOCK: one XADD wakes every reader behind it, first blocked first", []bstep{
		bat(3, "XADD s 1-1 a 1", `"1-1"`),
		bsend(0, "XREAD BLOCK 0 STREAMS s $", 1), bsend(1, "XREAD BLOCK 0 STREAMS s 1-1", 2),
		bsend(2, "XREAD COUNT 1 BLOCK 0 STREAMS nokey s 0 1-1", 3),
		bat(3, "XADD s 2-1 b 2", `"2-1"`),
		brecv(0, `1) 1) "s"`, `   2) 1) 1) "2-1"`, `         2) 1) "b"`, `            2) "2"`),
		brecv(1, `1) 1) "s"`, `   2) 1) 1) "2-1"`, `         2) 1) "b"`, `            2) "2"`),
		brecv(2, `1) 1) "s"`, `   2) 1) 1) "2-1"`, `         2) 1) "b"`, `            2) "2"`),
		binfo("blocked_clients", "0"),
		// "$" is the last ID when the client blocked: both entries of one EXEC are served, COUNT caps
		bsend(0, "XREAD BLOCK 0 STREAMS s $", 1), bsend(1, "XREAD COUNT 1 BLOCK 0 STREAMS s $", 2),
		bat(3, "MULTI"), bat(3, "XADD s 3-1 c 3", "QUEUED"), bat(3, "XADD s 4-1 d 4", "QUEUED"),
		bquiet(0, 30*time.Millisecond), bat(3, "EXEC", `1) "3-1"`, `2) "4-1"`),
		brecv(0, `1) 1) "s"`, `   2) 1) 1) "3-1"`, `         2) 1) "c"`, `            2) "3"`,
			`      2) 1) "4-1"`, `         2) 1) "d"`, `            2) "4"`),
		brecv(1, `1) 1) "s"`, `   2) 1) 1) "3-1"`, `         2) 1) "c"`, `            2) "3"`),
	}},
	{"XREAD BLOCK on two keys: answered from the key that got the entry", []bstep{
		bsend(0, "XREAD BLOCK 0 STREAMS a b $ $", 1), bsend(1, "XREAD BLOCK 0 STREAMS b a 0 0", 2),
		bat(3, "MULTI"), bat(3, "XADD b 1-1 x 1"), bat(3, "XADD a 1-1 y 2"), bat(3, "EXEC"),
		brecv(0, `1) 1) "b"`, `   2) 1) 1) "1-1"`, `         2) 1) "x"`, `            2) "1"`),
		brecv(1, `1) 1) "b"`, `   2) 1) 1) "1-1"`, `         2) 1) "x"`, `            2) "1"`),
		// the same key twice keeps its first ID ($ = 1-1, not 5-0)
		bsend(0, "XREAD BLOCK 0 STREAMS a a $ 5-0", 1), bat(3, "XADD a 2-1 z 3"),
		brecv(0, `1) 1) "a"`, `   2) 1) 1) "2-1"`, `         2) 1) "z"`, `            2) "3"`),
		// a key of another type: WRONGTYPE at once; a list pushed under a waited name wakes nobody
		bat(3, "RPUSH l x"), bat(0, "XREAD BLOCK 0 STREAMS l $", "(error) WRONGTYPE Operation against a key holding the wrong kind of value"),
		bsend(0, "XREAD BLOCK 0 STREAMS n $", 1), bat(3, "RPUSH n x"), bquiet(0, 30*time.Millisecond),
		bat(3, "DEL n"), bat(3, "XADD n 1-1 k v"),
		brecv(0, `1) 1) "n"`, `   2) 1) 1) "1-1"`, `         2) 1) "k"`, `            2) "v"`),
	}},
	{"XREAD BLOCK timeouts are milliseconds", []bstep{
		bsend(0, "XREAD BLOCK 100 STREAMS s $", 1), brecv(0, "(nil)"),
		bsend(0, "XREAD BLOCK 1 STREAMS s 0", -1), brecv(0, "(nil)"),
		bsend(0, "XREADGROUP GROUP g c BLOCK 1 STREAMS s >", -1),
		brecv(0, "(error) NOGROUP No such key 's' or consumer group 'g' in XREADGROUP with GROUP option"),
		bat(1, "XGROUP CREATE s g $ MKSTREAM", "OK"),
		bsend(0, "XREADGROUP GROUP g c BLOCK 100 STREAMS s >", 1), brecv(0, "(nil)"),
		bsend(0, "XREAD BLOCK 3000 STREAMS s $", 1), binfo("clients_in_timeout_table", "1"),
		bquiet(0, 150*time.Millisecond), bat(1, "XADD s 1-1 f v"),
		brecv(0, `1) 1) "s"`, `   2) 1) 1) "1-1"`, `         2) 1) "f"`, `            2) "v"`),
		bat(1, "XREAD BLOCK -1 STREAMS s $", "(error) ERR timeout is negative"),
		bat(1, "XREAD BLOCK 1.5 STREAMS s $", "(error) ERR timeout is not an integer or out of range"),
		bat(1, "XREAD BLOCK 99999999999999999999 STREAMS s $", "(error) ERR timeout is not an integer or out of range"),
		bat(1, "XREADGROUP GROUP g c BLOCK x STREAMS s >", "(error) ERR timeout is not an integer or out of range"),
		// data there: no wait at all
		bat(1, "XREAD BLOCK 0 STREAMS s 0", `1) 1) "s"`, `   2) 1) 1) "1-1"`, `         2) 1) "f"`, `            2) "v"`),
	}},
	{"XREADGROUP BLOCK >: one entry for one consumer, into the PEL; NOACK", []bstep{
		bat(3, "XGROUP CREATE s g $ MKSTREAM", "OK"),
		bsend(0, "XREADGROUP GROUP g alice BLOCK 0 STREAMS s >", 1),
		bsend(1, "XREADGROUP GROUP g bob BLOCK 0 STREAMS s >", 2),
		bat(3, "XADD s 1-1 job 1"),
		brecv(0, `1) 1) "s"`, `   2) 1) 1) "1-1"`, `         2) 1) "job"`, `            2) "1"`),
		bquiet(1, 30*time.Millisecond), // the group's last ID moved past the entry
		bat(3, "XPENDING s g", "1) (integer) 1", `2) "1-1"`, `3) "1-1"`, `4) 1) 1) "alice"`, `      2) "1"`),
		bat(3, "XADD s 2-1 job 2"),
		brecv(1, `1) 1) "s"`, `   2) 1) 1) "2-1"`, `         2) 1) "job"`, `            2) "2"`),
		// NOACK: delivered, not pending; the consumer is created when served
		bsend(2, "XREADGROUP GROUP g carol BLOCK 0 NOACK STREAMS s >", 1),
		bat(3, "XINFO GROUPS s"),
		bat(3, "XADD s 3-1 job 3"),
		brecv(2, `1) 1) "s"`, `   2) 1) 1) "3-1"`, `         2) 1) "job"`, `            2) "3"`),
		bat(3, "XPENDING s g", "1) (integer) 2", `2) "1-1"`, `3) "2-1"`, `4) 1) 1) "alice"`, `      2) "1"`, `   2) 1) "bob"`, `      2) "1"`),
		bat(3, "XINFO GROUPS s"),
		// COUNT and a MULTI of three XADDs: the first consumer takes two, the second the third
		bsend(0, "XREADGROUP GROUP g alice COUNT 2 BLOCK 0 STREAMS s >", 1),
		bsend(1, "XREADGROUP GROUP g bob BLOCK 0 STREAMS s >", 2),
		bat(3, "MULTI"), bat(3, "XADD s 4-1 job 4"), bat(3, "XADD s 5-1 job 5"), bat(3, "XADD s 6-1 job 6"), bat(3, "EXEC"),
		brecv(0, `1) 1) "s"`, `   2) 1) 1) "4-1"`, `         2) 1) "job"`, `            2) "4"`,
			`      2) 1) "5-1"`, `         2) 1) "job"`, `            2) "5"`),
		brecv(1, `1) 1) "s"`, `   2) 1) 1) "6-1"`, `         2) 1) "job"`, `            2) "6"`),
		bat(3, "XPENDING s g"), // (the extended form has idle times)
		bat(3, "XINFO GROUPS s"),
		// XGROUP SETID wakes nobody; the next XADD serves from the group's ID as set
		bsend(0, "XREADGROUP GROUP g alice BLOCK 0 STREAMS s >", 1),
		bat(3, "XGROUP SETID s g 4-1", "OK"), bquiet(0, 30*time.Millisecond),
		bat(3, "XADD s 7-1 job 7"),
		brecv(0, `1) 1) "s"`, `   2) 1) 1) "5-1"`, `         2) 1) "job"`, `            2) "5"`,
			`      2) 1) "6-1"`, `         2) 1) "job"`, `            2) "6"`,
			`      3) 1) "7-1"`, `         2) 1) "job"`, `            2) "7"`),
		bat(3, "XPENDING s g"),
	}},
	{"XGROUP DESTROY answers NOGROUP; DEL, SET, RENAME, FLUSHDB answer UNBLOCKED; XREAD waits on", []bstep{
		bat(3, "XGROUP CREATE s g $ MKSTREAM"),
		bsend(0, "XREADGROUP GROUP g a BLOCK 0 STREAMS s >", 1), bsend(1, "XREAD BLOCK 0 STREAMS s $", 2),
		bat(3, "XGROUP DESTROY s g", "(integer) 1"),
		brecv(0, "(error) NOGROUP the consumer group this client was blocked on no longer exists"),
		binfo("blocked_clients", "1"),
		bat(3, "XGROUP CREATE s g $"), bsend(0, "XREADGROUP GROUP g a BLOCK 0 STREAMS s >", 2),
		bat(3, "DEL s", "(integer) 1"),
		brecv(0, "(error) UNBLOCKED the stream key no longer exists"), bquiet(1, 30*time.Millisecond),
		bat(3, "XGROUP CREATE s g $ MKSTREAM"), bsend(0, "XREADGROUP GROUP g a BLOCK 0 STREAMS s >", 2),
		bat(3, "SET s str", "OK"),
		brecv(0, "(error) UNBLOCKED the stream key no longer exists"), bquiet(1, 30*time.Millisecond),
		bat(3, "DEL s"),
		bat(3, "XGROUP CREATE s g $ MKSTREAM"), bsend(0, "XREADGROUP GROUP g a BLOCK 0 STREAMS s >", 2),
		bat(3, "RENAME s s2", "OK"),
		brecv(0, "(error) UNBLOCKED the stream key no longer exists"), bquiet(1, 30*time.Millisecond),
		bat(3, "RENAME s2 s", "OK"), // a stream arrives under the name: nothing newer than "$"
		bquiet(1, 30*time.Millisecond),
		bsend(0, "XREADGROUP GROUP g a BLOCK 0 STREAMS s >", 2),
		bat(3, "FLUSHDB", "OK"),
		brecv(0, "(error) UNBLOCKED the stream key no longer exists"), bquiet(1, 30*time.Millisecond),
		// through all that the XREAD client kept waiting; now an entry serves it
		bat(3, "XADD s 7-1 f v"),
		brecv(1, `1) 1) "s"`, `   2) 1) 1) "7-1"`, `         2) 1) "f"`, `            2) "v"`),
		// SWAPDB that takes the stream away, and one that brings a stream with entries
		bat(3, "XGROUP CREATE s g $"), bsend(0, "XREADGROUP GROUP g a BLOCK 0 STREAMS s >", 1),
		bsend(1, "XREAD BLOCK 0 STREAMS s $", 2),
		bat(3, "SWAPDB 0 1", "OK"),
		brecv(0, "(error) UNBLOCKED the stream key no longer exists"), bquiet(1, 30*time.Millisecond),
		bat(3, "SELECT 1"), bat(3, "XADD s 8-1 g h"), bat(3, "SELECT 0"),
		bat(3, "SWAPDB 0 1", "OK"),
		brecv(1, `1) 1) "s"`, `   2) 1) 1) "8-1"`, `         2) 1) "g"`, `            2) "h"`),
	}},
	{"served from the stream's last ID: XSETID past the entries, then a signal", []bstep{
		bat(3, "XADD s 1-1 a 1"), bsend(0, "XREAD BLOCK 0 STREAMS s $", 1),
		bsend(1, "XREAD BLOCK 0 STREAMS s 9-0", 2),
		bat(3, "XSETID s 5-0", "OK"), bquiet(0, 30*time.Millisecond), // XSETID signals nobody
		bat(3, "XGROUP CREATE s g 0", "OK"), bat(3, "XGROUP DESTROY s g", "(integer) 1"),
		brecv(0, `1) 1) "s"`, `   2) (empty array)`), bquiet(1, 30*time.Millisecond),
		bat(3, "XADD s 6-1 b 2"), bat(3, "XDEL s 6-1", "(integer) 1"), bquiet(1, 30*time.Millisecond),
		bat(3, "XADD s 10-1 c 3"),
		brecv(1, `1) 1) "s"`, `   2) 1) 1) "10-1"`, `         2) 1) "c"`, `            2) "3"`),
	}},
	{"never blocking inside MULTI; CLIENT UNBLOCK; CLIENT LIST", []bstep{
		bat(3, "XGROUP CREATE s g $ MKSTREAM"),
		bat(0, "MULTI"), bat(0, "XREAD BLOCK 0 STREAMS s $", "QUEUED"),
		bat(0, "XREADGROUP GROUP g c BLOCK 0 STREAMS s >", "QUEUED"),
		bat(0, "XREAD BLOCK 0 STREAMS s 0"),
		bat(0, "EXEC", "1) (nil)", "2) (nil)", "3) (nil)"),
		bat(3, "XINFO GROUPS s"), // the consumer was not created
		bsend(0, "XREAD BLOCK 0 STREAMS s $", 1), bfield(1, 0, "flags", "b"), bfield(1, 0, "cmd", "xread"),
		bat(1, "CLIENT UNBLOCK $id0", "(integer) 1"), brecv(0, "(nil)"),
		bsend(0, "XREADGROUP GROUP g c BLOCK 0 STREAMS s >", 1), bfield(1, 0, "cmd", "xreadgroup"),
		bat(1, "CLIENT UNBLOCK $id0 ERROR", "(integer) 1"),
		brecv(0, "(error) UNBLOCKED client unblocked via CLIENT UNBLOCK"),
		bsend(0, "XREADGROUP GROUP g c BLOCK 0 STREAMS s >", 1), bhangup(0, 0),
		bat(3, "XADD s 1-1 f v"), bat(3, "XPENDING s g", "1) (integer) 0", "2) (nil)", "3) (nil)", "4) (nil)"),
	}},
	{"queue: XREADGROUP BLOCK workers, XADD producer, XACK, XAUTOCLAIM after a crash", []bstep{
		bat(2, "XGROUP CREATE jobs workers $ MKSTREAM", "OK"),
		bsend(0, "XREADGROUP GROUP workers w1 COUNT 1 BLOCK 0 STREAMS jobs >", 1),
		bsend(1, "XREADGROUP GROUP workers w2 COUNT 1 BLOCK 0 STREAMS jobs >", 2),
		bat(2, "XADD jobs 1-1 job email:101", `"1-1"`),
		brecv(0, `1) 1) "jobs"`, `   2) 1) 1) "1-1"`, `         2) 1) "job"`, `            2) "email:101"`),
		bat(2, "XADD jobs 2-1 job email:102", `"2-1"`),
		brecv(1, `1) 1) "jobs"`, `   2) 1) 1) "2-1"`, `         2) 1) "job"`, `            2) "email:102"`),
		bat(0, "XACK jobs workers 1-1", "(integer) 1"),
		bhangup(1, 0), // w2 dies before acknowledging 2-1
		bat(2, "XPENDING jobs workers", "1) (integer) 1", `2) "2-1"`, `3) "2-1"`, `4) 1) 1) "w2"`, `      2) "1"`),
		// w1 takes over what w2 left pending, then waits for more
		bat(0, "XAUTOCLAIM jobs workers w1 0 0-0 COUNT 10",
			`1) "0-0"`, `2) 1) 1) "2-1"`, `      2) 1) "job"`, `         2) "email:102"`, `3) (empty array)`),
		bat(0, "XACK jobs workers 2-1", "(integer) 1"),
		bsend(0, "XREADGROUP GROUP workers w1 COUNT 1 BLOCK 0 STREAMS jobs >", 1),
		bat(2, "XADD jobs 3-1 job email:103"),
		brecv(0, `1) 1) "jobs"`, `   2) 1) 1) "3-1"`, `         2) 1) "job"`, `            2) "email:103"`),
		bat(0, "XACK jobs workers 3-1 3-1", "(integer) 1"),
		bat(2, "XPENDING jobs workers", "1) (integer) 0", "2) (nil)", "3) (nil)", "4) (nil)"),
		bat(2, "XINFO GROUPS jobs"),
		bsend(0, "XREADGROUP GROUP workers w1 COUNT 1 BLOCK 100 STREAMS jobs >", 1), brecv(0, "(nil)"),
	}},
}

// 7.0 counts a blocked call when it blocks, and an error it is answered later as a failed call
// and in errorstats (blocked.c updateStatsOnUnblock); the counts of the 7.4 profile are in
// blocking_stream74_test.go.
var streamBlockingStats = bscenario{"errorstats of blocked calls answered an error", []bstep{
	bat(3, "XGROUP CREATE s g $ MKSTREAM", "OK"),
	bat(3, "CONFIG RESETSTAT", "OK"),
	bsend(0, "XREADGROUP GROUP g alice BLOCK 0 STREAMS s >", 1),
	bat(3, "XGROUP DESTROY s g", "(integer) 1"),
	brecv(0, "(error) NOGROUP the consumer group this client was blocked on no longer exists"),
	bat(3, "XGROUP CREATE s g $", "OK"),
	bsend(0, "XREADGROUP GROUP g alice BLOCK 0 STREAMS s >", 1),
	bat(3, "DEL s", "(integer) 1"),
	brecv(0, "(error) UNBLOCKED the stream key no longer exists"),
	bsend(0, "BLPOP y 0", 1),
	bat(3, "CLIENT UNBLOCK $id0 ERROR", "(integer) 1"),
	brecv(0, "(error) UNBLOCKED client unblocked via CLIENT UNBLOCK"),
	bat(3, "INFO errorstats", `"# Errorstats\r\nerrorstat_NOGROUP:count=1\r\nerrorstat_UNBLOCKED:count=2\r\n"`),
}}

// TestStreamBlockingScenarios plays streamBlockingScenarios on redis-server 7.0.15 and redscope.
func TestStreamBlockingScenarios(t *testing.T) {
	playLockstep(t, append(streamBlockingScenarios, streamBlockingStats))
}

// TestGoRedisStreamQueue is the course's stream queue with go-redis on both servers: three
// workers of one group wait in XREADGROUP BLOCK and acknowledge with XACK while a producer adds
// 30 jobs with XADD; every job is delivered once, and the group ends with nothing pending.
func TestGoRedisStreamQueue(t *testing.T) {
	onBothServers(t, func(t *testing.T, a side) {
		ctx, producer := within(t, 30*time.Second), a.client(t)
		if err := producer.XGroupCreateMkStream(ctx, "jobs", "workers", "$").Err(); err != nil {
			t.Fatal(err)
		}
		take := func(rdb *redis.Client, w int) ([]string, error) {
			res, err := rdb.XReadGroup(ctx, &redis.XReadGroupArgs{Group: "workers", Consumer: fmt.Sprint("w", w),
				Streams: []string{"jobs", ">"}, Count: 1, Block: time.Second}).Result()
			if err != nil {
				return nil, err
			}
			var jobs []string
			for _, m := range res[0].Messages {
				if n, err := rdb.XAck(ctx, "jobs", "workers", m.ID).Result(); err != nil || n != 1 {
					return nil, fmt.Errorf("XACK %s: %d %v", m.ID, n, err)
				}
				jobs = append(jobs, fmt.Sprint(m.Values["job"]))
			}
			return jobs, nil
		}
		workQueue(t, ctx, a.addr, 3, 30, take, func(job string) error {
			return producer.XAdd(ctx, &redis.XAddArgs{Stream: "jobs", Values: []string{"job", job}}).Err()
		})
		p, err := producer.XPending(ctx, "jobs", "workers").Result()
		if err != nil || p.Count != 0 {
			t.Fatalf("XPENDING: %+v %v", p, err)
		}
	})
}

// TestRedisCLIStreamWorker: redis-cli as a stream worker (`redis-cli XREADGROUP GROUP workers w1
// BLOCK 0 STREAMS jobs >` in its own process) waits until another connection adds a job; then
// `XREAD BLOCK 100` on an empty stream times out. What redis-cli prints must be the same for both
// servers.
func TestRedisCLIStreamWorker(t *testing.T) {
	cli := need(t, "redis-cli")
	want := "1) 1) \"jobs\"\n   2) 1) 1) \"1-1\"\n         2) 1) \"job\"\n            2) \"email:101\"\n" +
		"1) (integer) 1\n2) \"1-1\"\n3) \"1-1\"\n4) 1) 1) \"w1\"\n      2) \"1\"\n(nil)\n"
	printedOnBoth(t, want, func(a string) string {
		side := dialSide(t, a, a)
		if _, r, err := side.conns[0].DoStrings("XGROUP", "CREATE", "jobs", "workers", "$", "MKSTREAM"); err != nil || r.Str != "OK" {
			t.Fatalf("%s: XGROUP CREATE: %v %s", a, err, r.FormatCLI())
		}
		printed := startCLI(t, cli, a, "XREADGROUP", "GROUP", "workers", "w1", "BLOCK", "0", "STREAMS", "jobs", ">")
		side.waitBlocked(t, 1)
		if _, r, err := side.conns[0].DoStrings("XADD", "jobs", "1-1", "job", "email:101"); err != nil || r.Str != "1-1" {
			t.Fatalf("%s: XADD: %v %s", a, err, r.FormatCLI())
		}
		return printed() + runCLI(t, cli, a, "XPENDING jobs workers\nXREAD BLOCK 100 STREAMS nojobs $\n")
	})
}
