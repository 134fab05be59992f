//go:build !nolua

package engine

// The bit library of Redis's Lua (LuaBitOp 1.0, deps/lua/src/lua_bit.c): 32-bit operations on
// Lua numbers. A number becomes 32 bits the way LuaBitOp does it on doubles: add 2^52+2^51 and
// keep the low word of the result, which rounds to the nearest integer (ties to even) and wraps
// modulo 2^32, so bit.tobit(2^32+1) is 1 and bit.tobit(0xffffffff) is -1. Results are signed.

import (
	"math"

	lua "github.com/yuin/gopher-lua"
)

func bitArg(L *lua.LState, i int, fname string) uint32 {
	n := luaCheckNumber(L, i, fname)
	return uint32(math.Float64bits(n + 6755399441055744.0))
}

func bitRet(L *lua.LState, b uint32) int {
	L.Push(lua.LNumber(int32(b)))
	return 1
}

func openBit(L *lua.LState) *lua.LTable {
	fold := func(name string, op func(a, b uint32) uint32) lua.LGFunction {
		return func(L *lua.LState) int {
			b := bitArg(L, 1, name)
			for i := L.GetTop(); i > 1; i-- {
				b = op(b, bitArg(L, i, name))
			}
			return bitRet(L, b)
		}
	}
	shift := func(name string, op func(b, n uint32) uint32) lua.LGFunction {
		return func(L *lua.LState) int {
			b := bitArg(L, 1, name)
			n := bitArg(L, 2, name) & 31
			return bitRet(L, op(b, n))
		}
	}
	funcs := map[string]lua.LGFunction{
		"tobit":  func(L *lua.LState) int { return bitRet(L, bitArg(L, 1, "tobit")) },
		"bnot":   func(L *lua.LState) int { return bitRet(L, ^bitArg(L, 1, "bnot")) },
		"band":   fold("band", func(a, b uint32) uint32 { return a & b }),
		"bor":    fold("bor", func(a, b uint32) uint32 { return a | b }),
		"bxor":   fold("bxor", func(a, b uint32) uint32 { return a ^ b }),
		"lshift": shift("lshift", func(b, n uint32) uint32 { return b << n }),
		"rshift": shift("rshift", func(b, n uint32) uint32 { return b >> n }),
		"arshift": shift("arshift", func(b, n uint32) uint32 {
			return uint32(int32(b) >> n)
		}),
		"rol": shift("rol", func(b, n uint32) uint32 { return b<<n | b>>(32-n) }),
		"ror": shift("ror", func(b, n uint32) uint32 { return b<<(32-n) | b>>n }),
		"bswap": func(L *lua.LState) int {
			b := bitArg(L, 1, "bswap")
			return bitRet(L, b>>24|(b>>8)&0xff00|(b&0xff00)<<8|b<<24)
		},
		"tohex": func(L *lua.LState) int {
			b := bitArg(L, 1, "tohex")
			n := int32(8)
			if L.GetTop() >= 2 && L.Get(2) != lua.LNil {
				n = int32(bitArg(L, 2, "tohex"))
			}
			digits := "0123456789abcdef"
			if n < 0 {
				n = -n
				digits = "0123456789ABCDEF"
			}
			if n > 8 {
				n = 8
			}
			buf := make([]byte, n)
			for i := n - 1; i >= 0; i-- {
				buf[i] = digits[b&15]
				b >>= 4
			}
			L.Push(lua.LString(buf))
			return 1
		},
	}
	t := L.NewTable()
	for name, f := range funcs {
		t.RawSetString(name, L.NewFunction(f))
	}
	return t
}

// luaStringToNumber is Lua 5.1's string → number coercion (lua_str2number: strtod, or a hex
// integer), allowing surrounding white space.
func luaStringToNumber(s string) (float64, bool) {
	b := []byte(s)
	i := 0
	for i < len(b) && dblIsSpace(b[i]) {
		i++
	}
	j := len(b)
	for j > i && dblIsSpace(b[j-1]) {
		j--
	}
	b = b[i:j]
	if len(b) == 0 {
		return 0, false
	}
	if len(b) > 2 && b[0] == '0' && b[1]|0x20 == 'x' {
		var n uint64
		for _, c := range b[2:] {
			if !dblIsHex(c) {
				return 0, false
			}
			d := c - '0'
			if c > '9' {
				d = c | 0x20 - 'a' + 10
			}
			n = n<<4 | uint64(d)
		}
		return float64(n), true
	}
	v, n, _ := strtod(b, false)
	if n != len(b) {
		return 0, false
	}
	return v, true
}
