package listpack

import (
	"errors"
	"math"
	"slices"
	"strconv"

	"redscope/engine/alloc"
)

// Layout constants.
const (
	HeaderSize    = 6       // total bytes u32 + count u16
	EOF           = 0xFF    // terminator byte
	NumUnknown    = 65535   // count field value meaning "walk to count"
	MaxSafetySize = 1 << 30 // LISTPACK_MAX_SAFETY_SIZE: lpSafeToAdd refuses to grow past 1 GiB
	emptySize     = HeaderSize + 1
	maxIntEncLen  = 9
)

// Encoding is the encoding of one entry.
type Encoding uint8

const (
	EncInvalid Encoding = iota
	EncUint7
	EncStr6
	EncInt13
	EncStr12
	EncInt16
	EncInt24
	EncInt32
	EncInt64
	EncStr32
	EncEOF
)

var encNames = [...]string{"invalid", "7bit-uint", "6bit-str", "13bit-int", "12bit-str",
	"16bit-int", "24bit-int", "32bit-int", "64bit-int", "32bit-str", "eof"}

func (e Encoding) String() string {
	if int(e) < len(encNames) {
		return encNames[e]
	}
	return "invalid"
}

// IsInt reports whether the encoding holds an integer.
func (e Encoding) IsInt() bool {
	switch e {
	case EncUint7, EncInt13, EncInt16, EncInt24, EncInt32, EncInt64:
		return true
	}
	return false
}

// Where selects the insertion point relative to an entry.
type Where uint8

const (
	Before Where = iota
	After
	Replace
)

// Kind names what a Change did.
type Kind uint8

const (
	KindNone Kind = iota
	KindInsert
	KindReplace
	KindDelete
	KindDeleteRange
	KindTruncate // DeleteRange reaching the end: EOF written in place, nothing moved
	KindMerge
)

var kindNames = [...]string{"none", "insert", "replace", "delete", "delete-range", "truncate", "merge"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "?"
}

// Change describes one mutation for the visualizer.
type Change struct {
	Kind     Kind
	Offset   int      // byte offset of the inserted/replaced entry or of the first deleted one
	Added    int      // bytes of the new entry (encoding + data + backlen); 0 for deletes
	Removed  int      // bytes of the replaced/deleted entries
	Entries  int      // entries inserted (1) or deleted (n); 0 for a replace
	Moved    int      // bytes shifted by memmove (the tail after the edit point, EOF included)
	Copied   int      // bytes copied by memcpy (merge)
	OldTotal int      // total bytes before
	NewTotal int      // total bytes after
	Realloc  bool     // Redis calls realloc (grow past usable with lp.Alloc's classes, or shrink)
	Enc      Encoding // encoding of the new entry
	Failed   bool     // refused: the total would exceed 2^32−1 (lpInsert returns NULL)
}

// Work counts the bytes an operation touched, cumulatively.
type Work struct {
	Scanned  int64 // bytes of entries walked over by Seek/Find/Next-style scans and range deletes
	Moved    int64 // bytes shifted by memmove or copied by memcpy
	Compared int64 // entries compared by Find/Compare
}

// Listpack is a listpack held as its exact bytes.
type Listpack struct {
	b     []byte // len(b) == total bytes
	req   int    // size of the last malloc/realloc request
	Alloc alloc.Allocator
	Work  Work
}

// New is lpNew(0): a 7-byte empty listpack, malloc(7).
func New() *Listpack { return NewCap(0) }

// NewCap is lpNew(capacity): the allocation is max(capacity, 7) bytes.
func NewCap(capacity int) *Listpack {
	lp := &Listpack{b: make([]byte, emptySize, max(emptySize, min(capacity, 1<<16)))}
	lp.b[0] = emptySize
	lp.b[HeaderSize] = EOF
	lp.req = max(capacity, emptySize)
	return lp
}

// ErrCorrupt is returned by FromBytes/Validate for an invalid listpack.
var ErrCorrupt = errors.New("listpack: invalid encoding")

// FromBytes copies b after a deep validation (lpValidateIntegrity with deep=1). The allocation is
// modelled as exactly len(b), as after an RDB load.
func FromBytes(b []byte) (*Listpack, error) {
	if err := Validate(b, true); err != nil {
		return nil, err
	}
	return &Listpack{b: slices.Clone(b), req: len(b)}, nil
}

// Clone returns an independent copy (same allocation model, fresh counters).
func (lp *Listpack) Clone() *Listpack {
	return &Listpack{b: slices.Clone(lp.b), req: lp.req, Alloc: lp.Alloc}
}

// Bytes returns the listpack's bytes (shared, do not modify).
func (lp *Listpack) Bytes() []byte { return lp.b }

// TotalBytes is lpBytes.
func (lp *Listpack) TotalBytes() int { return len(lp.b) }

// Usable is malloc_usable_size of the listpack's allocation under a.
func (lp *Listpack) Usable(a alloc.Allocator) int { return a.Usable(lp.req) }

// AllocRequest is the size of the last allocation request (for the visualizer).
func (lp *Listpack) AllocRequest() int { return lp.req }

// SafeToAdd is lpSafeToAdd: false when adding add bytes would pass 1 GiB.
func (lp *Listpack) SafeToAdd(add int) bool {
	n := 0
	if lp != nil {
		n = len(lp.b)
	}
	return n+add <= MaxSafetySize
}

func (lp *Listpack) headerCount() int { return int(lp.b[4]) | int(lp.b[5])<<8 }

func (lp *Listpack) setHeaderCount(n int) {
	lp.b[4] = byte(n)
	lp.b[5] = byte(n >> 8)
}

func (lp *Listpack) setTotal(n int) {
	lp.b[0] = byte(n)
	lp.b[1] = byte(n >> 8)
	lp.b[2] = byte(n >> 16)
	lp.b[3] = byte(n >> 24)
}

// HeaderCount is the raw count field (65535 = unknown).
func (lp *Listpack) HeaderCount() int { return lp.headerCount() }

// Len is lpLength: the header count, or a walk when it is 65535 — in which case the header is
// rewritten if the walked count fits, exactly as Redis does.
func (lp *Listpack) Len() int {
	if n := lp.headerCount(); n != NumUnknown {
		return n
	}
	count := 0
	for p := lp.First(); p >= 0; p = lp.Next(p) {
		count++
	}
	if count < NumUnknown {
		lp.setHeaderCount(count)
	}
	return count
}

// ---------------------------------------------------------------------------------------------
// Encoding helpers

// StringToInt64 is lpStringToInt64 / string2ll: a strict decimal int64 of at most 20 bytes, no
// '+', no spaces, no leading zeros, "-0" rejected.
func StringToInt64(s []byte) (int64, bool) {
	n := len(s)
	if n == 0 || n >= 21 {
		return 0, false
	}
	if n == 1 && s[0] == '0' {
		return 0, true
	}
	i := 0
	neg := s[0] == '-'
	if neg {
		i = 1
		if n == 1 {
			return 0, false
		}
	}
	if s[i] < '1' || s[i] > '9' {
		return 0, false
	}
	var v uint64
	for ; i < n; i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		d := uint64(c - '0')
		if v > math.MaxUint64/10 {
			return 0, false
		}
		v *= 10
		if v > math.MaxUint64-d {
			return 0, false
		}
		v += d
	}
	if neg {
		if v > 1<<63 {
			return 0, false
		}
		return int64(-v), true
	}
	if v > math.MaxInt64 {
		return 0, false
	}
	return int64(v), true
}

// encodeInt writes the integer encoding of v (without backlen) into buf and returns its length.
func encodeInt(buf *[maxIntEncLen]byte, v int64) (int, Encoding) {
	switch {
	case v >= 0 && v <= 127:
		buf[0] = byte(v)
		return 1, EncUint7
	case v >= -4096 && v <= 4095:
		u := uint64(v) & 0x1FFF
		buf[0] = 0xC0 | byte(u>>8)
		buf[1] = byte(u)
		return 2, EncInt13
	case v >= math.MinInt16 && v <= math.MaxInt16:
		u := uint64(v)
		buf[0], buf[1], buf[2] = 0xF1, byte(u), byte(u>>8)
		return 3, EncInt16
	case v >= -(1<<23) && v <= 1<<23-1:
		u := uint64(v)
		buf[0], buf[1], buf[2], buf[3] = 0xF2, byte(u), byte(u>>8), byte(u>>16)
		return 4, EncInt24
	case v >= math.MinInt32 && v <= math.MaxInt32:
		u := uint64(v)
		buf[0], buf[1], buf[2], buf[3], buf[4] = 0xF3, byte(u), byte(u>>8), byte(u>>16), byte(u>>24)
		return 5, EncInt32
	}
	u := uint64(v)
	buf[0] = 0xF4
	for i := 0; i < 8; i++ {
		buf[1+i] = byte(u >> (8 * i))
	}
	return 9, EncInt64
}

// strEncLen is the encoding+data length of a string stored as a string.
func strEncLen(n int) (int, Encoding) {
	switch {
	case n < 64:
		return 1 + n, EncStr6
	case n < 4096:
		return 2 + n, EncStr12
	}
	return 5 + n, EncStr32
}

// BacklenSize is lpEncodeBacklen(NULL, l).
func BacklenSize(l int) int {
	switch {
	case l <= 127:
		return 1
	case l < 16383:
		return 2
	case l < 2097151:
		return 3
	case l < 268435455:
		return 4
	}
	return 5
}

func putBacklen(dst []byte, l int) {
	n := BacklenSize(l)
	u := uint64(l)
	dst[0] = byte(u >> (7 * uint(n-1))) // left-most byte: no continuation flag
	for i := 1; i < n; i++ {
		dst[i] = byte(u>>(7*uint(n-1-i)))&127 | 128
	}
}

// EntrySize is the full size (encoding + data + backlen) the element s would take.
func EntrySize(s []byte) int {
	var l int
	if v, ok := StringToInt64(s); ok {
		var buf [maxIntEncLen]byte
		l, _ = encodeInt(&buf, v)
	} else {
		l, _ = strEncLen(len(s))
	}
	return l + BacklenSize(l)
}

// EntrySizeInt is the full size an integer entry takes.
func EntrySizeInt(v int64) int {
	var buf [maxIntEncLen]byte
	l, _ := encodeInt(&buf, v)
	return l + 1
}

// ---------------------------------------------------------------------------------------------
// Decoding

// encodedSize returns the encoding+data length of the entry at p (1 for EOF), or 0 when the
// encoding byte is invalid or the entry's length bytes lie outside the buffer.
func encodedSize(b []byte, p int) (int, Encoding) {
	if p < 0 || p >= len(b) {
		return 0, EncInvalid
	}
	c := b[p]
	switch {
	case c&0x80 == 0:
		return 1, EncUint7
	case c&0xC0 == 0x80:
		return 1 + int(c&0x3F), EncStr6
	case c&0xE0 == 0xC0:
		return 2, EncInt13
	case c&0xF0 == 0xE0:
		if p+1 >= len(b) {
			return 0, EncInvalid
		}
		return 2 + (int(c&0x0F)<<8 | int(b[p+1])), EncStr12
	}
	switch c {
	case 0xF0:
		if p+4 >= len(b) {
			return 0, EncInvalid
		}
		n := uint64(b[p+1]) | uint64(b[p+2])<<8 | uint64(b[p+3])<<16 | uint64(b[p+4])<<24
		return 5 + int(n), EncStr32
	case 0xF1:
		return 3, EncInt16
	case 0xF2:
		return 4, EncInt24
	case 0xF3:
		return 5, EncInt32
	case 0xF4:
		return 9, EncInt64
	case EOF:
		return 1, EncEOF
	}
	return 0, EncInvalid
}

// entrySize is the full size of the entry at p, 0 if invalid or not fully inside the buffer.
func (lp *Listpack) entrySize(p int) int {
	l, enc := encodedSize(lp.b, p)
	if l == 0 || enc == EncEOF {
		return 0
	}
	n := l + BacklenSize(l)
	if p+n >= len(lp.b) { // must leave room for at least the EOF byte
		return 0
	}
	return n
}

// EntrySizeAt is the full size of the entry at p (0 for an invalid position).
func (lp *Listpack) EntrySizeAt(p int) int {
	if p < HeaderSize {
		return 0
	}
	return lp.entrySize(p)
}

// EncodingAt returns the encoding of the entry at p.
func (lp *Listpack) EncodingAt(p int) Encoding {
	if lp.EntrySizeAt(p) == 0 {
		return EncInvalid
	}
	_, enc := encodedSize(lp.b, p)
	return enc
}

// Get is lpGet without intbuf: for a string entry s is the string (pointing into the listpack),
// for an integer entry isInt is true and v holds it. ok is false for an invalid position.
func (lp *Listpack) Get(p int) (s []byte, v int64, isInt bool, ok bool) {
	if lp.EntrySizeAt(p) == 0 {
		return nil, 0, false, false
	}
	b := lp.b
	c := b[p]
	switch {
	case c&0x80 == 0:
		return nil, int64(c), true, true
	case c&0xC0 == 0x80:
		n := int(c & 0x3F)
		return b[p+1 : p+1+n], 0, false, true
	case c&0xE0 == 0xC0:
		u := int64(c&0x1F)<<8 | int64(b[p+1])
		if u >= 1<<12 {
			u -= 1 << 13
		}
		return nil, u, true, true
	case c&0xF0 == 0xE0:
		n := int(c&0x0F)<<8 | int(b[p+1])
		return b[p+2 : p+2+n], 0, false, true
	}
	switch c {
	case 0xF0:
		n := int(uint32(b[p+1]) | uint32(b[p+2])<<8 | uint32(b[p+3])<<16 | uint32(b[p+4])<<24)
		return b[p+5 : p+5+n], 0, false, true
	case 0xF1:
		return nil, int64(int16(uint16(b[p+1]) | uint16(b[p+2])<<8)), true, true
	case 0xF2:
		u := int64(b[p+1]) | int64(b[p+2])<<8 | int64(b[p+3])<<16
		if u >= 1<<23 {
			u -= 1 << 24
		}
		return nil, u, true, true
	case 0xF3:
		return nil, int64(int32(uint32(b[p+1]) | uint32(b[p+2])<<8 | uint32(b[p+3])<<16 | uint32(b[p+4])<<24)), true, true
	case 0xF4:
		var u uint64
		for i := 0; i < 8; i++ {
			u |= uint64(b[p+1+i]) << (8 * i)
		}
		return nil, int64(u), true, true
	}
	return nil, 0, false, false
}

// GetString returns the entry as a string: the bytes inside the listpack for a string entry, or
// the decimal form of an integer appended to buf[:0].
func (lp *Listpack) GetString(p int, buf []byte) []byte {
	s, v, isInt, ok := lp.Get(p)
	if !ok {
		return nil
	}
	if isInt {
		return strconv.AppendInt(buf[:0], v, 10)
	}
	return s
}

// Compare is lpCompare: does the entry at p equal s (integers compared numerically when s is a
// strict integer)?
func (lp *Listpack) Compare(p int, s []byte) bool {
	es, v, isInt, ok := lp.Get(p)
	if !ok {
		return false
	}
	lp.Work.Compared++
	if !isInt {
		return string(es) == string(s)
	}
	sv, ok := StringToInt64(s)
	return ok && sv == v
}

// ---------------------------------------------------------------------------------------------
// Navigation

// First is lpFirst: offset of the first entry or −1.
func (lp *Listpack) First() int {
	if lp.b[HeaderSize] == EOF {
		return -1
	}
	return HeaderSize
}

// Next is lpNext: offset of the entry after p or −1.
func (lp *Listpack) Next(p int) int {
	n := lp.EntrySizeAt(p)
	if n == 0 {
		return -1
	}
	lp.Work.Scanned += int64(n)
	p += n
	if lp.b[p] == EOF {
		return -1
	}
	if lp.entrySize(p) == 0 {
		return -1
	}
	return p
}

// prevFrom returns the offset of the entry that ends just before q (q = entry start or EOF).
func (lp *Listpack) prevFrom(q int) int {
	if q <= HeaderSize || q >= len(lp.b) {
		return -1
	}
	// Decode the backlen ending at q-1.
	var l uint64
	var shift uint
	i := q - 1
	for {
		if i < HeaderSize {
			return -1
		}
		c := lp.b[i]
		l |= uint64(c&127) << shift
		if c&128 == 0 {
			break
		}
		shift += 7
		i--
		if shift > 28 {
			return -1
		}
	}
	full := int(l) + BacklenSize(int(l))
	p := q - full
	if p < HeaderSize || lp.entrySize(p) != full {
		return -1
	}
	lp.Work.Scanned += int64(full)
	return p
}

// Prev is lpPrev: offset of the entry before p or −1.
func (lp *Listpack) Prev(p int) int {
	if p == HeaderSize || lp.EntrySizeAt(p) == 0 {
		return -1
	}
	return lp.prevFrom(p)
}

// Last is lpLast: offset of the last entry or −1.
func (lp *Listpack) Last() int { return lp.prevFrom(len(lp.b) - 1) }

// Seek is lpSeek: the entry at index (negative counts from the tail), or −1 when out of range.
// Like Redis it walks from the nearer end when the count is known.
func (lp *Listpack) Seek(index int) int {
	forward := true
	if n := lp.headerCount(); n != NumUnknown {
		if index < 0 {
			index += n
		}
		if index < 0 || index >= n {
			return -1
		}
		if index > n/2 {
			forward = false
			index -= n
		}
	} else if index < 0 {
		forward = false
	}
	if forward {
		p := lp.First()
		for index > 0 && p >= 0 {
			p = lp.Next(p)
			index--
		}
		return p
	}
	p := lp.Last()
	for index < -1 && p >= 0 {
		p = lp.Prev(p)
		index++
	}
	return p
}

// Find is lpFind: starting at p, compare every (skip+1)-th entry with s and return the first
// match or −1. Hashes call it with skip 1 to look at fields only. An integer entry matches when s
// is a strict integer shorter than 32 bytes with the same value.
func (lp *Listpack) Find(p int, s []byte, skip int) int {
	b := lp.b
	skipcnt := 0
	var sv int64
	vencoding := 0 // 0 = not tried, 1 = integer, -1 = cannot be an integer
	var scanned, compared int64
	defer func() { lp.Work.Scanned += scanned; lp.Work.Compared += compared }()
	if p < HeaderSize {
		return -1
	}
	for p < len(b) && b[p] != EOF {
		l, enc := encodedSize(b, p)
		if l == 0 || enc == EncInvalid {
			return -1
		}
		n := l + BacklenSize(l)
		if p+n >= len(b) {
			return -1
		}
		scanned += int64(n)
		if skipcnt == 0 {
			compared++
			switch enc {
			case EncStr6:
				if l-1 == len(s) && string(b[p+1:p+l]) == string(s) {
					return p
				}
			case EncStr12:
				if l-2 == len(s) && string(b[p+2:p+l]) == string(s) {
					return p
				}
			case EncStr32:
				if l-5 == len(s) && string(b[p+5:p+l]) == string(s) {
					return p
				}
			default:
				if vencoding == 0 {
					vencoding = -1
					if len(s) < 32 && len(s) > 0 {
						if x, ok := StringToInt64(s); ok {
							sv, vencoding = x, 1
						}
					}
				}
				if vencoding == 1 {
					if _, v, _, _ := lp.Get(p); v == sv {
						return p
					}
				}
			}
			skipcnt = skip
		} else {
			skipcnt--
		}
		p += n
	}
	return -1
}

// ---------------------------------------------------------------------------------------------
// Mutation

func (lp *Listpack) growTo(n int) {
	if n > cap(lp.b) {
		lp.b = slices.Grow(lp.b, n-len(lp.b))
	}
	lp.b = lp.b[:n]
}

// resize models lp_realloc around a total change from old to n and reports whether realloc ran.
func (lp *Listpack) resize(old, n int) bool {
	switch {
	case n > old && n > lp.Alloc.Usable(lp.req):
		lp.req = n
		return true
	case n < old:
		lp.req = n
		return true
	}
	return false
}

// compact drops a much larger Go backing array after a big shrink.
func (lp *Listpack) compact() {
	if c := cap(lp.b); c > 4096 && c > 4*len(lp.b) {
		lp.b = slices.Clip(slices.Clone(lp.b))
	}
}

// insert is lpInsert for an insert or a replace of a string (str) or an integer (isInt).
func (lp *Listpack) insert(p int, str []byte, isInt bool, iv int64, where Where) (int, Change) {
	old := len(lp.b)
	if where == After {
		n := lp.EntrySizeAt(p)
		if n == 0 {
			return -1, Change{Failed: true, OldTotal: old, NewTotal: old}
		}
		p += n
		where = Before
	}
	if p < HeaderSize || p >= old || (where == Replace && lp.entrySize(p) == 0) ||
		(where == Before && lp.b[p] != EOF && lp.entrySize(p) == 0) {
		return -1, Change{Failed: true, OldTotal: old, NewTotal: old}
	}
	var ibuf [maxIntEncLen]byte
	var enclen int
	var enc Encoding
	if !isInt {
		if v, ok := StringToInt64(str); ok {
			isInt, iv = true, v
		}
	}
	if isInt {
		enclen, enc = encodeInt(&ibuf, iv)
	} else {
		enclen, enc = strEncLen(len(str))
	}
	bl := BacklenSize(enclen)
	replaced := 0
	if where == Replace {
		replaced = lp.entrySize(p)
	}
	add := enclen + bl
	n := old + add - replaced
	ch := Change{Kind: KindInsert, Offset: p, Added: add, Removed: replaced, Entries: 1,
		OldTotal: old, NewTotal: n, Enc: enc}
	if where == Replace {
		ch.Kind, ch.Entries = KindReplace, 0
	}
	if n > math.MaxUint32 {
		ch.Failed, ch.NewTotal, ch.Kind = true, old, KindNone
		return -1, ch
	}
	ch.Realloc = lp.resize(old, n)
	if n > old {
		lp.growTo(n)
	}
	tail := old - p - replaced
	copy(lp.b[p+add:], lp.b[p+replaced:old])
	if n < old {
		lp.b = lp.b[:n]
	}
	ch.Moved = tail
	lp.Work.Moved += int64(tail)
	if isInt {
		copy(lp.b[p:], ibuf[:enclen])
	} else {
		d := lp.b[p:]
		switch enc {
		case EncStr6:
			d[0] = 0x80 | byte(len(str))
			copy(d[1:], str)
		case EncStr12:
			d[0] = 0xE0 | byte(len(str)>>8)
			d[1] = byte(len(str))
			copy(d[2:], str)
		default:
			l := uint32(len(str))
			d[0], d[1], d[2], d[3], d[4] = 0xF0, byte(l), byte(l>>8), byte(l>>16), byte(l>>24)
			copy(d[5:], str)
		}
	}
	putBacklen(lp.b[p+enclen:], enclen)
	if where != Replace {
		if c := lp.headerCount(); c != NumUnknown {
			lp.setHeaderCount(c + 1)
		}
	}
	lp.setTotal(n)
	if n < old {
		lp.compact()
	}
	return p, ch
}

// Append is lpAppend.
func (lp *Listpack) Append(s []byte) Change {
	_, ch := lp.insert(len(lp.b)-1, s, false, 0, Before)
	return ch
}

// AppendInt is lpAppendInteger.
func (lp *Listpack) AppendInt(v int64) Change {
	_, ch := lp.insert(len(lp.b)-1, nil, true, v, Before)
	return ch
}

// Prepend is lpPrepend.
func (lp *Listpack) Prepend(s []byte) Change {
	_, ch := lp.insert(HeaderSize, s, false, 0, Before)
	return ch
}

// PrependInt is lpPrependInteger.
func (lp *Listpack) PrependInt(v int64) Change {
	_, ch := lp.insert(HeaderSize, nil, true, v, Before)
	return ch
}

// Insert is lpInsertString with Before/After/Replace around the entry at p (Before may also
// target the EOF byte, TotalBytes()−1). It returns the offset of the new entry.
func (lp *Listpack) Insert(p int, s []byte, where Where) (int, Change) {
	return lp.insert(p, s, false, 0, where)
}

// InsertInt is lpInsertInteger.
func (lp *Listpack) InsertInt(p int, v int64, where Where) (int, Change) {
	return lp.insert(p, nil, true, v, where)
}

// Replace is lpReplace: the entry at p becomes s; returns its offset.
func (lp *Listpack) Replace(p int, s []byte) (int, Change) {
	return lp.insert(p, s, false, 0, Replace)
}

// ReplaceInt is lpReplaceInteger.
func (lp *Listpack) ReplaceInt(p int, v int64) (int, Change) {
	return lp.insert(p, nil, true, v, Replace)
}

// Delete is lpDelete: removes the entry at p and returns the offset of the entry that followed it
// (−1 if it was the last).
func (lp *Listpack) Delete(p int) (int, Change) {
	old := len(lp.b)
	sz := lp.EntrySizeAt(p)
	if sz == 0 {
		return -1, Change{Failed: true, OldTotal: old, NewTotal: old}
	}
	n := old - sz
	ch := Change{Kind: KindDelete, Offset: p, Removed: sz, Entries: 1, OldTotal: old, NewTotal: n}
	tail := old - p - sz
	copy(lp.b[p:], lp.b[p+sz:old])
	lp.b = lp.b[:n]
	ch.Moved = tail
	lp.Work.Moved += int64(tail)
	ch.Realloc = lp.resize(old, n)
	if c := lp.headerCount(); c != NumUnknown {
		lp.setHeaderCount(c - 1)
	}
	lp.setTotal(n)
	lp.compact()
	if lp.b[p] == EOF {
		return -1, ch
	}
	return p, ch
}

// shrinkToFit is lpShrinkToFit.
func (lp *Listpack) shrinkToFit() bool {
	if len(lp.b) < lp.Alloc.Usable(lp.req) || len(lp.b) < lp.req {
		lp.req = len(lp.b)
		return true
	}
	return false
}

// ShrinkToFit is lpShrinkToFit: realloc to the exact size when the allocation is larger.
func (lp *Listpack) ShrinkToFit() { lp.shrinkToFit() }

// DeleteRangeAt is lpDeleteRangeWithEntry: deletes up to num entries starting at p. It returns the
// offset of the entry now at p (−1 if none).
func (lp *Listpack) DeleteRangeAt(p int, num int) (int, Change) {
	old := len(lp.b)
	if num <= 0 {
		return p, Change{OldTotal: old, NewTotal: old}
	}
	if lp.EntrySizeAt(p) == 0 {
		return -1, Change{Failed: true, OldTotal: old, NewTotal: old}
	}
	tail := p
	deleted := 0
	for num > 0 {
		num--
		deleted++
		sz := lp.entrySize(tail)
		if sz == 0 {
			break
		}
		tail += sz
		if lp.b[tail] == EOF {
			break
		}
		if lp.entrySize(tail) == 0 {
			break
		}
	}
	removed := tail - p
	lp.Work.Scanned += int64(removed)
	moved := old - tail
	copy(lp.b[p:], lp.b[tail:old])
	n := old - removed
	lp.b = lp.b[:n]
	lp.Work.Moved += int64(moved)
	lp.setTotal(n)
	if c := lp.headerCount(); c != NumUnknown {
		lp.setHeaderCount(c - deleted)
	}
	ch := Change{Kind: KindDeleteRange, Offset: p, Removed: removed, Entries: deleted,
		Moved: moved, OldTotal: old, NewTotal: n}
	ch.Realloc = lp.shrinkToFit()
	lp.compact()
	if lp.b[p] == EOF {
		return -1, ch
	}
	return p, ch
}

// DeleteRange is lpDeleteRange: deletes num entries starting at index (negative from the tail).
// When the count is known and the range reaches the end, Redis just writes EOF at the first
// deleted entry (nothing moves).
func (lp *Listpack) DeleteRange(index int, num int) Change {
	old := len(lp.b)
	if num <= 0 {
		return Change{OldTotal: old, NewTotal: old}
	}
	p := lp.Seek(index)
	if p < 0 {
		return Change{OldTotal: old, NewTotal: old}
	}
	numele := lp.headerCount()
	if numele != NumUnknown && index < 0 {
		index += numele
	}
	if numele != NumUnknown && numele-index <= num {
		lp.b[p] = EOF
		lp.b = lp.b[:p+1]
		lp.setTotal(p + 1)
		lp.setHeaderCount(index)
		ch := Change{Kind: KindTruncate, Offset: p, Removed: old - p - 1, Entries: numele - index,
			OldTotal: old, NewTotal: p + 1}
		ch.Realloc = lp.shrinkToFit()
		lp.compact()
		return ch
	}
	_, ch := lp.DeleteRangeAt(p, num)
	return ch
}

// Merge is lpMerge: appends second to first into the larger of the two (first when sizes tie)
// and returns it; the other one must not be used any more. keptFirst reports which one survived.
// The count is capped at 65535 ("unknown").
func Merge(first, second *Listpack) (merged *Listpack, keptFirst bool, ch Change) {
	if first == nil || second == nil || first == second {
		return nil, false, Change{Failed: true}
	}
	fb, sb := len(first.b), len(second.b)
	fl, sl := first.Len(), second.Len()
	total := fb + sb - HeaderSize - 1
	count := min(fl+sl, NumUnknown)
	if fb >= sb {
		old := fb
		first.growTo(total)
		copy(first.b[fb-1:], second.b[HeaderSize:sb])
		first.req = total
		first.setTotal(total)
		first.setHeaderCount(count)
		first.Work.Moved += int64(sb - HeaderSize)
		return first, true, Change{Kind: KindMerge, Offset: fb - 1, Added: sb - HeaderSize - 1,
			Entries: sl, Copied: sb - HeaderSize, OldTotal: old, NewTotal: total, Realloc: true}
	}
	old := sb
	second.growTo(total)
	copy(second.b[fb-1:], second.b[HeaderSize:sb])
	copy(second.b, first.b[:fb-1])
	second.req = total
	second.setTotal(total)
	second.setHeaderCount(count)
	second.Work.Moved += int64(sb - HeaderSize + fb - 1)
	return second, false, Change{Kind: KindMerge, Offset: HeaderSize, Added: fb - HeaderSize - 1,
		Entries: fl, Moved: sb - HeaderSize, Copied: fb - 1, OldTotal: old, NewTotal: total, Realloc: true}
}

// ---------------------------------------------------------------------------------------------
// Validation

// Validate is lpValidateIntegrity: the header must match len(b) and end with EOF; with deep every
// entry is checked (encoding, bounds, backlen) and the count must match unless it is 65535.
func Validate(b []byte, deep bool) error {
	if len(b) < emptySize {
		return ErrCorrupt
	}
	total := int(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24)
	if total != len(b) || b[len(b)-1] != EOF {
		return ErrCorrupt
	}
	if !deep {
		return nil
	}
	lp := Listpack{b: b}
	count := 0
	p := HeaderSize
	for b[p] != EOF {
		l, enc := encodedSize(b, p)
		if l == 0 || enc == EncInvalid {
			return ErrCorrupt
		}
		bl := BacklenSize(l)
		next := p + l + bl
		if next > len(b)-1 || next < p {
			return ErrCorrupt
		}
		if lp.prevFrom(next) != p {
			return ErrCorrupt
		}
		count++
		p = next
	}
	if p != len(b)-1 {
		return ErrCorrupt
	}
	if n := lp.headerCount(); n != NumUnknown && n != count {
		return ErrCorrupt
	}
	return nil
}
