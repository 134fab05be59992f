package difftest

import (
	"testing"
	"time"

	"redscope/engine"
	"redscope/internal/transcript"
)

// TestScriptBusyAndKill runs a runaway script (EVAL, then a function through FCALL) on one
// connection of each server (redis-server 7.0.15 and redscope's RESP server) and, from a second
// connection, waits for the BUSY answer, asks FUNCTION STATS, tries the wrong kill (FUNCTION KILL
// for an EVAL, SCRIPT KILL for a function), then the right one; the first connection then gets
// the killed script's error. Every reply must be the same on both servers.
func TestScriptBusyAndKill(t *testing.T) {
	sv := startServers(t)
	ref := busyScenario(t, "redis-server", sv.ref, false)
	got := busyScenario(t, "redscope", sv.scope, false)
	ref = append(ref, busyScenario(t, "redis-server", sv.ref, true)...)
	got = append(got, busyScenario(t, "redscope", sv.scope, true)...)
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

// busyScenario runs the runaway script as EVAL, or as a function (FCALL) when function is set.
func busyScenario(t *testing.T, who, addr string, function bool) []string {
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
	send := [][]byte{[]byte("EVAL"), []byte(body), []byte("0")}
	if function {
		out = append(out, do(b, "FUNCTION", "LOAD", "REPLACE", "#!lua name=busylib\nredis.register_function('spin', function(keys, args)\n  "+body+"\nend)").FormatCLI())
		send = [][]byte{[]byte("FCALL"), []byte("spin"), []byte("0")}
		defer do(b, "FUNCTION", "DELETE", "busylib")
	}
	if err := a.Send(send); err != nil {
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
	stats := do(b, "FUNCTION", "STATS")
	if len(stats.Array) == 4 && len(stats.Array[1].Array) == 6 {
		stats.Array[1].Array[5] = engine.Int(0) // duration_ms: wall time
	}
	out = append(out, stats.FormatCLI())
	first, second := "FUNCTION", "SCRIPT" // the wrong kill first
	if function {
		first, second = "SCRIPT", "FUNCTION"
	}
	out = append(out, do(b, first, "KILL").FormatCLI())
	out = append(out, do(b, second, "KILL").FormatCLI())
	_, r, err := a.Receive()
	if err != nil {
		t.Fatalf("%s: %v", who, err)
	}
	out = append(out, r.FormatCLI())
	out = append(out, do(a, "PING").FormatCLI(), do(b, second, "KILL").FormatCLI())
	return out
}
