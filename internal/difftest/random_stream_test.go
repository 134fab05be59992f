package difftest

import (
	"strconv"
	"strings"
	"testing"

	"redscope/engine"
)

// Random stream commands (TestRandomDiff): a pool of four streams x0…x3, explicit or ms-* IDs
// over a small range (so XADD also fails with "equal or smaller"), a few field sets (entries that
// share the master entry's fields and entries that do not), consumer groups g0…g2 and consumers
// c0…c3. Nothing here reads the wall clock (no "*" IDs, no idle times, no BLOCK: a real server
// would wait) — those are covered by the @clock transcripts.

// streamMs is a logical millisecond per generator that XADD IDs mostly move forward from, so
// appends keep succeeding over a long run while older IDs (errors, XDEL of missing entries) still
// come up.
var streamMs = map[*gen]int{}

// streamRecent holds the last IDs XADD was given, for XDEL / XACK / XCLAIM to name entries that
// exist or are pending.
var streamRecent = map[*gen][]string{}

// streamLastRead is the key and group of the last XREADGROUP, which XACK / XCLAIM / XAUTOCLAIM
// mostly reuse so they find pending entries.
var streamLastRead = map[*gen][2]string{}

// recentID is an ID XADD was recently given (most of the time) or any ID.
func (g *gen) recentID() string {
	if r := streamRecent[g]; len(r) > 0 && !g.chance(10) {
		if g.chance(2) { // the newest ones: likely delivered by the last XREADGROUP
			return r[len(r)-1-g.r.IntN(min(len(r), 15))]
		}
		return r[g.r.IntN(len(r))]
	}
	return g.streamID()
}

func (g *gen) streamID() string {
	switch g.r.IntN(12) {
	case 0:
		return g.pick("-", "+", "0", "0-0", "abc", "(5", "18446744073709551615-18446744073709551615", "1-", "-1")
	case 1:
		return strconv.Itoa(g.recentMs()) + "-*"
	}
	return strconv.Itoa(g.recentMs()) + "-" + strconv.Itoa(g.r.IntN(3))
}

// recentMs advances the logical millisecond now and then and returns one at or a little before it.
func (g *gen) recentMs() int {
	if g.chance(3) {
		streamMs[g] += 1 + g.r.IntN(3)
	}
	return max(streamMs[g]-g.r.IntN(40), 0)
}

func (g *gen) streamBound() string {
	if g.chance(6) {
		return g.pick("-", "+")
	}
	b := strconv.Itoa(g.recentMs())
	if g.chance(2) {
		b += "-" + strconv.Itoa(g.r.IntN(3))
	}
	if g.chance(5) {
		b = "(" + b
	}
	return b
}

func (g *gen) streamFields() []string {
	switch g.r.IntN(5) {
	case 0:
		return []string{"f", g.element(), "g", g.element()}
	case 1:
		return []string{"g", g.element(), "f", g.element()}
	case 2:
		return []string{g.field(), g.element()}
	}
	return []string{"f", g.element()}
}

func (g *gen) streamTrim() []string {
	var a []string
	if g.chance(2) {
		a = []string{g.pick("MAXLEN", "maxlen"), strconv.Itoa(g.r.IntN(60))}
	} else {
		a = []string{"MINID", strconv.Itoa(g.recentMs() - 30)}
	}
	if g.chance(2) {
		a = append(a[:1], append([]string{g.pick("~", "=", "~")}, a[1:]...)...)
		if a[1] == "~" && g.chance(2) {
			a = append(a, "LIMIT", g.pick("0", "1", "50", "100", "250", "-1"))
		}
	}
	return a
}

func streamGenCmds() []genCmd {
	// Mostly two streams, so reads, acks and claims meet the entries the appends made.
	x := func(g *gen) string {
		if g.chance(7) {
			return g.tkey("x")
		}
		return "x" + strconv.Itoa(g.r.IntN(2))
	}
	grp := func(g *gen) string { return "g" + strconv.Itoa(g.r.IntN(3)) }
	// kg is the key and group of the last XREADGROUP most of the time.
	kg := func(g *gen) (string, string) {
		if l, ok := streamLastRead[g]; ok && !g.chance(3) {
			return l[0], l[1]
		}
		return x(g), grp(g)
	}
	con := func(g *gen) string { return "c" + strconv.Itoa(g.r.IntN(4)) }
	ids := func(g *gen, n int) []string {
		out := make([]string, 1+g.r.IntN(n))
		for i := range out {
			out[i] = g.recentID()
		}
		return out
	}
	return []genCmd{
		{name: "xadd", weight: 60, fn: func(g *gen) []string {
			a := []string{"XADD", x(g)}
			if g.chance(10) {
				a = append(a, "NOMKSTREAM")
			}
			if g.chance(8) {
				a = append(a, g.streamTrim()...)
			}
			id := g.streamID()
			if !g.chance(6) { // mostly a new millisecond or sequence: the append succeeds
				streamMs[g]++
				id = strconv.Itoa(streamMs[g]) + "-" + g.pick("0", "1", "*")
			}
			if r := streamRecent[g]; len(id) > 2 && id[len(id)-2:] != "-*" {
				if len(r) >= 200 {
					r = r[1:]
				}
				streamRecent[g] = append(r, id)
			}
			return append(append(a, id), g.streamFields()...)
		}},
		{name: "xlen", weight: 4, fn: func(g *gen) []string { return []string{"XLEN", x(g)} }},
		{name: "xrange", weight: 6, fn: func(g *gen) []string {
			a := []string{g.pick("XRANGE", "XREVRANGE"), x(g), g.streamBound(), g.streamBound()}
			if g.chance(2) {
				a = append(a, "COUNT", g.pick("0", "1", "3", "10", "-1"))
			}
			return a
		}},
		{name: "xdel", weight: 6, fn: func(g *gen) []string {
			key, _ := kg(g)
			return append([]string{"XDEL", key}, ids(g, 4)...)
		}},
		{name: "xtrim", weight: 3, fn: func(g *gen) []string { return append([]string{"XTRIM", x(g)}, g.streamTrim()...) }},
		{name: "xread", weight: 4, fn: func(g *gen) []string {
			a := []string{"XREAD"}
			if g.chance(2) {
				a = append(a, "COUNT", g.pick("1", "2", "5", "0"))
			}
			return append(a, "STREAMS", x(g), g.pick("0", "$", strconv.Itoa(g.recentMs())))
		}},
		{name: "xgroup", sub: "create", weight: 8, fn: func(g *gen) []string {
			a := []string{"XGROUP", "CREATE", x(g), grp(g), g.pick("0", "$", "100", "250-1")}
			if g.chance(2) {
				a = append(a, "MKSTREAM")
			}
			if g.chance(4) {
				a = append(a, "ENTRIESREAD", g.pick("0", "3", "-1", "100"))
			}
			return a
		}},
		{name: "xgroup", sub: "setid", weight: 2, fn: func(g *gen) []string {
			return []string{"XGROUP", "SETID", x(g), grp(g), g.pick("0", "$", "150")}
		}},
		{name: "xgroup", sub: "destroy", weight: 1, fn: func(g *gen) []string { return []string{"XGROUP", "DESTROY", x(g), grp(g)} }},
		{name: "xgroup", sub: "createconsumer", weight: 1, fn: func(g *gen) []string {
			return []string{"XGROUP", "CREATECONSUMER", x(g), grp(g), con(g)}
		}},
		{name: "xgroup", sub: "delconsumer", weight: 1, fn: func(g *gen) []string {
			return []string{"XGROUP", "DELCONSUMER", x(g), grp(g), con(g)}
		}},
		{name: "xreadgroup", weight: 12, fn: func(g *gen) []string {
			key, group := x(g), grp(g)
			streamLastRead[g] = [2]string{key, group}
			a := []string{"XREADGROUP", "GROUP", group, con(g)}
			if g.chance(2) {
				a = append(a, "COUNT", g.pick("1", "2", "5", "0"))
			}
			if g.chance(6) {
				a = append(a, "NOACK")
			}
			return append(a, "STREAMS", key, g.pick(">", ">", ">", "0", strconv.Itoa(g.recentMs())))
		}},
		{name: "xack", weight: 8, fn: func(g *gen) []string {
			key, group := kg(g)
			return append([]string{"XACK", key, group}, ids(g, 10)...)
		}},
		{name: "xpending", weight: 4, fn: func(g *gen) []string {
			key, group := kg(g)
			return []string{"XPENDING", key, group}
		}},
		{name: "xclaim", weight: 4, fn: func(g *gen) []string {
			key, group := kg(g)
			a := append([]string{"XCLAIM", key, group, con(g), "0"}, ids(g, 4)...)
			if g.chance(3) {
				a = append(a, "FORCE")
			}
			if g.chance(2) {
				a = append(a, "JUSTID")
			}
			if g.chance(5) {
				a = append(a, "LASTID", g.streamID())
			}
			return a
		}},
		{name: "xautoclaim", weight: 4, fn: func(g *gen) []string {
			key, group := kg(g)
			a := []string{"XAUTOCLAIM", key, group, con(g), "0", g.pick("0", strconv.Itoa(g.recentMs()), "(50")}
			if g.chance(2) {
				a = append(a, "COUNT", g.pick("1", "3", "10", "0"))
			}
			if g.chance(2) {
				a = append(a, "JUSTID")
			}
			return a
		}},
		{name: "xsetid", weight: 1, fn: func(g *gen) []string { return []string{"XSETID", x(g), g.streamID()} }},
		{name: "xinfo", sub: "stream", weight: 3, fn: func(g *gen) []string { return []string{"XINFO", "STREAM", x(g)} }},
		{name: "xinfo", sub: "groups", weight: 3, fn: func(g *gen) []string { return []string{"XINFO", "GROUPS", x(g)} }},
		{name: "config", sub: "set", weight: 1, fn: func(g *gen) []string {
			return []string{"CONFIG", "SET", g.pick("stream-node-max-entries", "stream-node-max-bytes"), g.pick("0", "1", "3", "10", "100", "200", "4096")}
		}},
	}
}

// TestStreamGenCoverage checks, on the engine alone, that the generator's stream commands do
// more than fail: most XADDs append, XREADGROUP delivers, XACK / XCLAIM / XAUTOCLAIM find
// pending entries, and streams span several nodes.
func TestStreamGenCoverage(t *testing.T) {
	e := newEngine70()
	g := newGen(1, e)
	ok := map[string]int{}
	all := map[string]int{}
	maxNodes := int64(0)
	for i := 0; i < 20000; i++ {
		args, _ := g.next()
		r := e.Exec(args).Reply
		name := strings.ToLower(string(args[0]))
		all[name]++
		if !r.IsError() && !(r.Kind == engine.KindInt && r.Int == 0) && r.Kind != engine.KindNilArray {
			ok[name]++
		}
		if name == "xadd" && !r.IsError() {
			info := e.Do("XINFO", "STREAM", string(args[1]))
			if len(info.Array) > 3 && info.Array[3].Int > maxNodes {
				maxNodes = info.Array[3].Int
			}
		}
	}
	for c := range all {
		if c[0] == 'x' {
			t.Logf("%s: %d of %d succeeded", c, ok[c], all[c])
		}
	}
	t.Logf("most rax keys: %d", maxNodes)
	// Floors well under what seed 1 reaches, so they only fail when the generator stops
	// exercising a command.
	for c, pct := range map[string]int{"xadd": 50, "xreadgroup": 20, "xclaim": 15, "xautoclaim": 15, "xtrim": 10, "xdel": 5, "xack": 1} {
		if ok[c]*100 < all[c]*pct {
			t.Errorf("%s: only %d of %d succeeded (want ≥ %d%%)", c, ok[c], all[c], pct)
		}
	}
	if maxNodes < 3 {
		t.Errorf("streams never grew past %d nodes", maxNodes)
	}
}
