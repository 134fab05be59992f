package difftest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"redscope/engine"
	"redscope/internal/transcript"
)

// TestRandomDiff sends a seeded random sequence of string, bitmap, HyperLogLog and keyspace
// commands over a small key set to redis-server and to redscope and compares every reply byte for
// byte. Only commands the engine's 7.0 profile has are drawn, so the test grows with the engine.
//
// REDSCOPE_DIFF_SEED=n picks the seed (default 1), REDSCOPE_DIFF_N=n the number of commands
// (default 20000).
func TestRandomDiff(t *testing.T) {
	seed := envInt("REDSCOPE_DIFF_SEED", 1)
	n := envInt("REDSCOPE_DIFF_N", 20000)
	if testing.Short() {
		n = 3000
	}
	addr := realRedis(t)
	checkRealVersion(t, addr)
	srv, scopeAddr := scopeServer(t)
	rs := newResetter(t, addr)
	rs.reset(t)
	srv.SetEngine(newEngine70())

	g := newGen(uint64(seed), newEngine70())
	if len(g.cmds) == 0 {
		t.Skip("the engine has none of the commands the random test draws from yet")
	}
	names := make([]string, 0, len(g.cmds))
	for _, c := range g.cmds {
		names = append(names, c.name)
	}
	t.Logf("seed %d, %d commands drawn from: %s", seed, n, strings.Join(names, " "))

	ref, err := transcript.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer ref.Close()
	got, err := transcript.Dial(scopeAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Close()

	type entry struct {
		cmd   string
		reply string
	}
	var hist []entry
	for i := 0; i < n; i++ {
		args := g.next()
		refRaw, refR, err := ref.Do(args)
		if err != nil {
			t.Fatalf("seed %d, command %d %s: redis-server: %v", seed, i, quoteArgs(args), err)
		}
		refRaw = append([]byte(nil), refRaw...)
		gotRaw, gotR, err := got.Do(args)
		if err != nil {
			t.Fatalf("seed %d, command %d %s: redscope: %v", seed, i, quoteArgs(args), err)
		}
		name := strings.ToLower(string(args[0]))
		if g.unordered[name] {
			refR, gotR = transcript.SortReply(refR), transcript.SortReply(gotR)
			refRaw, gotRaw = refR.AppendRESP2(nil), gotR.AppendRESP2(nil)
		}
		if !bytes.Equal(refRaw, gotRaw) && !timeClose(name, refR, gotR) {
			var b strings.Builder
			fmt.Fprintf(&b, "seed %d: first difference at command %d of %d (rerun with REDSCOPE_DIFF_SEED=%d)\n", seed, i, n, seed)
			from := max(0, len(hist)-15)
			if from > 0 {
				b.WriteString("  …\n")
			}
			for _, h := range hist[from:] {
				fmt.Fprintf(&b, "  > %s\n    %s", h.cmd, strings.ReplaceAll(strings.TrimSuffix(h.reply, "\n"), "\n", "\n    ")+"\n")
			}
			fmt.Fprintf(&b, "  > %s\n  redis-server:\n    %s  redscope:\n    %s", quoteArgs(args),
				strings.ReplaceAll(strings.TrimSuffix(refR.FormatCLI(), "\n"), "\n", "\n    ")+fmt.Sprintf("\n    (raw %.300q)\n", refRaw),
				strings.ReplaceAll(strings.TrimSuffix(gotR.FormatCLI(), "\n"), "\n", "\n    ")+fmt.Sprintf("\n    (raw %.300q)\n", gotRaw))
			t.Fatal(b.String())
		}
		hist = append(hist, entry{quoteArgs(args), refR.FormatCLI()})
		if len(hist) > 64 {
			hist = append(hist[:0], hist[len(hist)-16:]...)
		}
	}
}

func envInt(name string, def int) int {
	if v := os.Getenv(name); v != "" {
		if n, err := strconv.Atoi(v); err == nil {
			return n
		}
	}
	return def
}

// timeClose accepts TTL-like replies that differ only by the time between the two servers'
// executions of the same command.
func timeClose(name string, a, b engine.Reply) bool {
	if a.Kind != engine.KindInt || b.Kind != engine.KindInt || a.Int < 0 || b.Int < 0 {
		return false
	}
	d := a.Int - b.Int
	if d < 0 {
		d = -d
	}
	switch name {
	case "ttl", "expiretime":
		return d <= 1
	case "pttl", "pexpiretime":
		return d <= 250
	}
	return false
}

func quoteArgs(args [][]byte) string {
	var b []byte
	for i, a := range args {
		if i > 0 {
			b = append(b, ' ')
		}
		plain := len(a) > 0
		for _, c := range a {
			if c <= ' ' || c >= 0x7f || c == '"' || c == '\'' || c == '\\' {
				plain = false
				break
			}
		}
		if plain {
			b = append(b, a...)
		} else {
			b = engine.AppendRepr(b, string(a))
		}
	}
	return string(b)
}

// gen draws commands.
type gen struct {
	r         *rand.Rand
	cmds      []genCmd
	total     int
	unordered map[string]bool
	baseSec   int64 // a fixed absolute time for EXPIREAT/EXAT (in the future)
}

type genCmd struct {
	name   string
	sub    string
	weight int
	fn     func(g *gen) []string
}

func newGen(seed uint64, e *engine.Engine) *gen {
	g := &gen{
		r:         rand.New(rand.NewPCG(seed, seed*0x9e3779b97f4a7c15+1)),
		unordered: map[string]bool{"keys": true},
		baseSec:   time.Now().Unix() + 100000,
	}
	have := map[string]*engine.Command{}
	for _, c := range e.Commands() {
		have[c.Name] = c
	}
	for _, c := range allGenCmds() {
		ec := have[c.name]
		if ec == nil {
			continue
		}
		if c.sub != "" && (ec.Sub == nil || ec.Sub[c.sub] == nil) {
			continue
		}
		g.cmds = append(g.cmds, c)
		g.total += c.weight
	}
	return g
}

func (g *gen) next() [][]byte {
	x := g.r.IntN(g.total)
	var c genCmd
	for _, c = range g.cmds {
		if x < c.weight {
			break
		}
		x -= c.weight
	}
	args := c.fn(g)
	out := make([][]byte, len(args))
	for i, a := range args {
		out[i] = []byte(a)
	}
	// Now and then a wrong number of arguments.
	if g.r.IntN(200) == 0 && len(out) > 1 {
		out = out[:1]
	}
	return out
}

func (g *gen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }
func (g *gen) chance(n int) bool        { return g.r.IntN(n) == 0 }

// key draws from a small key set so commands meet each other's values.
func (g *gen) key() string {
	if g.chance(50) {
		return g.pick("", "a key with spaces", "k\x00z", "{k}1")
	}
	return "k" + strconv.Itoa(g.r.IntN(6))
}

func (g *gen) keys(min, max int) []string {
	n := min + g.r.IntN(max-min+1)
	out := make([]string, n)
	for i := range out {
		out[i] = g.key()
	}
	return out
}

// integer draws integers at the edges: around 0, the shared-integer limit 10000, int64 limits,
// and malformed ones.
func (g *gen) integer() string {
	switch g.r.IntN(12) {
	case 0:
		return g.pick("9223372036854775807", "-9223372036854775808", "9223372036854775806", "-9223372036854775807")
	case 1:
		return g.pick("9223372036854775808", "-9223372036854775809", "18446744073709551616", "99999999999999999999")
	case 2:
		return g.pick("", " 1", "1 ", "+1", "01", "-0", "0x10", "1e3", "1.0", "abc", "--1", "-")
	case 3:
		return g.pick("9999", "10000", "10001", "-1", "0", "1")
	case 4:
		return strconv.FormatInt(g.r.Int64()-(1<<62), 10)
	}
	return strconv.Itoa(g.r.IntN(2001) - 1000)
}

func (g *gen) float() string {
	switch g.r.IntN(8) {
	case 0:
		return g.pick("inf", "-inf", "+inf", "nan", "1e308", "-1e308", "1e-320", "5e-324", "0.1", "-0", "0x1p3", " 1", "1.", ".5", "1e", "abc", "")
	case 1:
		return g.integer()
	}
	return strconv.FormatFloat((g.r.Float64()-0.5)*math10(g.r.IntN(12)), 'g', -1, 64)
}

func math10(n int) float64 {
	f := 1.0
	for i := 0; i < n; i++ {
		f *= 10
	}
	return f
}

// value draws string values: numbers (int encoding), short (embstr ≤ 44 bytes) and long ones,
// binary bytes.
func (g *gen) value() string {
	switch g.r.IntN(10) {
	case 0, 1:
		return g.integer()
	case 2:
		return g.float()
	case 3:
		n := g.pick("43", "44", "45", "63", "64", "100", "1000")
		m, _ := strconv.Atoi(n)
		return strings.Repeat(g.pick("x", "ab", "\x00"), m)[:m]
	case 4:
		b := make([]byte, g.r.IntN(40))
		for i := range b {
			b[i] = byte(g.r.IntN(256))
		}
		return string(b)
	case 5:
		return ""
	}
	return g.pick("foo", "bar", "hello", "hello world", "a", "Redis", "\xff\xf0\x00", "12abc")
}

// offset draws bit/byte offsets: small, around byte boundaries, large, out of range, malformed.
func (g *gen) offset(limit int) string {
	switch g.r.IntN(14) {
	case 0:
		// Out of range or malformed only: a valid offset near 2^32 makes redis-server allocate
		// 512 MiB (the transcripts cover those).
		return g.pick("-1", "abc", "", "1.5", "4294967296", "9223372036854775807", "-9223372036854775808", "+5")
	case 1:
		return strconv.Itoa(g.r.IntN(limit))
	case 2:
		return g.pick("7", "8", "15", "16", "63", "64", "1023", "1024")
	}
	return strconv.Itoa(g.r.IntN(200))
}

// index draws GETRANGE/BITCOUNT style indices (negative counts from the end).
func (g *gen) index() string {
	switch g.r.IntN(10) {
	case 0:
		return g.pick("9223372036854775807", "-9223372036854775808", "abc", "", "1.0", "-0")
	case 1:
		return strconv.Itoa(g.r.IntN(100000) - 50000)
	}
	return strconv.Itoa(g.r.IntN(60) - 30)
}

func (g *gen) ttlSecs() string {
	switch g.r.IntN(10) {
	case 0:
		return g.pick("0", "-1", "-100", "abc", "", "9223372036854775807", "9223372036854775", "1.5")
	}
	return strconv.Itoa(1000 + g.r.IntN(100000))
}

func (g *gen) absSecs() string {
	switch g.r.IntN(6) {
	case 0:
		return g.pick("1", "0", "-1", "100", "abc", "9223372036854775807")
	}
	return strconv.FormatInt(g.baseSec+int64(g.r.IntN(1000)), 10)
}

func (g *gen) expireFlags(args []string) []string {
	if g.chance(3) {
		args = append(args, g.pick("NX", "XX", "GT", "LT", "nx", "NX XX", "GT LT", "BAD"))
		if strings.Contains(args[len(args)-1], " ") {
			f := strings.Fields(args[len(args)-1])
			args = append(args[:len(args)-1], f...)
		}
	}
	return args
}

func (g *gen) setOptions() []string {
	var o []string
	for g.chance(2) && len(o) < 6 {
		switch g.r.IntN(9) {
		case 0:
			o = append(o, "NX")
		case 1:
			o = append(o, "XX")
		case 2:
			o = append(o, "EX", g.ttlSecs())
		case 3:
			o = append(o, "PX", strconv.Itoa(1000000+g.r.IntN(100000000)))
		case 4:
			o = append(o, "EXAT", g.absSecs())
		case 5:
			o = append(o, "PXAT", strconv.FormatInt(g.baseSec*1000+int64(g.r.IntN(1000000)), 10))
		case 6:
			o = append(o, "KEEPTTL")
		case 7:
			o = append(o, "GET")
		case 8:
			o = append(o, g.pick("ex", "BAD", "EX"))
		}
	}
	return o
}

func (g *gen) bitfieldType() string {
	switch g.r.IntN(8) {
	case 0:
		return g.pick("u64", "i65", "i0", "u0", "x8", "", "I8", "u63", "i64")
	}
	sign := g.pick("i", "u")
	w := 1 + g.r.IntN(63)
	return sign + strconv.Itoa(w)
}

func (g *gen) bitfieldOffset() string {
	if g.chance(4) {
		return "#" + strconv.Itoa(g.r.IntN(20))
	}
	if g.chance(20) {
		return g.pick("-1", "#-1", "abc", "4294967296", "#536870912", "")
	}
	return strconv.Itoa(g.r.IntN(300))
}

func (g *gen) hllElements(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = "e" + strconv.Itoa(g.r.IntN(3000))
	}
	return out
}

func allGenCmds() []genCmd {
	k := func(g *gen) string { return g.key() }
	return []genCmd{
		// strings
		{name: "set", weight: 40, fn: func(g *gen) []string {
			return append([]string{"SET", k(g), g.value()}, g.setOptions()...)
		}},
		{name: "get", weight: 25, fn: func(g *gen) []string { return []string{"GET", k(g)} }},
		{name: "getset", weight: 3, fn: func(g *gen) []string { return []string{"GETSET", k(g), g.value()} }},
		{name: "getdel", weight: 3, fn: func(g *gen) []string { return []string{"GETDEL", k(g)} }},
		{name: "getex", weight: 4, fn: func(g *gen) []string {
			a := []string{"GETEX", k(g)}
			switch g.r.IntN(7) {
			case 0:
				a = append(a, "EX", g.ttlSecs())
			case 1:
				a = append(a, "PX", strconv.Itoa(1000000+g.r.IntN(1000000)))
			case 2:
				a = append(a, "EXAT", g.absSecs())
			case 3:
				a = append(a, "PERSIST")
			case 4:
				a = append(a, g.pick("BAD", "EX", "PERSIST EX"))
			}
			return a
		}},
		{name: "setnx", weight: 4, fn: func(g *gen) []string { return []string{"SETNX", k(g), g.value()} }},
		{name: "setex", weight: 3, fn: func(g *gen) []string { return []string{"SETEX", k(g), g.ttlSecs(), g.value()} }},
		{name: "psetex", weight: 2, fn: func(g *gen) []string {
			return []string{"PSETEX", k(g), g.pick("0", "-5", "abc", strconv.Itoa(10000000+g.r.IntN(1000))), g.value()}
		}},
		{name: "mset", weight: 4, fn: func(g *gen) []string {
			a := []string{"MSET"}
			for i := 0; i < 1+g.r.IntN(3); i++ {
				a = append(a, k(g), g.value())
			}
			if g.chance(10) {
				a = append(a, k(g))
			}
			return a
		}},
		{name: "msetnx", weight: 2, fn: func(g *gen) []string {
			a := []string{"MSETNX"}
			for i := 0; i < 1+g.r.IntN(3); i++ {
				a = append(a, k(g), g.value())
			}
			return a
		}},
		{name: "mget", weight: 5, fn: func(g *gen) []string { return append([]string{"MGET"}, g.keys(1, 4)...) }},
		{name: "append", weight: 12, fn: func(g *gen) []string { return []string{"APPEND", k(g), g.value()} }},
		{name: "strlen", weight: 5, fn: func(g *gen) []string { return []string{"STRLEN", k(g)} }},
		{name: "getrange", weight: 6, fn: func(g *gen) []string { return []string{"GETRANGE", k(g), g.index(), g.index()} }},
		{name: "substr", weight: 2, fn: func(g *gen) []string { return []string{"SUBSTR", k(g), g.index(), g.index()} }},
		{name: "setrange", weight: 8, fn: func(g *gen) []string {
			return []string{"SETRANGE", k(g), g.offset(1 << 16), g.pick("", "x", "hello", "\x00\x01", "0123456789")}
		}},
		{name: "incr", weight: 8, fn: func(g *gen) []string { return []string{"INCR", k(g)} }},
		{name: "decr", weight: 4, fn: func(g *gen) []string { return []string{"DECR", k(g)} }},
		{name: "incrby", weight: 6, fn: func(g *gen) []string { return []string{"INCRBY", k(g), g.integer()} }},
		{name: "decrby", weight: 4, fn: func(g *gen) []string { return []string{"DECRBY", k(g), g.integer()} }},
		{name: "incrbyfloat", weight: 6, fn: func(g *gen) []string { return []string{"INCRBYFLOAT", k(g), g.float()} }},
		// (LCS is left out: it is quadratic in the values' lengths.)
		// bitmaps
		{name: "setbit", weight: 14, fn: func(g *gen) []string {
			return []string{"SETBIT", k(g), g.offset(1 << 20), g.pick("0", "1", "1", "2", "-1", "", "01")}
		}},
		{name: "getbit", weight: 8, fn: func(g *gen) []string { return []string{"GETBIT", k(g), g.offset(1 << 20)} }},
		{name: "bitcount", weight: 8, fn: func(g *gen) []string {
			a := []string{"BITCOUNT", k(g)}
			if g.chance(3) {
				return a
			}
			a = append(a, g.index(), g.index())
			if g.chance(2) {
				a = append(a, g.pick("BIT", "BYTE", "bit", "NIBBLE"))
			}
			if g.chance(30) {
				a = a[:3]
			}
			return a
		}},
		{name: "bitpos", weight: 8, fn: func(g *gen) []string {
			a := []string{"BITPOS", k(g), g.pick("0", "1", "1", "2", "-1")}
			switch g.r.IntN(4) {
			case 1:
				a = append(a, g.index())
			case 2:
				a = append(a, g.index(), g.index())
			case 3:
				a = append(a, g.index(), g.index(), g.pick("BIT", "BYTE", "bit", "BAD"))
			}
			return a
		}},
		{name: "bitop", weight: 6, fn: func(g *gen) []string {
			op := g.pick("AND", "OR", "XOR", "NOT", "and", "BAD")
			a := []string{"BITOP", op, k(g)}
			if op == "NOT" && !g.chance(5) {
				return append(a, k(g))
			}
			return append(a, g.keys(1, 3)...)
		}},
		{name: "bitfield", weight: 8, fn: func(g *gen) []string {
			a := []string{"BITFIELD", k(g)}
			for i := 0; i < 1+g.r.IntN(3); i++ {
				switch g.r.IntN(5) {
				case 0:
					a = append(a, "GET", g.bitfieldType(), g.bitfieldOffset())
				case 1:
					a = append(a, "SET", g.bitfieldType(), g.bitfieldOffset(), g.integer())
				case 2:
					a = append(a, "INCRBY", g.bitfieldType(), g.bitfieldOffset(), g.integer())
				case 3:
					a = append(a, "OVERFLOW", g.pick("WRAP", "SAT", "FAIL", "fail", "BAD"))
				case 4:
					if g.chance(4) {
						a = append(a, g.pick("BAD", "GET"))
					}
				}
			}
			return a
		}},
		{name: "bitfield_ro", weight: 3, fn: func(g *gen) []string {
			a := []string{"BITFIELD_RO", k(g)}
			for i := 0; i < 1+g.r.IntN(2); i++ {
				if g.chance(8) {
					a = append(a, "SET", g.bitfieldType(), g.bitfieldOffset(), "1")
				} else {
					a = append(a, "GET", g.bitfieldType(), g.bitfieldOffset())
				}
			}
			return a
		}},
		// HyperLogLog
		{name: "pfadd", weight: 12, fn: func(g *gen) []string {
			a := []string{"PFADD", k(g)}
			n := g.r.IntN(4)
			if g.chance(8) {
				n = 50 + g.r.IntN(400)
			}
			return append(a, g.hllElements(n)...)
		}},
		{name: "pfcount", weight: 8, fn: func(g *gen) []string { return append([]string{"PFCOUNT"}, g.keys(1, 3)...) }},
		{name: "pfmerge", weight: 4, fn: func(g *gen) []string { return append([]string{"PFMERGE", k(g)}, g.keys(0, 3)...) }},
		// keys
		{name: "del", weight: 6, fn: func(g *gen) []string { return append([]string{"DEL"}, g.keys(1, 3)...) }},
		{name: "unlink", weight: 2, fn: func(g *gen) []string { return append([]string{"UNLINK"}, g.keys(1, 2)...) }},
		{name: "exists", weight: 5, fn: func(g *gen) []string { return append([]string{"EXISTS"}, g.keys(1, 3)...) }},
		{name: "type", weight: 4, fn: func(g *gen) []string { return []string{"TYPE", k(g)} }},
		{name: "ttl", weight: 5, fn: func(g *gen) []string { return []string{"TTL", k(g)} }},
		{name: "pttl", weight: 3, fn: func(g *gen) []string { return []string{"PTTL", k(g)} }},
		{name: "expiretime", weight: 2, fn: func(g *gen) []string { return []string{"EXPIRETIME", k(g)} }},
		{name: "pexpiretime", weight: 2, fn: func(g *gen) []string { return []string{"PEXPIRETIME", k(g)} }},
		{name: "persist", weight: 3, fn: func(g *gen) []string { return []string{"PERSIST", k(g)} }},
		{name: "expire", weight: 5, fn: func(g *gen) []string { return g.expireFlags([]string{"EXPIRE", k(g), g.ttlSecs()}) }},
		{name: "pexpire", weight: 3, fn: func(g *gen) []string {
			return g.expireFlags([]string{"PEXPIRE", k(g), g.pick("0", "-1", "abc", "9223372036854775807", strconv.Itoa(1000000+g.r.IntN(1000000)))})
		}},
		{name: "expireat", weight: 3, fn: func(g *gen) []string { return g.expireFlags([]string{"EXPIREAT", k(g), g.absSecs()}) }},
		{name: "rename", weight: 3, fn: func(g *gen) []string { return []string{"RENAME", k(g), k(g)} }},
		{name: "renamenx", weight: 2, fn: func(g *gen) []string { return []string{"RENAMENX", k(g), k(g)} }},
		{name: "copy", weight: 2, fn: func(g *gen) []string {
			a := []string{"COPY", k(g), k(g)}
			if g.chance(2) {
				a = append(a, "REPLACE")
			}
			return a
		}},
		{name: "dbsize", weight: 1, fn: func(g *gen) []string { return []string{"DBSIZE"} }},
		{name: "keys", weight: 1, fn: func(g *gen) []string { return []string{"KEYS", g.pick("*", "k?", "k[1-3]", "*\\*", "[")} }},
		{name: "object", sub: "encoding", weight: 8, fn: func(g *gen) []string { return []string{"OBJECT", "ENCODING", k(g)} }},
		{name: "memory", sub: "usage", weight: 8, fn: func(g *gen) []string { return []string{"MEMORY", "USAGE", k(g)} }},
		{name: "debug", sub: "sdslen", weight: 3, fn: func(g *gen) []string { return []string{"DEBUG", "SDSLEN", k(g)} }},
		// values of other types, for WRONGTYPE
		{name: "lpush", weight: 1, fn: func(g *gen) []string { return []string{"LPUSH", k(g), "x"} }},
		{name: "sadd", weight: 1, fn: func(g *gen) []string { return []string{"SADD", k(g), "x"} }},
		{name: "hset", weight: 1, fn: func(g *gen) []string { return []string{"HSET", k(g), "f", "v"} }},
		{name: "zadd", weight: 1, fn: func(g *gen) []string { return []string{"ZADD", k(g), "1", "x"} }},
		{name: "ping", weight: 1, fn: func(g *gen) []string { return []string{"PING"} }},
		{name: "echo", weight: 1, fn: func(g *gen) []string { return []string{"ECHO", g.value()} }},
	}
}
