//go:build js && wasm

package main

import (
	"encoding/json"
	"syscall/js"

	"redscope/lesson"
	"redscope/scene"
)

// The page API, window.redscope (names are stable; tests and course pages use them):
//
//	ready      true after the first frame was drawn
//	version    the engine profile, "8.8"
//	error      the last error shown ("" when none)
//	exec(line) → the reply as redis-cli --no-raw prints it (without the final newline); runs on
//	             the page's engine, is remembered for Back, and animates
//	lesson(n)  loads lesson n ("sandbox" for none) → true, or false when unknown
//	step()     → true when a step was applied
//	back()     → true when it went back
//	reset()
//	state()    → {lesson, step, steps, version, allocator, outputs: {commands, keys}, scene, focus}
//	stats()    → {frames, drawMs, updates, updateMsTotal, drawMsTotal, frameMsAvg, frameMsMedian,
//	             frameMsPeak, firstDrawMs} (perf.go)
//	loadSource(text) → "" when the lesson text loaded (as the custom lesson), else the error
//	transcript() → the lesson (all steps) and the console lines as a redis-cli input file
//	link(step)   → the address of this lesson at step (-1: none); embedCode() → an <iframe>
//	(embed.go also answers postMessage requests from the embedding page)
//	bench(days, perDay, overlap) → the course's HyperLogLog week timed on a fresh engine (perf.go)
//
// Each function computes synchronously inside its callback (nothing in it waits), recovers any
// panic, shows it, and returns undefined in that case.
var api js.Value

func exportAPI(a *app, g *game) {
	api = js.Global().Get("Object").New()
	api.Set("ready", false)
	api.Set("error", "")
	api.Set("version", a.player.Engine().Version().String())
	fn := func(name string, f func(args []js.Value) any) {
		api.Set(name, js.FuncOf(func(this js.Value, args []js.Value) (ret any) {
			defer func() {
				if p := recover(); p != nil {
					ret = nil
					a.guardValue(name, p)
				}
			}()
			return f(args)
		}))
	}
	fn("exec", func(args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeString {
			return "(error) exec needs a command line"
		}
		return a.exec(args[0].String()).Reply
	})
	fn("lesson", func(args []js.Value) any {
		if len(args) < 1 {
			return false
		}
		return a.loadLesson(args[0].String()) == nil
	})
	fn("step", func([]js.Value) any { a.playing = false; return a.step() })
	fn("back", func([]js.Value) any { return a.back() })
	fn("reset", func([]js.Value) any { a.reset(); return nil })
	fn("state", func([]js.Value) any {
		// scene and focus: what the canvas draws now (scene.Auto: the typed key's scene).
		st := struct {
			lesson.State
			Scene string `json:"scene"`
			Focus string `json:"focus"`
		}{State: a.player.State()}
		st.Scene, st.Focus = scene.Focus(a.scene)
		b, err := json.Marshal(st)
		if err != nil {
			return nil
		}
		return js.Global().Get("JSON").Call("parse", string(b))
	})
	fn("stats", func([]js.Value) any {
		// anim: the scene's animation progress now (0 = just changed, 1 = settled; always 1 under
		// prefers-reduced-motion); reducedMotion: what the app read from the media query.
		return g.perf.fields(map[string]any{"frames": g.frames, "drawMs": g.drawMs, "anim": a.animT(), "reducedMotion": a.reduced})
	})
	fn("loadSource", func(args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeString {
			return "loadSource needs the lesson's text"
		}
		if err := a.loadSource("api.lesson", []byte(args[0].String())); err != nil {
			return err.Error()
		}
		return ""
	})
	fn("transcript", func([]js.Value) any { return a.player.Transcript() })
	fn("link", func(args []js.Value) any {
		step := -1
		if len(args) > 0 && args[0].Type() == js.TypeNumber {
			step = args[0].Int()
		}
		return a.currentParams(step).Link(baseURL())
	})
	fn("embedCode", func([]js.Value) any {
		title := ""
		if l := a.player.Lesson(); l != nil {
			title = l.Title.In(a.lang)
		}
		return lesson.EmbedCode(baseURL(), a.currentParams(-1), title)
	})
	js.Global().Set("redscope", api)
	startMessages(a) // embed.go
}

func (a *app) guardValue(where string, p any) {
	defer a.guard(where)
	panic(p)
}

func setReady() {
	api.Set("ready", true)
	js.Global().Get("document").Call("dispatchEvent", js.Global().Get("Event").New("redscope-ready"))
}

func setAPIVersion(v string) {
	if api.Truthy() {
		api.Set("version", v)
	}
}
