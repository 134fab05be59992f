package scene

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"redscope/engine"
)

// FieldTTL is the encoding scene of a hash with a strip of its field TTLs above it: one card per
// field with the time it has left (what HTTL answers), "−1" for a field without a TTL, and
// "expired" for a field whose time has passed but that no command has touched yet (HLEN still
// counts it: the engine, like a server whose active expire cycle has not reached the key yet,
// deletes it only when it is read). The key's own TTL (EXPIRE) is shown beside the strip's title:
// it is separate from the field TTLs, and when it passes the whole hash goes. Cards of the fields
// whose TTL the step set, changed or removed (FieldTTLEvent) are framed; fields the step deleted
// because their time had passed (FieldExpireEvent) are listed as removed.
//
// The TTLs are read with engine.Object.HashFieldTTLs, which expires nothing. Example (lesson
// hash-field-ttl, step 2): HEXPIRE h 100 FIELDS 2 a b turns the listpack into a listpackex and
// the strip reads "a 100 s · b 100 s", both framed; after HSET h a 9 it reads "a −1 · b 100 s".
type FieldTTL struct {
	Key     string
	Rows    []FieldTTLRow // TTL fields by expiry first, then those without
	KeyTTL  int64         // the key's PTTL: −1 none
	Removed []string      // fields deleted by expiry in this step
	Expired int           // fields past their time, still stored
	WithTTL int           // fields with a TTL (expired ones included)
	Gone    string        // a hash the step removed (key TTL passed, last field deleted)
	GoneHow string        // the KeyEvent action: "expired" or "deleted"

	enc  encodingScene
	lang string
}

// FieldTTLRow is one field of the strip.
type FieldTTLRow struct {
	Field   string
	LeftMs  int64 // time left; −1 no TTL; ≤ 0 with Expired
	Expired bool
	Changed bool // the step set, changed or removed its TTL
}

func init() { register("fieldttl", func() Scene { return &FieldTTL{} }) }

// fieldTTLMax is how many cards the strip lists; the rest are summed up.
const fieldTTLMax = 24

// Update implements Scene.
func (s *FieldTTL) Update(in Input) {
	s.enc.Update(in)
	*s = FieldTTL{enc: s.enc, lang: in.Lang, Key: s.enc.Key, KeyTTL: -1}
	o := in.Engine.Peek([]byte(s.Key))
	changed := map[string]bool{}
	for _, x := range in.Last {
		for _, ev := range x.Events {
			switch e := ev.(type) {
			case engine.FieldTTLEvent:
				if e.Key == s.Key {
					changed[e.Field] = true
				}
			case engine.KeyEvent:
				if (e.Action == "expired" || e.Action == "deleted") && e.Type == "hash" {
					s.Gone, s.GoneHow = e.Key, e.Action
				}
			case engine.FieldExpireEvent:
				if e.Key == s.Key && !slices.Contains(s.Removed, e.Field) {
					s.Removed = append(s.Removed, e.Field)
				}
			}
		}
	}
	now := in.Engine.NowMs()
	o.HashFieldTTLs(func(f string, at int64) bool {
		r := FieldTTLRow{Field: f, LeftMs: -1, Changed: changed[f]}
		if at != 0 {
			s.WithTTL++
			r.LeftMs = at - now
			if at < now {
				r.Expired = true
				s.Expired++
			}
		}
		s.Rows = append(s.Rows, r)
		return true
	})
	slices.SortStableFunc(s.Rows, func(a, b FieldTTLRow) int {
		if (a.LeftMs < 0 && !a.Expired) != (b.LeftMs < 0 && !b.Expired) {
			if a.LeftMs < 0 && !a.Expired {
				return 1
			}
			return -1
		}
		return cmp.Compare(a.LeftMs, b.LeftMs)
	})
	if o != nil {
		if at := in.Engine.Expire(s.Key); at >= 0 {
			s.KeyTTL = max(at-now, 0)
		}
	}
}

// Frame implements Scene.
func (s *FieldTTL) Frame(r Rect, t float64) []Prim {
	if s.Gone != "" && !s.enc.Info.Exists {
		return s.goneFrame(r, t)
	}
	if len(s.Rows) == 0 && len(s.Removed) == 0 {
		return s.enc.Frame(r, t)
	}
	var l list
	f, in := margins(r)
	y := in.Y
	title := tr(s.lang, "field TTLs (HTTL) of %s", "TTL từng field (HTTL) của %s", s.Key)
	keyTTL := tr(s.lang, "key TTL: none", "TTL của key: không có")
	if s.KeyTTL >= 0 {
		keyTTL = tr(s.lang, "key TTL: %s", "TTL của key: %s", leftText(s.KeyTTL))
	}
	for _, line := range wrapNum(title+" · "+keyTTL, in.W, f*0.9, 2) {
		l.text(in.X, y, line, f*0.9, textColor, Left, false)
		y += f * 1.2
	}
	sum := tr(s.lang, "%s with a TTL · %s without", "%s có TTL · %s không có",
		num(int64(s.WithTTL)), num(int64(len(s.Rows)-s.WithTTL)))
	if s.Expired > 0 {
		sum += tr(s.lang, " · %s past their time, still counted by HLEN", " · %s đã hết hạn mà HLEN vẫn đếm", num(int64(s.Expired)))
	}
	if len(s.Removed) > 0 {
		sum += tr(s.lang, " · this step removed %s", " · bước này xoá %s", trPlural(s.lang, int64(len(s.Removed)), "expired field", "expired fields", "field hết hạn"))
	}
	for _, line := range wrapNum(sum, in.W, f*0.8, 3) {
		l.text(in.X, y, line, f*0.8, dim, Left, false)
		y += f * 1.1
	}
	y += f * 0.3
	// The cards, wrapped over at most three rows.
	size := f * 0.8
	h := size * 1.7
	x := in.X
	rows := 1
	shown := 0
	for i, row := range s.Rows {
		if i >= fieldTTLMax {
			break
		}
		label := fit(row.Field, in.W*0.4, size) + "  " + s.rowText(row)
		w := monoWidth(label, size) + size
		if x > in.X && x+w > in.X+in.W {
			if rows == 3 {
				break
			}
			rows++
			x, y = in.X, y+h+size*0.4
		}
		fill := panelC
		switch {
		case row.Expired:
			fill = ErrorC
		case row.LeftMs >= 0:
			fill = byteColor(byteTTL)
		}
		l.rect(x, y, w, h, fill)
		if row.Changed {
			l.frame(x-2, y-2, w+4, h+4, 2, accent.alpha(0.5+0.5*pulseAt(t)))
		}
		l.text(x+size*0.5, y+(h-size*1.2)/2, label, size, textOn(fill), Left, true)
		x += w + size*0.6
		shown++
	}
	if rest := len(s.Rows) - shown; rest > 0 {
		more := "+" + num(int64(rest))
		if x+monoWidth(more, size) > in.X+in.W {
			x, y = in.X, y+h+size*0.4
		}
		l.text(x, y+(h-size*1.2)/2, more, size, dim, Left, true)
	}
	y += h + f*0.6
	l.line(in.X, y-f*0.3, in.X+in.W, y-f*0.3, 1, grid)
	below := Rect{r.X, y, r.W, math.Max(r.Y+r.H-y, f*4)}
	return append(l, s.enc.Frame(below, t)...)
}

// goneFrame is the picture of a step that removed the hash: the key crossed out, and why.
func (s *FieldTTL) goneFrame(r Rect, t float64) []Prim {
	var l list
	f, in := margins(r)
	why := tr(s.lang, "the last field was deleted, so the key went with it", "field cuối cùng bị xoá nên key cũng mất")
	if s.GoneHow == "expired" {
		why = tr(s.lang, "the key's own TTL passed: the whole hash went, every field with it", "TTL của key đã hết: mất cả hash cùng mọi field")
	}
	y := in.Y
	l.text(in.X, y, tr(s.lang, "%s is gone", "%s không còn", s.Gone), f*1.2, textColor, Left, true)
	y += f * 1.8
	h := math.Min(in.H*0.35, f*5)
	l.rect(in.X, y, in.W, h, panelC)
	l.frame(in.X, y, in.W, h, 2, ErrorC.alpha(0.5+0.5*pulseAt(t)))
	l.line(in.X, y, in.X+in.W, y+h, math.Max(2, f*0.12), ErrorC)
	l.line(in.X, y+h, in.X+in.W, y, math.Max(2, f*0.12), ErrorC)
	lbl := "EXISTS " + s.Gone + " → 0"
	lw := monoWidth(lbl, f) + f
	l.rect(in.X+(in.W-lw)/2, y+h/2-f*0.8, lw, f*1.6, Background)
	l.text(in.X+in.W/2, y+h/2-f*0.6, lbl, f, textColor, Center, true)
	y += h + f*0.8
	for _, line := range wrapNum(why, in.W, f*0.9, 3) {
		l.text(in.X, y, line, f*0.9, dim, Left, false)
		y += f * 1.2
	}
	return l
}

// rowText is a card's TTL: the time left, −1, or expired.
func (s *FieldTTL) rowText(r FieldTTLRow) string {
	switch {
	case r.Expired:
		return tr(s.lang, "expired", "hết hạn")
	case r.LeftMs < 0:
		return "−1"
	}
	return leftText(r.LeftMs)
}

// leftText writes a time left: whole seconds from 10 s, else seconds with one decimal.
func leftText(ms int64) string {
	if ms >= 10000 {
		return num((ms+500)/1000) + " s"
	}
	return strconv.FormatFloat(float64(ms)/1000, 'f', 1, 64) + " s"
}

// Describe implements Describer.
func (s *FieldTTL) Describe() string {
	if s.Gone != "" && !s.enc.Info.Exists {
		if s.GoneHow == "expired" {
			return tr(s.lang, "%s is gone: its key TTL passed.", "%s không còn: TTL của key đã hết.", s.Gone)
		}
		return tr(s.lang, "%s is gone: its last field was deleted.", "%s không còn: field cuối cùng đã bị xoá.", s.Gone)
	}
	d := s.enc.Describe()
	if len(s.Rows) == 0 {
		return d
	}
	p := tr(s.lang, "%s: %s with a TTL, %s without", "%s: %s có TTL, %s không có", s.Key,
		num(int64(s.WithTTL)), num(int64(len(s.Rows)-s.WithTTL)))
	if s.Expired > 0 {
		p += tr(s.lang, ", %s past their time", ", %s đã hết hạn", num(int64(s.Expired)))
	}
	return sentence(p, d)
}

// Focus implements Focuser.
func (s *FieldTTL) Focus() (string, string) { return "fieldttl", s.Key }
