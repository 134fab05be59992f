package engine

import (
	"fmt"
	"math"
	"strconv"
	"testing"

	"redscope/engine/alloc"
)

// %.17g of 7.0 replies, checked against glibc printf (gcc, x86-64).
func TestDoubleG17MatchesGlibc(t *testing.T) {
	cases := []struct {
		v    float64
		want string
	}{
		{0.1, "0.10000000000000001"}, {3, "3"}, {1e21, "1e+21"}, {1e-7, "9.9999999999999995e-08"},
		{math.Copysign(0, -1), "-0"}, {123456789012345678, "1.2345678901234568e+17"},
		{5e-324, "4.9406564584124654e-324"}, {1.7976931348623157e308, "1.7976931348623157e+308"},
		{0.30000000000000004, "0.30000000000000004"}, {2.5, "2.5"}, {-1e-5, "-1.0000000000000001e-05"},
		{1e100, "1e+100"}, {4611686018427387905, "4.6116860184273879e+18"}, {1e16, "10000000000000000"},
		{1e17, "1e+17"}, {123.456, "123.456"}, {-0.000001234, "-1.234e-06"},
		{math.Inf(1), "inf"}, {math.Inf(-1), "-inf"},
	}
	for _, c := range cases {
		if got := FormatDouble(c.v, V70); got != c.want {
			t.Errorf("7.0 %v: got %q want %q", c.v, got, c.want)
		}
	}
}

// 7.2+ d2string: the rules of docs/internals.md §Skiplist and doubles (no 7.2 server here).
func TestDoubleShortest72(t *testing.T) {
	cases := []struct {
		v    float64
		want string
	}{
		{1.5, "1.5"}, {0.1, "0.1"}, {0.30000000000000004, "0.30000000000000004"}, {1e21, "1e+21"}, {1e19, "1e+19"},
		{1e-7, "1e-7"}, {0.000001, "0.000001"}, {0.0001234, "1.234e-4"}, {12345.6789012, "1.23456789012e+4"},
		{123456.78901234567, "1.2345678901234567e+5"}, {1234.56789012, "1234.56789012"},
		{12345678901234567890, "12345678901234567000"}, {1.7976931348623157e308, "1.7976931348623157e+308"},
		{5e-324, "5e-324"}, {-1e-5, "-0.00001"}, {3, "3"}, {1000000000000000000, "1000000000000000000"},
		{123456789012345680, "123456789012345680"}, {0, "0"}, {math.Copysign(0, -1), "-0"},
		{math.Inf(1), "inf"}, {math.Inf(-1), "-inf"}, {math.NaN(), "nan"}, {-2.5, "-2.5"}, {1.5e-7, "1.5e-7"},
	}
	for _, v := range []Version{V72, V74, V88} {
		for _, c := range cases {
			if got := FormatDouble(c.v, v); got != c.want {
				t.Errorf("%s %v: got %q want %q", v, c.v, got, c.want)
			}
		}
	}
}

// strtod prefixes, checked against glibc strtod (gcc, x86-64): value and bytes consumed.
func TestStrtodMatchesGlibc(t *testing.T) {
	cases := []struct {
		in   string
		v    float64
		n    int
		nan  bool
		zero bool
	}{
		{"0x10", 16, 4, false, false}, {"0x1.8p1", 3, 7, false, false}, {"0X1P3", 8, 5, false, false},
		{"1e-310", 1e-310, 6, false, false}, {"1e-400", 0, 6, false, true}, {"1e400", math.Inf(1), 5, false, false},
		{" 5", 5, 2, false, false}, {"inf", math.Inf(1), 3, false, false}, {"-Infinity", math.Inf(-1), 9, false, false},
		{"nan", 0, 3, true, false}, {"0x", 0, 1, false, true}, {"1e", 1, 1, false, false}, {"1.", 1, 2, false, false},
		{".", 0, 0, false, true}, {" ", 0, 0, false, true},
	}
	for _, c := range cases {
		v, n, _ := strtod([]byte(c.in), true)
		if n != c.n || (c.nan != math.IsNaN(v)) || (!c.nan && !c.zero && v != c.v) || (c.zero && v != 0) {
			t.Errorf("strtod(%q) = %v, %d; want %v, %d", c.in, v, n, c.v, c.n)
		}
	}
}

// Score parsing and the replies checked on redis-server 7.0.15.
func TestZaddScoreParsing70(t *testing.T) {
	e := New(Options{Version: V70, Allocator: alloc.Jemalloc16})
	doLines(t, e, `
		ZADD z 0x10 hex 1e400 huge => (error) ERR value is not a valid float
		ZADD z 0x10 hex 1e-400 zero => (error) ERR value is not a valid float
		ZADD z " 1" sp => (error) ERR value is not a valid float
		ZADD z "1 " sp => (error) ERR value is not a valid float
		ZADD z "" sp => (error) ERR value is not a valid float
		ZADD z nan a => (error) ERR value is not a valid float
		ZADD z 1e-310 denorm => (integer) 1
		ZSCORE z denorm => "9.9999999999999694e-311"
		ZADD z 0X1P3 h => (integer) 1
		ZSCORE z h => "8"
		ZADD z inf p -inf n => (integer) 2
		ZADD z INCR -inf p => (error) ERR resulting score is not a number (NaN)
		ZCOUNT z ( 8 => (integer) 2
		ZCOUNT z "" 8 => (integer) 2
		ZCOUNT z " 2" 9 => (integer) 1
		ZCOUNT z 1e999 inf => (integer) 1
		ZCOUNT z nan 3 => (error) ERR min or max is not a float
		ZCOUNT z 1 (abc => (error) ERR min or max is not a float
	`)
}

// Listpack → skiplist at zset-max-listpack-entries (128) and -value (64), stepping across each
// threshold, with MEMORY USAGE of the listpack side checked on redis-server 7.0.15 (jemalloc-16).
func TestZsetConversionThresholds70(t *testing.T) {
	e := New(Options{Version: V70, Allocator: alloc.Jemalloc16})
	for i := 1; i <= 128; i++ {
		e.Do("ZADD", "z", strconv.Itoa(i), "m"+strconv.Itoa(i))
		if enc := e.Do("OBJECT", "ENCODING", "z").Str; enc != "listpack" {
			t.Fatalf("after %d members: %s", i, enc)
		}
	}
	e.Do("ZADD", "z", "129", "m129")
	if enc := e.Do("OBJECT", "ENCODING", "z").Str; enc != "skiplist" {
		t.Fatalf("129 members: %s", enc)
	}
	for i := 1; i <= 120; i++ {
		e.Do("ZREM", "z", "m"+strconv.Itoa(i))
	}
	if enc := e.Do("OBJECT", "ENCODING", "z").Str; enc != "skiplist" {
		t.Fatalf("never back: %s", enc)
	}
	doLines(t, e, `
		ZADD v 1 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa => (integer) 1
		OBJECT ENCODING v => "listpack"
		MEMORY USAGE v => (integer) 128
		ZADD v 2 bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb => (integer) 1
		OBJECT ENCODING v => "skiplist"
		ZADD v2 1 bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb => (integer) 1
		OBJECT ENCODING v2 => "skiplist"
		ZADD l 1 a 2.5 b => (integer) 2
		MEMORY USAGE l => (integer) 80
		ZADD l 0.1 c 1e21 d -0 e 3 f => (integer) 4
		MEMORY USAGE l => (integer) 112
		CONFIG SET zset-max-listpack-entries 0 => OK
		ZADD e 1 a => (integer) 1
		OBJECT ENCODING e => "skiplist"
	`)
}

// 7.2: a ZADD with more pairs than the limit creates a pre-sized skiplist; 7.0 fills the
// listpack, converts on the 129th member and is caught mid-rehash (128 + 256 buckets), as
// DEBUG HTSTATS-KEY shows on redis-server 7.0.15.
func TestZsetPresize(t *testing.T) {
	args := []string{"ZADD", "zs"}
	for i := 1; i <= 129; i++ {
		args = append(args, strconv.Itoa(i), fmt.Sprintf("m%d", i))
	}
	e70 := New(Options{Version: V70, Allocator: alloc.Jemalloc16})
	e70.Do(args...)
	z := e70.Lookup([]byte("zs")).Val.(*zsetValue)
	if z.dict.TableSize(0) != 128 || z.dict.TableSize(1) != 256 || z.dict.TableUsed(1) != 1 {
		t.Fatalf("7.0 dict: ht0 %d ht1 %d/%d", z.dict.TableSize(0), z.dict.TableSize(1), z.dict.TableUsed(1))
	}
	e72 := New(Options{Version: V72})
	e72.Do(args...)
	z = e72.Lookup([]byte("zs")).Val.(*zsetValue)
	if z.dict.IsRehashing() || z.dict.Slots() != 256 {
		t.Fatalf("7.2 dict: rehashing %v slots %d", z.dict.IsRehashing(), z.dict.Slots())
	}
}

// Skiplist MEMORY USAGE: exact given the engine's node levels; the level-free part equals the real
// server's. redis-server 7.0.15 (jemalloc-16) gave 14728 for the 129-member set above: fixed part
// 16+16+32+56+8×384+usable(536)=640 → 3832, per member usable("mN" sds)=8 + 24 = 32 → 4128, so its
// nodes took 6768 bytes (between 129×48 and 129×640, as every draw of levels must).
func TestZsetSkiplistMemory(t *testing.T) {
	args := []string{"ZADD", "zs"}
	for i := 1; i <= 129; i++ {
		args = append(args, strconv.Itoa(i), fmt.Sprintf("m%d", i))
	}
	e := New(Options{Version: V70, Allocator: alloc.Jemalloc16, Seed: 7})
	e.Do(args...)
	got := e.Do("MEMORY", "USAGE", "zs", "SAMPLES", "0").Int
	z := e.Lookup([]byte("zs")).Val.(*zsetValue)
	nodes := 0
	for x := z.zsl.First(); x != nil; x = x.Next() {
		nodes += e.alloc.Usable(24 + 16*x.Level())
	}
	key := 8 + 24 // "zs" sds + keyspace dictEntry
	if want := int64(3832 + 4128 + nodes + key); got != want {
		t.Fatalf("MEMORY USAGE %d, want %d (nodes %d)", got, want, nodes)
	}
	const server = 14728
	if serverNodes := server - 3832 - 4128 - key; serverNodes != 6768-key || nodes < 129*48 || nodes > 129*640 {
		t.Fatalf("level-dependent part: engine %d, server %d", nodes, serverNodes)
	}
	// Default SAMPLES 5: the average of the first five nodes times 129.
	five := e.Do("MEMORY", "USAGE", "zs").Int
	var sum int
	x := z.zsl.First()
	for i := 0; i < 5; i++ {
		sum += 32 + e.alloc.Usable(24+16*x.Level())
		x = x.Next()
	}
	if want := int64(float64(3832+16)+float64(sum)/5*129) - 16 + int64(key); five != want {
		t.Fatalf("SAMPLES 5: %d want %d", five, want)
	}
}

// ZINCRBY moves the member and keeps dict and skiplist consistent in both encodings; COPY keeps
// the encoding and contents.
func TestZsetIncrAndCopy(t *testing.T) {
	for _, enc := range []string{"128", "0"} {
		e := New(Options{Version: V70})
		e.Do("CONFIG", "SET", "zset-max-listpack-entries", enc)
		for i := 0; i < 50; i++ {
			e.Do("ZINCRBY", "z", strconv.Itoa(i%7+1), "m"+strconv.Itoa(i%10))
		}
		r := e.Do("ZRANGE", "z", "0", "-1", "WITHSCORES").FormatCLI()
		if e.Do("COPY", "z", "z2").Int != 1 {
			t.Fatal("copy")
		}
		if r2 := e.Do("ZRANGE", "z2", "0", "-1", "WITHSCORES").FormatCLI(); r2 != r {
			t.Fatalf("copy differs:\n%s\n%s", r, r2)
		}
		if a, b := e.Do("OBJECT", "ENCODING", "z").Str, e.Do("OBJECT", "ENCODING", "z2").Str; a != b {
			t.Fatalf("encodings %s %s", a, b)
		}
		// scores: m0 gets 1+4+7+3+6 = 21 (i = 0,10,20,30,40 → i%7+1 = 1,4,7,3,6)
		if s := e.Do("ZSCORE", "z", "m0").Str; s != "21" {
			t.Fatalf("enc %s: ZSCORE m0 = %q", enc, s)
		}
		e.Do("ZINCRBY", "z", "100", "m0")
		if s := e.Do("ZSCORE", "z2", "m0").Str; s != "21" {
			t.Fatal("copy shares state")
		}
		if r := e.Do("ZREVRANK", "z", "m0"); r.Int != 0 {
			t.Fatalf("ZREVRANK after move: %v", r)
		}
	}
}

// Tracing: conversions and listpack/skiplist changes are reported.
func TestZsetTraceEvents(t *testing.T) {
	e := New(Options{Version: V70, Trace: true})
	e.Do("CONFIG", "SET", "zset-max-listpack-entries", "2")
	res := e.Exec([][]byte{[]byte("ZADD"), []byte("z"), []byte("1"), []byte("a"), []byte("2"), []byte("b"), []byte("3"), []byte("c")})
	var conv, lp, sl int
	for _, ev := range res.Events {
		switch v := ev.(type) {
		case EncodingEvent:
			if v.From == "listpack" && v.To == "skiplist" {
				conv++
			}
		case ListpackEvent:
			lp++
		case SkiplistEvent:
			sl++
		}
	}
	if conv != 1 || lp != 4 || sl != 3 {
		t.Fatalf("events: conversions %d listpack %d skiplist %d", conv, lp, sl)
	}
}
