package engine

// The scripting state every build has, with or without the Lua interpreter (script.go, which
// the nolua build leaves out: script_nolua.go): the monitor the RESP server reads, the state's
// struct, the running script, busy-reply-threshold and the settings the browser app makes.

import (
	"sync/atomic"
	"time"
)

// DefaultScriptStepLimit is how many Lua instructions a script may run under a logical clock
// before the engine stops it.
const DefaultScriptStepLimit = 10_000_000

func init() {
	configParams = append(configParams,
		&ConfigParam{Name: "busy-reply-threshold", Aliases: []string{"lua-time-limit"}, Kind: "int", Default: "5000", Min: 0, Max: maxLong})
}

// ScriptMonitor is the part of the scripting state another goroutine may read while a script
// runs (the RESP server answers BUSY and SCRIPT KILL from other connections with it).
type ScriptMonitor struct {
	info     atomic.Pointer[ScriptInfo]
	running  atomic.Bool
	timedOut atomic.Bool
	eval     atomic.Bool // the running script is an EVAL (not a function)
	dirty    atomic.Bool // it already ran a write command
	killed   atomic.Bool
}

// ScriptInfo describes the running script for FUNCTION STATS from another connection.
type ScriptInfo struct {
	Name                 string
	Command              []string // the EVAL / FCALL command as sent
	Start                time.Time
	Libraries, Functions int // function libraries loaded, and their functions
}

// Info is the running script's description (nil when none runs).
func (m *ScriptMonitor) Info() *ScriptInfo {
	if !m.running.Load() {
		return nil
	}
	return m.info.Load()
}

// Eval reports whether the running script is an EVAL script (not a function).
func (m *ScriptMonitor) Eval() bool { return m.eval.Load() }

// ScriptMonitor returns the engine's monitor; safe to call from any goroutine.
func (e *Engine) ScriptMonitor() *ScriptMonitor { return &e.mon }

// TimedOut reports whether a script has been running longer than busy-reply-threshold.
func (m *ScriptMonitor) TimedOut() bool { return m.running.Load() && m.timedOut.Load() }

// Running reports whether a script is running.
func (m *ScriptMonitor) Running() bool { return m.running.Load() }

// BusyReply is the error another client gets while a script is timed out (processCommand).
func (m *ScriptMonitor) BusyReply() Reply {
	if m.eval.Load() {
		return errBusyEval
	}
	return errBusyFunction
}

// Kill is scriptKill: SCRIPT KILL (eval true) or FUNCTION KILL from another client.
func (m *ScriptMonitor) Kill(eval bool) Reply {
	if !m.running.Load() {
		return errNotBusy
	}
	if m.dirty.Load() {
		return errUnkillable
	}
	if eval && !m.eval.Load() {
		return errBusyFunction
	}
	if !eval && m.eval.Load() {
		return errBusyEval
	}
	m.killed.Store(true)
	return OK
}

// SetScriptStepLimit sets how many Lua instructions a script may run before the engine stops it
// (0: no limit, the protocol server's setting, where SCRIPT KILL does it). A negative n restores
// the default: DefaultScriptStepLimit under a logical clock, no limit under the wall clock.
func (e *Engine) SetScriptStepLimit(n int64) {
	e.scripting().stepLimit = n
}

func (e *Engine) scriptStepLimit() int64 {
	s := e.scripting()
	if s.stepLimit >= 0 {
		return s.stepLimit
	}
	if _, wall := e.clock.(WallClock); wall {
		return 0
	}
	return DefaultScriptStepLimit
}

// scriptState is the engine's scripting: the EVAL interpreter and cache, the functions
// interpreter and libraries, the running script and Redis's rand48 generator.
type scriptState struct {
	eval      *luaVM
	scripts   map[string]*evalScript // lowercase sha → script
	fn        *luaVM
	fnVM      *functionVM
	libs      map[string]*functionLib
	funcs     map[string]*function
	run       *scriptRun
	rand48    uint64
	stepLimit int64
	guard     func(args [][]byte) error
}

// SetScriptCallGuard makes every command a script runs through redis.call / redis.pcall pass
// check first (after Redis's own checks): a non-nil error fails the call, as a Redis error
// would, with the error's text ("ERR " is prepended unless it starts with "-"). The browser's
// lesson limits use it so that a script cannot ask for more than a typed command may; nil
// removes the guard.
func (e *Engine) SetScriptCallGuard(check func(args [][]byte) error) {
	e.scripting().guard = check
}

func (e *Engine) scripting() *scriptState {
	if e.lua == nil {
		e.lua = &scriptState{scripts: map[string]*evalScript{}, libs: map[string]*functionLib{},
			funcs: map[string]*function{}, rand48: rand48Seed, stepLimit: -1}
	}
	return e.lua
}

// InScript reports whether a script is running (blocking commands do not block then).
func (e *Engine) InScript() bool { return e.lua != nil && e.lua.run != nil }

// scriptRun is scriptRunCtx.
type scriptRun struct {
	name     string // sha or function name
	eval     bool
	readOnly bool
	startMs  int64
	clock    Clock // the engine's clock (e.clock is frozen while the script runs)
	calls    int
	outcome  string
	db       *DB
	// resp is the protocol of the script's own client (redis.setresp; 0 and 2: RESP2, as every
	// script starts — script.c, scriptPrepareForRun): the replies of redis.call are converted
	// to Lua from it, and a Lua boolean is returned as RESP3's boolean when it is 3.
	resp int
	// On a cluster node (cluster_script.go): the script's slot (-1 none yet) and whether it may
	// touch keys of other slots (an EVAL without shebang, or flags=allow-cross-slot-keys).
	slot      int
	crossSlot bool
}

// rand48Seed is the seed of Redis's rand48 (script.go).
const rand48Seed = 0x1234ABCD330E
