// Package sds models Redis's simple dynamic strings: the header type, len, alloc and the
// allocation they sit in, plus the byte storage behind them.
//
// An sds is one allocation laid out as [header][bytes][NUL]. The header type follows the length:
//
//	type   header  chosen for length   alloc field
//	sds5   1 B     < 32                none (alloc == len, no spare room)
//	sds8   3 B     < 256               u8
//	sds16  5 B     < 65 536            u16
//	sds32  9 B     < 2^32              u32
//	sds64  17 B    otherwise           u64
//
// Creation is exact: "hello" is sds5, malloc(1+5+1 = 7) → 8 usable. An empty sds is always sds8.
// After any (re)allocation Redis records alloc = usable − header − 1, clamped to the type's maximum.
//
// Growth for appends (sdsMakeRoomFor) is greedy: when the spare room is short, the new length is
// doubled while under 1 MiB (SDS_MAX_PREALLOC) and grown by 1 MiB above it, and sds5 is promoted to
// sds8. So `SET k hello; APPEND k " world"` needs 11 bytes, asks for 22, gets sds8 with malloc(26) →
// 32 usable → alloc 28, avail 17. One thousand 100-byte APPENDs end with a 100 000-byte string in a
// 196 608-byte allocation (8-byte quantum), while one SET of the same bytes takes 114 688.
package sds

import "redscope/engine/alloc"

// Type is an sds header type, named by its length field width.
type Type uint8

const (
	Type5  Type = 5
	Type8  Type = 8
	Type16 Type = 16
	Type32 Type = 32
	Type64 Type = 64
)

// MaxPrealloc is SDS_MAX_PREALLOC: greedy growth doubles below it and adds it above.
const MaxPrealloc = 1 << 20

func (t Type) String() string {
	switch t {
	case Type5:
		return "sds5"
	case Type8:
		return "sds8"
	case Type16:
		return "sds16"
	case Type32:
		return "sds32"
	}
	return "sds64"
}

// HeaderSize is the header's size in bytes.
func (t Type) HeaderSize() int {
	switch t {
	case Type5:
		return 1
	case Type8:
		return 3
	case Type16:
		return 5
	case Type32:
		return 9
	}
	return 17
}

// MaxAlloc is the largest alloc value the type can record.
func (t Type) MaxAlloc() int {
	switch t {
	case Type5:
		return 31
	case Type8:
		return 255
	case Type16:
		return 65535
	case Type32:
		return 1<<32 - 1
	}
	return 1<<62 - 1
}

// ReqType is sdsReqType: the smallest type whose length field holds n.
func ReqType(n int) Type {
	switch {
	case n < 1<<5:
		return Type5
	case n < 1<<8:
		return Type8
	case n < 1<<16:
		return Type16
	case n < 1<<32:
		return Type32
	}
	return Type64
}

// Header is the bookkeeping of one sds: what DEBUG SDSLEN and MEMORY USAGE see.
type Header struct {
	Type   Type
	Len    int // sdslen
	Alloc  int // sdsalloc (== Len for sds5)
	Usable int // malloc_usable_size of the whole allocation (header + alloc + NUL, rounded)
}

// Avail is the spare room at the tail (sdsavail).
func (h Header) Avail() int {
	if h.Type == Type5 {
		return 0
	}
	return h.Alloc - h.Len
}

func (h Header) record(a alloc.Allocator, t Type, length, request int) Header {
	u := a.Usable(request)
	al := length
	if t != Type5 {
		al = u - t.HeaderSize() - 1
		if al > t.MaxAlloc() {
			al = t.MaxAlloc()
		}
	}
	return Header{Type: t, Len: length, Alloc: al, Usable: u}
}

// New is sdsnewlen: an exact allocation for n bytes (sds8 when n == 0).
func New(a alloc.Allocator, n int) Header {
	t := ReqType(n)
	if n == 0 {
		t = Type8
	}
	return Header{}.record(a, t, n, t.HeaderSize()+n+1)
}

// MakeRoomFor is sdsMakeRoomFor (greedy) or sdsMakeRoomForNonGreedy: room for addlen more bytes.
// The length is unchanged; grew reports whether a (re)allocation happened.
func (h Header) MakeRoomFor(a alloc.Allocator, addlen int, greedy bool) (out Header, grew bool) {
	if h.Avail() >= addlen {
		return h, false
	}
	newlen := h.Len + addlen
	if greedy {
		if newlen < MaxPrealloc {
			newlen *= 2
		} else {
			newlen += MaxPrealloc
		}
	}
	t := ReqType(newlen)
	if t == Type5 {
		t = Type8
	}
	out = h.record(a, t, h.Len, t.HeaderSize()+newlen+1)
	return out, true
}

// Resize is sdsResize(s, size, would_regrow): alloc becomes exactly size (len is cut to it).
// With wouldRegrow the type is never sds5. Used by HyperLogLog sparse growth (7.2+) and trimming.
func (h Header) Resize(a alloc.Allocator, size int, wouldRegrow bool) Header {
	if h.Type != Type5 && size == h.Alloc {
		return h
	}
	length := h.Len
	if size < length {
		length = size
	}
	t := ReqType(size)
	if wouldRegrow && t == Type5 {
		t = Type8
	}
	// Redis keeps the old type when shrinking would only save header bytes of a big type
	// (type < oldtype && type > sds8) and reallocates in place.
	if t < h.Type && t > Type8 {
		t = h.Type
	}
	al := size
	if t == Type5 {
		al = length
	}
	return Header{Type: t, Len: length, Alloc: al, Usable: a.Usable(t.HeaderSize() + size + 1)}
}

// WithLen sets the length (after bytes were written into the spare room).
func (h Header) WithLen(n int) Header {
	h.Len = n
	if h.Type == Type5 {
		h.Alloc = n
	}
	return h
}
