package engine

import (
	"strconv"
	"strings"
	"testing"
)

// The course (seeds/004) shows, on Redis 8:
//
//	BF.RESERVE bf:products 0.01 1000000 → OK; BF.MADD bf:products p:1 p:2 p:3 → 1 1 1;
//	BF.EXISTS … p:2 → 1; p:999999 → 0; BF.INFO → Capacity 1000000, Size 1378568,
//	Number of filters 1, Number of items inserted 3, Expansion rate 2.
func TestBFCourseExample(t *testing.T) {
	for _, v := range Versions {
		e := New(Options{Version: v})
		want(t, e, "OK", "BF.RESERVE", "bf:products", "0.01", "1000000")
		want(t, e, "1) (integer) 1\n2) (integer) 1\n3) (integer) 1", "BF.MADD", "bf:products", "p:1", "p:2", "p:3")
		want(t, e, "(integer) 1", "BF.EXISTS", "bf:products", "p:2")
		want(t, e, "(integer) 0", "BF.EXISTS", "bf:products", "p:999999")
		want(t, e, " 1) Capacity\n 2) (integer) 1000000\n 3) Size\n 4) (integer) 1378568\n 5) Number of filters\n 6) (integer) 1\n 7) Number of items inserted\n 8) (integer) 3\n 9) Expansion rate\n10) (integer) 2",
			"BF.INFO", "bf:products")
		want(t, e, "1) (integer) 1378568", "BF.INFO", "bf:products", "size")
		want(t, e, "1) (integer) 3", "BF.INFO", "bf:products", "ITEMS")
		want(t, e, "(integer) 3", "BF.CARD", "bf:products")
		want(t, e, "MBbloom--", "TYPE", "bf:products")
		want(t, e, `"raw"`, "OBJECT", "ENCODING", "bf:products")
	}
}

func TestBFAutocreateAndScaling(t *testing.T) {
	e := New(Options{Trace: true})
	res := e.Exec([][]byte{[]byte("BF.ADD"), []byte("f"), []byte("hello")})
	if res.Reply.FormatCLI() != "(integer) 1\n" {
		t.Fatalf("BF.ADD: %v", res.Reply)
	}
	var added *BloomFilterAddedEvent
	var item *BloomEvent
	for _, ev := range res.Events {
		switch ev := ev.(type) {
		case BloomFilterAddedEvent:
			added = &ev
		case BloomEvent:
			item = &ev
		}
	}
	// default filter: capacity 100 at 0.01 (sized for 0.005): 1152 bits, 144 bytes, 8 hashes
	if added == nil || added.Reason != "autocreate" || added.Capacity != 100 || added.Bits != 1152 || added.Bytes != 144 || added.Hashes != 8 {
		t.Fatalf("filter event %+v", added)
	}
	// MurmurHash64A("hello") pair (RedisBloom's own code): probes (a + i·b) mod 1152
	const a, b = 0x5ba5b8a59803e699, 0xa7d451d588a0c2a4
	if item == nil || item.Result != "added" || item.HashA != a || item.HashB != b || len(item.Positions) != 8 {
		t.Fatalf("item event %+v", item)
	}
	for i, p := range item.Positions {
		if want := (uint64(a) + uint64(i)*uint64(b)) % 1152; p != want || item.WasSet[i] {
			t.Errorf("probe %d = %d (set %v) want %d unset", i, p, item.WasSet[i], want)
		}
	}
	want(t, e, "(integer) 0", "BF.ADD", "f", "hello")
	want(t, e, "(integer) 1", "BF.EXISTS", "f", "hello")
	// 1000 items item:0…999 into the default filter: 995 new (RedisBloom harness), 4 filters,
	// capacity 100+200+400+800, size 32 + 4·64 + 144+312+696+1536.
	e.Do("DEL", "f")
	args := []string{"BF.MADD", "f"}
	for i := 0; i < 1000; i++ {
		args = append(args, "item:"+strconv.Itoa(i))
	}
	r := e.Do(args...)
	ones := 0
	for _, x := range r.Array {
		ones += int(x.Int)
	}
	if ones != 995 {
		t.Errorf("new items %d want 995", ones)
	}
	want(t, e, "(integer) 995", "BF.CARD", "f")
	want(t, e, "1) (integer) 4", "BF.INFO", "f", "FILTERS")
	want(t, e, "1) (integer) 1500", "BF.INFO", "f", "capacity")
	want(t, e, "1) (integer) 2976", "BF.INFO", "f", "size")
	want(t, e, "1) (integer) 2", "BF.INFO", "f", "expansion")
}

func TestBFNonScaling(t *testing.T) {
	e := New(Options{Version: V88})
	want(t, e, "OK", "BF.RESERVE", "n", "0.1", "2", "NONSCALING")
	want(t, e, "1) (integer) 1\n2) (integer) 1\n3) (error) ERR non scaling filter is full", "BF.MADD", "n", "a", "b", "c", "d")
	want(t, e, "(error) ERR non scaling filter is full", "BF.ADD", "n", "e")
	want(t, e, "1) (nil)", "BF.INFO", "n", "EXPANSION")
	want(t, e, "OK", "BF.RESERVE", "z", "0.1", "2", "EXPANSION", "0")
	want(t, e, "1) (nil)", "BF.INFO", "z", "EXPANSION")
	// NONSCALING keeps the error as given: 2 items at 0.1 → 9 bits → 64 bits, 8 bytes
	want(t, e, "1) (integer) 104", "BF.INFO", "n", "SIZE")
}

func TestBFErrors(t *testing.T) {
	for _, v := range []Version{V70, V88} {
		e := New(Options{Version: v})
		legacy := v < V80
		pick := func(old, new string) string {
			if legacy {
				return old
			}
			return new
		}
		e.Do("SET", "s", "v")
		want(t, e, "(error) ERR wrong number of arguments for 'bf.reserve' command", "BF.RESERVE", "k", "0.01")
		want(t, e, "(error) ERR wrong number of arguments for 'bf.reserve' command", "BF.RESERVE", "k", "0.01", "1", "a", "b", "c", "d")
		want(t, e, "(error) ERR wrong number of arguments for 'bf.add' command", "BF.ADD", "k")
		want(t, e, "(error) ERR wrong number of arguments for 'bf.add' command", "BF.ADD", "k", "a", "b")
		want(t, e, "(error) ERR wrong number of arguments for 'bf.madd' command", "bf.MADD", "k")
		want(t, e, "(error) ERR wrong number of arguments for 'bf.exists' command", "BF.EXISTS", "k")
		want(t, e, "(error) ERR wrong number of arguments for 'bf.mexists' command", "BF.MEXISTS", "k")
		want(t, e, "(error) ERR wrong number of arguments for 'bf.info' command", "BF.INFO")
		want(t, e, "(error) ERR wrong number of arguments for 'bf.card' command", "BF.CARD", "a", "b")
		want(t, e, "(error) ERR bad error rate", "BF.RESERVE", "k", "x", "100")
		want(t, e, "(error) ERR bad error rate", "BF.RESERVE", "k", " 0.1", "100")
		want(t, e, "(error) ERR bad error rate", "BF.RESERVE", "k", "nan", "100")
		want(t, e, "(error) ERR bad error rate", "BF.RESERVE", "k", "1e-400", "100")
		want(t, e, pick("(error) ERR (0 < error rate range < 1) ", "(error) ERR error rate must be in the range (0.000000, 1.000000)"), "BF.RESERVE", "k", "1", "100")
		want(t, e, pick("(error) ERR (0 < error rate range < 1) ", "(error) ERR error rate must be in the range (0.000000, 1.000000)"), "BF.RESERVE", "k", "-inf", "100")
		want(t, e, "(error) ERR bad capacity", "BF.RESERVE", "k", "0.01", "1.5")
		want(t, e, pick("(error) ERR (capacity should be larger than 0)", "(error) ERR capacity must be in the range [1, 1073741824]"), "BF.RESERVE", "k", "0.01", "0")
		want(t, e, "(error) ERR no expansion", "BF.RESERVE", "k", "0.01", "10", "EXPANSION")
		want(t, e, "(error) ERR bad expansion", "BF.RESERVE", "k", "0.01", "10", "EXPANSION", "x")
		want(t, e, pick("(error) ERR expansion should be greater or equal to 1", "(error) ERR expansion must be in the range [0, 32768]"), "BF.RESERVE", "k", "0.01", "10", "EXPANSION", "-1")
		want(t, e, "(error) Nonscaling filters cannot expand", "BF.RESERVE", "k", "0.01", "10", "EXPANSION", "3", "NONSCALING")
		want(t, e, "(error) WRONGTYPE Operation against a key holding the wrong kind of value", "BF.RESERVE", "s", "0.01", "10")
		want(t, e, "(error) WRONGTYPE Operation against a key holding the wrong kind of value", "BF.ADD", "s", "a")
		want(t, e, "(error) WRONGTYPE Operation against a key holding the wrong kind of value", "BF.INFO", "s")
		want(t, e, "(error) WRONGTYPE Operation against a key holding the wrong kind of value", "BF.CARD", "s")
		want(t, e, "(integer) 0", "BF.EXISTS", "s", "a") // RedisBloom answers 0, not WRONGTYPE
		want(t, e, "1) (integer) 0\n2) (integer) 0", "BF.MEXISTS", "missing", "a", "b")
		want(t, e, "(error) ERR not found", "BF.INFO", "missing")
		want(t, e, "(integer) 0", "BF.CARD", "missing")
		want(t, e, "OK", "BF.RESERVE", "k", "0.01", "10", "EXPANSION", "4")
		want(t, e, "(error) ERR item exists", "BF.RESERVE", "k", "0.01", "10")
		want(t, e, "(error) Invalid information value", "BF.INFO", "k", "bogus")
		want(t, e, "1) (integer) 4", "BF.INFO", "k", "expansion")
		want(t, e, "(error) WRONGTYPE Operation against a key holding the wrong kind of value", "GET", "k")
		want(t, e, "(error) WRONGTYPE Operation against a key holding the wrong kind of value", "APPEND", "k", "x")
	}
	// 8.x caps the error rate at 0.25: 0.5 is accepted and sized as 0.25 (·0.5 tightening)
	e := New(Options{Version: V88})
	want(t, e, "OK", "BF.RESERVE", "c", "0.5", "1000")
	d := New(Options{Version: V88})
	want(t, d, "OK", "BF.RESERVE", "c", "0.25", "1000")
	if a, b := e.Do("BF.INFO", "c", "SIZE").FormatCLI(), d.Do("BF.INFO", "c", "SIZE").FormatCLI(); a != b {
		t.Errorf("0.5 not capped to 0.25: %s vs %s", a, b)
	}
	// a hexadecimal rate is a strtod number
	want(t, e, "OK", "BF.RESERVE", "h", "0x1p-7", "100")
}

func TestBFCopyRenameTTL(t *testing.T) {
	e := New(Options{Version: V70})
	e.Do("BF.ADD", "a", "x")
	want(t, e, "(integer) 1", "COPY", "a", "b")
	e.Do("BF.ADD", "b", "y")
	want(t, e, "(integer) 1", "BF.CARD", "a")
	want(t, e, "(integer) 2", "BF.CARD", "b")
	want(t, e, "(integer) 1", "EXPIRE", "b", "100")
	e.Do("BF.ADD", "b", "z")
	want(t, e, "(integer) 100", "TTL", "b")
	want(t, e, "OK", "RENAME", "b", "c")
	want(t, e, "(integer) 1", "BF.EXISTS", "c", "z")
}

func TestParseStrtod(t *testing.T) {
	ok := map[string]float64{"0.01": 0.01, "1e-2": 0.01, ".5": 0.5, "5.": 5, "+0.25": 0.25, "0x10": 16, "0X1P-2": 0.25, "INF": 0, "-Infinity": 0, "1e-310": 1e-310}
	for s, v := range ok {
		got, good := parseStrtod([]byte(s))
		if !good || (v != 0 && got != v) {
			t.Errorf("%q: %v %v", s, got, good)
		}
	}
	for _, s := range []string{"", " 1", "1 ", "nan", "1e", "1e+", "0x", "1_0", "0x1.8q", "abc", "1e400", "1e-400", "--1", "."} {
		if v, good := parseStrtod([]byte(s)); good {
			t.Errorf("%q accepted as %v", s, v)
		}
	}
}

// MEMORY USAGE of a module key: 7.x = mem_usage (BF.INFO Size) + key sds + dictEntry.
func TestBFMemoryUsage(t *testing.T) {
	e := New(Options{Version: V70})
	e.Do("BF.RESERVE", "bf:products", "0.01", "1000000")
	// key "bf:products": sds type 8, 3+11+1 = 15 → jemalloc 16; dictEntry 24
	want(t, e, "(integer) 1378608", "MEMORY", "USAGE", "bf:products")
}

// FuzzBloomCluster runs mutated BF.* and CLUSTER command lines on every profile with tracing on
// and off: no reply may come from a recovered panic.
func FuzzBloomCluster(f *testing.F) {
	for _, s := range []string{
		"BF.RESERVE k 0.01 100 EXPANSION 3\nBF.MADD k a b c\nBF.INFO k\nBF.EXISTS k a",
		"BF.RESERVE k 0.9 1 EXPANSION 32768\nBF.MADD k a b c d e f g h i j k l m n o p\nBF.INFO k CAPACITY",
		"BF.RESERVE k 1e-300 1073741824\nBF.ADD k x\nBF.CARD k\nMEMORY USAGE k",
		"BF.RESERVE k 0.5 9223372036854775807 NONSCALING\nBF.ADD k x",
		"BF.ADD k x\nCOPY k j\nBF.MEXISTS j x y\nTYPE j\nOBJECT ENCODING j\nRENAME j i\nBF.INFO i items",
		"CLUSTER KEYSLOT {a}b\nCLUSTER INFO\nCLUSTER HELP x",
	} {
		f.Add(s, uint8(0))
		f.Add(s, uint8(0x46))
	}
	f.Fuzz(func(t *testing.T, script string, profile uint8) {
		if len(script) > 2048 {
			return
		}
		e := New(Options{Version: Versions[int(profile)%len(Versions)], Trace: profile&0x40 != 0})
		for i, line := range strings.Split(script, "\n") {
			if i >= 16 {
				break
			}
			args, err := SplitArgs(line)
			if err != nil || len(args) == 0 {
				continue
			}
			r := e.Exec(args).Reply
			if r.IsError() && strings.Contains(r.Str, "internal error") {
				t.Fatalf("%q: %s", line, r.Str)
			}
		}
	})
}
