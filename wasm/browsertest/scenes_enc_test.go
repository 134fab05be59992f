//go:build !(js && wasm)

package browsertest

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"redscope/engine"
	"redscope/engine/alloc"
	"redscope/lesson"
)

// encLessons are the lessons of the encoding and zset scenes, the profiles they are compared on
// and the positions screenshotted.
var encLessons = []struct {
	name  string
	ver   engine.Version
	shots []int
}{
	{"encodings-hash", engine.V70, []int{2, 3, 4, 5, 8}},
	{"encodings-set", engine.V72, []int{1, 2, 3, 5}},
	{"encodings-version", engine.V70, []int{2, 4}},
	{"encodings-version", engine.V88, []int{2, 4}},
	{"leaderboard", engine.V70, []int{3, 5, 6, 8}},
}

// TestEncodingScenesMatchNativeRun plays the encoding and leaderboard lessons in the page,
// compares state() at every position, forward and back, with lesson.Run natively (Debian's
// allocator, as the page was opened with), and saves screenshots: Vietnamese at 1280×800,
// English at 1920×1080, and a 360 px phone.
func TestEncodingScenesMatchNativeRun(t *testing.T) {
	b := start(t, 1280, 800)
	b.open("?lang=vi&version=7.0&allocator=jemalloc-16")
	for _, el := range encLessons {
		playAndCompare(t, b, builtin(t, el.name), el.ver, el.shots, 1200*time.Millisecond, func(i int) string {
			return fmt.Sprintf("enc-%s-%v-step%d-vi.png", el.name, el.ver, i)
		})
	}

	// The comparison lesson at the same step under both versions, switched in place: the page
	// replays to the same position with the other profile.
	cmp := builtin(t, "encodings-version")
	b.eval(`window.redscope.lesson("encodings-version")`)
	b.setVersion(engine.V70)
	b.eval(`window.redscope.step()`)
	b.eval(`window.redscope.step()`)
	for _, v := range []engine.Version{engine.V70, engine.V72} {
		b.setVersion(v)
		want := lesson.Run(cmp, lesson.Config{Version: v, Allocator: alloc.Jemalloc16})
		if got := b.state(); !reflect.DeepEqual(got, normal(t, want[2])) {
			t.Fatalf("switched to %v at step 2: %v", v, got)
		}
		enc := want[2].Outputs.Keys[0].Encoding
		if (v == engine.V70) != (enc == "hashtable") {
			t.Fatalf("%v: ids is %s", v, enc)
		}
		time.Sleep(1200 * time.Millisecond)
		b.shot(fmt.Sprintf("enc-compare-step2-%v.png", v))
	}

	en := start(t, 1920, 1080)
	en.open("?lang=en&version=7.0&allocator=jemalloc-16")
	for _, el := range encLessons {
		last := el.shots[len(el.shots)-1]
		en.playTo(el.name, el.ver, last)
		time.Sleep(1200 * time.Millisecond)
		en.shot(fmt.Sprintf("enc-%s-%v-step%d-en-1920.png", el.name, el.ver, last))
	}

	p := start(t, 360, 740)
	p.open("?lang=vi&version=7.0")
	for _, el := range encLessons {
		p.eval(fmt.Sprintf(`window.redscope.lesson(%q)`, el.name))
		p.setVersion(el.ver)
		for _, s := range el.shots[len(el.shots)-2:] {
			for p.eval(`window.redscope.state().step`).(float64) < float64(s) {
				p.eval(`window.redscope.step()`)
			}
			if w := run(p, chromedp.Evaluate[float64](`document.getElementById('panel').scrollWidth`)); w > 360 {
				t.Errorf("%s: panel is %v px wide on a 360 px screen", el.name, w)
			}
			time.Sleep(1200 * time.Millisecond)
			p.shot(fmt.Sprintf("enc-%s-%v-step%d-360.png", el.name, el.ver, s))
		}
	}
}
