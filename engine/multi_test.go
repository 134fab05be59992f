package engine

import (
	"strings"
	"testing"
	"time"
)

// The replies of the implicit client (Engine.Exec), as redis-server 7.0.15 gives them.
func TestMultiReplies(t *testing.T) {
	e, _ := newTestEngine()
	want(t, e, "(error) ERR EXEC without MULTI", "EXEC")
	want(t, e, "(error) ERR DISCARD without MULTI", "DISCARD")
	want(t, e, "OK", "MULTI")
	want(t, e, "(error) ERR MULTI calls can not be nested", "MULTI")
	want(t, e, "QUEUED", "SET", "a", "1")
	want(t, e, "QUEUED", "LPUSH", "a", "x")
	want(t, e, "(error) ERR WATCH inside MULTI is not allowed", "WATCH", "a")
	want(t, e, "QUEUED", "UNWATCH")
	want(t, e, "QUEUED", "INCR", "a")
	want(t, e, "QUEUED", "GET", "a")
	want(t, e, "1) OK\n2) (error) WRONGTYPE Operation against a key holding the wrong kind of value\n3) OK\n4) (integer) 2\n5) \"2\"", "EXEC")
	want(t, e, "\"2\"", "GET", "a")

	want(t, e, "OK", "MULTI")
	want(t, e, "(error) ERR unknown command 'NOSUCH', with args beginning with: 'x' ", "NOSUCH", "x")
	want(t, e, "(error) ERR wrong number of arguments for 'get' command", "GET")
	want(t, e, "(error) ERR unknown subcommand 'nosuch'. Try CONFIG HELP.", "CONFIG", "nosuch")
	want(t, e, "QUEUED", "SET", "a", "3")
	want(t, e, "(error) EXECABORT Transaction discarded because of previous errors.", "EXEC")
	want(t, e, "\"2\"", "GET", "a")

	want(t, e, "OK", "MULTI")
	want(t, e, "(error) ERR Command not allowed inside a transaction", "SAVE")
	want(t, e, "(error) EXECABORT Transaction discarded because of previous errors.", "EXEC")
	want(t, e, "OK", "MULTI")
	want(t, e, "(error) ERR wrong number of arguments for 'save' command", "SAVE", "x")
	want(t, e, "(error) ERR wrong number of arguments for 'discard' command", "DISCARD", "x")
	want(t, e, "(error) EXECABORT Transaction discarded because of: wrong number of arguments for 'exec' command", "EXEC", "x")
	want(t, e, "(error) ERR EXEC without MULTI", "EXEC")
	want(t, e, "(error) ERR wrong number of arguments for 'watch' command", "WATCH")
	want(t, e, "(error) ERR wrong number of arguments for 'unwatch' command", "UNWATCH", "x")
	want(t, e, "OK", "MULTI")
	want(t, e, "(empty array)", "EXEC")

	// SELECT inside EXEC stays selected.
	want(t, e, "OK", "MULTI")
	want(t, e, "QUEUED", "SELECT", "1")
	want(t, e, "QUEUED", "SET", "s", "1")
	want(t, e, "1) OK\n2) OK", "EXEC")
	if e.CurrentDB() != 1 {
		t.Fatalf("db %d after EXEC, want 1", e.CurrentDB())
	}
}

// Queued commands change nothing and emit nothing; EXEC emits their events in order.
func TestMultiEvents(t *testing.T) {
	e, _ := newTestEngine()
	if r := e.Exec([][]byte{[]byte("MULTI")}); len(r.Events) != 0 {
		t.Fatalf("MULTI events %v", r.Events)
	}
	for _, k := range []string{"a", "b"} {
		r := e.Exec([][]byte{[]byte("SET"), []byte(k), []byte("v")})
		if r.Reply.Str != "QUEUED" || len(r.Events) != 0 {
			t.Fatalf("queued SET: %v %v", r.Reply, r.Events)
		}
	}
	if e.KeyCount() != 0 {
		t.Fatal("a queued command ran")
	}
	r := e.Exec([][]byte{[]byte("EXEC")})
	var created []string
	for _, ev := range r.Events {
		if k, ok := ev.(KeyEvent); ok && k.Action == "created" {
			created = append(created, k.Key)
		}
	}
	if strings.Join(created, ",") != "a,b" {
		t.Fatalf("EXEC events: created %v (all: %v)", created, r.Events)
	}
}

// WATCH between two clients of one engine (the RESP server's connections).
func TestWatchClients(t *testing.T) {
	e, clock := newTestEngine()
	a, b := e.NewClient(), e.NewClient()
	touched := func(name string, setup []string, write ...string) bool {
		t.Helper()
		cdo(a, "FLUSHALL")
		for _, s := range setup {
			cdo(a, strings.Fields(s)...)
		}
		cwant(t, a, "OK", "WATCH", "k")
		cdo(b, write...)
		cwant(t, a, "OK", "MULTI")
		cwant(t, a, "QUEUED", "PING")
		r := cdo(a, "EXEC").Reply
		if e.watching() {
			t.Fatalf("%s: keys still watched after EXEC", name)
		}
		return r.Kind == KindNilArray
	}
	cases := []struct {
		setup []string
		write []string
		want  bool
	}{
		{[]string{"SET k v"}, []string{"SET", "k", "v"}, true},
		{[]string{"SET k v"}, []string{"SET", "k", "w", "NX"}, false},
		{nil, []string{"DEL", "k"}, false},
		{[]string{"SET k v"}, []string{"GET", "k"}, false},
		{[]string{"SADD k a"}, []string{"SADD", "k", "a"}, false},
		{[]string{"SADD k a"}, []string{"SADD", "k", "b"}, true},
		{[]string{"HSET k f v"}, []string{"HSET", "k", "f", "v"}, true},
		{[]string{"SET k v"}, []string{"APPEND", "k", ""}, true},
		{[]string{"SET k 5"}, []string{"INCRBY", "k", "0"}, true},
		{[]string{"SET k v"}, []string{"SETRANGE", "k", "0", ""}, false},
		{[]string{"SET k v"}, []string{"EXPIRE", "k", "100"}, true},
		{[]string{"SET k v"}, []string{"PERSIST", "k"}, false},
		{[]string{"SET k v"}, []string{"FLUSHDB"}, true},
		{nil, []string{"FLUSHALL"}, false},
		{[]string{"SET k v"}, []string{"RENAME", "k", "k"}, false},
		{[]string{"SET j v"}, []string{"RENAME", "j", "k"}, true},
		{[]string{"SET k 0"}, []string{"SETBIT", "k", "0", "0"}, false},
		{[]string{"RPUSH k a"}, []string{"LTRIM", "k", "0", "-1"}, true},
		{[]string{"ZADD k 1 a"}, []string{"ZINCRBY", "k", "0", "a"}, false},
		{[]string{"ZADD k 1 a"}, []string{"ZADD", "k", "2", "a"}, true},
		{[]string{"PFADD k a b"}, []string{"PFCOUNT", "k"}, true}, // refreshes the cached cardinality
		{[]string{"SET k 1"}, []string{"BITFIELD", "k", "INCRBY", "u8", "0", "0"}, false},
		{[]string{"SET k 1"}, []string{"BITFIELD", "k", "SET", "u8", "0", "0"}, true},
	}
	for _, c := range cases {
		name := strings.Join(c.write, " ")
		if got := touched(name, c.setup, c.write...); got != c.want {
			t.Errorf("%v after %v: touched=%v, want %v", c.write, c.setup, got, c.want)
		}
	}

	// Another database does not touch.
	cdo(a, "FLUSHALL")
	cwant(t, a, "OK", "SELECT", "2")
	cwant(t, a, "OK", "WATCH", "k")
	cwant(t, b, "OK", "SET", "k", "1")
	cwant(t, a, "OK", "MULTI")
	cwant(t, a, "QUEUED", "GET", "k")
	cwant(t, a, "1) (nil)", "EXEC")
	cwant(t, a, "OK", "SELECT", "0")

	// Expiry (7.0): alive at WATCH, expired at EXEC: aborted; already expired at WATCH and
	// deleted meanwhile: not aborted.
	cwant(t, a, "OK", "SET", "k", "v", "PX", "100")
	cwant(t, a, "OK", "WATCH", "k")
	clock.Advance(101 * time.Millisecond)
	cwant(t, a, "OK", "MULTI")
	cwant(t, a, "QUEUED", "PING")
	cwant(t, a, "(nil)", "EXEC")
	cwant(t, a, "OK", "SET", "k", "v", "PX", "100")
	clock.Advance(101 * time.Millisecond)
	cwant(t, a, "OK", "WATCH", "k")
	cwant(t, b, "(nil)", "GET", "k") // deletes it
	cwant(t, a, "OK", "MULTI")
	cwant(t, a, "QUEUED", "PING")
	cwant(t, a, "1) PONG", "EXEC")

	// A closed client forgets its keys.
	cwant(t, a, "OK", "WATCH", "k", "j")
	a.Close()
	if e.watching() {
		t.Fatal("Close left watched keys")
	}
}

// Without any WATCH the engine keeps its plain path: no client is made for plain commands.
func TestMultiPlainPath(t *testing.T) {
	e, _ := newTestEngine()
	want(t, e, "OK", "SET", "k", "v")
	if e.implicit != nil || e.watching() {
		t.Fatal("a plain command made transaction state")
	}
	want(t, e, "OK", "WATCH", "k")
	want(t, e, "OK", "UNWATCH")
	if e.watching() || len(e.wst.names) != 0 {
		t.Fatalf("UNWATCH left %v %v", e.wst.keys, e.wst.names)
	}
	get := [][]byte{[]byte("GET"), []byte("k")}
	plain := testing.AllocsPerRun(100, func() { e.exec(get) })
	allocs := testing.AllocsPerRun(100, func() { e.Exec(get) })
	if allocs > plain {
		t.Errorf("GET allocates %v times through Exec, %v through exec", allocs, plain)
	}
}

// The transaction layer's cost on the hot path: SET and GET through exec (no client), Exec (the
// implicit client) and a Client (the RESP server's path).
func BenchmarkTxLayer(b *testing.B) {
	e, _ := newTestEngine()
	e.SetTracing(false)
	set := [][]byte{[]byte("SET"), []byte("key:000042"), []byte("xxx")}
	get := [][]byte{[]byte("GET"), []byte("key:000042")}
	c := e.NewClient()
	for _, r := range []struct {
		name string
		run  func(args [][]byte) Result
	}{{"exec", e.exec}, {"Exec", e.Exec}, {"Client", c.Exec}} {
		b.Run(r.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				r.run(set)
				r.run(get)
			}
		})
	}
}
