package engine

import (
	"strings"
	"testing"
)

// TestReplyRESP3Encoding: each reply kind's bytes in RESP2 and RESP3 (networking.c's addReply*
// calls: addReplyMapLen, addReplySetLen, addReplyDouble, addReplyBool, addReplyBigNum,
// addReplyVerbatim, addReplyNull / addReplyNullArray).
func TestReplyRESP3Encoding(t *testing.T) {
	kv := []Reply{BulkStr("a"), Int(1), BulkStr("b"), Double("2.5")}
	cases := []struct {
		name       string
		r          Reply
		resp2, rs3 string
	}{
		{"status", OK, "+OK\r\n", "+OK\r\n"},
		{"error", Err("ERR x"), "-ERR x\r\n", "-ERR x\r\n"},
		{"int", Int(-7), ":-7\r\n", ":-7\r\n"},
		{"bulk", BulkStr("hi"), "$2\r\nhi\r\n", "$2\r\nhi\r\n"},
		{"nil", NilReply, "$-1\r\n", "_\r\n"},
		{"nil array", NilArray, "*-1\r\n", "_\r\n"},
		{"double", Double("1.5"), "$3\r\n1.5\r\n", ",1.5\r\n"},
		{"double inf", Double("-inf"), "$4\r\n-inf\r\n", ",-inf\r\n"},
		{"bool true", Bool(true), ":1\r\n", "#t\r\n"},
		{"bool false", Bool(false), ":0\r\n", "#f\r\n"},
		{"big number", BigNum("123456789012345678901"), "$21\r\n123456789012345678901\r\n", "(123456789012345678901\r\n"},
		{"verbatim", Verbatim("a:1\r\n"), "$5\r\na:1\r\n\r\n", "=9\r\ntxt:a:1\r\n\r\n"},
		{"verbatim md", VerbatimFormat("markdown", "# x"), "$3\r\n# x\r\n", "=7\r\nmar:# x\r\n"},
		{"verbatim short", VerbatimFormat("m", "x"), "$1\r\nx\r\n", "=5\r\nm  :x\r\n"},
		{"map", Map(kv...), "*4\r\n$1\r\na\r\n:1\r\n$1\r\nb\r\n$3\r\n2.5\r\n", "%2\r\n$1\r\na\r\n:1\r\n$1\r\nb\r\n,2.5\r\n"},
		{"empty map", EmptyMap, "*0\r\n", "%0\r\n"},
		{"set", Set(BulkStr("x"), BulkStr("y")), "*2\r\n$1\r\nx\r\n$1\r\ny\r\n", "~2\r\n$1\r\nx\r\n$1\r\ny\r\n"},
		{"empty set", EmptySet, "*0\r\n", "~0\r\n"},
		{"pairs", Pairs(BulkStr("m"), Double("1"), BulkStr("n"), Double("2")),
			"*4\r\n$1\r\nm\r\n$1\r\n1\r\n$1\r\nn\r\n$1\r\n2\r\n",
			"*2\r\n*2\r\n$1\r\nm\r\n,1\r\n*2\r\n$1\r\nn\r\n,2\r\n"},
		{"empty pairs", Pairs(), "*0\r\n", "*0\r\n"},
		{"map of pairs", MapOfPairs(Array(BulkStr("s"), EmptyArr)),
			"*1\r\n*2\r\n$1\r\ns\r\n*0\r\n", "%1\r\n$1\r\ns\r\n*0\r\n"},
		{"attribute", BulkStr("r").WithAttribute(BulkStr("k"), Int(1)), "$1\r\nr\r\n", "|1\r\n$1\r\nk\r\n:1\r\n$1\r\nr\r\n"},
		{"push", PushThen(Err("ERR no"), BulkStr("r"), BulkStr("p"), Int(2)), "-ERR no\r\n", ">2\r\n$1\r\np\r\n:2\r\n$1\r\nr\r\n"},
		{"nested", Array(Map(BulkStr("k"), NilReply), Set(Bool(true))),
			"*2\r\n*2\r\n$1\r\nk\r\n$-1\r\n*1\r\n:1\r\n", "*2\r\n%1\r\n$1\r\nk\r\n_\r\n~1\r\n#t\r\n"},
	}
	for _, c := range cases {
		if got := string(c.r.AppendRESP(nil, 2)); got != c.resp2 {
			t.Errorf("%s RESP2: %q, want %q", c.name, got, c.resp2)
		}
		if got := string(c.r.AppendRESP2(nil)); got != c.resp2 {
			t.Errorf("%s AppendRESP2: %q, want %q", c.name, got, c.resp2)
		}
		if got := string(c.r.AppendRESP(nil, 3)); got != c.rs3 {
			t.Errorf("%s RESP3: %q, want %q", c.name, got, c.rs3)
		}
	}
}

// TestReplyRetype: the As* helpers retype arrays only, and leave errors (a WRONGTYPE from
// HGETALL) and the RESP2 bytes alone.
func TestReplyRetype(t *testing.T) {
	if r := ErrWrongType.AsMap(); r.R3 != R3Plain || !r.IsError() {
		t.Fatalf("AsMap on an error: %+v", r)
	}
	if r := EmptyArr.AsMapIf(false); r.R3 != R3Plain {
		t.Fatalf("AsMapIf(false): %+v", r)
	}
	if r := EmptyArr.AsMapIf(true); string(r.AppendRESP3(nil)) != "%0\r\n" {
		t.Fatalf("AsMapIf(true): %q", r.AppendRESP3(nil))
	}
	if EmptyArr.R3 != R3Plain {
		t.Fatal("retyping changed the shared EmptyArr")
	}
	if r := BulkStr("x").AsVerbatim(); string(r.AppendRESP3(nil)) != "=5\r\ntxt:x\r\n" {
		t.Fatalf("AsVerbatim: %q", r.AppendRESP3(nil))
	}
}

// TestCommandRepliesRESP3: commands whose RESP3 shape differs, through the engine (the
// differential transcripts compare the same commands with redis-server 7.0.15 over TCP; this
// one also covers the 7.2+ profiles' ZRANK … WITHSCORE).
func TestCommandRepliesRESP3(t *testing.T) {
	e := New(Options{Version: V74})
	e.Do("ZADD", "z", "1.5", "a", "2", "b")
	e.Do("HSET", "h", "f", "v")
	e.Do("SADD", "s", "1")
	cases := []struct {
		cmd  string
		want string
	}{
		{"ZSCORE z a", ",1.5\r\n"},
		{"ZRANK z b WITHSCORE", "*2\r\n:1\r\n,2\r\n"},
		{"ZRANK z x WITHSCORE", "_\r\n"},
		{"ZRANGE z 0 -1 WITHSCORES", "*2\r\n*2\r\n$1\r\na\r\n,1.5\r\n*2\r\n$1\r\nb\r\n,2\r\n"},
		{"ZRANGE z 0 -1", "*2\r\n$1\r\na\r\n$1\r\nb\r\n"},
		{"ZPOPMIN nosuch", "*0\r\n"},
		{"HGETALL h", "%1\r\n$1\r\nf\r\n$1\r\nv\r\n"},
		{"HGETALL nosuch", "%0\r\n"},
		{"HKEYS nosuch", "*0\r\n"},
		{"HRANDFIELD h 1 WITHVALUES", "*1\r\n*2\r\n$1\r\nf\r\n$1\r\nv\r\n"},
		{"SMEMBERS s", "~1\r\n$1\r\n1\r\n"},
		{"SMEMBERS nosuch", "~0\r\n"},
		{"SRANDMEMBER s 5", "*1\r\n$1\r\n1\r\n"},
		{"CONFIG GET maxmemory", "%1\r\n$9\r\nmaxmemory\r\n$1\r\n0\r\n"},
		{"GET nosuch", "_\r\n"},
		{"EVAL \"redis.setresp(3); return redis.call('ZSCORE', 'z', 'a')\" 0", ",1.5\r\n"},
		{"EVAL \"redis.setresp(3); return redis.call('GET', 'nosuch') == nil\" 0", "#t\r\n"},
		{"EVAL \"redis.setresp(2); return redis.call('GET', 'nosuch') == false\" 0", ":1\r\n"},
		{"EVAL \"redis.setresp(3); return redis.call('SMEMBERS', 's').set['1']\" 0", "#t\r\n"},
		{"EVAL \"return {map={k={double=0.5}}}\" 0", "%1\r\n$1\r\nk\r\n,0.5\r\n"},
		{"EVAL \"return {double=0.1}\" 0", ",0.1\r\n"}, // 7.2+ d2string (7.0: 0.10000000000000001)
	}
	for _, c := range cases {
		args, err := SplitArgs(c.cmd)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(e.Exec(args).Reply.AppendRESP3(nil)); got != c.want {
			t.Errorf("%s: %q, want %q", c.cmd, got, c.want)
		}
	}
	// RESP2 is untouched.
	if got := e.Do("HGETALL", "h").FormatCLI(); got != "1) \"f\"\n2) \"v\"\n" {
		t.Errorf("HGETALL in RESP2: %q", got)
	}
	if got := strings.Count(string(e.Do("ZRANGE", "z", "0", "-1", "WITHSCORES").AppendRESP2(nil)), "*"); got != 1 {
		t.Errorf("ZRANGE WITHSCORES in RESP2 is nested (%d arrays)", got)
	}
}
