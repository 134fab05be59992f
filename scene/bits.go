package scene

import (
	"math/bits"

	"redscope/engine"
	"redscope/engine/sds"
)

// bitsScene draws a string as rows of 8 bits, most significant first (bit offset N is byte N/8, bit
// N%8 from the left), and what the step's bit commands did to it, from their trace events:
//   - SETBIT/GETBIT: the bit touched, and the bytes the string grew by;
//   - BITCOUNT/BITPOS (engine.BitScanEvent): the range scanned, the set bits counted or the bit
//     found (-1: none);
//   - BITFIELD (engine.BitfieldEvent): each k-bit cell framed over the bit rows, across byte
//     boundaries, with its value before and after and the overflow outcome;
//   - BITOP (engine.BitopEvent): the source keys' rows stacked above the destination's, the bit
//     columns whose result is 1 lit through every row;
//   - a long string: a strip of its whole length with the bytes shown and the bit far away, the
//     zero bytes in between, MEMORY USAGE against what the engine really stores;
//   - the watched keys' MEMORY USAGE side by side (the attendance bitmap against the set).
type bitsScene struct {
	Key      string
	Info     engine.KeyInfo
	First    int64  // offset of the first byte of Data
	Data     []byte // bytes shown: at most bitsWindow around the focus
	Head     []byte // the first bytes of the string when the window starts further on
	Stored   int64  // bytes the engine stores for the string (a long one: its allocated pages)
	Touched  []engine.BitEvent
	Fields   []engine.BitfieldEvent // the last BITFIELD ops on Key (at most maxFieldMarks)
	FieldOps int                    // BITFIELD ops on Key in the step
	Scan     *engine.BitScanEvent   // the last BITCOUNT/BITPOS on Key
	Op       *bitopView             // the step's last BITOP
	Mem      []memBar               // the watched keys' MEMORY USAGE, when worth comparing
	allMem   []memBar               // every watched key's, drawn when the stage has room
	GrewFrom int64                  // bytes [GrewFrom, GrewTo) were added by the step
	GrewTo   int64
	Count    bool   // the last command was BITCOUNT: light the set bits counted
	Reply    string // the last reply
	Cmd      string
	Error    bool     // the last reply is an error
	Deleted  []string // keys the step deleted
	lang     string
	lay      bitsLayout // where the last Frame put the cells (tests read it)
	watch    []string   // the watched keys (the start card names them)
	fit      fitter     // the zoom that fills the stage (layout.go)
}

// bitopView is what the scene shows of a BITOP: the first bytes of every source (zero-padded)
// and of the result.
type bitopView struct {
	Op      string
	Dest    string
	Sources []string
	Inputs  [][]byte // per source, bitopShow bytes at most
	Result  []byte
	Len     int  // the result's length (the reply)
	Deleted bool // every source was empty: the destination was deleted
}

// memBar is one watched key's measured size.
type memBar struct {
	Key, Type, Encoding string
	Memory              int64
}

const (
	// bitsWindow is how many bytes the scene shows at most.
	bitsWindow = 16
	// bitsHead is how many of the first bytes are shown above the gap when the window is far.
	bitsHead = 2
	// bitopShow is the most bytes of a BITOP shown per row.
	bitopShow = 8
	// maxFieldMarks is the most BITFIELD cells framed (a bulk BITFIELD writes thousands).
	maxFieldMarks = 6
	// maxBitopRows is the most source rows drawn.
	maxBitopRows = 6
	// memCompareMin: the memory bars appear when a watched key is at least this big.
	memCompareMin = 64 << 10
)

// Update implements Scene.
func (s *bitsScene) Update(in Input) {
	s.fit.reset()
	*s = bitsScene{lang: in.Lang, GrewFrom: -1, GrewTo: -1}
	s.watch = in.Keys
	if name, x := lastCmd(in.Last); x != nil {
		s.Count = name == "bitcount"
		s.Reply, s.Cmd, s.Error = x.Reply, x.Cmd, x.Error
	}
	var bop *engine.BitopEvent
	for i := range in.Last {
		for _, ev := range in.Last[i].Events {
			if b, ok := ev.(engine.BitopEvent); ok {
				bop = &b
			}
		}
	}
	s.Key = bitsFocusKey(in)
	if bop != nil {
		s.Op = newBitopView(in.Engine, bop)
		s.Key = bop.Dest
	}
	s.memBars(in)
	for _, x := range in.Last {
		for _, ev := range x.Events {
			if k, ok := ev.(engine.KeyEvent); ok && k.Action == "deleted" {
				s.Deleted = append(s.Deleted, k.Key)
			}
		}
	}
	if s.Key == "" {
		return
	}
	s.Info = in.Engine.Inspect(s.Key)
	for _, x := range in.Last {
		for _, ev := range x.Events {
			switch ev := ev.(type) {
			case engine.BitEvent:
				if ev.Key == s.Key {
					s.Touched = append(s.Touched, ev)
				}
			case engine.BitfieldEvent:
				if ev.Key == s.Key {
					s.FieldOps++
					if len(s.Fields) == maxFieldMarks {
						copy(s.Fields, s.Fields[1:])
						s.Fields = s.Fields[:maxFieldMarks-1]
					}
					s.Fields = append(s.Fields, ev)
				}
			case engine.BitScanEvent:
				if ev.Key == s.Key {
					sc := ev
					s.Scan = &sc
				}
			case engine.SDSEvent:
				if ev.Key == s.Key && ev.After.Len > ev.Before.Len {
					if s.GrewFrom < 0 {
						s.GrewFrom = int64(ev.Before.Len)
					}
					s.GrewTo = int64(ev.After.Len)
				}
			}
		}
	}
	o := in.Engine.Peek([]byte(s.Key))
	if o == nil || o.Type != engine.TypeString {
		return
	}
	n := int64(o.StringLen())
	s.Stored = n
	if o.Enc == engine.EncRaw && o.Buf.Cap() == 0 && o.Buf.Len() > sds.DenseLimit {
		s.Stored = int64(o.Buf.PagesInUse()) * sds.PageSize
	}
	s.First = bitsFirst(n, s.focusByte())
	read := func(from, cnt int64) []byte {
		if cnt <= 0 {
			return nil
		}
		if o.Enc == engine.EncInt {
			return append([]byte(nil), o.StringBytes()[from:from+cnt]...)
		}
		p := make([]byte, cnt)
		o.Buf.ReadAt(p, int(from))
		return p
	}
	s.Data = read(s.First, min(n-s.First, bitsWindow))
	if s.First > 0 {
		s.Head = read(0, min(bitsHead, s.First))
	}
}

// bitsFocusKey is the string key the step worked on last (a bit, field, scan, sds or key event),
// else the first watched key holding a string, else the first watched key.
func bitsFocusKey(in Input) string {
	isString := func(k string) bool {
		o := in.Engine.Peek([]byte(k))
		return o != nil && o.Type == engine.TypeString
	}
	for i := len(in.Last) - 1; i >= 0; i-- {
		evs := in.Last[i].Events
		for j := len(evs) - 1; j >= 0; j-- {
			var k string
			switch ev := evs[j].(type) {
			case engine.BitEvent:
				k = ev.Key
			case engine.BitfieldEvent:
				k = ev.Key
			case engine.BitScanEvent:
				k = ev.Key
			case engine.SDSEvent:
				k = ev.Key
			case engine.KeyEvent:
				k = ev.Key
				if ev.Action == "deleted" || ev.Action == "expired" {
					continue
				}
			}
			if k != "" && isString(k) {
				return k
			}
		}
	}
	for _, k := range in.Keys {
		if isString(k) {
			return k
		}
	}
	if len(in.Keys) > 0 {
		return in.Keys[0]
	}
	return ""
}

// focusByte is the byte the window keeps in view: the bit touched last, else the last BITFIELD
// cell, else the bit BITPOS found (or the start of the range scanned), else 0.
func (s *bitsScene) focusByte() int64 {
	switch {
	case len(s.Touched) > 0:
		return s.Touched[len(s.Touched)-1].Byte
	case len(s.Fields) > 0:
		return s.Fields[len(s.Fields)-1].Offset >> 3
	case s.Scan != nil && s.Scan.Cmd == "bitpos" && s.Scan.Result >= 0 && !s.Scan.Past:
		return s.Scan.Result >> 3
	case s.Scan != nil:
		return s.Scan.First >> 3
	}
	return 0
}

func newBitopView(e *engine.Engine, ev *engine.BitopEvent) *bitopView {
	v := &bitopView{Op: ev.Op, Dest: ev.Dest, Sources: ev.Sources, Len: ev.ResultLen, Deleted: ev.Deleted}
	n := min(ev.ResultLen, bitopShow)
	peek := func(key string) []byte {
		p := make([]byte, n)
		if o := e.Peek([]byte(key)); o != nil && o.Type == engine.TypeString {
			if o.Enc == engine.EncInt {
				copy(p, o.StringBytes())
			} else {
				o.Buf.ReadAt(p, 0)
			}
		}
		return p
	}
	for i, k := range ev.Sources {
		if ev.Inputs != nil && i < len(ev.Inputs) {
			v.Inputs = append(v.Inputs, append([]byte(nil), ev.Inputs[i][:n]...))
		} else {
			v.Inputs = append(v.Inputs, peek(k))
		}
	}
	if ev.Result != nil {
		v.Result = append([]byte(nil), ev.Result[:n]...)
	} else {
		v.Result = peek(ev.Dest)
	}
	return v
}

// memBars measures the watched keys when one of them is big enough to make the comparison
// worth drawing (the attendance bitmap and set, a bit at a far offset).
func (s *bitsScene) memBars(in Input) {
	var bars []memBar
	var top int64
	for _, k := range in.Keys {
		ki := in.Engine.Inspect(k)
		if !ki.Exists || ki.Memory < 0 {
			continue
		}
		bars = append(bars, memBar{Key: k, Type: ki.Type, Encoding: ki.Encoding, Memory: ki.Memory})
		top = max(top, ki.Memory)
	}
	if len(bars) >= 2 && top >= memCompareMin {
		s.Mem = bars[:min(len(bars), 4)]
	}
	s.allMem = bars[:min(len(bars), 4)]
}

// bitsFirst is the first byte of the window shown for a string of n bytes whose byte focus was
// touched last: the start when it fits, else a window that keeps focus visible, aligned to 8.
func bitsFirst(n, focus int64) int64 {
	if n <= bitsWindow || focus < bitsWindow/2 {
		return 0
	}
	first := (focus - bitsWindow/2) &^ 7
	return max(0, min(first, n-bitsWindow))
}

// fieldSpan is the part of a k-bit field starting at bit offset off that lies in byte b: its
// first and last bit within the byte (0 = most significant), ok=false when it misses the byte.
func fieldSpan(off int64, k int, b int64) (lo, hi int, ok bool) {
	first, last := off, off+int64(k)-1
	if last < b*8 || first > b*8+7 {
		return 0, 0, false
	}
	return int(max(first, b*8) - b*8), int(min(last, b*8+7) - b*8), true
}

// bitopBit is bit i (0 = most significant of byte 0) of p.
func bitopBit(p []byte, i int) bool {
	return i/8 < len(p) && p[i/8]&(0x80>>(i%8)) != 0
}

// onesIn counts the set bits of p (what BITCOUNT over those bytes answers).
func onesIn(p []byte) int {
	n := 0
	for _, b := range p {
		n += bits.OnesCount8(b)
	}
	return n
}
