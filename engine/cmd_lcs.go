package engine

// LCS key1 key2 [LEN] [IDX] [MINMATCHLEN len] [WITHMATCHLEN], answering as Redis 7.0.15 does
// (t_string.c lcsCommand; unchanged through 8.x): the classic dynamic-programming table of
// LCS(A[0..i), B[0..j)) lengths, then one walk back from the end that rebuilds the string and
// the matching ranges (the last ranges first). Missing keys count as empty strings; a key of
// another type is "ERR The specified keys must contain string values", checked before the
// options are parsed.
//
// The table has (len1+1)×(len2+1) cells; Redis refuses when its 4-byte cells pass
// proto-max-bulk-len. The engine stores the cells in the narrowest unsigned type that can hold
// min(len1, len2) and, since it may run in a browser, refuses a table above lcsMaxTableBytes
// with the error Redis gives when that allocation fails.

func init() {
	register(&Command{Name: "lcs", Arity: -3, Flags: FlagReadonly, FirstKey: 1, LastKey: 2, Step: 1, Cats: "string", Cost: lcsCost, Fn: cmdLcs})
}

// lcsMaxTableBytes is the largest table the engine allocates (Redis: whatever malloc gives).
const lcsMaxTableBytes = 256 << 20

// lcsCost: LCS fills a table of (len(a)+1)×(len(b)+1) cells whatever its options (and reads
// both strings whole: CommandCost's CopyBytes).
func lcsCost(e *Engine, args [][]byte) Cost {
	if e == nil {
		return Cost{}
	}
	n := func(k []byte) int64 {
		if o := e.Peek(k); o != nil && o.Type == TypeString {
			return int64(o.StringLen())
		}
		return 0
	}
	return Cost{Cells: (n(args[1]) + 1) * (n(args[2]) + 1)}
}

type lcsCell interface{ ~uint8 | ~uint16 | ~uint32 }

// LCS's plain options (MINMATCHLEN takes a value).
const (
	lcsLen = 1 << iota
	lcsIdx
	lcsWithMatchLen
)

var lcsKeywords = []strKeyword{{"len", lcsLen}, {"idx", lcsIdx}, {"withmatchlen", lcsWithMatchLen}}

func cmdLcs(e *Engine, args [][]byte) Reply {
	oa, ob := e.Lookup(args[1]), e.Lookup(args[2])
	if (oa != nil && oa.Type != TypeString) || (ob != nil && ob.Type != TypeString) {
		return Err("ERR The specified keys must contain string values")
	}
	var a, b []byte
	if oa != nil {
		a = oa.StringBytes()
	}
	if ob != nil {
		b = ob.StringBytes()
	}
	var flags int
	var minmatchlen int64
	for j := 3; j < len(args); j++ {
		if f := keywordFlag(args[j], lcsKeywords); f != 0 {
			flags |= f
			continue
		}
		if !eqFold(args[j], "minmatchlen") || j == len(args)-1 {
			return ErrSyntax
		}
		n, ok := string2ll(args[j+1])
		if !ok {
			return ErrNotInt
		}
		minmatchlen = max(n, 0)
		j++
	}
	getlen, getidx, withmatchlen := flags&lcsLen != 0, flags&lcsIdx != 0, flags&lcsWithMatchLen != 0
	if getlen && getidx {
		return Err("ERR If you want both the length and indexes, please just use IDX.")
	}
	if len(a) >= 1<<32-2 || len(b) >= 1<<32-2 {
		return Err("ERR String too long for LCS")
	}
	cells := uint64(len(a)+1) * uint64(len(b)+1)
	if cells*4 > uint64(e.cfg.Int("proto-max-bulk-len")) {
		return Err("ERR Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len")
	}
	short := min(len(a), len(b))
	o := lcsOpts{getlen: getlen, getidx: getidx, withmatchlen: withmatchlen, minmatchlen: minmatchlen}
	switch {
	case short < 1<<8:
		if cells > lcsMaxTableBytes {
			break
		}
		return lcsRun[uint8](a, b, o)
	case short < 1<<16:
		if cells*2 > lcsMaxTableBytes {
			break
		}
		return lcsRun[uint16](a, b, o)
	default:
		if cells*4 > lcsMaxTableBytes {
			break
		}
		return lcsRun[uint32](a, b, o)
	}
	return Err("ERR Insufficient memory, failed allocating transient memory for LCS")
}

type lcsOpts struct {
	getlen, getidx, withmatchlen bool
	minmatchlen                  int64
}

func lcsRun[T lcsCell](a, b []byte, o lcsOpts) Reply {
	alen, blen := len(a), len(b)
	w := blen + 1
	tab := make([]T, (alen+1)*w) // row 0 and column 0 stay 0
	for i := 1; i <= alen; i++ {
		row, prev := tab[i*w:(i+1)*w], tab[(i-1)*w:i*w]
		ai := a[i-1]
		for j := 1; j <= blen; j++ {
			switch {
			case ai == b[j-1]:
				row[j] = prev[j-1] + 1
			case prev[j] > row[j-1]:
				row[j] = prev[j]
			default:
				row[j] = row[j-1]
			}
		}
	}
	at := func(i, j int) T { return tab[i*w+j] }
	total := int64(at(alen, blen))
	if o.getlen && !o.getidx {
		return Int(total)
	}
	idx := int(total)
	result := make([]byte, idx)
	var matches []Reply
	// Ranges are tracked as in Redis: arangeStart == alen means "no range yet".
	arangeStart, arangeEnd, brangeStart, brangeEnd := alen, 0, 0, 0
	i, j := alen, blen
	for i > 0 && j > 0 {
		emit := false
		if a[i-1] == b[j-1] {
			result[idx-1] = a[i-1]
			if arangeStart == alen {
				arangeStart, arangeEnd = i-1, i-1
				brangeStart, brangeEnd = j-1, j-1
			} else if arangeStart == i && brangeStart == j {
				arangeStart--
				brangeStart--
			} else {
				emit = true
			}
			if arangeStart == 0 || brangeStart == 0 {
				emit = true
			}
			idx--
			i--
			j--
		} else {
			if at(i-1, j) > at(i, j-1) {
				i--
			} else {
				j--
			}
			if arangeStart != alen {
				emit = true
			}
		}
		if emit {
			matchLen := int64(arangeEnd - arangeStart + 1)
			if o.getidx && (o.minmatchlen == 0 || matchLen >= o.minmatchlen) {
				m := []Reply{
					Array(Int(int64(arangeStart)), Int(int64(arangeEnd))),
					Array(Int(int64(brangeStart)), Int(int64(brangeEnd))),
				}
				if o.withmatchlen {
					m = append(m, Int(matchLen))
				}
				matches = append(matches, Reply{Kind: KindArray, Array: m})
			}
			arangeStart = alen
		}
	}
	if o.getidx {
		if matches == nil {
			matches = []Reply{}
		}
		return Map(BulkStr("matches"), Reply{Kind: KindArray, Array: matches}, BulkStr("len"), Int(total))
	}
	return Bulk(result)
}
