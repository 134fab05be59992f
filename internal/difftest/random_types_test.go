package difftest

import (
	"strconv"
	"strings"
)

// Random commands for hashes, sets, sorted sets and lists (TestRandomDiff). Each type has its own
// small key pool (h0…h3, s0…s3, z0…z3, l0…l3) so values grow past the encoding thresholds; now and
// then a key of another pool (or of the string pool k0…k5) is used instead, for WRONGTYPE.

var keyPools = []string{"k", "h", "s", "z", "l", "x"}

// anyKey draws a key of any pool.
func (g *gen) anyKey() string {
	p := keyPools[g.r.IntN(len(keyPools))]
	if p == "k" {
		return g.key()
	}
	return p + strconv.Itoa(g.r.IntN(4))
}

func (g *gen) anyKeys(min, max int) []string { return g.some(min, max, g.anyKey) }

// tkey draws a key of pool p, or sometimes any key.
func (g *gen) tkey(p string) string {
	if g.chance(25) {
		return g.anyKey()
	}
	return p + strconv.Itoa(g.r.IntN(4))
}

func (g *gen) tkeys(p string, min, max int) []string {
	return g.some(min, max, func() string { return g.tkey(p) })
}

// thresholdConfig draws one CONFIG SET of an encoding threshold, mostly low values so conversions
// happen often. (list-compress-depth stays 0: LZF-compressed nodes are not modelled.)
func (g *gen) thresholdConfig() []string {
	switch g.r.IntN(7) {
	case 0:
		return []string{"CONFIG", "SET", "hash-max-listpack-entries", g.pick("0", "1", "2", "4", "4", "8", "16", "128", "512")}
	case 1:
		return []string{"CONFIG", "SET", "hash-max-listpack-value", g.pick("0", "1", "8", "16", "16", "32", "64")}
	case 2:
		return []string{"CONFIG", "SET", "set-max-intset-entries", g.pick("0", "1", "2", "4", "4", "8", "16", "512")}
	case 3:
		return []string{"CONFIG", "SET", "zset-max-listpack-entries", g.pick("0", "1", "2", "4", "4", "8", "16", "128")}
	case 4:
		return []string{"CONFIG", "SET", "zset-max-listpack-value", g.pick("0", "1", "8", "16", "16", "32", "64")}
	case 5:
		return []string{"CONFIG", "SET", "list-max-listpack-size", g.pick("-5", "-4", "-3", "-2", "-1", "-1", "0", "1", "2", "3", "4", "8", "128", "-6", "abc")}
	}
	return []string{"CONFIG", "SET", g.pick("hash-max-ziplist-entries", "zset-max-ziplist-value", "list-max-ziplist-size"), g.pick("3", "10", "-1")}
}

// initialConfig lowers every threshold for most seeds.
func (g *gen) initialConfig() [][]string {
	if g.chance(5) {
		return nil // the defaults
	}
	return [][]string{
		{"CONFIG", "SET", "hash-max-listpack-entries", g.pick("2", "4", "8", "16")},
		{"CONFIG", "SET", "hash-max-listpack-value", g.pick("8", "16", "32")},
		{"CONFIG", "SET", "set-max-intset-entries", g.pick("2", "4", "8", "16")},
		{"CONFIG", "SET", "zset-max-listpack-entries", g.pick("2", "4", "8", "16")},
		{"CONFIG", "SET", "zset-max-listpack-value", g.pick("8", "16", "32")},
		{"CONFIG", "SET", "list-max-listpack-size", g.pick("-2", "-1", "2", "4", "8")},
	}
}

// field draws hash fields and set/zset members from a small name space (so they meet each other),
// with integers (intset), int64 edges, long strings (past listpack-value thresholds) and odd ones.
func (g *gen) field() string {
	switch g.r.IntN(20) {
	case 0:
		return g.pick("", " ", "\x00", "f\x00", "é", "-", "+", "[a", "(a", "*")
	case 1:
		return g.pick("9223372036854775807", "-9223372036854775808", "2147483648", "-2147483649", "32768", "-32769", "65536")
	case 2:
		return g.pick("01", "1.5", " 1", "1e3", "-0", "+1", "18446744073709551616")
	case 3:
		n := g.pick("7", "8", "9", "15", "16", "17", "31", "32", "33", "63", "64", "65", "100")
		m, _ := strconv.Atoi(n)
		return strings.Repeat(g.pick("m", "n"), m)
	case 4, 5, 6, 7:
		return strconv.Itoa(g.r.IntN(40) - 5)
	}
	return g.pick("a", "b", "c", "d", "e", "f") + strconv.Itoa(g.r.IntN(8))
}

func (g *gen) fields(min, max int) []string { return g.some(min, max, g.field) }

// many returns n fields of a wider name space (bulk inserts that cross the entry thresholds).
func (g *gen) many(n int) []string {
	out := make([]string, n)
	base := g.r.IntN(1000)
	for i := range out {
		if g.chance(2) {
			out[i] = strconv.Itoa(base + i)
		} else {
			out[i] = "m" + strconv.Itoa(base+i)
		}
	}
	return out
}

// pairArgs appends the pairs of HSET or ZADD to a: one in 12 a bulk insert (bulk makes the pair
// of each name of g.many), otherwise 1 to 3 pairs, and one in 20 a dangling odd argument.
func (g *gen) pairArgs(a []string, bulk func(name string) []string, pair func() []string, odd func() string) []string {
	if g.chance(12) {
		for _, m := range g.many(10 + g.r.IntN(150)) {
			a = append(a, bulk(m)...)
		}
		return a
	}
	for i := 0; i < 1+g.r.IntN(3); i++ {
		a = append(a, pair()...)
	}
	if g.chance(20) {
		a = append(a, odd())
	}
	return a
}

// randCount draws the rest of SRANDMEMBER, HRANDFIELD and ZRANDMEMBER: one in three no count;
// with a count, when with names the WITH… flag's spellings, one in two that flag.
func (g *gen) randCount(a []string, with ...string) []string {
	if g.chance(3) {
		return a
	}
	a = append(a, g.pick(g.count(), "-3", "-10", "3", "100"))
	if len(with) > 0 && g.chance(2) {
		a = append(a, g.pick(with...))
	}
	return a
}

// score draws zset scores: small integers (ties, so members order by name), fractions, edges.
func (g *gen) score() string {
	switch g.r.IntN(14) {
	case 0:
		return g.pick("inf", "-inf", "+inf", "nan", "1e308", "-1e308", "5e-324", "0.1", "-0", "1.5e300", "3.0000000000000004")
	case 1:
		return g.pick("abc", "", "1e", " 1", "1 ", "0x10", "--1", "1.2.3")
	case 2:
		return g.float()
	case 3:
		return g.integer()
	case 4, 5:
		return strconv.FormatFloat(float64(g.r.IntN(2000)-1000)/8, 'g', -1, 64)
	}
	return strconv.Itoa(g.r.IntN(10))
}

// scoreBound draws ZRANGEBYSCORE/ZCOUNT bounds.
func (g *gen) scoreBound() string {
	switch g.r.IntN(8) {
	case 0:
		return g.pick("-inf", "+inf", "inf", "(-inf", "(+inf", "-INF", "nan", "(nan", "abc", "", "(", "((1", "( 1", "1e400")
	case 1:
		return "(" + strconv.Itoa(g.r.IntN(12)-1)
	case 2:
		return g.score()
	}
	return strconv.Itoa(g.r.IntN(12) - 1)
}

// lexBound draws ZRANGEBYLEX/ZLEXCOUNT bounds.
func (g *gen) lexBound() string {
	switch g.r.IntN(6) {
	case 0:
		return g.pick("-", "+", "[", "(", "a", "", "-a", "+b", "[\xff")
	case 1:
		return g.pick("-", "+")
	}
	return g.pick("[", "(") + g.field()
}

// count draws COUNT-like arguments.
func (g *gen) count() string {
	switch g.r.IntN(8) {
	case 0:
		return g.pick("0", "-1", "-5", "abc", "", "9223372036854775807", "-9223372036854775808", "1.5", "4294967296")
	case 1:
		return strconv.Itoa(g.r.IntN(200))
	}
	return strconv.Itoa(g.r.IntN(8))
}

// smallIndex draws LRANGE/ZRANGE-style indices.
func (g *gen) smallIndex() string {
	switch g.r.IntN(10) {
	case 0:
		return g.pick("9223372036854775807", "-9223372036854775808", "abc", "", "1.0", "-0", "+1")
	case 1:
		return strconv.Itoa(g.r.IntN(2000) - 1000)
	}
	return strconv.Itoa(g.r.IntN(24) - 12)
}

// element draws list elements: a few common ones (for LREM/LPOS/LINSERT pivots) and values.
func (g *gen) element() string {
	if g.chance(2) {
		return g.pick("a", "b", "c", "1", "2", "10000", "")
	}
	if g.chance(40) {
		return strings.Repeat("L", 3000+g.r.IntN(6000)) // node size limits
	}
	return g.value()
}

func (g *gen) elements(min, max int) []string { return g.some(min, max, g.element) }

// timeout draws blocking timeouts: never 0 (that would block forever on an empty list).
func (g *gen) timeout() string {
	if g.chance(6) {
		return g.pick("-1", "abc", "", "inf", "1e30", "-0.5", "0x1", "9223372036854775807")
	}
	return g.pick("0.01", "0.005", "0.02")
}

func (g *gen) scanOpts(a []string) []string {
	for g.chance(2) && len(a) < 9 {
		switch g.r.IntN(5) {
		case 0, 1:
			a = append(a, "MATCH", g.pick("*", "a*", "*1*", "[abc]?", "m*", "1*", "\\*", "[", "*[", "?"))
		case 2, 3:
			a = append(a, "COUNT", g.pick("1", "2", "5", "10", "100", "1000", "0", "-1", "abc"))
		case 4:
			a = append(a, g.pick("NOVALUES", "TYPE", "BAD", "COUNT"))
		}
	}
	return a
}

func (g *gen) cursor() string {
	if g.chance(8) {
		return g.pick("1", "5", "abc", "-1", "18446744073709551615", "18446744073709551616", "", " 0")
	}
	return "0"
}

func typeGenCmds() []genCmd {
	h := func(g *gen) string { return g.tkey("h") }
	s := func(g *gen) string { return g.tkey("s") }
	z := func(g *gen) string { return g.tkey("z") }
	l := func(g *gen) string { return g.tkey("l") }
	return []genCmd{
		{name: "config", sub: "set", weight: 3, fn: func(g *gen) []string { return g.thresholdConfig() }},

		// hashes
		{name: "hset", weight: 30, fn: func(g *gen) []string {
			return g.pairArgs([]string{g.pick("HSET", "HSET", "HMSET"), h(g)},
				func(f string) []string { return []string{f, g.pick("v", "1", f)} },
				func() []string { return []string{g.field(), g.value()} }, g.field)
		}},
		{name: "hsetnx", weight: 4, fn: func(g *gen) []string { return []string{"HSETNX", h(g), g.field(), g.value()} }},
		{name: "hget", weight: 10, fn: func(g *gen) []string { return []string{"HGET", h(g), g.field()} }},
		{name: "hmget", weight: 5, fn: func(g *gen) []string { return append([]string{"HMGET", h(g)}, g.fields(1, 5)...) }},
		{name: "hdel", weight: 10, fn: func(g *gen) []string { return append([]string{"HDEL", h(g)}, g.fields(1, 4)...) }},
		{name: "hlen", weight: 4, fn: func(g *gen) []string { return []string{"HLEN", h(g)} }},
		{name: "hexists", weight: 4, fn: func(g *gen) []string { return []string{"HEXISTS", h(g), g.field()} }},
		{name: "hstrlen", weight: 4, fn: func(g *gen) []string { return []string{"HSTRLEN", h(g), g.field()} }},
		{name: "hkeys", weight: 3, mode: modeSortIfHT, fn: func(g *gen) []string { return []string{"HKEYS", h(g)} }},
		{name: "hvals", weight: 3, mode: modeSortIfHT, fn: func(g *gen) []string { return []string{"HVALS", h(g)} }},
		{name: "hgetall", weight: 4, mode: modePairsIfHT, fn: func(g *gen) []string { return []string{"HGETALL", h(g)} }},
		{name: "hincrby", weight: 8, fn: func(g *gen) []string { return []string{"HINCRBY", h(g), g.field(), g.integer()} }},
		{name: "hincrbyfloat", weight: 8, fn: func(g *gen) []string { return []string{"HINCRBYFLOAT", h(g), g.field(), g.float()} }},
		{name: "hscan", weight: 4, mode: modeScan, fn: func(g *gen) []string { return g.scanOpts([]string{"HSCAN", h(g), g.cursor()}) }},
		{name: "hrandfield", weight: 4, mode: modeShape, fn: func(g *gen) []string {
			return g.randCount([]string{"HRANDFIELD", h(g)}, "WITHVALUES", "WITHVALUES", "withvalues", "BAD")
		}},

		// sets
		{name: "sadd", weight: 30, fn: func(g *gen) []string {
			if g.chance(12) {
				return append([]string{"SADD", s(g)}, g.many(10+g.r.IntN(150))...)
			}
			return append([]string{"SADD", s(g)}, g.fields(1, 4)...)
		}},
		{name: "srem", weight: 10, fn: func(g *gen) []string { return append([]string{"SREM", s(g)}, g.fields(1, 4)...) }},
		{name: "sismember", weight: 6, fn: func(g *gen) []string { return []string{"SISMEMBER", s(g), g.field()} }},
		{name: "smismember", weight: 4, fn: func(g *gen) []string { return append([]string{"SMISMEMBER", s(g)}, g.fields(1, 4)...) }},
		{name: "scard", weight: 5, fn: func(g *gen) []string { return []string{"SCARD", s(g)} }},
		{name: "smembers", weight: 5, mode: modeSortIfHT, fn: func(g *gen) []string { return []string{"SMEMBERS", s(g)} }},
		{name: "sscan", weight: 4, mode: modeScan, fn: func(g *gen) []string { return g.scanOpts([]string{"SSCAN", s(g), g.cursor()}) }},
		{name: "srandmember", weight: 4, mode: modeShape, fn: func(g *gen) []string {
			return g.randCount([]string{"SRANDMEMBER", s(g)})
		}},
		{name: "spop", weight: 4, mode: modeResync, fn: func(g *gen) []string {
			a := []string{"SPOP", s(g)}
			if g.chance(2) {
				return a
			}
			return append(a, g.pick(g.count(), "1", "3", "100000"))
		}},
		{name: "smove", weight: 5, fn: func(g *gen) []string { return []string{"SMOVE", s(g), s(g), g.field()} }},
		{name: "sinter", weight: 4, mode: modeSort, fn: func(g *gen) []string { return append([]string{"SINTER"}, g.tkeys("s", 1, 3)...) }},
		{name: "sintercard", weight: 4, fn: func(g *gen) []string {
			ks := g.tkeys("s", 1, 3)
			a := []string{"SINTERCARD", strconv.Itoa(len(ks))}
			if g.chance(10) {
				a[1] = g.pick("0", "-1", "abc", "5", "2")
			}
			a = append(a, ks...)
			if g.chance(2) {
				a = append(a, g.pick("LIMIT", "limit", "BAD"), g.pick("0", "1", "2", "5", "-1", "abc"))
			}
			return a
		}},
		{name: "sinterstore", weight: 3, fn: func(g *gen) []string { return append([]string{"SINTERSTORE", s(g)}, g.tkeys("s", 1, 3)...) }},
		{name: "sunion", weight: 3, mode: modeSort, fn: func(g *gen) []string { return append([]string{"SUNION"}, g.tkeys("s", 1, 3)...) }},
		{name: "sunionstore", weight: 3, fn: func(g *gen) []string { return append([]string{"SUNIONSTORE", s(g)}, g.tkeys("s", 1, 3)...) }},
		{name: "sdiff", weight: 3, mode: modeSort, fn: func(g *gen) []string { return append([]string{"SDIFF"}, g.tkeys("s", 1, 3)...) }},
		{name: "sdiffstore", weight: 3, fn: func(g *gen) []string { return append([]string{"SDIFFSTORE", s(g)}, g.tkeys("s", 1, 3)...) }},

		// sorted sets
		{name: "zadd", weight: 30, fn: func(g *gen) []string {
			a := []string{"ZADD", z(g)}
			for g.chance(3) {
				a = append(a, g.pick("NX", "XX", "GT", "LT", "CH", "INCR", "ch", "BAD"))
			}
			return g.pairArgs(a,
				func(m string) []string { return []string{strconv.Itoa(g.r.IntN(20)), m} },
				func() []string { return []string{g.score(), g.field()} }, g.score)
		}},
		{name: "zincrby", weight: 8, fn: func(g *gen) []string { return []string{"ZINCRBY", z(g), g.score(), g.field()} }},
		{name: "zscore", weight: 5, fn: func(g *gen) []string { return []string{"ZSCORE", z(g), g.field()} }},
		{name: "zmscore", weight: 4, fn: func(g *gen) []string { return append([]string{"ZMSCORE", z(g)}, g.fields(1, 4)...) }},
		{name: "zrank", weight: 4, fn: func(g *gen) []string {
			a := []string{g.pick("ZRANK", "ZREVRANK"), z(g), g.field()}
			if g.chance(10) {
				a = append(a, "WITHSCORE")
			}
			return a
		}},
		{name: "zcard", weight: 4, fn: func(g *gen) []string { return []string{"ZCARD", z(g)} }},
		{name: "zcount", weight: 5, fn: func(g *gen) []string { return []string{"ZCOUNT", z(g), g.scoreBound(), g.scoreBound()} }},
		{name: "zlexcount", weight: 4, mode: modeLex, fn: func(g *gen) []string { return []string{"ZLEXCOUNT", z(g), g.lexBound(), g.lexBound()} }},
		{name: "zrem", weight: 8, fn: func(g *gen) []string { return append([]string{"ZREM", z(g)}, g.fields(1, 4)...) }},
		{name: "zrange", weight: 10, mode: modeLex, fn: func(g *gen) []string {
			a := []string{"ZRANGE", z(g)}
			by := g.r.IntN(4)
			switch by {
			case 1:
				a = append(a, g.scoreBound(), g.scoreBound(), "BYSCORE")
			case 2:
				a = append(a, g.lexBound(), g.lexBound(), "BYLEX")
			default:
				a = append(a, g.smallIndex(), g.smallIndex())
			}
			if g.chance(3) {
				a = append(a, "REV")
			}
			if g.chance(3) || (by != 0 && g.chance(2)) {
				a = append(a, "LIMIT", g.smallIndex(), g.count())
			}
			if g.chance(2) {
				a = append(a, "WITHSCORES")
			}
			if g.chance(20) {
				a = append(a, g.pick("BYSCORE", "BYLEX", "BAD", "LIMIT", "REV"))
			}
			return a
		}},
		{name: "zrevrange", weight: 4, fn: func(g *gen) []string {
			a := []string{"ZREVRANGE", z(g), g.smallIndex(), g.smallIndex()}
			if g.chance(2) {
				a = append(a, g.pick("WITHSCORES", "withscores", "BAD"))
			}
			return a
		}},
		{name: "zrangebyscore", weight: 6, fn: func(g *gen) []string {
			a := []string{g.pick("ZRANGEBYSCORE", "ZREVRANGEBYSCORE"), z(g), g.scoreBound(), g.scoreBound()}
			if g.chance(2) {
				a = append(a, "WITHSCORES")
			}
			if g.chance(2) {
				a = append(a, "LIMIT", g.smallIndex(), g.count())
			}
			return a
		}},
		{name: "zrangebylex", weight: 6, mode: modeLex, fn: func(g *gen) []string {
			a := []string{g.pick("ZRANGEBYLEX", "ZREVRANGEBYLEX"), z(g), g.lexBound(), g.lexBound()}
			if g.chance(2) {
				a = append(a, "LIMIT", g.smallIndex(), g.count())
			}
			if g.chance(10) {
				a = append(a, "WITHSCORES")
			}
			return a
		}},
		{name: "zpopmin", weight: 5, fn: func(g *gen) []string {
			a := []string{g.pick("ZPOPMIN", "ZPOPMAX"), z(g)}
			if g.chance(2) {
				a = append(a, g.count())
			}
			return a
		}},
		{name: "zrandmember", weight: 4, mode: modeShape, fn: func(g *gen) []string {
			return g.randCount([]string{"ZRANDMEMBER", z(g)}, "WITHSCORES", "withscores", "BAD")
		}},
		{name: "zscan", weight: 4, mode: modeScan, fn: func(g *gen) []string { return g.scanOpts([]string{"ZSCAN", z(g), g.cursor()}) }},

		// lists
		{name: "lpush", weight: 20, fn: func(g *gen) []string {
			a := []string{g.pick("LPUSH", "RPUSH", "LPUSH", "RPUSH", "LPUSHX", "RPUSHX"), l(g)}
			if g.chance(12) {
				return append(a, g.elements(20, 200)...)
			}
			return append(a, g.elements(1, 4)...)
		}},
		{name: "lpop", weight: 8, fn: func(g *gen) []string {
			a := []string{g.pick("LPOP", "RPOP"), l(g)}
			if g.chance(2) {
				a = append(a, g.count())
			}
			return a
		}},
		{name: "llen", weight: 4, fn: func(g *gen) []string { return []string{"LLEN", l(g)} }},
		{name: "lrange", weight: 8, fn: func(g *gen) []string { return []string{"LRANGE", l(g), g.smallIndex(), g.smallIndex()} }},
		{name: "lindex", weight: 5, fn: func(g *gen) []string { return []string{"LINDEX", l(g), g.smallIndex()} }},
		{name: "lset", weight: 5, fn: func(g *gen) []string { return []string{"LSET", l(g), g.smallIndex(), g.element()} }},
		{name: "linsert", weight: 5, fn: func(g *gen) []string {
			return []string{"LINSERT", l(g), g.pick("BEFORE", "AFTER", "before", "BAD"), g.element(), g.element()}
		}},
		{name: "lpos", weight: 5, fn: func(g *gen) []string {
			a := []string{"LPOS", l(g), g.element()}
			for g.chance(2) && len(a) < 9 {
				switch g.r.IntN(4) {
				case 0:
					a = append(a, "RANK", g.pick("1", "2", "-1", "-2", "0", "abc", "-9223372036854775808", "9223372036854775807"))
				case 1:
					a = append(a, "COUNT", g.pick("0", "1", "2", "-1", "abc"))
				case 2:
					a = append(a, "MAXLEN", g.pick("0", "1", "3", "-1", "abc"))
				case 3:
					a = append(a, g.pick("BAD", "RANK"))
				}
			}
			return a
		}},
		{name: "lrem", weight: 5, fn: func(g *gen) []string {
			return []string{"LREM", l(g), g.pick("0", "1", "-1", "2", "-2", "abc", "100"), g.element()}
		}},
		{name: "ltrim", weight: 4, fn: func(g *gen) []string { return []string{"LTRIM", l(g), g.smallIndex(), g.smallIndex()} }},
		{name: "lmove", weight: 5, fn: func(g *gen) []string {
			return []string{"LMOVE", l(g), l(g), g.pick("LEFT", "RIGHT", "left", "BAD"), g.pick("LEFT", "RIGHT", "right")}
		}},
		{name: "rpoplpush", weight: 3, fn: func(g *gen) []string { return []string{"RPOPLPUSH", l(g), l(g)} }},
		{name: "blmove", weight: 1, fn: func(g *gen) []string {
			return []string{"BLMOVE", l(g), l(g), g.pick("LEFT", "RIGHT", "BAD"), g.pick("LEFT", "RIGHT"), g.timeout()}
		}},
		{name: "brpoplpush", weight: 1, fn: func(g *gen) []string { return []string{"BRPOPLPUSH", l(g), l(g), g.timeout()} }},
		{name: "blpop", weight: 2, fn: func(g *gen) []string {
			return append(append([]string{g.pick("BLPOP", "BRPOP")}, g.tkeys("l", 1, 3)...), g.timeout())
		}},
	}
}
