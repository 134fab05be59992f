//go:build !(js && wasm)

package browsertest

import (
	"encoding/json"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestColdStart opens the page in REDSCOPE_COLD_RUNS (default 5) fresh headless browsers (new
// profiles: no HTTP cache, no wasm code cache) and logs the time to window.redscope.ready with its
// breakdown, all in ms from navigation start:
//
//	fetch        main.wasm's response fully received (Resource Timing responseEnd)
//	compile      WebAssembly.instantiateStreaming resolved (compiled while downloading, then
//	             instantiated): index.html's redscopeTiming.instantiated
//	go main      Go's main started (wasm/main.go's mark): the runtime and every package's init
//	headers      the lesson list's headers parsed (wasm/app.go)
//	dom          the DOM wired (the lesson list, the controls)
//	app          the app built (the first lesson loaded, the URL's parameters applied)
//	fonts        the canvas fonts parsed
//	first frame  the first frame drawn (redscope-ready)
//
// Like TestPerf it measures and logs (with the load average: the machine is shared); the figures
// go to BENCHMARKS.md, and only REDSCOPE_PERF_STRICT=1 turns the budget into a failure.
func TestColdStart(t *testing.T) {
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	if chromiumPath() == "" {
		noChromium(t)
	}
	if os.Getenv("BROTLI_QUALITY") == "" {
		t.Setenv("BROTLI_QUALITY", "9") // the wire size barely matters on localhost
	}
	dist := perfDist(t)
	runs := 5
	if n, err := strconv.Atoi(os.Getenv("REDSCOPE_COLD_RUNS")); err == nil && n > 0 {
		runs = n
	}
	var ready []float64
	for i := 0; i < runs; i++ {
		load := loadAvg()
		b := startPerf(t, dist, 1280, 800)
		b.open("")
		var m map[string]float64
		s := run(b, chromedp.Evaluate[string](`JSON.stringify(Object.assign({}, window.redscopeTiming,
		  {fetch: (performance.getEntriesByType('resource').find(e => /main[.].*wasm$/.test(e.name)) || {}).responseEnd,
		   wasmStart: (performance.getEntriesByType('resource').find(e => /main[.].*wasm$/.test(e.name)) || {}).startTime,
		   html: performance.getEntriesByType('navigation')[0].responseEnd}))`))
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatal(err, s)
		}
		if m["firstFrame"] <= 0 || m["instantiated"] <= 0 {
			t.Fatalf("run %d: marks missing: %s", i+1, s)
		}
		ready = append(ready, m["firstFrame"])
		t.Logf("run %d: ready %4.0f ms = page %3.0f, wasm fetch start %3.0f, fetched %4.0f, compiled+instantiated %4.0f, Go main %4.0f (lesson headers %4.0f, DOM %4.0f), app %4.0f, fonts %4.0f, first update %4.0f, first frame %4.0f (load before %s)",
			i+1, m["firstFrame"], m["html"], m["wasmStart"], m["fetch"], m["instantiated"], m["goMain"], m["headers"], m["dom"], m["app"], m["fonts"], m["firstUpdate"], m["firstFrame"], load)
		if e := b.eval(`window.redscope.error`); e != "" {
			t.Errorf("error shown: %v", e)
		}
		b.stop()
		for w := 0; w < 100 && countProcs("chromium") > 0; w++ {
			time.Sleep(100 * time.Millisecond)
		}
	}
	t.Logf("ready, %d cold browsers: median %.0f ms, min %.0f, max %.0f (goal 1000); load %s", runs, median(ready), slices.Min(ready), slices.Max(ready), loadAvg())
	checkBudget(t, "cold ready median (ms)", median(ready), 1000)
}
