package server

// MONITOR (server.c monitorCommand, replication.c replicationFeedMonitors; docs/pubsub.md).
//
// MONITOR answers +OK and makes the connection a monitor (Redis flags it CLIENT_SLAVE |
// CLIENT_MONITOR); a second MONITOR answers nothing; inside EXEC it is refused ("MONITOR isn't
// allowed for DENY BLOCKING client"). A monitor may still send commands, except those that
// touch the keyspace (read, write or may-replicate commands: "Replica can't interact with the
// keyspace"); RESET makes it a plain client again.
//
// Every command call() would feed (the engine decides for its own commands: engine/monitor.go;
// this file for the commands the server answers: HELLO, AUTH, CLIENT, QUIT, RESET, the Pub/Sub
// family) becomes one line sent to every monitor:
//
//	+<unix seconds>.<6-digit microseconds> [<db> <addr>] "arg" "arg"…
//
// (`[<db> lua]` for a script's commands), each argument quoted as sdscatrepr does. AUTH's
// arguments and HELLO's AUTH username and password read "(redacted)"; CONFIG, CLIENT LIST and
// the other admin commands are not shown. The time is the engine clock's.
//
// Delivery reuses the Pub/Sub pusher (pubsub.go): a line for another connection goes to its
// queue, written by its pusher goroutine; a line about the monitor's own command comes after
// that command's reply (c.deferred), as Redis adds it after the reply.

import (
	"strconv"

	"redscope/engine"
)

var errMonitorDenyBlocking = engine.Err("ERR MONITOR isn't allowed for DENY BLOCKING client")

// monitorCommand is MONITOR for c (s.mu held); handled is false for other commands.
func (s *Server) monitorCommand(c *client, args [][]byte) (engine.Reply, bool) {
	if len(args[0]) != 7 || !eqFold(args[0], "monitor") {
		return engine.Reply{}, false
	}
	c.lastCmd = "monitor"
	if len(args) != 1 {
		return arityErr("monitor"), true
	}
	if c.inExec {
		return errMonitorDenyBlocking, true
	}
	if c.monitor {
		c.replyNone = true // already a monitor (or replica): no reply at all
		return engine.OK, true
	}
	c.monitor = true
	s.monitors = append(s.monitors, c)
	s.syncMonitor()
	if c.ps == nil {
		c.ps = &pubsubState{}
	}
	s.startPusher(c)
	return engine.OK, true
}

// monitorCheck is MONITOR's arity check, for MULTI's queue.
func monitorCheck(args [][]byte) (engine.Reply, bool) {
	if len(args[0]) != 7 || !eqFold(args[0], "monitor") {
		return engine.Reply{}, false
	}
	if len(args) != 1 {
		return arityErr("monitor"), true
	}
	return engine.Reply{}, true
}

// monitorDrop makes c a plain client again (RESET, a closed connection).
func (s *Server) monitorDrop(c *client) {
	if !c.monitor {
		return
	}
	c.monitor = false
	for i, m := range s.monitors {
		if m == c {
			s.monitors = append(s.monitors[:i:i], s.monitors[i+1:]...)
			break
		}
	}
	s.syncMonitor()
}

// syncMonitor gives the engine its MonitorFunc while a client monitors, and none otherwise (the
// engine then reads no clock for the feed).
func (s *Server) syncMonitor() {
	if len(s.monitors) > 0 {
		s.eng.SetMonitor(s.feedEngine)
	} else {
		s.eng.SetMonitor(nil)
	}
}

// monitorRefuse is processCommand's check on a replica (a monitor is one): a command that
// reads, writes or may replicate is refused.
func (s *Server) monitorRefuse(c *client, tx *engine.Client, args [][]byte) (engine.Reply, bool) {
	if !c.monitor {
		return engine.Reply{}, false
	}
	touches := false
	if n := pubsubName(args[0]); n == "publish" || n == "spublish" {
		touches = true // CMD_MAY_REPLICATE (the server's own commands, not in the engine's table)
	} else if cmd := s.eng.LookupCommand(args); cmd != nil {
		touches = cmd.Flags&(engine.FlagWrite|engine.FlagReadonly|engine.FlagMayReplicate) != 0
	}
	if !touches {
		return engine.Reply{}, false
	}
	if r, ok := s.connCheck(args); ok && r.Kind != 0 {
		return engine.Reply{}, false // its own error comes first
	}
	if !tx.Check(args) {
		return engine.Reply{}, false
	}
	return reject(tx, args, engine.Err("ERR Replica can't interact with the keyspace")), true
}

// feedEngine is the engine's MonitorFunc: the command runs for s.cur.
func (s *Server) feedEngine(us int64, db int, script bool, args [][]byte) {
	if len(s.monitors) == 0 {
		return
	}
	s.feed(s.cur, us, db, script, args)
}

// feedFront feeds a command the server answered itself, unless Redis refuses it before call()
// (an unknown subcommand, a wrong arity) or it is an admin command.
func (s *Server) feedFront(c *client, args [][]byte, r engine.Reply) {
	if len(s.monitors) == 0 || len(args) == 0 || frontRefused(args, r) || frontAdmin(args) {
		return
	}
	s.feed(c, s.eng.NowUs(), c.db, false, monitorRedact(args)) // (the engine clock, µs)
}

func frontRefused(args [][]byte, r engine.Reply) bool {
	if !r.IsError() {
		return false
	}
	if engine.RefusedBeforeCall(r) {
		return true
	}
	return len(args) >= 2 && (eqFold(args[0], "client") || eqFold(args[0], "pubsub")) &&
		len(r.Str) > 24 && r.Str[:24] == "ERR unknown subcommand '"
}

// frontAdmin: the server's commands flagged admin in Redis's table (CLIENT KILL, LIST …, MONITOR).
func frontAdmin(args [][]byte) bool {
	if eqFold(args[0], "monitor") {
		return true
	}
	if !eqFold(args[0], "client") || len(args) < 2 {
		return false
	}
	for _, sub := range []string{"kill", "list", "pause", "unpause", "no-evict"} {
		if eqFold(args[1], sub) {
			return true
		}
	}
	return false
}

// monitorRedact hides AUTH's arguments and HELLO's AUTH pair (authCommand, helloCommand:
// redactClientCommandArgument). HELLO redacts only once its protocol version is accepted, and
// only the pairs before an option it refuses.
func monitorRedact(args [][]byte) [][]byte {
	redacted := []byte("(redacted)")
	switch {
	case eqFold(args[0], "auth"):
		if len(args) > 3 {
			return args
		}
		out := append([][]byte(nil), args...)
		for i := 1; i < len(out); i++ {
			out[i] = redacted
		}
		return out
	case eqFold(args[0], "hello"):
		if len(args) >= 2 {
			if v, ok := strictInt(args[1]); !ok || v < 2 || v > 3 {
				return args
			}
		}
		var out [][]byte
		for i := 2; i < len(args); i++ {
			more := len(args) - i - 1
			switch {
			case eqFold(args[i], "auth") && more >= 2:
				if out == nil {
					out = append([][]byte(nil), args...)
				}
				out[i+1], out[i+2] = redacted, redacted
				i += 2
			case eqFold(args[i], "setname") && more >= 1:
				i++
			default:
				i = len(args)
			}
		}
		if out != nil {
			return out
		}
	}
	return args
}

// feed sends one line to every monitor.
func (s *Server) feed(from *client, us int64, db int, script bool, args [][]byte) {
	line := append(make([]byte, 0, 64), '+')
	line = strconv.AppendInt(line, us/1e6, 10)
	frac := strconv.AppendInt(nil, us%1e6, 10)
	line = append(line, '.')
	for i := len(frac); i < 6; i++ {
		line = append(line, '0')
	}
	line = append(line, frac...)
	line = append(strconv.AppendInt(append(line, " ["...), int64(db), 10), ' ')
	switch {
	case script:
		line = append(line, "lua"...)
	case from != nil:
		line = append(line, from.addr...)
	}
	line = append(line, "] "...)
	for i, a := range args {
		if i > 0 {
			line = append(line, ' ')
		}
		line = engine.AppendRepr(line, string(a))
	}
	line = append(line, '\r', '\n')
	for _, m := range s.monitors {
		if m.replyOff {
			continue
		}
		if m == from {
			m.deferred = append(m.deferred, line...) // after its own reply
			continue
		}
		ps := m.ps
		ps.pmu.Lock()
		ps.queue = append(ps.queue, line...)
		ps.pmu.Unlock()
		select {
		case ps.kick <- struct{}{}:
		default:
		}
	}
}
