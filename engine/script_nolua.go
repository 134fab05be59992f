//go:build nolua

package engine

// The build without the Lua interpreter (-tags nolua): the browser app's first load, 0.4 MB
// smaller once compressed, which hands the session over to the full build the moment a learner
// runs a scripting command (NeedsLua). script.go, script_*.go, cmd_script.go and function.go, the
// files that import gopher-lua, are left out; the command table is the same
// (script_commands.go), and the handlers that would run Lua answer errNoLuaInterpreter: a safety
// net the app never lets a command reach. No library can ever be loaded, so the state's maps
// stay empty, no script runs and e.lua.run stays nil.

// hasLua: this build does not run scripts (HasLua).
const hasLua = false

// The interpreter's types, which the scripting state (script_state.go) names but never fills
// here.
type (
	luaVM       struct{}
	functionVM  struct{}
	evalScript  struct{}
	function    struct{}
	functionLib struct {
		name string
		code string // the library's source, as FUNCTION LOAD got it (persist.go)
	}
)

func noLua(e *Engine, args [][]byte) Reply { return errNoLuaInterpreter }

var (
	cmdEval           = noLua
	cmdEvalSHA        = noLua
	cmdEvalRO         = noLua
	cmdEvalSHARO      = noLua
	cmdScriptLoad     = noLua
	cmdScriptExists   = noLua
	cmdScriptFlush    = noLua
	cmdFcall          = noLua
	cmdFcallRO        = noLua
	cmdFunctionLoad   = noLua
	cmdFunctionDelete = noLua
	cmdFunctionFlush  = noLua
	cmdFunctionList   = noLua
	cmdFunctionStats  = noLua
)

// loadLibrary refuses every library (an RDB with functions fails to load: persist.go).
func (e *Engine) loadLibrary(payload string, replace bool) (string, string) {
	return "", noLuaText
}
