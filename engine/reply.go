package engine

import (
	"strconv"
)

// ReplyKind is the RESP type of a reply.
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

// Reply is a command's answer. Str holds status/error text, bulk bytes and the formatted double.
type Reply struct {
	Kind  ReplyKind
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
)

func Status(s string) Reply         { return Reply{Kind: KindStatus, Str: s} }
func Err(s string) Reply            { return Reply{Kind: KindError, Str: s} }
func Int(n int64) Reply             { return Reply{Kind: KindInt, Int: n} }
func Bulk(b []byte) Reply           { return Reply{Kind: KindBulk, Str: string(b)} }
func BulkStr(s string) Reply        { return Reply{Kind: KindBulk, Str: s} }
func Array(items ...Reply) Reply    { return Reply{Kind: KindArray, Array: items} }
func Double(formatted string) Reply { return Reply{Kind: KindDouble, Str: formatted} }

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
