//go:build !nolua

package engine

import (
	"strings"
	"testing"
)

// FuzzScriptBody runs mutated Lua bodies as EVAL scripts and as a function library, with a small
// step bound, on a fresh engine each: no reply may be the internal-error reply (a Go panic
// inside the interpreter or redscope's Lua glue), and the engine must answer afterwards.
// Run it by count: go test ./engine -run '^$' -fuzz FuzzScriptBody -fuzztime 20000x
func FuzzScriptBody(f *testing.F) {
	for _, s := range []string{
		"return 1",
		"return {1, 2, nil, 3}",
		"return redis.call('SET', KEYS[1], ARGV[1])",
		"local q = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)\nif q <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end\nreturn q",
		"return redis.pcall('INCR', KEYS[1])",
		"return cjson.encode({a = {1, 2, {b = 'c'}}})",
		"return cjson.decode('[1, {\"a\": null}, \"\\\\u00e9\"]')",
		"return {bit.band(7, 3), bit.tohex(-1), bit.lshift(1, 40)}",
		"error({err = 'X y'})",
		"x = 1",
		"return redis.status_reply(redis.sha1hex('a'))",
		"local t = {} t[1] = t return t",
		"while true do end",
		"local function f() return f() end return f()",
		"math.randomseed(3) return math.random(1, 10)",
		"return loadstring('return ' .. ARGV[1])()",
		"redis.register_function('f', function(keys, args) return redis.call('GET', keys[1]) end)",
		"#!lua flags=no-writes\nreturn redis.call('GET', KEYS[1])",
		"return {struct.unpack('>I2bc0s', struct.pack('>I2bc0s', 258, 3, 'abc', 'z'))}",
		"return cmsgpack.unpack(cmsgpack.pack(1, -40000, 1.5, 'x', {1, {a = 2}}, true))",
		"return {cmsgpack.unpack_limit(ARGV[1], 2, 1)}",
		"return string.format('%5.2f|%-3d|%q|%#x|%g', 1/3, 7, ARGV[1], 255, 1e300)",
		"local t = nil return t.x .. redis.cal(ARGV[1])",
	} {
		f.Add(s, "k", "v")
	}
	f.Fuzz(func(t *testing.T, body, key, arg string) {
		if len(body) > 2048 || strings.Contains(body, "rep") {
			return // string.rep can ask for gigabytes, as it can on a real server
		}
		e := New(Options{Version: V70})
		e.SetScriptStepLimit(200_000)
		e.Do("SET", "k", "v")
		e.Do("HSET", "h", "f", "1")
		for _, args := range [][]string{
			{"EVAL", body, "1", key, arg},
			{"EVAL_RO", body, "0", arg},
			{"SCRIPT", "LOAD", body},
			{"FUNCTION", "LOAD", "#!lua name=fz\n" + body},
			{"FCALL", "f", "1", key, arg},
		} {
			r := e.Do(args...)
			if bad := internalError(r); bad != "" {
				t.Fatalf("%s: %q\n  body %q", args[0], bad, body)
			}
			_ = r.AppendRESP2(nil)
		}
		if r := e.Do("EVAL", "return 1", "0"); r.Kind != KindInt || r.Int != 1 {
			t.Fatalf("after %q: %s", body, r.FormatCLI())
		}
	})
}
