package engine

// The command table is the same with and without the Lua interpreter (script_commands.go):
// TestNoLuaTable compares what the table answers, per profile, with testdata/nolua_table.txt,
// recorded from the full build (go test ./engine -run TestNoLuaTable -update), and runs in both
// builds (go test -tags nolua -run NoLua ./engine). TestNoLuaNeedsLua checks NeedsLua against
// the scripting commands, also in both builds.

import (
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var updateNoLua = flag.Bool("update", false, "rewrite testdata/nolua_table.txt (TestNoLuaTable) from the full build")

const noLuaTableFile = "testdata/nolua_table.txt"

// noLuaScriptingNames are the commands NeedsLua answers true for, sorted.
func noLuaScriptingNames() []string {
	var names []string
	for name := range commandTable {
		if NeedsLua(argv(name)) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// noLuaTableCases are the command lines whose replies do not depend on the interpreter: the
// whole table (COMMAND, COMMAND DOCS, COMMAND LIST, COMMAND COUNT), the scripting commands'
// COMMAND INFO and DOCS, their arity errors, key extraction and help texts, the handlers that
// run no Lua, and busy-reply-threshold.
func noLuaTableCases() [][]string {
	cases := [][]string{
		{"COMMAND", "COUNT"}, {"COMMAND"}, {"COMMAND", "DOCS"}, {"COMMAND", "LIST"},
		{"COMMAND", "LIST", "FILTERBY", "ACLCAT", "scripting"}, {"ACL", "CAT"}, {"ACL", "CAT", "scripting"},
		{"COMMAND", "GETKEYS", "EVAL", "return 1", "2", "a", "b", "c"},
		{"COMMAND", "GETKEYSANDFLAGS", "EVAL_RO", "return 1", "1", "a", "b"},
		{"COMMAND", "GETKEYSANDFLAGS", "FCALL", "f", "1", "k"},
		{"COMMAND", "GETKEYS", "SCRIPT", "LOAD", "return 1"},
		{"SCRIPT", "HELP"}, {"FUNCTION", "HELP"}, {"SCRIPT", "KILL"}, {"FUNCTION", "KILL"},
		{"SCRIPT", "DEBUG", "NO"}, {"SCRIPT", "DEBUG", "YES"}, {"FUNCTION", "DUMP"},
		{"SCRIPT", "NOSUCH"}, {"FUNCTION", "NOSUCH"},
		{"CONFIG", "GET", "busy-reply-threshold"}, {"CONFIG", "GET", "lua-time-limit"},
	}
	for _, name := range noLuaScriptingNames() {
		c := commandTable[name]
		cases = append(cases, []string{"COMMAND", "INFO", name}, []string{"COMMAND", "DOCS", name}, []string{name})
		subs := make([]string, 0, len(c.Sub))
		for s := range c.Sub {
			subs = append(subs, s)
		}
		slices.Sort(subs)
		for _, s := range subs {
			cases = append(cases, []string{"COMMAND", "INFO", name + "|" + s}, []string{"COMMAND", "DOCS", name + "|" + s})
			// The wrong number of arguments: one too many for a fixed arity, one too few for
			// "at least n" (n > 2).
			if a := c.Sub[s].Arity; a > 0 {
				cases = append(cases, append([]string{name, s}, slices.Repeat([]string{"x"}, a-1)...))
			} else if a < -2 {
				cases = append(cases, append([]string{name, s}, slices.Repeat([]string{"x"}, -a-3)...))
			}
		}
	}
	return cases
}

// noLuaTableLines are the cases' replies on every profile: "profile<TAB>command<TAB>sha-256 of
// the RESP3 reply (16 digits)<TAB>its start".
func noLuaTableLines() []string {
	var lines []string
	for _, v := range Versions {
		e, _ := newEngineAt(v)
		for _, args := range noLuaTableCases() {
			resp := e.Do(args...).AppendRESP3(nil)
			sum := sha256.Sum256(resp)
			head := strconv.Quote(string(resp))
			if len(head) > 80 {
				head = head[:80] + "…"
			}
			lines = append(lines, v.String()+"\t"+strings.Join(args, " ")+"\t"+hex.EncodeToString(sum[:8])+"\t"+head)
		}
	}
	return lines
}

func TestNoLuaTable(t *testing.T) {
	got := noLuaTableLines()
	if *updateNoLua {
		if !HasLua {
			t.Fatal("-update records the full build's table: run it without -tags nolua")
		}
		if err := os.WriteFile(noLuaTableFile, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(noLuaTableFile)
	if err != nil {
		t.Fatalf("%v (go test ./engine -run TestNoLuaTable -update records it)", err)
	}
	want := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	bad := 0
	for i := 0; i < max(len(got), len(want)); i++ {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			if bad++; bad <= 10 {
				t.Errorf("line %d (HasLua %v)\n  got  %s\n  want %s", i+1, HasLua, g, w)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d lines differ from %s (recorded from the full build: go test ./engine -run TestNoLuaTable -update)", bad, noLuaTableFile)
	}
}

func TestNoLuaNeedsLua(t *testing.T) {
	scripting := []string{"eval", "eval_ro", "evalsha", "evalsha_ro", "fcall", "fcall_ro", "function", "script"}
	if got := noLuaScriptingNames(); !slices.Equal(got, scripting) {
		t.Errorf("NeedsLua is true for %v, want %v", got, scripting)
	}
	// The same set as the commands of ACL CAT scripting (subcommands by their container).
	e, _ := newTestEngine()
	var cat []string
	for _, r := range e.Do("ACL", "CAT", "scripting").Array {
		name, _, _ := strings.Cut(r.Str, "|")
		if !slices.Contains(cat, name) {
			cat = append(cat, name)
		}
	}
	slices.Sort(cat)
	if !slices.Equal(cat, scripting) {
		t.Errorf("ACL CAT scripting has %v, NeedsLua's commands are %v", cat, scripting)
	}
	for name := range commandTable {
		wantLua := slices.Contains(scripting, name)
		for _, args := range [][]byte{nil, []byte("x")} {
			for _, n := range []string{name, strings.ToUpper(name)} {
				a := [][]byte{[]byte(n)}
				if args != nil {
					a = append(a, args, []byte("0"))
				}
				if got := NeedsLua(a); got != wantLua {
					t.Errorf("NeedsLua(%q) = %v, want %v", a, got, wantLua)
				}
			}
		}
	}
	for _, a := range [][][]byte{nil, {}, argv(""), argv("nosuch"), argv("evalx", "x"), argv("scrip", "load", "x")} {
		if NeedsLua(a) {
			t.Errorf("NeedsLua(%q) = true", a)
		}
	}
	if !NeedsLua(argv("Script", "Load", "return 1")) || !NeedsLua(argv("FUNCTION")) || !NeedsLua(argv("function", "nosuch")) {
		t.Error("NeedsLua is false for a SCRIPT / FUNCTION form")
	}
}
