//go:build !(js && wasm)

package browsertest

import (
	"fmt"
	"image"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"redscope/assets"
	"redscope/scene"
)

// inkLook measures how much of the stage a screenshot uses: the share of sampled stage pixels
// that are not the background, and the bounding box of those pixels as a share of the stage's
// width and height.
type inkLook struct {
	ink        float64 // share of stage pixels away from the background
	spanW      float64 // width of the inked box / stage width
	spanH      float64 // height of the inked box / stage height
	stage      image.Rectangle
	imgW, imgH int
}

func inkAt(t *testing.T, path string, winW, winH int, bg scene.Color) inkLook {
	t.Helper()
	img, r := stageOf(t, path, scene.Stage(float64(winW), float64(winH)))
	lk := inkLook{stage: r, imgW: img.Bounds().Dx(), imgH: img.Bounds().Dy()}
	n, ink := 0, 0
	box := image.Rectangle{Min: r.Max, Max: r.Min}
	for y := r.Min.Y; y < r.Max.Y; y += 2 {
		for x := r.Min.X; x < r.Max.X; x += 2 {
			c, g, bl, _ := img.At(x, y).RGBA()
			n++
			if !near(scene.Color{R: uint8(c >> 8), G: uint8(g >> 8), B: uint8(bl >> 8)}, bg, 6) {
				ink++
				box.Min.X, box.Min.Y = min(box.Min.X, x), min(box.Min.Y, y)
				box.Max.X, box.Max.Y = max(box.Max.X, x+1), max(box.Max.Y, y+1)
			}
		}
	}
	lk.ink = float64(ink) / float64(max(n, 1))
	if ink > 0 {
		lk.spanW = float64(box.Dx()) / float64(max(r.Dx(), 1))
		lk.spanH = float64(box.Dy()) / float64(max(r.Dy(), 1))
	}
	return lk
}

// TestShotsEveryLessonEnd opens every built-in lesson, steps it to its last step and saves a
// screenshot at 360×740, 1280×800 and 1920×1080, in Vietnamese and English
// (shot-LESSON-WIDTH-LANG.png in REDSCOPE_ARTIFACTS). Each lesson is stepped once per language
// and the three sizes are taken by resizing the viewport (the page lays itself out again, as when
// a reader resizes the window): stepping a lesson through its heavy steps was most of the test's
// time. Each shot must be ready with no error shown, at the lesson's last step, and its stage must
// hold a picture: at least 2 % of the stage's pixels away from the background, the drawn part
// spanning at least 40 % of the stage's width and 18 % of its height (a blank or nearly blank stage
// fails). How much of the stage each picture uses is logged (ink share and span), not asserted
// beyond that.
func TestShotsEveryLessonEnd(t *testing.T) {
	sizes := [][2]int{{1280, 800}, {360, 740}, {1920, 1080}}
	b := start(t, 1280, 800)
	// Reduced motion: each last step is drawn settled at once (what a reader sees once the
	// animation ends), so a shot needs one frame, not the animation's 900 ms.
	if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}},
	}); err != nil {
		t.Fatal(err)
	}
	resize := func(sz [2]int) {
		b.do(chromedp.EmulateViewport(int64(sz[0]), int64(sz[1])))
	}
	for _, lang := range []string{"vi", "en"} {
		resize(sizes[0])
		b.open("?lua=1&lang=" + lang) // every lesson in one page: the build with Lua (wasm/lua.go)
		for _, src := range assets.Lessons() {
			if only := os.Getenv("REDSCOPE_SHOT_LESSONS"); only != "" && !slices.Contains(strings.Split(only, ","), src.Name) {
				continue // a lesson author's quick look at a few lessons (not set in CI)
			}
			l := builtin(t, src.Name)
			if ok := b.eval(fmt.Sprintf(`window.redscope.lesson(%q)`, src.Name)); ok != true {
				t.Fatalf("lesson(%q) = %v", src.Name, ok)
			}
			for b.eval(`window.redscope.step()`) == true {
			}
			st := b.state().(map[string]any)
			if got := stepOf(st); got != len(l.Steps) {
				t.Errorf("%s %s: at step %d of %d", src.Name, lang, got, len(l.Steps))
			}
			for _, sz := range sizes {
				resize(sz)
				if e := b.eval(`window.redscope.error`); e != "" {
					t.Errorf("%s %s %d: error shown: %v", src.Name, lang, sz[0], e)
				}
				p := b.shot(fmt.Sprintf("shot-%s-%d-%s.png", src.Name, sz[0], lang))
				lk := inkAt(t, p, sz[0], sz[1], scene.Dark.Background)
				if lk.imgW != sz[0] || lk.imgH != sz[1] {
					t.Errorf("%s: screenshot %d×%d, window %d×%d", p, lk.imgW, lk.imgH, sz[0], sz[1])
				}
				msg := fmt.Sprintf("%s %d %s: stage %v, ink %.1f%%, spans %.0f%% × %.0f%%", src.Name, sz[0], lang, lk.stage, 100*lk.ink, 100*lk.spanW, 100*lk.spanH)
				if lk.ink < 0.02 || lk.spanW < 0.4 || lk.spanH < 0.18 {
					t.Errorf("no picture on the stage: %s", msg)
				} else {
					t.Log(msg)
				}
			}
		}
	}
	b.stop()
}
