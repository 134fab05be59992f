//go:build !nolua

package engine

import (
	"errors"
	"fmt"
	"math/rand"
	"reflect"
	"regexp"
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// The regular expressions script_match.go's matchers replace, as the engine had them.
var (
	origParseNear = regexp.MustCompile(`^(\S+) line:(\d+)\(column:\d+\) near '(.*)':\s+(.*?)\s*$`)
	origParseEOF  = regexp.MustCompile(`^(\S+) at EOF:\s+(.*?)\s*$`)
	origVMArith   = regexp.MustCompile(`cannot perform (add|sub|mul|div|mod|pow|unm) operation between (\w+) and (\w+)$`)
	origVMConcat  = regexp.MustCompile(`cannot perform concat operation between (\w+) and (\w+)$`)
	origVMCompare = regexp.MustCompile(`attempt to compare (\w+) with (\w+)$`)
	origVMIndex   = regexp.MustCompile(`attempt to index a non-table object\((\w+)\) with key '.*'$`)
	origVMArg     = regexp.MustCompile(`bad argument #(\d+) to ([A-Za-z_][A-Za-z_0-9]*) \(`)
	origVMTableOf = regexp.MustCompile(`in table for ([A-Za-z_][A-Za-z_0-9]*)$`)
	origGotNil    = regexp.MustCompile(`bad argument #(\d+) to [A-Za-z_][A-Za-z_0-9]* \([a-z]+ expected, got nil\)$`)
	origGoArg     = regexp.MustCompile(`^bad argument #(\d+) to ([A-Za-z_][A-Za-z_0-9]*) \(`)
)

var scriptMatchers = []struct {
	name string
	re   *regexp.Regexp
	find func(string) []int
}{
	{"ParseNear", origParseNear, findParseNear},
	{"ParseEOF", origParseEOF, findParseEOF},
	{"VMArith", origVMArith, findVMArith},
	{"VMConcat", origVMConcat, findVMConcat},
	{"VMCompare", origVMCompare, findVMCompare},
	{"VMIndex", origVMIndex, findVMIndex},
	{"VMTableOf", origVMTableOf, findVMTableOf},
	{"GotNil", origGotNil, findGotNil},
	{"GoArg", origGoArg, findGoArg},
}

// compareScriptMatchers returns how each matcher differs from its expression on s ("" if in
// nothing), and counts the matches per matcher in hits.
func compareScriptMatchers(s string, hits map[string]int) string {
	var diffs []string
	for _, m := range scriptMatchers {
		want, got := m.re.FindStringSubmatchIndex(s), m.find(s)
		if !reflect.DeepEqual(got, want) {
			diffs = append(diffs, fmt.Sprintf("%s: %v, regexp %v", m.name, got, want))
		}
		if want != nil && hits != nil {
			hits[m.name]++
		}
	}
	if got, want := findAllVMArg(s), origVMArg.FindAllStringSubmatchIndex(s, -1); !reflect.DeepEqual(got, want) {
		diffs = append(diffs, fmt.Sprintf("VMArg all: %v, regexp %v", got, want))
	}
	if len(origVMArg.FindAllStringIndex(s, -1)) > 0 && hits != nil {
		hits["VMArg"]++
	}
	if got, want := quoteArgNames(s), origVMArg.ReplaceAllString(s, "bad argument #$1 to '$2' ("); got != want {
		diffs = append(diffs, fmt.Sprintf("VMArg replace: %q, regexp %q", got, want))
	}
	if got, want := quoteTableOf(s), origVMTableOf.ReplaceAllString(s, "in table for '$1'"); got != want {
		diffs = append(diffs, fmt.Sprintf("VMTableOf replace: %q, regexp %q", got, want))
	}
	return strings.Join(diffs, "; ")
}

// engineScriptMessages are gopher-lua's messages for what the engine's tests run: its compile
// errors for the syntax tests' scripts (with the syntax checker's random inputs) and its run-time
// errors for scripts that fail in each way the rewriters know, as raw text and as the engine
// words it (which must then be left alone).
func engineScriptMessages(t *testing.T) []string {
	var msgs []string
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	compile := func(src string) {
		if _, err := luaCompileTree(L, userScript, src); err != nil {
			msgs = append(msgs, err.Error(), strings.TrimSpace(err.Error()))
		}
	}
	for _, c := range luaSyntaxCases {
		compile(c.src)
	}
	alphabet := []byte("abcxyz019 .,;:=<>~+-*/%^#(){}[]'\"\\\n\r\t\x00\x01\x80$!")
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 2000; i++ {
		b := make([]byte, rng.Intn(30))
		for j := range b {
			b[j] = alphabet[rng.Intn(len(alphabet))]
		}
		compile(string(b))
	}

	R := lua.NewState()
	defer R.Close()
	for _, src := range []string{
		"return 1 + nil", "return {} - 1", "return 'a' * 2", "return -{}", "return true % 2",
		"return 2 ^ {}", "return nil / nil", "local t = {} return t.x + 1", "return 1 + 'x'",
		"return 'a' .. {}", "return nil .. 'a'", "return true .. 1", "return {} .. {}",
		"return 1 < 'x'", "return {} < {}", "return nil < nil", "return true <= false", "return 'a' > 1",
		"local t = nil return t.x", "local t = nil return t['a\\nb']", "return (1).x", "return (true)['it''s']",
		"local t = nil t.x = 1", "return ('x').y.z", "local f f()", "return nil[1]",
		"return string.rep()", "return string.sub()", "return ('x'):rep()", "return ('x'):rep({})",
		"return table.insert(nil, 1)", "return math.floor('x')", "return tostring()",
		"return table.concat({{}})", "return table.concat({1, {}, 3})",
		"return unpack(1)", "table.sort({1, 'x', 2})", "table.sort({{}, {}})", "return select()",
		"return ipairs()", "return pairs(nil)", "return string.byte({})", "return math.max()",
		"error('bad argument #1 to f (x)')", "error('in table for concat')", "error('')", "error()",
	} {
		err := R.DoString(src)
		if err == nil {
			t.Errorf("%q ran without an error", src)
			continue
		}
		msg := err.Error()
		var ae *lua.ApiError
		if errors.As(err, &ae) && ae.Object != nil {
			msg = ae.Object.String()
		}
		msgs = append(msgs, msg, err.Error(), luaVMError(msg))
		if _, tail, ok := strings.Cut(msg, ": "); ok {
			msgs = append(msgs, tail)
		}
	}
	for _, c := range luaSyntaxCases {
		msgs = append(msgs, c.want)
	}
	return msgs
}

// Edge cases: empty texts, white space and new lines at the ends, several occurrences, names
// with digits and underscores, Unicode and invalid UTF-8, and the ASCII-only classes.
var scriptMatchEdgeCases = []string{
	"", " ", "\n", "'", "':", "(", "bad argument #", "in table for ", "in table for",
	"user_script line:1(column:2) near 'x':   syntax error",
	"user_script line:1(column:2) near 'x':   syntax error  \n",
	"user_script line:1(column:2) near 'x':\tparse error\n\n",
	"user_script line:1(column:2) near 'x':syntax error",
	"user_script line:1(column:2) near 'x':  ",
	"user_script line:1(column:2) near 'x':\n",
	"user_script line:1(column:2) near 'x':\nsyntax error",
	"user_script line:1(column:2) near 'x':  syntax\nerror",
	"user_script line:1(column:2) near 'x':  syntax error\n more",
	"user_script line:1(column:2) near 'a':b':  syntax error",
	"user_script line:1(column:2) near 'a':  b':  syntax error",
	"user_script line:1(column:2) near 'a':  b\n':  syntax error",
	"user_script line:1(column:2) near 'a\n':  syntax error",
	"user_script line:1(column:2) near '':  x",
	"user_script line:1(column:2) near ''::  x",
	"user_script line:(column:2) near 'x':  e", "user_script line:1(column:) near 'x':  e",
	"user_script line:1(column:2)near 'x':  e", " user_script line:1(column:2) near 'x':  e",
	"user\tscript line:1(column:2) near 'x':  e", "user\vscript line:1(column:2) near 'x':  e",
	"usér_script\xff line:12(column:34) near 'é\xff':\f\r x é \v",
	"user_script line:１(column:2) near 'x':  e", "user_script line:1(column:2) near 'x':\u00a0e",
	"user_script at EOF:   syntax error", "user_script at EOF:   syntax error\n",
	"user_script at EOF:syntax error", "user_script at EOF: ", "user_script at EOF:",
	"user_script at EOF:  a\nb", "user_script at EOF:\n\na b\t\n", " at EOF:  x", "x  at EOF:  x",
	"<string>:1: cannot perform add operation between nil and number",
	"cannot perform add operation between number and nil ",
	"cannot perform add operation between number and nil\n",
	"cannot perform adds operation between a and b", "cannot perform concat operation between a and b",
	"cannot perform unm operation between table_1 and T9",
	"cannot perform mod operation between a b and c", "cannot perform pow operation between  and c",
	"cannot perform pow operation between a and ", "cannot perform pow operation between a and b and c",
	"cannot perform add operation between x and cannot perform sub operation between a and b",
	"cannot perform add operation between é and b", "cannot perform add operation between a and bé",
	"x: cannot perform concat operation between string and table",
	"cannot perform concat operation between x and cannot perform concat operation between a and b",
	"attempt to compare number with nil", "attempt to compare  with nil", "attempt to compare a with b\n",
	"attempt to compare attempt to compare a with b", "attempt to compare a with attempt to compare b with c",
	"attempt to index a non-table object(nil) with key 'x'",
	"attempt to index a non-table object(nil) with key ''",
	"attempt to index a non-table object(nil) with key '",
	"attempt to index a non-table object(nil) with key 'a\nb'",
	"attempt to index a non-table object(nil) with key 'it's'",
	"attempt to index a non-table object(nil) with key 'x'\n",
	"attempt to index a non-table object() with key 'x'",
	"attempt to index a non-table object(nil) with key 'attempt to index a non-table object(x) with key 'k''",
	"attempt to index a non-table object(nil) with key 'a\nattempt to index a non-table object(x) with key 'k'",
	"bad argument #1 to rep (number expected, got nil)", "bad argument #1 to 'rep' (number expected, got nil)",
	"bad argument #12 to _f9 (string expected, got nil)", "bad argument # to f (x expected, got nil)",
	"bad argument #1 to 9f (x expected, got nil)", "bad argument #1 to f (X expected, got nil)",
	"bad argument #1 to f ( expected, got nil)", "bad argument #1 to f (x expected, got nil) ",
	"bad argument #1 to f (x expected, got nil)\n", "bad argument #٣ to f (x expected, got nil)",
	"bad argument #1 to f (bad argument #2 to g (x expected, got nil)",
	"bad argument #1 to f (x) bad argument #2 to g (x expected, got nil)",
	"bad argument #1 to f (x) bad argument #2 to g (y) bad argument #3 to h(z)",
	"bad argument #1 to f (bad argument #2 to g (", "bad argument #1 to é (x)", "bad argument #1 to fé (x)",
	"xbad argument #1 to f (", "bad argument #1 to f  (", "bad argument #1to f (",
	"invalid value (at index 1) in table for concat", "in table for concat ", "in table for 9x",
	"in table for x9_", "in table for in table for x", "in table for x in table for y",
	"in table for é", "in table for x\n",
}

func TestScriptMatchersEqualRegexps(t *testing.T) {
	hits := map[string]int{}
	check := func(what, s string) {
		t.Helper()
		if d := compareScriptMatchers(s, hits); d != "" {
			t.Errorf("%s %q: %s", what, s, d)
		}
	}
	msgs := engineScriptMessages(t)
	for _, s := range msgs {
		check("message", s)
	}
	for _, s := range scriptMatchEdgeCases {
		check("edge case", s)
	}
	t.Logf("%d messages and %d edge cases, matches per pattern: %v", len(msgs), len(scriptMatchEdgeCases), hits)
	names := []string{"VMArg"}
	for _, m := range scriptMatchers {
		names = append(names, m.name)
	}
	for _, name := range names {
		if hits[name] < 2 {
			t.Errorf("%s matched %d of the messages and edge cases", name, hits[name])
		}
	}
}

// scriptMatchPieces are the patterns' own pieces, and characters at their classes' borders, for
// strings that nearly match.
var scriptMatchPieces = []string{
	"user_script", "<string>", " line:", "12", "0", "(column:", ") near '", "'", "':", ":", " at EOF:",
	" ", "  ", "\t", "\n", "\r", "\f", "\v", "\u00a0", "syntax error", "parse error",
	"cannot perform ", "add", "sub", "unm", "concat", "mo", " operation between ", "number", "nil",
	" and ", "attempt to compare ", " with ", "attempt to index a non-table object(", ") with key '",
	")", "(", "bad argument #", " to ", "rep", "_f9", "9", " (", "string expected, got nil)",
	" expected, got nil)", "in table for ", "x", "Z", "_", "é", "\xff", "#", "-", ".",
}

// scriptMatchTemplates are strings each pattern matches, cut into pieces.
var scriptMatchTemplates = [][]string{
	{"user_script", " line:", "3", "(column:", "4", ") near '", "x", "':", "  ", "syntax error", " "},
	{"user_script", " at EOF:", "   ", "parse error", "\n"},
	{"<string>:1: ", "cannot perform ", "mul", " operation between ", "nil", " and ", "number"},
	{"cannot perform ", "concat", " operation between ", "string", " and ", "table"},
	{"attempt to compare ", "table", " with ", "table"},
	{"attempt to index a non-table object(", "nil", ") with key '", "k", "'"},
	{"x: ", "bad argument #", "1", " to ", "rep", " (", "number", " expected, got nil)"},
	{"bad argument #", "2", " to ", "insert", " (", "table expected, got no value)"},
	{"invalid value (at index 1) ", "in table for ", "concat"},
}

func randomScriptMatchText(rng *rand.Rand) string {
	var parts []string
	if rng.Intn(4) == 0 {
		for n := rng.Intn(10); n > 0; n-- {
			parts = append(parts, scriptMatchPieces[rng.Intn(len(scriptMatchPieces))])
		}
	} else {
		parts = append(parts, scriptMatchTemplates[rng.Intn(len(scriptMatchTemplates))]...)
		for n := rng.Intn(4); n > 0; n-- { // change, drop, add or double pieces
			p := rng.Intn(len(parts))
			switch piece := scriptMatchPieces[rng.Intn(len(scriptMatchPieces))]; rng.Intn(5) {
			case 0:
				parts[p] = piece
			case 1:
				parts = append(parts[:p], parts[p+1:]...)
			case 2:
				parts = append(parts[:p], append([]string{piece}, parts[p:]...)...)
			case 3:
				parts = append(parts[:p], append([]string{parts[p]}, parts[p:]...)...)
			default: // another template inside
				other := scriptMatchTemplates[rng.Intn(len(scriptMatchTemplates))]
				parts = append(parts[:p], append(append([]string{}, other...), parts[p:]...)...)
			}
			if len(parts) == 0 {
				break
			}
		}
	}
	s := []byte(strings.Join(parts, ""))
	if len(s) > 0 && rng.Intn(4) == 0 { // one byte changed
		const bytes = "x'(): \n\t9_\xc3"
		s[rng.Intn(len(s))] = bytes[rng.Intn(len(bytes))]
	}
	return string(s)
}

// TestScriptMatchersRandom compares the matchers with the expressions on strings made of the
// patterns' pieces, most of them nearly matching.
func TestScriptMatchersRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(20260))
	hits := map[string]int{}
	const n = 200_000
	for i := 0; i < n; i++ {
		s := randomScriptMatchText(rng)
		if d := compareScriptMatchers(s, hits); d != "" {
			t.Fatalf("%q: %s", s, d)
		}
	}
	t.Logf("%d strings, matches per pattern: %v", n, hits)
	for _, m := range scriptMatchers {
		if hits[m.name] < n/100 {
			t.Errorf("%s matched only %d of %d random strings", m.name, hits[m.name], n)
		}
	}
}

// FuzzScriptMatchers compares the matchers with the expressions. Run it by count:
// go test ./engine -run '^$' -fuzz FuzzScriptMatchers -fuzztime 200000x
func FuzzScriptMatchers(f *testing.F) {
	for _, s := range scriptMatchEdgeCases {
		f.Add(s)
	}
	for _, parts := range scriptMatchTemplates {
		f.Add(strings.Join(parts, ""))
	}
	f.Fuzz(func(t *testing.T, s string) {
		if d := compareScriptMatchers(s, nil); d != "" {
			t.Fatalf("%q: %s", s, d)
		}
	})
}
