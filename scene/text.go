package scene

// Text helpers every scene shares: the language switch (tr, pick), numbers and sizes in words
// (Num, plural, nBytes; byte sizes go through numfmt.Bytes: "192.0 KiB"), and fitting text to
// pixels. The canvas has two fonts: Liberation Mono, whose every glyph advances 0.6001 em (a
// 20-character key at 14 px is 168 px wide), and the course's sans font, measured glyph by glyph
// (sanswidth.go). fit, clipTo and wrapMono cut monospace text; textWidth, fitText and wrapText
// work in either font.

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"redscope/internal/numfmt"
)

// tr formats the English or the Vietnamese pattern.
func tr(lang, en, vi string, a ...any) string {
	if lang == "en" {
		return fmt.Sprintf(en, a...)
	}
	return fmt.Sprintf(vi, a...)
}

// pick chooses the English or the Vietnamese pattern (for fmt.Sprintf).
func pick(lang, en, vi string) string {
	if lang == "en" {
		return en
	}
	return vi
}

// num writes n with its digit groups joined by a narrow no-break space (U+202F), "6 176",
// so that a number never wraps inside and reads the same in both languages.
func num(n int64) string { return strings.ReplaceAll(numfmt.Group(n), " ", "\u202f") }

// plural is "1 byte" / "2 bytes": n (grouped) and the English noun in its form for n. Vietnamese
// nouns do not inflect: trPlural gives the Vietnamese form unchanged.
func plural(n int64, one, many string) string {
	if n == 1 || n == -1 {
		return num(n) + " " + one
	}
	return num(n) + " " + many
}

// trPlural is n with its noun in lang: English singular or plural, Vietnamese as given.
func trPlural(lang string, n int64, one, many, vi string) string {
	if lang == "en" {
		return plural(n, one, many)
	}
	return num(n) + " " + vi
}

// nBytes is "1 byte", "6 bytes" (en) or "6 byte" (vi), the number grouped.
func nBytes[T ~int | ~int64](lang string, n T) string {
	return trPlural(lang, int64(n), "byte", "bytes", "byte")
}

// monoAdvance is the advance of one glyph of the monospace font (Liberation Mono: 1229/2048 em).
const monoAdvance = 0.6001

// monoWidth is the width of s in the monospace font at size.
func monoWidth(s string, size float64) float64 {
	return float64(utf8.RuneCountInString(s)) * monoAdvance * size
}

// textWidth is the width of s at size: the monospace font's fixed advance, or the sans font's
// advances glyph by glyph.
func textWidth(s string, size float64, mono bool) float64 {
	if mono {
		return monoWidth(s, size)
	}
	w := 0.0
	for _, r := range s {
		w += sansRune(r)
	}
	return w * size
}

// fitText shortens s with "…" so that it fits in w.
func fitText(s string, w, size float64, mono bool) string {
	if textWidth(s, size, mono) <= w {
		return s
	}
	ell := textWidth("…", size, mono)
	x := 0.0
	for i, r := range s {
		a := monoAdvance * size
		if !mono {
			a = sansRune(r) * size
		}
		if x+a+ell > w {
			if i == 0 {
				return ""
			}
			return s[:i] + "…"
		}
		x += a
	}
	return s
}

// wrapText breaks s into lines of sans text no wider than w.
func wrapText(s string, w, size float64) []string {
	var out []string
	line := ""
	// Words break at ASCII spaces only: a no-break space (U+00A0, U+202F) keeps a number and its
	// unit or digit groups together.
	for _, word := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' || r == '\n' }) {
		cand := word
		if line != "" {
			cand = line + " " + word
		}
		if line != "" && textWidth(cand, size, false) > w {
			out = append(out, line)
			cand = word
		}
		line = cand
	}
	if line != "" {
		out = append(out, fitText(line, w, size, false))
	}
	return out
}

// wrap draws s as lines of sans text that fit in r.W from y down, within r; it returns the y
// below the last line.
func (l *list) wrap(r Rect, y float64, s string, size float64, c Color) float64 {
	for _, line := range wrapText(s, r.W, size) {
		if y+size*1.25 > r.Y+r.H+0.01 {
			break
		}
		l.text(r.X, y, line, size, c, Left, false)
		y += size * 1.3
	}
	return y
}

// fit shortens s (monospace at size) to at most w pixels, ending it with "…".
func fit(s string, w, size float64) string {
	if monoWidth(s, size) <= w {
		return s
	}
	r := []rune(s)
	n := int(w/(monoAdvance*size)) - 1
	if n <= 0 {
		return ""
	}
	return string(r[:min(n, len(r))]) + "…"
}

// wrap splits s into lines of at most w pixels (monospace at size), at most maxLines (the last
// one shortened).
func wrap(s string, w, size float64, maxLines int) []string {
	per := max(1, int(w/(monoAdvance*size)))
	var out []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case len([]rune(line))+1+len([]rune(word)) <= per:
			line += " " + word
		default:
			out = append(out, line)
			line = word
		}
	}
	if line != "" {
		out = append(out, line)
	}
	if len(out) > maxLines {
		out = out[:maxLines]
		out[maxLines-1] += " …"
	}
	for i := range out {
		out[i] = fit(out[i], w, size)
	}
	return out
}

// clip shortens s to n runes with an ellipsis.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	if n <= 1 {
		return "…"
	}
	return string(r[:n-1]) + "…"
}

// clipTo shortens s to fit w pixels of monospace text at size ("" when not even one glyph fits).
func clipTo(s string, w, size float64) string {
	n := int(w / (monoAdvance * size))
	if n <= 0 {
		return ""
	}
	return clip(s, n)
}

// wrapMono splits s at spaces into lines of at most w pixels of monospace text at size; a word
// longer than a line is cut; more than maxLines lines end in "…".
func wrapMono(s string, w, size float64, maxLines int) []string {
	per := max(1, int(w/(monoAdvance*size)))
	var out []string
	line := []rune{}
	for _, word := range strings.Fields(s) {
		wr := []rune(word)
		for len(wr) > per {
			if len(line) > 0 {
				out = append(out, string(line))
				line = line[:0]
			}
			out = append(out, string(wr[:per]))
			wr = wr[per:]
		}
		switch {
		case len(line) == 0:
			line = append(line, wr...)
		case len(line)+1+len(wr) <= per:
			line = append(append(line, ' '), wr...)
		default:
			out = append(out, string(line))
			line = append([]rune{}, wr...)
		}
	}
	if len(line) > 0 {
		out = append(out, string(line))
	}
	if len(out) > maxLines {
		out = out[:maxLines]
		out[maxLines-1] = clip(out[maxLines-1]+" …", per)
	}
	return out
}

func printable(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return string(rune(c))
	}
	return "·"
}
