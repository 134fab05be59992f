//go:build !nolua

package engine

// Functions: FUNCTION LOAD [REPLACE] / DELETE / FLUSH / LIST / STATS / KILL / HELP, FCALL and
// FCALL_RO (functions.c and function_lua.c of 7.0.15).
//
// A library is Lua code whose first line is "#!lua name=<library>". FUNCTION LOAD compiles it
// (chunk name "user_function", the shebang's line feed kept so line numbers are the user's) and
// runs it once with a reduced global table: only redis.register_function, redis.log, the log
// levels and the version fields exist while loading, everything else (string, KEYS, error…)
// raises "Script attempted to access nonexistent global variable". register_function takes a
// name and a callback, or one table {function_name=, callback=, flags=, description=}. The
// callback later runs as fn(keys, args) in the functions' interpreter (its own lua_State, not
// the EVAL one) with the usual globals. Function names are looked up ignoring case, library
// names exactly. A function without the no-writes flag cannot run through FCALL_RO; one with it
// runs read-only.
//
// FUNCTION LIST orders libraries by name. Redis walks its dict, whose order depends on a hash
// seed drawn at start-up, so any order is one the real server may print; the functions of a
// library are listed in the order they were registered.
//
// Not modelled: FUNCTION DUMP / RESTORE (the RDB payload) answer an error.

import (
	"sort"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

type functionLib struct {
	name  string
	code  string
	funcs []*function // in registration order
}

type function struct {
	name  string
	desc  *string
	flags scriptFlags
	fn    *lua.LFunction
	lib   *functionLib
}

// The handlers of FCALL and FCALL_RO (their table entries are in script_commands.go).
func cmdFcall(e *Engine, a [][]byte) Reply   { return e.fcall(a, false) }
func cmdFcallRO(e *Engine, a [][]byte) Reply { return e.fcall(a, true) }

const userFunction = "user_function"

// functionVM is the functions' interpreter with its load-time API (loadAPI): made when first
// needed.
type functionVM struct {
	*luaVM
	loadAPI *lua.LTable
	meta    *lua.LTable // the proxy's metatable, whose __index is swapped while loading
	loading *functionLib
	err     string // register_function's refusal, reported by FUNCTION LOAD
}

func (e *Engine) functionVM() *functionVM {
	s := e.scripting()
	if s.fn == nil {
		vm := e.newLuaVM(false)
		L := vm.L
		fvm := &functionVM{luaVM: vm, meta: L.GetMetatable(vm.proxy).(*lua.LTable)}
		api := L.NewTable()
		r := L.NewTable()
		r.RawSetString("register_function", L.NewFunction(func(L *lua.LState) int { return e.luaRegisterFunction(fvm, L) }))
		r.RawSetString("log", L.NewFunction(e.luaLog))
		for name, n := range map[string]int{"LOG_DEBUG": 0, "LOG_VERBOSE": 1, "LOG_NOTICE": 2, "LOG_WARNING": 3} {
			r.RawSetString(name, lua.LNumber(n))
		}
		ver, num := scriptRedisVersion(e.ver)
		r.RawSetString("REDIS_VERSION", lua.LString(ver))
		r.RawSetString("REDIS_VERSION_NUM", lua.LNumber(num))
		vm.setNonexistentError(r)
		api.RawSetString("redis", vm.protect(r))
		vm.setNonexistentError(api)
		fvm.loadAPI = api
		s.fnVM = fvm
		s.fn = vm
	}
	return s.fnVM
}

// setNonexistentError gives t the metatable that raises on unknown names.
func (vm *luaVM) setNonexistentError(t *lua.LTable) {
	L := vm.L
	meta := L.NewTable()
	meta.RawSetString("__index", L.NewFunction(vm.nonexistentGlobal))
	L.SetMetatable(t, meta)
}

// luaRegisterFunction is redis.register_function.
func (e *Engine) luaRegisterFunction(vm *functionVM, L *lua.LState) int {
	lib := vm.loading
	if lib == nil {
		raiseRedisError(L, "redis.register_function can only be called on FUNCTION LOAD command")
	}
	fail := func(msg string) int {
		raiseRedisError(L, msg)
		return 0
	}
	f := &function{lib: lib}
	switch L.GetTop() {
	case 1:
		t, ok := L.Get(1).(*lua.LTable)
		if !ok {
			return fail("calling redis.register_function with a single argument is only applicable to Lua table (representing named arguments).")
		}
		var bad string
		t.ForEach(func(k, v lua.LValue) {
			if bad != "" {
				return
			}
			ks, ok := luaStringish(k)
			if !ok {
				bad = "named argument key given to redis.register_function is not a string"
				return
			}
			switch strings.ToLower(ks) {
			case "function_name":
				s, ok := luaStringish(v)
				if !ok {
					bad = "function_name argument given to redis.register_function must be a string"
					return
				}
				f.name = s
			case "description":
				s, ok := luaStringish(v)
				if !ok {
					bad = "description argument given to redis.register_function must be a string"
					return
				}
				f.desc = &s
			case "callback":
				fn, ok := v.(*lua.LFunction)
				if !ok {
					bad = "callback argument given to redis.register_function must be a function"
					return
				}
				f.fn = fn
			case "flags":
				ft, ok := v.(*lua.LTable)
				if !ok {
					bad = "flags argument to redis.register_function must be a table representing function flags"
					return
				}
				for i := 1; ; i++ {
					it := ft.RawGetInt(i)
					if it == lua.LNil {
						break
					}
					s, ok := luaStringish(it)
					fl, known := scriptFlagByName(strings.ToLower(s))
					if !ok || !known {
						bad = "unknown flag given"
						return
					}
					f.flags |= fl
				}
			default:
				bad = "unknown argument given to redis.register_function"
			}
		})
		if bad != "" {
			return fail(bad)
		}
		if f.name == "" && f.fn == nil {
			return fail("redis.register_function must get a function name argument")
		}
		if f.fn == nil {
			return fail("redis.register_function must get a callback argument")
		}
	case 2:
		s, ok := luaStringish(L.Get(1))
		if !ok {
			return fail("first argument to redis.register_function must be a string")
		}
		fn, ok := L.Get(2).(*lua.LFunction)
		if !ok {
			return fail("second argument to redis.register_function must be a function")
		}
		f.name, f.fn = s, fn
	default:
		return fail("wrong number of arguments to redis.register_function")
	}
	if !validLibName(f.name) {
		return fail("Library names can only contain letters, numbers, or underscores(_) and must be at least one character long")
	}
	for _, g := range lib.funcs {
		if g.name == f.name {
			return fail("Function already exists in the library")
		}
	}
	lib.funcs = append(lib.funcs, f)
	return 0
}

// luaStringish is lua_isstring + lua_tostring: strings and numbers.
func luaStringish(v lua.LValue) (string, bool) {
	switch x := v.(type) {
	case lua.LString:
		return string(x), true
	case lua.LNumber:
		return luaNumberString(x), true
	}
	return "", false
}

// validLibName is functionsVerifyName: [A-Za-z0-9_]+.
func validLibName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

func cmdFunctionLoad(e *Engine, args [][]byte) Reply {
	replace := false
	pos := 2
	for pos < len(args)-1 {
		a := args[pos]
		pos++
		if eqFold(a, "replace") {
			replace = true
			continue
		}
		return Err("ERR Unknown option given: " + string(a))
	}
	if pos >= len(args) {
		return Err("ERR Function code is missing")
	}
	name, errText := e.loadLibrary(string(args[pos]), replace)
	if errText != "" {
		return Err(cleanErr("ERR " + errText))
	}
	e.cfg.stats.dirty++ // functionLoadCommand's server.dirty++
	return BulkStr(name)
}

// libraryMeta is functionExtractLibMetaData: the engine and name of the shebang, and the code
// from its line feed on.
func libraryMeta(payload string) (engine, name, code, errText string) {
	if !strings.HasPrefix(payload, "#!") {
		return "", "", "", "Missing library metadata"
	}
	end := strings.IndexByte(payload, '\n')
	if end < 0 {
		return "", "", "", "Invalid library metadata"
	}
	parts, err := SplitArgs(payload[:end])
	if err != nil || len(parts) == 0 {
		return "", "", "", "Invalid library metadata"
	}
	engine = string(parts[0][2:])
	hasName := false
	for _, p := range parts[1:] {
		if len(p) >= 5 && strings.EqualFold(string(p[:5]), "name=") {
			if hasName {
				return "", "", "", "Invalid metadata value, name argument was given multiple times"
			}
			name, hasName = string(p[5:]), true
			continue
		}
		return "", "", "", "Invalid metadata value given: " + string(p)
	}
	if !hasName {
		return "", "", "", "Library name was not given"
	}
	return engine, name, payload[end:], ""
}

// loadLibrary is functionsCreateWithLibraryCtx.
func (e *Engine) loadLibrary(payload string, replace bool) (string, string) {
	engine, name, code, errText := libraryMeta(payload)
	if errText != "" {
		return "", errText
	}
	if !validLibName(name) {
		return "", "Library names can only contain letters, numbers, or underscores(_) and must be at least one character long"
	}
	if !strings.EqualFold(engine, "lua") {
		return "", "Engine '" + engine + "' not found"
	}
	s := e.scripting()
	old := s.libs[name]
	if old != nil && !replace {
		return "", "Library '" + name + "' already exists"
	}
	if old != nil {
		e.unlinkLibrary(old)
	}
	lib := &functionLib{name: name, code: payload}
	if errText := e.runLibrary(lib, code); errText != "" {
		if old != nil {
			e.linkLibrary(old)
		}
		return "", errText
	}
	if len(lib.funcs) == 0 {
		if old != nil {
			e.linkLibrary(old)
		}
		return "", "No functions registered"
	}
	for _, f := range lib.funcs {
		if s.funcs[strings.ToLower(f.name)] != nil {
			if old != nil {
				e.linkLibrary(old)
			}
			return "", "Function " + f.name + " already exists"
		}
	}
	e.linkLibrary(lib)
	return name, ""
}

func (e *Engine) linkLibrary(lib *functionLib) {
	s := e.scripting()
	s.libs[lib.name] = lib
	for _, f := range lib.funcs {
		if k := strings.ToLower(f.name); s.funcs[k] == nil {
			s.funcs[k] = f
		}
	}
}

func (e *Engine) unlinkLibrary(lib *functionLib) {
	s := e.scripting()
	delete(s.libs, lib.name)
	for _, f := range lib.funcs {
		if k := strings.ToLower(f.name); s.funcs[k] == f {
			delete(s.funcs, k)
		}
	}
}

// runLibrary is luaEngineCreate: compile, then run the code with the load-time globals under
// the step bound (Redis: a 500 ms load timeout).
func (e *Engine) runLibrary(lib *functionLib, code string) string {
	vm := e.functionVM()
	L := vm.L
	fn, msg := luaCompile(L, userFunction, code)
	if fn == nil {
		return "Error compiling function: " + msg
	}
	fn.Env = vm.proxy
	vm.meta.RawSetString("__index", vm.loadAPI)
	vm.loading = lib
	limit := e.scriptStepLimit()
	if limit == 0 {
		limit = DefaultScriptStepLimit
	}
	run := &scriptRun{name: lib.name, clock: e.clock, startMs: e.clock.NowMs()}
	*vm.step = stepCtx{e: e, run: run, limit: limit}
	defer func() {
		vm.meta.RawSetString("__index", vm.real)
		vm.loading = nil
		vm.step.run = nil
		L.SetTop(0)
	}()
	L.Push(fn)
	if err := L.PCall(0, 0, nil); err != nil {
		msg := err.Error()
		if ae, ok := err.(*lua.ApiError); ok {
			switch obj := ae.Object.(type) {
			case *lua.LTable:
				msg = luaTableString(obj, "err")
			case lua.LString:
				msg = "ERR " + luaVMError(string(obj))
			default:
				msg = "ERR " + luaValueString(obj)
			}
		}
		if vm.step.stop != nil {
			msg = "ERR FUNCTION LOAD timeout"
		}
		return "Error registering functions: " + msg
	}
	return ""
}

func cmdFunctionDelete(e *Engine, args [][]byte) Reply {
	s := e.scripting()
	lib := s.libs[string(args[2])]
	if lib == nil {
		return Err("ERR Library not found")
	}
	e.unlinkLibrary(lib)
	e.cfg.stats.dirty++ // functionDeleteCommand's server.dirty++
	return OK
}

func cmdFunctionFlush(e *Engine, args [][]byte) Reply {
	if len(args) > 3 {
		return errSubcommandSyntax("FUNCTION", args[1])
	}
	if len(args) == 3 && !eqFold(args[2], "sync") && !eqFold(args[2], "async") {
		return Err("ERR FUNCTION FLUSH only supports SYNC|ASYNC option")
	}
	s := e.scripting()
	s.libs = map[string]*functionLib{}
	s.funcs = map[string]*function{}
	if s.fn != nil {
		s.fn.L.Close()
	}
	s.fn, s.fnVM = nil, nil
	e.cfg.stats.dirty++ // functionFlushCommand's server.dirty++
	return OK
}

func cmdFunctionList(e *Engine, args [][]byte) Reply {
	withCode := false
	var pattern []byte
	hasPattern := false
	for i := 2; i < len(args); i++ {
		a := args[i]
		if !withCode && eqFold(a, "withcode") {
			withCode = true
			continue
		}
		if !hasPattern && eqFold(a, "libraryname") {
			if i >= len(args)-1 {
				return Err("ERR library name argument was not given")
			}
			i++
			pattern, hasPattern = args[i], true
			continue
		}
		return Err("ERR Unknown argument " + string(a))
	}
	s := e.scripting()
	names := make([]string, 0, len(s.libs))
	for n := range s.libs {
		names = append(names, n)
	}
	sort.Strings(names)
	out := []Reply{}
	for _, n := range names {
		lib := s.libs[n]
		if hasPattern && !stringMatch(pattern, []byte(lib.name), true) {
			continue
		}
		funcs := []Reply{}
		for _, f := range lib.funcs {
			desc := NilReply
			if f.desc != nil {
				desc = BulkStr(*f.desc)
			}
			flags := []Reply{}
			for _, sf := range scriptFlagNames {
				if f.flags&sf.f != 0 {
					flags = append(flags, Status(sf.name))
				}
			}
			funcs = append(funcs, Map(BulkStr("name"), BulkStr(f.name), BulkStr("description"), desc,
				BulkStr("flags"), Set(flags...)))
		}
		item := []Reply{BulkStr("library_name"), BulkStr(lib.name), BulkStr("engine"), BulkStr("LUA"),
			BulkStr("functions"), Reply{Kind: KindArray, Array: funcs}}
		if withCode {
			item = append(item, BulkStr("library_code"), BulkStr(lib.code))
		}
		out = append(out, Map(item...))
	}
	return Reply{Kind: KindArray, Array: out}
}

// cmdFunctionStats: no script can be running when a command of this client runs (a running one
// is reported to other connections by the RESP server).
func cmdFunctionStats(e *Engine, args [][]byte) Reply {
	s := e.scripting()
	nf := 0
	for _, l := range s.libs {
		nf += len(l.funcs)
	}
	return Map(BulkStr("running_script"), NilReply, BulkStr("engines"),
		Map(BulkStr("LUA"), Map(BulkStr("libraries_count"), Int(int64(len(s.libs))), BulkStr("functions_count"), Int(int64(nf)))))
}

// fcall is fcallCommandGeneric.
func (e *Engine) fcall(args [][]byte, ro bool) Reply {
	s := e.scripting()
	f := s.funcs[strings.ToLower(string(args[1]))]
	if f == nil {
		return Err("ERR Function not found")
	}
	numkeys, r := scriptNumkeys(args, Err("ERR Bad number of keys provided"))
	if r != nil {
		return *r
	}
	if f.flags&sfNoCluster != 0 && e.cluster != nil {
		return errScriptNoCluster
	}
	if f.flags&sfNoWrites == 0 && ro {
		return errScriptWriteRO
	}
	readOnly := ro || f.flags&sfNoWrites != 0
	return e.runScript(e.functionVM().luaVM, f.fn, f.name, false, readOnly, f.flags, args[3:3+numkeys], args[3+numkeys:], args)
}
