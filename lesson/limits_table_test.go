package lesson

import (
	"strings"
	"testing"

	"redscope/engine"
)

// overMemory is a player whose dataset is above its Memory limit (1 MiB): the small keys the
// commands below work on, then two 600 kB strings.
func overMemory(t *testing.T) *Player {
	t.Helper()
	lim := DefaultLimits
	lim.Memory = 1 << 20
	p := NewPlayer(Config{Version: engine.V70, Limits: &lim})
	for _, l := range []string{
		"SET s1 v", "SADD set1 m1 m2", "SADD set2 m3", "ZADD z 1 a 2 b 3 c 4 d", "ZADD zl 0 a 0 b 0 c",
		"RPUSH l1 a b c", "RPUSH l2 d", "HSET h f v", "SET e v",
		"SETRANGE a 600000 x", "SETRANGE b 600000 x",
	} {
		if x := p.Exec(l); x.Refused != "" || x.Error {
			t.Fatalf("%s → %q (refused %q)", l, x.Reply, x.Refused)
		}
	}
	return p
}

// TestMemoryLimitFollowsDenyOOM: above Limits.Memory the guard refuses exactly the commands the
// engine's table marks denyoom (the flag COMMAND INFO shows, checked against redis-server by
// internal/difftest's TestCommandTableInfo). The commands the old hand list treated as growing
// although Redis does not (RENAME, SMOVE, ZREMRANGEBYSCORE/LEX/RANK, LMPOP, ZMPOP, GETEX, XTRIM
// …) now run; those that may grow the dataset are refused.
func TestMemoryLimitFollowsDenyOOM(t *testing.T) {
	p := overMemory(t)
	runs := []struct{ line, want string }{
		{"RENAME s1 s2", "OK"},
		{"RENAMENX s2 s1", "(integer) 1"},
		{"SMOVE set1 set2 m1", "(integer) 1"},
		{"ZREMRANGEBYSCORE z 1 1", "(integer) 1"},
		{"ZREMRANGEBYRANK z 0 0", "(integer) 1"},
		{"ZREMRANGEBYLEX zl [a [a", "(integer) 1"},
		{"LMPOP 2 l1 l2 LEFT", "1) \"l1\"\n2) 1) \"a\""},
		{"ZMPOP 1 z MIN", "1) \"z\"\n2) 1) 1) \"c\"\n      2) \"3\""},
		{"GETEX e PERSIST", `"v"`},
		{"EXPIRE h 100", "(integer) 1"},
		{"HDEL h f", "(integer) 1"},
	}
	for _, r := range runs {
		c := engine.LookupCommand(engine.V70, [][]byte{[]byte(strings.Fields(r.line)[0])})
		if c.MayGrow() {
			t.Fatalf("%s: the table says it may grow the dataset", r.line)
		}
		if x := p.Exec(r.line); x.Refused != "" || x.Reply != r.want {
			t.Errorf("%s above Memory → %q (refused %q), want %q", r.line, x.Reply, x.Refused, r.want)
		}
	}
	for _, line := range []string{"SET n 1", "SADD set2 x", "LMOVE l2 l1 LEFT LEFT", "ZADD z 9 x", "APPEND s1 x", "COPY s1 s3", "RPOPLPUSH l2 l1", "BF.RESERVE bf 0.01 10"} {
		c := engine.LookupCommand(engine.V70, [][]byte{[]byte(strings.Fields(line)[0])})
		if !c.MayGrow() {
			t.Fatalf("%s: the table says it does not grow the dataset", line)
		}
		if x := p.Exec(line); x.Refused != "Memory" {
			t.Errorf("%s above Memory → %q (refused %q), want a refusal by Memory", line, x.Reply, x.Refused)
		}
	}
}

// TestMemoryRefusalIsDenyOOM: for every command of the 7.0 table, the guard of a dataset above
// Memory refuses it if and only if the table marks it denyoom (the guard has no list of its own).
func TestMemoryRefusalIsDenyOOM(t *testing.T) {
	p := overMemory(t)
	g := p.guard
	g.mem = p.Engine().DatasetHeldMemory()
	if g.mem <= g.lim.Memory {
		t.Fatalf("dataset %d bytes, not above %d", g.mem, g.lim.Memory)
	}
	n, grow := 0, 0
	for _, c := range p.Engine().Commands() {
		cmds := []*engine.Command{c}
		for _, s := range c.Sub {
			cmds = append(cmds, s)
		}
		for _, c := range cmds {
			args := [][]byte{}
			for _, w := range strings.Split(c.FullName(), "|") {
				args = append(args, []byte(w))
			}
			for len(args) < max(c.Arity, -c.Arity) {
				args = append(args, []byte("zz"))
			}
			err := g.before(p.Engine(), args)
			refused := err != nil && err.Limit == "Memory"
			if refused != c.MayGrow() {
				t.Errorf("%s: refused above Memory %v, denyoom %v", c.FullName(), refused, c.MayGrow())
			}
			n++
			if c.MayGrow() {
				grow++
			}
		}
	}
	t.Logf("%d commands and subcommands checked, %d of them denyoom", n, grow)
}

// TestCostLimits: the budgets meet the engine's own estimate of a call (engine.CommandCost);
// GETRANGE's clamping is the engine's, for both profiles' rules (7.0 clamps a start before the
// string to 0; 8.0 gives "" for an end before it).
func TestCostLimits(t *testing.T) {
	for _, v := range []engine.Version{engine.V70, engine.V80} {
		p := NewPlayer(Config{Version: v, Limits: &DefaultLimits})
		p.Exec("SETBIT k 4294967295 1") // 512 MiB, two pages stored
		big := DefaultLimits.StringBytes
		cases := []struct {
			line    string
			refused string
		}{
			{"GETRANGE k -100 -1", ""},
			{"GETRANGE k 0 1000", ""},
			{"GETRANGE k -33554432 -1", ""},            // exactly StringBytes
			{"GETRANGE k -33554433 -1", "StringBytes"}, // one byte more
			{"SUBSTR k 0 -1", "StringBytes"},
			{"GETRANGE k 9999999999 99999999999", ""}, // past the end: ""
			{"GET k", "StringBytes"},
			{"LCS k k", "StringBytes"},
			{"STRLEN k", ""},
			{"DEBUG OBJECT k", "StringBytes"}, // no key specs: its arguments are taken as keys
			{"OBJECT ENCODING k", ""},
			{"HRANDFIELD h -100001", "ReplyItems"},
			{"ZRANDMEMBER z 100000", ""},
			{"SRANDMEMBER s -9223372036854775808", "ReplyItems"},
			{"BF.RESERVE bf 0.001 100000000", "Memory"}, // 180 MB
			{"BF.RESERVE bf 0.01 1000", ""},
		}
		for _, c := range cases {
			x := p.Exec(c.line)
			if x.Refused != c.refused {
				t.Errorf("%s %s → %q (refused %q), want refused %q", v, c.line, truncate(x.Reply, 80), x.Refused, c.refused)
			}
		}
		if got := p.Engine().CommandCost(args("GETRANGE k -33554432 -1")).CopyBytes; got != big {
			t.Errorf("%s: GETRANGE of the last StringBytes costs %d", v, got)
		}
	}
	// Before a lesson runs, the arguments alone: a count, a filter's size.
	for _, line := range []string{"SRANDMEMBER s -200000", "BF.RESERVE bf 0.0001 1000000000"} {
		l, err := Parse("t.lesson", []byte("title en: t\nstep\nen: x\n> "+line+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		if err := DefaultLimits.CheckLesson(l, engine.V70); err == nil {
			t.Errorf("CheckLesson accepts %s", line)
		}
	}
}

func args(line string) [][]byte {
	a, _ := engine.SplitArgs(line)
	return a
}
