package engine

import (
	"sort"
	"strings"
)

// cmdFunc runs a command whose name and arity were already checked. args[0] is the name as sent.
type cmdFunc func(e *Engine, args [][]byte) Reply

// Command flags (a subset of Redis's, enough for COMMAND and for read/write decisions).
const (
	FlagWrite = 1 << iota
	FlagReadonly
	FlagDenyOOM
	FlagAdmin
	FlagFast
	FlagLoading
	FlagStale
	FlagNoScript
	FlagSkipSlowlog
	FlagAllowBusy
)

// Command describes one command of the table.
type Command struct {
	Name     string // lowercase, e.g. "get", or "get" under a container such as "config"
	Arity    int    // Redis arity: n exact, -n at least n (counting the name)
	Flags    int
	Since    Version // first profile that has it
	FirstKey int
	LastKey  int
	Step     int
	Fn       cmdFunc
	Sub      map[string]*Command // container commands (CONFIG, OBJECT, MEMORY, …)
	parent   *Command
}

// FullName is "config|get" for a subcommand, "get" otherwise.
func (c *Command) FullName() string {
	if c.parent != nil {
		return c.parent.Name + "|" + c.Name
	}
	return c.Name
}

var commandTable = map[string]*Command{}

// register adds commands to the table; cmd_*.go files call it from init.
func register(cmds ...*Command) {
	for _, c := range cmds {
		if c.Since == 0 {
			c.Since = V70
		}
		for _, s := range c.Sub {
			s.parent = c
			if s.Since == 0 {
				s.Since = c.Since
			}
		}
		if _, dup := commandTable[c.Name]; dup {
			panic("duplicate command " + c.Name)
		}
		commandTable[c.Name] = c
	}
}

// lookupCommand finds a command by name as sent (any case).
func lookupCommand(name []byte) *Command {
	var buf [32]byte
	if len(name) > len(buf) {
		return commandTable[strings.ToLower(string(name))]
	}
	for i, c := range name {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	return commandTable[string(buf[:len(name)])]
}

// Commands lists the commands the engine's profile has, sorted by name.
func (e *Engine) Commands() []*Command {
	var out []*Command
	for _, c := range commandTable {
		if e.ver.Has(c.Since) {
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// HasCommand reports whether the profile knows the command name.
func (e *Engine) HasCommand(name string) bool {
	c := lookupCommand([]byte(name))
	return c != nil && e.ver.Has(c.Since)
}

func arityOK(arity, n int) bool {
	return (arity > 0 && n == arity) || (arity < 0 && n >= -arity)
}

func (e *Engine) dispatch(args [][]byte) Reply {
	if len(args) == 0 {
		return NilReply // Redis ignores empty commands; nothing to answer
	}
	c := lookupCommand(args[0])
	if c == nil || !e.ver.Has(c.Since) {
		return e.unknownCommand(args) // command_docs.go: Redis's error, or "not simulated yet"
	}
	if c.Sub != nil && len(args) >= 2 {
		sub := c.Sub[strings.ToLower(string(args[1]))]
		if sub == nil || !e.ver.Has(sub.Since) {
			return e.unknownSubcommand(c, args)
		}
		if !arityOK(sub.Arity, len(args)) {
			return errArity(sub.FullName())
		}
		c = sub
	} else if !arityOK(c.Arity, len(args)) {
		return errArity(c.Name)
	}
	if e.cluster != nil { // MOVED, ASK, CROSSSLOT… (cluster.go)
		if r, stop := e.clusterBefore(c, args); stop {
			return r
		}
		defer e.clusterAfter(c, false)
	}
	return c.Fn(e, args)
}

// errUnknownCommand is Redis's text: the name as sent, then up to 128 bytes of arguments.
func errUnknownCommand(args [][]byte) Reply {
	var b strings.Builder
	for i := 1; i < len(args) && b.Len() < 128; i++ {
		a := args[i]
		if room := 128 - b.Len(); len(a) > room {
			a = a[:room]
		}
		b.WriteByte('\'')
		b.Write(a)
		b.WriteString("' ")
	}
	name := args[0]
	if len(name) > 128 {
		name = name[:128]
	}
	return Err(cleanErr("ERR unknown command '" + string(name) + "', with args beginning with: " + b.String()))
}

func errUnknownSubcommand(c *Command, sub []byte) Reply {
	s := sub
	if len(s) > 128 {
		s = s[:128]
	}
	return Err(cleanErr("ERR unknown subcommand '" + string(s) + "'. Try " + strings.ToUpper(c.Name) + " HELP."))
}

func errArity(fullname string) Reply {
	return Err("ERR wrong number of arguments for '" + fullname + "' command")
}

// cleanErr replaces CR and LF, which cannot appear in a RESP error line, with spaces.
func cleanErr(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\r' || r == '\n' {
			return ' '
		}
		return r
	}, s)
}
