//go:build js && wasm

package main

import (
	"image"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"

	"redscope/scene"
)

// quadBatch collects the filled rectangles and rectangle frames of a display list into one
// vertex list and draws each run of them, between two texts or images, with one DrawTriangles
// call. vector.DrawFilledRect and vector.StrokeRect cost one path, one stroke computation and one
// DrawTriangles each: with the hash strip, the pulses and the grids of the scenes that was a few
// hundred calls a frame (BROWSER-NOTES, "Batch: never one draw call per cell"). The geometry is
// the same: a frame is the four bands of a centred stroke with square (mitred) corners.
type quadBatch struct {
	white *ebiten.Image // a white pixel with a white border, so sampling stays inside
	vs    []ebiten.Vertex
	is    []uint16
}

func (b *quadBatch) init() {
	if b.white == nil {
		img := ebiten.NewImage(3, 3)
		img.Fill(color.White)
		b.white = img.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image)
	}
}

// rect adds the rectangle (x0, y0)-(x1, y1) in colour c.
func (b *quadBatch) rect(dst *ebiten.Image, x0, y0, x1, y1 float32, c scene.Color) {
	if !(x1 > x0 && y1 > y0) || c.A == 0 {
		return
	}
	if len(b.vs)+4 > 0xffff {
		b.flush(dst)
	}
	// Premultiplied, as ebiten.ColorScaleModePremultipliedAlpha expects.
	a := float32(c.A) / 255
	r, g, bl := float32(c.R)/255*a, float32(c.G)/255*a, float32(c.B)/255*a
	n := uint16(len(b.vs))
	for _, p := range [4][2]float32{{x0, y0}, {x1, y0}, {x0, y1}, {x1, y1}} {
		b.vs = append(b.vs, ebiten.Vertex{DstX: p[0], DstY: p[1], SrcX: 1, SrcY: 1, ColorR: r, ColorG: g, ColorB: bl, ColorA: a})
	}
	b.is = append(b.is, n, n+1, n+2, n+1, n+3, n+2)
}

// frame adds the outline of (x, y, w, h) stroked sw wide, centred on the edges.
func (b *quadBatch) frame(dst *ebiten.Image, x, y, w, h, sw float32, c scene.Color) {
	if !(sw > 0) || w < 0 || h < 0 {
		return
	}
	d := sw / 2
	if h <= sw || w <= sw { // the bands meet: a filled rectangle
		b.rect(dst, x-d, y-d, x+w+d, y+h+d, c)
		return
	}
	b.rect(dst, x-d, y-d, x+w+d, y+d, c)     // top
	b.rect(dst, x-d, y+h-d, x+w+d, y+h+d, c) // bottom
	b.rect(dst, x-d, y+d, x+d, y+h-d, c)     // left
	b.rect(dst, x+w-d, y+d, x+w+d, y+h-d, c) // right
}

// flush draws what was collected.
func (b *quadBatch) flush(dst *ebiten.Image) {
	if len(b.is) == 0 {
		return
	}
	b.init()
	op := &ebiten.DrawTrianglesOptions{ColorScaleMode: ebiten.ColorScaleModePremultipliedAlpha}
	dst.DrawTriangles(b.vs, b.is, b.white, op)
	b.vs, b.is = b.vs[:0], b.is[:0]
}
