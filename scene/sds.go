package scene

import (
	"fmt"
	"math"
	"strconv"

	"redscope/engine"
	"redscope/engine/sds"
	"redscope/lesson"
)

// SDS draws string values as their allocations: robj and sds header, the bytes, the NUL, the
// spare room left by greedy growth and the allocator's rounding, with MEMORY USAGE bars so that a
// string built by APPENDs and the same bytes stored by one SET sit side by side.
type SDS struct {
	Keys []SDSKey
	Note string // what the last command did to the allocation, in the input's language
	lang string
}

// Segment kinds of an allocation strip.
const (
	SegRobj = iota
	SegHeader
	SegData
	SegNul
	SegFree
	SegSlack
)

// Segment is a run of bytes of one kind inside an allocation.
type Segment struct {
	Kind  int
	Bytes int
}

// SDSKey is one string key's allocation.
type SDSKey struct {
	Info     lesson.KeyInfo
	Data     []byte // the first bytes of the value (at most sdsShowBytes)
	Alloc    int    // bytes of the allocation drawn (usable size)
	Segs     []Segment
	NewFrom  int // bytes [NewFrom, NewTo) were written by the last command
	NewTo    int
	Realloc  bool // the last command (re)allocated this key
	Changed  bool // the last command touched this key
	Shared   bool // a shared integer
	IntValue string
}

const sdsShowBytes = 256

// Update implements Scene.
func (s *SDS) Update(in Input) {
	s.lang = in.Lang
	s.Keys = s.Keys[:0]
	s.Note = ""
	keys := in.Keys
	if len(keys) == 0 {
		if k := focusKey(in, nil); k != "" {
			keys = []string{k}
		}
	}
	if len(keys) > 3 {
		keys = keys[:3]
	}
	for _, k := range keys {
		s.Keys = append(s.Keys, buildSDSKey(in, k))
	}
	s.Note = sdsNote(in, in.Lang)
}

func buildSDSKey(in Input, key string) SDSKey {
	e := in.Engine
	k := SDSKey{Info: lesson.Measure(e, key), NewFrom: -1, NewTo: -1}
	o := e.Peek([]byte(key))
	if o == nil || o.Type != engine.TypeString {
		return k
	}
	switch o.Enc {
	case engine.EncInt:
		k.IntValue = strconv.FormatInt(o.Int, 10)
		k.Shared = o.Shared
		k.Alloc = 16
		k.Segs = []Segment{{SegRobj, 16}}
	case engine.EncEmbstr:
		n := o.Buf.Len()
		k.Alloc = e.Allocator().Usable(16 + 3 + n + 1)
		k.Segs = []Segment{{SegRobj, 16}, {SegHeader, 3}, {SegData, n}, {SegNul, 1}, {SegSlack, k.Alloc - 16 - 3 - n - 1}}
	default:
		h := o.SDS
		hb := h.Type.HeaderSize()
		k.Alloc = h.Usable
		free := h.Avail()
		k.Segs = []Segment{{SegHeader, hb}, {SegData, h.Len}, {SegNul, 1}, {SegFree, free}, {SegSlack, h.Usable - hb - h.Len - 1 - free}}
	}
	n := min(o.Buf.Len(), sdsShowBytes)
	k.Data = make([]byte, n)
	o.Buf.ReadAt(k.Data, 0)
	for _, x := range in.Last {
		for _, ev := range x.Events {
			switch ev := ev.(type) {
			case engine.SDSEvent:
				if ev.Key != key {
					continue
				}
				k.Changed = true
				k.Realloc = k.Realloc || ev.Realloc
				k.NewFrom, k.NewTo = ev.Before.Len, ev.After.Len
			case engine.KeyEvent, engine.EncodingEvent:
				if kk, _ := lesson.EventKey(ev); kk == key {
					k.Changed = true
				}
			}
		}
	}
	if k.Changed && k.NewFrom < 0 {
		// Created or replaced without an sds event (SET): the whole value is new.
		k.NewFrom, k.NewTo = 0, o.StringLen()
	}
	return k
}

// GreedyAsk is what sdsMakeRoomFor asks for when a string must hold need bytes: twice as much
// below 1 MiB, 1 MiB more above.
func GreedyAsk(need int) int {
	if need < sds.MaxPrealloc {
		return need * 2
	}
	return need + sds.MaxPrealloc
}

func sdsNote(in Input, lang string) string {
	var note string
	for _, x := range in.Last {
		for _, ev := range x.Events {
			switch ev := ev.(type) {
			case engine.EncodingEvent:
				note = tr(lang, "%s: encoding %s → %s (%s)", "%s: mã hoá %s → %s (%s)", ev.Key, ev.From, ev.To, ev.Reason)
			case engine.SDSEvent:
				a := ev.After
				switch {
				case ev.Before.Type == 0:
					note = tr(lang, "%s: new sds of %d bytes: %s, malloc(%d) → %d-byte class",
						"%s: sds mới %d byte: %s, malloc(%d) → lớp %d byte",
						ev.Key, a.Len, a.Type, a.Type.HeaderSize()+a.Alloc+1, a.Usable)
					if a.Type != sds.Type5 && a.Usable != a.Type.HeaderSize()+a.Len+1 {
						note = tr(lang, "%s: new sds of %d bytes: %s, malloc(%d) → %d-byte class, alloc %d",
							"%s: sds mới %d byte: %s, malloc(%d) → lớp %d byte, alloc %d",
							ev.Key, a.Len, a.Type, a.Type.HeaderSize()+a.Len+1, a.Usable, a.Alloc)
					}
				case !ev.Realloc:
					note = tr(lang, "%s: len %d → %d fits in alloc %d: no reallocation",
						"%s: len %d → %d vừa trong alloc %d: không cấp phát lại", ev.Key, ev.Before.Len, a.Len, a.Alloc)
				default:
					ask := ev.Requested
					if ev.Greedy {
						ask = GreedyAsk(ev.Requested)
					}
					mul := tr(lang, "doubled", "gấp đôi")
					if ev.Requested >= sds.MaxPrealloc {
						mul = tr(lang, "+1 MiB", "+1 MiB")
					}
					note = tr(lang, "%s: needs %d bytes, asks %d (%s): %s → %s, %d → %d-byte class, alloc %d",
						"%s: cần %d byte, xin %d (%s): %s → %s, lớp %d → %d byte, alloc %d",
						ev.Key, ev.Requested, ask, mul, ev.Before.Type, a.Type, ev.Before.Usable, a.Usable, a.Alloc)
				}
			}
		}
	}
	return note
}

// tr formats the English or the Vietnamese pattern.
func tr(lang, en, vi string, a ...any) string {
	if lang == "en" {
		return fmt.Sprintf(en, a...)
	}
	return fmt.Sprintf(vi, a...)
}

// SegColor is the colour of a segment kind.
func SegColor(kind int) Color {
	return [...]Color{HeaderC.Mix(Background, 0.35), HeaderC, DataC, NulC, FreeC, SlackC}[kind]
}

// SegName is a segment kind's legend label.
func SegName(kind int, lang string) string {
	en := [...]string{"robj", "sds header", "bytes (len)", "NUL", "free (alloc − len)", "allocator rounding"}
	vi := [...]string{"robj", "header sds", "dữ liệu (len)", "NUL", "trống (alloc − len)", "làm tròn của allocator"}
	if lang == "en" {
		return en[kind]
	}
	return vi[kind]
}

// CellCols is how many byte cells a strip row holds, or 0 when the allocation is too big for one
// cell per byte and is drawn as proportional bars.
func CellCols(alloc int, w, f float64) int {
	if alloc > 512 {
		return 0
	}
	cols := 32
	for cols > 8 && w/float64(cols) < f*0.9 {
		cols /= 2
	}
	if w/float64(cols) < 5 || (alloc+cols-1)/cols > 16 {
		return 0
	}
	return cols
}

// Frame implements Scene.
func (s *SDS) Frame(r Rect, t float64) []Prim {
	var l list
	f := FontSize(r)
	pad := f * 0.8
	in := r.Inset(pad)
	y := in.Y
	if len(s.Keys) == 0 {
		l.text(in.X, y, tr(s.lang, "No key to show yet: run SET or APPEND.", "Chưa có khoá nào: hãy chạy SET hoặc APPEND."), f, Dim, Left, false)
		return l
	}
	maxMem := int64(1)
	for _, k := range s.Keys {
		maxMem = max(maxMem, k.Info.Memory)
	}
	avail := in.H - f*4.2 // legend and note at the bottom
	blockH := avail / float64(len(s.Keys))
	for _, k := range s.Keys {
		s.drawKey(&l, k, Rect{in.X, y, in.W, blockH - f*0.6}, f, t, maxMem)
		y += blockH
	}
	// Note and legend.
	y = in.Y + in.H - f*3.6
	if s.Note != "" {
		l.text(in.X, y, s.Note, f*0.8, Accent, Left, false)
	}
	y += f * 1.5
	x := in.X
	for kind := SegRobj; kind <= SegSlack; kind++ {
		name := SegName(kind, s.lang)
		w := f*1.2 + float64(len([]rune(name)))*f*0.42 + f
		if x+w > in.X+in.W {
			x = in.X
			y += f * 1.1
		}
		l.rect(x, y+f*0.15, f*0.7, f*0.7, SegColor(kind))
		l.text(x+f, y, name, f*0.7, Dim, Left, false)
		x += w
	}
	return l
}

func (s *SDS) drawKey(l *list, k SDSKey, r Rect, f, t float64, maxMem int64) {
	y := r.Y
	title := k.Info.Key
	if !k.Info.Exists {
		l.text(r.X, y, title+"  "+tr(s.lang, "(missing)", "(không tồn tại)"), f, Dim, Left, true)
		return
	}
	l.text(r.X, y, title, f, TextColor, Left, true)
	sub := k.Info.Encoding
	if k.Info.SDS != nil && k.Info.Encoding == "raw" {
		sub += fmt.Sprintf(" · %s · len %d · alloc %d · avail %d", k.Info.SDS.Type, k.Info.SDS.Len, k.Info.SDS.Alloc, k.Info.SDS.Avail)
	} else if k.Info.Encoding == "embstr" {
		sub += fmt.Sprintf(" · sds8 · len %d", k.Info.Len)
	} else if k.IntValue != "" {
		sub += " · " + k.IntValue
		if k.Shared {
			sub += tr(s.lang, " · shared object", " · đối tượng dùng chung")
		}
	}
	l.text(r.X+MonoWidth(title, f)+f*0.8, y+f*0.1, sub, f*0.8, Dim, Left, true)
	y += f * 1.5
	cols := CellCols(k.Alloc, r.W, f)
	pulse := Pulse(t)
	if cols > 0 {
		cw := r.W / float64(cols)
		ch := math.Min(cw*1.1, f*1.7)
		i := 0
		dataStart := 0
		for _, sg := range k.Segs {
			if sg.Kind == SegData {
				break
			}
			dataStart += sg.Bytes
		}
		for _, sg := range k.Segs {
			for b := 0; b < sg.Bytes; b++ {
				cx := r.X + float64(i%cols)*cw
				cy := y + float64(i/cols)*ch
				c := SegColor(sg.Kind)
				if sg.Kind == SegFree && k.Realloc {
					c = c.Mix(Accent, 0.4*(1-t))
				}
				l.rect(cx+1, cy+1, cw-2, ch-2, c)
				if sg.Kind == SegData {
					di := i - dataStart
					if di >= k.NewFrom && di < k.NewTo {
						l.frame(cx+1, cy+1, cw-2, ch-2, math.Max(1.5, f*0.12), Accent.Alpha(pulse))
					}
					if di < len(k.Data) && cw >= f*0.7 {
						l.text(cx+cw/2, cy+(ch-f*0.8)/2, printable(k.Data[di]), f*0.8, TextColor, Center, true)
					}
				}
				if sg.Kind == SegNul && cw >= f*0.9 {
					l.text(cx+cw/2, cy+(ch-f*0.6)/2, "\\0", f*0.6, Background, Center, true)
				}
				i++
			}
		}
		y += float64((k.Alloc+cols-1)/cols)*ch + f*0.3
	} else {
		// Proportional bar: one rectangle per segment.
		x := r.X
		bh := f * 1.4
		for _, sg := range k.Segs {
			if sg.Bytes <= 0 {
				continue
			}
			w := math.Max(2, r.W*float64(sg.Bytes)/float64(k.Alloc))
			c := SegColor(sg.Kind)
			if sg.Kind == SegFree && k.Realloc {
				c = c.Mix(Accent, 0.4*(1-t))
			}
			l.rect(x, y, w, bh, c)
			if w > MonoWidth(strconv.Itoa(sg.Bytes), f*0.7)+4 {
				l.text(x+w/2, y+(bh-f*0.7)/2, strconv.Itoa(sg.Bytes), f*0.7, TextColor, Center, true)
			}
			x += w
		}
		if k.Changed {
			l.frame(r.X, y, r.W, bh, math.Max(1.5, f*0.12), Accent.Alpha(pulse))
		}
		y += bh + f*0.3
	}
	l.text(r.X, y, tr(s.lang, "allocation: %d bytes (jemalloc class)", "vùng cấp phát: %d byte (lớp jemalloc)", k.Alloc), f*0.75, Dim, Left, false)
	y += f * 1.2
	// MEMORY USAGE bar.
	if k.Info.Memory >= 0 {
		label := fmt.Sprintf("MEMORY USAGE %s = %d", k.Info.Key, k.Info.Memory)
		bw := (r.W * 0.6) * float64(k.Info.Memory) / float64(maxMem)
		l.rect(r.X, y, bw, f*0.9, DataC.Mix(Background, 0.3))
		l.text(r.X+bw+f*0.4, y, label, f*0.75, TextColor, Left, true)
	}
}

func printable(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return string(rune(c))
	}
	return "·"
}
