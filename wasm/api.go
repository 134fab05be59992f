//go:build js && wasm

package main

import (
	"fmt"
	"strings"
	"syscall/js"

	"redscope/internal/plain"
	"redscope/lesson"
	"redscope/scene"
)

// The page API: window.redscope and the postMessage requests of an embedding page (embed.go)
// dispatch through one verb table, so a verb means the same in both (names are stable; tests and
// course pages use them):
//
//	exec(line)   → the reply as redis-cli --no-raw prints it (without the final newline); runs on
//	               the page's engine, is remembered for Back, and animates
//	lesson(name) → true; lesson({source: text}) loads a lesson's text as the custom lesson → true.
//	               An unknown name or a bad text is an error (window.redscope: false)
//	step()       → true when a step was applied; step(n) seeks to position n (clamped) → the
//	               position reached
//	back()       → true when it went back
//	reset()      → true
//	state()      → {lesson, step, steps, version, allocator, outputs: {commands, keys}, scene,
//	               focus} (scene: the name of the scene drawn, focus: the key it draws)
//	transcript() → the lesson (all steps) and the console lines as a redis-cli input file
//	client(n)    → n: the console's commands (exec) run as client n (1 … 3, the page's tabs), each
//	               with its own MULTI state and able to block (BRPOP); client() → the current one
//	link(step)   → the address of this lesson at step (-1 or none: no step)
//	embedCode()  → an <iframe> showing this lesson
//
// window.redscope alone (not over postMessage) also has:
//
//	ready, version ("8.8"), error (the last error shown, "" when none)
//	loadSource(text) → "" when the lesson text loaded (as the custom lesson), else the error
//	stats()      → {frames, drawMs, updates, updateMsTotal, drawMsTotal, frameMsAvg, frameMsMedian,
//	               frameMsPeak, firstDrawMs, anim, reducedMotion, execs, execPlayerMsTotal,
//	               execPageMsTotal, execSceneMsTotal} (perf.go)
//	bench(days, perDay, overlap) → the course's HyperLogLog week timed on a fresh engine (perf.go)
//	__frames(ms) → a test hook: paint the scene every frame for ms milliseconds (frames.go; the
//	               page draws only when something changed), to measure the Go time of a frame
//	__panic(where) → a test hook: a panic in the API ("api") or the game loop ("action")
//
// Each function computes synchronously inside its callback (nothing in it waits), recovers any
// panic, shows it, and returns undefined in that case.
var api js.Value

var apiApp *app // the app behind api (setReady fixes its canvas up)

// verb is one entry of the page API. fn gets the arguments (window.redscope's, or a message's
// args array) and returns a value js.ValueOf accepts, or an error; apiErr is what window.redscope
// returns for an error (the message's text when nil; a postMessage reply carries the error).
type verb struct {
	name    string
	fn      func(a *app, args []js.Value) (any, error)
	apiErr  any
	apiOnly bool // not offered to embedding pages
}

func arg(args []js.Value, i int) js.Value {
	if i < len(args) {
		return args[i]
	}
	return js.Undefined()
}

var verbs = []verb{
	{name: "exec", apiErr: "(error) exec needs a command line", fn: func(a *app, args []js.Value) (any, error) {
		if line := arg(args, 0); line.Type() == js.TypeString {
			return a.exec(line.String()).Reply, nil
		}
		return nil, fmt.Errorf(`exec needs args: ["COMMAND LINE"]`)
	}},
	{name: "lesson", apiErr: false, fn: func(a *app, args []js.Value) (any, error) {
		v := arg(args, 0)
		switch {
		case v.Type() == js.TypeString:
			if err := a.loadLesson(v.String()); err != nil {
				return nil, err
			}
		case v.Type() == js.TypeObject && v.Get("source").Type() == js.TypeString:
			if err := a.loadSource("message.lesson", []byte(v.Get("source").String())); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf(`lesson needs args: ["name"] or [{source: "lesson text"}]`)
		}
		return true, nil
	}},
	{name: "step", fn: func(a *app, args []js.Value) (any, error) {
		if v := arg(args, 0); v.Type() == js.TypeNumber {
			a.seek(v.Int())
			return a.player.Pos(), nil
		}
		a.playing = false
		return a.step(), nil
	}},
	{name: "back", fn: func(a *app, _ []js.Value) (any, error) { return a.back(), nil }},
	{name: "reset", fn: func(a *app, _ []js.Value) (any, error) { a.reset(); return true, nil }},
	{name: "client", apiErr: false, fn: func(a *app, args []js.Value) (any, error) {
		v := arg(args, 0)
		if v.Type() == js.TypeUndefined {
			return a.player.ActiveClient(), nil
		}
		if v.Type() != js.TypeNumber || !a.setClient(v.Int()) {
			return nil, fmt.Errorf("client needs a number 1 … %d", lesson.Clients)
		}
		return a.player.ActiveClient(), nil
	}},
	{name: "state", fn: func(a *app, _ []js.Value) (any, error) {
		// scene and focus: what the canvas draws now (scene.Auto: the typed key's scene).
		st := struct {
			lesson.State
			Scene string `json:"scene"`
			Focus string `json:"focus"`
		}{State: a.player.State()}
		st.Scene, st.Focus = scene.Focus(a.scene)
		return js.ValueOf(plain.Of(st)), nil // the JSON names, without linking encoding/json
	}},
	{name: "transcript", fn: func(a *app, _ []js.Value) (any, error) { return a.player.Transcript(), nil }},
	{name: "link", fn: func(a *app, args []js.Value) (any, error) {
		step := -1
		if v := arg(args, 0); v.Type() == js.TypeNumber {
			step = v.Int()
		}
		return a.currentParams(step).Link(baseURL()), nil
	}},
	{name: "embedCode", fn: func(a *app, _ []js.Value) (any, error) {
		title := ""
		if l := a.player.Lesson(); l != nil {
			title = l.Title.In(a.lang)
		}
		return lesson.EmbedCode(baseURL(), a.currentParams(-1), title), nil
	}},
	{name: "loadSource", apiOnly: true, fn: func(a *app, args []js.Value) (any, error) {
		if v := arg(args, 0); v.Type() == js.TypeString {
			if err := a.loadSource("api.lesson", []byte(v.String())); err != nil {
				return err.Error(), nil
			}
			return "", nil
		}
		return "loadSource needs the lesson's text", nil
	}},
}

func verbByName(name string) (verb, bool) {
	for _, v := range verbs {
		if v.name == name {
			return v, true
		}
	}
	return verb{}, false
}

// messageVerbs lists the verbs an embedding page may send.
func messageVerbs() string {
	var names []string
	for _, v := range verbs {
		if !v.apiOnly {
			names = append(names, v.name)
		}
	}
	return strings.Join(names, ", ")
}

func exportAPI(a *app, g *game) {
	apiApp = a
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
	for _, v := range verbs {
		fn(v.name, func(args []js.Value) any {
			res, err := v.fn(a, args)
			if err != nil {
				if v.apiErr != nil {
					return v.apiErr
				}
				return err.Error()
			}
			return res
		})
	}
	fn("stats", func([]js.Value) any {
		// anim: the scene's animation progress now (0 = just changed, 1 = settled; always 1 under
		// prefers-reduced-motion); reducedMotion: what the app read from the media query.
		return a.execCost.fields(g.perf.fields(map[string]any{"frames": g.frames, "drawMs": g.drawMs, "anim": a.animT(), "reducedMotion": a.reduced}))
	})
	fn("__frames", func(args []js.Value) any {
		if v := arg(args, 0); v.Type() == js.TypeNumber && v.Float() > 0 {
			g.drawUntil = now() + min(v.Float(), 60000)
			scheduleFrame()
			return true
		}
		return false
	})
	fn("__panic", func(args []js.Value) any {
		if arg(args, 0).Type() == js.TypeString && arg(args, 0).String() == "action" {
			a.post(func() { panic("injected panic (action)") })
			return true
		}
		panic("injected panic (api)")
	})
	js.Global().Set("redscope", api)
	startMessages(a) // embed.go
}

func (a *app) guardValue(where string, p any) {
	defer a.guard(where)
	panic(p)
}

func setReady() {
	if apiApp != nil {
		apiApp.fixCanvas() // app.go: the canvas exists now
	}
	api.Set("ready", true)
	js.Global().Get("document").Call("dispatchEvent", js.Global().Get("Event").New("redscope-ready"))
}

func setAPIVersion(v string) {
	if api.Truthy() {
		api.Set("version", v)
	}
}
