package scene

import "strings"

// Pieces the scene tests share.

// textBox is the box a text primitive covers (monospace metrics; proportional text is assumed
// no wider), its alignment taken into account.
func textBox(p Prim) Rect {
	w := textWidth(p.Text, p.Size, p.Mono)
	x := p.X
	switch p.Align {
	case Center:
		x -= w / 2
	case Right:
		x -= w
	}
	return Rect{x, p.Y, w, p.Size * 1.15}
}

// updated is the scene s after Update(in).
func updated[S Scene](s S, in Input) S {
	s.Update(in)
	return s
}

// allText is the text of every text primitive, a line each.
func allText(prims []Prim) string {
	var b strings.Builder
	for _, p := range prims {
		if p.Kind == KText {
			b.WriteString(p.Text)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// countKind is the number of primitives of kind k.
func countKind(prims []Prim, k Kind) int {
	n := 0
	for _, p := range prims {
		if p.Kind == k {
			n++
		}
	}
	return n
}
