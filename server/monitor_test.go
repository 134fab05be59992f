package server

import (
	"strings"
	"testing"

	"redscope/engine"
	"redscope/engine/alloc"
)

// fixedUs is an engine clock fixed at a microsecond (the engine asks NowUs when it has one).
type fixedUs struct{ us int64 }

func (c fixedUs) NowMs() int64 { return c.us / 1000 }
func (c fixedUs) NowUs() int64 { return c.us }

// TestMonitorFeed: MONITOR's lines take their time from the engine clock and the sender's
// address; a script's commands follow EVAL as [db lua]; EXEC follows its queue; CLIENT LIST shows
// flag O until RESET (internal/difftest's TestMonitorScript compares the rest with redis-server
// 7.0.15).
func TestMonitorFeed(t *testing.T) {
	_, addr := startEngine(t, engine.New(engine.Options{Version: engine.V74, Allocator: alloc.Jemalloc16, Clock: fixedUs{1700000000000042}}))
	m, c := dial(t, addr), dial(t, addr)
	if got := exchange(t, m, cmd("MONITOR"), 5); got != "+OK\r\n" {
		t.Fatalf("MONITOR: %q", got)
	}
	exchange(t, c, cmd("SELECT", "3"), 5)
	exchange(t, c, cmd("MULTI")+cmd("SET", "k", "a\nb")+cmd("EXEC"), len("+OK\r\n+QUEUED\r\n*1\r\n+OK\r\n"))
	exchange(t, c, cmd("EVAL", "return redis.call('get', KEYS[1])", "1", "k"), len("$3\r\na\nb\r\n"))
	from := "[3 " + c.LocalAddr().String() + "] "
	want := "+1700000000.000042 " + from + `"SELECT" "3"` + "\r\n" +
		"+1700000000.000042 " + from + `"MULTI"` + "\r\n" +
		"+1700000000.000042 " + from + `"SET" "k" "a\nb"` + "\r\n" +
		"+1700000000.000042 " + from + `"EXEC"` + "\r\n" +
		"+1700000000.000042 " + from + `"EVAL" "return redis.call('get', KEYS[1])" "1" "k"` + "\r\n" +
		"+1700000000.000042 [3 lua] " + `"get" "k"` + "\r\n"
	if got := readUntil(t, m, `"get" "k"`+"\r\n"); got != want {
		t.Fatalf("fed:\n%q\nwant\n%q", got, want)
	}
	list := exchange(t, c, cmd("CLIENT", "LIST"), 1)
	list += readUntil(t, c, "\n\r\n")
	if !strings.Contains(list, "flags=O ") {
		t.Fatalf("CLIENT LIST without flag O: %q", list)
	}
	if got := exchange(t, m, cmd("RESET"), 8); got != "+RESET\r\n" {
		t.Fatalf("RESET: %q", got)
	}
	list = exchange(t, c, cmd("CLIENT", "LIST"), 1)
	list += readUntil(t, c, "\n\r\n")
	if strings.Contains(list, "flags=O ") {
		t.Fatalf("flag O after RESET: %q", list)
	}
	if got := exchange(t, m, cmd("GET", "k"), 5); got != "$-1\r\n" { // db 0, and no line after it
		t.Fatalf("GET after RESET: %q", got)
	}
}
