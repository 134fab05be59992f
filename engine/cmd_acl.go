package engine

import (
	"fmt"
	"strings"
)

// ACL's subcommands (acl.c aclCommand) over the user table of acl.go. Arity, flags and
// categories are 7.0.15's command table's. ACL WHOAMI names the user SetCurrent chose (the RESP
// server sets each connection's; the browser console is always "default").

func init() {
	const f = FlagNoScript | FlagLoading | FlagStale
	sub := func(name string, arity, flags int, fn cmdFunc) *Command {
		return &Command{Name: name, Arity: arity, Flags: flags, Fn: fn}
	}
	register(&Command{Name: "acl", Arity: -2, Sub: map[string]*Command{
		"cat":     sub("cat", -2, f, cmdACLCat),
		"dryrun":  sub("dryrun", -4, FlagAdmin|f, cmdACLDryRun),
		"genpass": sub("genpass", -2, f, cmdACLGenPass),
		"load":    sub("load", 2, FlagAdmin|f, cmdACLNoFile),
		"log":     sub("log", -2, FlagAdmin|f, cmdACLLog),
		"save":    sub("save", 2, FlagAdmin|f, cmdACLNoFile),
		"deluser": sub("deluser", -3, FlagAdmin|f, cmdACLDelUser),
		"getuser": sub("getuser", 3, FlagAdmin|f, cmdACLGetUser),
		"help":    sub("help", 2, FlagLoading|FlagStale, helpReply(aclHelp)),
		"list":    sub("list", 2, FlagAdmin|f, cmdACLList),
		"setuser": sub("setuser", -3, FlagAdmin|f, cmdACLSetUser),
		"users":   sub("users", 2, FlagAdmin|f, cmdACLUsers),
		"whoami":  sub("whoami", 2, f, func(e *Engine, args [][]byte) Reply { return BulkStr(e.ACL().current.Name) }),
	}})
}

var aclHelp = helpLines("ACL")

// ACL CAT [category]: the 21 categories, or the commands of one (Redis answers in its hash
// tables' order, here in name order).
func cmdACLCat(e *Engine, args [][]byte) Reply {
	switch len(args) {
	case 2:
		return bulkList(aclCategories)
	case 3:
		cat := strings.ToLower(string(args[2]))
		if !validCategory(cat) {
			s := string(args[2])
			if len(s) > 128 {
				s = s[:128]
			}
			return Err(cleanErr("ERR Unknown category '" + s + "'"))
		}
		var out []string
		for _, c := range e.ACL().aclCommands() {
			if c.cats[cat] {
				out = append(out, c.name)
			}
		}
		return bulkList(out)
	}
	return errACLSub(args)
}

func errACLSub(args [][]byte) Reply {
	return Err(cleanErr("ERR unknown subcommand or wrong number of arguments for '" + string(args[1]) + "'. Try ACL HELP."))
}

// ACL SETUSER name rule...: the name may hold no space or NUL (ACLStringHasSpaces).
func cmdACLSetUser(e *Engine, args [][]byte) Reply {
	name := string(args[2])
	if strings.ContainsAny(name, " \x00") {
		return Err("ERR Usernames can't contain spaces or null characters")
	}
	rules := make([]string, 0, len(args)-3)
	for _, a := range args[3:] {
		rules = append(rules, string(a))
	}
	if msg := e.ACL().SetUser(name, rules); msg != "" {
		return Err(cleanErr("ERR " + msg))
	}
	return OK
}

// ACL DELUSER name...: refused whole when one is "default"; the others are removed (their
// connections closed by the server) and counted.
func cmdACLDelUser(e *Engine, args [][]byte) Reply {
	for _, a := range args[2:] {
		if string(a) == "default" {
			return Err("ERR The 'default' user cannot be removed")
		}
	}
	a := e.ACL()
	n := 0
	for _, x := range args[2:] {
		if u := a.users[string(x)]; u != nil {
			u.deleted = true
			delete(a.users, string(x))
			n++
		}
	}
	return Int(int64(n))
}

func cmdACLUsers(e *Engine, args [][]byte) Reply { return bulkList(e.ACL().names()) }

func cmdACLList(e *Engine, args [][]byte) Reply {
	a := e.ACL()
	var out []string
	for _, n := range a.names() {
		out = append(out, "user "+n+" "+a.describe(a.users[n]))
	}
	return bulkList(out)
}

// ACL GETUSER name: flags, passwords, then the root selector's commands, keys and channels, and
// an empty selectors list.
func cmdACLGetUser(e *Engine, args [][]byte) Reply {
	a := e.ACL()
	u := a.users[string(args[2])]
	if u == nil {
		return NilReply
	}
	keys := "~*"
	if !u.allKeys {
		keys = strings.Join(u.keyPatterns(), " ")
	}
	chans := "&*"
	if !u.allChans {
		var cs []string
		for _, c := range u.chans {
			cs = append(cs, "&"+c)
		}
		chans = strings.Join(cs, " ")
	}
	return Array(
		BulkStr("flags"), bulkList(u.flagNames()),
		BulkStr("passwords"), bulkList(u.passwords),
		BulkStr("commands"), BulkStr(a.describeCommands(u)),
		BulkStr("keys"), BulkStr(keys),
		BulkStr("channels"), BulkStr(chans),
		BulkStr("selectors"), EmptyArr,
	)
}

// ACL LOAD and SAVE: the server runs without an ACL file (aclfile is empty and immutable).
func cmdACLNoFile(e *Engine, args [][]byte) Reply {
	return Err("ERR This Redis instance is not configured to use an ACL file. You may want to specify users via the ACL SETUSER command and then issue a CONFIG REWRITE (assuming you have a Redis configuration file set) in order to store users in the Redis configuration.")
}

// ACL GENPASS [bits]: (bits+3)/4 hex digits from the engine's seeded generator (Redis reads
// /dev/urandom).
func cmdACLGenPass(e *Engine, args [][]byte) Reply {
	bits := int64(256)
	switch len(args) {
	case 2:
	case 3:
		n, ok := string2ll(args[2])
		if !ok {
			return ErrNotInt
		}
		bits = n
	default:
		return errACLSub(args)
	}
	if bits <= 0 || bits > 4096 {
		return Err("ERR ACL GENPASS argument must be the number of bits for the output password, a positive number up to 4096")
	}
	const hexd = "0123456789abcdef"
	b := make([]byte, (bits+3)/4)
	for i := range b {
		b[i] = hexd[e.rng.IntN(16)]
	}
	return Bulk(b)
}

// ACL LOG [count|RESET]: the log of refused commands and logins is not kept (docs/config.md):
// the list is always empty.
func cmdACLLog(e *Engine, args [][]byte) Reply {
	switch len(args) {
	case 2:
		return EmptyArr
	case 3:
		if eqFold(args[2], "reset") {
			return OK
		}
		if _, ok := string2ll(args[2]); !ok {
			return ErrNotInt
		}
		return EmptyArr
	}
	return errACLSub(args)
}

// ACL DRYRUN user command [arg ...]: the ACL check alone; a refusal is a bulk string (7.0's
// text, getAclErrorMessage's verbose one on 7.2+).
func cmdACLDryRun(e *Engine, args [][]byte) Reply {
	a := e.ACL()
	u := a.users[string(args[2])]
	if u == nil {
		return Err(cleanErr("ERR User '" + string(args[2]) + "' not found"))
	}
	cargs := args[3:]
	c := e.LookupCommand(cargs)
	if c == nil {
		return Err(cleanErr("ERR Command '" + string(args[3]) + "' not found"))
	}
	if !arityOK(c.ArityIn(e.ver), len(cargs)) {
		return Err("ERR wrong number of arguments for '" + c.FullName() + "' command")
	}
	cmd, key, ok := a.permit(u, cargs)
	if ok {
		return OK
	}
	who := "This user"
	if e.ver.Has(V72) {
		who = "User " + u.Name
	}
	if cmd != "" {
		return BulkStr(fmt.Sprintf("%s has no permissions to run the '%s' command", who, cmd))
	}
	return BulkStr(fmt.Sprintf("%s has no permissions to access the '%s' key", who, key))
}
