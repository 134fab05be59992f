package difftest

// Scripts and WATCH across connections, replayed by TestMultiWatchTwoConnections: a key a script
// writes (declared in KEYS or not, even with the same value) is touched for its watchers; a
// script that only reads touches nothing; a script queued in MULTI runs at EXEC.
func init() {
	type sc = struct {
		name  string
		steps []txStep
	}
	txScenarios = append(txScenarios,
		sc{"a script writes a declared key", []txStep{
			at(0, "SET k 1"), at(0, "WATCH k", "OK"),
			at(1, `EVAL "return redis.call('INCR', KEYS[1])" 1 k`, "(integer) 2"),
			at(0, "MULTI"), at(0, "PING"), at(0, "EXEC", "(nil)"),
		}},
		sc{"a script writes an undeclared key", []txStep{
			at(0, "WATCH k"), at(1, `EVAL "redis.call('SET', 'k', 'x') return 1" 0`, "(integer) 1"),
			at(0, "MULTI"), at(0, "PING"), at(0, "EXEC", "(nil)"),
		}},
		sc{"a script sets the same value", []txStep{
			at(0, "SET k x"), at(0, "WATCH k"), at(1, `EVAL "return redis.call('SET', KEYS[1], 'x')" 1 k`, "OK"),
			at(0, "MULTI"), at(0, "PING"), at(0, "EXEC", "(nil)"),
		}},
		sc{"a script that only reads", []txStep{
			at(0, "SET k 1"), at(0, "WATCH k"),
			at(1, `EVAL "return {redis.call('GET', KEYS[1]), redis.call('EXISTS', 'k'), redis.call('TTL', 'k')}" 1 k`),
			at(0, "MULTI"), at(0, "PING"), at(0, "EXEC", "1) PONG"),
		}},
		sc{"a failing script's earlier writes", []txStep{
			at(0, "WATCH k"), at(1, `EVAL "redis.call('SET', 'k', 'x') error('late')" 0`),
			at(0, "MULTI"), at(0, "PING"), at(0, "EXEC", "(nil)"),
		}},
		sc{"scripts queued in MULTI", []txStep{
			at(0, "WATCH k"), at(0, "MULTI"),
			at(0, `EVAL "return redis.call('SET', KEYS[1], 'mine')" 1 k`, "QUEUED"),
			at(0, `FCALL nosuch 0`, "QUEUED"),
			at(0, "EXEC"), at(1, "GET k", `"mine"`),
		}},
		sc{"a function's write", []txStep{
			at(1, `FUNCTION LOAD REPLACE "#!lua name=txlib\nredis.register_function('txset', function(keys) return redis.call('SET', keys[1], 'f') end)"`),
			at(0, "WATCH k"), at(1, "FCALL txset 1 k", "OK"),
			at(0, "MULTI"), at(0, "PING"), at(0, "EXEC", "(nil)"),
			at(1, "FUNCTION DELETE txlib", "OK"),
		}},
	)
}
