package scene

// The string scene's drawing; sds.go holds its model (each key's allocation, the growth history,
// the TTL rows). A key is its title and TTL badge, then its allocation: byte by byte (robj and
// sds header, data, NUL, spare room) while it fits as cells, else a bar to scale whose segments
// keep at least a minimum width each (barWidths: a 9-byte header stays visible beside 10 MB of
// data). Below come the chart of len and alloc after every command of a long APPEND run, the
// TTL table, and the legend of segment kinds.

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"redscope/engine/sds"
	"redscope/internal/numfmt"
)

// segColor is the colour of a segment kind (computed from the palette at call time).
func segColor(kind int) Color {
	switch kind {
	case segRobj:
		return headerC.mix(Background, 0.35)
	case segHeader:
		return headerC
	case segData:
		return dataC
	case segNul:
		return nulC
	case segFree:
		return freeC
	case segZero:
		return dataC.mix(Background, 0.62)
	}
	return slackC
}

// segName is a segment kind's legend label.
func segName(kind int, lang string) string {
	en := [...]string{"robj", "sds header", "bytes (len)", "NUL", "free (alloc − len)", "allocator rounding", "zero bytes (filled)"}
	vi := [...]string{"robj", "header sds", "dữ liệu (len)", "NUL", "trống (alloc − len)", "làm tròn của allocator", "byte 0 (lấp đầy)"}
	if kind < 0 || kind >= len(en) {
		return ""
	}
	if lang == "en" {
		return en[kind]
	}
	return vi[kind]
}

// cellCols is how many byte cells a strip row holds, or 0 when the allocation is too big for one
// cell per byte and is drawn as proportional bars.
func cellCols(alloc int, w, f float64) int {
	if alloc > 512 {
		return 0
	}
	cols := 32
	for cols > 8 && w/float64(cols) < f*0.9 {
		cols /= 2
	}
	if w/float64(cols) < 5 || (alloc+cols-1)/cols > 16 {
		return 0
	}
	return cols
}

// barWidths lays segments out to scale in a bar of width w: every non-empty segment gets at
// least minW (so a 9-byte header stays visible beside 10 MB of data) and the widest ones give
// that room back, so the widths add up to w.
func barWidths(segs []segment, w, minW float64) []float64 {
	out := make([]float64, len(segs))
	total := 0
	for _, sg := range segs {
		total += max(sg.Bytes, 0)
	}
	if total == 0 || w <= 0 {
		return out
	}
	var small, bigBytes float64
	for i, sg := range segs {
		if sg.Bytes <= 0 {
			continue
		}
		out[i] = w * float64(sg.Bytes) / float64(total)
		if out[i] < minW {
			small += minW - out[i]
			out[i] = minW
		} else {
			bigBytes += float64(sg.Bytes)
		}
	}
	if small > 0 && bigBytes > 0 {
		// Take the extra room from the segments above minW, in proportion to their size.
		for i, sg := range segs {
			if sg.Bytes > 0 && out[i] > minW {
				out[i] = math.Max(minW, out[i]-small*float64(sg.Bytes)/bigBytes)
			}
		}
	}
	return out
}

// Frame implements Scene. Top to bottom: the growth chart, the keys (each as tall as it needs,
// byte grids shrinking when room is short), the TTL table, then the note and the legend of the
// byte grids' colours (bars and the chart label their own).
func (s *sdsScene) Frame(r Rect, t float64) []Prim {
	return s.fit.framed(r, t, s.lang, s.start, s.layout)
}

// layout lays the scene out in r (Frame zooms it to fill the stage).
func (s *sdsScene) layout(r Rect, t float64) []Prim {
	var l list
	f := fontSize(r)
	pad := f * 0.8
	in := r.inset(pad)
	y := in.Y
	if len(s.Keys) == 0 && s.History == nil {
		l.text(in.X, y, tr(s.lang, "No key to show yet: run SET or APPEND.", "Chưa có khoá nào: hãy chạy SET hoặc APPEND."), f, dim, Left, false)
		return l
	}
	kinds := s.legendKinds(in.W, f)
	legendH := s.legendHeight(kinds, in.W, f)
	noteH := 0.0
	noteLines := 1
	if s.Note != "" {
		if !s.NoteErr && in.H >= 500 { // a tall stage: the note wraps (two lines) rather than end in "…"
			noteLines = min(2, len(wrapText(s.Note, in.W, f*0.8)))
		}
		noteH = float64(noteLines)*f*0.8*1.3 + f*0.3
	}
	bottom := in.Y + in.H - legendH - noteH
	ttlH := 0.0
	if len(s.TTLRows) > 0 {
		ttlH = f * (1.4 + 1.25*float64(min(len(s.TTLRows), ttlMaxRows)))
	}
	maxMem := int64(1)
	scale := 1
	for _, k := range s.Keys {
		maxMem = max(maxMem, k.Info.Memory)
		scale = max(scale, k.Alloc)
	}
	// The keys' natural heights.
	var scratch list
	heights := make([]float64, len(s.Keys))
	fixed, total, grids := 0.0, 0.0, 0
	for i, k := range s.Keys {
		heights[i] = s.drawKey(&scratch, k, Rect{in.X, 0, in.W, 1e6}, f, t, maxMem, scale)
		total += heights[i]
		if k.Info.Exists && cellCols(k.Alloc, in.W, f) > 0 {
			grids++
		} else {
			fixed += heights[i]
		}
	}
	gapK := f * 0.5
	keysH := total + gapK*float64(len(s.Keys))
	if s.History != nil {
		room := bottom - ttlH - y - keysH - f*0.6
		ch := math.Max(f*6, math.Min(math.Min(in.H*0.4, f*16), room))
		s.drawHistory(&l, Rect{in.X, y, in.W, ch}, f, t)
		y += ch + f*0.6
	}
	avail := bottom - ttlH - y - gapK*float64(len(s.Keys))
	for i, k := range s.Keys {
		h := heights[i]
		if total > avail && grids > 0 && k.Info.Exists && cellCols(k.Alloc, in.W, f) > 0 {
			// Short of room: the byte grids share what the other keys leave.
			h = math.Max(f*4, (avail-fixed)/float64(grids))
		}
		end := s.drawKey(&l, k, Rect{in.X, y, in.W, h}, f, t, maxMem, scale)
		y = math.Max(end, y) + gapK
	}
	if maxMem > 1 {
		if ah := memAxisHeight(in.W, f, s.lang); y+ah <= bottom-ttlH {
			y += drawMemAxis(&l, in.X, y, in.W*0.55, in.W, f, s.lang) + f*0.4
		}
	}
	if c := s.compareText(); c != "" && y+f*1.2 <= bottom-ttlH {
		l.text(in.X, y, fitText(c, in.W, f*0.8, false), f*0.8, textColor, Left, false)
		y += f * 1.4
	}
	if ttlH > 0 {
		ty := math.Min(y, bottom-ttlH)
		s.drawTTLRows(&l, Rect{in.X, ty, in.W, ttlH}, f, t)
	}
	y = bottom
	if s.Note != "" {
		c := accent
		if s.NoteErr {
			c = ErrorC
		}
		if noteLines > 1 {
			l.wrap(Rect{in.X, y + f*0.15, in.W, noteH}, y+f*0.15, s.Note, f*0.8, c)
		} else {
			l.text(in.X, y+f*0.15, fitText(s.Note, in.W, f*0.8, false), f*0.8, c, Left, false)
		}
		y += noteH
	}
	s.drawLegend(&l, kinds, in.X, y, in.W, f)
	return l
}

// legendKinds lists the segment kinds of the keys drawn byte by byte at width w (bars and the
// chart label their own colours).
func (s *sdsScene) legendKinds(w, f float64) []int {
	seen := map[int]bool{}
	for _, k := range s.Keys {
		if !k.Info.Exists || cellCols(k.Alloc, w, f) == 0 {
			continue
		}
		for _, sg := range k.Segs {
			if sg.Bytes > 0 {
				seen[sg.Kind] = true
			}
		}
	}
	var out []int
	for kind := segRobj; kind <= segZero; kind++ {
		if seen[kind] {
			out = append(out, kind)
		}
	}
	return out
}

func legendItemW(name string, f float64) float64 {
	return f*1.0 + textWidth(name, f*0.7, false) + f*0.9
}

func (s *sdsScene) legendHeight(kinds []int, w, f float64) float64 {
	if len(kinds) == 0 {
		return 0
	}
	rows, x := 1, 0.0
	for _, kind := range kinds {
		iw := legendItemW(segName(kind, s.lang), f)
		if x > 0 && x+iw > w {
			rows++
			x = 0
		}
		x += iw
	}
	return float64(rows) * f * 1.1
}

func (s *sdsScene) drawLegend(l *list, kinds []int, x0, y, w, f float64) {
	x := x0
	for _, kind := range kinds {
		name := segName(kind, s.lang)
		iw := legendItemW(name, f)
		if x > x0 && x+iw > x0+w {
			x = x0
			y += f * 1.1
		}
		l.rect(x, y+f*0.15, f*0.7, f*0.7, segColor(kind))
		l.text(x+f, y, name, f*0.7, dim, Left, false)
		x += iw
	}
}

// keyTitle draws the key's name, its figures and the TTL badge; it returns the y below.
func (s *sdsScene) keyTitle(l *list, k sdsKey, r Rect, f float64, t float64) float64 {
	y := r.Y
	title := k.Info.Key
	badge, badgeC := s.ttlBadge(k)
	bw := 0.0
	if badge != "" {
		// Sans widths are estimates: leave room for the widest glyphs.
		bw = textWidth(badge, f*0.75, false)*1.12 + f*0.8
		if bw > r.W*0.6 {
			badge = fitText(badge, (r.W*0.6-f*0.8)/1.12, f*0.75, false)
			bw = textWidth(badge, f*0.75, false)*1.12 + f*0.8
		}
		bx := r.X + r.W - bw
		l.rect(bx, y, bw, f*1.15, panelC)
		c := badgeC
		if k.TTLAction != "" {
			l.frame(bx, y, bw, f*1.15, math.Max(1, f*0.08), badgeC.alpha(pulseAt(t)))
		}
		l.text(bx+f*0.4, y+f*0.2, badge, f*0.75, c, Left, false)
	}
	if !k.Info.Exists {
		l.text(r.X, y, fitText(title+"  "+tr(s.lang, "(missing)", "(không tồn tại)"), r.W-bw-f*0.4, f, true), f, dim, Left, true)
		return y + f*1.5
	}
	title = fitText(title, r.W*0.45, f, true)
	l.text(r.X, y, title, f, textColor, Left, true)
	sub := k.Info.Encoding
	if k.Info.SDS != nil && k.Info.Encoding == "raw" {
		sub += fmt.Sprintf(" · %s · len %s · alloc %s · avail %s", k.Info.SDS.Type, num(int64(k.Info.SDS.Len)), num(int64(k.Info.SDS.Alloc)), num(int64(k.Info.SDS.Avail)))
	} else if k.Info.Encoding == "embstr" {
		sub += fmt.Sprintf(" · sds8 · len %d", k.Info.Len)
	} else if k.IntValue != "" {
		sub += " · " + k.IntValue
		if k.Shared {
			sub += tr(s.lang, " · shared object", " · đối tượng dùng chung")
		}
	}
	sx := r.X + monoWidth(title, f) + f*0.8
	room := r.X + r.W - bw - f*0.4 - sx
	if room < textWidth(sub, f*0.8, true) && room < r.W*0.5 {
		// Too narrow: the figures go on their own line.
		y += f * 1.3
		l.text(r.X, y, fitText(sub, r.W, f*0.8, true), f*0.8, dim, Left, true)
		return y + f*1.2
	}
	l.text(sx, y+f*0.1, fitText(sub, room, f*0.8, true), f*0.8, dim, Left, true)
	return y + f*1.5
}

// ttlBadge is the key's TTL badge text and colour ("" when no TTL is involved).
func (s *sdsScene) ttlBadge(k sdsKey) (string, Color) {
	if !k.Info.Exists && k.TTLAction == "" {
		return "", dim
	}
	if k.Info.TTLMs < 0 && k.TTLAction == "" {
		return "", dim
	}
	var txt string
	c := dim
	if k.Info.TTLMs >= 0 {
		txt = "TTL " + ttlText(k.Info.TTLMs)
		c = accent
	} else {
		txt = tr(s.lang, "no expiry", "không hết hạn")
	}
	switch k.TTLAction {
	case "set":
		txt += tr(s.lang, " · set by %s", " · %s đặt", k.TTLCmd)
	case "kept":
		txt += tr(s.lang, " · kept by %s", " · %s giữ", k.TTLCmd)
		c = oneC
	case "cleared":
		txt += tr(s.lang, " · cleared by %s", " · %s xoá", k.TTLCmd)
		c = ErrorC
	}
	return txt, c
}

// ttlText writes a TTL in ms as seconds (TTL's rounding) or ms below one second.
func ttlText(ms int64) string {
	if ms < 1000 {
		return strconv.FormatInt(ms, 10) + " ms"
	}
	return strconv.FormatInt((ms+500)/1000, 10) + " s"
}

// drawKey draws one key in r (its height only bounds a byte grid) and returns the y below it.
func (s *sdsScene) drawKey(l *list, k sdsKey, r Rect, f, t float64, maxMem int64, scale int) float64 {
	y := s.keyTitle(l, k, r, f, t)
	if !k.Info.Exists {
		return y
	}
	cols := cellCols(k.Alloc, r.W, f)
	pulse := pulseAt(t)
	if cols > 0 {
		cw := r.W / float64(cols)
		rows := (k.Alloc + cols - 1) / cols
		// Rows shrink to the room left for them (down to a readable cell).
		room := r.Y + r.H - y - f*2.3
		ch := math.Min(cw*1.1, f*1.7)
		if room > 0 && float64(rows)*ch > room {
			ch = math.Max(f*0.9, room/float64(rows))
		}
		i := 0
		dataStart := 0
		for _, sg := range k.Segs {
			if sg.Kind == segData {
				break
			}
			dataStart += sg.Bytes
		}
		for _, sg := range k.Segs {
			for b := 0; b < sg.Bytes; b++ {
				cx := r.X + float64(i%cols)*cw
				cy := y + float64(i/cols)*ch
				c := segColor(sg.Kind)
				if sg.Kind == segFree && k.Realloc {
					c = c.mix(accent, 0.4*(1-t))
				}
				l.rect(cx+1, cy+1, cw-2, ch-2, c)
				if sg.Kind == segData {
					di := i - dataStart
					if di >= k.NewFrom && di < k.NewTo {
						l.frame(cx+1, cy+1, cw-2, ch-2, math.Max(1.5, f*0.12), accent.alpha(pulse))
					}
					if di < len(k.Data) && cw >= f*0.7 && ch >= f*0.9 {
						l.text(cx+cw/2, cy+(ch-f*0.8)/2, printable(k.Data[di]), f*0.8, textOn(c), Center, true)
					}
				}
				if sg.Kind == segNul && cw >= f*0.9 && ch >= f*0.9 {
					l.text(cx+cw/2, cy+(ch-f*0.6)/2, "\\0", f*0.6, textOn(c), Center, true)
				}
				i++
			}
		}
		y += float64(rows)*ch + f*0.3
		l.text(r.X, y, tr(s.lang, "allocation: %d bytes (jemalloc class)", "vùng cấp phát: %d byte (lớp jemalloc)", k.Alloc), f*0.75, dim, Left, false)
		y += f * 1.2
	} else {
		y = s.drawBar(l, k, Rect{r.X, y, r.W, r.H}, f, t, scale)
	}
	// MEMORY USAGE bar.
	if k.Info.Memory >= 0 {
		label := fmt.Sprintf("MEMORY USAGE %s = %s", k.Info.Key, num(k.Info.Memory))
		bw := memBarLen(k.Info.Memory, r.W*0.55)
		l.rect(r.X, y, math.Max(bw, 2), f*0.9, encColor(k.Info.Encoding))
		lx := r.X + bw + f*0.4
		l.text(lx, y, fitText(label, r.X+r.W-lx, f*0.75, true), f*0.75, textColor, Left, true)
		y += f * 1.1
	}
	return y
}

// drawBar draws a big allocation to scale: the bar's width is the allocation over the largest
// one drawn (scale), or the full width on its own scale when that would be under a fifth; the
// sizes are listed under it. It returns the y below.
func (s *sdsScene) drawBar(l *list, k sdsKey, r Rect, f, t float64, scale int) float64 {
	y := r.Y
	bh := f * 1.3
	w := r.W * float64(k.Alloc) / float64(max(scale, 1))
	own := false
	if w < r.W*0.2 {
		w, own = r.W, true
	}
	segs := k.Bar
	if len(segs) == 0 {
		segs = k.Segs
	}
	ws := barWidths(segs, w, math.Max(2, f*0.25))
	x := r.X
	for i, sg := range segs {
		if sg.Bytes <= 0 {
			continue
		}
		c := segColor(sg.Kind)
		if sg.Kind == segFree && k.Realloc {
			c = c.mix(accent, 0.4*(1-t))
		}
		l.rect(x, y, ws[i], bh, c)
		x += ws[i]
	}
	l.frame(r.X, y, w, bh, 1, grid)
	if k.Changed {
		l.frame(r.X, y, w, bh, math.Max(1.5, f*0.12), accent.alpha(pulseAt(t)))
	}
	y += bh + f*0.25
	// Sizes: one swatch and figure per kind, in the bar's order.
	var items []string
	var kinds []int
	add := func(kind, n int, label string) {
		if n > 0 {
			items = append(items, label+" "+numfmt.Bytes(int64(n)))
			kinds = append(kinds, kind)
		}
	}
	sum := map[int]int{}
	for _, sg := range segs {
		sum[sg.Kind] += sg.Bytes
	}
	add(segRobj, sum[segRobj], "robj")
	add(segHeader, sum[segHeader], "header")
	add(segData, sum[segData]+sum[segZero], "len")
	add(segZero, sum[segZero], tr(s.lang, "zeros", "byte 0"))
	add(segFree, sum[segFree], tr(s.lang, "free", "trống"))
	add(segSlack, sum[segSlack], tr(s.lang, "rounding", "làm tròn"))
	items = append(items, tr(s.lang, "class %s", "lớp %s", numfmt.Bytes(int64(k.Alloc))))
	kinds = append(kinds, -1)
	if own {
		items = append(items, tr(s.lang, "(own scale)", "(tỉ lệ riêng)"))
		kinds = append(kinds, -1)
	}
	fs := f * 0.72
	x = r.X
	for i, it := range items {
		iw := textWidth(it, fs, false) + f*0.9
		if kinds[i] >= 0 {
			iw += f * 0.75
		}
		if x > r.X && x+iw > r.X+r.W {
			x = r.X
			y += f * 1.05
		}
		tx := x
		if kinds[i] >= 0 {
			l.rect(x, y+f*0.12, f*0.55, f*0.55, segColor(kinds[i]))
			tx += f * 0.75
		}
		l.text(tx, y, it, fs, dim, Left, false)
		x += iw
	}
	return y + f*1.2
}

// drawHistory charts len and alloc after each command of the step: stacked columns (len in the
// data colour, the free tail above it), the reallocations marked with what Redis asked for, and
// the 1 MiB line where the rule changes from doubling to +1 MiB.
func (s *sdsScene) drawHistory(l *list, r Rect, f, t float64) {
	h := s.History
	n := len(h.Points)
	cmd := strings.ToUpper(h.Points[n-1].Cmd)
	title := tr(s.lang, "%s: %d × %s · %d reallocations", "%s: %d × %s · %d lần cấp phát lại", h.Key, n, cmd, h.Reallocs)
	var parts []string
	if h.Doubled > 0 {
		parts = append(parts, fmt.Sprintf("%d ×2", h.Doubled))
	}
	if h.PlusMiB > 0 {
		parts = append(parts, fmt.Sprintf("%d +1 MiB", h.PlusMiB))
	}
	if len(parts) > 0 {
		title += " (" + strings.Join(parts, ", ") + ")"
	}
	l.text(r.X, r.Y, fitText(title, r.W, f*0.8, false), f*0.8, textColor, Left, false)
	axisW := math.Max(textWidth("10.0 MiB", f*0.65, false), textWidth("999 B", f*0.65, false)) + f*0.4
	plot := Rect{r.X + axisW, r.Y + f*1.3, r.W - axisW, r.H - f*1.3 - f*1.1}
	if plot.W < 20 || plot.H < 10 {
		return
	}
	l.rect(plot.X, plot.Y, plot.W, plot.H, panelC)
	top := float64(h.MaxBytes) * 1.04
	yOf := func(b int) float64 { return plot.Y + plot.H - plot.H*float64(b)/top }
	// Columns: at most one per 2 px, each showing the last point it covers.
	cols := min(n, int(plot.W/2))
	cw := plot.W / float64(cols)
	for c := 0; c < cols; c++ {
		p := h.Points[min(n-1, ((c+1)*n-1)/cols)]
		x := plot.X + float64(c)*cw
		ya, yl := yOf(p.Alloc), yOf(p.Len)
		l.rect(x, ya, cw, yl-ya, freeC)
		l.rect(x, yl, cw, plot.Y+plot.H-yl, dataC)
	}
	// The 1 MiB line.
	if h.MaxBytes >= sds.MaxPrealloc {
		y := yOf(sds.MaxPrealloc)
		for x := plot.X; x < plot.X+plot.W; x += f * 0.8 {
			l.line(x, y, math.Min(x+f*0.45, plot.X+plot.W), y, 1.5, dim)
		}
		lw := textWidth("1 MiB", f*0.65, false)
		l.rect(plot.X+f*0.2, y-f*0.95, lw+f*0.3, f*0.85, panelC)
		l.text(plot.X+f*0.35, y-f*0.95, "1 MiB", f*0.65, textColor, Left, false)
	}
	// Reallocations: a tick at the new alloc, and a dash at what was asked for (the allocator
	// rounds it up to its class).
	xOf := func(i int) float64 { return plot.X + plot.W*float64(i)/float64(n) }
	pulse := pulseAt(t)
	for i, p := range h.Points {
		if !p.Realloc {
			continue
		}
		x := xOf(i)
		end := n
		for j := i + 1; j < n; j++ {
			if h.Points[j].Realloc {
				end = j
				break
			}
		}
		x2 := xOf(end)
		if p.Ask > 0 && p.Greedy {
			ya := yOf(p.Ask)
			for dx := x; dx < x2; dx += f * 0.6 {
				l.line(dx, ya, math.Min(dx+f*0.35, x2), ya, 2, accent)
			}
		}
		ya := yOf(p.Alloc)
		l.rect(x-f*0.18, ya-f*0.18, f*0.36, f*0.36, accent)
		if pulse > 0.4 {
			l.frame(x-f*0.4, ya-f*0.4, f*0.8, f*0.8, math.Max(1, f*0.08), accent.alpha(pulse))
		}
	}
	l.frame(plot.X, plot.Y, plot.W, plot.H, 1, grid)
	// Axes: the scale at the top, 0 and the command numbers along the bottom.
	fs := f * 0.65
	l.text(plot.X-f*0.2, yOf(h.MaxBytes)-fs*0.5, numfmt.Bytes(int64(h.MaxBytes)), fs, dim, Right, false)
	l.text(plot.X-f*0.2, plot.Y+plot.H-fs, "0", fs, dim, Right, false)
	by := plot.Y + plot.H + f*0.15
	l.text(plot.X, by, "1", fs, dim, Left, false)
	last := strconv.Itoa(n)
	l.text(plot.X+plot.W, by, last, fs, dim, Right, false)
	// The chart's legend between the first and the last command number, as many items as fit.
	type item struct {
		label string
		draw  func(x float64)
	}
	sw := f * 0.6
	items := []item{
		{"len", func(x float64) { l.rect(x, by+fs*0.2, sw, sw, dataC) }},
		{"alloc − len", func(x float64) { l.rect(x, by+fs*0.2, sw, sw, freeC) }},
		{tr(s.lang, "reallocation", "cấp phát lại"), func(x float64) { l.rect(x+sw*0.2, by+fs*0.3, sw*0.6, sw*0.6, accent) }},
		{tr(s.lang, "asked for", "Redis xin"), func(x float64) { l.line(x, by+fs*0.6, x+sw, by+fs*0.6, 2, accent) }},
	}
	x := plot.X + textWidth("1", fs, false) + f*0.8
	limit := plot.X + plot.W - textWidth(last, fs, false) - f*0.8
	for _, it := range items {
		iw := sw + f*0.3 + textWidth(it.label, fs, false)*1.1
		if x+iw > limit {
			break
		}
		it.draw(x)
		l.text(x+sw+f*0.3, by, it.label, fs, dim, Left, false)
		x += iw + f*0.7
	}
}

// drawTTLRows lists the step's commands with what each did to the TTL.
func (s *sdsScene) drawTTLRows(l *list, r Rect, f, t float64) {
	fs := f * 0.82
	l.text(r.X, r.Y, tr(s.lang, "command → what it did to the TTL", "lệnh → TTL ra sao"), fs, dim, Left, false)
	y := r.Y + f*1.4
	rows := s.TTLRows
	if len(rows) > ttlMaxRows {
		rows = rows[len(rows)-ttlMaxRows:]
	}
	cmdW := r.W * 0.55
	for _, row := range rows {
		var verdict string
		c := dim
		switch row.Action {
		case "set":
			verdict = tr(s.lang, "set: %s", "đặt: %s", ttlText(row.After))
			c = accent
		case "kept":
			verdict = tr(s.lang, "kept: %s", "giữ: %s", ttlText(row.After))
			c = oneC
		case "cleared":
			verdict = tr(s.lang, "cleared: no expiry", "xoá: không hết hạn")
			c = ErrorC
		default:
			verdict = row.Reply
		}
		l.text(r.X, y, fitText(row.Cmd, cmdW-f*0.5, fs, true), fs, textColor, Left, true)
		l.text(r.X+cmdW, y, fitText("→ "+verdict, r.W-cmdW, fs, false), fs, c, Left, false)
		y += f * 1.25
	}
}
