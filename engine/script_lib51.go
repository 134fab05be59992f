//go:build !nolua

package engine

// Base and string functions where gopher-lua's behaviour is not Lua 5.1's (lbaselib.c,
// lstrlib.c of Lua 5.1.5, as redis-server 7.0.15 runs them), installed over gopher-lua's in both
// interpreters (newLuaVM):
//
//	tonumber('1e1')       10 (gopher-lua: nil); tonumber('  12  ') 12; tonumber('z', 36) 35;
//	                      tonumber('7', 1) "bad argument #2 to 'tonumber' (base out of range)"
//	assert(nil, 42)       "user_script:1: 42" (the message may be a number)
//	string.upper('héllo') "HéLLO": C's toupper byte by byte in the C locale, so only ASCII
//	                      letters change (gopher-lua upper-cases Unicode)
//	string.char(256)      "bad argument #1 to 'char' (invalid value)" (gopher-lua: "\x00")
//	table.concat({1/3})   "0.33333333333333": numbers in Lua's "%.14g" (gopher-lua: Go's shortest
//	                      form, "0.3333333333333333")
//	table.insert({}, 1, 2, 3)  "wrong number of arguments to 'insert'" (gopher-lua inserts)
//	string.len(1/3)       16: a number where a string function wants a string is written
//	                      "%.14g" (luaL_checklstring), also for sub, rep, byte, find, match,
//	                      gmatch, gfind, gsub and reverse (gopher-lua's own functions, called
//	                      with the argument converted)
//	math.fmod(1, 0)       -nan, as glibc's fmod gives on x86-64 (gopher-lua: nan)
//
// Not reproduced (gopher-lua's own, inside its VM): the ".." operator writes numbers in Go's
// shortest form ("x" .. 1/3 is "x0.3333333333333333", Lua "x0.33333333333333"; 1e15 .. "" is
// "1000000000000000", Lua "1e+15"; inf is "+Inf"); "#" of a table with holes can find another
// border than Lua's (#t is 5 for t = {1, 2, 3} then t[5] = 5; Lua: 3); next(t, k) with a key
// not in t answers nil instead of "invalid key to 'next'"; string.dump refuses; malformed
// patterns have gopher-lua's texts ("unexpected EOS at 1" for Lua's "malformed pattern
// (missing ']')").
//
// Compared with redis-server 7.0.15 in testdata/transcripts/diff/scripting.txt.

import (
	"math"

	lua "github.com/yuin/gopher-lua"
)

func installLua51Base(L *lua.LState, real *lua.LTable) {
	real.RawSetString("tonumber", L.NewFunction(luaToNumber))
	real.RawSetString("assert", L.NewFunction(luaAssert))
	str := real.RawGetString("string").(*lua.LTable)
	str.RawSetString("upper", L.NewFunction(luaCaseFn("upper", 'a', 'z', -32)))
	str.RawSetString("lower", L.NewFunction(luaCaseFn("lower", 'A', 'Z', 32)))
	str.RawSetString("char", L.NewFunction(luaStringChar))
	// Argument positions: strings (numbers converted to text), then integers (numeric strings
	// converted to numbers, as luaL_checkint does).
	for name, pos := range map[string][2][]int{"len": {{1}, nil}, "sub": {{1}, {2, 3}}, "rep": {{1}, {2}},
		"byte": {{1}, {2, 3}}, "reverse": {{1}, nil}, "find": {{1, 2}, {3}}, "match": {{1, 2}, {3}},
		"gmatch": {{1, 2}, nil}, "gfind": {{1, 2}, nil}, "gsub": {{1, 2, 3}, {4}}} {
		if f, ok := str.RawGetString(name).(*lua.LFunction); ok && f.IsG {
			str.RawSetString(name, L.NewFunction(luaStringArgs(f.GFunction, pos[0], pos[1])))
		}
	}
	if m, ok := real.RawGetString("math").(*lua.LTable); ok {
		m.RawSetString("fmod", L.NewFunction(luaFmod))
	}
	tbl := real.RawGetString("table").(*lua.LTable)
	tbl.RawSetString("concat", L.NewFunction(luaTableConcat))
	tbl.RawSetString("insert", L.NewFunction(luaTableInsert))
}

// luaCheckTable is luaL_checktype(L, n, LUA_TTABLE).
func luaCheckTable(L *lua.LState, n int, fname string) *lua.LTable {
	if t, ok := L.Get(n).(*lua.LTable); ok {
		return t
	}
	got := "no value"
	if n <= L.GetTop() {
		got = L.Get(n).Type().String()
	}
	luaArgError(L, n, fname, "table expected, got "+got)
	return nil
}

// luaTableConcat is tconcat.
func luaTableConcat(L *lua.LState) int {
	sep := ""
	if L.Get(2) != lua.LNil {
		sep = luaCheckString(L, 2, "concat")
	}
	t := luaCheckTable(L, 1, "concat")
	i := 1
	if L.Get(3) != lua.LNil {
		i = luaCheckInt(L, 3, "concat")
	}
	last := t.Len()
	if L.Get(4) != lua.LNil {
		last = luaCheckInt(L, 4, "concat")
	}
	var b []byte
	for ; i <= last; i++ {
		s, ok := luaStringish(t.RawGetInt(i))
		if !ok {
			L.RaiseError("invalid value (%s) at index %d in table for 'concat'", t.RawGetInt(i).Type().String(), i)
		}
		b = append(b, s...)
		if i < last {
			b = append(b, sep...)
		}
	}
	L.Push(lua.LString(b))
	return 1
}

// luaTableInsert is tinsert: table.insert(t, v) appends, table.insert(t, pos, v) shifts up.
func luaTableInsert(L *lua.LState) int {
	t := luaCheckTable(L, 1, "insert")
	e := t.Len() + 1
	var pos int
	switch L.GetTop() {
	case 2:
		pos = e
	case 3:
		pos = luaCheckInt(L, 2, "insert")
		if pos > e {
			e = pos
		}
		for i := e; i > pos; i-- {
			t.RawSetInt(i, t.RawGetInt(i-1))
		}
	default:
		L.RaiseError("wrong number of arguments to 'insert'")
	}
	t.RawSetInt(pos, L.Get(L.GetTop()))
	return 0
}

// luaToNumber is luaB_tonumber: base 10 reads the text as Lua does (luaO_str2d: strtod, hex
// numerals, surrounding spaces); another base reads it as strtoul would, spaces after it allowed.
func luaToNumber(L *lua.LState) int {
	base := 10
	if L.GetTop() >= 2 && L.Get(2) != lua.LNil {
		base = luaCheckInt(L, 2, "tonumber")
	}
	if base == 10 {
		v := L.CheckAny(1)
		switch x := v.(type) {
		case lua.LNumber:
			L.Push(x)
			return 1
		case lua.LString:
			if f, ok := luaStringToNumber(string(x)); ok {
				L.Push(lua.LNumber(f))
				return 1
			}
		}
		L.Push(lua.LNil)
		return 1
	}
	s := luaCheckString(L, 1, "tonumber")
	if base < 2 || base > 36 {
		luaArgError(L, 2, "tonumber", "base out of range")
	}
	if n, ok := luaStrtoul(s, base); ok {
		L.Push(lua.LNumber(n))
		return 1
	}
	L.Push(lua.LNil)
	return 1
}

// luaStrtoul is strtoul(s, &end, base) that must read at least one digit and leave only spaces:
// leading spaces, a sign (a minus negates as an unsigned long), "0x" for base 16, overflow
// saturating at ULONG_MAX.
func luaStrtoul(s string, base int) (float64, bool) {
	i := 0
	for i < len(s) && luaIsSpace(int(s[i])) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	if base == 16 && i+2 < len(s) && s[i] == '0' && s[i+1]|0x20 == 'x' && luaDigit(s[i+2]) < 16 {
		i += 2
	}
	var n uint64
	over := false
	start := i
	for ; i < len(s); i++ {
		d := luaDigit(s[i])
		if d >= base {
			break
		}
		if n > (^uint64(0)-uint64(d))/uint64(base) {
			over = true
		}
		n = n*uint64(base) + uint64(d)
	}
	if i == start {
		return 0, false
	}
	for i < len(s) && luaIsSpace(int(s[i])) {
		i++
	}
	if i != len(s) {
		return 0, false
	}
	if over {
		return float64(^uint64(0)), true
	}
	if neg {
		n = -n
	}
	return float64(n), true
}

func luaDigit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 10
	}
	return 99
}

// luaAssert is luaB_assert: its values when the first is true, else an error with the message
// (a string or a number, "assertion failed!" without one) and the caller's position.
func luaAssert(L *lua.LState) int {
	v := L.CheckAny(1)
	if lua.LVAsBool(v) {
		return L.GetTop()
	}
	msg := "assertion failed!"
	if L.GetTop() >= 2 && L.Get(2) != lua.LNil {
		msg = luaCheckString(L, 2, "assert")
	}
	L.RaiseError("%s", msg)
	return 0
}

// luaCaseFn is str_upper / str_lower: C's toupper / tolower on each byte (ASCII letters only).
func luaCaseFn(name string, lo, hi byte, delta int) lua.LGFunction {
	return func(L *lua.LState) int {
		s := []byte(luaCheckString(L, 1, name))
		for i, c := range s {
			if c >= lo && c <= hi {
				s[i] = byte(int(c) + delta)
			}
		}
		L.Push(lua.LString(s))
		return 1
	}
}

// luaStringChar is str_char: every argument an integer 0-255.
func luaStringChar(L *lua.LState) int {
	n := L.GetTop()
	b := make([]byte, n)
	for i := 1; i <= n; i++ {
		c := luaCheckInt(L, i, "char")
		if c < 0 || c > 255 {
			luaArgError(L, i, "char", "invalid value")
		}
		b[i-1] = byte(c)
	}
	L.Push(lua.LString(b))
	return 1
}

// luaStringArgs calls a gopher-lua string function with its number arguments at the string
// positions strs written in Lua's "%.14g" and its numeric-string arguments at the integer
// positions ints read as numbers.
func luaStringArgs(f lua.LGFunction, strs, ints []int) lua.LGFunction {
	return func(L *lua.LState) int {
		for _, i := range strs {
			if n, ok := L.Get(i).(lua.LNumber); ok && i <= L.GetTop() {
				L.Replace(i, lua.LString(luaNumberString(n)))
			}
		}
		for _, i := range ints {
			if s, ok := L.Get(i).(lua.LString); ok && i <= L.GetTop() {
				if n, ok := luaStringToNumber(string(s)); ok {
					L.Replace(i, lua.LNumber(n))
				}
			}
		}
		return f(L)
	}
}

// negNaN is the NaN x86-64 produces for an invalid operation (sign bit set: printed "-nan").
var negNaN = math.Float64frombits(0xFFF8000000000000)

// luaFmod is math_fmod: C's fmod, whose invalid cases (x infinite, y zero) give x86-64's
// default NaN.
func luaFmod(L *lua.LState) int {
	x, y := luaCheckNumber(L, 1, "fmod"), luaCheckNumber(L, 2, "fmod")
	r := math.Mod(x, y)
	if math.IsNaN(r) && !math.IsNaN(x) && !math.IsNaN(y) {
		r = negNaN
	}
	L.Push(lua.LNumber(r))
	return 1
}
