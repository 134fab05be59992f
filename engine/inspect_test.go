package engine

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestInspect checks that Inspect reads what TYPE, OBJECT ENCODING, STRLEN, MEMORY USAGE and
// PTTL answer, for strings in both encodings, a HyperLogLog, a hash and a missing key, and that
// reading a key does not expire it or emit events.
func TestInspect(t *testing.T) {
	clock := &ManualClock{Ms: StartMs}
	e := New(Options{Clock: clock, Trace: true})
	reply := func(args ...string) string { return strings.TrimSuffix(e.Do(args...).FormatCLI(), "\n") }
	integer := func(args ...string) int64 {
		n, err := strconv.ParseInt(strings.TrimPrefix(reply(args...), "(integer) "), 10, 64)
		if err != nil {
			t.Fatalf("%v: %q", args, reply(args...))
		}
		return n
	}
	reply("SET", "short", "hello")
	reply("SET", "grown", "hello")
	reply("APPEND", "grown", " world")
	reply("PFADD", "hll", "a", "b", "c")
	reply("HSET", "h", "f", "v")
	reply("SET", "ttl", "x", "PX", "5000")
	for _, key := range []string{"short", "grown", "hll", "h", "ttl"} {
		k := e.Inspect(key)
		if !k.Exists || k.Key != key || k.Type != reply("TYPE", key) || `"`+k.Encoding+`"` != reply("OBJECT", "ENCODING", key) {
			t.Errorf("%s: %+v, TYPE %s, OBJECT ENCODING %s", key, k, reply("TYPE", key), reply("OBJECT", "ENCODING", key))
		}
		if m := integer("MEMORY", "USAGE", key); k.Memory != m {
			t.Errorf("%s: memory %d, MEMORY USAGE %d", key, k.Memory, m)
		}
		if p := integer("PTTL", key); k.TTLMs != p {
			t.Errorf("%s: ttl %d, PTTL %d", key, k.TTLMs, p)
		}
		if k.Type == "string" {
			if n := integer("STRLEN", key); k.Len != n || k.SDS == nil || k.SDS.Len != int(n) {
				t.Errorf("%s: len %d sds %+v, STRLEN %d", key, k.Len, k.SDS, n)
			}
		} else if k.Len != -1 || k.SDS != nil {
			t.Errorf("%s: a %s measured as a string: %+v", key, k.Type, k)
		}
	}
	if k := e.Inspect("short"); k.Encoding != "embstr" || k.SDS.Type != "sds8" || k.SDS.Usable != 0 {
		t.Errorf("short: %+v %+v", k, k.SDS)
	}
	if k := e.Inspect("grown"); k.Encoding != "raw" || k.SDS.Alloc < k.SDS.Len || k.SDS.Avail != k.SDS.Alloc-k.SDS.Len || k.SDS.Usable == 0 {
		t.Errorf("grown: %+v %+v", k, k.SDS)
	}
	if k := e.Inspect("hll"); k.HLL != "sparse" {
		t.Errorf("hll: %q", k.HLL)
	}
	if k := e.Inspect("missing"); k != (KeyInfo{Key: "missing", Type: "none", Len: -1, Memory: -1, TTLMs: -2}) {
		t.Errorf("missing: %+v", k)
	}
	// Past its expiry time the key reads as missing, but Inspect does not delete it: the lazy
	// expiry (and its event) happens at the next command that touches it.
	clock.Advance(6 * time.Second)
	events := len(e.events)
	if k := e.Inspect("ttl"); k.Exists || k.TTLMs != -2 || len(e.events) != events {
		t.Errorf("expired ttl: %+v, events %v", k, e.events[events:])
	}
	res := e.Exec([][]byte{[]byte("EXISTS"), []byte("ttl")})
	expired := false
	for _, ev := range res.Events {
		if k, ok := ev.(KeyEvent); ok && k.Key == "ttl" && k.Action == "expired" {
			expired = true
		}
	}
	if res.Reply.FormatCLI() != "(integer) 0\n" || !expired {
		t.Errorf("EXISTS after expiry: %q, events %v", res.Reply.FormatCLI(), res.Events)
	}
}

// TestEventKey names the key of key events and none for an event about no key.
func TestEventKey(t *testing.T) {
	if k, ok := EventKey(KeyEvent{Key: "a", Action: "created"}); !ok || k != "a" {
		t.Errorf("KeyEvent: %q %v", k, ok)
	}
	if k, ok := EventKey(HLLEvent{Key: "h"}); !ok || k != "h" {
		t.Errorf("HLLEvent: %q %v", k, ok)
	}
	if _, ok := EventKey(nil); ok {
		t.Error("nil event has a key")
	}
}
