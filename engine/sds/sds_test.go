package sds

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"redscope/engine/alloc"
)

func TestAppendGrowth(t *testing.T) {
	a := alloc.Jemalloc
	h := New(a, 5) // SET k hello: raw "hello" (after unsharing) is sds5
	if h.Type != Type5 || h.Usable != 8 {
		t.Fatalf("new hello = %+v", h)
	}
	h, grew := h.MakeRoomFor(a, 6, true)
	h = h.WithLen(11)
	if !grew || h.Type != Type8 || h.Alloc != 28 || h.Avail() != 17 || h.Usable != 32 {
		t.Fatalf("after append = %+v", h)
	}
	// 1000 appends of 100 bytes reach 100 000 bytes in a 196 608-byte allocation.
	h = New(a, 100)
	for i := 1; i < 1000; i++ {
		h, _ = h.MakeRoomFor(a, 100, true)
		h = h.WithLen(h.Len + 100)
	}
	if h.Len != 100000 || h.Usable != 196608 {
		t.Fatalf("after 1000 appends = %+v", h)
	}
	if got := New(a, 100000).Usable; got != 114688 {
		t.Fatalf("exact 100000 = %d", got)
	}
}

func TestBufPagedMatchesFlat(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var b Buf
	var flat []byte
	for i := 0; i < 2000; i++ {
		switch r.IntN(4) {
		case 0:
			off := r.IntN(3 * DenseLimit)
			p := make([]byte, r.IntN(300))
			for j := range p {
				p[j] = byte(r.IntN(3)) // many zeros
			}
			b.WriteAt(p, off)
			if end := off + len(p); end > len(flat) {
				flat = append(flat, make([]byte, end-len(flat))...)
			}
			copy(flat[off:], p)
		case 1:
			if len(flat) > 0 {
				i := r.IntN(len(flat))
				v := byte(r.IntN(256))
				b.SetAt(i, v)
				flat[i] = v
			}
		case 2:
			n := r.IntN(3 * DenseLimit)
			b.Resize(n)
			if n < len(flat) {
				flat = flat[:n]
			} else {
				flat = append(flat, make([]byte, n-len(flat))...)
			}
		case 3:
			p := []byte("abc")
			b.Append(p)
			flat = append(flat, p...)
		}
		if b.Len() != len(flat) {
			t.Fatalf("len %d vs %d", b.Len(), len(flat))
		}
	}
	if !bytes.Equal(b.Bytes(), flat) || !b.Equal(flat) {
		t.Fatal("content differs")
	}
	off := len(flat) / 3
	dst := make([]byte, 1000)
	b.ReadAt(dst, off)
	if !bytes.Equal(dst, flat[off:off+1000]) {
		t.Fatal("ReadAt differs")
	}
}

func TestHugeSparse(t *testing.T) {
	var b Buf
	b.Resize(1 << 29)
	b.SetAt(1<<29-1, 1)
	allocated := 0
	for _, p := range b.pages {
		if p != nil {
			allocated++
		}
	}
	if b.Len() != 1<<29 || allocated != 1 || b.At(1<<29-1) != 1 {
		t.Fatalf("len %d pages %d", b.Len(), allocated)
	}
}
