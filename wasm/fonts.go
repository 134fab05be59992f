//go:build js && wasm

package main

import (
	"image"
	"math"
	"unicode/utf8"

	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"

	"github.com/hajimehoshi/ebiten/v2"

	"redscope/assets/fonts"
	"redscope/scene"
)

// Canvas text is drawn with golang.org/x/image/font/opentype faces from the subset fonts of
// assets/fonts, rasterised by x/image's font.Drawer into the run's image (below), without
// ebiten's text/v2: text.GoTextFace's go-text/typesetting (HarfBuzz shaping, font tables) costs
// about 3 MB of wasm and 0.5 MB of brotli, and its shaping buys nothing here (the subsets have a
// precomposed glyph for every Vietnamese letter); and importing text/v2 at all links
// go-text's image decoders (JPEG, TIFF) and x/text's language tables, and runs their package
// init before the first frame. BENCHMARKS.md, "Payload".

// fontSet holds the parsed fonts and one face per (font, pixel size).
type fontSet struct {
	sans, mono *sfnt.Font
	faces      map[faceKey]*face
	runs       map[runKey]*run
}

type faceKey struct {
	mono bool
	size float64
}

// face is one font at one size, with its line metrics in pixels.
type face struct {
	f               font.Face
	ascent, descent float64
}

func loadFonts() (*fontSet, error) {
	fs := &fontSet{faces: map[faceKey]*face{}}
	var err error
	if fs.sans, err = opentype.Parse(fonts.Sans); err != nil {
		return nil, err
	}
	if fs.mono, err = opentype.Parse(fonts.Mono); err != nil {
		return nil, err
	}
	return fs, nil
}

// face returns the face for size device pixels; nil when the fonts did not load.
func (fs *fontSet) face(mono bool, size float64) *face {
	if fs == nil || !(size > 0 && size < 1000) {
		return nil
	}
	k := faceKey{mono, size}
	if f, ok := fs.faces[k]; ok {
		return f
	}
	src := fs.sans
	if mono {
		src = fs.mono
	}
	of, err := opentype.NewFace(src, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		fs.faces[k] = nil
		return nil
	}
	if len(fs.faces) > 64 { // sizes follow the window; do not keep every one ever used
		clear(fs.faces)
		for k, r := range fs.runs { // and the runs drawn with them
			if r.img != nil {
				r.img.Deallocate()
			}
			delete(fs.runs, k)
		}
	}
	m := of.Metrics()
	f := &face{f: of, ascent: fix(m.Ascent), descent: fix(m.Descent)}
	fs.faces[k] = f
	return f
}

func fix(v fixed.Int26_6) float64 { return float64(v) / 64 }

// maxTextBytes caps one text primitive: no line on the canvas shows more (a 2560-pixel-wide
// screen holds about 400 characters of the smallest text), and laying out a pasted command of
// 100 KB every frame took seconds.
const maxTextBytes = 1024

// clipText shortens s to at most maxTextBytes bytes, on a rune boundary, ending in "…".
func clipText(s string) string {
	if len(s) <= maxTextBytes {
		return s
	}
	i := maxTextBytes
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + "…"
}

// Text runs are drawn once into an image of their own (white, at an integer position) and then
// drawn with one DrawImage a frame, tinted by the colour scale: the display lists are rebuilt
// every frame but their texts rarely change, and laying a text out and drawing it glyph by glyph
// was most of the Go time of a frame (the HLL scene's 64 hash-bit digits, for instance).
type runKey struct {
	s    string
	mono bool
	size float64
}

type run struct {
	img  *ebiten.Image // nil: nothing to draw (too tall, empty)
	w    float64       // advance
	used int           // the frame that last drew it
}

const (
	maxRuns   = 2048 // cached runs before a sweep
	runMaxPix = 4096 // taller runs are not drawn, wider ones are cut
)

// drawText draws s at (x, y) (device pixels, top of the line box) with the alignment and the
// colour of p.
func (fs *fontSet) drawText(dst *ebiten.Image, p *scene.Prim, s string, size, x, y float64, frame int) {
	f := fs.face(p.Mono, size)
	if f == nil || s == "" {
		return
	}
	k := runKey{s, p.Mono, size}
	r, ok := fs.runs[k]
	if !ok {
		r = fs.newRun(s, f, size)
		if fs.runs == nil {
			fs.runs = map[runKey]*run{}
		}
		fs.runs[k] = r
	}
	r.used = frame
	switch p.Align {
	case scene.Center:
		x -= r.w / 2
	case scene.Right:
		x -= r.w
	}
	if r.img == nil { // too large, or nothing to draw
		return
	}
	pad := runPad(size)
	op := &ebiten.DrawImageOptions{}
	op.GeoM.Translate(math.Round(x-pad), math.Round(y-pad))
	op.ColorScale.ScaleWithColor(toColor(p.Color))
	dst.DrawImage(r.img, op)
}

// runPad is the margin around a run's image: room for glyphs that overhang their advance or
// the line box (stacked Vietnamese diacritics on capitals).
func runPad(size float64) float64 { return math.Ceil(size*0.3) + 1 }

func (fs *fontSet) newRun(s string, f *face, size float64) *run {
	r := &run{w: fix(font.MeasureString(f.f, s))}
	pad := runPad(size)
	w := math.Ceil(r.w + 2*pad)
	h := math.Ceil(f.ascent + f.descent + 2*pad)
	if h > runMaxPix || w < 1 || h < 1 {
		return r
	}
	// A run wider than runMaxPix is cut there (no stage is that wide in device pixels but a
	// 4K screen at twice its pixel ratio).
	img := image.NewRGBA(image.Rect(0, 0, int(min(w, runMaxPix)), int(h)))
	d := font.Drawer{Dst: img, Src: image.White, Face: f.f, Dot: fixed.Point26_6{X: fixed.Int26_6(pad * 64), Y: fixed.Int26_6((pad + f.ascent) * 64)}}
	d.DrawString(s)
	r.img = ebiten.NewImageFromImage(img)
	return r
}

// sweep drops the runs not drawn in the last 120 frames (every 60 frames, or when there are too
// many).
func (fs *fontSet) sweep(frame int) {
	if fs == nil || (frame%60 != 0 && len(fs.runs) < maxRuns) {
		return
	}
	for k, r := range fs.runs {
		if r.used < frame-120 || len(fs.runs) >= maxRuns && r.used < frame {
			if r.img != nil {
				r.img.Deallocate()
			}
			delete(fs.runs, k)
		}
	}
}
