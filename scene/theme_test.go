package scene

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"redscope/assets"
	"redscope/engine"
	"redscope/engine/alloc"
	"redscope/lesson"
)

// useTheme applies the theme called name for the rest of the test and restores the dark theme
// when it ends: the palette is package state every test shares.
func useTheme(t *testing.T, name string) {
	t.Helper()
	if !SetTheme(name) {
		t.Fatalf("SetTheme(%q) refused", name)
	}
	t.Cleanup(func() { SetTheme("dark") })
}

// over composites top (alpha) over an opaque under colour.
func over(top, under Color) Color {
	a := float64(top.A) / 255
	m := func(t, u uint8) uint8 { return uint8(math.Round(float64(t)*a + float64(u)*(1-a))) }
	return Color{m(top.R, under.R), m(top.G, under.G), m(top.B, under.B), 0xff}
}

// colourAt is the colour at (x, y) once prims are drawn, in order, over the background: filled
// rectangles, frame strokes and pixel images composited with their alpha (lines and texts are
// thin and left out).
func colourAt(prims []Prim, x, y float64) Color {
	c := Background
	for _, q := range prims {
		r := Rect{q.X, q.Y, q.W, q.H}
		switch q.Kind {
		case KRect:
			if r.Contains(x, y) {
				c = over(q.Color, c)
			}
		case KFrame:
			if r.Contains(x, y) && !r.inset(q.Stroke).Contains(x, y) {
				c = over(q.Color, c)
			}
		case KImage:
			if q.Img == nil || q.Img.W <= 0 || q.Img.H <= 0 || !r.Contains(x, y) {
				continue
			}
			px := min(q.Img.W-1, int((x-q.X)/q.W*float64(q.Img.W)))
			py := min(q.Img.H-1, int((y-q.Y)/q.H*float64(q.Img.H)))
			if o := 4 * (py*q.Img.W + px); o+3 < len(q.Img.RGBA) {
				b := q.Img.RGBA[o : o+4]
				c = over(Color{b[0], b[1], b[2], b[3]}, c)
			}
		}
	}
	return c
}

// textContrast checks every text primitive of a display list against what is drawn under it
// (≥ 4.5:1): the colour at points along the middle of its line box (one point for a short text,
// three spread over its estimated width for a longer one). It returns the failures.
func textContrast(prims []Prim) []string {
	var bad []string
	for i, p := range prims {
		if p.Kind != KText || strings.TrimSpace(p.Text) == "" {
			continue
		}
		b := textBox(p)
		y := p.Y + p.Size*0.6
		xs := []float64{b.X + b.W/2}
		if utf8.RuneCountInString(p.Text) >= 4 {
			xs = append(xs, b.X+b.W*0.2, b.X+b.W*0.8)
		}
		worst, under := math.Inf(1), Color{}
		for _, x := range xs {
			u := colourAt(prims[:i], x, y)
			if c := contrast(over(p.Color, u), u); c < worst {
				worst, under = c, u
			}
		}
		if worst < 4.5 {
			bad = append(bad, fmt.Sprintf("%q in %v on %v: %.2f", p.Text, p.Color, under, worst))
		}
	}
	return bad
}

// themeStages are the windows the contrast test lays scenes out for.
var themeStages = []struct {
	name string
	r    Rect
}{
	{"360x640", Stage(360, 640)},
	{"1280x800", Stage(1280, 800)},
	{"1920x1080", Stage(1920, 1080)},
}

// TestThemeLessonsContrast: in both themes, every text of every built-in lesson's scene (the
// lessons assets holds now, whoever added them) keeps 4.5:1 over what is drawn under it. Each
// lesson is played on its oldest profile and on the newest; at every position the scene is built
// in each theme and each language and laid out at every stage, once the animation has settled
// (t = 1: a fill that fades in from the background may carry its text below 4.5:1 for the first
// moments).
func TestThemeLessonsContrast(t *testing.T) {
	t.Cleanup(func() { SetTheme("dark") })
	srcs := assets.Lessons()
	if len(srcs) == 0 {
		t.Fatal("no built-in lessons")
	}
	for _, src := range srcs {
		l, err := lesson.Parse(src.Name+".lesson", src.Src)
		if err != nil {
			t.Fatal(err)
		}
		vers := []engine.Version{max(engine.V70, l.Since), engine.Versions[len(engine.Versions)-1]}
		if vers[0] == vers[1] {
			vers = vers[:1]
		}
		t.Run(src.Name, func(t *testing.T) {
			fails := map[string]int{}
			for _, v := range vers {
				p := lesson.NewPlayer(lesson.Config{Version: v, Allocator: alloc.Jemalloc16})
				p.Load(l)
				for {
					for _, th := range themes {
						SetTheme(th.Name)
						for _, lang := range []string{"vi", "en"} {
							s := New(l.Scene)
							s.Update(Input{Engine: p.Engine(), Keys: p.Watched(), Last: lastOf(p), Lang: lang})
							for _, st := range themeStages {
								for _, msg := range textContrast(s.Frame(st.r, 1)) {
									if fails[th.Name]++; fails[th.Name] <= 6 {
										t.Errorf("%s theme, %v %s step %d %s: %s", th.Name, v, lang, p.Pos(), st.name, msg)
									}
								}
							}
						}
					}
					if !p.Step() {
						break
					}
				}
			}
			for th, n := range fails {
				if n > 6 {
					t.Errorf("%s theme: %d contrast failures in all", th, n)
				}
			}
		})
	}
	// The sandbox (key list) scene, empty and after a few console commands.
	p := lesson.NewPlayer(lesson.Config{})
	empty := Input{Engine: p.Engine(), Lang: "en"}
	for _, c := range []string{"SET k hello", "SETBIT b 7 1", "PFADD h a b", "HSET u f v", "ZADD z 1 m"} {
		p.Exec(c)
	}
	full := Input{Engine: p.Engine(), Last: lastOf(p)[len(lastOf(p))-1:], Lang: "vi"}
	for _, th := range themes {
		SetTheme(th.Name)
		for _, in := range []Input{empty, full} {
			s := New("")
			s.Update(in)
			for _, st := range themeStages {
				for _, msg := range textContrast(s.Frame(st.r, 1)) {
					t.Errorf("%s theme, sandbox %s: %s", th.Name, st.name, msg)
				}
			}
		}
	}
}

// TestContrastCheckerCatches: the checker sees a text on a fill it does not contrast with, a
// half-transparent one, and one on a pixel image; and passes readable ones.
func TestContrastCheckerCatches(t *testing.T) {
	img := &Pixels{W: 2, H: 1, RGBA: []byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0xff}}
	cases := []struct {
		prims []Prim
		bad   bool
	}{
		{[]Prim{{Kind: KText, Text: "abc", Size: 14, Color: textColor}}, false},
		{[]Prim{{Kind: KText, Text: "abc", Size: 14, Color: panelC}}, true},
		{[]Prim{{Kind: KRect, W: 100, H: 30, Color: textColor}, {Kind: KText, X: 2, Y: 2, Text: "x", Size: 14, Color: textColor}}, true},
		{[]Prim{{Kind: KRect, W: 100, H: 30, Color: textColor}, {Kind: KText, X: 2, Y: 2, Text: "x", Size: 14, Color: Background}}, false},
		{[]Prim{{Kind: KText, Text: "abc", Size: 14, Color: textColor.alpha(0.2)}}, true},
		// Left half white, right half black: a long text spanning both fails, a short one on the
		// black half passes in white.
		{[]Prim{{Kind: KImage, W: 200, H: 30, Img: img}, {Kind: KText, X: 110, Y: 2, Text: "x", Size: 14, Color: Color{0xff, 0xff, 0xff, 0xff}}}, false},
		{[]Prim{{Kind: KImage, W: 200, H: 30, Img: img}, {Kind: KText, X: 10, Y: 2, Text: "abcdefghijklmnopqrst", Size: 14, Color: Color{0xff, 0xff, 0xff, 0xff}, Mono: true}}, true},
	}
	for i, c := range cases {
		if got := len(textContrast(c.prims)) > 0; got != c.bad {
			t.Errorf("case %d: flagged %v, want %v: %v", i, got, c.bad, textContrast(c.prims))
		}
	}
}

// TestThemeDarkUnchanged: the dark theme is the default and keeps its colours exactly.
func TestThemeDarkUnchanged(t *testing.T) {
	want := []Color{
		{0x0f, 0x14, 0x1c, 0xff}, {0x1a, 0x22, 0x30, 0xff}, {0x3a, 0x46, 0x5a, 0xff}, {0xec, 0xf0, 0xf6, 0xff},
		{0xa9, 0xb4, 0xc6, 0xff}, {0x8e, 0x6b, 0xd8, 0xff}, {0x2f, 0x8f, 0xd8, 0xff}, {0x3c, 0x5a, 0x3c, 0xff},
		{0x4a, 0x4a, 0x52, 0xff}, {0x8a, 0x8f, 0x99, 0xff}, {0xff, 0xc8, 0x3d, 0xff}, {0x3d, 0xc9, 0x8a, 0xff},
		{0x26, 0x30, 0x40, 0xff}, {0x4a, 0x9d, 0xf0, 0xff}, {0xff, 0x8a, 0x3d, 0xff}, {0xff, 0x6b, 0x6b, 0xff},
	}
	check := func(when string) {
		got := []Color{Background, panelC, grid, textColor, dim, headerC, dataC, freeC, slackC, nulC, accent, oneC, zeroC, indexC, runC, ErrorC}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: palette colour %d = %v, want %v", when, i, got[i], want[i])
			}
		}
		if topCardC != accent.mix(panelC, 0.84) || nodeColors[0] != (Color{0x4a, 0x9d, 0xf0, 0xff}) || len(nodeColors) != 12 {
			t.Errorf("%s: top card %v, node colours %v", when, topCardC, nodeColors)
		}
		if ThemeName() != "dark" {
			t.Errorf("%s: theme %q", when, ThemeName())
		}
	}
	check("default")
	useTheme(t, "light")
	if Background == want[0] || topCardC == Dark.Accent.mix(Dark.Panel, 0.84) || nodeColors[0] == want[13] {
		t.Fatal("light theme did not replace the palette")
	}
	if SetTheme("neon") || ThemeName() != "light" {
		t.Fatal("an unknown theme was accepted or changed the palette")
	}
	SetTheme("dark")
	check("back to dark")
}

// TestThemeRules checks each theme's palette against the contrast rules of Theme's comment, and
// that the light theme is light and the dark one dark.
func TestThemeRules(t *testing.T) {
	if l := Light.Background.Luminance(); l < 0.85 {
		t.Errorf("light background luminance %.3f", l)
	}
	if l := Light.Panel.Luminance(); l < 0.7 {
		t.Errorf("light panel luminance %.3f", l)
	}
	if l := Dark.Background.Luminance(); l > 0.02 {
		t.Errorf("dark background luminance %.3f", l)
	}
	for _, th := range themes {
		t.Run(th.Name, func(t *testing.T) {
			useTheme(t, th.Name)
			if c := contrast(textColor, Background); c < 7 {
				t.Errorf("text on background %.2f < 7", c)
			}
			texts := map[string]Color{"TextColor": textColor, "Dim": dim, "Accent": accent, "OneC": oneC, "IndexC": indexC,
				"RunC": runC, "ErrorC": ErrorC, "DataC": dataC, "NulC": nulC}
			for n, c := range texts {
				for bn, bg := range map[string]Color{"background": Background, "panel": panelC} {
					if r := contrast(c, bg); r < 4.5 {
						t.Errorf("%s on the %s: %.2f", n, bn, r)
					}
				}
			}
			strong := map[string]Color{"DataC": dataC, "OneC": oneC, "RunC": runC, "NulC": nulC, "IndexC": indexC, "HeaderC": headerC, "Accent": accent}
			for n, c := range strong {
				if r := contrast(Background, c); r < 4.5 {
					t.Errorf("background-coloured text on %s: %.2f", n, r)
				}
				if textOn(c) != Background {
					t.Errorf("TextOn(%s) is not the background colour", n)
				}
			}
			quiet := map[string]Color{"Panel": panelC, "ZeroC": zeroC, "FreeC": freeC, "SlackC": slackC, "header tint": headerC.mix(Background, 0.35)}
			for n, c := range quiet {
				if r := contrast(textColor, c); r < 4.5 {
					t.Errorf("text on %s: %.2f", n, r)
				}
				if textOn(c) != textColor {
					t.Errorf("TextOn(%s) is not TextColor", n)
				}
			}
			for _, c := range []Color{textColor, oneC, dim} {
				if r := contrast(c, topCardC); r < 4.5 {
					t.Errorf("%v on a top card: %.2f", c, r)
				}
			}
			// Encoding scene: characters in the background colour on byte classes and chains.
			checkByteContrast(t)
			// Cells stand out from the background: a clear bit faintly, a set bit clearly.
			if contrast(zeroC, Background) < 1.15 || contrast(oneC, zeroC) < 3 {
				t.Errorf("bit cells: zero %.2f, one on zero %.2f", contrast(zeroC, Background), contrast(oneC, zeroC))
			}
			for i, c := range nodeColors {
				min := 3.0
				if i < 4 { // client tokens are drawn as text in these
					min = 4.5
				}
				if r := math.Min(contrast(c, Background), contrast(c, panelC)); r < min {
					t.Errorf("node colour %d: %.2f < %.1f", i, r, min)
				}
			}
			seen := map[Color]bool{}
			for _, c := range nodeColors {
				if seen[c] {
					t.Errorf("node colour %v twice", c)
				}
				seen[c] = true
			}
		})
	}
}

// TestTint: the accent tint goes no further toward the base than its texts need.
func TestTint(t *testing.T) {
	useTheme(t, "light")
	c := tint(accent, panelC, 0.1, textColor, oneC)
	if contrast(textColor, c) < 4.5 || contrast(oneC, c) < 4.5 || c == panelC {
		t.Fatalf("tint %v", c)
	}
	for k := 0.1; k < 1; k += 0.02 { // the first mix that works is the one returned
		if m := accent.mix(panelC, k); contrast(textColor, m) >= 4.5 && contrast(oneC, m) >= 4.5 {
			if m != c {
				t.Fatalf("tint %v, first readable mix %v at %.2f", c, m, k)
			}
			break
		}
	}
	if tint(accent, panelC, 0.84) != accent.mix(panelC, 0.84) {
		t.Fatal("no texts: the mix asked for")
	}
	if tint(accent, panelC, 0.9, Color{0x80, 0x80, 0x80, 0xff}, textColor) != panelC {
		t.Fatal("an impossible tint must fall back to the base")
	}
}

// TestThemeRepaintsImages: a scene built under one theme paints its pixel images in the other
// after SetTheme (the encoding scene's cached bucket map), and the light one is light.
func TestThemeRepaintsImages(t *testing.T) {
	l := encBuiltin(t, "encodings-hash")
	s := &encodingScene{}
	s.Update(encAt(t, l, encDeb16, 5, "en"))
	img := func() *Pixels {
		for _, p := range s.Frame(Stage(1280, 800), 1) {
			if p.Kind == KImage {
				return p.Img
			}
		}
		t.Fatal("no bucket map")
		return nil
	}
	empty := func(px *Pixels) Color { // the first empty bucket's pixel
		for i, n := range s.HT.Lens[0] {
			if n == 0 && int64(i) != s.HT.HitIdx {
				return Color{px.RGBA[4*i], px.RGBA[4*i+1], px.RGBA[4*i+2], 0xff}
			}
		}
		t.Fatal("no empty bucket")
		return Color{}
	}
	if c := empty(img()); c != Dark.ZeroC {
		t.Fatalf("dark empty bucket %v", c)
	}
	useTheme(t, "light")
	if c := empty(img()); c != Light.ZeroC || c.Luminance() < 0.6 {
		t.Fatalf("light empty bucket %v", c)
	}
}

// TestStructureColors: one colour per structure, distinct within a theme and readable as text on
// the background and the panel in both themes; and the same listpack colour in the hash, set and
// leaderboard lessons (their encoding chip and MEMORY USAGE bar).
func TestStructureColors(t *testing.T) {
	defer SetTheme("dark")
	for _, th := range themes {
		SetTheme(th.Name)
		seen := map[Color]string{}
		for _, enc := range encodingNames() {
			c := encColor(enc)
			if o, dup := seen[c]; dup {
				t.Errorf("%s: %s and %s share %v", th.Name, enc, o, c)
			}
			seen[c] = enc
			for _, bg := range []Color{Background, panelC} {
				if contrast(c, bg) < 4.5 {
					t.Errorf("%s: %s %v on %v: contrast %.2f", th.Name, enc, c, bg, contrast(c, bg))
				}
			}
		}
	}
	SetTheme("dark")
	for _, c := range []struct {
		lesson string
		step   int
	}{{"encodings-hash", 1}, {"encodings-set", 3}, {"leaderboard", 2}} {
		in := encAt(t, encBuiltin(t, c.lesson), lesson.Config{Version: engine.V72}, c.step, "en")
		s := New(encBuiltin(t, c.lesson).Scene)
		s.Update(in)
		if enc := in.Engine.Inspect(focusKey(in, nil)).Encoding; enc != "listpack" {
			t.Fatalf("%s step %d: %s", c.lesson, c.step, enc)
		}
		n := 0
		for _, p := range s.Frame(Stage(1280, 800), 1) {
			if p.Kind == KRect && p.Color == encColor("listpack") {
				n++
			}
		}
		if n < 1 {
			t.Errorf("%s step %d: no rectangle in the listpack colour", c.lesson, c.step)
		}
	}
}
