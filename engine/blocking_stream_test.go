package engine

import (
	"strings"
	"testing"
	"time"
)

// XREAD BLOCK / XREADGROUP BLOCK on the engine alone: clients of one engine, the logical clock
// for timeouts (internal/difftest/blocking_stream_test.go compares the same with redis-server).

func TestStreamBlockingServeAndTimeout(t *testing.T) {
	for _, v := range []Version{V70, V88} {
		e, _, c, woken := blockingClientsV(t, v, 4)
		expect(t, c[3], "XADD s 1-1 a 1", `"1-1"`)
		mustBlock(t, c[0], "XREAD BLOCK 1500 STREAMS s $")
		mustBlock(t, c[1], "XREAD COUNT 1 BLOCK 0 STREAMS nokey s 0 1-1")
		if e.ClientsInTimeoutTable() != 1 || e.NextDeadline() != StartMs+1500 {
			t.Fatalf("%s: timeout table %d, next deadline +%d", v, e.ClientsInTimeoutTable(), e.NextDeadline()-StartMs)
		}
		// milliseconds, and Redis times out only once now > deadline
		if n, _ := e.AdvanceClock(1500 * time.Millisecond); n != 0 {
			t.Fatalf("%s: timed out at the deadline", v)
		}
		if n, _ := e.AdvanceClock(time.Millisecond); n != 1 || strings.Join(woken[0], ";") != "(nil)" {
			t.Fatalf("%s: after 1501 ms: %d %q", v, n, woken[0])
		}
		mustBlock(t, c[0], "XREAD BLOCK 0 STREAMS s $")
		res := do(t, c[3], "XADD s 2-1 b 2")
		want := `1) 1) "s" |    2) 1) 1) "2-1" |          2) 1) "b" |             2) "2"`
		if woken[0][1] != want || woken[1][0] != want {
			t.Fatalf("%s: served %q %q", v, woken[0], woken[1])
		}
		n := 0
		for _, ev := range res.Events {
			if b, ok := ev.(BlockEvent); ok && b.Action == "woken" && b.Key == "s" {
				n++
			}
		}
		if n != 2 || e.BlockedClients() != 0 {
			t.Fatalf("%s: %d woken events, %d still blocked", v, n, e.BlockedClients())
		}
		// "$" means the last ID at block time, also where the command is run again (7.2+):
		// the entry added after blocking is served, not the ones before.
		mustBlock(t, c[2], "XREAD BLOCK 0 STREAMS s $")
		expect(t, c[3], "XADD s 3-1 c 3", `"3-1"`)
		if woken[2][0] != `1) 1) "s" |    2) 1) 1) "3-1" |          2) 1) "c" |             2) "3"` {
			t.Fatalf("%s: $ served %q", v, woken[2])
		}
	}
}

func TestStreamBlockingReadgroup(t *testing.T) {
	for _, v := range []Version{V70, V88} {
		e, _, c, woken := blockingClientsV(t, v, 4)
		expect(t, c[3], "XGROUP CREATE s g $ MKSTREAM", "OK")
		mustBlock(t, c[0], "XREADGROUP GROUP g alice BLOCK 0 STREAMS s >")
		mustBlock(t, c[1], "XREADGROUP GROUP g bob BLOCK 0 NOACK STREAMS s >")
		expect(t, c[3], "XADD s 1-1 job 1", `"1-1"`)
		if len(woken[0]) != 1 || len(woken[1]) != 0 || !c[1].Blocked() {
			t.Fatalf("%s: one XADD for two consumers of one group: %q %q", v, woken[0], woken[1])
		}
		expect(t, c[3], "XADD s 2-1 job 2", `"2-1"`)
		if woken[1][0] != `1) 1) "s" |    2) 1) 1) "2-1" |          2) 1) "job" |             2) "2"` {
			t.Fatalf("%s: bob %q", v, woken[1])
		}
		// alice's entry is pending, bob's (NOACK) is not
		expect(t, c[3], "XPENDING s g", `1) (integer) 1 | 2) "1-1" | 3) "1-1" | 4) 1) 1) "alice" |       2) "1"`)
		// XGROUP DESTROY: NOGROUP (7.0's text; 7.2+ runs XREADGROUP again and gets its own)
		mustBlock(t, c[0], "XREADGROUP GROUP g alice BLOCK 0 STREAMS s >")
		mustBlock(t, c[2], "XREAD BLOCK 0 STREAMS s $")
		expect(t, c[3], "XGROUP DESTROY s g", "(integer) 1")
		wantNoGroup := "(error) NOGROUP the consumer group this client was blocked on no longer exists"
		if v.Has(V72) {
			wantNoGroup = "(error) NOGROUP No such key 's' or consumer group 'g' in XREADGROUP with GROUP option"
		}
		if woken[0][1] != wantNoGroup || !c[2].Blocked() {
			t.Fatalf("%s: after DESTROY %q, XREAD blocked %v", v, woken[0], c[2].Blocked())
		}
		// the key deleted: XREADGROUP hears it, XREAD keeps waiting. 7.0 answers its own text;
		// 7.2+ runs the XREADGROUP again (blocked.c handleClientsBlockedOnKey: unblock_on_nokey),
		// which finds no key (redis-server 7.4.1 answers these texts to DEL, FLUSHALL, expiry).
		gone := "(error) UNBLOCKED the stream key no longer exists"
		if v.Has(V72) {
			gone = "(error) NOGROUP No such key 's' or consumer group 'g' in XREADGROUP with GROUP option"
		}
		expect(t, c[3], "XGROUP CREATE s g $", "OK")
		mustBlock(t, c[0], "XREADGROUP GROUP g alice BLOCK 0 STREAMS s >")
		expect(t, c[3], "DEL s", "(integer) 1")
		if woken[0][2] != gone || !c[2].Blocked() || e.BlockedClients() != 1 {
			t.Fatalf("%s: after DEL %q", v, woken[0])
		}
		// expiry is a deletion too
		expect(t, c[3], "XGROUP CREATE s g $ MKSTREAM", "OK")
		mustBlock(t, c[0], "XREADGROUP GROUP g alice BLOCK 0 STREAMS s >")
		expect(t, c[3], "PEXPIRE s 10", "(integer) 1")
		e.AdvanceClock(20 * time.Millisecond)
		expect(t, c[3], "EXISTS s", "(integer) 0")
		if woken[0][3] != gone {
			t.Fatalf("%s: after expiry %q", v, woken[0])
		}
		// so is FLUSHALL
		expect(t, c[3], "XGROUP CREATE s g $ MKSTREAM", "OK")
		mustBlock(t, c[0], "XREADGROUP GROUP g alice BLOCK 0 STREAMS s >")
		expect(t, c[3], "FLUSHALL", "OK")
		if woken[0][4] != gone {
			t.Fatalf("%s: after FLUSHALL %q", v, woken[0])
		}
		// another type under the name: 7.2+ answers WRONGTYPE (redis-server 7.4.1 does)
		expect(t, c[3], "XGROUP CREATE s g $ MKSTREAM", "OK")
		mustBlock(t, c[0], "XREADGROUP GROUP g alice BLOCK 0 STREAMS s >")
		expect(t, c[3], "SET s x", "OK")
		if v.Has(V72) {
			gone = "(error) WRONGTYPE Operation against a key holding the wrong kind of value"
		}
		if woken[0][5] != gone {
			t.Fatalf("%s: after SET %q", v, woken[0])
		}
	}
}

// 7.2.5+: a command run again that blocks again keeps the deadline it had (blockForKeys leaves
// bstate.timeout alone for a CLIENT_REPROCESSING_COMMAND); 7.0 serves without re-running.
func TestStreamBlockingReblockKeepsDeadline(t *testing.T) {
	e, _, c, woken := blockingClientsV(t, V74, 3)
	expect(t, c[2], "XGROUP CREATE s g $ MKSTREAM", "OK")
	mustBlock(t, c[0], "XREADGROUP GROUP g u BLOCK 0 STREAMS s >")
	mustBlock(t, c[1], "XREADGROUP GROUP g u BLOCK 1000 STREAMS s >")
	e.AdvanceClock(200 * time.Millisecond)
	expect(t, c[2], "XADD s 1-1 f v", `"1-1"`) // c[0] takes it, c[1] blocks again
	if len(woken[0]) != 1 || !c[1].Blocked() {
		t.Fatalf("served %q, c1 blocked %v", woken[0], c[1].Blocked())
	}
	if d := e.NextDeadline(); d != StartMs+1000 {
		t.Fatalf("deadline +%d, want +1000", d-StartMs)
	}
	if n, _ := e.AdvanceClock(801 * time.Millisecond); n != 1 || strings.Join(woken[1], ";") != "(nil)" {
		t.Fatalf("after 1001 ms: %d %q", n, woken[1])
	}
}

func TestStreamBlockingDenied(t *testing.T) {
	e, _, c, _ := blockingClients(t, 2)
	expect(t, c[1], "XGROUP CREATE s g $ MKSTREAM", "OK")
	// inside MULTI, under DenyBlocking (a script), and for Engine.Exec's client: nil at once
	expect(t, c[0], "MULTI", "OK")
	expect(t, c[0], "XREAD BLOCK 0 STREAMS s $", "QUEUED")
	expect(t, c[0], "XREADGROUP GROUP g c BLOCK 0 STREAMS s >", "QUEUED")
	expect(t, c[0], "EXEC", "1) (nil) | 2) (nil)")
	restore := e.DenyBlocking()
	expect(t, c[0], "XREAD BLOCK 0 STREAMS s $", "(nil)")
	restore()
	if got := oneLine(e.Exec([][]byte{[]byte("XREADGROUP"), []byte("GROUP"), []byte("g"), []byte("c"), []byte("BLOCK"), []byte("0"), []byte("STREAMS"), []byte("s"), []byte(">")}).Reply); got != "(nil)" {
		t.Fatalf("Engine.Exec: %q", got)
	}
	if e.BlockedClients() != 0 {
		t.Fatal("blocked")
	}
	// the consumer was never created
	if got := oneLine(do(t, c[1], "XINFO GROUPS s").Reply); !strings.Contains(got, `"consumers" |     4) (integer) 0 |`) {
		t.Fatalf("XINFO GROUPS: %s", got)
	}
}

// INFO commandstats / errorstats for blocked commands. 7.0 counts the call when it blocks and an
// error it is answered later as a failed call; 7.2+ counts nothing when it blocks (server.c call:
// calls++ under !CLIENT_BLOCKED) and the call when it ends (updateStatsOnUnblock for a timeout or
// CLIENT UNBLOCK; the command run again counts itself). Either way redis-server 7.0.15 and 7.4.1
// give these figures for this sequence.
func TestBlockedCommandStats(t *testing.T) {
	for _, v := range []Version{V70, V74} {
		e, _, c, woken := blockingClientsV(t, v, 2)
		expect(t, c[1], "XGROUP CREATE s g $ MKSTREAM", "OK")
		expect(t, c[1], "CONFIG RESETSTAT", "OK")
		mustBlock(t, c[0], "XREADGROUP GROUP g alice BLOCK 0 STREAMS s >")
		expect(t, c[1], "XGROUP DESTROY s g", "(integer) 1")
		mustBlock(t, c[0], "BLPOP y 0")
		if !c[0].Unblock(true) {
			t.Fatalf("%s: CLIENT UNBLOCK found nothing blocked", v)
		}
		mustBlock(t, c[0], "BLPOP x 0.1")
		e.AdvanceClock(200 * time.Millisecond)
		if len(woken[0]) != 3 || woken[0][2] != "(nil)" {
			t.Fatalf("%s: woken %q", v, woken[0])
		}
		info := do(t, c[1], "INFO all").Reply.Str
		for _, want := range []string{
			"cmdstat_xreadgroup:calls=1,usec=0,usec_per_call=0.00,rejected_calls=0,failed_calls=1",
			"cmdstat_blpop:calls=2,usec=0,usec_per_call=0.00,rejected_calls=0,failed_calls=1",
			"errorstat_NOGROUP:count=1", "errorstat_UNBLOCKED:count=1", "total_error_replies:2",
		} {
			if !strings.Contains(info, want+"\r\n") {
				t.Errorf("%s: INFO lacks %q", v, want)
			}
		}
	}
}
