package server

import (
	"net"
	"strings"
	"testing"
	"time"

	"redscope/engine"
)

// TestPublishToSelfOrder: a RESP3 connection's message to itself comes before PUBLISH's reply
// in 7.0 (checked against redis-server 7.0.15 by internal/difftest's TestPubsubScript) and after
// the reply of the whole command from 7.2 (Redis 7.4.1's unit/pubsub "publish to self inside
// multi" and "unsubscribe inside multi, and publish to self").
func TestPublishToSelfOrder(t *testing.T) {
	msg := ">3\r\n$7\r\nmessage\r\n$3\r\nfoo\r\n$3\r\nbar\r\n"
	sub := ">3\r\n$9\r\nsubscribe\r\n$3\r\nfoo\r\n:1\r\n"
	for _, tc := range []struct {
		v         engine.Version
		publish   string
		multiExec string
	}{
		{engine.V70, msg + ":1\r\n", msg + "*1\r\n:1\r\n"},
		{engine.V74, ":1\r\n" + msg, "*1\r\n:1\r\n" + msg},
	} {
		c := startConn(t, tc.v)
		c.Write([]byte("HELLO 3\r\nPING\r\n"))
		readUntil(t, c, "+PONG\r\n")
		if got := exchange(t, c, cmd("SUBSCRIBE", "foo"), len(sub)); got != sub {
			t.Fatalf("%v: SUBSCRIBE: %q", tc.v, got)
		}
		if got := exchange(t, c, cmd("PUBLISH", "foo", "bar"), len(tc.publish)); got != tc.publish {
			t.Fatalf("%v: PUBLISH to self: %q, want %q", tc.v, got, tc.publish)
		}
		want := "+OK\r\n+QUEUED\r\n" + tc.multiExec
		if got := exchange(t, c, cmd("MULTI")+cmd("PUBLISH", "foo", "bar")+cmd("EXEC"), len(want)); got != want {
			t.Fatalf("%v: MULTI/PUBLISH/EXEC to self: %q, want %q", tc.v, got, want)
		}
	}
}

// readUntil reads c until what it got ends with suffix.
func readUntil(t *testing.T, c net.Conn, suffix string) string {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	var got []byte
	buf := make([]byte, 4096)
	for !strings.HasSuffix(string(got), suffix) {
		n, err := c.Read(buf)
		got = append(got, buf[:n]...)
		if err != nil {
			t.Fatalf("reading for %q: %v (got %q)", suffix, err, got)
		}
	}
	return string(got)
}
