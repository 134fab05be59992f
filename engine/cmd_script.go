//go:build !nolua

package engine

// EVAL, EVALSHA, EVAL_RO, EVALSHA_RO and SCRIPT (eval.c of 7.0.15; the interpreter, sandbox and
// conversions are in script.go, the commands' table entries in script_commands.go).
//
//   - EVAL script numkeys key… arg…: numkeys is parsed first ("value is not an integer or out of
//     range", "Number of keys can't be greater than number of args", "Number of keys can't be
//     negative"), then the script is found by the SHA1 of its body or compiled and cached
//     ("Error compiling script (new function): …").
//   - EVALSHA looks the lowercase SHA1 up; a SHA1 that is not 40 characters long or not cached
//     answers NOSCRIPT.
//   - A first line "#!lua [flags=no-writes,allow-oom,…]" (the shebang) opts out of the
//     backward-compatible mode: a script without no-writes is refused by EVAL_RO ("Can not
//     execute a script with write flag using *_ro command."), one with no-writes runs read-only.
//     Without a shebang, EVAL_RO runs the script read-only: its first write command fails with
//     "Write commands are not allowed from read-only scripts."
//   - SCRIPT LOAD compiles and caches; EXISTS answers 1/0 per SHA1 (any case); FLUSH [ASYNC|SYNC]
//     drops the cache and makes a new interpreter; KILL answers NOTBUSY here (a running script
//     can only be killed from another connection: ScriptMonitor.Kill).

import (
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// The handlers of EVAL, EVALSHA, EVAL_RO and EVALSHA_RO (their table entries are in
// script_commands.go).
func cmdEval(e *Engine, a [][]byte) Reply      { return e.evalGeneric(a, false, false) }
func cmdEvalSHA(e *Engine, a [][]byte) Reply   { return e.evalGeneric(a, true, false) }
func cmdEvalRO(e *Engine, a [][]byte) Reply    { return e.evalGeneric(a, false, true) }
func cmdEvalSHARO(e *Engine, a [][]byte) Reply { return e.evalGeneric(a, true, true) }

// evalVM is the EVAL interpreter, made when first needed.
func (e *Engine) evalVM() *luaVM {
	s := e.scripting()
	if s.eval == nil {
		s.eval = e.newLuaVM(true)
	}
	return s.eval
}

// scriptNumkeys is the numkeys of EVAL and FCALL (args[2], evalGenericCommand and fcallCommand):
// an integer (notInt otherwise, each command has its text), checked against the arguments
// after it before its sign.
func scriptNumkeys(args [][]byte, notInt Reply) (int64, *Reply) {
	numkeys, ok := string2ll(args[2])
	if !ok {
		return 0, &notInt
	}
	if numkeys > int64(len(args)-3) {
		return 0, &errNumkeysTooMany
	}
	if numkeys < 0 {
		return 0, &errNumkeysNegative
	}
	return numkeys, nil
}

func (e *Engine) evalGeneric(args [][]byte, bySHA, ro bool) Reply {
	if bySHA && len(args[1]) != 40 {
		return errNoScript
	}
	numkeys, r := scriptNumkeys(args, ErrNotInt)
	if r != nil {
		return *r
	}
	s := e.scripting()
	var sc *evalScript
	if bySHA {
		sc = s.scripts[strings.ToLower(string(args[1]))]
		if sc == nil {
			return errNoScript
		}
	} else {
		var r Reply
		sc, _, r = e.createEvalScript(string(args[1]))
		if sc == nil {
			return r
		}
	}
	if sc.flags&sfCompat == 0 && sc.flags&sfNoCluster != 0 && e.cluster != nil {
		return errScriptNoCluster
	}
	if sc.flags&sfCompat == 0 && sc.flags&sfNoWrites == 0 && ro {
		return errScriptWriteRO
	}
	readOnly := ro || (sc.flags&sfCompat == 0 && sc.flags&sfNoWrites != 0)
	keys := args[3 : 3+numkeys]
	argv := args[3+numkeys:]
	return e.runScript(e.evalVM(), sc.fn, sha1hex(sc.body), true, readOnly, sc.flags, keys, argv, args)
}

// createEvalScript is luaCreateFunction: the cached script of body, compiled when new.
func (e *Engine) createEvalScript(body string) (*evalScript, string, Reply) {
	s := e.scripting()
	sha := sha1hex(body)
	if sc := s.scripts[sha]; sc != nil {
		return sc, sha, Reply{}
	}
	flags, skip, errText := shebangFlags(body)
	if errText != "" {
		return nil, "", Err("ERR " + errText)
	}
	vm := e.evalVM()
	fn, msg := luaCompile(vm.L, userScript, body[skip:])
	if fn == nil {
		return nil, "", Err(cleanErr("ERR Error compiling script (new function): " + msg))
	}
	fn.Env = vm.proxy
	sc := &evalScript{body: body, fn: fn, flags: flags}
	s.scripts[sha] = sc
	return sc, sha, Reply{}
}

// shebangFlags is evalExtractShebangFlags: the flags of a "#!lua" first line and its length (the
// line feed is kept so line numbers stay the user's).
func shebangFlags(body string) (scriptFlags, int, string) {
	if !strings.HasPrefix(body, "#!") {
		return sfCompat, 0, ""
	}
	end := strings.IndexByte(body, '\n')
	if end < 0 {
		return 0, 0, "Invalid script shebang"
	}
	parts, err := SplitArgs(body[:end])
	if err != nil || len(parts) == 0 {
		return 0, 0, "Invalid engine in script shebang"
	}
	if string(parts[0]) != "#!lua" {
		return 0, 0, "Unexpected engine in script shebang: " + string(parts[0])
	}
	var flags scriptFlags
	for _, p := range parts[1:] {
		rest, ok := strings.CutPrefix(string(p), "flags=")
		if !ok {
			return 0, 0, "Unknown lua shebang option: " + string(p)
		}
		if rest == "" {
			continue
		}
		for _, name := range strings.Split(rest, ",") {
			f, ok := scriptFlagByName(name)
			if !ok {
				return 0, 0, "Unexpected flag in script shebang: " + name
			}
			flags |= f
		}
	}
	return flags, end, ""
}

func scriptFlagByName(name string) (scriptFlags, bool) {
	for _, sf := range scriptFlagNames {
		if sf.name == name {
			return sf.f, true
		}
	}
	return 0, false
}

// luaCompileError is the message for a script gopher-lua refused: Lua 5.1's own, re-derived by
// the syntax checker of script_syntax.go ("user_script:2: 'end' expected (to close 'if' at
// line 1) near '<eof>'"); when that finds no error, gopher-lua's message in Lua's form
// "user_script:LINE: unexpected symbol near 'TOKEN'".
func luaCompileError(msg, body string) string {
	msg = strings.TrimSpace(msg)
	if lua51 := luaSyntaxInstead(msg, body); lua51 != "" {
		return lua51 // script_syntax.go: Lua 5.1's own message
	}
	// script_match.go: "user_script line:2(column:3) near 'x':   syntax error"
	if m := findParseNear(msg); m != nil {
		what := msg[m[8]:m[9]]
		if what == "syntax error" || what == "parse error" {
			what = "unexpected symbol"
		}
		return msg[m[2]:m[3]] + ":" + msg[m[4]:m[5]] + ": " + what + " near '" + msg[m[6]:m[7]] + "'"
	}
	// "user_script at EOF:   syntax error"
	if m := findParseEOF(msg); m != nil {
		line := strings.Count(body, "\n") + 1
		what := msg[m[4]:m[5]]
		if what == "syntax error" || what == "parse error" {
			what = "unexpected symbol"
		}
		return msg[m[2]:m[3]] + ":" + strconv.Itoa(line) + ": " + what + " near '<eof>'"
	}
	return msg
}

func cmdScriptLoad(e *Engine, args [][]byte) Reply {
	sc, sha, r := e.createEvalScript(string(args[2]))
	if sc == nil {
		return r
	}
	return BulkStr(sha)
}

func cmdScriptExists(e *Engine, args [][]byte) Reply {
	s := e.scripting()
	out := make([]Reply, 0, len(args)-2)
	for _, a := range args[2:] {
		if s.scripts[strings.ToLower(string(a))] != nil {
			out = append(out, Int(1))
		} else {
			out = append(out, Int(0))
		}
	}
	return Reply{Kind: KindArray, Array: out}
}

func cmdScriptFlush(e *Engine, args [][]byte) Reply {
	if len(args) > 3 || len(args) == 3 && !eqFold(args[2], "sync") && !eqFold(args[2], "async") {
		return Err("ERR SCRIPT FLUSH only support SYNC|ASYNC option")
	}
	s := e.scripting()
	if s.eval != nil {
		s.eval.L.Close()
	}
	s.eval = nil
	s.scripts = map[string]*evalScript{}
	return OK
}

// luaTypeName is used by error texts of the libraries.
func luaTypeName(v lua.LValue) string { return v.Type().String() }
