package engine

import (
	"math/big"
)

// Long double arithmetic as INCRBYFLOAT / HINCRBYFLOAT / INCREX BYFLOAT do it on x86-64 Linux
// (docs/internals.md §Counters): the x87 80-bit extended format — a 64-bit mantissa with an explicit
// integer bit, exponents from −16382 (normal) down to 2^−16445 (the smallest subnormal) and
// up to 2^16384 (overflow to infinity) — with round-to-nearest-even, glibc's correctly rounded
// strtold for parsing, and snprintf("%.17Lf") for printing.
//
// Values are math/big Floats holding a value that is exactly representable in the 80-bit
// format (or ±Inf). Every operation computes the exact result first and rounds it once with
// round80, so there is no double rounding.

const (
	ld80Prec    = 64     // mantissa bits
	ld80MaxExp  = 16384  // |x| < 2^16384 (big.Float exponent of the largest finite value)
	ld80MinExp  = -16381 // big.Float exponent of the smallest normal 2^-16382 (0.5 × 2^-16381)
	ld80Denorm  = -16445 // the smallest subnormal is 2^-16445
	maxLDChars  = 5 * 1024
	ldMaxDigits = 4933 // decimal digits before the point of the largest finite value (1.19e4932)
)

// round80 rounds an exact value to the 80-bit format. It reports overflow (the result would be
// ±Inf). A result that underflows becomes a signed zero.
func round80(x *big.Float) (r *big.Float, overflow bool) {
	if x.IsInf() {
		return x, true
	}
	if x.Sign() == 0 {
		return new(big.Float).SetPrec(ld80Prec).Set(x), false
	}
	e := x.MantExp(nil) // x = m × 2^e, 0.5 ≤ |m| < 1
	prec := ld80Prec
	if e < ld80MinExp {
		// Subnormal: only the bits down to 2^-16445 survive. The top bit of x weighs 2^(e-1).
		prec = e - ld80Denorm
		if prec <= 0 {
			// Below the smallest subnormal: round to 0 or to 2^-16445.
			half := new(big.Float).SetMantExp(big.NewFloat(1), ld80Denorm-1) // 2^-16446
			ax := new(big.Float).Abs(x)
			r = new(big.Float).SetPrec(ld80Prec)
			if ax.Cmp(half) > 0 {
				r.SetMantExp(big.NewFloat(1), ld80Denorm)
			}
			if x.Sign() < 0 {
				r.Neg(r)
			}
			return r, false
		}
	}
	r = new(big.Float).SetPrec(uint(prec)).SetMode(big.ToNearestEven).Set(x)
	if r.MantExp(nil) > ld80MaxExp {
		return r, true
	}
	return r.SetPrec(ld80Prec), false
}

// ldFromInt converts an int64 exactly (64-bit mantissa).
func ldFromInt(v int64) *big.Float {
	return new(big.Float).SetPrec(ld80Prec).SetInt64(v)
}

// ldAdd is x + y in long double. ok is false when the result is NaN or ±Inf.
func ldAdd(x, y *big.Float) (r *big.Float, ok bool) {
	if x.IsInf() || y.IsInf() {
		return nil, false // Inf or NaN
	}
	// The exact sum: enough bits to hold both operands aligned.
	ex, ey := x.MantExp(nil), y.MantExp(nil)
	if x.Sign() == 0 {
		ex = ey
	}
	if y.Sign() == 0 {
		ey = ex
	}
	span := ex - ey
	if span < 0 {
		span = -span
	}
	sum := new(big.Float).SetPrec(uint(span + 2*ld80Prec + 2)).SetMode(big.ToNearestEven)
	sum.Add(x, y)
	r, over := round80(sum)
	if over {
		return nil, false
	}
	return r, true
}

// ldCmp compares two long doubles.
func ldCmp(x, y *big.Float) int { return x.Cmp(y) }

// ldSub is x − y (exact difference rounded once).
func ldSub(x, y *big.Float) (r *big.Float, ok bool) {
	return ldAdd(x, new(big.Float).Neg(y))
}

// formatLongDouble is ld2string in LD_STR_HUMAN mode: "%.17Lf", then trailing zeros and a
// trailing point removed, and "-0" printed as "0".
func formatLongDouble(x *big.Float) string {
	return string(appendLongDouble(nil, x))
}

func appendLongDouble(dst []byte, x *big.Float) []byte {
	if x.IsInf() {
		if x.Sign() < 0 {
			return append(dst, "-inf"...)
		}
		return append(dst, "inf"...)
	}
	start := len(dst)
	dst = x.Append(dst, 'f', 17)
	l := len(dst)
	for l > start && dst[l-1] == '0' {
		l--
	}
	if l > start && dst[l-1] == '.' {
		l--
	}
	dst = dst[:l]
	if len(dst)-start == 2 && dst[start] == '-' && dst[start+1] == '0' {
		dst = append(dst[:start], '0')
	}
	return dst
}

// parseLongDouble is Redis's string2ld: strtold over the whole argument, rejecting an empty
// string, anything of MAX_LONG_DOUBLE_CHARS (5120) bytes or more, leading white space,
// trailing bytes (also an embedded NUL), NaN, and values that overflow to ±HUGE_VAL or
// underflow to zero (ERANGE). Infinities written as "inf"/"infinity" are accepted.
func parseLongDouble(b []byte) (*big.Float, bool) {
	n := len(b)
	if n == 0 || n >= maxLDChars {
		return nil, false
	}
	switch b[0] {
	case ' ', '\t', '\n', '\v', '\f', '\r':
		return nil, false
	}
	i := 0
	neg := false
	if b[0] == '+' || b[0] == '-' {
		neg = b[0] == '-'
		i++
	}
	rest := b[i:]
	// inf / infinity (any case); nan is always rejected.
	if len(rest) > 0 && (rest[0]|0x20 == 'i' || rest[0]|0x20 == 'n') {
		if eqFold(rest, "inf") || eqFold(rest, "infinity") {
			f := new(big.Float).SetInf(neg)
			return f, true
		}
		return nil, false
	}
	var x *big.Float
	var ok bool
	if len(rest) >= 2 && rest[0] == '0' && rest[1]|0x20 == 'x' {
		x, ok = parseHexLD(rest[2:])
	} else {
		x, ok = parseDecLD(rest)
	}
	if !ok {
		return nil, false
	}
	if neg {
		x.Neg(x)
	}
	return x, true
}

// ldExponentEnd is ldExponent for the end of the argument: ok is false too when anything
// follows the exponent (the whole argument must be the number).
func ldExponentEnd(s []byte, i int, mark byte) (e int, ok bool) {
	e, i, ok = ldExponent(s, i, mark)
	return e, ok && i == len(s)
}

// ldExponent reads the optional exponent at s[i:] of a decimal ('e') or hexadecimal ('p')
// long double: the mark in either case, an optional sign, then digits (a value past 10^9 stops
// growing; it overflows or underflows either way). It returns the exponent (0 when there is no
// mark) and the index after it; ok is false when the mark has no digits after it, where strtold
// would stop before the mark and leave trailing junk.
func ldExponent(s []byte, i int, mark byte) (e, next int, ok bool) {
	if i >= len(s) || s[i]|0x20 != mark {
		return 0, i, true
	}
	i++
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	if i >= len(s) || s[i] < '0' || s[i] > '9' {
		return 0, i, false
	}
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		if e < 1_000_000_000 {
			e = e*10 + int(s[i]-'0')
		}
	}
	if neg {
		e = -e
	}
	return e, i, true
}

// parseDecLD parses digits [. digits] [e [sign] digits] (at least one mantissa digit).
func parseDecLD(s []byte) (*big.Float, bool) {
	i := 0
	digits := make([]byte, 0, 32)
	sawDigit := false
	exp10 := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		sawDigit = true
		if len(digits) == 0 && s[i] == '0' {
			continue
		}
		digits = append(digits, s[i])
	}
	if i < len(s) && s[i] == '.' {
		i++
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			sawDigit = true
			exp10--
			if len(digits) == 0 && s[i] == '0' {
				continue
			}
			digits = append(digits, s[i])
		}
	}
	e, ok := ldExponentEnd(s, i, 'e')
	if !sawDigit || !ok {
		return nil, false
	}
	exp10 += e
	if len(digits) == 0 {
		return new(big.Float).SetPrec(ld80Prec), true // an exact zero: no ERANGE
	}
	// Magnitude check: x = 0.d1d2… × 10^(len(digits)+exp10).
	mag := len(digits) + exp10
	if mag > ldMaxDigits+1 {
		return nil, false // overflow → HUGE_VALL, ERANGE
	}
	if mag < -4952 {
		return nil, false // underflow to zero, ERANGE
	}
	m, _ := new(big.Int).SetString(string(digits), 10)
	var exact *big.Float
	if exp10 >= 0 {
		m.Mul(m, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(exp10)), nil))
		exact = new(big.Float).SetPrec(uint(max(m.BitLen(), 1))).SetInt(m)
		r, over := round80(exact)
		if over {
			return nil, false
		}
		return r, true
	}
	d := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-exp10)), nil)
	return quoLD(m, d)
}

// quoLD rounds m/d (both positive) correctly to the 80-bit format.
func quoLD(m, d *big.Int) (*big.Float, bool) {
	mf := new(big.Float).SetPrec(uint(max(m.BitLen(), 1))).SetInt(m)
	df := new(big.Float).SetPrec(uint(max(d.BitLen(), 1))).SetInt(d)
	q := new(big.Float).SetPrec(ld80Prec).SetMode(big.ToNearestEven).Quo(mf, df)
	e := q.MantExp(nil)
	if e > ld80MaxExp {
		return nil, false
	}
	if e >= ld80MinExp {
		return q, true
	}
	// Subnormal range: round the exact quotient to the bits that remain.
	prec := e - ld80Denorm
	if prec <= 0 {
		// Compare with half of the smallest subnormal: m/d > 2^-16446 ⇔ m·2^16446 > d.
		lhs := new(big.Int).Lsh(m, uint(-(ld80Denorm - 1)))
		r := new(big.Float).SetPrec(ld80Prec)
		if lhs.Cmp(d) > 0 {
			r.SetMantExp(big.NewFloat(1), ld80Denorm)
		}
		if r.Sign() == 0 {
			return nil, false // underflow to zero: ERANGE
		}
		return r, true
	}
	q = new(big.Float).SetPrec(uint(prec)).SetMode(big.ToNearestEven).Quo(mf, df)
	return q.SetPrec(ld80Prec), true
}

// parseHexLD parses the part after "0x": hexdigits [. hexdigits] [p [sign] digits]. The
// argument is shorter than 5120 bytes, so the mantissa is kept exactly.
func parseHexLD(s []byte) (*big.Float, bool) {
	i := 0
	m := new(big.Int)
	sawDigit := false
	exp2 := 0
	frac := false
	for ; i < len(s); i++ {
		if s[i] == '.' && !frac {
			frac = true
			continue
		}
		v, ok := hexVal(s[i])
		if !ok {
			break
		}
		sawDigit = true
		m.Lsh(m, 4)
		if v != 0 {
			m.Or(m, big.NewInt(int64(v)))
		}
		if frac {
			exp2 -= 4
		}
	}
	e, ok := ldExponentEnd(s, i, 'p')
	if !sawDigit || !ok {
		return nil, false
	}
	exp2 += e
	if m.Sign() == 0 {
		return new(big.Float).SetPrec(ld80Prec), true
	}
	top := m.BitLen() + exp2 // 2^(top-1) <= x < 2^top
	if top > ld80MaxExp+1 {
		return nil, false // overflow
	}
	if top < ld80Denorm-2 {
		return nil, false // underflow to zero
	}
	exact := new(big.Float).SetPrec(uint(m.BitLen())).SetInt(m)
	exact.SetMantExp(exact, exp2)
	r, over := round80(exact)
	if over || r.Sign() == 0 {
		return nil, false
	}
	return r, true
}

func hexVal(c byte) (int, bool) {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0'), true
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10, true
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10, true
	}
	return 0, false
}

// stringObjectLD is getLongDoubleFromObject: an int-encoded value converts exactly, any other
// string goes through string2ld; a missing value is 0.
func stringObjectLD(o *Object) (*big.Float, bool) {
	if o == nil {
		return new(big.Float).SetPrec(ld80Prec), true
	}
	if o.Enc == EncInt {
		return ldFromInt(o.Int), true
	}
	if o.Buf.Len() >= maxLDChars {
		return nil, false
	}
	return parseLongDouble(o.Buf.Bytes())
}
