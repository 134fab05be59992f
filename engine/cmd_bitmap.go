package engine

import (
	"bytes"
	"strings"

	"redscope/engine/bitops"
	"redscope/engine/sds"
)

// Bitmap commands: SETBIT, GETBIT, BITCOUNT, BITPOS, BITOP (docs/internals.md §Bitmaps). The bit
// algorithms live in engine/bitops and work on the paged sds.Buf, so a 512 MiB bitmap with one
// bit set is scanned, combined and negated without being materialised.
//
// Version differences:
//   - 7.0 and 7.2 look the key up before parsing BITCOUNT's and BITPOS's ranges: a missing key
//     answers 0 (BITPOS: -1 for bit 1) whatever the other arguments, and WRONGTYPE comes before
//     syntax errors. 7.4 parses every argument first (redis#11734, redis#12394), checked here
//     against the 7.0.15 and 7.4.0 sources and a 7.0.15 server.
//   - BITOP DIFF, DIFF1, ANDOR and ONE exist from 8.2; older profiles answer ERR syntax error.

func init() {
	register(
		&Command{Name: "setbit", Arity: 4, Flags: FlagWrite | FlagDenyOOM, Cats: "bitmap", KeyFlags: []string{"RW access update"}, Paged: true, Fn: cmdSetbit},
		&Command{Name: "getbit", Arity: 3, Flags: FlagReadonly | FlagFast, Cats: "bitmap", Paged: true, Fn: cmdGetbit},
		&Command{Name: "bitcount", Arity: -2, Flags: FlagReadonly, Cats: "bitmap", Paged: true, Fn: cmdBitcount},
		&Command{Name: "bitpos", Arity: -3, Flags: FlagReadonly, Cats: "bitmap", Paged: true, Fn: cmdBitpos},
		&Command{Name: "bitop", Arity: -4, Flags: FlagWrite | FlagDenyOOM, FirstKey: 2, LastKey: -1, Step: 1, Cats: "bitmap", KeyFlags: []string{"OW update", "RO access"}, Paged: true, Fn: cmdBitop},
	)
}

// BitopDetailBytes is the longest result whose bytes a BitopEvent carries.
const BitopDetailBytes = 64

// bitOffset parses a bit offset argument (getBitOffsetFromArgument): a strict integer, or with
// hash "#N" meaning N·bits; it must be ≥ 0 and address a byte below proto-max-bulk-len.
func (e *Engine) bitOffset(arg []byte, hash bool, bits int) (uint64, bool) {
	usehash := hash && bits > 0 && len(arg) > 0 && arg[0] == '#'
	if usehash {
		arg = arg[1:]
	}
	v, ok := string2ll(arg)
	if !ok {
		return 0, false
	}
	if usehash {
		v *= int64(bits) // wraps like Redis's long long multiplication
	}
	if v < 0 || v>>3 >= e.cfg.Int("proto-max-bulk-len") {
		return 0, false
	}
	return uint64(v), true
}

// readBuf gives the bytes of a string value for reading: its Buf, or the decimal digits of an
// int-encoded value.
func readBuf(o *Object) *sds.Buf {
	if o.Enc == EncInt {
		b := sds.FromBytes(o.StringBytes())
		return &b
	}
	return &o.Buf
}

// lookupStringForBit is lookupStringForBitCommand: the string at key made writable and at least
// maxbit/8+1 bytes long — a new key is an exact raw sds, an existing value is unshared and grown
// greedily (its TTL stays). A non-string answers WRONGTYPE. dirty: the key was created or its
// length changed (the caller signals it then, whatever its bits).
func (e *Engine) lookupStringForBit(key []byte, maxbit uint64, cmd string) (o *Object, dirty bool, _ Reply, _ bool) {
	o, werr := e.lookupTyped(key, TypeString)
	if werr != nil {
		return nil, false, ErrWrongType, false
	}
	n := int(maxbit>>3) + 1
	if o == nil {
		o = e.newRawString(key, n, cmd)
		e.add(key, o)
		// dbAdd is no change of its own in server.dirty: the caller's signal is (setbitCommand's
		// dirty++, bitfieldGeneric's dirty += changes), so rdb_changes_since_last_save counts the
		// new key once
		e.cfg.stats.dirty--
		return o, true, Reply{}, true
	}
	o = e.unshareString(key, o, cmd)
	dirty = o.Buf.Len() < n
	e.growString(key, o, n, cmd)
	e.emitTTLKept(key)
	return o, dirty, Reply{}, true
}

func cmdSetbit(e *Engine, args [][]byte) Reply {
	off, ok := e.bitOffset(args[2], false, 0)
	if !ok {
		return errBitOffset
	}
	on, ok := string2ll(args[3])
	if !ok || on&^1 != 0 {
		return errBitValue
	}
	o, dirty, errReply, ok := e.lookupStringForBit(args[1], off, "setbit")
	if !ok {
		return errReply
	}
	byteIdx, shift := int(off>>3), 7-uint(off&7)
	c := o.Buf.At(byteIdx)
	old := int64(c>>shift) & 1
	if old != on {
		o.Buf.SetAt(byteIdx, c&^(1<<shift)|byte(on)<<shift)
	}
	if dirty || old != on {
		e.signalModifiedBytes(e.db, args[1])
	}
	e.Work.Steps++
	if e.tracing {
		e.emit(BitEvent{Key: string(args[1]), Offset: int64(off), Byte: int64(byteIdx), Bit: int(off & 7),
			Old: int(old), New: int(on), Write: true})
	}
	return Int(old)
}

func cmdGetbit(e *Engine, args [][]byte) Reply {
	off, ok := e.bitOffset(args[2], false, 0)
	if !ok {
		return errBitOffset
	}
	o, werr := e.lookupTyped(args[1], TypeString)
	if werr != nil {
		return ErrWrongType
	}
	var bit int64
	if o != nil {
		bit = int64(readBuf(o).At(int(off>>3))>>(7-uint(off&7))) & 1
	}
	e.Work.Steps++
	if e.tracing {
		e.emit(BitEvent{Key: string(args[1]), Offset: int64(off), Byte: int64(off >> 3), Bit: int(off & 7),
			Old: int(bit), New: int(bit)})
	}
	return Int(bit)
}

// bitRange is a parsed [start end [BYTE|BIT]] of BITCOUNT/BITPOS.
type bitRange struct {
	start, end int64
	isBit      bool
}

// parseUnit reads the optional BYTE|BIT argument (compared as a C string, like strcasecmp).
func parseUnit(arg []byte) (isBit bool, ok bool) {
	return eitherKeyword(cstr(arg), "byte", "bit")
}

// normalize converts the range to absolute offsets (in bits when isBit) of a string of l bytes,
// clamped as Redis does; empty reports start > end.
func (r bitRange) normalize(l int64) (start, end int64, empty bool) {
	total := l
	if r.isBit {
		total <<= 3
	}
	start, end = r.start, r.end
	if start < 0 {
		start += total
	}
	if end < 0 {
		end += total
	}
	start, end = max(start, 0), max(end, 0)
	if end >= total {
		end = total - 1
	}
	return start, end, start > end
}

func cmdBitcount(e *Engine, args [][]byte) Reply {
	n := len(args)
	var r bitRange
	ranged := n == 4 || n == 5
	// parse reads the range: the integers, then (7.0) the both-negative short cut, then the unit.
	parse := func(earlyZero bool) (Reply, bool) {
		var ok bool
		if r.start, ok = string2ll(args[2]); !ok {
			return ErrNotInt, false
		}
		if r.end, ok = string2ll(args[3]); !ok {
			return ErrNotInt, false
		}
		if earlyZero && r.start < 0 && r.end < 0 && r.start > r.end {
			return Int(0), false
		}
		if n == 5 {
			if r.isBit, ok = parseUnit(args[4]); !ok {
				return ErrSyntax, false
			}
		}
		return Reply{}, true
	}
	var o *Object
	if e.ver.Has(V74) {
		if ranged {
			if rep, ok := parse(false); !ok {
				return rep
			}
		} else if n != 2 {
			return ErrSyntax
		}
		var werr *Reply
		if o, werr = e.lookupTyped(args[1], TypeString); werr != nil {
			return ErrWrongType
		}
		if o == nil || ranged && r.start < 0 && r.end < 0 && r.start > r.end {
			return Int(0)
		}
	} else {
		var werr *Reply
		if o, werr = e.lookupTyped(args[1], TypeString); werr != nil {
			return ErrWrongType
		}
		if o == nil {
			return Int(0)
		}
		if ranged {
			if rep, ok := parse(true); !ok {
				return rep
			}
		} else if n != 2 {
			return ErrSyntax
		}
	}
	b := readBuf(o)
	if !ranged {
		r = bitRange{start: 0, end: -1}
	}
	start, end, empty := r.normalize(int64(b.Len()))
	if empty {
		return Int(0)
	}
	var cnt int64
	if r.isBit {
		e.Work.BytesScanned += end>>3 - start>>3 + 1
		cnt = bitops.Count(b, start, end)
	} else {
		e.Work.BytesScanned += end - start + 1
		cnt = bitops.CountBytes(b, start, end+1)
		start, end = start<<3, end<<3|7
	}
	if e.tracing {
		e.emit(BitScanEvent{Key: string(args[1]), Cmd: "bitcount", First: start, Last: end, Result: cnt})
	}
	return Int(cnt)
}

func cmdBitpos(e *Engine, args [][]byte) Reply {
	n := len(args)
	bit, ok := string2ll(args[2])
	if !ok {
		return ErrNotInt
	}
	if bit != 0 && bit != 1 {
		return errBitArg
	}
	var r bitRange
	ranged := n >= 4 && n <= 6
	endGiven := n >= 5
	parse := func() Reply {
		var ok bool
		if r.start, ok = string2ll(args[3]); !ok {
			return ErrNotInt
		}
		if n == 6 {
			if r.isBit, ok = parseUnit(args[5]); !ok {
				return ErrSyntax
			}
		}
		if endGiven {
			if r.end, ok = string2ll(args[4]); !ok {
				return ErrNotInt
			}
		}
		return Reply{}
	}
	notFound := Int(0)
	if bit == 1 {
		notFound = Int(-1)
	}
	var o *Object
	var werr *Reply
	if e.ver.Has(V74) {
		if ranged {
			if rep := parse(); rep.IsError() {
				return rep
			}
		} else if n != 3 {
			return ErrSyntax
		}
		if o, werr = e.lookupTyped(args[1], TypeString); werr != nil {
			return ErrWrongType
		}
		if o == nil {
			return notFound
		}
	} else {
		if o, werr = e.lookupTyped(args[1], TypeString); werr != nil {
			return ErrWrongType
		}
		if o == nil {
			return notFound
		}
		if ranged {
			if rep := parse(); rep.IsError() {
				return rep
			}
		} else if n != 3 {
			return ErrSyntax
		}
	}
	b := readBuf(o)
	if !ranged || !endGiven {
		r.end = -1 // the last byte (BIT needs an explicit end, so this is always a byte range)
	}
	start, end, empty := r.normalize(int64(b.Len()))
	if empty {
		return Int(-1)
	}
	var pos int64
	if r.isBit {
		e.Work.BytesScanned += end>>3 - start>>3 + 1
		pos = bitops.Pos(b, int(bit), start, end)
	} else {
		e.Work.BytesScanned += end - start + 1
		pos = bitops.PosBytes(b, int(bit), start, end+1)
		start, end = start<<3, end<<3|7
	}
	past := false
	if pos < 0 && bit == 0 && !endGiven {
		// Without an explicit end the string reads as right-padded with zeros.
		pos, past = end+1, true
	}
	if e.tracing {
		e.emit(BitScanEvent{Key: string(args[1]), Cmd: "bitpos", Bit: int(bit), First: start, Last: end, Result: pos, Past: past})
	}
	return Int(pos)
}

func cmdBitop(e *Engine, args [][]byte) Reply {
	opname := cstr(args[1]) // strcasecmp: the name ends at a NUL byte
	op, ok := bitops.ParseOp(string(opname))
	if !ok || op.Since82() && !e.ver.Has(V82) {
		return ErrSyntax
	}
	if op == bitops.NOT && len(args) != 4 {
		return errBitopNot
	}
	if op.NeedsTwo() && len(args) < 5 {
		return Err("ERR BITOP " + strings.ToUpper(string(opname)) + " must be called with at least two source keys.")
	}
	dest := args[2]
	keys := args[3:]
	srcs := make([]*sds.Buf, len(keys))
	for i, k := range keys {
		o, werr := e.lookupTyped(k, TypeString)
		if werr != nil {
			return ErrWrongType
		}
		if o != nil {
			srcs[i] = readBuf(o)
		}
	}
	res := bitops.ApplyInto(op, srcs, e.bitopScratch(dest, keys, srcs))
	maxlen := res.Len()
	e.Work.BytesScanned += int64(maxlen) * int64(len(keys))
	e.Work.BytesMoved += int64(maxlen)
	if e.tracing {
		e.emit(bitopEvent(op, dest, keys, srcs, &res))
	}
	if maxlen == 0 {
		e.Delete(dest)
		return Int(0)
	}
	o := &Object{Type: TypeString, Enc: EncRaw, Buf: res, SDS: sds.New(e.alloc, maxlen)}
	e.emit(SDSEvent{Key: string(dest), Cmd: "bitop", After: o.SDS, Requested: maxlen, Realloc: true})
	e.setKey(dest, o, false)
	return Int(int64(maxlen))
}

// bitopScratch returns the storage of dest's current value when BITOP may build its result
// there: a raw string that is not also a source (its bytes are about to be replaced anyway),
// with room for the result and not more than twice it. Repeating `BITOP AND res d1 … d7` then
// allocates nothing, as Redis reuses the memory it just freed.
func (e *Engine) bitopScratch(dest []byte, keys [][]byte, srcs []*sds.Buf) []byte {
	o := e.db.keys[string(dest)]
	if o == nil || o.Type != TypeString || o.Enc != EncRaw {
		return nil
	}
	maxlen := 0
	for i, k := range keys {
		if bytes.Equal(k, dest) {
			return nil
		}
		if srcs[i] != nil {
			maxlen = max(maxlen, srcs[i].Len())
		}
	}
	if c := o.Buf.Cap(); c < maxlen || c > 2*maxlen {
		return nil
	}
	return o.Buf.Release()
}

func bitopEvent(op bitops.Op, dest []byte, keys [][]byte, srcs []*sds.Buf, res *sds.Buf) BitopEvent {
	ev := BitopEvent{Dest: string(dest), Op: op.String(), ResultLen: res.Len(), Deleted: res.Len() == 0,
		Sources: make([]string, len(keys)), SourceLens: make([]int, len(keys))}
	for i, k := range keys {
		ev.Sources[i] = string(k)
		if srcs[i] != nil {
			ev.SourceLens[i] = srcs[i].Len()
		}
	}
	if n := res.Len(); n <= BitopDetailBytes {
		ev.Result = res.Copy()
		ev.Inputs = make([][]byte, len(srcs))
		for i, s := range srcs {
			ev.Inputs[i] = make([]byte, n)
			if s != nil {
				s.ReadAt(ev.Inputs[i], 0)
			}
		}
	}
	return ev
}
