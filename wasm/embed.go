//go:build js && wasm

package main

// Embedding the app in course pages (lesson/url.go has the pure parts, FORMAT.md documents them):
//
//   - URL parameters: lesson, step, lang, version, allocator, theme (dark|light|auto), controls
//     (full|minimal), autoplay, seed, origins; a whole lesson in the fragment (#lesson=…).
//   - Lessons pasted or dropped into the "Share · your lesson" panel.
//   - "Copy link to this step", "Copy embed code" (an <iframe>), "Export transcript" (a
//     redis-cli input file).
//   - postMessage: the embedding page (window.parent only, and only from an allowed origin, see
//     lesson.OriginPolicy) sends {redscope: "exec"|"lesson"|"step"|"back"|"reset"|"state"|
//     "transcript", id, args} and gets {redscope: "reply", id, result} or {redscope: "reply", id,
//     error}; the app posts {redscope: "ready", …} once and {redscope: "step", lesson, step,
//     steps} on every change of lesson or step, to the parent's origin only (never "*").
//
// Everything from a URL, a message, a paste or a file is data: it reaches the page only through
// textContent and attribute values (wasm/ui), never as markup.

import (
	"fmt"
	"strconv"
	"strings"
	"syscall/js"

	"redscope/assets"
	"redscope/engine"
	"redscope/lesson"
	"redscope/scene"
	"redscope/wasm/ui"
)

// customValue is the lesson selector's value for a lesson loaded from a link, a paste or a file.
const customValue = "~custom"

type embedState struct {
	params       lesson.Params
	policy       lesson.OriginPolicy
	framed       bool
	parentOrigin string // the embedding page's origin once known and allowed, else ""
	posted       string // the last step message sent (to send only changes)
	started      bool   // "ready" was posted
	denied       map[string]bool
	custom       *lesson.Lesson
	customSrc    []byte
	customFrag   string // "#lesson=…" of customSrc
}

var emb = embedState{denied: map[string]bool{}}

// customLesson is the custom lesson for the selector value customValue (app.findLesson).
func customLesson(name string) *lesson.Lesson {
	if name == customValue {
		return emb.custom
	}
	return nil
}

func jsGlobal(path ...string) js.Value {
	v := js.Global()
	for _, p := range path {
		if v.Type() != js.TypeObject && v.Type() != js.TypeFunction {
			return js.Undefined()
		}
		v = v.Get(p)
	}
	return v
}

func jsString(v js.Value) string {
	if v.Type() == js.TypeString {
		return v.String()
	}
	return ""
}

// applyTheme sets the palette of the drawing (scene.SetTheme) and of the page (<html
// data-theme>, index.html's CSS) from ?theme=: main calls it before newApp builds the first
// scene, since scenes read the palette when they paint. theme=auto follows the reader's
// prefers-color-scheme as it is at start-up; dark is the default. initEmbed reports a bad value.
func applyTheme() {
	p, _ := lesson.ParseParams(jsString(jsGlobal("location", "search")), "", nil)
	name := p.Theme
	if name == "auto" {
		name = "dark"
		if mm := js.Global().Get("matchMedia"); mm.Type() == js.TypeFunction &&
			js.Global().Call("matchMedia", "(prefers-color-scheme: light)").Get("matches").Truthy() {
			name = "light"
		}
	}
	if !scene.SetTheme(name) {
		scene.SetTheme("dark")
	}
	jsGlobal("document", "documentElement").Call("setAttribute", "data-theme", scene.ThemeName())
}

// initEmbed applies the URL parameters newApp does not handle, wires the share panel and
// returns the problems to show. It runs at the end of newApp, after the first lesson loaded.
func (a *app) initEmbed() []string {
	var bad []string
	p := emb.params // newApp read the address and reported its bad values
	root := jsGlobal("document", "documentElement")
	root.Call("setAttribute", "data-theme", scene.ThemeName()) // applyTheme resolved auto
	root.Call("setAttribute", "data-controls", p.Controls)

	site, err := lesson.ParseOrigins(jsString(root.Call("getAttribute", "data-redscope-origins")))
	if err != nil {
		bad = append(bad, "data-redscope-origins: "+lesson.ErrIn(err, a.lang))
	}
	emb.policy = lesson.OriginPolicy{Self: jsString(jsGlobal("location", "origin")), Site: site, Page: p.Origins}
	emb.framed = !js.Global().Get("parent").Equal(js.Global())
	if emb.framed {
		guess := ""
		if ao := jsGlobal("location", "ancestorOrigins"); ao.Type() == js.TypeObject && ao.Length() > 0 {
			guess = jsString(ao.Index(0))
		} else {
			guess = lesson.OriginOf(jsString(jsGlobal("document", "referrer")))
		}
		if emb.policy.Allows(guess) {
			emb.parentOrigin = guess
		}
	}

	if p.HasSeed {
		c := a.player.Config()
		c.Seed = p.Seed
		a.player.SetConfig(c)
	}
	if p.Source != nil {
		if err := a.loadSource("link.lesson", p.Source); err != nil {
			bad = append(bad, fmt.Sprintf(assets.T(a.lang, "badLessonText"), err.Error()))
		}
	}
	if p.Step > 0 {
		if p.Step > a.player.Len() {
			bad = append(bad, fmt.Sprintf(assets.T(a.lang, "stepBeyond"), p.Step, a.player.Len()))
		}
		a.seek(p.Step)
	}
	if p.Autoplay && a.player.Pos() < a.player.Len() {
		a.togglePlay()
	}
	a.initShareDOM()
	a.urlLive = true
	a.changed()
	return bad
}

// loadSource parses a lesson's text under the app's limits and loads it as the custom lesson.
func (a *app) loadSource(name string, src []byte) error {
	newest := engine.Versions[len(engine.Versions)-1]
	l, err := lesson.ParseLimited(name, src, newest, &lesson.DefaultLimits)
	if err != nil {
		return err
	}
	emb.custom, emb.customSrc = l, append([]byte(nil), src...)
	emb.customFrag = "#" + lesson.FragmentKey + "=" + lesson.EncodeLesson(src) // once, not on every step
	if sel := byID("lesson"); sel.Truthy() {
		if old := sel.Call("querySelector", "option[value='"+customValue+"']"); old.Truthy() {
			old.Call("remove")
		}
		o := jsGlobal("document").Call("createElement", "option")
		o.Set("value", customValue)
		o.Set("textContent", "✎ "+l.Title.In(a.lang)) // text, never markup
		sel.Call("appendChild", o)
	}
	if err := a.loadLesson(customValue); err != nil {
		return err
	}
	ui.ByID("lesson").SetValue(customValue)
	return nil
}

// afterChange runs at the end of app.changed: a refused command shows its limit as the page's
// error, and the parent hears of a new lesson or step.
//
// It looks at the newest exchange only after a typed command (the rest were seen before) and at
// the step's exchanges after a step, so its cost does not grow with the session. It also keeps
// the address on the place (syncURL).
func (a *app) afterChange() {
	p := a.player
	last := p.Recent()
	from := 0
	if p.Gen() == a.seenGen {
		from = max(0, len(last)-1)
	} else if a.errFromCheck {
		a.showError("") // a failed check belongs to the place it was made at: the place moved
	}
	a.seenGen = p.Gen()
	for i := from; i < len(last); i++ {
		x := &last[i]
		if x.Refused != "" {
			a.showError(a.refusedText(x))
		}
		for _, c := range x.Checks {
			// A lesson newer than the profile fails its checks by design: the notice says so.
			if !c.OK && !x.Console && p.Needs() == 0 {
				a.showCheckError(a.checkText(c))
			}
		}
	}
	a.syncURL()
	a.notifyStep()
}

// syncURL keeps the address on the place (history.replaceState), so that a copied address opens
// the same lesson, step, language, version, theme and allocator; the language link keeps them
// too.
func (a *app) syncURL() {
	// The place changes only with the player's generation (a step, Back, a seek, a lesson, a
	// version): a typed command leaves the address as it is.
	if !a.urlLive || (a.player.Gen() == a.urlGen && a.shownURL != "" && !a.urlPending) {
		return
	}
	a.urlGen = a.player.Gen()
	link := a.placeLink(a.player.Pos(), a.lang)
	if link == a.shownURL {
		a.urlPending = false
		return
	}
	// Chromium ignores history.replaceState past 200 calls in 10 s ("Throttling navigation"),
	// which would leave the address on an old step, and each call cost ~10 ms: stepping a long
	// lesson from a script (window.redscope.step() in a loop) spent most of its time here. So
	// the address moves at once while the budget lasts (urlBurst calls, refilled at urlRate a
	// second, half of Chromium's allowance) and otherwise at the first frame with budget
	// (flushURL, from tick): a click or a key always finds budget.
	t := now()
	a.urlTokens = min(urlBurst, a.urlTokens+(t-a.urlAt)/1000*urlRate)
	a.urlAt = t
	if a.urlTokens < 1 {
		a.urlPending = true
		return
	}
	a.urlTokens--
	a.urlPending = false
	a.shownURL = link
	ui.ReplaceURL(link)
	ui.ByID("langLink").SetAttr("href", a.placeLink(a.player.Pos(), a.otherLang()))
}

// The address's budget of history.replaceState calls (syncURL).
const urlBurst, urlRate = 20, 10

// flushURL writes an address syncURL put off, once there is budget (tick calls it every frame).
func (a *app) flushURL() {
	if a.urlPending {
		a.syncURL()
	}
}

// placeLink is the address of the current lesson at step in lang; a custom lesson's text goes in
// the fragment, encoded once when it was loaded.
func (a *app) placeLink(step int, lang string) string {
	p := a.currentParams(step)
	p.Lang = lang
	frag := ""
	if p.Source != nil {
		p.Source, frag = nil, emb.customFrag
	}
	return p.Link(baseURL()) + frag
}

func (a *app) currentName() string {
	l := a.player.Lesson()
	if l == nil {
		return "sandbox"
	}
	return l.Name
}

// notifyStep posts {redscope: "step", lesson, step, steps} to the parent when they changed.
func (a *app) notifyStep() {
	if !emb.started || !emb.framed || emb.parentOrigin == "" {
		return
	}
	name, pos, n := a.currentName(), a.player.Pos(), a.player.Len()
	key := fmt.Sprintf("%s\x00%d\x00%d", name, pos, n)
	if key == emb.posted {
		return
	}
	emb.posted = key
	a.postParent(map[string]any{"redscope": "step", "lesson": name, "step": pos, "steps": n})
}

func (a *app) postParent(msg map[string]any) {
	if !emb.framed || emb.parentOrigin == "" {
		return
	}
	js.Global().Get("parent").Call("postMessage", js.ValueOf(msg), emb.parentOrigin)
}

// startMessages listens for the parent's requests and says "ready" (exportAPI calls it).
func startMessages(a *app) {
	js.Global().Call("addEventListener", "message", js.FuncOf(func(_ js.Value, args []js.Value) (ret any) {
		defer a.guard("message")
		if len(args) > 0 {
			a.onMessage(args[0])
		}
		return nil
	}))
	a.postParent(map[string]any{"redscope": "ready", "lesson": a.currentName(), "step": a.player.Pos(),
		"steps": a.player.Len(), "version": a.player.Engine().Version().String()})
	emb.posted = fmt.Sprintf("%s\x00%d\x00%d", a.currentName(), a.player.Pos(), a.player.Len())
	emb.started = true
}

func (a *app) onMessage(ev js.Value) {
	// Only the embedding page: not other frames, not other windows, not this page itself.
	if !emb.framed || !ev.Get("source").Equal(js.Global().Get("parent")) {
		return
	}
	data := ev.Get("data")
	if data.Type() != js.TypeObject {
		return
	}
	kind := jsString(data.Get("redscope"))
	if kind == "" || kind == "reply" || kind == "ready" {
		return // not a request
	}
	origin := jsString(ev.Get("origin"))
	if !emb.policy.Allows(origin) {
		if !emb.denied[origin] && len(emb.denied) < 8 {
			emb.denied[origin] = true
			a.showError(fmt.Sprintf(assets.T(a.lang, "originDenied"), truncateRunes(origin, 80)))
		}
		return
	}
	emb.parentOrigin = origin
	a.msgAt = now() // frames.go: the frame waits while requests keep coming
	reply := map[string]any{"redscope": "reply", "id": data.Get("id")}
	if res, err := a.request(kind, data.Get("args")); err != nil {
		reply["error"] = err.Error()
	} else {
		reply["result"] = res
	}
	ev.Get("source").Call("postMessage", js.ValueOf(reply), origin)
}

func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// request answers one postMessage request through the verb table (api.go), the same one
// window.redscope dispatches through; the result must be a value js.ValueOf accepts.
func (a *app) request(kind string, args js.Value) (any, error) {
	v, ok := verbByName(kind)
	if !ok || v.apiOnly {
		return nil, fmt.Errorf("unknown request %q (want %s)", truncateRunes(kind, 40), messageVerbs())
	}
	var list []js.Value
	if args.Type() == js.TypeObject && js.Global().Get("Array").Call("isArray", args).Bool() {
		for i := 0; i < args.Length(); i++ {
			list = append(list, args.Index(i))
		}
	}
	return v.fn(a, list)
}

// --- the share panel ---

// currentParams are the URL parameters that show the current lesson (at step, when ≥ 0).
func (a *app) currentParams(step int) lesson.Params {
	p := emb.params
	p.Step = step
	p.Autoplay = false
	p.Lang = a.lang
	p.Version = a.player.Engine().Version()
	if p.Version == engine.DefaultVersion {
		p.Version = 0
	}
	p.Lesson, p.Source = "", nil
	l := a.player.Lesson()
	switch {
	case l != nil && l == emb.custom:
		p.Source = emb.customSrc
	case l != nil:
		p.Lesson = l.Name
	default:
		p.Lesson = "sandbox"
	}
	p.Lua = l.NeedsLua() // a lesson that runs scripts opens in the build with Lua (lua.go)
	return p
}

func baseURL() string {
	return jsString(jsGlobal("location", "origin")) + jsString(jsGlobal("location", "pathname"))
}

func (a *app) shareText(text, doneMsg string) {
	ui.ByID("shareOut").SetValue(text)
	if out := byID("shareOut"); out.Truthy() {
		out.Call("select")
	}
	msg := ui.ByID("shareMsg")
	clip := jsGlobal("navigator", "clipboard")
	if doneMsg == "" || clip.Type() != js.TypeObject || clip.Get("writeText").Type() != js.TypeFunction {
		msg.SetText(assets.T(a.lang, "copyManually"))
		return
	}
	var ok, fail js.Func
	release := func() { ok.Release(); fail.Release() }
	ok = js.FuncOf(func(js.Value, []js.Value) any { msg.SetText(doneMsg); release(); return nil })
	fail = js.FuncOf(func(js.Value, []js.Value) any { msg.SetText(assets.T(a.lang, "copyManually")); release(); return nil })
	clip.Call("writeText", text).Call("then", ok, fail)
}

func (a *app) exportTranscript() {
	text := a.player.Transcript()
	a.shareText(text, "")
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return -1
	}, strings.ToLower(a.currentName()))
	if name == "" {
		name = "lesson"
	}
	download(name+".redis-cli.txt", text)
	ui.ByID("shareMsg").SetText(assets.T(a.lang, "exported"))
}

func (a *app) initShareDOM() {
	for id, key := range map[string]string{"shareTitle": "share", "copyLink": "copyLink", "copyEmbed": "copyEmbed",
		"exportTranscript": "exportTranscript", "lessonTextLabel": "lessonText", "loadText": "loadText"} {
		ui.ByID(id).SetText(assets.T(a.lang, key))
	}
	ui.ByID("shareOut").SetAttr("aria-label", assets.T(a.lang, "shareOut"))
	ui.ByID("lessonText").SetAttr("placeholder", assets.T(a.lang, "lessonTextHint"))
	ui.ByID("copyLink").On("click", func(string) bool {
		a.post(func() {
			a.shareText(a.currentParams(a.player.Pos()).Link(baseURL()), assets.T(a.lang, "copied"))
		})
		return false
	})
	ui.ByID("copyEmbed").On("click", func(string) bool {
		a.post(func() {
			title := assets.T(a.lang, "sandbox")
			if l := a.player.Lesson(); l != nil {
				title = l.Title.In(a.lang)
			}
			a.shareText(lesson.EmbedCode(baseURL(), a.currentParams(-1), title), assets.T(a.lang, "copied"))
		})
		return false
	})
	ui.ByID("exportTranscript").On("click", func(string) bool { a.post(a.exportTranscript); return false })
	a.initEmbedDialog()
	text := ui.ByID("lessonText")
	ui.ByID("loadText").On("click", func(string) bool {
		src := text.Value()
		a.post(func() { a.loadFromUser("pasted.lesson", src) })
		return false
	})
	onDrop(byID("lessonText"), a.lang, lesson.DefaultLimits.LessonBytes, func(name, src string, err error) {
		a.post(func() {
			if err != nil {
				a.showError(err.Error())
				return
			}
			text.SetValue(src)
			a.loadFromUser(name, src)
		})
	})
}

func (a *app) loadFromUser(name, src string) {
	if err := a.loadSource(name, []byte(src)); err != nil {
		a.showError(fmt.Sprintf(assets.T(a.lang, "badLessonText"), err.Error()))
		ui.ByID("shareMsg").SetText("")
		return
	}
	a.showError("")
	ui.ByID("shareMsg").SetText(assets.T(a.lang, "loaded"))
}

func byID(id string) js.Value {
	v := jsGlobal("document").Call("getElementById", id)
	if v.IsNull() {
		return js.Undefined()
	}
	return v
}

// download offers text as a file (a Blob behind a temporary link).
func download(name, text string) {
	doc := jsGlobal("document")
	blob := js.Global().Get("Blob").New(js.ValueOf([]any{text}), js.ValueOf(map[string]any{"type": "text/plain;charset=utf-8"}))
	u := js.Global().Get("URL").Call("createObjectURL", blob)
	link := doc.Call("createElement", "a")
	link.Set("href", u)
	link.Set("download", name)
	link.Get("style").Set("display", "none")
	doc.Get("body").Call("appendChild", link)
	link.Call("click")
	link.Call("remove")
	var revoke js.Func
	revoke = js.FuncOf(func(js.Value, []js.Value) any {
		js.Global().Get("URL").Call("revokeObjectURL", u)
		revoke.Release()
		return nil
	})
	js.Global().Call("setTimeout", revoke, 10000)
}

// onDrop makes el a drop zone for a lesson: a dropped file (at most maxBytes) or dropped text.
// fn runs inside a callback: it must only post work.
func onDrop(el js.Value, lang string, maxBytes int, fn func(name, src string, err error)) {
	if !el.Truthy() {
		return
	}
	el.Call("addEventListener", "dragover", js.FuncOf(func(_ js.Value, args []js.Value) any {
		args[0].Call("preventDefault")
		return nil
	}))
	el.Call("addEventListener", "drop", js.FuncOf(func(_ js.Value, args []js.Value) any {
		ev := args[0]
		ev.Call("preventDefault")
		dt := ev.Get("dataTransfer")
		if !dt.Truthy() {
			return nil
		}
		files := dt.Get("files")
		if files.Truthy() && files.Length() > 0 {
			f := files.Index(0)
			name := jsString(f.Get("name"))
			if size := f.Get("size").Int(); size > maxBytes {
				fn(name, "", fmt.Errorf(assets.T(lang, "dropTooBig"), truncateRunes(name, 60), size, maxBytes))
				return nil
			}
			var ok, fail js.Func
			release := func() { ok.Release(); fail.Release() }
			ok = js.FuncOf(func(_ js.Value, a []js.Value) any { fn(name, jsString(a[0]), nil); release(); return nil })
			fail = js.FuncOf(func(_ js.Value, a []js.Value) any {
				fn(name, "", fmt.Errorf(assets.T(lang, "dropUnread"), truncateRunes(name, 60)))
				release()
				return nil
			})
			f.Call("text").Call("then", ok, fail)
			return nil
		}
		if t := dt.Call("getData", "text/plain"); t.Type() == js.TypeString && t.String() != "" {
			fn("dropped.lesson", t.String(), nil)
		}
		return nil
	}))
}

// --- the embed dialog: step, theme, controls and height, the code, a live preview ---

func (a *app) initEmbedDialog() {
	for id, key := range map[string]string{"embedTitle": "embedTitle", "embedStepLabel": "embedStep", "embedThemeLabel": "embedTheme",
		"embedControlsLabel": "embedControls", "embedHeightLabel": "embedHeight", "embedCopy": "copyEmbed",
		"embedPreview": "embedPreview", "formatLink": "embedFormat"} {
		ui.ByID(id).SetText(assets.T(a.lang, key))
	}
	ui.ByID("embedOut").SetAttr("aria-label", assets.T(a.lang, "copyEmbed"))
	ui.ByID("embedFrame").SetAttr("title", assets.T(a.lang, "previewTitle"))
	ui.ByID("embedTheme").Options([]string{"dark", "light", "auto"},
		[]string{assets.T(a.lang, "themeDark"), assets.T(a.lang, "themeLight"), assets.T(a.lang, "themeAuto")})
	ui.ByID("embedTheme").SetValue(emb.params.Theme)
	ui.ByID("embedControls").Options([]string{"full", "minimal"}, []string{assets.T(a.lang, "ctlFull"), assets.T(a.lang, "ctlMinimal")})
	ui.ByID("embedControls").SetValue(emb.params.Controls)
	update := func(string) bool { a.post(a.renderEmbedCode); return false }
	for _, id := range []string{"embedStep", "embedTheme", "embedControls", "embedHeight"} {
		ui.ByID(id).On("input", update)
		ui.ByID(id).On("change", update)
	}
	ui.ByID("embed").On("toggle", func(string) bool {
		a.post(func() {
			ui.ByID("embedStep").SetValue(strconv.Itoa(a.player.Pos()))
			a.renderEmbedCode()
		})
		return false
	})
	ui.ByID("embedCopy").On("click", func(string) bool {
		a.post(func() {
			code, _ := a.embedChoice()
			ui.ByID("embedOut").SetValue(code)
			copyText(code)
		})
		return false
	})
	ui.ByID("embedPreview").On("click", func(string) bool {
		a.post(func() {
			_, link := a.embedChoice()
			fr := ui.ByID("embedFrame")
			fr.SetProp("src", link)
			fr.SetAttr("height", strconv.Itoa(a.embedHeight()))
			fr.SetBool("hidden", false)
		})
		return false
	})
}

func (a *app) embedHeight() int {
	h, err := strconv.Atoi(ui.ByID("embedHeight").Value())
	if err != nil {
		h = 640
	}
	return max(240, min(h, 2400))
}

// embedChoice is the embed code and the address for the dialog's choices.
func (a *app) embedChoice() (code, link string) {
	p := a.currentParams(-1)
	if n, err := strconv.Atoi(ui.ByID("embedStep").Value()); err == nil && n > 0 {
		p.Step = min(n, a.player.Len())
	}
	switch v := ui.ByID("embedTheme").Value(); v {
	case "dark", "light", "auto":
		p.Theme = v
	}
	switch v := ui.ByID("embedControls").Value(); v {
	case "full", "minimal":
		p.Controls = v
	}
	title := assets.T(a.lang, "sandbox")
	if l := a.player.Lesson(); l != nil {
		title = l.Title.In(a.lang)
	}
	return lesson.EmbedCodeSized(baseURL(), p, title, a.embedHeight()), p.Link(baseURL())
}

func (a *app) renderEmbedCode() {
	code, _ := a.embedChoice()
	ui.ByID("embedOut").SetValue(code)
}

func copyText(text string) {
	if clip := jsGlobal("navigator", "clipboard"); clip.Type() == js.TypeObject && clip.Get("writeText").Type() == js.TypeFunction {
		clip.Call("writeText", text).Call("catch", js.FuncOf(func(js.Value, []js.Value) any { return nil }))
	}
}
