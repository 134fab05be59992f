package engine

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

func TestSplitArgs(t *testing.T) {
	cases := map[string][]string{
		`SET foo bar`:         {"SET", "foo", "bar"},
		`  set "a b" 'c d'  `: {"set", "a b", "c d"},
		`set k "\x41\n\"q\""`: {"set", "k", "A\n\"q\""},
		`set k 'it\'s'`:       {"set", "k", "it's"},
		`set k ""`:            {"set", "k", ""},
		`echo "\xZZ"`:         {"echo", "xZZ"},
	}
	for in, want := range cases {
		got, err := SplitArgs(in)
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		var gs []string
		for _, g := range got {
			gs = append(gs, string(g))
		}
		if !reflect.DeepEqual(gs, want) {
			t.Errorf("%q: got %q want %q", in, gs, want)
		}
	}
	for _, bad := range []string{`set "abc`, `set 'abc`, `set "a"b`} {
		if _, err := SplitArgs(bad); err == nil {
			t.Errorf("%q: want error", bad)
		}
	}
}

// splitArgsApart is SplitArgs as it was before its arguments shared one allocation (issue 11):
// one growing slice per argument.
func splitArgsApart(line string) ([][]byte, error) {
	var out [][]byte
	p := 0
	n := len(line)
	for {
		for p < n && isSpace(line[p]) {
			p++
		}
		if p >= n {
			return out, nil
		}
		var cur []byte
		var quote byte // the quote being read ('"' or '\''), 0 outside quotes
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
					cur = append(cur, c)
				}
			}
			if p < n {
				p++
			}
		}
		if cur == nil {
			cur = []byte{}
		}
		out = append(out, cur)
	}
}

// TestSplitArgsIsApart: SplitArgs gives what the one-allocation-per-argument version gave (the
// same arguments, empty ones not nil, nil for a blank line, the same errors) on lines made of
// quotes, escapes, hex digits and every kind of space, and each argument has capacity its length.
func TestSplitArgsIsApart(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 2))
	pieces := []string{"a", "u1", " ", "  ", "\t", "\n", "\r", "\v", "\f", "\x00", `"`, `'`, `\`, `\x`, "4", "f", "G", `\n`, `\'`, `\"`, "é", "\xff"}
	lines := []string{"", " ", "\v\f", "PFADD h " + strings.Repeat("u1 ", 1000), `set k ""`, `'' ""`}
	for i := 0; i < 200000; i++ {
		var b strings.Builder
		for j := r.IntN(12); j >= 0; j-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		lines = append(lines, b.String())
	}
	for _, line := range lines {
		got, err := SplitArgs(line)
		want, werr := splitArgsApart(line)
		if !reflect.DeepEqual(got, want) || err != werr {
			t.Fatalf("%q: %q, %v; apart %q, %v", line, got, err, want, werr)
		}
		for _, a := range got {
			if cap(a) != len(a) {
				t.Fatalf("%q: argument %q of capacity %d", line, a, cap(a))
			}
		}
	}
}
