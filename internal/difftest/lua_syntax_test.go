package difftest

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
)

// Lua compile errors on random scripts: valid scripts with a few bytes cut, inserted or
// replaced are loaded with SCRIPT LOAD (compiled, never run) on redis-server 7.0.15 and on
// redscope. Whenever redscope refuses a script, its reply — Lua 5.1's message re-derived by
// engine/script_syntax.go, with line and token — must be the server's bytes; scripts both
// accept must get the same SHA1. gopher-lua alone would accept a few scripts Lua 5.1 refuses (an
// empty statement ";", "{1;,2}", "1e-", "1return"); the checker decides for every script, so
// none may be accepted by redscope only.
func TestDiffLuaSyntaxRandom(t *testing.T) {
	_, scopeAddr := scopeServer(t)
	ref, scope := dialPair(t, realRedis(t), scopeAddr)
	defer ref.DoStrings("SCRIPT", "FLUSH")

	seeds := []string{
		"local a, b = 1, 2 return a + b * 2 ^ -3 .. 'x' == 'y' and not nil or #{} ~= 0",
		"for i = 1, 10, 2 do if i > 5 then break elseif i then x = {i, [i] = i; f = function(...) return ... end} end end",
		"local function f(a, ...) return f(a)['x'].y:z\"s\" end while true do repeat until 1 end",
		"return [==[ long ]==] .. 'a\\n\\065' .. \"b\" --[[ c ]] -- d\n",
		"function a.b:c(x)\n return 0x1F + 1e-3 + .5\n end\n do local t = {}\n t[1] = t end",
		"local q = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)\nif q <= 0 then\n  redis.call('HDEL', KEYS[1], ARGV[1])\nend\nreturn q",
		"for k, v in pairs({a = 1}) do\n  while k do\n    k = nil\n  end\nend\nreturn (function(...) return select('#', ...) end)(1, 2)",
	}
	words := []string{"if", "then", "else", "elseif", "end", "for", "in", "do", "while", "repeat",
		"until", "function", "local", "return", "break", "nil", "and", "or", "not", "...", "..",
		"(", ")", "{", "}", "[", "]", "=", ",", ";", ":", ".", "'", "\"", "[[", "]]", "--", "\n",
		"x", "1", "\\", "[=", "0x", "1e"}
	rng := rand.New(rand.NewPCG(2026, 12))
	compared, accepted, lenient := 0, 0, 0
	for i := 0; i < 800; i++ {
		b := []byte(seeds[rng.IntN(len(seeds))])
		for n := 1 + rng.IntN(3); n > 0; n-- {
			if len(b) == 0 {
				b = append(b, 'x')
			}
			p := rng.IntN(len(b))
			w := words[rng.IntN(len(words))]
			switch rng.IntN(3) {
			case 0:
				b = append(b[:p:p], b[min(len(b), p+1+rng.IntN(4)):]...)
			case 1:
				b = append(b[:p:p], append([]byte(w), b[p:]...)...)
			default:
				b = append(b[:p:p], append([]byte(w+" "+words[rng.IntN(len(words))]), b[p:]...)...)
			}
		}
		script := string(b)
		rawRef, rRef, err := ref.DoStrings("SCRIPT", "LOAD", script)
		if err != nil {
			t.Fatal(err)
		}
		rawScope, rScope, err := scope.DoStrings("SCRIPT", "LOAD", script)
		if err != nil {
			t.Fatal(err)
		}
		refErr := bytes.HasPrefix(rawRef, []byte("-ERR Error compiling script"))
		scopeErr := bytes.HasPrefix(rawScope, []byte("-ERR Error compiling script"))
		switch {
		case refErr && !scopeErr:
			lenient++
			t.Logf("gopher-lua accepts what Lua 5.1 refuses: %q: %s", script, strings.TrimSpace(rRef.Str))
			continue
		case scopeErr:
			compared++
		default:
			accepted++
		}
		if !bytes.Equal(rawRef, rawScope) {
			t.Errorf("SCRIPT LOAD %q\n  redis-server: %q\n  redscope:     %q (%v)", script, rawRef, rawScope, rScope.Str)
		}
	}
	t.Logf("%d compile errors identical, %d scripts accepted by both, %d accepted by gopher-lua only", compared, accepted, lenient)
	if compared < 400 {
		t.Errorf("only %d compile errors compared", compared)
	}
	if lenient > 0 {
		t.Errorf("%d scripts compiled by redscope that redis-server refuses", lenient)
	}
}
