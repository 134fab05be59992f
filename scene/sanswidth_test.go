package scene

import (
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"

	"redscope/assets/fonts"
)

// TestSansAdvances: the advance table the layout measures sans text with is the embedded font's.
func TestSansAdvances(t *testing.T) {
	f, err := sfnt.Parse(fonts.Sans)
	if err != nil {
		t.Fatal(err)
	}
	if int(f.UnitsPerEm()) != sansUPM {
		t.Fatalf("units per em %d, table %d", f.UnitsPerEm(), sansUPM)
	}
	var buf sfnt.Buffer
	adv := func(r rune) (int, bool) {
		g, err := f.GlyphIndex(&buf, r)
		if err != nil || g == 0 {
			return 0, false
		}
		a, err := f.GlyphAdvance(&buf, g, fixed.I(sansUPM), font.HintingNone)
		return a.Round(), err == nil
	}
	n := 0
	for r := rune(0); r < 0x10000; r++ {
		a, ok := adv(r)
		var got uint16
		if r < rune(len(sansLatin)) {
			got = sansLatin[r]
		} else {
			got = sansOther[r]
		}
		if ok && int(got) != a || !ok && got != 0 {
			t.Errorf("U+%04X: table %d, font %d (%v)", r, got, a, ok)
		}
		if ok {
			n++
		}
	}
	if w := textWidth("Bước 1/5", 100, false); w < 300 || w > 450 {
		t.Errorf("TextWidth(Bước 1/5, 100) = %.0f", w)
	}
	t.Logf("%d glyphs checked", n)
}
