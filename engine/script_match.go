package engine

// Hand-written matchers for the patterns that reword gopher-lua's error messages into Lua 5.1's
// and Redis's (luaCompileError, luaVMError, luaGoFuncError): each does exactly what the regular
// expression in its comment does with Go's regexp package, so that the browser build does not
// link regexp (script_match_test.go compares them with the expressions, on the engine's own
// messages, on edge cases, on random near-matches and by fuzzing).
//
// The classes as Go's RE2 syntax has them, all ASCII-only: \s is [\t\n\f\r ], \S any other
// character, \d [0-9], \w [0-9A-Za-z_]; "." is any character but "\n"; "$" without (?m) is the
// end of the text only. Every boundary the matchers look for is an ASCII byte, which UTF-8 (and
// regexp's reading of invalid UTF-8, one byte at a time) never puts inside another character,
// so they work on bytes.
//
// Like FindStringSubmatchIndex, the find functions return nil for no match, or the pairs of
// byte offsets [start, end] of the match and of each group.

import "strings"

func isSpaceRE(c byte) bool { return c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' ' }
func isDigitRE(c byte) bool { return '0' <= c && c <= '9' }
func isNameStartRE(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
}
func isWordRE(c byte) bool { return isNameStartRE(c) || isDigitRE(c) } // \w, [A-Za-z_0-9]

// spanRE is the end of the longest run of bytes in class from s[i:].
func spanRE(s string, i int, class func(byte) bool) int {
	for i < len(s) && class(s[i]) {
		i++
	}
	return i
}

// litRE is the offset after lit when s[i:] begins with it, else -1.
func litRE(s string, i int, lit string) int {
	if i < 0 || !strings.HasPrefix(s[i:], lit) {
		return -1
	}
	return i + len(lit)
}

// runRE is the end of the run of one or more bytes in class at s[i:], else -1. A greedy x+ that
// the pattern follows by a byte outside x's class, or by the end, can only take the whole run.
func runRE(s string, i int, class func(byte) bool) int {
	if i < 0 {
		return -1
	}
	if j := spanRE(s, i, class); j > i {
		return j
	}
	return -1
}

// nameRE is the end of [A-Za-z_][A-Za-z_0-9]* at s[i:], else -1.
func nameRE(s string, i int) int {
	if i < 0 || i >= len(s) || !isNameStartRE(s[i]) {
		return -1
	}
	return spanRE(s, i+1, isWordRE)
}

// spacedTailRE matches `\s+(.*?)\s*$` at s[i:] and returns the bounds of the group: the text
// between the leading and the trailing white space (empty, at the end, when all of it is white
// space), which "." allows only without a "\n".
func spacedTailRE(s string, i int) (lo, hi int, ok bool) {
	lo = spanRE(s, i, isSpaceRE)
	if lo == i {
		return 0, 0, false
	}
	hi = len(s)
	for hi > lo && isSpaceRE(s[hi-1]) {
		hi--
	}
	if strings.IndexByte(s[lo:hi], '\n') >= 0 {
		return 0, 0, false
	}
	return lo, hi, true
}

// findLeftmost tries match at each place lit starts, from the left, as an unanchored search does
// for a pattern beginning with lit; match returns nil where the pattern does not match.
func findLeftmost(s, lit string, match func(s string, start int) []int) []int {
	for from := 0; ; {
		k := strings.Index(s[from:], lit)
		if k < 0 {
			return nil
		}
		if m := match(s, from+k); m != nil {
			return m
		}
		from += k + 1
	}
}

// findParseNear is `^(\S+) line:(\d+)\(column:\d+\) near '(.*)':\s+(.*?)\s*$`, gopher-lua's
// parse error "user_script line:2(column:3) near 'x':   syntax error".
func findParseNear(s string) []int {
	e1 := runRE(s, 0, func(c byte) bool { return !isSpaceRE(c) })
	e2 := runRE(s, litRE(s, e1, " line:"), isDigitRE)
	e := runRE(s, litRE(s, e2, "(column:"), isDigitRE)
	q := litRE(s, e, ") near '")
	if q < 0 {
		return nil
	}
	// (.*) is greedy: the last "':" before the first "\n" that the rest matches after.
	nl := len(s)
	if k := strings.IndexByte(s[q:], '\n'); k >= 0 {
		nl = q + k
	}
	for p := nl - 2; p >= q; p-- {
		if s[p] != '\'' || s[p+1] != ':' {
			continue
		}
		if lo, hi, ok := spacedTailRE(s, p+2); ok {
			return []int{0, len(s), 0, e1, e1 + len(" line:"), e2, q, p, lo, hi}
		}
	}
	return nil
}

// findParseEOF is `^(\S+) at EOF:\s+(.*?)\s*$`, gopher-lua's "user_script at EOF:   syntax
// error".
func findParseEOF(s string) []int {
	e1 := runRE(s, 0, func(c byte) bool { return !isSpaceRE(c) })
	t := litRE(s, e1, " at EOF:")
	if t < 0 {
		return nil
	}
	lo, hi, ok := spacedTailRE(s, t)
	if !ok {
		return nil
	}
	return []int{0, len(s), 0, e1, lo, hi}
}

// findVMArith is `cannot perform (add|sub|mul|div|mod|pow|unm) operation between (\w+) and
// (\w+)$`.
func findVMArith(s string) []int {
	return findLeftmost(s, "cannot perform ", func(s string, start int) []int {
		op := start + len("cannot perform ")
		if op+3 > len(s) {
			return nil
		}
		switch s[op : op+3] {
		case "add", "sub", "mul", "div", "mod", "pow", "unm":
		default:
			return nil
		}
		a := litRE(s, op+3, " operation between ")
		a2, b, b2, ok := twoWordsRE(s, a, " and ")
		if !ok {
			return nil
		}
		return []int{start, len(s), op, op + 3, a, a2, b, b2}
	})
}

// twoWordsRE matches `(\w+)SEP(\w+)$` at s[a:] and returns the end of the first word and the
// bounds of the second.
func twoWordsRE(s string, a int, sep string) (a2, b, b2 int, ok bool) {
	a2 = runRE(s, a, isWordRE)
	b = litRE(s, a2, sep)
	b2 = runRE(s, b, isWordRE)
	return a2, b, b2, b2 == len(s)
}

// findVMConcat is `cannot perform concat operation between (\w+) and (\w+)$`.
func findVMConcat(s string) []int {
	return findTwoWords(s, "cannot perform concat operation between ", " and ")
}

// findVMCompare is `attempt to compare (\w+) with (\w+)$`.
func findVMCompare(s string) []int { return findTwoWords(s, "attempt to compare ", " with ") }

// findTwoWords is `lit(\w+)sep(\w+)$` for a literal lit and sep.
func findTwoWords(s, lit, sep string) []int {
	return findLeftmost(s, lit, func(s string, start int) []int {
		a := start + len(lit)
		a2, b, b2, ok := twoWordsRE(s, a, sep)
		if !ok {
			return nil
		}
		return []int{start, len(s), a, a2, b, b2}
	})
}

// findVMIndex is `attempt to index a non-table object\((\w+)\) with key '.*'$`.
func findVMIndex(s string) []int {
	const lit = "attempt to index a non-table object("
	return findLeftmost(s, lit, func(s string, start int) []int {
		a := start + len(lit)
		a2 := runRE(s, a, isWordRE)
		q := litRE(s, a2, ") with key '")
		// '.*'$: a quote at the very end, and no "\n" between the quotes.
		if q < 0 || q >= len(s) || s[len(s)-1] != '\'' || strings.IndexByte(s[q:len(s)-1], '\n') >= 0 {
			return nil
		}
		return []int{start, len(s), a, a2}
	})
}

// badArgRE matches `bad argument #(\d+) to ([A-Za-z_][A-Za-z_0-9]*) \(` at s[start:].
func badArgRE(s string, start int) []int {
	d := litRE(s, start, "bad argument #")
	d2 := runRE(s, d, isDigitRE)
	n := litRE(s, d2, " to ")
	n2 := nameRE(s, n)
	end := litRE(s, n2, " (")
	if end < 0 {
		return nil
	}
	return []int{start, end, d, d2, n, n2}
}

// findAllVMArg is FindAllStringSubmatchIndex of `bad argument #(\d+) to
// ([A-Za-z_][A-Za-z_0-9]*) \(`: the matches that do not overlap, from the left.
func findAllVMArg(s string) [][]int {
	var all [][]int
	for from := 0; ; {
		m := findLeftmost(s[from:], "bad argument #", badArgRE)
		if m == nil {
			return all
		}
		for i := range m {
			m[i] += from
		}
		all = append(all, m)
		from = m[1]
	}
}

// quoteArgNames is `bad argument #(\d+) to ([A-Za-z_][A-Za-z_0-9]*) \(` replaced everywhere by
// "bad argument #$1 to '$2' (": luaL_argerror quotes the function's name.
func quoteArgNames(s string) string {
	all := findAllVMArg(s)
	if all == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range all {
		b.WriteString(s[last:m[0]])
		b.WriteString("bad argument #" + s[m[2]:m[3]] + " to '" + s[m[4]:m[5]] + "' (")
		last = m[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

// findVMTableOf is `in table for ([A-Za-z_][A-Za-z_0-9]*)$`.
func findVMTableOf(s string) []int {
	const lit = "in table for "
	return findLeftmost(s, lit, func(s string, start int) []int {
		n := start + len(lit)
		if nameRE(s, n) != len(s) {
			return nil
		}
		return []int{start, len(s), n, len(s)}
	})
}

// quoteTableOf is `in table for ([A-Za-z_][A-Za-z_0-9]*)$` replaced by "in table for '$1'" (it
// can match once only, at the end).
func quoteTableOf(s string) string {
	m := findVMTableOf(s)
	if m == nil {
		return s
	}
	return s[:m[0]] + "in table for '" + s[m[2]:m[3]] + "'"
}

// findGotNil is `bad argument #(\d+) to [A-Za-z_][A-Za-z_0-9]* \([a-z]+ expected, got nil\)$`,
// gopher-lua's own argument errors.
func findGotNil(s string) []int {
	return findLeftmost(s, "bad argument #", func(s string, start int) []int {
		m := badArgRE(s, start)
		if m == nil {
			return nil
		}
		t := runRE(s, m[1], func(c byte) bool { return 'a' <= c && c <= 'z' })
		if litRE(s, t, " expected, got nil)") != len(s) {
			return nil
		}
		return []int{start, len(s), m[2], m[3]}
	})
}

// findGoArg is `^bad argument #(\d+) to ([A-Za-z_][A-Za-z_0-9]*) \(`.
func findGoArg(s string) []int {
	return badArgRE(s, 0)
}
