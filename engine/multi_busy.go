package engine

// Transactions while a script is busy (processCommand of Redis 7.4.1's server.c, from its
// isInsideYieldingLongCommand test on, and rejectCommand / execCommandAbort / flagTransaction).
//
// Once a script has run past busy-reply-threshold, Redis serves the other clients again between
// the script's hook calls: a command not flagged allow-busy is refused with BUSY, and like every
// refused command it flags an open transaction (EXEC then answers EXECABORT … previous errors);
// a refused EXEC discards the transaction and answers "EXECABORT Transaction discarded because
// of: BUSY …". MULTI, DISCARD and WATCH are allow-busy and run; inside MULTI the other
// allow-busy commands (UNWATCH, AUTH, HELLO) are queued as usual. Before the BUSY test come the
// existence and arity checks and the refusal of a command not allowed in MULTI, each of which
// flags the transaction too.
//
// redscope's script holds the engine lock for as long as it runs, so the RESP server answers
// these without it through BusyTx. BusyTx touches only the client's own transaction fields
// (multi, dirtyTx, queue), never the engine's WATCH table nor dirtyCAS, which the script's
// writes change: a transaction it ends leaves its watched keys to settleBusy, the client's next
// command under the lock. What needs the keyspace or the WATCH table (WATCH and UNWATCH outside
// MULTI, QUIT, RESET) is not answered here: the caller waits for the script.

// BusyTx answers args for c while a script holds the engine past busy-reply-threshold; busy is
// the BUSY error of the running script. It reports false for a command it leaves to the caller
// (which waits for the lock): an allow-busy command that needs the engine. Safe to call without
// the engine lock from the client's own goroutine.
func (c *Client) BusyTx(args [][]byte, busy Reply) (Reply, bool) {
	if len(args) == 0 || c.blk != nil || !c.e.ver.Has(V70) {
		return Reply{}, false
	}
	kind := txKind(args[0])
	switch kind {
	case txMulti, txDiscard, txWatch:
		if kind == txWatch && !c.multi && len(args) >= 2 {
			return Reply{}, false // watchCommand reads the keyspace
		}
		return c.txReply(kind, args, c.busyDiscard), true
	case txExec:
		if len(args) != 1 {
			c.busyDiscard()
			return errExecArity, true
		}
		c.busyDiscard()
		return Err("EXECABORT Transaction discarded because of: " + busy.Str), true
	}
	if arity, ok := noMulti[lowerASCII(args[0])]; ok && c.multi && len(args[0]) <= 8 {
		c.dirtyTx = true
		if !arityOK(arity, len(args)) {
			return errArity(lowerASCII(args[0])), true
		}
		return Err("ERR Command not allowed inside a transaction"), true
	}
	if r, ok := c.check(args); !ok {
		c.dirtyTx = c.dirtyTx || c.multi
		return r, true
	}
	if busyAllowed(args[0]) {
		if !c.multi || kind == txNone && (eqFold(args[0], "quit") || eqFold(args[0], "reset")) {
			return Reply{}, false
		}
		// queued as processCommand queues every command but EXEC, DISCARD, MULTI, WATCH, QUIT
		// and RESET (dirtyCAS is not read here: EXEC tests it before running the queue)
		c.queue = append(c.queue, CopyArgs(args))
		return Status("QUEUED"), true
	}
	c.dirtyTx = c.dirtyTx || c.multi
	return busy, true
}

// busyDiscard is discard without the WATCH table: the keys are released by settleBusy.
func (c *Client) busyDiscard() {
	c.multi, c.dirtyTx = false, false
	c.queue = nil
	c.unwatchLater = true
}

// settleBusy finishes, under the lock, what a transaction ended by BusyTx left: its watched
// keys and its dirtyCAS flag.
func (c *Client) settleBusy() {
	if c.unwatchLater {
		c.unwatchLater = false
		c.dirtyCAS = false
		c.unwatchAll()
	}
}

// busyAllowed: the commands 7.4.1 flags allow-busy besides MULTI, EXEC, DISCARD and WATCH
// (SCRIPT KILL, FUNCTION KILL and FUNCTION STATS are answered by the RESP server itself).
func busyAllowed(name []byte) bool {
	for _, n := range [...]string{"unwatch", "auth", "hello", "quit", "reset", "shutdown", "replconf"} {
		if eqFold(name, n) {
			return true
		}
	}
	return false
}
