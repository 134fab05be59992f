//go:build nolua

package engine

// The build without the Lua interpreter (-tags nolua, script_nolua.go): the scripting commands
// that would run Lua answer the safety net's error, the rest of the engine works. The command
// table's equality with the full build is TestNoLuaTable's (nolua_table_test.go).

import "testing"

func TestNoLuaSafetyNet(t *testing.T) {
	if HasLua {
		t.Fatal("HasLua is true under -tags nolua")
	}
	const net = "(error) ERR this build of redscope has no Lua interpreter"
	for _, v := range Versions {
		e, _ := newEngineAt(v)
		for _, args := range [][]string{
			{"EVAL", "return 1", "0"}, {"eval", "return redis.call('set', KEYS[1], 1)", "1", "k"},
			{"EVALSHA", "e0e1f9fabfc9d4800c877a703b823ac0578ff8db", "0"}, {"EVALSHA", "short", "0"},
			{"EVAL_RO", "return 1", "0"}, {"EVALSHA_RO", "e0e1f9fabfc9d4800c877a703b823ac0578ff8db", "0"},
			{"FCALL", "f", "0"}, {"FCALL_RO", "f", "1", "k"},
			{"SCRIPT", "LOAD", "return 1"}, {"SCRIPT", "EXISTS", "e0e1f9fabfc9d4800c877a703b823ac0578ff8db"},
			{"SCRIPT", "FLUSH"}, {"SCRIPT", "FLUSH", "ASYNC"},
			{"FUNCTION", "LOAD", "#!lua name=lib\nredis.register_function('f', function() return 1 end)"},
			{"FUNCTION", "DELETE", "lib"}, {"FUNCTION", "FLUSH"}, {"FUNCTION", "LIST"}, {"FUNCTION", "STATS"},
		} {
			want(t, e, net, args...)
		}
		if e.InScript() {
			t.Errorf("%v: InScript after the safety net", v)
		}
	}
}

func TestNoLuaOrdinaryCommands(t *testing.T) {
	e, _ := newTestEngine()
	doLines(t, e, `
		SET k v => OK
		GET k => "v"
		INCR n => (integer) 1
		RPUSH l a b c => (integer) 3
		LRANGE l 0 -1 => 1) "a" | 2) "b" | 3) "c"
		HSET h f 1 => (integer) 1
		ZADD z 1 m => (integer) 1
		MULTI => OK
		INCR n => QUEUED
		EVAL "return 1" 0 => QUEUED
		EXEC => 1) (integer) 2 | 2) (error) ERR this build of redscope has no Lua interpreter
		DEBUG RELOAD => OK
		DBSIZE => (integer) 5
		FLUSHALL => OK
		DBSIZE => (integer) 0
	`)
	e.SetScriptCallGuard(func([][]byte) error { return nil })
	e.SetScriptStepLimit(5)
	if m := e.ScriptMonitor(); m.Running() || m.Info() != nil {
		t.Error("the monitor reports a script running")
	}
	want(t, e, "(error) NOTBUSY No scripts in execution right now.", "SCRIPT", "KILL")
}
