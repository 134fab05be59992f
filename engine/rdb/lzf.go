package rdb

import "errors"

// LZF, the compression of RDB strings (lzf_c.c / lzf_d.c, liblzf 3.6 as Redis builds it:
// HLOG 16, VERY_FAST, not ULTRA_FAST, pointers in the hash table).
//
// The compressed stream is a sequence of
//
//	000LLLLL + L+1 bytes          a literal run of 1..32 bytes
//	LLLooooo oooooooo             a back reference of L+2 = 3..8 bytes, o+1 = 1..8192 back
//	111ooooo LLLLLLLL oooooooo    a back reference of L+9 = 9..264 bytes
//
// The compressor hashes the next three bytes into a 65536-slot table of positions; a slot's
// position is a match when it is less than 8192 bytes back, after the first input byte (the
// C code's `ref > in_data`), and its three bytes equal the current ones. After a match the two
// positions before the match end are hashed again (VERY_FAST). Redis calls it with an output
// limit of len-4 bytes (rdbSaveLzfStringObject) and stores the string plainly when it does not
// fit. Redis leaves the table uninitialised on the stack; this one starts empty, which gives
// the same output unless a stale slot happens to point at a matching position inside the
// current input (not observed in the differential tests).

const (
	lzfHLog   = 16
	lzfHSize  = 1 << lzfHLog
	lzfMaxLit = 1 << 5
	lzfMaxOff = 1 << 13
	lzfMaxRef = 1<<8 + 1<<3
)

func lzfIdx(h uint32) uint32 { return ((h >> (3*8 - lzfHLog)) - h*5) & (lzfHSize - 1) }

// LZFCompress compresses in into at most outLen bytes; nil when it does not fit (lzf_compress
// returning 0).
func LZFCompress(in []byte, outLen int) []byte {
	n := len(in)
	if n == 0 || outLen == 0 {
		return nil
	}
	htab := make([]int32, lzfHSize) // position+1, 0 = empty
	out := make([]byte, outLen+1)
	ip, op := 0, 0
	lit := 0
	op++ // start run
	var hval uint32
	if n >= 2 {
		hval = uint32(in[0])<<8 | uint32(in[1])
	}
	for ip < n-2 {
		hval = hval<<8 | uint32(in[ip+2])
		slot := lzfIdx(hval)
		ref := int(htab[slot]) - 1
		htab[slot] = int32(ip + 1)
		if ref >= 0 && ip-ref-1 < lzfMaxOff && ref > 0 && ref < ip &&
			in[ref+2] == in[ip+2] && in[ref] == in[ip] && in[ref+1] == in[ip+1] {
			off := ip - ref - 1
			l := 2
			maxlen := n - ip - l
			if maxlen > lzfMaxRef {
				maxlen = lzfMaxRef
			}
			if op+3+1 >= outLen {
				b := 0
				if lit == 0 {
					b = 1
				}
				if op-b+3+1 >= outLen {
					return nil
				}
			}
			out[op-lit-1] = byte(lit - 1)
			if lit == 0 {
				op--
			}
			// The C loop first compares up to 16 more bytes without the length bound when
			// maxlen > 16 (so a match may end 1 or 2 bytes past maxlen), then goes on bounded.
			unrolledMiss := false
			if maxlen > 16 {
				for k := 0; k < 16; k++ {
					l++
					if in[ref+l] != in[ip+l] {
						unrolledMiss = true
						break
					}
				}
			}
			if !unrolledMiss {
				for {
					l++
					if l >= maxlen || in[ref+l] != in[ip+l] {
						break
					}
				}
			}
			l -= 2
			ip++
			if l < 7 {
				out[op] = byte(off>>8 + l<<5)
				op++
			} else {
				out[op] = byte(off>>8 + 7<<5)
				out[op+1] = byte(l - 7)
				op += 2
			}
			out[op] = byte(off)
			op++
			lit = 0
			op++
			ip += l + 1
			if ip >= n-2 {
				break
			}
			ip -= 2
			hval = uint32(in[ip])<<8 | uint32(in[ip+1])
			hval = hval<<8 | uint32(in[ip+2])
			htab[lzfIdx(hval)] = int32(ip + 1)
			ip++
			hval = hval<<8 | uint32(in[ip+2])
			htab[lzfIdx(hval)] = int32(ip + 1)
			ip++
		} else {
			if op >= outLen {
				return nil
			}
			op, ip, lit = lzfLiteral(out, in, op, ip, lit)
		}
	}
	if op+3 > outLen {
		return nil
	}
	for ip < n {
		op, ip, lit = lzfLiteral(out, in, op, ip, lit)
	}
	out[op-lit-1] = byte(lit - 1)
	if lit == 0 {
		op--
	}
	return out[:op]
}

// ErrLZF is a compressed string that does not decompress to its stated length.
var ErrLZF = errors.New("Invalid LZF compressed string")

// LZFDecompress is lzf_decompress into exactly outLen bytes.
func LZFDecompress(in []byte, outLen int) ([]byte, error) {
	out := make([]byte, 0, outLen)
	ip := 0
	for ip < len(in) {
		ctrl := int(in[ip])
		ip++
		if ctrl < 1<<5 {
			ctrl++
			if len(out)+ctrl > outLen || ip+ctrl > len(in) {
				return nil, ErrLZF
			}
			out = append(out, in[ip:ip+ctrl]...)
			ip += ctrl
			continue
		}
		l := ctrl >> 5
		ref := len(out) - (ctrl&0x1f)<<8 - 1
		if l == 7 {
			if ip >= len(in) {
				return nil, ErrLZF
			}
			l += int(in[ip])
			ip++
		}
		if ip >= len(in) {
			return nil, ErrLZF
		}
		ref -= int(in[ip])
		ip++
		l += 2
		if len(out)+l > outLen || ref < 0 {
			return nil, ErrLZF
		}
		for k := 0; k < l; k++ {
			out = append(out, out[ref+k])
		}
	}
	if len(out) != outLen {
		return nil, ErrLZF
	}
	return out, nil
}

// lzfLiteral copies in[ip] into the literal run being written at out[op] (lit bytes so far,
// its length byte kept free before it). A run that reaches lzfMaxLit bytes is closed: its
// length byte is written and a new one is kept free. It returns the advanced op, ip and lit.
func lzfLiteral(out, in []byte, op, ip, lit int) (int, int, int) {
	lit++
	out[op] = in[ip]
	op++
	ip++
	if lit == lzfMaxLit {
		out[op-lit-1] = byte(lit - 1)
		lit = 0
		op++
	}
	return op, ip, lit
}
