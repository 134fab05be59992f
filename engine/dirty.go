package engine

// The dirty counter (server.dirty, INFO's rdb_changes_since_last_save) counts one per modified
// key by default: signalModifiedKey increments it (db.go), and the commands whose C code adds
// another amount do so themselves where that amount is known (the list pushes and pops,
// listElementsRemoved's count, SETBIT and BITFIELD in cmd_bitmap.go / cmd_bitfield.go, the
// stream commands in cmd_stream.go as t_stream.c does). For the few commands below the amount
// is a plain function of the arguments or the reply, and dispatch (command.go) asks dirtyAfter
// to put it in place of the count of modified keys:
//
//   - one per element: SADD (added), SREM, HDEL, ZREM (removed), HSET/HMSET (pairs given,
//     hsetCommand);
//   - once however the key was reached: RENAME, RENAMENX.
//
// TestDirtyCounter, TestDirtyCounts and TestStreamDirtyCounts (internal/difftest) compare the
// counter's steps with redis-server 7.0.15 command by command. Not covered (the engine's count
// stays): PFADD (registers changed), ZADD's updated members without CH.

type dirtyRule func(args [][]byte, r Reply) int64

func dirtyReplyInt(args [][]byte, r Reply) int64 { return r.Int }

func dirtyPairs(args [][]byte, r Reply) int64 { return int64(len(args)-2) / 2 }

var dirtyRules = map[string]dirtyRule{
	"sadd": dirtyReplyInt, "srem": dirtyReplyInt, "hdel": dirtyReplyInt, "zrem": dirtyReplyInt,
	"hset": dirtyPairs, "hmset": dirtyPairs,
	"rename":   func(args [][]byte, r Reply) int64 { return 1 },
	"renamenx": dirtyReplyInt,
}

// dirtyBefore notes the counter when a command starts.
func (e *Engine) dirtyBefore(c *Command, args [][]byte) int64 { return e.cfg.stats.dirty }

// dirtyAfter replaces the modified-key count a command left (the counter was before when it
// started) by the command's own amount, for the commands of dirtyRules that did not fail.
func (e *Engine) dirtyAfter(c *Command, args [][]byte, r Reply, before int64) {
	rule := dirtyRules[c.FullName()]
	if rule == nil || r.Kind == KindError {
		return
	}
	e.cfg.stats.dirty = before + rule(args, r)
}
