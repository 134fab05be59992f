package lesson

// Handing a session over to the build with Lua.
//
// The browser app's first build has no Lua interpreter (the engine's nolua build tag,
// docs/wasm-build.md): gopher-lua and the engine's scripting are 0.39 MB of the 2.64 MB a first
// visit would download, and most lessons never run a script. When a session needs one — a typed
// EVAL, FCALL, FUNCTION or SCRIPT line, or a lesson whose steps run one — the page hands the
// session over to the full build: the light page writes a Handover (Player.Handover plus the
// lesson and the line that asked for Lua), the page reloads into the full build, and that build
// loads the same lesson, Resume replays the steps and the typed lines up to the same position,
// and the pending line runs. The engine is deterministic (seeded randomness, a logical clock), so
// the replay rebuilds exactly the state the light page had — the same replay Back does at every
// step.

import (
	"fmt"
	"strconv"
	"strings"

	"redscope/engine"
	"redscope/engine/alloc"
	"redscope/internal/fields"
)

// LineNeedsLua reports whether a console line runs a command of Lua scripting (engine.NeedsLua
// of its first word: EVAL, EVALSHA, their _RO forms, FCALL, FCALL_RO, SCRIPT …, FUNCTION …). A
// HELP line about one does not (HELP is answered from the command table).
func LineNeedsLua(line string) bool {
	first := fields.First(line)
	if first == "" || IsHelpLine(line) {
		return false
	}
	return engine.NeedsLua([][]byte{[]byte(first)})
}

// NeedsLua reports whether a step of l runs a command of Lua scripting (found once, by Parse).
func (l *Lesson) NeedsLua() bool { return l != nil && l.needsLua }

// runsScripts walks l's steps for a command of Lua scripting.
func (l *Lesson) runsScripts() bool {
	for _, s := range l.Steps {
		for _, a := range s.Actions {
			if a.Cmd != "" && LineNeedsLua(a.Cmd) {
				return true
			}
		}
	}
	return false
}

// TypedLine is a console line and where it was typed: at position Pos, in client Client.
type TypedLine struct {
	Pos    int
	Client int
	Line   string
}

// Handover is a session as the full build needs it to continue where the light build stopped.
type Handover struct {
	Lesson    string // the built-in lesson's name, "" for the sandbox, or the app's name of its custom lesson
	Source    []byte // the custom lesson's text (Lesson names the custom lesson)
	Version   engine.Version
	Allocator alloc.Allocator
	Pos       int         // the position (steps applied)
	Active    int         // the console's client
	Typed     []TypedLine // the console lines typed at positions ≤ Pos, in the order they ran
	Pending   *TypedLine  // the line that asked for Lua, to run once the session is restored
}

// Handover returns the player's session (Lesson, Source and Pending are the app's to fill).
func (p *Player) Handover() Handover {
	h := Handover{Version: p.eng.Version(), Allocator: p.cfg.Allocator, Pos: p.pos, Active: p.active}
	for i := 0; i <= p.pos && i < len(p.extras); i++ {
		for _, t := range p.extras[i] {
			h.Typed = append(h.Typed, TypedLine{Pos: i, Client: t.client, Line: t.line})
		}
	}
	return h
}

// Resume restores a handed-over session on the player, whose lesson the app has already loaded:
// the profile and allocator are h's, the typed lines are put back at their positions and the
// player replays to h.Pos, as Back would (one replay, with h's configuration). The pending line
// is the app's to run (it goes through the page's own exec, which draws it).
func (p *Player) Resume(h Handover) {
	p.cfg.Version, p.cfg.Allocator = h.Version, h.Allocator
	p.extras = nil
	for _, t := range h.Typed {
		if t.Pos < 0 || t.Client < 1 || t.Client > Clients {
			continue
		}
		for len(p.extras) <= t.Pos {
			p.extras = append(p.extras, nil)
		}
		p.extras[t.Pos] = append(p.extras[t.Pos], typedLine{t.Line, t.Client})
	}
	p.replay(h.Pos)
	p.SetActiveClient(h.Active)
}

// handoverMagic opens an encoded Handover (and names its format's version).
const handoverMagic = "redscope-handover 1"

// Encode writes h as text, one field a line (strings quoted as Go does).
func (h Handover) Encode() string {
	var b strings.Builder
	b.WriteString(handoverMagic + "\n")
	fmt.Fprintf(&b, "lesson %s\n", strconv.Quote(h.Lesson))
	if h.Source != nil {
		fmt.Fprintf(&b, "source %s\n", strconv.Quote(string(h.Source)))
	}
	if h.Version != 0 {
		fmt.Fprintf(&b, "version %s\n", h.Version)
	}
	fmt.Fprintf(&b, "allocator %s\n", h.Allocator)
	fmt.Fprintf(&b, "pos %d\nactive %d\n", h.Pos, h.Active)
	for _, t := range h.Typed {
		fmt.Fprintf(&b, "typed %d %d %s\n", t.Pos, t.Client, strconv.Quote(t.Line))
	}
	if t := h.Pending; t != nil {
		fmt.Fprintf(&b, "pending %d %d %s\n", t.Pos, t.Client, strconv.Quote(t.Line))
	}
	return b.String()
}

// DecodeHandover reads what Encode wrote.
func DecodeHandover(s string) (Handover, error) {
	var h Handover
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	if len(lines) == 0 || lines[0] != handoverMagic {
		return h, fmt.Errorf("not a redscope handover")
	}
	for n, line := range lines[1:] {
		key, rest, _ := strings.Cut(line, " ")
		var err error
		switch key {
		case "lesson":
			h.Lesson, err = strconv.Unquote(rest)
		case "source":
			var src string
			if src, err = strconv.Unquote(rest); err == nil {
				h.Source = []byte(src)
			}
		case "version":
			h.Version, err = engine.ParseVersion(rest)
		case "allocator":
			h.Allocator, err = alloc.Parse(rest)
		case "pos":
			h.Pos, err = strconv.Atoi(rest)
		case "active":
			h.Active, err = strconv.Atoi(rest)
		case "typed", "pending":
			var t TypedLine
			if t, err = parseTypedLine(rest); err == nil {
				if key == "typed" {
					h.Typed = append(h.Typed, t)
				} else {
					h.Pending = &t
				}
			}
		default:
			err = fmt.Errorf("unknown field %q", key)
		}
		if err != nil {
			return Handover{}, fmt.Errorf("handover line %d: %v", n+2, err)
		}
	}
	return h, nil
}

// parseTypedLine reads "POS CLIENT QUOTED-LINE".
func parseTypedLine(s string) (TypedLine, error) {
	pos, rest, _ := strings.Cut(s, " ")
	client, quoted, _ := strings.Cut(rest, " ")
	var t TypedLine
	var err error
	if t.Pos, err = strconv.Atoi(pos); err != nil {
		return t, err
	}
	if t.Client, err = strconv.Atoi(client); err != nil {
		return t, err
	}
	t.Line, err = strconv.Unquote(quoted)
	return t, err
}
