// Package scene turns the engine's state and trace events into pictures: per-scene state built
// from what a lesson step did, and the layout maths (positions, colours, which cells light up) as
// a display list of rectangles, lines, text and pixel images. It has no graphics dependency, so
// every layout decision is unit-tested natively; the browser side (wasm/) only draws the list.
package scene

import (
	"sort"
	"strings"

	"redscope/engine"
	"redscope/internal/fields"
)

// Input is what a scene is rebuilt from after every step, back, reset or console command. It is
// all engine-side (the scene package does not import the lesson player): a player's exchanges come
// in as lesson.EngineExchanges(p.Recent()), and keys are measured with Engine.Inspect.
type Input struct {
	Engine *engine.Engine    // the engine at the current position (read with Peek only)
	Keys   []string          // watched keys, the lesson's first
	Last   []engine.Exchange // what produced the current position, with trace events
	Lang   string            // "vi" or "en"
}

// Scene is one kind of picture.
type Scene interface {
	// Update rebuilds the scene's state; it must not change the engine.
	Update(in Input)
	// Frame lays the scene out in r at animation progress t (0 = the change just happened, 1 =
	// settled; reduced motion always passes 1) and returns what to draw, back to front.
	Frame(r Rect, t float64) []Prim
}

// registry maps a scene name to its constructor; each scene file registers itself from init, so
// scenes are added without touching this file.
var registry = map[string]func() Scene{}

// register adds a scene constructor under name (called from init).
func register(name string, fn func() Scene) {
	if _, dup := registry[name]; dup {
		panic("scene registered twice: " + name)
	}
	registry[name] = fn
}

// New returns the scene called name; an unknown name gets the key list scene.
func New(name string) Scene {
	if fn, ok := registry[name]; ok {
		return fn()
	}
	return &keysScene{}
}

// names lists the registered scenes, sorted.
func names() []string {
	out := make([]string, 0, len(registry))
	for n := range registry {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func init() {
	register("sds", func() Scene { return &sdsScene{} })
	register("bits", func() Scene { return &bitsScene{} })
	register("hll", func() Scene { return &HLL{} })
}

// lastCmd is the name (lowercase) of the last non-console-clock exchange's command.
func lastCmd(xs []engine.Exchange) (name string, x *engine.Exchange) {
	for i := len(xs) - 1; i >= 0; i-- {
		if xs[i].Cmd == "" {
			continue
		}
		if f := fields.First(xs[i].Cmd); f != "" { // auto.go
			return strings.ToLower(f), &xs[i]
		}
	}
	return "", nil
}

// keysTouched is the set of keys the events of xs name (engine.EventKey).
func keysTouched(xs []engine.Exchange) map[string]bool {
	touched := map[string]bool{}
	for _, x := range xs {
		for _, ev := range x.Events {
			if k, ok := engine.EventKey(ev); ok {
				touched[k] = true
			}
		}
	}
	return touched
}

// lastRows is the last n of rows (what a scene lists) and how many earlier ones it leaves out.
func lastRows[T any](rows []T, n int) (last []T, more int) {
	more = max(0, len(rows)-n)
	return rows[more:], more
}

// focusKey picks the key a single-key scene draws: the last key an event touched, else the
// first watched key.
func focusKey(in Input, want func(engine.Event) bool) string {
	for i := len(in.Last) - 1; i >= 0; i-- {
		evs := in.Last[i].Events
		for j := len(evs) - 1; j >= 0; j-- {
			if want != nil && !want(evs[j]) {
				continue
			}
			if k, ok := engine.EventKey(evs[j]); ok {
				return k
			}
		}
	}
	if len(in.Keys) > 0 {
		return in.Keys[0]
	}
	return ""
}

// describer is a scene that states in words what its picture shows at this step, in the
// language of its last Input: the canvas's text alternative for screen readers (the page puts it
// beside the canvas), e.g. "hash user:1: listpack, 512 entries, 6 176 bytes; the next HSET
// converts it to a hashtable".
type describer interface {
	Describe() string
}

// Describe returns s's text alternative, "" when the scene has none.
func Describe(s Scene) string {
	if d, ok := s.(describer); ok {
		return d.Describe()
	}
	return ""
}

// focuser is a scene that reports which scene it is drawing now (a registered name: "sds",
// "bits", "hll", "encoding", "zset", "list", "stream", "bloom", "ring", "counters", "keys", …) and the key
// drawn ("" when none): window.redscope.state() gives them as scene and focus.
type focuser interface {
	Focus() (scene, key string)
}

// Focus returns what s is drawing: its Focuser answer, else ("", "").
func Focus(s Scene) (name, key string) {
	if f, ok := s.(focuser); ok {
		return f.Focus()
	}
	return "", ""
}
