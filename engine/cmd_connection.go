package engine

// Connection-level commands: PING, ECHO, SELECT.

func init() {
	register(
		&Command{Name: "ping", Arity: -1, Flags: FlagFast, Cats: "connection", Tips: "request_policy:all_shards response_policy:all_succeeded", Fn: cmdPing},
		&Command{Name: "echo", Arity: 2, Flags: FlagFast | FlagLoading | FlagStale, Cats: "connection", Fn: cmdEcho},
		&Command{Name: "select", Arity: 2, Flags: FlagFast | FlagLoading | FlagStale, Cats: "connection", Fn: cmdSelect},
	)
}

func cmdPing(e *Engine, args [][]byte) Reply {
	switch len(args) {
	case 1:
		return Status("PONG")
	case 2:
		return Bulk(args[1])
	}
	return errArity("ping")
}

func cmdEcho(e *Engine, args [][]byte) Reply { return Bulk(args[1]) }

func cmdSelect(e *Engine, args [][]byte) Reply {
	n, bad := getIntArg(args[1], "") // getIntFromObjectOrReply: its own range error
	if bad != nil {
		return *bad
	}
	if n < 0 || int(n) >= len(e.dbs) {
		return errDBIndex
	}
	e.db = e.dbs[n]
	return OK
}
