//go:build !(js && wasm)

package browsertest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"redscope/assets"
	"redscope/engine"
	"redscope/engine/alloc"
	"redscope/lesson"
)

// miscLessons are the lessons of the ring, bloom and counters scenes, with the profile they run
// on and the positions screenshotted.
var miscLessons = []struct {
	name  string
	ver   engine.Version
	shots []int
}{
	{"ring", engine.V70, []int{1, 4, 7}},
	{"bloom", engine.V88, []int{2, 6, 10}},
	{"counters", engine.V88, []int{3, 7}},
	{"locks", engine.V84, []int{6}},
}

func builtin(t *testing.T, name string) *lesson.Lesson {
	t.Helper()
	for _, src := range assets.Lessons() {
		if src.Name == name {
			l, err := lesson.Parse(src.Name+".lesson", src.Src)
			if err != nil {
				t.Fatal(err)
			}
			return l
		}
	}
	t.Fatalf("no built-in lesson %s", name)
	return nil
}

// playTo opens the lesson name under version v and plays its first n steps.
func (b *browser) playTo(name string, v engine.Version, n int) {
	b.t.Helper()
	b.eval(fmt.Sprintf(`window.redscope.lesson(%q)`, name))
	b.setVersion(v)
	for i := 0; i < n; i++ {
		b.eval(`window.redscope.step()`)
	}
}

func (b *browser) setVersion(v engine.Version) {
	b.t.Helper()
	b.do(chromedp.SetValue(chromedp.ID("version"), v.String()))
	b.eval(`document.getElementById('version').dispatchEvent(new Event('change'))`)
	run(b, chromedp.Poll[bool](fmt.Sprintf(`window.redscope.version === %q`, v.String()), chromedp.WithPollingTimeout(20*time.Second)))
}

// playAndCompare loads lesson l in the page under version ver and walks it to the end and back
// to step 0, comparing state() at every position with lesson.Run natively (Debian's allocator,
// as the tests open the page) and requiring every check to hold. The slowest step and back are
// logged, not asserted (wall-clock time on a shared machine is a measurement, not a check). At the
// steps in shots it waits settle for the animation and saves shotName(i).
func playAndCompare(t *testing.T, b *browser, l *lesson.Lesson, ver engine.Version, shots []int, settle time.Duration, shotName func(int) string) {
	t.Helper()
	want := lesson.Run(l, lesson.Config{Version: ver, Allocator: alloc.Jemalloc16})
	if ok := b.eval(fmt.Sprintf(`window.redscope.lesson(%q)`, l.Name)); ok != true {
		t.Fatalf("lesson(%q) = %v", l.Name, ok)
	}
	b.setVersion(ver)
	check := func(i int) {
		t.Helper()
		got := b.state()
		if w := normal(t, want[i]); !reflect.DeepEqual(got, w) {
			gj, _ := json.Marshal(got)
			wj, _ := json.Marshal(w)
			t.Fatalf("%s %v step %d:\npage   %.3000s\nnative %.3000s", l.Name, ver, i, gj, wj)
		}
		for _, c := range want[i].Outputs.Commands {
			for _, r := range c.Checks {
				if !r.OK {
					t.Fatalf("%s %v step %d: %s got %q", l.Name, ver, i, r.Check, r.Got)
				}
			}
		}
	}
	check(0)
	var slowStep, slowBack time.Duration
	for i := 1; i < len(want); i++ {
		t0 := time.Now()
		if ok := b.eval(`window.redscope.step()`); ok != true {
			t.Fatalf("%s: step %d refused", l.Name, i)
		}
		slowStep = max(slowStep, time.Since(t0))
		check(i)
		if slices.Contains(shots, i) {
			time.Sleep(settle)
			b.shot(shotName(i))
		}
	}
	for i := len(want) - 2; i >= 0; i-- {
		t0 := time.Now()
		if ok := b.eval(`window.redscope.back()`); ok != true {
			t.Fatalf("%s: back to %d refused", l.Name, i)
		}
		slowBack = max(slowBack, time.Since(t0))
		check(i)
	}
	t.Logf("%s %v: %d steps; slowest step() %v, slowest back() %v in the page (with the state() round trip; load %s)",
		l.Name, ver, len(want)-1, slowStep.Round(time.Millisecond), slowBack.Round(time.Millisecond), loadAvg())
	if e := b.eval(`window.redscope.error`); e != "" {
		t.Fatalf("%s: error shown: %v", l.Name, e)
	}
}

// TestMiscScenesMatchNativeRun plays the ring, bloom, counters and locks lessons in the page,
// compares state() at every position, forward and back, with lesson.Run natively, and saves
// screenshots in Vietnamese (1280×800), English (1920×1080) and on a 360 px phone.
func TestMiscScenesMatchNativeRun(t *testing.T) {
	b := start(t, 1280, 800)
	b.open("?lang=vi&version=7.0&allocator=jemalloc-16")
	for _, ml := range miscLessons {
		playAndCompare(t, b, builtin(t, ml.name), ml.ver, ml.shots, 0, func(i int) string {
			return fmt.Sprintf("%s-step%d-vi.png", ml.name, i)
		})
		// The key box shows the watched keys' measurements; when none of them exists (a lesson
		// without keys, the ring, or a step before they are made) it is hidden rather than
		// listing missing keys.
		hidden := b.eval(`document.getElementById('keyinfo').hidden`)
		exist := b.eval(`window.redscope.state().outputs.keys.some(k => k.exists)`)
		if hidden != (exist == false) {
			t.Errorf("%s: key box hidden = %v, a watched key exists = %v", ml.name, hidden, exist)
		}
	}

	en := start(t, 1920, 1080)
	en.open("?lang=en&version=8.8")
	for _, ml := range miscLessons {
		last := ml.shots[len(ml.shots)-1]
		en.playTo(ml.name, ml.ver, last)
		en.shot(fmt.Sprintf("%s-step%d-en-1920.png", ml.name, last))
	}

	p := start(t, 360, 740)
	p.open("?lang=vi&version=8.8")
	for _, ml := range miscLessons {
		last := ml.shots[len(ml.shots)-1]
		p.playTo(ml.name, ml.ver, last)
		if w := run(p, chromedp.Evaluate[float64](`document.getElementById('panel').scrollWidth`)); w > 360 {
			t.Errorf("%s: panel is %v px wide on a 360 px screen", ml.name, w)
		}
		p.shot(fmt.Sprintf("%s-step%d-360.png", ml.name, last))
	}
}

// TestSinceNotice: a lesson that declares `since 8.8` on an older profile shows a clear notice
// (and state().needs), its commands answer as the older Redis does, and choosing 8.8 clears it.
func TestSinceNotice(t *testing.T) {
	b := start(t, 1280, 800)
	b.open("?lang=vi&version=7.0&lesson=counters")
	notice := func() (bool, string) {
		hidden := run(b, chromedp.Evaluate[bool](`document.getElementById('notice').hidden`))
		return !hidden, run(b, chromedp.Evaluate[string](`document.getElementById('notice').textContent`))
	}
	shown, text := notice()
	if !shown || !strings.Contains(text, "Redis 8.8 trở lên") || !strings.Contains(text, "Redis 7.0") {
		t.Fatalf("notice shown %v %q", shown, text)
	}
	if st := b.state().(map[string]any); st["needs"] != "8.8" {
		t.Fatalf("state needs %v", st["needs"])
	}
	b.eval(`window.redscope.step()`)
	st := b.state().(map[string]any)
	cmds := st["outputs"].(map[string]any)["commands"].([]any)
	if r := cmds[0].(map[string]any)["reply"].(string); !strings.HasPrefix(r, "(error) ERR unknown command 'INCREX'") {
		t.Fatalf("INCREX on 7.0: %q", r)
	}
	b.shot("counters-7.0-notice-vi.png")
	b.setVersion(engine.V88)
	if shown, _ := notice(); shown {
		t.Fatal("notice still shown on 8.8")
	}
	st = b.state().(map[string]any)
	if _, ok := st["needs"]; ok || st["step"].(float64) != 1 {
		t.Fatalf("state on 8.8: needs %v step %v", st["needs"], st["step"])
	}
	cmds = st["outputs"].(map[string]any)["commands"].([]any)
	if r := cmds[0].(map[string]any)["reply"]; r != "1) (integer) 1\n2) (integer) 1" {
		t.Fatalf("INCREX on 8.8: %q", r)
	}
	// locks needs 8.4: fine on 8.8, flagged on 8.2, in English.
	e := start(t, 1280, 800)
	e.open("?lang=en&version=8.2&lesson=locks")
	if text := run(e, chromedp.Evaluate[string](`document.getElementById('notice').textContent`)); !strings.Contains(text, "needs Redis 8.4 or later; Redis 8.2 is selected") {
		t.Fatalf("English notice %q", text)
	}
}
