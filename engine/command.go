package engine

import (
	"slices"
	"sort"
	"strings"
)

// cmdFunc runs a command whose name and arity were already checked. args[0] is the name as sent.
type cmdFunc func(e *Engine, args [][]byte) Reply

// Command flags: Redis's command flags (server.h CMD_*) that the engine's commands carry, as
// COMMAND INFO prints them. The rest of the project asks them: FlagDenyOOM is "may grow the
// dataset" (Redis refuses these under maxmemory), FlagWrite and FlagReadonly say whether a
// command changes keys.
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
	FlagBlocking        // may block the client (BLPOP, XREAD …)
	FlagSkipMonitor     // not shown to MONITOR (EVAL, FCALL)
	FlagNoMandatoryKeys // may name no key at all (EVAL with numkeys 0)
	FlagNoAsyncLoading  // refused while a replica loads (CLUSTER ADDSLOTS …)
	FlagMovableKeys     // keys found by a count or a keyword (set by register from KeyNum / KeysFn)
	FlagNoMulti         // refused inside MULTI (SAVE; multi.go's noMulti refuses it)
	FlagMayReplicate    // may propagate without being a write (EVAL, EVALSHA, FCALL, PFCOUNT); COMMAND INFO hides it, as Redis does
)

// Command describes one command of the table: the one place where the engine says what a command
// is (Redis's commands.def). COMMAND, COMMAND INFO / DOCS / GETKEYS, the cluster's slot routing,
// the visualizer's key picking and the browser app's limits all read it.
//
// Keys: FirstKey/LastKey/Step are the legacy range of COMMAND INFO (LastKey -1: up to the last
// argument, -2: all but the last). register gives a command with FlagWrite or FlagReadonly the
// single-key range 1, 1, 1 unless it sets other positions, is Keyless (FLUSHALL, SCAN …) or has
// movable keys (KeyNum, KeysFn). CommandKeys and COMMAND GETKEYS find the keys from them.
type Command struct {
	Name  string // lowercase, e.g. "get", or "get" under a container such as "config"
	Arity int    // Redis arity: n exact, -n at least n (counting the name)
	Flags int
	Since Version // first profile that has it
	// OldArity is the arity of the profiles before OldArity.Until, when a later Redis changed it
	// (ZRANK's WITHSCORE, 7.2: 3 before, -3 since). Zero: none.
	OldArity struct {
		Until Version
		Arity int
	}
	FirstKey int
	LastKey  int
	Step     int
	// Keyless: a reading or writing command that names no key (FLUSHALL, DBSIZE, SCAN …).
	Keyless bool
	// KeyNum: keys counted by an argument (LMPOP numkeys key…, EVAL script numkeys key…).
	KeyNum KeyNum
	// KeysFn finds keys by keyword (SORT … STORE dst, MIGRATE … KEYS k…, XREAD … STREAMS k… id…):
	// the keys' argument indexes and flags, or nil when the arguments name none.
	KeysFn func(args [][]byte) []KeyRef
	// KeyFlagsFn gives the flags of a key spec Redis marks variable_flags for one call (SET: "OW
	// update", or "RW access update" with GET).
	KeyFlagsFn func(args [][]byte) string
	// Cats are the ACL categories COMMAND INFO lists beyond those the flags imply (Redis's
	// setImplicitACLCategories: @write, @read, @admin, @dangerous, @fast/@slow, @blocking),
	// space-separated without "@", e.g. "keyspace" or "set sortedset list dangerous".
	Cats string
	// scripting: the command or one of its subcommands is in the scripting category (NeedsLua)
	scripting bool
	// Tips are COMMAND INFO's command tips, space-separated ("nondeterministic_output" …).
	Tips string
	// KeyFlags are the flags of COMMAND INFO's key specs, one entry per spec (RENAME: "RW access
	// delete", "OW update"); empty: one spec, "RW update" for a write command, "RO access" else.
	KeyFlags []string
	// KeyNotes are the specs' "notes", where Redis gives one (SET: why RW and ACCESS).
	KeyNotes []string
	// KeyExtra are the key specs COMMAND INFO lists after the range and KeyNum ones, for the
	// commands whose keys a KeysFn finds: a keyword search (XREAD … STREAMS, MIGRATE … KEYS) or
	// an "unknown" spec (SORT's BY/GET patterns and STORE).
	KeyExtra []KeySpec
	// Cost, when set, tells what a call asks of the engine beyond its arguments when that
	// depends on them and on the data (Engine.CommandCost). e is nil when only the arguments
	// are known (ArgsCost): the estimate is then what they alone say.
	Cost func(e *Engine, args [][]byte) Cost
	// Paged: the command may name a string of any length, because it reads or writes it a few
	// bytes or a page at a time, or not at all (SETBIT, BITCOUNT, DEL, EXPIRE …): the zero pages
	// of a long string kept sparse (sds.DenseLimit) cost it nothing. Other commands read a string
	// key whole (Cost.CopyBytes).
	Paged  bool
	Fn     cmdFunc
	Sub    map[string]*Command // container commands (CONFIG, OBJECT, MEMORY, …)
	parent *Command
}

// KeyNum is a "keynum" key spec: the number of keys is args[NumIdx], the first key is at
// NumIdx+First and the next ones every Step (LMPOP: 1, 1, 1; EVAL: 2, 1, 1; MSETEX: 1, 1, 2).
// NumIdx 0: none.
type KeyNum struct{ NumIdx, First, Step int }

// KeySpec is a key spec of KeyExtra: begin_search by Keyword, searched from StartFrom (negative:
// from the end), then find_keys as a range (LastKey, Step, Limit); without Keyword, both are
// "unknown".
type KeySpec struct {
	Flags, Notes         string
	Keyword              string
	StartFrom            int
	LastKey, Step, Limit int
}

// ArityIn is the command's arity in profile v (COMMAND INFO's, and COMMAND GETKEYS's check).
func (c *Command) ArityIn(v Version) int {
	if c.OldArity.Until != 0 && !v.Has(c.OldArity.Until) {
		return c.OldArity.Arity
	}
	return c.Arity
}

// MayGrow reports whether the command may grow the dataset (Redis's denyoom flag).
func (c *Command) MayGrow() bool { return c.Flags&FlagDenyOOM != 0 }

// Writes reports whether the command may change keys (the write flag).
func (c *Command) Writes() bool { return c.Flags&FlagWrite != 0 }

// FullName is "config|get" for a subcommand, "get" otherwise.
func (c *Command) FullName() string {
	if c.parent != nil {
		return c.parent.Name + "|" + c.Name
	}
	return c.Name
}

var commandTable = map[string]*Command{}

// scriptingInitial: the first bytes (either case) of the commands NeedsLua answers true for, so
// that most commands are answered without a table lookup.
var scriptingInitial [256]bool

// register adds commands to the table; cmd_*.go files call it from init. It completes each entry
// as Redis's populateCommandStructure does: the default single-key range, the movablekeys flag.
func register(cmds ...*Command) {
	for _, c := range cmds {
		if c.Since == 0 {
			c.Since = V70
		}
		defaultKeys(c)
		c.scripting = slices.Contains(strings.Fields(c.Cats), "scripting")
		for _, s := range c.Sub {
			s.parent = c
			if s.Since == 0 {
				s.Since = c.Since
			}
			defaultKeys(s)
			// SCRIPT, FUNCTION: the container has no category, its subcommands do (NeedsLua)
			c.scripting = c.scripting || slices.Contains(strings.Fields(s.Cats), "scripting")
		}
		if c.scripting { // (NeedsLua's first test)
			b := c.Name[0]
			scriptingInitial[b] = true
			if 'a' <= b && b <= 'z' {
				scriptingInitial[b-'a'+'A'] = true
			}
		}
		if _, dup := commandTable[c.Name]; dup {
			panic("duplicate command " + c.Name)
		}
		commandTable[c.Name] = c
	}
}

// defaultKeys gives a reading or writing command that says nothing about its keys the key at
// argument 1, and sets FlagMovableKeys for the commands whose keys are counted or searched.
func defaultKeys(c *Command) {
	if c.KeyNum.NumIdx > 0 || c.KeysFn != nil {
		c.Flags |= FlagMovableKeys
	}
	if c.FirstKey == 0 && !c.Keyless && c.Flags&FlagMovableKeys == 0 && c.Flags&(FlagWrite|FlagReadonly) != 0 {
		c.FirstKey, c.LastKey, c.Step = 1, 1, 1
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

// command is lookupCommand that first tries the command found last (a pipeline repeats one).
func (e *Engine) command(name []byte) *Command {
	c := e.lastCmd
	if c == nil || len(c.Name) != len(name) || !eqFold(name, c.Name) {
		c = lookupCommand(name)
		e.lastCmd = c
	}
	return c
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
	st := e.cfg.stats // INFO's counters (info.go)
	c := e.command(args[0])
	if c == nil || !e.ver.Has(c.Since) {
		return st.rejected("", e.unknownCommand(args)) // command_docs.go: Redis's error, or "not simulated yet"
	}
	if c.Sub != nil && len(args) >= 2 {
		sub := c.Sub[strings.ToLower(string(args[1]))]
		if sub == nil || !e.ver.Has(sub.Since) {
			return st.rejected("", e.unknownSubcommand(c, args))
		}
		if !arityOK(sub.Arity, len(args)) {
			return st.rejected(sub.FullName(), errArity(sub.FullName()))
		}
		c = sub
	} else if !arityOK(c.Arity, len(args)) {
		return st.rejected(c.Name, errArity(c.Name))
	}
	if e.cluster != nil { // MOVED, ASK, CROSSSLOT… (cluster.go)
		if r, stop := e.clusterBefore(c, args); stop {
			return st.rejected(c.FullName(), r)
		}
		defer e.clusterAfter(c, false)
	}
	e.countReads(c, args)
	b := e.blocker
	timer := e.startTimer()
	e.monitorBefore(c, args)
	r := c.Fn(e, args)
	e.monitorAfter(c, args) // (monitor.go)
	if e.tracker != nil && c.Flags&FlagReadonly != 0 {
		e.trackRead(c, args)
	}
	blocked := b != nil && b.blk != nil
	if !blocked { // a blocked command is logged when it is served again (slowlog.go)
		e.slowPush(c, args, e.elapsedUs(timer))
	}
	if blocked && e.ver.Has(V72) {
		return r // 7.2+ counts a command that blocked when it ends (blocking.go countUnblocked)
	}
	e.cfg.stats.called(c.FullName(), r) // (CONFIG RESETSTAT counts itself in the new counters)
	return r
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
