package engine

import (
	"strings"
	"testing"
	"time"

	"redscope/engine/alloc"
)

// blockingClients makes n clients that can block, each recording the replies it is woken with.
// blockTestVersion is the profile of blockingClients (TestBlockingOn88 reruns the tests on 8.8).
var blockTestVersion = V70

func blockingClients(t *testing.T, n int) (*Engine, *ManualClock, []*Client, [][]string) {
	return blockingClientsV(t, blockTestVersion, n)
}

// TestBlockingOn88 reruns the version-independent tests with the 8.8 profile, where served
// clients re-run their command.
func TestBlockingOn88(t *testing.T) {
	blockTestVersion = V88
	defer func() { blockTestVersion = V70 }()
	t.Run("fifo", TestBlockingFIFOAndServedKey)
	t.Run("chain", TestBlockingMoveChain)
	t.Run("denied", TestBlockingDeniedAndNonBlockingClients)
	t.Run("timeouts", TestBlockingTimeoutsOnTheLogicalClock)
	t.Run("rename", TestBlockingWokenByRenameMoveSwapdbZadd)
	t.Run("mpop", TestBlockingMpopCount)
}

func blockingClientsV(t *testing.T, v Version, n int) (*Engine, *ManualClock, []*Client, [][]string) {
	t.Helper()
	clock := &ManualClock{Ms: StartMs}
	e := New(Options{Version: v, Allocator: alloc.Jemalloc16, Clock: clock, Trace: true})
	cs := make([]*Client, n)
	woken := make([][]string, n)
	for i := range cs {
		i := i
		cs[i] = e.NewClient()
		cs[i].ID = int64(i + 1)
		cs[i].Blocking = true
		cs[i].OnWake = func(r Result) { woken[i] = append(woken[i], oneLine(r.Reply)) }
	}
	return e, clock, cs, woken
}

func do(t *testing.T, c *Client, cmd string) Result {
	t.Helper()
	return c.Exec(mustSplit(t, cmd))
}

func mustBlock(t *testing.T, c *Client, cmd string) {
	t.Helper()
	if r := do(t, c, cmd); !r.Blocked {
		t.Fatalf("%s: answered %q instead of blocking", cmd, oneLine(r.Reply))
	}
}

// wantWoken fails the test unless the replies a blocked client was woken with, joined with ";",
// are want.
func wantWoken(t *testing.T, woken []string, want, what string) {
	t.Helper()
	if got := strings.Join(woken, ";"); got != want {
		t.Fatalf("%s: woken with %q, want %q", what, got, want)
	}
}

func expect(t *testing.T, c *Client, cmd, want string) {
	t.Helper()
	r := do(t, c, cmd)
	if r.Blocked {
		t.Fatalf("%s blocked", cmd)
	}
	if got := oneLine(r.Reply); got != want {
		t.Fatalf("%s: %q, want %q", cmd, got, want)
	}
}

func TestBlockingFIFOAndServedKey(t *testing.T) {
	e, _, c, woken := blockingClients(t, 4)
	mustBlock(t, c[0], "BLPOP q 0")
	mustBlock(t, c[1], "BRPOP other q 0")
	mustBlock(t, c[2], "BLPOP q 0")
	if e.BlockedClients() != 3 {
		t.Fatalf("blocked_clients %d", e.BlockedClients())
	}
	// Two elements: the first two blocked clients are served, the third still waits.
	res := do(t, c[3], "RPUSH q a b")
	if oneLine(res.Reply) != "(integer) 2" {
		t.Fatalf("RPUSH: %s", oneLine(res.Reply))
	}
	if strings.Join(woken[0], ";") != `1) "q" | 2) "a"` || strings.Join(woken[1], ";") != `1) "q" | 2) "b"` || len(woken[2]) != 0 {
		t.Fatalf("woken: %q", woken)
	}
	var wokeEvents int
	for _, ev := range res.Events {
		if b, ok := ev.(BlockEvent); ok && b.Action == "woken" {
			wokeEvents++
		}
	}
	if wokeEvents != 2 {
		t.Fatalf("%d woken events in the pushing command's trace", wokeEvents)
	}
	expect(t, c[3], "EXISTS q", "(integer) 0")
	if !c[2].Blocked() || c[0].Blocked() || e.BlockedClients() != 1 {
		t.Fatal("blocked flags")
	}
	// A string under the name wakes nobody; a list created later does.
	expect(t, c[3], "SET q str", "OK")
	expect(t, c[3], "DEL q", "(integer) 1")
	expect(t, c[3], "LPUSH q z", "(integer) 1")
	wantWoken(t, woken[2], `1) "q" | 2) "z"`, "third client")
}

func TestBlockingMultiKeyServedFromReadyKey(t *testing.T) {
	_, _, c, woken := blockingClients(t, 2)
	mustBlock(t, c[0], "BLPOP k1 k2 0")
	// Inside one transaction k2 is created first, then k1: the client is served from k2, the key
	// that became ready first, not from k1 (its first key).
	expect(t, c[1], "MULTI", "OK")
	expect(t, c[1], "RPUSH k2 two", "QUEUED")
	expect(t, c[1], "RPUSH k1 one", "QUEUED")
	if len(woken[0]) != 0 {
		t.Fatal("served while the transaction is only queued")
	}
	expect(t, c[1], "EXEC", "1) (integer) 1 | 2) (integer) 1")
	wantWoken(t, woken[0], `1) "k2" | 2) "two"`, "served from the key ready first")
}

func TestBlockingMoveChain(t *testing.T) {
	e, _, c, woken := blockingClients(t, 4)
	mustBlock(t, c[0], "BLMOVE a b LEFT RIGHT 0")
	mustBlock(t, c[1], "BRPOPLPUSH b c 0")
	mustBlock(t, c[2], "BLPOP c 0")
	expect(t, c[3], "LPUSH a x", "(integer) 1")
	want := [][]string{{`"x"`}, {`"x"`}, {`1) "c" | 2) "x"`}, nil}
	for i := range want {
		if strings.Join(woken[i], ";") != strings.Join(want[i], ";") {
			t.Fatalf("client %d: %q, want %q", i, woken[i], want[i])
		}
	}
	if e.KeyCount() != 0 || e.BlockedClients() != 0 {
		t.Fatalf("keys %d blocked %d", e.KeyCount(), e.BlockedClients())
	}
	// A destination of another type: WRONGTYPE, and the element stays.
	mustBlock(t, c[0], "BLMOVE a s LEFT LEFT 0")
	expect(t, c[3], "SET s str", "OK")
	expect(t, c[3], "RPUSH a y", "(integer) 1")
	if woken[0][1] != "(error) WRONGTYPE Operation against a key holding the wrong kind of value" {
		t.Fatalf("%q", woken[0])
	}
	expect(t, c[3], "LRANGE a 0 -1", `1) "y"`)
}

func TestBlockingDeniedAndNonBlockingClients(t *testing.T) {
	e, _, c, _ := blockingClients(t, 1)
	// Inside MULTI: answered at once, BLMOVE with a nil bulk, the others with a nil array.
	expect(t, c[0], "MULTI", "OK")
	for _, cmd := range []string{"BLPOP q 0", "BLMOVE q d LEFT LEFT 0", "BRPOPLPUSH q d 0", "BLMPOP 0 1 q LEFT", "BZPOPMIN z 0", "BZMPOP 0 1 z MIN"} {
		expect(t, c[0], cmd, "QUEUED")
	}
	r := do(t, c[0], "EXEC")
	if r.Blocked || string(r.Reply.AppendRESP2(nil)) != "*6\r\n*-1\r\n$-1\r\n$-1\r\n*-1\r\n*-1\r\n*-1\r\n" {
		t.Fatalf("EXEC: %q", r.Reply.AppendRESP2(nil))
	}
	// A script's commands (DenyBlocking) do the same.
	restore := e.DenyBlocking()
	r = do(t, c[0], "BLMOVE q d LEFT LEFT 0")
	restore()
	if r.Blocked || r.Reply.Kind != KindNil {
		t.Fatalf("denied BLMOVE: %v %q", r.Blocked, oneLine(r.Reply))
	}
	// Engine.Exec's client cannot wait: the timeout's nil array.
	if r := e.Do("BLMOVE", "q", "d", "LEFT", "LEFT", "0"); r.Kind != KindNilArray {
		t.Fatalf("Engine.Exec BLMOVE: %q", oneLine(r))
	}
	if e.BlockedClients() != 0 {
		t.Fatal("somebody blocked")
	}
}

func TestBlockingTimeoutsOnTheLogicalClock(t *testing.T) {
	e, clock, c, woken := blockingClients(t, 3)
	mustBlock(t, c[0], "BLPOP q 0.0001") // 0.1 ms rounds up to 1 ms (ceill)
	mustBlock(t, c[1], "BZPOPMAX z 1.5")
	mustBlock(t, c[2], "BLPOP q 0")
	if e.ClientsInTimeoutTable() != 2 || e.NextDeadline() != StartMs+1 {
		t.Fatalf("timeout table %d, next %d", e.ClientsInTimeoutTable(), e.NextDeadline()-StartMs)
	}
	clock.Advance(time.Millisecond)
	if e.ExpireBlocked() != 0 {
		t.Fatal("timed out at its deadline (Redis needs now > deadline)")
	}
	clock.Advance(time.Millisecond)
	if e.ExpireBlocked() != 1 || strings.Join(woken[0], ";") != "(nil)" {
		t.Fatalf("after 2 ms: %q", woken[0])
	}
	if n, ok := e.AdvanceClock(time.Hour); n != 1 || !ok {
		t.Fatalf("AdvanceClock: %d %v", n, ok)
	}
	if strings.Join(woken[1], ";") != "(nil)" || !c[2].Blocked() {
		t.Fatalf("after an hour: %q, forever-client blocked=%v", woken[1], c[2].Blocked())
	}
	// CLIENT UNBLOCK, both ways, and a closed connection.
	if !c[2].Unblock(true) || woken[2][0] != "(error) UNBLOCKED client unblocked via CLIENT UNBLOCK" {
		t.Fatalf("unblock error: %q", woken[2])
	}
	if c[2].Unblock(false) {
		t.Fatal("unblocked a client that is not blocked")
	}
	mustBlock(t, c[0], "BLPOP q 0")
	c[0].Unblock(false)
	if woken[0][1] != "(nil)" {
		t.Fatalf("unblock timeout: %q", woken[0])
	}
	mustBlock(t, c[0], "BLPOP q 0")
	c[0].Close()
	expect(t, c[1], "RPUSH q v", "(integer) 1")
	if len(woken[0]) != 2 || e.BlockedClients() != 0 {
		t.Fatalf("a closed client was served: %q", woken[0])
	}
}

func TestBlockingWokenByRenameMoveSwapdbZadd(t *testing.T) {
	e, _, c, woken := blockingClients(t, 3)
	mustBlock(t, c[0], "BLPOP dst 0")
	expect(t, c[2], "RPUSH src a b", "(integer) 2")
	expect(t, c[2], "RENAME src dst", "OK")
	wantWoken(t, woken[0], `1) "dst" | 2) "a"`, "rename")
	mustBlock(t, c[1], "BZPOPMIN z 0")
	expect(t, c[2], "ZADD z 2 two 1 one", "(integer) 2")
	wantWoken(t, woken[1], `1) "z" | 2) "one" | 3) "1"`, "zadd")
	// MOVE into the blocked client's database, then SWAPDB.
	mustBlock(t, c[0], "BLPOP m 0")
	expect(t, c[2], "SELECT 1", "OK")
	expect(t, c[2], "RPUSH m x", "(integer) 1")
	expect(t, c[2], "MOVE m 0", "(integer) 1")
	mustBlock(t, c[0], "BLPOP w 0")
	expect(t, c[2], "RPUSH w y", "(integer) 1")
	expect(t, c[2], "SWAPDB 0 1", "OK")
	if strings.Join(woken[0][1:], ";") != `1) "m" | 2) "x";1) "w" | 2) "y"` {
		t.Fatalf("move/swapdb: %q", woken[0])
	}
	// An overwrite of an existing key is no signal in 7.0 (dbOverwrite): SORT … STORE onto a
	// string leaves the client blocked.
	mustBlock(t, c[0], "BLPOP s 0")
	expect(t, c[2], "SELECT 0", "OK")
	expect(t, c[2], "SET s str", "OK")
	expect(t, c[2], "RPUSH l 3 1 2", "(integer) 3")
	expect(t, c[2], "SORT l STORE s", "(integer) 3")
	if !c[0].Blocked() || e.BlockedClients() != 1 {
		t.Fatal("SORT STORE over an existing key woke the client")
	}
}

func TestBlockingMpopCount(t *testing.T) {
	_, _, c, woken := blockingClients(t, 3)
	mustBlock(t, c[0], "BLMPOP 0 2 a b RIGHT COUNT 2")
	mustBlock(t, c[1], "BZMPOP 0 1 z MAX COUNT 5")
	expect(t, c[2], "RPUSH b 1 2 3", "(integer) 3")
	expect(t, c[2], "ZADD z 1 a 2 b", "(integer) 2")
	if woken[0][0] != `1) "b" | 2) 1) "3" |    2) "2"` {
		t.Fatalf("blmpop: %q", woken[0])
	}
	if woken[1][0] != `1) "z" | 2) 1) 1) "b" |       2) "2" |    2) 1) "a" |       2) "1"` {
		t.Fatalf("bzmpop: %q", woken[1])
	}
}

// TestBlockingReexecution72: from 7.2 a served client runs its command again (blocked.c
// handleClientsBlockedOnKey), so it pops from its first key with data, and a key of another type
// before it is an error; 7.0 answers from the key that became ready.
func TestBlockingReexecution72(t *testing.T) {
	for _, v := range []Version{V70, V72, V88} {
		_, clock, c, woken := blockingClientsV(t, v, 3)
		mustBlock(t, c[0], "BLPOP k1 k2 0")
		expect(t, c[2], "MULTI", "OK")
		expect(t, c[2], "RPUSH k2 two", "QUEUED")
		expect(t, c[2], "RPUSH k1 one", "QUEUED")
		expect(t, c[2], "EXEC", "1) (integer) 1 | 2) (integer) 1")
		want := `1) "k1" | 2) "one"`
		if v == V70 {
			want = `1) "k2" | 2) "two"`
		}
		if strings.Join(woken[0], ";") != want {
			t.Fatalf("%s: %q, want %q", v, woken[0], want)
		}
		expect(t, c[2], "FLUSHALL", "OK")
		mustBlock(t, c[1], "BLPOP s l 0")
		expect(t, c[2], "SET s str", "OK")
		expect(t, c[2], "RPUSH l x", "(integer) 1")
		want = `1) "l" | 2) "x"`
		if v != V70 {
			want = "(error) WRONGTYPE Operation against a key holding the wrong kind of value"
		}
		if strings.Join(woken[1], ";") != want {
			t.Fatalf("%s: %q, want %q", v, woken[1], want)
		}
		// The timeout still works after a re-execution that blocks nothing.
		mustBlock(t, c[1], "BZPOPMIN z 0.5")
		clock.Advance(time.Second)
		c[1].e.ExpireBlocked()
		if woken[1][len(woken[1])-1] != "(nil)" {
			t.Fatalf("%s: %q", v, woken[1])
		}
	}
}

// TestBlockingNestedCommandDenied: a blocking command dispatched while another command runs (a
// script's redis.call inside EVAL) answers at once like inside MULTI, even for a client that can
// block and without DenyBlocking.
func TestBlockingNestedCommandDenied(t *testing.T) {
	e, _, c, _ := blockingClients(t, 1)
	e.blocker, e.running = c[0], []byte("EVAL")
	r := e.dispatch([][]byte{[]byte("BLMOVE"), []byte("q"), []byte("d"), []byte("LEFT"), []byte("LEFT"), []byte("0")})
	r2 := e.dispatch([][]byte{[]byte("BLPOP"), []byte("q"), []byte("0")})
	// the same through a nested exec (what a script runner might call)
	e.execDepth++
	r3 := e.exec([][]byte{[]byte("BLPOP"), []byte("q"), []byte("0")})
	e.execDepth--
	e.blocker, e.running = nil, nil
	if r.Kind != KindNil || r2.Kind != KindNilArray || r3.Reply.Kind != KindNilArray || c[0].Blocked() || e.BlockedClients() != 0 {
		t.Fatalf("nested BLMOVE %q, BLPOP %q, exec BLPOP %q, blocked %v", oneLine(r), oneLine(r2), oneLine(r3.Reply), c[0].Blocked())
	}
}

// TestBlockingGoneHook: the hook streams use for XREADGROUP — serve may decline (the client stays
// blocked), and a ready key that is missing or of another type calls gone. (7.0: 7.2+ re-runs
// the command instead of serve.)
func TestBlockingGoneHook(t *testing.T) {
	for _, v := range []Version{V70} {
		e, _, c, woken := blockingClientsV(t, v, 2)
		served := 0
		e.blocker, e.running, e.blockArgs = c[0], []byte("xwait"), [][]byte{[]byte("xwait"), []byte("k")}
		e.blockFor(blockSpec{cmd: "xwait", kind: TypeHash, keys: [][]byte{[]byte("k")}, deny: NilArray,
			serve: func(key []byte) (Reply, bool) { served++; return Reply{}, false },
			gone:  func(key []byte) (Reply, bool) { return Err("UNBLOCKED the key is gone"), true }})
		e.blocker, e.running, e.blockArgs = nil, nil, nil
		if !c[0].Blocked() {
			t.Fatal("not blocked")
		}
		expect(t, c[1], "HSET k f v", "(integer) 1")
		if served != 1 || !c[0].Blocked() {
			t.Fatalf("%s: served %d times, blocked %v", v, served, c[0].Blocked())
		}
		expect(t, c[1], "DEL k", "(integer) 1")
		e.signalReady("k", TypeHash) // where the type's delete path signals
		e.handleBlocked()
		if c[0].Blocked() || strings.Join(woken[0], ";") != "(error) UNBLOCKED the key is gone" {
			t.Fatalf("%s: %q", v, woken[0])
		}
	}
}
