package engine

// The command table's entries of the scripting commands: EVAL, EVALSHA, EVAL_RO, EVALSHA_RO,
// SCRIPT, FCALL, FCALL_RO and FUNCTION, and their handlers that need no interpreter (HELP,
// SCRIPT DEBUG and KILL, FUNCTION KILL, DUMP and RESTORE). They are the same with or without the
// Lua interpreter, so that COMMAND, COMMAND INFO / DOCS / LIST, HELP and the arity errors do not
// depend on the build: the handlers that run Lua are in cmd_script.go and function.go, or in
// script_nolua.go for the build without Lua (-tags nolua), where they answer
// errNoLuaInterpreter.
//
// HasLua tells which build this is; NeedsLua whether a command is one of these.

import (
	"slices"
)

func init() {
	const f = FlagNoScript | FlagStale | FlagSkipMonitor | FlagNoMandatoryKeys
	ev := func(name string, flags int, fn cmdFunc) *Command {
		kf, note := scriptKeySpec(flags)
		return &Command{Name: name, Arity: -3, Flags: flags, Cats: "scripting", KeyNum: KeyNum{2, 1, 1}, KeyFlags: []string{kf}, KeyNotes: note, Fn: fn}
	}
	noNote := func(c *Command) *Command { c.KeyNotes = nil; return c }
	register(
		ev("eval", f|FlagMayReplicate, cmdEval),
		noNote(ev("evalsha", f|FlagMayReplicate, cmdEvalSHA)),
		ev("eval_ro", f|FlagReadonly, cmdEvalRO),
		noNote(ev("evalsha_ro", f|FlagReadonly, cmdEvalSHARO)),
		&Command{Name: "script", Arity: -2, Sub: map[string]*Command{
			"load":   {Name: "load", Arity: 3, Flags: FlagNoScript | FlagStale, Cats: "scripting", Tips: "request_policy:all_nodes response_policy:all_succeeded", Fn: cmdScriptLoad},
			"exists": {Name: "exists", Arity: -3, Flags: FlagNoScript, Cats: "scripting", Tips: "request_policy:all_shards response_policy:agg_logical_and", Fn: cmdScriptExists},
			"flush":  {Name: "flush", Arity: -2, Flags: FlagNoScript, Cats: "scripting", Tips: "request_policy:all_nodes response_policy:all_succeeded", Fn: cmdScriptFlush},
			"kill":   {Name: "kill", Arity: 2, Flags: FlagNoScript | FlagAllowBusy, Cats: "scripting", Tips: "request_policy:all_shards response_policy:one_succeeded", Fn: func(e *Engine, a [][]byte) Reply { return e.mon.Kill(true) }},
			"debug":  {Name: "debug", Arity: 3, Flags: FlagNoScript, Cats: "scripting", Fn: cmdScriptDebug},
			"help":   {Name: "help", Arity: 2, Flags: FlagLoading | FlagStale, Cats: "scripting", Fn: helpReply(scriptHelp)},
		}},
	)

	sub := func(name string, arity, flags int, tips string, fn cmdFunc) *Command {
		return &Command{Name: name, Arity: arity, Flags: flags, Cats: "scripting", Tips: tips, Keyless: true, Fn: fn}
	}
	register(
		&Command{Name: "fcall", Arity: -3, Flags: FlagNoScript | FlagStale | FlagNoMandatoryKeys | FlagSkipMonitor | FlagMayReplicate, Cats: "scripting", KeyNum: KeyNum{2, 1, 1}, KeyFlags: []string{"RW access update"}, KeyNotes: []string{"We cannot tell how the keys will be used so we assume the worst, RW and UPDATE"}, Fn: cmdFcall},
		&Command{Name: "fcall_ro", Arity: -3, Flags: FlagNoScript | FlagStale | FlagReadonly | FlagNoMandatoryKeys | FlagSkipMonitor, Cats: "scripting", KeyNum: KeyNum{2, 1, 1}, KeyFlags: []string{"RO access"}, KeyNotes: []string{"We cannot tell how the keys will be used so we assume the worst, RO and ACCESS"}, Fn: cmdFcallRO},
		&Command{Name: "function", Arity: -2, Sub: map[string]*Command{
			"load":    sub("load", -3, FlagWrite|FlagDenyOOM|FlagNoScript, "request_policy:all_shards response_policy:all_succeeded", cmdFunctionLoad),
			"delete":  sub("delete", 3, FlagWrite|FlagNoScript, "request_policy:all_shards response_policy:all_succeeded", cmdFunctionDelete),
			"flush":   sub("flush", -2, FlagWrite|FlagNoScript, "request_policy:all_shards response_policy:all_succeeded", cmdFunctionFlush),
			"list":    sub("list", -2, FlagNoScript, "nondeterministic_output_order", cmdFunctionList),
			"stats":   sub("stats", 2, FlagNoScript|FlagAllowBusy, "nondeterministic_output request_policy:all_shards response_policy:special", cmdFunctionStats),
			"kill":    sub("kill", 2, FlagNoScript|FlagAllowBusy, "request_policy:all_shards response_policy:one_succeeded", func(e *Engine, a [][]byte) Reply { return e.mon.Kill(false) }),
			"dump":    sub("dump", 2, FlagNoScript, "", cmdFunctionNoPayload),
			"restore": sub("restore", -3, FlagWrite|FlagDenyOOM|FlagNoScript, "request_policy:all_shards response_policy:all_succeeded", cmdFunctionNoPayload),
			"help": sub("help", 2, FlagLoading|FlagStale, "", func(e *Engine, a [][]byte) Reply {
				if e.ver.Has(V74) { // 7.4 dropped the "Library description" line
					return helpReply(slices.DeleteFunc(slices.Clone(functionHelp), func(l string) bool { return l == "    * Library description" }))(e, a)
				}
				return helpReply(functionHelp)(e, a)
			}),
		}},
	)
}

// scriptKeySpec is the key spec of EVAL, FCALL and their _RO forms: the keys' use is unknown, so
// the worst is assumed (EVALSHA and EVALSHA_RO give no note).
func scriptKeySpec(flags int) (string, []string) {
	if flags&FlagReadonly != 0 {
		return "RO access", []string{"We cannot tell how the keys will be used so we assume the worst, RO and ACCESS"}
	}
	return "RW access update", []string{"We cannot tell how the keys will be used so we assume the worst, RW and UPDATE"}
}

var (
	scriptHelp   = helpLines("SCRIPT")
	functionHelp = helpLines("FUNCTION")
)

// cmdScriptDebug: the Lua debugger needs a forked server and an interactive client; redscope
// accepts NO (the default) and refuses YES and SYNC.
func cmdScriptDebug(e *Engine, args [][]byte) Reply {
	switch {
	case eqFold(args[2], "no"):
		return OK
	case eqFold(args[2], "yes"), eqFold(args[2], "sync"):
		return Err("ERR redscope does not have the Lua debugger (SCRIPT DEBUG YES|SYNC)")
	}
	return Err("ERR Use SCRIPT DEBUG YES/SYNC/NO")
}

func cmdFunctionNoPayload(e *Engine, args [][]byte) Reply {
	return Err("ERR redscope does not serialize function libraries (FUNCTION DUMP / RESTORE)")
}

// NeedsLua reports whether args (a command as sent: its name, then its arguments) is one of the
// scripting commands, those of the command table's category "scripting" (EVAL, EVALSHA,
// EVAL_RO, EVALSHA_RO, FCALL, FCALL_RO, SCRIPT …, FUNCTION …), whatever its arguments; the name
// is matched ignoring case. Its answer is the same in every build: the browser app asks it
// before running a command, and when HasLua is false hands a scripting command over to the build
// with the interpreter.
func NeedsLua(args [][]byte) bool {
	if len(args) == 0 || len(args[0]) == 0 || !scriptingInitial[args[0][0]] {
		return false
	}
	c := lookupCommand(args[0])
	return c != nil && c.scripting
}

// HasLua reports whether this build has the Lua interpreter: false in the build made with
// -tags nolua (the browser's first load), whose scripting commands answer errNoLuaInterpreter.
const HasLua = hasLua
