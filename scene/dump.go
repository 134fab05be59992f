package scene

import (
	"fmt"
	"math"
	"strings"

	"redscope/engine"
	"redscope/engine/intset"
	"redscope/engine/listpack"
	"redscope/engine/rdb"
)

// dumpScene draws the payload DUMP answered as a byte map: the payload's bytes as cells coloured
// by part (the type byte, the value's body, the RDB version, the CRC-64 footer), a line per part
// with its offsets and what it holds ("16 = hash listpack", "RDB version 10 · Redis 7.0"), and a
// body that is a listpack or an intset drawn again below with the encoding scene's own drawing
// (drawLPBytes, drawIS), so its entries carry the same colours and labels as there. The split
// comes from the step's engine.DumpEvent (engine/rdb.Sections); the scene only draws it. A long
// payload shows its first dumpMaxCells bytes and how many more there are.
type dumpScene struct {
	Key   string
	Ev    *engine.DumpEvent
	Class []uint8 // per shown byte: a byte class of palette.go or a dump class below
	LP    *lpView // the (first) listpack of the body
	IS    *isView // the intset of the body
	Typ   string  // "hash", "set", "zset", "list": the names the listpack legend uses
	Nodes int     // a quicklist's node count (the listpack drawn is its first)
	LZF   bool    // the body drawn was decompressed from LZF

	lang string
	is   encodingScene // carries IS and the image cache for drawIS
	img  cachedImage
	fit  fitter
}

// Dump byte classes, after palette.go's.
const (
	dumpType    = numByteClasses + iota // the type byte
	dumpHeader                          // a length, an integer encoding, an LZF header, a container
	dumpData                            // a string's bytes, an integer, an opaque body
	dumpVersion                         // the RDB version
	dumpCRC                             // the CRC-64
)

// dumpMaxCells is the most payload bytes the strip draws; the rest are counted.
const dumpMaxCells = 96

func init() { register("dump", func() Scene { return &dumpScene{} }) }

// dumpOf is the last DumpEvent of xs, if any.
func dumpOf(xs []engine.Exchange) *engine.DumpEvent {
	for i := len(xs) - 1; i >= 0; i-- {
		for j := len(xs[i].Events) - 1; j >= 0; j-- {
			if ev, ok := xs[i].Events[j].(engine.DumpEvent); ok {
				d := ev // on the heap only when found (a d the test declares would be, per event)
				return &d
			}
		}
	}
	return nil
}

// Update implements Scene.
func (s *dumpScene) Update(in Input) {
	*s = dumpScene{lang: in.Lang, img: s.img, is: encodingScene{container: container{img: s.is.img}}}
	s.img.gen++
	s.is.img.gen++
	s.fit.reset()
	s.Ev = dumpOf(in.Last)
	if s.Ev == nil {
		if len(in.Keys) > 0 {
			s.Key = in.Keys[0]
		}
		return
	}
	s.Key = s.Ev.Key
	d := s.Ev.Dump
	n := min(len(s.Ev.Payload), dumpMaxCells)
	s.Class = make([]uint8, n)
	set := func(off, l int, c uint8) {
		for i := off; i < off+l && i < n; i++ {
			s.Class[i] = c
		}
	}
	switch d.Type {
	case rdb.TypeHashListpack, rdb.TypeHashListpackEx:
		s.Typ = "hash"
	case rdb.TypeZSetListpack:
		s.Typ = "zset"
	case rdb.TypeSetListpack, rdb.TypeSetIntset:
		s.Typ = "set"
	case rdb.TypeListQuicklist2:
		s.Typ = "list"
	}
	for _, sec := range d.Sections {
		switch sec.Part {
		case rdb.PartType:
			set(sec.Off, sec.Len, dumpType)
		case rdb.PartLen, rdb.PartIntEnc, rdb.PartLZF, rdb.PartContainer:
			set(sec.Off, sec.Len, dumpHeader)
		case rdb.PartVersion:
			set(sec.Off, sec.Len, dumpVersion)
		case rdb.PartChecksum:
			set(sec.Off, sec.Len, dumpCRC)
		default:
			set(sec.Off, sec.Len, dumpData)
		}
		holds := sec.Holds
		if holds == "" || (s.LP != nil || s.IS != nil) {
			if sec.Part == rdb.PartLen && d.Type == rdb.TypeListQuicklist2 && s.Nodes == 0 {
				s.Nodes = int(sec.Value)
			}
			continue
		}
		s.LZF = sec.Part == rdb.PartLZFData
		switch holds {
		case rdb.PartListpack:
			lp, err := listpack.FromBytes(sec.Inner)
			if err != nil {
				continue
			}
			tuple := 1
			switch d.Type {
			case rdb.TypeHashListpack, rdb.TypeZSetListpack:
				tuple = 2
			case rdb.TypeHashListpackEx:
				tuple = 3
			}
			s.LP = newLPView(lp, tuple, 0)
			if !s.LZF { // the listpack's own bytes are in the payload: colour them as it does
				for i, c := range s.LP.Class {
					set(sec.Off+i, 1, c)
				}
			}
		case rdb.PartIntset:
			is, err := intset.FromBytes(sec.Inner)
			if err != nil {
				continue
			}
			v := &isView{Width: is.Encoding(), NewPos: -1}
			is.All(func(_ int, x int64) bool { v.Values = append(v.Values, x); return true })
			s.IS = v
			if !s.LZF {
				for i := 0; i < v.byteLen(); i++ {
					set(sec.Off+i, 1, uint8(v.byteClass(i)))
				}
			}
		}
	}
	s.is.IS, s.is.lang = s.IS, s.lang
}

// dumpColor is the fill of a byte class of the strip: the RDB frame's own parts get colours the
// listpack and intset classes do not use (the theme's node hues, with text drawn by textOn).
func dumpColor(c int) Color {
	switch c {
	case dumpType:
		return accent
	case dumpHeader:
		return nodeColor(5)
	case dumpData:
		return dataC
	case dumpVersion:
		return nodeColor(4)
	case dumpCRC:
		return nodeColor(10)
	}
	return byteColor(c)
}

// partColor is the swatch of a section in the part list.
func partColor(sec rdb.Section) Color {
	switch sec.Part {
	case rdb.PartType:
		return dumpColor(dumpType)
	case rdb.PartLen, rdb.PartIntEnc, rdb.PartLZF, rdb.PartContainer:
		return dumpColor(dumpHeader)
	case rdb.PartVersion:
		return dumpColor(dumpVersion)
	case rdb.PartChecksum:
		return dumpColor(dumpCRC)
	case rdb.PartListpack:
		return encColor("listpack")
	case rdb.PartIntset:
		return encColor("intset")
	}
	return dumpColor(dumpData)
}

// rdbVersionName is the Redis release that writes RDB version v (engine/rdb's package comment).
func rdbVersionName(v uint16) string {
	switch v {
	case 10:
		return "Redis 7.0"
	case 11:
		return "Redis 7.2"
	case 12:
		return "Redis 7.4+"
	}
	return ""
}

// partLabel is a section's name and what it holds, in the scene's language.
func (s *dumpScene) partLabel(sec rdb.Section) (name, what string) {
	p := s.Ev.Payload
	switch sec.Part {
	case rdb.PartType:
		return tr(s.lang, "type byte", "byte kiểu"), fmt.Sprintf("%d = %s", sec.Value, rdb.TypeName(byte(sec.Value)))
	case rdb.PartLen:
		return tr(s.lang, "length", "độ dài"), fmt.Sprint(sec.Value)
	case rdb.PartContainer:
		if sec.Value == rdb.ContainerPacked {
			return "container", tr(s.lang, "2 = packed (listpack)", "2 = packed (listpack)")
		}
		return "container", tr(s.lang, "1 = plain", "1 = plain")
	case rdb.PartIntEnc:
		return tr(s.lang, "integer encoding", "mã hoá số nguyên"), fmt.Sprintf("0x%02X = int%d", p[sec.Off], 8<<sec.Value)
	case rdb.PartInt:
		return tr(s.lang, "integer", "số nguyên"), fmt.Sprint(sec.Value)
	case rdb.PartLZF:
		packed := 0
		for _, n := range s.Ev.Dump.Sections {
			if n.Off == sec.Off+sec.Len {
				packed = n.Len
			}
		}
		return tr(s.lang, "LZF header", "header LZF"), tr(s.lang, "%d → %s", "%d → %s", packed, nBytes(s.lang, sec.Value))
	case rdb.PartLZFData:
		return tr(s.lang, "LZF data", "dữ liệu LZF"), tr(s.lang, "%s, packed", "%s đã nén", nBytes(s.lang, sec.Len))
	case rdb.PartData:
		return tr(s.lang, "string bytes", "byte của chuỗi"), fmt.Sprintf("%q", clip(string(p[sec.Off:sec.Off+sec.Len]), 24))
	case rdb.PartListpack:
		return "listpack", nBytes(s.lang, sec.Len)
	case rdb.PartIntset:
		return "intset", nBytes(s.lang, sec.Len)
	case rdb.PartMillis:
		return tr(s.lang, "smallest field TTL", "TTL nhỏ nhất của field"), fmt.Sprintf("%d ms", sec.Value)
	case rdb.PartValue:
		if s.Nodes > 1 {
			return tr(s.lang, "nodes 2 … %d", "node 2 … %d", s.Nodes), nBytes(s.lang, sec.Len)
		}
		return tr(s.lang, "value", "giá trị"), nBytes(s.lang, sec.Len)
	case rdb.PartVersion:
		return tr(s.lang, "RDB version", "phiên bản RDB"), strings.TrimSpace(fmt.Sprintf("%d %s", sec.Value, rdbVersionName(uint16(sec.Value))))
	case rdb.PartChecksum:
		return "CRC-64", fmt.Sprintf("%x", p[sec.Off:sec.Off+sec.Len])
	}
	return sec.Part, ""
}

// rows are the part lines: a quicklist's nodes after the first are folded into one "value" line
// (the node drawn below is the first).
func (s *dumpScene) rows() []rdb.Section {
	var out []rdb.Section
	secs := s.Ev.Dump.Sections
	containers := 0
	for i := 0; i < len(secs); i++ {
		if secs[i].Part == rdb.PartContainer {
			containers++
		}
		if containers < 2 || secs[i].Part != rdb.PartContainer {
			out = append(out, secs[i])
			continue
		}
		j := i // the second node's container: fold up to the version
		for j < len(secs) && secs[j].Part != rdb.PartVersion {
			j++
		}
		last := secs[j-1]
		out = append(out, rdb.Section{Part: rdb.PartValue, Off: secs[i].Off, Len: last.Off + last.Len - secs[i].Off})
		i = j - 1
	}
	return out
}

// Frame implements Scene.
func (s *dumpScene) Frame(r Rect, t float64) []Prim { return s.fit.frame(r, t, s.layout) }

// layout lays the scene out in r.
func (s *dumpScene) layout(r Rect, t float64) []Prim {
	var l list
	f, in := margins(r)
	if s.Ev == nil {
		return emptyNote(in, f, tr(s.lang, "Type DUMP and a key to see the bytes Redis would store.", "Gõ DUMP và một key để xem các byte Redis sẽ lưu."))
	}
	if len(s.Ev.Dump.Sections) == 0 {
		return emptyNote(in, f, tr(s.lang, "DUMP %s: %s that do not split into parts.", "DUMP %s: %s không tách được thành các phần.", s.Key, nBytes(s.lang, len(s.Ev.Payload))))
	}
	y := in.Y
	small := f * 0.75
	title := fit("DUMP "+s.Key, in.W*0.55, f)
	l.text(in.X, y, title, f, textColor, Left, true)
	sub := tr(s.lang, "%s · %s", "%s · %s", s.Ev.Encoding, nBytes(s.lang, len(s.Ev.Payload)))
	tx := in.X + monoWidth(title, f) + f*0.6
	if tx+monoWidth(sub, f*0.8) > in.X+in.W { // a narrow stage: on its own line
		y += f * 1.3
		tx = in.X
	}
	l.text(tx, y+f*0.15, fit(sub, in.X+in.W-tx, f*0.8), f*0.8, dim, Left, true)
	y += f * 1.5
	// The payload strip.
	n := len(s.Class)
	more := len(s.Ev.Payload) - n
	stripH := math.Min(in.H*0.42, f*1.6*math.Ceil(float64(n)/8))
	bar := math.Max(2, f*0.16)
	g := layoutGrid(n, in.W, stripH*0.85, f, 8) // 0.85: room for the part bars under each row
	need := monoWidth("00", f*0.7) + 4          // a cell that holds its two hex digits
	if g.Image || g.CW < need {
		// Too many bytes for cells with their hex digits (a phone): as many as stay legible,
		// whole rows of 8, the rest counted.
		cols := 8 * max(1, int(in.W/(need*1.25*8)))
		g = gridLayout{Cols: cols, CW: in.W / float64(cols), CH: f * 1.5, Text: true}
		rows := max(1, int(stripH/(g.CH+bar+2)))
		n = min(n, cols*rows)
		more = len(s.Ev.Payload) - n
	}
	rowH := g.CH + bar + 2 // each row of cells, then the bars of the parts under it
	cellAt := func(i int) Rect {
		return Rect{in.X + float64(i%g.Cols)*g.CW, y + float64(i/g.Cols)*rowH, g.CW, g.CH}
	}
	for i := 0; i < n; i++ {
		c := dumpColor(int(s.Class[i]))
		cell := cellAt(i)
		l.rect(cell.X+1, cell.Y+1, cell.W-2, cell.H-2, c)
		if g.Text {
			txt := fmt.Sprintf("%02x", s.Ev.Payload[i])
			ts := math.Max(f*0.7, math.Min(f*0.95, g.CH*0.45))
			if monoWidth(txt, ts) > cell.W-2 {
				ts = f * 0.7
			}
			if monoWidth(txt, ts) <= cell.W-2 {
				l.text(cell.X+cell.W/2, cell.Y+(cell.H-ts)/2, txt, ts, textOn(c), Center, true)
			}
		}
	}
	// Under the cells, one bar per part (the swatch colour of its line below).
	for _, sec := range s.Ev.Dump.Sections {
		for i := sec.Off; i < min(sec.Off+sec.Len, n); {
			end := min(sec.Off+sec.Len, n, (i/g.Cols+1)*g.Cols)
			a := cellAt(i)
			l.rect(a.X+1, a.Y+g.CH+1, float64(end-i)*g.CW-2, bar, partColor(sec))
			i = end
		}
	}
	y += float64((n+g.Cols-1)/g.Cols)*rowH + small*0.3
	if more > 0 {
		l.text(in.X, y, fit(tr(s.lang, "… %s more", "… còn %s", nBytes(s.lang, more)), in.W, small), small, dim, Left, true)
		y += small * 1.35
	}
	y += small * 0.3
	// The part list: swatch, offsets, name, what it holds.
	rows := s.rows()
	rowH = small * 1.4
	offW := monoWidth(fmt.Sprintf("%d–%d", len(s.Ev.Payload)-1, len(s.Ev.Payload)-1), small) + small*0.6
	for i, sec := range rows {
		if y+rowH*2 > in.Y+in.H && i < len(rows)-1 { // no room for the rest: count them
			if y+rowH <= in.Y+in.H {
				l.text(in.X, y, fit(tr(s.lang, "… %d more parts", "… còn %d phần", len(rows)-i), in.W, small), small, dim, Left, true)
				y += rowH
			}
			break
		}
		name, what := s.partLabel(sec)
		l.rect(in.X, y+small*0.1, small*0.9, small*0.9, partColor(sec))
		off := fmt.Sprint(sec.Off)
		if sec.Len > 1 {
			off = fmt.Sprintf("%d–%d", sec.Off, sec.Off+sec.Len-1)
		}
		x := in.X + small*1.4
		l.text(x, y, off, small, dim, Left, true)
		x += offW
		line := name + "  " + what
		l.text(x, y, fit(line, in.X+in.W-x, small), small, textColor, Left, true)
		y += rowH
	}
	y += small * 0.4
	// The body again, drawn as the encoding scene draws it.
	rest := Rect{in.X, y, in.W, in.Y + in.H - y}
	if (s.LP == nil && s.IS == nil) || rest.H < f*3 {
		return l
	}
	head := ""
	switch {
	case s.LP != nil && s.Nodes > 1:
		head = tr(s.lang, "quicklist node 1 of %d: its listpack", "node 1 / %d của quicklist: listpack của nó", s.Nodes)
	case s.LP != nil:
		head = tr(s.lang, "the listpack inside", "listpack bên trong")
	default:
		head = tr(s.lang, "the intset inside", "intset bên trong")
	}
	if s.LZF {
		head += tr(s.lang, " (after LZF decompression)", " (sau khi giải nén LZF)")
	}
	l.text(in.X, y, fit(head, in.W, small), small, textColor, Left, false)
	y += small * 1.4
	rest = Rect{in.X, y, in.W, in.Y + in.H - y - small*1.5*2}
	if s.LP != nil {
		drawLPBytes(&l, s.LP, rest, f, 1, &s.img, s.lang)
	} else {
		s.is.drawIS(&l, rest, f, 1)
	}
	s.drawLegend(&l, in.X, in.Y+in.H-small*1.4*2, in.W, small)
	return l
}

// drawLegend names the body's byte classes (the encoding scene's names), up to two lines.
func (s *dumpScene) drawLegend(l *list, x0, y, w, size float64) {
	var cls []int
	if s.LP != nil {
		cls = []int{byteLPHeader, byteEnc, byteField}
		if s.LP.Tuple >= 2 {
			cls = append(cls, byteValue)
		}
		if s.LP.Tuple >= 3 {
			cls = append(cls, byteTTL)
		}
		cls = append(cls, byteBacklen, byteEOF)
	} else {
		cls = []int{byteISHeader, byteISValue}
	}
	x := x0
	for _, c := range cls {
		name := byteClassName(c, s.Typ, s.lang)
		iw := size*1.3 + textWidth(name, size, false) + size*0.9
		if x > x0 && x+iw > x0+w {
			x, y = x0, y+size*1.4
		}
		l.rect(x, y+size*0.1, size*0.9, size*0.9, byteColor(c))
		l.text(x+size*1.3, y, name, size, dim, Left, false)
		x += iw
	}
}

// Describe implements Describer: the payload's parts in order.
func (s *dumpScene) Describe() string {
	if s.Ev == nil {
		return tr(s.lang, "No DUMP yet.", "Chưa có lệnh DUMP nào.")
	}
	var parts []string
	for _, sec := range s.Ev.Dump.Sections {
		name, what := s.partLabel(sec)
		parts = append(parts, tr(s.lang, "%s %s at %d", "%s %s tại %d", name, what, sec.Off))
	}
	p := tr(s.lang, "DUMP %s: %s payload", "DUMP %s: payload %s", s.Key, nBytes(s.lang, len(s.Ev.Payload)))
	if len(parts) > 0 {
		p += ": " + strings.Join(parts, "; ")
	}
	switch {
	case s.LP != nil:
		var es []string
		for _, e := range s.LP.Entries {
			es = append(es, e.Text)
		}
		p += tr(s.lang, "; the listpack holds %s: %s", "; listpack chứa %s: %s", trPlural(s.lang, int64(len(s.LP.Entries)), "entry", "entries", "entry"), clip(strings.Join(es, ", "), 120))
	case s.IS != nil:
		p += tr(s.lang, "; the intset holds %s of %s each", "; intset chứa %s, mỗi số %s", trPlural(s.lang, int64(len(s.IS.Values)), "integer", "integers", "số nguyên"), nBytes(s.lang, s.IS.Width))
	}
	return sentence(p)
}

// Focus implements focuser.
func (s *dumpScene) Focus() (string, string) { return "dump", s.Key }
