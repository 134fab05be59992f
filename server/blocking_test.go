package server

import (
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"redscope/engine"
)

// blockedCount polls INFO's blocked_clients until it is n (or fails after 5 s).
func waitBlocked(t *testing.T, s *Server, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		var got int
		s.Engine(func(e *engine.Engine) { got = e.BlockedClients() })
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("blocked clients %d, want %d", got, n)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// silent checks that nothing arrives on c for d.
func silent(t *testing.T, c net.Conn, d time.Duration) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(d))
	buf := make([]byte, 64)
	if n, err := c.Read(buf); n > 0 || err == nil {
		t.Fatalf("a blocked connection answered %q", buf[:n])
	}
}

func read(t *testing.T, c net.Conn, want string) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, len(want))
	if _, err := io.ReadFull(c, buf); err != nil {
		t.Fatalf("read: %v (got %q, want %q)", err, buf, want)
	}
	if string(buf) != want {
		t.Fatalf("got %q, want %q", buf, want)
	}
}

func TestBlockingPopWaitsForAPush(t *testing.T) {
	s, addr := start(t, engine.V70)
	worker, worker2, producer := dial(t, addr), dial(t, addr), dial(t, addr)
	// The worker pipelines a PING before and after its BLPOP: the first is answered at once,
	// the second only after the BLPOP.
	worker.Write([]byte(cmd("PING") + cmd("BLPOP", "jobs", "0") + cmd("ECHO", "after")))
	read(t, worker, "+PONG\r\n")
	waitBlocked(t, s, 1)
	worker2.Write([]byte(cmd("BRPOP", "jobs", "0")))
	waitBlocked(t, s, 2)
	silent(t, worker, 50*time.Millisecond)
	// CLIENT LIST shows the b flag and the command; INFO counts it.
	list := exchange(t, producer, cmd("CLIENT", "LIST"), 1)
	_ = list
	producer.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, 4096)
	n, _ := producer.Read(buf)
	if !strings.Contains(string(buf[:n]), " flags=b ") || !strings.Contains(string(buf[:n]), " cmd=blpop ") {
		t.Fatalf("CLIENT LIST: %q", buf[:n])
	}
	if got := exchange(t, producer, cmd("RPUSH", "jobs", "a", "b", "c"), 4); got != ":3\r\n" {
		t.Fatalf("RPUSH: %q", got)
	}
	read(t, worker, "*2\r\n$4\r\njobs\r\n$1\r\na\r\n$5\r\nafter\r\n")
	read(t, worker2, "*2\r\n$4\r\njobs\r\n$1\r\nc\r\n")
	// Both connections go on normally, blocked again or not.
	if got := exchange(t, worker, cmd("LPOP", "jobs"), 7); got != "$1\r\nb\r\n" {
		t.Fatalf("LPOP: %q", got)
	}
	worker.Write([]byte(cmd("BLPOP", "jobs", "0.05")))
	read(t, worker, "*-1\r\n")
	waitBlocked(t, s, 0)
}

func TestBlockingUnblockAndHangUp(t *testing.T) {
	s, addr := start(t, engine.V70)
	a, b, ctl := dial(t, addr), dial(t, addr), dial(t, addr)
	id := func(c net.Conn) string {
		r := exchange(t, c, cmd("CLIENT", "ID"), 4)
		return strings.TrimSuffix(strings.TrimPrefix(r, ":"), "\r\n")
	}
	ida := id(a)
	a.Write([]byte(cmd("BZPOPMIN", "z", "0")))
	waitBlocked(t, s, 1)
	if got := exchange(t, ctl, cmd("CLIENT", "UNBLOCK", ida, "ERROR"), 4); got != ":1\r\n" {
		t.Fatalf("CLIENT UNBLOCK: %q", got)
	}
	read(t, a, "-UNBLOCKED client unblocked via CLIENT UNBLOCK\r\n")
	if got := exchange(t, ctl, cmd("CLIENT", "UNBLOCK", ida), 4); got != ":0\r\n" {
		t.Fatalf("second CLIENT UNBLOCK: %q", got)
	}
	a.Write([]byte(cmd("BLMOVE", "src", "dst", "LEFT", "RIGHT", "0")))
	waitBlocked(t, s, 1)
	exchange(t, ctl, cmd("CLIENT", "UNBLOCK", ida, "timeout"), 4)
	read(t, a, "*-1\r\n")
	// A client that hangs up while blocked is forgotten: the push goes to the next one.
	b.Write([]byte(cmd("BLPOP", "q", "0")))
	waitBlocked(t, s, 1)
	b.Close()
	waitBlocked(t, s, 0)
	if got := exchange(t, ctl, cmd("RPUSH", "q", "x"), 4); got != ":1\r\n" {
		t.Fatalf("RPUSH: %q", got)
	}
	if got := exchange(t, ctl, cmd("LLEN", "q"), 4); got != ":1\r\n" {
		t.Fatalf("the element went to a closed connection: LLEN %q", got)
	}
	s.mu.Lock()
	n := len(s.clients)
	s.mu.Unlock()
	if n != 2 {
		t.Fatalf("%d clients after one hung up, want 2", n)
	}
}

// TestBlockingManyWorkers: 20 blocked workers, 20 pushes from another connection; every element
// is delivered exactly once (run with -race).
func TestBlockingManyWorkers(t *testing.T) {
	s, addr := start(t, engine.V70)
	const n = 20
	got := make(chan string, n)
	for i := 0; i < n; i++ {
		c := dial(t, addr)
		go func() {
			c.Write([]byte(cmd("BRPOP", "q", "0")))
			c.SetReadDeadline(time.Now().Add(10 * time.Second))
			buf := make([]byte, 64)
			k, _ := io.ReadAtLeast(c, buf, len("*2\r\n$1\r\nq\r\n$2\r\n00\r\n"))
			got <- string(buf[:k])
		}()
	}
	waitBlocked(t, s, n)
	p := dial(t, addr)
	for i := 0; i < n; i++ {
		exchange(t, p, cmd("LPUSH", "q", string(rune('A'+i))+string(rune('a'+i))), 4)
	}
	seen := map[string]bool{}
	for i := 0; i < n; i++ {
		r := <-got
		if seen[r] || !strings.HasPrefix(r, "*2\r\n$1\r\nq\r\n$2\r\n") {
			t.Fatalf("reply %q (seen before: %v)", r, seen[r])
		}
		seen[r] = true
	}
}

// TestBlockingProtocolErrorAfterBlock: a protocol error sent while blocked is answered, after the
// blocked command's reply, as redcon answers it elsewhere, and the connection closes.
func TestBlockingProtocolErrorAfterBlock(t *testing.T) {
	s, addr := start(t, engine.V70)
	a, b := dial(t, addr), dial(t, addr)
	a.Write([]byte(cmd("BLPOP", "q", "0")))
	waitBlocked(t, s, 1)
	a.Write([]byte("*1\r\n$x\r\n"))
	exchange(t, b, cmd("RPUSH", "q", "v"), 4)
	a.SetReadDeadline(time.Now().Add(5 * time.Second))
	all, _ := io.ReadAll(a)
	if !strings.HasPrefix(string(all), "*2\r\n$1\r\nq\r\n$1\r\nv\r\n-ERR Protocol error") {
		t.Fatalf("got %q", all)
	}
}

// TestBlockingInfo72: 7.2's INFO clients also counts the keys clients block on.
func TestBlockingInfo72(t *testing.T) {
	s, addr := start(t, engine.V72)
	a, b := dial(t, addr), dial(t, addr)
	a.Write([]byte(cmd("BLPOP", "k1", "k2", "0")))
	b.Write([]byte(cmd("BZPOPMIN", "k2", "10")))
	waitBlocked(t, s, 2)
	var info string
	s.mu.Lock()
	info = s.info([][]byte{[]byte("clients")})
	s.mu.Unlock()
	for _, w := range []string{"blocked_clients:2\r\n", "clients_in_timeout_table:1\r\n", "total_blocking_keys:2\r\n", "total_blocking_keys_on_nokey:0\r\n"} {
		if !strings.Contains(info, w) {
			t.Errorf("INFO clients lacks %q:\n%s", w, info)
		}
	}
}

// TestBlockingHugeTimeout: a timeout of 1e10 s (deadline beyond what a timer can hold) waits
// quietly; a push still serves it.
func TestBlockingHugeTimeout(t *testing.T) {
	s, addr := start(t, engine.V70)
	a, b := dial(t, addr), dial(t, addr)
	a.Write([]byte(cmd("BLPOP", "q", "1e10")))
	waitBlocked(t, s, 1)
	silent(t, a, 30*time.Millisecond)
	exchange(t, b, cmd("RPUSH", "q", "v"), 4)
	read(t, a, "*2\r\n$1\r\nq\r\n$1\r\nv\r\n")
}

// TestBlockingChurn: 12 connections block, push, unblock each other and hang up at random for a
// while (run with -race); afterwards nobody is left blocked and the server still answers.
func TestBlockingChurn(t *testing.T) {
	s, addr := start(t, engine.V70)
	stop := time.Now().Add(700 * time.Millisecond)
	done := make(chan struct{})
	for w := 0; w < 12; w++ {
		go func(w int) {
			defer func() { done <- struct{}{} }()
			seed := uint32(w*7919 + 1)
			next := func(n int) int {
				seed ^= seed << 13
				seed ^= seed >> 17
				seed ^= seed << 5
				return int(seed % uint32(n))
			}
			for time.Now().Before(stop) {
				c, err := net.Dial("tcp", addr)
				if err != nil {
					return
				}
				for i := 0; i < 20 && time.Now().Before(stop); i++ {
					var req string
					switch next(6) {
					case 0, 1:
						req = cmd("BLPOP", "q", "r", "0.05")
					case 2:
						req = cmd("BLMOVE", "q", "r", "LEFT", "RIGHT", "0.05")
					case 3:
						req = cmd("RPUSH", "q", "x", "y")
					case 4:
						req = cmd("CLIENT", "UNBLOCK", fmt.Sprint(1+next(40)))
					case 5:
						req = cmd("BZPOPMIN", "z", "0.02") + cmd("ZADD", "z", "1", "m")
					}
					c.Write([]byte(req))
					if next(8) == 0 {
						break // hang up, maybe while blocked
					}
					c.SetReadDeadline(time.Now().Add(2 * time.Second))
					buf := make([]byte, 256)
					if _, err := c.Read(buf); err != nil {
						break
					}
				}
				c.Close()
			}
		}(w)
	}
	for w := 0; w < 12; w++ {
		<-done
	}
	waitBlocked(t, s, 0)
	p := dial(t, addr)
	if got := exchange(t, p, cmd("PING"), 7); got != "+PONG\r\n" {
		t.Fatalf("PING: %q", got)
	}
}
