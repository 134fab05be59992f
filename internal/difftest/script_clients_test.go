package difftest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestGoRedisScripts drives both servers with go-redis's script helpers: redis.NewScript's Run
// (EVALSHA, then EVAL when the server answers NOSCRIPT), ScriptLoad / ScriptExists / ScriptFlush,
// EvalRO, FunctionLoad / FCall / FCallRO / FunctionList, with the course's cart script. Every
// result and error, as go-redis reports them, must be the same on both.
func TestGoRedisScripts(t *testing.T) {
	sv := freshServers(t)
	ref := goRedisScriptRun(t, sv.ref)
	got := goRedisScriptRun(t, sv.scope)
	if len(ref) != len(got) {
		t.Fatalf("%d vs %d results\nredis-server %q\nredscope     %q", len(ref), len(got), ref, got)
	}
	for i := range ref {
		if ref[i] != got[i] {
			t.Errorf("result %d:\n  redis-server %s\n  redscope     %s", i, ref[i], got[i])
		}
	}
	t.Logf("%d go-redis results compared: %q", len(ref), got)
}

func goRedisScriptRun(t *testing.T, addr string) []string {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rdb := redis.NewClient(&redis.Options{Addr: addr, Protocol: 2})
	defer rdb.Close()
	var out []string
	note := func(v any, err error) {
		if err != nil {
			out = append(out, "error: "+err.Error())
			return
		}
		out = append(out, fmt.Sprintf("%T %v", v, v))
	}
	note(rdb.ScriptFlush(ctx).Result())
	note(rdb.FunctionFlush(ctx).Result())
	note(rdb.Del(ctx, "cart:u42", "doc").Result())

	cart := redis.NewScript("local q = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)\n" +
		"if q <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end\nreturn q")
	note(rdb.ScriptExists(ctx, cart.Hash()).Result())
	note(rdb.HSet(ctx, "cart:u42", "sku-1", 1, "sku-2", 2).Result())
	note(cart.Run(ctx, rdb, []string{"cart:u42"}, "sku-2").Result()) // NOSCRIPT, then EVAL
	note(rdb.ScriptExists(ctx, cart.Hash()).Result())
	note(cart.Run(ctx, rdb, []string{"cart:u42"}, "sku-2").Result()) // EVALSHA
	note(rdb.HGetAll(ctx, "cart:u42").Result())
	note(cart.Run(ctx, rdb, []string{"cart:u42"}, "sku-1").Result())
	note(rdb.Exists(ctx, "cart:u42").Result())

	cas := redis.NewScript("if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('SET', KEYS[1], ARGV[2]) else return false end")
	note(rdb.Set(ctx, "doc", "v1", 0).Result())
	note(cas.Run(ctx, rdb, []string{"doc"}, "v1", "v2").Result())
	note(cas.Run(ctx, rdb, []string{"doc"}, "v1", "v3").Result())
	note(rdb.Get(ctx, "doc").Result())
	note(rdb.ScriptLoad(ctx, "return {1, 2.5, 'x', false, {ok = 'fine'}}").Result())
	note(rdb.EvalSha(ctx, "f0e0f8e3b48a79c3c2b7bd0f5a4e1d1e1e0e1d1e", nil).Result())
	note(rdb.Eval(ctx, "return {1, 2.5, 'x', false, {ok = 'fine'}}", nil).Result())
	note(rdb.Eval(ctx, "return redis.call('INCR', KEYS[1])", []string{"doc"}).Result())
	note(rdb.EvalRO(ctx, "return redis.call('SET', KEYS[1], 'x')", []string{"doc"}).Result())
	note(rdb.EvalRO(ctx, "return redis.call('GET', KEYS[1])", []string{"doc"}).Result())
	note(rdb.Eval(ctx, "return cjson.encode({ARGV[1], tonumber(ARGV[2])})", nil, "a", "7").Result())

	lib := "#!lua name=cart\nredis.register_function{function_name='cart_decr', callback=function(keys, args)\n" +
		"  local q = redis.call('HINCRBY', keys[1], args[1], -1)\n" +
		"  if q <= 0 then redis.call('HDEL', keys[1], args[1]) end\n  return q\nend}\n" +
		"redis.register_function{function_name='cart_get', callback=function(keys) return redis.call('HGET', keys[1], 'sku-1') end, flags={'no-writes'}}"
	note(rdb.FunctionLoad(ctx, lib).Result())
	note(rdb.FunctionLoad(ctx, lib).Result())
	note(rdb.FunctionLoadReplace(ctx, lib).Result())
	note(rdb.HSet(ctx, "cart:u7", "sku-1", 2).Result())
	note(rdb.FCall(ctx, "cart_decr", []string{"cart:u7"}, "sku-1").Result())
	note(rdb.FCallRO(ctx, "cart_get", []string{"cart:u7"}).Result())
	note(rdb.FCallRO(ctx, "cart_decr", []string{"cart:u7"}, "sku-1").Result())
	libs, err := rdb.FunctionList(ctx, redis.FunctionListQuery{LibraryNamePattern: "cart", WithCode: true}).Result()
	if err != nil {
		out = append(out, "error: "+err.Error())
	}
	for _, l := range libs {
		var fns []string
		for _, f := range l.Functions {
			fns = append(fns, f.Name+"["+strings.Join(f.Flags, ",")+"]")
		}
		// The order of a library's functions is the server's dict order: compare them sorted.
		sortStrings(fns)
		out = append(out, l.Name+" "+l.Engine+" "+strings.Join(fns, " ")+" "+fmt.Sprint(l.Code == lib))
	}
	note(rdb.FunctionDelete(ctx, "cart").Result())
	note(rdb.FCall(ctx, "cart_decr", []string{"cart:u7"}, "sku-1").Result())
	return out
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
