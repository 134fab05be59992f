package engine

import (
	"strconv"
	"strings"
	"testing"

	"redscope/engine/alloc"
)

func elem100(i int) string { return "e" + leftPad3(i) + strings.Repeat("x", 96) }

func leftPad3(i int) string {
	s := strconv.Itoa(i)
	for len(s) < 3 {
		s = "0" + s
	}
	return s
}

// 7.0: always a quicklist; MEMORY USAGE values checked on redis-server 7.0.15 (jemalloc-16):
// 16 + 40 + (40 + usable(node listpack)) per node + key + 24, the node bytes splitting at 8 KiB.
func TestListQuicklistMemory70(t *testing.T) {
	e := New(Options{Version: V70, Allocator: alloc.Jemalloc16})
	doLines(t, e, `
		RPUSH l a b c 1 2 3 => (integer) 6
		OBJECT ENCODING l => "quicklist"
		MEMORY USAGE l => (integer) 160
	`)
	want := []int64{2688, 5248, 7296, 8472, 10920, 13480}
	for step := 0; step < 6; step++ {
		args := []string{"RPUSH", "q"}
		for i := step * 20; i < step*20+20; i++ {
			args = append(args, elem100(i))
		}
		e.Do(args...)
		if got := e.Do("MEMORY", "USAGE", "q").Int; got != want[step] {
			t.Errorf("after %d elements: MEMORY USAGE %d, server %d", step*20+20, got, want[step])
		}
	}
	doLines(t, e, `
		MEMORY USAGE q SAMPLES 1 => (integer) 16552
	`)
	if got := e.Do("LINDEX", "q", "80").Str; got != elem100(80) {
		t.Fatalf("LINDEX q 80 = %q", got)
	}
}

// 7.2: listpack ↔ quicklist, stepping across both thresholds (docs/internals.md §Encodings: the 80th
// 100-byte push converts, 7 + 79·103 + 100 = 8244 > 8192; popping converts back at 39 elements,
// 7 + 39·103 = 4024 ≤ 4096).
func TestListConversions72(t *testing.T) {
	e := New(Options{Version: V72})
	for i := 0; i < 79; i++ {
		e.Do("RPUSH", "big", elem100(i))
		if enc := e.Do("OBJECT", "ENCODING", "big").Str; enc != "listpack" {
			t.Fatalf("push %d: %s", i+1, enc)
		}
	}
	// 16 + usable(7 + 79·103 = 8144 → 8192) + key "big" 8 + 24
	if m := e.Do("MEMORY", "USAGE", "big").Int; m != 16+8192+8+24 {
		t.Fatalf("listpack MEMORY USAGE %d", m)
	}
	e.Do("RPUSH", "big", elem100(79))
	if enc := e.Do("OBJECT", "ENCODING", "big").Str; enc != "quicklist" {
		t.Fatalf("80th push: %s", enc)
	}
	for n := 79; n >= 39; n-- {
		e.Do("RPOP", "big")
		enc := e.Do("OBJECT", "ENCODING", "big").Str
		if (n > 39 && enc != "quicklist") || (n == 39 && enc != "listpack") {
			t.Fatalf("%d elements left: %s", n, enc)
		}
	}
	doLines(t, e, `
		RPUSH lst 1 2 3 hello => (integer) 4
		MEMORY USAGE lst => (integer) 72
		CONFIG SET list-max-listpack-size 4 => OK
		RPUSH cnt a b c d => (integer) 4
		OBJECT ENCODING cnt => "listpack"
		LINSERT cnt AFTER d e => (integer) 5
		OBJECT ENCODING cnt => "quicklist"
		LREM cnt 0 e => (integer) 1
		OBJECT ENCODING cnt => "quicklist"
		LTRIM cnt 0 1 => OK
		OBJECT ENCODING cnt => "listpack"
		LSET cnt 0 x => OK
		LRANGE cnt 0 -1 => 1) "x" | 2) "b"
	`)
}

// LMOVE of an integer element counts 0 argument bytes (Redis sees an int-encoded object), and a
// 7.2 destination is created as a listpack; 7.0 always builds quicklists.
func TestListMove(t *testing.T) {
	for _, v := range []Version{V70, V72} {
		e := New(Options{Version: v})
		doLines(t, e, `
			RPUSH s 1 2 3 => (integer) 3
			LMOVE s d LEFT RIGHT => "1"
			LMOVE s d RIGHT LEFT => "3"
			LRANGE d 0 -1 => 1) "3" | 2) "1"
			RPOPLPUSH s s => "2"
			RPOPLPUSH s d => "2"
			EXISTS s => (integer) 0
			BLMOVE s d LEFT LEFT 0 => (nil)
			BLPOP d 0 => 1) "d" | 2) "2"
			BRPOP none d 0 => 1) "d" | 2) "1"
			BLPOP d 0 => 1) "d" | 2) "3"
			BLPOP d 0.5 => (nil)
			BLPOP d -1 => (error) ERR timeout is negative
		`)
		want := "quicklist"
		if v.Has(V72) {
			want = "listpack"
		}
		e.Do("RPUSH", "x", "a")
		if enc := e.Do("OBJECT", "ENCODING", "x").Str; enc != want {
			t.Fatalf("%s: %s", v, enc)
		}
	}
}

// COPY keeps the encoding and the node layout (MEMORY USAGE equal).
func TestListCopy(t *testing.T) {
	for _, v := range []Version{V70, V72} {
		e := New(Options{Version: v})
		for i := 0; i < 100; i++ {
			e.Do("RPUSH", "q", elem100(i))
		}
		e.Do("COPY", "q", "q2")
		a, b := e.Do("MEMORY", "USAGE", "q", "SAMPLES", "0").Int, e.Do("MEMORY", "USAGE", "q2", "SAMPLES", "0").Int
		if a != b || a == 0 {
			t.Fatalf("%s: %d vs %d", v, a, b)
		}
		e.Do("LPOP", "q", "50")
		if n := e.Do("LLEN", "q2").Int; n != 100 {
			t.Fatalf("copy shares state: %d", n)
		}
	}
}

// Random zset/list commands with odd arguments never hit an internal error (a recovered panic),
// under every profile, with small thresholds so conversions happen both ways.
func TestZsetListNoPanics(t *testing.T) {
	cmds := []string{"ZADD", "ZINCRBY", "ZSCORE", "ZMSCORE", "ZRANK", "ZREVRANK", "ZCARD", "ZCOUNT", "ZLEXCOUNT",
		"ZREM", "ZRANGE", "ZREVRANGE", "ZRANGEBYSCORE", "ZREVRANGEBYSCORE", "ZRANGEBYLEX", "ZREVRANGEBYLEX",
		"ZPOPMIN", "ZPOPMAX", "ZRANDMEMBER", "ZSCAN", "LPUSH", "RPUSH", "LPUSHX", "RPUSHX", "LPOP", "RPOP",
		"LLEN", "LRANGE", "LINDEX", "LSET", "LINSERT", "LPOS", "LREM", "LTRIM", "LMOVE", "RPOPLPUSH",
		"BLPOP", "BRPOP", "BLMOVE", "BRPOPLPUSH", "COPY", "MEMORY", "DEL"}
	words := []string{"k", "k2", "0", "1", "-1", "2", "-2", "5", "100", "(1", "[a", "(b", "-", "+", "inf", "-inf",
		"nan", "0x10", "1.5", "a", "b", "c", "x", "LIMIT", "WITHSCORES", "WITHSCORE", "REV", "BYSCORE",
		"BYLEX", "NX", "XX", "GT", "LT", "CH", "INCR", "LEFT", "RIGHT", "BEFORE", "AFTER", "RANK", "COUNT",
		"MAXLEN", "MATCH", "*", "9223372036854775807", "-9223372036854775808", "", "USAGE", "SAMPLES",
		strings.Repeat("z", 70), "0.01"}
	for _, v := range []Version{V70, V72, V74, V88} {
		e := New(Options{Version: v, Seed: uint64(v)})
		e.Do("CONFIG", "SET", "zset-max-listpack-entries", "3")
		e.Do("CONFIG", "SET", "list-max-listpack-size", "3")
		r := e.Rand()
		for i := 0; i < 20000; i++ {
			args := []string{cmds[r.IntN(len(cmds))]}
			n := 1 + r.IntN(7)
			for j := 0; j < n; j++ {
				args = append(args, words[r.IntN(len(words))])
			}
			if args[0] == "MEMORY" {
				args = []string{"MEMORY", "USAGE", words[r.IntN(2)]}
			}
			rep := e.Do(args...)
			if rep.IsError() && strings.Contains(rep.Str, "internal error") {
				t.Fatalf("%s: %v: %s", v, args, rep.Str)
			}
		}
	}
}
