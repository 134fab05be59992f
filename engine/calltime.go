package engine

import "time"

// The time of a command, as Redis's call() keeps it (server.c, call and updateCachedTime; 7.0.15).
//
// The outermost call() of a command updates server.ustime and server.mstime once
// (`if (server.fixed_time_expire++ == 0) updateCachedTime(0)`), and while fixed_time_expire is
// set every key's expiry is judged against that cached server.mstime (db.c keyIsExpired): the
// whole command, EXEC's queued commands and a script's commands included, sees one time. The
// duration the slow log and INFO commandstats record is measured apart, with the monotonic
// clock (elapsedStart / elapsedUs around c->cmd->proc).
//
// The engine does the same with the wall clock (the protocol server): beginCall reads the time
// once when the outermost command starts, NowMs and nowUs return it until endCall, and
// startTimer / elapsedUs measure a call with the monotonic clock. On a machine whose clock costs
// ~30 ns a read, reading it once instead of eight times is 0.2 µs of a SET's ~1 µs
// (BENCHMARKS.md, RESP server). A logical clock (ManualClock: lessons, tests) is read each
// time as before: it moves only when told, DEBUG SLEEP included, so a lesson's durations stay
// what they were.

// monoEpoch is the zero of the monotonic readings below (durations since it: one vDSO read,
// and plain integers to add and subtract).
var monoEpoch = time.Now()

func monoNow() time.Duration { return time.Since(monoEpoch) }

// callTime is the cached time of the running command.
type callTime struct {
	depth int           // nesting of beginCall
	wall  bool          // the clock is WallClock: us and mono hold the outermost command's start
	fresh bool          // mono was read by beginCall and no timer has taken it yet
	us    int64         // server.ustime
	mono  time.Duration // the same moment on the monotonic clock
	// base and baseUs: the last reading of the wall clock (beginCall), on both clocks
	base    time.Duration
	baseUs  int64
	baseSet bool
	// chain: the caller runs commands back to back (ChainCalls), so a command starts when the
	// one before ended: end (valid when hasEnd) is the last reading elapsedUs made
	chain, hasEnd bool
	end           time.Duration
}

// ChainCalls tells the engine that the commands it runs until ChainCalls(false) come one right
// after the other (a pipeline, which the RESP server runs under one acquisition of its lock):
// each then starts at the time the one before ended, the clock read once per command instead of
// twice. The start moves earlier by the caller's work between two commands (a reply appended:
// well under a microsecond).
func (e *Engine) ChainCalls(on bool) { e.now.chain, e.now.hasEnd = on, false }

// beginCall starts a command: the outermost one reads the clock.
func (e *Engine) beginCall() {
	if e.now.depth++; e.now.depth > 1 {
		return
	}
	if _, ok := e.clock.(WallClock); ok {
		m := e.now.end
		if !e.now.chain || !e.now.hasEnd {
			// The wall clock is read at most once a second; in between, the monotonic clock
			// (one vDSO read instead of time.Now's two) advances it.
			m = monoNow()
			if !e.now.baseSet || m < e.now.base || m-e.now.base >= time.Second {
				t := time.Now()
				e.now.base, e.now.baseUs, e.now.baseSet = t.Sub(monoEpoch), t.UnixMicro(), true
				m = e.now.base
			}
		}
		e.now.wall, e.now.fresh = true, true
		e.now.us = e.now.baseUs + int64((m-e.now.base)/time.Microsecond)
		e.now.mono = m
		return
	}
	e.now.wall = false
}

// endCall ends what beginCall began.
func (e *Engine) endCall() { e.now.depth-- }

// callTimer is elapsedStart's monotime: a monotonic reading (wall) or a logical clock's
// microseconds.
type callTimer struct {
	wall bool
	mono time.Duration
	us   int64
}

// startTimer starts measuring a call (elapsedStart). The outermost command's first timer reuses
// beginCall's reading, as call() takes its start from the time it has just cached.
func (e *Engine) startTimer() callTimer {
	if e.now.depth > 0 && e.now.wall {
		if e.now.fresh {
			e.now.fresh = false
			return callTimer{wall: true, mono: e.now.mono}
		}
		return callTimer{wall: true, mono: monoNow()}
	}
	return callTimer{us: e.clockUs()}
}

// elapsedUs is the microseconds since t (elapsedUs).
func (e *Engine) elapsedUs(t callTimer) int64 {
	if t.wall {
		m := monoNow()
		if e.now.chain && e.now.baseSet {
			e.now.end, e.now.hasEnd = m, true
		}
		return int64((m - t.mono) / time.Microsecond)
	}
	return e.clockUs() - t.us
}
