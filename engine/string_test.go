package engine

import (
	"strings"
	"testing"
	"time"
)

// Expected replies below were produced by Debian's redis-server 7.0.15 (jemalloc with the
// 16-byte quantum) through `redis-cli --no-raw`, unless a comment says they come from
// the rules in docs/internals.md or the course article (8.x profiles, no server here).

func TestSetOptionsAndErrors(t *testing.T) {
	e, _ := newEngineAt(V70)
	doLines(t, e, `
set => (error) ERR wrong number of arguments for 'set' command
set a b c => (error) ERR syntax error
set a b NX XX => (error) ERR syntax error
set a b EX => (error) ERR syntax error
set a b EX 0 => (error) ERR invalid expire time in 'set' command
set a b EX -1 => (error) ERR invalid expire time in 'set' command
set a b EX abc => (error) ERR value is not an integer or out of range
set a b PX 1.5 => (error) ERR value is not an integer or out of range
set a b EX 9223372036854775 => (error) ERR invalid expire time in 'set' command
set a b EX 9223372036854776 => (error) ERR invalid expire time in 'set' command
set a b PX 9223372036854775807 => (error) ERR invalid expire time in 'set' command
set a b KEEPTTL EX 10 => (error) ERR syntax error
set a b EX 10 PX 10 => (error) ERR syntax error
set a b IFEQ b => (error) ERR syntax error
set a b EX 10 EX 20 => OK
ttl a => (integer) 20
set a b NX NX => (nil)
set a b GET GET => "b"
set a c GET => "b"
set a d NX GET => "c"
set newk d NX GET => (nil)
set missing d XX GET => (nil)
exists missing => (integer) 0
setnx s1 v => (integer) 1
setnx s1 w => (integer) 0
setex sx 0 v => (error) ERR invalid expire time in 'setex' command
setex sx abc v => (error) ERR value is not an integer or out of range
psetex px -1 v => (error) ERR invalid expire time in 'psetex' command
getset s1 new => "v"
getset nope new => (nil)
getdel s1 => "new"
getdel s1 => (nil)
mset a 1 b => (error) ERR wrong number of arguments for 'mset' command
msetnx c 3 d => (error) ERR wrong number of arguments for 'msetnx' command
mset a 1 b 2 => OK
msetnx a 1 c 3 => (integer) 0
msetnx c 3 d 4 => (integer) 1
mget a none c => 1) "1" | 2) (nil) | 3) "3"
getex a PERSIST EX 10 => (error) ERR syntax error
getex a KEEPTTL => (error) ERR syntax error
getex a GET => (error) ERR syntax error
getex missing EX -5 => (nil)
getex a EX -5 => (error) ERR invalid expire time in 'getex' command
getex a EXAT 1 => "1"
exists a => (integer) 0
"set" "nx\x00junk" "v" "NX\x00" => OK
`)
}

func TestStringWrongType(t *testing.T) {
	e, _ := newEngineAt(V70)
	e.db.keys["l"] = &Object{Type: TypeList, Enc: EncQuicklist}
	wt := "(error) WRONGTYPE Operation against a key holding the wrong kind of value"
	doLines(t, e, `
get l => `+wt+`
set l v GET => `+wt+`
getset l v => `+wt+`
getdel l => `+wt+`
getex l => `+wt+`
append l x => `+wt+`
strlen l => `+wt+`
getrange l 0 1 => `+wt+`
setrange l 0 x => `+wt+`
incr l => `+wt+`
incrby l 2 => `+wt+`
decrby l 2 => `+wt+`
incrbyfloat l 1 => `+wt+`
mget l => 1) (nil)
setrange l 0 "" => `+wt+`
set l v EX 0 GET => (error) ERR invalid expire time in 'set' command
`)
	if e.db.keys["l"].Type != TypeList {
		t.Fatal("a failed SET ... GET must leave the list in place")
	}
	doLines(t, e, `
set l v => OK
type l => string
`)
}

func TestAppendSetrangeGetrange(t *testing.T) {
	e, _ := newEngineAt(V70)
	doLines(t, e, `
set k5 hello => OK
append k5 " world" => (integer) 11
debug sdslen k5 => key_sds_len:2, key_sds_avail:0, key_zmalloc: 8, val_sds_len:11, val_sds_avail:17, val_zmalloc: 32
object encoding k5 => "raw"
memory usage k5 => (integer) 80
append newk x => (integer) 1
object encoding newk => "embstr"
append newk2 12 => (integer) 2
object encoding newk2 => "int"
append newk2 3 => (integer) 3
object encoding newk2 => "raw"
set n 100 => OK
append n 1 => (integer) 4
debug sdslen n => key_sds_len:1, key_sds_avail:0, key_zmalloc: 8, val_sds_len:4, val_sds_avail:8, val_zmalloc: 16
setrange s1 10 abc => (integer) 13
get s1 => "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00abc"
memory usage s1 => (integer) 64
debug sdslen s1 => key_sds_len:2, key_sds_avail:0, key_zmalloc: 8, val_sds_len:13, val_sds_avail:0, val_zmalloc: 16
setrange s1 0 "" => (integer) 13
setrange s2 5 "" => (integer) 0
exists s2 => (integer) 0
setrange s1 -1 x => (error) ERR offset is out of range
setrange s1 abc x => (error) ERR value is not an integer or out of range
setrange s1 9223372036854775807 x => (error) ERR string exceeds maximum allowed size (proto-max-bulk-len)
setrange s1 536870912 x => (error) ERR string exceeds maximum allowed size (proto-max-bulk-len)
setrange s3 536870912 x => (error) ERR string exceeds maximum allowed size (proto-max-bulk-len)
setrange s3 536870911 "" => (integer) 0
setrange s1 2 zzzzzzzzzzzzzzzzzzzz => (integer) 22
debug sdslen s1 => key_sds_len:2, key_sds_avail:0, key_zmalloc: 8, val_sds_len:22, val_sds_avail:22, val_zmalloc: 48
set foo "hello world" => OK
getrange foo 0 -1 => "hello world"
getrange foo -3 -1 => "rld"
getrange foo -1 -3 => ""
getrange foo 0 -100 => "h"
getrange foo -100 -50 => "h"
getrange foo 5 100 => " world"
getrange foo 3 2 => ""
getrange nope 0 -1 => ""
getrange foo a 1 => (error) ERR value is not an integer or out of range
substr foo 0 3 => "hell"
set ii 123456 => OK
getrange ii -2 -1 => "56"
set empty "" => OK
getrange empty 0 -1 => ""
memory usage empty => (integer) 64
`)
	// 8.0 changed GETRANGE (#12272): an end before the start of the string gives "".
	e8, _ := newEngineAt(V80)
	doLines(t, e8, `
set foo "hello world" => OK
getrange foo 0 -100 => ""
getrange foo -100 100 => "hello world"
getrange foo -3 -1 => "rld"
`)
}

func TestCounters(t *testing.T) {
	e, _ := newEngineAt(V70)
	doLines(t, e, `
incr c => (integer) 1
object refcount c => (integer) 2147483647
incrby c 10000 => (integer) 10001
object encoding c => "int"
object refcount c => (integer) 1
incrby c abc => (error) ERR value is not an integer or out of range
decrby c -9223372036854775808 => (error) ERR decrement would overflow
set m 9223372036854775807 => OK
incr m => (error) ERR increment or decrement would overflow
set m -9223372036854775808 => OK
decr m => (error) ERR increment or decrement would overflow
set s 1.5 => OK
incrby s 1 => (error) ERR value is not an integer or out of range
set s 01 => OK
incr s => (error) ERR value is not an integer or out of range
set s 10 => OK
incr s => (integer) 11
object encoding s => "int"
set f 10.50 => OK
incrbyfloat f 0.1 => "10.6"
incrbyfloat f -5 => "5.6"
object encoding f => "embstr"
set f 5.0e3 => OK
incrbyfloat f 2.0e2 => "5200"
set f 1e10 => OK
incrbyfloat f 0.1 => "10000000000.09999999962747097"
set f 0 => OK
incrbyfloat f 1e-20 => "0"
incrbyfloat nf 0x10 => "16"
incrbyfloat nf 0X1P-2 => "16.25"
incrbyfloat nf " 1" => (error) ERR value is not a valid float
incrbyfloat nf "1 " => (error) ERR value is not a valid float
incrbyfloat nf nan => (error) ERR value is not a valid float
incrbyfloat nf inf => (error) ERR increment would produce NaN or Infinity
incrbyfloat nf 1e5000 => (error) ERR value is not a valid float
incrbyfloat nf 1e-5000 => (error) ERR value is not a valid float
set f 1 => OK
incrbyfloat f -1 => "0"
object encoding f => "embstr"
set f 1e16 => OK
incrbyfloat f 1.5 => "10000000000000001.5"
set f 1e20 => OK
incrbyfloat f 1 => "100000000000000000000"
set f 12345678901234567890123456789012345678901234567890 => OK
incrbyfloat f 1 => "12345678901234567890019423336468287027557880037376"
object encoding f => "raw"
memory usage f => (integer) 112
set f 1.1 => OK
incrbyfloat f -2.2 => "-1.1"
set f -0.0000000000000000001 => OK
incrbyfloat f 0 => "0"
`)
	r := e.Do("set", "f", "3")
	_ = r
	got := e.Do("incrbyfloat", "f", "1e300").Str
	if len(got) != 301 || !strings.HasPrefix(got, "1000000000000000000008997324079559") {
		t.Errorf("3 + 1e300 = %q", got)
	}
	// The course article: 1000 × +19999.99 and 10 × +0.1 (verified on 7.0.15).
	var last Reply
	for i := 0; i < 1000; i++ {
		last = e.Do("incrbyfloat", "fl", "19999.99")
	}
	if last.Str != "19999989.999999999829015" {
		t.Errorf("1000 × 19999.99 = %q", last.Str)
	}
	for i := 0; i < 10; i++ {
		last = e.Do("incrbyfloat", "t", "0.1")
	}
	if last.Str != "1" {
		t.Errorf("10 × 0.1 = %q", last.Str)
	}
}

func TestMemoryUsage70(t *testing.T) {
	e, _ := newEngineAt(V70)
	// MEMORY USAGE / DEBUG SDSLEN of 7.0.15 (Debian, 16-byte quantum) after SET and one APPEND.
	cases := []struct {
		n          int
		mem        int64
		alloc, usb int // DEBUG SDSLEN val_sds_avail, val_zmalloc after SET
		appendMem  int64
	}{
		{45, 112, 0, 64, 144},
		{32768, 41016, 0, 40960, 81976},
		{40955, 49208, 0, 49152, 98360},
		{65530, 81976, 5, 81920, 81976},
		{65534, 81976, 0, 81920, 163896},
		{100000, 114744, 0, 114688, 229432},
		{1048000, 1048632, 566, 1048576, 1048632},
		{2000000, 2097208, 97142, 2097152, 2097208},
	}
	for _, c := range cases {
		k := []byte("big" + itoa(int64(c.n)))
		e.Exec([][]byte{[]byte("set"), k, []byte(strings.Repeat("c", c.n))})
		o := e.Lookup(k)
		if m, _ := e.MemoryUsage(k, 0); m != c.mem || o.SDS.Avail() != c.alloc || o.SDS.Usable != c.usb {
			t.Errorf("SET %d bytes: memory %d avail %d usable %d, want %d %d %d", c.n, m, o.SDS.Avail(), o.SDS.Usable, c.mem, c.alloc, c.usb)
		}
		e.Exec([][]byte{[]byte("append"), k, []byte("x")})
		if m, _ := e.MemoryUsage(k, 0); m != c.appendMem {
			t.Errorf("SET %d bytes + APPEND x: memory %d, want %d", c.n, m, c.appendMem)
		}
	}
	// The article's experiment on 7.0.15 (16-byte quantum): 196664 / 114736 / 10485808.
	for i := 0; i < 1000; i++ {
		e.Do("append", "s:append", strings.Repeat("a", 100))
	}
	e.Do("set", "s:set", strings.Repeat("b", 100000))
	e.Do("setrange", "s:far", "10000000", "x")
	for k, want := range map[string]int64{"s:append": 196664, "s:set": 114736, "s:far": 10485808} {
		if m, _ := e.MemoryUsage([]byte(k), 0); m != want {
			t.Errorf("MEMORY USAGE %s = %d, want %d", k, m, want)
		}
	}
	if o := e.Lookup([]byte("s:far")); o.SDS.Avail() != 485749 {
		t.Errorf("s:far avail %d", o.SDS.Avail())
	}
}

// The course article's figures were measured on Redis 8.8 with the 8-byte quantum.
func TestMemoryUsage88Article(t *testing.T) {
	e := New(Options{Version: V88})
	for i := 0; i < 1000; i++ {
		e.Do("append", "s:append", strings.Repeat("a", 100))
	}
	e.Do("set", "s:set", strings.Repeat("b", 100000))
	if r := e.Do("setrange", "s:far", "10000000", "x"); r.Int != 10000001 {
		t.Fatalf("setrange: %v", r)
	}
	if r := e.Do("setrange", "s:far2", "536870912", "x"); r.Str != "ERR string exceeds maximum allowed size (proto-max-bulk-len)" {
		t.Errorf("setrange s:far2: %v", r)
	}
	for k, want := range map[string]int64{"s:append": 196640, "s:set": 114712, "s:far": 10485784} {
		if m, _ := e.MemoryUsage([]byte(k), 0); m != want {
			t.Errorf("8.8 MEMORY USAGE %s = %d, want %d", k, m, want)
		}
	}
}

// docs/internals.md §Strings: the 8.x kvobj embeds the key; embstr only when the whole object fits 64 B.
func TestKVObj8x(t *testing.T) {
	e := New(Options{Version: V88})
	e.Do("set", "foo", "bar")
	if m, _ := e.MemoryUsage([]byte("foo"), 0); m != 32 { // 16+1+5+7 = 29 → 32
		t.Errorf("SET foo bar: %d", m)
	}
	e.Do("set", "k1", strings.Repeat("v", 39))
	e.Do("set", "k2", strings.Repeat("v", 40))
	if o := e.Lookup([]byte("k1")); o.Enc != EncEmbstr {
		t.Errorf("k1 + 39 bytes: %v", o.Enc)
	}
	if o := e.Lookup([]byte("k2")); o.Enc != EncRaw {
		t.Errorf("k2 + 40 bytes: %v", o.Enc)
	}
	// 64-byte embstr: no room for an expire field, so EXPIRE reallocates and the value moves out.
	if m, _ := e.MemoryUsage([]byte("k1"), 0); m != 64 {
		t.Errorf("k1: %d", m)
	}
	e.setExpire("k1", e.NowMs()+100000)
	o := e.Lookup([]byte("k1"))
	if o.Enc != EncRaw || !o.Expirable {
		t.Errorf("k1 after EXPIRE: %v expirable=%v", o.Enc, o.Expirable)
	}
	// kvobj 16+8+1+4 = 29 → 32, plus sds8 of 39: 3+39+1 = 43 → 48.
	if m, _ := e.MemoryUsage([]byte("k1"), 0); m != 80 {
		t.Errorf("k1 after EXPIRE: %d", m)
	}
	// "a"→"b": kvobj 16+4+5 = 25 → 32 leaves 7 spare bytes, so EXPIRE reallocates to 33 → 40.
	e.Do("set", "a", "b")
	e.setExpire("a", e.NowMs()+1000)
	if m, _ := e.MemoryUsage([]byte("a"), 0); m != 40 || e.Lookup([]byte("a")).Enc != EncEmbstr {
		t.Errorf("a: %d", m)
	}
	e.Do("set", "i", "123456")
	if m, _ := e.MemoryUsage([]byte("i"), 0); m != 24 { // 16+1+3 = 20 → 24
		t.Errorf("int: %d", m)
	}
	// 7.x formula for the same commands.
	e7 := New(Options{Version: V70})
	e7.Do("set", "foo", "bar")
	if m, _ := e7.MemoryUsage([]byte("foo"), 0); m != 56 {
		t.Errorf("7.0 SET foo bar: %d", m)
	}
}

// docs/internals.md §TTL and the article's TTL table, on a key with EX 100.
func TestTTLKeptOrCleared(t *testing.T) {
	cases := []struct {
		cmd  string
		kept bool
	}{
		{"set k 2", false},
		{"set k 2 KEEPTTL", true},
		{"set k 2 XX", false},
		{"set k 3 GET", false},
		{"set k 2 NX", true}, // not performed
		{"incr k", true},
		{"incrby k 5", true},
		{"decr k", true},
		{"decrby k 5", true},
		{"incrbyfloat k 1.5", true},
		{"append k 0", true},
		{"setrange k 0 9", true},
		{"getset k 3", false},
		{"mset k 1", false},
		{"msetnx k 1", true}, // not performed
		{"getex k", true},
		{"getex k PERSIST", false},
		{"get k", true},
	}
	for _, c := range cases {
		for _, v := range []Version{V70, V88} {
			e, clk := newEngineAt(v)
			e.Do("set", "k", "1", "EX", "100")
			clk.Advance(10 * time.Second)
			args, _ := SplitArgs(c.cmd)
			e.SetTracing(true)
			res := e.Exec(args)
			e.SetTracing(false)
			if res.Reply.IsError() {
				t.Fatalf("%s: %v", c.cmd, res.Reply)
			}
			ttl := e.Do("ttl", "k").Int
			if c.kept && ttl != 90 || !c.kept && ttl != -1 {
				t.Errorf("%v %s: TTL %d (kept=%v)", v, c.cmd, ttl, c.kept)
			}
			// Writes that keep the TTL in place say so.
			if c.kept && (strings.HasPrefix(c.cmd, "incr") || strings.HasPrefix(c.cmd, "decr") || strings.HasPrefix(c.cmd, "append") || strings.HasPrefix(c.cmd, "setrange") || strings.Contains(c.cmd, "KEEPTTL")) {
				found := false
				for _, ev := range res.Events {
					if te, ok := ev.(TTLEvent); ok && te.Action == "kept" {
						found = true
					}
				}
				if !found {
					t.Errorf("%s: no TTLEvent kept in %v", c.cmd, res.Events)
				}
			}
		}
	}
	// SETEX / SET EX / GETEX EX replace the TTL.
	e, _ := newEngineAt(V70)
	e.Do("set", "k", "1", "EX", "100")
	e.Do("setex", "k", "50", "v")
	if ttl := e.Do("ttl", "k").Int; ttl != 50 {
		t.Errorf("setex: %d", ttl)
	}
	e.Do("getex", "k", "PX", "7000")
	if ttl := e.Do("pttl", "k").Int; ttl != 7000 {
		t.Errorf("getex px: %d", ttl)
	}
}

func TestStringTraceEvents(t *testing.T) {
	e, _ := newEngineAt(V70)
	e.SetTracing(true)
	e.Do("set", "k", "hello")
	res := e.Exec([][]byte{[]byte("append"), []byte("k"), []byte(" world")})
	var enc *EncodingEvent
	var sdsEv []SDSEvent
	for _, ev := range res.Events {
		switch x := ev.(type) {
		case EncodingEvent:
			enc = &x
		case SDSEvent:
			sdsEv = append(sdsEv, x)
		}
	}
	if enc == nil || enc.From != "embstr" || enc.To != "raw" {
		t.Fatalf("encoding event: %+v", res.Events)
	}
	if len(sdsEv) != 2 || !sdsEv[1].Greedy || sdsEv[1].After.Alloc != 28 || sdsEv[1].After.Usable != 32 {
		t.Fatalf("sds events: %+v", sdsEv)
	}
	res = e.Exec([][]byte{[]byte("set"), []byte("n"), []byte("12345")})
	var sawKey, sawEnc bool
	for _, ev := range res.Events {
		switch x := ev.(type) {
		case KeyEvent:
			sawKey = x.Action == "created"
		case EncodingEvent:
			sawEnc = x.To == "int"
		}
	}
	if !sawKey || !sawEnc {
		t.Errorf("SET n 12345 events: %+v", res.Events)
	}
}

func TestVersionGating(t *testing.T) {
	for _, v := range []Version{V70, V72, V74, V80, V82} {
		e, _ := newEngineAt(v)
		for _, c := range []string{"msetex", "delex", "digest", "increx"} {
			if e.HasCommand(c) {
				t.Errorf("%v has %s", v, c)
			}
		}
		if r := e.Do("set", "a", "b", "IFEQ", "b"); r.Str != "ERR syntax error" {
			t.Errorf("%v SET IFEQ: %v", v, r)
		}
	}
	e, _ := newEngineAt(V84)
	if !e.HasCommand("digest") || e.HasCommand("increx") {
		t.Error("8.4 commands")
	}
}

// docs/internals.md §Newer string commands and the article's CAS transcript (02c-cas.txt).
func TestCAS84(t *testing.T) {
	e, _ := newEngineAt(V84)
	e.db.keys["l"] = &Object{Type: TypeList, Enc: EncQuicklist}
	doLines(t, e, `
set cfg v1 => OK
set cfg v2 IFEQ v1 => OK
get cfg => "v2"
set cfg v3 IFEQ v1 => (nil)
get cfg => "v2"
set missing x IFEQ y => (nil)
exists missing => (integer) 0
set missing x IFDEQ 0000000000000000 => (nil)
set missing x IFNE y => OK
set missing2 x IFDNE 0000000000000000 => OK
set cfg v4 IFNE v2 => (nil)
set cfg v4 IFNE zz GET => "v2"
set cfg v5 NX IFEQ v4 => (error) ERR syntax error
set cfg v5 IFEQ v4 IFNE v4 => (error) ERR syntax error
set cfg v5 IFEQ => (error) ERR syntax error
set l v IFEQ x => (error) WRONGTYPE Operation against a key holding the wrong kind of value
set hw "Hello world" => OK
digest hw => "b6acb9d84a38ff74"
set hw new IFDEQ B6ACB9D84A38FF74 => OK
set hw x IFDEQ b6acb9d84a38ff74 => (nil)
digest nope => (nil)
digest l => (error) WRONGTYPE Operation against a key holding the wrong kind of value
set e "" => OK
digest e => "2d06800538d394c2"
set h hello => OK
digest h => "9555e8555c62dcfd"
set lock:order:9 tok-A => OK
delex lock:order:9 IFEQ tok-B => (integer) 0
delex lock:order:9 IFEQ tok-A => (integer) 1
delex lock:order:9 => (integer) 0
delex l IFEQ x => (error) WRONGTYPE Operation against a key holding the wrong kind of value
delex l => (integer) 1
delex h IFDNE 9555e8555c62dcfd => (integer) 0
delex h IFDEQ 9555e8555c62dcfd => (integer) 1
delex h IFEQ => (error) ERR syntax error
delex h FOO bar => (error) ERR syntax error
msetex 3 a 1 b 2 c 3 EX 60 => (integer) 1
ttl a => (integer) 60
ttl c => (integer) 60
del a => (integer) 1
msetex 3 a 9 b 9 c 9 NX EX 60 => (integer) 0
get a => (nil)
msetex 2 b 7 c 7 XX KEEPTTL => (integer) 1
ttl b => (integer) 60
msetex 1 b 8 => (integer) 1
ttl b => (integer) -1
msetex 1 b => (error) ERR wrong number of arguments for 'msetex' command
msetex 1 b 8 GET => (error) ERR syntax error
`)
}

// The article's INCREX transcripts (docs/internals.md §Newer string commands).
func TestIncrex88(t *testing.T) {
	e, clk := newEngineAt(V88)
	doLines(t, e, `
increx rl:u1 BYINT 1 UBOUND 5 EX 60 ENX => 1) (integer) 1 | 2) (integer) 1
increx rl:u1 BYINT 1 UBOUND 5 EX 60 ENX => 1) (integer) 2 | 2) (integer) 1
increx rl:u1 BYINT 1 UBOUND 5 EX 60 ENX => 1) (integer) 3 | 2) (integer) 1
increx rl:u1 BYINT 1 UBOUND 5 EX 60 ENX => 1) (integer) 4 | 2) (integer) 1
increx rl:u1 BYINT 1 UBOUND 5 EX 60 ENX => 1) (integer) 5 | 2) (integer) 1
increx rl:u1 BYINT 1 UBOUND 5 EX 60 ENX => 1) (integer) 5 | 2) (integer) 0
ttl rl:u1 => (integer) 60
`)
	clk.Advance(30 * time.Second)
	doLines(t, e, `
set rl:u2 0 EX 30 => OK
increx rl:u2 BYINT 1 EX 60 ENX => 1) (integer) 1 | 2) (integer) 1
ttl rl:u2 => (integer) 30
increx rl:u2 BYINT 1 EX 60 => 1) (integer) 2 | 2) (integer) 1
ttl rl:u2 => (integer) 60
set s 99 => OK
increx s BYINT 5 UBOUND 100 => 1) (integer) 99 | 2) (integer) 0
increx s BYINT 5 UBOUND 100 SATURATE => 1) (integer) 100 | 2) (integer) 1
set stock 2 => OK
increx stock BYINT -1 LBOUND 0 => 1) (integer) 1 | 2) (integer) -1
increx stock BYINT -1 LBOUND 0 => 1) (integer) 0 | 2) (integer) -1
increx stock BYINT -1 LBOUND 0 => 1) (integer) 0 | 2) (integer) 0
increx fresh => 1) (integer) 1 | 2) (integer) 1
ttl fresh => (integer) -1
increx nokey BYINT 5 UBOUND 3 => 1) (integer) 0 | 2) (integer) 0
exists nokey => (integer) 0
set m 9223372036854775806 => OK
increx m BYINT 5 => 1) (integer) 9223372036854775806 | 2) (integer) 0
increx m BYINT 5 SATURATE => 1) (integer) 9223372036854775807 | 2) (integer) 1
set f 1.5 => OK
increx f => (error) ERR value is not an integer or out of range
increx f BYFLOAT 0.25 => 1) "1.75" | 2) "0.25"
increx f BYFLOAT 1 UBOUND 2 => 1) "1.75" | 2) "0"
increx f BYFLOAT 1 UBOUND 2 SATURATE => 1) "2" | 2) "0.25"
increx f BYFLOAT abc => (error) ERR value is not a valid float
increx f BYINT 1 BYFLOAT 1 => (error) ERR syntax error
increx f ENX => (error) ERR syntax error
increx f EX 10 PERSIST => (error) ERR syntax error
increx f BYFLOAT 1 EX 0 => (error) ERR invalid expire time in 'increx' command
set p 1 EX 100 => OK
increx p PERSIST => 1) (integer) 2 | 2) (integer) 1
ttl p => (integer) -1
`)
}

func TestLongDoubleParse(t *testing.T) {
	ok := []string{"1", "-1", "+.5", "5.", "1e5", "1E+5", "0x10", "0X1P-2", "0x.8", "inf", "-Infinity", "INF",
		"1e-4940", "0e-5000", "1.18e4932", "0x1p-16445"}
	bad := []string{"", " 1", "1 ", "nan", "NaN", "infin", ".", "1e", "1e+", "0x", "0x1p", "1_0", "1e5000",
		"1e-5000", "1.2e4932", "0x1p16384", "0x1p-16447", "1\x002", "\t1", strings.Repeat("1", 5120)}
	for _, s := range ok {
		if _, good := parseLongDouble([]byte(s)); !good {
			t.Errorf("%q rejected", s)
		}
	}
	for _, s := range bad {
		if _, good := parseLongDouble([]byte(s)); good {
			t.Errorf("%q accepted", trunc60(s))
		}
	}
	// Values printed by glibc's %.17Lf on x86-64 for strtold(a) + strtold(b).
	sums := []struct{ a, b, want string }{
		{"0.1", "0.2", "0.3"},
		{"1e308", "1e308", "199999999999999999993371759311691291321120199694831134415594095989843469737676123744200253843777078640893494450108026446304269499187921167194841628860392837535918200039206381557326219209014213335878306791577877829121087126122536729803237260434173178506889763247582601711514636284849020905456510092687857156096"},
		{"0x10", "1", "17"},
		{"-0.000000000000000005", "0", "0"},
		{"0.000000000000000005", "0", "0"}, // 5e-18 is stored just below 5e-18,
		{"0.000000000000000015", "0", "0.00000000000000002"},
		{"1e-4950", "0", "0"},
	}
	for _, c := range sums {
		x, _ := parseLongDouble([]byte(c.a))
		y, _ := parseLongDouble([]byte(c.b))
		r, good := ldAdd(x, y)
		if !good || formatLongDouble(r) != c.want {
			t.Errorf("%s + %s = %v", c.a, c.b, r)
		}
	}
	x, _ := parseLongDouble([]byte("1.18e4932"))
	if _, good := ldAdd(x, x); good {
		t.Error("1.18e4932 × 2 must overflow")
	}
}

func trunc60(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// The hot paths must not panic on hostile input.
func TestStringNoPanic(t *testing.T) {
	e, _ := newEngineAt(V88)
	inputs := [][]string{
		{"set", "k", "v", "EX"}, {"set", "k", "v", "PXAT", "-9223372036854775808"},
		{"set", "k", "v", "EX", "9223372036854775807"}, {"getex", "k", "EXAT", "9223372036854775807"},
		{"setrange", "k", "9223372036854775806", "ab"}, {"getrange", "k", "-9223372036854775808", "9223372036854775807"},
		{"incrbyfloat", "k", "0x" + strings.Repeat("f", 5000)}, {"incrbyfloat", "k", "1e-999999999999999999999"},
		{"increx", "k", "BYFLOAT", "1e4932", "SATURATE"}, {"increx", "k", "BYFLOAT", "-inf"},
		{"increx", "k", "BYINT", "-9223372036854775808", "LBOUND", "0", "SATURATE"},
		{"msetex", "-1", "a", "b"}, {"msetex", "99999999999", "a", "b"}, {"delex"}, {"digest", "k", "x"},
	}
	for _, in := range inputs {
		r := e.Do(in...)
		if r.IsError() && strings.Contains(r.Str, "internal error") {
			t.Errorf("%v: %s", in, r.Str)
		}
	}
}
