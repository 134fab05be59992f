//go:build js && wasm

package main

import (
	"slices"
	"syscall/js"

	"redscope/engine"
	"redscope/wasm/bench"
)

// Performance instrumentation for wasm/browsertest/perf_test.go and BENCHMARKS.md.
//
// mark records window.redscopeTiming[name] = performance.now() (ms since navigation start), so
// the test can split the time to the first frame into its parts.
func mark(name string) {
	if t := js.Global().Get("redscopeTiming"); t.Type() == js.TypeObject {
		t.Set(name, now())
	}
}

// frameStats keeps the Go time of Update and Draw: totals since start and the last 120 frames
// (Update+Draw of each drawn frame, the updates run since the previous Draw included).
type frameStats struct {
	updateMs, drawMs float64 // totals
	updates          int
	pending          float64 // Update time since the last Draw
	ring             [120]float64
	n                int
	firstDraw        float64 // Go time of the first Draw
}

func (s *frameStats) update(ms float64) {
	if s.updates == 0 {
		mark("firstUpdate") // ebiten is up: WebGL context, shaders, first Layout
	}
	s.updateMs += ms
	s.updates++
	s.pending += ms
}

func (s *frameStats) draw(ms float64) {
	if s.n == 0 {
		s.firstDraw = ms
	}
	s.drawMs += ms
	s.ring[s.n%len(s.ring)] = s.pending + ms
	s.n++
	s.pending = 0
}

// fields are the extra fields of window.redscope.stats().
func (s *frameStats) fields(m map[string]any) map[string]any {
	var sum, peak float64
	k := min(s.n, len(s.ring))
	for i := 0; i < k; i++ {
		sum += s.ring[i]
		peak = max(peak, s.ring[i])
	}
	avg, med := 0.0, 0.0
	if k > 0 {
		avg = sum / float64(k)
		sorted := s.ring // a copy
		slices.Sort(sorted[:k])
		med = sorted[k/2]
	}
	m["updates"] = s.updates
	m["updateMsTotal"] = s.updateMs
	m["drawMsTotal"] = s.drawMs
	m["frameMsAvg"] = avg    // Go time per Update+Draw, mean of the last 120 frames
	m["frameMsMedian"] = med // their median: less sensitive to a busy machine than the mean
	m["frameMsPeak"] = peak  // the largest of them
	m["firstDrawMs"] = s.firstDraw
	return m
}

func (c execCost) fields(m map[string]any) map[string]any {
	m["execs"] = c.n
	m["execPlayerMsTotal"] = c.playerMs
	m["execPageMsTotal"] = c.changedMs
	m["execSceneMsTotal"] = c.sceneMs
	return m
}

// exportPerfAPI adds window.redscope.bench(days, perDay, overlap) → {elements, distinct,
// commands, pfcount, merged, ms, version, allocator, error}: the course's seven-day HyperLogLog
// workload (package wasm/bench) on a fresh engine of the page's version and allocator, without
// tracing; the player and its engine are not touched.
func exportPerfAPI(a *app) {
	api.Set("bench", js.FuncOf(func(_ js.Value, args []js.Value) (ret any) {
		defer func() {
			if p := recover(); p != nil {
				ret = nil
				a.guardValue("bench", p)
			}
		}()
		w := bench.CourseWeek
		num := func(i int) (float64, bool) {
			if len(args) > i && args[i].Type() == js.TypeNumber {
				return args[i].Float(), true
			}
			return 0, false
		}
		if v, ok := num(0); ok {
			w.Days = int(v)
		}
		if v, ok := num(1); ok {
			w.PerDay = int(v)
		}
		if v, ok := num(2); ok {
			w.Overlap = v
		}
		cfg := a.player.Config()
		e := engine.New(engine.Options{Version: cfg.Version, Allocator: cfg.Allocator, Seed: cfg.Seed})
		t0 := now()
		r := w.Run(e)
		ms := now() - t0
		return map[string]any{"elements": r.Elements, "distinct": r.Distinct, "commands": r.Commands,
			"pfcount": r.OnTheFly, "merged": r.Merged, "ms": ms, "version": e.Version().String(),
			"allocator": e.Allocator().String(), "error": r.Err}
	}))
}

// execCost splits the Go time of the typed commands (app.exec) into the player's (the engine, the
// limits) and the page's (app.changed: the scene's Update, the panels, the address), for
// stats() and the session-cost test (wasm/browsertest/page_test.go).
type execCost struct {
	n                   int
	playerMs, changedMs float64
	sceneMs             float64 // the part of changedMs spent in the scene's Update
}

func (c *execCost) add(player, changed, scene float64) {
	c.n++
	c.playerMs += player
	c.changedMs += changed
	c.sceneMs += scene
}
