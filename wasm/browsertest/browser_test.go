//go:build !(js && wasm)

// Package browsertest drives the built browser app in headless Chromium (chromedp): the page API,
// the step controls by their labels, the console, the lessons against a native run of the same
// lessons, screenshots, payload and time to first frame.
//
// The app is built from the working tree into a temporary dist (or REDSCOPE_DIST=dir uses a dist
// built by ./build.sh dist) and served by web.Handler. Chromium comes from Debian's package
// (REDSCOPE_CHROMIUM=path overrides); without it the tests are skipped. Screenshots go to
// REDSCOPE_ARTIFACTS (default: a temporary directory, logged).
package browsertest

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"redscope/assets"
	"redscope/engine"
	"redscope/engine/alloc"
	"redscope/lesson"
	"redscope/web"
)

func TestMain(m *testing.M) {
	code := m.Run()
	if distDir != "" {
		os.RemoveAll(distDir)
	}
	os.Exit(code)
}

func repoRoot(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

var (
	distOnce sync.Once
	distDir  string
	distErr  error
)

// buildDist builds main.wasm, wasm_exec.js and index.html into a temporary directory, once per
// test binary.
func buildDist(t *testing.T) string {
	if d := os.Getenv("REDSCOPE_DIST"); d != "" {
		return d
	}
	distOnce.Do(func() {
		distDir, distErr = os.MkdirTemp("", "redscope-dist-")
		if distErr == nil {
			distErr = build(t, distDir)
		}
	})
	if distErr != nil {
		t.Fatal(distErr)
	}
	return distDir
}

func build(t *testing.T, dir string) error {
	root := repoRoot(t)
	// The same builds as build.sh dist (scripts/wasmbuild): main.wasm without Lua, main-lua.wasm
	// the whole app (wasm/lua.go).
	for _, b := range [][]string{{"-tags", "nolua", "-o", "main.wasm"}, {"-o", "main-lua.wasm"}} {
		b[len(b)-1] = filepath.Join(dir, b[len(b)-1])
		cmd := exec.Command("go", append([]string{"run", "./scripts/wasmbuild"}, b...)...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("scripts/wasmbuild %v: %v\n%s", b, err, out)
		}
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return err
	}
	for src, dst := range map[string]string{
		filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"): "wasm_exec.js",
		filepath.Join(root, "index.html"):                                               "index.html",
		filepath.Join(root, "lesson", "FORMAT.md"):                                      "FORMAT.md",
	} {
		b, err := os.ReadFile(src)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, dst), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func chromiumPath() string {
	if p := os.Getenv("REDSCOPE_CHROMIUM"); p != "" {
		return p
	}
	for _, p := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if q, err := exec.LookPath(p); err == nil {
			return q
		}
	}
	return ""
}

func artifacts(t *testing.T) string {
	d := os.Getenv("REDSCOPE_ARTIFACTS")
	if d == "" {
		d = filepath.Join(os.TempDir(), "redscope-browsertest")
	}
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	return d
}

type browser struct {
	t    *testing.T
	ctx  context.Context
	url  string
	mu   sync.Mutex
	errs []string
	logs []string
	stop func() // ends the browser (also done at the test's end)
}

// noChromium skips the test, or fails it under CI=true (./build.sh test sets it once it has
// installed the packages), so a run never passes with the browser tests left out.
func noChromium(t *testing.T) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatal("chromium is not installed: CI needs it (apt-get install chromium)")
	}
	t.Skip("no chromium (apt-get install -y chromium)")
}

func start(t *testing.T, width, height int) *browser {
	t.Helper()
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	cp := chromiumPath()
	if cp == "" {
		noChromium(t)
	}
	dist := buildDist(t)
	srv := httptest.NewServer(web.Handler(dist))
	t.Cleanup(srv.Close)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(cp),
		chromedp.NoFirstRun,
		chromedp.Headless,
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("enable-unsafe-swiftshader", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(width, height),
	}
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(acancel)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	b := &browser{t: t, ctx: ctx, url: srv.URL, stop: func() { cancel(); acancel() }}
	// Start the browser (no timeout on the first action), then subscribe to the console.
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(width), int64(height))); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	msgs := chromedp.Console(ctx)
	go func() {
		for m, err := range msgs {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.logs = append(b.logs, m.String())
			if m.Type == chromedp.ConsoleError || m.IsException() {
				b.errs = append(b.errs, m.String())
			}
			b.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		for _, e := range b.errs {
			t.Errorf("browser console error: %s", e)
		}
	})
	return b
}

func (b *browser) do(actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.t.Fatalf("%v\nconsole:\n%s", err, b.console())
	}
}

func (b *browser) console() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Join(b.logs, "\n")
}

func run[T any](b *browser, a chromedp.Action[T]) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		b.t.Fatalf("%v\nconsole:\n%s", err, b.console())
	}
	return v
}

func (b *browser) eval(expr string) any { b.t.Helper(); return run(b, chromedp.Evaluate[any](expr)) }

// open navigates and waits for the first frame; it returns the time to first frame in ms.
func (b *browser) open(query string) float64 {
	b.t.Helper()
	b.do(chromedp.Navigate(b.url + "/" + query))
	run(b, chromedp.Poll[bool](`window.redscope && window.redscope.ready === true`, chromedp.WithPollingTimeout(60*time.Second)))
	return run(b, chromedp.Evaluate[float64](`window.redscopeTiming.firstFrame`))
}

func (b *browser) shot(name string) string {
	b.t.Helper()
	time.Sleep(400 * time.Millisecond) // let a frame settle (software GL draws ~20 fps)
	png := run(b, chromedp.CaptureScreenshot())
	p := filepath.Join(artifacts(b.t), name)
	if err := os.WriteFile(p, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot %s (%d bytes)", p, len(png))
	return p
}

// state returns window.redscope.state() normalised through JSON, without scene and focus (what
// the canvas draws, which lesson.State has not: scenes_typed_test.go's drawn reads them).
func (b *browser) state() any {
	b.t.Helper()
	s := run(b, chromedp.Evaluate[string](`JSON.stringify(Object.assign(window.redscope.state(), {scene: undefined, focus: undefined}))`))
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		b.t.Fatal(err)
	}
	return v
}

func normal(t *testing.T, s lesson.State) any {
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func stepOf(st any) int { return int(st.(map[string]any)["step"].(float64)) }

// TestLessonsMatchNativeRun plays every built-in lesson to the end and back to the start through
// the page API and compares state() at every position with the lesson package's native run.
func TestLessonsMatchNativeRun(t *testing.T) {
	b := start(t, 1280, 800)
	// lua=1: the build with Lua, which plays every lesson in one page (the light build would
	// hand the scripting lessons over to it: TestHandOverToLua).
	ttf := b.open("?lang=vi&version=7.0&allocator=jemalloc-16&lua=1")
	t.Logf("time to first frame: %.0f ms (instantiated at %.0f ms)", ttf, run(b, chromedp.Evaluate[float64](`window.redscopeTiming.instantiated`)))
	if v := b.eval(`window.redscope.version`); v != "7.0" {
		t.Fatalf("version %v", v)
	}
	cfg := lesson.Config{Version: engine.V70, Allocator: alloc.Jemalloc16}
	for _, src := range assets.Lessons() {
		l, err := lesson.Parse(src.Name+".lesson", src.Src)
		if err != nil {
			t.Fatal(err)
		}
		want := lesson.Run(l, cfg)
		if ok := b.eval(fmt.Sprintf(`window.redscope.lesson(%q)`, l.Name)); ok != true {
			t.Fatalf("lesson(%q) = %v", l.Name, ok)
		}
		check := func(i int) {
			got := b.state()
			if w := normal(t, want[i]); !reflect.DeepEqual(got, w) {
				gj, _ := json.Marshal(got)
				wj, _ := json.Marshal(w)
				t.Fatalf("%s step %d:\npage   %s\nnative %s", l.Name, i, gj, wj)
			}
		}
		check(0)
		for i := 1; i < len(want); i++ {
			if ok := b.eval(`window.redscope.step()`); ok != true {
				t.Fatalf("%s: step %d refused", l.Name, i)
			}
			check(i)
		}
		if ok := b.eval(`window.redscope.step()`); ok != false {
			t.Fatalf("%s: stepped past the end", l.Name)
		}
		b.shot(l.Name + "-end-vi.png")
		for i := len(want) - 2; i >= 0; i-- {
			if ok := b.eval(`window.redscope.back()`); ok != true {
				t.Fatalf("%s: back to %d refused", l.Name, i)
			}
			check(i)
		}
	}
	n := b.framesFollowChanges() // page_test.go
	drawMs := run(b, chromedp.Evaluate[float64](`window.redscope.stats().drawMs`))
	t.Logf("%v frames for a change; Go time of the last Draw %.2f ms", n, drawMs)
}

// TestControlsConsoleAndKeyboard clicks the controls by their visible labels, types in the
// console, uses the keyboard and the page API's exec.
func TestControlsConsoleAndKeyboard(t *testing.T) {
	b := start(t, 1280, 800)
	b.open("?lesson=bit-offsets")
	n := len(builtin(t, "bit-offsets").Steps)
	label := func(id string) string {
		return run(b, chromedp.Evaluate[string](fmt.Sprintf(`document.getElementById(%q).textContent`, id)))
	}
	for id, want := range map[string]string{"reset": "↺ Từ đầu", "back": "◀ Trước", "play": "▶ Phát", "next": "Tiếp ▶", "stepLabel": fmt.Sprintf("Bước 0/%d", n)} {
		if got := label(id); got != want {
			t.Errorf("#%s label %q, want %q", id, got, want)
		}
	}
	// Every control has an accessible name.
	unnamed := run(b, chromedp.Evaluate[string](`[...document.querySelectorAll('button,select,input')].filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !e.textContent.trim()).map(e => e.id).join(',')`))
	if unnamed != "" {
		t.Errorf("controls without a label: %s", unnamed)
	}
	clickLabel := func(text string) {
		t.Helper()
		id := run(b, chromedp.Evaluate[string](fmt.Sprintf(`[...document.querySelectorAll('button')].find(e => e.textContent.trim() === %q).id`, text)))
		b.do(chromedp.Click(chromedp.ID(id)))
	}
	waitStep := func(n int) {
		t.Helper()
		run(b, chromedp.Poll[bool](fmt.Sprintf(`window.redscope.state().step === %d`, n), chromedp.WithPollingTimeout(10*time.Second)))
	}
	clickLabel("Tiếp ▶")
	waitStep(1)
	clickLabel("Tiếp ▶")
	clickLabel("Tiếp ▶")
	waitStep(3)
	if got := label("stepLabel"); got != fmt.Sprintf("Bước 3/%d", n) {
		t.Errorf("step label %q", got)
	}
	b.shot("bits-step3-vi.png")
	clickLabel("◀ Trước")
	waitStep(2)
	clickLabel("↺ Từ đầu")
	waitStep(0)
	// The scrubber seeks to the step it is moved to.
	b.do(chromedp.SetValue(chromedp.ID("scrubber"), "2"))
	b.eval(`document.getElementById('scrubber').dispatchEvent(new Event('input'))`)
	waitStep(2)
	clickLabel("↺ Từ đầu")
	waitStep(0)
	// Keyboard: → steps, ← goes back (focus on the page, not in an input).
	b.do(chromedp.Click(chromedp.ID("caption")))
	b.do(chromedp.KeyEvent(kb.ArrowRight))
	waitStep(1)
	b.do(chromedp.KeyEvent(kb.ArrowLeft))
	waitStep(0)
	// Play runs to the end by itself at 4x.
	b.do(chromedp.SetValue(chromedp.ID("speed"), "4"))
	b.eval(`document.getElementById('speed').dispatchEvent(new Event('change'))`)
	clickLabel("▶ Phát")
	run(b, chromedp.Poll[bool](fmt.Sprintf(`window.redscope.state().step === %d`, n), chromedp.WithPollingTimeout(60*time.Second)))
	// The console: type a command, see its reply in the outputs and in state().
	b.do(chromedp.Click(chromedp.ID("console")), chromedp.SendKeys(chromedp.ID("console"), "SETBIT bm 9 1\r"))
	run(b, chromedp.Poll[bool](`(c => c.length > 0 && c[c.length-1].cmd === "SETBIT bm 9 1")(window.redscope.state().outputs.commands)`, chromedp.WithPollingTimeout(10*time.Second)))
	st := b.state().(map[string]any)
	cmds := st["outputs"].(map[string]any)["commands"].([]any)
	last := cmds[len(cmds)-1].(map[string]any)
	if last["reply"] != "(integer) 0" || last["console"] != true {
		t.Fatalf("console exchange %v", last)
	}
	if tr := run(b, chromedp.Evaluate[string](`document.getElementById("transcript").innerText`)); !strings.Contains(tr, "> SETBIT bm 9 1\n(integer) 0") {
		t.Fatalf("transcript %q", tr)
	}
	// ↑ recalls the last line.
	b.do(chromedp.KeyEvent(kb.ArrowUp))
	if v := run(b, chromedp.Value(chromedp.ID("console"))); v != "SETBIT bm 9 1" {
		t.Fatalf("history recall %q", v)
	}
	// exec through the page API.
	if r := b.eval(`window.redscope.exec("GETBIT bm 9")`); r != "(integer) 1" {
		t.Fatalf("exec GETBIT %v", r)
	}
	if r := b.eval(`window.redscope.exec("NOSUCH a")`); r != "(error) ERR unknown command 'NOSUCH', with args beginning with: 'a' " {
		t.Fatalf("exec error %q", r)
	}
	b.shot("bits-console-vi.png")
	// Back is exact: it drops the console lines typed at the last position.
	b.eval(`window.redscope.back()`)
	if r := b.eval(`window.redscope.exec("GETBIT bm 9")`); r != "(integer) 0" {
		t.Fatalf("after back GETBIT bm 9 = %v", r)
	}
	// The version selector replays at the new profile.
	b.do(chromedp.SetValue(chromedp.ID("version"), "7.2"))
	b.eval(`document.getElementById('version').dispatchEvent(new Event('change'))`)
	run(b, chromedp.Poll[bool](fmt.Sprintf(`window.redscope.version === "7.2" && window.redscope.state().step === %d`, n-1), chromedp.WithPollingTimeout(10*time.Second)))
	if e := b.eval(`window.redscope.error`); e != "" {
		t.Fatalf("error shown: %v", e)
	}
}

// TestReducedMotion: with prefers-reduced-motion the scene is drawn settled at once (animation
// progress 1 right after a step); without it the step starts an animation.
func TestReducedMotion(t *testing.T) {
	for _, reduce := range []bool{false, true} {
		b := start(t, 800, 600)
		if reduce {
			if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
				Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}},
			}); err != nil {
				t.Fatal(err)
			}
		}
		b.open("?lesson=bit-offsets")
		// step() and stats() in one task: the time between them is the same JS turn.
		got := run(b, chromedp.Evaluate[map[string]any](`(() => { window.redscope.step(); const s = window.redscope.stats(); return {anim: s.anim, reduced: s.reducedMotion}; })()`))
		if got["reduced"] != reduce {
			t.Errorf("reduce=%v: the app read reducedMotion %v", reduce, got["reduced"])
		}
		if a := got["anim"].(float64); (a == 1) != reduce {
			t.Errorf("reduce=%v: animation progress %v right after a step", reduce, a)
		}
		// The drawing contract either way: nothing drawn when idle, a change drawn at once, and
		// animated (at least two frames) only without reduced motion.
		if n := b.framesFollowChanges(); reduce && n != 1 {
			t.Errorf("reduce=true: %v frames for one change, want 1 (nothing animates)", n)
		}
		b.stop()
	}
}

// TestLayouts takes screenshots of the English page, the HLL and SDS scenes, and a 360 px phone.
func TestLayouts(t *testing.T) {
	b := start(t, 1280, 800)
	b.open("?lang=en&lesson=hll-registers")
	if got := run(b, chromedp.Evaluate[string](`document.getElementById('next').textContent`)); got != "Next ▶" {
		t.Errorf("English label %q", got)
	}
	for i := 0; i < 6; i++ {
		b.eval(`window.redscope.step()`)
	}
	b.shot("hll-end-en.png")
	b.eval(`window.redscope.lesson("sds-growth")`)
	for i := 0; i < 6; i++ {
		b.eval(`window.redscope.step()`)
	}
	b.shot("sds-end-en.png")

	p := start(t, 360, 740)
	p.open("?lesson=bit-offsets")
	for i := 0; i < 3; i++ {
		p.eval(`window.redscope.step()`)
	}
	// Nothing is wider than the screen.
	if w := run(p, chromedp.Evaluate[float64](`document.getElementById('panel').scrollWidth`)); w > 360 {
		t.Errorf("panel is %v px wide on a 360 px screen", w)
	}
	t.Logf("360 px: canvas %v", p.eval(`(c => c ? c.width + "x" + c.height + " css " + c.clientWidth + "x" + c.clientHeight : "none")(document.querySelector("canvas"))`))
	p.shot("bits-360.png")
}

// TestPayload records the sizes of the wasm: raw, gzip -9 and brotli (when the brotli tool exists).
func TestPayload(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	if chromiumPath() == "" && os.Getenv("REDSCOPE_PAYLOAD") == "" {
		t.Skip("runs with the browser tests")
	}
	dist := buildDist(t)
	wasm := filepath.Join(dist, "main.wasm")
	if m, _ := filepath.Glob(filepath.Join(dist, "main.*.wasm")); len(m) == 1 {
		wasm = m[0] // a ./build.sh dist (REDSCOPE_DIST): content-hashed name
	}
	raw, err := os.ReadFile(wasm)
	if err != nil {
		t.Fatal(err)
	}
	msg := fmt.Sprintf("payload main.wasm: raw %d B, gzip -9 %d B", len(raw), len(gzip9(raw)))
	if _, err := exec.LookPath("brotli"); err == nil {
		out, err := exec.Command("brotli", "-q", "9", "-c", wasm).Output()
		if err == nil {
			msg += fmt.Sprintf(", brotli -q 9 %d B", len(out))
		}
	}
	t.Log(msg)
	if len(raw) > 60<<20 {
		t.Errorf("main.wasm grew past 60 MB: %d", len(raw))
	}
}

// gzip9 is raw compressed as gzip -9 compresses it (the level a static server would use).
func gzip9(raw []byte) []byte {
	var gz bytes.Buffer
	w, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	w.Write(raw)
	w.Close()
	return gz.Bytes()
}
