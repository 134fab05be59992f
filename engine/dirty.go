package engine

// The dirty counter (server.dirty, INFO's rdb_changes_since_last_save) counts one per modified
// key by default: signalModifiedKey increments it (db.go). Redis's commands add their own
// amount instead (server.dirty++ / += n in each command), which differs for the commands below;
// dispatch (command.go) asks dirtyAfter to put the command's own amount in place of the count
// of modified keys. Each rule is the C code's, and TestDirtyCounter (internal/difftest) compares
// the counter's steps with redis-server 7.0.15 command by command.
//
//   - one per element: LPUSH/RPUSH (pushed, t_list.c pushGenericCommand), LPUSHX/RPUSHX, SADD
//     (added), SREM, HDEL, ZREM, LREM (removed), HSET/HMSET (pairs given, hsetCommand);
//   - once however the key was reached: SETBIT (created, grown or the bit changed), XADD,
//     RENAME, RENAMENX; the key's creation is no extra change (dbAdd does not count);
//   - the stream group commands count their change though no key signals: XGROUP CREATE,
//     SETID, DESTROY (when one went), CREATECONSUMER (when one was made).
//
//   - BITFIELD: one per SET / INCRBY that changed its field or met a created or grown string
//     (bitfieldGeneric's changes), at most one per write operation that answered;
//
// Not covered (the engine's count stays): LTRIM (removed
// elements), PFADD (registers changed), XREADGROUP (one per stream served and per consumer
// created), ZADD's updated members without CH.

type dirtyRule func(args [][]byte, r Reply, delta int64) int64

func dirtyReplyInt(args [][]byte, r Reply, delta int64) int64 { return r.Int }

func dirtyOnce(args [][]byte, r Reply, delta int64) int64 {
	return min(delta, 1)
}

func dirtyPushed(args [][]byte, r Reply, delta int64) int64 {
	if r.Int > 0 {
		return int64(len(args) - 2)
	}
	return 0
}

// dirtyBitfield: the engine signals a created key, each write on a created or grown string and
// each changed field, so its count capped by the writes that answered is bitfieldGeneric's.
func dirtyBitfield(args [][]byte, r Reply, delta int64) int64 {
	var writes int64
	op := 0 // index of the operation's reply
	for i := 2; i < len(args); {
		switch {
		case eqFold(args[i], "get"):
			i += 3
		case eqFold(args[i], "set"), eqFold(args[i], "incrby"):
			if op < len(r.Array) && r.Array[op].Kind != KindNil {
				writes++
			}
			i += 4
		default: // OVERFLOW mode: no reply
			i += 2
			continue
		}
		op++
	}
	return min(delta, writes)
}

var dirtyRules = map[string]dirtyRule{
	"bitfield": dirtyBitfield,
	"lpush":    dirtyPushed, "rpush": dirtyPushed, "lpushx": dirtyPushed, "rpushx": dirtyPushed,
	"sadd": dirtyReplyInt, "srem": dirtyReplyInt, "hdel": dirtyReplyInt, "zrem": dirtyReplyInt, "lrem": dirtyReplyInt,
	"hset":   func(args [][]byte, r Reply, delta int64) int64 { return int64(len(args)-2) / 2 },
	"hmset":  func(args [][]byte, r Reply, delta int64) int64 { return int64(len(args)-2) / 2 },
	"setbit": dirtyOnce, "xadd": dirtyOnce,
	"rename":         func(args [][]byte, r Reply, delta int64) int64 { return 1 },
	"renamenx":       dirtyReplyInt,
	"xgroup|create":  func(args [][]byte, r Reply, delta int64) int64 { return 1 },
	"xgroup|setid":   func(args [][]byte, r Reply, delta int64) int64 { return 1 },
	"xgroup|destroy": dirtyReplyInt, "xgroup|createconsumer": dirtyReplyInt,
}

// dirtyAfter replaces the modified-key count a command left (the counter was before when it
// started) by the command's own amount, for the commands of dirtyRules that did not fail.
func (e *Engine) dirtyAfter(c *Command, args [][]byte, r Reply, before int64) {
	rule := dirtyRules[c.FullName()]
	if rule == nil || r.Kind == KindError {
		return
	}
	e.cfg.stats.dirty = before + rule(args, r, e.cfg.stats.dirty-before)
}
