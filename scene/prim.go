package scene

import (
	"math"
	"strings"
)

// Rect is an area in CSS pixels.
type Rect struct{ X, Y, W, H float64 }

// inset shrinks r by d on every side.
func (r Rect) inset(d float64) Rect {
	return Rect{r.X + d, r.Y + d, math.Max(r.W-2*d, 0), math.Max(r.H-2*d, 0)}
}

// Contains reports whether (x, y) lies inside r.
func (r Rect) Contains(x, y float64) bool {
	return x >= r.X && y >= r.Y && x < r.X+r.W && y < r.Y+r.H
}

// Color is 8-bit RGBA, not premultiplied.
type Color struct{ R, G, B, A uint8 }

// alpha returns c with its alpha scaled by a (0..1).
func (c Color) alpha(a float64) Color {
	c.A = uint8(math.Round(float64(c.A) * math.Max(0, math.Min(1, a))))
	return c
}

// mix blends c toward d by t (0..1).
func (c Color) mix(d Color, t float64) Color {
	t = math.Max(0, math.Min(1, t))
	m := func(a, b uint8) uint8 { return uint8(math.Round(float64(a) + (float64(b)-float64(a))*t)) }
	return Color{m(c.R, d.R), m(c.G, d.G), m(c.B, d.B), m(c.A, d.A)}
}

// Luminance is the WCAG relative luminance.
func (c Color) Luminance() float64 {
	f := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.03928 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*f(c.R) + 0.7152*f(c.G) + 0.0722*f(c.B)
}

// contrast is the WCAG contrast ratio between two opaque colours.
func contrast(a, b Color) float64 {
	la, lb := a.Luminance(), b.Luminance()
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// Palette: the colours scenes draw with. They are package variables that SetTheme assigns (at
// start-up, before the first scene is built), so scenes must read them at call time and never
// keep a colour computed from them at init: a package-level `var x = Accent.Mix(...)` would keep
// the dark theme's value. The default is the dark theme.
var (
	Background = Dark.Background
	panelC     = Dark.Panel
	grid       = Dark.Grid
	textColor  = Dark.TextColor
	dim        = Dark.Dim
	headerC    = Dark.HeaderC // sds header / robj
	dataC      = Dark.DataC   // string bytes
	freeC      = Dark.FreeC   // spare room (avail)
	slackC     = Dark.SlackC  // allocator rounding
	nulC       = Dark.NulC    // the terminator
	accent     = Dark.Accent  // what just changed
	oneC       = Dark.OneC    // a set bit
	zeroC      = Dark.ZeroC   // a clear bit
	indexC     = Dark.IndexC  // HLL index bits
	runC       = Dark.RunC    // HLL run of zeros
	ErrorC     = Dark.ErrorC
)

// Theme is a named palette. Both themes keep the same contrast rules, mirrored:
//   - text colours (textColor, Dim, Accent, oneC, indexC, runC, ErrorC, dataC, headerC, nulC and
//     the node colours) are ≥ 4.5:1 on Background and on Panel (textColor ≥ 7:1);
//   - "strong" fills (dataC, oneC, runC, nulC, indexC, headerC, Accent) carry text drawn in
//     Background: bright fills under dark text in the dark theme, deep ones under light text in
//     the light theme;
//   - "quiet" fills (Panel, zeroC, freeC, slackC, headerC.Mix(Background, 0.35)) carry textColor.
//
// textOn picks the text colour for any other fill.
type Theme struct {
	Name                               string
	Background, Panel, Grid, TextColor Color
	Dim, HeaderC, DataC, FreeC, SlackC Color
	NulC, Accent, OneC, ZeroC, IndexC  Color
	RunC, ErrorC                       Color
	Nodes                              []Color // node and client colours (palette.go's nodeColors)
}

// Dark is the default theme: readable on a projector in a dark room (text ≥ 7:1 on the
// background).
var Dark = Theme{
	Name:       "dark",
	Background: Color{0x0f, 0x14, 0x1c, 0xff},
	Panel:      Color{0x1a, 0x22, 0x30, 0xff},
	Grid:       Color{0x3a, 0x46, 0x5a, 0xff},
	TextColor:  Color{0xec, 0xf0, 0xf6, 0xff},
	Dim:        Color{0xa9, 0xb4, 0xc6, 0xff},
	HeaderC:    Color{0x8e, 0x6b, 0xd8, 0xff},
	DataC:      Color{0x2f, 0x8f, 0xd8, 0xff},
	FreeC:      Color{0x3c, 0x5a, 0x3c, 0xff},
	SlackC:     Color{0x4a, 0x4a, 0x52, 0xff},
	NulC:       Color{0x8a, 0x8f, 0x99, 0xff},
	Accent:     Color{0xff, 0xc8, 0x3d, 0xff},
	OneC:       Color{0x3d, 0xc9, 0x8a, 0xff},
	ZeroC:      Color{0x26, 0x30, 0x40, 0xff},
	IndexC:     Color{0x4a, 0x9d, 0xf0, 0xff},
	RunC:       Color{0xff, 0x8a, 0x3d, 0xff},
	ErrorC:     Color{0xff, 0x6b, 0x6b, 0xff},
	Nodes:      darkNodeColors,
}

// Light is the theme for light course pages and projectors that wash out dark slides: a pale
// background, near-black text and deep versions of the dark theme's hues (same roles, same
// contrast rules). Background, textColor, Dim, Accent and ErrorC are index.html's light panel
// colours (--bg, --text, --dim, --accent, --err), as the dark ones are its dark colours.
var Light = Theme{
	Name:       "light",
	Background: Color{0xf4, 0xf6, 0xf9, 0xff},
	Panel:      Color{0xe6, 0xeb, 0xf2, 0xff},
	Grid:       Color{0xa3, 0xaf, 0xc0, 0xff},
	TextColor:  Color{0x16, 0x20, 0x2c, 0xff},
	Dim:        Color{0x46, 0x53, 0x6a, 0xff},
	HeaderC:    Color{0x6a, 0x3f, 0xb8, 0xff},
	DataC:      Color{0x1a, 0x60, 0xa6, 0xff},
	FreeC:      Color{0xcf, 0xe5, 0xcf, 0xff},
	SlackC:     Color{0xd6, 0xd6, 0xde, 0xff},
	NulC:       Color{0x58, 0x5f, 0x6b, 0xff},
	Accent:     Color{0x8a, 0x5a, 0x00, 0xff},
	OneC:       Color{0x10, 0x6b, 0x40, 0xff},
	ZeroC:      Color{0xdd, 0xe3, 0xec, 0xff},
	IndexC:     Color{0x35, 0x50, 0xb8, 0xff},
	RunC:       Color{0xa2, 0x44, 0x00, 0xff},
	ErrorC:     Color{0xb3, 0x26, 0x1e, 0xff},
	Nodes:      lightNodeColors,
}

// themes lists the themes SetTheme knows, the default first.
var themes = []*Theme{&Dark, &Light}

// current is the theme SetTheme last applied; themeGen counts the SetTheme calls (a cached
// pixel image painted under another theme is stale).
var (
	current  = &Dark
	themeGen int
)

// themeHooks recompute colours other files derive from the palette (zset.go's topCardC).
var themeHooks []func()

// onTheme registers fn to run after every SetTheme (call it from init; it also runs once now).
func onTheme(fn func()) {
	themeHooks = append(themeHooks, fn)
	fn()
}

// SetTheme assigns the palette variables from the theme called name ("dark" or "light") and
// reports whether it knows the name (an unknown name changes nothing). Call it before building
// scenes: a scene that already painted its pixel images keeps their colours until its next
// Update.
func SetTheme(name string) bool {
	for _, th := range themes {
		if th.Name == name {
			applyTheme(th)
			return true
		}
	}
	return false
}

// ThemeName is the name of the current theme.
func ThemeName() string { return current.Name }

func applyTheme(th *Theme) {
	current = th
	themeGen++
	Background, panelC, grid, textColor, dim = th.Background, th.Panel, th.Grid, th.TextColor, th.Dim
	headerC, dataC, freeC, slackC, nulC = th.HeaderC, th.DataC, th.FreeC, th.SlackC, th.NulC
	accent, oneC, zeroC, indexC, runC, ErrorC = th.Accent, th.OneC, th.ZeroC, th.IndexC, th.RunC, th.ErrorC
	nodeColors = th.Nodes
	for _, fn := range themeHooks {
		fn()
	}
}

// textOn is the text colour for a fill: textColor or Background, whichever contrasts more.
func textOn(fill Color) Color {
	if contrast(textColor, fill) >= contrast(Background, fill) {
		return textColor
	}
	return Background
}

// tint is c mixed toward base by t, or further toward base until every colour in texts keeps
// 4.5:1 on it: a highlight fill that the texts drawn on it stay readable on, in either theme.
func tint(c, base Color, t float64, texts ...Color) Color {
	for ; t < 1; t += 0.02 {
		f := c.mix(base, t)
		ok := true
		for _, x := range texts {
			if contrast(x, f) < 4.5 {
				ok = false
				break
			}
		}
		if ok {
			return f
		}
	}
	return base
}

// Kind is a primitive's kind.
type Kind uint8

const (
	KRect  Kind = iota // filled rectangle
	KFrame             // rectangle outline of width Stroke
	KLine              // from (X, Y) to (X+W, Y+H), width Stroke
	KText              // Text at (X, Y) = top of the line box, aligned by Align
	KImage             // Img scaled into X, Y, W, H with nearest filtering
)

// Align is horizontal text alignment.
type Align uint8

const (
	Left Align = iota
	Center
	Right
)

// Pixels is an RGBA image a scene fills in bulk (the HLL register map). Gen changes whenever
// the pixels do, so the drawing side uploads them (one WritePixels) only then.
type Pixels struct {
	W, H int
	RGBA []byte
	Gen  uint64
}

// Prim is one drawing primitive.
type Prim struct {
	Kind   Kind
	X, Y   float64
	W, H   float64
	Color  Color
	Stroke float64
	Text   string
	Size   float64 // font size in CSS px
	Mono   bool
	Align  Align
	Img    *Pixels
}

// list is a helper that appends primitives.
type list []Prim

func (l *list) rect(x, y, w, h float64, c Color) {
	*l = append(*l, Prim{Kind: KRect, X: x, Y: y, W: w, H: h, Color: c})
}

func (l *list) frame(x, y, w, h, stroke float64, c Color) {
	*l = append(*l, Prim{Kind: KFrame, X: x, Y: y, W: w, H: h, Stroke: stroke, Color: c})
}

func (l *list) line(x0, y0, x1, y1, stroke float64, c Color) {
	*l = append(*l, Prim{Kind: KLine, X: x0, Y: y0, W: x1 - x0, H: y1 - y0, Stroke: stroke, Color: c})
}

func (l *list) text(x, y float64, s string, size float64, c Color, a Align, mono bool) {
	size = max(size, minText) // nothing smaller than a phone reads (layout.go)
	if mono && strings.ContainsRune(s, '\u202f') {
		// The monospace font has no narrow no-break space (Liberation Mono lacks U+202F) and
		// every glyph takes one advance anyway: a no-break space (U+00A0) keeps the columns.
		s = strings.ReplaceAll(s, "\u202f", "\u00a0")
	}
	*l = append(*l, Prim{Kind: KText, X: x, Y: y, Text: s, Size: size, Color: c, Align: a, Mono: mono})
}

// fontSize is the base text size for a stage: readable on a phone (≥ 13) and on a projector.
func fontSize(r Rect) float64 {
	if fitBase > 0 { // fitter is enlarging the picture (layout.go)
		return fitBase
	}
	return math.Max(fontMin, math.Min(fontMax, math.Min(r.W/38, r.H/24)))
}

// fontMax is the largest base text fontSize gives (layout.go's fitter zooms past it).
const fontMax = 26

// fontMin is the smallest base text: three quarters of it, the size of the scenes' small labels,
// is minText.
const fontMin = minText / 0.75

// pulseAt is the highlight strength at animation progress t: full at 0, settling to 0.35.
func pulseAt(t float64) float64 {
	t = math.Max(0, math.Min(1, t))
	return 0.35 + 0.65*(1-t)
}

// Stage is where the scene draws in a window of w x h CSS pixels: the page's DOM panel takes a
// column at the right on wide windows (width clamp(320, 38%, 460) px) and the lower half on
// narrow ones (below 760 px). index.html's CSS uses the same rule.
func Stage(w, h float64) Rect {
	if w >= 760 {
		p := math.Max(320, math.Min(460, 0.38*w))
		return Rect{0, 0, w - p, h}
	}
	return Rect{0, 0, w, math.Round(h * 0.45)}
}
