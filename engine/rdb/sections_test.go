package rdb

import (
	"bytes"
	"encoding/hex"
	"strconv"
	"strings"
	"testing"

	"redscope/engine/listpack"
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

// tiles splits a payload of Redis's and checks that its sections tile it, start to end, and
// that the footer is its CRC-64; it returns the parts as "part:len" words.
func tiles(t *testing.T, name, hexPayload string) (Dump, string) {
	t.Helper()
	p, _ := hex.DecodeString(hexPayload)
	d, ok := Sections(p)
	if !ok {
		t.Fatalf("%s: not split", name)
	}
	var got []string
	at := 0
	for _, s := range d.Sections {
		if s.Off != at {
			t.Fatalf("%s: %s at %d, want %d (sections must tile the payload)", name, s.Part, s.Off, at)
		}
		at += s.Len
		got = append(got, s.Part+":"+strconv.Itoa(s.Len))
	}
	if at != len(p) {
		t.Fatalf("%s: sections cover %d of %d bytes", name, at, len(p))
	}
	if CRC64(0, p[:len(p)-8]) != d.Checksum {
		t.Errorf("%s: checksum %x is not the footer's", name, d.Checksum)
	}
	return d, strings.Join(got, " ")
}

func TestSectionsOfRedisPayloads(t *testing.T) {
	for _, c := range sectionCases {
		d, g := tiles(t, c.name, c.hex)
		if g != c.parts {
			t.Errorf("%s: parts %q, want %q", c.name, g, c.parts)
		}
		if d.Version != 10 || TypeName(d.Type) != c.typeName {
			t.Errorf("%s: version %d type %q", c.name, d.Version, TypeName(d.Type))
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

// DUMP replies of redis-server 7.4.1 (RDB version 12): HSET h a 1 b 2 with HPEXPIREAT h
// 4102444800000 FIELDS 1 a (a listpackex: the minimum TTL, then field, value, TTL triples), SADD
// ss x y (a set listpack), ZADD z 1 m, and a 130-field hash whose listpack is LZF-compressed.
var sections74 = []struct {
	name, hex, parts, typeName string
}{
	{"h", "1900d8c32cbb0300001d1d00000006008161020101f400d8c32cbb0300000981620202010001ff0c0045a4795c939a9c04",
		"type:1 millis:8 len:1 listpack:29 version:2 crc64:8", "hash listpack ex"},
	{"ss", "140d0d0000000200817802817902ff0c00be39d2d8d04de04a", "type:1 len:1 listpack:13 version:2 crc64:8", "set listpack"},
	{"z", "110c0c0000000200816d020101ff0c00ed95c95d2757f082", "type:1 len:1 listpack:12 version:2 crc64:8", "zset listpack"},
}

func TestSectionsOfRedis74Payloads(t *testing.T) {
	for _, c := range sections74 {
		d, g := tiles(t, c.name, c.hex)
		if g != c.parts || d.Version != 12 || TypeName(d.Type) != c.typeName {
			t.Errorf("%s: %q v%d %q", c.name, g, d.Version, TypeName(d.Type))
		}
	}
	p, _ := hex.DecodeString(sections74[0].hex)
	if d, _ := Sections(p); d.Sections[1].Value != 4102444800000 {
		t.Errorf("min TTL %d", d.Sections[1].Value)
	}
	// HSET hh f1 v1 … f130 v130 (7.4.1's hash-max-listpack-entries is 512 here): the listpack
	// is LZF-compressed; its data part holds the unpacked listpack, 260 entries.
	p, _ = hex.DecodeString(hashLZF74)
	d, ok := Sections(p)
	if !ok || len(d.Sections) != 5 || d.Sections[1].Part != PartLZF || d.Sections[2].Part != PartLZFData {
		t.Fatalf("lzf hash: %v %+v", ok, d.Sections)
	}
	z := d.Sections[2]
	lp, err := listpack.FromBytes(z.Inner)
	if err != nil || z.Holds != PartListpack || lp.Len() != 260 || int64(len(z.Inner)) != z.Value {
		t.Fatalf("lzf hash: holds %q, %v, %d bytes (%d)", z.Holds, err, len(z.Inner), z.Value)
	}
}

const hashLZF74 = "10c343d945470b470500000401826631038276200301663220072003016633200720030166342007200301663520072003016636200720030166372007200301663820072003016639200708390383663130048376400402663131400920040266313240092004026631334009200402663134400920040266313540092004026631364009200402663137400920040266313840092004026631394009200401663240634004016632205e00764004016632205e00764004016632205e00764004016632205e00764004016632205e00764004016632205e00764004016632205e00764004016632205e00764004016632205e0076400401663340634004016633406340040166334063400401663340634004016633406340040166334063400401663340634004016633406340040166334063400401663340634004016634406340040166344063400401663440634004016634406340040166344063400401663440634004016634406340040166344063400401663440634004016634406340040166354063400401663540634004016635406340040166354063400401663540634004016635406340040166354063400401663540634004016635406340040166354063400401663640634004016636406340040166364063400401663640634004016636406340040166364063400401663640634004016636406340040166364063400401663640634004016637406340040166374063400401663740634004016637406340040166374063400401663740634004016637406340040166374063400401663740634004016637406340040166384063400401663840634004016638406340040166384063400401663840634004016638406340040166384063400401663840634004016638406340040166384063400401663940634004016639406340040166394063400401663940634004016639406340040166394063400401663940634004016639406340040166394063400401663940632004008423830230058423842005200b0031600b2005200b0032600b2005200b0033600b2005200b0034600b2005200b0035600b2005200b0036600b2005200b0037600b2005200b0038600b2005200b0039600b200523f1207123f22005200b2071200b2005200b2071200b2005200b2071200b2005200b2071200b2005200b2071200b2005200b2071200b2005200b2071200b2005200b2071200b2005200b2071200b2005245f207124602005200b2071200b2005200b2071200b2005200b2071200b2005200b2071200b2005200b2071200b2005200b2071200b2005200b2071200b2005200b2071200b2005200b2071200b200524cd207124ce023005ff0c00e98ed3576016cc7b"
