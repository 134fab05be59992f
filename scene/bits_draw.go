package scene

// The bits scene's drawing; bits.go holds its model (the window of bytes shown, the step's bit
// events, the BITOP rows, the watched keys' sizes). Each byte shown is a row of 8 cells, most
// significant bit first, its offset at the left: at most bitsWindow (16) bytes, and for a long
// string the first bitsHead (2), a gap with the zero bytes it hides, and the window around the
// bit touched, with a strip of the whole length beside MEMORY USAGE. BITFIELD cells are framed
// across the rows, BITOP stacks its sources above the result.

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"redscope/assets/text"
	"redscope/internal/numfmt"
)

// bitsLayout records the geometry of the last Frame: the byte rows' grid and the byte of each
// row (-1 for the gap divider), or the BITOP grid.
type bitsLayout struct {
	grid  Rect
	rows  []int64
	opX   float64 // BITOP: x of bit 0, y of the first row, cell size, gap between bytes
	opY   float64
	opCW  float64
	opCH  float64
	opGap float64
	opSep float64
	opNB  int // bytes shown per row
	opRow int // rows (sources shown + the result)
}

// memShown is the bars Frame draws in r: the comparison when the step makes one, else on a tall
// stage (a laptop's, where the bits leave most of it empty) every watched key's bar.
func (s *bitsScene) memShown(r Rect) []memBar {
	if len(s.Mem) > 0 || r.H < 600 {
		return s.Mem
	}
	return s.allMem
}

// bitCell is the rectangle of bit b (0 = most significant) of the row'th byte shown.
func bitCell(grid Rect, row, bit int, rows int) Rect {
	cw := grid.W / 8
	ch := grid.H / float64(rows)
	return Rect{grid.X + float64(bit)*cw, grid.Y + float64(row)*ch, cw, ch}
}

// tsz is a text size of k times f, never under minText px (layout.go: readable on a phone).
func tsz(f, k float64) float64 { return math.Max(minText, f*k) }

// inkOn is the text colour for a fill: Dim when it reads well enough, else textColor or
// Background, whichever contrasts more (computed from the palette at call time).
func inkOn(fill Color, quiet bool) Color {
	if quiet && contrast(dim, fill) >= 4.5 {
		return dim
	}
	if contrast(textColor, fill) >= contrast(Background, fill) {
		return textColor
	}
	return Background
}

// fieldColor is the frame colour of the i-th BITFIELD cell shown.
func fieldColor(i int) Color {
	cs := []Color{accent, indexC, runC, headerC}
	return cs[i%len(cs)]
}

// Frame implements Scene.
func (s *bitsScene) Frame(r Rect, t float64) []Prim {
	ps := s.fit.framed(r, t, s.lang, s.start, s.layout)
	// Where the cells were put, in stage coordinates (tests and hit testing read it).
	if z := s.fit.scale(); z != 1 {
		s.lay.grid = s.fit.zoomed(s.lay.grid)
		o := s.fit.zoomed(Rect{s.lay.opX, s.lay.opY, s.lay.opCW, s.lay.opCH})
		s.lay.opX, s.lay.opY, s.lay.opCW, s.lay.opCH = o.X, o.Y, o.W, o.H
		s.lay.opGap, s.lay.opSep = s.lay.opGap*z, s.lay.opSep*z
	}
	return ps
}

// layout lays the scene out in r (Frame zooms it to fill the stage).
func (s *bitsScene) layout(r Rect, t float64) []Prim {
	var l list
	s.lay = bitsLayout{}
	f, in := margins(r)
	y := in.Y
	// The memory bars take the bottom of the stage.
	bottom := in.Y + in.H
	mem := s.memShown(in)
	if in.H < f*26 && s.Op == nil { // a phone's short stage: the bits keep the room
		mem = mem[:min(len(mem), 1)]
		if in.H < f*20 {
			mem = nil
		}
	}
	if len(mem) > 0 {
		axisH := 0.0
		if in.H >= 330 { // a phone's short stage keeps its rows for the bits
			axisH = memAxisHeight(in.W, f, s.lang)
		}
		bottom -= float64(len(mem))*f*1.75 + tsz(f, 0.7)*1.4 + f*0.3 + axisH
		s.drawMem(&l, mem, Rect{in.X, bottom + f*0.3, in.W, in.Y + in.H - bottom - f*0.3}, f, axisH > 0)
	}
	if s.Op != nil {
		s.drawBitop(&l, Rect{in.X, y, in.W, bottom - y}, f, t)
		return l
	}
	if s.Key == "" || !s.Info.Exists || s.Info.Type != "string" {
		msg := tr(s.lang, "No bitmap yet: try SETBIT k 7 1.", "Chưa có bitmap: thử SETBIT k 7 1.")
		if s.Key != "" && !s.Info.Exists {
			msg = s.Key + ": " + tr(s.lang, "(missing)", "(không tồn tại)") + "  " + msg
		} else if s.Key != "" {
			msg = s.Key + ": " + s.Info.Type
		}
		y = l.wrap(Rect{in.X, y, in.W, bottom - y}, y, msg, f, dim)
		if s.Error {
			l.wrap(Rect{in.X, y, in.W, bottom - y}, y+f*0.3, s.Reply, tsz(f, 0.8), ErrorC)
		}
		return l
	}
	head := fmt.Sprintf("%s · %s · STRLEN %s", s.Key, s.Info.Encoding, num(s.Info.Len))
	if s.Info.SDS != nil {
		head += fmt.Sprintf(" · %s alloc %s", s.Info.SDS.Type, num(int64(s.Info.SDS.Alloc)))
	}
	y += f*1.5 + float64(headText(&l, in.X, y, in.W, head, f, textColor, true)-1)*f*1.25
	// What happened, at most two lines (three on a tall stage).
	note, noteC := s.note()
	lines := 2
	if in.H > 500 {
		lines = 3
	}
	if note != "" {
		y = l.wrap(Rect{in.X, y, in.W, f * 0.8 * 1.3 * float64(lines)}, y, note, tsz(f, 0.8), noteC)
	}
	if s.Error && s.Reply != "" {
		y = l.wrap(Rect{in.X, y, in.W, f * 0.8 * 1.3}, y, s.Reply, tsz(f, 0.8), ErrorC)
	}
	y += f * 0.3
	// A long string: its whole length as a strip.
	if s.Info.Len > 4*bitsWindow {
		y = s.drawStrip(&l, Rect{in.X, y, in.W, f * 2.9}, f)
	}
	// Under the rows: the BITFIELD cells and the footer.
	fieldLines := s.fieldLines()
	lh := tsz(f, 0.8) * 1.3
	foot := bottom - float64(len(fieldLines))*lh
	y = s.drawRows(&l, Rect{in.X, y + f*0.9, in.W, foot - y - f*0.9}, f, t)
	for i, fl := range fieldLines {
		c := fieldColor(len(s.Fields) - len(fieldLines) + i)
		if strings.Contains(fl, "nil") || strings.Contains(fl, "FAIL") {
			c = ErrorC
		}
		l.text(in.X, y+float64(i)*lh, fitText(fl, in.W, tsz(f, 0.8), false), tsz(f, 0.8), c, Left, false)
	}
	return l
}

// note is the line under the header: what the step's last bit command did.
func (s *bitsScene) note() (string, Color) {
	if len(s.Touched) > 0 {
		ev := s.Touched[len(s.Touched)-1]
		if ev.Write {
			return tr(s.lang, "offset %d → byte %d = %d/8, bit %d = %d%%8 (from the left): %d → %d",
				"offset %d → byte %d = %d/8, bit %d = %d%%8 (tính từ trái): %d → %d", ev.Offset, ev.Byte, ev.Offset, ev.Bit, ev.Offset, ev.Old, ev.New), accent
		}
		return tr(s.lang, "offset %d → byte %d, bit %d (from the left) reads %d",
			"offset %d → byte %d, bit %d (tính từ trái) đọc được %d", ev.Offset, ev.Byte, ev.Bit, ev.Old), accent
	}
	if sc := s.Scan; sc != nil {
		rng := fmt.Sprintf("%d–%d", sc.First, sc.Last)
		switch {
		case sc.Cmd == "bitcount":
			return tr(s.lang, "BITCOUNT over bits %s (bytes %d–%d): %d set bits", "BITCOUNT trên bit %s (byte %d–%d): %d bit 1",
				rng, sc.First>>3, sc.Last>>3, sc.Result), accent
		case sc.Past:
			return tr(s.lang, "BITPOS %d: no %d in bits %s; without an end the string reads as padded with zeros: %d, the first bit past it",
				"BITPOS %d: không có bit %d trong bit %s; không ghi end thì coi như sau string toàn 0: %d, bit ngay sau string", sc.Bit, sc.Bit, rng, sc.Result), accent
		case sc.Result < 0:
			return tr(s.lang, "BITPOS %d: no %d in bits %s (bytes %d–%d) → -1", "BITPOS %d: không có bit %d nào trong bit %s (byte %d–%d) → -1",
				sc.Bit, sc.Bit, rng, sc.First>>3, sc.Last>>3), accent
		default:
			return tr(s.lang, "BITPOS %d searched bits %s: the first %d is offset %d = byte %d, bit %d",
				"BITPOS %d tìm trong bit %s: bit %d đầu tiên ở offset %d = byte %d, bit %d", sc.Bit, rng, sc.Bit, sc.Result, sc.Result>>3, sc.Result&7), accent
		}
	}
	if s.FieldOps > 0 {
		return tr(s.lang, "BITFIELD: %d cell(s); a cell of k bits at offset o covers bits o … o+k−1, across byte boundaries",
			"BITFIELD: %d ô; ô k bit ở offset o chiếm bit o … o+k−1, vắt qua ranh giới byte", s.FieldOps), accent
	}
	if s.Count {
		return tr(s.lang, "BITCOUNT counts the set bits: %s", "BITCOUNT đếm các bit 1: %s", strings.TrimPrefix(s.Reply, "(integer) ")), accent
	}
	if len(s.Deleted) > 0 {
		return tr(s.lang, "deleted: %s", "đã xoá: %s", strings.Join(s.Deleted, ", ")), accent
	}
	return "", dim
}

// fieldLines describes the BITFIELD cells framed (the last three).
func (s *bitsScene) fieldLines() []string {
	var out []string
	from := max(0, len(s.Fields)-3)
	for _, ev := range s.Fields[from:] {
		typ := "u"
		if ev.Signed {
			typ = "i"
		}
		typ += strconv.Itoa(ev.Bits)
		at := fmt.Sprintf("@%d", ev.Offset)
		if ev.Offset%int64(ev.Bits) == 0 {
			at = fmt.Sprintf("#%d", ev.Offset/int64(ev.Bits))
		}
		where := tr(s.lang, "bits %d–%d", "bit %d–%d", ev.Offset, ev.Offset+int64(ev.Bits)-1)
		if b0, b1 := ev.Offset>>3, (ev.Offset+int64(ev.Bits)-1)>>3; b0 != b1 {
			where += tr(s.lang, ", bytes %d–%d", ", byte %d–%d", b0, b1)
		}
		line := fmt.Sprintf("%s %s %s: ", strings.ToUpper(ev.Op), typ, at)
		switch {
		case ev.Op == "get":
			line += fmt.Sprintf("= %d", ev.Old)
		case ev.Outcome == "failed":
			line += tr(s.lang, "%d %+d → nil (OVERFLOW FAIL), stays %d", "%d %+d → nil (OVERFLOW FAIL), giữ %d", ev.Old, ev.Arg, ev.Old)
		case ev.Op == "incrby":
			line += fmt.Sprintf("%d %+d → %d", ev.Old, ev.Arg, ev.New)
		default:
			line += fmt.Sprintf("%d → %d", ev.Old, ev.New)
		}
		switch ev.Outcome {
		case "wrapped":
			line += " (OVERFLOW WRAP)"
		case "saturated":
			line += " (OVERFLOW SAT)"
		}
		// Where the cell lies comes last: a narrow stage cuts it first.
		out = append(out, line+" · "+where)
	}
	if s.FieldOps > len(s.Fields) && len(out) > 0 {
		out[0] = tr(s.lang, "%d cells written, the last: ", "%d ô đã ghi, ô cuối: ", s.FieldOps) + out[len(out)-1]
		out = out[:1]
	}
	return out
}

// drawRows draws the byte rows (the head and the gap before a far window) in area and returns
// the y below what it drew.
func (s *bitsScene) drawRows(l *list, area Rect, f float64, t float64) float64 {
	type row struct {
		byteNo int64
		v      byte
		gap    int64 // > 0: a divider standing for this many zero bytes… not a byte
	}
	var rows []row
	for i, v := range s.Head {
		rows = append(rows, row{byteNo: int64(i), v: v})
	}
	if len(s.Head) > 0 && s.First > int64(len(s.Head)) {
		rows = append(rows, row{gap: s.First - int64(len(s.Head))})
	}
	// Fit the window: rows of at least 1.05 f, keeping the focus row.
	fit := int(area.H / math.Max(f*1.05, 13))
	data, first := s.Data, s.First
	if room := fit - len(rows); room < len(data) {
		room = max(room, 1)
		fb := s.focusByte() - first
		lo := max(0, min(fb-int64(room)/2, int64(len(data)-room)))
		data, first = data[lo:lo+int64(room)], first+lo
	}
	for i, v := range data {
		rows = append(rows, row{byteNo: first + int64(i), v: v})
	}
	if len(rows) == 0 || area.H <= 0 {
		return area.Y
	}
	last := rows[len(rows)-1].byteNo
	label := monoWidth("byte "+strings.Repeat("0", max(6, len(strconv.FormatInt(last, 10))+1)), tsz(f, 0.8))
	tail := monoWidth(" 0xff  c", tsz(f, 0.8))
	cellMax := f * 2.2
	if float64(len(rows))*f*3.2 <= area.H*0.5 { // a few bytes on a tall stage: larger cells
		cellMax = f * 3.2
	}
	gw := math.Min(area.W-label-tail, cellMax*8)
	gh := math.Min(area.H, float64(len(rows))*gw/8)
	grid := Rect{area.X + label, area.Y, gw, gh}
	s.lay.grid = grid
	s.lay.rows = s.lay.rows[:0]
	for _, rw := range rows {
		if rw.gap > 0 {
			s.lay.rows = append(s.lay.rows, -1)
		} else {
			s.lay.rows = append(s.lay.rows, rw.byteNo)
		}
	}
	pulse := pulseAt(t)
	// Bit numbers over the columns.
	for b := 0; b < 8; b++ {
		c := bitCell(grid, 0, b, len(rows))
		l.text(c.X+c.W/2, area.Y-tsz(f, 0.85), strconv.Itoa(b), tsz(f, 0.6), dim, Center, true)
	}
	inScan := func(bit int64) bool { return s.Scan == nil || bit >= s.Scan.First && bit <= s.Scan.Last }
	ones := 0
	var shownLo, shownHi int64 = -1, -1
	for ri, rw := range rows {
		c0 := bitCell(grid, ri, 0, len(rows))
		fs := math.Max(minText, math.Min(tsz(f, 0.8), c0.H*0.8))
		if rw.gap > 0 {
			msg := tr(s.lang, "… %s zero bytes (%s bits), never written …", "… %s byte 0 (%s bit), chưa từng ghi …", num(rw.gap), num(rw.gap*8))
			l.rect(area.X, c0.Y+c0.H*0.1, area.W, c0.H*0.8, panelC)
			l.text(area.X, c0.Y+(c0.H-fs)/2, fitText(msg, area.W, fs, false), fs, dim, Left, false)
			continue
		}
		if shownLo < 0 || rw.byteNo < shownLo {
			shownLo = rw.byteNo
		}
		shownHi = max(shownHi, rw.byteNo)
		grew := rw.byteNo >= s.GrewFrom && rw.byteNo < s.GrewTo
		lc := dim
		if grew {
			lc = accent
		}
		l.text(area.X, c0.Y+(c0.H-fs)/2, "byte "+strconv.FormatInt(rw.byteNo, 10), fs, lc, Left, true)
		for b := 0; b < 8; b++ {
			c := bitCell(grid, ri, b, len(rows))
			bit := rw.byteNo*8 + int64(b)
			on := rw.v&(0x80>>b) != 0
			col := zeroC
			if on {
				col = oneC
				ones++
			}
			switch {
			case !inScan(bit):
				col = col.mix(Background, 0.55)
			case s.Scan != nil && s.Scan.Cmd == "bitcount" && on, s.Count && s.Scan == nil && on:
				col = oneC.mix(accent, 0.5*pulse)
			}
			if grew {
				col = col.mix(accent, 0.25*(1-t))
			}
			gap := math.Max(1, c.W*0.06)
			l.rect(c.X+gap, c.Y+gap, c.W-2*gap, c.H-2*gap, col)
			if c.H >= tsz(f, 0.8) {
				d := "0"
				if on {
					d = "1"
				}
				l.text(c.X+c.W/2, c.Y+(c.H-fs)/2, d, fs, inkOn(col, !on), Center, true)
			}
		}
		hex := fmt.Sprintf(" 0x%02x  %s", rw.v, printable(rw.v))
		l.text(grid.X+grid.W+f*0.3, c0.Y+(c0.H-fs)/2, hex, fs, textColor, Left, true)
	}
	rowOf := func(byteNo int64) int {
		for i, rw := range rows {
			if rw.gap == 0 && rw.byteNo == byteNo {
				return i
			}
		}
		return -1
	}
	stroke := math.Max(2, f*0.18)
	// The cell boundaries of the last BITFIELD type, when its cells are numbered (#n): every
	// k-th bit starts a cell, wherever it falls in its byte.
	if len(s.Fields) > 0 {
		ev := s.Fields[len(s.Fields)-1]
		if k := int64(ev.Bits); k > 1 && ev.Offset%k == 0 {
			for ri, rw := range rows {
				for b := 0; b < 8 && rw.gap == 0; b++ {
					if (rw.byteNo*8+int64(b))%k == 0 {
						c := bitCell(grid, ri, b, len(rows))
						l.line(c.X, c.Y, c.X, c.Y+c.H, math.Max(1.5, f*0.1), dim)
					}
				}
			}
		}
	}
	// BITFIELD cells: one frame per byte the cell covers.
	for i, ev := range s.Fields {
		col := fieldColor(i)
		for b := ev.Offset >> 3; b <= (ev.Offset+int64(ev.Bits)-1)>>3; b++ {
			ri := rowOf(b)
			if ri < 0 {
				continue
			}
			lo, hi, _ := fieldSpan(ev.Offset, ev.Bits, b)
			c0, c1 := bitCell(grid, ri, lo, len(rows)), bitCell(grid, ri, hi, len(rows))
			l.frame(c0.X, c0.Y, c1.X+c1.W-c0.X, c0.H, stroke*0.8, col)
		}
	}
	// The bytes BITCOUNT/BITPOS went over: a bar left of their rows.
	if sc := s.Scan; sc != nil {
		for ri, rw := range rows {
			if rw.gap == 0 && rw.byteNo >= sc.First>>3 && rw.byteNo <= sc.Last>>3 {
				c := bitCell(grid, ri, 0, len(rows))
				w := math.Max(2, f*0.15)
				l.rect(c.X-w-1, c.Y, w, c.H, indexC)
			}
		}
	}
	// The bit BITPOS found.
	if sc := s.Scan; sc != nil && sc.Cmd == "bitpos" && sc.Result >= 0 && !sc.Past {
		if ri := rowOf(sc.Result >> 3); ri >= 0 {
			c := bitCell(grid, ri, int(sc.Result&7), len(rows))
			l.frame(c.X, c.Y, c.W, c.H, stroke, accent.alpha(math.Max(pulse, 0.8)))
		}
	}
	for _, ev := range s.Touched {
		if ri := rowOf(ev.Byte); ri >= 0 {
			c := bitCell(grid, ri, ev.Bit, len(rows))
			l.frame(c.X, c.Y, c.W, c.H, stroke, accent.alpha(pulse))
		}
	}
	y := grid.Y + grid.H + f*0.3
	if y+tsz(f, 0.7)*1.15 <= area.Y+area.H+f*0.1 && shownLo >= 0 {
		shown := fmt.Sprintf("%d–%d", shownLo, shownHi)
		msg := tr(s.lang, "bytes %s of %s shown · %d set bits shown", "đang xem byte %s / %s · %d bit 1", shown, num(s.Info.Len), ones)
		l.text(area.X, y, fitText(msg, area.W, tsz(f, 0.7), false), tsz(f, 0.7), dim, Left, false)
		y += tsz(f, 0.7) * 1.5
	}
	return y
}

// drawStrip draws the whole string as one bar: where the bytes shown are, the bits the step
// touched, and what it costs (MEMORY USAGE) against what the engine stores. It returns the y
// below it.
func (s *bitsScene) drawStrip(l *list, r Rect, f float64) float64 {
	n := s.Info.Len
	fs := tsz(f, 0.7)
	bar := Rect{r.X, r.Y + fs*1.3, r.W, f * 0.6}
	l.rect(bar.X, bar.Y, bar.W, bar.H, panelC)
	l.frame(bar.X, bar.Y, bar.W, bar.H, 1, grid)
	at := func(byteNo int64) float64 {
		return bar.X + bar.W*float64(byteNo)/float64(max(n, 1))
	}
	mark := func(byteNo int64, c Color) {
		x := math.Min(at(byteNo), bar.X+bar.W-2)
		l.rect(x, bar.Y-f*0.15, 2, bar.H+f*0.3, c)
	}
	if len(s.Head) > 0 {
		mark(0, dim)
	}
	x0 := at(s.First)
	w := math.Max(3, at(s.First+int64(len(s.Data)))-x0)
	l.rect(math.Min(x0, bar.X+bar.W-w), bar.Y, w, bar.H, accent.mix(panelC, 0.3))
	for _, ev := range s.Touched {
		mark(ev.Byte, accent)
	}
	for i, ev := range s.Fields {
		mark(ev.Offset>>3, fieldColor(i))
	}
	if sc := s.Scan; sc != nil && sc.Cmd == "bitpos" && sc.Result >= 0 && !sc.Past {
		mark(sc.Result>>3, accent)
	}
	top := tr(s.lang, "the whole string: %s bytes = %s bits", "cả string: %s byte = %s bit", num(n), num(n*8))
	end := "byte " + num(n-1)
	if textWidth(end, fs, false)+textWidth(top, fs, false) < r.W-fs {
		l.text(r.X+r.W, r.Y, end, fs, dim, Right, false)
	}
	l.text(r.X, r.Y, fitText(top, r.W, fs, false), fs, dim, Left, false)
	// The cost line: what a real server allocates against what the engine keeps.
	cost := ""
	if s.Info.Memory >= 0 {
		cost = "MEMORY USAGE " + exactBytes(s.Info.Memory)
	}
	if s.Stored < n {
		cost += tr(s.lang, " · the simulator stores %s: only the pages holding a 1", " · trình mô phỏng chỉ giữ %s: các trang có bit 1", exactBytes(s.Stored))
	}
	y := bar.Y + bar.H + f*0.25
	return l.wrap(Rect{r.X, y, r.W, fs * 1.3 * 2}, y, strings.TrimPrefix(cost, " · "), fs, textColor) + fs*0.2
}

// drawMem draws one bar per watched key, proportional to its MEMORY USAGE.
func (s *bitsScene) drawMem(l *list, mem []memBar, r Rect, f float64, axis bool) {
	var top int64
	for _, m := range mem {
		top = max(top, m.Memory)
	}
	fs := tsz(f, 0.75)
	y := r.Y
	l.text(r.X, y, tr(s.lang, "MEMORY USAGE of the keys, side by side", "MEMORY USAGE của các key, đặt cạnh nhau"), tsz(f, 0.7), dim, Left, false)
	y += tsz(f, 0.7) * 1.4
	for _, m := range mem {
		val := exactBytes(m.Memory)
		name := fmt.Sprintf("%s · %s %s", m.Key, m.Type, m.Encoding)
		vw := textWidth(val, fs, true)
		l.text(r.X, y, fitText(name, r.W-vw-fs, fs, false), fs, dim, Left, false)
		l.text(r.X+r.W, y, val, fs, textColor, Right, true)
		bh := f * 0.4
		by := y + fs*1.3
		l.rect(r.X, by, r.W, bh, panelC)
		w := memBarLen(m.Memory, r.W)
		l.rect(r.X, by, w, bh, encColor(m.Encoding))
		y += f * 1.75
	}
	if axis {
		drawMemAxis(l, r.X, y, r.W, r.W, f, s.lang)
	}
}

// drawBitop stacks the sources' rows above the result's, the result's 1-columns lit through
// every row.
func (s *bitsScene) drawBitop(l *list, r Rect, f float64, t float64) {
	v := s.Op
	op := strings.ToUpper(v.Op)
	y := r.Y
	head := fmt.Sprintf("BITOP %s %s ← %s", op, v.Dest, strings.Join(v.Sources, " "))
	y += f*1.5 + float64(headText(l, r.X, y, r.W, head, f, textColor, true)-1)*f*1.25
	y = l.wrap(Rect{r.X, y, r.W, f * 0.8 * 1.3 * 2}, y, bitopRule(s.lang, v), tsz(f, 0.8), accent)
	if s.Error && s.Reply != "" {
		y = l.wrap(Rect{r.X, y, r.W, f * 0.8 * 1.3}, y, s.Reply, tsz(f, 0.8), ErrorC)
	}
	y += f * 0.4
	if v.Deleted || len(v.Result) == 0 {
		// Every row is empty: each source and the result drawn as a row of zero bytes.
		rows := append(append([]string(nil), v.Sources...), v.Dest)
		if len(rows) > maxBitopRows+1 {
			rows = append(rows[:maxBitopRows], v.Dest)
		}
		fs := tsz(f, 0.8)
		nameW := 0.0
		for _, k := range rows {
			nameW = max(nameW, textWidth(k, fs, true)+fs)
		}
		nameW = min(nameW, r.W*0.4)
		for i, k := range rows {
			if y+fs*2 > r.Y+r.H-fs*2.6 {
				break
			}
			c := grid
			if i == len(rows)-1 {
				c = accent
			}
			l.text(r.X, y+fs*0.3, fitText(k, nameW-fs*0.5, fs, true), fs, textColor, Left, true)
			bw := r.W - nameW
			l.frame(r.X+nameW, y, bw, fs*1.7, 1.5, c)
			l.text(r.X+nameW+bw/2, y+fs*0.3, tr(s.lang, "0 bytes", "0 byte"), fs, dim, Center, true)
			y += fs * 2.1
		}
		l.wrap(Rect{r.X, y, r.W, r.Y + r.H - y}, y, tr(s.lang, "Every source is empty: the result has length 0, so %s is deleted and BITOP answers 0.",
			"Mọi nguồn đều rỗng: kết quả dài 0, nên %s bị xoá và BITOP trả 0.", v.Dest), tsz(f, 0.85), textColor)
		return
	}
	srcs := v.Sources
	inputs := v.Inputs
	more := 0
	if len(srcs) > maxBitopRows {
		more = len(srcs) - maxBitopRows
		srcs, inputs = srcs[:maxBitopRows], inputs[:maxBitopRows]
	}
	roles := func(i int) string {
		switch v.Op {
		case "diff", "diff1", "andor":
			if i == 0 {
				return "X"
			}
			return "Y" + strconv.Itoa(i)
		}
		return ""
	}
	// Columns: label | bytes of 8 cells with a gap between bytes | hex.
	fs := tsz(f, 0.8)
	labelW := 0.0
	for i, k := range srcs {
		labelW = math.Max(labelW, textWidth(strings.TrimSpace(k+" "+roles(i)), fs, true))
	}
	labelW = math.Max(labelW, textWidth(v.Dest+" =", fs, true))
	labelW = math.Min(labelW, r.W*0.3) + fs*0.6
	hexW := monoWidth(" 0xff", fs)
	byteGap := f * 0.45
	cellMin := math.Max(13, f*0.95)
	avail := r.W - labelW - hexW
	nb := min(len(v.Result), max(1, int((avail+byteGap)/(8*cellMin+byteGap))))
	showHex := nb == 1
	if !showHex {
		avail += hexW
	}
	cw := math.Min(f*2, (avail-float64(nb-1)*byteGap)/float64(8*nb))
	nrows := len(srcs) + 1
	sep := f * 0.9 // room for the operator line
	footH := fs * 1.5
	ch := math.Min(cw*1.15, (r.Y+r.H-y-f*0.9-sep-footH)/float64(nrows))
	if ch < 8 {
		return
	}
	gridX := r.X + labelW
	gy := y + f*0.9
	s.lay = bitsLayout{opX: gridX, opY: gy, opCW: cw, opCH: ch, opGap: byteGap, opSep: sep, opNB: nb, opRow: nrows}
	cellX := func(bit int) float64 { return gridX + float64(bit)*cw + float64(bit/8)*byteGap }
	rowY := func(i int) float64 {
		if i < len(srcs) {
			return gy + float64(i)*ch
		}
		return gy + float64(len(srcs))*ch + sep
	}
	// Bit numbers over the columns (offsets), every bit when they fit.
	step := 1
	if cw < monoWidth("15", tsz(f, 0.6))*1.2 {
		step = 8
	}
	for b := 0; b < 8*nb; b += step {
		l.text(cellX(b)+cw/2, gy-tsz(f, 0.85), strconv.Itoa(b), tsz(f, 0.6), dim, Center, true)
	}
	// The result's 1-columns, lit through every row.
	band := panelC.mix(accent, 0.45)
	for b := 0; b < 8*nb; b++ {
		if bitopBit(v.Result, b) {
			l.rect(cellX(b), gy-ch*0.08, cw, rowY(nrows-1)+ch*1.08-gy, band)
		}
	}
	pulse := pulseAt(t)
	drawRow := func(i int, name string, p []byte, result bool) {
		ry := rowY(i)
		ty := ry + (ch-math.Min(fs, ch*0.8))/2
		tfs := math.Max(minText, math.Min(fs, ch*0.8))
		lc := dim
		if result {
			lc = textColor
		}
		l.text(r.X, ty, fitText(name, labelW-fs*0.4, tfs, true), tfs, lc, Left, true)
		for b := 0; b < 8*nb; b++ {
			on := bitopBit(p, b)
			col := zeroC
			if on {
				col = oneC
				if result {
					col = oneC.mix(accent, 0.45*pulse)
				}
			}
			g := math.Max(1, cw*0.08)
			l.rect(cellX(b)+g, ry+g, cw-2*g, ch-2*g, col)
			if ch >= 12 && cw >= 10 {
				d := "0"
				if on {
					d = "1"
				}
				l.text(cellX(b)+cw/2, ty, d, tfs, inkOn(col, !on), Center, true)
			}
		}
		if showHex && len(p) > 0 {
			l.text(cellX(8*nb-1)+cw+fs*0.3, ty, fmt.Sprintf("0x%02x", p[0]), tfs, textColor, Left, true)
		}
	}
	for i, k := range srcs {
		drawRow(i, strings.TrimSpace(k+" "+roles(i)), inputs[i], false)
	}
	// The operator between the sources and the result.
	ly := rowY(nrows-1) - sep/2
	l.line(gridX, ly, cellX(8*nb-1)+cw, ly, math.Max(1.5, f*0.08), grid)
	drawRow(nrows-1, v.Dest+" =", v.Result, true)
	fy := rowY(nrows-1) + ch + fs*0.4
	var foot string
	if more > 0 {
		foot = tr(s.lang, "… and %d more source keys · ", "… và %d key nguồn nữa · ", more)
	}
	foot += tr(s.lang, "bytes 0–%d of %d · shorter sources are padded with zero bytes", "byte 0–%d / %d · nguồn ngắn hơn được thêm byte 0", nb-1, v.Len)
	if fy+fs*1.15 <= r.Y+r.H+0.5 {
		l.text(r.X, fy, fitText(foot, r.W, tsz(fs, 0.9), false), tsz(fs, 0.9), dim, Left, false)
	}
}

// bitopRules are the operations' rules, by name (assets/text/bitop.txt).
var bitopRules = text.NewCatalog("bitop.txt")

// bitopRule is what the operation computes for each bit column.
func bitopRule(lang string, v *bitopView) string {
	if p, ok := bitopRules.Get(v.Op); ok {
		return p.In(lang)
	}
	return strings.ToUpper(v.Op)
}

// exactBytes is n bytes exactly, grouped, and past 10 KiB also in the unit numfmt.Bytes picks:
// "671 088 688 B (640.0 MiB)", "65 536 B (64.0 KiB)", "96 B".
func exactBytes(n int64) string {
	if n < 10<<10 {
		return num(n) + " B"
	}
	return num(n) + " B (" + numfmt.Bytes(n) + ")"
}
