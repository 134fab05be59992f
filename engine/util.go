package engine

import (
	"strconv"

	"redscope/engine/listpack"
)

// string2ll is Redis's strict integer parse (util.c string2ll): optional '-', digits, no leading
// zeros (except "0"), no '+', no spaces, at most 20 bytes, must fit int64; "-0" is rejected. The
// listpack's lpStringToInt64 is the same function, so both use listpack.StringToInt64.
func string2ll(b []byte) (int64, bool) { return listpack.StringToInt64(b) }

// parseInt is getLongLongFromObject: string2ll or ErrNotInt.
func parseInt(b []byte) (int64, bool) { return string2ll(b) }

// eqFold compares an argument with a lowercase ASCII keyword, ignoring case.
func eqFold(arg []byte, lower string) bool {
	if len(arg) != len(lower) {
		return false
	}
	for i := 0; i < len(arg); i++ {
		c := arg[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// eitherKeyword tells which of two keywords arg is (any case, as strcasecmp): second is true for
// the second one; ok is false for neither (the caller's syntax error).
func eitherKeyword(arg []byte, first, second string) (isSecond, ok bool) {
	switch {
	case eqFold(arg, first):
		return false, true
	case eqFold(arg, second):
		return true, true
	}
	return false, false
}

// EqFold is eqFold for the protocol server's own keywords (HELLO, CLIENT, AUTH …): the same
// ASCII-only comparison the commands use.
func EqFold(arg []byte, lower string) bool { return eqFold(arg, lower) }

// CopyArgs copies an argument vector into one allocation: the arguments end to end in one
// buffer, each element a full slice of its bytes (capacity = length, so an append to one
// cannot overwrite the next). MULTI's queue keeps commands this way, and the protocol server
// copies what it hands to a blocked client, whose read buffer is reused.
func CopyArgs(args [][]byte) [][]byte {
	n := 0
	for _, a := range args {
		n += len(a)
	}
	buf := make([]byte, 0, n)
	out := make([][]byte, len(args))
	for i, a := range args {
		buf = append(buf, a...)
		out[i] = buf[len(buf)-len(a) : len(buf) : len(buf)]
	}
	return out
}

// strKeyword is an option keyword and the flag it sets.
type strKeyword struct {
	name string
	flag int
}

// keywordFlag is the flag of the keyword of words that opt names (case-insensitive), 0 when opt
// names none of them.
func keywordFlag(opt []byte, words []strKeyword) int {
	for _, w := range words {
		if eqFold(opt, w.name) {
			return w.flag
		}
	}
	return 0
}

// itoa formats an int64.
func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// bulkInt is an integer sent as a bulk string.
func bulkInt(n int64) Reply { return BulkStr(itoa(n)) }

// string2llPair reads two integer arguments (a start and an end, a slot and a count); ok is false
// when either is not one.
func string2llPair(a, b []byte) (x, y int64, ok bool) {
	x, ok1 := string2ll(a)
	y, ok2 := string2ll(b)
	return x, y, ok1 && ok2
}

// rankRange turns a start/end pair of ranks (negative counts from the end) into a range of a
// sequence of n elements, as LRANGE, LTRIM, ZRANGE and ZREMRANGEBYRANK do: ok is false when the
// range is empty; otherwise 0 ≤ start ≤ end < n.
func rankRange(start, end, n int64) (int64, int64, bool) {
	if start < 0 {
		start += n
	}
	if end < 0 {
		end += n
	}
	if start < 0 {
		start = 0
	}
	if start > end || start >= n {
		return start, end, false
	}
	if end >= n {
		end = n - 1
	}
	return start, end, true
}

// lowerASCII is a copy of b with A-Z lowered (command and option names; other bytes kept).
func lowerASCII(b []byte) string {
	out := make([]byte, len(b))
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return string(out)
}
