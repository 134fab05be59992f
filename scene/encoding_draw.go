package scene

// The encoding scene's drawing; encoding.go holds its model (what Update reads from the engine
// and the step's events). Top to bottom: the key and its encoding, the encoding path of its type
// under the chosen version (listpack → hashtable) with the rule that converted it, the step's
// note, the structure itself (a listpack's bytes, an intset's header and values, a hashtable's
// buckets and chains), the MEMORY USAGE bars on the fixed log scale of layout.go, and the legend
// of byte classes. Bytes are cells of at most 3.2 × 2.4 font sizes when there are 64 or fewer,
// 2.2 × 1.6 beyond, and one pixel each once a cell would be under 4 px (layoutGrid).

import (
	"fmt"
	"math"
	"strconv"

	"redscope/engine"
	"redscope/engine/dict"
)

// Frame implements Scene.
func (s *encodingScene) Frame(r Rect, t float64) []Prim {
	return s.fit.framed(r, t, s.lang, s.start, s.layout)
}

// layout lays the scene out in r (Frame zooms it to fill the stage).
func (s *encodingScene) layout(r Rect, t float64) []Prim {
	var l list
	f, in := margins(r)
	y := in.Y
	small := f * 0.75
	if s.Key == "" || !s.Info.Exists {
		msg := tr(s.lang, "No hash, set or sorted set yet: run HSET, SADD or ZADD.", "Chưa có hash, set hay sorted set: hãy chạy HSET, SADD hoặc ZADD.")
		if s.Key != "" {
			msg = s.Key + ": " + tr(s.lang, "(missing)", "(không tồn tại)")
		}
		return emptyNote(in, f, msg)
	}
	// Title.
	title := fit(s.Key, in.W*0.45, f)
	l.text(in.X, y, title, f, textColor, Left, true)
	sub := fmt.Sprintf("%s · %s", s.Info.Type, s.Info.Encoding)
	tx := in.X + monoWidth(title, f) + f*0.6
	l.text(tx, y+f*0.15, fit(sub, in.X+in.W-tx, f*0.8), f*0.8, dim, Left, true)
	y += f * 1.45
	// Encoding path(s).
	y = s.drawPath(&l, in, y, f, t)
	// Conversion banner or the last edit.
	if s.Note != "" {
		c := dim
		if s.Conv != nil {
			c = textColor.mix(accent, pulseAt(t))
		}
		for _, ln := range wrap(s.Note, in.W, small, 2) {
			l.text(in.X, y, ln, small, c, Left, true)
			y += small * 1.3
		}
		y += f * 0.2
	}
	// Bottom block: memory bars and legend.
	memLines := max(1, len(s.Mem))
	legendH := small * 1.35 * float64(s.legendRows(in.W, small))
	memH := float64(memLines)*f*1.15 + f*0.2 + memAxisHeight(in.W, f, s.lang)
	bottomH := memH + legendH + f*0.3
	main := Rect{in.X, y, in.W, math.Max(f*2, in.Y+in.H-bottomH-y)}
	switch {
	case s.LP != nil:
		s.drawLP(&l, main, f, t)
	case s.IS != nil:
		s.drawIS(&l, main, f, t)
	case s.HT != nil:
		s.drawHT(&l, main, f, t)
	}
	yb := main.Y + main.H + f*0.3
	s.drawMem(&l, Rect{in.X, yb, in.W, memH}, f, t)
	s.drawLegend(&l, in.X, yb+memH, in.W, small)
	return l
}

// drawPath draws the type's encoding path for the current version and, for sets, the other
// version's path dimmed (7.0 has no set listpack).
func (s *encodingScene) drawPath(l *list, in Rect, y, f, t float64) float64 {
	size := f * 0.75
	rows := []engine.Version{s.Ver}
	if s.Type == "set" {
		rows = []engine.Version{engine.V70, engine.V72}
	}
	for _, v := range rows {
		cur := s.Type != "set" || v.Has(engine.V72) == s.Ver.Has(engine.V72)
		x := in.X
		if s.Type == "set" {
			label := "Redis 7.0"
			if v.Has(engine.V72) {
				label = "Redis 7.2+"
			}
			c := dim
			if cur {
				c = textColor
			}
			l.text(x, y, label, size, c, Left, true)
			x += monoWidth("Redis 7.2+", size) + size
		}
		for i, enc := range encodingPath(s.Type, v) {
			if i > 0 {
				l.text(x, y, "→", size, dim, Left, true)
				x += monoWidth("→ ", size)
			}
			w := monoWidth(enc, size) + size*0.8
			if x+w > in.X+in.W {
				break
			}
			here := cur && enc == s.Info.Encoding
			bg := panelC
			fg := dim
			if cur {
				fg = encColor(enc) // a text colour too: ≥ 4.5:1 on Panel
			}
			if here { // filled with the structure's colour (palette.go), as in every scene
				bg = encColor(enc)
				if s.Conv != nil {
					bg = bg.mix(panelC, 0.5*(1-ease(t)))
				}
				fg = textOn(bg)
			}
			l.rect(x, y-size*0.15, w, size*1.3, bg)
			l.text(x+w/2, y, enc, size, fg, Center, true)
			x += w + size*0.4
		}
		y += size * 1.6
	}
	return y + f*0.1
}

func (s *encodingScene) legendClasses() []int {
	switch {
	case s.LP != nil:
		cs := []int{byteLPHeader, byteEnc, byteField}
		if s.LP.Tuple >= 2 {
			cs = append(cs, byteValue)
		}
		if s.LP.Tuple == 3 {
			cs = append(cs, byteTTL)
		}
		return append(cs, byteBacklen, byteEOF)
	case s.IS != nil:
		return []int{byteISHeader, byteISValue}
	}
	return nil
}

func (s *encodingScene) legendItems() []struct {
	c    Color
	name string
} {
	var out []struct {
		c    Color
		name string
	}
	for _, c := range s.legendClasses() {
		out = append(out, struct {
			c    Color
			name string
		}{byteColor(c), byteClassName(c, s.Type, s.lang)})
	}
	if s.HT != nil {
		for n := 0; n <= 3; n++ {
			name := tr(s.lang, "empty bucket", "bucket trống")
			if n > 0 {
				name = tr(s.lang, "chain of %d", "chuỗi %d", n)
			}
			if n == 3 {
				name = tr(s.lang, "chain of 3+", "chuỗi 3+")
			}
			out = append(out, struct {
				c    Color
				name string
			}{chainColor(n), name})
		}
	}
	out = append(out, struct {
		c    Color
		name string
	}{accent, tr(s.lang, "written by this step", "vừa ghi ở bước này")})
	return out
}

// legendRows counts the rows the legend wraps to in width w.
func (s *encodingScene) legendRows(w, size float64) int {
	rows, x := 1, 0.0
	for _, it := range s.legendItems() {
		iw := size*1.3 + monoWidth(it.name, size) + size
		if x > 0 && x+iw > w {
			rows++
			x = 0
		}
		x += iw
	}
	return rows
}

func (s *encodingScene) drawLegend(l *list, x0, y, w, size float64) {
	x := x0
	for _, it := range s.legendItems() {
		name := fit(it.name, w-size*1.3, size)
		iw := size*1.3 + monoWidth(name, size) + size
		if x > x0 && x+iw > x0+w {
			x = x0
			y += size * 1.35
		}
		l.rect(x, y+size*0.15, size*0.8, size*0.8, it.c)
		l.text(x+size*1.1, y, name, size, dim, Left, true)
		x += iw
	}
}

// drawMem draws the step's MEMORY USAGE readings (or the current figure) as bars.
func (s *encodingScene) drawMem(l *list, r Rect, f, t float64) {
	drawMemBars(l, r, f, t, s.Mem, s.Info, s.Conv != nil, s.lang)
}

// drawMemBars draws MEMORY USAGE readings as bars (the key's current figure when there are none);
// conv marks a step that converted the key (the "after" bars grow in).
func drawMemBars(l *list, r Rect, f, t float64, mem []memReading, info engine.KeyInfo, conv bool, lang string) {
	rs := mem
	if len(rs) == 0 {
		if info.Memory < 0 {
			return
		}
		rs = []memReading{{Bytes: info.Memory, Encoding: info.Encoding}}
	}
	size := f * 0.75
	barMax := r.W * 0.5 // the fixed scale's full length (layout.go)
	y := r.Y
	for i, m := range rs {
		label := fmt.Sprintf("MEMORY USAGE %d (%s)", m.Bytes, m.Encoding)
		if len(mem) > 1 {
			tag := tr(lang, "before", "trước")
			if m.After || i == len(rs)-1 && !conv && i > 0 {
				tag = tr(lang, "after", "sau")
			}
			label = tag + ": " + label
		}
		bw := memBarLen(m.Bytes, barMax)
		if m.After && conv {
			bw *= 0.3 + 0.7*ease(t)
		}
		c := encColor(m.Encoding) // the structure's colour (palette.go)
		if bw > 0 {
			l.rect(r.X, y+f*0.1, math.Max(2, bw), f*0.75, c)
		}
		l.text(r.X+bw+f*0.4, y+f*0.05, fit(label, r.W-bw-f*0.4, size), size, textColor, Left, true)
		y += f * 1.15
	}
	if y+memAxisHeight(r.W, f, lang) <= r.Y+r.H+0.01 {
		drawMemAxis(l, r.X, y+f*0.2, barMax, r.W, f, lang)
	}
}

// drawLP draws a listpack's bytes: cells with their characters when they fit, else one pixel
// per byte; the bytes the step wrote are framed, and the tail memmove shifted slides in.
func (s *encodingScene) drawLP(l *list, r Rect, f, t float64) {
	drawLPBytes(l, s.LP, r, f, t, &s.img, s.lang)
}

// drawLPBytes draws listpack v's bytes in r; img receives the minimap when cells would be tiny.
func drawLPBytes(l *list, v *lpView, r Rect, f, t float64, img *cachedImage, lang string) {
	size := f * 0.72
	head := fmt.Sprintf(pick(lang, "%d entries · %d bytes · malloc class %d", "%d entry · %d byte · lớp malloc %d"), len(v.Entries), len(v.Bytes), v.Alloc)
	if v.Alloc <= 0 { // bytes with no allocation of their own (a DUMP payload's)
		head = fmt.Sprintf(pick(lang, "%d entries · %d bytes", "%d entry · %d byte"), len(v.Entries), len(v.Bytes))
	}
	l.text(r.X, r.Y, fit(head, r.W, size), size, dim, Left, true)
	y := r.Y + size*1.4
	g := layoutGrid(len(v.Bytes), r.W, r.Y+r.H-y, f, 8)
	if !g.Text && len(v.Bytes) > maxCells { // thousands of tiny cells: one image instead
		g = imageGrid(len(v.Bytes), r.W, r.Y+r.H-y)
	}
	if g.Image {
		px := img.fill(g.Cols, len(v.Bytes), func(i int) Color {
			c := byteColor(int(v.Class[i]))
			if v.isNew(i) { // tinted, so the entries stay readable under the highlight
				return c.mix(accent, 0.45)
			}
			return c
		})
		*l = append(*l, Prim{Kind: KImage, X: r.X, Y: y, W: g.ImgW, H: g.ImgH, Img: px})
		return
	}
	k := ease(t)
	for i, b := range v.Bytes {
		c := byteColor(int(v.Class[i]))
		cell := g.cell(r.X, y, i)
		if v.ShiftFrom >= 0 && i >= v.ShiftFrom && k < 1 {
			from := g.cell(r.X, y, max(0, i-v.Shift))
			cell.X = from.X + (cell.X-from.X)*k
			cell.Y = from.Y + (cell.Y-from.Y)*k
		}
		isNew := v.isNew(i)
		if isNew {
			c = c.mix(Background, 0.6*(1-k))
		}
		l.rect(cell.X+1, cell.Y+1, cell.W-2, cell.H-2, c)
		moving := v.ShiftFrom >= 0 && i >= v.ShiftFrom && k < 1
		if g.Text && !moving {
			cls := int(v.Class[i])
			txt := ""
			switch {
			case cls == byteField || cls == byteValue || cls == byteTTL:
				if isDataText(v, i) {
					txt = printable(b)
				} else {
					txt = fmt.Sprintf("%02x", b)
				}
			case cls == byteEOF:
				txt = "ff"
			}
			ts := math.Max(f*0.7, math.Min(f*1.1, g.CH*0.45)) // grows with a big cell
			if monoWidth(txt, ts) > cell.W-2 {
				ts = f * 0.7
			}
			if txt != "" && monoWidth(txt, ts) <= cell.W-2 {
				l.text(cell.X+cell.W/2, cell.Y+(cell.H-ts)/2, txt, ts, Background, Center, true)
			}
		}
	}
	spanFrames(l, v, g, r.X, y, f, t)
}

// spanFrames frames the bytes the step wrote: one outline per row segment of each span.
func spanFrames(l *list, v *lpView, g gridLayout, x, y, f, t float64) {
	for _, sp := range v.New {
		for i := sp.From; i < sp.To && i < len(v.Bytes); {
			end := min(sp.To, (i/g.Cols+1)*g.Cols, len(v.Bytes))
			a := g.cell(x, y, i)
			w := float64(end-i) * g.CW
			l.frame(a.X+1, a.Y+1, w-2, a.H-2, math.Max(1.5, f*0.1), accent.alpha(pulseAt(t)))
			i = end
		}
	}
}

// isDataText reports whether byte i is a character of a string entry (integers are shown in hex).
func isDataText(v *lpView, i int) bool {
	for _, e := range v.Entries {
		if i >= e.Off && i < e.Off+e.Size {
			return !e.Int
		}
	}
	return false
}

// drawIS draws an intset: the 8-byte header, then each member's bytes with its value.
func (s *encodingScene) drawIS(l *list, r Rect, f, t float64) {
	v := s.IS
	size := f * 0.72
	head := fmt.Sprintf(pick(s.lang, "%d integers × %d bytes + 8-byte header = %d bytes · malloc class %d",
		"%d số nguyên × %d byte + header 8 byte = %d byte · lớp malloc %d"), len(v.Values), v.Width, v.byteLen(), v.Alloc)
	if v.Alloc <= 0 { // bytes with no allocation of their own (a DUMP payload's)
		head = fmt.Sprintf(pick(s.lang, "%d integers × %d bytes + 8-byte header = %d bytes", "%d số nguyên × %d byte + header 8 byte = %d byte"), len(v.Values), v.Width, v.byteLen())
	}
	for _, ln := range wrap(head, r.W, size, 2) {
		l.text(r.X, r.Y, ln, size, dim, Left, true)
		r.Y += size * 1.35
		r.H -= size * 1.35
	}
	n := v.byteLen()
	g := layoutGrid(n, r.W, r.H, f, 8)
	if g.Image {
		px := s.img.fill(g.Cols, n, func(i int) Color { return byteColor(v.byteClass(i)) })
		*l = append(*l, Prim{Kind: KImage, X: r.X, Y: r.Y, W: g.ImgW, H: g.ImgH, Img: px})
		return
	}
	k := ease(t)
	tick := func(x, y0, h float64) { l.line(x, y0+1, x, y0+h-1, 1, Background) }
	// The header: encoding (4 bytes) and length (4 bytes), one box each with byte ticks.
	for half := 0; half < 2; half++ {
		c0 := g.cell(r.X, r.Y, half*4)
		l.rect(c0.X+1, c0.Y+1, 4*g.CW-2, c0.H-2, byteColor(byteISHeader))
		for b := 1; b < 4; b++ {
			tick(c0.X+float64(b)*g.CW, c0.Y, c0.H)
		}
	}
	// Members: one box per member (a member never wraps: columns are a multiple of 8).
	for m, x := range v.Values {
		first := g.cell(r.X, r.Y, 8+m*v.Width)
		w := g.CW * float64(v.Width)
		c := byteColor(v.byteClass(8 + m*v.Width))
		if m == v.NewPos {
			c = c.mix(Background, 0.6*(1-k))
		}
		if v.OldWidth > 0 { // an upgrade: every member was rewritten wider
			c = c.mix(accent, 0.5*(1-k))
		}
		l.rect(first.X+1, first.Y+1, w-2, first.H-2, c)
		for b := 1; b < v.Width; b++ {
			tick(first.X+float64(b)*g.CW, first.Y, first.H)
		}
		if m == v.NewPos {
			l.frame(first.X+1, first.Y+1, w-2, first.H-2, math.Max(1.5, f*0.1), accent.alpha(pulseAt(t)))
		}
		txt := strconv.FormatInt(x, 10)
		ts := math.Min(f*0.7, (w-4)/(monoAdvance*float64(len(txt))))
		if ts >= 7 {
			l.text(first.X+w/2, first.Y+(first.H-ts)/2, txt, ts, Background, Center, true)
		}
	}
	if g.Text {
		hdr := g.cell(r.X, r.Y, 0)
		lbl := fmt.Sprintf("enc %d", v.Width)
		if monoWidth(lbl, f*0.6) <= 4*g.CW-4 {
			l.text(hdr.X+2*g.CW, hdr.Y+(hdr.H-f*0.6)/2, lbl, f*0.6, textColor, Center, true)
			lbl = fmt.Sprintf("len %d", len(v.Values))
			l.text(hdr.X+6*g.CW, hdr.Y+(hdr.H-f*0.6)/2, fit(lbl, 4*g.CW-4, f*0.6), f*0.6, textColor, Center, true)
		}
	}
}

// drawHT draws a hash table: the bucket array (cells with chains below for a small table, one
// pixel per bucket for a big one) and the chains of the buckets around the step's insert.
func (s *encodingScene) drawHT(l *list, r Rect, f, t float64) {
	h := s.HT
	d := h.View
	size := f * 0.72
	head := fmt.Sprintf(pick(s.lang, "table size %d · %s · load %.2f", "bảng %d bucket · %s · tải %.2f"),
		d.Size[0], trPlural(s.lang, int64(d.Used[0]), "entry", "entries", "entry"), float64(d.Used[0])/math.Max(1, float64(d.Size[0])))
	if d.RehashIdx >= 0 {
		head += fmt.Sprintf(pick(s.lang, " · rehashing → %d (rehashidx %d)", " · đang rehash → %d (rehashidx %d)"), d.Size[1], d.RehashIdx)
	}
	l.text(r.X, r.Y, fit(head, r.W, size), size, dim, Left, true)
	y := r.Y + size*1.4
	hist := fmt.Sprintf(pick(s.lang, "buckets: %d empty · %d×1 · %d×2 · %d×3 · %d×4+", "bucket: %d trống · %d×1 · %d×2 · %d×3 · %d×4+"),
		h.Hist[0], h.Hist[1], h.Hist[2], h.Hist[3], h.Hist[4])
	l.text(r.X, y, fit(hist, r.W, size), size, dim, Left, true)
	y += size * 1.5
	k := ease(t)
	fade := func(c Color) Color {
		if s.Conv != nil {
			return c.mix(Background, 0.7*(1-k))
		}
		return c
	}
	n := int(d.Size[0])
	if n == 0 {
		return
	}
	// Bucket map: one pixel (scaled) per bucket of table 0.
	mapH := math.Min((r.Y+r.H-y)*0.4, f*6)
	cols := 1
	for cols*cols < n*4 && cols < n {
		cols *= 2
	}
	rows := (n + cols - 1) / cols
	cell := math.Min(math.Min(r.W/float64(cols), mapH/float64(rows)), f*2) // a small table stays small
	if cell >= 1 {
		px := s.img.fill(cols, n, func(i int) Color {
			if h.HitIdx == int64(i) && h.HitT == 0 {
				return accent
			}
			return chainColor(int(h.Lens[0][i]))
		})
		*l = append(*l, Prim{Kind: KImage, X: r.X, Y: y, W: cell * float64(cols), H: cell * float64(rows), Img: px})
		if h.HitIdx >= 0 && h.HitT == 0 && cell >= 3 {
			i := int(h.HitIdx)
			l.frame(r.X+float64(i%cols)*cell-1, y+float64(i/cols)*cell-1, cell+2, cell+2, 1.5, accent.alpha(pulseAt(t)))
		}
		y += cell*float64(rows) + f*0.5
	}
	// Chains: rows "[index] → key → key", around the hit bucket (or the first non-empty ones).
	lineH := f * 1.25
	maxRows := int((r.Y + r.H - y) / lineH)
	if maxRows <= 0 {
		return
	}
	bs := d.Buckets
	if d.RehashIdx < 0 && n <= maxRows && n <= 64 {
		// A small table: every bucket, the empty ones as NULL, rows grown to fill the stage.
		all := make([]dict.Bucket[string], n)
		for i := range all {
			all[i].Index = uint64(i)
		}
		for _, b := range bs {
			if b.Table == 0 && int(b.Index) < n {
				all[b.Index] = b
			}
		}
		bs = all
		lineH = math.Min(f*2, math.Max(lineH, (r.Y+r.H-y)/float64(n)))
		maxRows = n
	}
	start := 0
	for i, b := range bs {
		if b.Table == h.HitT && int64(b.Index) == h.HitIdx {
			start = max(0, i-maxRows/2)
			break
		}
	}
	start = max(0, min(start, len(bs)-maxRows))
	for i := start; i < len(bs) && i < start+maxRows; i++ {
		b := bs[i]
		hit := b.Table == h.HitT && int64(b.Index) == h.HitIdx
		x := r.X
		lbl := fmt.Sprintf("[%d]", b.Index)
		if b.Table == 1 {
			lbl = fmt.Sprintf("[1:%d]", b.Index)
		}
		bw := monoWidth("[00000]", size) + size*0.6
		bg := fade(chainColor(len(b.Keys)))
		l.rect(x, y, bw, lineH-3, bg)
		l.text(x+bw/2, y+(lineH-3-size)/2, fit(lbl, bw-2, size), size, textOn(bg), Center, true)
		x += bw
		if len(b.Keys) == 0 {
			l.text(x, y+(lineH-3-size)/2, " → NULL", size, dim, Left, true)
		}
		for j, key := range b.Keys {
			arrow := " → "
			aw := monoWidth(arrow, size)
			kw := math.Min(monoWidth(key, size)+size*0.8, f*9)
			if x+aw+kw > r.X+r.W {
				if x+aw+monoWidth("…", size) <= r.X+r.W {
					l.text(x, y+(lineH-3-size)/2, fmt.Sprintf(" +%d", len(b.Keys)-j), size, dim, Left, true)
				}
				break
			}
			l.text(x, y+(lineH-3-size)/2, arrow, size, dim, Left, true)
			x += aw
			c := panelC
			fg := textColor
			if hit && j == 0 {
				c = accent.mix(panelC, 1-pulseAt(t))
				fg = Background
				if contrast(fg, c) < 4.5 {
					fg = textColor
				}
			}
			l.rect(x, y, kw, lineH-3, c)
			l.text(x+kw/2, y+(lineH-3-size)/2, fit(key, kw-size*0.4, size), size, fg, Center, true)
			x += kw
		}
		y += lineH
	}
}

// byteClassName is a legend label.
func byteClassName(c int, typ, lang string) string {
	switch c {
	case byteLPHeader:
		return tr(lang, "header (total, count)", "header (tổng byte, số entry)")
	case byteEnc:
		return tr(lang, "encoding byte", "byte encoding")
	case byteField:
		if typ == "zset" || typ == "set" {
			return "member"
		}
		return "field"
	case byteValue:
		if typ == "zset" {
			return "score"
		}
		return "value"
	case byteTTL:
		return "TTL"
	case byteBacklen:
		return "backlen"
	case byteEOF:
		return "EOF 0xFF"
	case byteISHeader:
		return tr(lang, "header (encoding, length)", "header (encoding, length)")
	case byteISValue, byteISValue2:
		return tr(lang, "integers", "số nguyên")
	}
	return ""
}

// chainColor colours a bucket by its chain length.
func chainColor(n int) Color {
	switch {
	case n <= 0:
		return zeroC
	case n == 1:
		return dataC
	case n == 2:
		return oneC
	}
	return runC
}
