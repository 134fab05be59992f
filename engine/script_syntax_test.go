//go:build !nolua

package engine

import (
	"math/rand"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The messages below were read from redis-server 7.0.15 (Lua 5.1.5) for the same scripts,
// without the "ERR Error compiling script (new function): " prefix. Some of these scripts
// gopher-lua compiles (";", "1e", "\\300", "{1;,2}", goto and labels, the ambiguous call): for
// them EVAL keeps gopher-lua's verdict, the checker is only asked when gopher-lua refuses.
var luaSyntaxCases = []struct{ src, want string }{
	{"x", "user_script:1: '=' expected near '<eof>'"},
	{"local = 3", "user_script:1: '<name>' expected near '='"},
	{"if true then", "user_script:1: 'end' expected near '<eof>'"},
	{"return 'abc", "user_script:1: unfinished string near '<eof>'"},
	{"for i=1 do end", "user_script:1: ',' expected near 'do'"},
	{"if x then\n return 1", "user_script:2: 'end' expected (to close 'if' at line 1) near '<eof>'"},
	{"if x then\n return 1\n", "user_script:3: 'end' expected (to close 'if' at line 1) near '<eof>'"},
	{"return 1..2", "user_script:1: malformed number near '1..2'"},
	{"x = [=a", "user_script:1: invalid long string delimiter near '[='"},
	{"return \"ab\\300\"", "user_script:1: escape sequence too large near '\"ab'"},
	{"return \"\\256\"", "user_script:1: escape sequence too large near '\"'"},
	{"return 'abc\nd'", "user_script:1: unfinished string near ''abc'"},
	{"x = 'abc\rdef'", "user_script:1: unfinished string near ''abc'"},
	{"break", "user_script:1: no loop to break near '<eof>'"},
	{"function f() return ... end", "user_script:1: cannot use '...' outside a vararg function near '...'"},
	{"f()\n(g)()", "user_script:2: ambiguous syntax (function call x new statement) near '('"},
	{"a:b", "user_script:1: function arguments expected near '<eof>'"},
	{"(a) = 1", "user_script:1: syntax error near '='"},
	{"f() = 1", "user_script:1: unexpected symbol near '='"},
	{"x, f() = 1", "user_script:1: syntax error near '='"},
	{"function f(a,", "user_script:1: <name> or '...' expected near '<eof>'"},
	{"for i do end", "user_script:1: '=' or 'in' expected near 'do'"},
	{"return {1, 2\n", "user_script:2: '}' expected (to close '{' at line 1) near '<eof>'"},
	{"return (1\n", "user_script:2: ')' expected (to close '(' at line 1) near '<eof>'"},
	{"repeat\nx = 1\n", "user_script:3: 'until' expected (to close 'repeat' at line 1) near '<eof>'"},
	{"return 1 2", "user_script:1: '<eof>' expected near '2'"},
	{"return 0x", "user_script:1: malformed number near '0x'"},
	{"::a::", "user_script:1: unexpected symbol near ':'"},
	{"goto a ::a::", "user_script:1: '=' expected near 'a'"},
	{"x = y\n(z)()", "user_script:2: ambiguous syntax (function call x new statement) near '('"},
	{"while true do local function f() break end end", "user_script:1: no loop to break near 'end'"},
	{"local function f(...) local function g() return ... end end", "user_script:1: cannot use '...' outside a vararg function near '...'"},
	{"return 1e", "user_script:1: malformed number near '1e'"},
	{"return 5e+", "user_script:1: malformed number near '5e+'"},
	{"return 0x1p4 +", "user_script:1: unexpected symbol near '<eof>'"},
	{";", "user_script:1: unexpected symbol near ';'"},
	{"return 0xA.8", "user_script:1: '<eof>' expected near '.8'"},
	{"return 1e5.5", "user_script:1: '<eof>' expected near '.5'"},
	{"return \x01", "user_script:1: unexpected symbol near 'char(1)'"},
	{"return \x80", "user_script:1: unexpected symbol near '\x80'"},
	{"return 1 [[a\nb]]", "user_script:2: '<eof>' expected near '[[a\nb]]'"},
	{"return [[a [[ b]] +", "user_script:1: unexpected symbol near '<eof>'"},
	{"return [==[ abc", "user_script:1: unfinished long string near '<eof>'"},
	{"--[[\n\n\n", "user_script:4: unfinished long comment near '<eof>'"},
	{"while true do break x = 1 end", "user_script:1: 'end' expected near 'x'"},
	{"return 'a' ..  'b'  'c'", "user_script:1: '<eof>' expected near ''c''"},
	{"function a.b:c.d() end", "user_script:1: '(' expected near '.'"},
	{"return {a = 1 b = 2}", "user_script:1: '}' expected near 'b'"},
	{"return {1; 2,, 3}", "user_script:1: unexpected symbol near ','"},
	{"if x then else elseif y then end", "user_script:1: 'end' expected near 'elseif'"},
	{"function f()\n  local x = 1\n  if x then\n    return x\n", "user_script:5: 'end' expected (to close 'if' at line 3) near '<eof>'"},
	{"return 'a\\\n\\\n' b", "user_script:3: '<eof>' expected near 'b'"},
	{"return " + strings.Repeat("(", 198) + "1", "user_script:1: ')' expected near '<eof>'"},
	{"return " + strings.Repeat("(", 199) + "1", "user_script:1: chunk has too many syntax levels"},
	{strings.Repeat("do ", 199), "user_script:1: 'end' expected near '<eof>'"},
	{strings.Repeat("do ", 200), "user_script:1: chunk has too many syntax levels"},
	{"local " + luaNames(201) + " = 1", "user_script:1: main function has more than 200 local variables"},
	{"local " + luaNames(200) + " = 1 x", "user_script:1: '=' expected near '<eof>'"},
	{"local " + luaNames(197) + "\nfor i = 1, 2 do end", "user_script:2: main function has more than 200 local variables"},
	{"local " + luaNames(196) + "\nfor i = 1, 2 do end x", "user_script:2: '=' expected near '<eof>'"},
	{"x = 1\nfunction t:f(" + luaNames(200) + ") end", "user_script:2: function at line 2 has more than 200 local variables"},
	{"x = 1\nlocal function f(...)\n local " + luaNames(200) + " end", "user_script:3: function at line 2 has more than 200 local variables"},
	{"do local " + luaNames(150) + " end local " + luaNames(150) + " x", "user_script:1: '=' expected near '<eof>'"},
}

// luaNames is "a0,a1,…" with n names.
func luaNames(n int) string {
	names := make([]string, n)
	for i := range names {
		names[i] = "a" + strconv.Itoa(i)
	}
	return strings.Join(names, ",")
}

func TestLuaSyntaxMessages(t *testing.T) {
	for _, c := range luaSyntaxCases {
		if got := luaSyntaxCheck(userScript, c.src); got != c.want {
			t.Errorf("%q:\n got %q\nwant %q", c.src, got, c.want)
		}
	}
}

// Programs Lua 5.1 compiles: the checker must find nothing in them.
func TestLuaSyntaxAcceptsValid(t *testing.T) {
	for _, src := range []string{
		"", "return", "return;", "return 1", "x = 1; y = 2;",
		"local a, b = 1, 2 return a + b * 2 ^ -3 .. 'x' == 'y' and not nil or #{} ~= 0",
		"return function(...) local t = {...} return select('#', ...) end",
		"local t = {1, 2; 3, a = 1, ['b'] = 2, [3] = {}, f = function() end,}",
		"for i = 1, 10, 2 do if i > 5 then break end end",
		"for k, v in pairs({}) do end while false do end repeat local x = 1 until x",
		"local function f(a, b, ...) return ... end function g.h:i(x) return self end",
		"do local x = [==[ a ]] b ]=] ]==] end --[[ comment [[ ]] return 1",
		"return 0x1F + 0xA + 0x1e+5 + 1e10 + .5 + 3. + 1e-3 + 0x1p4",
		"return 'a\\n\\t\\\\\\'\\\"\\065\\0\\255'",
		"x = f{1} .. f'a' .. f[[b]] .. a.b.c:d(1)(2)[3]",
		"redis.call('SET', KEYS[1], ARGV[1])\nreturn redis.call('GET', KEYS[1])",
		"repeat local x = 1; local f = function() return x end until f()",
		"return (f)\n.x",
		"goto = 1 return goto",
		"while true do local function g() end break end",
		"-- only a comment",
		"return 1 --[==[ long\ncomment ]==]",
		"a, b.c, d[1] = 1, 2, 3",
	} {
		if got := luaSyntaxCheck(userScript, src); got != "" {
			t.Errorf("%q: %q", src, got)
		}
	}
}

// luaCompileError: a script gopher-lua refuses gets Lua 5.1's message, in EVAL and FUNCTION LOAD.
func TestLuaSyntaxInEvalAndFunctionLoad(t *testing.T) {
	e := New(Options{Version: V70})
	r := e.Do("EVAL", "if x then\n return 1", "0")
	want := "ERR Error compiling script (new function): user_script:2: 'end' expected (to close 'if' at line 1) near '<eof>'"
	if r.Kind != KindError || r.Str != want {
		t.Errorf("EVAL: %+v", r)
	}
	r = e.Do("FUNCTION", "LOAD", "#!lua name=x\nredis.register_function('f', function() return 1 end)\nlocal = 3")
	want = "ERR Error compiling function: user_function:3: '<name>' expected near '='"
	if r.Kind != KindError || r.Str != want {
		t.Errorf("FUNCTION LOAD: %+v", r)
	}
	// the shebang line counts as line 1
	r = e.Do("EVAL", "#!lua\nreturn (1\n", "0")
	want = "ERR Error compiling script (new function): user_script:3: ')' expected (to close '(' at line 2) near '<eof>'"
	if r.Kind != KindError || r.Str != want {
		t.Errorf("EVAL with shebang: %+v", r)
	}
}

var reLuaSyntaxMsg = regexp.MustCompile(`^user_script:(\d+): [^\n]`)

// Random and mutated scripts: the checker never panics, every message has Lua's shape with a
// line inside the text; the valid seeds are accepted.
func TestLuaSyntaxRandomInput(t *testing.T) {
	seeds := []string{
		"local a, b = 1, 2 return a + b * 2 ^ -3 .. 'x' == 'y' and not nil or #{} ~= 0",
		"for i = 1, 10, 2 do if i > 5 then break elseif i then x = {i, [i] = i; f = function(...) return ... end} end end",
		"local function f(a, ...) return f(a)['x'].y:z\"s\" end while true do repeat until 1 end",
		"return [==[ long ]==] .. 'a\\n\\065' .. \"b\" --[[ c ]] -- d\n",
		"function a.b:c(x) return 0x1F + 1e-3 + .5 end do local t = {} t[1] = t end",
	}
	for _, s := range seeds {
		if got := luaSyntaxCheck(userScript, s); got != "" {
			t.Fatalf("seed %q: %q", s, got)
		}
	}
	alphabet := []byte("abcxyz019 .,;:=<>~+-*/%^#(){}[]'\"\\\n\r\t\x00\x01\x80$!")
	words := []string{"if", "then", "else", "elseif", "end", "for", "in", "do", "while", "repeat",
		"until", "function", "local", "return", "break", "nil", "true", "false", "and", "or",
		"not", "...", "..", "[[", "]]", "[=[", "]=]", "--[[", "--", "0x", "1e", "\\300"}
	rng := rand.New(rand.NewSource(12))
	check := func(src string) {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("%q: panic %v", src, r)
			}
		}()
		msg := luaSyntaxCheck(userScript, src)
		if msg == "" {
			return
		}
		m := reLuaSyntaxMsg.FindStringSubmatch(msg)
		if m == nil {
			t.Fatalf("%q: message %q", src, msg)
		}
		line, _ := strconv.Atoi(m[1])
		if lines := 1 + strings.Count(src, "\n") + strings.Count(src, "\r"); line < 1 || line > lines {
			t.Fatalf("%q: line %d of %d", src, line, lines)
		}
	}
	for i := 0; i < 3000; i++ {
		var b []byte
		switch i % 3 {
		case 0: // random bytes
			for n := rng.Intn(40); n > 0; n-- {
				b = append(b, alphabet[rng.Intn(len(alphabet))])
			}
		case 1: // random words
			for n := rng.Intn(20); n > 0; n-- {
				b = append(b, words[rng.Intn(len(words))]...)
				b = append(b, " \n("[rng.Intn(3)])
			}
		default: // a seed with a few bytes changed, cut or doubled
			b = []byte(seeds[rng.Intn(len(seeds))])
			for n := 1 + rng.Intn(3); n > 0 && len(b) > 0; n-- {
				p := rng.Intn(len(b))
				switch rng.Intn(3) {
				case 0:
					b[p] = alphabet[rng.Intn(len(alphabet))]
				case 1:
					b = b[:p]
				default:
					b = append(b[:p:p], append([]byte(words[rng.Intn(len(words))]), b[p:]...)...)
				}
			}
		}
		check(string(b))
	}
	check(strings.Repeat("(", 5000))
	check(strings.Repeat("-", 5000) + "1")
	check(strings.Repeat("function() ", 300))
	check(strings.Repeat("{", 3000))
}

// Native fuzz target (seeds only under go test): the checker never panics and its messages
// have Lua's shape. Run it by count: go test ./engine -run '^$' -fuzz FuzzLuaSyntax -fuzztime 20000x
func FuzzLuaSyntax(f *testing.F) {
	for _, c := range luaSyntaxCases {
		f.Add(c.src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		msg := luaSyntaxCheck(userScript, src)
		if msg != "" && !reLuaSyntaxMsg.MatchString(msg) {
			t.Fatalf("%q: %q", src, msg)
		}
	})
}
