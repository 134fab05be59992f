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
//   - one per element popped (listElementsRemoved: the key's deletion when it empties is no
//     extra change): LPOP/RPOP [count], BLPOP/BRPOP, LMPOP/BLMPOP, LMOVE/BLMOVE,
//     RPOPLPUSH/BRPOPLPUSH;
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

// dirtyPopped counts the elements a list pop answered: one bulk (LPOP key, LMOVE), a key and
// its element (BLPOP), the elements of a count (LPOP key n), or a key and its elements (LMPOP).
func dirtyPopped(args [][]byte, r Reply, delta int64) int64 {
	switch {
	case r.Kind == KindBulk:
		return 1
	case r.Kind != KindArray:
		return 0
	case len(r.Array) == 2 && r.Array[1].Kind == KindArray:
		return int64(len(r.Array[1].Array)) // LMPOP: key, elements
	case len(r.Array) == 2 && (eqFold(args[0], "blpop") || eqFold(args[0], "brpop")):
		return 1
	}
	return int64(len(r.Array)) // LPOP key count
}

var dirtyRules = map[string]dirtyRule{
	"lpop": dirtyPopped, "rpop": dirtyPopped, "blpop": dirtyPopped, "brpop": dirtyPopped,
	"lmpop": dirtyPopped, "blmpop": dirtyPopped, "lmove": dirtyPopped, "blmove": dirtyPopped,
	"rpoplpush": dirtyPopped, "brpoplpush": dirtyPopped,
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

// dirtyState is the counter when a command starts, and what its rule needs to know of the
// dataset before it (XREADGROUP: the streams whose consumer is missing).
type dirtyState struct {
	n       int64
	created int64
}

// dirtyBefore notes the counter (and for XREADGROUP the consumers it will create).
func (e *Engine) dirtyBefore(c *Command, args [][]byte) dirtyState {
	st := dirtyState{n: e.cfg.stats.dirty}
	if c.Name == "xreadgroup" {
		group, consumer, keys, _ := xreadgroupArgs(args)
		for _, k := range keys {
			if o := e.db.keys[string(k)]; o != nil && o.Type == TypeStream {
				if g := stv(o).group(group); g != nil && g.consumer(consumer) == nil {
					st.created++
				}
			}
		}
	}
	return st
}

// xreadgroupArgs finds XREADGROUP's group, consumer, keys and IDs (nil when the arguments do
// not parse: the command fails then).
func xreadgroupArgs(args [][]byte) (group, consumer []byte, keys, ids [][]byte) {
	for i := 1; i < len(args); {
		switch {
		case eqFold(args[i], "group") && i+2 < len(args):
			group, consumer = args[i+1], args[i+2]
			i += 3
		case (eqFold(args[i], "count") || eqFold(args[i], "block")) && i+1 < len(args):
			i += 2
		case eqFold(args[i], "noack"):
			i++
		case eqFold(args[i], "streams"):
			rest := args[i+1:]
			if len(rest) == 0 || len(rest)%2 != 0 {
				return nil, nil, nil, nil
			}
			return group, consumer, rest[:len(rest)/2], rest[len(rest)/2:]
		default:
			return nil, nil, nil, nil
		}
	}
	return nil, nil, nil, nil
}

// dirtyXreadgroup: the consumers created plus the streams served from ">" with entries.
func dirtyXreadgroup(v Version, args [][]byte, r Reply, created int64) int64 {
	_, _, keys, ids := xreadgroupArgs(args)
	served := map[string]bool{} // the streams answered, and whether with entries
	for _, p := range r.Array {
		if p.Kind == KindArray && len(p.Array) == 2 {
			served[p.Array[0].Str] = len(p.Array[1].Array) > 0
		}
	}
	n := created
	for i, k := range keys {
		entries, answered := served[string(k)]
		if !v.Has(V74) && answered || entries && string(ids[i]) == ">" {
			n++
		}
	}
	return n
}

// dirtyAfter replaces the modified-key count a command left (the counter was before when it
// started) by the command's own amount, for the commands of dirtyRules that did not fail.
func (e *Engine) dirtyAfter(c *Command, args [][]byte, r Reply, st dirtyState) {
	before := st.n
	if c.Name == "xreadgroup" {
		if r.Kind != KindError {
			e.cfg.stats.dirty = before + dirtyXreadgroup(e.ver, args, r, st.created)
		}
		return
	}
	rule := dirtyRules[c.FullName()]
	if rule == nil || r.Kind == KindError {
		return
	}
	e.cfg.stats.dirty = before + rule(args, r, e.cfg.stats.dirty-before)
}
