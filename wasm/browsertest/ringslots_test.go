//go:build !(js && wasm)

package browsertest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"redscope/scene"
)

// TestRingSlotsShots plays lesson ring-vs-slots in the page, in Vietnamese and English, and
// saves at 360×740, 1280×800 and 1920×1080 (ringslots-NAME-WIDTH-LANG.png in
// REDSCOPE_ARTIFACTS):
//
//   - mid: step 4 (node 7003 joins the ring and the cluster takes 4 096 slots) with its
//     animation held at about 45 %: the page's clock (performance.now, which Go's monotonic time
//     reads) is frozen once the step is applied, so some slots have arrived on 7003's row, some
//     travel and the note counts them ("… of 4096 slots");
//   - end: step 4 settled under prefers-reduced-motion (drawn at t = 1 at once);
//   - dbsize: step 5, the DBSIZE of each node.
//
// Each shot must show no error and hold a picture; the scene's text alternative must name the
// ring's and the cluster's figures in the page's language.
func TestRingSlotsShots(t *testing.T) {
	sizes := [][2]int{{1280, 800}, {360, 740}, {1920, 1080}}
	b := start(t, 1280, 800)
	reduce := func(on bool) {
		v := ""
		if on {
			v = "reduce"
		}
		if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: v}},
		}); err != nil {
			t.Fatal(err)
		}
	}
	// shot saves one screenshot at size sz and checks it holds a picture and no error.
	shot := func(name, lang string, sz [2]int) {
		if e := b.eval(`window.redscope.error`); e != "" {
			t.Errorf("%s %s %d: error shown: %v", name, lang, sz[0], e)
		}
		p := b.shot(fmt.Sprintf("ringslots-%s-%d-%s.png", name, sz[0], lang))
		lk := inkAt(t, p, sz[0], sz[1], scene.Dark.Background)
		msg := fmt.Sprintf("%s %d %s: ink %.1f%%, spans %.0f%% × %.0f%%", name, sz[0], lang, 100*lk.ink, 100*lk.spanW, 100*lk.spanH)
		if lk.ink < 0.02 || lk.ink > 0.9 || lk.spanW < 0.4 || lk.spanH < 0.18 {
			t.Errorf("no picture on the stage: %s", msg)
		} else {
			t.Log(msg)
		}
	}
	resize := func(sz [2]int) {
		b.do(chromedp.EmulateViewport(int64(sz[0]), int64(sz[1])))
		b.top()
	}
	load := func() {
		if ok := b.eval(`window.redscope.lesson("ring-vs-slots")`); ok != true {
			t.Fatalf("lesson(ring-vs-slots) = %v", ok)
		}
	}
	for _, lang := range []string{"vi", "en"} {
		reduce(false)
		for k, sz := range sizes {
			// A fresh page at this size (after a frozen clock the page is not resized reliably),
			// then step 4 is applied and the clock frozen midway.
			resize(sz)
			b.open("?lang=" + lang)
			load()
			if got := b.eval(`window.redscope.step(3)`); got != 3.0 {
				t.Fatalf("step(3) = %v", got)
			}
			b.shot("ringslots-warmup.png") // a frame at this size before the clock stops
			a := b.eval(`(() => { window.redscope.step(); const t0 = performance.now(); window.__realNow = performance.now.bind(performance);
				performance.now = () => t0; return window.redscope.stats().anim })()`).(float64)
			if a >= 0.45 {
				t.Fatalf("step 4 took the whole animation to apply (anim %.2f at once)", a)
			}
			b.eval(fmt.Sprintf(`(() => { const t1 = performance.now() + %f; performance.now = () => t1; return true })()`, (0.45-a)*900))
			if got := b.eval(`window.redscope.stats().anim`).(float64); got < 0.4 || got > 0.5 {
				t.Fatalf("animation held at %.2f, want 0.45", got)
			}
			if k == 0 {
				if sc, _ := b.drawn(); sc != "ringslots" {
					t.Fatalf("scene %q, want ringslots", sc)
				}
				desc := b.sceneDesc()
				want := map[string][]string{"en": {"ring: 7000", "keys moved", "slots moved to 127.0.0.1:7003"},
					"vi": {"vòng: 7000", "đổi node", "slot chuyển sang 127.0.0.1:7003"}}[lang]
				for _, w := range want {
					if !strings.Contains(desc, w) {
						t.Errorf("%s: the scene's text alternative lacks %q:\n%s", lang, w, desc)
					}
				}
			}
			shot("mid", lang, sz)
			b.eval(`performance.now = window.__realNow; true`)
		}
		// Reduced motion (read when the page opens): step 4 is drawn settled at once.
		reduce(true)
		resize(sizes[0])
		b.open("?lang=" + lang)
		load()
		if got := b.eval(`window.redscope.step(4); window.redscope.stats().anim`); got != 1.0 {
			t.Errorf("reduced motion: anim %v after step 4, want 1", got)
		}
		for _, sz := range sizes {
			resize(sz)
			shot("end", lang, sz)
		}
		b.eval(`window.redscope.step()`)
		for _, sz := range sizes {
			resize(sz)
			shot("dbsize", lang, sz)
		}
	}
	b.stop()
}
