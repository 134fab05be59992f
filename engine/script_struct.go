//go:build !nolua

package engine

// The struct library of Redis's Lua (Roberto Ierusalimschy's struct 0.2, deps/lua/src/lua_struct.c):
// struct.pack(fmt, …), struct.unpack(fmt, data [, pos]) and struct.size(fmt), as a 64-bit
// little-endian build has them.
//
// Format: '<' little and '>' big endian (native: little), '!n' maximum alignment n (a power of
// 2; '!' alone is 8), ' ' ignored; 'b'/'B' 1-byte, 'h'/'H' 2, 'l'/'L' and 'T' 8, 'i'/'I'[n]
// n-byte (default 4, at most 32) integers, lower case signed; 'f' float, 'd' double; 'x' one
// zero byte; 'c'[n] n bytes (default 1; 'c0' in unpack takes the length from the previous
// number; in pack the whole string); 's' a zero-terminated string. Integers and floats are
// aligned to min(size, alignment) from the start of the data (alignment 1 by default).

import (
	"math"

	lua "github.com/yuin/gopher-lua"
)

type structHeader struct {
	little bool
	align  int
}

func structNum(L *lua.LState, fmt string, i *int, df int) int {
	if *i >= len(fmt) || fmt[*i] < '0' || fmt[*i] > '9' {
		return df
	}
	a := 0
	for *i < len(fmt) && fmt[*i] >= '0' && fmt[*i] <= '9' {
		d := int(fmt[*i] - '0')
		if a > math.MaxInt32/10 || a*10 > math.MaxInt32-d {
			L.RaiseError("integral size overflow")
		}
		a = a*10 + d
		*i++
	}
	return a
}

func structOptSize(L *lua.LState, opt byte, fmt string, i *int) int {
	switch opt {
	case 'B', 'b':
		return 1
	case 'H', 'h':
		return 2
	case 'L', 'l', 'T', 'd':
		return 8
	case 'f':
		return 4
	case 'x':
		return 1
	case 'c':
		return structNum(L, fmt, i, 1)
	case 'i', 'I':
		sz := structNum(L, fmt, i, 4)
		if sz > 32 {
			L.RaiseError("integral size %d is larger than limit of %d", sz, 32)
		}
		return sz
	}
	return 0
}

func structToAlign(n int, h *structHeader, opt byte, size int) int {
	if size == 0 || opt == 'c' {
		return 0
	}
	if size > h.align {
		size = h.align
	}
	return (size - (n & (size - 1))) & (size - 1)
}

func structControl(L *lua.LState, opt byte, fmt string, i *int, h *structHeader, fname string) {
	switch opt {
	case ' ':
	case '>':
		h.little = false
	case '<':
		h.little = true
	case '!':
		a := structNum(L, fmt, i, 8)
		if a <= 0 || a&(a-1) != 0 {
			L.RaiseError("alignment %d is not a power of 2", a)
		}
		h.align = a
	default:
		luaArgError(L, 1, fname, "invalid format option '"+string(opt)+"'")
	}
}

func luaCheckString(L *lua.LState, n int, fname string) string {
	if s, ok := luaStringish(L.Get(n)); ok {
		return s
	}
	got := "no value"
	if n <= L.GetTop() {
		got = L.Get(n).Type().String()
	}
	luaArgError(L, n, fname, "string expected, got "+got)
	return ""
}

func openStruct(L *lua.LState) *lua.LTable {
	t := L.NewTable()
	t.RawSetString("pack", L.NewFunction(structPack))
	t.RawSetString("unpack", L.NewFunction(structUnpack))
	t.RawSetString("size", L.NewFunction(structSize))
	return t
}

func structPutInt(b []byte, v uint64, little bool, size int) []byte {
	buf := make([]byte, size)
	if little {
		for i := 0; i < size; i++ {
			buf[i] = byte(v)
			v >>= 8
		}
	} else {
		for i := size - 1; i >= 0; i-- {
			buf[i] = byte(v)
			v >>= 8
		}
	}
	return append(b, buf...)
}

func structPack(L *lua.LState) int {
	fmt := luaCheckString(L, 1, "pack")
	h := structHeader{little: true, align: 1}
	arg := 2
	L.Push(lua.LNil) // b_pack's mark: a missing argument reads as nil, not "no value"
	var b []byte
	for i := 0; i < len(fmt); {
		opt := fmt[i]
		i++
		size := structOptSize(L, opt, fmt, &i)
		for n := structToAlign(len(b), &h, opt, size); n > 0; n-- {
			b = append(b, 0)
		}
		switch opt {
		case 'b', 'B', 'h', 'H', 'l', 'L', 'T', 'i', 'I':
			n := luaCheckNumber(L, arg, "pack")
			arg++
			var v uint64
			if n < 0 {
				v = uint64(luaNumberToInt(n))
			} else if n >= 18446744073709551616.0 {
				v = 0
			} else {
				v = uint64(n)
			}
			b = structPutInt(b, v, h.little, size)
		case 'x':
			b = append(b, 0)
		case 'f':
			bits := math.Float32bits(float32(luaCheckNumber(L, arg, "pack")))
			arg++
			b = structPutInt(b, uint64(bits), h.little, 4)
		case 'd':
			bits := math.Float64bits(luaCheckNumber(L, arg, "pack"))
			arg++
			b = structPutInt(b, bits, h.little, 8)
		case 'c', 's':
			s := luaCheckString(L, arg, "pack")
			arg++
			if size == 0 || opt == 's' {
				size = len(s)
			}
			if len(s) < size {
				luaArgError(L, arg, "pack", "string too short")
			}
			b = append(b, s[:size]...)
			if opt == 's' {
				b = append(b, 0)
			}
		default:
			structControl(L, opt, fmt, &i, &h, "pack")
		}
	}
	L.Push(lua.LString(b))
	return 1
}

// structGetUint reads size bytes of b as an unsigned number in the given byte order (the
// integers' and, as their bits, the floats' reading; structPutInt is its reverse).
func structGetUint(b []byte, little bool, size int) uint64 {
	var l uint64
	if little {
		for i := size - 1; i >= 0; i-- {
			l = l<<8 | uint64(b[i])
		}
	} else {
		for i := 0; i < size; i++ {
			l = l<<8 | uint64(b[i])
		}
	}
	return l
}

func structGetInt(b []byte, little, signed bool, size int) float64 {
	l := structGetUint(b, little, size)
	if !signed {
		return float64(l)
	}
	if size*8-1 < 64 {
		mask := ^uint64(0) << (size*8 - 1)
		if l&mask != 0 {
			l |= mask
		}
	}
	return float64(int64(l))
}

func structUnpack(L *lua.LState) int {
	fmt := luaCheckString(L, 1, "unpack")
	data := luaCheckString(L, 2, "unpack")
	pos := 1
	if L.GetTop() >= 3 && L.Get(3) != lua.LNil {
		pos = luaCheckInt(L, 3, "unpack")
	}
	if pos <= 0 {
		luaArgError(L, 3, "unpack", "offset must be 1 or greater")
	}
	pos--
	h := structHeader{little: true, align: 1}
	var out []lua.LValue
	ld := len(data)
	for i := 0; i < len(fmt); {
		opt := fmt[i]
		i++
		size := structOptSize(L, opt, fmt, &i)
		pos += structToAlign(pos, &h, opt, size)
		if !(size <= ld && pos <= ld-size) {
			luaArgError(L, 2, "unpack", "data string too short")
		}
		switch opt {
		case 'b', 'B', 'h', 'H', 'l', 'L', 'T', 'i', 'I':
			signed := opt >= 'a'
			out = append(out, lua.LNumber(structGetInt([]byte(data[pos:pos+size]), h.little, signed, size)))
		case 'x':
		case 'f':
			bits := uint32(structGetUint([]byte(data[pos:pos+4]), h.little, 4))
			out = append(out, lua.LNumber(math.Float32frombits(bits)))
		case 'd':
			bits := structGetUint([]byte(data[pos:pos+8]), h.little, 8)
			out = append(out, lua.LNumber(math.Float64frombits(bits)))
		case 'c':
			if size == 0 {
				var prev lua.LNumber
				ok := false
				if len(out) > 0 {
					prev, ok = out[len(out)-1].(lua.LNumber)
				}
				if !ok {
					L.RaiseError("format 'c0' needs a previous size")
				}
				size = int(prev)
				out = out[:len(out)-1]
				if !(size <= ld && pos <= ld-size) {
					luaArgError(L, 2, "unpack", "data string too short")
				}
			}
			out = append(out, lua.LString(data[pos:pos+size]))
		case 's':
			end := -1
			for j := pos; j < ld; j++ {
				if data[j] == 0 {
					end = j
					break
				}
			}
			if end < 0 {
				L.RaiseError("unfinished string in data")
			}
			size = end - pos + 1
			out = append(out, lua.LString(data[pos:end]))
		default:
			structControl(L, opt, fmt, &i, &h, "unpack")
		}
		pos += size
	}
	for _, v := range out {
		L.Push(v)
	}
	L.Push(lua.LNumber(pos + 1))
	return len(out) + 1
}

func structSize(L *lua.LState) int {
	fmt := luaCheckString(L, 1, "size")
	h := structHeader{little: true, align: 1}
	pos := 0
	for i := 0; i < len(fmt); {
		opt := fmt[i]
		i++
		size := structOptSize(L, opt, fmt, &i)
		pos += structToAlign(pos, &h, opt, size)
		if opt == 's' {
			luaArgError(L, 1, "size", "option 's' has no fixed size")
		} else if opt == 'c' && size == 0 {
			luaArgError(L, 1, "size", "option 'c0' has no fixed size")
		}
		if !isAlnum(opt) {
			structControl(L, opt, fmt, &i, &h, "size")
		}
		pos += size
	}
	L.Push(lua.LNumber(pos))
	return 1
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z'
}
