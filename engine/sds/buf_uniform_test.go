package sds

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestUniformPages: Fill shares one read-only page per byte value, every write path copies a
// shared page before changing it, and the flat model stays equal.
func TestUniformPages(t *testing.T) {
	var b Buf
	n := DenseLimit + 5*PageSize + 123
	b.Resize(n)
	b.Fill(PageSize/2, 4*PageSize, 0xff) // partial, 3 whole pages, partial
	flat := make([]byte, n)
	for i := PageSize / 2; i < PageSize/2+4*PageSize; i++ {
		flat[i] = 0xff
	}
	if !b.Equal(flat) {
		t.Fatal("Fill differs")
	}
	if got := b.PagesInUse(); got != 2 { // the two partial pages
		t.Fatalf("pages in use %d", got)
	}
	var c Buf
	c.Resize(n)
	c.Fill(PageSize, PageSize, 0xff)
	if &c.pages[1][0] != &b.pages[1][0] {
		t.Fatal("uniform pages are not shared")
	}
	clone := b.Clone()

	r := rand.New(rand.NewPCG(9, 9))
	for i := 0; i < 3000; i++ {
		switch r.IntN(5) {
		case 0:
			off := r.IntN(n)
			v := byte(r.IntN(3)) * 0x7f
			b.SetAt(off, v)
			flat[off] = v
		case 1:
			off := r.IntN(n - 100)
			p := bytes.Repeat([]byte{byte(r.Uint32())}, r.IntN(100))
			b.WriteAt(p, off)
			copy(flat[off:], p)
		case 2:
			off, k := r.IntN(n-3*PageSize), r.IntN(3*PageSize)
			v := []byte{0, 0xff, 0x55}[r.IntN(3)]
			b.Fill(off, k, v)
			for j := off; j < off+k; j++ {
				flat[j] = v
			}
		case 3:
			if r.IntN(20) == 0 { // cut inside a page, then grow back
				m := n - r.IntN(PageSize)
				b.Resize(m)
				b.Resize(n)
				clear(flat[m:])
			}
		case 4:
			off, k := r.IntN(n), r.IntN(2*PageSize)
			got := make([]byte, k)
			b.ReadAt(got, off)
			want := make([]byte, k)
			if off < n {
				copy(want, flat[off:])
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("ReadAt(%d, %d) differs", off, k)
			}
		}
	}
	if !b.Equal(flat) {
		t.Fatal("content differs from the model")
	}
	// the shared pages themselves were never written
	for v := 0; v < 256; v++ {
		if p := uniform[v].Load(); p != nil && !bytes.Equal(p[:], bytes.Repeat([]byte{byte(v)}, PageSize)) {
			t.Fatalf("uniform page %#x was modified", v)
		}
	}
	// the clone kept its own content
	want := make([]byte, n)
	for i := PageSize / 2; i < PageSize/2+4*PageSize; i++ {
		want[i] = 0xff
	}
	if !clone.Equal(want) {
		t.Fatal("clone changed")
	}
}

func TestRunsAndViews(t *testing.T) {
	var b Buf
	b.Resize(DenseLimit + 3*PageSize)
	b.Fill(0, PageSize, 0xaa)
	b.SetAt(2*PageSize+5, 7)
	type run struct {
		off, n int
		data   bool
		fill   byte
	}
	var got []run
	b.Runs(PageSize-10, 3*PageSize, func(off, n int, data []byte, fill byte) bool {
		got = append(got, run{off, n, data != nil, fill})
		return true
	})
	want := []run{{PageSize - 10, 10, false, 0xaa}, {PageSize, PageSize, false, 0}, {2 * PageSize, PageSize, true, 0}}
	if len(got) != len(want) {
		t.Fatalf("runs %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("run %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	if d, f, ok := b.View(0, PageSize); !ok || d != nil || f != 0xaa {
		t.Fatalf("View uniform = %v %v %v", d != nil, f, ok)
	}
	if _, _, ok := b.View(PageSize-1, 2); ok {
		t.Fatal("View across pages")
	}
	if d, _, ok := b.View(2*PageSize, 8); !ok || d[5] != 7 {
		t.Fatal("View data")
	}
	if d, f, ok := b.View(b.Len()+10, 8); !ok || d != nil || f != 0 {
		t.Fatal("View past the end")
	}
	w := b.WritableView(0, 4)
	w[0] = 1
	if b.At(0) != 1 || b.At(1) != 0xaa || UniformPage(0xaa)[0] != 0xaa {
		t.Fatal("WritableView did not unshare")
	}
	if b.WritableView(b.Len()-2, 4) != nil {
		t.Fatal("WritableView past the end")
	}
	s := Adopt([]byte("abc"))
	if string(s.Bytes()) != "abc" || s.Cap() != 3 {
		t.Fatal("Adopt")
	}
	if p := s.Release(); string(p) != "abc" || s.Len() != 0 {
		t.Fatal("Release")
	}
	if b.Release() != nil || b.Len() != DenseLimit+3*PageSize || b.Cap() != 0 {
		t.Fatal("Release of a paged Buf")
	}
}
