//go:build !nolua

package engine

import (
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// The cost of deciding every script with the Lua 5.1 checker, against gopher-lua's own compile
// of the same script (EVAL pays both once per new script; cached scripts pay neither).
var benchScript = strings.Repeat("local q = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)\nif q <= 0 then\n  redis.call('HDEL', KEYS[1], ARGV[1])\nend\n", 8) + "return q"

func BenchmarkLuaSyntaxCheck(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if msg := luaSyntaxError(userScript, benchScript); msg != "" {
			b.Fatal(msg)
		}
	}
}

func BenchmarkLuaGopherCompile(b *testing.B) {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	for i := 0; i < b.N; i++ {
		if _, err := L.Load(strings.NewReader(benchScript), userScript); err != nil {
			b.Fatal(err)
		}
	}
}

// The checker decides before gopher-lua: what gopher-lua alone would compile is refused with
// Lua 5.1's message (compared with redis-server 7.0.15 in testdata/transcripts/diff/scripting.txt).
func TestLuaCompileRefusesWhatLua51Refuses(t *testing.T) {
	e := New(Options{Version: V70})
	for _, c := range []struct{ body, want string }{
		{"goto done ::done:: return 1", "user_script:1: '=' expected near 'done'"},
		{";", "user_script:1: unexpected symbol near ';'"},
		{"return {1;,2}", "user_script:1: unexpected symbol near ','"},
	} {
		want(t, e, "(error) ERR Error compiling script (new function): "+c.want, "EVAL", c.body, "0")
	}
	want(t, e, "(integer) 1", "EVAL", "return 1;", "0")
}

// The whole compile of a new script: Lua 5.1's checker, the parse, the ".." rewrite
// (script_concat.go) and gopher-lua's code generator.
func BenchmarkLuaCompile(b *testing.B) {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	src := benchScript + " .. ':' .. 1/3"
	for i := 0; i < b.N; i++ {
		if _, msg := luaCompile(L, userScript, src); msg != "" {
			b.Fatal(msg)
		}
	}
}
