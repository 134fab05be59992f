//go:build js && wasm

package main

import (
	"fmt"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"redscope/assets"
	"redscope/engine"
	"redscope/internal/numfmt"
	"redscope/lesson"
	"redscope/scene"
	"redscope/wasm/ui"
)

// app owns the player and the scene. Its methods run either inside a syscall/js callback (the
// page API, which must answer synchronously: pure computation, nothing that waits) or from the
// game loop's Update (DOM controls, which post actions through a buffered channel). Go on wasm
// is single-threaded and callbacks only run while the game goroutine is parked between frames, so
// the two never interleave inside a method.
type app struct {
	lang    string
	lessons []*builtinLesson     // listed by header, parsed when opened; in the course's order
	groups  []lesson.CourseGroup // the lesson list's groups (lesson.CourseGroups)
	player  *lesson.Player
	scene   scene.Scene
	reduced bool

	actions chan func() // DOM events → game loop

	changedAt time.Time // when the scene last changed (animation start)
	playing   bool
	speed     float64
	nextAt    time.Time
	dirty     bool      // the canvas is out of date (frames.go)
	wakeTime  time.Time // when wakeAt's timer asks for a frame (zero: none armed)
	msgAt     float64   // performance.now() of the last postMessage request (frames.go)
	frameAt   float64   // performance.now() of the last frame painted

	history []string // console history, oldest first
	histPos int

	errMsg       string
	errFromCheck bool // the error box holds a failed lesson check (cleared when the place moves)
	luaLoading   bool // the build with Lua is downloading (lua.go): the notice says so
	ready        bool

	execCost execCost       // perf.go: the Go time of typed commands
	sceneMs  float64        // the Go time of the last change's scene Update (perf.go)
	tview    transcriptView // what the transcript's DOM holds
	liveGen  uint64         // the player generation the live region last announced
	seenGen  uint64         // the player generation afterChange last looked at
	urlLive  bool           // the address follows the place (after start-up)
	shownURL string
	urlGen   uint64 // the player generation syncURL last saw
	// urlTokens, urlAt, urlPending: syncURL's budget of replaceState calls, when it was last
	// counted (performance.now() ms) and whether an address waits for budget (embed.go).
	urlTokens  float64
	urlAt      float64
	urlPending bool
	pageTitle  string
}

const stepInterval = 1600 * time.Millisecond

func newApp() *app {
	a := &app{lang: "vi", speed: 1, actions: make(chan func(), 64), scene: scene.New(""), urlTokens: urlBurst}
	// One reading of the address: every bad value is reported in the page's language and left at
	// its default (lesson/url.go).
	p, errs := lesson.ParseParams(ui.Query(), jsString(jsGlobal("location", "hash")), &lesson.DefaultLimits)
	a.lang = p.Lang
	var bad []string
	for _, err := range errs {
		bad = append(bad, lesson.ErrIn(err, a.lang))
	}
	emb.params = p
	cfg := lesson.Config{Version: engine.DefaultVersion, Limits: &lesson.DefaultLimits, Lang: a.lang} // limits.go
	if p.Version != 0 {
		cfg.Version = p.Version
	}
	if p.HasAlloc {
		cfg.Allocator = p.Allocator
	}
	// Only the headers at start-up (names and titles for the selector); a lesson is parsed when
	// it is opened: parsing all of them (100 000-element args lines) took ~2 s before the first
	// frame.
	// The list follows the course (lesson/course.go): grouped by article and section, in the
	// course's order, the lessons that follow no section last.
	srcOf := map[*lesson.Lesson][]byte{}
	var heads []*lesson.Lesson
	for _, src := range assets.Lessons() {
		h, err := lesson.ParseHeader(src.Name+".lesson", src.Src)
		if err != nil {
			bad = append(bad, err.Error())
			continue
		}
		heads = append(heads, h)
		srcOf[h] = src.Src
	}
	mark("headers") // perf.go: the lesson list's headers parsed
	a.groups = lesson.CourseGroups(heads)
	for _, g := range a.groups {
		for _, h := range g.Lessons {
			a.lessons = append(a.lessons, &builtinLesson{head: h, src: srcOf[h]})
		}
	}
	a.player = lesson.NewPlayer(cfg)
	a.reduced = ui.ReducedMotion()
	a.initDOM()
	mark("dom")
	// The lesson asked for, found in any case; an unknown one opens the first lesson and says so.
	first := "sandbox"
	if len(a.lessons) > 0 {
		first = a.lessons[0].head.Name
	}
	name := p.Lesson
	if name == "" {
		name = first
	} else if n, ok := a.lessonName(name); ok {
		name = n
	} else {
		bad = append(bad, fmt.Sprintf(assets.T(a.lang, "noLesson"), truncateRunes(name, 60), a.titleOf(first)))
		name = first
	}
	if err := a.loadLesson(name); err != nil {
		bad = append(bad, lesson.ErrIn(err, a.lang))
		a.loadLesson("sandbox")
	}
	bad = append(bad, a.initEmbed()...)      // embed.go: the other URL parameters, the share panel
	bad = append(bad, a.resumeHandover()...) // lua.go: a session the light build handed over
	if len(bad) > 0 {
		a.showError(strings.Join(bad, "; "))
	}
	return a
}

// lessonName is the built-in lesson's name for name in any case ("Leaderboard" → "leaderboard").
func (a *app) lessonName(name string) (string, bool) {
	if name == "sandbox" || name == customValue {
		return name, true
	}
	for _, l := range a.lessons {
		if l.head.Name == name {
			return name, true
		}
	}
	for _, l := range a.lessons {
		if strings.EqualFold(l.head.Name, name) {
			return l.head.Name, true
		}
	}
	return "", false
}

func (a *app) titleOf(name string) string {
	for _, l := range a.lessons {
		if l.head.Name == name {
			return l.head.Title.In(a.lang)
		}
	}
	return assets.T(a.lang, "sandbox")
}

// guard recovers a panic at an entry point and shows it; the page keeps working.
func (a *app) guard(where string) {
	if p := recover(); p != nil {
		a.showError(fmt.Sprintf(assets.T(a.lang, "panic"), where, p))
		println("redscope: recovered panic in", where, fmt.Sprint(p), string(debug.Stack()))
	}
}

func (a *app) showError(msg string) {
	a.errMsg = msg
	a.errFromCheck = false
	if api.Truthy() {
		api.Set("error", msg)
	}
	ui.ByID("errorText").SetText(assets.T(a.lang, "error") + ": " + msg)
	ui.ByID("error").SetBool("hidden", msg == "")
	ui.ByID("errReset").SetBool("hidden", true)
}

// showCheckError shows a failed check's message with a ↺ Reset button beside it.
func (a *app) showCheckError(msg string) {
	a.showError(msg)
	a.errFromCheck = true
	ui.ByID("errorText").SetText(msg)
	ui.ByID("errReset").SetBool("hidden", false)
}

// post hands a DOM event to the game loop without ever blocking.
func (a *app) post(f func()) {
	select {
	case a.actions <- f:
		scheduleFrame() // frames.go: Update runs it in the next frame
	default: // the loop is far behind; dropping a click is better than a deadlock
	}
}

// onValue runs apply with the control's value in the game loop on each event of the control
// (the scrubber, the speed and version lists).
func (a *app) onValue(id, event string, apply func(v string)) {
	el := ui.ByID(id)
	el.On(event, func(string) bool {
		v := el.Value()
		a.post(func() { apply(v) })
		return false
	})
}

// --- operations (shared by the DOM controls and the page API) ---

func (a *app) findLesson(name string) *lesson.Lesson {
	if l := customLesson(name); l != nil { // embed.go: a lesson from a link, a paste or a file
		return l
	}
	for _, l := range a.lessons {
		if l.head.Name == name {
			pl, err := l.parse()
			if err != nil { // assets.TestBuiltinLessons parses every one: not in a tested build
				a.showError(err.Error())
			}
			return pl
		}
	}
	return nil
}

// builtinLesson is a built-in lesson listed by its header and parsed when first opened.
type builtinLesson struct {
	head   *lesson.Lesson // name and title only (lesson.ParseHeader)
	src    []byte
	parsed *lesson.Lesson
}

func (b *builtinLesson) parse() (*lesson.Lesson, error) {
	if b.parsed == nil {
		l, err := lesson.Parse(b.head.Name+".lesson", b.src)
		if err != nil {
			return nil, err
		}
		b.parsed = l
	}
	return b.parsed, nil
}

func (a *app) loadLesson(name string) error {
	var l *lesson.Lesson
	if name != "" && name != "sandbox" {
		n, ok := a.lessonName(name)
		if ok {
			l = a.findLesson(n)
		}
		if l == nil {
			return lesson.Msgf("không có bài %q", "no lesson %q", truncateRunes(name, 60))
		}
	}
	if lessonNeedsLua(l) { // lua.go: this build has no Lua; the build with Lua opens it
		a.handOverLesson(l)
		return nil
	}
	a.playing = false
	a.player.Load(l)
	sc, keys := "", []string(nil)
	if l != nil {
		sc, keys = l.Scene, l.Keys
	}
	a.scene = scene.NewAuto(sc, keys) // the lesson's scene for its steps, the typed key's scene for the console
	ui.ByID("lesson").SetValue(nameOf(l))
	a.changed()
	return nil
}

func nameOf(l *lesson.Lesson) string {
	if l == nil {
		return "sandbox"
	}
	return l.Name
}

func (a *app) step() bool {
	ok := a.player.Step()
	if !ok {
		a.playing = false
	}
	a.changed()
	return ok
}

func (a *app) back() bool {
	a.playing = false
	ok := a.player.Back()
	a.changed()
	return ok
}

func (a *app) reset() {
	a.playing = false
	a.player.Reset()
	a.changed()
}

func (a *app) seek(n int) {
	a.playing = false
	a.player.Seek(n)
	a.changed()
}

func (a *app) exec(line string) lesson.Exchange {
	if line = strings.TrimSpace(line); lineNeedsLua(line) { // lua.go
		return a.handOverLine(line)
	}
	t0 := now()
	x := a.player.Exec(line)
	t1 := now()
	defer func() { a.execCost.add(t1-t0, now()-t1, a.sceneMs) }()
	if line != "" && (len(a.history) == 0 || a.history[len(a.history)-1] != line) {
		a.history = append(a.history, line)
	}
	a.histPos = len(a.history)
	if line != "" && !x.Error && x.Refused == "" && a.errMsg != "" {
		a.showError("") // the next command that succeeds clears the error box
	}
	a.changed()
	return x
}

func (a *app) setVersion(v engine.Version) {
	c := a.player.Config()
	c.Version = v
	a.player.SetConfig(c)
	a.changed()
}

func (a *app) togglePlay() {
	if a.player.Pos() >= a.player.Len() {
		a.playing = false
	} else {
		a.playing = !a.playing
		a.nextAt = time.Now() // first step right away
	}
	a.renderControls()
}

// changed rebuilds the scene and the DOM after the player moved.
//
// Its cost does not depend on how long the session is: the scene and the panels read
// Player.Recent (a bounded window), and the transcript appends only what is new.
func (a *app) changed() {
	t0 := now()
	a.scene.Update(scene.Input{Engine: a.player.Engine(), Keys: a.player.Watched(), Last: lesson.EngineExchanges(a.player.Recent()), Lang: a.lang})
	a.sceneMs = now() - t0
	a.changedAt = time.Now()
	a.redraw() // frames.go
	a.renderControls()
	a.renderClients()
	a.renderOutputs()
	a.renderAccess()
	setAPIVersion(a.player.Engine().Version().String())
	a.afterChange() // embed.go
}

// tick runs in Update: DOM actions, then autoplay.
func (a *app) tick() {
	for {
		select {
		case f := <-a.actions:
			a.dirty = true // frames.go: a posted action may change what the canvas shows
			func() {
				defer a.guard("action")
				f()
			}()
			continue
		default:
		}
		break
	}
	if a.playing && time.Now().After(a.nextAt) {
		a.step()
		a.nextAt = time.Now().Add(time.Duration(float64(stepInterval) / a.speed))
	}
	if a.playing {
		a.wakeAt(a.nextAt) // frames.go: the next step's frame
	}
	a.flushURL() // embed.go: an address put off by a burst of steps
	if a.urlPending {
		a.wakeAt(time.Now().Add(time.Second / urlRate)) // one call's budget is back by then
	}
}

// animT is the scene's animation progress.
func (a *app) animT() float64 {
	if a.reduced {
		return 1
	}
	t := time.Since(a.changedAt).Seconds() / 0.9
	if t > 1 {
		return 1
	}
	return t
}

// --- DOM ---

func (a *app) initDOM() {
	ui.SetLang(a.lang)
	// The lesson list: free play first, then one group per "article — section" of the course,
	// every label in the page's language.
	var groups []ui.OptGroup
	for _, g := range a.groups {
		og := ui.OptGroup{Label: g.Label(a.lang, assets.T(a.lang, "otherLessons"))}
		for _, l := range g.Lessons {
			og.Values = append(og.Values, l.Name)
			og.Labels = append(og.Labels, l.Title.In(a.lang))
		}
		groups = append(groups, og)
	}
	ui.ByID("lesson").GroupedOptions([]string{"sandbox"}, []string{assets.T(a.lang, "sandbox")}, groups)
	var vv, vl []string
	for _, v := range engine.Versions {
		vv = append(vv, v.String())
		vl = append(vl, "Redis "+v.String())
	}
	ui.ByID("version").Options(vv, vl)
	ui.ByID("speed").Options([]string{"0.5", "1", "2", "4"}, []string{"0.5×", "1×", "2×", "4×"})
	ui.ByID("speed").SetValue("1")
	for id, label := range map[string]string{"reset": "reset", "back": "back", "next": "next",
		"speedLabel": "speed", "lessonLabel": "lesson", "versionLabel": "version", "consoleLabel": "consoleLabel",
		"outputsTitle": "outputs", "hint": "keyboard", "about": "about", "errReset": "reset"} {
		ui.ByID(id).SetText(assets.T(a.lang, label))
	}
	ui.ByID("scrubber").SetAttr("aria-label", assets.T(a.lang, "scrubber"))
	ui.ByID("steps").SetAttr("aria-label", assets.T(a.lang, "steps"))
	ui.ByID("console").SetAttr("placeholder", assets.T(a.lang, "console"))
	lk := ui.ByID("langLink")
	lk.SetText(assets.T(a.lang, "lang"))
	lk.SetAttr("hreflang", a.otherLang())
	// Loading is over: the controls index.html disabled come alive (the step buttons are set by
	// renderControls).
	for _, id := range []string{"lesson", "version", "speed", "scrubber", "console"} {
		ui.ByID(id).SetBool("disabled", false)
	}

	a.initClients()
	ui.ByID("reset").On("click", func(string) bool { a.post(a.reset); return false })
	ui.ByID("errReset").On("click", func(string) bool { a.post(func() { a.reset(); a.showError("") }); return false })
	ui.ByID("back").On("click", func(string) bool { a.post(func() { a.back() }); return false })
	ui.ByID("play").On("click", func(string) bool { a.post(a.togglePlay); return false })
	ui.ByID("next").On("click", func(string) bool {
		a.post(func() { a.playing = false; a.step() })
		return false
	})
	a.onValue("scrubber", "input", func(v string) {
		if n, err := strconv.Atoi(v); err == nil {
			a.seek(n)
		}
	})
	a.onValue("speed", "change", func(v string) {
		if f, err := strconv.ParseFloat(v, 64); err == nil && f > 0 {
			a.speed = f
		}
	})
	// The lesson list: Chromium fires change on every arrow key of a closed <select>, which would
	// open each lesson passed over. After a navigation key (until the next pointer press) a change
	// only marks the choice as pending; Enter opens it, leaving the list without Enter puts back
	// the open lesson. A mouse (or touch) choice opens at once.
	ls := ui.ByID("lesson")
	keyboard, pending := false, false
	hint := ui.ByID("lessonHint")
	open := func() {
		v := ls.Value()
		pending = false
		hint.SetBool("hidden", true)
		a.post(func() {
			if v == a.currentName() {
				return
			}
			if err := a.loadLesson(v); err != nil {
				a.showError(lesson.ErrIn(err, a.lang))
			}
		})
	}
	ls.On("keydown", func(key string) bool {
		switch key {
		case "Enter":
			if pending {
				open()
				return true
			}
		case "Tab", "Shift", "Escape":
		default: // arrows, Home/End, Page keys and type-ahead all move the choice
			keyboard = true
		}
		return false
	})
	ls.On("pointerdown", func(string) bool { keyboard = false; return false })
	onChange := func(string) bool {
		switch {
		case ls.Value() == a.currentName():
			pending = false
			hint.SetBool("hidden", true)
		case keyboard:
			pending = true
			hint.SetText(assets.T(a.lang, "lessonPending"))
			hint.SetBool("hidden", false)
		default:
			open()
		}
		return false
	}
	ls.On("change", onChange)
	ls.On("input", onChange)
	ls.On("blur", func(string) bool {
		keyboard = false
		if pending {
			pending = false
			hint.SetBool("hidden", true)
			a.post(func() { ui.ByID("lesson").SetValue(a.currentName()) })
		}
		return false
	})
	a.onValue("version", "change", func(v string) {
		if ver, err := engine.ParseVersion(v); err == nil {
			a.setVersion(ver)
		}
	})
	con := ui.ByID("console")
	con.On("keydown", func(key string) bool {
		switch key {
		case "Enter":
			line := con.Value()
			con.SetValue("")
			a.post(func() { a.exec(line) })
			return true
		case "ArrowUp", "ArrowDown":
			if len(a.history) == 0 {
				return true
			}
			if key == "ArrowUp" {
				a.histPos = max(0, a.histPos-1)
			} else {
				a.histPos = min(len(a.history), a.histPos+1)
			}
			if a.histPos < len(a.history) {
				con.SetValue(a.history[a.histPos])
			} else {
				con.SetValue("")
			}
			return true
		}
		return false
	})
	ui.OnDocKey(func(key, tag string) bool {
		switch tag {
		case "INPUT", "SELECT", "TEXTAREA", "IFRAME":
			return false // their own keys (the scrubber's arrows, the console's history, the list)
		}
		switch key {
		case "ArrowRight":
			a.post(func() { a.playing = false; a.step() })
			return true
		case "ArrowLeft":
			a.post(func() { a.back() })
			return true
		case " ":
			if tag == "BUTTON" || tag == "SUMMARY" || tag == "A" {
				return false // the focused control's own activation
			}
			a.post(a.togglePlay)
			return true
		}
		return false
	})
}

func (a *app) otherLang() string {
	if a.lang == "en" {
		return "vi"
	}
	return "en"
}

// fixCanvas makes ebiten's canvas a well-behaved page element once it exists (the first Draw):
// ebiten gives it tabindex=1, which puts it first in the Tab order; 0 keeps the document order.
// index.html lets Tab and Shift+Tab leave it (ebiten cancels every key on it). It is an image
// with a name, described by #sceneDesc (renderAccess fills it from the scene).
func (a *app) fixCanvas() {
	c := ui.Query1("canvas")
	c.SetAttr("tabindex", "0")
	c.SetAttr("role", "img")
	c.SetAttr("aria-label", assets.T(a.lang, "canvas"))
	c.SetAttr("aria-describedby", "sceneDesc")
	c.SetAttr("id", "stage")
}

func (a *app) renderControls() {
	p := a.player
	l := p.Lesson()
	title := assets.T(a.lang, "sandbox")
	if l != nil {
		title = l.Title.In(a.lang)
	}
	// The *Once setters skip what did not change: a typed command changes none of this, and
	// writing the same texts again cost more than the command.
	ui.SetTextOnce("title", title)
	ui.SetTextOnce("caption", p.Caption(a.lang))
	stepText := fmt.Sprintf(assets.T(a.lang, "step"), p.Pos(), p.Len())
	ui.SetTextOnce("stepLabel", stepText)
	page := "redscope · " + assets.T(a.lang, "freePlay")
	if l != nil {
		page = title + " · " + stepText
	}
	if page != a.pageTitle {
		a.pageTitle = page
		ui.SetTitle(page)
	}
	ui.SetBoolOnce("about", "hidden", p.Pos() > 0)
	ui.SetAttrOnce("scrubber", "max", strconv.Itoa(p.Len()), false)
	ui.SetValueOnce("scrubber", strconv.Itoa(p.Pos()))
	ui.SetAttrOnce("scrubber", "aria-valuetext", stepText, false)
	ui.SetBoolOnce("back", "disabled", p.Pos() == 0)
	ui.SetBoolOnce("reset", "disabled", p.Pos() == 0 && len(p.Last()) == 0)
	ui.SetBoolOnce("next", "disabled", p.Pos() >= p.Len())
	ui.SetBoolOnce("play", "disabled", p.Pos() >= p.Len())
	if a.playing {
		ui.SetTextOnce("play", assets.T(a.lang, "pause"))
		ui.SetAttrOnce("play", "aria-pressed", "true", false)
	} else {
		ui.SetTextOnce("play", assets.T(a.lang, "play"))
		ui.SetAttrOnce("play", "aria-pressed", "false", false)
	}
	ui.SetValueOnce("version", p.Engine().Version().String())
	// A lesson whose `since` is newer than the selected profile says so (its newer commands answer
	// with the unknown-command error of the real older Redis).
	// While the build with Lua downloads (lua.go), the notice says so instead.
	if a.luaLoading {
		ui.SetTextOnce("notice", assets.T(a.lang, "luaLoading"))
	} else if v := p.Needs(); v != 0 {
		ui.SetTextOnce("notice", fmt.Sprintf(assets.T(a.lang, "needs"), v, p.Engine().Version()))
	}
	ui.SetBoolOnce("notice", "hidden", p.Needs() == 0 && !a.luaLoading)
}

// transcriptWindow is how many exchanges the transcript keeps in the DOM; the player keeps them
// all (Back, export, the API).
const transcriptWindow = 200

// transcriptView is what the transcript's DOM holds: the exchanges from..shown of Last at the
// player's generation gen.
type transcriptView struct {
	gen         uint64
	from, shown int
	nodes       int
}

func (a *app) renderOutputs() {
	a.renderTranscript()
	a.renderKeys()
}

// renderTranscript appends the exchanges not yet shown, or rebuilds the window when the player
// moved (Player.Gen); the DOM keeps at most transcriptWindow of them.
func (a *app) renderTranscript() {
	p, v := a.player, &a.tview
	last := p.Last()
	tr := ui.ByID("transcript")
	if p.Gen() != v.gen || v.shown > len(last) {
		tr.SetText("")
		v.nodes = 0
		*v = transcriptView{gen: p.Gen(), from: max(0, len(last)-transcriptWindow)}
		v.shown = v.from
	}
	fresh := v.shown < len(last)
	for i := max(v.shown, len(last)-transcriptWindow); i < len(last); i++ {
		a.appendExchange(tr, &last[i])
		v.nodes++
		for v.nodes > transcriptWindow {
			tr.RemoveFirst()
			v.nodes--
			v.from++
		}
	}
	if len(last)-transcriptWindow > v.from {
		v.from = len(last) - transcriptWindow
	}
	v.shown = len(last)
	switch {
	case v.from == 1:
		ui.SetTextOnce("transcriptMore", assets.T(a.lang, "transcriptMore1"))
	case v.from > 1:
		ui.SetTextOnce("transcriptMore", fmt.Sprintf(assets.T(a.lang, "transcriptMore"), group(int64(v.from))))
	}
	ui.SetBoolOnce("transcriptMore", "hidden", v.from == 0)
	ui.SetBoolOnce("transcript", "hidden", len(last) == 0)
	a.outputsEmpty(len(last) == 0, -1)
	if fresh {
		tr.ScrollToEnd()
	}
}

// appendExchange adds one exchange: its command line, its reply (red when an error) and its
// failed checks, each a line of its own.
func (a *app) appendExchange(tr ui.El, x *lesson.Exchange) {
	box := tr.Append("div", "x", "")
	if x.Advance != "" {
		box.Append("div", "adv", "◷ +"+x.Advance)
		return
	}
	who := ""
	if x.Client > 1 || (x.Client == 1 && a.player.MultiClient()) {
		who = fmt.Sprintf(assets.T(a.lang, "clientTag"), x.Client)
	}
	if x.Woken {
		box.Append("div", "woke", who+fmt.Sprintf(assets.T(a.lang, "wokenLine"), shortLine(x.Cmd)))
	} else {
		box.Append("div", "cmd", who+"> "+shortLine(x.Cmd))
	}
	switch {
	case x.Blocked:
		box.Append("div", "wait", fmt.Sprintf(assets.T(a.lang, "blockedLine"), shortLine(x.Cmd)))
	case x.Refused != "":
		box.Append("div", "reply err", a.refusedText(x))
	case x.Error:
		box.Append("div", "reply err", x.Reply)
	case x.Reply != "":
		box.Append("div", "reply", x.Reply)
	}
	for _, c := range x.Checks {
		if !c.OK {
			box.Append("div", "check err", a.checkText(c))
		}
	}
}

// shortLine is a typed line as the transcript shows it: a long one (a PFADD of 1 000 elements is
// 7 KB) is cut after 300 characters with its length, so the DOM's cost per command stays small;
// the player and the export keep the whole line.
func shortLine(s string) string {
	const keep = 300
	if len(s) <= keep+40 {
		return s
	}
	return truncateRunes(s, keep) + " (" + group(int64(len(s))) + " B)"
}

// refusedText is a refused command's message in the page's language.
func (a *app) refusedText(x *lesson.Exchange) string {
	detail := strings.TrimSuffix(strings.TrimPrefix(x.Reply, lesson.RefusedPrefix), " (limit "+x.Refused+")")
	return fmt.Sprintf(assets.T(a.lang, "refused"), assets.Limit(a.lang, x.Refused, detail), x.Refused)
}

// checkText says why a lesson's check failed: when the student typed commands before this step,
// which of them changed the key the check measures.
func (a *app) checkText(c lesson.CheckResult) string {
	want := ""
	kind, _, _ := strings.Cut(strings.TrimPrefix(c.Check, "expect "), " ")
	switch kind {
	case "encoding":
		want = fmt.Sprintf(assets.T(a.lang, "wantEncoding"), c.Key, c.Want)
	case "len":
		want = fmt.Sprintf(assets.T(a.lang, "wantLen"), c.Key, c.Want)
	case "type":
		want = fmt.Sprintf(assets.T(a.lang, "wantType"), c.Key, c.Want)
	default:
		want = fmt.Sprintf(assets.T(a.lang, "wantReply"), "«"+truncateRunes(c.Want, 80)+"»")
	}
	got := "«" + truncateRunes(c.Got, 80) + "»"
	typed := a.player.Typed()
	if len(typed) == 0 {
		return fmt.Sprintf(assets.T(a.lang, "checkPlain"), want, got)
	}
	if cul := a.player.Culprits(c); c.Key != "" && len(cul) > 0 {
		lines := make([]string, 0, 3)
		for i, l := range cul {
			if i == 3 {
				lines = append(lines, "…")
				break
			}
			lines = append(lines, "«"+truncateRunes(l, 60)+"»")
		}
		return fmt.Sprintf(assets.T(a.lang, "checkTyped"), strings.Join(lines, ", "), c.Key, want, got)
	}
	return fmt.Sprintf(assets.T(a.lang, "checkTypedAny"), want, got, len(typed))
}

// group writes n with narrow no-break spaces between groups of three digits ("6 176").
func group(n int64) string { return strings.ReplaceAll(numfmt.Group(n), " ", "\u202f") }

func (a *app) bytes(n int64) string {
	if n == 1 {
		return assets.T(a.lang, "bytesUnit1")
	}
	return fmt.Sprintf(assets.T(a.lang, "bytesUnit"), group(n))
}

// renderKeys lists the watched keys that exist, with what the picture does not show: TYPE,
// OBJECT ENCODING, MEMORY USAGE (marked when the profile's figure is modelled, not proven: engine
// /fidelity.go) and the time to live. Missing keys are not listed.
func (a *app) renderKeys() {
	var b strings.Builder
	e := a.player.Engine()
	for _, name := range a.player.Watched() {
		k := a.player.Key(name)
		if !k.Exists {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s · %s %s · OBJECT ENCODING %s · MEMORY USAGE %s", k.Key, assets.T(a.lang, "type"), k.Type, k.Encoding, a.bytes(k.Memory))
		if e.MemoryModelled(name) {
			b.WriteString(" (" + assets.T(a.lang, "modelled") + ")")
		}
		if k.TTLMs >= 0 {
			fmt.Fprintf(&b, " · PTTL %s", group(k.TTLMs))
		}
	}
	ui.SetTextOnce("keyinfo", b.String())
	ui.SetBoolOnce("keyinfo", "hidden", b.Len() == 0) // nothing to measure yet: no empty box, no list of missing keys
	a.outputsEmpty(len(a.player.Last()) == 0, b.Len())
}

// outputsEmpty hides the outputs' heading while there is neither a transcript nor a key to show.
func (a *app) outputsEmpty(noTranscript bool, keyText int) {
	if keyText < 0 {
		return // renderKeys decides, after it
	}
	ui.SetBoolOnce("outputsTitle", "hidden", noTranscript && keyText == 0)
}

// renderAccess writes what a screen reader needs: the canvas's text alternative (the scene's
// Describe, or a generic sentence) and the live region, which announces only the newest step's
// caption and reply, never the whole transcript.
func (a *app) renderAccess() {
	p := a.player
	desc := scene.Describe(a.scene)
	if desc == "" {
		title := assets.T(a.lang, "sandbox")
		if l := p.Lesson(); l != nil {
			title = "“" + l.Title.In(a.lang) + "”"
		}
		where := fmt.Sprintf(assets.T(a.lang, "step"), p.Pos(), p.Len())
		var keys []string
		for _, name := range p.Watched() {
			if k := p.Key(name); k.Exists {
				keys = append(keys, fmt.Sprintf("%s (%s, %s, %s)", k.Key, k.Type, k.Encoding, a.bytes(k.Memory)))
			}
		}
		if len(keys) == 0 {
			desc = fmt.Sprintf(assets.T(a.lang, "sceneNoKeys"), title, where)
		} else {
			desc = fmt.Sprintf(assets.T(a.lang, "sceneGeneric"), title, where, strings.Join(keys, "; "))
		}
	}
	ui.SetTextOnce("sceneDesc", desc)
	var say []string
	if p.Gen() != a.liveGen {
		a.liveGen = p.Gen()
		if c := p.Caption(a.lang); c != "" {
			say = append(say, c)
		}
	}
	if last := p.Last(); len(last) > 0 {
		x := last[len(last)-1]
		switch {
		case x.Refused != "":
			say = append(say, a.refusedText(&x))
		case x.Cmd != "":
			say = append(say, fmt.Sprintf(assets.T(a.lang, "liveReply"), truncateRunes(x.Cmd, 120), truncateRunes(x.Reply, 200)))
		}
	}
	if len(say) > 0 {
		ui.ByID("live").SetText(strings.Join(say, " "))
	}
}

// initClients wires the console's client tabs (client 1 … lesson.Clients: buttons with
// aria-pressed, reached by Tab) and the clock button (advance 1s, as a console line: it is
// replayed like one, so Back and Reset stay exact).
func (a *app) initClients() {
	ui.ByID("clients").SetAttr("aria-label", assets.T(a.lang, "clients"))
	clk := ui.ByID("clock")
	clk.SetText(assets.T(a.lang, "clock"))
	clk.SetAttr("title", assets.T(a.lang, "clockTitle"))
	clk.On("click", func(string) bool { a.post(func() { a.exec("advance 1s") }); return false })
	for n := 1; n <= lesson.Clients; n++ {
		n := n
		ui.ByID(fmt.Sprintf("client%d", n)).On("click", func(string) bool {
			a.post(func() { a.setClient(n) })
			return false
		})
	}
}

// setClient makes client n the console's.
func (a *app) setClient(n int) bool {
	if !a.player.SetActiveClient(n) {
		return false
	}
	a.renderClients()
	return true
}

// renderClients labels the tabs: pressed for the console's client, "◷ blocked: BRPOP jobs 0"
// for a client that waits.
func (a *app) renderClients() {
	p := a.player
	for n := 1; n <= lesson.Clients; n++ {
		id := fmt.Sprintf("client%d", n)
		label := fmt.Sprintf(assets.T(a.lang, "client"), n)
		w := p.Waiting(n)
		if w != "" {
			label = fmt.Sprintf(assets.T(a.lang, "clientWait"), n, shortLine(w))
		}
		// On a cluster the console talks to the connected node: one tab, named after it.
		node := p.ClusterNode()
		ui.SetBoolOnce(id, "hidden", node != "" && n > 1)
		if node != "" && n == 1 {
			label = fmt.Sprintf(assets.T(a.lang, "clientNode"), node)
		}
		ui.SetTextOnce(id, label)
		ui.SetAttrOnce(id, "aria-pressed", fmt.Sprint(n == p.ActiveClient()), false)
		ui.SetAttrOnce(id, "class", "blocked", w == "")
	}
}
