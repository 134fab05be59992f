package scene

// The drawing of the HLL scene (hll.go has its model: Update and the state it reads from the
// engine): the register map, the hash and encoding panels, the sparse strip and its gauge, and
// the counting view's bars and bands.

import (
	"fmt"
	"math"
	"strings"

	"redscope/engine"
	"redscope/engine/hll"
)

// regColor is a register value's colour: a quiet panel tone for 0, then blue to yellow as the
// count grows (computed from the palette, so it follows the theme).
func regColor(v uint8) Color {
	if v == 0 {
		return panelC.mix(grid, 0.06)
	}
	t := math.Min(1, float64(v-1)/11)
	return indexC.mix(accent, t)
}

// regCell is where register i sits in the register map drawn in r.
func regCell(r Rect, i int) Rect {
	c := r.W / HLLSide
	return Rect{r.X + float64(i%HLLSide)*c, r.Y + float64(i/HLLSide)*c, c, c}
}

// HashBit classes for the hash strip.
const (
	BitIndex = iota // one of the 14 low bits: the register index
	BitRun          // one of the zeros counted by the run
	BitStop         // the 1 that ends the run
	BitRest         // higher bits that do not matter
)

// hashBitClass tells what bit b (0 = least significant) of a hash means for a count of count
// (1 + number of zeros above the index bits).
func hashBitClass(b, count int) int {
	switch {
	case b < hll.P:
		return BitIndex
	case b < hll.P+count-1:
		return BitRun
	case b == hll.P+count-1:
		return BitStop
	}
	return BitRest
}

// hLLGauge lays out the length gauge in r for a string of bytes against limit: the filled part
// and the x of the limit mark. The scale is the larger of the two, so a string past the limit
// (a dense HLL) overflows the mark.
func hLLGauge(r Rect, bytes int, limit int64) (fill Rect, mark float64) {
	scale := math.Max(float64(bytes), float64(limit))
	if scale <= 0 {
		return Rect{r.X, r.Y, 0, r.H}, r.X
	}
	return Rect{r.X, r.Y, r.W * float64(bytes) / scale, r.H}, r.X + r.W*float64(limit)/scale
}

// Frame implements Scene.
func (s *HLL) Frame(r Rect, t float64) []Prim {
	return s.fit.framed(r, t, s.lang, s.start, s.layout)
}

// layout lays the scene out in r (Frame zooms it to fill the stage).
func (s *HLL) layout(r Rect, t float64) []Prim {
	if s.Counting {
		return s.frameCounting(r, t)
	}
	var l list
	f, in := margins(r)
	y := in.Y
	if s.Key == "" || !s.Info.Exists {
		l.wrap(in, y, tr(s.lang, "No HyperLogLog yet: try PFADD h a b c.", "Chưa có HyperLogLog: thử PFADD h a b c."), f, dim)
		return l
	}
	head := s.Key
	head += fmt.Sprintf(" · %s · %s B · MEMORY USAGE %s", s.Info.HLL, num(s.Info.Len), num(s.Info.Memory))
	y += f*1.6 + float64(headText(&l, in.X, y, in.W, head, f, textColor, true)-1)*f*1.25
	// Layout: register map left, panels beside it.
	// The side panel gets room for its longest lines (about 44 characters), the map the rest.
	fs := math.Max(10, f*0.8)
	sideMin := 44 * sansAdvance * fs
	sz := math.Max(0, math.Min(in.H-(y-in.Y), math.Max(in.W-sideMin-f*0.8, in.W*0.36)))
	mapR := Rect{in.X, y, sz, sz}
	side := Rect{in.X + sz + f*0.8, y, in.W - sz - f*0.8, in.H - (y - in.Y)}
	if len(s.Events) == 0 && !s.Sparse {
		// No element this step and a dense string: the side says a few lines (the size, the
		// limit, the reply), so the map takes the stage and those lines go under it when that
		// draws it larger.
		lines := 6 * fs * 1.4
		if st := math.Min(in.W, in.H-(y-in.Y)-lines-f*0.6); st > sz {
			sz = st
			mapR = Rect{in.X, y, sz, sz}
			side = Rect{in.X, y + sz + f*0.6, in.W, in.H - (y - in.Y) - sz - f*0.6}
		}
	}
	l.rect(mapR.X-1, mapR.Y-1, mapR.W+2, mapR.H+2, grid)
	l = append(l, Prim{Kind: KImage, X: mapR.X, Y: mapR.Y, W: mapR.W, H: mapR.H, Img: &s.Img})
	pulse := pulseAt(t)
	for _, ev := range s.Events {
		c := regCell(mapR, ev.Index)
		d := math.Max(3, c.W*2)
		col := accent
		if ev.New == ev.Old {
			col = dim
		}
		x0, y0 := math.Max(mapR.X, c.X+c.W/2-d), math.Max(mapR.Y, c.Y+c.W/2-d)
		x1, y1 := math.Min(mapR.X+mapR.W, c.X+c.W/2+d), math.Min(mapR.Y+mapR.H, c.Y+c.W/2+d)
		l.frame(x0, y0, x1-x0, y1-y0, 1.5, col.alpha(pulse))
	}
	p := &panel{l: &l, r: side, y: side.Y}
	if len(s.Events) > 0 {
		s.hashPanel(p, fs)
	}
	if s.Valid {
		p.y += fs * 0.4
		s.encodingPanel(p, fs, t)
	}
	if s.Reply != "" {
		p.line(s.Cmd+" → "+s.Reply, math.Max(10, fs*0.9), dim, true)
	}
	return l
}

// panel places lines of text and blocks top-down in r, dropping whatever no longer fits.
type panel struct {
	l *list
	r Rect
	y float64
}

// fits reports whether h more pixels fit.
func (p *panel) fits(h float64) bool { return p.y+h <= p.r.Y+p.r.H+0.01 }

// line draws one line of text cut to the panel's width; false when it no longer fits.
func (p *panel) line(s string, size float64, c Color, mono bool) bool {
	if !p.fits(size * 1.2) {
		return false
	}
	if s = fitText(s, p.r.W, size, mono); s != "" {
		p.l.text(p.r.X, p.y, s, size, c, Left, mono)
	}
	p.y += size * 1.4
	return true
}

// hashPanel: the last element's hash, its index bits and run, and the register it updated.
func (s *HLL) hashPanel(p *panel, fs float64) {
	ev := s.Events[len(s.Events)-1]
	side := p.r
	p.line(fmt.Sprintf("%q → hash 0x%016x", ev.Element, ev.Hash), fs, textColor, true)
	// The 64 hash bits, most significant first, in two rows of 32.
	cw := math.Min(side.W/32, fs*1.4)
	if p.fits(2 * (cw*1.2 + 2)) {
		for row := 0; row < 2; row++ {
			for k := 0; k < 32; k++ {
				b := 63 - (row*32 + k)
				on := ev.Hash>>uint(b)&1 == 1
				col := zeroC
				switch hashBitClass(b, ev.Count) {
				case BitIndex:
					col = indexC
				case BitRun:
					col = runC
				case BitStop:
					col = accent
				}
				x := side.X + float64(k)*cw
				fill := col.mix(Background, 0.55-0.55*b2f(on))
				p.l.rect(x+0.5, p.y+0.5, cw-1, cw*1.2-1, fill)
				if ds := fs * 0.8; cw >= ds*0.9 && ds >= 10 {
					d := "0"
					if on {
						d = "1"
					}
					p.l.text(x+cw/2, p.y+(cw*1.2-ds*1.15)/2, d, ds, textOn(fill), Center, true)
				}
			}
			p.y += cw*1.2 + 2
		}
		p.y += fs * 0.4
	}
	idx := fmt.Sprintf("%014b", ev.Index)
	p.line(tr(s.lang, "index = low 14 bits %s = %d", "index = 14 bit thấp %s = %d", idx, ev.Index), fs, indexC, false)
	p.line(tr(s.lang, "%s above them, then a 1 → count %d", "%s phía trên, rồi số 1 → count %d", trPlural(s.lang, int64(ev.Count-1), "zero", "zeros", "số 0"), ev.Count), fs, runC, false)
	msg := tr(s.lang, "register %d: %d → %d (keeps the max)", "thanh ghi %d: %d → %d (giữ số lớn nhất)", ev.Index, ev.Old, ev.New)
	if ev.New == ev.Old {
		msg = tr(s.lang, "register %d stays %d (count %d is not larger)", "thanh ghi %d giữ %d (count %d không lớn hơn)", ev.Index, ev.Old, ev.Count)
	}
	p.line(msg, fs, accent, false)
	if s.NEvents > 1 {
		p.line(tr(s.lang, "%d elements in this step", "%d phần tử trong bước này", s.NEvents), math.Max(10, fs*0.9), dim, false)
	}
}

// encodingPanel: the sparse opcodes and their bytes against hll-sparse-max-bytes, or the dense
// form and the promotion that led to it.
func (s *HLL) encodingPanel(p *panel, fs float64, t float64) {
	side := p.r
	limit := s.Limit
	if s.Promote != nil {
		limit = s.Promote.Limit
	}
	small := math.Max(10, fs*0.9)
	title := tr(s.lang, "sparse: %d B", "sparse: %d B", s.Bytes)
	if !s.Sparse {
		title = tr(s.lang, "dense: %d B", "dense: %d B", s.Bytes)
	}
	if !p.line(title, fs, textColor, false) {
		return
	}
	if !s.Sparse {
		p.line(tr(s.lang, "= 16 B header + 16384 × 6 bit", "= header 16 B + 16384 × 6 bit"), small, dim, false)
	}
	// The gauge: the string's bytes against the limit (a dense string overflows the mark).
	gh := fs * 0.9
	if !p.fits(gh + fs*0.6) {
		return
	}
	g := Rect{side.X, p.y, side.W, gh}
	fill, mark := hLLGauge(g, s.Bytes, limit)
	p.l.rect(g.X, g.Y, g.W, g.H, panelC)
	if s.Sparse {
		p.l.rect(fill.X, fill.Y, fill.W, fill.H, indexC)
	} else {
		// Dense: the part under the limit, then the overflow.
		p.l.rect(fill.X, fill.Y, mark-fill.X, fill.H, indexC)
		p.l.rect(mark, fill.Y, fill.X+fill.W-mark, fill.H, runC.alpha(0.35+0.65*pulseAt(t)))
	}
	p.l.line(mark, g.Y-3, mark, g.Y+g.H+3, 2, accent)
	p.y += gh + fs*0.5
	p.line(tr(s.lang, "│ hll-sparse-max-bytes = %d", "│ hll-sparse-max-bytes = %d", limit), small, accent, false)
	if s.Sparse {
		s.stripBlock(p, fs)
		return
	}
	if s.Promote != nil {
		pr := s.Promote
		p.line(tr(s.lang, "promoted to dense in this step:", "vừa chuyển sang dense:"), fs, runC, false)
		why := tr(s.lang, "sparse %s B + this update > %s", "sparse %s B + lần ghi này > %s", num(int64(pr.SparseBytes)), num(pr.Limit))
		if pr.Why.Code != engine.WhyHLLBytes {
			why = whyText(s.lang, pr.Why)
		}
		p.line(why, small, runC, false)
	}
}

// stripBlock: the sparse string byte by byte, a legend, the last rewrite and the opcodes.
func (s *HLL) stripBlock(p *panel, fs float64) {
	side := p.r
	small := math.Max(10, fs*0.9)
	if s.Strip.H > 0 {
		cell := side.W / float64(s.Strip.W)
		// Rows at least a text line tall: a short sparse string is one row of 100 bytes, which at
		// square cells was a few pixels high; the bytes stay one column each, taller than wide.
		rows := float64(s.Strip.H)
		h := cell * rows
		if room := p.r.Y + p.r.H - p.y - 7*fs*1.4; h < room { // keep lines for the legend and opcodes
			h = math.Min(math.Max(cell, fs)*rows, room)
		}
		if avail := p.r.Y + p.r.H - p.y - 3*fs*1.4; h > avail {
			h = math.Max(avail, 0)
		}
		if h >= 8 {
			p.l.rect(side.X-1, p.y-1, side.W+2, h+2, grid)
			*p.l = append(*p.l, Prim{Kind: KImage, X: side.X, Y: p.y, W: side.W, H: h, Img: &s.Strip})
			if lr := s.LastRewrite; lr != nil {
				// Frame the opcode bytes that now hold the register just set.
				for _, op := range s.Ops {
					if lr.Index >= op.First && lr.Index < op.First+op.Run {
						rows := float64(s.Strip.H)
						ch := h / rows
						for k := 0; k < op.Len(); k++ {
							i := op.Off + k
							x := side.X + float64(i%HLLStripCols)*cell
							y := p.y + float64(i/HLLStripCols)*ch
							p.l.frame(x-1.5, y-1.5, cell+3, ch+3, 1.5, accent)
						}
						break
					}
				}
			}
			p.y += h + fs*0.5
		}
	}
	// Legend: swatch + name and how many of each.
	var n [3]int
	for _, op := range s.Ops {
		n[op.Kind]++
	}
	if p.fits(fs * 1.2) {
		x := side.X
		items := []struct {
			c    Color
			name string
		}{
			{headerC, "header 16"},
			{opColor(OpXZero, 0), fmt.Sprintf("XZERO %d", n[OpXZero])},
			{opColor(OpZero, 0), fmt.Sprintf("ZERO %d", n[OpZero])},
			{regColor(1), fmt.Sprintf("VAL %d", n[OpVal])},
		}
		for _, it := range items {
			w := textWidth(it.name, small, false)
			if x+small+w > side.X+side.W {
				break
			}
			p.l.rect(x, p.y+small*0.2, small*0.75, small*0.75, it.c)
			p.l.text(x+small, p.y, it.name, small, textColor, Left, false)
			x += small + w + small*0.7
		}
		p.y += fs * 1.4
	}
	if lr := s.LastRewrite; lr != nil && p.fits(2*small*1.4+small*1.4) {
		how := lr.Rewrite
		switch lr.Rewrite {
		case "split":
			how = tr(s.lang, "a run split", "tách một đoạn")
		case "in-place":
			how = tr(s.lang, "in place", "ghi tại chỗ")
		}
		p.line(tr(s.lang, "register %d, %s:", "thanh ghi %d, %s:", lr.Index, how), small, accent, false)
		p.line(lr.Before+" → "+lr.After, small, accent, true)
	}
	// The opcodes from the start, as PFDEBUG DECODE prints them, on as many lines as fit
	// (keeping one for the command).
	chars := int(side.W/(monoAdvance*small)) - 1
	var b strings.Builder
	for i, op := range s.Ops {
		o := op.String()
		if b.Len() > 0 && b.Len()+len(o)+1 > chars {
			if !p.fits(small*1.2 + small*1.4) {
				return
			}
			p.line(b.String(), small, dim, true)
			b.Reset()
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(o)
		if i == len(s.Ops)-1 && p.fits(small*1.2+small*1.4) {
			p.line(b.String(), small, dim, true)
		}
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// hLLHeaderCard reads the cached cardinality of an HLL header and whether it is valid.
func hLLHeaderCard(p []byte) (card int64, valid bool) {
	c, ok := hll.CachedCard(p)
	return int64(c), ok
}

// relErr is (est − truth) / truth.
func relErr(est, truth int64) float64 {
	if truth == 0 {
		return 0
	}
	return float64(est-truth) / float64(truth)
}

// signedPct formats a ratio as a signed percentage with two decimals.
func signedPct(x float64) string { return fmt.Sprintf("%+.2f %%", 100*x) }

// frameCounting draws the counting view: band charts for the HLL/set pairs, or the parts' bars
// with their sum beside the merged HLL and the truth.
func (s *HLL) frameCounting(r Rect, t float64) []Prim {
	var l list
	f, in := margins(r)
	p := &panel{l: &l, r: in, y: in.Y}
	if len(s.Rows) == 0 {
		l.wrap(in, in.Y, tr(s.lang, "No HyperLogLog or set yet.", "Chưa có HyperLogLog hay set nào."), f, dim)
		return l
	}
	fs := math.Max(10, f*0.8)
	if parts := s.parts(); len(parts) > 0 {
		s.frameWeek(p, f, fs, parts)
	} else {
		s.frameBands(p, f, fs)
	}
	if s.Reply != "" {
		p.y = math.Max(p.y, in.Y+in.H-sm(fs)*1.2)
		p.line(s.Cmd+" → "+strings.ReplaceAll(s.Reply, "\n", " "), sm(fs), dim, true)
	}
	return l
}

// bandAxis is the relative range the band chart spans around the truth: ±3 standard errors, or
// wider to keep the estimate in sight.
func bandAxis(est, truth int64, known bool) float64 {
	a := 3 * HLLStdErr
	if known {
		a = math.Max(a, math.Abs(relErr(est, truth))*1.15)
	}
	return a
}

// bandX is where value v falls on a band axis of relative half-width a around truth drawn in r.
func bandX(r Rect, v float64, truth int64, a float64) float64 {
	if truth == 0 || a == 0 {
		return r.X + r.W/2
	}
	rel := (v - float64(truth)) / float64(truth)
	return r.X + r.W/2 + rel/a*r.W/2
}

// frameBands: one band chart per HLL/set pair.
func (s *HLL) frameBands(p *panel, f, fs float64) {
	p.line(tr(s.lang, "PFCOUNT against SCARD: band = ±1.04/√16384 = ±0.81 %%", "PFCOUNT so với SCARD: dải = ±1,04/√16384 = ±0,81 %%"), fs, textColor, false)
	p.y += fs * 0.3
	pairs := s.Pairs()
	if len(pairs) == 0 {
		p.line(tr(s.lang, "(no HLL followed by its set in the lesson's keys)", "(không có HLL nào đi kèm set của nó trong keys)"), fs, dim, false)
		return
	}
	s.bandLegend(p, fs)
	reserve := fs * 1.4 // the command line
	per := (p.r.Y + p.r.H - p.y - reserve) / float64(len(pairs))
	for _, i := range pairs {
		h := s.Rows[i]
		tr0 := s.Rows[h.Truth]
		top := p.y
		est := "?"
		if h.Known {
			est = fmt.Sprint(h.Count)
		}
		head := fmt.Sprintf("%s PFCOUNT %s · %s SCARD %d", h.Key, est, tr0.Key, tr0.Count)
		if h.Known {
			head += " · " + signedPct(relErr(h.Count, tr0.Count))
		}
		if !p.line(head, fs, textColor, true) {
			return
		}
		ah := math.Min(fs*2.6, math.Max(fs*1.3, per-4.6*fs))
		if !p.fits(ah + fs*1.3) {
			return
		}
		ax := Rect{p.r.X, p.y, p.r.W, ah}
		a := bandAxis(h.Count, tr0.Count, h.Known)
		lo2, hi2 := hLLBand(tr0.Count, 2)
		lo, hi := hLLBand(tr0.Count, 1)
		x0, x1 := bandX(ax, lo2, tr0.Count, a), bandX(ax, hi2, tr0.Count, a)
		p.l.rect(ax.X, ax.Y, ax.W, ax.H, panelC)
		p.l.rect(x0, ax.Y, x1-x0, ax.H, panelC.mix(indexC, 0.18))
		x0, x1 = bandX(ax, lo, tr0.Count, a), bandX(ax, hi, tr0.Count, a)
		p.l.rect(x0, ax.Y, x1-x0, ax.H, panelC.mix(indexC, 0.4))
		tx := bandX(ax, float64(tr0.Count), tr0.Count, a)
		p.l.line(tx, ax.Y-2, tx, ax.Y+ax.H+2, 2, textColor)
		if h.Known {
			ex := bandX(ax, float64(h.Count), tr0.Count, a)
			p.l.rect(ex-2, ax.Y-4, 4, ax.H+8, accent)
		}
		p.y += ah + fs*0.3
		// The band's bounds under its edges.
		ls := sm(fs)
		if p.fits(ls * 1.2) {
			loT, hiT := fmt.Sprintf("%.0f = −0.81%%", lo), fmt.Sprintf("+0.81%% = %.0f", hi)
			p.l.text(x0-2, p.y, loT, ls, indexC, Right, true)
			p.l.text(x1+2, p.y, hiT, ls, indexC, Left, true)
			p.y += ls * 1.4
		}
		mem := fmt.Sprintf("MEMORY USAGE %s %s · %s %s (%s %s)", h.Key, num(h.Memory), tr0.Key, num(tr0.Memory), h.Key, h.Enc)
		if textWidth(mem, sm(fs), true) <= p.r.W {
			p.line(mem, sm(fs), dim, true)
		} else { // too long for one line (long key names, a phone): one line per key
			p.line(fmt.Sprintf("MEMORY USAGE %s %s (%s)", h.Key, num(h.Memory), h.Enc), sm(fs), dim, true)
			p.line(fmt.Sprintf("MEMORY USAGE %s %s", tr0.Key, num(tr0.Memory)), sm(fs), dim, true)
		}
		p.y = math.Max(p.y+fs*0.3, math.Min(top+per, p.y+fs))
	}
}

// bandLegend: what the marks of the band chart are, each with its swatch.
func (s *HLL) bandLegend(p *panel, fs float64) {
	ls := sm(fs)
	if !p.fits(ls * 1.5) {
		return
	}
	x := p.r.X
	items := []struct {
		c    Color
		w    float64
		name string
	}{
		{accent, 4, "PFCOUNT"},
		{textColor, 2, tr(s.lang, "SCARD (truth)", "SCARD (thật)")},
		{panelC.mix(indexC, 0.4), ls * 1.2, "±1σ"},
		{panelC.mix(indexC, 0.18), ls * 1.2, "±2σ"},
	}
	for _, it := range items {
		w := textWidth(it.name, ls, false) * 1.1 // capitals run wider than the average advance
		if x+it.w+ls*0.4+w > p.r.X+p.r.W {
			break
		}
		p.l.rect(x, p.y, it.w, ls*1.15, it.c)
		p.l.text(x+it.w+ls*0.4, p.y, it.name, ls, dim, Left, false)
		x += it.w + ls*0.4 + w + ls*1.2
	}
	p.y += ls * 1.6
}

// weekScale is the value the bars' full width stands for: the largest of the sum of the parts,
// every count and every truth.
func (s *HLL) weekScale() int64 {
	sum, _ := s.partsSum()
	m := sum
	for _, r := range s.Rows {
		m = max(m, r.Count)
	}
	return m
}

// frameWeek: the parts' bars, their sum, the exact count and the merged estimate with its band.
func (s *HLL) frameWeek(p *panel, f, fs float64, parts []int) {
	p.line(tr(s.lang, "distinct: each key's PFCOUNT, their sum, the exact count", "số phần tử khác nhau: PFCOUNT từng key, tổng, số thật"), fs, textColor, false)
	p.y += fs * 0.2
	scale := float64(s.weekScale())
	labels := []string{}
	for _, i := range parts {
		labels = append(labels, s.Rows[i].Key)
	}
	sumLabel := tr(s.lang, "Σ PFCOUNT", "Σ PFCOUNT")
	labels = append(labels, sumLabel)
	for _, r := range s.Rows {
		if r.Set {
			labels = append(labels, r.Key+" SCARD")
		} else {
			labels = append(labels, r.Key)
		}
	}
	lw := 0.0
	for _, lb := range labels {
		lw = math.Max(lw, textWidth(lb, fs, true))
	}
	lw = math.Min(lw, p.r.W*0.32)
	vw := textWidth("1000000 +0.00 %", sm(fs), true)
	bar := Rect{p.r.X + lw + fs*0.5, 0, p.r.W - lw - fs*1.0 - vw, 0}
	if bar.W < 20 {
		bar.W = 20
	}
	rowsN := len(parts) + 1 + len(s.Pairs())*2 + len(s.truths())
	reserve := fs*1.4*3 + fs*0.5
	rh := math.Min(fs*3, (p.r.Y+p.r.H-p.y-reserve)/float64(rowsN))
	rh = math.Max(rh, fs*1.15)
	wAt := func(v float64) float64 {
		if scale <= 0 {
			return 0
		}
		return bar.W * v / scale
	}
	wOf := func(v int64) float64 { return wAt(float64(v)) }
	truth := int64(-1)
	for _, i := range s.truths() {
		truth = s.Rows[i].Count
	}
	for _, i := range s.Pairs() {
		truth = s.Rows[s.Rows[i].Truth].Count
	}
	partColor := func(k int) Color {
		if k%2 == 0 {
			return indexC
		}
		return indexC.mix(panelC, 0.45)
	}
	row := func(label string, lc Color, draw func(y float64), value string, vc Color) {
		if !p.fits(rh) {
			return
		}
		p.l.text(p.r.X, p.y+(rh-fs*1.15)/2, fitText(label, lw, fs, true), fs, lc, Left, true)
		draw(p.y + rh*0.15)
		p.l.text(p.r.X+p.r.W, p.y+(rh-sm(fs)*1.15)/2, value, sm(fs), vc, Right, true)
		p.y += rh
	}
	bh := rh * 0.7
	for k, i := range parts {
		rw := s.Rows[i]
		v := "?"
		if rw.Known {
			v = fmt.Sprint(rw.Count)
		}
		row(rw.Key, textColor, func(y float64) {
			if rw.Known {
				p.l.rect(bar.X, y, wOf(rw.Count), bh, partColor(k))
			}
		}, v, indexC)
	}
	sum, known := s.partsSum()
	top := p.y // the truth's line starts at the sum
	if len(parts) > 1 {
		v := fmt.Sprint(sum)
		if !known {
			v = "?"
		} else if truth > 0 {
			v += " " + signedPct(relErr(sum, truth))
		}
		row(sumLabel, runC, func(y float64) {
			x := bar.X
			for k, i := range parts {
				if s.Rows[i].Known {
					w := wOf(s.Rows[i].Count)
					p.l.rect(x, y, w, bh, partColor(k))
					x += w
				}
			}
			p.l.frame(bar.X, y, x-bar.X, bh, 2, runC)
		}, v, runC)
	}
	for _, i := range s.truths() {
		rw := s.Rows[i]
		row(rw.Key+" SCARD", oneC, func(y float64) { p.l.rect(bar.X, y, wOf(rw.Count), bh, oneC) }, fmt.Sprint(rw.Count), oneC)
	}
	for _, i := range s.Pairs() {
		h, tr0 := s.Rows[i], s.Rows[s.Rows[i].Truth]
		row(tr0.Key+" SCARD", oneC, func(y float64) { p.l.rect(bar.X, y, wOf(tr0.Count), bh, oneC) }, fmt.Sprint(tr0.Count), oneC)
		v := "?"
		if h.Known {
			v = fmt.Sprint(h.Count) + " " + signedPct(relErr(h.Count, tr0.Count))
		}
		row(h.Key, accent, func(y float64) {
			lo, hi := hLLBand(tr0.Count, 1)
			if h.Known {
				p.l.rect(bar.X, y, wOf(h.Count), bh, accent)
			}
			x0, x1 := bar.X+wAt(lo), bar.X+wAt(hi)
			p.l.frame(x0, y-2, math.Max(x1-x0, 2), bh+4, 1.5, textColor)
		}, v, accent)
	}
	// The exact count as a line through every bar.
	if truth > 0 {
		x := bar.X + wOf(truth)
		p.l.line(x, top, x, p.y, 1.5, oneC)
	}
	p.y += fs * 0.4
	if len(parts) > 1 && known && truth > 0 {
		p.line(tr(s.lang, "the sum counts a returning viewer once per day: +%d", "tổng đếm người quay lại mỗi ngày một lần: +%d", sum-truth), sm(fs), runC, false)
	}
	for _, i := range s.Pairs() {
		h, tr0 := s.Rows[i], s.Rows[s.Rows[i].Truth]
		p.line(fmt.Sprintf("MEMORY USAGE %s %s (%s) · %s %s", h.Key, num(h.Memory), h.Enc, tr0.Key, num(tr0.Memory)), sm(fs), dim, true)
	}
}

// sm is the small text size next to fs, never under 10 px.
func sm(fs float64) float64 { return math.Max(minText, fs*0.9) }
