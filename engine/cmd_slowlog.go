package engine

// SLOWLOG GET / LEN / RESET / HELP (slowlog.c slowlogCommand); the log itself: slowlog.go.

func init() {
	const f = FlagAdmin | FlagLoading | FlagStale
	register(&Command{Name: "slowlog", Arity: -2, Since: V70, Sub: map[string]*Command{
		"get":   {Name: "get", Arity: -2, Flags: f, Tips: "request_policy:all_nodes nondeterministic_output", Fn: cmdSlowlogGet},
		"len":   {Name: "len", Arity: 2, Flags: f, Tips: "request_policy:all_nodes response_policy:agg_sum nondeterministic_output", Fn: cmdSlowlogLen},
		"reset": {Name: "reset", Arity: 2, Flags: f, Tips: "request_policy:all_nodes response_policy:all_succeeded", Fn: cmdSlowlogReset},
		"help":  {Name: "help", Arity: 2, Flags: FlagLoading | FlagStale, Fn: helpReply(slowlogHelp)},
	}})
}

var slowlogHelp = helpLines("SLOWLOG")

func cmdSlowlogGet(e *Engine, args [][]byte) Reply {
	if len(args) > 3 {
		return errSubcommandSyntax("SLOWLOG", args[1])
	}
	s := &e.slow
	count := int64(10)
	if len(args) == 3 {
		n, ok := parseInt(args[2])
		if !ok || n < -1 {
			return Err("ERR count should be greater than or equal to -1")
		}
		count = n
		if n == -1 {
			count = int64(len(s.entries))
		}
	}
	if count > int64(len(s.entries)) {
		count = int64(len(s.entries))
	}
	out := make([]Reply, count)
	for i := range out {
		se := s.entries[i]
		argv := make([]Reply, len(se.args))
		for j, a := range se.args {
			argv[j] = Bulk(a)
		}
		out[i] = Reply{Kind: KindArray, Array: []Reply{
			Int(se.id), Int(se.time), Int(se.duration), {Kind: KindArray, Array: argv},
			BulkStr(se.peer), BulkStr(se.name),
		}}
	}
	return Reply{Kind: KindArray, Array: out}
}

func cmdSlowlogLen(e *Engine, args [][]byte) Reply { return Int(int64(len(e.slow.entries))) }

func cmdSlowlogReset(e *Engine, args [][]byte) Reply {
	e.slow.entries = nil
	return OK
}
