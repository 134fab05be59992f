//go:build !(js && wasm)

package browsertest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// The browser app's budgets (issue 4). The payload budget is checked exactly; the time budgets
// depend on the machine, so by default they are measured and logged with the load average (the
// figures go to BENCHMARKS.md), and fail the test only with REDSCOPE_PERF_STRICT=1 (for an idle
// machine): a timed assertion would flake on a shared one.
const (
	budgetPayload    = 2_300_000 // bytes of brotli (q 11) for everything a first visit downloads: main.wasm without Lua, index.html, wasm_exec.js; ≈ 2 259 000 on 2026-12-07 (issue 11 asks ≤ 2.5 MB, aim 2.0; BENCHMARKS.md "Payload")
	budgetFirstFrame = 2500.0    // ms from navigation start to window.redscope.ready
	budgetFrameGo    = 4.0       // ms of Go time per Update+Draw, heaviest scene
	budgetWeek       = 1500.0    // ms for the course's HyperLogLog week on the page's engine
)

// compressible are the file types ./build.sh dist compresses.
var compressible = []string{".html", ".js", ".mjs", ".css", ".wasm", ".json", ".svg", ".txt", ".md", ".lesson", ".map"}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// countProcs counts the live (not zombie) processes whose command name contains name.
func countProcs(name string) int {
	n := 0
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		c, err := os.ReadFile("/proc/" + e.Name() + "/comm")
		if err != nil || !strings.Contains(string(c), name) {
			continue
		}
		if st, err := os.ReadFile("/proc/" + e.Name() + "/stat"); err == nil {
			if i := bytes.LastIndexByte(st, ')'); i > 0 && i+2 < len(st) && st[i+2] == 'Z' {
				continue
			}
		}
		n++
	}
	return n
}

func checkBudget(t *testing.T, what string, got, budget float64) {
	t.Helper()
	switch {
	case got <= budget:
	case os.Getenv("REDSCOPE_PERF_STRICT") == "1":
		t.Errorf("%s: %.1f, budget %.1f (load %s)", what, got, budget, loadAvg())
	default:
		t.Logf("WARNING %s: %.1f over the budget %.1f (load %s; REDSCOPE_PERF_STRICT=1 makes this fail)", what, got, budget, loadAvg())
	}
}

// perfDist is the test dist plus what ./build.sh dist adds: the assets directory and gzip -9 /
// brotli copies (quality BROTLI_QUALITY, default 11) that web.Handler serves. REDSCOPE_DIST
// (a ./build.sh dist) is used as it is.
func perfDist(t *testing.T) string {
	if d := os.Getenv("REDSCOPE_DIST"); d != "" {
		return d
	}
	src := buildDist(t)
	dir := t.TempDir()
	copyFile := func(from, to string) {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"main.wasm", "wasm_exec.js", "index.html"} {
		copyFile(filepath.Join(src, f), filepath.Join(dir, f))
	}
	assetsDir := filepath.Join(repoRoot(t), "assets")
	filepath.WalkDir(assetsDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".go") {
			rel, _ := filepath.Rel(assetsDir, p)
			copyFile(p, filepath.Join(dir, "assets", rel))
		}
		return nil
	})
	q := os.Getenv("BROTLI_QUALITY")
	if q == "" {
		q = "11"
	}
	_, brErr := exec.LookPath("brotli")
	t0 := time.Now()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !slices.Contains(compressible, filepath.Ext(p)) {
			return nil
		}
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p+".gz", gzip9(raw), 0o644); err != nil {
			t.Fatal(err)
		}
		if brErr == nil {
			if out, err := exec.Command("brotli", "-q", q, "-f", "-k", p).CombinedOutput(); err != nil {
				t.Fatalf("brotli %s: %v %s", p, err, out)
			}
		}
		return nil
	})
	t.Logf("dist %s compressed in %v (gzip -9, brotli -q %s; brotli found: %v)", dir, time.Since(t0).Round(time.Second), q, brErr == nil)
	return dir
}

// cpu is the CPU time (user+system, ms) used so far by the browser's processes: all of them,
// the renderers (the page, its wasm) and the GPU process (SwiftShader's WebGL). Unlike wall-clock
// times it barely moves with the machine's load, so it compares builds on a busy machine.
type cpu struct{ all, renderer, gpu float64 }

func (b *browser) cpu() cpu {
	var c cpu
	bp := chromedp.FromContext(b.ctx).Browser.Process()
	if bp == nil {
		return c
	}
	parent := map[int]int{}
	ticks := map[int]float64{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		st, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid … utime stime: fields after the closing parenthesis.
		i := bytes.LastIndexByte(st, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(string(st[i+1:]))
		if len(f) < 13 {
			continue
		}
		parent[pid], _ = strconv.Atoi(f[1])
		ut, _ := strconv.ParseFloat(f[11], 64)
		stt, _ := strconv.ParseFloat(f[12], 64)
		ticks[pid] = ut + stt
	}
	for pid, t := range ticks {
		for p := pid; p > 1; p = parent[p] {
			if p != bp.Pid {
				continue
			}
			ms := t * 10 // USER_HZ = 100 on Linux
			c.all += ms
			cmd, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
			switch {
			case bytes.Contains(cmd, []byte("--type=renderer")):
				c.renderer += ms
			case bytes.Contains(cmd, []byte("--type=gpu-process")):
				c.gpu += ms
			}
			break
		}
	}
	return c
}

func (c cpu) sub(d cpu) cpu { return cpu{c.all - d.all, c.renderer - d.renderer, c.gpu - d.gpu} }

type resource struct {
	Name     string  `json:"name"`
	Encoded  float64 `json:"enc"`
	Decoded  float64 `json:"dec"`
	Transfer float64 `json:"transfer"`
}

// fetched lists what the page downloaded: the document and every resource.
func fetched(b *browser) []resource {
	s := run(b, chromedp.Evaluate[string](`JSON.stringify([...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')].map(e => ({name: e.name, enc: e.encodedBodySize, dec: e.decodedBodySize, transfer: e.transferSize})))`))
	var rs []resource
	if err := json.Unmarshal([]byte(s), &rs); err != nil {
		b.t.Fatal(err)
	}
	return rs
}

func fileSize(p string) int64 {
	st, err := os.Stat(p)
	if err != nil {
		return -1
	}
	return st.Size()
}

type timing struct {
	Instantiated, GoMain, App, Fonts, FirstFrame float64
}

func (b *browser) timing() timing {
	s := run(b, chromedp.Evaluate[string](`JSON.stringify(window.redscopeTiming)`))
	var m map[string]float64
	json.Unmarshal([]byte(s), &m)
	return timing{m["instantiated"], m["goMain"], m["app"], m["fonts"], m["firstFrame"]}
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

// startPerf starts a browser on the perf dist.
func startPerf(t *testing.T, dist string, w, h int) *browser {
	t.Setenv("REDSCOPE_DIST", dist) // start → buildDist serves this directory
	return start(t, w, h)
}

// TestPerf measures the budgets on the real page in headless Chromium: the payload of a first
// visit, the time to the first frame (three cold browsers), the Go time per frame in the HLL
// register map, and the course's seven-day HyperLogLog workload through window.redscope.bench.
func TestPerf(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	if chromiumPath() == "" {
		noChromium(t)
	}
	dist := perfDist(t)
	t.Logf("load average at start: %s", loadAvg())

	// First frame, three cold browsers (fresh profile: no HTTP or wasm code cache).
	var ffs, cpus []float64
	var payload []resource
	for i := 0; i < 3; i++ {
		t.Logf("chromium processes before run %d: %d", i+1, countProcs("chromium"))
		b := startPerf(t, dist, 1280, 800)
		c0 := b.cpu()
		b.open("")
		c := b.cpu().sub(c0)
		tm := b.timing()
		ffs, cpus = append(ffs, tm.FirstFrame), append(cpus, c.all)
		t.Logf("run %d: first frame %.0f ms (wasm instantiated %.0f, Go main %.0f, app built %.0f, fonts parsed %.0f); browser CPU meanwhile %.0f ms (renderer %.0f, GPU process %.0f); load %s",
			i+1, tm.FirstFrame, tm.Instantiated, tm.GoMain, tm.App, tm.Fonts, c.all, c.renderer, c.gpu, loadAvg())
		if i == 0 {
			payload = fetched(b)
		}
		if e := b.eval(`window.redscope.error`); e != "" {
			t.Errorf("error shown: %v", e)
		}
		// A live page keeps drawing: close it so that the next cold start and the frame
		// measurements below do not share the two cores with it.
		b.stop()
		for w := 0; w < 100 && countProcs("chromium") > 0; w++ {
			time.Sleep(100 * time.Millisecond)
		}
	}
	t.Logf("first frame: min %.0f ms, median %.0f ms (budget %.0f); browser CPU to the first frame: min %.0f ms, median %.0f ms", slices.Min(ffs), median(ffs), budgetFirstFrame, slices.Min(cpus), median(cpus))
	checkBudget(t, "first frame min (ms)", slices.Min(ffs), budgetFirstFrame)

	// Payload: every file the page fetched, at the sizes web.Handler can serve.
	var totRaw, totGz, totBr, totWire int64
	for _, r := range payload {
		u, err := url.Parse(r.Name)
		if err != nil || u.Scheme == "data" {
			continue
		}
		p := u.Path
		if p == "" || strings.HasSuffix(p, "/") {
			p += "index.html"
		}
		f := filepath.Join(dist, filepath.FromSlash(strings.TrimPrefix(p, "/")))
		raw := fileSize(f)
		if raw < 0 {
			t.Errorf("the page fetched %s, not in the dist", r.Name)
			continue
		}
		gz, br := fileSize(f+".gz"), fileSize(f+".br")
		if gz < 0 {
			gz = raw
		}
		if br < 0 {
			br = gz
		}
		totRaw, totGz, totBr, totWire = totRaw+raw, totGz+gz, totBr+br, totWire+int64(r.Encoded)
		t.Logf("payload %-14s raw %9d  gzip -9 %8d  brotli %8d  on the wire %8.0f", p, raw, gz, br, r.Encoded)
	}
	t.Logf("payload total  raw %9d  gzip -9 %8d  brotli %8d  on the wire %8d (budget %d brotli)", totRaw, totGz, totBr, totWire, budgetPayload)
	if totBr > budgetPayload {
		t.Errorf("first-visit payload %d bytes of brotli, budget %d", totBr, budgetPayload)
	}
	if len(payload) < 3 {
		t.Errorf("the page fetched only %v", payload)
	}

	// Frame cost in the heaviest scene: the HLL register map, dense and well filled.
	b := startPerf(t, dist, 1280, 800)
	// Whole requestAnimationFrame callbacks (ebiten's frame: Update, Draw and its GL flush).
	script := `(() => { const raf = window.requestAnimationFrame.bind(window); window.redscopeRAF = {n: 0, ms: 0, peak: 0};
	  window.requestAnimationFrame = cb => raf(ts => { const t0 = performance.now(); try { cb(ts); } finally {
	    const d = performance.now() - t0, s = window.redscopeRAF; s.n++; s.ms += d; s.peak = Math.max(s.peak, d); } }); })();`
	if _, err := chromedp.Call(b.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: script}); err != nil {
		t.Fatal(err)
	}
	b.open("?lesson=hll-registers")
	for b.eval(`window.redscope.step()`) == true {
	}
	// Fill the map: 20 000 more elements typed before the last step, so that the last step's
	// scene shows a dense HLL with most registers set (and only that step's few elements).
	var els strings.Builder
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&els, " e%d", i)
	}
	bigPFADD := `window.redscope.exec("PFADD h` + els.String() + `")`
	b.eval(`window.redscope.back()`)
	b.eval(bigPFADD)
	b.eval(`window.redscope.step()`)
	if st := b.eval(`(s => s.step + "/" + s.steps + " " + s.outputs.keys[0].hll)(window.redscope.state())`); !strings.HasSuffix(fmt.Sprint(st), "dense") {
		t.Fatalf("HLL state %v, want the last step with a dense HLL", st)
	}
	type stats struct {
		Frames, Updates                                float64
		UpdateMsTotal, DrawMsTotal                     float64
		FrameMsAvg, FrameMsMedian, FrameMsPeak, DrawMs float64
		RAFn, RAFms, RAFpeak                           float64
	}
	sample := func() stats {
		s := run(b, chromedp.Evaluate[string](`JSON.stringify(Object.assign({}, window.redscope.stats(), {rafN: window.redscopeRAF.n, rafMs: window.redscopeRAF.ms, rafPeak: window.redscopeRAF.peak}))`))
		var m map[string]float64
		json.Unmarshal([]byte(s), &m)
		return stats{m["frames"], m["updates"], m["updateMsTotal"], m["drawMsTotal"], m["frameMsAvg"], m["frameMsMedian"], m["frameMsPeak"], m["drawMs"], m["rafN"], m["rafMs"], m["rafPeak"]}
	}
	// The page draws only when something changed (wasm/frames.go): __frames paints the map
	// every frame for the 5 s measured here.
	b.eval(`window.redscope.__frames(6000)`)
	time.Sleep(time.Second)
	c1 := b.cpu()
	s1 := sample()
	var lastDraws []float64 // the last Draw's Go time, sampled (older builds have only that)
	for i := 0; i < 40; i++ {
		time.Sleep(100 * time.Millisecond)
		lastDraws = append(lastDraws, sample().DrawMs)
	}
	s2 := sample()
	cf := b.cpu().sub(c1)
	df := s2.Frames - s1.Frames
	if df <= 0 {
		t.Fatalf("frames do not advance: %v → %v", s1.Frames, s2.Frames)
	}
	goPerFrame := (s2.UpdateMsTotal - s1.UpdateMsTotal + s2.DrawMsTotal - s1.DrawMsTotal) / df
	rafPerFrame := (s2.RAFms - s1.RAFms) / max(1, s2.RAFn-s1.RAFn)
	t.Logf("HLL map, steady: %.0f frames in 4 s, Go per Update+Draw %.2f ms (last 120 frames: median %.2f, mean %.2f, peak %.2f; %.1f updates a frame); last Draw sampled 40×: median %.2f ms, min %.2f; whole rAF callback %.2f ms (peak %.2f); load %s",
		df, goPerFrame, s2.FrameMsMedian, s2.FrameMsAvg, s2.FrameMsPeak, (s2.Updates-s1.Updates)/df, median(lastDraws), slices.Min(lastDraws), rafPerFrame, s2.RAFpeak, loadAvg())
	t.Logf("HLL map, steady: CPU per frame: renderer %.2f ms, GPU process %.2f ms", cf.renderer/df, cf.gpu/df)
	checkBudget(t, "Go ms per Update+Draw, HLL map (median of the last 120 frames)", s2.FrameMsMedian, budgetFrameGo)
	// Playing the lesson at 4×: frames that step and rebuild the scene.
	b.eval(`window.redscope.reset()`)
	b.do(chromedp.SetValue(chromedp.ID("speed"), "4"))
	b.eval(`document.getElementById('speed').dispatchEvent(new Event('change'))`)
	p1 := sample()
	b.do(chromedp.Click(chromedp.ID("play")))
	run(b, chromedp.Poll[bool](`(s => s.step === s.steps)(window.redscope.state())`, chromedp.WithPollingTimeout(30*time.Second)))
	time.Sleep(300 * time.Millisecond)
	p2 := sample()
	dfp := p2.Frames - p1.Frames
	t.Logf("HLL map, playing at 4×: %.0f frames, Go per Update+Draw %.2f ms, peak of the last 120 frames %.2f ms; rAF peak %.2f ms",
		dfp, (p2.UpdateMsTotal-p1.UpdateMsTotal+p2.DrawMsTotal-p1.DrawMsTotal)/max(1, dfp), p2.FrameMsPeak, p2.RAFpeak)

	// The same map right after a console PFADD of 20 000 elements: the scene frames at most 256
	// of the registers it touched (scene/hll.go, maxHLLMarks) and a shortened command line.
	// Logged, not budgeted (BENCHMARKS.md, "Browser app").
	// The Go time of the first Draw after it: polled every millisecond until a frame was drawn.
	firstDraw := run(b, chromedp.Evaluate[float64](`new Promise(res => {
		const r = window.redscope, f0 = r.stats().frames;
		`+strings.TrimPrefix(bigPFADD, "window.")+`;
		const poll = () => { const s = r.stats(); if (s.frames > f0) res(s.drawMs); else setTimeout(poll, 1); };
		setTimeout(poll, 1);
	})`, chromedp.EvalAwaitPromise))
	b.eval(`window.redscope.__frames(5000)`)
	time.Sleep(time.Second)
	x1 := sample()
	time.Sleep(3 * time.Second)
	x2 := sample()
	dfx := x2.Frames - x1.Frames
	t.Logf("HLL map after a console PFADD of 20 000 elements: first Draw %.2f ms; then %.0f frames in 3 s, Go per Update+Draw %.2f ms, last Draw %.2f ms; load %s",
		firstDraw, dfx, (x2.UpdateMsTotal-x1.UpdateMsTotal+x2.DrawMsTotal-x1.DrawMsTotal)/max(1, dfx), x2.DrawMs, loadAvg())
	b.eval(`window.redscope.reset()`)

	// The course's week: 7 days × 200 000 viewers, 50 % shared by consecutive days
	// (1 400 000 PFADD elements), then at 7 × 300 000 (2 100 000 elements, the figure).
	if b.eval(`typeof window.redscope.bench`) != "function" {
		t.Fatal("window.redscope.bench is missing")
	}
	const benchRuns = 5
	for _, c := range []struct {
		perDay, elements int
		merged           float64 // the engine's PFCOUNT of the merge (807767: the article's figure)
	}{{200000, 1_400_000, 807767}, {300000, 2_100_000, -1}} {
		var mss []float64
		for i := 0; i < benchRuns; i++ {
			s := run(b, chromedp.Evaluate[string](`JSON.stringify(window.redscope.bench(7, `+strconv.Itoa(c.perDay)+`, 0.5))`))
			var r map[string]any
			if err := json.Unmarshal([]byte(s), &r); err != nil {
				t.Fatal(err, s)
			}
			if r["error"] != "" || r["elements"] != float64(c.elements) {
				t.Fatalf("bench: %s", s)
			}
			if c.merged > 0 && (r["merged"] != c.merged || r["pfcount"] != c.merged) {
				t.Fatalf("bench: %s, want PFCOUNT %v", s, c.merged)
			}
			mss = append(mss, r["ms"].(float64))
			t.Logf("week 7 × %d (%d PFADD elements, %v distinct, PFCOUNT %v, %v %v): %.0f ms, load %s",
				c.perDay, c.elements, r["distinct"], r["merged"], r["version"], r["allocator"], r["ms"], loadAvg())
		}
		t.Logf("week 7 × %d: min %.0f ms, median %.0f ms (budget %.0f)", c.perDay, slices.Min(mss), median(mss), budgetWeek)
		checkBudget(t, fmt.Sprintf("week of %d PFADD elements (ms)", c.elements), slices.Min(mss), budgetWeek)
	}
	if e := b.eval(`window.redscope.error`); e != "" {
		t.Errorf("error shown: %v", e)
	}
}
