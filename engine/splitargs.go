package engine

import (
	"errors"
	"strings"
)

// ErrUnbalancedQuotes is what redis-cli prints for a line it cannot split.
var ErrUnbalancedQuotes = errors.New("Invalid argument(s)")

// SplitArgs splits a command line the way redis-cli does (sdssplitargs): arguments separated by
// white space; "double quotes" understand \n \r \t \b \a \\ \" and \xHH; 'single quotes' understand
// \'. A closing quote must be followed by white space or the end of the line.
//
// The arguments share one allocation (unquoting never makes the line longer), each of capacity
// its length, so that an append to one cannot reach the next: a PFADD of 1 000 elements makes two
// allocations, not one per element.
func SplitArgs(line string) ([][]byte, error) {
	var out [][]byte // nil for a blank line
	buf := make([]byte, 0, len(line))
	p := 0
	n := len(line)
	for {
		for p < n && isSpace(line[p]) {
			p++
		}
		if p >= n {
			return out, nil
		}
		start := len(buf)
		cur := buf[start:start] // the argument being read, at the end of buf
		var quote byte          // the quote being read ('"' or '\''), 0 outside quotes
		done := false
		for !done {
			if quote != 0 {
				if p >= n {
					return nil, ErrUnbalancedQuotes
				}
				c := line[p]
				switch {
				case quote == '"' && c == '\\' && p+3 < n && line[p+1] == 'x' && isHex(line[p+2]) && isHex(line[p+3]):
					cur = append(cur, unhex(line[p+2])<<4|unhex(line[p+3]))
					p += 3
				case quote == '"' && c == '\\' && p+1 < n:
					p++
					switch line[p] {
					case 'n':
						cur = append(cur, '\n')
					case 'r':
						cur = append(cur, '\r')
					case 't':
						cur = append(cur, '\t')
					case 'b':
						cur = append(cur, '\b')
					case 'a':
						cur = append(cur, '\a')
					default:
						cur = append(cur, line[p])
					}
				case quote == '\'' && c == '\\' && p+1 < n && line[p+1] == '\'':
					p++
					cur = append(cur, '\'')
				case c == quote:
					if p+1 < n && !isSpace(line[p+1]) {
						return nil, ErrUnbalancedQuotes
					}
					done = true
				default:
					cur = append(cur, c)
				}
			} else {
				if p >= n {
					done = true
					break
				}
				switch c := line[p]; c {
				case ' ', '\n', '\r', '\t', 0:
					done = true
				case '"', '\'':
					quote = c
				default:
					// The run of such bytes at once (a PFADD's elements), as the byte-by-byte
					// loop would take them; p ends on its last byte, which p++ below passes.
					q := p + 1
					for q < n && !endsPlain[line[q]] {
						q++
					}
					cur = append(cur, line[p:q]...)
					p = q - 1
				}
			}
			if p < n {
				p++
			}
		}
		buf = buf[:start+len(cur)]
		if out == nil {
			// About one argument per space (a quoted space counts one more, a tab one less),
			// by a fast count.
			out = make([][]byte, 0, strings.Count(line, " ")+1)
		}
		out = append(out, cur[:len(cur):len(cur)])
	}
}

// endsPlain[c]: c ends a run of unquoted bytes (white space, NUL, or a quote opening).
var endsPlain = [256]bool{' ': true, '\n': true, '\r': true, '\t': true, 0: true, '"': true, '\'': true}

func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\v' || c == '\f'
}

func isHex(c byte) bool {
	return ('0' <= c && c <= '9') || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F')
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}
