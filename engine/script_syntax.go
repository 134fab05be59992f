//go:build !nolua

package engine

// A syntax checker with Lua 5.1's own error messages. gopher-lua compiles scripts with a yacc
// parser that says "unexpected symbol" (or "syntax error") for every mistake; Redis 7.0.15
// bundles Lua 5.1.5, whose recursive-descent parser (lparser.c) and lexer (llex.c) name what
// they expected. When gopher-lua refuses a script, luaSyntaxError re-reads it the way Lua 5.1
// does and gives Lua's first message, for example (chunk "user_script"):
//
//	x                    user_script:1: '=' expected near '<eof>'
//	local = 3            user_script:1: '<name>' expected near '='
//	if x then\n return 1  user_script:2: 'end' expected (to close 'if' at line 1) near '<eof>'
//	return 'abc          user_script:1: unfinished string near '<eof>'
//	for i=1 do end       user_script:1: ',' expected near 'do'
//	return 1..2          user_script:1: malformed number near '1..2'
//
// Only the grammar is checked, with one of the parser's limits: "main function has more than
// 200 local variables" ("function at line N …"; LUAI_MAXVARS, counted as lparser.c's
// new_localvar does, the for loops' hidden variables included). No code is generated, so the
// code generator's limit (lcode.c "function or expression too complex": 250 registers) and
// the 60-upvalue limit are not checked.
//
// The lexer (llex.c) reads one token on demand, with at most one token of look-ahead (the table
// constructor's "name =" test). An error message is "<chunk>:<line>: <msg>", the line being the
// lexer's current line (the line of the last token read, or of the end of the text for
// '<eof>'), followed by " near '<token>'" (luaX_lexerror, txtToken): a name, number or string
// shows the characters the lexer saved for it — a string with its opening quote and its
// escapes already decoded, a long string with its brackets; other tokens show their spelling
// (luaX_token2str): reserved words, "..", "...", "==", ">=", "<=", "~=", "<eof>", a control
// byte as "char(N)", any other byte as itself. Lexer errors:
//
//	unfinished string            a quote not closed before the end (near '<eof>') or a newline
//	                             (near the string so far)
//	unfinished long string       [[ or [==[ not closed (near '<eof>'); "unfinished long comment"
//	                             for --[[
//	invalid long string delimiter  '[' then '=' signs not followed by '['
//
// (Redis builds Lua without LUA_COMPAT_LSTR: a "[[" inside a long string or comment is text,
// not the "nesting of [[...]] is deprecated" error of a stock Lua 5.1.)
//	escape sequence too large    a decimal escape \ddd above 255
//	malformed number             a numeral (digits, '.', one exponent sign, letters, '_') that
//	                             the C library's strtod / strtoul cannot read whole
//
// Parser errors (lparser.c): "'X' expected" when a token is missing (check, error_expected),
// "'X' expected (to close 'Y' at line N)" when the opening token was on an earlier line
// (check_match), "unexpected symbol" (prefixexp), "'=' or 'in' expected" (for), "<name> or
// '...' expected" (parameter list), "function arguments expected" (a:b without arguments),
// "syntax error" (assigning to a call or a parenthesised expression), "cannot use '...'
// outside a vararg function", "ambiguous syntax (function call x new statement)" (a '(' that
// starts a line right after an expression), "no loop to break", and "chunk has too many
// syntax levels" past 200 nested blocks and sub-expressions (enterlevel, LUAI_MAXCCALLS).

import (
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// Tokens: a single byte is its own token; the others follow (llex.h ORDER RESERVED).
const (
	ltkAnd = 257 + iota
	ltkBreak
	ltkDo
	ltkElse
	ltkElseif
	ltkEnd
	ltkFalse
	ltkFor
	ltkFunction
	ltkIf
	ltkIn
	ltkLocal
	ltkNil
	ltkNot
	ltkOr
	ltkRepeat
	ltkReturn
	ltkThen
	ltkTrue
	ltkUntil
	ltkWhile
	ltkConcat
	ltkDots
	ltkEq
	ltkGe
	ltkLe
	ltkNe
	ltkNumber
	ltkName
	ltkString
	ltkEOS
)

var luaTokenNames = [...]string{
	"and", "break", "do", "else", "elseif", "end", "false", "for", "function", "if", "in",
	"local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while",
	"..", "...", "==", ">=", "<=", "~=", "<number>", "<name>", "<string>", "<eof>",
}

var luaReserved = func() map[string]int {
	m := map[string]int{}
	for i := 0; i <= ltkWhile-ltkAnd; i++ {
		m[luaTokenNames[i]] = ltkAnd + i
	}
	return m
}()

// luaMaxLevels is LUAI_MAXCCALLS: the nesting depth of blocks and sub-expressions.
const luaMaxLevels = 200

const luaEOZ = -1

// luaSynErr carries a finished message up the recursive descent.
type luaSynErr string

type luaSynFunc struct {
	prev    *luaSynFunc
	line    int // linedefined: 0 for the main function
	vararg  bool
	nactvar int           // active local variables
	blocks  []luaSynBlock // open blocks of this function
}

type luaSynBlock struct {
	loop    bool // a break target
	nactvar int  // locals active outside the block
}

// luaMaxVars is LUAI_MAXVARS: local variables active at once in one function.
const luaMaxVars = 200

type luaSyntax struct {
	chunk    string
	src      string
	pos      int // index of the next byte to read
	cur      int // current byte, luaEOZ at the end
	line     int // ls->linenumber
	lastline int // line of the previous token (luaX_next)
	buf      []byte
	tok      int
	ahead    int // look-ahead token, ltkEOS when none
	levels   int
	fs       *luaSynFunc
}

// luaSyntaxError is the message Lua 5.1 gives when compiling src as chunk, or "" when Lua 5.1
// reads it without a syntax error.
func luaSyntaxError(chunk, src string) (msg string) {
	defer func() {
		if recover() != nil {
			msg = "" // a bug in the checker must not take the server down
		}
	}()
	return luaSyntaxCheck(chunk, src)
}

// luaSyntaxCheck is luaSyntaxError letting any panic but its own messages through (tests).
func luaSyntaxCheck(chunk, src string) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(luaSynErr)
			if !ok {
				panic(r)
			}
			msg = string(e)
		}
	}()
	ls := &luaSyntax{chunk: chunk, src: src, line: 1, lastline: 1, ahead: ltkEOS}
	ls.next()
	ls.fs = &luaSynFunc{vararg: true} // the main function is vararg
	ls.advance()
	ls.chunkRule()
	ls.check(ltkEOS)
	return ""
}

// ---- lexer (llex.c) ----

func (ls *luaSyntax) next() {
	if ls.pos < len(ls.src) {
		ls.cur = int(ls.src[ls.pos])
		ls.pos++
	} else {
		ls.cur = luaEOZ
	}
}

func (ls *luaSyntax) save(c int)       { ls.buf = append(ls.buf, byte(c)) }
func (ls *luaSyntax) saveNext()        { ls.save(ls.cur); ls.next() }
func (ls *luaSyntax) curNewline() bool { return ls.cur == '\n' || ls.cur == '\r' }

func luaIsDigit(c int) bool { return c >= '0' && c <= '9' }
func luaIsAlpha(c int) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func luaIsAlnum(c int) bool { return luaIsAlpha(c) || luaIsDigit(c) }
func luaIsSpace(c int) bool { return c == ' ' || c >= '\t' && c <= '\r' }
func luaIsXDigit(c int) bool {
	return luaIsDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// token2str is luaX_token2str.
func luaToken2Str(tok int) string {
	if tok < 257 {
		if tok < 32 || tok == 127 {
			return "char(" + strconv.Itoa(tok) + ")"
		}
		return string([]byte{byte(tok)})
	}
	return luaTokenNames[tok-257]
}

// txtToken: a name, string or number shows the lexer's buffer (up to a NUL, as C reads it).
func (ls *luaSyntax) txtToken(tok int) string {
	switch tok {
	case ltkName, ltkString, ltkNumber:
		s := string(ls.buf)
		if i := strings.IndexByte(s, 0); i >= 0 {
			s = s[:i]
		}
		return s
	}
	return luaToken2Str(tok)
}

// lexError is luaX_lexerror; token 0 means no "near" part.
func (ls *luaSyntax) lexError(msg string, tok int) {
	m := ls.chunk + ":" + strconv.Itoa(ls.line) + ": " + msg
	if tok != 0 {
		m += " near '" + ls.txtToken(tok) + "'"
	}
	panic(luaSynErr(m))
}

func (ls *luaSyntax) syntaxError(msg string) { ls.lexError(msg, ls.tok) }

func (ls *luaSyntax) incLine() {
	old := ls.cur
	ls.next()
	if ls.curNewline() && ls.cur != old {
		ls.next() // \n\r or \r\n
	}
	ls.line++
}

func (ls *luaSyntax) checkNext(set string) bool {
	if ls.cur == luaEOZ || strings.IndexByte(set, byte(ls.cur)) < 0 {
		return false
	}
	ls.saveNext()
	return true
}

func (ls *luaSyntax) readNumeral() {
	for {
		ls.saveNext()
		if !luaIsDigit(ls.cur) && ls.cur != '.' {
			break
		}
	}
	if ls.checkNext("Ee") {
		ls.checkNext("+-")
	}
	for luaIsAlnum(ls.cur) || ls.cur == '_' {
		ls.saveNext()
	}
	if !luaStr2d(string(ls.buf)) {
		ls.lexError("malformed number", ltkNumber)
	}
}

// luaStr2d is luaO_str2d on glibc: strtod reads the longest numeral it can (decimal or hex,
// with exponent); an 'x' right after it retries as strtoul base 16; only trailing spaces may
// follow.
func luaStr2d(s string) bool {
	end := luaStrtodEnd(s)
	if end == 0 {
		return false
	}
	if end < len(s) && (s[end] == 'x' || s[end] == 'X') {
		end = luaStrtoulEnd(s)
	}
	for end < len(s) && luaIsSpace(int(s[end])) {
		end++
	}
	return end == len(s)
}

func luaStrtodEnd(s string) int {
	i, n := 0, len(s)
	if i < n && (s[i] == '+' || s[i] == '-') {
		i++
	}
	if i+1 < n && s[i] == '0' && (s[i+1] == 'x' || s[i+1] == 'X') {
		if j, digits := luaMantissaEnd(s, i+2, luaIsXDigit); digits > 0 {
			if j < n && (s[j] == 'p' || s[j] == 'P') {
				j = luaExponentEnd(s, j)
			}
			return j
		}
		// "0x" without hex digits: strtod reads the "0"
	}
	j, digits := luaMantissaEnd(s, i, luaIsDigit)
	if digits == 0 {
		return 0
	}
	if j < n && (s[j] == 'e' || s[j] == 'E') {
		j = luaExponentEnd(s, j)
	}
	return j
}

// luaMantissaEnd reads strtod's mantissa from s[j]: digits (of the kind isDigit accepts), an
// optional '.' and more digits. It returns where the mantissa ends and how many digits it has.
func luaMantissaEnd(s string, j int, isDigit func(int) bool) (end, digits int) {
	for j < len(s) && isDigit(int(s[j])) {
		j, digits = j+1, digits+1
	}
	if j < len(s) && s[j] == '.' {
		j++
		for j < len(s) && isDigit(int(s[j])) {
			j, digits = j+1, digits+1
		}
	}
	return j, digits
}

// luaExponentEnd: the end of an exponent starting at s[j] ('e' or 'p'), or j when no digits follow.
func luaExponentEnd(s string, j int) int {
	k := j + 1
	if k < len(s) && (s[k] == '+' || s[k] == '-') {
		k++
	}
	if k < len(s) && luaIsDigit(int(s[k])) {
		for k < len(s) && luaIsDigit(int(s[k])) {
			k++
		}
		return k
	}
	return j
}

func luaStrtoulEnd(s string) int {
	i := 0
	if len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') {
		if len(s) > 2 && luaIsXDigit(int(s[2])) {
			i = 2
		} else {
			return 1 // just the "0"
		}
	}
	start := i
	for i < len(s) && luaIsXDigit(int(s[i])) {
		i++
	}
	if i == start {
		return 0
	}
	return i
}

// skipSep reads '[' or ']' and its '=' signs: the count when the same bracket follows,
// otherwise -count-1.
func (ls *luaSyntax) skipSep() int {
	count := 0
	s := ls.cur
	ls.saveNext()
	for ls.cur == '=' {
		ls.saveNext()
		count++
	}
	if ls.cur == s {
		return count
	}
	return -count - 1
}

func (ls *luaSyntax) readLongString(isString bool, sep int) {
	ls.saveNext() // second '['
	if ls.curNewline() {
		ls.incLine()
	}
	for {
		switch ls.cur {
		case luaEOZ:
			if isString {
				ls.lexError("unfinished long string", ltkEOS)
			}
			ls.lexError("unfinished long comment", ltkEOS)
		case ']':
			if ls.skipSep() == sep {
				ls.saveNext()
				return
			}
		case '\n', '\r':
			ls.save('\n')
			ls.incLine()
			if !isString {
				ls.buf = ls.buf[:0]
			}
		default:
			if isString {
				ls.saveNext()
			} else {
				ls.next()
			}
		}
	}
}

func (ls *luaSyntax) readString(del int) {
	ls.saveNext()
	for ls.cur != del {
		switch ls.cur {
		case luaEOZ:
			ls.lexError("unfinished string", ltkEOS)
		case '\n', '\r':
			ls.lexError("unfinished string", ltkString)
		case '\\':
			ls.next() // the backslash is not saved
			c := -1
			switch ls.cur {
			case 'a':
				c = '\a'
			case 'b':
				c = '\b'
			case 'f':
				c = '\f'
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 't':
				c = '\t'
			case 'v':
				c = '\v'
			case '\n', '\r':
				ls.save('\n')
				ls.incLine()
				continue
			case luaEOZ:
				continue // "unfinished string" on the next turn
			default:
				if !luaIsDigit(ls.cur) {
					ls.saveNext() // \\, \", \' and any other byte as itself
				} else {
					v := 0
					for i := 0; i < 3 && luaIsDigit(ls.cur); i++ {
						v = 10*v + ls.cur - '0'
						ls.next()
					}
					if v > 255 {
						ls.lexError("escape sequence too large", ltkString)
					}
					ls.save(v)
				}
				continue
			}
			ls.save(c)
			ls.next()
		default:
			ls.saveNext()
		}
	}
	ls.saveNext() // closing quote
}

// llex reads the next token.
func (ls *luaSyntax) llex() int {
	ls.buf = ls.buf[:0]
	for {
		switch c := ls.cur; c {
		case '\n', '\r':
			ls.incLine()
		case '-':
			ls.next()
			if ls.cur != '-' {
				return '-'
			}
			ls.next()
			if ls.cur == '[' {
				sep := ls.skipSep()
				ls.buf = ls.buf[:0]
				if sep >= 0 {
					ls.readLongString(false, sep)
					ls.buf = ls.buf[:0]
					continue
				}
			}
			for !ls.curNewline() && ls.cur != luaEOZ {
				ls.next()
			}
		case '[':
			sep := ls.skipSep()
			if sep >= 0 {
				ls.readLongString(true, sep)
				return ltkString
			}
			if sep == -1 {
				return '['
			}
			ls.lexError("invalid long string delimiter", ltkString)
		case '=', '<', '>', '~':
			ls.next()
			if ls.cur != '=' {
				return c
			}
			ls.next()
			return map[int]int{'=': ltkEq, '<': ltkLe, '>': ltkGe, '~': ltkNe}[c]
		case '"', '\'':
			ls.readString(c)
			return ltkString
		case '.':
			ls.saveNext()
			if ls.checkNext(".") {
				if ls.checkNext(".") {
					return ltkDots
				}
				return ltkConcat
			}
			if !luaIsDigit(ls.cur) {
				return '.'
			}
			ls.readNumeral()
			return ltkNumber
		case luaEOZ:
			return ltkEOS
		default:
			switch {
			case luaIsSpace(c):
				ls.next()
			case luaIsDigit(c):
				ls.readNumeral()
				return ltkNumber
			case luaIsAlpha(c) || c == '_':
				for luaIsAlnum(ls.cur) || ls.cur == '_' {
					ls.saveNext()
				}
				if r, ok := luaReserved[string(ls.buf)]; ok {
					return r
				}
				return ltkName
			default:
				ls.next()
				return c
			}
		}
	}
}

// advance is luaX_next.
func (ls *luaSyntax) advance() {
	ls.lastline = ls.line
	if ls.ahead != ltkEOS {
		ls.tok, ls.ahead = ls.ahead, ltkEOS
		return
	}
	ls.tok = ls.llex()
}

func (ls *luaSyntax) lookahead() { ls.ahead = ls.llex() }

// ---- parser (lparser.c) ----

func (ls *luaSyntax) errorExpected(tok int) {
	ls.syntaxError("'" + luaToken2Str(tok) + "' expected")
}

func (ls *luaSyntax) testNext(c int) bool {
	if ls.tok == c {
		ls.advance()
		return true
	}
	return false
}

func (ls *luaSyntax) check(c int) {
	if ls.tok != c {
		ls.errorExpected(c)
	}
}

func (ls *luaSyntax) checkNextTok(c int) {
	ls.check(c)
	ls.advance()
}

func (ls *luaSyntax) checkMatch(what, who, where int) {
	if !ls.testNext(what) {
		if where == ls.line {
			ls.errorExpected(what)
		}
		ls.syntaxError("'" + luaToken2Str(what) + "' expected (to close '" + luaToken2Str(who) +
			"' at line " + strconv.Itoa(where) + ")")
	}
}

func (ls *luaSyntax) checkName() {
	ls.check(ltkName)
	ls.advance()
}

func (ls *luaSyntax) enterLevel() {
	ls.levels++
	if ls.levels > luaMaxLevels {
		ls.lexError("chunk has too many syntax levels", 0)
	}
}

func (ls *luaSyntax) leaveLevel() { ls.levels-- }

func (ls *luaSyntax) enterBlock(loop bool) {
	ls.fs.blocks = append(ls.fs.blocks, luaSynBlock{loop: loop, nactvar: ls.fs.nactvar})
}

func (ls *luaSyntax) leaveBlock() {
	last := len(ls.fs.blocks) - 1
	ls.fs.nactvar = ls.fs.blocks[last].nactvar
	ls.fs.blocks = ls.fs.blocks[:last]
}

// newLocal is new_localvar: the n-th variable a statement declares (counted from 0, not yet
// active) must fit in LUAI_MAXVARS (errorlimit, without a "near" part).
func (ls *luaSyntax) newLocal(n int) {
	if ls.fs.nactvar+n+1 > luaMaxVars {
		what := "main function"
		if ls.fs.line != 0 {
			what = "function at line " + strconv.Itoa(ls.fs.line)
		}
		ls.lexError(what+" has more than "+strconv.Itoa(luaMaxVars)+" local variables", 0)
	}
}

// adjustLocals is adjustlocalvars: n declared variables become active.
func (ls *luaSyntax) adjustLocals(n int) { ls.fs.nactvar += n }

func luaBlockFollow(tok int) bool {
	switch tok {
	case ltkElse, ltkElseif, ltkEnd, ltkUntil, ltkEOS:
		return true
	}
	return false
}

// Expression kinds that matter to the grammar: what may be assigned, what is a call.
const (
	lekOther = iota
	lekVar
	lekCall
)

func (ls *luaSyntax) field() {
	ls.advance() // '.' or ':'
	ls.checkName()
}

func (ls *luaSyntax) yindex() {
	ls.advance() // '['
	ls.expr()
	ls.checkNextTok(']')
}

func (ls *luaSyntax) recfield() {
	if ls.tok == ltkName {
		ls.checkName()
	} else {
		ls.yindex()
	}
	ls.checkNextTok('=')
	ls.expr()
}

func (ls *luaSyntax) constructor() {
	line := ls.line
	ls.checkNextTok('{')
	for {
		if ls.tok == '}' {
			break
		}
		switch ls.tok {
		case ltkName:
			ls.lookahead()
			if ls.ahead != '=' {
				ls.expr()
			} else {
				ls.recfield()
			}
		case '[':
			ls.recfield()
		default:
			ls.expr()
		}
		if !ls.testNext(',') && !ls.testNext(';') {
			break
		}
	}
	ls.checkMatch('}', '{', line)
}

func (ls *luaSyntax) parlist() {
	ls.fs.vararg = false
	n := 0
	if ls.tok != ')' {
		for {
			switch ls.tok {
			case ltkName:
				ls.checkName()
				ls.newLocal(n)
			case ltkDots:
				ls.advance()
				ls.newLocal(n) // LUA_COMPAT_VARARG: the implicit "arg"
				ls.fs.vararg = true
			default:
				ls.syntaxError("<name> or '...' expected")
			}
			n++
			if ls.fs.vararg || !ls.testNext(',') {
				break
			}
		}
	}
	ls.adjustLocals(n)
}

func (ls *luaSyntax) body(line int, self bool) {
	ls.fs = &luaSynFunc{prev: ls.fs, line: line}
	ls.checkNextTok('(')
	if self {
		ls.newLocal(0)
		ls.adjustLocals(1)
	}
	ls.parlist()
	ls.checkNextTok(')')
	ls.chunkRule()
	ls.checkMatch(ltkEnd, ltkFunction, line)
	ls.fs = ls.fs.prev
}

func (ls *luaSyntax) explist1() {
	ls.expr()
	for ls.testNext(',') {
		ls.expr()
	}
}

func (ls *luaSyntax) funcargs() {
	line := ls.line
	switch ls.tok {
	case '(':
		if line != ls.lastline {
			ls.syntaxError("ambiguous syntax (function call x new statement)")
		}
		ls.advance()
		if ls.tok != ')' {
			ls.explist1()
		}
		ls.checkMatch(')', '(', line)
	case '{':
		ls.constructor()
	case ltkString:
		ls.advance()
	default:
		ls.syntaxError("function arguments expected")
	}
}

func (ls *luaSyntax) prefixexp() int {
	switch ls.tok {
	case '(':
		line := ls.line
		ls.advance()
		ls.expr()
		ls.checkMatch(')', '(', line)
		return lekOther
	case ltkName:
		ls.checkName()
		return lekVar
	}
	ls.syntaxError("unexpected symbol")
	return lekOther
}

func (ls *luaSyntax) primaryexp() int {
	k := ls.prefixexp()
	for {
		switch ls.tok {
		case '.':
			ls.field()
			k = lekVar
		case '[':
			ls.yindex()
			k = lekVar
		case ':':
			ls.advance()
			ls.checkName()
			ls.funcargs()
			k = lekCall
		case '(', ltkString, '{':
			ls.funcargs()
			k = lekCall
		default:
			return k
		}
	}
}

func (ls *luaSyntax) simpleexp() {
	switch ls.tok {
	case ltkNumber, ltkString, ltkNil, ltkTrue, ltkFalse:
	case ltkDots:
		if !ls.fs.vararg {
			ls.syntaxError("cannot use '...' outside a vararg function")
		}
	case '{':
		ls.constructor()
		return
	case ltkFunction:
		ls.advance()
		ls.body(ls.line, false)
		return
	default:
		ls.primaryexp()
		return
	}
	ls.advance()
}

// luaBinaryPriority: left and right priority of a binary operator (0 when tok is none).
func luaBinaryPriority(tok int) (int, int) {
	switch tok {
	case '+', '-':
		return 6, 6
	case '*', '/', '%':
		return 7, 7
	case '^':
		return 10, 9
	case ltkConcat:
		return 5, 4
	case ltkNe, ltkEq, '<', ltkLe, '>', ltkGe:
		return 3, 3
	case ltkAnd:
		return 2, 2
	case ltkOr:
		return 1, 1
	}
	return 0, 0
}

const luaUnaryPriority = 8

// subexpr -> (simpleexp | unop subexpr) { binop subexpr }; returns the first operator it left.
func (ls *luaSyntax) subexpr(limit int) int {
	ls.enterLevel()
	if ls.tok == ltkNot || ls.tok == '-' || ls.tok == '#' {
		ls.advance()
		ls.subexpr(luaUnaryPriority)
	} else {
		ls.simpleexp()
	}
	op := ls.tok
	for {
		left, right := luaBinaryPriority(op)
		if left == 0 || left <= limit {
			break
		}
		ls.advance()
		op = ls.subexpr(right)
	}
	ls.leaveLevel()
	return op
}

func (ls *luaSyntax) expr() { ls.subexpr(0) }

func (ls *luaSyntax) block() {
	ls.enterBlock(false)
	ls.chunkRule()
	ls.leaveBlock()
}

func (ls *luaSyntax) assignment(k int) {
	if k != lekVar {
		ls.syntaxError("syntax error")
	}
	if ls.testNext(',') {
		ls.assignment(ls.primaryexp())
		return
	}
	ls.checkNextTok('=')
	ls.explist1()
}

func (ls *luaSyntax) breakstat() {
	for i := len(ls.fs.blocks) - 1; i >= 0; i-- {
		if ls.fs.blocks[i].loop {
			return
		}
	}
	ls.syntaxError("no loop to break")
}

func (ls *luaSyntax) whilestat(line int) {
	ls.advance()
	ls.expr()
	ls.enterBlock(true)
	ls.checkNextTok(ltkDo)
	ls.block()
	ls.checkMatch(ltkEnd, ltkWhile, line)
	ls.leaveBlock()
}

func (ls *luaSyntax) repeatstat(line int) {
	ls.enterBlock(true)
	ls.enterBlock(false)
	ls.advance()
	ls.chunkRule()
	ls.checkMatch(ltkUntil, ltkRepeat, line)
	ls.expr()
	ls.leaveBlock()
	ls.leaveBlock()
}

func (ls *luaSyntax) forbody(nvars int) {
	ls.adjustLocals(3) // the loop's hidden control variables
	ls.checkNextTok(ltkDo)
	ls.enterBlock(false)
	ls.adjustLocals(nvars)
	ls.block()
	ls.leaveBlock()
}

func (ls *luaSyntax) forstat(line int) {
	ls.enterBlock(true)
	ls.advance()
	ls.checkName()
	nvars := 1
	switch ls.tok {
	case '=': // (for index), (for limit), (for step), the variable
		for n := 0; n < 4; n++ {
			ls.newLocal(n)
		}
		ls.advance()
		ls.expr()
		ls.checkNextTok(',')
		ls.expr()
		if ls.testNext(',') {
			ls.expr()
		}
	case ',', ltkIn: // (for generator), (for state), (for control), the variables
		n := 0
		for ; n < 4; n++ {
			ls.newLocal(n)
		}
		for ls.testNext(',') {
			ls.checkName()
			ls.newLocal(n)
			n++
		}
		nvars = n - 3
		ls.checkNextTok(ltkIn)
		ls.explist1()
	default:
		ls.syntaxError("'=' or 'in' expected")
	}
	ls.forbody(nvars)
	ls.checkMatch(ltkEnd, ltkFor, line)
	ls.leaveBlock()
}

func (ls *luaSyntax) testThenBlock() {
	ls.advance()
	ls.expr()
	ls.checkNextTok(ltkThen)
	ls.block()
}

func (ls *luaSyntax) ifstat(line int) {
	ls.testThenBlock()
	for ls.tok == ltkElseif {
		ls.testThenBlock()
	}
	if ls.tok == ltkElse {
		ls.advance()
		ls.block()
	}
	ls.checkMatch(ltkEnd, ltkIf, line)
}

func (ls *luaSyntax) localstat() {
	n := 0
	for {
		ls.checkName()
		ls.newLocal(n)
		n++
		if !ls.testNext(',') {
			break
		}
	}
	if ls.testNext('=') {
		ls.explist1()
	}
	ls.adjustLocals(n)
}

func (ls *luaSyntax) funcstat(line int) {
	ls.advance()
	ls.checkName()
	for ls.tok == '.' {
		ls.field()
	}
	self := ls.tok == ':'
	if self {
		ls.field()
	}
	ls.body(line, self)
}

func (ls *luaSyntax) exprstat() {
	if k := ls.primaryexp(); k != lekCall {
		ls.assignment(k)
	}
}

func (ls *luaSyntax) retstat() {
	ls.advance()
	if luaBlockFollow(ls.tok) || ls.tok == ';' {
		return
	}
	ls.explist1()
}

// statement returns true for the statements that must end a block (return, break).
func (ls *luaSyntax) statement() bool {
	line := ls.line
	switch ls.tok {
	case ltkIf:
		ls.ifstat(line)
	case ltkWhile:
		ls.whilestat(line)
	case ltkDo:
		ls.advance()
		ls.block()
		ls.checkMatch(ltkEnd, ltkDo, line)
	case ltkFor:
		ls.forstat(line)
	case ltkRepeat:
		ls.repeatstat(line)
	case ltkFunction:
		ls.funcstat(line)
	case ltkLocal:
		ls.advance()
		if ls.testNext(ltkFunction) {
			ls.checkName()
			ls.newLocal(0)
			ls.adjustLocals(1)
			ls.body(ls.line, false)
		} else {
			ls.localstat()
		}
	case ltkReturn:
		ls.retstat()
		return true
	case ltkBreak:
		ls.advance()
		ls.breakstat()
		return true
	default:
		ls.exprstat()
	}
	return false
}

// chunkRule: chunk -> { stat [';'] }
func (ls *luaSyntax) chunkRule() {
	ls.enterLevel()
	last := false
	for !last && !luaBlockFollow(ls.tok) {
		last = ls.statement()
		ls.testNext(';')
	}
	ls.leaveLevel()
}

// luaCompile compiles src as chunk the way Lua 5.1 would: the checker decides first, for every
// script, because gopher-lua also reads what Lua 5.1 refuses (goto and ::labels::, an empty
// statement ";", "{1;,2}", "1e-", "1return"…: Lua 5.1's error there, as redis-server gives it);
// then gopher-lua compiles, and when it still refuses (nothing the checker knows of),
// luaCompileError words its message. It returns the function, or the message without Redis's
// "Error compiling script" prefix. EVAL pays it once per script: the compiled function is kept
// by SHA1 (BenchmarkLuaSyntaxCheck measures the checker against the compiler).
func luaCompile(L *lua.LState, chunk, src string) (*lua.LFunction, string) {
	if msg := luaSyntaxError(chunk, src); msg != "" {
		return nil, msg
	}
	fn, err := luaCompileTree(L, chunk, src) // script_concat.go: Lua 5.1's ".."
	if err != nil {
		return nil, luaCompileError(err.Error(), src)
	}
	return fn, ""
}

// luaSyntaxInstead is Lua 5.1's message for a script gopher-lua refused with gopherMsg (which
// starts with the chunk name), or "" when Lua 5.1 finds no syntax error in it.
func luaSyntaxInstead(gopherMsg, src string) string {
	// gopher-lua's parser says "<chunk> line:1(column:3) near 'x': …" or "<chunk> at EOF: …",
	// its compiler "compile error near line(1) <chunk>: …".
	for _, chunk := range []string{userScript, userFunction} {
		if strings.HasPrefix(gopherMsg, chunk+" ") ||
			strings.HasPrefix(gopherMsg, "compile error near line(") && strings.Contains(gopherMsg, ") "+chunk+": ") {
			return luaSyntaxError(chunk, src)
		}
	}
	return ""
}
