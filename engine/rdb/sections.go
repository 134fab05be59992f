package rdb

import "encoding/binary"

// Sections splits a DUMP payload into its parts for a picture of it: the type byte, the value's
// body, the 2-byte RDB version and the 8-byte CRC-64 footer. A body that is one RDB string
// (a string value, an intset, a listpack of a hash, set or sorted set, a ziplist or zipmap) is
// split further into the string's header (its length, its integer encoding or its LZF header)
// and its data; a list's quicklist is split into its node count and, per node, its container and
// string. Other bodies (hash tables, skiplists, streams, hash metadata) stay one "value" part.
// It only reads: ok is false when the payload is shorter than a footer or its parts do not parse.

// Section part names.
const (
	PartType      = "type"      // the value's type byte
	PartLen       = "len"       // an RDB length (a string's, a node count, a container)
	PartIntEnc    = "int-enc"   // 0xC0..0xC2: a string stored as an integer
	PartInt       = "int"       // the integer's 1, 2 or 4 little-endian bytes
	PartLZF       = "lzf"       // 0xC3 and the compressed and original lengths
	PartLZFData   = "lzf-data"  // compressed bytes
	PartData      = "data"      // a string's raw bytes
	PartListpack  = "listpack"  // a string's bytes that are a listpack
	PartIntset    = "intset"    // a string's bytes that are an intset
	PartMillis    = "millis"    // an 8-byte little-endian time (a listpackex's minimum TTL)
	PartValue     = "value"     // a body this splitter does not split
	PartVersion   = "version"   // the RDB version, 2 bytes little-endian
	PartChecksum  = "crc64"     // the CRC-64 of everything before it, 8 bytes little-endian
	PartContainer = "container" // a quicklist node's container (1 plain, 2 packed)
)

// Section is one part of a payload: Len bytes from Off.
type Section struct {
	Part string
	Off  int
	Len  int
	// Inner is the part's content as its own format sees it: a listpack's or intset's bytes
	// (decompressed when the string was LZF-compressed: then the LZF data part carries it).
	Inner []byte
	// Holds names Inner's format for LZF data: PartListpack, PartIntset or "" (plain bytes).
	Holds string
	// Value is the number the part stands for: the type byte, a length, an integer, the version.
	Value int64
}

// Dump is a payload split into sections.
type Dump struct {
	Type     byte
	Version  uint16
	Checksum uint64
	Sections []Section
}

// TypeName is the type byte's name as rdb.h spells it, lower-cased and spaced
// (RDB_TYPE_HASH_LISTPACK → "hash listpack"); "" for an unknown byte.
func TypeName(t byte) string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return ""
}

var typeNames = [...]string{
	TypeString:            "string",
	TypeList:              "list",
	TypeSet:               "set",
	TypeZSet:              "zset",
	TypeHash:              "hash",
	TypeZSet2:             "zset 2",
	6:                     "module pre ga",
	TypeModule2:           "module 2",
	TypeHashZipmap:        "hash zipmap",
	TypeListZiplist:       "list ziplist",
	TypeSetIntset:         "set intset",
	TypeZSetZiplist:       "zset ziplist",
	TypeHashZiplist:       "hash ziplist",
	TypeListQuicklist:     "list quicklist",
	TypeStreamListpacks:   "stream listpacks",
	TypeHashListpack:      "hash listpack",
	TypeZSetListpack:      "zset listpack",
	TypeListQuicklist2:    "list quicklist 2",
	TypeStreamListpacks2:  "stream listpacks 2",
	TypeSetListpack:       "set listpack",
	TypeStreamListpacks3:  "stream listpacks 3",
	TypeHashMetadataPre:   "hash metadata pre ga",
	TypeHashListpackExPre: "hash listpack ex pre ga",
	TypeHashMetadata:      "hash metadata",
	TypeHashListpackEx:    "hash listpack ex",
}

// Sections splits payload p (see the comment at the top of this file).
func Sections(p []byte) (d Dump, ok bool) {
	if len(p) < 11 {
		return Dump{}, false
	}
	end := len(p) - 10
	d.Type = p[0]
	d.Version = binary.LittleEndian.Uint16(p[end:])
	d.Checksum = binary.LittleEndian.Uint64(p[end+2:])
	d.Sections = append(d.Sections, Section{Part: PartType, Off: 0, Len: 1, Value: int64(p[0])})
	r := &Reader{B: p[:end], Pos: 1}
	body := func(inner string) { splitString(r, &d, inner) }
	switch d.Type {
	case TypeString, TypeHashZipmap, TypeListZiplist, TypeZSetZiplist, TypeHashZiplist:
		body("")
	case TypeSetIntset:
		body(PartIntset)
	case TypeHashListpack, TypeZSetListpack, TypeSetListpack:
		body(PartListpack)
	case TypeHashListpackEx:
		if r.Need(8) {
			at := r.Pos // read before r.Bytes moves it: Go leaves a field read and a call unordered
			d.Sections = append(d.Sections, Section{Part: PartMillis, Off: at, Len: 8, Value: int64(binary.LittleEndian.Uint64(r.Bytes(8)))})
		}
		body(PartListpack)
	case TypeListQuicklist2:
		n := splitLen(r, &d)
		for i := uint64(0); i < n && r.Err == nil; i++ {
			c := splitLen(r, &d)
			d.Sections[len(d.Sections)-1].Part = PartContainer
			if c == ContainerPacked {
				body(PartListpack)
			} else {
				body("")
			}
		}
	default:
		if end > 1 {
			d.Sections = append(d.Sections, Section{Part: PartValue, Off: 1, Len: end - 1})
		}
		r.Pos = end
	}
	if r.Err != nil || r.Pos != end {
		return Dump{}, false
	}
	d.Sections = append(d.Sections,
		Section{Part: PartVersion, Off: end, Len: 2, Value: int64(d.Version)},
		Section{Part: PartChecksum, Off: end + 2, Len: 8})
	return d, true
}

// splitLen reads an RDB length as a section.
func splitLen(r *Reader, d *Dump) uint64 {
	at := r.Pos
	n := r.Len()
	if r.Err == nil {
		d.Sections = append(d.Sections, Section{Part: PartLen, Off: at, Len: r.Pos - at, Value: int64(n)})
	}
	return n
}

// splitString reads an RDB string as its header and data sections; inner names the data part
// when it is a listpack or intset.
func splitString(r *Reader, d *Dump, inner string) {
	at := r.Pos
	if !r.Need(1) {
		return
	}
	b := r.B[at]
	if b>>6 == 3 && b&0x3f == encLZF {
		r.Pos++
		clen, olen := r.Len(), r.Len()
		if r.Err != nil || clen > uint64(len(r.B)) {
			r.fail()
			return
		}
		d.Sections = append(d.Sections, Section{Part: PartLZF, Off: at, Len: r.Pos - at, Value: int64(olen)})
		r.Pos = at
		s, _, _ := r.String()
		if r.Err != nil {
			return
		}
		d.Sections = append(d.Sections, Section{Part: PartLZFData, Off: r.Pos - int(clen), Len: int(clen), Inner: s, Holds: inner, Value: int64(olen)})
		return
	}
	s, iv, isInt := r.String()
	if r.Err != nil {
		return
	}
	if isInt {
		d.Sections = append(d.Sections,
			Section{Part: PartIntEnc, Off: at, Len: 1, Value: int64(b & 0x3f)},
			Section{Part: PartInt, Off: at + 1, Len: r.Pos - at - 1, Value: iv})
		return
	}
	hdr := r.Pos - at - len(s)
	d.Sections = append(d.Sections, Section{Part: PartLen, Off: at, Len: hdr, Value: int64(len(s))})
	part := PartData
	if inner != "" {
		part = inner
	}
	if len(s) == 0 {
		return
	}
	sec := Section{Part: part, Off: at + hdr, Len: len(s)}
	if inner != "" {
		sec.Inner, sec.Holds = s, inner
	}
	d.Sections = append(d.Sections, sec)
}
