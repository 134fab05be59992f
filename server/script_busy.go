package server

// A script that runs too long, seen from the other connections (processCommand and scriptKill
// of Redis 7.0.15's server.c and script.c).
//
// A script holds the engine lock for as long as it runs. Redis lets a script run undisturbed for
// busy-reply-threshold (lua-time-limit, 5000 ms); from then on it answers every other client's
// command with BUSY, except the commands flagged allow-busy, and SCRIPT KILL (FUNCTION KILL for
// a function) stops the script unless it already wrote. redscope does the same before taking
// the engine lock: a connection whose command finds the lock held by a running script waits
// while the script is within the threshold, then gets
//
//	-BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.
//
// or, for SCRIPT KILL / FUNCTION KILL, the kill's answer (OK, UNKILLABLE, NOTBUSY or the other
// BUSY text), and for FUNCTION STATS the running function (or the EVAL BUSY text), all read
// from the engine's ScriptMonitor, which is safe to use without the lock. The connection's
// transaction goes on as in Redis 7.4.1's processCommand (engine/multi_busy.go, Client.BusyTx):
// MULTI, DISCARD and WATCH inside MULTI are served, a refused command flags the open
// transaction, EXEC is refused with EXECABORT … BUSY and discards it, UNWATCH, AUTH and HELLO
// inside MULTI are queued. Differences from Redis: the allow-busy commands that need the engine
// (WATCH and UNWATCH outside MULTI, AUTH, HELLO, QUIT, RESET, SHUTDOWN outside MULTI) wait for
// the script to end instead of being served during it, a command that had already passed this
// check when a script started waits for that script too, and the replies given here are not
// counted in INFO commandstats / errorstats (the counters need the engine lock).

import (
	"time"

	"redscope/engine"
)

// Server.busy holds the ScriptMonitor of the engine last seen under the lock (and that engine).

type busyEngine struct {
	m   *engine.ScriptMonitor
	eng *engine.Engine
}

// rawWriter takes a reply's bytes (the connection's output buffer).
type rawWriter interface {
	WriteRaw([]byte)
	Proto() int // the connection's RESP version
}

// scriptBusy answers args itself when a script holds the engine past busy-reply-threshold; it
// reports whether it did. Called by handle before the engine lock is taken.
func (s *Server) scriptBusy(conn rawWriter, args [][]byte) bool {
	if len(args) == 0 {
		return false
	}
	kill, eval := killCommand(args)
	for wait := time.Microsecond; ; wait = min(2*wait, time.Millisecond) {
		if s.mu.TryLock() {
			if b := s.busy.Load(); b == nil || b.eng != s.eng {
				s.busy.Store(&busyEngine{s.eng.ScriptMonitor(), s.eng})
			}
			s.mu.Unlock()
			return false
		}
		be := s.busy.Load()
		if be == nil {
			return false
		}
		m := be.m
		if !m.Running() {
			return false // an ordinary command holds the lock: wait for it in runAll
		}
		if m.TimedOut() {
			switch {
			case kill:
				conn.WriteRaw(m.Kill(eval).AppendRESP(nil, conn.Proto()))
				return true
			case len(args) == 2 && eqFold(args[0], "function") && eqFold(args[1], "stats"):
				conn.WriteRaw(functionStats(m).AppendRESP(nil, conn.Proto()))
				return true
			}
			if tx := connTx(conn, be.eng); tx != nil {
				r, handled := tx.BusyTx(args, m.BusyReply())
				if !handled {
					return false // an allow-busy command that needs the engine: it waits
				}
				conn.WriteRaw(r.AppendRESP(nil, conn.Proto()))
				return true
			}
			if allowBusy(args) {
				return false
			}
			conn.WriteRaw(m.BusyReply().AppendRESP(nil, conn.Proto()))
			return true
		}
		time.Sleep(wait)
	}
}

// functionStats is functionStatsCommand while a script runs: the EVAL BUSY error, or the running
// function's name, command and duration with the engine's counts.
func functionStats(m *engine.ScriptMonitor) engine.Reply {
	info := m.Info()
	if info == nil || m.Eval() {
		return m.BusyReply()
	}
	cmd := make([]engine.Reply, len(info.Command))
	for i, a := range info.Command {
		cmd[i] = engine.BulkStr(a)
	}
	return engine.Map(
		engine.BulkStr("running_script"), engine.Map(
			engine.BulkStr("name"), engine.BulkStr(info.Name),
			engine.BulkStr("command"), engine.Array(cmd...),
			engine.BulkStr("duration_ms"), engine.Int(time.Since(info.Start).Milliseconds())),
		engine.BulkStr("engines"), engine.Map(engine.BulkStr("LUA"), engine.Map(
			engine.BulkStr("libraries_count"), engine.Int(int64(info.Libraries)),
			engine.BulkStr("functions_count"), engine.Int(int64(info.Functions)))))
}

// killCommand recognizes SCRIPT KILL (eval) and FUNCTION KILL.
func killCommand(args [][]byte) (kill, eval bool) {
	if len(args) != 2 || !eqFold(args[1], "kill") {
		return false, false
	}
	switch {
	case eqFold(args[0], "script"):
		return true, true
	case eqFold(args[0], "function"):
		return true, false
	}
	return false, false
}

// allowBusy: the other commands 7.0.15 flags allow-busy; they wait for the script here.
func allowBusy(args [][]byte) bool {
	for _, n := range []string{"multi", "discard", "watch", "unwatch", "auth", "hello", "quit", "reset", "shutdown"} {
		if eqFold(args[0], n) {
			return true
		}
	}
	return false
}

// connTx is the engine client of the connection behind conn when it belongs to eng (the engine
// the running script holds); nil before the connection's first command. Only the connection's
// own goroutine sets c.tx, and this is that goroutine.
func connTx(conn rawWriter, eng *engine.Engine) *engine.Client {
	o, ok := conn.(*outBuf)
	if !ok {
		return nil
	}
	c := (*client)(o)
	if c.tx == nil || c.txEng != eng {
		return nil
	}
	return c.tx
}
