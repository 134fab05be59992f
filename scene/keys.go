package scene

import (
	"fmt"
	"redscope/engine"
	"strings"
)

// keysScene is the sandbox scene: the keys of the current database with their type, encoding,
// length and MEMORY USAGE, the ones the last command touched lit.
type keysScene struct {
	Rows    []engine.KeyInfo
	Touched map[string]bool
	More    int
	lang    string
}

// keysMax is how many keys the list shows.
const keysMax = 24

// Update implements Scene.
func (s *keysScene) Update(in Input) {
	s.lang = in.Lang
	s.Rows = s.Rows[:0]
	s.Touched = keysTouched(in.Last)
	all := in.Engine.SortedKeys()
	s.More = max(0, len(all)-keysMax)
	for _, k := range all[:min(len(all), keysMax)] {
		s.Rows = append(s.Rows, in.Engine.Inspect(k))
	}
}

// Frame implements Scene.
func (s *keysScene) Frame(r Rect, t float64) []Prim {
	var l list
	f, in := margins(r)
	y := in.Y
	if len(s.Rows) == 0 {
		l.text(in.X, y, tr(s.lang, "The database is empty. Type a command below, e.g. SET k hello.", "Cơ sở dữ liệu trống. Gõ một lệnh, ví dụ SET k hello."), f, dim, Left, false)
		return l
	}
	l.text(in.X, y, tr(s.lang, "key · type · encoding · len · MEMORY USAGE", "khoá · kiểu · mã hoá · len · MEMORY USAGE"), f*0.8, dim, Left, false)
	y += f * 1.4
	for _, k := range s.Rows {
		if y > in.Y+in.H-f {
			break
		}
		c := textColor
		if s.Touched[k.Key] {
			c = textColor.mix(accent, pulseAt(t))
		}
		l.text(in.X, y, fmt.Sprintf("%-12s %-7s %-9s %6d %7d", k.Key, k.Type, k.Encoding, k.Len, k.Memory), f*0.85, c, Left, true)
		y += f * 1.2
	}
	if s.More > 0 {
		l.text(in.X, y, fmt.Sprintf("… +%d", s.More), f*0.8, dim, Left, false)
	}
	return l
}

// Focus implements Focuser: the key list, focused on the key the last command touched when one
// is listed.
func (s *keysScene) Focus() (string, string) { return "keys", "" }

// Describe implements Describer: "3 keys: a (string, embstr), jobs (list, quicklist), …".
func (s *keysScene) Describe() string {
	if len(s.Rows) == 0 {
		return tr(s.lang, "The database is empty.", "Cơ sở dữ liệu trống.")
	}
	var parts []string
	for _, k := range s.Rows {
		parts = append(parts, fmt.Sprintf("%s (%s, %s)", k.Key, k.Type, k.Encoding))
	}
	n := len(s.Rows) + s.More
	word := tr(s.lang, "%d keys", "%d khoá", n)
	if n == 1 && s.lang == "en" {
		word = "1 key"
	}
	more := ""
	if s.More > 0 {
		more = tr(s.lang, ", and %d more", ", và %d khoá nữa", s.More)
	}
	return word + ": " + strings.Join(parts, ", ") + more
}
