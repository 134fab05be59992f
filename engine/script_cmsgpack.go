//go:build !nolua

package engine

// The cmsgpack library of Redis's Lua (lua-cmsgpack 0.4.0, deps/lua/src/lua_cmsgpack.c):
// cmsgpack.pack(v1, …) concatenates the MessagePack encodings of its arguments;
// cmsgpack.unpack(s) returns every value of s, unpack_one(s [, offset]) the next offset (-1 at
// the end) and one value, unpack_limit(s, n [, offset]) the next offset and up to n values.
//
// Encoding: numbers that are int64 values use the smallest integer form (positive / negative
// fixnum, uint8…uint64, int8…int64), others a float32 when it holds the value exactly, else a
// float64; strings fixstr / str8 / str16 / str32; a table whose keys are exactly 1..n is an
// array (fixarray, array16, array32), any other a map; nil and every other type (functions,
// cjson.null…) is nil (0xc0); tables nested 16 deep are written as nil. Decoding reads those
// forms back (bin and ext types are "Bad data format in input.").

import (
	"encoding/binary"
	"math"

	lua "github.com/yuin/gopher-lua"
)

const cmsgpackMaxNesting = 16

func openCmsgpack(L *lua.LState) *lua.LTable {
	t := L.NewTable()
	t.RawSetString("pack", L.NewFunction(mpPack))
	t.RawSetString("unpack", L.NewFunction(func(L *lua.LState) int { return mpUnpack(L, 0, 0) }))
	t.RawSetString("unpack_one", L.NewFunction(func(L *lua.LState) int {
		off := 0
		if L.GetTop() >= 2 && L.Get(2) != lua.LNil {
			off = luaCheckInt(L, 2, "unpack_one")
		}
		L.SetTop(1)
		return mpUnpack(L, 1, off)
	}))
	t.RawSetString("unpack_limit", L.NewFunction(func(L *lua.LState) int {
		limit := luaCheckInt(L, 2, "unpack_limit")
		off := 0
		if L.GetTop() >= 3 && L.Get(3) != lua.LNil {
			off = luaCheckInt(L, 3, "unpack_limit")
		}
		L.SetTop(1)
		return mpUnpack(L, limit, off)
	}))
	t.RawSetString("_NAME", lua.LString("cmsgpack"))
	t.RawSetString("_VERSION", lua.LString("lua-cmsgpack 0.4.0"))
	t.RawSetString("_COPYRIGHT", lua.LString("Copyright (C) 2012, Salvatore Sanfilippo"))
	t.RawSetString("_DESCRIPTION", lua.LString("MessagePack C implementation for Lua"))
	return t
}

func mpPack(L *lua.LState) int {
	n := L.GetTop()
	if n == 0 {
		L.RaiseError("bad argument #0 to 'pack' (MessagePack pack needs input.)")
	}
	var b []byte
	for i := 1; i <= n; i++ {
		b = mpEncode(b, L.Get(i), 0)
	}
	L.Push(lua.LString(b))
	return 1
}

func mpHeader(b []byte, n uint64, fix byte, fixMax uint64, c16, c32 byte) []byte {
	switch {
	case n <= fixMax:
		return append(b, fix|byte(n))
	case n <= 0xffff:
		return append(b, c16, byte(n>>8), byte(n))
	}
	return append(b, c32, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
}

func mpEncode(b []byte, v lua.LValue, level int) []byte {
	switch x := v.(type) {
	case lua.LString:
		n := uint64(len(x))
		switch {
		case n < 32:
			b = append(b, 0xa0|byte(n))
		case n <= 0xff:
			b = append(b, 0xd9, byte(n))
		case n <= 0xffff:
			b = append(b, 0xda, byte(n>>8), byte(n))
		default:
			b = append(b, 0xdb, byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
		}
		return append(b, x...)
	case lua.LBool:
		if x {
			return append(b, 0xc3)
		}
		return append(b, 0xc2)
	case lua.LNumber:
		f := float64(x)
		if !math.IsInf(f, 0) && !math.IsNaN(f) && f >= -9223372036854775808.0 && f < 9223372036854775808.0 && float64(int64(f)) == f {
			return mpInt(b, int64(f))
		}
		if f32 := float32(f); float64(f32) == f {
			return binary.BigEndian.AppendUint32(append(b, 0xca), math.Float32bits(f32))
		}
		return binary.BigEndian.AppendUint64(append(b, 0xcb), math.Float64bits(f))
	case *lua.LTable:
		if level == cmsgpackMaxNesting {
			return append(b, 0xc0)
		}
		count, max := 0, 0
		array := true
		x.ForEach(func(k, _ lua.LValue) {
			count++
			n, ok := k.(lua.LNumber)
			if !ok || n <= 0 || float64(int32(n)) != float64(n) {
				array = false
				return
			}
			if int(n) > max {
				max = int(n)
			}
		})
		if array && max == count {
			n := x.Len()
			b = mpHeader(b, uint64(n), 0x90, 15, 0xdc, 0xdd)
			for i := 1; i <= n; i++ {
				b = mpEncode(b, x.RawGetInt(i), level+1)
			}
			return b
		}
		b = mpHeader(b, uint64(count), 0x80, 15, 0xde, 0xdf)
		x.ForEach(func(k, val lua.LValue) {
			b = mpEncode(b, k, level+1)
			b = mpEncode(b, val, level+1)
		})
		return b
	}
	return append(b, 0xc0)
}

func mpInt(b []byte, n int64) []byte {
	switch {
	case n >= 0 && n <= 127:
		return append(b, byte(n))
	case n >= 0 && n <= 0xff:
		return append(b, 0xcc, byte(n))
	case n >= 0 && n <= 0xffff:
		return append(b, 0xcd, byte(n>>8), byte(n))
	case n >= 0 && n <= 0xffffffff:
		return binary.BigEndian.AppendUint32(append(b, 0xce), uint32(n))
	case n >= 0:
		return binary.BigEndian.AppendUint64(append(b, 0xcf), uint64(n))
	case n >= -32:
		return append(b, byte(int8(n)))
	case n >= -128:
		return append(b, 0xd0, byte(n))
	case n >= -32768:
		return append(b, 0xd1, byte(n>>8), byte(n))
	case n >= -2147483648:
		return binary.BigEndian.AppendUint32(append(b, 0xd2), uint32(n))
	}
	return binary.BigEndian.AppendUint64(append(b, 0xd3), uint64(n))
}

type mpCursor struct {
	p   []byte
	err int // 0 ok, 1 EOF, 2 bad format
}

func (c *mpCursor) need(n int) bool {
	if len(c.p) < n {
		c.err = 1
		return false
	}
	return true
}

func mpUnpack(L *lua.LState, limit, offset int) int {
	s := luaCheckString(L, 1, "unpack")
	all := limit == 0 && offset == 0
	if offset < 0 || limit < 0 {
		L.RaiseError("Invalid request to unpack with offset of %d and limit of %d.", offset, len(s))
	} else if offset > len(s) {
		L.RaiseError("Start offset %d greater than input length %d.", offset, len(s))
	}
	if all {
		limit = math.MaxInt32
	}
	c := &mpCursor{p: []byte(s[offset:])}
	var out []lua.LValue
	for cnt := 0; len(c.p) > 0 && cnt < limit; cnt++ {
		v := mpDecode(L, c)
		switch c.err {
		case 1:
			L.RaiseError("Missing bytes in input.")
		case 2:
			L.RaiseError("Bad data format in input.")
		}
		out = append(out, v)
	}
	if !all {
		next := lua.LNumber(len(s) - len(c.p))
		if len(c.p) == 0 {
			next = -1
		}
		L.Push(next)
	}
	for _, v := range out {
		L.Push(v)
	}
	if !all {
		return len(out) + 1
	}
	return len(out)
}

// mpHeads describes the MessagePack types whose first byte is followed by a big-endian number
// of width bytes (mp_decode_to_lua_type): the value itself (unsigned, signed, float), or the
// length of a string, or the element count of an array or a map.
var mpHeads = [256]struct {
	kind  byte
	width int
}{
	0xcc: {mpHeadUint, 1}, 0xcd: {mpHeadUint, 2}, 0xce: {mpHeadUint, 4}, 0xcf: {mpHeadUint, 8},
	0xd0: {mpHeadInt, 1}, 0xd1: {mpHeadInt, 2}, 0xd2: {mpHeadInt, 4}, 0xd3: {mpHeadInt, 8},
	0xca: {mpHeadFloat, 4}, 0xcb: {mpHeadFloat, 8},
	0xd9: {mpHeadStr, 1}, 0xda: {mpHeadStr, 2}, 0xdb: {mpHeadStr, 4},
	0xdc: {mpHeadArray, 2}, 0xdd: {mpHeadArray, 4},
	0xde: {mpHeadMap, 2}, 0xdf: {mpHeadMap, 4},
}

const (
	mpHeadUint = 1 + iota
	mpHeadInt
	mpHeadFloat
	mpHeadStr
	mpHeadArray
	mpHeadMap
)

func mpDecode(L *lua.LState, c *mpCursor) lua.LValue {
	if !c.need(1) {
		return lua.LNil
	}
	p := c.p
	take := func(n int) bool {
		if !c.need(n) {
			return false
		}
		return true
	}
	u := func(n int) uint64 {
		var v uint64
		for i := 1; i <= n; i++ {
			v = v<<8 | uint64(p[i])
		}
		return v
	}
	str := func(hdr, n int) lua.LValue {
		if !take(hdr + n) {
			return lua.LNil
		}
		v := lua.LString(p[hdr : hdr+n])
		c.p = p[hdr+n:]
		return v
	}
	array := func(hdr, n int) lua.LValue {
		c.p = p[hdr:]
		t := L.NewTable()
		for i := 1; i <= n; i++ {
			v := mpDecode(L, c)
			if c.err != 0 {
				return lua.LNil
			}
			t.RawSetInt(i, v)
		}
		return t
	}
	hash := func(hdr, n int) lua.LValue {
		c.p = p[hdr:]
		t := L.NewTable()
		for i := 0; i < n; i++ {
			k := mpDecode(L, c)
			if c.err != 0 {
				return lua.LNil
			}
			v := mpDecode(L, c)
			if c.err != 0 {
				return lua.LNil
			}
			if k == lua.LNil {
				L.RaiseError("table index is nil")
			}
			t.RawSet(k, v)
		}
		return t
	}
	fixed := func(n int, v lua.LValue) lua.LValue {
		if !take(n) {
			return lua.LNil
		}
		c.p = p[n:]
		return v
	}
	b := p[0]
	if h := mpHeads[b]; h.kind != 0 {
		hdr := 1 + h.width
		if !take(hdr) {
			return lua.LNil
		}
		n := u(h.width)
		switch h.kind {
		case mpHeadUint:
			return fixed(hdr, lua.LNumber(n))
		case mpHeadInt:
			shift := 64 - 8*h.width // sign-extend the big-endian two's complement
			return fixed(hdr, lua.LNumber(int64(n<<shift)>>shift))
		case mpHeadFloat:
			if h.width == 4 {
				return fixed(hdr, lua.LNumber(math.Float32frombits(uint32(n))))
			}
			return fixed(hdr, lua.LNumber(math.Float64frombits(n)))
		case mpHeadStr:
			return str(hdr, int(n))
		case mpHeadArray:
			return array(hdr, int(n))
		default:
			return hash(hdr, int(n))
		}
	}
	switch b {
	case 0xc0:
		return fixed(1, lua.LNil)
	case 0xc3:
		return fixed(1, lua.LTrue)
	case 0xc2:
		return fixed(1, lua.LFalse)
	default:
		switch {
		case b&0x80 == 0:
			return fixed(1, lua.LNumber(b))
		case b&0xe0 == 0xe0:
			return fixed(1, lua.LNumber(int8(b)))
		case b&0xe0 == 0xa0:
			return str(1, int(b&0x1f))
		case b&0xf0 == 0x90:
			return array(1, int(b&0xf))
		case b&0xf0 == 0x80:
			return hash(1, int(b&0xf))
		}
	}
	c.err = 2
	return lua.LNil
}
