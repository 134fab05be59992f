package engine

import (
	"strconv"
)

// A Reply is protocol-neutral: Kind is its RESP2 type, and R3 says how the same value is typed
// (and, for a few replies, laid out) in RESP3, so one Reply serves a RESP2 and a RESP3 client —
// as Redis's addReply* calls (networking.c) write different bytes from one call by c->resp:
//
//	Reply                      RESP2                     RESP3
//	Map(k1, v1, k2, v2)        *4 k1 v1 k2 v2            %2 k1 v1 k2 v2      (HGETALL, CONFIG GET)
//	Set(a, b)                  *2 a b                    ~2 a b              (SMEMBERS, SINTER)
//	Pairs(m1, s1, m2, s2)      *4 m1 s1 m2 s2            *2 *2 m1 s1 *2 m2 s2 (ZRANGE … WITHSCORES)
//	MapOfPairs([k1 v1] [k2 v2]) *2 *2 k1 v1 *2 k2 v2     %2 k1 v1 k2 v2      (XREAD: a map keyed by stream)
//	Double("1.5")              $3 1.5                    ,1.5                (ZSCORE)
//	Bool(true)                 :1                        #t                  (a script's true)
//	BigNum("123…")             $n 123…                   (123…
//	Verbatim("a:1\r\n")        $5 a:1\r\n                =9 txt:a:1\r\n       (INFO, CLIENT LIST)
//	NilReply / NilArray        $-1 / *-1                 _
//
// Kind stays the RESP2 type (a map is a KindArray, a verbatim string a KindBulk), so code that
// reads replies as RESP2 — the console, transcripts, labs, Lua's RESP2 conversion — sees no
// difference; only AppendRESP(dst, 3) and the RESP3 conversions read R3.

// ReplyKind is the RESP2 type of a reply.
type ReplyKind uint8

const (
	KindStatus   ReplyKind = iota // +OK
	KindError                     // -ERR ...
	KindInt                       // :5
	KindBulk                      // $3 bar
	KindNil                       // $-1
	KindArray                     // *2 ...
	KindNilArray                  // *-1
	KindDouble                    // a double; RESP2 sends it as a bulk string of Str
)

// R3Type is how a reply is typed in RESP3 beyond its Kind (R3Plain: as Kind says).
type R3Type uint8

const (
	R3Plain      R3Type = iota
	R3Map               // KindArray of k1 v1 k2 v2 …: %N
	R3Set               // KindArray: ~N
	R3Pairs             // flat KindArray a1 b1 a2 b2 …: an array of [a, b] arrays
	R3MapOfPairs        // KindArray of [k, v] arrays: %N k v …
	R3Verbatim          // KindBulk: =len fmt:text (the format's 3 bytes are in Int; 0: "txt")
	R3BigNum            // KindBulk: (digits
	R3Bool              // KindInt 0 or 1: #f / #t
	// R3Attribute: the reply (any Kind) is preceded in RESP3 by the attribute map Array holds
	// (k1 v1 …): |N k v … then the reply; RESP2 sends the reply alone.
	R3Attribute
	// R3Push: Array holds a push message's elements and, last, the reply that follows it; RESP3
	// sends >N … then that reply, RESP2 the reply itself (Kind, Str: an error such as DEBUG
	// PROTOCOL push's).
	R3Push
)

// Reply is a command's answer. Str holds status/error text, bulk bytes and the formatted double.
type Reply struct {
	Kind  ReplyKind
	R3    R3Type
	Str   string
	Int   int64
	Array []Reply
}

// Reply constructors.
var (
	OK       = Reply{Kind: KindStatus, Str: "OK"}
	NilReply = Reply{Kind: KindNil}
	NilArray = Reply{Kind: KindNilArray}
	EmptyArr = Reply{Kind: KindArray, Array: []Reply{}}
	EmptyMap = Reply{Kind: KindArray, R3: R3Map, Array: []Reply{}}
	EmptySet = Reply{Kind: KindArray, R3: R3Set, Array: []Reply{}}
)

func Status(s string) Reply         { return Reply{Kind: KindStatus, Str: s} }
func Err(s string) Reply            { return Reply{Kind: KindError, Str: s} }
func Int(n int64) Reply             { return Reply{Kind: KindInt, Int: n} }
func Bulk(b []byte) Reply           { return Reply{Kind: KindBulk, Str: string(b)} }
func BulkStr(s string) Reply        { return Reply{Kind: KindBulk, Str: s} }
func Array(items ...Reply) Reply    { return Reply{Kind: KindArray, Array: items} }
func Double(formatted string) Reply { return Reply{Kind: KindDouble, Str: formatted} }

// Map is a map reply from its keys and values in turn (addReplyMapLen).
func Map(kv ...Reply) Reply { return Reply{Kind: KindArray, R3: R3Map, Array: kv} }

// Set is a set reply (addReplySetLen).
func Set(items ...Reply) Reply { return Reply{Kind: KindArray, R3: R3Set, Array: items} }

// Pairs is a flat array of pairs that RESP3 nests (ZRANGE … WITHSCORES, HRANDFIELD … WITHVALUES).
func Pairs(flat ...Reply) Reply { return Reply{Kind: KindArray, R3: R3Pairs, Array: flat} }

// MapOfPairs is an array of [key, value] arrays that RESP3 sends as a map (XREAD's streams).
func MapOfPairs(pairs ...Reply) Reply {
	return Reply{Kind: KindArray, R3: R3MapOfPairs, Array: pairs}
}

// Bool is a boolean: :1 / :0 in RESP2, #t / #f in RESP3.
func Bool(b bool) Reply {
	r := Reply{Kind: KindInt, R3: R3Bool}
	if b {
		r.Int = 1
	}
	return r
}

// BigNum is a big number: a bulk string in RESP2.
func BigNum(digits string) Reply { return Reply{Kind: KindBulk, R3: R3BigNum, Str: digits} }

// Verbatim is a verbatim "txt" string (INFO, CLIENT LIST): a bulk string in RESP2.
func Verbatim(text string) Reply { return Reply{Kind: KindBulk, R3: R3Verbatim, Str: text} }

// VerbatimFormat is a verbatim string of another format; like addReplyVerbatim, the format is
// cut or padded with spaces to 3 bytes.
func VerbatimFormat(format, text string) Reply {
	r := Verbatim(text)
	var f [3]byte
	for i := range f {
		f[i] = ' '
		if i < len(format) {
			f[i] = format[i]
		}
	}
	if string(f[:]) != "txt" {
		r.Int = int64(f[0])<<16 | int64(f[1])<<8 | int64(f[2])
	}
	return r
}

// VerbatimFormatOf is a verbatim string's 3-byte format.
func (r Reply) VerbatimFormatOf() string {
	if r.Int == 0 {
		return "txt"
	}
	return string([]byte{byte(r.Int >> 16), byte(r.Int >> 8), byte(r.Int)})
}

// AsMap, AsSet and AsPairs retype an array reply for RESP3 (nothing changes in RESP2); other
// replies (errors, nils) are returned as they are.
func (r Reply) AsMap() Reply   { return r.as(R3Map) }
func (r Reply) AsSet() Reply   { return r.as(R3Set) }
func (r Reply) AsPairs() Reply { return r.as(R3Pairs) }

// AsMapOfPairs retypes an array of [key, value] arrays as a RESP3 map.
func (r Reply) AsMapOfPairs() Reply { return r.as(R3MapOfPairs) }

// AsMapIf and AsPairsIf retype when cond holds (HGETALL but not HKEYS, WITHSCORES given).
func (r Reply) AsMapIf(cond bool) Reply {
	if cond {
		return r.as(R3Map)
	}
	return r
}

func (r Reply) AsSetIf(cond bool) Reply {
	if cond {
		return r.as(R3Set)
	}
	return r
}

func (r Reply) AsPairsIf(cond bool) Reply {
	if cond {
		return r.as(R3Pairs)
	}
	return r
}

func (r Reply) as(t R3Type) Reply {
	if r.Kind == KindArray {
		r.R3 = t
	}
	return r
}

// AsVerbatim retypes a bulk reply as a verbatim "txt" string.
func (r Reply) AsVerbatim() Reply {
	if r.Kind == KindBulk {
		r.R3, r.Int = R3Verbatim, 0
	}
	return r
}

// WithAttribute is r preceded, in RESP3 only, by an attribute map of kv (addReplyAttributeLen).
func (r Reply) WithAttribute(kv ...Reply) Reply {
	r.R3, r.Array = R3Attribute, kv
	return r
}

// PushThen is, in RESP3, a push message of elements followed by the reply then; in RESP2 it is
// resp2 (which must not be an aggregate).
func PushThen(resp2 Reply, then Reply, elements ...Reply) Reply {
	resp2.R3 = R3Push
	resp2.Array = append(append([]Reply{}, elements...), then)
	return resp2
}

// IsError reports an error reply.
func (r Reply) IsError() bool { return r.Kind == KindError }

// AppendRESP2 appends the RESP2 encoding of r to dst.
func (r Reply) AppendRESP2(dst []byte) []byte {
	switch r.Kind {
	case KindStatus:
		dst = append(dst, '+')
		dst = append(dst, r.Str...)
	case KindError:
		dst = append(dst, '-')
		dst = append(dst, r.Str...)
	case KindInt:
		dst = append(dst, ':')
		dst = strconv.AppendInt(dst, r.Int, 10)
	case KindBulk, KindDouble:
		dst = append(dst, '$')
		dst = strconv.AppendInt(dst, int64(len(r.Str)), 10)
		dst = append(dst, '\r', '\n')
		dst = append(dst, r.Str...)
	case KindNil:
		dst = append(dst, "$-1"...)
	case KindNilArray:
		dst = append(dst, "*-1"...)
	case KindArray:
		dst = append(dst, '*')
		dst = strconv.AppendInt(dst, int64(len(r.Array)), 10)
		dst = append(dst, '\r', '\n')
		for _, it := range r.Array {
			dst = it.AppendRESP2(dst)
		}
		return dst
	}
	return append(dst, '\r', '\n')
}

// AppendRESP appends r encoded for protocol version proto (2 or 3) to dst.
func (r Reply) AppendRESP(dst []byte, proto int) []byte {
	if proto < 3 {
		return r.AppendRESP2(dst)
	}
	return r.AppendRESP3(dst)
}

// AppendRESP3 appends the RESP3 encoding of r to dst.
func (r Reply) AppendRESP3(dst []byte) []byte {
	head := func(dst []byte, c byte, n int) []byte {
		dst = append(dst, c)
		dst = strconv.AppendInt(dst, int64(n), 10)
		return append(dst, '\r', '\n')
	}
	switch r.R3 {
	case R3Attribute:
		dst = head(dst, '|', len(r.Array)/2)
		for _, it := range r.Array {
			dst = it.AppendRESP3(dst)
		}
		r.R3, r.Array = R3Plain, nil
		return r.AppendRESP3(dst)
	case R3Push:
		if len(r.Array) == 0 {
			break
		}
		dst = head(dst, '>', len(r.Array)-1)
		for _, it := range r.Array {
			dst = it.AppendRESP3(dst)
		}
		return dst
	}
	switch t := r.resp3Scalar(); t {
	case '_':
		return append(dst, "_\r\n"...)
	case '#':
		v := byte('f')
		if r.Int != 0 {
			v = 't'
		}
		return append(dst, '#', v, '\r', '\n')
	case '=':
		dst = head(dst, '=', len(r.Str)+4)
		dst = append(dst, r.VerbatimFormatOf()...)
		dst = append(dst, ':')
		dst = append(dst, r.Str...)
		return append(dst, '\r', '\n')
	case ',', '(':
		dst = append(dst, t)
		dst = append(dst, r.Str...)
		return append(dst, '\r', '\n')
	}
	if r.Kind == KindArray {
		typ, els := r.resp3View()
		n := len(els)
		if typ == '%' {
			n /= 2
		}
		dst = head(dst, typ, n)
		for _, it := range els {
			dst = it.AppendRESP3(dst)
		}
		return dst
	}
	return r.AppendRESP2(dst)
}

// FormatCLI renders r the way `redis-cli --no-raw` prints it (RESP2), with a final newline.
func (r Reply) FormatCLI() string {
	return string(r.appendCLI(nil, ""))
}

func (r Reply) appendCLI(out []byte, prefix string) []byte {
	switch r.Kind {
	case KindStatus:
		out = append(out, r.Str...)
	case KindError:
		out = append(out, "(error) "...)
		out = append(out, r.Str...)
	case KindInt:
		out = append(out, "(integer) "...)
		out = strconv.AppendInt(out, r.Int, 10)
	case KindBulk, KindDouble:
		out = AppendRepr(out, r.Str)
	case KindNil, KindNilArray:
		out = append(out, "(nil)"...)
	case KindArray:
		if len(r.Array) == 0 {
			out = append(out, "(empty array)"...)
			break
		}
		idxlen := len(strconv.Itoa(len(r.Array)))
		sub := prefix + spaces(idxlen+2)
		for i, it := range r.Array {
			if i > 0 {
				out = append(out, prefix...)
			}
			num := strconv.Itoa(i + 1)
			out = append(out, spaces(idxlen-len(num))...)
			out = append(out, num...)
			out = append(out, ") "...)
			out = it.appendCLI(out, sub)
		}
		return out
	}
	return append(out, '\n')
}

func spaces(n int) string {
	const s = "                                "
	for len(s) < n {
		return s + spaces(n-len(s))
	}
	return s[:n]
}

// AppendRepr quotes s as redis-cli does (sdscatrepr): "..." with \n \r \t \a \b \\ \" escaped
// and other non-printable bytes as \xHH.
func AppendRepr(out []byte, s string) []byte {
	const hex = "0123456789abcdef"
	out = append(out, '"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\', '"':
			out = append(out, '\\', c)
		case '\n':
			out = append(out, '\\', 'n')
		case '\r':
			out = append(out, '\\', 'r')
		case '\t':
			out = append(out, '\\', 't')
		case '\a':
			out = append(out, '\\', 'a')
		case '\b':
			out = append(out, '\\', 'b')
		default:
			if c >= 0x20 && c < 0x7f {
				out = append(out, c)
			} else {
				out = append(out, '\\', 'x', hex[c>>4], hex[c&15])
			}
		}
	}
	return append(out, '"')
}

// resp3Scalar is the RESP3 type of r when RESP3 gives it one RESP2 has not: '_' null, ',' double,
// '#' boolean, '(' big number, '=' verbatim string; 0 for the others.
func (r Reply) resp3Scalar() byte {
	switch {
	case r.Kind == KindNil || r.Kind == KindNilArray:
		return '_'
	case r.Kind == KindDouble:
		return ','
	case r.Kind == KindInt && r.R3 == R3Bool:
		return '#'
	case r.Kind == KindBulk && r.R3 == R3BigNum:
		return '('
	case r.Kind == KindBulk && r.R3 == R3Verbatim:
		return '='
	}
	return 0
}

// resp3View is r as a RESP3 client receives it: its aggregate type ('*', '%', '~'; 0 for a
// scalar) and its elements, the pairs of R3Pairs nested and the pairs of R3MapOfPairs flattened.
func (r Reply) resp3View() (byte, []Reply) {
	if r.Kind != KindArray {
		return 0, nil
	}
	switch r.R3 {
	case R3Map:
		return '%', r.Array
	case R3Set:
		return '~', r.Array
	case R3Pairs:
		out := make([]Reply, 0, len(r.Array)/2)
		for i := 0; i+1 < len(r.Array); i += 2 {
			out = append(out, Array(r.Array[i], r.Array[i+1]))
		}
		return '*', out
	case R3MapOfPairs:
		out := make([]Reply, 0, 2*len(r.Array))
		for _, p := range r.Array {
			out = append(out, p.Array...)
		}
		return '%', out
	}
	return '*', r.Array
}

// FormatCLI3 renders r the way `redis-cli -3 --no-raw` prints a RESP3 reply (redis-cli.c,
// cliFormatReplyTTY), with a final newline: maps as `1# "k" => "v"`, sets as `1~ "m"`,
// `(double) 1.5`, `(true)` / `(false)`, nulls as `(nil)`, a verbatim string as its bare text,
// `(empty hash)` / `(empty set)`, and a big number as `(big number) 123…` (newer redis-cli; the
// 7.0 one stops at it).
func (r Reply) FormatCLI3() string {
	return string(r.appendCLI3(nil, ""))
}

func (r Reply) appendCLI3(out []byte, prefix string) []byte {
	switch t := r.resp3Scalar(); t {
	case '_':
		return append(out, "(nil)\n"...)
	case '#':
		if r.Int != 0 {
			return append(out, "(true)\n"...)
		}
		return append(out, "(false)\n"...)
	case ',', '(', '=': // a verbatim string is its bare text
		switch t {
		case ',':
			out = append(out, "(double) "...)
		case '(':
			out = append(out, "(big number) "...)
		}
		out = append(out, r.Str...)
		return append(out, '\n')
	}
	if r.Kind == KindArray {
		typ, els := r.resp3View()
		if len(els) == 0 {
			switch typ {
			case '%':
				return append(out, "(empty hash)\n"...)
			case '~':
				return append(out, "(empty set)\n"...)
			}
			return append(out, "(empty array)\n"...)
		}
		n := len(els)
		sep := byte(')')
		switch typ {
		case '%':
			n /= 2
			sep = '#'
		case '~':
			sep = '~'
		}
		idxlen := len(strconv.Itoa(n))
		sub := prefix + spaces(idxlen+2)
		for i := 0; i < len(els); i++ {
			idx := i + 1
			if typ == '%' {
				idx = i/2 + 1
			}
			if i > 0 {
				out = append(out, prefix...)
			}
			num := strconv.Itoa(idx)
			out = append(out, spaces(idxlen-len(num))...)
			out = append(out, num...)
			out = append(out, sep, ' ')
			out = els[i].appendCLI3(out, sub)
			if typ == '%' && i+1 < len(els) {
				i++
				out = append(out[:len(out)-1], " => "...)
				if els[i].multilineCLI3() {
					out = append(out, '\n')
					out = append(out, sub...)
				}
				out = els[i].appendCLI3(out, sub)
			}
		}
		return out
	}
	return r.appendCLI(out, prefix)
}

// multilineCLI3 is redis-cli's cliIsMultilineValueTTY: a map's value that prints on several
// lines starts on its own line.
func (r Reply) multilineCLI3() bool {
	typ, els := r.resp3View()
	switch typ {
	case '*', '~':
		return len(els) > 1 || len(els) == 1 && els[0].multilineCLI3()
	case '%':
		return len(els) > 2 || len(els) == 2 && els[1].multilineCLI3()
	}
	return false
}
