package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"redscope/engine"
)

// TestHelloProtocol: HELLO 3 switches one connection to RESP3 (its reply already a map), HELLO 2
// and RESET switch back; a failed HELLO changes nothing; CLIENT INFO reports resp=. The bytes are
// redis-server 7.0.15's (internal/difftest/resp3_test.go compares them over TCP).
func TestHelloProtocol(t *testing.T) {
	_, addr := start(t, engine.V70)
	c := dial(t, addr)
	hello3 := "%7\r\n$6\r\nserver\r\n$5\r\nredis\r\n$7\r\nversion\r\n$6\r\n7.0.15\r\n$5\r\nproto\r\n:3\r\n$2\r\nid\r\n:1\r\n$4\r\nmode\r\n$10\r\nstandalone\r\n$4\r\nrole\r\n$6\r\nmaster\r\n$7\r\nmodules\r\n*0\r\n"
	steps := []struct{ send, want string }{
		{cmd("GET", "nosuch"), "$-1\r\n"},
		{cmd("HELLO", "3", "AUTH", "bob", "x"), "-WRONGPASS invalid username-password pair or user is disabled.\r\n"},
		{cmd("GET", "nosuch"), "$-1\r\n"}, // still RESP2
		{cmd("HELLO", "3"), hello3},
		{cmd("GET", "nosuch"), "_\r\n"},
		{cmd("HELLO", "4"), "-NOPROTO unsupported protocol version\r\n"},
		{cmd("HSET", "h", "f", "v"), ":1\r\n"},
		{cmd("HGETALL", "h"), "%1\r\n$1\r\nf\r\n$1\r\nv\r\n"},
		{cmd("INFO", "nosuchsection"), "=4\r\ntxt:\r\n"},
		{cmd("MULTI"), "+OK\r\n"},
		{cmd("HGETALL", "h"), "+QUEUED\r\n"},
		{cmd("GET", "nosuch"), "+QUEUED\r\n"},
		{cmd("EXEC"), "*2\r\n%1\r\n$1\r\nf\r\n$1\r\nv\r\n_\r\n"},
		{cmd("HELLO"), hello3}, // no version: the current protocol
		{cmd("RESET"), "+RESET\r\n"},
		{cmd("HGETALL", "h"), "*2\r\n$1\r\nf\r\n$1\r\nv\r\n"},
	}
	for _, s := range steps {
		if got := exchange(t, c, s.send, len(s.want)); got != s.want {
			t.Fatalf("%q: got %q, want %q", s.send, got, s.want)
		}
	}
	// Another connection never left RESP2.
	exchange(t, c, cmd("HELLO", "3"), len(hello3))
	other := dial(t, addr)
	if got := exchange(t, other, cmd("HGETALL", "h"), 18); got != "*2\r\n$1\r\nf\r\n$1\r\nv\r\n" {
		t.Fatalf("second connection: %q", got)
	}
	c.Write([]byte(cmd("CLIENT", "INFO")))
	rd := bufio.NewReader(c)
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	head, _ := rd.ReadString('\n')
	if !strings.HasPrefix(head, "=") {
		t.Fatalf("CLIENT INFO is no verbatim string: %q", head)
	}
	line, _ := rd.ReadString('\n')
	if !strings.HasPrefix(line, "txt:id=1 ") || !strings.Contains(line, " resp=3") {
		t.Fatalf("CLIENT INFO: %q", line)
	}
}

// TestResp3Blocked: a RESP3 client blocked in BZPOPMIN or XREAD is answered in RESP3 when
// another (RESP2) connection serves it: [key, member, double], and XREAD's map keyed by stream
// (blocked.c, serveClientsBlockedOnStreamKey); a timeout is RESP3's null.
func TestResp3Blocked(t *testing.T) {
	_, addr := start(t, engine.V70)
	w := dial(t, addr)
	hello3 := "%7\r\n$6\r\nserver\r\n$5\r\nredis\r\n$7\r\nversion\r\n$6\r\n7.0.15\r\n$5\r\nproto\r\n:3\r\n$2\r\nid\r\n:1\r\n$4\r\nmode\r\n$10\r\nstandalone\r\n$4\r\nrole\r\n$6\r\nmaster\r\n$7\r\nmodules\r\n*0\r\n"
	if got := exchange(t, w, cmd("HELLO", "3"), len(hello3)); got != hello3 {
		t.Fatalf("HELLO 3: %q", got)
	}
	p := dial(t, addr)
	read := func(n int) string {
		w.SetReadDeadline(time.Now().Add(5 * time.Second))
		buf := make([]byte, n)
		if _, err := io.ReadFull(w, buf); err != nil {
			t.Fatalf("read: %v (%q)", err, buf)
		}
		return string(buf)
	}
	cases := []struct {
		block, push     []string
		pushReply, want string
	}{
		{[]string{"BZPOPMIN", "z", "0"}, []string{"ZADD", "z", "1.5", "a"}, ":1\r\n", "*3\r\n$1\r\nz\r\n$1\r\na\r\n,1.5\r\n"},
		{[]string{"XREAD", "BLOCK", "0", "STREAMS", "s", "$"}, []string{"XADD", "s", "1-1", "f", "v"}, "$3\r\n1-1\r\n",
			"%1\r\n$1\r\ns\r\n*1\r\n*2\r\n$3\r\n1-1\r\n*2\r\n$1\r\nf\r\n$1\r\nv\r\n"},
		{[]string{"BLPOP", "l", "0.05"}, nil, "", "_\r\n"},
	}
	for _, k := range cases {
		w.Write([]byte(cmd(k.block...)))
		if k.push != nil {
			// The push must come after the block: wait until the server counts a blocked client.
			for i := 0; i < 500 && !strings.Contains(exchangeInfo(t, p), "blocked_clients:1\r\n"); i++ {
				time.Sleep(2 * time.Millisecond)
			}
			if got := exchange(t, p, cmd(k.push...), len(k.pushReply)); got != k.pushReply {
				t.Fatalf("%v: %q", k.push, got)
			}
		}
		if got := read(len(k.want)); got != k.want {
			t.Fatalf("%v: %q, want %q", k.block, got, k.want)
		}
	}
}

// exchangeInfo reads INFO clients on a RESP2 connection.
func exchangeInfo(t *testing.T, c interface {
	io.Reader
	io.Writer
}) string {
	t.Helper()
	c.Write([]byte(cmd("INFO", "clients")))
	rd := bufio.NewReader(c)
	head, err := rd.ReadString('\n')
	if err != nil || len(head) < 2 || head[0] != '$' {
		t.Fatalf("INFO clients: %q %v", head, err)
	}
	var n int
	fmt.Sscanf(head[1:], "%d", &n)
	buf := make([]byte, n+2)
	io.ReadFull(rd, buf)
	return string(buf)
}

// TestGoRedisRESP3: go-redis v9 with its default options speaks RESP3 (HELLO 3 first) and
// decodes maps, pairs with double scores, sets and script replies.
func TestGoRedisRESP3(t *testing.T) {
	_, addr := start(t, engine.V70)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	rdb := redis.NewClient(&redis.Options{Addr: addr})
	defer rdb.Close()
	info, err := rdb.Do(ctx, "CLIENT", "INFO").Text()
	if err != nil || !strings.Contains(info, " resp=3") {
		t.Fatalf("CLIENT INFO: %q %v (go-redis did not switch to RESP3)", info, err)
	}
	rdb.HSet(ctx, "h", "a", "1", "b", "2")
	if m, err := rdb.HGetAll(ctx, "h").Result(); err != nil || len(m) != 2 || m["a"] != "1" || m["b"] != "2" {
		t.Fatalf("HGETALL: %v %v", m, err)
	}
	rdb.ZAdd(ctx, "z", redis.Z{Score: 1.5, Member: "x"}, redis.Z{Score: 2, Member: "y"})
	zs, err := rdb.ZRangeWithScores(ctx, "z", 0, -1).Result()
	if err != nil || len(zs) != 2 || zs[0].Member != "x" || zs[0].Score != 1.5 || zs[1].Score != 2 {
		t.Fatalf("ZRANGE WITHSCORES: %v %v", zs, err)
	}
	if s, err := rdb.ZScore(ctx, "z", "x").Result(); err != nil || s != 1.5 {
		t.Fatalf("ZSCORE: %v %v", s, err)
	}
	// Decoded as RESP3 types: a double is a float64, a map a Go map.
	if v, err := rdb.Do(ctx, "ZSCORE", "z", "y").Result(); err != nil || v != float64(2) {
		t.Fatalf("ZSCORE raw: %#v %v", v, err)
	}
	if v, err := rdb.Do(ctx, "HGETALL", "h").Result(); err != nil {
		t.Fatal(err)
	} else if m, ok := v.(map[interface{}]interface{}); !ok || m["a"] != "1" {
		t.Fatalf("HGETALL raw: %#v", v)
	}
	rdb.SAdd(ctx, "s", "m1", "m2")
	if ms, err := rdb.SMembers(ctx, "s").Result(); err != nil || len(ms) != 2 {
		t.Fatalf("SMEMBERS: %v %v", ms, err)
	}
	if v, err := rdb.Do(ctx, "SMEMBERS", "s").Result(); err != nil {
		t.Fatal(err)
	} else if _, ok := v.([]interface{}); !ok {
		t.Fatalf("SMEMBERS raw: %#v", v)
	}
	v, err := rdb.Eval(ctx, "redis.setresp(3); local t = redis.call('HGETALL', KEYS[1]); return {map={count=#redis.call('HKEYS', KEYS[1]), a=t.map.a}}", []string{"h"}).Result()
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := v.(map[interface{}]interface{}); !ok || m["a"] != "1" || m["count"] != int64(2) {
		t.Fatalf("EVAL map: %#v", v)
	}
	if v, err := rdb.Eval(ctx, "return {double=0.25}", nil).Result(); err != nil || v != 0.25 {
		t.Fatalf("EVAL double: %#v %v", v, err)
	}
	if v, err := rdb.Eval(ctx, "redis.setresp(3); return redis.call('EXISTS', KEYS[1]) == 1", []string{"h"}).Result(); err != nil || v != true {
		t.Fatalf("EVAL bool: %#v %v", v, err)
	}
	if _, err := rdb.Get(ctx, "nosuch").Result(); err != redis.Nil {
		t.Fatalf("GET nosuch: %v", err)
	}
}
