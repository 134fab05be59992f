package engine

import (
	"math"
	"strconv"
)

// Doubles: how sorted-set scores (and other doubles) are parsed and printed per profile
// (docs/internals.md §Skiplist and doubles; util.c d2string/double2ll/string2d, networking.c addReplyDouble).
//
// Printing:
//   - 7.0 replies (addReplyDouble, RESP2): "inf"/"-inf", otherwise printf("%.17g") — even for
//     integral values ("3" comes out because %g drops trailing zeros; 1e21 → "1e+21",
//     0.1 → "0.10000000000000001", 1e-7 → "9.9999999999999995e-08").
//   - 7.2+ replies and every profile's d2string (listpack score storage): nan, inf, -inf, "0",
//     "-0", integral values within ±2^62 as integers, then 7.0 "%.17g" or 7.2+ the shortest
//     round-trip digits laid out by fpconv's rules (appendShortest).
//
// Parsing (7.x): C strtod — decimal, hex ("0x10", "0x1.8p1"), inf/infinity in any case, with an
// optional sign. string2d (ZADD, ZINCRBY) rejects an empty string, leading white space, trailing
// bytes, NaN, overflow to ±HUGE_VAL and underflow to zero. zslParseRange (ZRANGEBYSCORE, ZCOUNT)
// calls strtod directly: leading spaces and an empty string (= 0) pass, out-of-range values
// become ±inf / 0, only NaN and trailing bytes are refused. 8.x (fast_float) refuses hex.

// appendG17 is C's printf("%.17g"): Go's 'g' with precision 17 rounds exactly like glibc,
// drops trailing zeros like %g and prints at least two exponent digits like C.
func appendG17(dst []byte, d float64) []byte {
	switch {
	case math.IsInf(d, 1):
		return append(dst, "inf"...)
	case math.IsInf(d, -1):
		return append(dst, "-inf"...)
	case math.IsNaN(d):
		return append(dst, "nan"...)
	}
	return strconv.AppendFloat(dst, d, 'g', 17, 64)
}

// double2ll is util.c double2ll: the value is integral and within ±2^62 (the bounds are
// (double)(LLONG_MAX/2), which rounds to 2^62).
func double2ll(d float64) (int64, bool) {
	const lim = float64(1 << 62)
	if !(d >= -lim && d <= lim) { // also false for NaN
		return 0, false
	}
	ll := int64(d)
	if float64(ll) == d {
		return ll, true
	}
	return 0, false
}

// appendD2String is d2string for the profile: the text a zset listpack stores for a
// non-integral score and what 7.2+ replies with.
func appendD2String(dst []byte, d float64, ver Version) []byte {
	switch {
	case math.IsNaN(d):
		return append(dst, "nan"...)
	case math.IsInf(d, 1):
		return append(dst, "inf"...)
	case math.IsInf(d, -1):
		return append(dst, "-inf"...)
	case d == 0:
		if math.Signbit(d) {
			return append(dst, "-0"...)
		}
		return append(dst, '0')
	}
	if ll, ok := double2ll(d); ok {
		return strconv.AppendInt(dst, ll, 10)
	}
	if ver.Has(V72) {
		return appendShortest(dst, d)
	}
	return strconv.AppendFloat(dst, d, 'g', 17, 64)
}

// appendReplyDouble is addReplyDouble's text (RESP2 bulk / RESP3 double) for the profile.
func appendReplyDouble(dst []byte, d float64, ver Version) []byte {
	if ver.Has(V72) {
		return appendD2String(dst, d, ver)
	}
	return appendG17(dst, d)
}

// FormatDouble is the reply text of a double under profile ver (exported for the visualizer).
func FormatDouble(d float64, ver Version) string {
	var b [32]byte
	return string(appendReplyDouble(b[:0], d, ver))
}

// doubleReply builds a double reply for the engine's profile.
func (e *Engine) doubleReply(d float64) Reply {
	var b [32]byte
	return Double(string(appendReplyDouble(b[:0], d, e.ver)))
}

// appendShortest is fpconv_dtoa (7.2+): the shortest round-trip digits (Grisu2; identical to
// Go's shortest formatting, docs/internals.md §Skiplist and doubles) laid out as plain integer, plain decimal or
// scientific notation with an exponent without leading zeros.
func appendShortest(dst []byte, d float64) []byte {
	var buf [32]byte
	s := strconv.AppendFloat(buf[:0], d, 'e', -1, 64)
	neg := false
	if s[0] == '-' {
		neg = true
		s = s[1:]
	}
	// s = d[.ddd]e±XX
	epos := 0
	for i, c := range s {
		if c == 'e' {
			epos = i
			break
		}
	}
	var digits [24]byte
	nd := 0
	for _, c := range s[:epos] {
		if c != '.' {
			digits[nd] = c
			nd++
		}
	}
	exp10, _ := strconv.Atoi(string(s[epos+1:])) // exponent of the first digit
	// Go keeps no trailing zeros in shortest 'e' form except for the single digit "0".
	K := exp10 - (nd - 1) // exponent of the last digit
	if neg {
		dst = append(dst, '-')
	}
	E := K + nd - 1
	if E < 0 {
		E = -E
	}
	dig := digits[:nd]
	if K >= 0 && E < nd+7 {
		dst = append(dst, dig...)
		for i := 0; i < K; i++ {
			dst = append(dst, '0')
		}
		return dst
	}
	if K < 0 && (K > -7 || E < 4) {
		off := nd + K
		if off <= 0 {
			dst = append(dst, '0', '.')
			for i := 0; i < -off; i++ {
				dst = append(dst, '0')
			}
			return append(dst, dig...)
		}
		dst = append(dst, dig[:off]...)
		dst = append(dst, '.')
		return append(dst, dig[off:]...)
	}
	dst = append(dst, dig[0])
	if nd > 1 {
		dst = append(dst, '.')
		dst = append(dst, dig[1:]...)
	}
	dst = append(dst, 'e')
	if K+nd-1 < 0 {
		dst = append(dst, '-')
	} else {
		dst = append(dst, '+')
	}
	return strconv.AppendInt(dst, int64(E), 10)
}

// strtod parses the longest prefix of b that C's strtod accepts (after optional white space).
// It returns the value, the bytes consumed (0 when nothing parsed) and whether errno would be
// ERANGE (overflow to ±inf, or underflow: a non-zero number that became 0 or a subnormal).
// hex selects whether hexadecimal floats are accepted (7.x strtod: yes).
func strtod(b []byte, hex bool) (v float64, n int, erange bool) {
	i := 0
	for i < len(b) && dblIsSpace(b[i]) {
		i++
	}
	start := i
	neg := false
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		neg = b[i] == '-'
		i++
	}
	sign := 1.0
	if neg {
		sign = -1
	}
	// inf / infinity / nan
	if i < len(b) && (b[i]|0x20 == 'i' || b[i]|0x20 == 'n') {
		if dblFoldPrefix(b[i:], "infinity") {
			return math.Inf(int(sign)), i + 8, false
		}
		if dblFoldPrefix(b[i:], "inf") {
			return math.Inf(int(sign)), i + 3, false
		}
		if dblFoldPrefix(b[i:], "nan") {
			j := i + 3
			if j < len(b) && b[j] == '(' {
				k := j + 1
				for k < len(b) && (dblIsAlnum(b[k]) || b[k] == '_') {
					k++
				}
				if k < len(b) && b[k] == ')' {
					j = k + 1
				}
			}
			return math.NaN(), j, false
		}
		return 0, 0, false
	}
	if hex && i+1 < len(b) && b[i] == '0' && b[i+1]|0x20 == 'x' {
		j, nd, nz := dblMantissa(b, i+2, dblIsHex)
		mant := b[i+2 : j]
		if nd > 0 {
			expPart := "p0"
			if k := dblExponentEnd(b, j, 'p'); k > j {
				expPart = "p" + string(b[j+1:k])
				j = k
			}
			f, err := strconv.ParseFloat("0x"+string(mant)+expPart, 64)
			if err != nil && !math.IsInf(f, 0) {
				// exponent too long to parse: decide by its sign
				if len(expPart) > 1 && expPart[1] == '-' {
					f = 0
				} else {
					f = math.Inf(1)
				}
			}
			er := math.IsInf(f, 0) || (nz && (f == 0 || math.Abs(f) < 0x1p-1022))
			return sign * f, j, er
		}
		// "0x" without digits: strtod parses the "0"
		return math.Copysign(0, sign), i + 1, false
	}
	// decimal
	j, nd, nz := dblMantissa(b, i, dblIsDigit)
	if nd == 0 {
		return 0, 0, false
	}
	j = dblExponentEnd(b, j, 'e')
	f, err := strconv.ParseFloat(string(b[start:j]), 64)
	if err != nil && !math.IsInf(f, 0) {
		return 0, 0, false // cannot happen for the grammar above
	}
	er := math.IsInf(f, 0) || (nz && (f == 0 || math.Abs(f) < 0x1p-1022))
	return f, j, er
}

// dblMantissa scans the mantissa at b[j:] of a decimal or hexadecimal number: digits (as
// isDigit tells), then optionally '.' and more digits. It returns where the mantissa ends, how
// many digits it has, and whether any of them is not '0' (a nonzero mantissa that comes out as
// zero or subnormal is an underflow, ERANGE).
func dblMantissa(b []byte, j int, isDigit func(byte) bool) (end, digits int, nonzero bool) {
	run := func() {
		for j < len(b) && isDigit(b[j]) {
			if b[j] != '0' {
				nonzero = true
			}
			j++
			digits++
		}
	}
	run()
	if j < len(b) && b[j] == '.' {
		j++
		run()
	}
	return j, digits, nonzero
}

// dblExponentEnd is where the exponent at b[j:] of a decimal ('e') or hexadecimal ('p') number
// ends: after the mark in either case, an optional sign and at least one digit. Without digits
// strtod takes no exponent and stops at the mark, so the answer is j.
func dblExponentEnd(b []byte, j int, mark byte) int {
	if j >= len(b) || b[j]|0x20 != mark {
		return j
	}
	k := j + 1
	if k < len(b) && (b[k] == '+' || b[k] == '-') {
		k++
	}
	ds := k
	for k < len(b) && dblIsDigit(b[k]) {
		k++
	}
	if k == ds {
		return j
	}
	return k
}

// string2d is util.c string2d (getDoubleFromObject): the whole string must be a number, no
// leading space, no NaN, no overflow, no underflow to zero.
func (e *Engine) string2d(b []byte) (float64, bool) {
	if len(b) == 0 || dblIsSpace(b[0]) {
		return 0, false
	}
	v, n, er := strtod(b, !e.ver.Has(V80))
	if n != len(b) || math.IsNaN(v) {
		return 0, false
	}
	if er && (math.IsInf(v, 0) || v == 0) {
		return 0, false
	}
	return v, true
}

// parseRangeScore is one bound of zslParseRange: an optional "(" for an exclusive bound, then
// strtod up to the end of the C string (an embedded NUL ends it). ok=false → "min or max is not
// a float".
func (e *Engine) parseRangeScore(b []byte) (v float64, ex bool, ok bool) {
	if len(b) > 0 && b[0] == '(' {
		ex = true
		b = b[1:]
	}
	for i, c := range b {
		if c == 0 {
			b = b[:i]
			break
		}
	}
	v, n, _ := strtod(b, !e.ver.Has(V80))
	if n != len(b) { // an empty string parses as 0 (strtod converts nothing, the end is reached)
		return 0, false, false
	}
	if math.IsNaN(v) {
		return 0, false, false
	}
	return v, ex, true
}

func dblIsSpace(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') }
func dblIsDigit(c byte) bool { return c >= '0' && c <= '9' }
func dblIsHex(c byte) bool   { return dblIsDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'f') }
func dblIsAlnum(c byte) bool { return dblIsDigit(c) || (c|0x20 >= 'a' && c|0x20 <= 'z') }

func dblFoldPrefix(b []byte, lower string) bool {
	return len(b) >= len(lower) && eqFold(b[:len(lower)], lower)
}
