package engine

import (
	_ "embed"
	"sort"
	"strings"
	"sync"
)

// Command docs: what the console's HELP prints for a command — its syntax, the version of Redis
// that introduced it, its documentation group and a one-line summary in English and Vietnamese
// (written for redscope). The entries are data, in one file, command_docs.tsv (loadDocs below
// reads it, the way Redis keeps its own command docs as data in src/commands/*.json). Every
// command of the table has an entry (TestCommandDocs checks it), keyed by its full name ("get",
// "config|get"). The syntax lines follow the argument lists of
// Redis's src/commands/*.json; the since-versions and groups come from redis_commands.go for the
// commands Redis had in that snapshot, else from the Doc (newer commands, the RedisBloom ones).

// Doc is one command's help.
type Doc struct {
	Syntax string // "LPUSH key element [element ...]"
	En, Vi string // one-line summary
	Group  string // set only where redis_commands.go has no entry
	Since  string // likewise
}

// CommandHelp is a Doc with the since-version and group filled in.
type CommandHelp struct {
	Name      string // full name: "lpush", "config|get"
	Syntax    string
	Summary   string // in the language asked for
	Since     string // "1.0.0"; "" when unknown
	Group     string
	Simulated bool    // in the engine's command table
	Profile   Version // the first profile of the table that has it (when Simulated)
}

// LookupHelp returns the help of a command by its full name (any case; "config get" or
// "config|get"), in lang ("vi" or "en"): a command of the table, or a real Redis command the
// engine does not simulate (Simulated false, no syntax or summary). ok is false for a name that
// is neither.
func LookupHelp(name, lang string) (h CommandHelp, ok bool) {
	name = strings.ToLower(strings.Join(strings.Fields(name), "|"))
	h.Name = name
	if rc, ok := redisCommands[name]; ok {
		h.Since, h.Group = rc.since, rc.group
	}
	if c := tableCommand(name); c != nil {
		d := commandDocs()[name]
		h.Syntax, h.Simulated, h.Profile = d.Syntax, true, c.Since
		h.Summary = d.En
		if lang != "en" {
			h.Summary = d.Vi
		}
		if d.Group != "" {
			h.Group = d.Group
		}
		if d.Since != "" {
			h.Since = d.Since
		} else if h.Since == "" {
			h.Since = c.Since.String() + ".0"
		}
		return h, true
	}
	return h, h.Since != ""
}

// tableCommand finds "get" or "config|get" in the command table, whatever the profile.
func tableCommand(full string) *Command {
	parent, sub, isSub := strings.Cut(full, "|")
	c := commandTable[parent]
	if c == nil || !isSub {
		return c
	}
	return c.Sub[sub]
}

// CommandGroup is the documentation group of a command ("bitmap", "hyperloglog", "list", …;
// "" when unknown).
func CommandGroup(name string) string {
	h, _ := LookupHelp(name, "en")
	return h.Group
}

// HelpNames lists the full names HELP knows — the table's commands and subcommands and the real
// Redis commands not simulated — sorted.
func HelpNames() []string {
	seen := map[string]bool{}
	for n := range redisCommands {
		seen[n] = true
	}
	for n, c := range commandTable {
		seen[n] = true
		for s := range c.Sub {
			seen[n+"|"+s] = true
		}
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// commandDocsTSV is the table itself, one line a command (command_docs.tsv).
//
//go:embed command_docs.tsv
var commandDocsTSV string

var (
	docsOnce sync.Once
	docsMap  map[string]Doc
)

// commandDocs returns the help table, parsed from command_docs.tsv on first use (the page's cold
// start does not pay for it: only HELP and the help panels read it).
func commandDocs() map[string]Doc {
	docsOnce.Do(func() { docsMap, _ = loadDocs(commandDocsTSV) })
	return docsMap
}

// loadDocs parses the help table. The format, a line a command:
//
//	name<TAB>group<TAB>since<TAB>syntax<TAB>English summary<TAB>Vietnamese summary
//
// name is the full lower-case name ("get", "config|get"); group and since are empty unless
// redis_commands.go lacks the command (Doc.Group, Doc.Since); no field holds a tab. Blank lines
// and lines starting with '#' are skipped. A line without six fields, with an empty name or with
// a name seen before is left out and its number (from 1) returned in bad (TestCommandDocsFile
// asserts there is none).
func loadDocs(text string) (docs map[string]Doc, bad []int) {
	docs = make(map[string]Doc, 330)
	for n := 1; text != ""; n++ {
		var line string
		line, text, _ = strings.Cut(text, "\n")
		line = strings.TrimSuffix(line, "\r")
		if line == "" || line[0] == '#' {
			continue
		}
		var f [6]string
		i := 0
		for ; i < 5; i++ {
			var ok bool
			if f[i], line, ok = strings.Cut(line, "\t"); !ok {
				break
			}
		}
		if i < 5 || strings.Contains(line, "\t") || f[0] == "" {
			bad = append(bad, n)
			continue
		}
		f[5] = line
		if _, dup := docs[f[0]]; dup {
			bad = append(bad, n)
			continue
		}
		docs[f[0]] = Doc{Group: f[1], Since: f[2], Syntax: f[3], En: f[4], Vi: f[5]}
	}
	return docs, bad
}

// NotSimulatedPrefix starts the error reply of a real Redis command the engine does not simulate.
const NotSimulatedPrefix = "ERR redscope does not simulate '"

// notSimulated is the reply to a command of real Redis that the profile's Redis has and the
// command table lacks (a whole command such as XADD, or a subcommand such as MEMORY STATS):
// "ERR redscope does not simulate 'xadd' yet" — an error in Redis's syntax that does not claim
// Redis lacks the command. A name newer than the profile, or one real Redis never had, keeps
// Redis's unknown-command error; the commands of the table are never answered this way, so a
// command added to it is simulated from then on.
func (e *Engine) notSimulated(args [][]byte, c *Command) (Reply, bool) {
	full := strings.ToLower(string(args[0]))
	if c != nil {
		if len(args) < 2 {
			return Reply{}, false
		}
		full = c.Name + "|" + strings.ToLower(string(args[1]))
	}
	if tableCommand(full) != nil {
		return Reply{}, false
	}
	rc, ok := redisCommands[full]
	if !ok || !e.ver.Has(parseSince(rc.since)) {
		return Reply{}, false
	}
	return Err(NotSimulatedPrefix + full + "' yet"), true
}

// unknownCommand is the reply to a name missing from the profile's table.
func (e *Engine) unknownCommand(args [][]byte) Reply {
	if r, ok := e.notSimulated(args, nil); ok {
		return r
	}
	return errUnknownCommand(args)
}

// unknownSubcommand is the reply to a subcommand missing from the profile's table.
func (e *Engine) unknownSubcommand(c *Command, args [][]byte) Reply {
	if r, ok := e.notSimulated(args, c); ok {
		return r
	}
	return errUnknownSubcommand(c, args[1])
}

// parseSince turns "5.0.0" into the Version 5.0 (what Version.Has compares).
func parseSince(s string) Version {
	maj, rest, _ := strings.Cut(s, ".")
	mn, _, _ := strings.Cut(rest, ".")
	a, b, ok := string2llPair([]byte(maj), []byte(mn))
	if !ok {
		return 0xffff
	}
	return Version(a*100 + b)
}
