package engine

// MODULE HELP (module.c moduleCommand). redscope loads no modules — the BF.* commands are built
// in (cmd_bloom.go) — so LIST, LOAD, LOADEX and UNLOAD answer "does not simulate"
// (command_docs.go notSimulated).

func init() {
	register(&Command{Name: "module", Arity: -2, Since: V70, Sub: map[string]*Command{
		"help": {Name: "help", Arity: 2, Flags: FlagLoading | FlagStale, Fn: helpReply(moduleHelp)},
	}})
	addDocs(map[string]Doc{
		"module":      {Syntax: "MODULE", En: "Lists, loads and unloads server modules (redscope loads none: only HELP is simulated).", Vi: "Liệt kê, nạp và gỡ module của server (redscope không nạp module nào: chỉ mô phỏng HELP)."},
		"module|help": {Syntax: "MODULE HELP", En: "Lists MODULE's subcommands.", Vi: "Liệt kê các lệnh con của MODULE."},
	})
}

var moduleHelp = helpLines("MODULE")
