//go:build !nolua

package engine

// Lua scripting: the interpreter, Redis's sandbox, redis.call/pcall and the conversions between
// Redis replies and Lua values, as Redis 7.0.15 has them (script_lua.c, script.c, eval.c); the
// commands are in cmd_script.go (EVAL, SCRIPT) and function.go (FUNCTION, FCALL), their entries
// in the command table in script_commands.go; the state every build has (the monitor, the running
// script) in script_state.go; the libraries in script_cjson.go, script_bit.go, script_struct.go
// and script_cmsgpack.go.
//
// The interpreter is gopher-lua, a Lua 5.1 in Go. Redis keeps one lua_State for EVAL scripts and
// one for function libraries; so does redscope (luaVM). In each:
//
//   - The globals are locked once set up. Reading a global that does not exist raises "Script
//     attempted to access nonexistent global variable 'x'", assigning one raises "Attempt to
//     modify a readonly table". Redis patches Lua with read-only tables; gopher-lua has none, so
//     scripts see a proxy: an empty table whose __index is the real globals table and whose
//     __newindex raises. rawset and setmetatable refuse the protected tables too. The library
//     tables (string, math, table, coroutine, os, cjson, bit, struct, cmsgpack, redis) are
//     protected the same way. next, pairs, ipairs, rawget and getmetatable see through a proxy
//     to the table it protects, so pairs(_G) lists the 35 globals of Redis's EVAL state
//     (KEYS, ARGV and __redis__err__handler included) and pairs(string) string's 15 functions,
//     as on redis-server; getmetatable(string) is nil, getmetatable(_G) the globals' guard.
//   - What a script can reach is Redis 7.0.15's allow list as Debian's build has it: base
//     functions without print, dofile, loadfile, require, module, getfenv, setfenv and newproxy;
//     string, table, math (math.random / math.randomseed replaced by Redis's rand48, below),
//     coroutine, cjson, bit, struct, cmsgpack and the redis table; from 7.4 also os with only
//     os.clock. No io, debug, package.
//   - Every EVAL script is compiled once into a function kept by its SHA1 (the script cache,
//     SCRIPT LOAD / EXISTS / FLUSH). KEYS and ARGV are globals set before each run; a function
//     receives them as arguments.
//
// Conversions (luaReplyToRedisReply, redisProtocolToLuaType):
//
//	Redis → Lua: integer → number; bulk → string; nil bulk / nil array → false; array → table;
//	             status → {ok=…}; error → {err="CODE msg"} (raised by redis.call).
//	Lua → Redis: number → integer (truncated: 3.99 → 3, -3.99 → -3; inf/nan → -2^63);
//	             string → bulk; true → 1; false / nil → nil bulk; table with err → error;
//	             with ok → status; with double → bulk of %.17g (RESP2); map / set → flat array;
//	             any other table → array of t[1], t[2]… up to the first nil.
//
// Errors carry Redis's suffix: "<err> script: <sha or function name>, on @user_script:<line>."
// (luaCallFunction with the __redis__err__handler information: the line of the Lua code that
// called the failing C function, or of the failing Lua code). gopher-lua words its own errors
// differently from Lua 5.1; the handler rewrites them: run-time type errors with the variable at
// fault (script_varinfo.go), "got no value" for missing arguments, quoted function names,
// "attempt to concatenate a table value"… Every new script is first read by Lua 5.1's syntax
// checker (script_syntax.go), which decides: what gopher-lua would also accept (goto, ";",
// "{1;,2}") gets Lua 5.1's compile error. string.format is Lua 5.1's (script_format.go), so are
// tonumber, assert, string.upper/lower/char, table.concat/insert/setn (script_lib51.go) and the
// ".." operator (script_concat.go: a script's concatenations are compiled as calls that write
// numbers in "%.14g"); the other library functions gopher-lua implements keep its behaviour
// where it differs (string.rep…, a method call's argument count is corrected in their errors;
// "#" of a table with holes, pattern error texts).
// Numbers become strings in Lua 5.1's "%.14g" in tostring and "..", "%.17g" as redis.call
// arguments and in cjson.
//
// Not modelled: redis.setresp(3) is accepted but replies still reach Lua converted from RESP2;
// Redis's cache of 32 argument objects (luaArgsToRedisArgv), whose reuse can leave a value SET by
// a script with a larger allocation than a fresh one (MEMORY USAGE); SCRIPT DEBUG YES|SYNC; the
// member order of tables (cjson objects, map replies) follows gopher-lua, not C Lua's hash.
//
// Time: a script's commands see the time frozen at the script's start (scriptTimeSnapshot). A
// script runs until it returns: there is no limit on its own. Redis checks every 100000 Lua
// instructions whether busy-reply-threshold (lua-time-limit, 5000 ms) has passed; from then on
// other clients are answered BUSY and SCRIPT KILL (from another connection) stops it unless it
// already wrote. redscope does the same against the real clock (ScriptMonitor, used by the RESP
// server). With a logical clock (lessons, the browser, tests) no time passes and no other client
// exists, so the engine stops a script itself after DefaultScriptStepLimit instructions (10
// million, SetScriptStepLimit changes it) with "ERR Script stopped by redscope: still running
// after 10000000 Lua instructions, …" and the usual suffix; pcall cannot catch it (every
// instruction after the bound raises again, as Redis's hook does after SCRIPT KILL). A killed
// script answers Redis's "ERR Script killed by user with SCRIPT KILL..." with the suffix.

import (
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"time"

	lua "github.com/yuin/gopher-lua"
)

// scriptHookEvery is Redis's count hook period (lua_sethook … LUA_MASKCOUNT, 100000).
const scriptHookEvery = 100_000

// hasLua: this build runs scripts (HasLua).
const hasLua = true

type evalScript struct {
	body  string
	fn    *lua.LFunction
	flags scriptFlags
}

// Script flags (the shebang's flags= and register_function's flags).
type scriptFlags uint8

const (
	sfNoWrites scriptFlags = 1 << iota
	sfAllowOOM
	sfAllowStale
	sfNoCluster
	sfAllowCrossSlot
	sfCompat // an EVAL script without a shebang
)

var scriptFlagNames = []struct {
	f    scriptFlags
	name string
}{{sfNoWrites, "no-writes"}, {sfAllowOOM, "allow-oom"}, {sfAllowStale, "allow-stale"},
	{sfNoCluster, "no-cluster"}, {sfAllowCrossSlot, "allow-cross-slot-keys"}}

// ---------------------------------------------------------------------------------------------
// rand48: Redis's math.random (rand.c redisLrand48): the 48-bit linear congruential generator
// x' = 0x5DEECE66D·x + 0xB mod 2^48, starting at 0x1234ABCD330E when the server starts and
// never reseeded by the server, so that the same sequence of scripts gives the same numbers.

func (s *scriptState) lrand48() int32 {
	s.rand48 = (0x5DEECE66D*s.rand48 + 0xB) & (1<<48 - 1)
	return int32(s.rand48 >> 17)
}

func (s *scriptState) srand48(seed int32) {
	s.rand48 = uint64(uint32(seed))<<16 | 0x330E
}

// ---------------------------------------------------------------------------------------------
// The interpreter.

type luaVM struct {
	L        *lua.LState
	real     *lua.LTable // the globals
	proxy    *lua.LTable // what scripts see as _G
	readonly map[*lua.LTable]bool
	unwrap   map[*lua.LTable]*lua.LTable // proxy → the table it protects
	concat   *lua.LFunction              // luaConcat51, the global luaConcatName
	handler  *lua.LFunction
	step     *stepCtx
	eval     bool
}

const userScript = "user_script"

var allowedGlobals = []string{
	"xpcall", "tostring", "setmetatable", "next", "assert", "tonumber", "rawequal",
	"collectgarbage", "getmetatable", "rawset", "pcall", "coroutine", "type", "_G", "select",
	"unpack", "gcinfo", "pairs", "rawget", "loadstring", "ipairs", "_VERSION", "load", "error",
	"string", "math", "table",
}

// newLuaVM builds an interpreter with Redis's libraries and sandbox. eval is the EVAL one
// (KEYS/ARGV globals, redis.replicate_commands); the functions one gets register_function when
// loading (function.go).
func (e *Engine) newLuaVM(eval bool) *luaVM {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	vm := &luaVM{L: L, readonly: map[*lua.LTable]bool{}, unwrap: map[*lua.LTable]*lua.LTable{}, eval: eval}
	for _, lib := range []struct {
		name string
		fn   lua.LGFunction
	}{{lua.BaseLibName, lua.OpenBase}, {lua.TabLibName, lua.OpenTable}, {lua.StringLibName, lua.OpenString},
		{lua.MathLibName, lua.OpenMath}, {lua.CoroutineLibName, lua.OpenCoroutine}} {
		L.Push(L.NewFunction(lib.fn))
		L.Push(lua.LString(lib.name))
		L.Call(1, 0)
	}
	real := L.Get(lua.GlobalsIndex).(*lua.LTable)
	vm.real = real
	keep := map[string]bool{}
	for _, n := range allowedGlobals {
		keep[n] = true
	}
	var drop []string
	real.ForEach(func(k, _ lua.LValue) {
		if s, ok := k.(lua.LString); !ok || !keep[string(s)] {
			drop = append(drop, k.String())
		}
	})
	for _, k := range drop {
		real.RawSetString(k, lua.LNil)
	}
	// Lua 5.1 functions gopher-lua leaves out.
	real.RawSetString("gcinfo", L.NewFunction(func(L *lua.LState) int { L.Push(lua.LNumber(0)); return 1 }))
	tbl := real.RawGetString("table").(*lua.LTable)
	tbl.RawSetString("foreach", L.NewFunction(luaTableForeach(false)))
	tbl.RawSetString("foreachi", L.NewFunction(luaTableForeach(true)))
	// Lua 5.1 built without LUA_COMPAT_GETN (ltablib.c setn).
	tbl.RawSetString("setn", L.NewFunction(func(L *lua.LState) int {
		L.RaiseError("'setn' is obsolete")
		return 0
	}))
	real.RawSetString("tostring", L.NewFunction(luaToStringFn))
	real.RawGetString("string").(*lua.LTable).RawSetString("format", L.NewFunction(luaStringFormat))
	real.RawSetString("error", L.NewFunction(luaErrorFn))
	installLua51Base(L, real) // script_lib51.go
	math := real.RawGetString("math").(*lua.LTable)
	math.RawSetString("huge", lua.LNumber(mathInf))
	for _, mm := range []struct {
		name string
		less bool
	}{{"max", false}, {"min", true}} {
		mm := mm
		math.RawSetString(mm.name, L.NewFunction(func(L *lua.LState) int {
			best := luaCheckNumber(L, 1, mm.name)
			for i := 2; i <= L.GetTop(); i++ {
				v := luaCheckNumber(L, i, mm.name)
				if (mm.less && v < best) || (!mm.less && v > best) {
					best = v
				}
			}
			L.Push(lua.LNumber(best))
			return 1
		}))
	}
	math.RawSetString("random", L.NewFunction(func(L *lua.LState) int { return e.luaMathRandom(L) }))
	math.RawSetString("randomseed", L.NewFunction(func(L *lua.LState) int {
		if e.lua == nil || e.lua.run == nil {
			L.RaiseError("math.randomseed can only be called inside a script invocation")
		}
		e.lua.srand48(int32(luaCheckInt(L, 1, "randomseed")))
		return 0
	}))
	if e.ver.Has(V74) {
		// 7.4 loads os with clock only (loslib.c sandbox_syslib). Here it is the seconds the
		// running script has taken by the engine's clock: 0 under a logical clock, where no
		// time passes, so replays stay identical.
		osT := L.NewTable()
		osT.RawSetString("clock", L.NewFunction(func(L *lua.LState) int {
			secs := 0.0
			if e.lua != nil && e.lua.run != nil {
				secs = float64(e.lua.run.clock.NowMs()-e.lua.run.startMs) / 1000
			}
			L.Push(lua.LNumber(secs))
			return 1
		}))
		real.RawSetString("os", osT)
	}
	real.RawSetString("cjson", luaCJSONModule(L))
	real.RawSetString("bit", openBit(L))
	real.RawSetString("struct", openStruct(L))
	real.RawSetString("cmsgpack", openCmsgpack(L))
	real.RawSetString("redis", e.newRedisTable(vm))
	real.RawSetString("pcall", L.NewFunction(luaRedisPcall))
	real.RawSetString("rawset", L.NewFunction(vm.rawset))
	real.RawSetString("setmetatable", L.NewFunction(vm.setmetatable))
	vm.handler = L.NewFunction(luaErrHandler)
	if eval {
		real.RawSetString("__redis__err__handler", vm.handler) // a global in Redis's EVAL state
	}
	// Traversal sees through the proxies: Redis's protected tables are the real tables, so
	// pairs(_G) or pairs(string) list their contents there.
	next := L.NewFunction(vm.next)
	real.RawSetString("next", next)
	real.RawSetString("pairs", L.NewFunction(func(L *lua.LState) int {
		t := L.CheckTable(1)
		L.Push(next)
		L.Push(t)
		L.Push(lua.LNil)
		return 3
	}))
	ipairsAux := L.NewFunction(func(L *lua.LState) int {
		t := vm.unproxy(L.CheckTable(1))
		i := L.CheckInt(2) + 1
		v := t.RawGetInt(i)
		if v == lua.LNil {
			return 0
		}
		L.Push(lua.LNumber(i))
		L.Push(v)
		return 2
	})
	real.RawSetString("ipairs", L.NewFunction(func(L *lua.LState) int {
		t := L.CheckTable(1)
		L.Push(ipairsAux)
		L.Push(t)
		L.Push(lua.LNumber(0))
		return 3
	}))
	real.RawSetString("getmetatable", L.NewFunction(func(L *lua.LState) int {
		v := L.CheckAny(1)
		if t, ok := v.(*lua.LTable); ok {
			v = vm.unproxy(t) // the protected table's own metatable (none for the libraries)
		}
		L.Push(L.GetMetatable(v)) // __metatable when the metatable has one
		return 1
	}))
	real.RawSetString("rawget", L.NewFunction(func(L *lua.LState) int {
		t := vm.unproxy(L.CheckTable(1))
		L.Push(t.RawGet(L.CheckAny(2)))
		return 1
	}))

	// Protection: nonexistent globals raise; scripts see a read-only proxy.
	meta := L.NewTable()
	vm.concat = L.NewFunction(luaConcat51)
	meta.RawSetString("__index", L.NewFunction(vm.nonexistentGlobal))
	L.SetMetatable(real, meta)
	vm.proxy = vm.protect(real)
	real.RawSetString("_G", vm.proxy)
	for _, lib := range []string{"string", "math", "table", "coroutine", "os", "cjson", "bit", "struct", "cmsgpack", "redis"} {
		if t, ok := real.RawGetString(lib).(*lua.LTable); ok {
			real.RawSetString(lib, vm.protect(t))
		}
	}
	// Strings' metatable is {__index = string} (lstrlib.c createmetatable); gopher-lua uses the
	// string table itself, which would list "__index" among string's functions.
	if st, ok := real.RawGetString("string").(*lua.LTable); ok {
		vm.unwrap[st].RawSetString("__index", lua.LNil)
		smt := L.NewTable()
		smt.RawSetString("__index", st)
		L.SetMetatable(lua.LString(""), smt)
	}
	L.G.Global = vm.proxy
	vm.step = &stepCtx{}
	L.SetContext(vm.step)
	return vm
}

// luaCJSONModule is the cjson table with cjson.new (lua_cjson_new: another instance, with its
// own settings, not read-only).
func luaCJSONModule(L *lua.LState) *lua.LTable {
	t := openCJSON(L)
	t.RawSetString("new", L.NewFunction(func(L *lua.LState) int {
		L.Push(luaCJSONModule(L))
		return 1
	}))
	return t
}

// protect returns a read-only view of t.
func (vm *luaVM) protect(t *lua.LTable) *lua.LTable {
	L := vm.L
	p := L.NewTable()
	m := L.NewTable()
	m.RawSetString("__index", t)
	m.RawSetString("__newindex", L.NewFunction(luaReadonlyError))
	L.SetMetatable(p, m)
	vm.readonly[p] = true
	vm.readonly[t] = true
	vm.readonly[m] = true
	vm.unwrap[p] = t
	return p
}

// nonexistentGlobal is the globals' __index: the error for a name that is not there, except
// for luaConcatName (script_concat.go), which no script can write.
func (vm *luaVM) nonexistentGlobal(L *lua.LState) int {
	if L.ToString(2) == luaConcatName {
		L.Push(vm.concat)
		return 1
	}
	L.RaiseError("Script attempted to access nonexistent global variable '%s'", L.ToString(2))
	return 0
}

// unproxy is the table a proxy protects (t itself when it is none).
func (vm *luaVM) unproxy(t *lua.LTable) *lua.LTable {
	if r, ok := vm.unwrap[t]; ok {
		return r
	}
	return t
}

// next is Lua's next over a protected table's contents.
func (vm *luaVM) next(L *lua.LState) int {
	t := vm.unproxy(L.CheckTable(1))
	k, v := t.Next(L.Get(2))
	if k == lua.LNil {
		L.Push(lua.LNil)
		return 1
	}
	L.Push(k)
	L.Push(v)
	return 2
}

func luaReadonlyError(L *lua.LState) int {
	L.RaiseError("Attempt to modify a readonly table")
	return 0
}

// errReadonlyTable is raised without a position by rawset and setmetatable (lua_rawset and
// lua_setmetatable fail inside a C function).
func errReadonlyTable(L *lua.LState) {
	L.Error(lua.LString("Attempt to modify a readonly table"), 0)
}

func (vm *luaVM) rawset(L *lua.LState) int {
	t := L.CheckTable(1)
	if vm.readonly[t] {
		errReadonlyTable(L)
	}
	t.RawSet(L.CheckAny(2), L.CheckAny(3))
	L.SetTop(1)
	return 1
}

func (vm *luaVM) setmetatable(L *lua.LState) int {
	t := L.CheckTable(1)
	if vm.readonly[t] {
		errReadonlyTable(L)
	}
	mt := L.Get(2)
	if m, ok := L.GetMetatable(t).(*lua.LTable); ok && m.RawGetString("__metatable") != lua.LNil {
		L.RaiseError("cannot change a protected metatable")
	}
	if mt != lua.LNil {
		if _, ok := mt.(*lua.LTable); !ok {
			L.ArgError(2, "nil or table expected")
		}
	}
	L.SetMetatable(t, mt)
	L.SetTop(1)
	return 1
}

func luaTableForeach(indexed bool) lua.LGFunction {
	return func(L *lua.LState) int {
		t := L.CheckTable(1)
		f := L.CheckFunction(2)
		call := func(k, v lua.LValue) bool {
			L.Push(f)
			L.Push(k)
			L.Push(v)
			L.Call(2, 1)
			r := L.Get(-1)
			L.Pop(1)
			if r != lua.LNil {
				L.Push(r)
				return true
			}
			return false
		}
		if indexed {
			for i := 1; i <= t.Len(); i++ {
				if call(lua.LNumber(i), t.RawGetInt(i)) {
					return 1
				}
			}
			return 0
		}
		for k, v := t.Next(lua.LNil); k != lua.LNil; k, v = t.Next(k) {
			if call(k, v) {
				return 1
			}
		}
		return 0
	}
}

// luaNumberString is Lua 5.1's number format, "%.14g" (LUAI_NUMFFORMAT).
func luaNumberString(n lua.LNumber) string {
	f := float64(n)
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f) && math.Signbit(f):
		return "-nan" // glibc's printf shows a NaN's sign: 0/0 on x86-64 is the negative default NaN
	case math.IsNaN(f):
		return "nan"
	}
	return strconv.FormatFloat(f, 'g', 14, 64)
}

// luaErrorFn is Lua 5.1's error(message [, level]): a string or number message gets the position
// of the function at level (1, the caller of error, by default; 0 none).
func luaErrorFn(L *lua.LState) int {
	v := L.Get(1)
	level := L.OptInt(2, 1)
	switch x := v.(type) {
	case lua.LString, lua.LNumber:
		if level > 0 {
			if w := L.Where(level); w != "" {
				v = lua.LString(w + " " + luaValueString(x))
			} else {
				v = lua.LString(luaValueString(x))
			}
		}
	}
	L.Error(v, 0)
	return 0
}

// luaToStringFn is tostring with Lua's number format.
func luaToStringFn(L *lua.LState) int {
	v := L.CheckAny(1)
	if n, ok := v.(lua.LNumber); ok {
		L.Push(lua.LString(luaNumberString(n)))
		return 1
	}
	if m := L.GetMetaField(v, "__tostring"); m != lua.LNil {
		L.Push(m)
		L.Push(v)
		L.Call(1, 1)
		return 1
	}
	L.Push(lua.LString(v.String()))
	return 1
}

func (e *Engine) luaMathRandom(L *lua.LState) int {
	if e.lua == nil || e.lua.run == nil {
		L.RaiseError("math.random can only be called inside a script invocation")
	}
	const max = 1<<31 - 1
	r := float64(e.lua.lrand48()%max) / float64(max)
	switch L.GetTop() {
	case 0:
		L.Push(lua.LNumber(r))
	case 1:
		u := luaCheckInt(L, 1, "random")
		if u < 1 {
			luaArgError(L, 1, "random", "interval is empty")
		}
		L.Push(lua.LNumber(math.Floor(r*float64(u)) + 1))
	case 2:
		l, u := luaCheckInt(L, 1, "random"), luaCheckInt(L, 2, "random")
		if l > u {
			luaArgError(L, 2, "random", "interval is empty")
		}
		L.Push(lua.LNumber(math.Floor(r*float64(u-l+1)) + float64(l)))
	default:
		L.RaiseError("wrong number of arguments")
	}
	return 1
}

var mathInf = math.Inf(1)

// luaArgError is luaL_argerror's message: "bad argument #n to 'f' (msg)".
func luaArgError(L *lua.LState, n int, fname, msg string) {
	L.RaiseError("bad argument #%d to '%s' (%s)", n, fname, msg)
}

// luaCheckNumber is luaL_checknumber: a number or a string that converts.
func luaCheckNumber(L *lua.LState, n int, fname string) float64 {
	switch v := L.Get(n).(type) {
	case lua.LNumber:
		return float64(v)
	case lua.LString:
		if f, ok := luaStringToNumber(string(v)); ok {
			return f
		}
	}
	got := "no value"
	if n <= L.GetTop() {
		got = L.Get(n).Type().String()
	}
	luaArgError(L, n, fname, "number expected, got "+got)
	return 0
}

// luaCheckInt is luaL_checkint: the number truncated to an int.
func luaCheckInt(L *lua.LState, n int, fname string) int {
	return int(int32(luaNumberToInt(luaCheckNumber(L, n, fname))))
}

// luaErrHandler is __redis__err__handler: make the error a table and add where it happened
// (the Lua caller when the failing function is a Go function).
func luaErrHandler(L *lua.LState) int {
	err := L.Get(1)
	t, ok := err.(*lua.LTable)
	if !ok {
		msg := luaValueString(err)
		if s, isStr := err.(lua.LString); isStr {
			if d, ok := L.GetStack(1); ok {
				L.GetInfo("S", d, lua.LNil)
				if d.What != "G" {
					if pos, tail, found := strings.Cut(string(s), ": "); found && strings.HasPrefix(pos, d.Source+":") {
						if better, ok := luaVarInfo(L, d, tail); ok {
							msg = pos + ": " + better
						}
					}
				} else {
					msg = luaGoFuncError(L, d, msg)
				}
			}
		}
		t = L.NewTable()
		t.RawSetString("err", lua.LString("ERR "+luaVMError(msg)))
	}
	if dbg, ok := L.GetStack(1); ok {
		L.GetInfo("Sl", dbg, lua.LNil)
		if dbg.What == "G" {
			if d2, ok2 := L.GetStack(2); ok2 {
				L.GetInfo("Sl", d2, lua.LNil)
				dbg = d2
			}
		}
		src := dbg.Source
		if dbg.What != "G" {
			src = "@" + src
		}
		t.RawSetString("source", lua.LString(src))
		t.RawSetString("line", lua.LNumber(dbg.CurrentLine))
	}
	L.Push(t)
	return 1
}

// luaVMError rewrites gopher-lua's run-time messages into Lua 5.1's (luaG_typeerror,
// luaG_concaterror, luaG_aritherror, luaG_ordererror). Lua 5.1 also names the variable when it
// knows it ("attempt to index local 't' (a nil value)"); gopher-lua does not say, so those read
// "attempt to index a nil value". The patterns it looks for are script_match.go's.
func luaVMError(msg string) string {
	if m := findVMArith(msg); m != nil {
		a, b := msg[m[4]:m[5]], msg[m[6]:m[7]]
		bad := a
		if a == "number" {
			bad = b
		}
		return msg[:m[0]] + "attempt to perform arithmetic on a " + bad + " value"
	}
	if m := findVMConcat(msg); m != nil {
		a, b := msg[m[2]:m[3]], msg[m[4]:m[5]]
		bad := a
		if a == "string" || a == "number" {
			bad = b
		}
		return msg[:m[0]] + "attempt to concatenate a " + bad + " value"
	}
	if m := findVMCompare(msg); m != nil {
		a, b := msg[m[2]:m[3]], msg[m[4]:m[5]]
		if a == b {
			return msg[:m[0]] + "attempt to compare two " + a + " values"
		}
		return msg
	}
	if m := findVMIndex(msg); m != nil {
		return msg[:m[0]] + "attempt to index a " + msg[m[2]:m[3]] + " value"
	}
	// luaL_argerror quotes the function's name.
	return quoteArgNames(quoteTableOf(msg))
}

func luaValueString(v lua.LValue) string {
	switch x := v.(type) {
	case lua.LNumber:
		return luaNumberString(x)
	case *lua.LNilType:
		return "nil"
	}
	return v.String()
}

// luaRedisPcall is Redis's pcall: an error that is an {err=…} table comes back as its message
// string, as in Lua before 7.0.
func luaRedisPcall(L *lua.LState) int {
	n := L.GetTop()
	if n == 0 {
		L.ArgError(1, "value expected")
	}
	fn := L.Get(1)
	args := make([]lua.LValue, 0, n-1)
	for i := 2; i <= n; i++ {
		args = append(args, L.Get(i))
	}
	L.SetTop(0)
	L.Push(fn)
	for _, a := range args {
		L.Push(a)
	}
	err := L.PCall(len(args), lua.MultRet, nil)
	if err != nil {
		var obj lua.LValue = lua.LString(err.Error())
		var ae *lua.ApiError
		if errors.As(err, &ae) && ae.Object != nil {
			obj = ae.Object
		}
		if t, ok := obj.(*lua.LTable); ok {
			if s, ok := t.RawGetString("err").(lua.LString); ok {
				obj = s
			}
		} else if s, ok := obj.(lua.LString); ok {
			obj = lua.LString(luaVMError(string(s)))
		}
		L.SetTop(0)
		L.Push(lua.LFalse)
		L.Push(obj)
		return 2
	}
	top := L.GetTop()
	L.Insert(lua.LTrue, 1)
	return top + 1
}

// ---------------------------------------------------------------------------------------------
// The run: bounding, killing, the clock.

// stepCtx is the interpreter's context: gopher-lua asks for Done() before every instruction, so
// it doubles as Redis's count hook.
type stepCtx struct {
	e      *Engine
	run    *scriptRun
	n      int64
	steps  int64
	limit  int64
	stop   chan struct{}
	reason error
}

var closedChan = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

func (c *stepCtx) Done() <-chan struct{} {
	if c.stop != nil {
		return c.stop
	}
	c.n++
	if c.n < scriptHookEvery {
		return nil
	}
	c.steps += c.n
	c.n = 0
	if c.run == nil {
		return nil
	}
	c.e.scriptInterrupt(c)
	return c.stop
}

func (c *stepCtx) Err() error {
	if c.reason != nil {
		return c.reason
	}
	return errScriptKilled
}
func (c *stepCtx) Deadline() (deadline time.Time, ok bool) { return time.Time{}, false }
func (c *stepCtx) Value(key any) any                       { return nil }

// scriptInterrupt is Redis's scriptInterrupt, every scriptHookEvery instructions.
func (e *Engine) scriptInterrupt(c *stepCtx) {
	run := c.run
	m := &e.mon
	// Let the other goroutines run: the connection that will send SCRIPT KILL, a timer. Natively
	// the scheduler preempts a long loop anyway; under js/wasm it cannot (one thread, no
	// preemption), so without this a busy script starves every other goroutine for ever.
	runtime.Gosched()
	if m.killed.Load() {
		c.stop, c.reason = closedChan, errScriptKilled
		run.outcome = "killed"
		return
	}
	if c.limit > 0 && c.steps >= c.limit {
		c.stop = closedChan
		c.reason = fmt.Errorf("Script stopped by redscope: still running after %d Lua instructions, the bound where no other client can send SCRIPT KILL", c.limit)
		run.outcome = "stopped"
		return
	}
	if limit := e.cfg.Int("busy-reply-threshold"); !m.timedOut.Load() && limit > 0 && run.clock.NowMs()-run.startMs >= limit {
		m.timedOut.Store(true)
	}
}

// frozenClock is the clock a script's commands see.
type frozenClock struct{ ms int64 }

func (c frozenClock) NowMs() int64 { return c.ms }

// runScript calls fn (with keys and args as KEYS/ARGV, or as its two arguments for a function)
// and converts what it returns or raises into the reply.
func (e *Engine) runScript(vm *luaVM, fn *lua.LFunction, name string, eval, readOnly bool, flags scriptFlags, keys, args [][]byte, cmd [][]byte) Reply {
	s := e.scripting()
	L := vm.L
	clock := e.clock
	run := &scriptRun{name: name, eval: eval, readOnly: readOnly, startMs: clock.NowMs(), clock: clock, db: e.db,
		slot: e.ClusterCommandSlot(cmd), crossSlot: flags&(sfCompat|sfAllowCrossSlot) != 0}
	s.run = run
	m := &e.mon
	m.eval.Store(eval)
	m.dirty.Store(false)
	m.killed.Store(false)
	m.timedOut.Store(false)
	info := &ScriptInfo{Name: name, Start: time.Now()}
	for _, a := range cmd {
		info.Command = append(info.Command, string(a))
	}
	for _, l := range s.libs {
		info.Libraries++
		info.Functions += len(l.funcs)
	}
	m.info.Store(info)
	m.running.Store(true)
	*vm.step = stepCtx{e: e, run: run, limit: e.scriptStepLimit()}
	e.clock = frozenClock{run.startMs}
	savedDB := e.db
	e.emit(ScriptEvent{Script: name, Action: "start"})
	e.ClusterScriptRunning(true)
	defer func() {
		e.ClusterScriptRunning(false)
		e.clock = clock
		e.db = savedDB
		s.run = nil
		vm.step.run = nil
		m.running.Store(false)
		m.timedOut.Store(false)
		m.killed.Store(false)
		L.SetTop(0)
	}()
	keyT, argT := luaArray(L, keys), luaArray(L, args)
	L.Push(fn)
	nargs := 0
	if eval {
		vm.real.RawSetString("KEYS", keyT)
		vm.real.RawSetString("ARGV", argT)
	} else {
		L.Push(keyT)
		L.Push(argT)
		nargs = 2
	}
	err := L.PCall(nargs, 1, vm.handler)
	steps := vm.step.steps + vm.step.n
	var r Reply
	var ae *lua.ApiError
	if errors.As(err, &ae) && ae.Type == lua.ApiErrorPanic {
		// A Go panic inside the interpreter or a Go function: a redscope bug, reported as
		// Exec reports panics.
		r = Err(cleanErr("ERR redscope internal error: " + luaValueString(ae.Object)))
		run.outcome = "error"
	} else if err != nil {
		r = e.scriptErrorReply(err, vm.step, name)
		if run.outcome == "" {
			run.outcome = "error"
		}
	} else {
		r = luaToReply(L.Get(-1), 0, run.resp, e.ver)
		run.outcome = "end"
	}
	e.emit(ScriptEvent{Script: name, Action: run.outcome, Calls: run.calls, Steps: steps})
	return r
}

func luaArray(L *lua.LState, items [][]byte) *lua.LTable {
	t := L.CreateTable(len(items), 0)
	for i, it := range items {
		t.RawSetInt(i+1, lua.LString(it))
	}
	return t
}

// scriptErrorReply is luaCallFunction's error branch.
func (e *Engine) scriptErrorReply(err error, c *stepCtx, name string) Reply {
	var ae *lua.ApiError
	var obj lua.LValue
	if errors.As(err, &ae) {
		obj = ae.Object
	}
	t, ok := obj.(*lua.LTable)
	if !ok {
		msg := "execution failure"
		if obj != nil {
			msg = luaValueString(obj)
		}
		if len(msg) > 100 {
			msg = msg[:100]
		}
		return Err(cleanErr("ERR Error running script " + name + ", " + msg))
	}
	msg := luaTableString(t, "err")
	if c.stop != nil && c.reason != nil {
		// The kill / bound error raised by the context: Redis's message (luaMaskCountHook).
		msg = "ERR " + c.reason.Error()
	}
	src, line := luaTableString(t, "source"), t.RawGetString("line")
	out := msg
	if src != "" && line != lua.LNil {
		out += " script: " + name + ", on " + src + ":" + luaValueString(line) + "."
	}
	return Err(cleanErr(out))
}

func luaTableString(t *lua.LTable, field string) string {
	switch v := t.RawGetString(field).(type) {
	case lua.LString:
		return string(v)
	case lua.LNumber:
		return luaNumberString(v)
	}
	return ""
}

// luaToReply is luaReplyToRedisReply (script_lua.c): the reply is protocol-neutral (a map
// table is a Map, {double=…} a Double …) and written in the caller's protocol; only a boolean
// depends on the script's own protocol resp (redis.setresp): 1 / nil in RESP2, a Bool in RESP3.
func luaToReply(v lua.LValue, depth, resp int, ver Version) Reply {
	switch x := v.(type) {
	case lua.LString:
		return BulkStr(string(x))
	case lua.LBool:
		if resp == 3 {
			return Bool(bool(x))
		}
		if x {
			return Int(1)
		}
		return NilReply
	case lua.LNumber:
		return Int(luaNumberToInt(float64(x)))
	case *lua.LTable:
		if depth > 1000 {
			return Err("ERR reached lua stack limit")
		}
		if s, ok := x.RawGetString("err").(lua.LString); ok {
			return Err(cleanErr(string(s)))
		}
		if s, ok := x.RawGetString("ok").(lua.LString); ok {
			return Status(cleanErr(string(s)))
		}
		if d, ok := x.RawGetString("double").(lua.LNumber); ok {
			return Double(string(appendReplyDouble(nil, float64(d), ver))) // addReplyDouble
		}
		if s, ok := x.RawGetString("big_number").(lua.LString); ok {
			return BigNum(cleanErr(string(s)))
		}
		if vs, ok := x.RawGetString("verbatim_string").(*lua.LTable); ok {
			if f, ok := vs.RawGetString("format").(lua.LString); ok {
				if s, ok := vs.RawGetString("string").(lua.LString); ok {
					return VerbatimFormat(string(f), string(s))
				}
			}
		}
		if mt, ok := x.RawGetString("map").(*lua.LTable); ok {
			out := []Reply{}
			for k, val := mt.Next(lua.LNil); k != lua.LNil; k, val = mt.Next(k) {
				out = append(out, luaToReply(k, depth+1, resp, ver), luaToReply(val, depth+1, resp, ver))
			}
			return Map(out...)
		}
		if st, ok := x.RawGetString("set").(*lua.LTable); ok {
			out := []Reply{}
			for k, _ := st.Next(lua.LNil); k != lua.LNil; k, _ = st.Next(k) {
				out = append(out, luaToReply(k, depth+1, resp, ver))
			}
			return Set(out...)
		}
		out := []Reply{}
		for i := 1; ; i++ {
			it := x.RawGetInt(i)
			if it == lua.LNil {
				break
			}
			out = append(out, luaToReply(it, depth+1, resp, ver))
		}
		return Reply{Kind: KindArray, Array: out}
	}
	return NilReply
}

// luaNumberToInt is C's (long long) cast as x86-64 does it: out of range and NaN give -2^63.
func luaNumberToInt(f float64) int64 {
	if math.IsNaN(f) || f >= 9223372036854775808.0 || f < -9223372036854775808.0 {
		return math.MinInt64
	}
	return int64(f)
}

// replyToLua is redisProtocolToLuaType: r as the script's client reads it in protocol resp.
func replyToLua(L *lua.LState, r Reply, resp int) lua.LValue {
	if resp == 3 {
		return replyToLua3(L, r)
	}
	switch r.Kind {
	case KindInt:
		return lua.LNumber(r.Int)
	case KindBulk, KindDouble:
		return lua.LString(r.Str)
	case KindNil, KindNilArray:
		return lua.LFalse
	case KindStatus:
		t := L.NewTable()
		t.RawSetString("ok", lua.LString(r.Str))
		return t
	case KindError:
		t := luaErrorTable(L, "-"+r.Str)
		t.RawSetString("ignore_error_stats_update", lua.LTrue)
		return t
	case KindArray:
		t := L.CreateTable(len(r.Array), 0)
		for i, it := range r.Array {
			t.RawSetInt(i+1, replyToLua(L, it, 2))
		}
		return t
	}
	return lua.LFalse
}

// replyToLua3 is redisProtocolToLuaType for a RESP3 reply (script_lua.c): null → nil, a map →
// {map={k=v}}, a set → {set={m=true}}, a double → {double=n}, a boolean → true/false, a big
// number → {big_number="…"}, a verbatim string → {verbatim_string={format="txt", string="…"}};
// an array holds its elements at 1…n (a nil leaves a hole).
func replyToLua3(L *lua.LState, r Reply) lua.LValue {
	wrap := func(field string, v lua.LValue) *lua.LTable {
		t := L.CreateTable(0, 1)
		t.RawSetString(field, v)
		return t
	}
	// setKey is lua_settable: a nil key cannot index a table (Redis's Lua raises; the pair is
	// dropped here), a nil value sets nothing.
	setKey := func(t *lua.LTable, k, v lua.LValue) {
		if k != lua.LNil {
			t.RawSet(k, v)
		}
	}
	switch r.Kind {
	case KindNil, KindNilArray:
		return lua.LNil
	case KindDouble:
		d, _ := strconv.ParseFloat(r.Str, 64)
		return wrap("double", lua.LNumber(d))
	case KindInt:
		if r.R3 == R3Bool {
			return lua.LBool(r.Int != 0)
		}
	case KindBulk:
		switch r.R3 {
		case R3BigNum:
			return wrap("big_number", lua.LString(r.Str))
		case R3Verbatim:
			vs := L.CreateTable(0, 2)
			vs.RawSetString("string", lua.LString(r.Str))
			vs.RawSetString("format", lua.LString(r.VerbatimFormatOf()))
			return wrap("verbatim_string", vs)
		}
	case KindArray:
		switch r.R3 {
		case R3Map:
			m := L.CreateTable(0, len(r.Array)/2)
			for i := 0; i+1 < len(r.Array); i += 2 {
				setKey(m, replyToLua3(L, r.Array[i]), replyToLua3(L, r.Array[i+1]))
			}
			return wrap("map", m)
		case R3MapOfPairs:
			m := L.CreateTable(0, len(r.Array))
			for _, p := range r.Array {
				if len(p.Array) == 2 {
					setKey(m, replyToLua3(L, p.Array[0]), replyToLua3(L, p.Array[1]))
				}
			}
			return wrap("map", m)
		case R3Set:
			m := L.CreateTable(0, len(r.Array))
			for _, it := range r.Array {
				setKey(m, replyToLua3(L, it), lua.LTrue)
			}
			return wrap("set", m)
		case R3Pairs:
			t := L.CreateTable(len(r.Array)/2, 0)
			for i := 0; i+1 < len(r.Array); i += 2 {
				p := L.CreateTable(2, 0)
				p.RawSetInt(1, replyToLua3(L, r.Array[i]))
				p.RawSetInt(2, replyToLua3(L, r.Array[i+1]))
				t.RawSetInt(i/2+1, p)
			}
			return t
		}
		t := L.CreateTable(len(r.Array), 0)
		for i, it := range r.Array {
			t.RawSetInt(i+1, replyToLua3(L, it))
		}
		return t
	}
	return replyToLua(L, r, 2)
}

// luaErrorTable is luaPushErrorBuff: "-CODE msg" keeps its code, a bare message gets ERR.
func luaErrorTable(L *lua.LState, s string) *lua.LTable {
	code, msg := "ERR", s
	if strings.HasPrefix(s, "-") {
		if sp := strings.IndexByte(s, ' '); sp >= 0 {
			code, msg = s[1:sp], s[sp+1:]
		} else {
			msg = s[1:]
		}
	}
	msg = strings.Trim(msg, "\r\n")
	t := L.NewTable()
	t.RawSetString("err", lua.LString(code+" "+msg))
	return t
}

// raiseRedisError raises {err=…} from a Go function of the redis table.
func raiseRedisError(L *lua.LState, msg string) {
	L.Error(luaErrorTable(L, msg), 0)
}

// ---------------------------------------------------------------------------------------------
// The redis table.

func (e *Engine) newRedisTable(vm *luaVM) *lua.LTable {
	L := vm.L
	t := L.NewTable()
	fn := func(name string, f lua.LGFunction) { t.RawSetString(name, L.NewFunction(f)) }
	fn("call", func(L *lua.LState) int { return e.luaRedisCall(L, true) })
	fn("pcall", func(L *lua.LState) int { return e.luaRedisCall(L, false) })
	fn("log", e.luaLog)
	for name, n := range map[string]int{"LOG_DEBUG": 0, "LOG_VERBOSE": 1, "LOG_NOTICE": 2, "LOG_WARNING": 3} {
		t.RawSetString(name, lua.LNumber(n))
	}
	ver, num := scriptRedisVersion(e.ver)
	t.RawSetString("REDIS_VERSION", lua.LString(ver))
	t.RawSetString("REDIS_VERSION_NUM", lua.LNumber(num))
	fn("setresp", func(L *lua.LState) int {
		if e.lua == nil || e.lua.run == nil {
			raiseRedisError(L, "redis.setresp can only be called inside a script invocation")
		}
		if L.GetTop() != 1 {
			raiseRedisError(L, "redis.setresp() requires one argument.")
		}
		n := int(L.ToNumber(1))
		if n != 2 && n != 3 {
			raiseRedisError(L, "RESP version must be 2 or 3.")
		}
		e.lua.run.resp = n
		return 0
	})
	fn("sha1hex", func(L *lua.LState) int {
		if L.GetTop() != 1 {
			raiseRedisError(L, "wrong number of arguments")
		}
		str, _ := luaStringish(L.Get(1)) // lua_tolstring: a number in "%.14g", anything else ""
		L.Push(lua.LString(sha1hex(str)))
		return 1
	})
	fn("error_reply", func(L *lua.LState) int {
		if L.GetTop() != 1 || L.Get(1).Type() != lua.LTString {
			L.Push(luaErrorTable(L, "wrong number or type of arguments"))
			return 1
		}
		s := L.ToString(1)
		if !strings.HasPrefix(s, "-") {
			s = "-" + s
		}
		L.Push(luaErrorTable(L, s))
		return 1
	})
	fn("status_reply", func(L *lua.LState) int {
		if L.GetTop() != 1 || L.Get(1).Type() != lua.LTString {
			L.Push(luaErrorTable(L, "wrong number or type of arguments"))
			return 1
		}
		r := L.NewTable()
		r.RawSetString("ok", L.Get(1))
		L.Push(r)
		return 1
	})
	fn("set_repl", func(L *lua.LState) int {
		if e.lua == nil || e.lua.run == nil {
			raiseRedisError(L, "redis.set_repl can only be called inside a script invocation")
		}
		if L.GetTop() != 1 {
			raiseRedisError(L, "redis.set_repl() requires two arguments.")
		}
		if f := int(L.ToNumber(1)); f&^3 != 0 {
			raiseRedisError(L, "Invalid replication flags. Use REPL_AOF, REPL_REPLICA, REPL_ALL or REPL_NONE.")
		}
		return 0 // no replicas: nothing to propagate
	})
	for name, n := range map[string]int{"REPL_NONE": 0, "REPL_AOF": 1, "REPL_SLAVE": 2, "REPL_REPLICA": 2, "REPL_ALL": 3} {
		t.RawSetString(name, lua.LNumber(n))
	}
	fn("acl_check_cmd", func(L *lua.LState) int {
		if e.lua == nil || e.lua.run == nil {
			raiseRedisError(L, "redis.acl_check_cmd can only be called inside a script invocation")
		}
		argv, errText := luaArgs(L)
		if errText != "" {
			raiseRedisError(L, errText)
		}
		c := lookupCommand(argv[0])
		if c == nil || !e.ver.Has(c.Since) {
			raiseRedisError(L, "Invalid command passed to redis.acl_check_cmd()")
		}
		L.Push(lua.LTrue) // the default user may run everything
		return 1
	})
	if vm.eval {
		fn("replicate_commands", func(L *lua.LState) int { L.Push(lua.LTrue); return 1 })
		fn("breakpoint", func(L *lua.LState) int { L.Push(lua.LFalse); return 1 })
		fn("debug", func(L *lua.LState) int { return 0 })
	}
	return t
}

// scriptRedisVersion is redis.REDIS_VERSION and REDIS_VERSION_NUM (major<<16 | minor<<8 |
// patch) of the release a profile stands for.
func scriptRedisVersion(v Version) (string, int) {
	patch := map[Version]int{V70: 15, V72: 7, V74: 2, V80: 2, V82: 1}[v]
	major, minor := int(v/100), int(v%100)
	return strconv.Itoa(major) + "." + strconv.Itoa(minor) + "." + strconv.Itoa(patch), major<<16 | minor<<8 | patch
}

func sha1hex(s string) string {
	sum := sha1.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}

// luaLog is redis.log: checked as Redis does; the message goes nowhere (no log file).
func (e *Engine) luaLog(L *lua.LState) int {
	n := L.GetTop()
	if n < 2 {
		raiseRedisError(L, "redis.log() requires two arguments or more.")
	}
	if _, ok := L.Get(1).(lua.LNumber); !ok {
		if s, ok := L.Get(1).(lua.LString); !ok || !isLuaNumeric(string(s)) {
			raiseRedisError(L, "First argument must be a number (log level).")
		}
	}
	if lvl := int(L.ToNumber(1)); lvl < 0 || lvl > 3 {
		if e.ver.Has(V74) {
			raiseRedisError(L, "Invalid log level.")
		}
		raiseRedisError(L, "Invalid debug level.")
	}
	return 0
}

func isLuaNumeric(s string) bool {
	_, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return err == nil
}

// luaArgs is luaArgsToRedisArgv: strings as they are, numbers as %.17g; anything else stops it.
func luaArgs(L *lua.LState) ([][]byte, string) {
	n := L.GetTop()
	if n == 0 {
		return nil, "Please specify at least one argument for this redis lib call"
	}
	argv := make([][]byte, n)
	for i := 1; i <= n; i++ {
		switch v := L.Get(i).(type) {
		case lua.LString:
			argv[i-1] = []byte(v)
		case lua.LNumber:
			argv[i-1] = appendG17(nil, float64(v))
		default:
			return nil, "Lua redis lib command arguments must be strings or integers"
		}
	}
	return argv, ""
}

// blockingNoScript70: the blocking commands 7.0 flags noscript and 7.2 allows in scripts (where
// they answer at once, as their timeout would).
var blockingNoScript70 = map[string]bool{"blpop": true, "brpop": true, "brpoplpush": true, "blmove": true,
	"bzpopmin": true, "bzpopmax": true}

// deniedInScripts is the CMD_NOSCRIPT test of scriptCall for the profile.
func (e *Engine) deniedInScripts(c *Command) bool {
	if blockingNoScript70[c.Name] && c.parent == nil {
		return !e.ver.Has(V72)
	}
	return c.Flags&FlagNoScript != 0
}

// luaRedisCall is luaRedisGenericCommand + scriptCall.
func (e *Engine) luaRedisCall(L *lua.LState, raise bool) int {
	s := e.lua
	if s == nil || s.run == nil {
		raiseRedisError(L, "redis.call/pcall can only be called inside a script invocation")
	}
	run := s.run
	argv, errText := luaArgs(L)
	L.SetTop(0)
	fail := func(msg string) int {
		t := luaErrorTable(L, msg)
		t.RawSetString("ignore_error_stats_update", lua.LTrue)
		if raise {
			L.Error(t, 0)
		}
		L.Push(t)
		return 1
	}
	if errText != "" {
		// Argument errors are raised by redis.pcall too (luaRedisGenericCommand returns
		// luaError before calling anything only for redis.call; pcall pushes the table).
		if raise {
			L.Error(luaErrorTable(L, errText), 0)
		}
		L.Push(luaErrorTable(L, errText))
		return 1
	}
	cmd := lookupCommand(argv[0])
	if cmd != nil && !e.ver.Has(cmd.Since) {
		cmd = nil
	}
	if cmd != nil && cmd.Sub != nil && len(argv) >= 2 {
		sub := cmd.Sub[strings.ToLower(string(argv[1]))]
		if sub == nil || !e.ver.Has(sub.Since) {
			cmd = nil
		} else {
			cmd = sub
		}
	}
	switch {
	case cmd == nil:
		return fail("Unknown Redis command called from script")
	case !arityOK(cmd.Arity, len(argv)):
		return fail("Wrong number of args calling Redis command from script")
	case e.deniedInScripts(cmd):
		return fail("This Redis command is not allowed from script")
	case e.scriptACL(argv) != "": // scriptVerifyACL (acl.go)
		return fail(e.scriptACL(argv))
	case run.readOnly && cmd.Flags&(FlagWrite|FlagMayReplicate) != 0:
		return fail("Write commands are not allowed from read-only scripts.")
	}
	if s.guard != nil {
		if err := s.guard(argv); err != nil {
			return fail(err.Error())
		}
	}
	if cmd.Flags&FlagWrite != 0 {
		e.mon.dirty.Store(true)
	}
	if msg := e.clusterScriptCall(run, argv); msg != "" {
		return fail(msg)
	}
	run.calls++
	keepAsking := e.clusterScriptAsking()
	r := e.dispatch(argv)
	keepAsking()
	if e.tracing {
		ev := ScriptCallEvent{Script: run.name, Reply: r, Raised: raise && r.IsError()}
		for _, a := range argv {
			ev.Cmd = append(ev.Cmd, string(a))
		}
		if dbg, ok := L.GetStack(1); ok {
			L.GetInfo("l", dbg, lua.LNil)
			ev.Line = dbg.CurrentLine
		}
		e.emit(ev)
	}
	v := replyToLua(L, r, run.resp)
	if raise && r.IsError() {
		L.Error(v, 0)
	}
	L.Push(v)
	return 1
}
