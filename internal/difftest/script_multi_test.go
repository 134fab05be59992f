package difftest

// Scripts and WATCH across connections, replayed by TestMultiWatchTwoConnections: a key a script
// writes (declared in KEYS or not, even with the same value) is touched for its watchers; a
// script that only reads touches nothing; a script queued in MULTI runs at EXEC.
func init() {
	type sc = bscenario
	txScenarios = append(txScenarios,
		sc{"a script writes a declared key", []bstep{
			bat(0, "SET k 1"), bat(0, "WATCH k", "OK"),
			bat(1, `EVAL "return redis.call('INCR', KEYS[1])" 1 k`, "(integer) 2"),
			bat(0, "MULTI"), bat(0, "PING"), bat(0, "EXEC", "(nil)"),
		}},
		sc{"a script writes an undeclared key", []bstep{
			bat(0, "WATCH k"), bat(1, `EVAL "redis.call('SET', 'k', 'x') return 1" 0`, "(integer) 1"),
			bat(0, "MULTI"), bat(0, "PING"), bat(0, "EXEC", "(nil)"),
		}},
		sc{"a script sets the same value", []bstep{
			bat(0, "SET k x"), bat(0, "WATCH k"), bat(1, `EVAL "return redis.call('SET', KEYS[1], 'x')" 1 k`, "OK"),
			bat(0, "MULTI"), bat(0, "PING"), bat(0, "EXEC", "(nil)"),
		}},
		sc{"a script that only reads", []bstep{
			bat(0, "SET k 1"), bat(0, "WATCH k"),
			bat(1, `EVAL "return {redis.call('GET', KEYS[1]), redis.call('EXISTS', 'k'), redis.call('TTL', 'k')}" 1 k`),
			bat(0, "MULTI"), bat(0, "PING"), bat(0, "EXEC", "1) PONG"),
		}},
		sc{"a failing script's earlier writes", []bstep{
			bat(0, "WATCH k"), bat(1, `EVAL "redis.call('SET', 'k', 'x') error('late')" 0`),
			bat(0, "MULTI"), bat(0, "PING"), bat(0, "EXEC", "(nil)"),
		}},
		sc{"scripts queued in MULTI", []bstep{
			bat(0, "WATCH k"), bat(0, "MULTI"),
			bat(0, `EVAL "return redis.call('SET', KEYS[1], 'mine')" 1 k`, "QUEUED"),
			bat(0, `FCALL nosuch 0`, "QUEUED"),
			bat(0, "EXEC"), bat(1, "GET k", `"mine"`),
		}},
		sc{"a function's write", []bstep{
			bat(1, `FUNCTION LOAD REPLACE "#!lua name=txlib\nredis.register_function('txset', function(keys) return redis.call('SET', keys[1], 'f') end)"`),
			bat(0, "WATCH k"), bat(1, "FCALL txset 1 k", "OK"),
			bat(0, "MULTI"), bat(0, "PING"), bat(0, "EXEC", "(nil)"),
			bat(1, "FUNCTION DELETE txlib", "OK"),
		}},
	)
}
