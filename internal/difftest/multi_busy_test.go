package difftest

import "time"

// Transactions while a script is busy, and above maxmemory, across connections; replayed by
// TestMultiWatchTwoConnections against redis-server 7.0.15. Connection 0 runs a script that
// never ends; once it is past busy-reply-threshold (50 ms here) the other connections are served
// again (processCommand's isInsideYieldingLongCommand branch): MULTI, DISCARD and WATCH inside
// MULTI run, a refused command flags the open transaction, EXEC is refused with EXECABORT … BUSY
// and ends it (its watched keys with it), UNWATCH inside MULTI is queued. Connection 3 ends the
// script with SCRIPT KILL. Above maxmemory EXEC is refused when a queued command is denyoom
// (engine/oom.go).
func init() {
	type sc = bscenario
	const busy = "(error) BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE."
	const execBusy = "(error) EXECABORT Transaction discarded because of: BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE."
	spin := func() []bstep {
		return []bstep{
			bsend(0, `EVAL "while true do end" 0`, -1), bpause(100 * time.Millisecond),
			bat(3, "PING", busy), // waits out the threshold on both servers
		}
	}
	kill := []bstep{bat(3, "SCRIPT KILL", "OK"), brecv(0), bat(0, "PING", "PONG")}
	steps := func(parts ...[]bstep) []bstep {
		var out []bstep
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	txScenarios = append(txScenarios,
		sc{"a busy script: EXEC refused, the transaction ended", steps(
			[]bstep{bat(3, "CONFIG SET busy-reply-threshold 50", "OK"), bat(3, "SET xx 1"),
				bat(1, "MULTI", "OK"), bat(1, "INCR xx", "QUEUED"), bat(2, "WATCH xx", "OK")},
			spin(),
			[]bstep{bat(1, "INCR xx", busy), bat(1, "EXEC", execBusy), bat(1, "PING", busy),
				bat(2, "MULTI", "OK"), bat(2, "MULTI", "(error) ERR MULTI calls can not be nested"),
				bat(2, "WATCH a", "(error) ERR WATCH inside MULTI is not allowed"),
				bat(2, "WATCH", "(error) ERR wrong number of arguments for 'watch' command"),
				bat(2, "NOSUCH x", "(error) ERR unknown command 'NOSUCH', with args beginning with: 'x' "),
				bat(2, "GET", "(error) ERR wrong number of arguments for 'get' command"),
				bat(2, "UNWATCH", "QUEUED"), bat(2, "DISCARD", "OK"),
				bat(2, "DISCARD", "(error) ERR DISCARD without MULTI"), bat(2, "EXEC")},
			kill,
			// connection 2's DISCARD released its WATCH: INCR does not touch it
			[]bstep{bat(3, "INCR xx", "(integer) 2"), bat(2, "MULTI", "OK"), bat(2, "PING", "QUEUED"),
				bat(2, "EXEC", "1) PONG"), bat(1, "PING", "PONG"), bat(1, "GET xx", `"2"`)},
		)},
		sc{"a busy script: a refused command aborts the transaction around it", steps(
			[]bstep{bat(3, "CONFIG SET busy-reply-threshold 50"), bat(3, "SET xx 1"),
				bat(1, "MULTI"), bat(1, "INCR xx", "QUEUED")},
			spin(),
			[]bstep{bat(1, "INCR xx", busy)},
			kill,
			[]bstep{bat(1, "INCR xx", "QUEUED"),
				bat(1, "EXEC", "(error) EXECABORT Transaction discarded because of previous errors."),
				bat(1, "GET xx", `"1"`)},
		)},
		sc{"a busy script: MULTI during it, EXEC after", steps(
			[]bstep{bat(3, "CONFIG SET busy-reply-threshold 50"), bat(3, "SET xx 1"), bat(2, "WATCH xx", "OK")},
			spin(),
			[]bstep{bat(1, "MULTI", "OK"), bat(1, "UNWATCH", "QUEUED"),
				bat(2, "MULTI", "OK"), bat(2, "EXEC", execBusy)},
			kill,
			[]bstep{bat(1, "INCR xx", "QUEUED"), bat(1, "EXEC", "1) OK", "2) (integer) 2"),
				// connection 2's refused EXEC released its WATCH
				bat(3, "SET xx 5", "OK"), bat(2, "MULTI", "OK"), bat(2, "PING", "QUEUED"), bat(2, "EXEC", "1) PONG")},
		)},
		sc{"EXEC refused above maxmemory when a queued command is denyoom", []bstep{
			bat(0, "MULTI", "OK"), bat(0, "SET x 1", "QUEUED"), bat(0, "GET x", "QUEUED"),
			bat(1, "CONFIG SET maxmemory 1", "OK"),
			bat(0, "EXEC", "(error) EXECABORT Transaction discarded because of: OOM command not allowed when used memory > 'maxmemory'."),
			bat(0, "PING", "PONG"), bat(0, "EXISTS x", "(integer) 0"),
			bat(1, "CONFIG SET maxmemory 0", "OK"),
			bat(0, "MULTI", "OK"), bat(0, "GET x", "QUEUED"), bat(0, "PING", "QUEUED"),
			bat(1, "CONFIG SET maxmemory 1", "OK"),
			bat(0, "EXEC", "1) (nil)", "2) PONG"),
			bat(1, "CONFIG SET maxmemory 0", "OK"),
		}},
		sc{"a WATCHed transaction refused above maxmemory", []bstep{
			bat(0, "WATCH x", "OK"), bat(0, "MULTI", "OK"), bat(0, "SET x 1", "QUEUED"),
			bat(1, "CONFIG SET maxmemory 1", "OK"),
			bat(0, "EXEC", "(error) EXECABORT Transaction discarded because of: OOM command not allowed when used memory > 'maxmemory'."),
			bat(1, "CONFIG SET maxmemory 0", "OK"),
			bat(1, "SET x 2", "OK"), // x is no longer watched
			bat(0, "MULTI", "OK"), bat(0, "GET x", "QUEUED"), bat(0, "EXEC", `1) "2"`),
		}},
	)
}
