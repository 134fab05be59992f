package engine

import (
	"redscope/engine/bitops"
)

// BITFIELD and BITFIELD_RO (docs/internals.md §Bitmaps): integer fields of 1..64 bits (u63 at most) at
// any bit offset, with OVERFLOW WRAP|SAT|FAIL. Every argument is parsed first; a BITFIELD with
// a SET or INCRBY then creates or grows the string to its farthest written bit before running
// any op, even when every op later FAILs.

func init() {
	register(
		&Command{Name: "bitfield", Arity: -2, Flags: FlagWrite | FlagDenyOOM, Cats: "bitmap", KeyFlags: []string{"RW access update variable_flags"}, KeyNotes: []string{"This command allows both access and modification of the key"}, Paged: true, KeyFlagsFn: bitfieldKeyFlags, Fn: cmdBitfield},
		&Command{Name: "bitfield_ro", Arity: -2, Flags: FlagReadonly | FlagFast, Cats: "bitmap", Paged: true, Fn: cmdBitfieldRO},
	)
}

type bitfieldOpcode uint8

const (
	bfGet bitfieldOpcode = iota
	bfSet
	bfIncrby
)

var bitfieldOpNames = [...]string{"get", "set", "incrby"}

type bitfieldOp struct {
	offset uint64
	val    int64 // SET value or INCRBY increment
	code   bitfieldOpcode
	ow     bitops.Overflow
	bits   int
	signed bool
}

// parseBitfieldType reads i1..i64 or u1..u63. Like Redis, the width is read up to the first NUL
// byte of the argument.
func parseBitfieldType(arg []byte) (signed bool, bits int, ok bool) {
	if len(arg) == 0 || arg[0] != 'i' && arg[0] != 'u' {
		return false, 0, false
	}
	signed = arg[0] == 'i'
	w := arg[1:]
	for i, c := range w {
		if c == 0 {
			w = w[:i]
			break
		}
	}
	n, ok := string2ll(w)
	if !ok || n < 1 || signed && n > 64 || !signed && n > 63 {
		return false, 0, false
	}
	return signed, int(n), true
}

func cmdBitfield(e *Engine, args [][]byte) Reply   { return e.bitfield(args, false) }
func cmdBitfieldRO(e *Engine, args [][]byte) Reply { return e.bitfield(args, true) }

func (e *Engine) bitfield(args [][]byte, readonlyCmd bool) Reply {
	var ops []bitfieldOp
	ow := bitops.Wrap
	readonly := true
	var highest uint64
	for j := 2; j < len(args); j++ {
		rem := len(args) - j - 1
		sub := cstr(args[j]) // strcasecmp: names end at a NUL byte
		var code bitfieldOpcode
		switch {
		case eqFold(sub, "get") && rem >= 2:
			code = bfGet
		case eqFold(sub, "set") && rem >= 3:
			code = bfSet
		case eqFold(sub, "incrby") && rem >= 3:
			code = bfIncrby
		case eqFold(sub, "overflow") && rem >= 1:
			j++
			switch t := cstr(args[j]); {
			case eqFold(t, "wrap"):
				ow = bitops.Wrap
			case eqFold(t, "sat"):
				ow = bitops.Sat
			case eqFold(t, "fail"):
				ow = bitops.Fail
			default:
				return errOverflowType
			}
			continue
		default:
			return ErrSyntax
		}
		signed, bits, ok := parseBitfieldType(args[j+1])
		if !ok {
			return errBitfieldType
		}
		off, ok := e.bitOffset(args[j+2], true, bits)
		if !ok {
			return errBitOffset
		}
		op := bitfieldOp{offset: off, code: code, ow: ow, bits: bits, signed: signed}
		if code != bfGet {
			readonly = false
			highest = max(highest, off+uint64(bits)-1)
			if op.val, ok = string2ll(args[j+3]); !ok {
				return ErrNotInt
			}
			j += 3
		} else {
			j += 2
		}
		ops = append(ops, op)
	}

	var o *Object
	var dirty bool // the string was created or grown: any write op signals it
	key := args[1]
	if readonly {
		var werr *Reply
		if o, werr = e.lookupTyped(key, TypeString); werr != nil {
			return ErrWrongType
		}
	} else {
		if readonlyCmd {
			return errBitfieldRO
		}
		var errReply Reply
		var ok bool
		if o, dirty, errReply, ok = e.lookupStringForBit(key, highest, "bitfield"); !ok {
			return errReply
		}
	}

	out := make([]Reply, len(ops))
	for i := range ops {
		before := e.cfg.stats.dirty
		out[i] = e.bitfieldExec(key, o, &ops[i])
		if dirty && ops[i].code != bfGet && out[i].Kind != KindNil && e.cfg.stats.dirty == before { // one change per op (bitfieldGeneric's changes++)
			e.signalModifiedBytes(e.db, key)
		}
	}
	return Reply{Kind: KindArray, Array: out}
}

// bitfieldExec runs one op on o (nil only for GETs on a missing key) and returns its reply.
func (e *Engine) bitfieldExec(key []byte, o *Object, op *bitfieldOp) Reply {
	ev := BitfieldEvent{Key: string(key), Op: bitfieldOpNames[op.code], Signed: op.signed, Bits: op.bits,
		Offset: int64(op.offset), Arg: op.val, Overflow: op.ow.String(), Outcome: "ok"}
	e.Work.Steps++
	if op.code == bfGet {
		var v int64
		if o != nil {
			b := readBuf(o)
			if op.signed {
				v = bitops.GetSigned(b, op.offset, op.bits)
			} else {
				v = int64(bitops.GetUnsigned(b, op.offset, op.bits))
			}
		}
		ev.Old, ev.New = v, v
		e.emitBitfield(ev)
		return Int(v)
	}

	b := &o.Buf
	var oldv, newv, ret int64
	var overflow int
	if op.signed {
		oldv = bitops.GetSigned(b, op.offset, op.bits)
		var limit int64
		if op.code == bfIncrby {
			limit, overflow = bitops.CheckSigned(oldv, op.val, op.bits, op.ow)
			newv = oldv + op.val
			if overflow != 0 {
				newv = limit
			}
			ret = newv
		} else {
			limit, overflow = bitops.CheckSigned(op.val, 0, op.bits, op.ow)
			newv = op.val
			if overflow != 0 {
				newv = limit
			}
			ret = oldv
		}
	} else {
		u := bitops.GetUnsigned(b, op.offset, op.bits)
		oldv = int64(u)
		var limit, nu uint64
		if op.code == bfIncrby {
			limit, overflow = bitops.CheckUnsigned(u, op.val, op.bits, op.ow)
			nu = u + uint64(op.val)
			if overflow != 0 {
				nu = limit
			}
			ret = int64(nu)
		} else {
			limit, overflow = bitops.CheckUnsigned(uint64(op.val), 0, op.bits, op.ow)
			nu = uint64(op.val)
			if overflow != 0 {
				nu = limit
			}
			ret = oldv
		}
		newv = int64(nu)
	}
	if overflow != 0 && op.ow == bitops.Fail {
		ev.Old, ev.New, ev.Outcome = oldv, oldv, "failed"
		e.emitBitfield(ev)
		return NilReply
	}
	bitops.Set(b, op.offset, op.bits, uint64(newv))
	if oldv != newv {
		e.signalModifiedBytes(e.db, key)
	}
	ev.Old, ev.New = oldv, newv
	if overflow != 0 {
		ev.Outcome = "wrapped"
		if op.ow == bitops.Sat {
			ev.Outcome = "saturated"
		}
	}
	e.emitBitfield(ev)
	return Int(ret)
}

func (e *Engine) emitBitfield(ev BitfieldEvent) {
	if e.tracing {
		e.emit(ev)
	}
}
