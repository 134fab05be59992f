package difftest

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"redscope/engine"
)

// The command table (engine/command.go) against Debian's redis-server 7.0.15: for every command
// and subcommand of the engine's 7.0 profile that the real server knows, COMMAND INFO's fields
// (TestCommandTableInfo) and COMMAND GETKEYS on generated and hand-written calls
// and GETKEYSANDFLAGS (TestCommandTableGetKeys).

// tableNames lists the engine's commands and subcommands ("config|get").
func tableNames(e *engine.Engine) []string {
	var out []string
	for _, c := range e.Commands() {
		out = append(out, c.FullName())
		for _, s := range c.Sub {
			out = append(out, s.FullName())
		}
	}
	return out
}

func TestCommandTableInfo(t *testing.T) {
	c := refConn(t)
	e := newEngine70()
	field := []string{"name", "arity", "flags", "first key", "last key", "step", "ACL categories", "tips", "key specs"}
	compared, specsCompared := 0, 0
	for _, name := range tableNames(e) {
		_, real, err := c.DoStrings("COMMAND", "INFO", name)
		if err != nil {
			t.Fatal(err)
		}
		if len(real.Array) != 1 || real.Array[0].Kind == engine.KindNil {
			continue // not in 7.0.15 (BF.*, 7.2+ subcommands …)
		}
		ours := e.Exec([][]byte{[]byte("COMMAND"), []byte("INFO"), []byte(name)}).Reply
		if len(ours.Array) != 1 || len(ours.Array[0].Array) < len(field) {
			t.Errorf("%s: COMMAND INFO answers %s", name, ours.FormatCLI())
			continue
		}
		compared++
		r, o := real.Array[0].Array, ours.Array[0].Array
		for i, f := range field {
			same := r[i].FormatCLI() == o[i].FormatCLI()
			switch {
			case i == 8:
				specsCompared++
			}
			if !same {
				t.Errorf("%s: %s differ\nredis-server:\n%sredscope:\n%s", name, f, r[i].FormatCLI(), o[i].FormatCLI())
			}
		}
	}
	// A container's subcommands (COMMAND INFO lists them in its hash table's order: compared as
	// sets of names here, each one's details above). A subcommand the engine knows as a real one
	// it does not simulate (MEMORY STATS, MODULE LIST …: answered "does not simulate") is left out
	// of the server's list.
	for _, cmd := range e.Commands() {
		if len(cmd.Sub) == 0 {
			continue
		}
		_, real, _ := c.DoStrings("COMMAND", "INFO", cmd.Name)
		ours := e.Exec([][]byte{[]byte("COMMAND"), []byte("INFO"), []byte(cmd.Name)}).Reply
		names := func(r engine.Reply) string {
			var n []string
			for _, s := range r.Array[0].Array[9].Array {
				if h, ok := engine.LookupHelp(s.Array[0].Str, "en"); ok && !h.Simulated {
					continue
				}
				n = append(n, s.Array[0].Str)
			}
			sort.Strings(n)
			return strings.Join(n, " ")
		}
		a, b := names(real), names(ours)
		if a != b {
			t.Errorf("%s: subcommands differ\nredis-server: %s\nredscope:     %s", cmd.Name, a, b)
		}
	}
	if compared < 200 {
		t.Errorf("only %d commands compared", compared)
	}
	t.Logf("COMMAND INFO of %d commands and subcommands compared with redis-server (key specs of %d)", compared, specsCompared)
}

// getKeysCalls are calls whose keys are found by a count or a keyword, with the edge cases of
// each: counts too big, zero, negative or not a number, keywords in odd places.
var getKeysCalls = []string{
	"LMPOP 2 a b LEFT", "LMPOP 1 a RIGHT COUNT 2", "LMPOP 3 a b LEFT", "LMPOP 0 a LEFT", "LMPOP -1 a LEFT", "LMPOP x a LEFT",
	"BLMPOP 0 2 a b LEFT", "BLMPOP 0 3 a b LEFT", "ZMPOP 2 a b MIN", "BZMPOP 1 2 a b MAX", "BZMPOP 1 0 a MAX",
	"ZUNIONSTORE d 2 a b", "ZUNIONSTORE d 2 a b WEIGHTS 1 2", "ZUNIONSTORE d 5 a b", "ZUNIONSTORE d 0 a", "ZUNIONSTORE d x a",
	"ZINTERSTORE d 1 a", "ZDIFFSTORE d 2 a b", "ZUNION 2 a b", "ZINTER 2 a b WITHSCORES", "ZDIFF 1 a", "ZDIFF 3 a b",
	"ZINTERCARD 2 a b LIMIT 1", "SINTERCARD 2 a b", "SINTERCARD 3 a b", "SINTERCARD 0 a",
	"EVAL s 0", "EVAL s 2 a b c", "EVAL s 3 a b", "EVAL s x a", "EVAL s -1 a", "EVALSHA s 1 a", "EVAL_RO s 1 a",
	"EVALSHA_RO s 2 a b", "FCALL f 2 a b", "FCALL_RO f 0", "FCALL f 1",
	"SORT k", "SORT k STORE d", "SORT k BY p GET g STORE d LIMIT 0 1", "SORT k LIMIT store 1 STORE d", "SORT_RO k BY p",
	"SORT k GET store", "SORT k STORE", "SORT k store a store b",
	"MIGRATE h p k 0 10", "MIGRATE h p \"\" 0 10 KEYS a b", "MIGRATE h p k 0 10 COPY REPLACE", "MIGRATE h p \"\" 0 10 AUTH x KEYS a",
	"MIGRATE h p k 0 10 KEYS a b",
	"XREAD STREAMS a b 0 0", "XREAD COUNT 2 STREAMS a 0", "XREAD STREAMS a b 0", "XREAD BLOCK 0 STREAMS a 0",
	"XREADGROUP GROUP g c STREAMS a 0", "XREADGROUP GROUP g c COUNT 1 STREAMS a b 0 0", "XREADGROUP GROUP g c STREAMS a",
	"MSET a 1 b 2", "MSET a 1 b", "MSETNX a 1", "DEL a b c", "RENAME a b", "COPY a b DB 1", "BITOP AND d a b", "PFMERGE d a b",
	"OBJECT ENCODING k", "OBJECT nosuch k", "MEMORY USAGE k SAMPLES 5", "CONFIG GET x", "WATCH a b", "PING", "GET", "GET a b",
	"nosuch a", "SET a b GET", "SET a b NX GET", "SET a b EX 10", "BITFIELD a GET u8 0", "BITFIELD a SET u8 0 1",
	"BITFIELD a INCRBY u8 0 1 GET u8 0", "BITFIELD a", "BITFIELD_RO a GET u8 0", "MIGRATE h p k 0 10 AUTH2 u p KEYS a",
}

func TestCommandTableGetKeys(t *testing.T) {
	c := refConn(t)
	e := newEngine70()
	calls := append([]string{}, getKeysCalls...)
	// Every command of the table, with one to four more arguments than its arity asks for.
	for _, name := range tableNames(e) {
		words := strings.Fields(strings.ReplaceAll(name, "|", " "))
		var wargs [][]byte
		for _, w := range words {
			wargs = append(wargs, []byte(w))
		}
		cmd := engine.LookupCommand(engine.V70, wargs)
		if cmd == nil {
			continue
		}
		n := cmd.ArityIn(engine.V70)
		if n < 0 {
			n = -n
		}
		for extra := 0; extra < 4; extra++ {
			line := append([]string{}, words...)
			for i := len(words); i < n+extra; i++ {
				line = append(line, fmt.Sprintf("k%d", i))
			}
			calls = append(calls, strings.Join(line, " "))
		}
	}
	compared, withKeys := 0, 0
	for _, call := range calls {
		args, err := engine.SplitArgs(call)
		if err != nil {
			t.Fatal(err)
		}
		var ours engine.Reply
		got := false
		for _, sub := range []string{"GETKEYS", "GETKEYSANDFLAGS"} {
			full := append([][]byte{[]byte("COMMAND"), []byte(sub)}, args...)
			var sargs []string
			for _, a := range full {
				sargs = append(sargs, string(a))
			}
			_, real, err := c.DoStrings(sargs...)
			if err != nil {
				t.Fatal(err)
			}
			if real.IsError() && strings.Contains(real.Str, "Invalid command specified") && engine.LookupCommand(engine.V70, args) != nil {
				break // a command redis-server 7.0.15 lacks (BF.*)
			}
			r := e.Exec(full).Reply
			if sub == "GETKEYS" {
				ours, got = r, true
				compared++
				if !real.IsError() {
					withKeys++
				}
			}
			if a, b := real.FormatCLI(), r.FormatCLI(); a != b {
				t.Errorf("COMMAND %s %s\nredis-server: %sredscope:     %s", sub, call, a, b)
			}
		}
		if !got {
			continue
		}
		// CommandKeys says the same as COMMAND GETKEYS.
		keys, kerr := e.CommandKeys(args)
		if (kerr != nil) != ours.IsError() || len(keys) != len(ours.Array) {
			t.Errorf("CommandKeys(%s) = %q, %v; COMMAND GETKEYS %s", call, keys, kerr, ours.FormatCLI())
		}
	}
	t.Logf("COMMAND GETKEYS and GETKEYSANDFLAGS of %d calls compared with redis-server (%d with keys)", compared, withKeys)
}
