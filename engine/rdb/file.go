package rdb

import (
	"encoding/binary"
	"fmt"
	"strconv"
)

// An RDB file (rdb.c rdbSaveRio / rdbLoadRioWithLoadingCtx), as SAVE, BGSAVE, DEBUG RELOAD and an
// AOF rewrite's preamble write it:
//
//	"REDIS" + the RDB version as 4 decimal digits ("REDIS0012" for 7.4)
//	AUX fields (0xFA, name string, value string): redis-ver, redis-bits, ctime, used-mem, aof-base
//	one FUNCTION2 record (0xF5, the library code as a string) per function library
//	per non-empty database: SELECTDB (0xFE, index), RESIZEDB (0xFB, key count, expires count),
//	then per key: [EXPIRETIME_MS (0xFC, 8 bytes LE)] [IDLE (0xF8, seconds) | FREQ (0xF9, 1 byte)]
//	type byte, key string, value
//	EOF (0xFF), then the CRC-64 of everything before it, 8 bytes LE (zeros with rdbchecksum no)
//
// Older files may carry EXPIRETIME (0xFD, 4 bytes LE seconds); cluster nodes write SLOT_INFO
// (0xF4, slot, key count, expires count) before each slot's keys; MODULE_AUX (0xF7) needs the
// module that wrote it.

// File opcodes (rdb.h RDB_OPCODE_*).
const (
	OpSlotInfo     = 244
	OpFunction2    = 245
	OpFunctionPre  = 246
	OpModuleAux    = 247
	OpIdle         = 248
	OpFreq         = 249
	OpAux          = 250
	OpResizeDB     = 251
	OpExpireTimeMs = 252
	OpExpireTime   = 253
	OpSelectDB     = 254
	OpEOF          = 255
)

// FileHeader starts a file of RDB version v ("REDIS0012").
func (w *Writer) FileHeader(v uint16) { w.B = fmt.Appendf(w.B, "REDIS%04d", v) }

// Aux is rdbSaveAuxField: both strings go through rdbSaveRawString (an integer value is stored
// int-encoded).
func (w *Writer) Aux(name, val string) {
	w.Type(OpAux)
	w.String([]byte(name))
	w.String([]byte(val))
}

// AuxInt is rdbSaveAuxFieldStrInt.
func (w *Writer) AuxInt(name string, v int64) { w.Aux(name, strconv.FormatInt(v, 10)) }

// FileFooter writes EOF and the checksum of everything before it (0 when checksum is false).
func (w *Writer) FileFooter(checksum bool) {
	w.Type(OpEOF)
	var sum uint64
	if checksum {
		sum = CRC64(0, w.B)
	}
	w.B = binary.LittleEndian.AppendUint64(w.B, sum)
}

// FileVersion checks the 9-byte header of an RDB file and returns its version; ok is false when
// the magic is wrong (rdbLoad: "Wrong signature trying to load DB from file").
func FileVersion(b []byte) (v int, ok bool) {
	if len(b) < 9 || string(b[:5]) != "REDIS" {
		return 0, false
	}
	for _, c := range b[5:9] {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}

// CheckFileCRC reports whether the 8 bytes after the EOF opcode at eof (its offset) are the
// CRC-64 of b[:eof+1] or zero (a file written with rdbchecksum no), as rdbLoad checks from RDB
// version 5 on.
func CheckFileCRC(b []byte, eof int) bool {
	if eof+9 > len(b) {
		return false
	}
	want := binary.LittleEndian.Uint64(b[eof+1 : eof+9])
	return want == 0 || want == CRC64(0, b[:eof+1])
}

// Uint32LE reads 4 bytes little-endian (EXPIRETIME's seconds).
func (r *Reader) Uint32LE() uint32 {
	p := r.Bytes(4)
	if p == nil {
		return 0
	}
	return binary.LittleEndian.Uint32(p)
}
