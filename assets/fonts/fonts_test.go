package fonts

import (
	"fmt"
	"sort"
	"testing"
	"unicode/utf8"

	"golang.org/x/image/font/sfnt"

	"redscope/assets"
	"redscope/engine"
	"redscope/lesson"
	"redscope/scene"
)

func parse(t *testing.T, name string, b []byte) *sfnt.Font {
	t.Helper()
	f, err := sfnt.Parse(b)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return f
}

func has(f *sfnt.Font, r rune) bool {
	var buf sfnt.Buffer
	g, err := f.GlyphIndex(&buf, r)
	return err == nil && g != 0
}

// TestNamesAndLicence: the subsets are renamed (Reserved Font Names) and keep the OFL notice.
func TestNamesAndLicence(t *testing.T) {
	for _, c := range []struct {
		name   string
		b      []byte
		family string
	}{{"sans", Sans, "Redscope Sans"}, {"mono", Mono, "Redscope Mono"}} {
		f := parse(t, c.name, c.b)
		var buf sfnt.Buffer
		fam, err := f.Name(&buf, sfnt.NameIDFamily)
		if err != nil || fam != c.family {
			t.Errorf("%s: family %q (%v), want %q", c.name, fam, err, c.family)
		}
		lic, _ := f.Name(&buf, sfnt.NameIDLicense)
		if lic == "" {
			t.Errorf("%s: no licence name record", c.name)
		}
		if len(c.b) > 64<<10 {
			t.Errorf("%s: %d bytes: not the subset?", c.name, len(c.b))
		}
	}
}

// TestVietnamese: every Vietnamese letter, both cases, in both fonts.
func TestVietnamese(t *testing.T) {
	letters := "aăâbcdđeêghiklmnoôơpqrstuưvxyAĂÂBCDĐEÊGHIKLMNOÔƠPQRSTUƯVXY" +
		"àáảãạằắẳẵặầấẩẫậèéẻẽẹềếểễệìíỉĩịòóỏõọồốổỗộờớởỡợùúủũụừứửữựỳýỷỹỵ" +
		"ÀÁẢÃẠẰẮẲẴẶẦẤẨẪẬÈÉẺẼẸỀẾỂỄỆÌÍỈĨỊÒÓỎÕỌỒỐỔỖỘỜỚỞỠỢÙÚỦŨỤỪỨỬỮỰỲÝỶỸỴ"
	for _, c := range []struct {
		name string
		b    []byte
	}{{"sans", Sans}, {"mono", Mono}} {
		f := parse(t, c.name, c.b)
		for _, r := range letters {
			if !has(f, r) {
				t.Errorf("%s: no glyph for %q U+%04X", c.name, r, r)
			}
		}
		// Outside the subset: a CJK ideograph has no glyph (so this test can tell).
		if has(f, '字') {
			t.Errorf("%s: has CJK glyphs: not the subset?", c.name)
		}
	}
}

// TestScenesText plays every built-in lesson in both languages and checks that every character
// the scenes draw (the lesson's own scene and the key list) has a glyph in the font it is drawn
// with. Characters a user can type in the console are not covered: outside the subset they show
// the font's missing-glyph box, as they did with the full Liberation fonts for most scripts.
func TestScenesText(t *testing.T) {
	sans, mono := parse(t, "sans", Sans), parse(t, "mono", Mono)
	missing := map[string]bool{}
	texts := 0
	check := func(where string, prims []scene.Prim) {
		for _, p := range prims {
			if p.Kind != scene.KText {
				continue
			}
			texts++
			f := sans
			if p.Mono {
				f = mono
			}
			for _, r := range p.Text {
				if r == utf8.RuneError || r < ' ' {
					continue
				}
				if !has(f, r) {
					missing[fmt.Sprintf("%q U+%04X mono=%v (%s: %q)", r, r, p.Mono, where, p.Text)] = true
				}
			}
		}
	}
	for _, src := range assets.Lessons() {
		l, err := lesson.Parse(src.Name+".lesson", src.Src)
		if err != nil {
			t.Fatal(err)
		}
		for _, lang := range []string{"vi", "en"} {
			for _, sc := range []string{l.Scene, ""} {
				p := lesson.NewPlayer(lesson.Config{Version: engine.DefaultVersion})
				p.Load(l)
				s := scene.New(sc)
				for i := 0; ; i++ {
					s.Update(scene.Input{Engine: p.Engine(), Keys: p.Watched(), Last: lesson.EngineExchanges(p.Last()), Lang: lang})
					for _, st := range []scene.Rect{scene.Stage(1280, 800), scene.Stage(360, 740)} {
						for _, at := range []float64{0, 0.5, 1} {
							check(fmt.Sprintf("%s/%s/%s step %d", l.Name, lang, sc, i), s.Frame(st, at))
						}
					}
					if !p.Step() {
						break
					}
				}
			}
		}
	}
	if texts == 0 {
		t.Fatal("the scenes drew no text")
	}
	var out []string
	for m := range missing {
		out = append(out, m)
	}
	sort.Strings(out)
	for i, m := range out {
		if i == 20 {
			t.Errorf("… %d more", len(out)-20)
			break
		}
		t.Errorf("no glyph: %s", m)
	}
	t.Logf("%d text prims checked", texts)
}
