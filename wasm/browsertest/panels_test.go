package browsertest

import (
	"fmt"
	"testing"

	"redscope/scene"
)

// TestPanelsKeepStage opens the share and embed panels and scrolls the embed code into view, at
// each width in both themes, and requires the stage to stay drawn: no pure-black pixels in it
// (the scene's backgrounds are never #000). Chromium's software compositor culled the part of
// the WebGL canvas under an opaque text area, and on a phone a black box covered about a fifth
// of the stage (index.html gives the text areas an alpha of 0.99, as the panel has).
func TestPanelsKeepStage(t *testing.T) {
	for _, sz := range [][2]int{{360, 740}, {1280, 800}, {1920, 1080}} {
		b := start(t, sz[0], sz[1])
		for _, theme := range []string{"dark", "light"} {
			b.open("?lesson=encodings-hash&step=3&lang=vi&theme=" + theme)
			b.eval(`window.redscope.exec("HSET user:1 name Ana"), window.redscope.exec("LPUSH user:1 x")`)
			b.eval(`document.getElementById("share").open = true, document.getElementById("embed").open = true, document.getElementById("embed").scrollIntoView()`)
			p := b.shot(fmt.Sprintf("panels-stage-%d-%s.png", sz[0], theme))
			img, r := stageOf(t, p, scene.Stage(float64(sz[0]), float64(sz[1])))
			black := 0
			for y := r.Min.Y; y < r.Max.Y; y++ {
				for x := r.Min.X; x < r.Max.X; x++ {
					if c, g, bl, _ := img.At(x, y).RGBA(); c == 0 && g == 0 && bl == 0 {
						black++
					}
				}
			}
			share := float64(black) / float64(r.Dx()*r.Dy())
			t.Logf("%d px %s: %.2f %% of the stage pure black", sz[0], theme, 100*share)
			if share > 0.005 {
				t.Errorf("%d px %s: %.1f %% of the stage is pure black after the panels opened (%s)", sz[0], theme, 100*share, p)
			}
		}
		b.stop()
	}
}
