package server

import (
	"strings"
	"testing"

	"redscope/engine"
)

// TestTrackingTableLimit: with tracking-table-max-keys below the number of keys remembered, the
// next command first invalidates keys (in key order here; Redis walks its radix tree at random,
// which is why internal/difftest's transcript cannot pin the choice) until the table fits, as
// Redis 7.4.1's unit/tracking "Tracking gets notification on tracking table key eviction" waits
// for. The RESP3 client gets the pushes before the reply of the command that found the table
// too big.
func TestTrackingTableLimit(t *testing.T) {
	c := startConn(t, engine.V74)
	c.Write([]byte("HELLO 3\r\nPING\r\n"))
	readUntil(t, c, "+PONG\r\n")
	c.Write([]byte(cmd("CLIENT", "TRACKING", "on") + cmd("MGET", "k1", "k2", "k3") + cmd("PING", "x")))
	readUntil(t, c, "$1\r\nx\r\n")
	c.Write([]byte(cmd("INFO", "stats") + cmd("PING", "y")))
	if got := readUntil(t, c, "$1\r\ny\r\n"); !strings.Contains(got, "tracking_total_keys:3\r\ntracking_total_items:3\r\n") {
		t.Fatalf("INFO before the limit: %q", got)
	}
	c.Write([]byte(cmd("CONFIG", "SET", "tracking-table-max-keys", "1") + cmd("PING", "z")))
	want := "+OK\r\n" + ">2\r\n$10\r\ninvalidate\r\n*1\r\n$2\r\nk1\r\n" +
		">2\r\n$10\r\ninvalidate\r\n*1\r\n$2\r\nk2\r\n" + "$1\r\nz\r\n"
	if got := readUntil(t, c, "$1\r\nz\r\n"); got != want {
		t.Fatalf("after CONFIG SET tracking-table-max-keys 1:\n got %q\nwant %q", got, want)
	}
	c.Write([]byte(cmd("INFO", "stats") + cmd("PING", "w")))
	if got := readUntil(t, c, "$1\r\nw\r\n"); !strings.Contains(got, "tracking_total_keys:1\r\ntracking_total_items:1\r\n") {
		t.Fatalf("INFO after the limit: %q", got)
	}
}
