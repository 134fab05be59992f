package engine

import (
	"strings"
	"testing"
)

// tickClock advances by step microseconds every time it is read: each command "lasts" step.
type tickClock struct{ us, step int64 }

func (c *tickClock) NowMs() int64 { return c.us / 1000 }
func (c *tickClock) NowUs() int64 { c.us += c.step; return c.us }

func TestSlowlogThresholdAndDuration(t *testing.T) {
	clk := &tickClock{us: StartMs * 1000, step: 5000}
	e := New(Options{Version: V74, Clock: clk})
	e.Do("SET", "a", "1") // 5000 µs < the default 10000: not logged
	if r := e.Do("SLOWLOG", "LEN"); r.Int != 0 {
		t.Fatalf("default threshold logged a 5 ms command: LEN %d", r.Int)
	}
	e.Do("CONFIG", "SET", "slowlog-log-slower-than", "5000") // lasts 5000 µs: logged (>=)
	e.Do("GET", "a")
	r := e.Do("SLOWLOG", "GET")
	if len(r.Array) != 2 {
		t.Fatalf("SLOWLOG GET: %d entries, want 2: %v", len(r.Array), r.FormatCLI())
	}
	get := r.Array[0].Array
	if get[0].Int != 1 || get[2].Int != 5000 || get[3].Array[0].Str != "GET" || get[1].Int != clk.NowMs()/1000 {
		t.Fatalf("newest entry: id %d time %d duration %d args %v", get[0].Int, get[1].Int, get[2].Int, get[3].Array)
	}
	e.Do("CONFIG", "SET", "slowlog-log-slower-than", "5001")
	n := e.Do("SLOWLOG", "LEN").Int
	e.Do("GET", "a")
	if m := e.Do("SLOWLOG", "LEN").Int; m != n {
		t.Fatalf("a 5000 µs command under a 5001 µs threshold was logged: LEN %d -> %d", n, m)
	}
	e.Do("CONFIG", "SET", "slowlog-log-slower-than", "-1")
	e.Do("SLOWLOG", "RESET")
	e.Do("GET", "a")
	if m := e.Do("SLOWLOG", "LEN").Int; m != 0 {
		t.Fatalf("disabled slow log has %d entries", m)
	}
}

func TestSlowlogEntries(t *testing.T) {
	e, _ := newEngineAt(V74)
	c := e.NewClient()
	e.SetClient(c)
	c.SetPeer("127.0.0.1:5000", "lab")
	e.Do("CONFIG", "SET", "slowlog-log-slower-than", "0")
	e.Do("SLOWLOG", "RESET")
	args := []string{"RPUSH", "l"}
	for i := 0; i < 40; i++ {
		args = append(args, strings.Repeat("x", 130))
	}
	e.Do(args...)
	e.Do("MULTI")
	e.Do("INCR", "n")
	e.Do("EXEC")
	r := e.Do("SLOWLOG", "GET", "-1")
	var names []string
	for _, ent := range r.Array {
		names = append(names, ent.Array[3].Array[0].Str)
		if ent.Array[4].Str != "127.0.0.1:5000" || ent.Array[5].Str != "lab" {
			t.Errorf("peer %q name %q", ent.Array[4].Str, ent.Array[5].Str)
		}
	}
	// MULTI is logged by the client's transaction path (multi.go), not dispatch, as call() logs
	// it on redis-server; EXEC is skipped (CMD_SKIP_SLOWLOG) and its INCR logged.
	if got := strings.Join(names, " "); got != "INCR MULTI RPUSH SLOWLOG" {
		t.Fatalf("logged %q, want INCR MULTI RPUSH SLOWLOG (EXEC skipped, its INCR logged)", got)
	}
	rp := r.Array[2].Array[3].Array
	if len(rp) != 32 || rp[31].Str != "... (11 more arguments)" {
		t.Fatalf("RPUSH arguments: %d, last %q", len(rp), rp[len(rp)-1].Str)
	}
	if rp[2].Str != strings.Repeat("x", 128)+"... (2 more bytes)" {
		t.Fatalf("long argument: %q", rp[2].Str)
	}
	if r := e.Do("SLOWLOG", "GET", "-2"); r.Str != "ERR count should be greater than or equal to -1" {
		t.Fatalf("GET -2: %v", r.FormatCLI())
	}
	e.Do("CONFIG", "SET", "slowlog-max-len", "2")
	e.Do("GET", "a")
	if n := e.Do("SLOWLOG", "LEN").Int; n != 2 {
		t.Fatalf("max-len 2: LEN %d", n)
	}
	e.Do("CONFIG", "SET", "masterauth", "pw")
	if a := e.Do("SLOWLOG", "GET", "1").Array[0].Array[3].Array; a[3].Str != "(redacted)" {
		t.Fatalf("CONFIG SET masterauth logged %q", a[3].Str)
	}
	c.ForgetPeer()
	e.Do("GET", "a")
	if ent := e.Do("SLOWLOG", "GET", "1").Array[0].Array; ent[4].Str != "" || ent[5].Str != "" {
		t.Fatalf("forgotten peer still logged: %q %q", ent[4].Str, ent[5].Str)
	}
}

// 7.0 trims the log to slowlog-max-len 0; 7.4 stops before pushing and trimming (#12965).
func TestSlowlogMaxLenZero(t *testing.T) {
	for _, tc := range []struct {
		v    Version
		want int64
	}{{V70, 0}, {V74, 1}} { // 7.4: SLOWLOG RESET stays (CONFIG SET max-len 0 is not logged)
		e, _ := newEngineAt(tc.v)
		e.Do("CONFIG", "SET", "slowlog-log-slower-than", "0")
		e.Do("SLOWLOG", "RESET")
		e.Do("CONFIG", "SET", "slowlog-max-len", "0")
		e.Do("GET", "a")
		if n := e.Do("SLOWLOG", "LEN").Int; n != tc.want {
			t.Errorf("%v: LEN %d, want %d", tc.v, n, tc.want)
		}
	}
}

// A script's commands are logged without the caller's address: "?:0" on 7.0, "" on 7.4.
func TestSlowlogScriptPeer(t *testing.T) {
	for _, tc := range []struct {
		v    Version
		addr string
	}{{V70, "?:0"}, {V74, ""}} {
		e, _ := newEngineAt(tc.v)
		c := e.NewClient()
		e.SetClient(c)
		c.SetPeer("127.0.0.1:7000", "caller")
		e.Do("CONFIG", "SET", "slowlog-log-slower-than", "0")
		e.Do("EVAL", "redis.call('set','s','1') return 1", "0")
		r := e.Do("SLOWLOG", "GET", "2")
		if len(r.Array) != 2 {
			t.Fatalf("%v: %s", tc.v, r.FormatCLI())
		}
		eval, set := r.Array[0].Array, r.Array[1].Array
		if eval[3].Array[0].Str != "EVAL" || eval[4].Str != "127.0.0.1:7000" || eval[5].Str != "caller" {
			t.Errorf("%v: EVAL entry %s", tc.v, r.Array[0].FormatCLI())
		}
		if set[3].Array[0].Str != "set" || set[4].Str != tc.addr || set[5].Str != "" {
			t.Errorf("%v: script's SET entry peer %q name %q, want %q \"\"", tc.v, set[4].Str, set[5].Str, tc.addr)
		}
	}
}
