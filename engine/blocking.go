package engine

// Blocking commands that really wait: BLPOP, BRPOP, BLMOVE, BRPOPLPUSH, BLMPOP, BZPOPMIN,
// BZPOPMAX, BZMPOP, and XREAD / XREADGROUP with BLOCK, as Redis 7.0.15 runs them (blocked.c,
// t_list.c blockingPopGenericCommand and serveClientBlockedOnList, t_zset.c
// blockingGenericZpopCommand, timeout.c; streams: cmd_stream.go xreadBlock, whose keys are also
// signalled by XADD, XGROUP DESTROY and whenever a stream value goes away):
//
//   - A command that finds nothing to pop asks to block (Engine.block) with its keys, an absolute
//     deadline and a serve function. Only a Client whose layer can park it (Client.Blocking: the
//     RESP server's connections, a multi-client console) blocks, and only for a command it runs
//     itself: inside MULTI/EXEC and inside a script (a blocking command called while another
//     command runs, or under DenyBlocking) the command answers at once as Redis's
//     CLIENT_DENY_BLOCKING does — a nil array, a nil bulk for BLMOVE/BRPOPLPUSH. The
//     implicit client of Engine.Exec (labs, transcripts, the lesson player) never waits either:
//     it answers what the timeout would (a nil array).
//   - The blocking table maps (database, key) to the clients blocked on it in the order they
//     blocked, like db->blocking_keys. A client blocked on BLPOP a b 0 is on two lists.
//   - A key "becomes ready" (signalKeyAsReady) when a value is added under its name (dbAdd: a
//     push that creates the list, ZADD, LMOVE/BLMOVE's push side, SORT/ZUNIONSTORE… STORE into a
//     new key, RENAME, MOVE, COPY) and for SWAPDB (every blocked key that exists after the swap),
//     but only when some client blocks for that value's type: a string created under the name
//     wakes nobody, and neither does overwriting an existing key (7.0's dbOverwrite only signals
//     streams). Ready keys are queued once each, in signalling order.
//   - After every command a client runs (an EXEC counts as one: the pushes inside it are served
//     after it), handleBlocked serves the ready keys in order: for each, the clients blocked on
//     it for its type, first blocked first, until the key is gone. One pushed element serves one
//     BLPOP; BLMPOP COUNT 3 takes up to three; BLMOVE's push may create its destination and make
//     it ready in turn, which is served in the same pass (a chain). The served client is
//     answered from the key that became ready, not from the first of its keys.
//   - 7.2 and later serve differently (blocked.c handleClientsBlockedOnKey, 7.2.0): the blocked
//     command is run again, whole, for each client whose type matches the ready key; so it pops
//     from the first of its keys that holds data (BLPOP k1 k2 is answered from k1 when both were
//     pushed in one EXEC), answers WRONGTYPE when an earlier key now holds another type, and a
//     command that would block again goes to the back of the queue and keeps its first deadline
//     (7.2.5+). An XREADGROUP client is run again also when its key is deleted or changes type
//     (unblock_on_nokey), and so answers NOGROUP or WRONGTYPE as the command would, where 7.0
//     answers "UNBLOCKED the stream key no longer exists". Only the clients queued when the
//     key's turn came are looked at. (Read from the source; the differential tests compare with
//     7.0.15 only.)
//   - A blocked client whose deadline has passed (engine clock: now > deadline) is answered a nil
//     array by ExpireBlocked (the RESP server calls it from a timer; a lesson advances the
//     logical clock and calls it). CLIENT UNBLOCK answers the same nil array, or with ERROR the
//     error "UNBLOCKED client unblocked via CLIENT UNBLOCK". A client that goes away while blocked
//     is removed (Client.Close) and answers nothing.
//   - A served, timed-out or unblocked client gets its reply through Client.OnWake (or keeps it
//     for Client.TakeWoken); the command that woke it carries a BlockEvent "woken" in its trace.
//
//   - Serving writes as the command would, so WATCH sees it: a served BLMOVE touches its
//     destination; a command that blocked, or was served WRONGTYPE, touches nothing.
//
// An example, with what redis-server 7.0.15 answers (internal/difftest/blocking_test.go plays it):
// client 7 runs BLPOP q 0, client 8 BRPOP q 0, client 9 BLPOP q 5 at t = 1000 ms. The table holds
// (db 0, "q") → [7, 8, 9]; blocked_clients is 3, clients_in_timeout_table 1 (client 9, deadline
// 6000). RPUSH q a b by client 10 creates q (dbAdd → ready); after it, client 7 gets [q, a], client
// 8 gets [q, b], q is deleted and serving stops; client 9 still waits and is answered a nil array
// at the first check after 6000 ms.
//
// Timeouts (parseTimeout): seconds as a long double; 7.0.15 multiplies by 1000 and rounds up
// (ceill), so 0.0001 waits 1 ms and 0.01 waits 10 ms; 0 waits forever.

import (
	"sort"
	"time"
)

// blockState is what a blocked client waits for.
type blockState struct {
	args     [][]byte // the command, for the 7.2+ re-execution
	target   []byte   // BLMOVE's destination
	cmd      string
	kind     ObjType // the value type that can serve it (BLOCKED_LIST, BLOCKED_ZSET…)
	db       int
	keys     []string // deduplicated, in argument order
	deadline int64    // absolute ms; 0 = forever
	seq      uint64   // blocking order, for timeouts of equal deadline
	// serve runs with the client's database selected when key holds a value of type kind; it
	// answers the client, or reports false to leave it blocked.
	serve func(key []byte) (Reply, bool)
	gone  func(key []byte) (Reply, bool) // blockSpec.gone
}

// blockTable is the engine's side of blocking: db->blocking_keys, server.ready_keys and the
// per-type counts of blocked clients.
type blockTable struct {
	keys     map[watchKey][]*Client
	byKind   map[ObjType]int
	clients  map[*Client]struct{}
	ready    []watchKey
	readySet map[watchKey]bool
	seq      uint64
	deny     int // DenyBlocking nesting (scripts)
}

// DenyBlocking makes blocking commands answer at once (as in MULTI) until the returned function
// is called; script runners wrap their redis.call with it, as Redis flags a script's client
// CLIENT_DENY_BLOCKING.
func (e *Engine) DenyBlocking() (restore func()) {
	e.blk.deny++
	done := false
	return func() {
		if !done {
			done = true
			e.blk.deny--
		}
	}
}

// BlockedClients is INFO's blocked_clients.
func (e *Engine) BlockedClients() int { return len(e.blk.clients) }

// ClientsInTimeoutTable is INFO's clients_in_timeout_table: blocked clients with a deadline.
func (e *Engine) ClientsInTimeoutTable() int {
	n := 0
	for c := range e.blk.clients {
		if c.blk.deadline != 0 {
			n++
		}
	}
	return n
}

// BlockingKeys is 7.2's INFO total_blocking_keys: the (database, key) pairs somebody waits on;
// onNoKey counts those with a waiter that must hear of the key's deletion (blockSpec.gone).
func (e *Engine) BlockingKeys() (keys, onNoKey int) {
	for _, list := range e.blk.keys {
		for _, c := range list {
			if c.blk != nil && c.blk.gone != nil {
				onNoKey++
				break
			}
		}
	}
	return len(e.blk.keys), onNoKey
}

// block is called by a blocking command that found nothing to serve. When the running client may
// wait it is parked on keys (of the current database) and block returns NilArray, which nobody
// sees: Client.Exec reports Result.Blocked instead. Otherwise block returns deny, the answer of a
// client that may not block (MULTI, a script), or the timeout's nil array for a client that
// cannot wait. target is BLMOVE's destination (nil otherwise).
func (e *Engine) block(cmd string, kind ObjType, keys [][]byte, target []byte, deadline int64, deny Reply, serve func(key []byte) (Reply, bool)) Reply {
	return e.blockFor(blockSpec{cmd: cmd, kind: kind, keys: keys, target: target, deadline: deadline, deny: deny, serve: serve})
}

// blockSpec is a blocking request. Streams also need gone: XREADGROUP's clients are answered
// when their key is deleted or changes type (unblockDeletedStreamReadgroupClients) — signal the
// key (signalReady with the old type) where it goes away, and gone is called instead of serve
// for a ready key that is missing or of another type; false leaves the client blocked. serve
// may decline too (a stream whose new entries are not past the client's ID). From 7.2 the
// command itself is run again instead of serve: args, when set, is the command to re-run (XREAD
// rewrites `$` into the ID it resolved).
type blockSpec struct {
	cmd      string // lowercase, as the client sent it (a different name means a nested call)
	kind     ObjType
	keys     [][]byte
	target   []byte
	deadline int64
	deny     Reply
	serve    func(key []byte) (Reply, bool)
	gone     func(key []byte) (Reply, bool)
	args     [][]byte // 7.2+: the command to re-run (default: the one the client sent)
}

func (e *Engine) blockFor(sp blockSpec) Reply {
	cmd, kind, keys, target, deadline, deny, serve := sp.cmd, sp.kind, sp.keys, sp.target, sp.deadline, sp.deny, sp.serve
	// A blocking command called by another command (a script's redis.call) is not the command
	// the client runs: it may not block, as a script's client is CLIENT_DENY_BLOCKING.
	nested := e.execDepth > 1 || len(e.running) > 0 && !eqFold(e.running, cmd)
	if nested || e.blk.deny > 0 || e.inMultiExec {
		return deny
	}
	c := e.blocker
	if c == nil {
		return NilArray // a client that cannot wait: what the timeout answers
	}
	e.blocker = nil // one block per command
	args := sp.args
	if args == nil {
		args = e.blockArgs
	}
	st := &blockState{cmd: cmd, kind: kind, db: e.dbIndex(e.db), deadline: deadline, serve: serve, gone: sp.gone, args: copyArgv(args), target: target}
	seen := map[string]bool{}
	for _, k := range keys {
		if !seen[string(k)] {
			seen[string(k)] = true
			st.keys = append(st.keys, string(k))
		}
	}
	t := &e.blk
	if t.keys == nil {
		t.keys = map[watchKey][]*Client{}
		t.byKind = map[ObjType]int{}
		t.clients = map[*Client]struct{}{}
		t.readySet = map[watchKey]bool{}
	}
	t.seq++
	st.seq = t.seq
	for _, k := range st.keys {
		wk := watchKey{st.db, k}
		t.keys[wk] = append(t.keys[wk], c)
	}
	t.byKind[kind]++
	t.clients[c] = struct{}{}
	c.blk = st
	e.emit(BlockEvent{Client: c.ID, Action: "blocked", Cmd: cmd, Keys: append([]string(nil), st.keys...), Deadline: deadline})
	return NilArray
}

// unblock removes c from the blocking table (unblockClientWaitingData).
func (e *Engine) unblock(c *Client) {
	st := c.blk
	if st == nil {
		return
	}
	t := &e.blk
	for _, k := range st.keys {
		wk := watchKey{st.db, k}
		list := t.keys[wk]
		for i, x := range list {
			if x == c {
				list = append(list[:i:i], list[i+1:]...)
				break
			}
		}
		if len(list) == 0 {
			delete(t.keys, wk)
		} else {
			t.keys[wk] = list
		}
	}
	if t.byKind[st.kind]--; t.byKind[st.kind] <= 0 {
		delete(t.byKind, st.kind)
	}
	delete(t.clients, c)
	c.blk = nil
}

// wake answers a client that is no longer blocked.
func (c *Client) wake(res Result) {
	if c.OnWake != nil {
		c.OnWake(res)
		return
	}
	c.woken = &res
}

// signalReady is signalKeyAsReady for key of the current database, now holding a value of type t.
func (e *Engine) signalReady(key string, t ObjType) {
	if len(e.blk.clients) == 0 || e.blk.byKind[t] == 0 {
		return
	}
	wk := watchKey{e.dbIndex(e.db), key}
	if len(e.blk.keys[wk]) == 0 || e.blk.readySet[wk] {
		return
	}
	e.blk.readySet[wk] = true
	e.blk.ready = append(e.blk.ready, wk)
}

// scanDeletedStreams is scanDatabaseForDeletedStreams: before database db is emptied (FLUSHDB,
// FLUSHALL) or swapped with replacedBy (SWAPDB), every blocked key of db holding a stream that
// will not hold one afterwards is signalled, so that its XREADGROUP clients are answered.
func (e *Engine) scanDeletedStreams(db int, replacedBy *DB) {
	if e.blk.byKind[TypeStream] == 0 {
		return
	}
	e.eachBlockedKey(db, func(k string) {
		was := e.db.keys[k] != nil && e.db.keys[k].Type == TypeStream
		is := replacedBy != nil && replacedBy.keys[k] != nil && replacedBy.keys[k].Type == TypeStream
		if was && !is {
			e.signalReady(k, TypeStream)
		}
	})
}

// eachBlockedKey calls f for every key of database db that clients are blocked on, sorted (Redis
// walks a dict; any fixed order will do), with db as the current database meanwhile.
func (e *Engine) eachBlockedKey(db int, f func(k string)) {
	var ks []string
	for wk := range e.blk.keys {
		if wk.db == db {
			ks = append(ks, wk.key)
		}
	}
	sort.Strings(ks)
	cur := e.db
	e.db = e.dbs[db]
	for _, k := range ks {
		f(k)
	}
	e.db = cur
}

// scanReady is scanDatabaseForReadyKeys for database db (after SWAPDB).
func (e *Engine) scanReady(db int) {
	if len(e.blk.clients) == 0 {
		return
	}
	e.eachBlockedKey(db, func(k string) {
		if o := e.db.keys[k]; o != nil {
			e.signalReady(k, o.Type)
		}
	})
}

// handleBlocked is handleClientsBlockedOnKeys: serve the clients blocked on the ready keys. It
// returns the "woken" events for the trace of the command that made the keys ready.
func (e *Engine) handleBlocked() []Event {
	var woke []Event
	t := &e.blk
	for len(t.ready) > 0 {
		l := t.ready
		t.ready = nil
		for _, wk := range l {
			delete(t.readySet, wk)
			woke = e.serveKey(wk, woke)
		}
	}
	return woke
}

// serveKey serves the clients blocked on one ready key, first blocked first, until the key is
// gone or changes type.
func (e *Engine) serveKey(wk watchKey, woke []Event) (out []Event) {
	cur, events := e.db, e.events
	defer func() { e.db, e.events = cur, events }()
	e.db = e.dbs[wk.db]
	e.events = nil
	if e.ver.Has(V72) {
		return e.serveKeyAgain(wk, woke)
	}
	o := e.Lookup([]byte(wk.key))
	waiting := append([]*Client(nil), e.blk.keys[wk]...)
	if o == nil {
		return e.serveGone(wk, waiting, 0, woke)
	}
	kind := o.Type
	defer func() { out = e.serveGone(wk, waiting, kind, out) }()
	for _, c := range waiting {
		st := c.blk
		if st == nil || st.kind != kind {
			continue
		}
		// (serving writes like the command would: the pop and push helpers signal the keys)
		var ok bool
		if woke, ok = e.serveOne(c, st, wk.key, st.serve, woke, true); !ok {
			continue
		}
		if o2 := e.db.keys[wk.key]; o2 == nil || o2.Type != kind {
			break // the value is used up (deleted)
		}
	}
	return woke
}

// serveGone answers the clients that asked to be told when their key goes away or changes type
// (blockSpec.gone); kind is the key's type now (0 and no value: missing).
func (e *Engine) serveGone(wk watchKey, waiting []*Client, kind ObjType, woke []Event) []Event {
	present := e.db.keys[wk.key] != nil
	for _, c := range waiting {
		st := c.blk
		if st == nil || st.gone == nil || (present && st.kind == kind) {
			continue
		}
		woke, _ = e.serveOne(c, st, wk.key, st.gone, woke, false)
	}
	return woke
}

// serveOne runs one blocked client's serve (or gone) function on key with a trace of its own;
// when it answers (ok), the client is unblocked and handed the reply (answerServed, woken as
// there).
func (e *Engine) serveOne(c *Client, st *blockState, key string, serve func(key []byte) (Reply, bool), woke []Event, woken bool) (_ []Event, ok bool) {
	e.events = nil
	r, ok := safeServe(func() (Reply, bool) { return serve([]byte(key)) })
	if !ok {
		return woke, false
	}
	e.unblock(c)
	return e.answerServed(c, st, key, r, woke, woken), true
}

// serveKeyAgain is 7.2's handleClientsBlockedOnKey: re-run the command of each client queued on
// the key whose blocking type matches the key's value now.
func (e *Engine) serveKeyAgain(wk watchKey, woke []Event) []Event {
	waiting := append([]*Client(nil), e.blk.keys[wk]...)
	for _, c := range waiting {
		st := c.blk
		if st == nil {
			continue
		}
		// A client that must hear of its key's deletion (XREADGROUP: bstate.unblock_on_nokey) is
		// run again too, whatever the key holds now: its command then answers NOGROUP or
		// WRONGTYPE itself.
		if o := e.Peek([]byte(wk.key)); (o == nil || o.Type != st.kind) && st.gone == nil {
			continue
		}
		if len(st.args) == 0 {
			continue // (never: every blocked command came through Client.Exec)
		}
		e.unblock(c)
		e.events = nil
		e.blocker, e.blockArgs, e.running = c, st.args, st.args[0]
		e.uncountBlockedCall(st.args) // (blocking_stats.go)
		e.monitorMute = true          // served again: not fed twice (monitor.go)
		r, _ := safeServe(func() (Reply, bool) { return e.dispatch(st.args), true })
		e.monitorMute = false
		e.blocker, e.blockArgs, e.running = nil, nil, nil
		if c.blk != nil {
			// Blocked again, now last in the queue, with its first deadline (blockForKeys keeps
			// bstate.timeout for a CLIENT_REPROCESSING_COMMAND, 7.2.5 and later).
			c.blk.deadline = st.deadline
			continue
		}
		woke = e.answerServed(c, st, wk.key, r, woke, true)
	}
	return woke
}

// answerServed hands a served client its reply: the "served" event closes the client's own
// trace, which it receives with the reply; with woken, the command that made the key ready also
// records a "woken" event in its trace (returned in woke). A client answered because its key
// went away (serveGone) is not counted as woken by that command.
func (e *Engine) answerServed(c *Client, st *blockState, key string, r Reply, woke []Event, woken bool) []Event {
	if !e.ver.Has(V72) {
		e.countUnblocked(st.cmd, r) // (7.2+: the command run again counted itself)
	}
	e.emit(BlockEvent{Client: c.ID, Action: "served", Cmd: st.cmd, Key: key})
	evs := e.events
	e.events = nil
	if woken && e.tracing {
		woke = append(woke, BlockEvent{Client: c.ID, Action: "woken", Cmd: st.cmd, Key: key})
	}
	c.wake(Result{Reply: r, Events: evs})
	return woke
}

// safeServe runs a serve function; a panic answers the served client an error, as Exec does,
// instead of failing the command that woke it.
func safeServe(f func() (Reply, bool)) (r Reply, ok bool) {
	defer func() {
		if p := recover(); p != nil {
			r, ok = errInternal(p), true
		}
	}()
	return f()
}

func copyArgv(args [][]byte) [][]byte {
	out := make([][]byte, len(args))
	for i, a := range args {
		out[i] = append([]byte(nil), a...)
	}
	return out
}

// ExpireBlocked answers every blocked client whose deadline has passed on the engine clock
// (now > deadline) with the timeout reply, earliest deadline first; it returns how many.
func (e *Engine) ExpireBlocked() int {
	now := e.NowMs()
	var due []*Client
	for c := range e.blk.clients {
		if d := c.blk.deadline; d != 0 && now > d {
			due = append(due, c)
		}
	}
	sort.Slice(due, func(i, j int) bool {
		a, b := due[i].blk, due[j].blk
		if a.deadline != b.deadline {
			return a.deadline < b.deadline
		}
		return a.seq < b.seq
	})
	for _, c := range due {
		cmd := c.blk.cmd
		e.unblock(c)
		e.countUnblocked(cmd, NilArray)
		var evs []Event
		if e.tracing {
			evs = []Event{BlockEvent{Client: c.ID, Action: "timeout", Cmd: cmd}}
		}
		c.wake(Result{Reply: NilArray, Events: evs})
	}
	return len(due)
}

// countUnblocked is updateStatsOnUnblock for a blocked command answered without running again
// (a timeout, CLIENT UNBLOCK, and 7.0's serving). From 7.2 call() leaves a command that blocked
// uncounted (its calls++ is under !CLIENT_BLOCKED), so this counts the call, failed with an
// error reply, and a command run again when served counts itself in dispatch. 7.0 counted the
// call when it blocked: an error answer only adds a failed call and the error (errorstats,
// total_error_replies).
func (e *Engine) countUnblocked(cmd string, r Reply) {
	st := e.cfg.stats
	if e.ver.Has(V72) {
		st.called(cmd, r)
	} else if r.Kind == KindError {
		st.cmd(cmd).failed++
		st.errorReply(r)
	}
}

// AdvanceClock moves the logical clock (a ManualClock) by d and answers the blocked clients whose
// timeout has passed, as a lesson does to show BRPOP giving up; ok is false for another clock.
func (e *Engine) AdvanceClock(d time.Duration) (timedOut int, ok bool) {
	mc, ok := e.clock.(*ManualClock)
	if !ok {
		return 0, false
	}
	mc.Advance(d)
	return e.ExpireBlocked(), true
}

// NextDeadline is the earliest deadline of a blocked client (absolute ms), or 0 when none has one.
func (e *Engine) NextDeadline() int64 {
	var min int64
	for c := range e.blk.clients {
		if d := c.blk.deadline; d != 0 && (min == 0 || d < min) {
			min = d
		}
	}
	return min
}

// Blocked reports whether the client waits in a blocking command.
func (c *Client) Blocked() bool { return c.blk != nil }

// BlockedOn is the blocked command (lowercase), its keys and its deadline (absolute ms, 0 =
// forever); cmd is "" when the client is not blocked.
func (c *Client) BlockedOn() (cmd string, keys []string, deadline int64) {
	if c.blk == nil {
		return "", nil, 0
	}
	return c.blk.cmd, append([]string(nil), c.blk.keys...), c.blk.deadline
}

// Unblock is CLIENT UNBLOCK on this client: it answers the timeout reply (a nil array), or with
// withError the UNBLOCKED error. It reports false when the client was not blocked.
func (c *Client) Unblock(withError bool) bool {
	st := c.blk
	if st == nil {
		return false
	}
	c.e.unblock(c)
	r := NilArray
	if withError {
		r = errUnblocked
	}
	c.e.countUnblocked(st.cmd, r)
	var evs []Event
	if c.e.tracing {
		evs = []Event{BlockEvent{Client: c.ID, Action: "unblocked", Cmd: st.cmd}}
	}
	c.wake(Result{Reply: r, Events: evs})
	return true
}

// TakeWoken returns (once) the reply of a blocked command that ended while no OnWake was set.
func (c *Client) TakeWoken() (Result, bool) {
	if c.woken == nil {
		return Result{}, false
	}
	r := *c.woken
	c.woken = nil
	return r, true
}

// blockingDeadline turns parseTimeout's milliseconds into an absolute deadline (0 = forever).
// Like 7.0's `tval += mstime()`, a sum past the int64 range wraps (and then times out at once).
func (e *Engine) blockingDeadline(ms int64) int64 {
	if ms == 0 {
		return 0
	}
	return ms + e.NowMs()
}

// Waiter is one client blocked on a key, for a picture of a queue: which client, in which
// command, until when.
type Waiter struct {
	Client   int64  // Client.ID
	Cmd      string // the blocked command, lowercase ("brpop")
	Deadline int64  // absolute ms; 0 = forever
}

// Waiters lists the clients blocked on key in the current database, first blocked first (the
// order they will be served in: db->blocking_keys's list). It changes nothing.
func (e *Engine) Waiters(key string) []Waiter {
	cs := e.blk.keys[watchKey{db: e.dbIndex(e.db), key: key}]
	out := make([]Waiter, 0, len(cs))
	for _, c := range cs {
		if c.blk != nil {
			out = append(out, Waiter{Client: c.ID, Cmd: c.blk.cmd, Deadline: c.blk.deadline})
		}
	}
	return out
}
