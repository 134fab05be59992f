//go:build linux

package server

import (
	"net"
	"strings"
	"testing"
	"time"

	"redscope/engine"
)

// loopConns is how many connections the server's event loop serves now.
func loopConns(s *Server) int {
	s.loop.mu.Lock()
	defer s.loop.mu.Unlock()
	return len(s.loop.conns)
}

// waitLoopConns waits until the loop serves n connections.
func waitLoopConns(t *testing.T, s *Server, n int) {
	t.Helper()
	for i := 0; i < 200 && loopConns(s) != n; i++ {
		time.Sleep(5 * time.Millisecond)
	}
	if got := loopConns(s); got != n {
		t.Fatalf("the event loop serves %d connections, want %d", got, n)
	}
}

// ask sends a command and reads its reply (read: blocking_test.go).
func ask(t *testing.T, c net.Conn, send, want string) {
	t.Helper()
	if _, err := c.Write([]byte(send)); err != nil {
		t.Fatal(err)
	}
	read(t, c, want)
}

// TestEventLoopHandOver: plain connections are served by the event loop; a subscriber, a
// script and a blocked command get a goroutine of their own, and keep working there.
func TestEventLoopHandOver(t *testing.T) {
	s, addr := start(t, engine.V70)
	a, b, c := dial(t, addr), dial(t, addr), dial(t, addr)
	for _, conn := range []net.Conn{a, b, c} {
		ask(t, conn, cmd("PING"), "+PONG\r\n")
	}
	s.mu.Lock()
	loop := s.loop
	s.mu.Unlock()
	if loop == nil {
		t.Fatal("no event loop on Linux")
	}
	waitLoopConns(t, s, 3)

	want := "*3\r\n$9\r\nsubscribe\r\n$2\r\nch\r\n:1\r\n"
	ask(t, a, cmd("SUBSCRIBE", "ch"), want)
	waitLoopConns(t, s, 2)
	ask(t, b, cmd("PUBLISH", "ch", "hi"), ":1\r\n")
	msg := "*3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$2\r\nhi\r\n"
	read(t, a, msg)

	ask(t, b, cmd("EVAL", "return 7", "0"), ":7\r\n")
	waitLoopConns(t, s, 1)
	ask(t, b, cmd("GET", "nokey"), "$-1\r\n")

	if _, err := c.Write([]byte(cmd("BLPOP", "q", "0"))); err != nil {
		t.Fatal(err)
	}
	waitLoopConns(t, s, 0)
	ask(t, b, cmd("RPUSH", "q", "x"), ":1\r\n")
	reply := "*2\r\n$1\r\nq\r\n$1\r\nx\r\n"
	read(t, c, reply)
}

// TestEventLoopSlowReader: a client that sends without reading its (large) replies gets a
// goroutine when its socket is full, and the loop goes on serving the others.
func TestEventLoopSlowReader(t *testing.T) {
	_, addr := start(t, engine.V70)
	a, b := dial(t, addr), dial(t, addr)
	big := strings.Repeat("x", 4<<20)
	ask(t, a, cmd("SET", "big", big), "+OK\r\n")
	// 64 MiB of replies that a does not read
	if _, err := a.Write([]byte(strings.Repeat(cmd("GET", "big"), 16))); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	ask(t, b, cmd("PING"), "+PONG\r\n")
	// a's replies all arrive once it reads
	head := "$4194304\r\n"
	total := 16 * (len(head) + len(big) + 2)
	buf := make([]byte, 0, total)
	a.SetReadDeadline(time.Now().Add(20 * time.Second))
	chunk := make([]byte, 1<<20)
	for len(buf) < total {
		n, err := a.Read(chunk)
		if err != nil {
			t.Fatalf("after %d of %d bytes: %v", len(buf), total, err)
		}
		buf = append(buf, chunk[:n]...)
	}
	if string(buf[:len(head)]) != head || len(buf) != total {
		t.Fatalf("replies: %d bytes, start %q", len(buf), buf[:len(head)])
	}
}
