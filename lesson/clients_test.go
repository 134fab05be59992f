package lesson

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"redscope/assets"
	"redscope/engine"
	"redscope/engine/alloc"
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
	for _, src := range assets.Lessons() {
		l, err := Parse(src.Name+".lesson", src.Src)
		if err != nil {
			t.Fatal(err)
		}
		if !usesClients(l) || (l.Since != 0 && !engine.V70.Has(l.Since)) {
			continue
		}
		n++
		var xs []Exchange
		for _, st := range Run(l, cfg)[1:] {
			xs = append(xs, st.Outputs.Commands...)
		}
		if msg := replayClients(t, port, l, xs); msg != "" {
			t.Errorf("%s: %s", l.Name, msg)
		}
	}
	if n < 3 {
		t.Fatalf("only %d lessons with clients replayed", n)
	}
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
		c, err := net.DialTimeout("tcp", "127.0.0.1:"+port, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		conns[i] = &respConn{c: c, r: bufio.NewReader(c)}
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
				c.c.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
				if _, err := c.r.Peek(1); err == nil {
					return fmt.Sprintf("%s (client %d): the engine blocks, redis-server answered %q", x.Cmd, x.Client, c.read(t, time.Second))
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
type respConn struct {
	c net.Conn
	r *bufio.Reader
}

func (c *respConn) send(t *testing.T, args [][]byte) {
	var b strings.Builder
	fmt.Fprintf(&b, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(&b, "$%d\r\n%s\r\n", len(a), a)
	}
	if _, err := c.c.Write([]byte(b.String())); err != nil {
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
	c.c.SetReadDeadline(time.Now().Add(wait))
	r, err := readReply(c.r)
	if err != nil {
		t.Fatalf("reading a reply: %v", err)
	}
	return strings.TrimSuffix(r.FormatCLI(), "\n")
}

func readReply(r *bufio.Reader) (engine.Reply, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return engine.Reply{}, err
	}
	line = strings.TrimSuffix(line, "\r\n")
	if line == "" {
		return engine.Reply{}, fmt.Errorf("empty line")
	}
	body := line[1:]
	switch line[0] {
	case '+':
		return engine.Status(body), nil
	case '-':
		return engine.Err(body), nil
	case ':':
		n, err := strconv.ParseInt(body, 10, 64)
		return engine.Int(n), err
	case '$':
		n, err := strconv.Atoi(body)
		if err != nil {
			return engine.Reply{}, err
		}
		if n < 0 {
			return engine.NilReply, nil
		}
		buf := make([]byte, n+2)
		if _, err := io.ReadFull(r, buf); err != nil {
			return engine.Reply{}, err
		}
		return engine.Bulk(buf[:n]), nil
	case '*':
		n, err := strconv.Atoi(body)
		if err != nil {
			return engine.Reply{}, err
		}
		if n < 0 {
			return engine.NilArray, nil
		}
		items := make([]engine.Reply, 0, n)
		for i := 0; i < n; i++ {
			it, err := readReply(r)
			if err != nil {
				return engine.Reply{}, err
			}
			items = append(items, it)
		}
		return engine.Array(items...), nil
	}
	return engine.Reply{}, fmt.Errorf("unexpected reply %q", line)
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
