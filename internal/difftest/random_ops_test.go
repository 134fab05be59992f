package difftest

import (
	"strconv"
	"strings"
)

// Random commands for the multi-key and range commands of sorted sets and lists (ZUNION ZINTER
// ZDIFF and their STORE forms, ZINTERCARD, ZRANGESTORE, ZREMRANGEBYSCORE/RANK, ZMPOP BZMPOP
// BZPOPMIN BZPOPMAX, LMPOP BLMPOP), LCS, MOVE, SWAPDB and SORT (TestRandomDiff draws them with
// the others). Inputs mix the z and s pools (sets count as score 1); destinations are z keys, so
// the stored results meet every other zset command.
//
// Left out on purpose: BYLEX ranges that store or remove (ZRANGESTORE … BYLEX, ZREMRANGEBYLEX)
// — on a skiplist whose scores differ the result depends on the random node levels (see
// lexEqual) and the stores would let the two servers drift apart; the transcripts cover them.
// LCS uses its own small string keys (c0…c2): the k pool can hold strings of hundreds of
// kilobytes, whose LCS table the real server would spend seconds on.

// zsKey draws an input of ZUNION/ZINTER/ZDIFF: mostly a zset, sometimes a set or any key.
//
// A set is looked up (dictFind) only where the command never probes it: ZUNION iterates its
// inputs, ZDIFF probes every input but the first. Each probe of a hashtable set that is being
// rehashed moves the rehash on, and whether a later SREM may shrink the table depends on whether
// the rehash has finished — which on the real server depends on its random hash seed. Probing
// sets thousands of times more than the other commands do made the sets' MEMORY USAGE differ
// now and then for that reason alone (the probes themselves follow Redis: zuiFind → dictFind).
func (g *gen) zsKey(sets bool) string {
	switch {
	case sets && g.chance(4):
		return g.tkey("s")
	case sets:
		return g.tkey("z")
	case g.chance(12):
		return g.pick("k", "h", "l") + strconv.Itoa(g.r.IntN(4)) // WRONGTYPE (or missing)
	}
	return "z" + strconv.Itoa(g.r.IntN(4))
}

// zsetopArgs builds "numkeys key… [WEIGHTS …] [AGGREGATE …] [WITHSCORES]" with now and then a
// broken numkeys or option. op is "union", "inter" or "diff".
func (g *gen) zsetopArgs(a []string, op string, withscores bool) []string {
	diff := op == "diff" || op == "card" // no WEIGHTS/AGGREGATE (mostly)
	n := 1 + g.r.IntN(3)
	num := strconv.Itoa(n)
	if g.chance(15) {
		num = g.pick("0", "-1", "abc", "5", strconv.Itoa(n+1), "")
	}
	a = append(a, num)
	for i := 0; i < n; i++ {
		a = append(a, g.zsKey(op == "union" || (diff && i == 0)))
	}
	for g.chance(2) && len(a) < 16 {
		switch g.r.IntN(6) {
		case 0, 1:
			if diff && !g.chance(4) {
				continue
			}
			a = append(a, g.pick("WEIGHTS", "weights"))
			for i := 0; i < n; i++ {
				a = append(a, g.pick("1", "2", "0", "-1", "0.5", "1.5", "inf", "-inf", "1e308", "abc", "nan", "3"))
			}
		case 2, 3:
			if diff && !g.chance(4) {
				continue
			}
			a = append(a, "AGGREGATE", g.pick("SUM", "MIN", "MAX", "min", "max", "avg"))
		case 4:
			if withscores {
				a = append(a, "WITHSCORES")
			}
		case 5:
			a = append(a, g.pick("WITHSCORES", "LIMIT", "BAD", "WEIGHTS", "AGGREGATE"))
		}
	}
	return a
}

// sortKey draws SORT's key: mostly a list (ordered input, so every reply is deterministic).
func (g *gen) sortKey() string {
	if g.chance(10) {
		return g.anyKey()
	}
	return "l" + strconv.Itoa(g.r.IntN(4))
}

// lcsValue draws short strings over a small alphabet (long common subsequences).
func (g *gen) lcsValue() string {
	n := g.r.IntN(40)
	if g.chance(10) {
		n = 200 + g.r.IntN(400)
	}
	b := make([]byte, n)
	alpha := g.pick("ab", "abc", "acgt", "xyz\x00\xff")
	for i := range b {
		b[i] = alpha[g.r.IntN(len(alpha))]
	}
	return string(b)
}

// mpop draws LMPOP/ZMPOP: 1 to 3 keys of pool, sometimes a bad numkeys, a side drawn from sides,
// sometimes a COUNT.
func (g *gen) mpop(cmd, pool string, sides ...string) []string {
	ks := g.tkeys(pool, 1, 3)
	a := []string{cmd, strconv.Itoa(len(ks))}
	if g.chance(15) {
		a[1] = g.pick("0", "-1", "abc", "9")
	}
	a = append(a, ks...)
	return g.mpopTail(a, sides)
}

// bmpop draws BLMPOP/BZMPOP: a timeout, 1 or 2 keys of pool, a side, sometimes a COUNT.
func (g *gen) bmpop(cmd, pool string, sides ...string) []string {
	ks := g.tkeys(pool, 1, 2)
	return g.mpopTail(append([]string{cmd, g.timeout(), strconv.Itoa(len(ks))}, ks...), sides)
}

func (g *gen) mpopTail(a, sides []string) []string {
	a = append(a, g.pick(sides...))
	if g.chance(2) {
		a = append(a, "COUNT", g.count())
	}
	return a
}

func opsGenCmds() []genCmd {
	z := func(g *gen) string { return g.tkey("z") }
	c := func(g *gen) string {
		if g.chance(10) {
			return g.anyKey()
		}
		return "c" + strconv.Itoa(g.r.IntN(3))
	}
	return []genCmd{
		{name: "zunion", weight: 4, fn: func(g *gen) []string { return g.zsetopArgs([]string{"ZUNION"}, "union", true) }},
		{name: "zinter", weight: 4, fn: func(g *gen) []string { return g.zsetopArgs([]string{"ZINTER"}, "inter", true) }},
		{name: "zdiff", weight: 3, fn: func(g *gen) []string { return g.zsetopArgs([]string{"ZDIFF"}, "diff", true) }},
		{name: "zunionstore", weight: 4, fn: func(g *gen) []string { return g.zsetopArgs([]string{"ZUNIONSTORE", z(g)}, "union", false) }},
		{name: "zinterstore", weight: 4, fn: func(g *gen) []string { return g.zsetopArgs([]string{"ZINTERSTORE", z(g)}, "inter", false) }},
		{name: "zdiffstore", weight: 3, fn: func(g *gen) []string { return g.zsetopArgs([]string{"ZDIFFSTORE", z(g)}, "diff", false) }},
		{name: "zintercard", weight: 3, fn: func(g *gen) []string {
			a := g.zsetopArgs([]string{"ZINTERCARD"}, "card", false)
			if g.chance(2) {
				a = append(a, g.pick("LIMIT", "limit"), g.pick("0", "1", "2", "5", "-1", "abc"))
			}
			return a
		}},
		{name: "zrangestore", weight: 4, fn: func(g *gen) []string {
			a := []string{"ZRANGESTORE", z(g), z(g)}
			by := g.r.IntN(3)
			if by == 1 {
				a = append(a, g.scoreBound(), g.scoreBound(), "BYSCORE")
			} else {
				a = append(a, g.smallIndex(), g.smallIndex())
			}
			if g.chance(3) {
				a = append(a, "REV")
			}
			if by == 1 && g.chance(2) || g.chance(10) {
				a = append(a, "LIMIT", g.smallIndex(), g.count())
			}
			if g.chance(15) {
				a = append(a, g.pick("WITHSCORES", "BYSCORE", "BAD", "REV"))
			}
			return a
		}},
		{name: "zremrangebyscore", weight: 3, fn: func(g *gen) []string {
			return []string{"ZREMRANGEBYSCORE", z(g), g.scoreBound(), g.scoreBound()}
		}},
		{name: "zremrangebyrank", weight: 3, fn: func(g *gen) []string {
			return []string{"ZREMRANGEBYRANK", z(g), g.smallIndex(), g.smallIndex()}
		}},
		{name: "zmpop", weight: 3, fn: func(g *gen) []string { return g.mpop("ZMPOP", "z", "MIN", "MAX", "min", "BAD") }},
		{name: "bzmpop", weight: 1, fn: func(g *gen) []string { return g.bmpop("BZMPOP", "z", "MIN", "MAX") }},
		{name: "bzpopmin", weight: 2, fn: func(g *gen) []string {
			return append(append([]string{g.pick("BZPOPMIN", "BZPOPMAX")}, g.tkeys("z", 1, 3)...), g.timeout())
		}},
		{name: "lmpop", weight: 4, fn: func(g *gen) []string { return g.mpop("LMPOP", "l", "LEFT", "RIGHT", "left", "BAD") }},
		{name: "blmpop", weight: 1, fn: func(g *gen) []string { return g.bmpop("BLMPOP", "l", "LEFT", "RIGHT") }},
		{name: "set", weight: 3, fn: func(g *gen) []string { return []string{"SET", "c" + strconv.Itoa(g.r.IntN(3)), g.lcsValue()} }},
		{name: "lcs", weight: 4, fn: func(g *gen) []string {
			a := []string{"LCS", c(g), c(g)}
			for g.chance(2) && len(a) < 9 {
				switch g.r.IntN(5) {
				case 0:
					a = append(a, "LEN")
				case 1, 2:
					a = append(a, "IDX")
				case 3:
					a = append(a, "MINMATCHLEN", g.pick("0", "1", "2", "3", "5", "-1", "abc"))
				case 4:
					a = append(a, g.pick("WITHMATCHLEN", "WITHMATCHLEN", "BAD", "MINMATCHLEN"))
				}
			}
			return a
		}},
		{name: "move", weight: 1, fn: func(g *gen) []string { return []string{"MOVE", g.anyKey(), g.pick("1", "2", "0", "16", "abc")} }},
		{name: "swapdb", weight: 1, fn: func(g *gen) []string {
			return []string{"SWAPDB", g.pick("0", "1", "2"), g.pick("0", "1", "2", "-1", "x")}
		}},
		{name: "sort", weight: 4, mode: modeSortCmd, fn: func(g *gen) []string {
			// Determinism: a set or zset gives its elements in hash order on the real server
			// (and an l key may hold a set after COPY), so ALPHA with a BY pattern (ties keep
			// the input order; with LIMIT Redis's partial quicksort orders them its own way)
			// gets neither LIMIT nor STORE, and a constant BY (input order) gets no LIMIT.
			// Whatever is left unordered is compared as a multiset (modeSortCmd).
			a := []string{g.pick("SORT", "SORT", "SORT_RO"), g.sortKey()}
			alpha, limit, store := g.chance(3), g.chance(3), g.chance(4) && strings.EqualFold(a[0], "sort")
			by := ""
			if g.chance(2) {
				by = g.pick("k*", "nosort", "h*->a0", "k*->f", "#", "l*")
			}
			constBy := by != "" && !strings.Contains(by, "*")
			if alpha && by != "" && !constBy {
				limit, store = false, false
			}
			if constBy {
				limit = false
			}
			if g.chance(2) {
				a = append(a, g.pick("ASC", "DESC", "desc"))
			}
			if alpha {
				a = append(a, "ALPHA")
			}
			if by != "" {
				a = append(a, "BY", by)
			}
			if limit {
				a = append(a, "LIMIT", g.smallIndex(), g.count())
			}
			for g.chance(3) {
				a = append(a, "GET", g.pick("#", "k*", "h*->a0", "nosuch*", "fixed"))
			}
			if store {
				a = append(a, "STORE", g.tkey("l"))
			}
			if g.chance(20) {
				a = append(a, g.pick("BAD", "LIMIT", "BY", "GET", "STORE"))
			}
			if g.chance(10) {
				// shuffle the options (the parser takes them in any order)
				opts := a[2:]
				g.r.Shuffle(len(opts), func(i, j int) { opts[i], opts[j] = opts[j], opts[i] })
			}
			return a
		}},
	}
}
