package engine

// MODULE HELP (module.c moduleCommand). redscope loads no modules — the BF.* commands are built
// in (cmd_bloom.go) — so LIST, LOAD, LOADEX and UNLOAD answer "does not simulate"
// (command_docs.go notSimulated).

func init() {
	register(&Command{Name: "module", Arity: -2, Since: V70, Sub: map[string]*Command{
		"help": {Name: "help", Arity: 2, Flags: FlagLoading | FlagStale, Fn: helpReply(moduleHelp)},
	}})
}

var moduleHelp = helpLines("MODULE")
