package engine

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"redscope/engine/hll"
	"redscope/internal/refredis"
)

// Values below were checked on Debian's redis-server 7.0.15 (jemalloc, 16-byte quantum) unless
// marked as derived from the rules in docs/internals.md §HyperLogLog (7.2+ growth, 8-byte quantum).

func hllGet(e *Engine, key string) string {
	o := e.Lookup([]byte(key))
	if o == nil {
		return ""
	}
	return string(o.StringBytes())
}

func hllMem(t *testing.T, e *Engine, key string) int64 {
	t.Helper()
	n, ok := e.MemoryUsage([]byte(key), 0)
	if !ok {
		t.Fatalf("MEMORY USAGE %s: missing key", key)
	}
	return n
}

func cli(e *Engine, args ...string) string {
	return strings.TrimSuffix(e.Do(args...).FormatCLI(), "\n")
}

func TestHLLHashVectors(t *testing.T) {
	cases := []struct {
		ele          string
		index, count int
	}{{"a", 12711, 2}, {"b", 15780, 1}, {"foo", 7348, 5}, {"hello", 9216, 1}, {"", 5938, 2}}
	for _, c := range cases {
		i, n, _ := hll.PatLen([]byte(c.ele))
		if i != c.index || n != c.count {
			t.Errorf("%q: index %d count %d, want %d %d", c.ele, i, n, c.index, c.count)
		}
	}
	if h := hll.Hash([]byte("a")); h != 0x53d2470a9b43b1a7 {
		t.Errorf("hash(a) = %#x", h)
	}
}

func TestHLLFirstAdd(t *testing.T) {
	e, _ := newEngineAt(V70)
	if got := cli(e, "PFADD", "hx", "a"); got != "(integer) 1" {
		t.Fatal(got)
	}
	if got := cli(e, "PFDEBUG", "DECODE", "hx"); got != `"Z:12711 v:2,1 Z:3672"` {
		t.Fatal(got)
	}
	want := "HYLL\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x80q\xa6\x84NW"
	if got := hllGet(e, "hx"); got != want {
		t.Fatalf("GET %q", got)
	}
	o := e.Lookup([]byte("hx"))
	if o.SDS.Len != 21 || o.SDS.Avail() != 23 || o.SDS.Usable != 48 {
		t.Fatalf("sds %+v (want len 21 avail 23 zmalloc 48)", o.SDS)
	}
	if m := hllMem(t, e, "hx"); m != 96 {
		t.Fatalf("MEMORY USAGE %d", m)
	}
	if got := cli(e, "PFCOUNT", "hx"); got != "(integer) 1" {
		t.Fatal(got)
	}
	if got := hllGet(e, "hx")[8:16]; got != "\x01\x00\x00\x00\x00\x00\x00\x00" {
		t.Fatalf("cache after PFCOUNT %q", got)
	}
	// An existing element changes nothing: the cache stays valid.
	if got := cli(e, "PFADD", "hx", "a"); got != "(integer) 0" {
		t.Fatal(got)
	}
	if got := hllGet(e, "hx")[15]; got != 0 {
		t.Fatalf("cache invalidated by a no-op PFADD")
	}
	// A new one sets only the invalid bit: the old count stays in the other bytes.
	cli(e, "PFADD", "hx", "b")
	if got := hllGet(e, "hx")[8:16]; got != "\x01\x00\x00\x00\x00\x00\x00\x80" {
		t.Fatalf("cache after PFADD %q", got)
	}
	// PFMERGE of nothing creates an empty HLL in an 18-byte sds5.
	if got := cli(e, "PFMERGE", "d"); got != "OK" {
		t.Fatal(got)
	}
	if got := hllGet(e, "d"); got != "HYLL\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x80\x7f\xff" {
		t.Fatalf("%q", got)
	}
	if o := e.Lookup([]byte("d")); o.SDS.Usable != 32 || o.SDS.Len != 18 {
		t.Fatalf("%+v", o.SDS)
	}
}

// TestHLLSequence: "1".."n", one element per PFADD (docs/internals.md §HyperLogLog, checked on 7.0.15).
func TestHLLSequence(t *testing.T) {
	e, _ := newEngineAt(V70)
	for i := 1; i <= 1000; i++ {
		e.Do("PFADD", "h", strconv.Itoa(i))
		switch i {
		case 1, 7, 100:
			if got := cli(e, "PFCOUNT", "h"); got != "(integer) "+strconv.Itoa(i) {
				t.Errorf("n=%d: %s", i, got)
			}
		}
	}
	if got := cli(e, "PFCOUNT", "h"); got != "(integer) 1001" {
		t.Errorf("n=1000: %s", got)
	}
	if got := cli(e, "PFDEBUG", "ENCODING", "h"); got != "sparse" || len(hllGet(e, "h")) != 1922 {
		t.Errorf("n=1000: %s, %d bytes", got, len(hllGet(e, "h")))
	}
	for i := 1001; i <= 1648; i++ {
		e.Do("PFADD", "h", strconv.Itoa(i))
	}
	if got := cli(e, "PFDEBUG", "ENCODING", "h"); got != "sparse" || len(hllGet(e, "h")) != 3000 {
		t.Fatalf("n=1648: %s, %d bytes (want sparse, 3000)", got, len(hllGet(e, "h")))
	}
	if got := cli(e, "PFADD", "h", "1649"); got != "(integer) 1" {
		t.Fatal(got)
	}
	if got := cli(e, "PFDEBUG", "ENCODING", "h"); got != "dense" || len(hllGet(e, "h")) != hll.DenseSize {
		t.Fatalf("n=1649: %s", got)
	}
	if got := cli(e, "PFCOUNT", "h"); got != "(integer) 1656" {
		t.Errorf("n=1649: %s", got)
	}
	// Dense: new sds of 12 304 bytes → 14 336 usable; key "h" 8; +16 robj +24 dictEntry.
	if m := hllMem(t, e, "h"); m != 16+14336+8+24 {
		t.Errorf("dense MEMORY USAGE %d", m)
	}
	args := []string{"PFADD", "h"}
	for i := 1650; i <= 10000; i++ {
		args = append(args, strconv.Itoa(i))
	}
	e.Do(args...)
	if got := cli(e, "PFCOUNT", "h"); got != "(integer) 9988" {
		t.Errorf("n=10000: %s", got)
	}
	for i := 10001; i <= 100000; i += 1000 {
		args = args[:2]
		for j := i; j < i+1000; j++ {
			args = append(args, strconv.Itoa(j))
		}
		e.Do(args...)
	}
	if got := cli(e, "PFCOUNT", "h"); got != "(integer) 99562" {
		t.Errorf("n=100000: %s", got)
	}
}

// TestHLLSparseMemory: MEMORY USAGE of a sparse HLL follows the greedy growth of 7.0
// (values read from 7.0.15, key "h": 8 bytes).
func TestHLLSparseMemory(t *testing.T) {
	e, _ := newEngineAt(V70)
	want := map[int]int64{1: 96, 10: 144, 11: 144, 12: 144, 100: 496, 500: 1840, 1000: 3632, 1648: 3632}
	for i := 1; i <= 1648; i++ {
		e.Do("PFADD", "h", strconv.Itoa(i))
		if w, ok := want[i]; ok {
			if m := hllMem(t, e, "h"); m != w {
				t.Errorf("n=%d: MEMORY USAGE %d want %d", i, m, w)
			}
		}
	}
}

// The course lab's dense HLL on Redis 8.8: MEMORY USAGE week = 14360 (kvobj: the 14 336-byte
// dense sds plus a 24-byte object with the key embedded).
func TestHLLDense88(t *testing.T) {
	e := New(Options{Version: V88})
	e.Do("PFADD", "week", "u1")
	e.Do("PFDEBUG", "TODENSE", "week")
	if m := hllMem(t, e, "week"); m != 14360 {
		t.Fatalf("MEMORY USAGE %d", m)
	}
}

// TestHLL72Growth: 7.2+ sparse growth, 8-byte quantum (docs/internals.md §HyperLogLog).
func TestHLL72Growth(t *testing.T) {
	e := New(Options{Version: V72})
	e.Do("PFADD", "hx", "a")
	o := e.Lookup([]byte("hx"))
	if o.SDS.Len != 21 || o.SDS.Alloc != 42 || o.SDS.Usable != 48 {
		t.Fatalf("%+v", o.SDS)
	}
	if m := hllMem(t, e, "hx"); m != 96 {
		t.Fatalf("MEMORY USAGE %d", m)
	}
	for i := 0; i < 100; i++ {
		e.Do("PFADD", "hx", "e"+strconv.Itoa(i))
	}
	if m := hllMem(t, e, "hx"); m != 432 {
		t.Fatalf("after 100 more: MEMORY USAGE %d (%+v)", m, e.Lookup([]byte("hx")).SDS)
	}
	e.Do("PFADD", "hs", "x")
	e.Do("PFDEBUG", "TODENSE", "hs")
	if m := hllMem(t, e, "hs"); m != 14384 {
		t.Fatalf("dense MEMORY USAGE %d", m)
	}
}

func TestHLLErrors(t *testing.T) {
	e, _ := newEngineAt(V70)
	setString(e, "s", "hello")
	setString(e, "n", "123")
	setString(e, "fake", "HYLL\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00")
	setString(e, "shortdense", "HYLL\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x7f\xff")
	setString(e, "badsparse", "HYLL\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x80\x7f\xfe")
	e.db.keys["l"] = &Object{Type: TypeList}
	notHLL := "(error) WRONGTYPE Key is not a valid HyperLogLog string value."
	wrong := "(error) WRONGTYPE Operation against a key holding the wrong kind of value"
	corrupt := "(error) INVALIDOBJ Corrupted HLL object detected"
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"PFADD", "s", "a"}, notHLL},
		{[]string{"PFCOUNT", "n"}, notHLL},
		{[]string{"PFCOUNT", "fake"}, notHLL},
		{[]string{"PFCOUNT", "shortdense"}, notHLL},
		{[]string{"PFCOUNT", "l"}, wrong},
		{[]string{"PFCOUNT", "nokey", "l"}, wrong},
		{[]string{"PFMERGE", "d", "s"}, notHLL},
		{[]string{"PFCOUNT", "badsparse"}, corrupt},
		{[]string{"PFCOUNT", "badsparse", "nokey"}, corrupt},
		{[]string{"PFDEBUG", "DECODE", "badsparse"}, `"Z:16383"`},
		// The update walks only as far as the register: the corruption further on goes unseen.
		{[]string{"PFADD", "badsparse", "a"}, "(integer) 1"},
		{[]string{"PFDEBUG", "DECODE", "badsparse"}, `"Z:12711 v:2,1 Z:3671"`},
		{[]string{"PFMERGE", "d", "badsparse"}, corrupt},
		{[]string{"PFDEBUG", "TODENSE", "badsparse"}, corrupt},
		{[]string{"PFDEBUG", "GETREG", "badsparse"}, corrupt},
		{[]string{"PFDEBUG", "foo", "nokey"}, "(error) ERR The specified key does not exist"},
		{[]string{"PFDEBUG", "foo", "s"}, notHLL},
		{[]string{"PFDEBUG", "decode", "x", "y"}, "(error) ERR wrong number of arguments for 'pfdebug' command"},
		{[]string{"PFADD"}, "(error) ERR wrong number of arguments for 'pfadd' command"},
		{[]string{"PFCOUNT"}, "(error) ERR wrong number of arguments for 'pfcount' command"},
		{[]string{"PFMERGE"}, "(error) ERR wrong number of arguments for 'pfmerge' command"},
		{[]string{"PFADD", "h"}, "(integer) 1"},
		{[]string{"PFADD", "h"}, "(integer) 0"},
		{[]string{"PFDEBUG", "foo", "h"}, "(error) ERR Unknown PFDEBUG subcommand 'foo'"},
		{[]string{"PFDEBUG", "ENCODING", "h"}, "sparse"},
		{[]string{"PFDEBUG", "TODENSE", "h"}, "(integer) 1"},
		{[]string{"PFDEBUG", "TODENSE", "h"}, "(integer) 0"},
		{[]string{"PFDEBUG", "DECODE", "h"}, "(error) ERR HLL encoding is not sparse"},
		{[]string{"PFCOUNT", "nokey"}, "(integer) 0"},
		{[]string{"PFCOUNT", "nokey", "nokey2"}, "(integer) 0"},
	}
	for _, c := range cases {
		if got := cli(e, c.args...); got != c.want {
			t.Errorf("%v: got %s want %s", c.args, got, c.want)
		}
	}
	if e.Lookup([]byte("d")) != nil {
		t.Errorf("PFMERGE with a bad source created the destination")
	}
}

// An embstr value that is a valid HLL is accepted and becomes raw on any PF command that opens it
// for writing (dbUnshareStringValue), even when nothing changes.
func TestHLLEmbstrUnshare(t *testing.T) {
	e, _ := newEngineAt(V70)
	setString(e, "e", "HYLL\x01\x00\x00\x00\x05\x00\x00\x00\x00\x00\x00\x00\x7f\xff")
	if got := cli(e, "PFCOUNT", "e"); got != "(integer) 5" {
		t.Fatal(got)
	}
	o := e.Lookup([]byte("e"))
	if o.Enc != EncRaw || o.SDS.Usable != 32 || o.SDS.Len != 18 {
		t.Fatalf("enc %v sds %+v", o.Enc, o.SDS)
	}
	if m := hllMem(t, e, "e"); m != 80 {
		t.Fatal(m)
	}
}

func TestHLLMergeRules(t *testing.T) {
	e, _ := newEngineAt(V70)
	e.Do("PFADD", "a", "x", "y", "z")
	e.Do("PFADD", "b", "y", "w")
	e.Do("PFADD", "dst", "q")
	e.Do("PFMERGE", "dst", "a", "b")
	if got := cli(e, "PFCOUNT", "dst"); got != "(integer) 5" {
		t.Errorf("dest not included as a source: %s", got)
	}
	if got := cli(e, "PFDEBUG", "DECODE", "dst"); got != `"Z:4168 v:2,1 Z:1383 v:6,1 Z:3028 v:1,1 Z:6350 v:3,1 Z:1441 v:2,1 z:9"` {
		t.Errorf("decode %s", got)
	}
	if got := cli(e, "PFCOUNT", "a", "b", "nokey"); got != "(integer) 4" {
		t.Errorf("union %s", got)
	}
	// A dense input makes the destination dense.
	e.Do("PFADD", "dn", "x")
	e.Do("PFDEBUG", "TODENSE", "dn")
	e.Do("PFMERGE", "m", "a", "dn")
	if got := cli(e, "PFDEBUG", "ENCODING", "m"); got != "dense" {
		t.Errorf("merge with dense input: %s", got)
	}
	// TTL kept.
	e.db.expires["dst"] = e.NowMs() + 10000
	e.Do("PFADD", "dst", "new-element-1")
	e.Do("PFMERGE", "dst", "m")
	if e.Expire("dst") < 0 {
		t.Errorf("TTL lost")
	}
}

func TestHLLSparseMaxBytes(t *testing.T) {
	e, _ := newEngineAt(V70)
	e.cfg.set(e.cfg.Param("hll-sparse-max-bytes"), "100", 100)
	n := 0
	for ; n < 100; n++ {
		e.Do("PFADD", "h", strconv.Itoa(n+1))
		if hllGet(e, "h")[4] == 0 {
			break
		}
	}
	// Verified on 7.0.15 with CONFIG SET hll-sparse-max-bytes 100: element "28" promotes.
	if n+1 != 28 {
		t.Errorf("promoted at element %d", n+1)
	}
}

// A register value above 32 cannot be sparse: promotion with PFADD returning 1.
func TestHLLPromoteValue(t *testing.T) {
	e, _ := newEngineAt(V70)
	// Find an element whose run length is > 32 (about 1 in 2^32: craft through PFMERGE instead).
	d := make([]byte, hll.DenseSize)
	copy(d, "HYLL")
	hllDenseSetForTest(d, 77, 40)
	e.setKey([]byte("dn"), e.newStringObject([]byte("dn"), d), false)
	e.Do("PFADD", "sp", "a")
	e.SetTracing(true)
	res := e.Exec([][]byte{[]byte("PFMERGE"), []byte("sp"), []byte("dn")})
	if res.Reply.Str != "OK" || cli(e, "PFDEBUG", "ENCODING", "sp") != "dense" {
		t.Fatal(res.Reply)
	}
	var sawPromote bool
	for _, ev := range res.Events {
		if p, ok := ev.(HLLPromoteEvent); ok {
			sawPromote = true
			if p.Why != (Why{Code: WhyHLLCmd, Name: "PFMERGE"}) {
				t.Errorf("why %+v", p.Why)
			}
		}
	}
	if !sawPromote {
		t.Error("no promote event")
	}
	// value>32 through the sparse path: a sparse destination and a merge array holding 40.
	e.Do("DEL", "sp2")
	e.Do("PFADD", "sp2", "b")
	b := e.Lookup([]byte("sp2"))
	r := e.hllSet([]byte("sp2"), b, 77, 40, nil, 0, "test")
	if r != 1 || hllIsSparse(b) || hll.DenseGet(b.Buf.Bytes(), 77) != 40 {
		t.Fatalf("value>32 promotion: %d", r)
	}
}

func hllDenseSetForTest(b []byte, i, v int) { hll.DenseSet(b, i, v) }

func TestHLLTraceEvents(t *testing.T) {
	e, _ := newEngineAt(V70)
	e.SetTracing(true)
	res := e.Exec([][]byte{[]byte("PFADD"), []byte("t"), []byte("a")})
	var got []string
	for _, ev := range res.Events {
		switch v := ev.(type) {
		case HLLEvent:
			got = append(got, fmt.Sprintf("hll %s %#x %d %d %d->%d %s", v.Element, v.Hash, v.Index, v.Count, v.Old, v.New, v.Encoding))
		case HLLSparseEvent:
			got = append(got, fmt.Sprintf("sparse %q -> %q %d->%d %s", v.Before, v.After, v.BytesBefore, v.BytesAfter, v.Rewrite))
		}
	}
	want := []string{
		"hll a 0x53d2470a9b43b1a7 12711 2 0->2 sparse",
		`sparse "Z:16384" -> "Z:12711 v:2,1 Z:3672" 18->21 split`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\n%s", strings.Join(got, "\n"))
	}
	// Without tracing nothing is collected.
	e.SetTracing(false)
	if res := e.Exec([][]byte{[]byte("PFADD"), []byte("t"), []byte("b")}); len(res.Events) != 0 {
		t.Errorf("events while not tracing")
	}
}

// ---- differential checker against a real redis-server (REDSCOPE_HLL_REDIS=127.0.0.1:7004) ----

// refReply is a reply of refredis as the engine's Reply, to compare their redis-cli texts.
func refReply(v any) Reply {
	switch v := v.(type) {
	case string:
		return Status(v)
	case refredis.Error:
		return Err(string(v))
	case int64:
		return Int(v)
	case []byte:
		return Bulk(v)
	case []any:
		if v == nil {
			return NilArray
		}
		items := make([]Reply, len(v))
		for i, x := range v {
			items[i] = refReply(x)
		}
		return Reply{Kind: KindArray, Array: items}
	}
	return NilReply
}

// hllDiff runs a command on both and compares the replies.
type hllDiff struct {
	t     *testing.T
	e     *Engine
	c     *refredis.Conn
	cases int
	bad   int
	hist  []string
}

func (d *hllDiff) cmp(args ...string) Reply {
	d.t.Helper()
	want := refReply(d.c.DoStrings(d.t, args...))
	var got Reply
	switch strings.ToUpper(args[0]) {
	case "GET":
		if o := d.e.Lookup([]byte(args[1])); o == nil {
			got = NilReply
		} else {
			got = Bulk(o.StringBytes())
		}
	case "MEMORY":
		if n, ok := d.e.MemoryUsage([]byte(args[2]), 0); ok {
			got = Int(n)
		} else {
			got = NilReply
		}
	case "SET":
		setString(d.e, args[1], args[2])
		got = OK
	case "DEL":
		n := 0
		for _, k := range args[1:] {
			if d.e.Delete([]byte(k)) {
				n++
			}
		}
		got = Int(int64(n))
	case "CONFIG":
		v, _ := strconv.ParseInt(args[3], 10, 64)
		d.e.cfg.set(d.e.cfg.Param(args[2]), args[3], v)
		got = OK
	default:
		got = d.e.Do(args...)
	}
	d.cases++
	if os.Getenv("REDSCOPE_HLL_HIST") != "" {
		d.hist = append(d.hist, fmt.Sprintf("%q", args))
	}
	if w, g := want.FormatCLI(), got.FormatCLI(); w != g {
		d.bad++
		if d.bad == 1 && len(d.hist) > 0 {
			for _, h := range d.hist[max(0, len(d.hist)-40):] {
				if strings.Contains(h, `"`+args[len(args)-1]+`"`) {
					d.t.Log(h)
				}
			}
		}
		if d.bad < 20 {
			if len(w) > 300 {
				w, g = w[:300], g[:min(300, len(g))]
			}
			d.t.Errorf("%q:\n redis    %s redscope %s", strings.Join(args, " "), w, g)
		}
	}
	return want
}

func TestHLLAgainstRedis(t *testing.T) {
	c := refredis.DialEnv(t, "REDSCOPE_HLL_REDIS", "host:port of a redis-server 7.0 with Debian's jemalloc")
	c.Do(t, "FLUSHALL")
	c.Do(t, "CONFIG", "SET", "hll-sparse-max-bytes", "3000")
	e, _ := newEngineAt(V70)
	d := &hllDiff{t: t, e: e, c: c}
	check := func(key string) {
		d.cmp("GET", key)
		d.cmp("MEMORY", "USAGE", key)
		if r := d.cmp("PFDEBUG", "ENCODING", key); r.Str == "sparse" {
			d.cmp("PFDEBUG", "DECODE", key)
		}
		d.cmp("PFCOUNT", key)
		d.cmp("GET", key)
	}
	// 1. "1".."3000" one per PFADD, every step compared.
	steps := 0
	for i := 1; i <= 3000; i++ {
		d.cmp("PFADD", "seq", strconv.Itoa(i))
		check("seq")
		steps++
	}
	// 2. Bulk to 200 000.
	for i := 3001; i <= 200000; i += 1000 {
		args := []string{"PFADD", "seq"}
		for j := i; j < i+1000; j++ {
			args = append(args, strconv.Itoa(j))
		}
		d.cmp(args...)
		check("seq")
		steps++
	}
	// 3. Random elements and keys, merges, unions, other sparse limits.
	seed, _ := strconv.ParseUint(os.Getenv("REDSCOPE_HLL_SEED"), 10, 64)
	rng := rand.New(rand.NewPCG(1+seed, 2))
	randEle := func() string {
		b := make([]byte, rng.IntN(40))
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		return string(b)
	}
	keys := []string{"k1", "k2", "k3", "k4", "k5"}
	for round := 0; round < 3; round++ {
		if round == 1 {
			d.cmp("CONFIG", "SET", "hll-sparse-max-bytes", "500")
		}
		if round == 2 {
			d.cmp("CONFIG", "SET", "hll-sparse-max-bytes", "5000")
		}
		for it := 0; it < 1500; it++ {
			k := keys[rng.IntN(len(keys))]
			switch r := rng.IntN(20); {
			case r < 12:
				args := []string{"PFADD", k}
				for n := rng.IntN(1 + rng.IntN(40)); n > 0; n-- {
					args = append(args, randEle())
				}
				d.cmp(args...)
			case r < 14:
				args := []string{"PFMERGE", k}
				for n := rng.IntN(4); n > 0; n-- {
					args = append(args, keys[rng.IntN(len(keys))])
				}
				d.cmp(args...)
			case r < 16:
				args := []string{"PFCOUNT"}
				for n := 1 + rng.IntN(4); n > 0; n-- {
					args = append(args, keys[rng.IntN(len(keys))], "missing")
				}
				d.cmp(args...)
			case r < 17:
				d.cmp("PFDEBUG", []string{"TODENSE", "ENCODING", "GETREG"}[rng.IntN(3)], k)
			case r < 18:
				d.cmp("DEL", k)
			default:
				check(k)
			}
		}
		for _, k := range keys {
			check(k)
			d.cmp("DEL", k)
		}
	}
	d.cmp("CONFIG", "SET", "hll-sparse-max-bytes", "3000")
	// 4. Crafted values: random sparse opcode strings (valid or not), dense strings with high
	// registers, short embstr HLLs, bad headers.
	craft := func() string {
		b := []byte("HYLL\x01\x00\x00\x00")
		for i := 0; i < 8; i++ {
			b = append(b, byte(rng.IntN(256)))
		}
		switch rng.IntN(6) {
		case 0: // dense with random registers
			b[4] = 0
			for len(b) < hll.DenseSize {
				b = append(b, byte(rng.IntN(256)))
			}
			return string(b)
		case 1: // bad header
			b[rng.IntN(5)] ^= byte(1 + rng.IntN(255))
		}
		left := hll.Registers
		valid := rng.IntN(3) > 0
		for n := rng.IntN(60); n >= 0 && left > 0; n-- {
			switch rng.IntN(3) {
			case 0:
				k := 1 + rng.IntN(min(64, left))
				b = append(b, byte(k-1))
				left -= k
			case 1:
				k := 1 + rng.IntN(left)
				b = append(b, 0x40|byte((k-1)>>8), byte(k-1))
				left -= k
			default:
				k := 1 + rng.IntN(min(4, left))
				b = append(b, 0x80|byte(rng.IntN(32))<<2|byte(k-1))
				left -= k
			}
		}
		if valid && left > 0 {
			b = append(b, 0x40|byte((left-1)>>8), byte(left-1))
		}
		if rng.IntN(10) == 0 && len(b) > 16 {
			b = b[:len(b)-1] // maybe cut an XZERO in half
		}
		return string(b)
	}
	for it := 0; it < 3000; it++ {
		k := keys[rng.IntN(len(keys))]
		switch r := rng.IntN(10); {
		case r < 2:
			d.cmp("SET", k, craft())
		case r < 6:
			args := []string{"PFADD", k}
			for n := rng.IntN(10); n > 0; n-- {
				args = append(args, randEle())
			}
			d.cmp(args...)
		case r < 7:
			d.cmp("PFMERGE", k, keys[rng.IntN(len(keys))])
		case r < 8:
			d.cmp("PFCOUNT", k, keys[rng.IntN(len(keys))])
		case r < 9:
			d.cmp("PFDEBUG", []string{"TODENSE", "ENCODING", "GETREG", "DECODE"}[rng.IntN(4)], k)
		default:
			check(k)
		}
	}
	t.Logf("sequence steps compared: %d; commands compared: %d; mismatches: %d", steps, d.cases, d.bad)
}

func TestHLLSparseRewriteEvents(t *testing.T) {
	e, _ := newEngineAt(V70)
	e.SetTracing(true)
	key := []byte("r")
	o := e.newHLLObject(key, "test")
	e.add(key, o)
	type step struct {
		index, count int
		want         string
	}
	steps := []step{
		{100, 1, `split "Z:16384" -> "Z:100 v:1,1 Z:16283" 18->21 merged 0`},
		{101, 1, `split "v:1,1 Z:16283" -> "v:1,2 Z:16282" 21->21 merged 1`},
		{100, 3, `split "Z:100 v:1,2" -> "Z:100 v:3,1 v:1,1" 21->22 merged 0`},
		{100, 5, `in-place "Z:100 v:3,1" -> "Z:100 v:5,1" 22->22 merged 0`},
	}
	for _, s := range steps {
		e.events = nil
		if r := e.hllSet(key, o, s.index, s.count, nil, 0, "test"); r != 1 {
			t.Fatalf("%v: %d", s, r)
		}
		var got string
		for _, ev := range e.events {
			if v, ok := ev.(HLLSparseEvent); ok {
				got = fmt.Sprintf("%s %q -> %q %d->%d merged %d", v.Rewrite, v.Before, v.After, v.BytesBefore, v.BytesAfter, v.Merged)
			}
		}
		if got != s.want {
			t.Errorf("set %d=%d:\n got  %s\n want %s", s.index, s.count, got, s.want)
		}
	}
	// Promotion by the length limit.
	e.cfg.set(e.cfg.Param("hll-sparse-max-bytes"), "22", 22)
	e.events = nil
	if r := e.hllSet(key, o, 5000, 2, nil, 0, "test"); r != 1 {
		t.Fatal(r)
	}
	var kinds []string
	for _, ev := range e.events {
		kinds = append(kinds, ev.Kind())
		if p, ok := ev.(HLLPromoteEvent); ok {
			if p.Why.Code != WhyHLLBytes || p.Why.Limit != 22 || p.SparseBytes != 22 || p.DenseBytes != 12304 || p.Index != 5000 || p.Limit != 22 {
				t.Errorf("%+v", p)
			}
		}
	}
	if strings.Join(kinds, " ") != "hll-promote encoding sds hll" {
		t.Errorf("events %v", kinds)
	}
}

// TestPFADDTraceElementCopies: PFADD's events keep copies of the elements in one allocation
// (emitHLL copied each): one HLLEvent per element, in order, each Element equal to its argument,
// non-nil when empty, unchanged when the caller reuses its arguments afterwards, and of capacity
// its length (an append to one cannot overwrite the next); every event names the key. Across the
// sparse-to-dense promotion too.
func TestPFADDTraceElementCopies(t *testing.T) {
	e := New(Options{Version: V70, Trace: true})
	args := [][]byte{[]byte("PFADD"), []byte("h"), {}}
	for i := 0; i < 3000; i++ {
		args = append(args, []byte("u"+strconv.Itoa(i)))
	}
	want := make([]string, len(args)-2)
	for i, a := range args[2:] {
		want[i] = string(a)
	}
	res := e.Exec(args)
	for _, a := range args {
		for i := range a {
			a[i] = '#'
		}
	}
	var got []HLLEvent
	for _, ev := range res.Events {
		if h, ok := ev.(HLLEvent); ok {
			got = append(got, h)
		}
		if k, ok := EventKey(ev); !ok || k != "h" {
			t.Fatalf("event %+v names %q", ev, k)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("%d HLL events for %d elements", len(got), len(want))
	}
	encs := map[string]bool{}
	for i, h := range got {
		if string(h.Element) != want[i] || h.Element == nil || cap(h.Element) != len(h.Element) {
			t.Fatalf("event %d: element %q (cap %d, nil %v), want %q", i, h.Element, cap(h.Element), h.Element == nil, want[i])
		}
		encs[h.Encoding] = true
	}
	if !encs["sparse"] || !encs["dense"] {
		t.Errorf("encodings seen %v, want both", encs)
	}
	_ = append(got[1].Element, 'x')
	if string(got[2].Element) != want[2] {
		t.Errorf("append to one element changed the next: %q", got[2].Element)
	}
}
