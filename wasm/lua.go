//go:build js && wasm

package main

// The light build and the build with Lua (lesson/handover.go, docs/wasm-build.md).
//
// A first visit loads main.wasm, built without the Lua interpreter (engine.HasLua false). When a
// session needs a script — a typed EVAL, FCALL, FUNCTION or SCRIPT line, or a lesson whose steps
// run one — the app hands the session over: the loader's redscopeUseLua (index.html) downloads
// main-lua.wasm while the page keeps working and saying so, keeps the handover in the tab's
// sessionStorage and reloads the page into that build, whose app resumes the session and runs
// the pending line. If the download fails (offline before the build was ever fetched), the page
// says why and stays as it was: nothing is lost. A tab that changed stays on the build with Lua.

import (
	"fmt"
	"syscall/js"

	"redscope/assets"
	"redscope/engine"
	"redscope/lesson"
)

// handoverKey is the sessionStorage item the handover travels in.
const handoverKey = "redscope-handover"

// lineNeedsLua: this build cannot run the console line without the build with Lua.
func lineNeedsLua(line string) bool { return !engine.HasLua && lesson.LineNeedsLua(line) }

// lessonNeedsLua: this build cannot play l without the build with Lua.
func lessonNeedsLua(l *lesson.Lesson) bool { return !engine.HasLua && l.NeedsLua() }

// handOverLine hands the session over with line (typed in the active client) to run after it.
func (a *app) handOverLine(line string) lesson.Exchange {
	h := a.player.Handover()
	h.Lesson, h.Source = a.sessionLesson(a.player.Lesson())
	h.Pending = &lesson.TypedLine{Pos: h.Pos, Client: a.player.ActiveClient(), Line: line}
	a.handOver(h)
	return lesson.Exchange{Exchange: engine.Exchange{Cmd: line, Console: true, Client: a.player.ActiveClient(),
		Reply: "(error) " + assets.T(a.lang, "luaLoading"), Error: true}}
}

// handOverLesson hands over to open l at its start.
func (a *app) handOverLesson(l *lesson.Lesson) {
	c := a.player.Config()
	h := lesson.Handover{Version: a.player.Engine().Version(), Allocator: c.Allocator, Active: 1}
	h.Lesson, h.Source = a.sessionLesson(l)
	a.handOver(h)
}

// sessionLesson is how a handover names lesson l: a built-in one by name, the custom one with its
// text.
func (a *app) sessionLesson(l *lesson.Lesson) (string, []byte) {
	if l == nil {
		return "sandbox", nil
	}
	if l == emb.custom {
		return customValue, emb.customSrc
	}
	return l.Name, nil
}

// handOver asks the loader for the build with Lua. A second request while one is under way is
// dropped (the first one's session is the one that continues).
func (a *app) handOver(h lesson.Handover) {
	if a.luaLoading {
		return
	}
	use := js.Global().Get("redscopeUseLua")
	if use.Type() != js.TypeFunction {
		a.showError(assets.T(a.lang, "luaMissing"))
		return
	}
	a.luaLoading = true
	var failed js.Func
	failed = js.FuncOf(func(this js.Value, args []js.Value) any {
		why := fmt.Sprint(arg(args, 0))
		a.post(func() {
			a.luaLoading = false
			a.showError(fmt.Sprintf(assets.T(a.lang, "luaFailed"), why))
			a.changed()
		})
		failed.Release()
		return nil
	})
	use.Invoke(handoverKey, h.Encode(), failed)
	a.changed()
}

// resumeHandover continues a session handed over by the light build, if the tab holds one; it
// runs once, at start-up, after the address has been read.
func (a *app) resumeHandover() []string {
	if !engine.HasLua {
		return nil
	}
	store := js.Global().Get("sessionStorage")
	if !store.Truthy() {
		return nil
	}
	item := store.Call("getItem", handoverKey)
	if item.Type() != js.TypeString {
		return nil
	}
	store.Call("removeItem", handoverKey)
	h, err := lesson.DecodeHandover(item.String())
	if err != nil {
		return []string{err.Error()}
	}
	if h.Source != nil {
		err = a.loadSource("link.lesson", h.Source)
	} else {
		err = a.loadLesson(h.Lesson)
	}
	if err != nil {
		return []string{lesson.ErrIn(err, a.lang)}
	}
	a.player.Resume(h)
	if p := h.Pending; p != nil {
		a.player.SetActiveClient(p.Client)
		a.exec(p.Line)
		a.player.SetActiveClient(h.Active)
	}
	a.changed()
	return nil
}
