package difftest

import (
	"testing"
	"time"

	"redscope/engine"
	"redscope/internal/transcript"
)

// TestScriptBusyAndKill runs a runaway script on one connection of each server (redis-server
// 7.0.15 and redscope's RESP server) and, from a second connection, waits for the BUSY answer,
// tries FUNCTION KILL (the wrong kind), then SCRIPT KILL; the first connection then gets the
// killed script's error. Every reply must be the same on both servers.
func TestScriptBusyAndKill(t *testing.T) {
	addr := realRedis(t)
	checkRealVersion(t, addr)
	srv, scopeAddr := scopeServer(t)
	srv.SetEngine(newEngine70())
	ref := busyScenario(t, "redis-server", addr)
	got := busyScenario(t, "redscope", scopeAddr)
	if len(ref) != len(got) {
		t.Fatalf("redis-server %q\nredscope     %q", ref, got)
	}
	for i := range ref {
		if ref[i] != got[i] {
			t.Errorf("step %d:\n  redis-server %q\n  redscope     %q", i, ref[i], got[i])
		}
	}
	t.Logf("%d replies compared: %q", len(ref), ref)
}

func busyScenario(t *testing.T, who, addr string) []string {
	t.Helper()
	dial := func() *transcript.Conn {
		c, err := transcript.Dial(addr)
		if err != nil {
			t.Fatalf("%s: %v", who, err)
		}
		return c
	}
	a, b := dial(), dial()
	defer a.Close()
	defer b.Close()
	var out []string
	do := func(c *transcript.Conn, args ...string) engine.Reply {
		_, r, err := c.DoStrings(args...)
		if err != nil {
			t.Fatalf("%s %v: %v", who, args, err)
		}
		return r
	}
	out = append(out, do(b, "SCRIPT", "KILL").FormatCLI())
	do(b, "CONFIG", "SET", "busy-reply-threshold", "100")
	defer do(b, "CONFIG", "SET", "busy-reply-threshold", "5000")

	body := "local i = 0 while true do i = i + 1 end"
	if err := a.Send([][]byte{[]byte("EVAL"), []byte(body), []byte("0")}); err != nil {
		t.Fatal(err)
	}
	if err := a.Flush(); err != nil {
		t.Fatal(err)
	}
	// Wait for BUSY: before the threshold the server does not answer the second connection.
	deadline := time.Now().Add(30 * time.Second)
	var busy engine.Reply
	for {
		busy = do(b, "PING")
		if busy.IsError() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: never BUSY (last %s)", who, busy.FormatCLI())
		}
		time.Sleep(10 * time.Millisecond)
	}
	out = append(out, busy.FormatCLI())
	out = append(out, do(b, "GET", "k").FormatCLI())
	out = append(out, do(b, "FUNCTION", "KILL").FormatCLI())
	out = append(out, do(b, "SCRIPT", "KILL").FormatCLI())
	_, r, err := a.Receive()
	if err != nil {
		t.Fatalf("%s: %v", who, err)
	}
	out = append(out, r.FormatCLI())
	out = append(out, do(a, "PING").FormatCLI(), do(b, "SCRIPT", "KILL").FormatCLI())
	return out
}
