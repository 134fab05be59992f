package engine

// MONITOR's feed (replication.c replicationFeedMonitors, server.c call): the engine tells the
// layer above which commands call() would show to MONITOR clients, as they are run.
//
//   - A command is fed after it ran, unless its table entry is FlagAdmin (CONFIG, DEBUG, ACL …)
//     or FlagSkipMonitor; a command refused before call() (unknown, wrong arity) is not fed.
//   - The FlagSkipMonitor commands are the script runners (EVAL, EVALSHA, their _RO forms,
//     FCALL, FCALL_RO): they feed themselves before the script runs (eval.c evalCommand,
//     functions.c fcallCommandGeneric), so the script's commands come after them.
//   - A script's commands are fed with script set (`[db lua]`).
//   - MULTI, WATCH, UNWATCH, DISCARD and EXEC are fed after they ran; the queued commands are fed
//     when EXEC runs them, then EXEC (also when it aborts: execCommandAbort feeds EXEC).
//   - A blocked command served later is not fed again (7.0 serves it without call(); 7.4
//     reprocesses it with CMD_CALL_REPROCESSING, which call() does not feed).

// MonitorFunc receives a command MONITOR shows: the engine clock in microseconds (the clock's
// own time inside a script too, not the time the script's commands see: Redis takes
// gettimeofday), the database it ran in (after it ran: SELECT 1 is shown in db 1), whether a
// script ran it, and its arguments as the client sent them. It runs under the engine (the
// caller's lock) and must not call into it.
type MonitorFunc func(us int64, db int, script bool, args [][]byte)

// SetMonitor installs f (nil: no feed).
func (e *Engine) SetMonitor(f MonitorFunc) { e.monitor = f }

// feedMonitor feeds one command.
func (e *Engine) feedMonitor(args [][]byte) {
	if e.monitor == nil || e.monitorMute {
		return
	}
	us := e.nowUs()
	if e.InScript() {
		if c, ok := e.lua.run.clock.(interface{ NowUs() int64 }); ok {
			us = c.NowUs()
		} else {
			us = e.lua.run.clock.NowMs() * 1000
		}
	}
	e.monitor(us, e.dbIndex(e.db), e.InScript(), args)
}

// monitorAfter feeds a command dispatch ran, when call() would.
func (e *Engine) monitorAfter(c *Command, args [][]byte) {
	if c.Flags&(FlagAdmin|FlagSkipMonitor) == 0 {
		e.feedMonitor(args)
	}
}

// monitorBefore feeds a script runner before its script (evalCommand, fcallCommandGeneric).
func (e *Engine) monitorBefore(c *Command, args [][]byte) {
	if c.Flags&FlagSkipMonitor != 0 && c.Flags&FlagAdmin == 0 {
		e.feedMonitor(args)
	}
}

// FeedMonitor feeds a command the layer above ran itself (HELLO, AUTH, CLIENT, SUBSCRIBE … of
// the RESP server), with its sensitive arguments already redacted.
func (e *Engine) FeedMonitor(args [][]byte) { e.feedMonitor(args) }
