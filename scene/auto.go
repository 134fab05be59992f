package scene

import (
	"fmt"
	"strings"

	"redscope/engine"
	"redscope/internal/fields"
	"redscope/ring"
)

// Auto is the scene the page draws. It wraps the lesson's own scene (none in free play) and
// picks, after every change, what to draw:
//
//   - a lesson step: the lesson's scene, with the whole step;
//   - a command typed in the console: the scene of the key it touched — chosen from the key's
//     type and encoding as the engine holds them, and the command's group in the command table
//     (strings → sds, a bitmap command → bits, a HyperLogLog string or PF* → hll, hashes and sets
//     → encoding, sorted sets → zset, lists → list, Bloom filters → bloom, streams → stream) —
//     drawing only that
//     command; a key the lesson's scene shows (one of the lesson's keys) stays with the lesson's
//     scene;
//   - a command that names no key (PING, DBSIZE, an unknown command): what the last typed command
//     that named one drew, read back from the position's exchanges (so Back redraws the same
//     picture), else the lesson's scene, else the key list;
//   - a key that no longer exists (DEL, the last LPOP): the key list.
//
// The key touched is the last key a trace event names that still exists, else the first key the
// command table's key positions name that exists. An error reply of a console command is drawn as
// a red band over the picture until the next command that succeeds.
//
// A script (EVAL, EVALSHA, FCALL…) is drawn as the commands it ran: when the last exchange's
// events hold a ScriptEvent, a panel above the key's scene lists each redis.call / redis.pcall
// with its script line and reply (its ScriptCallEvents, in order), and the key scene below shows
// the key the script last wrote (the last key its commands' events name that still exists).
type Auto struct {
	base       Scene
	baseName   string
	lessonKeys map[string]bool
	scenes     map[string]Scene // one instance per scene name, for typed keys
	cur        Scene
	curName    string
	key        string
	sub        Input // what cur was last updated with (a keyless command redraws it)
	ErrCmd     string
	ErrText    string
	Script     *scriptRun // the last exchange ran a script: its commands
	lang       string
}

// scriptRun is what one script did, from its trace events.
type scriptRun struct {
	Cmd     string // the EVAL / FCALL line
	Name    string // SHA1 or function name
	Outcome string // "end", "error", "killed", "stopped"; "" when the end was not traced
	Calls   []engine.ScriptCallEvent
}

// scriptOf reads a script's run from an exchange's events (nil when it ran none).
func scriptOf(x *engine.Exchange) *scriptRun {
	if x == nil {
		return nil
	}
	var run *scriptRun
	depth := 0
	for _, ev := range x.Events {
		switch e := ev.(type) {
		case engine.ScriptEvent:
			if e.Action == "start" {
				if run == nil {
					run = &scriptRun{Cmd: x.Cmd, Name: e.Script}
				}
				depth++
			} else {
				depth--
				if depth == 0 && run != nil {
					run.Outcome = e.Action
				}
			}
		case engine.ScriptCallEvent:
			if run != nil && depth == 1 {
				run.Calls = append(run.Calls, e)
			}
		}
	}
	return run
}

// NewAuto returns the page's scene for a lesson whose scene is called name ("" in free play) and
// whose keys are lessonKeys.
func NewAuto(name string, lessonKeys []string) *Auto {
	a := &Auto{scenes: map[string]Scene{}, lessonKeys: map[string]bool{}}
	if name != "" {
		a.baseName = name
		if _, ok := registry[name]; !ok {
			a.baseName = "keys"
		}
		a.base = New(name)
	}
	for _, k := range lessonKeys {
		a.lessonKeys[k] = true
	}
	return a
}

// inner is the scene drawn now.
func (a *Auto) inner() Scene { return a.cur }

func (a *Auto) instance(name string) Scene {
	if sc, ok := a.scenes[name]; ok {
		return sc
	}
	sc := New(name)
	a.scenes[name] = sc
	return sc
}

// Update implements Scene.
func (a *Auto) Update(in Input) {
	a.lang = in.Lang
	x := lastExchange(in.Last)
	a.ErrCmd, a.ErrText = "", ""
	if x != nil && x.Console && x.Error {
		a.ErrCmd, a.ErrText = x.Cmd, x.Reply
		if x.Refused != "" { // the page's limits, not Redis: said in the page's language
			a.ErrText = tr(a.lang, "refused by the app's limit %s: the command did not run",
				"giới hạn %s của ứng dụng đã từ chối: lệnh không chạy", x.Refused)
		}
	}
	a.Script = scriptOf(x)
	// The exchange to draw: the last typed one that named a key, or the last picture.
	for i := len(in.Last) - 1; i >= 0; i-- {
		y := &in.Last[i]
		if y.Cmd == "" {
			continue
		}
		if !y.Console {
			a.step(in) // back to the lesson's step
			return
		}
		if in.Engine.Cluster() != nil { // on a cluster every typed line is drawn on its slot map
			a.named(in, "cluster")
			return
		}
		// One split of the line for both (a PFADD of 1 000 elements is a 7 KB line), the
		// player's when it kept it.
		args, err := y.Args, error(nil)
		if args == nil {
			args, err = engine.SplitArgs(y.Cmd)
		}
		if ring.IsLine(y.Cmd) || isKeyslotArgs(*y, args, err) {
			a.ring(in)
			return
		}
		touched := touchedKeysArgs(in.Engine, *y, args, err)
		if len(touched) == 0 {
			continue // PING, DBSIZE, an unknown command: what came before
		}
		a.typed(in, *y, touched)
		return
	}
	if a.base != nil || a.cur == nil {
		a.step(in)
		return
	}
	// Free play and nothing typed named a key since: the last picture, redrawn from the engine.
	sub := a.sub
	sub.Engine, sub.Lang = in.Engine, in.Lang
	a.use(a.cur, a.curName, sub)
}

// step draws a lesson's step (or position 0): the lesson's scene, else the key list.
func (a *Auto) step(in Input) {
	if x := lastExchange(in.Last); x != nil && dumpOf([]engine.Exchange{*x}) != nil { // a step ending in DUMP: its payload (dump.go)
		a.use(a.instance("dump"), "dump", in)
		return
	}
	if a.base != nil {
		a.use(a.base, a.baseName, in)
		return
	}
	a.use(a.instance("keys"), "keys", in)
}

func (a *Auto) ring(in Input) { a.named(in, "ring") }

// named draws with scene name: the lesson's own scene when it is that one.
func (a *Auto) named(in Input, name string) {
	if a.baseName == name {
		a.use(a.base, name, in)
		return
	}
	a.use(a.instance(name), name, in)
}

// typed draws exchange x, which touched keys.
func (a *Auto) typed(in Input, x engine.Exchange, touched []string) {
	key := primaryKey(in.Engine, x, touched)
	if key == "" {
		// The key is gone (DEL, the last pop): the key list.
		a.use(a.instance("keys"), "keys", Input{Engine: in.Engine, Last: []engine.Exchange{x}, Lang: in.Lang})
		return
	}
	if dumpOf([]engine.Exchange{x}) != nil { // DUMP: its payload's byte map (dump.go)
		a.use(a.instance("dump"), "dump", Input{Engine: in.Engine, Keys: []string{key}, Last: []engine.Exchange{x}, Lang: in.Lang})
		return
	}
	if a.base != nil && a.lessonKeys[key] {
		a.use(a.base, a.baseName, in)
		return
	}
	name := sceneFor(in.Engine, x, key)
	keys := []string{key}
	draw := map[string]bool{key: true}
	for _, k := range touched {
		if !draw[k] && sceneFor(in.Engine, x, k) == name {
			keys = append(keys, k)
			draw[k] = true
		}
	}
	// Only the events about the keys drawn (RENAME's old name, SMOVE's emptied source are gone).
	// When all of them are (a PFADD's 1 000 events about its one key), x's own list, not a copy.
	y := x
	y.Events = nil
	if allAbout(x.Events, draw) && len(x.Events) > 0 {
		y.Events = x.Events[:len(x.Events):len(x.Events)]
	} else {
		for _, ev := range x.Events {
			if k, ok := rawKey(ev); !ok || draw[k] {
				y.Events = append(y.Events, ev)
			}
		}
	}
	a.use(a.instance(name), name, Input{Engine: in.Engine, Keys: keys, Last: []engine.Exchange{y}, Lang: in.Lang})
}

// allAbout: every event of evs that names a key (rawKey) names one of draw.
func allAbout(evs []engine.Event, draw map[string]bool) bool {
	prev, havePrev := "", false
	for _, ev := range evs {
		k, ok := rawKey(ev)
		if !ok || havePrev && k == prev {
			continue // a PFADD's 1 000 events about its key: one comparison each, no map lookup
		}
		if !draw[k] {
			return false
		}
		prev, havePrev = k, true
	}
	return true
}

// rawKey is the key an event's Key field names (RENAME's old name, unlike eventKey).
func rawKey(ev engine.Event) (string, bool) {
	if k, ok := ev.(engine.KeyEvent); ok {
		return k.Key, true
	}
	return eventKey(ev)
}

func (a *Auto) use(sc Scene, name string, in Input) {
	sc.Update(in)
	a.cur, a.curName, a.sub = sc, name, in
	a.key = drawnKey(sc)
}

// lastExchange is the last exchange that ran a command (clock moves skipped).
func lastExchange(xs []engine.Exchange) *engine.Exchange {
	for i := len(xs) - 1; i >= 0; i-- {
		if xs[i].Cmd != "" {
			return &xs[i]
		}
	}
	return nil
}

func isKeyslot(x engine.Exchange) bool {
	_, ok := parseKeyslot(x)
	return ok
}

// isKeyslotArgs is isKeyslot given x's line already split (args, err: engine.SplitArgs(x.Cmd)):
// only a line of three arguments starting CLUSTER KEYSLOT is parsed again.
func isKeyslotArgs(x engine.Exchange, args [][]byte, err error) bool {
	if err != nil || len(args) != 3 || !strings.EqualFold(string(args[0]), "cluster") || !strings.EqualFold(string(args[1]), "keyslot") {
		return false
	}
	return isKeyslot(x)
}

// touchedKeys lists the keys one exchange touched: those its trace events name, in the order
// they happened, then those the command table's key positions name.
func touchedKeys(e *engine.Engine, x engine.Exchange) []string {
	args, err := engine.SplitArgs(x.Cmd)
	return touchedKeysArgs(e, x, args, err)
}

// touchedKeysArgs is touchedKeys given x's line already split (args, err: engine.SplitArgs(x.Cmd)).
func touchedKeysArgs(e *engine.Engine, x engine.Exchange, args [][]byte, err error) []string {
	var out []string
	seen := map[string]bool{}
	add := func(k string) {
		if len(out) > 0 && out[len(out)-1] == k {
			return // the same key as the event before (a PFADD's 1 000 events): no map lookup
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	for _, ev := range x.Events {
		if k, ok := eventKey(ev); ok {
			add(k)
		}
	}
	if err == nil {
		keys, _ := e.CommandKeys(args) // a call that names no key gives none
		for _, k := range keys {
			add(k)
		}
	}
	return out
}

// primaryKey is the key a typed command is drawn by: the last key an event named that still
// exists, else the first key of the command that exists; "" when none does.
func primaryKey(e *engine.Engine, x engine.Exchange, touched []string) string {
	for i := len(x.Events) - 1; i >= 0; i-- {
		if k, ok := eventKey(x.Events[i]); ok && e.Peek([]byte(k)) != nil {
			return k
		}
	}
	for _, k := range touched {
		if e.Peek([]byte(k)) != nil {
			return k
		}
	}
	return ""
}

// eventKey is the key an event is about (the lesson's list, and the container events).
func eventKey(ev engine.Event) (string, bool) {
	if k, ok := containerKey(ev); ok {
		return k, true
	}
	switch e := ev.(type) {
	case engine.ListEvent:
		return e.Key, true
	case engine.QuicklistEvent:
		return e.Key, true
	case engine.BitScanEvent:
		return e.Key, true
	case engine.BitopEvent:
		return e.Dest, true
	case engine.StreamEvent:
		return e.Key, true
	case engine.KeyEvent:
		if e.Action == "renamed" {
			return e.To, true
		}
	}
	return engine.EventKey(ev)
}

// sceneFor names the scene that draws key after exchange x, from the engine's type and encoding
// of the key and the command's group in the command table.
func sceneFor(e *engine.Engine, x engine.Exchange, key string) string {
	o := e.Peek([]byte(key))
	if o == nil {
		return "keys"
	}
	group := ""
	if f := fields.First(x.Cmd); f != "" {
		group = engine.CommandGroup(strings.ToLower(f))
	}
	switch o.Type {
	case engine.TypeString:
		if e.Inspect(key).HLL != "" || group == "hyperloglog" {
			return "hll"
		}
		if group == "bitmap" {
			return "bits"
		}
		return "sds"
	case engine.TypeHash, engine.TypeSet:
		return "encoding"
	case engine.TypeZSet:
		return "zset"
	case engine.TypeList:
		return "list"
	case engine.TypeBloom:
		return "bloom"
	case engine.TypeStream:
		return "stream"
	}
	return "keys"
}

// drawnKey is the key scene sc draws now.
func drawnKey(sc Scene) string {
	switch s := sc.(type) {
	case *Auto:
		return s.key
	case *sdsScene:
		if len(s.Keys) > 0 {
			return s.Keys[0].Info.Key
		}
		return ""
	case *bitsScene:
		return s.Key
	case *HLL:
		return s.Key
	case *encodingScene:
		return s.Key
	case *zsetScene:
		return s.Key
	case *bloomScene:
		return s.Key
	case *listScene, *keysScene:
		_, k := Focus(sc)
		return k
	}
	_, k := Focus(sc)
	return k
}

// Focus implements Focuser.
func (a *Auto) Focus() (string, string) { return a.curName, a.key }

// Describe implements Describer: the inner scene's text, after the error and the script's
// commands when there are; a scene without its own text gets the key's figures.
func (a *Auto) Describe() string {
	d := Describe(a.cur)
	if d == "" && a.key != "" && a.sub.Engine != nil {
		d = keySentence(a.lang, a.sub.Engine.Inspect(a.key))
	}
	if a.Script != nil {
		sc := a.Script.describe(a.lang)
		if a.key != "" && len(a.Script.Calls) > 0 {
			sc += tr(a.lang, "; drawn: %s", "; đang vẽ: %s", a.key)
		}
		if d == "" {
			d = sc
		} else {
			d = sc + ". " + d
		}
	}
	if a.ErrText != "" {
		e := tr(a.lang, "Error: %s → %s", "Lỗi: %s → %s", a.ErrCmd, a.ErrText)
		if d == "" {
			return e
		}
		return e + ". " + d
	}
	return d
}

// describe is e.g. "the script ran 3 commands: line 1 SET a 1 → OK; line 2 INCR n → (integer) 1".
func (r *scriptRun) describe(lang string) string {
	n := len(r.Calls)
	cmds := tr(lang, "%d commands", "%d lệnh", n)
	if n == 1 && lang == "en" {
		cmds = "1 command"
	}
	var parts []string
	for _, c := range r.Calls {
		parts = append(parts, tr(lang, "line %d %s → %s", "dòng %d %s → %s", c.Line, strings.Join(c.Cmd, " "), replyLine(c.Reply)))
	}
	out := tr(lang, "the script ran %s", "script đã chạy %s", cmds)
	if len(parts) > 0 {
		out += ": " + strings.Join(parts, "; ")
	}
	return out
}

// replyLine is a reply as redis-cli prints it, on one line.
func replyLine(r engine.Reply) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(r.FormatCLI(), "\n", " ")), " ")
}

// scriptMaxLines is how many of a script's commands the panel lists.
const scriptMaxLines = 6

// scriptPanel draws the script's commands at the top of r; it returns the panel's height.
func (a *Auto) scriptPanel(l *list, r Rect) float64 {
	f := fontSize(r)
	size := max(f*0.8, 11)
	w := r.W - f*1.2
	run := a.Script
	n := len(run.Calls)
	head := tr(a.lang, "script · %d commands", "script · %d lệnh", n)
	if n == 1 && a.lang == "en" {
		head = "script · 1 command"
	}
	lines := []string{clipTo("> "+run.Cmd, w, size), clipTo(head, w, size)}
	for i, c := range run.Calls {
		if i == scriptMaxLines-1 && n > scriptMaxLines {
			lines = append(lines, tr(a.lang, "… %d more", "… thêm %d", n-i))
			break
		}
		txt := tr(a.lang, "line %d: %s → %s", "dòng %d: %s → %s", c.Line, strings.Join(c.Cmd, " "), replyLine(c.Reply))
		lines = append(lines, clipTo(txt, w, size))
	}
	h := float64(len(lines))*size*1.3 + f*0.6
	l.rect(r.X, r.Y, r.W, h, panelC)
	l.rect(r.X, r.Y, f*0.25, h, accent)
	for i, s := range lines {
		c := textColor
		if i == 1 {
			c = dim
		}
		if i >= 2 && i-2 < n && run.Calls[i-2].Reply.IsError() {
			c = ErrorC
		}
		l.text(r.X+f*0.6, r.Y+f*0.3+float64(i)*size*1.3, s, size, c, Left, true)
	}
	return h
}

// keySentence states a key's type, encoding, length and MEMORY USAGE.
func keySentence(lang string, k engine.KeyInfo) string {
	if !k.Exists {
		return tr(lang, "%s does not exist", "%s không tồn tại", k.Key)
	}
	s := fmt.Sprintf("%s %s: %s", k.Type, k.Key, k.Encoding)
	if k.Len >= 0 {
		s += tr(lang, ", %d bytes", ", %d byte", k.Len)
	}
	return s + fmt.Sprintf(", MEMORY USAGE %d B", k.Memory)
}

// Frame implements Scene: the inner scene, the error band at the top when the last typed command
// failed (the command, then the reply wrapped at word boundaries, at most errLines lines), and
// below it the script's commands when the last exchange ran a script.
func (a *Auto) Frame(r Rect, t float64) []Prim {
	if a.cur == nil {
		return nil
	}
	if a.ErrText == "" && a.Script == nil {
		return a.cur.Frame(r, t)
	}
	var l list
	top := 0.0
	if a.ErrText != "" {
		f := fontSize(r)
		size := f * 0.8
		w := r.W - f*1.2
		lines := append([]string{"> " + a.ErrCmd}, wrapMono(a.ErrText, w, size, errLines)...)
		for i := range lines {
			lines[i] = clipTo(lines[i], w, size)
		}
		bandH := float64(len(lines))*size*1.3 + f*0.6
		l.rect(r.X, r.Y, r.W, bandH, ErrorC)
		for i, s := range lines {
			l.text(r.X+f*0.6, r.Y+f*0.3+float64(i)*size*1.3, s, size, textOn(ErrorC), Left, true)
		}
		top = bandH
	}
	if a.Script != nil {
		top += a.scriptPanel(&l, Rect{r.X, r.Y + top, r.W, max(r.H-top, 0)})
	}
	out := a.cur.Frame(Rect{r.X, r.Y + top, r.W, max(r.H-top, 0)}, t)
	return append(out, l...)
}

// errLines is how many lines of an error reply the band shows.
const errLines = 3
