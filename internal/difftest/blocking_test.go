package difftest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"redscope/engine"
	"redscope/internal/transcript"
)

// Blocking scenarios: several connections, some of them blocked in BLPOP … BZMPOP, played in
// lockstep on redis-server 7.0.15 and on redscope's RESP server. Every reply of both servers is
// compared byte for byte; the expected redis-cli text of each checked step is what 7.0.15
// answered. Steps:
//
//   - at: a command whose reply is read at once;
//   - send: a command sent without reading its reply, then the test waits until the server
//     reports the given number of blocked clients (INFO clients, on a connection of its own) — the
//     order in which clients block is what the scenario is about; -1: no wait;
//   - recv: the pending reply of a connection;
//   - quiet: nothing arrives on a connection for a while (it is still blocked);
//   - hangup: a connection closes;
//   - field: one field of a connection's CLIENT LIST line (flags, cmd), compared between servers;
//   - info: one field of INFO clients (blocked_clients, clients_in_timeout_table).
//
// "$idN" in a command is connection N's CLIENT ID on that server. No step measures durations:
// timeouts are short (0.1 s) and checked only as "a nil reply arrives" after them.

type bstep struct {
	kind    byte // 'a' at, 's' send, 'r' recv, 'q' quiet, 'h' hangup, 'p' pause, 'f' field
	conn    int
	cmd     string
	want    string
	blocked int           // send: blocked clients once it is sent
	d       time.Duration // quiet, pause
}

func bat(conn int, cmd string, want ...string) bstep {
	return bstep{kind: 'a', conn: conn, cmd: cmd, want: strings.Join(want, "\n")}
}
func bsend(conn int, cmd string, blocked int) bstep {
	return bstep{kind: 's', conn: conn, cmd: cmd, blocked: blocked}
}
func brecv(conn int, want ...string) bstep {
	return bstep{kind: 'r', conn: conn, want: strings.Join(want, "\n")}
}
func bquiet(conn int, d time.Duration) bstep { return bstep{kind: 'q', conn: conn, d: d} }
func bhangup(conn, blocked int) bstep        { return bstep{kind: 'h', conn: conn, blocked: blocked} }
func bpause(d time.Duration) bstep           { return bstep{kind: 'p', d: d} }

// binfo compares a field of INFO clients.
func binfo(name, want string) bstep { return bstep{kind: 'i', cmd: name, want: want} }

// bfield compares the CLIENT LIST field name= of connection conn (seen from connection from).
func bfield(from, conn int, name, want string) bstep {
	return bstep{kind: 'f', conn: from, cmd: fmt.Sprint(conn), want: name + "=" + want}
}

const bconns = 4

var blockingScenarios = []bscenario{
	{"one push serves one client, first blocked first", []bstep{
		bsend(0, "BLPOP q 0", 1), bsend(1, "BRPOP q 0", 2), bsend(2, "BLPOP q 0", 3),
		bat(3, "RPUSH q a b", "(integer) 2"),
		brecv(0, `1) "q"`, `2) "a"`), brecv(1, `1) "q"`, `2) "b"`), bquiet(2, 50*time.Millisecond),
		bat(3, "EXISTS q", "(integer) 0"),
		bat(3, "LPUSH q c d", "(integer) 2"), brecv(2, `1) "q"`, `2) "d"`),
		bat(3, "LRANGE q 0 -1", `1) "c"`),
	}},
	{"a client blocked on two keys is served by the key that became ready", []bstep{
		bsend(0, "BLPOP k1 k2 0", 1), bsend(1, "BLPOP k2 0", 2),
		bat(2, "RPUSH k2 x", "(integer) 1"), brecv(0, `1) "k2"`, `2) "x"`), bquiet(1, 30*time.Millisecond),
		bat(2, "RPUSH k1 y", "(integer) 1"), bat(2, "LLEN k1", "(integer) 1"), // nobody waits on k1 now
		bat(2, "RPUSH k2 z", "(integer) 1"), brecv(1, `1) "k2"`, `2) "z"`),
	}},
	{"MULTI/EXEC pushes are served after EXEC, in signalling order", []bstep{
		bsend(0, "BLPOP k1 k2 0", 1), bsend(1, "BRPOP k1 0", 2),
		bat(2, "MULTI", "OK"), bat(2, "RPUSH k2 two", "QUEUED"), bat(2, "LPUSH k1 a", "QUEUED"),
		bat(2, "LPUSH k1 b", "QUEUED"), bquiet(0, 30*time.Millisecond),
		bat(2, "EXEC", "1) (integer) 1", "2) (integer) 1", "3) (integer) 2"),
		brecv(0, `1) "k2"`, `2) "two"`), brecv(1, `1) "k1"`, `2) "a"`), bat(2, "LRANGE k1 0 -1", `1) "b"`),
		// created and deleted inside one EXEC: nobody is served
		bsend(0, "BLPOP gone 0", 1),
		bat(2, "MULTI"), bat(2, "RPUSH gone x"), bat(2, "DEL gone"), bat(2, "EXEC", "1) (integer) 1", "2) (integer) 1"),
		bquiet(0, 50*time.Millisecond), bat(2, "RPUSH gone y"), brecv(0, `1) "gone"`, `2) "y"`),
	}},
	{"blocking commands inside MULTI answer at once", []bstep{
		bat(0, "MULTI"), bat(0, "BLPOP q 0", "QUEUED"), bat(0, "BLMOVE q d LEFT LEFT 0", "QUEUED"),
		bat(0, "BRPOPLPUSH q d 0"), bat(0, "BLMPOP 0 1 q LEFT"), bat(0, "BZPOPMIN z 0"), bat(0, "BZMPOP 0 1 z MAX"),
		bat(0, "EXEC", "1) (nil)", "2) (nil)", "3) (nil)", "4) (nil)", "5) (nil)", "6) (nil)"),
		bat(0, "RPUSH q v"), bat(0, "MULTI"), bat(0, "BLPOP q 0"), bat(0, "EXEC", `1) 1) "q"`, `   2) "v"`),
	}},
	{"BLMOVE chain: one push travels through three blocked clients", []bstep{
		bsend(0, "BLMOVE a b LEFT RIGHT 0", 1), bsend(1, "BRPOPLPUSH b c 0", 2), bsend(2, "BLPOP c 0", 3),
		bat(3, "LPUSH a x", "(integer) 1"),
		brecv(0, `"x"`), brecv(1, `"x"`), brecv(2, `1) "c"`, `2) "x"`),
		bat(3, "DBSIZE", "(integer) 0"),
		// a destination of another type: WRONGTYPE when served, the element stays
		bsend(0, "BLMOVE src dst LEFT LEFT 0", 1), bat(3, "SET dst str"), bat(3, "RPUSH src y"),
		brecv(0, "(error) WRONGTYPE Operation against a key holding the wrong kind of value"),
		bat(3, "LRANGE src 0 -1", `1) "y"`),
	}},
	{"RENAME, MOVE and SWAPDB into a blocked key", []bstep{
		bsend(0, "BLPOP dst 0", 1), bat(1, "RPUSH src 1 2"), bat(1, "RENAME src dst", "OK"),
		brecv(0, `1) "dst"`, `2) "1"`),
		bsend(0, "BLPOP s 0", 1), bat(1, "SET s str"), bat(1, "RPUSH src2 z"), bquiet(0, 30*time.Millisecond),
		bat(1, "RENAME src2 s", "OK"), brecv(0, `1) "s"`, `2) "z"`),
		bsend(0, "BLPOP m 0", 1), bat(1, "SELECT 1"), bat(1, "RPUSH m x"), bat(1, "MOVE m 0", "(integer) 1"),
		brecv(0, `1) "m"`, `2) "x"`),
		bsend(0, "BLPOP w 0", 1), bat(1, "RPUSH w y"), bat(1, "SWAPDB 0 1", "OK"), brecv(0, `1) "w"`, `2) "y"`),
		// a client blocked in another database is not woken by this one's key
		bsend(2, "BLPOP w 0", 1), bat(3, "SELECT 2"), bsend(3, "BLPOP w 0", 2), bat(1, "SELECT 0"), bat(1, "RPUSH w 1"),
		brecv(2, `1) "w"`, `2) "1"`), bquiet(3, 30*time.Millisecond), bhangup(3, 0),
	}},
	{"every way of creating the key wakes it", []bstep{
		bat(3, "RPUSH src 1 2 3 4 5 6"),
		bsend(0, "BLPOP d1 0", 1), bat(3, "LMOVE src d1 LEFT LEFT", `"1"`), brecv(0, `1) "d1"`, `2) "1"`),
		bsend(0, "BLPOP d2 0", 1), bat(3, "RPOPLPUSH src d2", `"6"`), brecv(0, `1) "d2"`, `2) "6"`),
		bsend(0, "BLPOP d3 0", 1), bat(3, "SORT src DESC STORE d3", "(integer) 4"), brecv(0, `1) "d3"`, `2) "5"`),
		bsend(0, "BLPOP d4 0", 1), bat(3, "COPY src d4", "(integer) 1"), brecv(0, `1) "d4"`, `2) "2"`),
		bsend(0, "BRPOP d5 0", 1), bat(3, "LPUSHX d5 x", "(integer) 0"), bquiet(0, 20*time.Millisecond),
		bat(3, "LINSERT d5 BEFORE x y", "(integer) 0"), bat(3, "RPUSH d5 z"), brecv(0, `1) "d5"`, `2) "z"`),
		bsend(0, "BLPOP z1 0", 1), bsend(1, "BZPOPMIN z1 0", 2), bat(3, "ZADD tmp 1 a"),
		bat(3, "ZRANGESTORE z1 tmp 0 -1", "(integer) 1"), brecv(1, `1) "z1"`, `2) "a"`, `3) "1"`),
		bquiet(0, 20*time.Millisecond), bhangup(0, 0),
	}},
	{"BLMOVE onto its own source; a transaction that pops its own push", []bstep{
		bsend(0, "BLMOVE q q LEFT RIGHT 0", 1), bat(3, "RPUSH q a b"), brecv(0, `"a"`),
		bat(3, "LRANGE q 0 -1", `1) "b"`, `2) "a"`), bat(3, "DEL q"),
		bsend(0, "BLPOP q 0", 1),
		bat(3, "MULTI"), bat(3, "LPUSH q x"), bat(3, "BLPOP q 0"), bat(3, "LPUSH q y"),
		bat(3, "EXEC", "1) (integer) 1", `2) 1) "q"`, `   2) "x"`, "3) (integer) 1"),
		brecv(0, `1) "q"`, `2) "y"`),
	}},
	{"overwriting a key is no signal (SORT STORE over a string)", []bstep{
		bsend(0, "BLPOP s 0", 1), bat(1, "SET s str"), bat(1, "RPUSH l 3 1 2"),
		bat(1, "SORT l STORE s", "(integer) 3"), bquiet(0, 50*time.Millisecond),
		bat(1, "TYPE s", "list"), bat(1, "DEL s"), bat(1, "RPUSH s ok"), brecv(0, `1) "s"`, `2) "ok"`),
		// a sorted set under the name of a list waiter wakes nobody either
		bsend(0, "BLPOP k 0", 1), bat(1, "ZADD k 1 a"), bquiet(0, 30*time.Millisecond),
		bat(1, "DEL k"), bat(1, "RPUSH k x"), brecv(0, `1) "k"`, `2) "x"`),
	}},
	{"sorted sets: ZADD wakes BZPOPMIN, BZPOPMAX, BZMPOP", []bstep{
		bsend(0, "BZPOPMIN z 0", 1), bsend(1, "BZPOPMAX z 0", 2), bsend(2, "BZMPOP 0 2 nokey z MIN COUNT 2", 3),
		bat(3, "ZADD z 1 a 2 b 3 c 4 d 5 e", "(integer) 5"),
		brecv(0, `1) "z"`, `2) "a"`, `3) "1"`), brecv(1, `1) "z"`, `2) "e"`, `3) "5"`),
		brecv(2, `1) "z"`, `2) 1) 1) "b"`, `      2) "2"`, `   2) 1) "c"`, `      2) "3"`),
		bat(3, "ZRANGE z 0 -1 WITHSCORES", `1) "d"`, `2) "4"`),
		bsend(0, "BZPOPMIN y 0", 1), bsend(1, "BZPOPMIN y 0", 2), bat(3, "ZADD y 1.5 only"),
		brecv(0, `1) "y"`, `2) "only"`, `3) "1.5"`), bquiet(1, 30*time.Millisecond),
		bat(3, "ZUNIONSTORE y 1 z", "(integer) 1"), brecv(1, `1) "y"`, `2) "d"`, `3) "4"`),
	}},
	{"BLMPOP with COUNT", []bstep{
		bsend(0, "BLMPOP 0 2 l1 l2 RIGHT COUNT 5", 1), bsend(1, "BLMPOP 0 1 l2 LEFT", 2),
		bat(2, "RPUSH l2 1 2 3"), brecv(0, `1) "l2"`, `2) 1) "3"`, `   2) "2"`, `   3) "1"`),
		bquiet(1, 30*time.Millisecond), bat(2, "LPUSH l2 x"), brecv(1, `1) "l2"`, `2) 1) "x"`),
	}},
	{"timeouts", []bstep{
		bsend(0, "BLPOP q 0.1", 1), brecv(0, "(nil)"),
		bsend(0, "BLMOVE q d LEFT LEFT 0.1", 1), brecv(0, "(nil)"), // the timeout's nil array, not a nil bulk
		bsend(0, "BZMPOP 0.1 1 z MIN", 1), brecv(0, "(nil)"),
		bsend(0, "BLPOP q 0.0001", -1), brecv(0, "(nil)"), // 0.1 ms rounds up to 1 ms on 7.0.15
		bsend(0, "BRPOP q 1.5", 1), bquiet(0, 200*time.Millisecond), bat(1, "RPUSH q v"), brecv(0, `1) "q"`, `2) "v"`),
		bat(1, "BLPOP q -0.5", "(error) ERR timeout is negative"), bat(1, "BLPOP q 1x", "(error) ERR timeout is not a float or out of range"),
	}},
	{"CLIENT UNBLOCK", []bstep{
		bsend(0, "BLPOP q 0", 1), bfield(1, 0, "flags", "b"), bfield(1, 0, "cmd", "blpop"),
		bat(1, "CLIENT UNBLOCK $id0", "(integer) 1"), brecv(0, "(nil)"), bfield(1, 0, "flags", "N"),
		bsend(0, "BZPOPMAX z 0", 1), bat(1, "CLIENT UNBLOCK $id0 ERROR", "(integer) 1"),
		brecv(0, "(error) UNBLOCKED client unblocked via CLIENT UNBLOCK"),
		bat(1, "CLIENT UNBLOCK $id0 timeout", "(integer) 0"), bat(1, "CLIENT UNBLOCK $id1", "(integer) 0"),
		bat(1, "CLIENT UNBLOCK $id0 soon", "(error) ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR"),
		bat(1, "CLIENT UNBLOCK x", "(error) ERR value is not an integer or out of range"),
		bat(1, "CLIENT UNBLOCK 1 TIMEOUT x", "(error) ERR unknown subcommand or wrong number of arguments for 'UNBLOCK'. Try CLIENT HELP."),
		bat(1, "CLIENT UNBLOCK", "(error) ERR wrong number of arguments for 'client|unblock' command"),
		bat(0, "PING", "PONG"),
		// a blocked client whose watched key was touched: flags b and d
		bat(0, "WATCH k"), bsend(0, "BLPOP q 0", 1), bat(1, "SET k 1"), bfield(1, 0, "flags", "bd"),
		bat(1, "RPUSH q x"), brecv(0, `1) "q"`, `2) "x"`), bfield(1, 0, "flags", "d"),
		bat(0, "MULTI"), bat(0, "PING"), bat(0, "EXEC", "(nil)"),
	}},
	{"INFO clients counts blocked clients and those with a timeout", []bstep{
		binfo("blocked_clients", "0"), bsend(0, "BLPOP q 0", 1), binfo("clients_in_timeout_table", "0"),
		bsend(1, "BZPOPMIN z 30", 2), bsend(2, "BLMOVE a b LEFT LEFT 20.5", 3),
		binfo("blocked_clients", "3"), binfo("clients_in_timeout_table", "2"),
		bat(3, "ZADD z 1 m"), brecv(1, `1) "z"`, `2) "m"`, `3) "1"`), binfo("clients_in_timeout_table", "1"),
		bat(3, "CLIENT UNBLOCK $id2"), brecv(2, "(nil)"), binfo("clients_in_timeout_table", "0"), binfo("blocked_clients", "1"),
		bfield(3, 2, "flags", "N"), bfield(3, 2, "cmd", "blmove"), bfield(3, 0, "flags", "b"),
		bsend(0, "CLIENT UNBLOCK $id0", 1), // buffered behind its own BLPOP
		bat(3, "RPUSH q x"), brecv(0, `1) "q"`, `2) "x"`), brecv(0, "(integer) 0"),
	}},
	{"a client that hangs up while blocked is forgotten", []bstep{
		bsend(0, "BLPOP q 0", 1), bsend(1, "BLPOP q 0", 2), bhangup(0, 1),
		bat(2, "RPUSH q x"), brecv(1, `1) "q"`, `2) "x"`), bat(2, "EXISTS q", "(integer) 0"),
		bsend(3, "BLMOVE q d LEFT LEFT 0", 1), bhangup(3, 0), bat(2, "RPUSH q y"), bat(2, "LRANGE q 0 -1", `1) "y"`),
	}},
	{"commands sent after a blocked one wait for it", []bstep{
		bsend(0, "BLPOP q 0", 1), bsend(0, "ECHO after", 1), bsend(0, "LLEN q", 1), bquiet(0, 30*time.Millisecond),
		bat(1, "RPUSH q a b"), brecv(0, `1) "q"`, `2) "a"`), brecv(0, `"after"`), brecv(0, "(integer) 1"),
		bsend(0, "BLPOP q q nokey 0", 0), brecv(0, `1) "q"`, `2) "b"`),
		bsend(0, "BLPOP q q 0", 1), bat(1, "RPUSH q c d"), brecv(0, `1) "q"`, `2) "c"`), bat(1, "LLEN q", "(integer) 1"),
	}},
	{"WATCH sees what serving a blocked BLMOVE pushed", []bstep{
		bat(3, "RPUSH dst old"), bat(2, "WATCH dst", "OK"),
		bsend(0, "BLMOVE src dst LEFT LEFT 0", 1), bat(1, "RPUSH src x"), brecv(0, `"x"`),
		bat(2, "MULTI"), bat(2, "PING"), bat(2, "EXEC", "(nil)"),
		bat(3, "LRANGE dst 0 -1", `1) "x"`, `2) "old"`),
		// served with WRONGTYPE: nothing moved, the watcher's transaction runs
		bat(3, "SET dst2 str"), bat(2, "WATCH dst2 src"), bsend(0, "BLMOVE src dst2 LEFT LEFT 0", 1),
		bat(1, "MULTI"), bat(1, "RPUSH src y"), bat(1, "DEL src"), bat(1, "RPUSH src z"), bat(1, "EXEC"),
		brecv(0, "(error) WRONGTYPE Operation against a key holding the wrong kind of value"),
		bat(2, "MULTI"), bat(2, "PING"), bat(2, "EXEC", "(nil)"), // src itself was written
		bat(2, "WATCH dst2"), bsend(0, "BLMOVE src3 dst2 LEFT LEFT 0", 1), bat(1, "RPUSH src3 w"),
		brecv(0, "(error) WRONGTYPE Operation against a key holding the wrong kind of value"),
		bat(2, "MULTI"), bat(2, "PING"), bat(2, "EXEC", "1) PONG"),
	}},
	{"timed out with commands waiting behind", []bstep{
		bsend(0, "BLPOP q 0.1", 1), bsend(0, "PING", -1), brecv(0, "(nil)"), brecv(0, "PONG"),
		bsend(0, "BLPOP q 0", 1), bsend(0, "QUIT", 1), bquiet(0, 20*time.Millisecond),
		bat(1, "RPUSH q a"), brecv(0, `1) "q"`, `2) "a"`), brecv(0, "OK"),
	}},
	{"queue: BRPOP worker without acknowledgement", []bstep{
		// the worker waits; the producer pushes jobs; a job popped and lost with the worker is gone
		bsend(0, "BRPOP jobs 0", 1), bat(2, "LPUSH jobs job:1 job:2", "(integer) 2"), brecv(0, `1) "jobs"`, `2) "job:1"`),
		bsend(1, "BRPOP jobs 0", 0), brecv(1, `1) "jobs"`, `2) "job:2"`),
		bsend(0, "BRPOP jobs 0", 1), bhangup(0, 0), bat(2, "LPUSH jobs job:3"), bat(2, "LLEN jobs", "(integer) 1"),
	}},
	{"queue: BLMOVE into a processing list, LREM ack, requeue", []bstep{
		bsend(0, "BLMOVE jobs jobs:processing RIGHT LEFT 0", 1),
		bat(2, "LPUSH jobs job:1 job:2 job:3", "(integer) 3"), brecv(0, `"job:1"`),
		bat(0, "LRANGE jobs:processing 0 -1", `1) "job:1"`),
		bat(0, "LREM jobs:processing 1 job:1", "(integer) 1"), // ack
		bat(1, "BLMOVE jobs jobs:processing RIGHT LEFT 0", `"job:2"`),
		bhangup(1, 0), // the worker dies before acking job:2
		// the reaper puts what is still in processing back at the consumer's end of the queue
		bat(2, "LMOVE jobs:processing jobs RIGHT RIGHT", `"job:2"`),
		bat(2, "LRANGE jobs 0 -1", `1) "job:3"`, `2) "job:2"`),
		bat(0, "BLMOVE jobs jobs:processing RIGHT LEFT 0", `"job:2"`), bat(0, "LREM jobs:processing 1 job:2", "(integer) 1"),
		bat(0, "BLMOVE jobs jobs:processing RIGHT LEFT 0", `"job:3"`), bat(0, "LREM jobs:processing 1 job:3", "(integer) 1"),
		bsend(0, "BLMOVE jobs jobs:processing RIGHT LEFT 0.1", 1), brecv(0, "(nil)"),
		bat(2, "EXISTS jobs jobs:processing", "(integer) 0"),
	}},
}

// bside is one server's connections in a scenario.
type bside struct {
	name  string
	addr  string
	conns []*transcript.Conn
	ids   []string
	ctl   *transcript.Conn // waits for blocked clients; not part of the scenario
}

func dialSide(t *testing.T, name, addr string) *bside {
	t.Helper()
	s := &bside{name: name, addr: addr}
	for i := 0; i <= bconns; i++ {
		c := dialConn(t, addr)
		if i == bconns {
			s.ctl = c
			break
		}
		_, r, err := c.DoStrings("CLIENT", "ID")
		if err != nil {
			t.Fatal(err)
		}
		s.conns = append(s.conns, c)
		s.ids = append(s.ids, fmt.Sprint(r.Int))
	}
	return s
}

func (s *bside) args(t *testing.T, cmd string) [][]byte {
	t.Helper()
	for i := len(s.ids) - 1; i >= 0; i-- {
		cmd = strings.ReplaceAll(cmd, fmt.Sprintf("$id%d", i), s.ids[i])
	}
	args, err := engine.SplitArgs(cmd)
	if err != nil {
		t.Fatal(err)
	}
	return args
}

// infoField reads one field of INFO clients.
func (s *bside) infoField(t *testing.T, name string) string {
	t.Helper()
	_, r, err := s.ctl.DoStrings("INFO", "clients")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(r.Str, "\r\n") {
		if v, ok := strings.CutPrefix(l, name+":"); ok {
			return v
		}
	}
	t.Fatalf("%s: INFO clients has no %s", s.name, name)
	return ""
}

// waitBlocked polls INFO clients until blocked_clients is n (5 s at most).
func (s *bside) waitBlocked(t *testing.T, n int) {
	t.Helper()
	want := fmt.Sprint(n)
	deadline := time.Now().Add(5 * time.Second)
	for {
		got := s.infoField(t, "blocked_clients")
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: blocked_clients %s, want %s", s.name, got, want)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// clientField is a field of connection conn's CLIENT LIST line.
func (s *bside) clientField(t *testing.T, from, conn int, name string) string {
	t.Helper()
	_, r, err := s.conns[from].DoStrings("CLIENT", "LIST", "ID", s.ids[conn])
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range strings.Fields(r.Str) {
		if strings.HasPrefix(f, name+"=") {
			return f
		}
	}
	return name + "=?"
}

// bscenario is one multi-connection scenario.
type bscenario = struct {
	name  string
	steps []bstep
}

// TestBlockingScenarios plays blockingScenarios on redis-server 7.0.15 and on redscope.
func TestBlockingScenarios(t *testing.T) {
	compared := playLockstep(t, blockingScenarios)
	if path := os.Getenv("REDSCOPE_BLOCKING_REPORT"); path != "" {
		os.WriteFile(path, []byte(fmt.Sprintf("%d %d\n", len(blockingScenarios), compared)), 0o644)
	}
}

// playLockstep plays multi-connection scenarios (the blocking ones here and in
// blocking_stream_test.go, the WATCH ones of multi_test.go) step by step on both servers and
// returns how many replies, INFO and CLIENT LIST fields it compared.
func playLockstep(t *testing.T, scenarios []bscenario) int {
	sv := startServers(t)
	return playLockstepOn(t, scenarios, func(t *testing.T) (string, string) { sv.fresh(t); return sv.ref, sv.scope })
}

// playLockstepOn is playLockstep on the servers fresh gives for each scenario (reference and
// redscope addresses).
func playLockstepOn(t *testing.T, scenarios []bscenario, fresh func(t *testing.T) (ref, scope string)) int {
	var compared int
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			refAddr, scopeAddr := fresh(t)
			ref, got := dialSide(t, "redis-server", refAddr), dialSide(t, "redscope", scopeAddr)
			sides := []*bside{ref, got}
			closed := map[int]bool{}
			defer func() {
				for i := range ref.conns {
					if !closed[i] {
						ref.conns[i].Close()
						got.conns[i].Close()
					}
				}
				ref.waitBlocked(t, 0) // nothing left blocked for the next scenario
			}()
			for i, st := range sc.steps {
				where := fmt.Sprintf("step %d (%c, connection %d, %q)", i, st.kind, st.conn, st.cmd)
				switch st.kind {
				case 'p':
					time.Sleep(st.d)
				case 'h':
					for _, s := range sides {
						s.conns[st.conn].Close()
					}
					closed[st.conn] = true
					for _, s := range sides {
						s.waitBlocked(t, st.blocked)
					}
				case 's':
					for _, s := range sides {
						c := s.conns[st.conn]
						c.Send(s.args(t, st.cmd))
						if err := c.Flush(); err != nil {
							t.Fatalf("%s: %s: %v", where, s.name, err)
						}
						if st.blocked >= 0 {
							s.waitBlocked(t, st.blocked)
						}
					}
				case 'q':
					for _, s := range sides {
						c := s.conns[st.conn]
						c.Timeout = st.d
						raw, _, err := c.Receive()
						c.Timeout = 60 * time.Second
						var ne net.Error
						if len(raw) > 0 || !errors.As(err, &ne) || !ne.Timeout() {
							t.Fatalf("%s: %s answered %q (%v) while it should still wait", where, s.name, raw, err)
						}
					}
				case 'i':
					a, b := ref.infoField(t, st.cmd), got.infoField(t, st.cmd)
					compared++
					if a != b || a != st.want {
						t.Errorf("%s: INFO %s: redis-server %s, redscope %s, the test expects %s", where, st.cmd, a, b, st.want)
					}
				case 'f':
					var vals []string
					for _, s := range sides {
						var conn int
						fmt.Sscan(st.cmd, &conn)
						vals = append(vals, s.clientField(t, st.conn, conn, strings.SplitN(st.want, "=", 2)[0]))
					}
					compared++
					if vals[0] != vals[1] || vals[0] != st.want {
						t.Errorf("%s: redis-server %s, redscope %s, the test expects %s", where, vals[0], vals[1], st.want)
					}
				case 'a', 'r':
					var raws [][]byte
					var replies []engine.Reply
					for _, s := range sides {
						c := s.conns[st.conn]
						var raw []byte
						var r engine.Reply
						var err error
						if st.kind == 'a' {
							c.Timeout = 5 * time.Second
							raw, r, err = c.Do(s.args(t, st.cmd))
						} else {
							c.Timeout = 5 * time.Second
							raw, r, err = c.Receive()
						}
						c.Timeout = 60 * time.Second
						if err != nil {
							t.Fatalf("%s: %s: %v", where, s.name, err)
						}
						raws = append(raws, append([]byte(nil), raw...))
						replies = append(replies, r)
					}
					compared++
					if !bytes.Equal(raws[0], raws[1]) {
						t.Errorf("%s:\nredis-server: %qredscope:     %q", where, raws[0], raws[1])
					}
					if st.want != "" {
						if g := strings.TrimSuffix(replies[0].FormatCLI(), "\n"); g != st.want {
							t.Errorf("%s: redis-server answered %q, the test expects %q", where, g, st.want)
						}
					}
				}
			}
		})
	}
	t.Logf("%d scenarios, %d replies and CLIENT LIST fields compared", len(scenarios), compared)
	return compared
}

// TestGoRedisBLPop: a go-redis worker waits in BLPop while a producer (another client) pushes
// jobs after a delay; on both servers the worker gets every job in order, then a timeout
// (redis.Nil) once the queue stays empty.
func TestGoRedisBLPop(t *testing.T) {
	onBothServers(t, func(t *testing.T, a side) {
		ctx, worker, producer := within(t, 20*time.Second), a.client(t), a.client(t)
		done := make(chan error, 1)
		go func() {
			// Push only once the worker waits (INFO clients), one job at a time.
			for i := 0; i < 3; i++ {
				for {
					info, err := producer.Info(ctx, "clients").Result()
					if err != nil {
						done <- err
						return
					}
					if strings.Contains(info, "blocked_clients:1\r\n") {
						break
					}
					time.Sleep(2 * time.Millisecond)
				}
				if err := producer.LPush(ctx, "jobs", fmt.Sprintf("job:%d", i)).Err(); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
		var got []string
		for i := 0; i < 3; i++ {
			kv, err := worker.BLPop(ctx, 0, "jobs").Result()
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, strings.Join(kv, "="))
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		if want := "jobs=job:0 jobs=job:1 jobs=job:2"; strings.Join(got, " ") != want {
			t.Fatalf("worker got %q, want %q", got, want)
		}
		if _, err := worker.BRPop(ctx, time.Second, "jobs").Result(); err != redis.Nil {
			t.Fatalf("BRPop on an empty queue: %v, want redis.Nil after the timeout", err)
		}
		if v, err := worker.BLMove(ctx, "jobs", "processing", "RIGHT", "LEFT", time.Second).Result(); err != redis.Nil {
			t.Fatalf("BLMove on an empty queue: %q %v, want redis.Nil", v, err)
		}
	})
}

// TestRedisCLIWorker: redis-cli as the worker (`redis-cli BRPOP jobs 0` in its own process)
// waits until another connection pushes; then `redis-cli BLPOP jobs 0.1` times out. What
// redis-cli prints must be the same for both servers.
func TestRedisCLIWorker(t *testing.T) {
	cli := need(t, "redis-cli")
	printedOnBoth(t, "1) \"jobs\"\n2) \"job:1\"\n(nil)\n", func(a string) string {
		printed := startCLI(t, cli, a, "BRPOP", "jobs", "0")
		side := dialSide(t, a, a)
		side.waitBlocked(t, 1)
		if _, r, err := side.conns[0].DoStrings("LPUSH", "jobs", "job:1", "job:2"); err != nil || r.Int != 2 {
			t.Fatalf("%s: LPUSH: %v %s", a, err, r.FormatCLI())
		}
		return printed() + runCLI(t, cli, a, "BLPOP nojobs 0.1\n")
	})
}

// printedOnBoth calls play with the address of redis-server 7.0.15 (reset first), then with
// redscope's: what each call returns (what redis-cli printed) must be want on both.
func printedOnBoth(t *testing.T, want string, play func(addr string) string) {
	t.Helper()
	sv := startServers(t)
	sv.rs.reset(t)
	ref := play(sv.ref)
	got := play(sv.scope)
	if ref != want || got != ref {
		t.Fatalf("redis-cli printed\nredis-server: %q\nredscope:     %q\nwant %q", ref, got, want)
	}
}

// startCLI starts redis-cli in its own process against addr with a (blocking) command;
// printed waits until it exits (20 s at most) and returns what it printed.
func startCLI(t *testing.T, cli, addr string, args ...string) (printed func() string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	worker := cliCommand(ctx, cli, addr, args...)
	var out bytes.Buffer
	worker.Stdout, worker.Stderr = &out, &out
	if err := worker.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	return func() string {
		t.Helper()
		defer cancel()
		if err := worker.Wait(); err != nil {
			t.Fatalf("%s: redis-cli: %v\n%s", addr, err, out.String())
		}
		return out.String()
	}
}

// TestGoRedisReliableQueue is the course's reliable queue with go-redis on both servers: three
// workers take jobs with BLMOVE jobs → jobs:processing and acknowledge them with LREM while a
// producer pushes 30 jobs; every job is done exactly once and both lists end empty.
func TestGoRedisReliableQueue(t *testing.T) {
	onBothServers(t, func(t *testing.T, a side) {
		ctx, producer := within(t, 30*time.Second), a.client(t)
		take := func(rdb *redis.Client, w int) ([]string, error) {
			job, err := rdb.BLMove(ctx, "jobs", "jobs:processing", "RIGHT", "LEFT", time.Second).Result()
			if err != nil {
				return nil, err
			}
			if n, err := rdb.LRem(ctx, "jobs:processing", 1, job).Result(); err != nil || n != 1 {
				return nil, fmt.Errorf("ack %s: %d %v", job, n, err)
			}
			return []string{job}, nil
		}
		workQueue(t, ctx, a.addr, 3, 30, take, func(job string) error {
			return producer.LPush(ctx, "jobs", job).Err()
		})
		if n, err := producer.Exists(ctx, "jobs", "jobs:processing").Result(); err != nil || n != 0 {
			t.Fatalf("EXISTS jobs jobs:processing = %d %v", n, err)
		}
	})
}
