//go:build !(js && wasm)

package browsertest

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"redscope/assets"
	"redscope/scene"
)

// canvasLook summarises the stage part of a screenshot (the canvas the DOM panel does not cover).
type canvasLook struct {
	corners    [2]scene.Color // just inside the top-left and bottom-right corners of the stage
	light      float64        // share of pixels with a WCAG luminance ≥ 0.6
	dark       float64        // share of pixels with a luminance ≤ 0.1
	stage      image.Rectangle
	imgW, imgH int
}

// stageOf reads the screenshot at path and the part of it the stage st covers.
func stageOf(t *testing.T, path string, st scene.Rect) (image.Image, image.Rectangle) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img, image.Rect(int(st.X), int(st.Y), int(st.X+st.W), int(st.Y+st.H)).Intersect(img.Bounds())
}

func lookAt(t *testing.T, path string, winW, winH int) canvasLook {
	t.Helper()
	img, r := stageOf(t, path, scene.Stage(float64(winW), float64(winH)))
	at := func(x, y int) scene.Color {
		c, g, bl, a := img.At(x, y).RGBA()
		return scene.Color{R: uint8(c >> 8), G: uint8(g >> 8), B: uint8(bl >> 8), A: uint8(a >> 8)}
	}
	lk := canvasLook{stage: r, imgW: img.Bounds().Dx(), imgH: img.Bounds().Dy()}
	lk.corners = [2]scene.Color{at(r.Min.X+4, r.Min.Y+4), at(r.Max.X-5, r.Max.Y-5)}
	n, light, dark := 0, 0, 0
	for y := r.Min.Y; y < r.Max.Y; y += 2 {
		for x := r.Min.X; x < r.Max.X; x += 2 {
			l := at(x, y).Luminance()
			n++
			if l >= 0.6 {
				light++
			}
			if l <= 0.1 {
				dark++
			}
		}
	}
	lk.light, lk.dark = float64(light)/float64(max(n, 1)), float64(dark)/float64(max(n, 1))
	return lk
}

func near(a, b scene.Color, tol int) bool {
	d := func(x, y uint8) bool { return int(x)-int(y) <= tol && int(y)-int(x) <= tol }
	return d(a.R, b.R) && d(a.G, b.G) && d(a.B, b.B)
}

// expectTheme checks a screenshot's stage: the background of theme th in its corners, and its
// pixels light (light theme) or dark (dark theme) with hardly any of the other kind.
func expectTheme(t *testing.T, path string, winW, winH int, th *scene.Theme) {
	t.Helper()
	lk := lookAt(t, path, winW, winH)
	if lk.imgW != winW || lk.imgH != winH {
		t.Fatalf("%s: screenshot %d×%d, window %d×%d", path, lk.imgW, lk.imgH, winW, winH)
	}
	for _, c := range lk.corners {
		if !near(c, th.Background, 3) {
			t.Errorf("%s: stage corner %v, want the %s background %v", path, c, th.Name, th.Background)
		}
	}
	// A picture that fills the stage with mid-tone cells (a 2 000-entry listpack's byte map) has
	// few pixels either light or dark: what tells the themes apart is that the other theme's
	// pixels are (nearly) absent and the theme's own outnumber them many times.
	if th.Name == "light" && (lk.dark > 0.1 || lk.light < 5*lk.dark || lk.light < 0.2) ||
		th.Name == "dark" && (lk.light > 0.1 || lk.dark < 5*lk.light || lk.dark < 0.2) {
		t.Errorf("%s: %s theme but %.0f%% light and %.0f%% dark pixels on the stage", path, th.Name, 100*lk.light, 100*lk.dark)
	}
	t.Logf("%s: stage %v, %.0f%% light, %.0f%% dark pixels", path, lk.stage, 100*lk.light, 100*lk.dark)
}

// TestThemeLightCanvas opens the app with ?theme=light and checks that the canvas (not only the
// DOM panel) is drawn light, for every built-in lesson a few steps in, at 1280×800 and at 360 px
// wide; that the default stays dark; and that theme=auto follows prefers-color-scheme.
func TestThemeLightCanvas(t *testing.T) {
	b := start(t, 1280, 800)
	b.open("?lang=vi&theme=light&lesson=encodings-hash&step=2&lua=1") // every lesson below: the build with Lua
	if got := b.eval(`document.documentElement.dataset.theme + " " + getComputedStyle(document.getElementById("panel")).backgroundColor`); got != "light rgba(255, 255, 255, 0.97)" {
		t.Fatalf("page theme %q", got)
	}
	expectTheme(t, b.shot("theme-light-open-vi.png"), 1280, 800, &scene.Light)
	// Reduced motion: a step is drawn settled at once, so one frame is enough to look at it.
	if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}},
	}); err != nil {
		t.Fatal(err)
	}
	for _, src := range assets.Lessons() {
		if ok := b.eval(fmt.Sprintf(`window.redscope.lesson(%q)`, src.Name)); ok != true {
			t.Fatalf("lesson(%q) = %v", src.Name, ok)
		}
		for i := 0; i < 3; i++ {
			if b.eval(`window.redscope.step()`) != true {
				break
			}
		}
		time.Sleep(300 * time.Millisecond) // a frame of the step (drawn settled)
		expectTheme(t, b.shot("theme-light-"+src.Name+"-vi.png"), 1280, 800, &scene.Light)
	}
	// Positions with pixel images and chains: a hashtable's bucket map, a dense HLL, the slots.
	for _, q := range []string{"lesson=encodings-hash&step=5", "lesson=hll-registers&step=6", "lesson=ring&step=7"} {
		b.open("?lang=vi&theme=light&" + q)
		time.Sleep(1200 * time.Millisecond)
		expectTheme(t, b.shot("theme-light-"+strings.NewReplacer("lesson=", "", "&step=", "-").Replace(q)+"-vi.png"), 1280, 800, &scene.Light)
	}
	// The default is the dark theme.
	b.open("?lang=vi&lesson=encodings-hash&step=2")
	if got := b.eval(`document.documentElement.dataset.theme`); got != "dark" {
		t.Fatalf("default page theme %q", got)
	}
	expectTheme(t, b.shot("theme-dark-default-vi.png"), 1280, 800, &scene.Dark)
	// theme=auto follows the reader's colour scheme when the page opens.
	for _, c := range []struct {
		scheme string
		th     *scene.Theme
	}{{"light", &scene.Light}, {"dark", &scene.Dark}} {
		if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: c.scheme}},
		}); err != nil {
			t.Fatal(err)
		}
		b.open("?lang=en&theme=auto&lesson=ring&step=4")
		if got := b.eval(`document.documentElement.dataset.theme`); got != c.th.Name {
			t.Fatalf("auto with a %s scheme: page theme %q", c.scheme, got)
		}
		expectTheme(t, b.shot("theme-auto-"+c.scheme+"-en.png"), 1280, 800, c.th)
	}
	b.stop()

	// A phone: the stage is the upper 45 % of the window.
	p := start(t, 360, 740)
	for _, q := range []string{"lesson=encodings-hash&step=2", "lesson=bit-offsets&step=3", "lesson=leaderboard&step=4", "lesson=bloom&step=3"} {
		p.open("?lang=vi&theme=light&" + q)
		time.Sleep(800 * time.Millisecond)
		expectTheme(t, p.shot("theme-light-360-"+strings.NewReplacer("lesson=", "", "&step=", "-").Replace(q)+".png"), 360, 740, &scene.Light)
	}
}
