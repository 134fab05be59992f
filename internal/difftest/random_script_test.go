package difftest

import (
	"crypto/sha1"
	"encoding/hex"
	"strconv"
	"strings"
)

// Scripts in the random sequences: EVAL / EVAL_RO / EVALSHA of bodies made of a few redis.call
// and redis.pcall on the keys of every type the other commands make, returning what the calls
// gave in one of the shapes the Lua → Redis conversion handles (arrays with holes, numbers with
// fractions, status and error tables, booleans, cjson text). Replies of unordered collections
// are sorted inside the script. A script's writes, errors (with their line and SHA1 suffix) and
// replies must be the same on both servers.

// scriptCalls are redis.call templates: %K is KEYS[1], %A is ARGV[1], %N a small integer. No
// SET or APPEND of ARGV: Redis recycles the string objects of small script arguments (luaArgsToRedisArgv's
// cache of 32 objects), so a value SET from a script may keep a larger allocation than a fresh
// one and MEMORY USAGE differ; redscope does not model that cache.
var scriptCalls = []string{
	"'GET', %K", "'INCR', %K", "'INCRBY', %K, %N", "'STRLEN', %K",
	"'TYPE', %K", "'EXISTS', %K", "'DEL', %K", "'EXPIRE', %K, %N", "'TTL', %K", "'PERSIST', %K",
	"'HSET', %K, %A, %N", "'HGET', %K, %A", "'HINCRBY', %K, %A, %N", "'HDEL', %K, %A", "'HLEN', %K",
	"'LPUSH', %K, %A", "'RPUSH', %K, %A, %N", "'LPOP', %K", "'LRANGE', %K, 0, -1", "'LLEN', %K",
	"'SADD', %K, %A, %N", "'SREM', %K, %A", "'SCARD', %K", "'SISMEMBER', %K, %A",
	"'ZADD', %K, %N, %A", "'ZSCORE', %K, %A", "'ZINCRBY', %K, 1.5, %A", "'ZRANGE', %K, 0, -1, 'WITHSCORES'", "'ZCARD', %K",
	"'PFADD', %K, %A", "'SETBIT', %K, %N, 1", "'BITCOUNT', %K", "'OBJECT', 'ENCODING', %K",
	"'NOSUCH', %K", "'GET'", "'SET', %K",
}

// scriptSorted are calls whose array reply has no fixed order: sorted in Lua before use.
var scriptSorted = []string{"'SMEMBERS', %K", "'HGETALL', %K", "'HKEYS', %K", "'SUNION', %K, %K"}

func (g *gen) scriptCall() string {
	if g.chance(6) {
		return "local t = redis.pcall(" + g.pick(scriptSorted...) + ") if type(t) == 'table' and t.err == nil then table.sort(t) end r[#r + 1] = t"
	}
	call := g.pick(scriptCalls...)
	call = strings.ReplaceAll(call, "%N", strconv.Itoa(g.r.IntN(20)-3))
	fn := "redis.pcall"
	if g.chance(4) {
		fn = "redis.call"
	}
	return "r[#r + 1] = " + fn + "(" + call + ")"
}

func (g *gen) scriptReturn() string {
	return g.pick(
		"return r",
		"return r[#r]",
		"return r[1]",
		"return {r[1], nil, r[2]}",
		"return #r",
		"return type(r[1])",
		"return {ok = 'done'}",
		"return {err = 'MYERR custom ' .. #r}",
		"return redis.error_reply('failed')",
		"return redis.status_reply('fine')",
		"return "+g.pick("3.7", "-2.5", "1e3", "0.999", "true", "false", "nil", "''"),
		"local t = {} for i, v in ipairs(r) do if type(v) ~= 'table' then t[#t + 1] = v end end return cjson.encode(t)",
		"local n = 0 for i, v in ipairs(r) do if type(v) == 'number' then n = n + v end end return n / 2",
		"if type(r[1]) == 'table' then return r[1].err or r[1].ok or #r[1] end return tostring(r[1])",
		"error('stopped with ' .. #r .. ' results')",
	)
}

func (g *gen) scriptBody() string {
	var b strings.Builder
	b.WriteString("local r = {}\n")
	for i, n := 0, 1+g.r.IntN(4); i < n; i++ {
		b.WriteString(g.scriptCall())
		b.WriteString("\n")
	}
	b.WriteString(g.scriptReturn())
	body := strings.ReplaceAll(b.String(), "%K", "KEYS[1]")
	return strings.ReplaceAll(body, "%A", "ARGV[1]")
}

func (g *gen) scriptArgs(cmd string) []string {
	return []string{cmd, g.scriptBody(), "1", g.anyKey(), g.pick(g.value(), g.field(), g.element(), "7")}
}

// scriptNonces: per generator, the comment that makes its EVALSHA bodies its own.
var scriptNonces = map[*gen]string{}

func scriptGenCmds() []genCmd {
	return []genCmd{
		{name: "eval", weight: 15, fn: func(g *gen) []string { return g.scriptArgs("EVAL") }},
		{name: "eval_ro", weight: 4, fn: func(g *gen) []string { return g.scriptArgs("EVAL_RO") }},
		{name: "evalsha", weight: 4, fn: func(g *gen) []string {
			// The SHA1 of a body only this run uses (the reference keeps its script cache
			// across tests): SCRIPT LOAD it, or call it, loaded or not.
			nonce, ok := scriptNonces[g]
			if !ok {
				nonce = strconv.FormatUint(g.r.Uint64(), 36)
				scriptNonces[g] = nonce
			}
			body := "-- " + nonce + "\n" + g.pick(
				"return redis.call('INCR', KEYS[1])",
				"return {KEYS[1], ARGV[1], redis.pcall('TYPE', KEYS[1])}",
			)
			if g.chance(3) {
				return []string{"SCRIPT", "LOAD", body}
			}
			sum := sha1.Sum([]byte(body))
			return []string{"EVALSHA", hex.EncodeToString(sum[:]), "1", g.anyKey(), g.value()}
		}},
	}
}
