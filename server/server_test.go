package server

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"redscope/engine"
	"redscope/engine/alloc"
)

// start serves one engine of profile v (jemalloc-16, wall clock) on a loopback port, for tests
// and benchmarks; it closes when the test ends.
func start(t testing.TB, v engine.Version) (*Server, string) {
	t.Helper()
	return startEngine(t, engine.New(engine.Options{Version: v, Allocator: alloc.Jemalloc16, Clock: engine.WallClock{}}))
}

// startEngine serves e on a loopback port; it closes when the test ends.
func startEngine(t testing.TB, e *engine.Engine) (*Server, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := New(e)
	go s.Serve(ln)
	t.Cleanup(func() { s.Close() })
	return s, ln.Addr().String()
}

// exchange writes raw bytes and reads until want bytes arrived (or times out).
func exchange(t *testing.T, c net.Conn, send string, n int) string {
	t.Helper()
	if _, err := c.Write([]byte(send)); err != nil {
		t.Fatal(err)
	}
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, n)
	if _, err := io.ReadFull(c, buf); err != nil {
		t.Fatalf("read after %q: %v (got %q)", send, err, buf)
	}
	return string(buf)
}

func dial(t *testing.T, addr string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// startConn serves a new engine of version v (start) and dials it once.
func startConn(t *testing.T, v engine.Version) net.Conn {
	t.Helper()
	_, addr := start(t, v)
	return dial(t, addr)
}

func cmd(args ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(&b, "$%d\r\n%s\r\n", len(a), a)
	}
	return b.String()
}

// The replies below are byte-for-byte what redis-server 7.0.15 sends.
func TestConnectionCommands(t *testing.T) {
	c := startConn(t, engine.V70)
	cases := []struct{ send, want string }{
		{cmd("PING"), "+PONG\r\n"},
		{cmd("HELLO", "4"), "-NOPROTO unsupported protocol version\r\n"},
		{cmd("HELLO", "1"), "-NOPROTO unsupported protocol version\r\n"},
		{cmd("HELLO", "foo"), "-ERR Protocol version is not an integer or out of range\r\n"},
		{cmd("HELLO", "2", "setname"), "-ERR Syntax error in HELLO option 'setname'\r\n"},
		{cmd("HELLO", "2", "AUTH", "bob", "pw"), "-WRONGPASS invalid username-password pair or user is disabled.\r\n"},
		{cmd("HELLO", "2", "SETNAME", "a b"), "-ERR Client names cannot contain spaces, newlines or special characters.\r\n"},
		{cmd("AUTH", "x"), "-ERR AUTH <password> called without any password configured for the default user. Are you sure your configuration is correct?\r\n"},
		{cmd("AUTH", "default", "x"), "+OK\r\n"},
		{cmd("AUTH", "a", "b", "c"), "-ERR syntax error\r\n"},
		{cmd("AUTH"), "-ERR wrong number of arguments for 'auth' command\r\n"},
		{cmd("CLIENT"), "-ERR wrong number of arguments for 'client' command\r\n"},
		{cmd("CLIENT", "GETNAME"), "$-1\r\n"},
		{cmd("client", "setname", "foo"), "+OK\r\n"},
		{cmd("CLIENT", "GETNAME"), "$3\r\nfoo\r\n"},
		{cmd("CLIENT", "GETNAME", "x"), "-ERR wrong number of arguments for 'client|getname' command\r\n"},
		{cmd("CLIENT", "SETINFO", "lib-name", "x"), "-ERR unknown subcommand 'SETINFO'. Try CLIENT HELP.\r\n"},
		{cmd("CLIENT", "nosuch"), "-ERR unknown subcommand 'nosuch'. Try CLIENT HELP.\r\n"},
		{cmd("RESET"), "+RESET\r\n"},
		{cmd("CLIENT", "GETNAME"), "$-1\r\n"},
		{cmd("RESET", "x"), "-ERR wrong number of arguments for 'reset' command\r\n"},
		{cmd("INFO", "nosuchsection"), "$0\r\n\r\n"},
		{cmd("SELECT", "16"), "-ERR DB index is out of range\r\n"},
		{"PING hello\r\n", "$5\r\nhello\r\n"}, // inline
	}
	for _, k := range cases {
		if got := exchange(t, c, k.send, len(k.want)); got != k.want {
			t.Errorf("%q: got %q want %q", k.send, got, k.want)
		}
	}
	hello := "*14\r\n$6\r\nserver\r\n$5\r\nredis\r\n$7\r\nversion\r\n$6\r\n7.0.15\r\n$5\r\nproto\r\n:2\r\n$2\r\nid\r\n:"
	if got := exchange(t, c, cmd("HELLO", "2"), len(hello)); got != hello {
		t.Errorf("HELLO 2: %q", got)
	}
	rest := "\r\n$4\r\nmode\r\n$10\r\nstandalone\r\n$4\r\nrole\r\n$6\r\nmaster\r\n$7\r\nmodules\r\n*0\r\n"
	rd := bufio.NewReader(c)
	id, _ := rd.ReadString('\r')
	if id != "1\r" {
		t.Errorf("client id %q, want 1", id)
	}
	buf := make([]byte, len(rest)-1)
	io.ReadFull(rd, buf)
	if "\r"+string(buf) != rest {
		t.Errorf("HELLO tail %q", buf)
	}
}

func TestQuit(t *testing.T) {
	c := startConn(t, engine.V70)
	// QUIT answers OK, and what follows it in the same pipeline is not run.
	c.Write([]byte(cmd("PING") + cmd("QUIT") + cmd("PING")))
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	all, err := io.ReadAll(c)
	if err != nil {
		t.Fatal(err)
	}
	if string(all) != "+PONG\r\n+OK\r\n" {
		t.Fatalf("got %q", all)
	}
}

func TestSelectPerConnection(t *testing.T) {
	s, addr := start(t, engine.V70)
	a, b := dial(t, addr), dial(t, addr)
	if got := exchange(t, a, cmd("SELECT", "5"), 5); got != "+OK\r\n" {
		t.Fatalf("SELECT 5: %q", got)
	}
	exchange(t, b, cmd("PING"), 7)
	var dbA, dbB int
	s.mu.Lock()
	for _, c := range s.clients {
		if c.conn.RemoteAddr() == a.LocalAddr().String() {
			dbA = c.db
		} else {
			dbB = c.db
		}
	}
	s.mu.Unlock()
	if dbA != 5 || dbB != 0 {
		t.Fatalf("db of a = %d, of b = %d; want 5 and 0", dbA, dbB)
	}
	// CLIENT INFO reports the connection's own db.
	info := exchange(t, a, cmd("CLIENT", "INFO"), 4)
	rd := bufio.NewReader(a)
	rd.ReadString('\n')
	line, _ := rd.ReadString('\n')
	if !strings.Contains(line, " db=5 ") || !strings.Contains(line, " cmd=client|info ") {
		t.Fatalf("CLIENT INFO: %q %q", info, line)
	}
	if got := exchange(t, a, cmd("SELECT", "x"), 46); got != "-ERR value is not an integer or out of range\r\n" {
		t.Fatalf("SELECT x: %q", got)
	}
	// A failed SELECT keeps the db; RESET goes back to 0.
	s.mu.Lock()
	for _, c := range s.clients {
		if c.conn.RemoteAddr() == a.LocalAddr().String() && c.db != 5 {
			t.Errorf("db after a failed SELECT = %d", c.db)
		}
	}
	s.mu.Unlock()
}

// TestManyPipelinedClients: 50 connections, 16-command pipelines, replies in order.
func TestManyPipelinedClients(t *testing.T) {
	_, addr := start(t, engine.V88)
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for w := 0; w < 50; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			c, err := net.Dial("tcp", addr)
			if err != nil {
				errs <- err
				return
			}
			defer c.Close()
			rd := bufio.NewReader(c)
			for round := 0; round < 20; round++ {
				var b strings.Builder
				for i := 0; i < 16; i++ {
					b.WriteString(cmd("ECHO", fmt.Sprintf("%d-%d-%d", w, round, i)))
				}
				if _, err := c.Write([]byte(b.String())); err != nil {
					errs <- err
					return
				}
				for i := 0; i < 16; i++ {
					want := fmt.Sprintf("%d-%d-%d", w, round, i)
					hdr, err := rd.ReadString('\n')
					if err != nil {
						errs <- err
						return
					}
					body, err := rd.ReadString('\n')
					if err != nil || hdr != fmt.Sprintf("$%d\r\n", len(want)) || body != want+"\r\n" {
						errs <- fmt.Errorf("client %d: got %q %q want %q (%v)", w, hdr, body, want, err)
						return
					}
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestInfo(t *testing.T) {
	s, _ := start(t, engine.V88)
	s.mu.Lock()
	all := s.info([][]byte{[]byte("default"), []byte("redscope")})
	two := s.info([][]byte{[]byte("SERVER"), []byte("keyspace")})
	s.mu.Unlock()
	for _, w := range []string{"# Server\r\nredis_version:8.8.0\r\n", "redis_mode:standalone\r\n", "\r\n\r\n# Clients\r\n",
		"# Memory\r\nused_memory:", "# Keyspace\r\n", "redscope_allocator:jemalloc-16\r\n"} {
		if !strings.Contains(all, w) {
			t.Errorf("INFO lacks %q", w)
		}
	}
	if !strings.HasPrefix(two, "# Server\r\n") || !strings.HasSuffix(two, "\r\n\r\n# Keyspace\r\n") || strings.Contains(two, "# Memory") {
		t.Errorf("INFO server keyspace:\n%s", two)
	}
}

// Each connection has its own MULTI queue and watched keys (checked on redis-server 7.0.15:
// CLIENT LIST shows flags=x and the queue length in a transaction, d once a watched key was
// touched; a dirty transaction stores no more commands).
func TestMultiPerConnection(t *testing.T) {
	_, addr := start(t, engine.V70)
	a, b := dial(t, addr), dial(t, addr)
	if got := exchange(t, a, cmd("MULTI")+cmd("SET", "k", "1"), 14); got != "+OK\r\n+QUEUED\r\n" {
		t.Fatalf("%q", got)
	}
	if got := exchange(t, b, cmd("GET", "k"), 5); got != "$-1\r\n" {
		t.Fatalf("the other connection sees a queued write: %q", got)
	}
	line := func() string {
		t.Helper()
		out := exchange(t, b, cmd("CLIENT", "LIST"), 1)
		r := bufio.NewReader(b)
		hdr, _ := r.ReadString('\n')
		var n int
		fmt.Sscanf(out+hdr, "$%d", &n)
		body := make([]byte, n+2)
		io.ReadFull(r, body)
		for _, l := range strings.Split(string(body), "\n") {
			if strings.Contains(l, "cmd=set") || strings.Contains(l, "cmd=exec") || strings.Contains(l, "cmd=ping") {
				return l
			}
		}
		t.Fatalf("no line for the first connection in %q", body)
		return ""
	}
	if l := line(); !strings.Contains(l, " flags=x ") || !strings.Contains(l, " multi=1 ") {
		t.Fatalf("in MULTI: %s", l)
	}
	if got := exchange(t, a, cmd("EXEC"), 9); got != "*1\r\n+OK\r\n" {
		t.Fatalf("EXEC: %q", got)
	}
	exchange(t, a, cmd("WATCH", "k")+cmd("MULTI")+cmd("PING"), 19)
	exchange(t, b, cmd("SET", "k", "2"), 5)
	exchange(t, a, cmd("PING"), 9) // QUEUED, not stored
	if l := line(); !strings.Contains(l, " flags=xd ") || !strings.Contains(l, " multi=1 ") {
		t.Fatalf("touched: %s", l)
	}
	if got := exchange(t, a, cmd("EXEC"), 5); got != "*-1\r\n" {
		t.Fatalf("EXEC after the other connection wrote the watched key: %q", got)
	}
}

func TestMain(m *testing.M) {
	PoisonInput = true // a command that keeps an argument without copying it shows (loop.go)
	os.Exit(m.Run())
}
