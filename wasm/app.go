//go:build js && wasm

package main

import (
	"fmt"
	"net/url"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"redscope/assets"
	"redscope/engine"
	"redscope/engine/alloc"
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
	lessons []*builtinLesson // listed by header, parsed when opened
	player  *lesson.Player
	scene   scene.Scene
	reduced bool

	actions chan func() // DOM events → game loop

	changedAt time.Time // when the scene last changed (animation start)
	playing   bool
	speed     float64
	nextAt    time.Time

	history []string // console history, oldest first
	histPos int

	errMsg string
	ready  bool
}

const stepInterval = 1600 * time.Millisecond

func newApp() *app {
	a := &app{lang: "vi", speed: 1, actions: make(chan func(), 64)}
	q, _ := url.ParseQuery(strings.TrimPrefix(ui.Query(), "?"))
	if q.Get("lang") == "en" {
		a.lang = "en"
	}
	cfg := lesson.Config{Version: engine.DefaultVersion, Limits: &lesson.DefaultLimits, Lang: a.lang} // limits.go
	var bad []string
	if v := q.Get("version"); v != "" {
		if ver, err := engine.ParseVersion(v); err == nil {
			cfg.Version = ver
		} else {
			bad = append(bad, err.Error())
		}
	}
	if s := q.Get("allocator"); s != "" {
		if al, err := alloc.Parse(s); err == nil {
			cfg.Allocator = al
		} else {
			bad = append(bad, err.Error())
		}
	}
	// Only the headers at start-up (names and titles for the selector); a lesson is parsed when
	// it is opened: parsing all of them (100 000-element args lines) took ~2 s before the first
	// frame.
	for _, src := range assets.Lessons() {
		h, err := lesson.ParseHeader(src.Name+".lesson", src.Src)
		if err != nil {
			bad = append(bad, err.Error())
			continue
		}
		a.lessons = append(a.lessons, &builtinLesson{head: h, src: src.Src})
	}
	a.player = lesson.NewPlayer(cfg)
	a.reduced = ui.ReducedMotion()
	name := q.Get("lesson")
	if name == "" && len(a.lessons) > 0 {
		name = a.lessons[0].head.Name
	}
	a.initDOM()
	if err := a.loadLesson(name); err != nil {
		bad = append(bad, err.Error())
	}
	bad = append(bad, a.initEmbed()...) // embed.go: the other URL parameters, the share panel
	if len(bad) > 0 {
		a.showError(strings.Join(bad, "; "))
	}
	return a
}

// guard recovers a panic at an entry point and shows it; the page keeps working.
func (a *app) guard(where string) {
	if p := recover(); p != nil {
		a.showError(fmt.Sprintf("%s: %v", where, p))
		println("redscope: recovered panic in", where, fmt.Sprint(p), string(debug.Stack()))
	}
}

func (a *app) showError(msg string) {
	a.errMsg = msg
	if api.Truthy() {
		api.Set("error", msg)
	}
	e := ui.ByID("error")
	e.SetText(assets.T(a.lang, "error") + ": " + msg)
	e.SetBool("hidden", msg == "")
}

// post hands a DOM event to the game loop without ever blocking.
func (a *app) post(f func()) {
	select {
	case a.actions <- f:
	default: // the loop is far behind; dropping a click is better than a deadlock
	}
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
		l = a.findLesson(name)
		if l == nil {
			return fmt.Errorf("no lesson %q", name)
		}
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
	x := a.player.Exec(line)
	if line = strings.TrimSpace(line); line != "" && (len(a.history) == 0 || a.history[len(a.history)-1] != line) {
		a.history = append(a.history, line)
	}
	a.histPos = len(a.history)
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
func (a *app) changed() {
	a.scene.Update(scene.Input{Engine: a.player.Engine(), Keys: a.player.Watched(), Last: a.player.Last(), Lang: a.lang})
	a.changedAt = time.Now()
	a.renderControls()
	a.renderOutputs()
	setAPIVersion(a.player.Engine().Version().String())
	a.afterChange() // embed.go
}

// tick runs in Update: DOM actions, then autoplay.
func (a *app) tick() {
	for {
		select {
		case f := <-a.actions:
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
	vals := []string{"sandbox"}
	labels := []string{assets.T(a.lang, "sandbox")}
	for _, l := range a.lessons {
		vals = append(vals, l.head.Name)
		labels = append(labels, l.head.Title.In(a.lang))
	}
	ui.ByID("lesson").Options(vals, labels)
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
		"outputsTitle": "outputs", "hint": "keyboard"} {
		ui.ByID(id).SetText(assets.T(a.lang, label))
	}
	ui.ByID("scrubber").SetAttr("aria-label", assets.T(a.lang, "scrubber"))
	ui.ByID("console").SetAttr("placeholder", assets.T(a.lang, "console"))
	other := "en"
	if a.lang == "en" {
		other = "vi"
	}
	lk := ui.ByID("langLink")
	lk.SetText(assets.T(a.lang, "lang"))
	lk.SetAttr("href", "?lang="+other)
	lk.SetAttr("hreflang", other)

	ui.ByID("reset").On("click", func(string) bool { a.post(a.reset); return false })
	ui.ByID("back").On("click", func(string) bool { a.post(func() { a.back() }); return false })
	ui.ByID("play").On("click", func(string) bool { a.post(a.togglePlay); return false })
	ui.ByID("next").On("click", func(string) bool {
		a.post(func() { a.playing = false; a.step() })
		return false
	})
	scrub := ui.ByID("scrubber")
	scrub.On("input", func(string) bool {
		v := scrub.Value()
		a.post(func() {
			if n, err := strconv.Atoi(v); err == nil {
				a.seek(n)
			}
		})
		return false
	})
	sp := ui.ByID("speed")
	sp.On("change", func(string) bool {
		v := sp.Value()
		a.post(func() {
			if f, err := strconv.ParseFloat(v, 64); err == nil && f > 0 {
				a.speed = f
			}
		})
		return false
	})
	ls := ui.ByID("lesson")
	ls.On("change", func(string) bool {
		v := ls.Value()
		a.post(func() {
			if err := a.loadLesson(v); err != nil {
				a.showError(err.Error())
			}
		})
		return false
	})
	vs := ui.ByID("version")
	vs.On("change", func(string) bool {
		v := vs.Value()
		a.post(func() {
			if ver, err := engine.ParseVersion(v); err == nil {
				a.setVersion(ver)
			}
		})
		return false
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
		if tag == "INPUT" || tag == "SELECT" || tag == "TEXTAREA" {
			return false
		}
		switch key {
		case "ArrowRight":
			a.post(func() { a.playing = false; a.step() })
			return true
		case "ArrowLeft":
			a.post(func() { a.back() })
			return true
		case " ":
			if tag == "BUTTON" {
				return false // the focused button's own activation
			}
			a.post(a.togglePlay)
			return true
		}
		return false
	})
}

func (a *app) renderControls() {
	p := a.player
	l := p.Lesson()
	title := assets.T(a.lang, "sandbox")
	if l != nil {
		title = l.Title.In(a.lang)
	}
	ui.ByID("title").SetText(title)
	ui.ByID("caption").SetText(p.Caption(a.lang))
	ui.ByID("stepLabel").SetText(fmt.Sprintf(assets.T(a.lang, "step"), p.Pos(), p.Len()))
	sc := ui.ByID("scrubber")
	sc.SetAttr("max", strconv.Itoa(p.Len()))
	sc.SetValue(strconv.Itoa(p.Pos()))
	sc.SetAttr("aria-valuetext", fmt.Sprintf(assets.T(a.lang, "step"), p.Pos(), p.Len()))
	ui.ByID("back").SetBool("disabled", p.Pos() == 0)
	ui.ByID("reset").SetBool("disabled", p.Pos() == 0 && len(p.Last()) == 0)
	ui.ByID("next").SetBool("disabled", p.Pos() >= p.Len())
	play := ui.ByID("play")
	play.SetBool("disabled", p.Pos() >= p.Len())
	if a.playing {
		play.SetText(assets.T(a.lang, "pause"))
		play.SetAttr("aria-pressed", "true")
	} else {
		play.SetText(assets.T(a.lang, "play"))
		play.SetAttr("aria-pressed", "false")
	}
	ui.ByID("version").SetValue(p.Engine().Version().String())
	// A lesson whose `since` is newer than the selected profile says so (its newer commands answer
	// with the unknown-command error of the real older Redis).
	notice := ui.ByID("notice")
	if v := p.Needs(); v != 0 {
		notice.SetText(fmt.Sprintf(assets.T(a.lang, "needs"), v, p.Engine().Version()))
	}
	notice.SetBool("hidden", p.Needs() == 0)
}

func (a *app) renderOutputs() {
	var b strings.Builder
	for _, x := range a.player.Last() {
		if x.Advance != "" {
			fmt.Fprintf(&b, "⏱ +%s\n", x.Advance)
			continue
		}
		fmt.Fprintf(&b, "> %s\n%s\n", x.Cmd, x.Reply)
		for _, c := range x.Checks {
			if !c.OK {
				fmt.Fprintf(&b, "✗ %s: %s (%s)\n", assets.T(a.lang, "checkFail"), c.Check, c.Got)
			}
		}
	}
	ui.ByID("transcript").SetText(strings.TrimRight(b.String(), "\n"))
	b.Reset()
	for _, k := range a.player.State().Outputs.Keys {
		if !k.Exists {
			fmt.Fprintf(&b, "%s  %s\n", k.Key, assets.T(a.lang, "missing"))
			continue
		}
		fmt.Fprintf(&b, "%s  %s: %s · OBJECT ENCODING: %s", k.Key, assets.T(a.lang, "type"), k.Type, k.Encoding)
		if k.HLL != "" {
			fmt.Fprintf(&b, " (HLL %s)", k.HLL)
		}
		if k.Len >= 0 {
			fmt.Fprintf(&b, "\n   STRLEN: %d", k.Len)
		}
		fmt.Fprintf(&b, " · MEMORY USAGE: %d", k.Memory)
		if k.SDS != nil && k.Encoding == "raw" {
			fmt.Fprintf(&b, "\n   %s len %d · alloc %d · avail %d · malloc %d", k.SDS.Type, k.SDS.Len, k.SDS.Alloc, k.SDS.Avail, k.SDS.Usable)
		}
		if k.TTLMs >= 0 {
			fmt.Fprintf(&b, " · PTTL %d", k.TTLMs)
		}
		b.WriteByte('\n')
	}
	ki := ui.ByID("keyinfo")
	ki.SetText(strings.TrimRight(b.String(), "\n"))
	ki.SetBool("hidden", b.Len() == 0) // a lesson without keys (the ring) shows no empty box
}
