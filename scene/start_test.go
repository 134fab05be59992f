package scene

import (
	"strings"
	"testing"

	"redscope/assets/text"
	"redscope/engine"
)

// TestCards: every line of assets/text/cards.txt is one the reader knows, every swatch names a
// colour the scenes have and a name and sentence in both languages, and every card but the
// shared "encodings" is the card of the scene registered under its name: a fresh scene of that
// name shows it, with its title, hint and swatches, in both languages.
func TestCards(t *testing.T) {
	inCard := false
	for _, r := range text.Records("cards.txt") {
		switch {
		case r[0] == "card" && len(r) == 2:
			inCard = true
		case !inCard:
			t.Errorf("cards.txt: %q before the first card", r)
		case (r[0] == "title" || r[0] == "hint") && len(r) == 3, r[0] == "swatch" && (len(r) == 2 || len(r) == 6):
		default:
			t.Errorf("cards.txt: %q is no title, hint or swatch line", r)
		}
		if r[0] == "swatch" {
			if _, ok := cardColor(r[1]); !ok {
				t.Errorf("cards.txt: %q names no colour", r)
			}
			if len(r) == 2 && !strings.HasPrefix(r[1], "enc:") {
				t.Errorf("cards.txt: %q: only an encoding's swatch can be named by its colour alone", r)
			}
		}
		for _, f := range r {
			if strings.TrimSpace(f) == "" || strings.Contains(f, "%") {
				t.Errorf("cards.txt: %q has an empty field or a %% verb", r)
			}
		}
	}
	for name, c := range cards() {
		for _, p := range c.parts {
			if p.name.VI == "" || p.name.EN == "" || p.what.VI == "" || p.what.EN == "" {
				t.Errorf("card %s: swatch %s has no text (no such encoding in card encodings?)", name, p.color)
			}
		}
		if name == "encodings" {
			continue
		}
		if c.title.VI == "" || c.title.EN == "" || (c.hint.VI == "") != (c.hint.EN == "") || len(c.parts) == 0 {
			t.Errorf("card %s: title %q, hint %q, %d swatches", name, c.title, c.hint, len(c.parts))
		}
		if _, ok := registry[name]; !ok {
			t.Errorf("card %s: no scene of that name", name)
		}
	}
	for _, name := range names() {
		st, ok := New(name).(interface {
			Scene
			start() (startCard, bool)
		})
		if !ok {
			continue
		}
		want := cards()[name]
		if want == nil {
			t.Errorf("scene %s has a start card, cards.txt none", name)
			continue
		}
		for _, lang := range []string{"vi", "en"} {
			st.Update(Input{Engine: engine.New(engine.Options{}), Lang: lang})
			c, ok := st.start()
			if !ok || c.title != want.title.In(lang) || c.hint != want.hint.In(lang) {
				t.Errorf("%s %s: card %v %q %q, want %q %q", name, lang, ok, c.title, c.hint, want.title.In(lang), want.hint.In(lang))
				continue
			}
			// The swatches of the data come last (sds names its segments first; the ring's one
			// swatch is each of its nodes').
			parts := c.parts[len(c.parts)-len(want.parts):]
			if name == "ring" {
				parts = c.parts[:1]
			}
			for i, p := range want.parts {
				col, _ := cardColor(p.color)
				got := parts[i]
				if name == "ring" {
					got.name = strings.TrimSuffix(got.name, " a")
				}
				if got != (swatch{col, p.name.In(lang), p.what.In(lang)}) {
					t.Errorf("%s %s: swatch %d is %+v, want %s %q %q", name, lang, i, got, p.color, p.name.In(lang), p.what.In(lang))
				}
			}
		}
	}
	// Two cards as the reader sees them, in full.
	s := New("ring").(*ringScene)
	s.Update(Input{Engine: engine.New(engine.Options{}), Lang: "en"})
	c, _ := s.start()
	if len(c.parts) != 4 || c.parts[3] != (swatch{nodeColor(3), "node d", "its arcs of the ring and its keys"}) {
		t.Errorf("ring card %+v", c.parts)
	}
	z := New("zset").(*zsetScene)
	z.Update(Input{Engine: engine.New(engine.Options{}), Lang: "vi"})
	c, _ = z.start()
	if c.title != "Sorted set: listpack khi còn nhỏ, rồi skiplist kèm dict" || len(c.parts) != 2 ||
		c.parts[1] != (swatch{encColor("skiplist"), "skiplist", "node có tháp con trỏ tiến và một con trỏ lùi"}) {
		t.Errorf("zset card %q %+v", c.title, c.parts)
	}
}
