//go:build !nolua

package engine

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

func evalDo(e *Engine, args ...string) Reply { return e.Do(args...) }

// A runaway script under the logical clock is stopped by the engine after the step bound, even
// when it tries to catch the error with pcall, and the engine keeps answering.
func TestScriptRunawayStopped(t *testing.T) {
	e := New(Options{Version: V70})
	e.SetScriptStepLimit(2_000_000)
	for _, body := range []string{
		"while true do end",
		"while true do pcall(function() while true do end end) end",
		"local i = 0 while true do i = i + 1 end",
	} {
		r := evalDo(e, "EVAL", body, "0")
		if !r.IsError() || !strings.Contains(r.Str, "Script stopped by redscope") || !strings.Contains(r.Str, "script: "+sha1hex(body)+", on @user_script:1.") {
			t.Fatalf("%q: %s", body, r.FormatCLI())
		}
		if got := evalDo(e, "EVAL", "return 7", "0"); got.Kind != KindInt || got.Int != 7 {
			t.Fatalf("after %q: %s", body, got.FormatCLI())
		}
	}
	// A bounded loop below the limit completes.
	if r := evalDo(e, "EVAL", "local n = 0 for i = 1, 100000 do n = n + i end return n", "0"); r.Int != 5000050000 {
		t.Fatalf("sum: %s", r.FormatCLI())
	}
}

// The default bound applies under a logical clock; with the wall clock there is none (SCRIPT KILL
// from another client stops a script there).
func TestScriptStepLimitDefault(t *testing.T) {
	if got := New(Options{}).scriptStepLimit(); got != DefaultScriptStepLimit {
		t.Fatalf("manual clock: %d", got)
	}
	if got := New(Options{Clock: WallClock{}}).scriptStepLimit(); got != 0 {
		t.Fatalf("wall clock: %d", got)
	}
}

// With the wall clock, a script past busy-reply-threshold is "timed out": another goroutine sees
// it, gets the BUSY text and kills it with SCRIPT KILL; a script that wrote cannot be killed.
func TestScriptKillFromAnotherGoroutine(t *testing.T) {
	e := New(Options{Version: V70, Clock: WallClock{}})
	e.Do("CONFIG", "SET", "busy-reply-threshold", "50")
	m := e.ScriptMonitor()
	if r := m.Kill(true); r.Str != "NOTBUSY No scripts in execution right now." {
		t.Fatalf("idle kill: %s", r.FormatCLI())
	}
	var wg sync.WaitGroup
	var res Reply
	wg.Add(1)
	go func() {
		defer wg.Done()
		res = e.Do("EVAL", "while true do end", "0")
	}()
	deadline := time.Now().Add(20 * time.Second)
	for !m.TimedOut() {
		if time.Now().After(deadline) {
			t.Fatal("script never timed out")
		}
		time.Sleep(time.Millisecond)
	}
	if r := m.BusyReply(); r.Str != "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE." {
		t.Fatalf("busy: %s", r.FormatCLI())
	}
	if r := m.Kill(false); r.Str != m.BusyReply().Str {
		t.Fatalf("FUNCTION KILL of an eval: %s", r.FormatCLI())
	}
	if r := m.Kill(true); r.Kind != KindStatus {
		t.Fatalf("kill: %s", r.FormatCLI())
	}
	wg.Wait()
	want := "ERR Script killed by user with SCRIPT KILL... script: " + sha1hex("while true do end") + ", on @user_script:1."
	if res.Str != want {
		t.Fatalf("killed script answered %q", res.Str)
	}

	wg.Add(1)
	go func() {
		defer wg.Done()
		res = e.Do("EVAL", "redis.call('SET', 'k', 'v') while true do end", "0")
	}()
	for !m.TimedOut() {
		time.Sleep(time.Millisecond)
	}
	if r := m.Kill(true); !strings.HasPrefix(r.Str, "UNKILLABLE Sorry the script already executed write commands") {
		t.Fatalf("kill after a write: %s", r.FormatCLI())
	}
	// Let the test end (a SHUTDOWN NOSAVE would, in Redis).
	m.killed.Store(true)
	wg.Wait()
}

// math.random is Redis's rand48 from its start state: a fresh redis-server 7.0.15 answers
// 0.39646477363839 to the first EVAL "return tostring(math.random())" 0.
func TestScriptRand48Start(t *testing.T) {
	e := New(Options{Version: V70})
	if r := e.Do("EVAL", "return tostring(math.random())", "0"); r.Str != "0.39646477363839" {
		t.Fatalf("first random: %s", r.FormatCLI())
	}
	if r := e.Do("EVAL", "return tostring(math.random())", "0"); r.Str != "0.84048536971234" {
		t.Fatalf("second random: %s", r.FormatCLI())
	}
}

// A script's commands are trace events: each redis.call is a ScriptCallEvent after the command's
// own events, between the script's start and end events.
func TestScriptTrace(t *testing.T) {
	e := New(Options{Version: V70, Trace: true})
	e.Do("HSET", "cart:u42", "sku-1", "1", "sku-2", "1")
	body := "local q = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)\nif q <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end\nreturn q"
	res := e.Exec([][]byte{[]byte("EVAL"), []byte(body), []byte("1"), []byte("cart:u42"), []byte("sku-2")})
	if res.Reply.Kind != KindInt || res.Reply.Int != 0 {
		t.Fatalf("reply %s", res.Reply.FormatCLI())
	}
	var calls []ScriptCallEvent
	var kinds []string
	for _, ev := range res.Events {
		kinds = append(kinds, ev.Kind())
		if c, ok := ev.(ScriptCallEvent); ok {
			calls = append(calls, c)
		}
	}
	if len(calls) != 2 || strings.Join(calls[0].Cmd, " ") != "HINCRBY cart:u42 sku-2 -1" || calls[0].Reply.Int != 0 || calls[0].Line != 1 ||
		strings.Join(calls[1].Cmd, " ") != "HDEL cart:u42 sku-2" || calls[1].Reply.Int != 1 || calls[1].Line != 2 {
		t.Fatalf("calls %+v", calls)
	}
	if kinds[0] != "script" || kinds[len(kinds)-1] != "script" {
		t.Fatalf("kinds %v", kinds)
	}
	end := res.Events[len(res.Events)-1].(ScriptEvent)
	if end.Action != "end" || end.Calls != 2 || end.Script != sha1hex(body) {
		t.Fatalf("end %+v", end)
	}
}

// Inside a script time stands still at its start (scriptTimeSnapshot): a key that expires while
// the script runs is still there for the script's commands.
func TestScriptFrozenClock(t *testing.T) {
	clk := &ManualClock{Ms: StartMs}
	e := New(Options{Version: V70, Clock: clk})
	e.Do("SET", "k", "v", "PX", "10")
	e.SetScriptStepLimit(0)
	r := e.Do("EVAL", "local a = redis.call('PTTL', 'k') redis.call('TIME') return a", "0")
	if r.Int != 10 {
		t.Fatalf("pttl %s", r.FormatCLI())
	}
}

// A script that SELECTs leaves the caller's database alone.
func TestScriptSelectDoesNotLeak(t *testing.T) {
	e := New(Options{Version: V70})
	e.Do("EVAL", "redis.call('SELECT', 3) return redis.call('SET', 'x', 1)", "0")
	if e.CurrentDB() != 0 {
		t.Fatalf("db %d", e.CurrentDB())
	}
	e.Do("SELECT", "3")
	if r := e.Do("GET", "x"); r.Str != "1" {
		t.Fatalf("x in db 3: %s", r.FormatCLI())
	}
}

// A script-call guard refuses a command a script runs: redis.call raises the refusal with the
// usual suffix, redis.pcall returns it; other commands run.
func TestScriptCallGuard(t *testing.T) {
	e := New(Options{Version: V70})
	e.SetScriptCallGuard(func(args [][]byte) error {
		if strings.EqualFold(string(args[0]), "getrange") {
			return errors.New("GETRANGE is over the page's limit")
		}
		return nil
	})
	body := "redis.call('SET', 'k', 'v') return redis.call('GETRANGE', 'k', 0, -1)"
	r := e.Do("EVAL", body, "0")
	if r.Str != "ERR GETRANGE is over the page's limit script: "+sha1hex(body)+", on @user_script:1." {
		t.Fatalf("call: %s", r.FormatCLI())
	}
	if r := e.Do("GET", "k"); r.Str != "v" {
		t.Fatalf("the SET before ran: %s", r.FormatCLI())
	}
	if r := e.Do("EVAL", "return redis.pcall('GETRANGE', 'k', 0, -1)", "0"); r.Str != "ERR GETRANGE is over the page's limit" {
		t.Fatalf("pcall: %s", r.FormatCLI())
	}
	e.SetScriptCallGuard(nil)
	if r := e.Do("EVAL", "return redis.call('GETRANGE', 'k', 0, -1)", "0"); r.Str != "v" {
		t.Fatalf("no guard: %s", r.FormatCLI())
	}
}
