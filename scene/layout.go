package scene

import (
	"math"
	"strings"
)

// minText is the smallest text the canvas draws, in CSS pixels: legible on a phone.
const minText = 11

// One scale for every MEMORY USAGE bar. A bar's length must mean the same at every step of a
// lesson, under every version profile and in every scene, so it is not scaled to the largest
// key on screen (which made 32 B, 56 B and 120 B all full width): it is a fixed logarithmic
// scale from memScaleMin (16 B, the smallest allocation class) to memScaleMax (1 GiB), one
// equal step per doubling, and every bar says so with the axis drawn under it. On this scale
// 32 B, 56 B and 120 B are 1, 1.8 and 2.9 doublings long, and a 512 MiB string nearly fills it.
const (
	memScaleMin = 16
	memScaleMax = 1 << 30
)

// memFrac is the share of a MEMORY USAGE bar's full length that n bytes take: 0 at or below
// memScaleMin, 1 at memScaleMax, log2 in between.
func memFrac(n int64) float64 {
	if n <= memScaleMin {
		return 0
	}
	f := math.Log2(float64(n)/memScaleMin) / math.Log2(float64(memScaleMax)/memScaleMin)
	return math.Min(1, f)
}

// memBarLen is the drawn length of a bar of n bytes on an axis w long: a sliver of at least 2 px
// so that a 16-byte key is still seen.
func memBarLen(n int64, w float64) float64 { return math.Max(2, w*memFrac(n)) }

// memTicks are the axis marks: 16 B, 1 KiB, 64 KiB, 4 MiB, 256 MiB.
var memTicks = []struct {
	n     int64
	label string
}{{16, "16 B"}, {1 << 10, "1 KiB"}, {64 << 10, "64 KiB"}, {4 << 20, "4 MiB"}, {256 << 20, "256 MiB"}, {1 << 30, "1 GiB"}}

// drawMemAxis draws the fixed scale under bars that start at x and are w long at full scale:
// the ticks, their labels (those that fit) and, wrapped in cw, what the scale is. It returns the
// height used.
func drawMemAxis(l *list, x, y, w, cw, f float64, lang string) float64 {
	size := math.Max(minText, f*0.6)
	l.line(x, y, x+w, y, 1, grid)
	last := -1e9
	for _, tk := range memTicks {
		tx := x + w*memFrac(tk.n)
		l.line(tx, y-size*0.3, tx, y+size*0.3, 1, grid)
		lw := textWidth(tk.label, size, false)
		lx, al := tx-lw/2, Center // the label's left edge and alignment: inside [x, x+w]
		switch {
		case lx < x:
			lx, al = x, Left
		case lx+lw > x+w:
			lx, al = x+w-lw, Right
		}
		if lx > last+size*0.5 {
			ax := map[Align]float64{Left: lx, Center: tx, Right: x + w}[al]
			l.text(ax, y+size*0.35, tk.label, size, dim, al, false)
			last = lx + lw
		}
	}
	h := size * 1.6
	if cw >= 420 { // room for the words: say what the scale is (a phone reads it from the marks)
		cap := tr(lang, "MEMORY USAGE bars: one fixed log scale (each mark ×64) in every lesson and version",
			"thanh MEMORY USAGE: một thang log cố định (mỗi vạch ×64) ở mọi bài, mọi phiên bản")
		h = l.wrap(Rect{x, y + h, cw, size * 2.7}, y+h, cap, size, dim) - y
	}
	return h
}

// memAxisHeight is the height drawMemAxis takes.
func memAxisHeight(cw, f float64, lang string) float64 {
	var scratch list
	return drawMemAxis(&scratch, 0, 0, cw, cw, f, lang)
}

// memBarC is the fill of a MEMORY USAGE bar.
func memBarC() Color { return dataC.mix(Background, 0.3) }

// emptyNote is the picture of a scene with no key to draw yet: msg, dimmed, in at most three
// lines at the top of in.
func emptyNote(in Rect, f float64, msg string) []Prim {
	var l list
	y := in.Y
	for _, ln := range wrap(msg, in.W, f*0.9, 3) {
		l.text(in.X, y, ln, f*0.9, dim, Left, true)
		y += f * 1.2
	}
	return l
}

// spreadByBytes lays the cells of a node strip side by side over w from x: each at least minW
// wide (narrower when they cannot all be), the rest of w shared in proportion to the bytes each
// stands for. span gives a cell's bytes and where to put its x and width.
func spreadByBytes[C any](cells []C, x, w, minW float64, span func(*C) (bytes int, x, w *float64)) {
	minW = math.Min(minW, w/float64(len(cells)))
	total := 0
	for i := range cells {
		b, _, _ := span(&cells[i])
		total += b
	}
	share := w - minW*float64(len(cells))
	for i := range cells {
		b, cx, cw := span(&cells[i])
		*cw = minW + share*float64(b)/float64(max(total, 1))
		*cx = x
		x += *cw
	}
}

// A start card is what a scene draws before its lesson's first command (step 0, the keys not
// made yet): what the picture will show, the colours it uses with what each means, the keys it
// watches, and one line on what redscope is. A first visit sees a picture, not an empty stage.
type startCard struct {
	title string   // what the scene draws
	keys  []string // the keys it will draw (missing so far)
	parts []swatch // its colours
	hint  string   // the command that makes the first picture (free play), "" in a lesson
}

type swatch struct {
	c    Color
	name string // a structure or part ("listpack", "sds header")
	what string // what it is, one short sentence
}

// drawStart lays a start card out over r, its rows spread down the stage.
func drawStart(r Rect, lang string, c startCard) []Prim {
	var l list
	f, in := margins(r)
	y := in.Y
	y = l.wrap(Rect{in.X, y, in.W, f * 1.35 * 2.6}, y, c.title, f*1.25, textColor) + f*0.3
	if len(c.keys) > 0 {
		ks := ""
		for i, k := range c.keys {
			if i > 0 {
				ks += ", "
			}
			ks += k
		}
		msg := tr(lang, "keys %s: not made yet; press Next ► to run the first command and draw it.",
			"key %s: chưa có; bấm Tiếp ► để chạy lệnh đầu tiên và vẽ nó.", ks)
		y = l.wrap(Rect{in.X, y, in.W, f * 1.3 * 3}, y, msg, math.Max(minText, f*0.9), accent) + f*0.2
	}
	if c.hint != "" {
		y = l.wrap(Rect{in.X, y, in.W, f * 1.3 * 3}, y, c.hint, math.Max(minText, f*0.8), dim) + f*0.4
	}
	foot := tr(lang, "redscope: a Go engine that answers byte for byte like redis-server; every picture is drawn from its real state.",
		"redscope: engine Go trả lời từng byte như redis-server; mỗi hình được vẽ từ trạng thái thật của engine.")
	fs := math.Max(minText, f*0.7)
	footH := float64(len(wrapText(foot, in.W, fs))) * fs * 1.3
	bottom := in.Y + in.H - footH - f*0.4
	if n := len(c.parts); n > 0 {
		// A strip of the colours side by side, then one row per colour, spread to the footer.
		stripH := math.Min(f*2.2, math.Max(f*1.2, (bottom-y)*0.12))
		w := in.W / float64(n)
		for i, p := range c.parts {
			l.rect(in.X+float64(i)*w+1, y, w-2, stripH, p.c)
		}
		y += stripH + f*0.6
		rowH := math.Max(f*1.5, math.Min(f*3.2, (bottom-y)/float64(n)))
		sw := f * 1.1
		for _, p := range c.parts {
			if y+f*1.2 > bottom {
				break
			}
			l.rect(in.X, y+f*0.05, sw, sw, p.c)
			tx := in.X + sw + f*0.6
			l.text(tx, y, p.name, f*0.9, textColor, Left, true)
			nx := tx + monoWidth(p.name, f*0.9) + f*0.6
			if p.what != "" {
				if nx+f*6 < in.X+in.W {
					l.wrap(Rect{nx, y, in.X + in.W - nx, rowH}, y+f*0.08, p.what, math.Max(minText, f*0.8), dim)
				} else if rowH >= f*2.4 {
					l.wrap(Rect{tx, y + f*1.2, in.X + in.W - tx, rowH - f*1.2}, y+f*1.2, p.what, math.Max(minText, f*0.75), dim)
				}
			}
			y += rowH
		}
	}
	l.wrap(Rect{in.X, in.Y + in.H - footH, in.W, footH}, in.Y+in.H-footH, foot, fs, dim)
	return l
}

// Fitting a scene to its stage. Each scene lays itself out in any rectangle in units of
// fontSize, which follows the stage's width (up to fontMax, 26 px). A scene whose picture is a few
// rows would then stay in the top of a tall stage (a laptop's 820×800 stage, a projector's
// 1460×1080), its cells and text the size a narrow stage gives them. fitter enlarges the picture
// there: it lays the scene out in a smaller rectangle of the stage's proportions while keeping the
// stage's own base text (fitBase), and scales every primitive up by z, so the cells, rows and text
// grow by z and the picture fills the stage. z is the largest factor (at most fitMaxZoom, the
// base text at most fitMaxText) at which the smaller layout loses nothing the full-size one draws
// (as many texts and shapes, no more texts shortened with "…", no more or smaller pixel images, nothing
// drawn past the stage's bottom or right edge). A phone's stage (narrower than fitMinWidth) is
// not zoomed: the scenes have compact layouts for it. z is found once per scene update and stage
// size, on the settled frame (t = 1), and kept for every animation frame.
type fitter struct {
	stage Rect
	z     float64
	ok    bool
	hint  float64 // the factor found before the last reset, on the same stage (0: none)
}

const (
	fitMinWidth = 760 // stages narrower than this are laid out as they are
	fitMaxZoom  = 1.8
	fitMaxText  = 34 // px: the largest base text of a zoomed laptop stage (a projector's: fitTextCap)
)

// fitTextCap is the largest base text fitter gives the stage r: 34 px, or on a projector's stage
// a thirtieth of its width (1460 px wide: 48 px).
func fitTextCap(r Rect) float64 { return math.Max(fitMaxText, math.Min(r.W/30, r.H/22)) }

// fitBase, while fitter lays a scene out in its smaller rectangle, is the base text fontSize
// gives (the stage's own); 0 otherwise. The page draws one scene at a time on one goroutine.
var fitBase float64

// layAt lays the scene out in r shrunk by z with the base text f (the full stage's).
func layAt(r Rect, z, f, t float64, lay func(Rect, float64) []Prim) []Prim {
	if z <= 1.001 {
		return lay(r, t)
	}
	old := fitBase
	fitBase = f
	defer func() { fitBase = old }()
	return lay(Rect{r.X, r.Y, r.W / z, r.H / z}, t)
}

// framed is the Frame of a scene with a start card: in r at t, the card while start has one,
// else the scene's own layout; either zoomed to fill the stage.
func (ft *fitter) framed(r Rect, t float64, lang string, start func() (startCard, bool), lay func(Rect, float64) []Prim) []Prim {
	return ft.frame(r, t, func(r Rect, t float64) []Prim {
		if c, ok := start(); ok {
			return drawStart(r, lang, c)
		}
		return lay(r, t)
	})
}

// margins is the base text size of a layout in r, and r inset by the scenes' margin (0.8 of
// that size).
func margins(r Rect) (f float64, in Rect) {
	f = fontSize(r)
	return f, r.inset(f * 0.8)
}

// frame is the zoomed frame of lay (a scene's own Frame) in r at t.
func (ft *fitter) frame(r Rect, t float64, lay func(Rect, float64) []Prim) []Prim {
	if !ft.ok || ft.stage != r {
		hint := 0.0
		if ft.stage == r {
			hint = ft.hint
		}
		ft.stage, ft.z, ft.ok = r, fitZoom(r, lay, hint), true
		ft.hint = ft.z
	}
	if ft.z <= 1.001 {
		return lay(r, t)
	}
	return zoom(layAt(r, ft.z, fontSize(r), t, lay), r.X, r.Y, ft.z)
}

// zoomed maps a rectangle of the last layout to the stage (what zoom does to a primitive).
func (ft *fitter) zoomed(r Rect) Rect {
	if !ft.ok || ft.z <= 1.001 {
		return r
	}
	o := ft.stage
	return Rect{o.X + (r.X-o.X)*ft.z, o.Y + (r.Y-o.Y)*ft.z, r.W * ft.z, r.H * ft.z}
}

// scale is the zoom factor of the last frame (1: none).
func (ft *fitter) scale() float64 {
	if !ft.ok || ft.z <= 1.001 {
		return 1
	}
	return ft.z
}

// reset forgets the zoom (the scene was updated).
func (ft *fitter) reset() { ft.ok = false }

type frameStats struct {
	texts, ellipses, images, shapes int
	minSize                         float64
	right, bottom                   float64 // the drawn extent
	imgArea                         float64 // the pixel images' drawn area
}

func statsOf(ps []Prim) frameStats {
	st := frameStats{minSize: math.Inf(1), right: math.Inf(-1), bottom: math.Inf(-1)}
	for _, p := range ps {
		if p.Kind == KText && p.Text != "" {
			st.bottom = math.Max(st.bottom, p.Y+p.Size)
			st.right = math.Max(st.right, p.X) // its alignment is not known here: its anchor
		} else if p.Kind != KText {
			st.right = math.Max(st.right, p.X+math.Max(p.W, 0))
			st.bottom = math.Max(st.bottom, p.Y+math.Max(p.H, 0))
		}
		switch p.Kind {
		case KText:
			if p.Text == "" {
				continue
			}
			st.texts++
			st.minSize = math.Min(st.minSize, p.Size)
			if strings.HasSuffix(p.Text, "…") {
				st.ellipses++
			}
		case KImage:
			st.images++
			st.imgArea += p.W * p.H
		default:
			st.shapes++
		}
	}
	return st
}

// fitZoom finds the factor for the stage r. hint, when > 0, is the factor the scene had on this
// stage before its update: a command seldom changes the picture's shape, so it is tried first
// (kept when it still keeps everything and a tenth more does not), and a typed session lays
// each picture out three times rather than up to ten.
func fitZoom(r Rect, lay func(Rect, float64) []Prim, hint float64) float64 {
	if r.W < fitMinWidth { // a phone: the scenes' own compact layouts
		return 1
	}
	f := fontSize(r)
	base := statsOf(lay(r, 1))
	if base.texts == 0 {
		return 1
	}
	// How far past the stage's right and bottom edges the full-size layout draws (as a share of
	// the stage): a zoomed one may not draw further.
	overR := math.Max(1, (base.right-r.X)/r.W) + 0.005
	overB := math.Max(1, (base.bottom-r.Y)/r.H) + 0.005
	zMin := 1.0
	zMax := math.Max(zMin, math.Min(fitMaxZoom, fitTextCap(r)/f))
	keeps := func(z float64) bool {
		st := statsOf(layAt(r, z, f, 1, lay))
		if (st.right-r.X)*z/r.W > overR || (st.bottom-r.Y)*z/r.H > overB {
			return false
		}
		if st.imgArea*z*z < base.imgArea*0.98 { // a pixel image (the sparse strip) drawn smaller
			return false
		}
		return st.texts >= base.texts && st.ellipses <= base.ellipses && st.images <= base.images && st.shapes >= base.shapes
	}
	if hint > 0 && hint <= zMax && (hint <= zMin+0.001 || keeps(hint)) {
		if up := math.Min(zMax, hint+0.1); up-hint < 0.02 || !keeps(up) {
			return hint
		}
	}
	// Down from the largest factor in steps of 0.1: a scene's layout switches form at widths
	// (a column moves under another, a table wraps), so what a factor keeps is not monotonic and a
	// bisection could stop on a factor that loses something.
	for z := zMax; z > zMin+0.02; z -= 0.1 {
		if keeps(z) {
			return z
		}
	}
	return zMin
}

// zoom scales ps about (ox, oy) by z.
func zoom(ps []Prim, ox, oy, z float64) []Prim {
	for i := range ps {
		p := &ps[i]
		p.X, p.Y = ox+(p.X-ox)*z, oy+(p.Y-oy)*z
		p.W, p.H = p.W*z, p.H*z // strokes keep their width: hairlines stay hairlines
		p.Size *= z
	}
	return ps
}

// headText draws a one-line header at (x, y) in width w; a header too wide for one line (a phone)
// goes on two, broken at its " · " separators (or its spaces), and only what still does not fit
// is shortened with "…". It returns how many lines it drew.
func headText(l *list, x, y, w float64, s string, size float64, c Color, mono bool) int {
	if textWidth(s, size, mono) <= w {
		l.text(x, y, s, size, c, Left, mono)
		return 1
	}
	sep := " · "
	parts := strings.Split(s, sep)
	if len(parts) < 2 {
		sep, parts = " ", strings.Split(s, " ")
	}
	width := func(s string) float64 { return textWidth(s, size, mono) }
	first := parts[0]
	i := 1
	for ; i < len(parts) && width(first+sep+parts[i]) <= w; i++ {
		first += sep + parts[i]
	}
	if i == len(parts) {
		l.text(x, y, fitText(first, w, size, mono), size, c, Left, mono)
		return 1
	}
	l.text(x, y, fitText(first, w, size, mono), size, c, Left, mono)
	l.text(x, y+size*1.25, fitText(strings.Join(parts[i:], sep), w, size, mono), size, c, Left, mono)
	return 2
}

// cachedImage is a scene's pixel image, refilled only when what it shows changed (a new Update,
// another column count, another theme), so the drawing side uploads it once per change, not once
// per frame.
type cachedImage struct {
	Pixels
	gen int // bumped by Update
	key [4]int
}

// fill refills the image unless it already holds (gen, cols, n) in the current theme.
func (c *cachedImage) fill(cols, n int, col func(i int) Color) *Pixels {
	k := [4]int{c.gen, cols, n, themeGen}
	if k != c.key || c.RGBA == nil {
		c.key = k
		c.set(cols, n, col)
	}
	return &c.Pixels
}

// set fills the image with n cells in rows of cols (the rest background) and bumps Gen.
func (p *Pixels) set(cols, n int, col func(i int) Color) {
	rows := max(1, (n+cols-1)/cols)
	if p.W != cols || p.H != rows || len(p.RGBA) != 4*cols*rows {
		p.W, p.H, p.RGBA = cols, rows, make([]byte, 4*cols*rows)
	}
	for i := 0; i < cols*rows; i++ {
		c := Background
		if i < n {
			c = col(i)
		}
		copy(p.RGBA[4*i:], []byte{c.R, c.G, c.B, 0xff})
	}
	p.Gen++
}

// gridLayout places N cells in a rectangle.
type gridLayout struct {
	Cols     int
	CW, CH   float64
	Text     bool // cells are wide enough for a character
	Image    bool // too many cells: draw one pixel per cell, scaled
	ImgW     float64
	ImgH     float64
	multiple int
}

// layoutGrid chooses a grid for n byte cells in w x h at font size f: the largest cells (at
// most 2.2 f wide) that fit, the column count a multiple of mult; one pixel per byte, scaled,
// when cells would be under 4 px. A few bytes on a tall area (a 21-byte listpack on a laptop's
// stage) get cells up to 3.2 f wide and 2.4 f tall where those fit.
func layoutGrid(n int, w, h, f float64, mult int) gridLayout {
	mult = max(mult, 1)
	if n <= 0 || w <= 0 || h <= 0 {
		return gridLayout{Cols: mult, CW: 1, CH: 1}
	}
	if n <= 64 {
		if g, ok := cellGrid(n, w, h, f, mult, 3.2, 2.4); ok {
			return g
		}
	}
	if g, ok := cellGrid(n, w, h, f, mult, 2.2, 1.6); ok {
		return g
	}
	return imageGrid(n, w, h)
}

// cellGrid is the grid of the largest cells, at most maxW f wide and maxH f tall, that hold n
// cells in w x h; false when they would be under 4 px.
func cellGrid(n int, w, h, f float64, mult int, maxW, maxH float64) (gridLayout, bool) {
	minCols := int(math.Ceil(w / (maxW * f)))
	minCols = (minCols + mult - 1) / mult * mult
	for cols := max(minCols, mult); cols <= 128; cols += mult {
		cw := w / float64(cols)
		if cw < 4 {
			break
		}
		ch := math.Min(cw*1.15, f*maxH)
		rows := (n + cols - 1) / cols
		if float64(rows)*ch <= h {
			return gridLayout{Cols: cols, CW: cw, CH: ch, Text: cw >= f*0.75 && ch >= f*0.9}, true
		}
	}
	return gridLayout{}, false
}

// maxCells is the most byte cells drawn one by one when they are too small for characters;
// above it the bytes become one image (never thousands of draw calls per frame).
const maxCells = 1024

// imageGrid lays n cells out as one pixel each, scaled to fit w x h.
func imageGrid(n int, w, h float64) gridLayout {
	s := math.Sqrt(w * h / float64(n))
	cols := max(1, int(w/s))
	rows := (n + cols - 1) / cols
	s = math.Min(w/float64(cols), h/float64(rows))
	return gridLayout{Cols: cols, CW: s, CH: s, Image: true, ImgW: s * float64(cols), ImgH: s * float64(rows)}
}

// cell is the rectangle of cell i in a grid at (x, y).
func (g gridLayout) cell(x, y float64, i int) Rect {
	return Rect{x + float64(i%g.Cols)*g.CW, y + float64(i/g.Cols)*g.CH, g.CW, g.CH}
}

// height is the height of n cells.
func (g gridLayout) height(n int) float64 {
	if g.Image {
		return g.ImgH
	}
	return float64((n+g.Cols-1)/g.Cols) * g.CH
}

// ease is smoothstep.
func ease(t float64) float64 {
	t = math.Max(0, math.Min(1, t))
	return t * t * (3 - 2*t)
}
