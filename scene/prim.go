package scene

import (
	"math"
	"unicode/utf8"
)

// Rect is an area in CSS pixels.
type Rect struct{ X, Y, W, H float64 }

// Inset shrinks r by d on every side.
func (r Rect) Inset(d float64) Rect {
	return Rect{r.X + d, r.Y + d, math.Max(r.W-2*d, 0), math.Max(r.H-2*d, 0)}
}

// Contains reports whether (x, y) lies inside r.
func (r Rect) Contains(x, y float64) bool {
	return x >= r.X && y >= r.Y && x < r.X+r.W && y < r.Y+r.H
}

// Color is 8-bit RGBA, not premultiplied.
type Color struct{ R, G, B, A uint8 }

// Alpha returns c with its alpha scaled by a (0..1).
func (c Color) Alpha(a float64) Color {
	c.A = uint8(math.Round(float64(c.A) * math.Max(0, math.Min(1, a))))
	return c
}

// Mix blends c toward d by t (0..1).
func (c Color) Mix(d Color, t float64) Color {
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

// Contrast is the WCAG contrast ratio between two opaque colours.
func Contrast(a, b Color) float64 {
	la, lb := a.Luminance(), b.Luminance()
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// Palette: a dark theme that stays readable on a projector (text ≥ 7:1 on the background).
var (
	Background = Color{0x0f, 0x14, 0x1c, 0xff}
	Panel      = Color{0x1a, 0x22, 0x30, 0xff}
	Grid       = Color{0x3a, 0x46, 0x5a, 0xff}
	TextColor  = Color{0xec, 0xf0, 0xf6, 0xff}
	Dim        = Color{0xa9, 0xb4, 0xc6, 0xff}
	HeaderC    = Color{0x8e, 0x6b, 0xd8, 0xff} // sds header / robj
	DataC      = Color{0x2f, 0x8f, 0xd8, 0xff} // string bytes
	FreeC      = Color{0x3c, 0x5a, 0x3c, 0xff} // spare room (avail)
	SlackC     = Color{0x4a, 0x4a, 0x52, 0xff} // allocator rounding
	NulC       = Color{0x8a, 0x8f, 0x99, 0xff} // the terminator
	Accent     = Color{0xff, 0xc8, 0x3d, 0xff} // what just changed
	OneC       = Color{0x3d, 0xc9, 0x8a, 0xff} // a set bit
	ZeroC      = Color{0x26, 0x30, 0x40, 0xff} // a clear bit
	IndexC     = Color{0x4a, 0x9d, 0xf0, 0xff} // HLL index bits
	RunC       = Color{0xff, 0x8a, 0x3d, 0xff} // HLL run of zeros
	ErrorC     = Color{0xff, 0x6b, 0x6b, 0xff}
)

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
	*l = append(*l, Prim{Kind: KText, X: x, Y: y, Text: s, Size: size, Color: c, Align: a, Mono: mono})
}

// MonoAdvance is the advance of one glyph of the monospace font (Liberation Mono: 1229/2048 em).
const MonoAdvance = 0.6001

// MonoWidth is the width of s in the monospace font at size.
func MonoWidth(s string, size float64) float64 {
	return float64(utf8.RuneCountInString(s)) * MonoAdvance * size
}

// FontSize is the base text size for a stage: readable on a phone (≥ 13) and on a projector.
func FontSize(r Rect) float64 {
	return math.Max(13, math.Min(26, math.Min(r.W/38, r.H/24)))
}

// Pulse is the highlight strength at animation progress t: full at 0, settling to 0.35.
func Pulse(t float64) float64 {
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
