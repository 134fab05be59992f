// Package rdb is the RDB value format as DUMP, RESTORE, DEBUG RELOAD and DEBUG OBJECT's
// serializedlength use it (rdb.c, rdb.h, cluster.c createDumpPayload / verifyDumpPayload):
// the length and string encodings, LZF, CRC-64 and the DUMP payload frame. It knows bytes, not
// Redis objects; the engine (engine/rdb.go) maps its objects onto these primitives.
//
// Lengths (rdbSaveLen): 00xxxxxx for 0..63 (1 byte), 01xxxxxx xxxxxxxx for up to 16383 (2 bytes,
// big-endian 14 bits), 0x80 + 4 bytes big-endian up to 2^32-1, 0x81 + 8 bytes big-endian beyond.
// A first byte 11xxxxxx introduces an encoded string: 0xC0 int8, 0xC1 int16 LE, 0xC2 int32 LE,
// 0xC3 LZF (compressed length, original length, data).
//
// Strings (rdbSaveRawString): up to 11 bytes that are a canonical integer fitting 32 bits are
// stored as 0xC0..0xC2 + 1, 2 or 4 bytes ("12345" → C1 39 30); longer than 20 bytes they are
// LZF-compressed when rdbcompression is yes and the result is at least 4 bytes shorter; else
// length + bytes.
//
// A DUMP payload is the value's type byte, the value, the RDB version as 2 bytes LE (7.0: 10,
// 7.2: 11, 7.4 and 8.x: 12) and the CRC-64 of all that, 8 bytes LE: `SET k 1` then DUMP k gives
// 00 C0 01 0A 00 + 8 checksum bytes.
package rdb

import (
	"encoding/binary"
	"errors"
	"math"
	"strconv"
)

// Value type bytes (rdb.h RDB_TYPE_*).
const (
	TypeString            = 0
	TypeList              = 1
	TypeSet               = 2
	TypeZSet              = 3
	TypeHash              = 4
	TypeZSet2             = 5
	TypeModule2           = 7
	TypeHashZipmap        = 9
	TypeListZiplist       = 10
	TypeSetIntset         = 11
	TypeZSetZiplist       = 12
	TypeHashZiplist       = 13
	TypeListQuicklist     = 14
	TypeStreamListpacks   = 15
	TypeHashListpack      = 16
	TypeZSetListpack      = 17
	TypeListQuicklist2    = 18
	TypeStreamListpacks2  = 19
	TypeSetListpack       = 20 // 7.2
	TypeStreamListpacks3  = 21 // 7.2
	TypeHashMetadataPre   = 22 // 7.4 release candidates
	TypeHashListpackExPre = 23
	TypeHashMetadata      = 24 // 7.4
	TypeHashListpackEx    = 25 // 7.4
)

// Quicklist node containers (RDB_TYPE_LIST_QUICKLIST_2).
const (
	ContainerPlain  = 1
	ContainerPacked = 2
)

const (
	encInt8  = 0
	encInt16 = 1
	encInt32 = 2
	encLZF   = 3
)

// Writer builds RDB bytes. Compress is the rdbcompression setting.
type Writer struct {
	B        []byte
	Compress bool
}

// Type writes a type byte.
func (w *Writer) Type(t byte) { w.B = append(w.B, t) }

// Len is rdbSaveLen.
func (w *Writer) Len(n uint64) {
	switch {
	case n < 1<<6:
		w.B = append(w.B, byte(n))
	case n < 1<<14:
		w.B = append(w.B, byte(n>>8)|0x40, byte(n))
	case n <= math.MaxUint32:
		w.B = append(w.B, 0x80)
		w.B = binary.BigEndian.AppendUint32(w.B, uint32(n))
	default:
		w.B = append(w.B, 0x81)
		w.B = binary.BigEndian.AppendUint64(w.B, n)
	}
}

// encodeInt is rdbEncodeInteger: 0 bytes when v does not fit 32 bits.
func (w *Writer) encodeInt(v int64) bool {
	switch {
	case v >= math.MinInt8 && v <= math.MaxInt8:
		w.B = append(w.B, 0xC0|encInt8, byte(v))
	case v >= math.MinInt16 && v <= math.MaxInt16:
		w.B = append(w.B, 0xC0|encInt16, byte(v), byte(v>>8))
	case v >= math.MinInt32 && v <= math.MaxInt32:
		w.B = append(w.B, 0xC0|encInt32, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
	default:
		return false
	}
	return true
}

// String is rdbSaveRawString.
func (w *Writer) String(s []byte) {
	if len(s) <= 11 {
		if v, ok := strictInt(s); ok && w.encodeInt(v) {
			return
		}
	}
	if w.Compress && len(s) > 20 {
		if c := LZFCompress(s, len(s)-4); c != nil && len(s) > 4 {
			w.LZFBlob(c, len(s))
			return
		}
	}
	w.Len(uint64(len(s)))
	w.B = append(w.B, s...)
}

// LZFBlob is rdbSaveLzfBlob: already compressed data.
func (w *Writer) LZFBlob(c []byte, origLen int) {
	w.B = append(w.B, 0xC0|encLZF)
	w.Len(uint64(len(c)))
	w.Len(uint64(origLen))
	w.B = append(w.B, c...)
}

// Int is rdbSaveLongLongAsStringObject (an int-encoded string object).
func (w *Writer) Int(v int64) {
	if w.encodeInt(v) {
		return
	}
	s := strconv.AppendInt(nil, v, 10)
	w.Len(uint64(len(s)))
	w.B = append(w.B, s...)
}

// Double is rdbSaveBinaryDoubleValue: 8 bytes LE.
func (w *Writer) Double(f float64) {
	w.B = binary.LittleEndian.AppendUint64(w.B, math.Float64bits(f))
}

// Millis is rdbSaveMillisecondTime: 8 bytes LE.
func (w *Writer) Millis(ms int64) { w.B = binary.LittleEndian.AppendUint64(w.B, uint64(ms)) }

// Raw appends bytes as they are.
func (w *Writer) Raw(b []byte) { w.B = append(w.B, b...) }

// strictInt is string2ll (no leading +, no leading zeros, no spaces, "-0" refused).
func strictInt(s []byte) (int64, bool) {
	if len(s) == 0 || len(s) > 20 {
		return 0, false
	}
	if len(s) > 1 && (s[0] == '0' || (s[0] == '-' && (s[1] == '0'))) {
		return 0, false
	}
	for i, c := range s {
		if (c < '0' || c > '9') && !(i == 0 && c == '-' && len(s) > 1) {
			return 0, false
		}
	}
	v, err := strconv.ParseInt(string(s), 10, 64)
	return v, err == nil
}

// ErrFormat is any payload that does not parse (RESTORE answers "Bad data format").
var ErrFormat = errors.New("bad data format")

// Reader reads RDB bytes; the first error sticks.
type Reader struct {
	B   []byte
	Pos int
	Err error
}

func (r *Reader) fail() { r.Err = ErrFormat }

// Need reports whether n more bytes are there (failing the reader if not).
func (r *Reader) Need(n int) bool {
	if r.Err != nil {
		return false
	}
	if n < 0 || r.Pos+n > len(r.B) {
		r.fail()
		return false
	}
	return true
}

// Byte reads one byte.
func (r *Reader) Byte() byte {
	if !r.Need(1) {
		return 0
	}
	r.Pos++
	return r.B[r.Pos-1]
}

// Bytes reads n raw bytes (aliasing the input).
func (r *Reader) Bytes(n int) []byte {
	if !r.Need(n) {
		return nil
	}
	r.Pos += n
	return r.B[r.Pos-n : r.Pos]
}

// lenOrEnc is rdbLoadLen with its isencoded result.
func (r *Reader) lenOrEnc() (n uint64, encoded bool) {
	b := r.Byte()
	if r.Err != nil {
		return 0, false
	}
	switch b >> 6 {
	case 0:
		return uint64(b & 0x3f), false
	case 1:
		return uint64(b&0x3f)<<8 | uint64(r.Byte()), false
	case 3:
		return uint64(b & 0x3f), true
	}
	switch b {
	case 0x80:
		if p := r.Bytes(4); p != nil {
			return uint64(binary.BigEndian.Uint32(p)), false
		}
	case 0x81:
		if p := r.Bytes(8); p != nil {
			return binary.BigEndian.Uint64(p), false
		}
	default:
		r.fail()
	}
	return 0, false
}

// Len is rdbLoadLen (an encoded-string marker is an error here).
func (r *Reader) Len() uint64 {
	n, enc := r.lenOrEnc()
	if enc {
		r.fail()
		return 0
	}
	return n
}

// String is rdbGenericLoadStringObject: the bytes (a fresh copy for LZF and integers), and
// the integer when the string was stored int-encoded.
func (r *Reader) String() (s []byte, iv int64, isInt bool) {
	n, enc := r.lenOrEnc()
	if r.Err != nil {
		return nil, 0, false
	}
	if !enc {
		if n > uint64(len(r.B)) {
			r.fail()
			return nil, 0, false
		}
		return r.Bytes(int(n)), 0, false
	}
	switch n {
	case encInt8, encInt16, encInt32:
		p := r.Bytes(1 << n) // a signed little-endian integer of 1, 2 or 4 bytes
		if p == nil {
			return nil, 0, false
		}
		var u uint32
		for i := len(p) - 1; i >= 0; i-- {
			u = u<<8 | uint32(p[i])
		}
		shift := 32 - 8*len(p)
		v := int64(int32(u<<shift) >> shift)
		return strconv.AppendInt(nil, v, 10), v, true
	case encLZF:
		clen := r.Len()
		olen := r.Len()
		if r.Err != nil || clen > uint64(len(r.B)) || olen > 1<<32 {
			r.fail()
			return nil, 0, false
		}
		c := r.Bytes(int(clen))
		if c == nil {
			return nil, 0, false
		}
		out, err := LZFDecompress(c, int(olen))
		if err != nil {
			r.fail()
			return nil, 0, false
		}
		return out, 0, false
	}
	r.fail()
	return nil, 0, false
}

// Double is rdbLoadBinaryDoubleValue.
func (r *Reader) Double() float64 {
	p := r.Bytes(8)
	if p == nil {
		return 0
	}
	return math.Float64frombits(binary.LittleEndian.Uint64(p))
}

// Millis is rdbLoadMillisecondTime.
func (r *Reader) Millis() int64 {
	p := r.Bytes(8)
	if p == nil {
		return 0
	}
	return int64(binary.LittleEndian.Uint64(p))
}

// Wrap appends the DUMP footer (version and CRC-64) to a type byte + value.
func Wrap(body []byte, version uint16) []byte {
	out := append(body, byte(version), byte(version>>8))
	return binary.LittleEndian.AppendUint64(out, CRC64(0, out))
}

// Verify is verifyDumpPayload: the body without the footer, or false when the payload is
// shorter than 10 bytes, its version is above maxVersion or (unless skipCRC) its checksum is
// wrong.
func Verify(p []byte, maxVersion uint16, skipCRC bool) (body []byte, version uint16, ok bool) {
	if len(p) < 10 {
		return nil, 0, false
	}
	f := p[len(p)-10:]
	version = uint16(f[0]) | uint16(f[1])<<8
	if version > maxVersion {
		return nil, version, false
	}
	if !skipCRC && CRC64(0, p[:len(p)-8]) != binary.LittleEndian.Uint64(f[2:]) {
		return nil, version, false
	}
	return p[:len(p)-10], version, true
}
