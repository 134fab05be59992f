package scene

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"redscope/engine"
	"redscope/engine/dict"
	"redscope/engine/listpack"
)

// encodingScene draws a hash, set or sorted set as its real storage: a listpack as its bytes (header,
// each entry's encoding byte, data and backlen, the EOF), an intset as its header and fixed-width
// integers, a hashtable as its bucket array and chains. Each step's trace events light what
// changed: the entry written at its offset (with the tail that memmove shifted sliding into
// place), the intset value and its width upgrade, the bucket a field went to, and the
// conversion with the rule that fired. MEMORY USAGE readings of the step are drawn as bars, so
// the jump at the conversion is measured, not told.
type encodingScene struct {
	Key  string
	Info engine.KeyInfo
	Type string // "hash", "set", "zset" or "" (missing / other)
	Ver  engine.Version

	LP *lpView // listpack encodings
	IS *isView // intset
	HT *htView // hashtable (and a skiplist zset's dict)

	Conv *engine.EncodingEvent // the conversion of this step, if any
	Mem  []memReading          // MEMORY USAGE replies of this step for Key
	Note string                // what the last change did, in the input's language

	lang  string
	img   cachedImage // byte minimap or bucket map
	watch []string    // the watched keys (the start card names them)
	fit   fitter      // the zoom that fills the stage (layout.go)
}

// memReading is one MEMORY USAGE reply of the step.
type memReading struct {
	Bytes    int64
	Encoding string // the key's encoding when it was measured
	After    bool   // measured after the step's conversion
}

// byteClassName is a legend label.
func byteClassName(c int, typ, lang string) string {
	switch c {
	case byteLPHeader:
		return tr(lang, "header (total, count)", "header (tổng byte, số entry)")
	case byteEnc:
		return tr(lang, "encoding byte", "byte encoding")
	case byteField:
		if typ == "zset" || typ == "set" {
			return "member"
		}
		return "field"
	case byteValue:
		if typ == "zset" {
			return "score"
		}
		return "value"
	case byteTTL:
		return "TTL"
	case byteBacklen:
		return "backlen"
	case byteEOF:
		return "EOF 0xFF"
	case byteISHeader:
		return tr(lang, "header (encoding, length)", "header (encoding, length)")
	case byteISValue, byteISValue2:
		return tr(lang, "integers", "số nguyên")
	}
	return ""
}

// byteSpan is a byte range [From, To).
type byteSpan struct{ From, To int }

// lpEntry is one listpack entry.
type lpEntry struct {
	Off, Size       int
	Hdr, Data, Back int // encoding bytes, data bytes, backlen bytes
	Text            string
	Int             bool
	Enc             string
	Class           int // byteField, byteValue or byteTTL
}

// lpView is a listpack as drawn.
type lpView struct {
	Bytes     []byte
	Entries   []lpEntry
	Class     []uint8    // per byte
	Tuple     int        // entries per element: 1 set, 2 hash/zset, 3 listpackex
	Alloc     int        // usable size of the allocation
	New       []byteSpan // bytes written by the step (final offsets)
	ShiftFrom int        // first byte of the tail the last edit moved (final offsets), -1 none
	Shift     int        // how far it moved (+ insert, − delete)
	Last      *engine.ListpackEvent
}

// newLPView reads lp; tuple is the number of entries per element (1, 2 or 3).
func newLPView(lp *listpack.Listpack, tuple int, usable int) *lpView {
	b := lp.Bytes()
	v := &lpView{Bytes: append([]byte(nil), b...), Tuple: max(tuple, 1), Alloc: usable, ShiftFrom: -1}
	v.Class = make([]uint8, len(b))
	for i := 0; i < len(b) && i < listpack.HeaderSize; i++ {
		v.Class[i] = byteLPHeader
	}
	if len(b) > 0 {
		v.Class[len(b)-1] = byteEOF
	}
	var buf [24]byte
	i := 0
	for p := lp.First(); p >= 0; p = lp.Next(p) {
		size := lp.EntrySizeAt(p)
		if size == 0 {
			break
		}
		enc := lp.EncodingAt(p)
		back := 1
		for k := 1; k <= 5; k++ {
			if listpack.BacklenSize(size-k) == k {
				back = k
				break
			}
		}
		hdr := 1
		switch enc {
		case listpack.EncStr12:
			hdr = 2
		case listpack.EncStr32:
			hdr = 5
		}
		data := size - back - hdr
		if enc == listpack.EncUint7 { // the value lives in the encoding byte itself
			hdr, data = 0, 1
		}
		cls := byteField
		if v.Tuple >= 2 {
			switch i % v.Tuple {
			case 1:
				cls = byteValue
			case 2:
				cls = byteTTL
			}
		}
		e := lpEntry{Off: p, Size: size, Hdr: hdr, Data: data, Back: back, Int: enc.IsInt(), Enc: enc.String(), Class: cls,
			Text: string(lp.GetString(p, buf[:]))}
		v.Entries = append(v.Entries, e)
		for j := 0; j < size && p+j < len(b); j++ {
			c := uint8(cls)
			switch {
			case j < hdr:
				c = byteEnc
			case j >= size-back:
				c = byteBacklen
			}
			v.Class[p+j] = c
		}
		i++
	}
	return v
}

// elements is the number of fields / members.
func (v *lpView) elements() int { return len(v.Entries) / v.Tuple }

// isNew reports whether byte i was written by the step.
func (v *lpView) isNew(i int) bool {
	for _, s := range v.New {
		if i >= s.From && i < s.To {
			return true
		}
	}
	return false
}

// applyEvents computes the bytes the step wrote and the tail the last edit shifted, in final
// offsets, from the step's listpack events in order.
func (v *lpView) applyEvents(evs []engine.ListpackEvent) {
	v.New = v.New[:0]
	v.ShiftFrom, v.Shift = -1, 0
	for i := range evs {
		ev := evs[i]
		delta := ev.Added - ev.Removed
		end := ev.Offset + ev.Removed // first byte after the edited range, before the edit
		var out []byteSpan
		for _, s := range v.New {
			switch {
			case s.To <= ev.Offset:
				out = append(out, s)
			case s.From >= end:
				out = append(out, byteSpan{s.From + delta, s.To + delta})
			default: // overlapped by a delete or replace: keep the part before the edit
				if s.From < ev.Offset {
					out = append(out, byteSpan{s.From, ev.Offset})
				}
			}
		}
		if ev.Added > 0 {
			out = addSpan(out, byteSpan{ev.Offset, ev.Offset + ev.Added})
		}
		v.New = out
		v.ShiftFrom, v.Shift = ev.Offset+ev.Added, delta
		if ev.Moved == 0 || delta == 0 {
			v.ShiftFrom, v.Shift = -1, 0
		}
		v.Last = &evs[i]
	}
	// Later edits may have shifted the tail start of an earlier one; only the last edit animates.
	if v.ShiftFrom > len(v.Bytes) {
		v.ShiftFrom, v.Shift = -1, 0
	}
}

// addSpan adds n to spans, merged with a span it touches (appends stay one span).
func addSpan(spans []byteSpan, n byteSpan) []byteSpan {
	for i, sp := range spans {
		if sp.To == n.From || n.To == sp.From {
			spans[i] = byteSpan{min(sp.From, n.From), max(sp.To, n.To)}
			return spans
		}
	}
	return append(spans, n)
}

// isView is an intset as drawn.
type isView struct {
	Width    int // bytes per member: 2, 4 or 8
	Values   []int64
	NewPos   int // index of the member the step inserted, -1 none
	OldWidth int // width before an upgrade in this step (0 when none)
	Alloc    int
}

// byteLen is the blob size: 8 + n × width.
func (v *isView) byteLen() int { return 8 + len(v.Values)*v.Width }

// byteClass is the class of byte i of the blob.
func (v *isView) byteClass(i int) int {
	if i < 8 {
		return byteISHeader
	}
	if ((i-8)/v.Width)%2 == 0 {
		return byteISValue
	}
	return byteISValue2
}

// htView is a hash table as drawn.
type htView struct {
	View    engine.DictView
	Lens    [2][]uint16 // chain length per bucket
	Hist    [5]int      // buckets with 0, 1, 2, 3, 4+ entries (table 0)
	HitT    int         // table of the bucket the step's last insert went to
	HitIdx  int64       // its index, -1 none
	HitKey  string      // the key inserted there
	Resized bool        // the step resized the table
}

// newHTView summarises a dict view.
func newHTView(d engine.DictView) *htView {
	h := &htView{View: d, HitIdx: -1}
	for t := 0; t < 2; t++ {
		h.Lens[t] = make([]uint16, d.Size[t])
	}
	for _, b := range d.Buckets {
		if b.Table >= 0 && b.Table < 2 && b.Index < uint64(len(h.Lens[b.Table])) {
			h.Lens[b.Table][b.Index] = uint16(min(len(b.Keys), math.MaxUint16))
		}
	}
	for _, n := range h.Lens[0] {
		h.Hist[min(int(n), 4)]++
	}
	return h
}

// chainColor colours a bucket by its chain length.
func chainColor(n int) Color {
	switch {
	case n <= 0:
		return zeroC
	case n == 1:
		return dataC
	case n == 2:
		return oneC
	}
	return runC
}

// encKeyOf is the key a container event is about.
func encKeyOf(ev engine.Event) (string, bool) {
	switch e := ev.(type) {
	case engine.ListpackEvent:
		return e.Key, true
	case engine.IntsetEvent:
		return e.Key, true
	case engine.DictEvent:
		return e.Key, true
	case engine.SkiplistEvent:
		return e.Key, true
	case engine.EncodingEvent:
		return e.Key, true
	case engine.KeyEvent:
		return e.Key, true
	}
	return "", false
}

// containerFocus picks the key to draw: the last key a container event touched, else the first
// watched key that holds a hash, set or sorted set, else the first watched key.
func containerFocus(in Input) string {
	for i := len(in.Last) - 1; i >= 0; i-- {
		evs := in.Last[i].Events
		for j := len(evs) - 1; j >= 0; j-- {
			if k, ok := encKeyOf(evs[j]); ok && k != "" {
				return k
			}
		}
	}
	for _, k := range in.Keys {
		if o := in.Engine.Peek([]byte(k)); o != nil && (o.Type == engine.TypeHash || o.Type == engine.TypeSet || o.Type == engine.TypeZSet) {
			return k
		}
	}
	if len(in.Keys) > 0 {
		return in.Keys[0]
	}
	return ""
}

// memReadings collects the step's MEMORY USAGE replies for key, split at the conversion.
func memReadings(in Input, key string, cur string) (out []memReading, conv *engine.EncodingEvent) {
	for _, x := range in.Last {
		for _, ev := range x.Events {
			if e, ok := ev.(engine.EncodingEvent); ok && e.Key == key {
				e := e
				conv = &e
			}
		}
		f := strings.Fields(x.Cmd)
		if len(f) < 3 || !strings.EqualFold(f[0], "memory") || !strings.EqualFold(f[1], "usage") || f[2] != key {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimPrefix(x.Reply, "(integer) "), 10, 64)
		if err != nil {
			continue
		}
		r := memReading{Bytes: n, Encoding: cur, After: conv != nil}
		if conv == nil {
			r.Encoding = ""
		}
		out = append(out, r)
	}
	// Readings taken before the conversion had the old encoding.
	for i := range out {
		if out[i].Encoding == "" {
			if conv != nil {
				out[i].Encoding = conv.From
			} else {
				out[i].Encoding = cur
			}
		}
	}
	return out, conv
}

// Update implements Scene.
func (s *encodingScene) Update(in Input) {
	s.fit.reset()
	img := s.img
	*s = encodingScene{lang: in.Lang, Ver: in.Engine.Version(), img: img}
	s.watch = in.Keys
	s.img.gen++
	s.Key = containerFocus(in)
	if s.Key == "" {
		return
	}
	s.Info = in.Engine.Inspect(s.Key)
	o := in.Engine.Peek([]byte(s.Key))
	if o != nil {
		switch o.Type {
		case engine.TypeHash, engine.TypeSet, engine.TypeZSet:
			s.Type = o.Type.String()
		}
	}
	s.Mem, s.Conv = memReadings(in, s.Key, s.Info.Encoding)
	if s.Type == "" {
		return
	}
	var lpEvs []engine.ListpackEvent
	var isEv *engine.IntsetEvent
	var dictIns *engine.DictEvent
	resized := false
	for _, x := range in.Last {
		for _, ev := range x.Events {
			switch e := ev.(type) {
			case engine.ListpackEvent:
				if e.Key == s.Key {
					lpEvs = append(lpEvs, e)
				}
			case engine.IntsetEvent:
				if e.Key == s.Key {
					e := e
					isEv = &e
				}
			case engine.DictEvent:
				if e.Key == s.Key {
					if e.Op == "insert" {
						e := e
						dictIns = &e
					}
					if e.Op == "resize" {
						resized = true
					}
				}
			case engine.EncodingEvent:
				if e.Key == s.Key {
					lpEvs = lpEvs[:0] // edits before a conversion are gone with the old listpack
					isEv = nil
				}
			}
		}
	}
	al := in.Engine.Allocator()
	if lp := o.Listpack(); lp != nil {
		tuple := 1
		switch {
		case o.Enc == engine.EncListpackEx:
			tuple = 3
		case o.Type == engine.TypeHash || o.Type == engine.TypeZSet:
			tuple = 2
		}
		s.LP = newLPView(lp, tuple, lp.Usable(al))
		s.LP.applyEvents(lpEvs)
		s.Note = lpNote(s.LP.Last, s.lang)
	} else if is := o.Intset(); is != nil {
		v := &isView{Width: is.Encoding(), NewPos: -1, Alloc: is.Usable(al)}
		is.All(func(_ int, x int64) bool { v.Values = append(v.Values, x); return true })
		if isEv != nil {
			if isEv.Op == "insert" || isEv.Op == "upgrade" {
				v.NewPos = isEv.Pos
			}
			if isEv.Op == "upgrade" {
				v.OldWidth = isEv.OldWidth
			}
			s.Note = isNote(*isEv, s.lang)
		}
		s.IS = v
	} else if d, ok := o.Dict(); ok {
		s.HT = newHTView(d)
		s.HT.Resized = resized
		if dictIns != nil {
			s.HT.HitT, s.HT.HitIdx = dictIns.Table, int64(dictIns.Index)
			for _, b := range d.Buckets {
				if b.Table == dictIns.Table && int64(b.Index) == s.HT.HitIdx && len(b.Keys) > 0 {
					s.HT.HitKey = b.Keys[0] // dictAdd links new entries at the head
				}
			}
		}
	}
	if s.Conv != nil {
		s.Note = tr(s.lang, "%s → %s: %s", "%s → %s: %s", s.Conv.From, s.Conv.To, whyText(s.lang, s.Conv.Why))
	}
}

func lpNote(ev *engine.ListpackEvent, lang string) string {
	if ev == nil {
		return ""
	}
	val := ev.Value
	if len(val) > 24 {
		val = val[:21] + "…"
	}
	switch ev.Op {
	case "insert":
		return tr(lang, "insert %q at offset %s: +%s, memmove %s", "chèn %q tại offset %s: +%s, memmove %s",
			val, num(int64(ev.Offset)), nBytes(lang, ev.Added), nBytes(lang, ev.Moved))
	case "replace":
		return tr(lang, "replace at offset %s: %s → %s, memmove %s", "thay tại offset %s: %s → %s, memmove %s",
			num(int64(ev.Offset)), num(int64(ev.Removed)), nBytes(lang, ev.Added), nBytes(lang, ev.Moved))
	default:
		return tr(lang, "delete %s at offset %s: −%s, memmove %s", "xoá %s tại offset %s: −%s, memmove %s",
			trPlural(lang, int64(ev.Entries), "entry", "entries", "entry"), num(int64(ev.Offset)), nBytes(lang, ev.Removed), nBytes(lang, ev.Moved))
	}
}

func isNote(ev engine.IntsetEvent, lang string) string {
	switch ev.Op {
	case "upgrade":
		return tr(lang, "%d needs %s: every member rewritten from %s to %s", "%d cần %s: mọi phần tử viết lại từ %s thành %s",
			ev.Value, nBytes(lang, ev.NewWidth), nBytes(lang, ev.OldWidth), nBytes(lang, ev.NewWidth))
	case "insert":
		return tr(lang, "insert %d at position %d (kept sorted): memmove %s", "chèn %d ở vị trí %d (giữ thứ tự tăng): memmove %s",
			ev.Value, ev.Pos, nBytes(lang, ev.Moved))
	}
	return tr(lang, "remove %d from position %d", "xoá %d ở vị trí %d", ev.Value, ev.Pos)
}

// encodingPath is the encodings a type goes through under version v, smallest first.
func encodingPath(typ string, v engine.Version) []string {
	switch typ {
	case "hash":
		return []string{"listpack", "hashtable"}
	case "set":
		if v.Has(engine.V72) {
			return []string{"intset", "listpack", "hashtable"}
		}
		return []string{"intset", "hashtable"}
	case "zset":
		return []string{"listpack", "skiplist"}
	}
	return nil
}

// Frame implements Scene.
func (s *encodingScene) Frame(r Rect, t float64) []Prim { return s.fit.frame(r, t, s.layout) }

// layout lays the scene out in r (Frame zooms it to fill the stage).
func (s *encodingScene) layout(r Rect, t float64) []Prim {
	if c, ok := s.start(); ok {
		return drawStart(r, s.lang, c)
	}
	var l list
	f := fontSize(r)
	in := r.Inset(f * 0.8)
	y := in.Y
	small := f * 0.75
	if s.Key == "" || !s.Info.Exists {
		msg := tr(s.lang, "No hash, set or sorted set yet: run HSET, SADD or ZADD.", "Chưa có hash, set hay sorted set: hãy chạy HSET, SADD hoặc ZADD.")
		if s.Key != "" {
			msg = s.Key + ": " + tr(s.lang, "(missing)", "(không tồn tại)")
		}
		for _, ln := range wrap(msg, in.W, f*0.9, 3) {
			l.text(in.X, y, ln, f*0.9, dim, Left, true)
			y += f * 1.2
		}
		return l
	}
	// Title.
	title := fit(s.Key, in.W*0.45, f)
	l.text(in.X, y, title, f, textColor, Left, true)
	sub := fmt.Sprintf("%s · %s", s.Info.Type, s.Info.Encoding)
	tx := in.X + monoWidth(title, f) + f*0.6
	l.text(tx, y+f*0.15, fit(sub, in.X+in.W-tx, f*0.8), f*0.8, dim, Left, true)
	y += f * 1.45
	// Encoding path(s).
	y = s.drawPath(&l, in, y, f, t)
	// Conversion banner or the last edit.
	if s.Note != "" {
		c := dim
		if s.Conv != nil {
			c = textColor.Mix(accent, pulseAt(t))
		}
		for _, ln := range wrap(s.Note, in.W, small, 2) {
			l.text(in.X, y, ln, small, c, Left, true)
			y += small * 1.3
		}
		y += f * 0.2
	}
	// Bottom block: memory bars and legend.
	memLines := max(1, len(s.Mem))
	legendH := small * 1.35 * float64(s.legendRows(in.W, small))
	memH := float64(memLines)*f*1.15 + f*0.2 + memAxisHeight(in.W, f, s.lang)
	bottomH := memH + legendH + f*0.3
	main := Rect{in.X, y, in.W, math.Max(f*2, in.Y+in.H-bottomH-y)}
	switch {
	case s.LP != nil:
		s.drawLP(&l, main, f, t)
	case s.IS != nil:
		s.drawIS(&l, main, f, t)
	case s.HT != nil:
		s.drawHT(&l, main, f, t)
	}
	yb := main.Y + main.H + f*0.3
	s.drawMem(&l, Rect{in.X, yb, in.W, memH}, f, t)
	s.drawLegend(&l, in.X, yb+memH, in.W, small)
	return l
}

// drawPath draws the type's encoding path for the current version and, for sets, the other
// version's path dimmed (7.0 has no set listpack).
func (s *encodingScene) drawPath(l *list, in Rect, y, f, t float64) float64 {
	size := f * 0.75
	rows := []engine.Version{s.Ver}
	if s.Type == "set" {
		rows = []engine.Version{engine.V70, engine.V72}
	}
	for _, v := range rows {
		cur := s.Type != "set" || v.Has(engine.V72) == s.Ver.Has(engine.V72)
		x := in.X
		if s.Type == "set" {
			label := "Redis 7.0"
			if v.Has(engine.V72) {
				label = "Redis 7.2+"
			}
			c := dim
			if cur {
				c = textColor
			}
			l.text(x, y, label, size, c, Left, true)
			x += monoWidth("Redis 7.2+", size) + size
		}
		for i, enc := range encodingPath(s.Type, v) {
			if i > 0 {
				l.text(x, y, "→", size, dim, Left, true)
				x += monoWidth("→ ", size)
			}
			w := monoWidth(enc, size) + size*0.8
			if x+w > in.X+in.W {
				break
			}
			here := cur && enc == s.Info.Encoding
			bg := panelC
			fg := dim
			if cur {
				fg = encColor(enc) // a text colour too: ≥ 4.5:1 on Panel
			}
			if here { // filled with the structure's colour (palette.go), as in every scene
				bg = encColor(enc)
				if s.Conv != nil {
					bg = bg.Mix(panelC, 0.5*(1-ease(t)))
				}
				fg = textOn(bg)
			}
			l.rect(x, y-size*0.15, w, size*1.3, bg)
			l.text(x+w/2, y, enc, size, fg, Center, true)
			x += w + size*0.4
		}
		y += size * 1.6
	}
	return y + f*0.1
}

func (s *encodingScene) legendClasses() []int {
	switch {
	case s.LP != nil:
		cs := []int{byteLPHeader, byteEnc, byteField}
		if s.LP.Tuple >= 2 {
			cs = append(cs, byteValue)
		}
		if s.LP.Tuple == 3 {
			cs = append(cs, byteTTL)
		}
		return append(cs, byteBacklen, byteEOF)
	case s.IS != nil:
		return []int{byteISHeader, byteISValue}
	}
	return nil
}

func (s *encodingScene) legendItems() []struct {
	c    Color
	name string
} {
	var out []struct {
		c    Color
		name string
	}
	for _, c := range s.legendClasses() {
		out = append(out, struct {
			c    Color
			name string
		}{byteColor(c), byteClassName(c, s.Type, s.lang)})
	}
	if s.HT != nil {
		for n := 0; n <= 3; n++ {
			name := tr(s.lang, "empty bucket", "bucket trống")
			if n > 0 {
				name = tr(s.lang, "chain of %d", "chuỗi %d", n)
			}
			if n == 3 {
				name = tr(s.lang, "chain of 3+", "chuỗi 3+")
			}
			out = append(out, struct {
				c    Color
				name string
			}{chainColor(n), name})
		}
	}
	out = append(out, struct {
		c    Color
		name string
	}{accent, tr(s.lang, "written by this step", "vừa ghi ở bước này")})
	return out
}

// legendRows counts the rows the legend wraps to in width w.
func (s *encodingScene) legendRows(w, size float64) int {
	rows, x := 1, 0.0
	for _, it := range s.legendItems() {
		iw := size*1.3 + monoWidth(it.name, size) + size
		if x > 0 && x+iw > w {
			rows++
			x = 0
		}
		x += iw
	}
	return rows
}

func (s *encodingScene) drawLegend(l *list, x0, y, w, size float64) {
	x := x0
	for _, it := range s.legendItems() {
		name := fit(it.name, w-size*1.3, size)
		iw := size*1.3 + monoWidth(name, size) + size
		if x > x0 && x+iw > x0+w {
			x = x0
			y += size * 1.35
		}
		l.rect(x, y+size*0.15, size*0.8, size*0.8, it.c)
		l.text(x+size*1.1, y, name, size, dim, Left, true)
		x += iw
	}
}

// drawMem draws the step's MEMORY USAGE readings (or the current figure) as bars.
func (s *encodingScene) drawMem(l *list, r Rect, f, t float64) {
	drawMemBars(l, r, f, t, s.Mem, s.Info, s.Conv != nil, s.lang)
}

// drawMemBars draws MEMORY USAGE readings as bars (the key's current figure when there are none);
// conv marks a step that converted the key (the "after" bars grow in).
func drawMemBars(l *list, r Rect, f, t float64, mem []memReading, info engine.KeyInfo, conv bool, lang string) {
	rs := mem
	if len(rs) == 0 {
		if info.Memory < 0 {
			return
		}
		rs = []memReading{{Bytes: info.Memory, Encoding: info.Encoding}}
	}
	size := f * 0.75
	barMax := r.W * 0.5 // the fixed scale's full length (layout.go)
	y := r.Y
	for i, m := range rs {
		label := fmt.Sprintf("MEMORY USAGE %d (%s)", m.Bytes, m.Encoding)
		if len(mem) > 1 {
			tag := tr(lang, "before", "trước")
			if m.After || i == len(rs)-1 && !conv && i > 0 {
				tag = tr(lang, "after", "sau")
			}
			label = tag + ": " + label
		}
		bw := memBarLen(m.Bytes, barMax)
		if m.After && conv {
			bw *= 0.3 + 0.7*ease(t)
		}
		c := encColor(m.Encoding) // the structure's colour (palette.go)
		if bw > 0 {
			l.rect(r.X, y+f*0.1, math.Max(2, bw), f*0.75, c)
		}
		l.text(r.X+bw+f*0.4, y+f*0.05, fit(label, r.W-bw-f*0.4, size), size, textColor, Left, true)
		y += f * 1.15
	}
	if y+memAxisHeight(r.W, f, lang) <= r.Y+r.H+0.01 {
		drawMemAxis(l, r.X, y+f*0.2, barMax, r.W, f, lang)
	}
}

// drawLP draws a listpack's bytes: cells with their characters when they fit, else one pixel
// per byte; the bytes the step wrote are framed, and the tail memmove shifted slides in.
func (s *encodingScene) drawLP(l *list, r Rect, f, t float64) {
	drawLPBytes(l, s.LP, r, f, t, &s.img, s.lang)
}

// drawLPBytes draws listpack v's bytes in r; img receives the minimap when cells would be tiny.
func drawLPBytes(l *list, v *lpView, r Rect, f, t float64, img *cachedImage, lang string) {
	size := f * 0.72
	head := fmt.Sprintf(pick(lang, "%d entries · %d bytes · malloc class %d", "%d entry · %d byte · lớp malloc %d"), len(v.Entries), len(v.Bytes), v.Alloc)
	l.text(r.X, r.Y, fit(head, r.W, size), size, dim, Left, true)
	y := r.Y + size*1.4
	g := layoutGrid(len(v.Bytes), r.W, r.Y+r.H-y, f, 8)
	if !g.Text && len(v.Bytes) > maxCells { // thousands of tiny cells: one image instead
		g = imageGrid(len(v.Bytes), r.W, r.Y+r.H-y)
	}
	if g.Image {
		px := img.fill(g.Cols, len(v.Bytes), func(i int) Color {
			c := byteColor(int(v.Class[i]))
			if v.isNew(i) { // tinted, so the entries stay readable under the highlight
				return c.Mix(accent, 0.45)
			}
			return c
		})
		*l = append(*l, Prim{Kind: KImage, X: r.X, Y: y, W: g.ImgW, H: g.ImgH, Img: px})
		return
	}
	k := ease(t)
	for i, b := range v.Bytes {
		c := byteColor(int(v.Class[i]))
		cell := g.cell(r.X, y, i)
		if v.ShiftFrom >= 0 && i >= v.ShiftFrom && k < 1 {
			from := g.cell(r.X, y, max(0, i-v.Shift))
			cell.X = from.X + (cell.X-from.X)*k
			cell.Y = from.Y + (cell.Y-from.Y)*k
		}
		isNew := v.isNew(i)
		if isNew {
			c = c.Mix(Background, 0.6*(1-k))
		}
		l.rect(cell.X+1, cell.Y+1, cell.W-2, cell.H-2, c)
		moving := v.ShiftFrom >= 0 && i >= v.ShiftFrom && k < 1
		if g.Text && !moving {
			cls := int(v.Class[i])
			txt := ""
			switch {
			case cls == byteField || cls == byteValue || cls == byteTTL:
				if isDataText(v, i) {
					txt = printable(b)
				} else {
					txt = fmt.Sprintf("%02x", b)
				}
			case cls == byteEOF:
				txt = "ff"
			}
			ts := math.Max(f*0.7, math.Min(f*1.1, g.CH*0.45)) // grows with a big cell
			if monoWidth(txt, ts) > cell.W-2 {
				ts = f * 0.7
			}
			if txt != "" && monoWidth(txt, ts) <= cell.W-2 {
				l.text(cell.X+cell.W/2, cell.Y+(cell.H-ts)/2, txt, ts, Background, Center, true)
			}
		}
	}
	spanFrames(l, v, g, r.X, y, f, t)
}

// spanFrames frames the bytes the step wrote: one outline per row segment of each span.
func spanFrames(l *list, v *lpView, g gridLayout, x, y, f, t float64) {
	for _, sp := range v.New {
		for i := sp.From; i < sp.To && i < len(v.Bytes); {
			end := min(sp.To, (i/g.Cols+1)*g.Cols, len(v.Bytes))
			a := g.cell(x, y, i)
			w := float64(end-i) * g.CW
			l.frame(a.X+1, a.Y+1, w-2, a.H-2, math.Max(1.5, f*0.1), accent.Alpha(pulseAt(t)))
			i = end
		}
	}
}

// isDataText reports whether byte i is a character of a string entry (integers are shown in hex).
func isDataText(v *lpView, i int) bool {
	for _, e := range v.Entries {
		if i >= e.Off && i < e.Off+e.Size {
			return !e.Int
		}
	}
	return false
}

// drawIS draws an intset: the 8-byte header, then each member's bytes with its value.
func (s *encodingScene) drawIS(l *list, r Rect, f, t float64) {
	v := s.IS
	size := f * 0.72
	head := fmt.Sprintf(pick(s.lang, "%d integers × %d bytes + 8-byte header = %d bytes · malloc class %d",
		"%d số nguyên × %d byte + header 8 byte = %d byte · lớp malloc %d"), len(v.Values), v.Width, v.byteLen(), v.Alloc)
	for _, ln := range wrap(head, r.W, size, 2) {
		l.text(r.X, r.Y, ln, size, dim, Left, true)
		r.Y += size * 1.35
		r.H -= size * 1.35
	}
	n := v.byteLen()
	g := layoutGrid(n, r.W, r.H, f, 8)
	if g.Image {
		px := s.img.fill(g.Cols, n, func(i int) Color { return byteColor(v.byteClass(i)) })
		*l = append(*l, Prim{Kind: KImage, X: r.X, Y: r.Y, W: g.ImgW, H: g.ImgH, Img: px})
		return
	}
	k := ease(t)
	tick := func(x, y0, h float64) { l.line(x, y0+1, x, y0+h-1, 1, Background) }
	// The header: encoding (4 bytes) and length (4 bytes), one box each with byte ticks.
	for half := 0; half < 2; half++ {
		c0 := g.cell(r.X, r.Y, half*4)
		l.rect(c0.X+1, c0.Y+1, 4*g.CW-2, c0.H-2, byteColor(byteISHeader))
		for b := 1; b < 4; b++ {
			tick(c0.X+float64(b)*g.CW, c0.Y, c0.H)
		}
	}
	// Members: one box per member (a member never wraps: columns are a multiple of 8).
	for m, x := range v.Values {
		first := g.cell(r.X, r.Y, 8+m*v.Width)
		w := g.CW * float64(v.Width)
		c := byteColor(v.byteClass(8 + m*v.Width))
		if m == v.NewPos {
			c = c.Mix(Background, 0.6*(1-k))
		}
		if v.OldWidth > 0 { // an upgrade: every member was rewritten wider
			c = c.Mix(accent, 0.5*(1-k))
		}
		l.rect(first.X+1, first.Y+1, w-2, first.H-2, c)
		for b := 1; b < v.Width; b++ {
			tick(first.X+float64(b)*g.CW, first.Y, first.H)
		}
		if m == v.NewPos {
			l.frame(first.X+1, first.Y+1, w-2, first.H-2, math.Max(1.5, f*0.1), accent.Alpha(pulseAt(t)))
		}
		txt := strconv.FormatInt(x, 10)
		ts := math.Min(f*0.7, (w-4)/(monoAdvance*float64(len(txt))))
		if ts >= 7 {
			l.text(first.X+w/2, first.Y+(first.H-ts)/2, txt, ts, Background, Center, true)
		}
	}
	if g.Text {
		hdr := g.cell(r.X, r.Y, 0)
		lbl := fmt.Sprintf("enc %d", v.Width)
		if monoWidth(lbl, f*0.6) <= 4*g.CW-4 {
			l.text(hdr.X+2*g.CW, hdr.Y+(hdr.H-f*0.6)/2, lbl, f*0.6, textColor, Center, true)
			lbl = fmt.Sprintf("len %d", len(v.Values))
			l.text(hdr.X+6*g.CW, hdr.Y+(hdr.H-f*0.6)/2, fit(lbl, 4*g.CW-4, f*0.6), f*0.6, textColor, Center, true)
		}
	}
}

// drawHT draws a hash table: the bucket array (cells with chains below for a small table, one
// pixel per bucket for a big one) and the chains of the buckets around the step's insert.
func (s *encodingScene) drawHT(l *list, r Rect, f, t float64) {
	h := s.HT
	d := h.View
	size := f * 0.72
	head := fmt.Sprintf(pick(s.lang, "table size %d · %d entries · load %.2f", "bảng %d bucket · %d entry · tải %.2f"),
		d.Size[0], d.Used[0], float64(d.Used[0])/math.Max(1, float64(d.Size[0])))
	if d.RehashIdx >= 0 {
		head += fmt.Sprintf(pick(s.lang, " · rehashing → %d (rehashidx %d)", " · đang rehash → %d (rehashidx %d)"), d.Size[1], d.RehashIdx)
	}
	l.text(r.X, r.Y, fit(head, r.W, size), size, dim, Left, true)
	y := r.Y + size*1.4
	hist := fmt.Sprintf(pick(s.lang, "buckets: %d empty · %d×1 · %d×2 · %d×3 · %d×4+", "bucket: %d trống · %d×1 · %d×2 · %d×3 · %d×4+"),
		h.Hist[0], h.Hist[1], h.Hist[2], h.Hist[3], h.Hist[4])
	l.text(r.X, y, fit(hist, r.W, size), size, dim, Left, true)
	y += size * 1.5
	k := ease(t)
	fade := func(c Color) Color {
		if s.Conv != nil {
			return c.Mix(Background, 0.7*(1-k))
		}
		return c
	}
	n := int(d.Size[0])
	if n == 0 {
		return
	}
	// Bucket map: one pixel (scaled) per bucket of table 0.
	mapH := math.Min((r.Y+r.H-y)*0.4, f*6)
	cols := 1
	for cols*cols < n*4 && cols < n {
		cols *= 2
	}
	rows := (n + cols - 1) / cols
	cell := math.Min(math.Min(r.W/float64(cols), mapH/float64(rows)), f*2) // a small table stays small
	if cell >= 1 {
		px := s.img.fill(cols, n, func(i int) Color {
			if h.HitIdx == int64(i) && h.HitT == 0 {
				return accent
			}
			return chainColor(int(h.Lens[0][i]))
		})
		*l = append(*l, Prim{Kind: KImage, X: r.X, Y: y, W: cell * float64(cols), H: cell * float64(rows), Img: px})
		if h.HitIdx >= 0 && h.HitT == 0 && cell >= 3 {
			i := int(h.HitIdx)
			l.frame(r.X+float64(i%cols)*cell-1, y+float64(i/cols)*cell-1, cell+2, cell+2, 1.5, accent.Alpha(pulseAt(t)))
		}
		y += cell*float64(rows) + f*0.5
	}
	// Chains: rows "[index] → key → key", around the hit bucket (or the first non-empty ones).
	lineH := f * 1.25
	maxRows := int((r.Y + r.H - y) / lineH)
	if maxRows <= 0 {
		return
	}
	bs := d.Buckets
	if d.RehashIdx < 0 && n <= maxRows && n <= 64 {
		// A small table: every bucket, the empty ones as NULL, rows grown to fill the stage.
		all := make([]dict.Bucket[string], n)
		for i := range all {
			all[i].Index = uint64(i)
		}
		for _, b := range bs {
			if b.Table == 0 && int(b.Index) < n {
				all[b.Index] = b
			}
		}
		bs = all
		lineH = math.Min(f*2, math.Max(lineH, (r.Y+r.H-y)/float64(n)))
		maxRows = n
	}
	start := 0
	for i, b := range bs {
		if b.Table == h.HitT && int64(b.Index) == h.HitIdx {
			start = max(0, i-maxRows/2)
			break
		}
	}
	start = max(0, min(start, len(bs)-maxRows))
	for i := start; i < len(bs) && i < start+maxRows; i++ {
		b := bs[i]
		hit := b.Table == h.HitT && int64(b.Index) == h.HitIdx
		x := r.X
		lbl := fmt.Sprintf("[%d]", b.Index)
		if b.Table == 1 {
			lbl = fmt.Sprintf("[1:%d]", b.Index)
		}
		bw := monoWidth("[00000]", size) + size*0.6
		bg := fade(chainColor(len(b.Keys)))
		l.rect(x, y, bw, lineH-3, bg)
		l.text(x+bw/2, y+(lineH-3-size)/2, fit(lbl, bw-2, size), size, textOn(bg), Center, true)
		x += bw
		if len(b.Keys) == 0 {
			l.text(x, y+(lineH-3-size)/2, " → NULL", size, dim, Left, true)
		}
		for j, key := range b.Keys {
			arrow := " → "
			aw := monoWidth(arrow, size)
			kw := math.Min(monoWidth(key, size)+size*0.8, f*9)
			if x+aw+kw > r.X+r.W {
				if x+aw+monoWidth("…", size) <= r.X+r.W {
					l.text(x, y+(lineH-3-size)/2, fmt.Sprintf(" +%d", len(b.Keys)-j), size, dim, Left, true)
				}
				break
			}
			l.text(x, y+(lineH-3-size)/2, arrow, size, dim, Left, true)
			x += aw
			c := panelC
			fg := textColor
			if hit && j == 0 {
				c = accent.Mix(panelC, 1-pulseAt(t))
				fg = Background
				if contrast(fg, c) < 4.5 {
					fg = textColor
				}
			}
			l.rect(x, y, kw, lineH-3, c)
			l.text(x+kw/2, y+(lineH-3-size)/2, fit(key, kw-size*0.4, size), size, fg, Center, true)
			x += kw
		}
		y += lineH
	}
}

func init() {
	register("encoding", func() Scene { return &encodingScene{} })
}
