package engine

import (
	"errors"

	"redscope/engine/rdb"
)

// DUMP and RESTORE (cluster.c dumpCommand / restoreCommand of 7.0.15); the payload format is
// engine/rdb.go's.

func init() {
	register(
		&Command{Name: "dump", Arity: 2, Flags: FlagReadonly, Cats: "keyspace", Tips: "nondeterministic_output", Fn: cmdDump},
		&Command{Name: "restore", Arity: -4, Flags: FlagWrite | FlagDenyOOM, Cats: "keyspace dangerous", KeyFlags: []string{"OW update"}, Fn: cmdRestore},
	)
}

// DUMP key: the payload, or nil for a missing key.
func cmdDump(e *Engine, args [][]byte) Reply {
	o := e.Lookup(args[1])
	if o == nil {
		return NilReply
	}
	p := e.DumpPayload(o)
	if e.tracing {
		d, _ := rdb.Sections(p)
		e.emit(DumpEvent{Key: string(args[1]), Encoding: o.Enc.String(), Payload: p, Dump: d})
	}
	return Bulk(p)
}

// RESTORE key ttl payload [REPLACE] [ABSTTL] [IDLETIME s] [FREQ f]: options first (IDLETIME and
// FREQ exclude each other: the second one is a syntax error), then BUSYKEY, then the TTL, then
// the payload's footer, then its value. A TTL already in the past stores nothing (but REPLACE
// still deletes the old key) and answers OK.
func cmdRestore(e *Engine, args [][]byte) Reply {
	replace, absttl := false, false
	freq, idle := int64(-1), int64(-1)
	for j := 4; j < len(args); j++ {
		more := len(args) - j - 1
		switch {
		case eqFold(args[j], "replace"):
			replace = true
		case eqFold(args[j], "absttl"):
			absttl = true
		case eqFold(args[j], "idletime") && more >= 1 && freq == -1:
			v, ok := string2ll(args[j+1])
			if !ok {
				return ErrNotInt
			}
			if v < 0 {
				return Err("ERR Invalid IDLETIME value, must be >= 0")
			}
			idle = v
			j++
		case eqFold(args[j], "freq") && more >= 1 && idle == -1:
			v, ok := string2ll(args[j+1])
			if !ok {
				return ErrNotInt
			}
			if v < 0 || v > 255 {
				return Err("ERR Invalid FREQ value, must be >= 0 and <= 255")
			}
			freq = v
			j++
		default:
			return ErrSyntax
		}
	}
	key := args[1]
	if !replace && e.Lookup(key) != nil {
		return errBusyKey
	}
	ttl, ok := string2ll(args[2])
	if !ok {
		return ErrNotInt
	}
	if ttl < 0 {
		return Err("ERR Invalid TTL value, must be >= 0")
	}
	o, err := e.RestorePayload(key, args[3], ttl > 0)
	if err != nil {
		if errors.Is(err, ErrDumpPayload) {
			return Err(ErrDumpPayload.Error())
		}
		return Err(ErrBadData.Error())
	}
	dirty := e.cfg.stats.dirty
	if replace {
		e.Delete(key) // (counted: restoreCommand's server.dirty++ when a deleted key is not replaced)
	}
	if ttl > 0 && !absttl {
		ttl += e.NowMs()
	}
	if ttl > 0 && ttl < e.NowMs() {
		return OK // checkAlreadyExpired: nothing stored
	}
	e.add(key, o)
	if ttl > 0 {
		e.setExpire(string(key), ttl)
	}
	e.setLRUOrLFU(o, freq, idle)
	e.cfg.stats.dirty = dirty + 1 // restoreCommand's one server.dirty++ (the key replaced is no change of its own)
	return OK
}
