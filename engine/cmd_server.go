package engine

import (
	_ "embed"
	"fmt"
	"math"
	"sort"
	"strings"

	"redscope/engine/sds"
)

// Server commands: OBJECT, MEMORY, CONFIG, COMMAND, DEBUG, TIME — as Redis 7.0.15 answers them.

func init() {
	register(
		&Command{Name: "object", Arity: -2, Sub: map[string]*Command{
			"encoding": {Name: "encoding", Arity: 3, Flags: FlagReadonly, FirstKey: 2, LastKey: 2, Step: 1, Cats: "keyspace", Tips: "nondeterministic_output", KeyFlags: []string{"RO"}, Paged: true, Fn: cmdObject},
			"refcount": {Name: "refcount", Arity: 3, Flags: FlagReadonly, FirstKey: 2, LastKey: 2, Step: 1, Cats: "keyspace", Tips: "nondeterministic_output", KeyFlags: []string{"RO"}, Paged: true, Fn: cmdObject},
			"idletime": {Name: "idletime", Arity: 3, Flags: FlagReadonly, FirstKey: 2, LastKey: 2, Step: 1, Cats: "keyspace", Tips: "nondeterministic_output", KeyFlags: []string{"RO"}, Paged: true, Fn: cmdObject},
			"freq":     {Name: "freq", Arity: 3, Flags: FlagReadonly, FirstKey: 2, LastKey: 2, Step: 1, Cats: "keyspace", Tips: "nondeterministic_output", KeyFlags: []string{"RO"}, Paged: true, Fn: cmdObject},
			"help":     {Name: "help", Arity: 2, Flags: FlagLoading | FlagStale, Cats: "keyspace", Fn: helpReply(objectHelp)},
		}},
		&Command{Name: "memory", Arity: -2, Sub: map[string]*Command{
			"usage":        {Name: "usage", Arity: -3, Flags: FlagReadonly, FirstKey: 2, LastKey: 2, Step: 1, KeyFlags: []string{"RO"}, Paged: true, Fn: cmdMemoryUsage},
			"purge":        {Name: "purge", Arity: 2, Tips: "request_policy:all_shards response_policy:all_succeeded", Fn: func(e *Engine, args [][]byte) Reply { return OK }},
			"help":         {Name: "help", Arity: 2, Flags: FlagLoading | FlagStale, Fn: helpReply(memoryHelp)},
			"malloc-stats": {Name: "malloc-stats", Arity: 2, Tips: "nondeterministic_output request_policy:all_shards response_policy:special", Fn: cmdMemoryMallocStats},
		}},
		&Command{Name: "config", Arity: -2, Sub: map[string]*Command{
			"get":       {Name: "get", Arity: -3, Flags: FlagAdmin | FlagNoScript | FlagLoading | FlagStale, Fn: cmdConfigGet},
			"set":       {Name: "set", Arity: -4, Flags: FlagAdmin | FlagNoScript | FlagLoading | FlagStale, Tips: "request_policy:all_nodes response_policy:all_succeeded", Fn: cmdConfigSet},
			"resetstat": {Name: "resetstat", Arity: 2, Flags: FlagAdmin | FlagNoScript | FlagLoading | FlagStale, Fn: cmdConfigResetStat},
			"rewrite": {Name: "rewrite", Arity: 2, Flags: FlagAdmin | FlagNoScript | FlagLoading | FlagStale, Fn: func(e *Engine, args [][]byte) Reply {
				return Err("ERR The server is running without a config file")
			}},
			"help": {Name: "help", Arity: 2, Flags: FlagLoading | FlagStale, Fn: helpReply(configHelp)},
		}},
		&Command{Name: "command", Arity: -1, Flags: FlagLoading | FlagStale, Cats: "connection", Tips: "nondeterministic_output_order", Fn: cmdCommandAll, Sub: map[string]*Command{
			"count":           {Name: "count", Arity: 2, Flags: FlagLoading | FlagStale, Cats: "connection", Fn: cmdCommandCount},
			"list":            {Name: "list", Arity: -2, Flags: FlagLoading | FlagStale, Cats: "connection", Tips: "nondeterministic_output_order", Fn: cmdCommandList},
			"info":            {Name: "info", Arity: -2, Flags: FlagLoading | FlagStale, Cats: "connection", Tips: "nondeterministic_output_order", Fn: cmdCommandInfo},
			"docs":            {Name: "docs", Arity: -2, Flags: FlagLoading | FlagStale, Cats: "connection", Tips: "nondeterministic_output_order", Fn: cmdCommandDocs},
			"getkeysandflags": {Name: "getkeysandflags", Arity: -4, Flags: FlagLoading | FlagStale, Cats: "connection", Fn: cmdCommandGetKeys},
			"getkeys":         {Name: "getkeys", Arity: -4, Flags: FlagLoading | FlagStale, Cats: "connection", Fn: cmdCommandGetKeys},
			"help":            {Name: "help", Arity: 2, Flags: FlagLoading | FlagStale, Cats: "connection", Fn: helpReply(commandHelp)},
		}},
		&Command{Name: "debug", Arity: -2, Flags: FlagAdmin | FlagNoScript | FlagLoading | FlagStale, Fn: cmdDebug},
		&Command{Name: "info", Arity: -1, Flags: FlagLoading | FlagStale, Cats: "dangerous", Tips: "nondeterministic_output request_policy:all_shards response_policy:special", Keyless: true, Fn: cmdInfo},
		&Command{Name: "time", Arity: 1, Flags: FlagLoading | FlagStale | FlagFast, Tips: "nondeterministic_output", Fn: cmdTime},
	)
	registerDebug("sdslen", 3, debugSDSLen)
}

// helpText holds the help tables' lines (help.txt: data, one section per command).
//
//go:embed help.txt
var helpText string

// helpLines are the subcommand lines of name's HELP reply in help.txt.
func helpLines(name string) []string {
	_, rest, ok := strings.Cut(helpText, "\n== "+name+"\n")
	if !ok {
		panic("help.txt has no section " + name)
	}
	if i := strings.Index(rest, "\n== "); i >= 0 {
		rest = rest[:i]
	}
	return strings.Split(strings.TrimSuffix(rest, "\n"), "\n")
}

// helpReply is addReplyHelp for a command of the engine's (HelpReply with the command's name as
// sent).
func helpReply(lines []string) cmdFunc {
	return func(e *Engine, args [][]byte) Reply { return HelpReply(e.ver, string(args[0]), lines) }
}

// HelpLinesFor is the subcommand lines of command name's HELP (engine/help.txt's section) as
// Redis v lists them: a line marked "@X.Y " is listed from Redis X.Y on. The server's own
// container commands (CLIENT, PUBSUB) read their HELP here too.
func HelpLinesFor(name string, v Version) []string {
	var out []string
	for _, l := range helpLines(name) {
		if since, rest, ok := strings.Cut(l, " "); ok && strings.HasPrefix(since, "@") {
			if !v.Has(parseSince(since[1:])) {
				continue
			}
			l = rest
		}
		out = append(out, l)
	}
	return out
}

// HelpReply is addReplyHelp (networking.c): a heading naming the command (in capitals), the
// subcommand lines, then the HELP entry every container command ends with ("Print this help."
// since 7.2, "Prints" before).
func HelpReply(v Version, cmd string, lines []string) Reply {
	out := make([]Reply, 0, len(lines)+3)
	out = append(out, Status(strings.ToUpper(cmd)+" <subcommand> [<arg> [value] [opt] ...]. Subcommands are:"))
	for _, l := range lines {
		out = append(out, Status(l))
	}
	footer := "    Prints this help."
	if v.Has(V72) {
		footer = "    Print this help."
	}
	out = append(out, Status("HELP"), Status(footer))
	return Reply{Kind: KindArray, Array: out}
}

// ---- OBJECT ----

var objectHelp = helpLines("OBJECT")

func (e *Engine) lfuPolicy() bool { return e.cfg.lfu }

func cmdObject(e *Engine, args [][]byte) Reply {
	o := e.debugLookup(args[2]) // LOOKUP_NOTOUCH
	if o == nil {
		return NilReply
	}
	switch {
	case eqFold(args[1], "encoding"):
		return BulkStr(o.Enc.String())
	case eqFold(args[1], "refcount"):
		if o.Shared {
			return Int(math.MaxInt32)
		}
		return Int(1)
	case eqFold(args[1], "idletime"):
		if e.lfuPolicy() {
			return Err("ERR An LFU maxmemory policy is selected, idle time not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust.")
		}
		return Int(e.idleMs(o) / 1000)
	default: // freq
		if !e.lfuPolicy() {
			return Err("ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust.")
		}
		return Int(int64(e.lfuDecay(o)))
	}
}

// ---- MEMORY ----

var memoryHelp = helpLines("MEMORY")

// MEMORY USAGE key [SAMPLES count]: options are checked before the key is looked up.
func cmdMemoryUsage(e *Engine, args [][]byte) Reply {
	samples := int64(5)
	for j := 3; j < len(args); j++ {
		if eqFold(args[j], "samples") && j+1 < len(args) {
			n, ok := string2ll(args[j+1])
			if !ok {
				return ErrNotInt
			}
			if n < 0 {
				return ErrSyntax
			}
			samples = n
			j++
			continue
		}
		return ErrSyntax
	}
	if samples > math.MaxInt32 {
		samples = 0 // as good as "all"
	}
	size, ok := e.MemoryUsage(args[2], int(samples))
	if !ok {
		return NilReply
	}
	return Int(size)
}

// ---- CONFIG ----

var configHelp = helpLines("CONFIG")

// CONFIG GET pattern [pattern ...]: a name without glob characters is looked up directly and
// echoed as given; patterns match names and aliases case-insensitively. Each name appears once.
// (Redis replies in its hash-table order; here names come in table order.)
func cmdConfigGet(e *Engine, args [][]byte) Reply {
	type match struct {
		name string
		p    *ConfigParam
	}
	var out []match
	seen := map[string]bool{}
	for _, a := range args[2:] {
		pat := string(a)
		if !strings.ContainsAny(pat, "[*?") {
			if seen[strings.ToLower(pat)] {
				continue
			}
			if p := e.cfg.Param(pat); p != nil {
				seen[strings.ToLower(pat)] = true
				out = append(out, match{pat, p})
			}
			continue
		}
		for _, p := range configParams {
			if !p.in(e.ver) || p.Hidden {
				continue
			}
			for _, n := range append([]string{p.Name}, p.Aliases...) {
				if seen[n] || !stringMatch(a, []byte(n), true) {
					continue
				}
				seen[n] = true
				out = append(out, match{n, p})
			}
		}
	}
	r := make([]Reply, 0, 2*len(out))
	for _, m := range out {
		r = append(r, BulkStr(m.name), BulkStr(e.cfg.Get(m.p.Name)))
	}
	return Map(r...)
}

// CONFIG SET name value [name value ...]: all names are checked first (unknown, immutable,
// duplicate), then values are applied in order; a bad value restores every earlier one.
func cmdConfigSet(e *Engine, args [][]byte) Reply {
	if len(args)%2 != 0 {
		return ErrSyntax
	}
	type item struct {
		p     *ConfigParam
		alias bool
		name  string
		val   string
	}
	var items []item
	unknown, errArg, errText := "", "", ""
	bad := false
	for i := 2; i < len(args); i += 2 {
		name := string(args[i])
		p, alias := e.cfg.lookup(name)
		if p == nil {
			if !bad {
				unknown = name
				bad = true
			}
			continue
		}
		if bad {
			continue
		}
		if p.Immutable {
			errArg, errText, bad = name, "can't set immutable config", true
			continue
		}
		if p.Protected { // enable-protected-configs is no (and immutable)
			errArg, errText, bad = name, "can't set protected config", true
			continue
		}
		for _, it := range items {
			if it.p == p && it.alias == alias {
				errArg, errText, bad = name, "duplicate parameter", true
				break
			}
		}
		items = append(items, item{p, alias, name, string(args[i+1])})
	}
	if unknown != "" {
		return Err(cleanErr("ERR Unknown option or number of arguments for CONFIG SET - '" + unknown + "'"))
	}
	if bad {
		return errConfigSet(errArg, errText)
	}
	type saved struct {
		p       *ConfigParam
		printed string
		n       int64
	}
	var old []saved
	appendonly := e.cfg.Get("appendonly")
	defer func() { e.appendonlyChanged(appendonly, e.cfg.Get("appendonly")) }()
	for _, it := range items {
		printed, n, msg := e.cfg.parseValue(it.p, it.val)
		if msg != "" {
			for i := len(old) - 1; i >= 0; i-- {
				e.cfg.set(old[i].p, old[i].printed, old[i].n)
			}
			// The error names the table entry (its name, or the alias entry's), not the
			// argument as typed.
			name := it.p.Name
			if it.alias {
				name = strings.ToLower(it.name)
			}
			if msg == errNoDetail {
				return errConfigSet(name, "")
			}
			return errConfigSet(name, msg)
		}
		old = append(old, saved{it.p, e.cfg.vals[it.p.Name], e.cfg.ints[it.p.Name]})
		e.cfg.set(it.p, printed, n)
	}
	return OK
}

// CONFIG RESETSTAT is resetServerStats, resetCommandTableStats and resetErrorTableStats: INFO's
// counters start over (info.go).
func cmdConfigResetStat(e *Engine, args [][]byte) Reply {
	dirty := e.cfg.stats.dirty // server.dirty is not a statistic
	e.cfg.stats = newInfoStats()
	e.cfg.stats.dirty = dirty
	e.dbg.ps.saves, e.dbg.ps.aofRewrites = 0, 0
	return OK
}

// ---- COMMAND ----

var commandHelp = helpLines("COMMAND")

// aclCategories lists Redis's ACL categories in flag order (COMMAND INFO prints them so).
var aclCategories = []string{"keyspace", "read", "write", "set", "sortedset", "list", "hash", "string",
	"bitmap", "hyperloglog", "geo", "stream", "pubsub", "admin", "fast", "slow", "blocking",
	"dangerous", "connection", "transaction", "scripting"}

// commandCategories is the category list: implicit ones from the flags (Redis's
// setImplicitACLCategories) plus the explicit ones.
func commandCategories(c *Command) []string {
	set := map[string]bool{}
	for _, s := range strings.Fields(c.Cats) {
		set[s] = true
	}
	if c.Flags&FlagWrite != 0 {
		set["write"] = true
	}
	if c.Flags&FlagReadonly != 0 && !set["scripting"] { // scripts are not @read (EVAL_RO)
		set["read"] = true
	}
	if c.Flags&FlagBlocking != 0 {
		set["blocking"] = true
	}
	if c.Flags&FlagAdmin != 0 {
		set["admin"] = true
		set["dangerous"] = true
	}
	if c.Flags&FlagFast != 0 {
		set["fast"] = true
	} else {
		set["slow"] = true
	}
	var out []string
	for _, a := range aclCategories {
		if set[a] {
			out = append(out, "@"+a)
		}
	}
	return out
}

func statusList(items []string) Reply {
	r := make([]Reply, len(items))
	for i, s := range items {
		r[i] = Status(s)
	}
	return Set(r...) // addReplyCommandFlags, addReplyFlagsForKeyArgs: sets in RESP3
}

func bulkList(items []string) Reply {
	r := make([]Reply, len(items))
	for i, s := range items {
		r[i] = BulkStr(s)
	}
	return Set(r...) // addReplyCommandTips
}

func commandFlagNames(f int) []string {
	var out []string
	for _, x := range []struct {
		bit  int
		name string
	}{{FlagWrite, "write"}, {FlagReadonly, "readonly"}, {FlagDenyOOM, "denyoom"}, {FlagAdmin, "admin"},
		{FlagNoScript, "noscript"}, {FlagBlocking, "blocking"}, {FlagLoading, "loading"}, {FlagStale, "stale"},
		{FlagSkipMonitor, "skip_monitor"}, {FlagSkipSlowlog, "skip_slowlog"}, {FlagFast, "fast"},
		{FlagNoMandatoryKeys, "no_mandatory_keys"}, {FlagNoAsyncLoading, "no_async_loading"}, {FlagNoMulti, "no_multi"}, {FlagMovableKeys, "movablekeys"}, {FlagAllowBusy, "allow_busy"}} {
		if f&x.bit != 0 {
			out = append(out, x.name)
		}
	}
	return out
}

// keySpecs builds COMMAND INFO's key specifications from the table: for the key range
// FirstKey..LastKey one range spec, or, when KeyFlags has several entries, one spec per key
// playing its own role and the last one taking the rest of the range (RENAME: source, destination;
// SDIFFSTORE: destination, then the sources up to the last argument); then the KeyNum spec.
// KeyFlags gives the specs' flags in that order ("RW update" for a write command, "RO access"
// else, when it is empty).
func keySpecs(c *Command) Reply {
	flags := c.KeyFlags
	def := "RO access"
	if c.Flags&FlagWrite != 0 {
		def = "RW update"
	}
	flag := func(i int) string {
		if i < len(flags) {
			return flags[i]
		}
		return def
	}
	index := func(i int) Reply {
		return Map(BulkStr("type"), BulkStr("index"), BulkStr("spec"), Map(BulkStr("index"), Int(int64(i))))
	}
	specs := 0
	spec := func(fl string, begin, find Reply) Reply {
		r := Map(BulkStr("flags"), statusList(strings.Fields(fl)), BulkStr("begin_search"), begin, BulkStr("find_keys"), find)
		if specs < len(c.KeyNotes) && c.KeyNotes[specs] != "" {
			r.Array = append([]Reply{BulkStr("notes"), BulkStr(c.KeyNotes[specs])}, r.Array...)
		}
		specs++
		return r
	}
	rangeSpec := func(fl string, at, lastkey int) Reply {
		return spec(fl, index(at), Map(BulkStr("type"), BulkStr("range"), BulkStr("spec"),
			Map(BulkStr("lastkey"), Int(int64(lastkey)), BulkStr("keystep"), Int(int64(max(c.Step, 1))), BulkStr("limit"), Int(0))))
	}
	out := []Reply{}
	n := rangeSpecs(c)
	if c.FirstKey > 0 {
		for i := 0; i < n; i++ {
			at, last := c.FirstKey+i, 0
			if i == n-1 {
				if last = c.LastKey; last > 0 {
					last -= at
				}
			}
			out = append(out, rangeSpec(flag(i), at, last))
		}
	}
	if k := c.KeyNum; k.NumIdx > 0 {
		out = append(out, spec(flag(n), index(k.NumIdx), Map(BulkStr("type"), BulkStr("keynum"), BulkStr("spec"),
			Map(BulkStr("keynumidx"), Int(0), BulkStr("firstkey"), Int(int64(k.First)), BulkStr("keystep"), Int(int64(k.Step))))))
	}
	for _, x := range c.KeyExtra {
		unknown := Map(BulkStr("type"), BulkStr("unknown"), BulkStr("spec"), EmptyMap)
		begin, find := unknown, unknown
		if x.Keyword != "" {
			begin = Map(BulkStr("type"), BulkStr("keyword"), BulkStr("spec"),
				Map(BulkStr("keyword"), BulkStr(x.Keyword), BulkStr("startfrom"), Int(int64(x.StartFrom))))
			find = Map(BulkStr("type"), BulkStr("range"), BulkStr("spec"),
				Map(BulkStr("lastkey"), Int(int64(x.LastKey)), BulkStr("keystep"), Int(int64(x.Step)), BulkStr("limit"), Int(int64(x.Limit))))
		}
		r := spec(x.Flags, begin, find)
		if x.Notes != "" {
			r.Array = append([]Reply{BulkStr("notes"), BulkStr(x.Notes)}, r.Array...)
		}
		out = append(out, r)
	}
	return Set(out...) // addReplyCommandKeySpecs: a set of maps
}

func (e *Engine) commandInfo(c *Command) Reply {
	tips := strings.Fields(c.Tips)
	subs := []Reply{}
	for _, s := range e.subcommands(c) {
		subs = append(subs, e.commandInfo(s))
	}
	return Array(
		BulkStr(c.FullName()),
		Int(int64(c.ArityIn(e.ver))),
		statusList(commandFlagNames(c.Flags)),
		Int(int64(c.FirstKey)), Int(int64(c.LastKey)), Int(int64(c.Step)),
		statusList(commandCategories(c)),
		bulkList(tips),
		keySpecs(c),
		Reply{Kind: KindArray, Array: subs}.AsSetIf(len(subs) == 0), // no subcommands: an empty set
	)
}

func (e *Engine) subcommands(c *Command) []*Command {
	var out []*Command
	for _, s := range c.Sub {
		if e.ver.Has(s.Since) {
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func cmdCommandAll(e *Engine, args [][]byte) Reply {
	cmds := e.Commands()
	out := make([]Reply, len(cmds))
	for i, c := range cmds {
		out[i] = e.commandInfo(c)
	}
	return Reply{Kind: KindArray, Array: out}
}

func cmdCommandCount(e *Engine, args [][]byte) Reply { return Int(int64(len(e.Commands()))) }

// lookupCommandOrSub finds "get" or "config|get" (any case).
func (e *Engine) lookupCommandOrSub(name string) *Command {
	name = strings.ToLower(name)
	parent, sub, isSub := strings.Cut(name, "|")
	c := lookupCommand([]byte(parent))
	if c == nil || !e.ver.Has(c.Since) {
		return nil
	}
	if !isSub {
		return c
	}
	s := c.Sub[sub]
	if s == nil || !e.ver.Has(s.Since) {
		return nil
	}
	return s
}

func cmdCommandInfo(e *Engine, args [][]byte) Reply {
	if len(args) == 2 {
		return cmdCommandAll(e, args)
	}
	out := make([]Reply, 0, len(args)-2)
	for _, a := range args[2:] {
		if c := e.lookupCommandOrSub(string(a)); c != nil {
			out = append(out, e.commandInfo(c))
		} else {
			out = append(out, NilReply)
		}
	}
	return Reply{Kind: KindArray, Array: out}
}

// commandGroup is the DOCS "group" of a command.
func commandGroup(c *Command) string {
	for _, cat := range commandCategories(c) {
		switch cat {
		case "@keyspace":
			return "generic"
		case "@string", "@bitmap", "@hyperloglog", "@hash", "@list", "@set", "@geo", "@stream", "@connection":
			return strings.TrimPrefix(cat, "@")
		case "@sortedset":
			return "sorted-set"
		}
	}
	return "server"
}

// commandDocs is a minimal DOCS entry: the group (and the subcommands), no argument details —
// enough for redis-cli's start-up `COMMAND DOCS`.
func (e *Engine) commandDocs(c *Command) Reply {
	doc := []Reply{BulkStr("summary"), BulkStr(""), BulkStr("group"), BulkStr(commandGroup(c))}
	if subs := e.subcommands(c); len(subs) > 0 {
		var m []Reply
		for _, s := range subs {
			m = append(m, BulkStr(s.FullName()), e.commandDocs(s))
		}
		doc = append(doc, BulkStr("subcommands"), Map(m...))
	}
	return Map(doc...)
}

func cmdCommandDocs(e *Engine, args [][]byte) Reply {
	var out []Reply
	if len(args) == 2 {
		for _, c := range e.Commands() {
			out = append(out, BulkStr(c.FullName()), e.commandDocs(c))
		}
	} else {
		for _, a := range args[2:] {
			if c := e.lookupCommandOrSub(string(a)); c != nil {
				out = append(out, BulkStr(c.FullName()), e.commandDocs(c))
			}
		}
	}
	return Map(append([]Reply{}, out...)...)
}

// COMMAND LIST [FILTERBY MODULE name | ACLCAT category | PATTERN pattern].
func cmdCommandList(e *Engine, args [][]byte) Reply {
	filter := func(c *Command) bool { return true }
	switch {
	case len(args) == 2:
	case len(args) == 5 && eqFold(args[2], "filterby"):
		arg := args[4]
		switch {
		case eqFold(args[3], "module"):
			filter = func(c *Command) bool { return false }
		case eqFold(args[3], "aclcat"):
			cat := "@" + strings.ToLower(string(arg))
			filter = func(c *Command) bool {
				for _, x := range commandCategories(c) {
					if x == cat {
						return true
					}
				}
				return false
			}
		case eqFold(args[3], "pattern"):
			filter = func(c *Command) bool { return stringMatch(arg, []byte(c.FullName()), true) }
		default:
			return ErrSyntax
		}
	default:
		return ErrSyntax
	}
	out := []Reply{}
	for _, c := range e.Commands() {
		if filter(c) {
			out = append(out, BulkStr(c.FullName()))
		}
		for _, s := range e.subcommands(c) {
			if filter(s) {
				out = append(out, BulkStr(s.FullName()))
			}
		}
	}
	return Reply{Kind: KindArray, Array: out}
}

// COMMAND GETKEYS and GETKEYSANDFLAGS command arg...: the keys from the command table's key specs
// (CommandKeyRefs), GETKEYSANDFLAGS pairing each key with its key spec's flags.
func cmdCommandGetKeys(e *Engine, args [][]byte) Reply {
	refs, err := e.CommandKeyRefs(args[2:])
	if err != nil {
		return Err("ERR " + err.Error())
	}
	withFlags := eqFold(args[1], "getkeysandflags")
	out := make([]Reply, len(refs))
	for i, r := range refs {
		out[i] = Bulk(args[2+r.Arg])
		if withFlags {
			out[i] = Array(out[i], statusList(strings.Fields(r.Flags)))
		}
	}
	return Reply{Kind: KindArray, Array: out}
}

// ---- DEBUG ----

type debugSub struct {
	argc int // exact argument count including DEBUG and the subcommand; 0 = any
	fn   cmdFunc
}

var debugSubs = map[string]debugSub{}

// registerDebug adds a DEBUG subcommand (lowercase name); other cmd_*.go files call it from their
// init. argc is the exact number of arguments including "DEBUG" and the subcommand (0: any, the
// function checks). A wrong count answers Redis's "unknown subcommand or wrong number of
// arguments" error.
func registerDebug(name string, argc int, fn cmdFunc) {
	if _, dup := debugSubs[name]; dup {
		panic("duplicate DEBUG subcommand " + name)
	}
	debugSubs[name] = debugSub{argc, fn}
}

var debugHelp = helpLines("DEBUG")

func cmdDebug(e *Engine, args [][]byte) Reply {
	if len(args) == 2 && eqFold(args[1], "help") {
		return helpReply(debugHelp)(e, args)
	}
	if s, ok := debugSubs[strings.ToLower(string(args[1]))]; ok && (s.argc == 0 || s.argc == len(args)) {
		return s.fn(e, args)
	}
	return debugUnknown(args)
}

// DEBUG SDSLEN key: the key's sds (an exact sdsnewlen copy) and the value's. Like Redis it reads
// the keyspace directly, without expiring the key.
func debugSDSLen(e *Engine, args [][]byte) Reply {
	o := e.db.keys[string(args[2])]
	if o == nil {
		return ErrNoSuchKey
	}
	if o.Type != TypeString || o.Enc == EncInt {
		return Err("ERR Not an sds encoded string.")
	}
	k := sds.New(e.alloc, len(args[2]))
	var vlen, vavail, vmalloc int
	if o.Enc == EncEmbstr {
		vlen = o.Buf.Len()
		vmalloc = e.alloc.Usable(16+3+vlen+1) - 16
	} else {
		vlen, vavail, vmalloc = o.SDS.Len, o.SDS.Avail(), o.SDS.Usable
	}
	return Status(fmt.Sprintf("key_sds_len:%d, key_sds_avail:%d, key_zmalloc: %d, val_sds_len:%d, val_sds_avail:%d, val_zmalloc: %d",
		k.Len, k.Avail(), k.Usable, vlen, vavail, vmalloc))
}

// ---- TIME ----

func cmdTime(e *Engine, args [][]byte) Reply {
	ms := e.NowMs()
	return Array(BulkStr(itoa(ms/1000)), BulkStr(itoa(ms%1000*1000)))
}

// cmdMemoryMallocStats answers MEMORY MALLOC-STATS (object.c memoryCommand: jemalloc's
// malloc_stats_print) with what the engine models of jemalloc: its version and the allocated,
// active and resident bytes INFO memory reports (allocator_allocated …). The rest of jemalloc's
// text — arenas, bins, extents, metadata — has no counterpart in a simulator of size classes, so
// the reply says so rather than invent it.
func cmdMemoryMallocStats(e *Engine, args [][]byte) Reply {
	used, _ := e.infoMemory()
	return Verbatim("___ Begin jemalloc statistics ___\n" +
		"Version: \"" + jemallocVersion + "-0-g54eaed1d8b56b1aa528be3bdd1877e59c56fa90c\"\n" +
		fmt.Sprintf("Allocated: %d, active: %d, resident: %d\n", used, used, used) +
		"(redscope simulates jemalloc's size classes only: no arenas, bins, extents or metadata)\n" +
		"--- End jemalloc statistics ---\n")
}
