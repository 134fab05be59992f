package sds

import "sync/atomic"

// Buf holds a string's bytes. Strings up to DenseLimit bytes are one plain slice; longer ones are
// kept in PageSize pages where an all-zero page is not allocated, so `SETBIT huge 4294967295 1`
// describes a 512 MiB string while the process holds one 64 KiB page. The modelled allocation
// (Header) is what MEMORY USAGE reports; Buf is only how the simulator keeps the bytes.
//
// A page may also be a shared, read-only "uniform page" (PageSize copies of one byte, see Fill and
// UniformPage): `BITOP NOT` of a 512 MiB sparse bitmap then holds 8192 pointers to the one 0xFF
// page instead of 512 MiB. Writes copy such a page first. Uniform pages only ever stand for whole
// pages inside the length, so bytes of a page past the length are always zero.
type Buf struct {
	small []byte   // used while paged == nil
	pages [][]byte // nil page = zeros; a uniform page is shared and read-only
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

// uniform holds the shared read-only pages, one per byte value, made on first use.
var uniform [256]atomic.Pointer[[PageSize]byte]

// UniformPage returns the shared read-only page of PageSize copies of v. Callers must not write
// to it.
func UniformPage(v byte) []byte {
	if p := uniform[v].Load(); p != nil {
		return p[:]
	}
	p := new([PageSize]byte)
	if v != 0 {
		for i := range p {
			p[i] = v
		}
	}
	if !uniform[v].CompareAndSwap(nil, p) {
		p = uniform[v].Load()
	}
	return p[:]
}

// uniformOf reports whether page p is a shared uniform page, and its byte.
func uniformOf(p []byte) (byte, bool) {
	if len(p) == 0 {
		return 0, false
	}
	u := uniform[p[0]].Load()
	return p[0], u != nil && &u[0] == &p[0]
}

// writablePage returns page pi ready for writing: a nil page is allocated, a shared uniform page
// copied.
func (b *Buf) writablePage(pi int) []byte {
	p := b.pages[pi]
	if p == nil {
		p = make([]byte, PageSize)
		b.pages[pi] = p
	} else if _, shared := uniformOf(p); shared {
		p = append([]byte(nil), p...)
		b.pages[pi] = p
	}
	return p
}

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
		if _, shared := uniformOf(p); shared {
			c.pages[i] = p
		} else if p != nil {
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
	if p == nil && v == 0 || p != nil && p[i%PageSize] == v {
		return
	}
	b.writablePage(i / PageSize)[i%PageSize] = v
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
		clear(b.pages[np:]) // let dropped pages be collected
		b.pages = b.pages[:np]
		if r := n % PageSize; r != 0 && b.pages[np-1] != nil {
			clear(b.writablePage(np - 1)[r:])
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
		if b.pages[pi] == nil && allZero(p[:n]) {
			p, off = p[n:], off+n
			continue
		}
		copy(b.writablePage(pi)[po:], p[:n])
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
// zeros (data == nil, length n) that was never allocated. fn returns false to stop. data is
// read-only (it may be a shared uniform page).
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

// Runs calls fn for consecutive pieces covering [from, to) (clamped to the length), in order:
// either real bytes (data != nil, read-only) or n bytes all equal to fill (data == nil): a page
// that was never allocated (fill 0) or a shared uniform page. fn returns false to stop. Scans
// that only need counts or positions use it to skip whole pages.
func (b *Buf) Runs(from, to int, fn func(off, n int, data []byte, fill byte) bool) {
	if to > b.Len() {
		to = b.Len()
	}
	if from < 0 {
		from = 0
	}
	if from >= to {
		return
	}
	if !b.paged() {
		fn(from, to-from, b.small[from:to], 0)
		return
	}
	for off := from; off < to; {
		pi, po := off/PageSize, off%PageSize
		k := min(PageSize-po, to-off)
		p := b.pages[pi]
		var cont bool
		if v, shared := uniformOf(p); shared {
			cont = fn(off, k, nil, v)
		} else if p == nil {
			cont = fn(off, k, nil, 0)
		} else {
			cont = fn(off, k, p[po:po+k], 0)
		}
		if !cont {
			return
		}
		off += k
	}
}

// View looks at the n bytes at off without copying, when they lie in one piece of storage: it
// returns either data aliasing the storage (read-only; bytes past the length read as zero) or
// data == nil and the byte that all n bytes equal (past the end, an unallocated page, a uniform
// page). ok is false when the window crosses a page boundary or the end of a small buffer: use
// ReadAt then. Windows aligned to PageSize never cross a page of a paged Buf.
func (b *Buf) View(off, n int) (data []byte, fill byte, ok bool) {
	if off < 0 || n < 0 {
		return nil, 0, false
	}
	if off >= b.Len() {
		return nil, 0, true
	}
	if !b.paged() {
		if off+n > len(b.small) {
			return nil, 0, false
		}
		return b.small[off : off+n], 0, true
	}
	pi, po := off/PageSize, off%PageSize
	if po+n > PageSize {
		return nil, 0, false
	}
	p := b.pages[pi]
	if v, shared := uniformOf(p); shared {
		return nil, v, true
	}
	if p == nil {
		return nil, 0, true
	}
	return p[po : po+n], 0, true
}

// WritableView returns the n bytes at off as a slice aliasing the storage, for writing, when
// they lie inside the length and in one piece of storage (one page of a paged Buf); it allocates
// or unshares that page. It returns nil otherwise.
func (b *Buf) WritableView(off, n int) []byte {
	if off < 0 || n < 0 || off+n > b.Len() {
		return nil
	}
	if !b.paged() {
		return b.small[off : off+n]
	}
	pi, po := off/PageSize, off%PageSize
	if po+n > PageSize {
		return nil
	}
	return b.writablePage(pi)[po : po+n]
}

// Fill sets the n bytes at off to v, growing the buffer if needed. Whole pages of a paged Buf
// become unallocated (v == 0) or point at the shared uniform page of v, so filling 512 MiB
// costs no memory.
func (b *Buf) Fill(off, n int, v byte) {
	if n <= 0 {
		return
	}
	if end := off + n; end > b.Len() {
		b.Resize(end)
	}
	if !b.paged() {
		s := b.small[off : off+n]
		if v == 0 {
			clear(s)
		} else {
			for i := range s {
				s[i] = v
			}
		}
		return
	}
	for n > 0 {
		pi, po := off/PageSize, off%PageSize
		k := min(n, PageSize-po)
		if k == PageSize && off+k <= b.n {
			if v == 0 {
				b.pages[pi] = nil
			} else {
				b.pages[pi] = UniformPage(v)
			}
		} else if p := b.pages[pi]; !(p == nil && v == 0) {
			s := b.writablePage(pi)[po : po+k]
			for i := range s {
				s[i] = v
			}
		}
		off, n = off+k, n-k
	}
}

// Adopt makes a Buf that takes p as its storage without copying when p is small (≤ DenseLimit);
// a longer p is copied into pages. The caller must not use p afterwards.
func Adopt(p []byte) Buf {
	if len(p) <= DenseLimit {
		return Buf{small: p}
	}
	return FromBytes(p)
}

// Cap is the capacity of a small Buf's storage (0 for a paged Buf).
func (b *Buf) Cap() int {
	if b.paged() {
		return 0
	}
	return cap(b.small)
}

// Release hands the storage of a small Buf to the caller for reuse and leaves b empty; it
// returns nil (and leaves b alone) for a paged Buf.
func (b *Buf) Release() []byte {
	if b.paged() {
		return nil
	}
	p := b.small
	b.small = nil
	return p
}

// PagesInUse counts the pages that hold private memory (not unallocated, not shared uniform
// pages); 0 for a small buffer. Tests use it to check that sparse values stay sparse.
func (b *Buf) PagesInUse() int {
	c := 0
	for _, p := range b.pages {
		if _, shared := uniformOf(p); p != nil && !shared {
			c++
		}
	}
	return c
}

// Adopt makes p the content without copying it (the caller hands p over and must not use it
// afterwards except through b). Content longer than DenseLimit is stored paged.
func (b *Buf) Adopt(p []byte) {
	*b = Buf{small: p}
	if len(p) > DenseLimit {
		b.toPaged()
	}
}
