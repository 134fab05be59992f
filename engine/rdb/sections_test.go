package rdb

import (
	"bytes"
	"encoding/hex"
	"strconv"
	"strings"
	"testing"
)

// DUMP replies of redis-server 7.0.15 (redis-cli --raw DUMP, hex) for SET k 1, HSET h a 1,
// SADD s 1 2 3, RPUSH l a b and SET big to 66 × "a" (LZF-compressed).
var sectionCases = []struct {
	name, hex string
	parts     string // part:len …
	typeName  string
}{
	{"k", "00c0010a002678e7b6d10111fc", "type:1 int-enc:1 int:1 version:2 crc64:8", "string"},
	{"h", "100c0c00000002008161020101ff0a0084a693e8aa17e4db", "type:1 len:1 listpack:12 version:2 crc64:8", "hash listpack"},
	{"s", "0b0e02000000030000000100020003000a00a5025ce26d6e4d1b", "type:1 len:1 intset:14 version:2 crc64:8", "set intset"},
	{"l", "1201020d0d0000000200816102816202ff0a0068eb0a891341bbb1", "type:1 len:1 container:1 len:1 listpack:13 version:2 crc64:8", "list quicklist 2"},
	{"big", "00c3094042016161e035000161610a00fe0c2c642d65ee29", "type:1 lzf:4 lzf-data:9 version:2 crc64:8", "string"},
}

func TestSectionsOfRedisPayloads(t *testing.T) {
	for _, c := range sectionCases {
		p, _ := hex.DecodeString(c.hex)
		d, ok := Sections(p)
		if !ok {
			t.Fatalf("%s: not split", c.name)
		}
		var got []string
		at := 0
		for _, s := range d.Sections {
			if s.Off != at {
				t.Fatalf("%s: %s at %d, want %d (sections must tile the payload)", c.name, s.Part, s.Off, at)
			}
			at += s.Len
			got = append(got, s.Part+":"+strconv.Itoa(s.Len))
		}
		if at != len(p) {
			t.Fatalf("%s: sections cover %d of %d bytes", c.name, at, len(p))
		}
		if g := strings.Join(got, " "); g != c.parts {
			t.Errorf("%s: parts %q, want %q", c.name, g, c.parts)
		}
		if d.Version != 10 || TypeName(d.Type) != c.typeName {
			t.Errorf("%s: version %d type %q", c.name, d.Version, TypeName(d.Type))
		}
		if CRC64(0, p[:len(p)-8]) != d.Checksum {
			t.Errorf("%s: checksum %x is not the footer's", c.name, d.Checksum)
		}
	}
}

func TestSectionsValuesAndInner(t *testing.T) {
	p, _ := hex.DecodeString(sectionCases[1].hex)
	d, _ := Sections(p)
	lp := d.Sections[2]
	if !bytes.Equal(lp.Inner, p[lp.Off:lp.Off+lp.Len]) || lp.Holds != PartListpack {
		t.Fatalf("listpack inner %x holds %q", lp.Inner, lp.Holds)
	}
	p, _ = hex.DecodeString(sectionCases[0].hex)
	if d, _ := Sections(p); d.Sections[2].Value != 1 {
		t.Fatalf("int value %d", d.Sections[2].Value)
	}
	p, _ = hex.DecodeString(sectionCases[4].hex)
	d, _ = Sections(p)
	if z := d.Sections[2]; string(z.Inner) != strings.Repeat("a", 66) || z.Value != 66 {
		t.Fatalf("lzf inner %q (%d)", z.Inner, z.Value)
	}
}

func TestSectionsRefuseBrokenPayloads(t *testing.T) {
	p, _ := hex.DecodeString(sectionCases[1].hex)
	for n := 0; n < len(p)-10; n++ { // a body cut short no longer ends at the footer
		q := append(append([]byte(nil), p[:n]...), p[len(p)-10:]...)
		if _, ok := Sections(q); ok {
			t.Fatalf("cut to %d body bytes: split anyway", n)
		}
	}
}
