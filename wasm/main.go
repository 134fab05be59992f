//go:build js && wasm

// Command wasm is redscope's browser app: ebiten draws the scene computed by package scene for
// the lesson player (package lesson), the DOM (index.html, through wasm/ui) holds the controls,
// captions, outputs and console, and window.redscope is the page API.
package main

import (
	"image/color"
	"math"
	"syscall/js"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"redscope/scene"
)

type game struct {
	a      *app
	fonts  *fontSet // fonts.go
	imgs   map[*scene.Pixels]*ebiten.Image
	gens   map[*scene.Pixels]uint64
	scale  float64
	w, h   float64 // CSS pixels
	frames int
	drawMs float64 // Go time of the last Draw
	perf   frameStats
	batch  quadBatch // batch.go
	// frames.go: whether Update ran since the last Draw, whether the last Draw was mid-animation,
	// the screen size it painted, and the test hook's deadline (performance.now() ms).
	updated        bool
	animating      bool
	drawnW, drawnH int
	drawUntil      float64
}

func main() {
	mark("goMain")
	applyTheme() // embed.go: the palette before the first scene is built
	a := newApp()
	mark("app")
	g := &game{a: a, imgs: map[*scene.Pixels]*ebiten.Image{}, gens: map[*scene.Pixels]uint64{}, scale: 1}
	var err error
	if g.fonts, err = loadFonts(); err != nil {
		a.showError(err.Error())
	}
	mark("fonts")
	exportAPI(a, g)
	exportPerfAPI(a)
	ebiten.SetWindowTitle("redscope")
	ebiten.SetWindowResizingMode(ebiten.WindowResizingModeEnabled)
	setFrameMode() // frames.go: draw only when something changed
	if err := ebiten.RunGameWithOptions(g, &ebiten.RunGameOptions{InitUnfocused: true}); err != nil {
		a.showError(err.Error())
	}
}

func (g *game) Update() error {
	defer g.a.guard("update")
	t0 := now()
	g.a.tick()
	g.updated = true
	g.perf.update(now() - t0)
	return nil
}

func (g *game) Layout(ow, oh int) (int, int) {
	g.w, g.h = float64(ow), float64(oh)
	s := ebiten.Monitor().DeviceScaleFactor()
	if s <= 0 || math.IsNaN(s) {
		s = 1
	}
	g.scale = s
	return int(math.Ceil(float64(ow) * s)), int(math.Ceil(float64(oh) * s))
}

func (g *game) Draw(screen *ebiten.Image) {
	defer g.a.guard("draw")
	if !g.updated {
		// ebiten runs no Update in the first frame after a pause (its clock resynchronises), and
		// none while frames come slower than 12 a second: the DOM actions and autoplay run here.
		g.Update()
	}
	g.updated = false
	sw, sh := screen.Bounds().Dx(), screen.Bounds().Dy()
	if !g.needsDraw(sw, sh) { // frames.go: the screen keeps the last drawing
		return
	}
	g.a.dirty = false
	g.drawnW, g.drawnH = sw, sh
	t0 := now()
	screen.Fill(toColor(scene.Background))
	stage := scene.Stage(g.w, g.h)
	if g.a.scene != nil {
		g.drawPrims(screen, g.a.scene.Frame(stage, g.a.animT()))
	}
	g.frames++
	g.animating = g.a.animT() < 1
	g.afterDraw()
	g.drawMs = now() - t0
	g.perf.draw(g.drawMs)
	if !g.a.ready {
		g.a.ready = true
		setReady()
	}
}

func toColor(c scene.Color) color.NRGBA { return color.NRGBA{c.R, c.G, c.B, c.A} }

func (g *game) drawPrims(dst *ebiten.Image, prims []scene.Prim) {
	s := g.scale
	for i := range prims {
		p := &prims[i]
		x, y, w, h := float32(p.X*s), float32(p.Y*s), float32(p.W*s), float32(p.H*s)
		switch p.Kind {
		case scene.KRect: // batch.go: one DrawTriangles for each run of rects and frames
			g.batch.rect(dst, x, y, x+w, y+h, p.Color)
		case scene.KFrame:
			g.batch.frame(dst, x, y, w, h, float32(p.Stroke*s), p.Color)
		case scene.KLine:
			g.batch.flush(dst)
			vector.StrokeLine(dst, x, y, x+w, y+h, float32(p.Stroke*s), toColor(p.Color), true)
		case scene.KText: // fonts.go: each text run drawn once into an image, then one DrawImage
			g.batch.flush(dst)
			g.fonts.drawText(dst, p, clipText(p.Text), p.Size*s, float64(x), float64(y), g.frames)
		case scene.KImage:
			g.batch.flush(dst)
			img := g.imgs[p.Img]
			if img != nil && (img.Bounds().Dx() != p.Img.W || img.Bounds().Dy() != p.Img.H) {
				img.Deallocate() // the scene resized its pixels (a listpack's byte map grows)
				img = nil
			}
			if img == nil {
				img = ebiten.NewImage(p.Img.W, p.Img.H)
				g.imgs[p.Img] = img
				g.gens[p.Img] = p.Img.Gen - 1
			}
			if g.gens[p.Img] != p.Img.Gen {
				img.WritePixels(p.Img.RGBA) // one upload for every cell
				g.gens[p.Img] = p.Img.Gen
			}
			op := &ebiten.DrawImageOptions{}
			op.GeoM.Scale(float64(w)/float64(p.Img.W), float64(h)/float64(p.Img.H))
			op.GeoM.Translate(float64(x), float64(y))
			op.Filter = ebiten.FilterNearest
			dst.DrawImage(img, op)
		}
	}
	g.batch.flush(dst)
	g.fonts.sweep(g.frames)
}

func now() float64 { return js.Global().Get("performance").Call("now").Float() }
