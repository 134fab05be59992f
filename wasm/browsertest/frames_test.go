package browsertest

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"redscope/scene"
)

// TestFramesNextAnimates: the page draws only when something changed (wasm/frames.go), and a
// lesson stepped with the Next button still animates. At 1280, 360 and 1920 px wide, in
// Vietnamese and English, hll-registers is stepped by clicking Next: each click draws a frame
// promptly, frames keep coming while the step animates (stats().anim below 1), none once it has
// settled; a shot mid-animation and one settled, each with a picture on the stage (the ink
// check of TestShotsEveryLessonEnd), for a person to look at.
func TestFramesNextAnimates(t *testing.T) {
	sizes := [][2]int{{1280, 800}, {360, 740}, {1920, 1080}}
	for _, lang := range []string{"vi", "en"} {
		for _, sz := range sizes {
			b := start(t, sz[0], sz[1])
			b.open("?lesson=hll-registers&lang=" + lang)
			b.framesFollowChanges() // page_test.go: idle page, a change, its animation
			frames := func() float64 { return b.eval(`window.redscope.stats().frames`).(float64) }
			for i := 1; i <= 3; i++ {
				f0 := frames()
				b.do(chromedp.Click(chromedp.ID("next")))
				b.poll(fmt.Sprintf(`window.redscope.stats().frames > %v && window.redscope.state().step === %d`, f0, i), 10*time.Second)
				mid := b.eval(`window.redscope.stats().anim`).(float64)
				if i == 3 {
					png := b.shotNow(fmt.Sprintf("next-mid-%s-%d.png", lang, sz[0]))
					lookInk(t, png, sz, "mid-animation")
				}
				b.poll(`window.redscope.stats().anim === 1`, 20*time.Second)
				time.Sleep(300 * time.Millisecond) // the frame at anim 1
				n := frames() - f0
				if n < 2 {
					t.Errorf("%s %d, Next #%d: %v frame(s) for the step, want the change and its animation", lang, sz[0], i, n)
				}
				f1 := frames()
				time.Sleep(500 * time.Millisecond)
				if f2 := frames(); f2 != f1 {
					t.Errorf("%s %d, Next #%d: frames drawn after the animation settled: %v → %v", lang, sz[0], i, f1, f2)
				}
				t.Logf("%s %d, Next #%d: %v frames (anim %.2f when the first was drawn)", lang, sz[0], i, n, mid)
			}
			png := b.shot(fmt.Sprintf("next-end-%s-%d.png", lang, sz[0]))
			lookInk(t, png, sz, "settled")
			b.stop()
		}
	}
}

// shotNow is shot without its pause (a frame mid-animation).
func (b *browser) shotNow(name string) string {
	b.t.Helper()
	png := run(b, chromedp.CaptureScreenshot())
	p := filepath.Join(artifacts(b.t), name)
	if err := os.WriteFile(p, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	return p
}

func lookInk(t *testing.T, path string, sz [2]int, what string) {
	t.Helper()
	lk := inkAt(t, path, sz[0], sz[1], scene.Dark.Background)
	msg := fmt.Sprintf("%s %s: stage %v, ink %.1f%%, spans %.0f%% × %.0f%%", path, what, lk.stage, 100*lk.ink, 100*lk.spanW, 100*lk.spanH)
	if lk.ink < 0.02 || lk.spanW < 0.4 || lk.spanH < 0.18 {
		t.Errorf("no picture on the stage: %s", msg)
	} else {
		t.Log(msg)
	}
}
