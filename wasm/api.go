//go:build js && wasm

package main

import (
	"encoding/json"
	"syscall/js"
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
//	state()    → {lesson, step, steps, version, allocator, outputs: {commands, keys}}
//	stats()    → {frames, drawMs}
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
		b, err := json.Marshal(a.player.State())
		if err != nil {
			return nil
		}
		return js.Global().Get("JSON").Call("parse", string(b))
	})
	fn("stats", func([]js.Value) any {
		return map[string]any{"frames": g.frames, "drawMs": g.drawMs}
	})
	js.Global().Set("redscope", api)
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
