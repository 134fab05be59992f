//go:build !nolua

package engine

// string.format as Lua 5.1 has it (lstrlib.c, str_format), in place of gopher-lua's: C printf
// conversions on Lua numbers and strings. Each "%" takes flags from "-+ #0" (at most 5), a width
// and a precision of at most 2 digits each ("invalid format (width or precision too long)"),
// then one of: c (the number as a byte), d i (the number cast to a C long: 3.7 → 3, 2^63 →
// -2^63), o u x X (cast to unsigned long: -1 → ffffffffffffffff), e E f g G (a double, precision
// 6 by default), q (the string quoted so Lua reads it back: \" \\ and a backslash before a line
// feed, \r, \000), s (the string; numbers as "%.14g"), %% (a percent sign); anything else is
// "invalid option '%y' to 'format'". A missing argument is "bad argument #n to 'format' (no
// value)".

import (
	"math"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

type cFormat struct {
	minus, plus, space, hash, zero bool
	width, prec                    int // -1: none
}

func luaStringFormat(L *lua.LState) int {
	fmt := luaCheckString(L, 1, "format")
	var b strings.Builder
	arg := 1
	top := L.GetTop()
	for i := 0; i < len(fmt); i++ {
		c := fmt[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		i++
		if i < len(fmt) && fmt[i] == '%' {
			b.WriteByte('%')
			continue
		}
		arg++
		if arg > top {
			luaArgError(L, arg, "format", "no value")
		}
		f := cFormat{width: -1, prec: -1}
		start := i
		for i < len(fmt) && strings.IndexByte("-+ #0", fmt[i]) >= 0 {
			switch fmt[i] {
			case '-':
				f.minus = true
			case '+':
				f.plus = true
			case ' ':
				f.space = true
			case '#':
				f.hash = true
			case '0':
				f.zero = true
			}
			i++
		}
		if i-start >= 6 {
			L.RaiseError("invalid format (repeated flags)")
		}
		digits := func() int {
			n, d := 0, 0
			for d < 2 && i < len(fmt) && fmt[i] >= '0' && fmt[i] <= '9' {
				n = n*10 + int(fmt[i]-'0')
				i++
				d++
			}
			if d == 0 {
				return -1
			}
			return n
		}
		f.width = digits()
		if i < len(fmt) && fmt[i] == '.' {
			i++
			f.prec = digits()
			if f.prec < 0 {
				f.prec = 0
			}
		}
		if i < len(fmt) && fmt[i] >= '0' && fmt[i] <= '9' {
			L.RaiseError("invalid format (width or precision too long)")
		}
		if i >= len(fmt) {
			L.RaiseError("invalid option '%s' to 'format'", "%")
		}
		conv := fmt[i]
		switch conv {
		case 'c':
			n := luaCheckNumber(L, arg, "format")
			b.WriteString(f.pad(string([]byte{byte(int32(luaNumberToInt(n)))}), false))
		case 'd', 'i':
			n := luaNumberToInt(luaCheckNumber(L, arg, "format"))
			neg := n < 0
			u := uint64(n)
			if neg {
				u = uint64(-n)
			}
			b.WriteString(f.integer(strconv.FormatUint(u, 10), neg, ""))
		case 'o', 'u', 'x', 'X':
			v := luaCheckNumber(L, arg, "format")
			var u uint64
			if v >= 0 && v < 18446744073709551616.0 {
				u = uint64(v)
			} else {
				u = uint64(luaNumberToInt(v))
			}
			base, prefix := 10, ""
			switch conv {
			case 'o':
				base = 8
			case 'x', 'X':
				base = 16
				if f.hash && u != 0 {
					prefix = "0x"
				}
			}
			s := strconv.FormatUint(u, base)
			if conv == 'o' && f.hash && !strings.HasPrefix(s, "0") {
				s = "0" + s
			}
			if conv == 'X' {
				s, prefix = strings.ToUpper(s), strings.ToUpper(prefix)
			}
			f.plus, f.space = false, false
			b.WriteString(f.integer(s, false, prefix))
		case 'e', 'E', 'f', 'g', 'G':
			b.WriteString(f.float(luaCheckNumber(L, arg, "format"), conv))
		case 'q':
			s := luaCheckString(L, arg, "format")
			b.WriteByte('"')
			for j := 0; j < len(s); j++ {
				switch s[j] {
				case '"', '\\', '\n':
					b.WriteByte('\\')
					b.WriteByte(s[j])
				case '\r':
					b.WriteString("\\r")
				case 0:
					b.WriteString("\\000")
				default:
					b.WriteByte(s[j])
				}
			}
			b.WriteByte('"')
		case 's':
			s := luaCheckString(L, arg, "format")
			if f.prec < 0 && len(s) >= 100 {
				b.WriteString(s) // kept whole, flags and width ignored
				break
			}
			if k := strings.IndexByte(s, 0); k >= 0 {
				s = s[:k] // sprintf stops at a zero byte
			}
			if f.prec >= 0 && len(s) > f.prec {
				s = s[:f.prec]
			}
			b.WriteString(f.pad(s, false))
		default:
			L.RaiseError("invalid option '%%%c' to 'format'", conv)
		}
	}
	L.Push(lua.LString(b.String()))
	return 1
}

// pad applies the width: left-justified with '-', zeros after the sign with '0' for numbers.
func (f cFormat) pad(s string, number bool) string {
	if f.width <= len(s) {
		return s
	}
	fill := f.width - len(s)
	switch {
	case f.minus:
		return s + strings.Repeat(" ", fill)
	case f.zero && number:
		sign := ""
		if s != "" && (s[0] == '-' || s[0] == '+' || s[0] == ' ') {
			sign, s = s[:1], s[1:]
		}
		if strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X") {
			sign, s = sign+s[:2], s[2:]
		}
		return sign + strings.Repeat("0", fill) + s
	}
	return strings.Repeat(" ", fill) + s
}

func (f cFormat) sign(neg bool) string {
	switch {
	case neg:
		return "-"
	case f.plus:
		return "+"
	case f.space:
		return " "
	}
	return ""
}

func (f cFormat) integer(digits string, neg bool, prefix string) string {
	if f.prec >= 0 {
		if f.prec == 0 && digits == "0" {
			digits = ""
		}
		if len(digits) < f.prec {
			digits = strings.Repeat("0", f.prec-len(digits)) + digits
		}
		f.zero = false // a precision turns the 0 flag off
	}
	return f.pad(f.sign(neg)+prefix+digits, true)
}

func (f cFormat) float(v float64, conv byte) string {
	neg := math.Signbit(v)
	a := math.Abs(v)
	var s string
	switch {
	case math.IsInf(v, 0):
		s = "inf"
		f.zero = false
	case math.IsNaN(v):
		s = "nan"
		f.zero = false
	default:
		prec := f.prec
		if prec < 0 {
			prec = 6
		}
		switch conv | 0x20 {
		case 'e':
			s = strconv.FormatFloat(a, 'e', prec, 64)
		case 'f':
			s = strconv.FormatFloat(a, 'f', prec, 64)
		case 'g':
			if prec == 0 {
				prec = 1
			}
			s = strconv.FormatFloat(a, 'g', prec, 64)
			if f.hash && !strings.ContainsAny(s, "e.") && len(strings.TrimLeft(s, "0")) < prec {
				s += "." + strings.Repeat("0", prec-len(strings.TrimLeft(s, "0")))
			}
		}
		if f.hash && f.prec == 0 && !strings.Contains(s, ".") && conv|0x20 != 'g' {
			if k := strings.IndexByte(s, 'e'); k >= 0 {
				s = s[:k] + "." + s[k:]
			} else {
				s += "."
			}
		}
	}
	if conv == 'E' || conv == 'G' {
		s = strings.ToUpper(s)
	}
	return f.pad(f.sign(neg)+s, true)
}
