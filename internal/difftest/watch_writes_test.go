package difftest

import (
	"bytes"
	"path/filepath"
	"sort"
	"strconv"
	"testing"

	"redscope/engine"
	"redscope/internal/transcript"
	"redscope/internal/watchcases"
)

// Which writes touch a watched key (the cases: testdata/watch/cases.txt). TestWatchWrites plays each
// case on redis-server 7.0.15 and on redscope: connection 1 runs the setup, connection 0 WATCHes,
// connection 1 runs the write, connection 0 runs MULTI, PING, EXEC; every reply of the two
// servers must be byte-identical (EXEC is a null array when the key was touched).
//
// TestWatchWritesCoverTable walks the command table: every command flagged write has a case
// or is listed in watchUncovered with the reason.

// watchUncovered: the write commands without a case, and why.
var watchUncovered = map[string]string{
	"bf.add":           "a module command (RedisBloom), absent from redis-server 7.0.15: engine TestWatchTouchedByEveryWriteTracingOff covers it",
	"bf.madd":          "a module command, as bf.add",
	"bf.reserve":       "a module command, as bf.add",
	"migrate":          "needs a second server to migrate to; its local deletion goes through the same Delete as DEL",
	"function|load":    "libraries are not keys: nothing to WATCH",
	"function|delete":  "libraries are not keys",
	"function|flush":   "libraries are not keys",
	"function|restore": "libraries are not keys",
}

// watchExtra: commands that are not flagged write but may write a key (the cases above cover
// them too).
var watchExtra = []string{"pfcount", "eval", "fcall", "exec", "debug"}

// loadWatchCases reads testdata/watch/cases.txt.
func loadWatchCases(t *testing.T) []watchcases.Case {
	t.Helper()
	cases, err := watchcases.Load(filepath.Join("..", "..", watchcases.File))
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

func TestWatchWritesCoverTable(t *testing.T) {
	e := newEngine70()
	covered := map[string]bool{}
	for _, c := range loadWatchCases(t) {
		covered[c.Cmd] = true
	}
	var names []string
	known := map[string]bool{}
	for _, c := range e.Commands() {
		known[c.Name] = true
		if c.Flags&engine.FlagWrite != 0 {
			names = append(names, c.Name)
		}
		for n, s := range c.Sub {
			known[c.Name+"|"+n] = true
			if s.Flags&engine.FlagWrite != 0 {
				names = append(names, c.Name+"|"+n)
			}
		}
	}
	sort.Strings(names)
	if len(names) < 90 {
		t.Fatalf("only %d write commands in the table: the walk is broken", len(names))
	}
	for _, n := range names {
		if !covered[n] && watchUncovered[n] == "" {
			t.Errorf("write command %s: no WATCH case in testdata/watch/cases.txt and not listed in watchUncovered", n)
		}
		if covered[n] && watchUncovered[n] != "" {
			t.Errorf("%s is both covered and listed as uncovered", n)
		}
	}
	for _, n := range watchExtra {
		if !covered[n] {
			t.Errorf("%s: no WATCH case", n)
		}
	}
	for n := range covered {
		if !known[n] {
			t.Errorf("case for %s: no such command in the table", n)
		}
	}
	t.Logf("%d write commands: %d with cases, %d listed as uncovered", len(names), len(names)-len(watchUncovered), len(watchUncovered))
}

// TestWatchWrites plays the cases of testdata/watch/cases.txt on redis-server 7.0.15 and on redscope.
func TestWatchWrites(t *testing.T) {
	cases := loadWatchCases(t)
	sv := freshServers(t)
	dial := func(a string) []*transcript.Conn {
		var cs []*transcript.Conn
		for i := 0; i < 2; i++ {
			cs = append(cs, dialConn(t, a))
		}
		return cs
	}
	ref, got := dial(sv.ref), dial(sv.scope)
	var compared, nTouched, nUntouched int
	for _, wcase := range cases {
		watch := wcase.WatchKeys()
		type step struct {
			conn int
			cmd  string
		}
		steps := []step{{1, "FLUSHALL"}, {1, "SELECT 0"}, {0, "SELECT " + strconv.Itoa(wcase.DB)}}
		for _, s := range watchcases.SplitCmds(wcase.Setup) {
			steps = append(steps, step{1, s})
		}
		nsetup := len(steps)
		steps = append(steps, step{1, "SELECT 0"}, step{0, "WATCH " + watch})
		for _, s := range watchcases.SplitCmds(wcase.Write) {
			steps = append(steps, step{1, s})
		}
		steps = append(steps, step{0, "MULTI"}, step{0, "PING"}, step{0, "EXEC"})
		var exec string
		for j, st := range steps {
			args, err := engine.SplitArgs(st.cmd)
			if err != nil {
				t.Fatal(err)
			}
			refRaw, refR, err := ref[st.conn].Do(args)
			if err != nil {
				t.Fatalf("cases.txt:%d %s, %q: redis-server: %v", wcase.Line, wcase.Write, st.cmd, err)
			}
			refRaw = append([]byte(nil), refRaw...)
			gotRaw, gotR, err := got[st.conn].Do(args)
			if err != nil {
				t.Fatalf("cases.txt:%d %s, %q: redscope: %v", wcase.Line, wcase.Write, st.cmd, err)
			}
			compared++
			if j < nsetup && refR.IsError() {
				t.Errorf("cases.txt:%d: setup %s: redis-server answered %s", wcase.Line, st.cmd, refR.FormatCLI())
			}
			if wcase.Random && j > 0 && j < len(steps)-3 && steps[j-1].cmd == "WATCH "+watch {
				refRaw, gotRaw = []byte{refRaw[0]}, []byte{gotRaw[0]}
			}
			if !bytes.Equal(refRaw, gotRaw) {
				t.Errorf("cases.txt:%d (%s; WATCH %s; %s), step %d %s:\nredis-server: %sredscope:     %s",
					wcase.Line, wcase.Setup, watch, wcase.Write, j, st.cmd, refR.FormatCLI(), gotR.FormatCLI())
			}
			if j == len(steps)-1 {
				exec = "PONG"
				if refR.Kind == engine.KindNilArray {
					exec = "nil"
					nTouched++
				} else {
					nUntouched++
				}
			}
		}
		if exec != wcase.Want {
			t.Errorf("cases.txt:%d (%s; WATCH %s; %s): redis-server's EXEC says %s, the case expects %s",
				wcase.Line, wcase.Setup, watch, wcase.Write, exec, wcase.Want)
		}
	}
	t.Logf("%d cases, %d replies compared; on redis-server %d touched the watched key, %d did not",
		len(cases), compared, nTouched, nUntouched)
}

// A client blocked in BLMOVE and served by another's push writes its destination as the command
// would (t_list.c lmoveHandlePush signals it): the WATCHer of the destination is touched. The
// source was signalled by the push already.
var watchBlockingScenarios = []bscenario{
	{"a served BLMOVE touches its destination", []bstep{
		bsend(2, "BLMOVE src dst LEFT RIGHT 0", 1), bat(0, "WATCH dst", "OK"),
		bat(1, "LPUSH src x", "(integer) 1"), brecv(2, `"x"`),
		bat(0, "MULTI", "OK"), bat(0, "PING", "QUEUED"), bat(0, "EXEC", "(nil)"),
	}},
	{"a served BRPOPLPUSH touches an existing destination", []bstep{
		bat(1, "RPUSH dst a", "(integer) 1"), bsend(2, "BRPOPLPUSH src dst 0", 1), bat(0, "WATCH dst", "OK"),
		bat(1, "RPUSH src x", "(integer) 1"), brecv(2, `"x"`),
		bat(0, "MULTI", "OK"), bat(0, "PING", "QUEUED"), bat(0, "EXEC", "(nil)"),
	}},
	{"a served BLPOP leaves other keys alone", []bstep{
		bsend(2, "BLPOP src 0", 1), bat(0, "WATCH dst", "OK"),
		bat(1, "LPUSH src x", "(integer) 1"), brecv(2, `1) "src"`, `2) "x"`),
		bat(0, "MULTI", "OK"), bat(0, "PING", "QUEUED"), bat(0, "EXEC", "1) PONG"),
	}},
	{"a served BZPOPMIN: the ZADD touched the key", []bstep{
		bsend(2, "BZPOPMIN z 0", 1), bat(0, "WATCH z", "OK"),
		bat(1, "ZADD z 1 a", "(integer) 1"), brecv(2, `1) "z"`, `2) "a"`, `3) "1"`),
		bat(0, "MULTI", "OK"), bat(0, "PING", "QUEUED"), bat(0, "EXEC", "(nil)"),
	}},
}

func TestWatchBlockedClientServed(t *testing.T) {
	if n := playLockstep(t, watchBlockingScenarios); n == 0 {
		t.Fatal("nothing compared")
	}
}
