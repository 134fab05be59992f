package engine

// MODULE HELP (module.c moduleCommand). redscope loads no modules — the BF.* commands are built
// in (cmd_bloom.go) — so LIST, LOAD, LOADEX and UNLOAD answer "does not simulate"
// (command_docs.go notSimulated).

func init() {
	register(&Command{Name: "module", Arity: -2, Since: V70, Sub: map[string]*Command{
		"help": {Name: "help", Arity: 2, Flags: FlagLoading | FlagStale, Fn: helpReply(moduleHelp)},
	}})
}

var moduleHelp = []string{
	"MODULE <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
	"LIST",
	"    Return a list of loaded modules.",
	"LOAD <path> [<arg> ...]",
	"    Load a module library from <path>, passing to it any optional arguments.",
	"LOADEX <path> [[CONFIG NAME VALUE] [CONFIG NAME VALUE]] [ARGS ...]",
	"    Load a module library from <path>, while passing it module configurations and optional arguments.",
	"UNLOAD <name>",
	"    Unload a module.",
	"HELP",
	"    Prints this help.",
}
