package difftest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"redscope/engine"
	"redscope/internal/transcript"
	"redscope/lesson"
)

// TestRandomDiff sends seeded random sequences of string, bitmap, BITFIELD, HyperLogLog,
// keyspace, hash, set, sorted-set and list commands over small key sets to redis-server and to
// redscope and compares every reply byte for byte. Only commands the engine's 7.0 profile has are
// drawn, so the test grows with the engine. The encoding thresholds are CONFIG SET low at the
// start of each seed (and now and then during the run), so listpack/intset → hashtable/skiplist
// and quicklist node splits happen all the time.
//
// Where the real server's reply is not a function of the command sequence, the comparison is
// weakened as little as possible (the genCmd mode says how):
//   - hash-table order (the real server seeds SipHash at random): SMEMBERS, HKEYS, HVALS and
//     HGETALL are compared exactly unless both servers report a hashtable encoding, then as
//     multisets (HGETALL as field/value pairs); SINTER/SUNION/SDIFF always as multisets.
//   - HSCAN/SSCAN/ZSCAN on a hashtable (or skiplist) value: a scan from cursor 0 is run to the
//     end on each server separately and the sets of returned elements are compared; a scan from
//     another cursor is only checked for its shape.
//   - SRANDMEMBER, HRANDFIELD, ZRANDMEMBER: the real server's random choice; kind, length and
//     error text are compared. SPOP too, and then the set is rebuilt on both servers from the
//     reference's members (DEL + SADD) so the runs stay in step.
//   - MEMORY USAGE: a skiplist zset's size depends on its nodes' random levels, so only the
//     reply kind is compared; for a hashtable set/hash the default SAMPLES 5 averages the first
//     five elements in hash order, so the test also asks MEMORY USAGE key SAMPLES 0 (every
//     element, deterministic) on both and compares that exactly.
//   - list-compress-depth stays 0: the engine does not model LZF-compressed quicklist nodes.
//   - blocking list commands only get short non-zero timeouts (0 would block forever on an empty
//     list); the reference runs with hz 500 so their timeouts end quickly.
//   - the reference's active expire cycle is switched off (DEBUG SET-ACTIVE-EXPIRE 0): the engine
//     expires keys lazily only, and a key set with a past EXAT stays until it is touched.
//
// REDSCOPE_DIFF_SEED=n runs one seed, REDSCOPE_DIFF_SEEDS=a-b a range (default 1-3);
// REDSCOPE_DIFF_N=n is the number of commands per seed (default 20000, 3000 with -short).
func TestRandomDiff(t *testing.T) {
	from, to := 1, 3
	if v := os.Getenv("REDSCOPE_DIFF_SEEDS"); v != "" {
		a, b, ok := strings.Cut(v, "-")
		x, err1 := strconv.Atoi(a)
		y, err2 := strconv.Atoi(b)
		if !ok || err1 != nil || err2 != nil || y < x {
			t.Fatalf("REDSCOPE_DIFF_SEEDS=%q: want a-b", v)
		}
		from, to = x, y
	}
	if v := os.Getenv("REDSCOPE_DIFF_SEED"); v != "" {
		from = envInt("REDSCOPE_DIFF_SEED", 1)
		to = from
	}
	n := envInt("REDSCOPE_DIFF_N", 20000)
	if testing.Short() {
		n = 3000
	}
	sv := startServers(t)
	t.Cleanup(func() { sv.rs.reset(t) })
	for seed := from; seed <= to; seed++ {
		ok := t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			sv.fresh(t)
			runRandom(t, uint64(seed), n, sv.ref, sv.scope)
		})
		if !ok {
			break
		}
	}
}

// mode says how a command's replies are compared (see TestRandomDiff).
type mode uint8

const (
	modeExact     mode = iota
	modeSort           // as multisets
	modeSortIfHT       // exactly, or as multisets when args[1] is a hashtable on both servers
	modePairsIfHT      // HGETALL: exactly, or as sets of field/value pairs when a hashtable
	modeShape          // random choice: same kind, length and error text
	modeScan           // HSCAN/SSCAN/ZSCAN
	modeMemory         // MEMORY USAGE
	modeResync         // SPOP: shape, then the set is rebuilt from the reference's members
	modeLex            // lex ranges: exactly, unless a skiplist whose scores are not all equal
	modeSortCmd        // SORT: exactly, after clearing the reference's errno (see clearErrno)
)

type histEntry struct {
	cmd   string
	reply string
}

// runner sends the same commands to both servers.
type runner struct {
	t        *testing.T
	seed     uint64
	n, i     int
	ref, got *transcript.Conn
	hist     []histEntry
	log      *os.File // REDSCOPE_DIFF_LOG: every command sent, in redis-cli quoting
}

func runRandom(t *testing.T, seed uint64, n int, addr, scopeAddr string) {
	g := newGen(seed, newEngine70())
	if len(g.cmds) == 0 {
		t.Skip("the engine has none of the commands the random test draws from yet")
	}
	names := make([]string, 0, len(g.cmds))
	for _, c := range g.cmds {
		names = append(names, c.name)
	}
	t.Logf("seed %d, %d commands drawn from %d: %s", seed, n, len(names), strings.Join(names, " "))

	ref, got := dialPair(t, addr, scopeAddr)
	// Only the reference: blocking commands' timeouts are checked hz times a second, and keys
	// past their expiry (SET … EXAT 100 keeps the key until something deletes it) go only
	// lazily, as in the engine, so DBSIZE does not depend on when the expire cycle ran.
	for _, args := range [][]string{{"CONFIG", "SET", "hz", "500"}, {"DEBUG", "SET-ACTIVE-EXPIRE", "0"}} {
		if _, r, err := ref.DoStrings(args...); err != nil || r.IsError() {
			t.Fatalf("%s: %v %s", strings.Join(args, " "), err, r.FormatCLI())
		}
	}
	defer ref.DoStrings("DEBUG", "SET-ACTIVE-EXPIRE", "1")
	ru := &runner{t: t, seed: seed, n: n, ref: ref, got: got}
	if p := os.Getenv("REDSCOPE_DIFF_LOG"); p != "" {
		f, err := os.Create(fmt.Sprintf("%s.%d", p, seed))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		ru.log = f
	}
	for _, args := range g.initialConfig() {
		ru.step(toBytes(args), modeExact)
	}
	for ru.i = 0; ru.i < n; ru.i++ {
		args, m := g.next()
		ru.step(args, m)
	}
}

func toBytes(args []string) [][]byte {
	out := make([][]byte, len(args))
	for i, a := range args {
		out[i] = []byte(a)
	}
	return out
}

func (ru *runner) do(c *transcript.Conn, who string, args [][]byte) ([]byte, engine.Reply) {
	raw, r, err := c.Do(args)
	if err != nil {
		ru.t.Fatalf("seed %d, command %d %s: %s: %v", ru.seed, ru.i, lesson.QuoteArgs(args), who, err)
	}
	return append([]byte(nil), raw...), r
}

// both runs args on both servers.
func (ru *runner) both(args [][]byte) (refRaw []byte, refR engine.Reply, gotRaw []byte, gotR engine.Reply) {
	if ru.log != nil {
		fmt.Fprintln(ru.log, lesson.QuoteArgs(args))
	}
	refRaw, refR = ru.do(ru.ref, "redis-server", args)
	gotRaw, gotR = ru.do(ru.got, "redscope", args)
	return
}

func (ru *runner) step(args [][]byte, m mode) {
	if m == modeSortCmd {
		ru.clearErrno()
	}
	refRaw, refR, gotRaw, gotR := ru.both(args)
	name := strings.ToLower(string(args[0]))
	if name == "keys" {
		m = modeSort
	}
	same := bytes.Equal(refRaw, gotRaw) || timeClose(name, refR, gotR)
	note := ""
	if !same && !refR.IsError() && !gotR.IsError() {
		switch m {
		case modeSort:
			same = sortedEqual(refR, gotR)
		case modeSortIfHT, modePairsIfHT:
			if enc, ok := ru.encodings(args[1], &note); ok && enc == "hashtable" {
				if m == modeSortIfHT {
					same = sortedEqual(refR, gotR)
				} else {
					same = pairsEqual(refR, gotR)
				}
				note = "compared as a multiset (hashtable)"
			}
		case modeShape, modeResync:
			same = sameShape(refR, gotR)
			note = "compared by shape (random choice)"
		case modeScan:
			same, note = ru.scanEqual(args, refR, gotR)
		case modeMemory:
			same, note = ru.memoryEqual(args, refR, gotR)
		case modeLex:
			same, note = ru.lexEqual(args, refR, gotR)
		case modeSortCmd:
			if refR.Kind == engine.KindArray && gotR.Kind == engine.KindArray {
				if _, typ := ru.do(ru.ref, "redis-server", [][]byte{[]byte("TYPE"), args[1]}); typ.Str == "set" || typ.Str == "zset" {
					same = sortedEqual(refR, gotR)
					note = "SORT of a " + typ.Str + ": compared as a multiset (hash order)"
				}
			}
		}
	}
	if !same {
		ru.fail(args, refR, gotR, refRaw, gotRaw, note)
	}
	ru.record(args, refR)
	if m == modeResync && !refR.IsError() && refR.Kind != engine.KindNil {
		ru.resyncSet(args[1])
	}
}

// clearErrno sets errno to 0 inside the reference server. Redis 7.0's SORT tests errno after
// strtod without clearing it first, so an ERANGE left by an earlier command (a SORT or a
// ZRANGEBYSCORE bound such as 1e-320) makes it fail with "One or more scores can't be converted
// into double" for values it would otherwise accept — until something clears errno. The engine
// models a clean errno; ZADD … XX on a missing key parses its score with getDoubleFromObject
// (errno = 0 first) and changes nothing.
func (ru *runner) clearErrno() {
	args := [][]byte{[]byte("ZADD"), []byte("\x00errno-reset"), []byte("XX"), []byte("0"), []byte("m")}
	if ru.log != nil {
		fmt.Fprintln(ru.log, "# (reference only) "+lesson.QuoteArgs(args))
	}
	ru.do(ru.ref, "redis-server", args)
}

func (ru *runner) record(args [][]byte, r engine.Reply) {
	ru.hist = append(ru.hist, histEntry{lesson.QuoteArgs(args), r.FormatCLI()})
	if len(ru.hist) > 64 {
		ru.hist = append(ru.hist[:0], ru.hist[len(ru.hist)-16:]...)
	}
}

func (ru *runner) fail(args [][]byte, refR, gotR engine.Reply, refRaw, gotRaw []byte, note string) {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d: first difference at command %d of %d (rerun with REDSCOPE_DIFF_SEED=%d)\n", ru.seed, ru.i, ru.n, ru.seed)
	from := max(0, len(ru.hist)-15)
	if from > 0 {
		b.WriteString("  …\n")
	}
	for _, h := range ru.hist[from:] {
		fmt.Fprintf(&b, "  > %s\n    %s", h.cmd, strings.ReplaceAll(strings.TrimSuffix(h.reply, "\n"), "\n", "\n    ")+"\n")
	}
	if note != "" {
		note = " (" + note + ")"
	}
	fmt.Fprintf(&b, "  > %s%s\n  redis-server:\n    %s  redscope:\n    %s", lesson.QuoteArgs(args), note,
		strings.ReplaceAll(strings.TrimSuffix(refR.FormatCLI(), "\n"), "\n", "\n    ")+fmt.Sprintf("\n    (raw %.300q)\n", refRaw),
		strings.ReplaceAll(strings.TrimSuffix(gotR.FormatCLI(), "\n"), "\n", "\n    ")+fmt.Sprintf("\n    (raw %.300q)\n", gotRaw))
	ru.t.Fatal(b.String())
}

// encodings asks both servers for OBJECT ENCODING key; ok=false (with a note) when they differ.
func (ru *runner) encodings(key []byte, note *string) (string, bool) {
	args := [][]byte{[]byte("OBJECT"), []byte("ENCODING"), key}
	_, a, _, b := ru.both(args)
	if a.Kind != b.Kind || a.Str != b.Str {
		*note = fmt.Sprintf("OBJECT ENCODING differs: redis-server %q, redscope %q", a.FormatCLI(), b.FormatCLI())
		return "", false
	}
	return a.Str, true
}

func sortedEqual(a, b engine.Reply) bool {
	return bytes.Equal(transcript.SortReply(a).AppendRESP2(nil), transcript.SortReply(b).AppendRESP2(nil))
}

// pairs returns an array reply's (even, odd) element pairs, encoded and sorted.
func pairs(r engine.Reply) []string {
	var out []string
	for i := 0; i+1 < len(r.Array); i += 2 {
		out = append(out, string(r.Array[i].AppendRESP2(nil))+string(r.Array[i+1].AppendRESP2(nil)))
	}
	sort.Strings(out)
	return out
}

func pairsEqual(a, b engine.Reply) bool {
	if a.Kind != engine.KindArray || b.Kind != engine.KindArray || len(a.Array) != len(b.Array) {
		return false
	}
	return strings.Join(pairs(a), "\n") == strings.Join(pairs(b), "\n")
}

func sameShape(a, b engine.Reply) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case engine.KindError, engine.KindStatus:
		return a.Str == b.Str
	case engine.KindArray:
		return len(a.Array) == len(b.Array)
	}
	return true
}

// scanEqual compares HSCAN/SSCAN/ZSCAN replies that differ: only hashtable (or skiplist) values
// may, and then a scan from cursor 0 is completed on each server and the elements compared.
func (ru *runner) scanEqual(args [][]byte, refR, gotR engine.Reply) (bool, string) {
	if refR.Kind != engine.KindArray || gotR.Kind != engine.KindArray || len(refR.Array) != 2 || len(gotR.Array) != 2 {
		return false, ""
	}
	note := ""
	enc, ok := ru.encodings(args[1], &note)
	if !ok {
		return false, note
	}
	if enc != "hashtable" && enc != "skiplist" {
		return false, "a " + enc + " value is scanned in one call"
	}
	if string(args[2]) != "0" {
		return true, ""
	}
	withValues := !eqFoldStr(string(args[0]), "sscan")
	a, errA := ru.fullScan(ru.ref, "redis-server", args, refR, withValues)
	b, errB := ru.fullScan(ru.got, "redscope", args, gotR, withValues)
	if errA != "" || errB != "" {
		return false, "full scan: " + errA + " " + errB
	}
	if strings.Join(a, "\n") != strings.Join(b, "\n") {
		return false, fmt.Sprintf("full scans differ: redis-server %d elements, redscope %d", len(a), len(b))
	}
	return true, "full scans compared"
}

func eqFoldStr(a, b string) bool { return strings.EqualFold(a, b) }

func (ru *runner) fullScan(c *transcript.Conn, who string, args [][]byte, first engine.Reply, withValues bool) ([]string, string) {
	seen := map[string]bool{}
	r := first
	a := append([][]byte(nil), args...)
	for iter := 0; ; iter++ {
		if r.Kind != engine.KindArray || len(r.Array) != 2 || r.Array[1].Kind != engine.KindArray {
			return nil, who + ": not a scan reply: " + r.FormatCLI()
		}
		els := r.Array[1].Array
		step := 1
		if withValues {
			step = 2
			if len(els)%2 != 0 {
				return nil, who + ": odd number of elements"
			}
		}
		for i := 0; i+step <= len(els); i += step {
			k := string(els[i].AppendRESP2(nil))
			if withValues {
				k += string(els[i+1].AppendRESP2(nil))
			}
			seen[k] = true
		}
		if r.Array[0].Str == "0" {
			break
		}
		if iter > 100000 {
			return nil, who + ": the scan does not end"
		}
		a[2] = []byte(r.Array[0].Str)
		_, r = ru.do(c, who, a)
	}
	out := make([]string, 0, len(seen))
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return out, ""
}

// memoryEqual accepts MEMORY USAGE replies that differ only where the real figure depends on
// random levels (skiplist) or hash order (hashtable with sampling; then SAMPLES 0 must agree).
func (ru *runner) memoryEqual(args [][]byte, refR, gotR engine.Reply) (bool, string) {
	if refR.Kind != engine.KindInt || gotR.Kind != engine.KindInt {
		return false, ""
	}
	note := ""
	enc, ok := ru.encodings(args[2], &note)
	if !ok {
		return false, note
	}
	switch enc {
	case "skiplist":
		return true, ""
	case "hashtable":
		all := [][]byte{[]byte("MEMORY"), []byte("USAGE"), args[2], []byte("SAMPLES"), []byte("0")}
		_, a, _, b := ru.both(all)
		if a.Kind == engine.KindInt && b.Kind == engine.KindInt && a.Int == b.Int {
			return true, ""
		}
		// The table may be in the middle of an incremental rehash on one side: how many steps
		// it takes depends on which buckets the elements hash to (the real server's seed is
		// random). Lookups do one rehash step each, so enough of them finish it on both.
		ru.settleRehash(args[2])
		_, a2, _, b2 := ru.both(all)
		if a2.Kind == engine.KindInt && b2.Kind == engine.KindInt && a2.Int == b2.Int {
			return true, ""
		}
		return false, fmt.Sprintf("hashtable: MEMORY USAGE SAMPLES 0 differs too: redis-server %s → %s after rehashing, redscope %s → %s",
			strings.TrimSpace(a.FormatCLI()), strings.TrimSpace(a2.FormatCLI()), strings.TrimSpace(b.FormatCLI()), strings.TrimSpace(b2.FormatCLI()))
	}
	return false, ""
}

// settleRehash sends enough lookups of a missing member/field to key on both servers that any
// incremental rehash of its table completes (each lookup of a rehashing dict moves one bucket,
// skipping at most ten empty ones).
func (ru *runner) settleRehash(key []byte) {
	_, typ := ru.do(ru.ref, "redis-server", [][]byte{[]byte("TYPE"), key})
	var look, card string
	switch typ.Str {
	case "set":
		look, card = "SISMEMBER", "SCARD"
	case "hash":
		look, card = "HEXISTS", "HLEN"
	default:
		return
	}
	_, n := ru.do(ru.ref, "redis-server", [][]byte{[]byte(card), key})
	steps := min(3*int(n.Int)+200, 20000)
	args := [][]byte{[]byte(look), key, []byte("\x01 not there")}
	for _, c := range []*transcript.Conn{ru.ref, ru.got} {
		for i := 0; i < steps; i++ {
			if err := c.Send(args); err != nil {
				ru.t.Fatal(err)
			}
		}
		if err := c.Flush(); err != nil {
			ru.t.Fatal(err)
		}
		for i := 0; i < steps; i++ {
			if _, _, err := c.Receive(); err != nil {
				ru.t.Fatal(err)
			}
		}
	}
	if ru.log != nil {
		fmt.Fprintf(ru.log, "# %d × %s %s (settle rehash)\n", steps, look, lesson.QuoteArgs(args[1:2]))
	}
}

// lexEqual accepts lex-range replies that differ on a skiplist whose scores are not all equal:
// Redis documents the result as unspecified then, and the skiplist search it does depends on the
// nodes' random levels. (A listpack is scanned in order, so it must agree.)
func (ru *runner) lexEqual(args [][]byte, refR, gotR engine.Reply) (bool, string) {
	lex := strings.Contains(strings.ToLower(string(args[0])), "lex")
	for _, a := range args[2:] {
		lex = lex || strings.EqualFold(string(a), "bylex")
	}
	if refR.Kind != gotR.Kind || !lex {
		return false, ""
	}
	note := ""
	enc, ok := ru.encodings(args[1], &note)
	if !ok || enc != "skiplist" {
		return false, note
	}
	_, lo := ru.do(ru.ref, "redis-server", toBytes([]string{"ZRANGE", string(args[1]), "0", "0", "WITHSCORES"}))
	_, hi := ru.do(ru.ref, "redis-server", toBytes([]string{"ZRANGE", string(args[1]), "-1", "-1", "WITHSCORES"}))
	if len(lo.Array) == 2 && len(hi.Array) == 2 && lo.Array[1].Str != hi.Array[1].Str {
		return true, "lex range over unequal scores (unspecified)"
	}
	return false, "lex range over equal scores"
}

// resyncSet rebuilds a set on both servers from the reference's members after SPOP.
func (ru *runner) resyncSet(key []byte) {
	_, m := ru.do(ru.ref, "redis-server", [][]byte{[]byte("SMEMBERS"), key})
	if m.Kind != engine.KindArray {
		return
	}
	m = transcript.SortReply(m)
	del := [][]byte{[]byte("DEL"), key}
	ru.both(del)
	add := [][]byte{[]byte("SADD"), key}
	for _, e := range m.Array {
		add = append(add, []byte(e.Str))
	}
	if len(add) > 2 {
		refRaw, refR, gotRaw, gotR := ru.both(add)
		if !bytes.Equal(refRaw, gotRaw) {
			ru.fail(add, refR, gotR, refRaw, gotRaw, "rebuilding the set after SPOP")
		}
	}
	ru.record([][]byte{[]byte("(resync)"), []byte("DEL+SADD"), key}, engine.Int(int64(len(m.Array))))
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

// gen draws commands.
type gen struct {
	r       *rand.Rand
	cmds    []genCmd
	total   int
	baseSec int64 // a fixed absolute time for EXPIREAT/EXAT (in the future)
}

type genCmd struct {
	name   string
	sub    string
	weight int
	mode   mode
	fn     func(g *gen) []string
}

func newGen(seed uint64, e *engine.Engine) *gen {
	g := &gen{
		r:       rand.New(rand.NewPCG(seed, seed*0x9e3779b97f4a7c15+1)),
		baseSec: time.Now().Unix() + 100000,
	}
	have := map[string]*engine.Command{}
	for _, c := range e.Commands() {
		have[c.Name] = c
	}
	for _, c := range append(append(append(append(allGenCmds(), typeGenCmds()...), opsGenCmds()...), streamGenCmds()...), scriptGenCmds()...) {
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

func (g *gen) next() ([][]byte, mode) {
	x := g.r.IntN(g.total)
	var c genCmd
	for _, c = range g.cmds {
		if x < c.weight {
			break
		}
		x -= c.weight
	}
	out := toBytes(c.fn(g))
	// Now and then a wrong number of arguments.
	if g.r.IntN(200) == 0 && len(out) > 1 {
		out = out[:1]
	}
	return out, c.mode
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

// some draws min to max values (the count first), each by one.
func (g *gen) some(min, max int, one func() string) []string {
	n := min + g.r.IntN(max-min+1)
	out := make([]string, n)
	for i := range out {
		out[i] = one()
	}
	return out
}

func (g *gen) keys(min, max int) []string { return g.some(min, max, g.key) }

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
	a := func(g *gen) string { return g.anyKey() }
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
		{name: "del", weight: 6, fn: func(g *gen) []string { return append([]string{"DEL"}, g.anyKeys(1, 3)...) }},
		{name: "unlink", weight: 2, fn: func(g *gen) []string { return append([]string{"UNLINK"}, g.anyKeys(1, 2)...) }},
		{name: "exists", weight: 5, fn: func(g *gen) []string { return append([]string{"EXISTS"}, g.anyKeys(1, 3)...) }},
		{name: "type", weight: 4, fn: func(g *gen) []string { return []string{"TYPE", a(g)} }},
		{name: "ttl", weight: 5, fn: func(g *gen) []string { return []string{"TTL", a(g)} }},
		{name: "pttl", weight: 3, fn: func(g *gen) []string { return []string{"PTTL", a(g)} }},
		{name: "expiretime", weight: 2, fn: func(g *gen) []string { return []string{"EXPIRETIME", a(g)} }},
		{name: "pexpiretime", weight: 2, fn: func(g *gen) []string { return []string{"PEXPIRETIME", a(g)} }},
		{name: "persist", weight: 3, fn: func(g *gen) []string { return []string{"PERSIST", a(g)} }},
		{name: "expire", weight: 5, fn: func(g *gen) []string { return g.expireFlags([]string{"EXPIRE", a(g), g.ttlSecs()}) }},
		{name: "pexpire", weight: 3, fn: func(g *gen) []string {
			return g.expireFlags([]string{"PEXPIRE", a(g), g.pick("0", "-1", "abc", "9223372036854775807", strconv.Itoa(1000000+g.r.IntN(1000000)))})
		}},
		{name: "expireat", weight: 3, fn: func(g *gen) []string { return g.expireFlags([]string{"EXPIREAT", a(g), g.absSecs()}) }},
		{name: "rename", weight: 3, fn: func(g *gen) []string { return []string{"RENAME", a(g), a(g)} }},
		{name: "renamenx", weight: 2, fn: func(g *gen) []string { return []string{"RENAMENX", a(g), a(g)} }},
		{name: "copy", weight: 2, fn: func(g *gen) []string {
			x := []string{"COPY", a(g), a(g)}
			if g.chance(2) {
				x = append(x, "REPLACE")
			}
			return x
		}},
		{name: "dbsize", weight: 1, fn: func(g *gen) []string { return []string{"DBSIZE"} }},
		{name: "keys", weight: 1, fn: func(g *gen) []string {
			return []string{"KEYS", g.pick("*", "k?", "k[1-3]", "*\\*", "[", "[hs]?", "z*")}
		}},
		{name: "object", sub: "encoding", weight: 8, fn: func(g *gen) []string { return []string{"OBJECT", "ENCODING", a(g)} }},
		{name: "memory", sub: "usage", weight: 12, mode: modeMemory, fn: func(g *gen) []string {
			x := []string{"MEMORY", "USAGE", a(g)}
			if g.chance(4) {
				x = append(x, "SAMPLES", g.pick("0", "1", "2", "5", "10", "1000", "-1", "abc"))
			}
			return x
		}},
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
