package scene

// The scenes' start cards (layout.go, drawStart): what each picture will show before the
// lesson's first command has made its keys. What a card says is data (assets/text/cards.txt,
// a block per card: its title, hint and swatches in both languages, the swatches' colours by
// name); each scene's start says when its card shows and which keys it names.

import (
	"strconv"
	"strings"
	"sync"

	"redscope/assets/text"
)

// cardText is one card of cards.txt.
type cardText struct {
	title, hint text.Pair
	parts       []cardSwatch
}

// cardSwatch is one swatch line: its colour's name, its name and what it is.
type cardSwatch struct {
	color      string
	name, what text.Pair
}

var (
	cardsOnce sync.Once
	cardTexts map[string]*cardText
)

// cards reads cards.txt the first time a card is wanted. A swatch line with only an encoding's
// colour takes that encoding's swatch from card "encodings".
func cards() map[string]*cardText {
	cardsOnce.Do(func() {
		cardTexts = map[string]*cardText{}
		var c *cardText
		for _, r := range text.Records("cards.txt") {
			switch {
			case r[0] == "card" && len(r) == 2:
				c = &cardText{}
				cardTexts[r[1]] = c
			case c == nil: // a line before the first card: TestCards reports it
			case r[0] == "title" && len(r) == 3:
				c.title = text.Pair{VI: r[1], EN: r[2]}
			case r[0] == "hint" && len(r) == 3:
				c.hint = text.Pair{VI: r[1], EN: r[2]}
			case r[0] == "swatch" && len(r) == 2:
				c.parts = append(c.parts, cardSwatch{color: r[1]})
			case r[0] == "swatch" && len(r) == 6:
				c.parts = append(c.parts, cardSwatch{r[1], text.Pair{VI: r[2], EN: r[3]}, text.Pair{VI: r[4], EN: r[5]}})
			}
		}
		if enc := cardTexts["encodings"]; enc != nil {
			for _, c := range cardTexts {
				for i, p := range c.parts {
					if p.name != (text.Pair{}) {
						continue
					}
					for _, e := range enc.parts {
						if e.color == p.color {
							c.parts[i] = e
						}
					}
				}
			}
		}
	})
	return cardTexts
}

// card is the start card name of cards.txt in lang, naming keys.
func card(lang, name string, keys []string) startCard {
	t := cards()[name]
	if t == nil {
		return startCard{keys: keys}
	}
	c := startCard{title: t.title.In(lang), keys: keys, hint: t.hint.In(lang)}
	for _, p := range t.parts {
		col, _ := cardColor(p.color)
		c.parts = append(c.parts, swatch{col, p.name.In(lang), p.what.In(lang)})
	}
	return c
}

// cardColors are the colours a swatch line names by a word (the current theme's: SetTheme
// assigns them).
var cardColors = map[string]*Color{"one": &oneC, "zero": &zeroC, "accent": &accent, "error": &ErrorC, "index": &indexC, "run": &runC}

// cardColor is the colour a swatch line names (in the current theme), and whether it names one.
func cardColor(name string) (Color, bool) {
	if c, ok := cardColors[name]; ok {
		return *c, true
	}
	kind, arg, _ := strings.Cut(name, ":")
	n, err := strconv.Atoi(arg)
	switch {
	case name == "mem":
		return memBarC(), true
	case kind == "enc":
		_, ok := encHue[arg]
		return encColor(arg), ok
	case kind == "reg" && err == nil && n >= 0 && n < 64:
		return regColor(uint8(n)), true
	case kind == "client" && err == nil && n >= 0:
		return clientColor(n), true
	case kind == "node" && err == nil && n >= 0:
		return nodeColor(n), true
	}
	return dim, false
}

// unmade is the names of the keys ks (their name and whether they exist, by key) for a start
// card, or false once one of them exists: the card is only for a lesson's first picture.
func unmade[K any](ks []K, key func(K) (string, bool)) ([]string, bool) {
	var names []string
	for _, k := range ks {
		name, exists := key(k)
		if exists {
			return nil, false
		}
		names = append(names, name)
	}
	return names, true
}

func (s *sdsScene) start() (startCard, bool) {
	_, ok := unmade(s.Keys, func(k sdsKey) (string, bool) { return k.Info.Key, k.Info.Exists })
	if !ok || s.History != nil || len(s.TTLRows) > 0 || s.Note != "" {
		return startCard{}, false
	}
	c := card(s.lang, "sds", s.watch)
	// The segments of the picture first, named as its legend names them.
	var segs []swatch
	for kind := segRobj; kind <= segSlack; kind++ {
		segs = append(segs, swatch{segColor(kind), segName(kind, s.lang), ""})
	}
	c.parts = append(segs, c.parts...)
	return c, true
}

func (s *bitsScene) start() (startCard, bool) {
	if s.Op != nil || s.Error || len(s.Deleted) > 0 || s.Key != "" && s.Info.Exists {
		return startCard{}, false
	}
	return card(s.lang, "bits", s.watch), true
}

func (s *HLL) start() (startCard, bool) {
	if s.Counting && len(s.Rows) > 0 || !s.Counting && s.Key != "" && s.Info.Exists || s.Reply != "" {
		return startCard{}, false
	}
	return card(s.lang, "hll", s.watch), true
}

func (s *encodingScene) start() (startCard, bool) {
	if s.Key != "" && s.Info.Exists || s.Note != "" {
		return startCard{}, false
	}
	return card(s.lang, "encoding", s.watch), true
}

func (s *zsetScene) start() (startCard, bool) {
	if s.Key != "" && s.Info.Exists && len(s.Members) > 0 || s.Note != "" {
		return startCard{}, false
	}
	return card(s.lang, "zset", s.watch), true
}

func (s *bloomScene) start() (startCard, bool) {
	if s.Key != "" && len(s.Filters) > 0 {
		return startCard{}, false
	}
	return card(s.lang, "bloom", s.watch), true
}

func (s *ringScene) start() (startCard, bool) {
	if s.Ev != nil || len(s.Slots) > 0 {
		return startCard{}, false
	}
	c := card(s.lang, "ring", nil)
	// The card's one swatch is each node's: node a … node d, each in its colour.
	if len(c.parts) == 1 {
		each := c.parts[0]
		c.parts = nil
		for i := 0; i < 4; i++ {
			c.parts = append(c.parts, swatch{nodeColor(i), each.name + " " + string(rune('a'+i)), each.what})
		}
	}
	return c, true
}

func (s *countersScene) start() (startCard, bool) {
	keys, ok := unmade(s.Keys, func(k counterKey) (string, bool) { return k.Key, k.Exists })
	if !ok || len(s.Rows) > 0 || s.ClockMs != 0 || s.Missing != "" {
		return startCard{}, false
	}
	return card(s.lang, "counters", keys), true
}

func (s *Cluster) start() (startCard, bool) {
	if len(s.Nodes) > 0 {
		return startCard{}, false
	}
	return card(s.lang, "cluster", s.watch), true
}

func (s *ringSlots) start() (startCard, bool) {
	if s.ring.Ev != nil || len(s.cl.Nodes) > 0 {
		return startCard{}, false
	}
	return card(s.lang, "ringslots", s.watch), true
}
