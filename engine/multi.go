package engine

// Transactions: MULTI, EXEC, DISCARD, WATCH, UNWATCH, with Redis 7.0's replies and rules
// (multi.c and processCommand in server.c of 7.0.15, checked against Debian's redis-server
// 7.0.15):
//
//   - A Client is one connection's state: its selected database, its MULTI queue and its watched
//     keys. The RESP server makes one per connection; Engine.Exec runs on an implicit Client that
//     uses whatever database the engine has selected (labs, the browser player, transcripts).
//   - Inside MULTI every command but EXEC, DISCARD, MULTI and WATCH is queued (UNWATCH too) after
//     the existence and arity checks; a command failing them is answered with its error and marks
//     the transaction, so that EXEC answers EXECABORT. SAVE, SHUTDOWN, SYNC and PSYNC are refused
//     ("Command not allowed inside a transaction") and mark it too. Nested MULTI and WATCH inside
//     MULTI are answered with an error but do not mark it.
//   - A watched key is touched by signalModifiedKey (db.go), the one call every write makes where
//     Redis makes it: the db hooks (a key created, overwritten, deleted, expired lazily, a TTL set
//     or removed) and each command that changes a value in place. So a write that changes nothing
//     touches exactly when Redis's does: SADD of a member already there, SET NX of an existing key,
//     DEL of a missing key, ZADD of the same score, SETBIT or BITFIELD SET of the bits already
//     there (unless the string grows) do not; HSET of the same value, SET of the same value,
//     APPEND "", INCRBY 0, LSET of the same element, LTRIM 0 -1, PFMERGE of nothing do. FLUSHDB,
//     FLUSHALL and SWAPDB mark the watchers of the keys that exist (touchAllWatchedKeysInDb). A
//     key that was already expired when WATCHed is not touched by its own deletion; a key alive
//     at WATCH that has expired by EXEC aborts it (7.0's isWatchedKeyExpired). Trace events play
//     no part: WATCH works the same with tracing off.
//   - Nothing is checked while nobody watches: one length test on the hot path.
//   - A blocking command never blocks in EXEC: it answers at once (blocking.go); the keys the
//     transaction made ready are served after EXEC, like after any command (Client.Exec).

import "strings"

func init() {
	cmd := func(name string, arity int, flags int) *Command {
		return &Command{Name: name, Arity: arity, Flags: flags, Cats: "transaction", Fn: cmdTxOutsideClient}
	}
	const f = FlagNoScript | FlagLoading | FlagStale
	w := cmd("watch", -2, f|FlagFast|FlagAllowBusy)
	w.FirstKey, w.LastKey, w.Step, w.KeyFlags = 1, -1, 1, []string{"RO"}
	register(
		cmd("multi", 1, f|FlagFast|FlagAllowBusy),
		cmd("exec", 1, f|FlagSkipSlowlog),
		cmd("discard", 1, f|FlagFast|FlagAllowBusy),
		cmd("unwatch", 1, f|FlagFast|FlagAllowBusy),
		w,
	)
}

// cmdTxOutsideClient is never reached through Exec (a Client answers these commands); it guards
// direct dispatches.
func cmdTxOutsideClient(e *Engine, args [][]byte) Reply {
	return Err("ERR " + strings.ToUpper(string(args[0])) + " needs a client")
}

// FrontEnd lets the layer that owns a Client answer commands the engine does not know (the RESP
// server's HELLO, CLIENT, AUTH, INFO). With check set it only validates args as Redis does before
// queueing them (existence, arity, subcommand) and returns an error reply or a zero Reply; it
// reports handled=false for the commands it does not own.
type FrontEnd func(args [][]byte, check bool) (r Reply, handled bool)

// Client is one connection's transaction state. Not safe for concurrent use (nor is the Engine).
type Client struct {
	e        *Engine
	peer     slowPeer // address and name for the slow log (SetPeer)
	db       int      // selected database; -1: the engine's current one (the implicit client)
	multi    bool
	dirtyCAS bool // a watched key was touched: EXEC answers a null array
	dirtyTx  bool // a command was refused while queueing: EXEC answers EXECABORT
	queue    [][][]byte
	watched  []*watchedKey
	cluster  clusterConn // ASKING, READONLY (cluster.go)
	// FrontEnd answers the commands of the layer above (nil: none).
	FrontEnd FrontEnd
	// FrontEndFor, when set, says which command names FrontEnd may answer when it runs a
	// command (not for check): the others skip the call.
	FrontEndFor func(name []byte) bool
	// ID names the client in trace events (the RESP server's connection id).
	ID int64
	// Blocking: the layer above can park this client, so its blocking commands wait
	// (blocking.go) instead of answering at once. OnWake receives the reply of a blocked command
	// when it ends (served, timed out, unblocked); it is called while the engine runs another
	// client's command and must not call into the engine. Without OnWake, TakeWoken has it.
	Blocking bool
	OnWake   func(Result)
	blk      *blockState
	woken    *Result
	// unwatchLater: a transaction ended while a script held the engine (BusyTx); its watched
	// keys are released, and dirtyCAS cleared, by the client's next command under the lock.
	unwatchLater bool
}

type watchKey struct {
	db  int
	key string
}

type watchedKey struct {
	watchKey
	c       *Client
	expired bool // the key was already expired when WATCHed
}

// watchState is the engine's WATCH table: per (db, key) the watchers in WATCH order.
type watchState struct {
	keys  map[watchKey][]*watchedKey
	names map[string]int // key name → number of (db, key) entries, for one lookup per argument
}

// NewClient makes a client of e that starts on database 0.
func (e *Engine) NewClient() *Client { return &Client{e: e} }

// NewConsoleClient makes a client that uses whatever database the engine has selected (SELECT
// changes it for every such client), as the lesson player's console does.
func (e *Engine) NewConsoleClient() *Client { return &Client{e: e, db: -1} }

// SetClient makes c the client of Exec (its MULTI queue and watched keys); nil goes back to the
// engine's own implicit client. A client of another engine is ignored.
func (e *Engine) SetClient(c *Client) {
	if c != nil && c.e != e {
		return
	}
	e.client = c
}

// implicitClient is the client of Engine.Exec.
func (e *Engine) implicitClient() *Client {
	if e.implicit == nil {
		e.implicit = &Client{e: e, db: -1}
	}
	return e.implicit
}

// DB is the client's selected database.
func (c *Client) DB() int {
	if c.db < 0 {
		return c.e.CurrentDB()
	}
	return c.db
}

// SetDB selects database n for the client (RESET, tests); false when out of range.
func (c *Client) SetDB(n int) bool {
	if n < 0 || n >= len(c.e.dbs) {
		return false
	}
	c.db = n
	return true
}

// InMulti reports whether MULTI is open.
func (c *Client) InMulti() bool { return c.multi }

// Queued is the number of commands queued since MULTI.
func (c *Client) Queued() int { return len(c.queue) }

// Dirty reports whether a watched key was touched (EXEC will answer a null array).
func (c *Client) Dirty() bool { return c.dirtyCAS && !c.unwatchLater }

// Reset is what RESET does to the transaction state: discard the queue, unwatch every key, select
// database 0.
func (c *Client) Reset() {
	c.discard()
	if c.db >= 0 {
		c.db = 0
	}
}

// Close releases the client's watched keys and, if it was blocked, its place in the blocking
// table, without answering (a closed connection).
func (c *Client) Close() {
	c.discard()
	c.e.unblock(c)
}

type txCmd uint8

const (
	txNone txCmd = iota
	txMulti
	txExec
	txDiscard
	txWatch
	txUnwatch
)

// txNames are the transaction commands' names, by kind.
var txNames = [...]string{txMulti: "multi", txExec: "exec", txDiscard: "discard", txWatch: "watch", txUnwatch: "unwatch"}

func txKind(name []byte) txCmd {
	for k := txMulti; k <= txUnwatch; k++ {
		if eqFold(name, txNames[k]) {
			return k
		}
	}
	return txNone
}

// Exec runs one command for the client: transaction commands here, the others queued inside
// MULTI or run on the engine. (The steps below fill the caller's Result rather than return one:
// a Result is 88 bytes, and copying it back up through each of them was a tenth of a plain
// command's cost in the RESP server.)
func (c *Client) Exec(args [][]byte) Result {
	if c.blk != nil {
		return Result{Reply: errClientBlocked}
	}
	c.e.beginCall() // the command's time (calltime.go)
	defer c.e.endCall()
	var res Result
	c.exec1(args, &res)
	if len(c.e.blk.ready) > 0 {
		res.Events = append(res.Events, c.e.handleBlocked()...)
	}
	return res
}

func (c *Client) exec1(args [][]byte, res *Result) {
	if len(args) == 0 {
		res.Reply = NilReply
		return
	}
	c.settleBusy()
	c.selectDB()
	if c.e.cluster != nil {
		defer c.clusterAfterCommand(args) // ASKING lasts one command
	}
	kind := txKind(args[0])
	if kind != txNone && !c.e.ver.Has(V70) {
		kind = txNone
	}
	if c.multi && kind != txExec && kind != txDiscard && !c.e.ver.Has(V74) {
		if r, oom := c.e.multiOOM(args); oom { // (oom.go)
			if _, ok := c.check(args); ok {
				c.dirtyTx = true
				res.Reply = r
				return
			}
		}
	}
	if c.multi && (kind == txNone || kind == txUnwatch) {
		res.Reply = c.queueCmd(args)
		return
	}
	if kind == txNone {
		if c.e.cfg.hot.maxmemory > 0 {
			if r, oom := c.e.oomRefused(args); oom { // (oom.go)
				if _, ok := c.check(args); ok {
					res.Reply = r
					return
				}
			}
		}
		if c.Blocking {
			c.e.blocker, c.e.blockArgs = c, args
			c.run(args, res)
			c.e.blocker, c.e.blockArgs = nil, nil
			res.Blocked = c.blk != nil
			return
		}
		c.run(args, res)
		return
	}
	if kind == txExec && c.multi && len(args) == 1 {
		*res = c.execTx()
		c.e.feedMonitor(args) // after its commands, or when it aborts (monitor.go)
		return
	}
	if kind == txWatch && len(args) >= 2 {
		if r, bad := c.clusterQueueCheck(args); bad { // WATCH's keys are routed too
			c.dirtyTx = c.dirtyTx || c.multi
			res.Reply = r
			return
		}
	}
	r := c.txCommandLogged(kind, args)
	if kind == txExec || !RefusedBeforeCall(r) {
		c.e.feedMonitor(args) // (EXEC with arguments: execCommandAbort feeds it too)
	}
	res.Reply = r
}

func (c *Client) selectDB() {
	if c.db >= 0 && c.e.db != c.e.dbs[c.db] {
		c.e.db = c.e.dbs[c.db]
	}
}

// run executes a command that is not a transaction command (or UNWATCH inside EXEC).
func (c *Client) run(args [][]byte, res *Result) {
	if c.FrontEnd != nil && (c.FrontEndFor == nil || c.FrontEndFor(args[0])) {
		if r, ok := c.FrontEnd(args, false); ok {
			res.Reply = r
			return
		}
	}
	if txKind(args[0]) == txUnwatch && c.e.ver.Has(V70) {
		r := c.txCommandLogged(txUnwatch, args)
		c.e.feedMonitor(args)
		res.Reply = r
		return
	}
	if c.e.cluster != nil {
		defer c.clusterUse()()
	}
	c.e.execInto(args, res)
	if c.db >= 0 && res.Reply.Kind == KindStatus && len(args) == 2 && eqFold(args[0], "select") {
		if n, ok := string2ll(args[1]); ok && n >= 0 && int(n) < len(c.e.dbs) {
			c.db = int(n)
		}
	}
}

// noMulti: the commands 7.0 refuses inside MULTI (CMD_NO_MULTI), with their arity. They are
// refused even where the engine does not implement them.
var noMulti = map[string]int{"save": 1, "shutdown": -1, "sync": 1, "psync": -3}

// queueCmd checks a command as processCommand does before queueing it.
func (c *Client) queueCmd(args [][]byte) Reply {
	if arity, ok := noMulti[strings.ToLower(string(args[0]))]; ok && len(args[0]) <= 8 {
		c.dirtyTx = true
		if !arityOK(arity, len(args)) {
			return errArity(strings.ToLower(string(args[0])))
		}
		return Err("ERR Command not allowed inside a transaction")
	}
	if r, ok := c.check(args); !ok {
		c.dirtyTx = true
		return r
	}
	if r, bad := c.clusterQueueCheck(args); bad {
		c.dirtyTx = true
		return r
	}
	if r, oom := c.e.oomRefused(args); oom {
		c.dirtyTx = true
		return r
	}
	if !c.dirtyCAS && !c.dirtyTx {
		c.queue = append(c.queue, CopyArgs(args))
	}
	return Status("QUEUED")
}

// check is the existence and arity check (commandCheckExistence, commandCheckArity).
func (c *Client) check(args [][]byte) (Reply, bool) {
	if c.FrontEnd != nil {
		if r, ok := c.FrontEnd(args, true); ok {
			return r, r.Kind != KindError
		}
	}
	e := c.e
	cmd := lookupCommand(args[0])
	if cmd == nil || !e.ver.Has(cmd.Since) {
		return e.unknownCommand(args), false
	}
	if cmd.Sub != nil && len(args) >= 2 {
		sub := cmd.Sub[strings.ToLower(string(args[1]))]
		if sub == nil || !e.ver.Has(sub.Since) {
			return e.unknownSubcommand(cmd, args), false
		}
		if !arityOK(sub.Arity, len(args)) {
			return errArity(sub.FullName()), false
		}
		return Reply{}, true
	}
	if !arityOK(cmd.Arity, len(args)) {
		return errArity(cmd.Name), false
	}
	return Reply{}, true
}

// txCommandLogged is txCommand measured and given to the slow log (dispatch does not see it).
func (c *Client) txCommandLogged(kind txCmd, args [][]byte) Reply {
	timer := c.e.startTimer()
	r := c.txCommand(kind, args)
	c.slowlogTx(args, r, c.e.elapsedUs(timer))
	return r
}

func (c *Client) txCommand(kind txCmd, args [][]byte) Reply {
	return c.txReply(kind, args, c.discard)
}

// txReply is txCommand with the discard to run: discard, or busyDiscard from BusyTx (which
// passes only MULTI, DISCARD and WATCH inside MULTI or with too few arguments, none of which
// reads the keyspace).
func (c *Client) txReply(kind txCmd, args [][]byte, discard func()) Reply {
	names := [...]string{txMulti: "multi", txExec: "exec", txDiscard: "discard", txWatch: "watch", txUnwatch: "unwatch"}
	if kind == txWatch && len(args) < 2 || kind != txWatch && len(args) != 1 {
		if kind == txExec {
			discard() // rejectCommand on EXEC: execCommandAbort
			return errExecArity
		}
		if c.multi {
			c.dirtyTx = true
		}
		return errArity(names[kind])
	}
	switch kind {
	case txMulti:
		if c.multi {
			return Err("ERR MULTI calls can not be nested")
		}
		c.multi = true
		return OK
	case txDiscard:
		if !c.multi {
			return Err("ERR DISCARD without MULTI")
		}
		discard()
		return OK
	case txWatch:
		if c.multi {
			return Err("ERR WATCH inside MULTI is not allowed")
		}
		if !c.dirtyCAS {
			for _, k := range args[1:] {
				c.watch(k)
			}
		}
		return OK
	case txUnwatch:
		c.unwatchAll()
		c.dirtyCAS = false
		return OK
	}
	return Err("ERR EXEC without MULTI") // EXEC inside MULTI is execTx
}

// discard is discardTransaction: leave MULTI, clear both dirty flags, unwatch every key.
func (c *Client) discard() {
	c.unwatchLater = false
	c.multi, c.dirtyCAS, c.dirtyTx = false, false, false
	c.queue = nil
	c.unwatchAll()
}

// execTx is EXEC inside MULTI.
func (c *Client) execTx() Result {
	if r, bad := c.clusterExecCheck(); bad {
		c.discard()
		return Result{Reply: r}
	}
	if c.execOOM() { // rejectCommand on EXEC: execCommandAbort (oom.go)
		c.discard()
		return Result{Reply: c.e.cfg.stats.rejected("exec", Err("EXECABORT Transaction discarded because of: "+errOOM.Str))}
	}
	if c.watchedKeyExpired() {
		c.dirtyCAS = true
	}
	if c.dirtyTx {
		c.discard()
		return Result{Reply: Err("EXECABORT Transaction discarded because of previous errors.")}
	}
	if c.dirtyCAS {
		c.discard()
		return Result{Reply: NilArray}
	}
	c.unwatchAll()
	q := c.queue
	c.queue = nil
	defer c.clusterExecBegin()()
	out := make([]Reply, len(q))
	var events []Event
	c.e.inMultiExec = true
	defer func() { c.e.inMultiExec = false }()
	for i, args := range q {
		c.selectDB()
		var res Result
		c.run(args, &res)
		out[i] = res.Reply
		events = append(events, res.Events...)
	}
	c.discard()
	return Result{Reply: Reply{Kind: KindArray, Array: out}, Events: events}
}

// watch is watchForKey in the client's current database.
func (c *Client) watch(key []byte) {
	e := c.e
	db := c.DB()
	for _, wk := range c.watched {
		if wk.db == db && wk.key == string(key) {
			return
		}
	}
	if e.wst.keys == nil {
		e.wst.keys = map[watchKey][]*watchedKey{}
		e.wst.names = map[string]int{}
	}
	wk := &watchedKey{watchKey: watchKey{db, string(key)}, c: c, expired: e.keyExpiredIn(db, string(key))}
	if len(e.wst.keys[wk.watchKey]) == 0 {
		e.wst.names[wk.key]++
	}
	e.wst.keys[wk.watchKey] = append(e.wst.keys[wk.watchKey], wk)
	c.watched = append(c.watched, wk)
}

// unwatchAll is unwatchAllKeys.
func (c *Client) unwatchAll() {
	e := c.e
	for _, wk := range c.watched {
		list := e.wst.keys[wk.watchKey]
		for i, x := range list {
			if x == wk {
				list = append(list[:i:i], list[i+1:]...)
				break
			}
		}
		if len(list) == 0 {
			delete(e.wst.keys, wk.watchKey)
			if e.wst.names[wk.key]--; e.wst.names[wk.key] <= 0 {
				delete(e.wst.names, wk.key)
			}
		} else {
			e.wst.keys[wk.watchKey] = list
		}
	}
	c.watched = nil
}

// watchedKeyExpired is isWatchedKeyExpired.
func (c *Client) watchedKeyExpired() bool {
	for _, wk := range c.watched {
		if !wk.expired && c.e.keyExpiredIn(wk.db, wk.key) {
			return true
		}
	}
	return false
}

// keyIsExpired: the key is still stored in database db with a TTL that has passed.
func (e *Engine) keyExpiredIn(db int, key string) bool {
	when, ok := e.dbs[db].expires[key]
	return ok && e.NowMs() > when
}

// watching reports whether any client watches a key (the hot-path test).
func (e *Engine) watching() bool { return len(e.wst.keys) > 0 }

func (e *Engine) dbIndex(d *DB) int {
	for i, x := range e.dbs {
		if x == d {
			return i
		}
	}
	return -1
}

// touch is touchWatchedKey(db, key).
func (e *Engine) touch(db int, key string) {
	list := e.wst.keys[watchKey{db, key}]
	if len(list) == 0 {
		return
	}
	list = append([]*watchedKey(nil), list...) // unwatchAll edits the table
	for _, wk := range list {
		if wk.expired {
			if _, present := e.dbs[db].keys[key]; !present {
				// The key that was already expired when WATCHed is now deleted: logically no
				// change.
				wk.expired = false
				continue
			}
			break // 7.0.15 stops at such a watcher while the key is still stored
		}
		wk.c.dirtyCAS = true
		wk.c.unwatchAll()
	}
}

// touchAllWatchedKeysInDb(emptied, replacedWith) is multi.c's: database emptied is about to be
// flushed (replacedWith -1) or to receive the contents of database replacedWith (SWAPDB). Every
// client watching a key that exists in either is marked dirty, except where nothing logically
// changes: a key already expired at WATCH that is now simply gone (its flag is cleared), or one
// replaced by a key that is itself expired (the flag is set). Unlike touch, the clients keep their
// watched keys until EXEC.
func (e *Engine) touchAllWatchedKeysInDb(emptied, replacedWith int) {
	if len(e.wst.keys) == 0 {
		return
	}
	for k, list := range e.wst.keys {
		if k.db != emptied {
			continue
		}
		_, inEmptied := e.dbs[emptied].keys[k.key]
		inReplaced := false
		if replacedWith >= 0 {
			_, inReplaced = e.dbs[replacedWith].keys[k.key]
		}
		if !inEmptied && !inReplaced {
			continue
		}
		for _, wk := range list {
			switch {
			case wk.expired && !inReplaced:
				wk.expired = false // the expired key is now deleted: no logical change
			case wk.expired && e.keyExpiredIn(replacedWith, k.key):
				// it stays expired
			case !wk.expired && !inEmptied && e.keyExpiredIn(replacedWith, k.key):
				wk.expired = true // a missing key replaced with an expired one
			default:
				wk.c.dirtyCAS = true
			}
		}
	}
}
