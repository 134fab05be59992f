package rdb

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

func TestCRC64Check(t *testing.T) {
	if got := CRC64(0, []byte("123456789")); got != 0xe9c6d914c4b8d9ca {
		t.Fatalf("crc64 = %x", got)
	}
}

func TestLZFRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		n := 1 + r.IntN(3000)
		b := make([]byte, n)
		alpha := 1 + r.IntN(20)
		for j := range b {
			b[j] = byte('a' + r.IntN(alpha))
		}
		c := LZFCompress(b, n+64)
		if c == nil {
			t.Fatalf("no output for %d bytes", n)
		}
		d, err := LZFDecompress(c, n)
		if err != nil || !bytes.Equal(d, b) {
			t.Fatalf("round trip failed for %q: %v", b, err)
		}
	}
}

func TestLengthsAndStrings(t *testing.T) {
	w := &Writer{Compress: true}
	w.Len(63)
	w.Len(64)
	w.Len(16384)
	w.Len(1 << 33)
	w.String([]byte("12345"))
	w.String([]byte("-129"))
	w.String([]byte("012"))
	w.String(bytes.Repeat([]byte("a"), 30))
	want := []byte{63, 0x40, 64, 0x80, 0, 0, 0x40, 0, 0x81, 0, 0, 0, 2, 0, 0, 0, 0, 0xC1, 0x39, 0x30, 0xC1, 0x7f, 0xff, 3, '0', '1', '2'}
	if !bytes.Equal(w.B[:len(want)], want) {
		t.Fatalf("got % x", w.B)
	}
	r := &Reader{B: w.B}
	for _, n := range []uint64{63, 64, 16384, 1 << 33} {
		if got := r.Len(); got != n {
			t.Fatalf("len %d read as %d", n, got)
		}
	}
	for _, s := range []string{"12345", "-129", "012", string(bytes.Repeat([]byte("a"), 30))} {
		if got, _, _ := r.String(); string(got) != s || r.Err != nil {
			t.Fatalf("string %q read as %q (%v)", s, got, r.Err)
		}
	}
}
