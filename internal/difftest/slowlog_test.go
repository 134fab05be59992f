package difftest

import (
	"bytes"
	"strings"
	"testing"

	"redscope/engine"
)

// TestSlowlogAgainstRedis runs one connection's commands on redis-server 7.0.15 and on redscope
// with slowlog-log-slower-than 0 (every command logged) and compares every reply byte for byte,
// SLOWLOG GET's entries included once their id, unix time, duration and client address (which
// differ between two servers by nature) are normalised: the entries' order and shape, the
// arguments (trimmed to 32, strings to 128 bytes, CONFIG SET's sensitive values redacted, EXEC
// not logged but its commands), the client name, LEN, RESET, HELP and the error texts.
func TestSlowlogAgainstRedis(t *testing.T) {
	ref, got := freshPair(t)
	long := strings.Repeat("v", 200)
	many := []string{"RPUSH", "l"}
	for i := 0; i < 40; i++ {
		many = append(many, "e")
	}
	script := [][]string{
		{"CONFIG", "SET", "slowlog-log-slower-than", "0"},
		{"CONFIG", "SET", "slowlog-max-len", "128"},
		{"SLOWLOG", "RESET"},
		{"SLOWLOG", "LEN"},
		{"CLIENT", "SETNAME", "lab"},
		{"SET", "a", "b"},
		{"GET", "a"},
		many,
		{"SET", "k", long},
		{"SET", strings.Repeat("k", 129), "x", "EX", "100"},
		{"MULTI"}, {"SET", "x", "1"}, {"INCR", "x"}, {"EXEC"},
		{"CONFIG", "SET", "masterauth", "secret", "maxmemory-samples", "5"},
		{"CONFIG", "SET", "masteruser", "me"},
		{"SLOWLOG", "GET"},
		{"SLOWLOG", "LEN"},
		{"SLOWLOG", "GET", "2"},
		{"SLOWLOG", "GET", "0"},
		{"SLOWLOG", "GET", "-1"},
		{"SLOWLOG", "GET", "-2"},
		{"SLOWLOG", "GET", "x"},
		{"SLOWLOG", "GET", "1", "2"},
		{"SLOWLOG", "LEN", "x"},
		{"SLOWLOG", "FOO"},
		{"SLOWLOG"},
		{"SLOWLOG", "HELP"},
		{"SLOWLOG", "help", "x"},
		{"CONFIG", "SET", "slowlog-max-len", "3"},
		{"SET", "a", "c"},
		{"SLOWLOG", "LEN"},
		{"SLOWLOG", "GET", "-1"},
		{"CONFIG", "SET", "slowlog-max-len", "0"},
		{"SET", "a", "d"},
		{"SLOWLOG", "LEN"},
		{"CONFIG", "SET", "slowlog-max-len", "10"},
		{"SLOWLOG", "RESET"},
		{"CONFIG", "SET", "slowlog-log-slower-than", "-1"},
		{"SET", "a", "e"},
		{"SLOWLOG", "GET"},
		{"CONFIG", "SET", "slowlog-log-slower-than", "1000000"},
		{"SET", "a", "f"},
		{"SLOWLOG", "GET"},
		{"CONFIG", "SET", "slowlog-log-slower-than", "0"},
		{"EVAL", "redis.call('set','s','1') return 1", "0"},
		{"SLOWLOG", "GET", "3"},
		{"CLIENT", "SETNAME", "other"},
		{"DEL", "a"},
		{"SLOWLOG", "GET", "-1"},
	}
	for i, cmd := range script {
		_, rr, err1 := ref.DoStrings(cmd...)
		_, gr, err2 := got.DoStrings(cmd...)
		if err1 != nil || err2 != nil {
			t.Fatalf("%d %q: %v / %v", i, cmd, err1, err2)
		}
		if strings.EqualFold(cmd[0], "slowlog") && len(cmd) >= 2 && strings.EqualFold(cmd[1], "get") {
			rr, gr = normSlowlog(rr), normSlowlog(gr)
		}
		want, have := rr.AppendRESP(nil, 2), gr.AppendRESP(nil, 2)
		if !bytes.Equal(want, have) {
			t.Errorf("%d %q:\nredis:    %q\nredscope: %q", i, cmd, want, have)
		}
	}
}

// normSlowlog zeroes what two servers cannot share in SLOWLOG GET's entries: id, time, duration
// and the client address (kept as "addr" when the server gave a real one).
func normSlowlog(r engine.Reply) engine.Reply {
	if r.Kind != engine.KindArray {
		return r
	}
	out := engine.Reply{Kind: engine.KindArray}
	for _, e := range r.Array {
		if e.Kind == engine.KindArray && len(e.Array) == 6 {
			a := append([]engine.Reply{}, e.Array...)
			a[0], a[1], a[2] = engine.Int(0), engine.Int(0), engine.Int(0)
			if a[4].Str != "" && a[4].Str != "?:0" { // (a script's command: "?:0", kept)
				a[4] = engine.BulkStr("addr")
			}
			e = engine.Reply{Kind: engine.KindArray, Array: a}
		}
		out.Array = append(out.Array, e)
	}
	return out
}
