package lesson

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"redscope/assets"
	"redscope/engine"
	"redscope/engine/alloc"
	wire "redscope/internal/transcript"
)

// TestClientLessonsReplayOnRedis plays the built-in lessons that use console clients (`client N`
// lines: a worker blocked in BRPOP, a producer pushing) on Debian's redis-server 7.0.15 with one
// TCP connection per client, and compares every reply with the Player's: a command the Player
// shows as blocked is sent and not read; its reply is read from that client's connection when
// the Player shows it woken (served by another client's push, or timed out: an `advance` the
// real server waits out). redis-cli cannot hold three connections, so this test speaks RESP.
func TestClientLessonsReplayOnRedis(t *testing.T) {
	port := startRedis(t)
	cfg := Config{Version: engine.V70, Allocator: alloc.Jemalloc16}
	n := 0
	for _, l := range builtinLessons(t) {
		if !replayedWithClients(l) {
			continue
		}
		n++
		xs := runExchanges(l, cfg)
		if msg := replayClients(t, port, l, xs); msg != "" {
			t.Errorf("%s: %s", l.Name, msg)
		}
	}
	if n < 3 {
		t.Fatalf("only %d lessons with clients replayed", n)
	}
}

// replayedWithClients: the lesson speaks through several clients and runs on 7.0, so
// TestClientLessonsReplayOnRedis replays it on redis-server.
func replayedWithClients(l *Lesson) bool {
	return usesClients(l) && (l.Since == 0 || engine.V70.Has(l.Since))
}

func usesClients(l *Lesson) bool {
	for _, s := range l.Steps {
		for _, a := range s.Actions {
			if a.Client != 0 {
				return true
			}
		}
	}
	return false
}

// replayClients runs xs on the real server and reports the first difference.
func replayClients(t *testing.T, port string, l *Lesson, xs []Exchange) string {
	t.Helper()
	var conns [Clients + 1]*respConn
	for i := range conns {
		c, err := wire.Dial("127.0.0.1:" + port)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns[i] = &respConn{c: c}
	}
	if got := conns[0].do(t, [][]byte{[]byte("FLUSHALL")}); got != "OK" {
		return "FLUSHALL: " + got
	}
	conns[0].do(t, [][]byte{[]byte("SCRIPT"), []byte("FLUSH")})
	compared := 0
	for _, x := range xs {
		if x.Advance != "" {
			// The real server has a real clock: wait as long (the lessons move it 2 s at most).
			d, err := time.ParseDuration(x.Advance)
			if err != nil || d > 5*time.Second {
				return "advance " + x.Advance + ": longer than this test waits"
			}
			time.Sleep(d)
			continue
		}
		c := conns[x.Client]
		var got string
		switch {
		case x.Woken:
			got = c.read(t, 30*time.Second)
		default:
			args, err := engine.SplitArgs(x.Cmd)
			if err != nil {
				t.Fatal(err)
			}
			c.send(t, args)
			if x.Blocked {
				// The real server must not answer either: nothing arrives within 100 ms.
				if ok, reply := c.answers(100 * time.Millisecond); ok {
					return fmt.Sprintf("%s (client %d): the engine blocks, redis-server answered %q", x.Cmd, x.Client, reply)
				}
				continue
			}
			got = c.read(t, 10*time.Second)
		}
		compared++
		if got != x.Reply {
			return fmt.Sprintf("%s (client %d, woken %v): redis-server %q, engine %q", x.Cmd, x.Client, x.Woken, got, x.Reply)
		}
	}
	t.Logf("%s: %d replies equal to redis-server 7.0.15's", l.Name, compared)
	return ""
}

// respConn is one RESP2 connection to the real server.
type respConn struct{ c *wire.Conn }

func (c *respConn) send(t *testing.T, args [][]byte) {
	if err := c.c.Send(args); err != nil {
		t.Fatal(err)
	}
	if err := c.c.Flush(); err != nil {
		t.Fatal(err)
	}
}

func (c *respConn) do(t *testing.T, args [][]byte) string {
	c.send(t, args)
	return c.read(t, 10*time.Second)
}

// read reads one reply and prints it as redis-cli --no-raw does (engine.Reply.FormatCLI).
func (c *respConn) read(t *testing.T, wait time.Duration) string {
	t.Helper()
	c.c.Timeout = wait
	_, r, err := c.c.Receive()
	if err != nil {
		t.Fatalf("reading a reply: %v", err)
	}
	return strings.TrimSuffix(r.FormatCLI(), "\n")
}

// answers reports whether a reply arrives within wait, and what it reads.
func (c *respConn) answers(wait time.Duration) (bool, string) {
	c.c.Timeout = wait
	raw, r, err := c.c.Receive()
	if err != nil && len(raw) == 0 {
		return false, ""
	}
	return true, strings.TrimSuffix(r.FormatCLI(), "\n")
}

// TestConsoleClients types in two console clients: BRPOP in client 1 blocks (the exchange is
// Blocked, Waiting names it), LPUSH in client 2 serves it (a Woken exchange of client 1 after
// the push), and Back/forward replays the same blocked state; a clock move times client 3 out.
func TestConsoleClients(t *testing.T) {
	p := NewPlayer(Config{})
	if p.ActiveClient() != 1 || p.SetActiveClient(0) || p.SetActiveClient(4) {
		t.Fatal("active client")
	}
	x := p.Exec("BRPOP jobs 0")
	if !x.Blocked || x.Client != 1 || x.Reply != "" || p.Waiting(1) != "BRPOP jobs 0" {
		t.Fatalf("BRPOP: %+v, waiting %q", x, p.Waiting(1))
	}
	if x := p.Exec("PING"); !x.Error { // a blocked connection runs nothing
		t.Fatalf("PING while blocked: %+v", x)
	}
	p.SetActiveClient(2)
	x = p.Exec("LPUSH jobs a")
	last := p.Last()
	w := last[len(last)-1]
	if x.Reply != "(integer) 1" || x.Client != 2 || !w.Woken || w.Client != 1 || w.Cmd != "BRPOP jobs 0" ||
		w.Reply != "1) \"jobs\"\n2) \"a\"" || p.Waiting(1) != "" {
		t.Fatalf("LPUSH %+v woke %+v", x, w)
	}
	p.SetActiveClient(3)
	p.Exec("BLPOP q 1.5")
	if p.Waiting(3) != "BLPOP q 1.5" {
		t.Fatal("client 3 not blocked")
	}
	x = p.Exec("advance 1s")
	if x.Advance != "1s" || p.Waiting(3) == "" {
		t.Fatalf("advance 1s: %+v, waiting %q", x, p.Waiting(3))
	}
	p.Exec("advance 1s")
	last = p.Last()
	if w := last[len(last)-1]; !w.Woken || w.Client != 3 || w.Reply != "(nil)" || p.Waiting(3) != "" {
		t.Fatalf("timeout: %+v", w)
	}
	before := fmt.Sprint(p.Last())
	p.SetConfig(p.Config()) // replays the typed lines on a fresh engine
	if got := fmt.Sprint(p.Last()); got != before {
		t.Fatalf("replay differs:\n%s\n%s", got, before)
	}
}

// TestLessonClientsReplay: queue-brpop's first step leaves client 1 blocked; Back and Seek
// rebuild exactly that.
func TestLessonClientsReplay(t *testing.T) {
	var src []byte
	for _, s := range assets.Lessons() {
		if s.Name == "queue-brpop" {
			src = s.Src
		}
	}
	l, err := Parse("queue-brpop.lesson", src)
	if err != nil {
		t.Fatal(err)
	}
	p := NewPlayer(Config{})
	p.Load(l)
	p.Step()
	if p.Waiting(1) != "BRPOP jobs 0" || !p.Last()[0].Blocked || p.Last()[0].Client != 1 {
		t.Fatalf("step 1: waiting %q, %+v", p.Waiting(1), p.Last())
	}
	p.Step()
	if p.Waiting(1) != "" || !p.Last()[1].Woken {
		t.Fatalf("step 2: %+v", p.Last())
	}
	p.Back()
	if p.Waiting(1) != "BRPOP jobs 0" {
		t.Fatalf("back: waiting %q", p.Waiting(1))
	}
	p.Seek(0)
	if p.Waiting(1) != "" {
		t.Fatal("reset keeps a blocked client")
	}
}
