package engine

import (
	"path/filepath"
	"strconv"
	"testing"

	"redscope/internal/watchcases"
)

// WATCH rests on signalModifiedKey alone (db.go): these tests run with tracing OFF, so no trace
// event can stand in for the signal. Client a WATCHes, client b writes, a runs MULTI PING EXEC:
// a null array means the key was touched. The cases are testdata/watch/cases.txt's (compared with
// redis-server 7.0.15 in internal/difftest TestWatchWrites) and the engine's own below: the
// expected answers are redis-server 7.0.15's, apart from the Bloom filter commands (a module's
// on the real server, absent from Debian's build) and the 8.x hash-field commands.

type watchSignalCase struct {
	setup string // commands of b before WATCH, " ; " between them (SplitArgs syntax)
	db    int    // a's database
	watch string // default "k"
	write string // commands of b after WATCH
	want  bool   // touched
	// errorOK: the write may answer an error (the shared cases include writes that fail; the
	// differential test compares their errors)
	errorOK bool
}

// sharedWatchCases are the cases of testdata/watch/cases.txt (internal/watchcases reads them).
func sharedWatchCases(t *testing.T) []watchSignalCase {
	t.Helper()
	cases, err := watchcases.Load(filepath.Join("..", watchcases.File))
	if err != nil {
		t.Fatal(err)
	}
	var out []watchSignalCase
	for _, c := range cases {
		out = append(out, watchSignalCase{setup: c.Setup, db: c.DB, watch: c.WatchKeys(), write: c.Write,
			want: c.Want == watchcases.Touched, errorOK: true})
	}
	return out
}

func watchSignalCases() []watchSignalCase {
	return []watchSignalCase{
		// strings, overwritten in place (storeArgString) or edited in place
		{setup: "SET k v", write: "SET k w", want: true},
		{setup: "SET k v", write: "GETSET k w", want: true},
		{setup: "SET k v", write: "MSET k w j x", want: true},
		{setup: "SET k v", write: "SETEX k 100 w", want: true},
		{setup: "SET k v", write: "SETRANGE k 0 w", want: true},
		{setup: "SET k v", write: "SETRANGE k 5 w", want: true},
		{setup: "SET k \xff", write: "SETBIT k 0 0", want: true},
		{setup: "SET k \xff", write: "SETBIT k 0 1", want: false},  // the same bit
		{setup: "SET k \xff", write: "SETBIT k 100 0", want: true}, // grows the string
		{setup: "SET k v", write: "BITFIELD k SET u8 0 0", want: true},
		{setup: "SET k v", write: "BITFIELD k INCRBY u8 0 1", want: true},
		{setup: "SET k 5", write: "INCR k", want: true},
		{setup: "SET k 5", write: "DECRBY k 0", want: true},
		{setup: "SET k 5", write: "INCRBYFLOAT k 0.5", want: true},
		{setup: "SET a v", write: "BITOP NOT k a", want: true},
		// keys
		{setup: "SET k v", write: "DEL k", want: true},
		{setup: "SET k v", write: "GETEX k PX 5000", want: true},
		{setup: "RPUSH l 3 1 2", write: "SORT l STORE k", want: true},
		{setup: "SET k v", write: "FLUSHALL", want: true},
		// hashes
		{setup: "HSET k f v", write: "HMSET k g w", want: true},
		{setup: "HSET k f 1", write: "HINCRBY k f 1", want: true},
		{setup: "HSET k f 1", write: "HINCRBYFLOAT k f 1", want: true},
		{setup: "HSET k f v g w", write: "HDEL k f", want: true},
		{setup: "HSET k f v", write: "HDEL k zz", want: false},
		// lists
		{setup: "RPUSH k a", write: "LPUSH k b", want: true},
		{setup: "RPUSH k a", write: "RPUSHX k b", want: true},
		{setup: "RPUSH k a", write: "LINSERT k BEFORE a b", want: true},
		{setup: "RPUSH k a b", write: "RPOP k 1", want: true},
		{setup: "RPUSH k a b", write: "LMPOP 1 k LEFT", want: true},
		{setup: "RPUSH k a b", write: "BLPOP k 0", want: true},
		{setup: "RPUSH k a b", write: "LMOVE k d LEFT LEFT", want: true},
		{setup: "RPUSH s a ; RPUSH k b", write: "LMOVE s k LEFT LEFT", want: true},
		{setup: "RPUSH s a ; RPUSH k b", write: "BRPOPLPUSH s k 0", want: true},
		// sets
		{setup: "SADD k a", write: "SADD k b", want: true},
		{setup: "SADD k a b c", write: "SPOP k 2", want: true},
		{setup: "SADD k a b", write: "SMOVE k d a", want: true},
		{setup: "SADD s a ; SADD k b", write: "SMOVE s k a", want: true},
		{setup: "SADD a x ; SADD k b", write: "SUNIONSTORE k a", want: true},
		// sorted sets
		{setup: "ZADD k 1 a 2 b", write: "ZREMRANGEBYSCORE k 0 1", want: true},
		{setup: "ZADD k 1 a 2 b", write: "ZMPOP 1 k MAX", want: true},
		{setup: "ZADD k 1 a 2 b", write: "BZPOPMAX k 0", want: true},
		{setup: "ZADD a 1 x", write: "ZUNIONSTORE k 1 a", want: true},
		// streams
		{setup: "XADD k 1-1 f v", write: "XADD k 2-1 f v", want: true},
		{setup: "XADD k 1-1 f v ; XADD k 2-1 f v", write: "XDEL k 1-1", want: true},
		// HyperLogLog
		// Bloom filters (module.c signals a key opened for writing)
		{setup: "BF.ADD k a", write: "BF.ADD k b", want: true},
		{setup: "BF.ADD k a", write: "BF.MADD k a b", want: true},
		{write: "BF.RESERVE k 0.01 100", want: true},
		{setup: "BF.ADD k a", write: "BF.EXISTS k a", want: false},
		// scripts and transactions of the other client
		{setup: "HSET k f v", write: `EVAL "return redis.call('HSET', KEYS[1], 'f', 'w')" 1 k`, want: true},
		{setup: "SET k v", write: "MULTI ; APPEND k w ; EXEC", want: true},
	}
}

func TestWatchTouchedByEveryWriteTracingOff(t *testing.T) {
	checkWatchSignals(t, V70, append(sharedWatchCases(t), watchSignalCases()...))
}

// checkWatchSignals plays each case on a fresh engine of version v with tracing off: b runs the
// setup, a WATCHes, b writes (no error, no trace event), a runs MULTI PING EXEC, whose null
// array says the key was touched.
func checkWatchSignals(t *testing.T, v Version, cases []watchSignalCase) {
	t.Helper()
	e, _ := newEngineAt(v)
	if e.Tracing() {
		t.Fatal("tracing is on by default")
	}
	a, b := e.NewClient(), e.NewClient()
	run := func(c *Client, cmd string) Result {
		t.Helper()
		args, err := SplitArgs(cmd)
		if err != nil {
			t.Fatal(err)
		}
		return c.Exec(args)
	}
	for _, tc := range cases {
		watch := tc.watch
		if watch == "" {
			watch = "k"
		}
		run(b, "FLUSHALL")
		run(b, "SELECT 0")
		run(a, "SELECT "+strconv.Itoa(tc.db))
		for _, s := range watchcases.SplitCmds(tc.setup) {
			if r := run(b, s); r.Reply.IsError() {
				t.Fatalf("setup %q: %s", s, r.Reply.FormatCLI())
			}
		}
		run(b, "SELECT 0")
		run(a, "WATCH "+watch)
		for _, s := range watchcases.SplitCmds(tc.write) {
			r := run(b, s)
			if r.Reply.IsError() && !tc.errorOK {
				t.Fatalf("%q: %s", s, r.Reply.FormatCLI())
			}
			if len(r.Events) > 0 || e.Tracing() {
				t.Fatalf("%q: %d trace events with tracing off", s, len(r.Events))
			}
		}
		run(a, "MULTI")
		run(a, "PING")
		got := run(a, "EXEC").Reply.Kind == KindNilArray
		if got != tc.want {
			t.Errorf("%s; WATCH %s; %s: touched=%v, want %v", tc.setup, watch, tc.write, got, tc.want)
		}
		if e.watching() {
			t.Fatalf("%s: keys still watched after EXEC", tc.write)
		}
	}
}

// A blocked client served by another's push writes as its command would: BLMOVE's destination
// is signalled when the client is served (lmoveHandlePush), also with tracing off.
func TestWatchTouchedByBlockedClientServed(t *testing.T) {
	for _, v := range []Version{V70, V88} {
		e, _ := newEngineAt(v)
		a, b, c := e.NewClient(), e.NewClient(), e.NewClient()
		c.Blocking = true
		if r := cdo(c, "BLMOVE", "src", "dst", "LEFT", "RIGHT", "0"); !r.Blocked {
			t.Fatalf("%v: BLMOVE did not block: %s", v, r.Reply.FormatCLI())
		}
		cwant(t, a, "OK", "WATCH", "dst")
		cwant(t, b, "(integer) 1", "LPUSH", "src", "x")
		if r, ok := c.TakeWoken(); !ok || r.Reply.FormatCLI() != "\"x\"\n" {
			t.Fatalf("%v: BLMOVE not served: %v %s", v, ok, r.Reply.FormatCLI())
		}
		cwant(t, a, "OK", "MULTI")
		cwant(t, a, "QUEUED", "PING")
		cwant(t, a, "(nil)", "EXEC")
	}
}

// The 8.x hash-field commands signal when they change something.
func TestWatchTouchedByHashFieldCommands88(t *testing.T) {
	checkWatchSignals(t, V88, []watchSignalCase{
		{setup: "HSET k f v", write: "HEXPIRE k 100 FIELDS 1 f", want: true},
		{setup: "HSET k f v", write: "HEXPIRE k 100 FIELDS 1 zz", want: false},
		{setup: "HSET k f v ; HEXPIRE k 100 FIELDS 1 f", write: "HPERSIST k FIELDS 1 f", want: true},
		{setup: "HSET k f v", write: "HPERSIST k FIELDS 1 f", want: false},
		{setup: "HSET k f v", write: "HSETEX k FIELDS 1 f w", want: true},
		{setup: "HSET k f v", write: "HGETEX k EX 100 FIELDS 1 f", want: true},
		{setup: "HSET k f v", write: "HGETEX k FIELDS 1 f", want: false},
		{setup: "HSET k f v g w", write: "HGETDEL k FIELDS 1 f", want: true},
		{setup: "HSET k f v", write: "HGETDEL k FIELDS 1 zz", want: false},
	})
}
