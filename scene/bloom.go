package scene

import (
	"fmt"
	"math"
	"strings"

	"redscope/engine"
	"redscope/engine/bloom"
)

// bloomScene draws a Bloom filter (BF.*): each sub-filter's bit array, the k positions of the
// step's last item (bits it just set lit, bits already set outlined; for BF.EXISTS a clear probe
// outlined in red), and the step's figures: items added, and for a step that asks about many items
// (bloomProbesMin or more BF.EXISTS items, which lessons use for items never added) the share
// answered 1 against the formula (1 − e^(−kn/m))^k.
type bloomScene struct {
	Key     string
	Info    engine.KeyInfo
	Filters []bloomFilterView
	Last    *engine.BloomEvent // the step's last item
	Probes  int                // BF.EXISTS items in the step
	Yes     int                // of which answered 1
	Adds    int                // BF.ADD items in the step
	AddsOld int                // of which answered 0 (all bits already set)
	Grew    []engine.BloomFilterAddedEvent
	lang    string
	watch   []string // the watched keys (the start card names them)
	fit     fitter   // the zoom that fills the stage (layout.go)
}

// bloomFilterView is one sub-filter as drawn.
type bloomFilterView struct {
	Bits, Items, Capacity uint64
	Hashes                int
	Error                 float64
	Set                   uint64 // bits set
	Img                   Pixels
}

// bloomProbesMin is the number of BF.EXISTS items from which a step counts as a measurement of
// the false-positive rate.
const bloomProbesMin = 100

// bloomMaxBits is the largest sub-filter drawn bit by bit; larger ones are summarised.
const bloomMaxBits = 1 << 16

// bloomCellPx is the size of one bit in the image (a 1-pixel gap included).
const bloomCellPx = 6

var bloomGen uint64

func init() { register("bloom", func() Scene { return &bloomScene{} }) }

// falsePositiveRate is the textbook estimate (1 − e^(−kn/m))^k for n items in m bits with k
// hashes.
func falsePositiveRate(k int, n, m uint64) float64 {
	if m == 0 {
		return 0
	}
	return math.Pow(1-math.Exp(-float64(k)*float64(n)/float64(m)), float64(k))
}

// chainFalsePositiveRate combines the sub-filters' estimates: an item is a false positive when
// any sub-filter says yes.
func chainFalsePositiveRate(fs []bloomFilterView) float64 {
	no := 1.0
	for _, f := range fs {
		no *= 1 - falsePositiveRate(f.Hashes, f.Items, f.Bits)
	}
	return 1 - no
}

// Update implements Scene.
func (s *bloomScene) Update(in Input) {
	s.fit.reset()
	old := s.Filters
	*s = bloomScene{lang: in.Lang}
	s.watch = in.Keys
	for _, x := range in.Last {
		for _, ev := range x.Events {
			switch ev := ev.(type) {
			case engine.BloomEvent:
				last := ev
				s.Key, s.Last = ev.Key, &last
				if ev.Op == "exists" {
					s.Probes++
					if ev.Result == "exists" {
						s.Yes++
					}
				} else {
					s.Adds++
					if ev.Result == "exists" {
						s.AddsOld++
					}
				}
			case engine.BloomFilterAddedEvent:
				s.Key = ev.Key
				s.Grew = append(s.Grew, ev)
			}
		}
	}
	if s.Key == "" && len(in.Keys) > 0 {
		s.Key = in.Keys[0]
	}
	if s.Last != nil && s.Last.Key != s.Key {
		s.Last = nil
	}
	if s.Key == "" {
		return
	}
	s.Info = in.Engine.Inspect(s.Key)
	o := in.Engine.Peek([]byte(s.Key))
	if o == nil || o.Type != engine.TypeBloom {
		return
	}
	v, ok := o.Val.(*engine.BloomValue)
	if !ok || v.Chain == nil {
		return
	}
	for i, f := range v.Chain.Filters {
		fv := bloomFilterView{Bits: f.Bits, Items: f.Items, Capacity: f.Entries, Hashes: f.Hashes, Error: f.Error, Set: f.BitsSet()}
		if i < len(old) && old[i].Img.RGBA != nil {
			fv.Img.RGBA = old[i].Img.RGBA // reuse the buffer
		}
		if f.Bits <= bloomMaxBits {
			s.paint(&fv, f, i)
		}
		s.Filters = append(s.Filters, fv)
	}
}

// bloomGridCols is the number of bit columns used for every sub-filter.
const bloomGridCols = 64

// paint fills fv's image: one cell per bit, set bits green, bits the last item just set lit.
func (s *bloomScene) paint(fv *bloomFilterView, f *bloom.Filter, idx int) {
	cols := bloomGridCols
	rows := int((f.Bits + uint64(cols) - 1) / uint64(cols))
	w, h := cols*bloomCellPx, rows*bloomCellPx
	if cap(fv.Img.RGBA) >= 4*w*h {
		fv.Img.RGBA = fv.Img.RGBA[:4*w*h]
		clear(fv.Img.RGBA)
	} else {
		fv.Img.RGBA = make([]byte, 4*w*h)
	}
	fv.Img.W, fv.Img.H = w, h
	bloomGen++
	fv.Img.Gen = bloomGen
	fresh := map[uint64]bool{}
	if s.Last != nil && s.Last.Filter == idx && s.Last.Op == "add" && s.Last.Result == "added" {
		for i, p := range s.Last.Positions {
			if !s.Last.WasSet[i] {
				fresh[p] = true
			}
		}
	}
	for b := uint64(0); b < f.Bits; b++ {
		col := zeroC
		if f.Test(b) {
			col = oneC
			if fresh[b] {
				col = accent
			}
		}
		x0, y0 := int(b%uint64(cols))*bloomCellPx, int(b/uint64(cols))*bloomCellPx
		for y := y0; y < y0+bloomCellPx-1; y++ {
			for x := x0; x < x0+bloomCellPx-1; x++ {
				o := 4 * (y*w + x)
				fv.Img.RGBA[o], fv.Img.RGBA[o+1], fv.Img.RGBA[o+2], fv.Img.RGBA[o+3] = col.R, col.G, col.B, 0xff
			}
		}
	}
}

// bloomGrid lays the sub-filters out in area: each gets a label line and a grid of
// bloomGridCols columns with square cells, all with the same cell size, at most maxCell.
func bloomGrid(area Rect, bits []uint64, label, maxCell float64) (grids []Rect, cell float64) {
	rows := 0.0
	for _, b := range bits {
		rows += math.Ceil(float64(b) / bloomGridCols)
	}
	if rows == 0 {
		return nil, 0
	}
	avail := area.H - label*float64(len(bits))
	cell = math.Min(maxCell, math.Min(area.W/bloomGridCols, avail/rows))
	cell = math.Max(0, math.Floor(cell*4)/4)
	y := area.Y
	for _, b := range bits {
		y += label
		h := math.Ceil(float64(b)/bloomGridCols) * cell
		grids = append(grids, Rect{area.X, y, cell * bloomGridCols, h})
		y += h
	}
	return grids, cell
}

// bitCellIn is the cell of bit b in a grid laid out by bloomGrid.
func bitCellIn(g Rect, cell float64, b uint64) Rect {
	return Rect{g.X + float64(b%bloomGridCols)*cell, g.Y + float64(b/bloomGridCols)*cell, cell, cell}
}

func pct(x float64) string { return fmt.Sprintf("%.2f%%", 100*x) }

// Frame implements Scene.
func (s *bloomScene) Frame(r Rect, t float64) []Prim {
	return s.fit.framed(r, t, s.lang, s.start, s.layout)
}

// layout lays the scene out in r (Frame zooms it to fill the stage).
func (s *bloomScene) layout(r Rect, t float64) []Prim {
	var l list
	f, in := margins(r)
	fs := f * 0.8
	y := in.Y
	if s.Key == "" || len(s.Filters) == 0 {
		msg := tr(s.lang, "No Bloom filter yet: try BF.RESERVE bf 0.01 100, then BF.ADD bf hello.", "Chưa có Bloom filter: thử BF.RESERVE bf 0.01 100, rồi BF.ADD bf hello.")
		if s.Key != "" && s.Info.Exists {
			msg = s.Key + ": " + s.Info.Type
		}
		l.wrap(in, y, msg, f*0.9, dim)
		return l
	}
	var items, capTotal uint64
	for _, fv := range s.Filters {
		items += fv.Items
		capTotal += fv.Capacity
	}
	head := fmt.Sprintf("%s · %s/%s items · %s · MEMORY USAGE %s", s.Key, num(int64(items)), num(int64(capTotal)), plural(int64(len(s.Filters)), "filter", "filters"), num(s.Info.Memory))
	if s.lang != "en" {
		head = fmt.Sprintf("%s · %s/%s phần tử · %s filter · MEMORY USAGE %s", s.Key, num(int64(items)), num(int64(capTotal)), num(int64(len(s.Filters))), num(s.Info.Memory))
	}
	y += fs*1.4 + float64(headText(&l, in.X, y, in.W, head, fs, textColor, true)-1)*fs*1.25
	// The last item and its k positions.
	if ev := s.Last; ev != nil {
		verb := "BF.ADD"
		if ev.Op == "exists" {
			verb = "BF.EXISTS"
		}
		var res string
		switch ev.Result {
		case "added":
			res = tr(s.lang, "new: %d bits set", "mới: bật %d bit", countFalse(ev.WasSet))
		case "exists":
			if ev.Op == "add" {
				res = tr(s.lang, "all k bits already set → 0", "cả k bit đã là 1 → 0")
			} else {
				res = tr(s.lang, "all k bits set → 1 (maybe)", "cả k bit là 1 → 1 (có thể có)")
			}
		case "absent":
			res = tr(s.lang, "%d of k bits clear → 0 (certainly not)", "%d trong k bit là 0 → 0 (chắc chắn không)", countFalse(ev.WasSet))
		default:
			res = ev.Result
		}
		l.text(in.X, y, fitText(fmt.Sprintf("%s %q: %s", verb, ev.Item, res), in.W, fs, false), fs, accent, Left, false)
		y += fs * 1.4
		pos := make([]string, len(ev.Positions))
		for i, p := range ev.Positions {
			pos[i] = fmt.Sprint(p)
		}
		l.text(in.X, y, fitText(fmt.Sprintf("k=%d: %s", len(ev.Positions), strings.Join(pos, " ")), in.W, fs, true), fs, dim, Left, true)
		y += fs * 1.4
	}
	// Figures of the step.
	var lines []string
	var colors []Color
	if s.Adds > 1 {
		lines = append(lines, tr(s.lang, "%d BF.ADD in this step, %d answered 0 (false positive while adding)", "%d BF.ADD trong bước này, %d trả 0 (false positive khi thêm)", s.Adds, s.AddsOld))
		colors = append(colors, textColor)
	}
	if s.Probes >= bloomProbesMin {
		lines = append(lines, tr(s.lang, "measured: %d of %d probes answered 1 = %s", "đo được: %d / %d probe trả 1 = %s", s.Yes, s.Probes, pct(float64(s.Yes)/float64(s.Probes))))
		colors = append(colors, accent)
	}
	if items > 0 {
		lines = append(lines, tr(s.lang, "formula (1 − e^(−kn/m))^k: %s", "công thức (1 − e^(−kn/m))^k: %s", pct(chainFalsePositiveRate(s.Filters))))
		colors = append(colors, textColor)
		if len(s.Filters) > 1 {
			f0 := s.Filters[0]
			lines = append(lines, tr(s.lang, "one filter of m=%d, k=%d holding all %d: %s", "một filter m=%d, k=%d chứa cả %d: %s", f0.Bits, f0.Hashes, items, pct(falsePositiveRate(f0.Hashes, items, f0.Bits))))
			colors = append(colors, ErrorC)
		}
	}
	footer := float64(len(lines)) * fs * 1.35
	// The grids.
	var bits []uint64
	shown := s.Filters
	if len(shown) > 3 {
		shown = shown[len(shown)-3:]
	}
	first := len(s.Filters) - len(shown)
	for _, fv := range shown {
		if fv.Bits > bloomMaxBits {
			bits = append(bits, 0)
			continue
		}
		bits = append(bits, fv.Bits)
	}
	area := Rect{in.X, y, in.W, in.Y + in.H - y - footer - fs*0.4}
	grids, cell := bloomGrid(area, bits, fs*1.4, f*1.2)
	pulse := pulseAt(t)
	for i, fv := range shown {
		idx := first + i
		label := tr(s.lang, "filter %d: m=%d bits, k=%d, %d/%d items, %s of bits set", "filter %d: m=%d bit, k=%d, %d/%d phần tử, %s bit là 1", idx, fv.Bits, fv.Hashes, fv.Items, fv.Capacity, pct(float64(fv.Set)/float64(max(fv.Bits, 1))))
		if len(grids) == 0 {
			break
		}
		g := grids[i]
		l.text(in.X, g.Y-fs*1.3, fitText(label, in.W, fs, false), fs, textColor, Left, false)
		if fv.Bits > bloomMaxBits || cell < 1 {
			continue
		}
		l.rect(g.X-1, g.Y-1, g.W+2, g.H+2, grid)
		l = append(l, Prim{Kind: KImage, X: g.X, Y: g.Y, W: g.W, H: g.H, Img: &s.Filters[idx].Img})
		if ev := s.Last; ev != nil && ev.Filter == idx {
			for j, p := range ev.Positions {
				c := bitCellIn(g, cell, p)
				col := textColor
				if !ev.WasSet[j] && ev.Op == "exists" {
					col = ErrorC
				} else if !ev.WasSet[j] {
					continue // just set: lit in the image
				}
				d := math.Max(1.5, cell*0.25)
				l.frame(c.X-d/2, c.Y-d/2, c.W+d, c.H+d, d, col.alpha(0.5+0.5*pulse))
			}
		}
	}
	y = in.Y + in.H - footer
	if len(grids) > 0 {
		g := grids[len(grids)-1]
		y = math.Min(y, g.Y+g.H+fs*0.6)
	}
	for i, line := range lines {
		l.text(in.X, y, fitText(line, in.W, fs, false), fs, colors[i], Left, false)
		y += fs * 1.35
	}
	return l
}

func countFalse(b []bool) int {
	n := 0
	for _, v := range b {
		if !v {
			n++
		}
	}
	return n
}
