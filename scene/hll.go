package scene

import (
	"sort"
	"strings"
	"unicode/utf8"

	"redscope/engine"
	"redscope/engine/hll"
)

// HLL draws HyperLogLogs in one of two views.
//
// The register view (one watched key, or no watched set): the key's 16 384 registers as a
// 128 x 128 image (one pixel per register, uploaded in one go and scaled up), the last element's
// 64-bit hash with its 14 index bits and the run of zeros that gives the count, and the encoding:
// while the HLL is sparse, its opcode stream (ZERO / XZERO / VAL, read from the key's bytes by
// engine/hll, the one package that decodes the format) as a strip of one pixel per byte, with a
// gauge of the string's length against hll-sparse-max-bytes (read from the engine's config),
// and the promotion to the 12 KB dense form when a step caused one (engine.HLLPromoteEvent).
//
// The counting view (a watched key holds a set): PFCOUNT's estimate against the exact count.
// Every HLL and set of the database is a row; a watched HLL followed in the watched keys by a
// watched set is compared with that set's SCARD (the truth). When every HLL has its set, each
// pair gets a band chart: the truth, the ±1.04/√16384 (0.81 %) standard-error band around it and
// the estimate. When some HLLs have no set (the days of a week), they are bars, with the sum of
// their counts, and the pairs (the merged week and the set of every viewer) below on the same
// scale. The estimate is the cardinality PFCOUNT cached in the HLL's header (read, never
// recomputed): a row whose cache is stale (PFADD since the last PFCOUNT) shows "?".
type HLL struct {
	Key    string
	Info   engine.KeyInfo
	Regs   [HLLRegisters]uint8
	Valid  bool // the key holds a readable HLL
	Events []engine.HLLEvent
	// NEvents counts the step's elements for the key (Events keeps the last maxHLLMarks).
	NEvents int
	Reply   string
	Cmd     string
	Img     Pixels
	lang    string
	setRegs int // the registers of Regs that are not 0, counted while Update paints them

	// Encoding panel.
	Sparse  bool    // the key is a sparse HLL
	Ops     []HLLOp // its opcodes, in order
	Bytes   int     // the string's length, header included
	Limit   int64   // hll-sparse-max-bytes, from the engine's config
	Promote *engine.HLLPromoteEvent
	// LastRewrite is the step's last sparse rewrite of the key; Rewrites counts them.
	LastRewrite *engine.HLLSparseEvent
	Rewrites    int
	Strip       Pixels // one pixel per byte of the sparse string, HLLStripCols a row

	// Counting view.
	Counting bool
	Rows     []HLLRow
	watch    []string // the watched keys (the start card names them)
	fit      fitter   // the zoom that fills the stage (layout.go)
}

// HLLRow is one key of the counting view.
type HLLRow struct {
	Key    string
	Set    bool   // a set: Count is its SCARD, the exact count
	Count  int64  // HLL: the cardinality cached by PFCOUNT; set: SCARD
	Known  bool   // HLL: the cached cardinality is valid (PFCOUNT ran after the last change)
	Enc    string // HLL: "sparse" or "dense"; set: OBJECT ENCODING
	Memory int64  // MEMORY USAGE
	Truth  int    // HLL: index in Rows of the set it is compared with, or -1
}

// maxHLLMarks caps how many touched registers one step frames on the map.
const maxHLLMarks = 256

// maxCmdChars caps the command text shown beside the map.
const maxCmdChars = 120

// maxHLLRows caps the keys of the counting view.
const maxHLLRows = 16

// shortCmd cuts a long command line for display.
func shortCmd(c string) string {
	// Counted, not converted: []rune of a 7 KB line was a 28 KB copy per command. The cut is at
	// the byte where rune maxCmdChars-1 starts; a line that is not valid UTF-8 there is cut as
	// []rune cuts it (each bad byte becomes U+FFFD).
	n, cut := 0, 0
	for i := range c {
		if n == maxCmdChars-1 {
			cut = i
		}
		if n == maxCmdChars {
			if !utf8.ValidString(c[:cut]) {
				return string([]rune(c)[:maxCmdChars-1]) + "…"
			}
			return c[:cut] + "…"
		}
		n++
	}
	return c
}

// HLLRegisters is m = 2^14.
const HLLRegisters = hll.Registers

// HLLSide is the register map's side: 128 x 128 registers.
const HLLSide = 128

// HLLDenseBytes is a dense HLL's length: 16-byte header + 16 384 × 6 bits.
const HLLDenseBytes = hll.DenseSize

// HLLStdErr is HyperLogLog's standard error with 16 384 registers: 1.04/√16384 = 1.04/128.
const HLLStdErr = 1.04 / 128

// HLLStripCols is how many bytes one row of the sparse strip holds.
const HLLStripCols = 100

// hllStripMax caps the strip's bytes (hll-sparse-max-bytes may be set far higher).
const hllStripMax = 16384

// Opcode kinds of a sparse HLL (engine/hll's).
const (
	OpZero  = hll.OpZero  // 00xxxxxx: 1..64 zero registers
	OpXZero = hll.OpXZero // 01xxxxxx yyyyyyyy: 1..16384 zero registers
	OpVal   = hll.OpVal   // 1vvvvvxx: 1..4 registers of value 1..32
)

// HLLOp is one opcode of a sparse HLL, as engine/hll's Ops walk gives it (hll.Op).
type HLLOp struct {
	Kind  int
	Off   int // byte offset in the string (the header's 16 bytes included)
	First int // first register it covers
	Run   int // registers covered
	Val   int // the registers' value (VAL; 0 for the zero runs)
}

// Len is the opcode's size in bytes.
func (o HLLOp) Len() int { return hll.Op(o).Len() }

// String is the opcode as PFDEBUG DECODE prints it: z:RUN (ZERO), Z:RUN (XZERO), v:VAL,RUN.
func (o HLLOp) String() string { return hll.Op(o).String() }

// sparseOps decodes the opcodes of a sparse HLL string p (header included), appending them to
// dst; false when p is not a valid sparse HLL.
func sparseOps(p []byte, dst []HLLOp) ([]HLLOp, bool) {
	if hll.Recognise(p) != "sparse" {
		return dst, false
	}
	it := hll.Ops(p)
	for it.Next() {
		dst = append(dst, HLLOp(it.Op()))
	}
	return dst, it.Complete()
}

// formatOps writes opcodes as PFDEBUG DECODE does, space separated.
func formatOps(ops []HLLOp) string {
	var b strings.Builder
	for i, o := range ops {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(o.String())
	}
	return b.String()
}

// Update implements Scene.
func (s *HLL) Update(in Input) {
	s.fit.reset()
	gen := s.Img.Gen
	*s = HLL{lang: in.Lang, Img: s.Img, Strip: s.Strip, Ops: s.Ops[:0], Rows: s.Rows[:0], Events: s.Events[:0]}
	s.watch = in.Keys
	s.Img.Gen = gen + 1
	if s.Img.RGBA == nil {
		s.Img = Pixels{W: HLLSide, H: HLLSide, RGBA: make([]byte, 4*HLLRegisters), Gen: gen + 1}
	}
	s.Limit = in.Engine.Config().Int("hll-sparse-max-bytes")
	if s.countingView(in) {
		return
	}
	s.Key = focusKey(in, func(ev engine.Event) bool {
		switch ev.(type) {
		case engine.HLLEvent, engine.HLLPromoteEvent, engine.KeyEvent:
			return true
		}
		return false
	})
	if _, x := lastCmd(in.Last); x != nil {
		s.Reply, s.Cmd = x.Reply, shortCmd(x.Cmd)
	}
	// A PFADD of thousands of elements would frame every register it touched, each frame a
	// draw: keep the most recent ones (walking back), enough to show where the elements landed.
	marks := make([]engine.HLLEvent, 0, maxHLLMarks)
	for i := len(in.Last) - 1; i >= 0; i-- {
		evs := in.Last[i].Events
		for j := len(evs) - 1; j >= 0; j-- {
			switch ev := evs[j].(type) {
			case engine.HLLEvent:
				if ev.Key == s.Key {
					s.NEvents++
					if len(marks) < maxHLLMarks {
						marks = append(marks, ev)
					}
				}
			case engine.HLLSparseEvent:
				if ev.Key == s.Key {
					s.Rewrites++
					if s.LastRewrite == nil {
						s.LastRewrite = &ev
					}
				}
			case engine.HLLPromoteEvent:
				if ev.Key == s.Key && s.Promote == nil {
					s.Promote = &ev
				}
			}
		}
	}
	for i := len(marks) - 1; i >= 0; i-- {
		s.Events = append(s.Events, marks[i])
	}
	if s.Key != "" {
		s.Info = in.Engine.Inspect(s.Key)
		if o := in.Engine.Peek([]byte(s.Key)); o != nil && o.Type == engine.TypeString && o.Enc == engine.EncRaw {
			p := o.Buf.Bytes()
			s.Valid = decodeHLL(p, &s.Regs)
			if s.Valid {
				s.Bytes = len(p)
				s.Sparse = hll.Recognise(p) == "sparse"
				if s.Sparse {
					s.Ops, _ = sparseOps(p, s.Ops)
				}
			}
		}
	}
	if !s.Valid {
		clear(s.Regs[:])
	}
	var pal [64]Color
	for v := range pal {
		pal[v] = regColor(uint8(v))
	}
	for i, v := range s.Regs {
		if v != 0 {
			s.setRegs++
		}
		c := pal[v&63]
		px := s.Img.RGBA[4*i : 4*i+4 : 4*i+4]
		px[0], px[1], px[2], px[3] = c.R, c.G, c.B, c.A
	}
	s.paintStrip()
}

// hLLStripBytes is how many bytes the sparse strip spans: the larger of the string and
// hll-sparse-max-bytes (capped), so the empty room up to the limit shows.
func hLLStripBytes(bytes int, limit int64) int {
	n := int64(bytes)
	if limit > n {
		n = limit
	}
	return int(min(n, hllStripMax))
}

// opColor is the strip colour of an opcode kind (VAL takes its value's register colour).
func opColor(kind, val int) Color {
	switch kind {
	case OpZero:
		return grid
	case OpXZero:
		return grid.mix(dim, 0.45)
	}
	return regColor(uint8(val))
}

// stripRoomColor is the strip colour of the room left below hll-sparse-max-bytes.
func stripRoomColor() Color { return panelC }

// paintStrip draws the sparse string, one pixel per byte: the header, each opcode's bytes, the
// room left up to the limit, and any bytes past it (a limit lowered under an existing key).
func (s *HLL) paintStrip() {
	if !s.Sparse {
		s.Strip.W, s.Strip.H = 0, 0
		return
	}
	n := hLLStripBytes(s.Bytes, s.Limit)
	rows := (n + HLLStripCols - 1) / HLLStripCols
	need := 4 * HLLStripCols * rows
	if cap(s.Strip.RGBA) < need {
		s.Strip.RGBA = make([]byte, need)
	}
	s.Strip.RGBA = s.Strip.RGBA[:need]
	s.Strip.W, s.Strip.H = HLLStripCols, rows
	s.Strip.Gen++
	put := func(i int, c Color) {
		if i < n {
			px := s.Strip.RGBA[4*i : 4*i+4 : 4*i+4]
			px[0], px[1], px[2], px[3] = c.R, c.G, c.B, c.A
		}
	}
	head, room, past, bg := headerC, stripRoomColor(), ErrorC, Background
	for i := 0; i < n; i++ {
		switch {
		case i < hll.HdrSize:
			put(i, head)
		case int64(i) < s.Limit:
			put(i, room)
		default:
			put(i, past)
		}
	}
	for i := n; i < HLLStripCols*rows; i++ {
		px := s.Strip.RGBA[4*i : 4*i+4 : 4*i+4]
		px[0], px[1], px[2], px[3] = bg.R, bg.G, bg.B, bg.A
	}
	for _, op := range s.Ops {
		c := opColor(op.Kind, op.Val)
		for k := 0; k < op.Len(); k++ {
			put(op.Off+k, c)
		}
	}
}

// countingView fills the counting view's rows when a watched key holds a set; false otherwise.
func (s *HLL) countingView(in Input) bool {
	isSet := func(k string) bool {
		_, ok := in.Engine.Peek([]byte(k)).SetLen()
		return ok
	}
	found := false
	for _, k := range in.Keys {
		if isSet(k) {
			found = true
			break
		}
	}
	if !found {
		return false
	}
	s.Counting = true
	if _, x := lastCmd(in.Last); x != nil {
		s.Reply, s.Cmd = x.Reply, shortCmd(x.Cmd)
	}
	// The watched keys in their order, then the rest of the database in key order.
	index := map[string]int{}
	add := func(k string) {
		if _, dup := index[k]; dup || len(s.Rows) >= maxHLLRows {
			return
		}
		o := in.Engine.Peek([]byte(k))
		row := HLLRow{Key: k, Truth: -1}
		if n, ok := o.SetLen(); ok {
			row.Set, row.Count, row.Known = true, int64(n), true
			row.Enc = o.Enc.String()
		} else if o != nil && o.Type == engine.TypeString && o.Enc == engine.EncRaw && o.Buf.Len() >= hll.HdrSize {
			var hdr [hll.HdrSize]byte
			o.Buf.ReadAt(hdr[:], 0)
			enc := hll.Recognise(hdr[:])
			if enc == "" {
				return
			}
			row.Count, row.Known = hLLHeaderCard(hdr[:])
			row.Enc = enc
		} else {
			return
		}
		if m, ok := in.Engine.PeekMemoryUsage([]byte(k), 5); ok {
			row.Memory = m
		}
		index[k] = len(s.Rows)
		s.Rows = append(s.Rows, row)
	}
	for _, k := range in.Keys {
		add(k)
	}
	for _, k := range in.Engine.SortedKeys() {
		add(k)
	}
	for i := 0; i+1 < len(in.Keys); i++ {
		h, okh := index[in.Keys[i]]
		t, okt := index[in.Keys[i+1]]
		if okh && okt && !s.Rows[h].Set && s.Rows[t].Set {
			s.Rows[h].Truth = t
		}
	}
	return true
}

// parts are the HLL rows without a set to compare with (the days of a week), in natural key
// order (day:2 before day:10).
func (s *HLL) parts() []int {
	var out []int
	for i, r := range s.Rows {
		if !r.Set && r.Truth < 0 {
			out = append(out, i)
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return natLess(s.Rows[out[a]].Key, s.Rows[out[b]].Key) })
	return out
}

// natLess orders strings with their digit runs compared as numbers.
func natLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := digitRun(a), digitRun(b)
		if da > 0 && db > 0 {
			na, nb := strings.TrimLeft(a[:da], "0"), strings.TrimLeft(b[:db], "0")
			if len(na) != len(nb) {
				return len(na) < len(nb)
			}
			if na != nb {
				return na < nb
			}
			a, b = a[da:], b[db:]
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func digitRun(s string) int {
	n := 0
	for n < len(s) && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	return n
}

// Pairs are the HLL rows compared with a set.
func (s *HLL) Pairs() []int {
	var out []int
	for i, r := range s.Rows {
		if !r.Set && r.Truth >= 0 {
			out = append(out, i)
		}
	}
	return out
}

// truths are the set rows no HLL is compared with but that stand as the exact count beside
// the parts (the set of a whole week before its merged HLL exists).
func (s *HLL) truths() []int {
	paired := map[int]bool{}
	for _, r := range s.Rows {
		if r.Truth >= 0 {
			paired[r.Truth] = true
		}
	}
	var out []int
	for i, r := range s.Rows {
		if r.Set && !paired[i] {
			out = append(out, i)
		}
	}
	return out
}

// partsSum is the sum of the parts' cached counts and whether all of them are known.
func (s *HLL) partsSum() (sum int64, known bool) {
	known = true
	for _, i := range s.parts() {
		sum += s.Rows[i].Count
		known = known && s.Rows[i].Known
	}
	return sum, known
}

// hLLBand is truth ∓ k standard errors (k = 1: the ±0.81 % band).
func hLLBand(truth int64, k float64) (lo, hi float64) {
	d := float64(truth) * HLLStdErr * k
	return float64(truth) - d, float64(truth) + d
}

// decodeHLL reads the registers of a HyperLogLog string (dense or sparse, docs/internals.md §HyperLogLog);
// false when p is not a valid HLL.
func decodeHLL(p []byte, regs *[HLLRegisters]uint8) bool { return hll.Decode(p, regs) }
