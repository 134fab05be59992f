//go:build !nolua

package engine

// The cjson library of Redis's Lua (lua-cjson 2.1.0, deps/lua/src/lua_cjson.c), written anew on
// gopher-lua with the same rules:
//
// Encoding (cjson.encode, exactly one argument):
//   - nil and cjson.null → null; booleans → true/false; numbers → "%.14g" (encode_number_precision,
//     1..14), NaN and ±Inf refused ("Cannot serialise number: must not be NaN or Inf") unless
//     encode_invalid_numbers is on ("inf", "nan") or "null";
//   - strings → "…" with \" \\ \/ \b \f \n \r \t escaped, other bytes below 0x20 and 0x7f as
//     \u00XX, every other byte as it is (no UTF-8 check);
//   - a table whose keys are all integers ≥ 1 is an array of t[1]…t[max] (holes → null) unless it is
//     excessively sparse: max > 2·count and max > 10 ("Cannot serialise table: excessively sparse
//     array"; encode_sparse_array(true) makes it an object); an empty table is {}; any other
//     table is an object whose number keys are written as strings; other key types are refused
//     ("Cannot serialise boolean: table key must be a number or string"). Object members come in
//     the interpreter's table order: gopher-lua's order, which is not C Lua's hash order, so
//     objects of more than one member may list them differently from redis-server;
//   - nesting deeper than encode_max_depth (1000) → "Cannot serialise, excessive nesting (1001)";
//     functions, userdata (other than cjson.null) and threads → "type not supported".
//
// Decoding (cjson.decode): JSON → Lua with null as cjson.null (a userdata), numbers by strtod
// (decode_invalid_numbers is on: leading zeros, hex, inf and nan pass), \uXXXX (and surrogate
// pairs) as UTF-8; errors "Expected <what> but found <token> at character <n>", depth beyond
// decode_max_depth (1000) "Found too many nested data structures (1001) at character <n>".

import (
	"math"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

type cjsonConfig struct {
	sparseConvert  bool
	sparseRatio    int
	sparseSafe     int
	encodeMaxDepth int
	decodeMaxDepth int
	encodeInvalid  int // 0 off, 1 on, 2 null
	decodeInvalid  bool
	keepBuffer     bool
	precision      int
	null           *lua.LUserData
}

var cjsonEscape = func() [256]string {
	var t [256]string
	for i := 0; i < 0x20; i++ {
		t[i] = "\\u00" + string("0123456789abcdef"[i>>4]) + string("0123456789abcdef"[i&15])
	}
	t['\b'], t['\t'], t['\n'], t['\f'], t['\r'] = "\\b", "\\t", "\\n", "\\f", "\\r"
	t['"'], t['\\'], t['/'] = "\\\"", "\\\\", "\\/"
	t[0x7f] = "\\u007f"
	return t
}()

func openCJSON(L *lua.LState) *lua.LTable {
	cfg := &cjsonConfig{sparseRatio: 2, sparseSafe: 10, encodeMaxDepth: 1000, decodeMaxDepth: 1000,
		decodeInvalid: true, keepBuffer: true, precision: 14}
	cfg.null = L.NewUserData()
	t := L.NewTable()
	fn := func(name string, f lua.LGFunction) { t.RawSetString(name, L.NewFunction(f)) }
	fn("encode", func(L *lua.LState) int {
		if L.GetTop() != 1 {
			luaArgError(L, 1, "encode", "expected 1 argument")
		}
		var b strings.Builder
		cfg.encode(L, &b, L.Get(1), 0)
		L.Push(lua.LString(b.String()))
		return 1
	})
	fn("decode", func(L *lua.LState) int {
		if L.GetTop() != 1 {
			luaArgError(L, 1, "decode", "expected 1 argument")
		}
		s, ok := luaStringish(L.Get(1))
		if !ok {
			luaArgError(L, 1, "decode", "string expected, got "+L.Get(1).Type().String())
		}
		L.Push(cfg.decode(L, s))
		return 1
	})
	intOpt := func(name string, setting *int, min, max int) lua.LGFunction {
		return func(L *lua.LState) int {
			if L.GetTop() > 1 {
				luaArgError(L, 2, name, "found too many arguments")
			}
			if L.Get(1) != lua.LNil {
				v := luaCheckInt(L, 1, name)
				if v < min || v > max {
					luaArgError(L, 1, name, "expected integer between "+strconv.Itoa(min)+" and "+strconv.Itoa(max))
				}
				*setting = v
			}
			L.Push(lua.LNumber(*setting))
			return 1
		}
	}
	boolOpt := func(L *lua.LState, i int, name string, setting *bool) {
		switch v := L.Get(i).(type) {
		case *lua.LNilType:
		case lua.LBool:
			*setting = bool(v)
		default:
			s, _ := luaStringish(v)
			switch s {
			case "on":
				*setting = true
			case "off":
				*setting = false
			default:
				luaArgError(L, i, name, "invalid option '"+s+"'")
			}
		}
		L.Push(lua.LBool(*setting))
	}
	fn("encode_max_depth", intOpt("encode_max_depth", &cfg.encodeMaxDepth, 1, math.MaxInt32))
	fn("decode_max_depth", intOpt("decode_max_depth", &cfg.decodeMaxDepth, 1, math.MaxInt32))
	fn("encode_number_precision", intOpt("encode_number_precision", &cfg.precision, 1, 14))
	fn("encode_keep_buffer", func(L *lua.LState) int {
		boolOpt(L, 1, "encode_keep_buffer", &cfg.keepBuffer)
		return 1
	})
	fn("decode_invalid_numbers", func(L *lua.LState) int {
		boolOpt(L, 1, "decode_invalid_numbers", &cfg.decodeInvalid)
		return 1
	})
	fn("encode_invalid_numbers", func(L *lua.LState) int {
		switch v := L.Get(1).(type) {
		case *lua.LNilType:
		case lua.LBool:
			cfg.encodeInvalid = 0
			if v {
				cfg.encodeInvalid = 1
			}
		default:
			s, _ := luaStringish(v)
			switch s {
			case "off":
				cfg.encodeInvalid = 0
			case "on":
				cfg.encodeInvalid = 1
			case "null":
				cfg.encodeInvalid = 2
			default:
				luaArgError(L, 1, "encode_invalid_numbers", "invalid option '"+s+"'")
			}
		}
		switch cfg.encodeInvalid {
		case 2:
			L.Push(lua.LString("null"))
		default:
			L.Push(lua.LBool(cfg.encodeInvalid == 1))
		}
		return 1
	})
	fn("encode_sparse_array", func(L *lua.LState) int {
		if L.GetTop() > 3 {
			luaArgError(L, 4, "encode_sparse_array", "found too many arguments")
		}
		boolOpt(L, 1, "encode_sparse_array", &cfg.sparseConvert)
		for i, p := range []*int{&cfg.sparseRatio, &cfg.sparseSafe} {
			if L.Get(2+i) != lua.LNil {
				*p = luaCheckInt(L, 2+i, "encode_sparse_array")
			}
			L.Push(lua.LNumber(*p))
		}
		return 3
	})
	t.RawSetString("null", cfg.null)
	t.RawSetString("_NAME", lua.LString("cjson"))
	t.RawSetString("_VERSION", lua.LString("2.1.0"))
	return t
}

func (cfg *cjsonConfig) fail(L *lua.LState, v lua.LValue, reason string) {
	L.RaiseError("Cannot serialise %s: %s", v.Type().String(), reason)
}

func (cfg *cjsonConfig) encode(L *lua.LState, b *strings.Builder, v lua.LValue, depth int) {
	switch x := v.(type) {
	case lua.LString:
		cjsonString(b, string(x))
	case lua.LNumber:
		cfg.number(L, b, x)
	case lua.LBool:
		if x {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case *lua.LNilType:
		b.WriteString("null")
	case *lua.LUserData:
		if x != cfg.null {
			cfg.fail(L, v, "type not supported")
		}
		b.WriteString("null")
	case *lua.LTable:
		depth++
		if depth > cfg.encodeMaxDepth {
			L.RaiseError("Cannot serialise, excessive nesting (%d)", depth)
		}
		n := cfg.arrayLength(L, x)
		if n > 0 {
			b.WriteByte('[')
			for i := 1; i <= n; i++ {
				if i > 1 {
					b.WriteByte(',')
				}
				cfg.encode(L, b, x.RawGetInt(i), depth)
			}
			b.WriteByte(']')
			return
		}
		b.WriteByte('{')
		first := true
		for k, val := x.Next(lua.LNil); k != lua.LNil; k, val = x.Next(k) {
			if !first {
				b.WriteByte(',')
			}
			first = false
			switch kk := k.(type) {
			case lua.LNumber:
				b.WriteByte('"')
				cfg.number(L, b, kk)
				b.WriteString("\":")
			case lua.LString:
				cjsonString(b, string(kk))
				b.WriteByte(':')
			default:
				cfg.fail(L, k, "table key must be a number or string")
			}
			cfg.encode(L, b, val, depth)
		}
		b.WriteByte('}')
	default:
		cfg.fail(L, v, "type not supported")
	}
}

// arrayLength is lua_array_length: the largest key when every key is an integer ≥ 1, -1 for an
// object.
func (cfg *cjsonConfig) arrayLength(L *lua.LState, t *lua.LTable) int {
	max, items := 0, 0
	for k, _ := t.Next(lua.LNil); k != lua.LNil; k, _ = t.Next(k) {
		n, ok := k.(lua.LNumber)
		f := float64(n)
		if !ok || f == 0 || math.Floor(f) != f || f < 1 {
			return -1
		}
		if f > float64(max) {
			max = int(f)
		}
		items++
	}
	if cfg.sparseRatio > 0 && max > items*cfg.sparseRatio && max > cfg.sparseSafe {
		if !cfg.sparseConvert {
			cfg.fail(L, t, "excessively sparse array")
		}
		return -1
	}
	return max
}

func (cfg *cjsonConfig) number(L *lua.LState, b *strings.Builder, n lua.LNumber) {
	f := float64(n)
	if math.IsInf(f, 0) || math.IsNaN(f) {
		switch cfg.encodeInvalid {
		case 0:
			cfg.fail(L, n, "must not be NaN or Inf")
		case 2:
			b.WriteString("null")
			return
		}
		if math.IsNaN(f) {
			b.WriteString("nan")
			return
		}
	}
	switch {
	case math.IsInf(f, 1):
		b.WriteString("inf")
	case math.IsInf(f, -1):
		b.WriteString("-inf")
	default:
		b.WriteString(strconv.FormatFloat(f, 'g', cfg.precision, 64))
	}
}

func cjsonString(b *strings.Builder, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		if e := cjsonEscape[s[i]]; e != "" {
			b.WriteString(e)
		} else {
			b.WriteByte(s[i])
		}
	}
	b.WriteByte('"')
}

// ---------------------------------------------------------------------------------------------
// Decoding.

type cjsonToken uint8

const (
	tObjBegin cjsonToken = iota
	tObjEnd
	tArrBegin
	tArrEnd
	tString
	tNumber
	tBoolean
	tNull
	tColon
	tComma
	tEnd
	tError
)

var cjsonTokenNames = [...]string{"T_OBJ_BEGIN", "T_OBJ_END", "T_ARR_BEGIN", "T_ARR_END", "T_STRING",
	"T_NUMBER", "T_BOOLEAN", "T_NULL", "T_COLON", "T_COMMA", "T_END", "T_ERROR"}

type cjsonParser struct {
	L     *lua.LState
	cfg   *cjsonConfig
	data  string
	pos   int
	depth int
	// the current token
	tok    cjsonToken
	index  int
	str    string
	num    float64
	boolv  bool
	errMsg string
}

func (cfg *cjsonConfig) decode(L *lua.LState, s string) lua.LValue {
	if len(s) >= 2 && (s[0] == 0 || s[1] == 0) {
		L.RaiseError("JSON parser does not support UTF-16 or UTF-32")
	}
	p := &cjsonParser{L: L, cfg: cfg, data: s}
	p.next()
	v := p.value()
	p.next()
	if p.tok != tEnd {
		p.throw("the end")
	}
	return v
}

func (p *cjsonParser) at(i int) byte {
	if i < len(p.data) {
		return p.data[i]
	}
	return 0
}

func (p *cjsonParser) setError(msg string) {
	p.tok, p.index, p.errMsg = tError, p.pos, msg
}

func (p *cjsonParser) next() {
	for {
		c := p.at(p.pos)
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			break
		}
		p.pos++
	}
	p.index = p.pos
	c := p.at(p.pos)
	single := map[byte]cjsonToken{'{': tObjBegin, '}': tObjEnd, '[': tArrBegin, ']': tArrEnd, ',': tComma, ':': tColon}
	if t, ok := single[c]; ok {
		p.tok = t
		p.pos++
		return
	}
	rest := p.data[min(p.pos, len(p.data)):]
	switch {
	case c == 0:
		p.tok = tEnd
	case c == '"':
		p.stringToken()
	case c == '-' || c >= '0' && c <= '9':
		if !p.cfg.decodeInvalid && p.invalidNumber() {
			p.setError("invalid number")
			return
		}
		p.numberToken()
	case strings.HasPrefix(rest, "true"):
		p.tok, p.boolv = tBoolean, true
		p.pos += 4
	case strings.HasPrefix(rest, "false"):
		p.tok, p.boolv = tBoolean, false
		p.pos += 5
	case strings.HasPrefix(rest, "null"):
		p.tok = tNull
		p.pos += 4
	case (c == 'i' || c == 'I' || c == 'n' || c == 'N' || c == '+') && p.cfg.decodeInvalid && p.invalidNumber():
		p.numberToken()
	default:
		p.setError("invalid token")
	}
}

// invalidNumber is json_is_invalid_number: +, hex, leading zeros, inf and nan.
func (p *cjsonParser) invalidNumber() bool {
	i := p.pos
	if p.at(i) == '+' {
		return true
	}
	if p.at(i) == '-' {
		i++
	}
	c := p.at(i)
	if c == '0' {
		c2 := p.at(i + 1)
		return c2|0x20 == 'x' || c2 >= '0' && c2 <= '9'
	} else if c <= '9' {
		return false
	}
	rest := strings.ToLower(p.data[min(i, len(p.data)):])
	return strings.HasPrefix(rest, "inf") || strings.HasPrefix(rest, "nan")
}

func (p *cjsonParser) numberToken() {
	end := strings.IndexByte(p.data[p.pos:], 0)
	data := p.data[p.pos:]
	if end >= 0 {
		data = data[:end]
	}
	v, n, _ := strtod([]byte(data), true)
	if n == 0 {
		p.setError("invalid number")
		return
	}
	p.tok, p.num = tNumber, v
	p.pos += n
}

func (p *cjsonParser) stringToken() {
	p.pos++
	var b []byte
	for {
		c := p.at(p.pos)
		if c == '"' {
			break
		}
		if c == 0 {
			p.setError("unexpected end of string")
			return
		}
		if c == '\\' {
			esc := p.at(p.pos + 1)
			var out byte
			switch esc {
			case '"', '\\', '/':
				out = esc
			case 'b':
				out = '\b'
			case 't':
				out = '\t'
			case 'n':
				out = '\n'
			case 'f':
				out = '\f'
			case 'r':
				out = '\r'
			case 'u':
				var ok bool
				if b, ok = p.unicodeEscape(b); !ok {
					p.setError("invalid unicode escape code")
					return
				}
				continue
			default:
				p.setError("invalid escape code")
				return
			}
			b = append(b, out)
			p.pos += 2
			continue
		}
		b = append(b, c)
		p.pos++
	}
	p.pos++
	p.tok, p.str = tString, string(b)
}

func (p *cjsonParser) hex4(at int) int {
	v := 0
	for i := 0; i < 4; i++ {
		c := p.at(at + i)
		var d int
		switch {
		case c >= '0' && c <= '9':
			d = int(c - '0')
		case c|0x20 >= 'a' && c|0x20 <= 'f':
			d = int(c|0x20-'a') + 10
		default:
			return -1
		}
		v = v<<4 | d
	}
	return v
}

// unicodeEscape is json_append_unicode_escape.
func (p *cjsonParser) unicodeEscape(b []byte) ([]byte, bool) {
	cp := p.hex4(p.pos + 2)
	if cp < 0 {
		return b, false
	}
	n := 6
	if cp&0xF800 == 0xD800 {
		if cp&0x400 != 0 || p.at(p.pos+6) != '\\' || p.at(p.pos+7) != 'u' {
			return b, false
		}
		lo := p.hex4(p.pos + 8)
		if lo < 0 || lo&0xFC00 != 0xDC00 {
			return b, false
		}
		cp = ((cp&0x3FF)<<10 | lo&0x3FF) + 0x10000
		n = 12
	}
	switch {
	case cp <= 0x7F:
		b = append(b, byte(cp))
	case cp <= 0x7FF:
		b = append(b, byte(cp>>6|0xC0), byte(cp&0x3F|0x80))
	case cp <= 0xFFFF:
		b = append(b, byte(cp>>12|0xE0), byte(cp>>6&0x3F|0x80), byte(cp&0x3F|0x80))
	default:
		b = append(b, byte(cp>>18|0xF0), byte(cp>>12&0x3F|0x80), byte(cp>>6&0x3F|0x80), byte(cp&0x3F|0x80))
	}
	p.pos += n
	return b, true
}

func (p *cjsonParser) throw(expected string) {
	found := ""
	if p.tok == tError {
		found = p.errMsg
	} else {
		found = cjsonTokenNames[p.tok]
	}
	p.L.RaiseError("Expected %s but found %s at character %d", expected, found, p.index+1)
}

func (p *cjsonParser) descend() {
	p.depth++
	if p.depth > p.cfg.decodeMaxDepth {
		p.L.RaiseError("Found too many nested data structures (%d) at character %d", p.depth, p.pos)
	}
}

// open enters an object or array (json_parse_object_context / json_parse_array_context): one
// level deeper, then its first token; false when that token already closes it (end).
func (p *cjsonParser) open(end cjsonToken) bool {
	p.descend()
	p.next()
	if p.tok == end {
		p.depth--
		return false
	}
	return true
}

// more reads the token after an element of an object or array: true at a comma (another element
// follows, its first token read), false at end, which closes the container; anything else is an
// error naming what was expected.
func (p *cjsonParser) more(end cjsonToken, expected string) bool {
	p.next()
	if p.tok == end {
		p.depth--
		return false
	}
	if p.tok != tComma {
		p.throw(expected)
	}
	p.next()
	return true
}

func (p *cjsonParser) value() lua.LValue {
	L := p.L
	switch p.tok {
	case tString:
		return lua.LString(p.str)
	case tNumber:
		return lua.LNumber(p.num)
	case tBoolean:
		return lua.LBool(p.boolv)
	case tNull:
		return p.cfg.null
	case tObjBegin:
		t := L.NewTable()
		for more := p.open(tObjEnd); more; more = p.more(tObjEnd, "comma or object end") {
			if p.tok != tString {
				p.throw("object key string")
			}
			key := p.str
			p.next()
			if p.tok != tColon {
				p.throw("colon")
			}
			p.next()
			t.RawSetString(key, p.value())
		}
		return t
	case tArrBegin:
		t := L.NewTable()
		for i, more := 1, p.open(tArrEnd); more; i, more = i+1, p.more(tArrEnd, "comma or array end") {
			t.RawSetInt(i, p.value())
		}
		return t
	}
	p.throw("value")
	return lua.LNil
}
