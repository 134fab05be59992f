package engine

import (
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"testing"

	"redscope/engine/alloc"
)

func mustDo(t *testing.T, e *Engine, want string, args ...string) {
	t.Helper()
	if got := e.Do(args...).FormatCLI(); got != want {
		t.Fatalf("%s:\n got %q\nwant %q", strings.Join(args, " "), got, want)
	}
}

// TestZunionstoreModel compares ZUNION/ZINTER/ZDIFF with a brute-force model over random
// inputs (zsets of both encodings, sets of all three encodings, weights, aggregates).
func TestZunionstoreModel(t *testing.T) {
	for _, v := range []Version{V70, V72, V80, V88} {
		e, _ := newEngineAt(v)
		r := rand.New(rand.NewPCG(uint64(v), 7))
		e.Do("CONFIG", "SET", "zset-max-listpack-entries", "8")
		e.Do("CONFIG", "SET", "set-max-intset-entries", "8")
		model := map[string]map[string]float64{}
		for i := 0; i < 4; i++ {
			k := "z" + strconv.Itoa(i)
			model[k] = map[string]float64{}
			for j := 0; j < r.IntN(20); j++ {
				m := strconv.Itoa(r.IntN(30))
				s := float64(r.IntN(9)-4) / 2
				e.Do("ZADD", k, strconv.FormatFloat(s, 'g', -1, 64), m)
				model[k][m] = s
			}
			k = "s" + strconv.Itoa(i)
			model[k] = map[string]float64{}
			for j := 0; j < r.IntN(20); j++ {
				m := strconv.Itoa(r.IntN(30))
				if r.IntN(3) == 0 {
					m = "x" + m
				}
				e.Do("SADD", k, m)
				model[k][m] = 1
			}
		}
		for iter := 0; iter < 300; iter++ {
			n := 1 + r.IntN(3)
			keys := make([]string, n)
			weights := make([]float64, n)
			for i := range keys {
				keys[i] = []string{"z", "s"}[r.IntN(2)] + strconv.Itoa(r.IntN(4))
				weights[i] = float64(r.IntN(5) - 2)
			}
			aggr := []string{"SUM", "MIN", "MAX"}[r.IntN(3)]
			op := []string{"ZUNION", "ZINTER", "ZDIFF"}[r.IntN(3)]
			args := append([]string{op, strconv.Itoa(n)}, keys...)
			if op != "ZDIFF" {
				args = append(args, "WEIGHTS")
				for _, w := range weights {
					args = append(args, strconv.FormatFloat(w, 'g', -1, 64))
				}
				args = append(args, "AGGREGATE", aggr)
			} else {
				for i := range weights {
					weights[i] = 1
				}
			}
			args = append(args, "WITHSCORES")
			got := e.Do(args...)
			want := zsetopModel(model, op, keys, weights, aggr)
			if got.Kind != KindArray || len(got.Array) != 2*len(want) {
				t.Fatalf("%s %v: %s, want %d pairs", v, args, got.FormatCLI(), len(want))
			}
			for i, p := range want {
				if got.Array[2*i].Str != p.m || got.Array[2*i+1].Str != FormatDouble(p.s, v) {
					t.Fatalf("%s %v: pair %d is %q %q, want %q %v", v, args, i, got.Array[2*i].Str, got.Array[2*i+1].Str, p.m, p.s)
				}
			}
			// The STORE form holds the same pairs, as a listpack when they fit.
			sargs := append([]string{op + "STORE", "dst"}, args[1:len(args)-1]...)
			if c := e.Do(sargs...); c.Int != int64(len(want)) {
				t.Fatalf("%s %v: %s", v, sargs, c.FormatCLI())
			}
			if len(want) > 0 {
				enc := e.Do("OBJECT", "ENCODING", "dst").Str
				long := false
				for _, p := range want {
					long = long || len(p.m) > 64
				}
				if wantEnc := map[bool]string{true: "listpack", false: "skiplist"}[len(want) <= 8 && !long]; enc != wantEnc {
					t.Fatalf("%s %v: encoding %s, want %s", v, sargs, enc, wantEnc)
				}
				// A listpack stores -0 as the integer 0 (docs/internals.md §Encodings).
				norm := func(s string) string { return strings.ReplaceAll(s, "\"-0\"", "\"0\"") }
				if r2 := e.Do("ZRANGE", "dst", "0", "-1", "WITHSCORES"); norm(r2.FormatCLI()) != norm(got.FormatCLI()) {
					t.Fatalf("%s %v: stored %s, returned %s", v, sargs, r2.FormatCLI(), got.FormatCLI())
				}
			} else if e.Do("EXISTS", "dst").Int != 0 {
				t.Fatalf("%s %v: empty result left dst", v, sargs)
			}
		}
	}
}

func zsetopModel(model map[string]map[string]float64, op string, keys []string, w []float64, aggr string) []zpair {
	type src struct {
		k string
		w float64
	}
	srcs := make([]src, len(keys))
	for i := range keys {
		srcs[i] = src{keys[i], w[i]}
	}
	if op != "ZDIFF" {
		sort.SliceStable(srcs, func(a, b int) bool { return len(model[srcs[a].k]) < len(model[srcs[b].k]) })
	}
	agg := func(t *float64, v float64) {
		switch aggr {
		case "SUM":
			*t += v
			if math.IsNaN(*t) {
				*t = 0
			}
		case "MIN":
			if v < *t {
				*t = v
			}
		case "MAX":
			if v > *t {
				*t = v
			}
		}
	}
	res := map[string]float64{}
	switch op {
	case "ZUNION":
		for _, s := range srcs {
			for m, sc := range model[s.k] {
				v := sc * s.w
				if math.IsNaN(v) {
					v = 0
				}
				if cur, ok := res[m]; ok {
					agg(&cur, v)
					res[m] = cur
				} else {
					res[m] = v
				}
			}
		}
	case "ZINTER":
	members:
		for m, sc := range model[srcs[0].k] {
			score := sc * srcs[0].w
			for _, s := range srcs[1:] {
				o, ok := model[s.k][m]
				if !ok {
					continue members
				}
				agg(&score, o*s.w)
			}
			res[m] = score
		}
	default:
	diff:
		for m, sc := range model[srcs[0].k] {
			for _, s := range srcs[1:] {
				if _, ok := model[s.k][m]; ok || s.k == srcs[0].k {
					continue diff
				}
			}
			res[m] = sc
		}
	}
	out := make([]zpair, 0, len(res))
	for m, s := range res {
		out = append(out, zpair{m, s})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].s != out[j].s {
			return out[i].s < out[j].s
		}
		return out[i].m < out[j].m
	})
	return out
}

// TestZsetStoreTrace: a stored result is announced (created, then overwritten) and a skiplist
// result that fits becomes a listpack with an EncodingEvent.
func TestZsetStoreTrace(t *testing.T) {
	e := New(Options{Version: V70, Allocator: alloc.Jemalloc16, Trace: true})
	e.Do("ZADD", "a", "1", "x", "2", "y")
	res := e.Exec([][]byte{[]byte("ZUNIONSTORE"), []byte("d"), []byte("1"), []byte("a")})
	var created, conv bool
	for _, ev := range res.Events {
		switch ev := ev.(type) {
		case KeyEvent:
			created = created || (ev.Key == "d" && ev.Action == "created" && ev.Type == "zset")
		case EncodingEvent:
			conv = conv || (ev.Key == "d" && ev.From == "skiplist" && ev.To == "listpack")
		}
	}
	if !created || !conv {
		t.Fatalf("events %+v: created %v, converted %v", res.Events, created, conv)
	}
	res = e.Exec([][]byte{[]byte("ZRANGESTORE"), []byte("d"), []byte("a"), []byte("0"), []byte("0")})
	over := false
	for _, ev := range res.Events {
		if k, ok := ev.(KeyEvent); ok && k.Key == "d" && k.Action == "overwritten" {
			over = true
		}
	}
	if !over {
		t.Fatalf("ZRANGESTORE over d: events %+v", res.Events)
	}
	if r := e.Do("ZRANGE", "d", "0", "-1", "WITHSCORES").FormatCLI(); r != "1) \"x\"\n2) \"1\"\n" {
		t.Fatal(r)
	}
}

// TestZremrangeSkiplistDict: removing most of a skiplist's members resizes its dict the way the
// profile does (7.0: htNeedsResize + dictResize after the batch; 7.4+: one shrink afterwards).
func TestZremrangeSkiplistDict(t *testing.T) {
	for _, v := range []Version{V70, V74} {
		e, _ := newEngineAt(v)
		args := []string{"ZADD", "z"}
		for i := 0; i < 200; i++ {
			args = append(args, strconv.Itoa(i), "m"+strconv.Itoa(i))
		}
		e.Do(args...)
		mustDo(t, e, "(integer) 195\n", "ZREMRANGEBYRANK", "z", "0", "194")
		z := e.Peek([]byte("z")).Val.(*zsetValue)
		if z.dict.Len() != 5 || z.zsl.Len() != 5 {
			t.Fatalf("%s: dict %d, zsl %d", v, z.dict.Len(), z.zsl.Len())
		}
		// 5 members: the table is back to 8 slots once any rehash is done.
		for z.dict.IsRehashing() {
			z.dict.Rehash(100)
		}
		if s := z.dict.Slots(); s != 8 {
			t.Fatalf("%s: %d slots after the removal, want 8", v, s)
		}
		mustDo(t, e, "1) \"m195\"\n2) \"m196\"\n3) \"m197\"\n4) \"m198\"\n5) \"m199\"\n", "ZRANGE", "z", "0", "-1")
		mustDo(t, e, "(integer) 5\n", "ZREMRANGEBYSCORE", "z", "-inf", "+inf")
		mustDo(t, e, "(integer) 0\n", "EXISTS", "z")
	}
}

// TestLcsCellWidths: the narrow tables give the same answers as 4-byte cells.
func TestLcsCellWidths(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 50; i++ {
		a := make([]byte, r.IntN(300))
		b := make([]byte, 250+r.IntN(60))
		for j := range a {
			a[j] = "abcd"[r.IntN(4)]
		}
		for j := range b {
			b[j] = "abcd"[r.IntN(4)]
		}
		for _, o := range []lcsOpts{{}, {getidx: true, withmatchlen: true, minmatchlen: 2}, {getlen: true}} {
			w := lcsRun[uint32](a, b, o).FormatCLI()
			if min(len(a), len(b)) < 256 {
				if g := lcsRun[uint8](a, b, o).FormatCLI(); g != w {
					t.Fatalf("uint8 %q %q: %s vs %s", a, b, g, w)
				}
			}
			if g := lcsRun[uint16](a, b, o).FormatCLI(); g != w {
				t.Fatalf("uint16 %q %q: %s vs %s", a, b, g, w)
			}
		}
	}
	// With proto-max-bulk-len raised, the engine refuses a table above its own limit with
	// Redis's allocation-failure error (at the default 512mb, proto-max-bulk-len refuses first).
	e, _ := newEngineAt(V70)
	e.Do("SETRANGE", "x", "20000", "a")
	e.Do("SETRANGE", "y", "20000", "a")
	e.Do("CONFIG", "SET", "proto-max-bulk-len", "2gb")
	mustDo(t, e, "(error) ERR Insufficient memory, failed allocating transient memory for LCS\n", "LCS", "x", "y", "LEN")
	e.Do("CONFIG", "SET", "proto-max-bulk-len", "1mb")
	mustDo(t, e, "(error) ERR Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len\n", "LCS", "x", "y", "LEN")
}

// TestSwapdbKeepsConnectionIndex: SWAPDB swaps contents under the selected index.
func TestSwapdbKeepsConnectionIndex(t *testing.T) {
	e, _ := newEngineAt(V88)
	e.Do("SET", "a", "0")
	e.SelectDB(1)
	e.Do("SET", "b", "1")
	mustDo(t, e, "OK\n", "SWAPDB", "0", "1")
	if e.CurrentDB() != 1 {
		t.Fatalf("current db %d", e.CurrentDB())
	}
	mustDo(t, e, "\"0\"\n", "GET", "a")
	e.SelectDB(0)
	mustDo(t, e, "\"1\"\n", "GET", "b")
	// MOVE keeps the TTL and the object.
	e.Do("SET", "t", "v", "EX", "100")
	mustDo(t, e, "(integer) 1\n", "MOVE", "t", "2")
	e.SelectDB(2)
	mustDo(t, e, "(integer) 100\n", "TTL", "t")
}

// TestOpsNoPanic: odd arguments never reach the internal-error path.
func TestOpsNoPanic(t *testing.T) {
	for _, v := range []Version{V70, V72, V88} {
		e, _ := newEngineAt(v)
		e.Do("ZADD", "z", "1", "a", "2", "b")
		e.Do("RPUSH", "l", "1", "2")
		e.Do("SADD", "s", "a")
		cmds := [][]string{
			{"ZMPOP", "9223372036854775807", "z", "MIN"},
			{"BZMPOP", "0.01", "9223372036854775806", "z", "MIN"},
			{"LMPOP", "9223372036854775807", "l", "LEFT"},
			{"ZUNION", "9223372036854775807", "z"},
			{"ZRANGESTORE", "d", "z", "-9223372036854775808", "9223372036854775807"},
			{"ZRANGESTORE", "d", "z", "-inf", "+inf", "BYSCORE", "LIMIT", "9223372036854775807", "-9223372036854775808"},
			{"ZREMRANGEBYRANK", "z", "-9223372036854775808", "9223372036854775807"},
			{"SORT", "l", "LIMIT", "9223372036854775807", "9223372036854775807"},
			{"SORT", "l", "LIMIT", "-9223372036854775808", "-9223372036854775808", "DESC", "BY", "nosort"},
			{"SORT", "z", "BY", "nosort", "LIMIT", "1", "9223372036854775807", "DESC"},
			{"SORT", "s", "BY", "*->", "GET", "*->x", "GET", "\x00*"},
			{"LCS", "z", "l"},
			{"MOVE", "z", "-2147483648"},
			{"SWAPDB", "2147483647", "-2147483648"},
		}
		for _, c := range cmds {
			if r := e.Do(c...); r.IsError() && strings.Contains(r.Str, "internal error") {
				t.Fatalf("%s %v: %s", v, c, r.Str)
			}
		}
	}
}
