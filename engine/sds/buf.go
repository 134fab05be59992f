package sds

// Buf holds a string's bytes. Strings up to DenseLimit bytes are one plain slice; longer ones are
// kept in PageSize pages where an all-zero page is not allocated, so `SETBIT huge 4294967295 1`
// describes a 512 MiB string while the process holds one 64 KiB page. The modelled allocation
// (Header) is what MEMORY USAGE reports; Buf is only how the simulator keeps the bytes.
type Buf struct {
	small []byte   // used while paged == nil
	pages [][]byte // nil page = zeros
	n     int      // length when paged
}

const (
	PageSize   = 64 << 10
	DenseLimit = 1 << 20
)

// FromBytes copies p into a new Buf.
func FromBytes(p []byte) Buf {
	var b Buf
	b.Append(p)
	return b
}

func (b *Buf) paged() bool { return b.pages != nil }

// Len is the number of bytes.
func (b *Buf) Len() int {
	if b.paged() {
		return b.n
	}
	return len(b.small)
}

// Bytes returns the whole content. For small buffers it aliases the storage: callers that keep
// it past the next write must copy.
func (b *Buf) Bytes() []byte {
	if !b.paged() {
		return b.small
	}
	out := make([]byte, b.n)
	b.ReadAt(out, 0)
	return out
}

// Copy returns a fresh copy of the content.
func (b *Buf) Copy() []byte {
	if !b.paged() {
		return append([]byte(nil), b.small...)
	}
	return b.Bytes()
}

// Clone returns an independent Buf with the same content.
func (b *Buf) Clone() Buf {
	if !b.paged() {
		return Buf{small: append([]byte(nil), b.small...)}
	}
	c := Buf{n: b.n, pages: make([][]byte, len(b.pages))}
	for i, p := range b.pages {
		if p != nil {
			c.pages[i] = append([]byte(nil), p...)
		}
	}
	return c
}

// At returns byte i, or 0 past the end.
func (b *Buf) At(i int) byte {
	if i < 0 || i >= b.Len() {
		return 0
	}
	if !b.paged() {
		return b.small[i]
	}
	p := b.pages[i/PageSize]
	if p == nil {
		return 0
	}
	return p[i%PageSize]
}

// SetAt writes byte i, which must be < Len().
func (b *Buf) SetAt(i int, v byte) {
	if !b.paged() {
		b.small[i] = v
		return
	}
	p := b.pages[i/PageSize]
	if p == nil {
		if v == 0 {
			return
		}
		p = make([]byte, PageSize)
		b.pages[i/PageSize] = p
	}
	p[i%PageSize] = v
}

// Resize sets the length to n: growing zero-fills, shrinking truncates.
func (b *Buf) Resize(n int) {
	if !b.paged() {
		if n <= DenseLimit {
			if n <= len(b.small) {
				b.small = b.small[:n]
				return
			}
			if n <= cap(b.small) {
				old := len(b.small)
				b.small = b.small[:n]
				clear(b.small[old:])
				return
			}
			grown := make([]byte, n, max(n, 2*cap(b.small)))
			copy(grown, b.small)
			b.small = grown
			return
		}
		b.toPaged()
	}
	np := (n + PageSize - 1) / PageSize
	if n < b.n { // shrink: drop pages and zero the tail of the last one
		b.pages = b.pages[:np]
		if r := n % PageSize; r != 0 && b.pages[np-1] != nil {
			clear(b.pages[np-1][r:])
		}
	} else {
		for len(b.pages) < np {
			b.pages = append(b.pages, nil)
		}
	}
	b.n = n
}

func (b *Buf) toPaged() {
	old := b.small
	b.small = nil
	b.n = len(old)
	b.pages = make([][]byte, (len(old)+PageSize-1)/PageSize)
	if len(b.pages) == 0 {
		b.pages = [][]byte{}
	}
	for i := range b.pages {
		chunk := old[i*PageSize : min(len(old), (i+1)*PageSize)]
		if !allZero(chunk) {
			p := make([]byte, PageSize)
			copy(p, chunk)
			b.pages[i] = p
		}
	}
}

func allZero(p []byte) bool {
	for _, c := range p {
		if c != 0 {
			return false
		}
	}
	return true
}

// WriteAt copies p to offset off, growing the buffer if needed.
func (b *Buf) WriteAt(p []byte, off int) {
	if end := off + len(p); end > b.Len() {
		b.Resize(end)
	}
	if !b.paged() {
		copy(b.small[off:], p)
		return
	}
	for len(p) > 0 {
		pi, po := off/PageSize, off%PageSize
		n := min(len(p), PageSize-po)
		if b.pages[pi] == nil {
			if allZero(p[:n]) {
				p, off = p[n:], off+n
				continue
			}
			b.pages[pi] = make([]byte, PageSize)
		}
		copy(b.pages[pi][po:], p[:n])
		p, off = p[n:], off+n
	}
}

// Append adds p at the end.
func (b *Buf) Append(p []byte) {
	if !b.paged() && len(b.small)+len(p) <= DenseLimit {
		b.small = append(b.small, p...)
		return
	}
	b.WriteAt(p, b.Len())
}

// ReadAt copies bytes from offset off into dst (zeros past the end); it returns len(dst).
func (b *Buf) ReadAt(dst []byte, off int) int {
	n := len(dst)
	l := b.Len()
	if !b.paged() {
		c := 0
		if off < l {
			c = copy(dst, b.small[off:])
		}
		clear(dst[c:])
		return n
	}
	for len(dst) > 0 {
		if off >= l {
			clear(dst)
			break
		}
		pi, po := off/PageSize, off%PageSize
		k := min(len(dst), PageSize-po, l-off)
		if p := b.pages[pi]; p != nil {
			copy(dst[:k], p[po:po+k])
		} else {
			clear(dst[:k])
		}
		dst, off = dst[k:], off+k
	}
	return n
}

// Chunks calls fn for consecutive pieces covering [from, to): either real bytes, or a run of
// zeros (data == nil, length n) that was never allocated. fn returns false to stop.
func (b *Buf) Chunks(from, to int, fn func(off int, data []byte, n int) bool) {
	if to > b.Len() {
		to = b.Len()
	}
	if from >= to {
		return
	}
	if !b.paged() {
		fn(from, b.small[from:to], to-from)
		return
	}
	for off := from; off < to; {
		pi, po := off/PageSize, off%PageSize
		k := min(PageSize-po, to-off)
		var cont bool
		if p := b.pages[pi]; p != nil {
			cont = fn(off, p[po:po+k], k)
		} else {
			cont = fn(off, nil, k)
		}
		if !cont {
			return
		}
		off += k
	}
}

// Equal reports whether the content equals p.
func (b *Buf) Equal(p []byte) bool {
	if b.Len() != len(p) {
		return false
	}
	if !b.paged() {
		return string(b.small) == string(p)
	}
	eq := true
	b.Chunks(0, b.n, func(off int, data []byte, n int) bool {
		if data == nil {
			eq = allZero(p[off : off+n])
		} else {
			eq = string(data) == string(p[off:off+n])
		}
		return eq
	})
	return eq
}
