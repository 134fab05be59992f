package scene

import (
	"fmt"
	"math"
	"math/bits"
	"strings"

	"redscope/engine"
	"redscope/lesson"
)

// Bits draws a string as rows of 8 bits, most significant first (bit offset N is byte N/8, bit
// N%8 from the left), the bit the last SETBIT/GETBIT touched, the bytes the string grew by, and
// every set bit when the last command was BITCOUNT.
type Bits struct {
	Key      string
	Info     lesson.KeyInfo
	First    int64  // offset of the first byte shown
	Data     []byte // bytes shown
	Touched  []engine.BitEvent
	GrewFrom int64 // bytes [GrewFrom, GrewTo) were added by the last command
	GrewTo   int64
	Count    bool   // the last command was BITCOUNT: light every set bit
	Reply    string // the last reply
	Cmd      string
	lang     string
}

// BitsWindow is how many bytes the scene shows at most.
const BitsWindow = 16

// Update implements Scene.
func (s *Bits) Update(in Input) {
	*s = Bits{lang: in.Lang, GrewFrom: -1, GrewTo: -1}
	s.Key = focusKey(in, func(ev engine.Event) bool {
		switch ev.(type) {
		case engine.BitEvent, engine.SDSEvent, engine.KeyEvent:
			return true
		}
		return false
	})
	if name, x := lastCmd(in.Last); x != nil {
		s.Count = name == "bitcount"
		s.Reply, s.Cmd = x.Reply, x.Cmd
	}
	if s.Key == "" {
		return
	}
	s.Info = lesson.Measure(in.Engine, s.Key)
	for _, x := range in.Last {
		for _, ev := range x.Events {
			switch ev := ev.(type) {
			case engine.BitEvent:
				if ev.Key == s.Key {
					s.Touched = append(s.Touched, ev)
				}
			case engine.SDSEvent:
				if ev.Key == s.Key && ev.After.Len > ev.Before.Len {
					s.GrewFrom, s.GrewTo = int64(ev.Before.Len), int64(ev.After.Len)
				}
			}
		}
	}
	o := in.Engine.Peek([]byte(s.Key))
	if o == nil || o.Type != engine.TypeString {
		return
	}
	n := int64(o.StringLen())
	focus := int64(0)
	if len(s.Touched) > 0 {
		focus = s.Touched[len(s.Touched)-1].Byte
	}
	s.First = BitsFirst(n, focus)
	cnt := min(n-s.First, BitsWindow)
	if cnt <= 0 {
		return
	}
	if o.Enc == engine.EncInt {
		all := o.StringBytes()
		s.Data = append([]byte(nil), all[s.First:s.First+cnt]...)
		return
	}
	s.Data = make([]byte, cnt)
	o.Buf.ReadAt(s.Data, int(s.First))
}

// BitsFirst is the first byte of the window shown for a string of n bytes whose byte focus was
// touched last: the start when it fits, else a window that keeps focus visible, aligned to 8.
func BitsFirst(n, focus int64) int64 {
	if n <= BitsWindow || focus < BitsWindow/2 {
		return 0
	}
	first := (focus - BitsWindow/2) &^ 7
	return max(0, min(first, n-BitsWindow))
}

// BitCell is the rectangle of bit b (0 = most significant) of the row'th byte shown.
func BitCell(grid Rect, row, bit int, rows int) Rect {
	cw := grid.W / 8
	ch := grid.H / float64(rows)
	return Rect{grid.X + float64(bit)*cw, grid.Y + float64(row)*ch, cw, ch}
}

// Frame implements Scene.
func (s *Bits) Frame(r Rect, t float64) []Prim {
	var l list
	f := FontSize(r)
	in := r.Inset(f * 0.8)
	y := in.Y
	if s.Key == "" || !s.Info.Exists {
		msg := tr(s.lang, "No bitmap yet: try SETBIT k 7 1.", "Chưa có bitmap: thử SETBIT k 7 1.")
		if s.Key != "" {
			msg = s.Key + ": " + tr(s.lang, "(missing)", "(không tồn tại)") + "  " + msg
		}
		l.text(in.X, y, msg, f, Dim, Left, false)
		return l
	}
	head := fmt.Sprintf("%s · %s · STRLEN %d", s.Key, s.Info.Encoding, s.Info.Len)
	if s.Info.SDS != nil {
		head += fmt.Sprintf(" · %s alloc %d", s.Info.SDS.Type, s.Info.SDS.Alloc)
	}
	l.text(in.X, y, head, f, TextColor, Left, true)
	y += f * 1.5
	if len(s.Touched) > 0 {
		ev := s.Touched[len(s.Touched)-1]
		var msg string
		if ev.Write {
			msg = tr(s.lang, "offset %d → byte %d = %d/8, bit %d = %d%%8 (from the left): %d → %d",
				"offset %d → byte %d = %d/8, bit %d = %d%%8 (tính từ trái): %d → %d", ev.Offset, ev.Byte, ev.Offset, ev.Bit, ev.Offset, ev.Old, ev.New)
		} else {
			msg = tr(s.lang, "offset %d → byte %d, bit %d (from the left) reads %d",
				"offset %d → byte %d, bit %d (tính từ trái) đọc được %d", ev.Offset, ev.Byte, ev.Bit, ev.Old)
		}
		l.text(in.X, y, msg, f*0.8, Accent, Left, false)
	} else if s.Count {
		l.text(in.X, y, tr(s.lang, "BITCOUNT counts the set bits: %s", "BITCOUNT đếm các bit 1: %s", strings.TrimPrefix(s.Reply, "(integer) ")), f*0.8, Accent, Left, false)
	}
	y += f * 2.2 // the note, then the bit numbers over the grid
	rows := len(s.Data)
	if rows == 0 {
		return l
	}
	// Columns: byte label | 8 bit cells | hex | char.
	label := MonoWidth("byte 000000", f*0.8)
	tail := MonoWidth(" 0xff  c", f*0.8)
	gw := math.Min(in.W-label-tail, f*2.2*8)
	gh := math.Min(in.Y+in.H-y-f*1.6, float64(rows)*gw/8)
	grid := Rect{in.X + label, y, gw, gh}
	pulse := Pulse(t)
	// Bit numbers over the columns.
	for b := 0; b < 8; b++ {
		c := BitCell(grid, 0, b, rows)
		l.text(c.X+c.W/2, y-f*0.8, fmt.Sprint(b), f*0.6, Dim, Center, true)
	}
	ones := 0
	for row, v := range s.Data {
		byteNo := s.First + int64(row)
		c0 := BitCell(grid, row, 0, rows)
		fs := math.Min(f*0.8, c0.H*0.8)
		grew := byteNo >= s.GrewFrom && byteNo < s.GrewTo
		lc := Dim
		if grew {
			lc = Accent
		}
		l.text(in.X, c0.Y+(c0.H-fs)/2, fmt.Sprintf("byte %d", byteNo), fs, lc, Left, true)
		for b := 0; b < 8; b++ {
			c := BitCell(grid, row, b, rows)
			on := v&(0x80>>b) != 0
			col := ZeroC
			if on {
				col = OneC
				ones++
			}
			if s.Count && on {
				col = OneC.Mix(Accent, 0.5*pulse)
			}
			if grew {
				col = col.Mix(Accent, 0.25*(1-t))
			}
			gap := math.Max(1, c.W*0.06)
			l.rect(c.X+gap, c.Y+gap, c.W-2*gap, c.H-2*gap, col)
			if c.H >= f*0.8 {
				d := "0"
				tc := Dim
				if on {
					d, tc = "1", Background
				}
				l.text(c.X+c.W/2, c.Y+(c.H-fs)/2, d, fs, tc, Center, true)
			}
		}
		hex := fmt.Sprintf(" 0x%02x  %s", v, printable(v))
		l.text(grid.X+grid.W+f*0.3, c0.Y+(c0.H-fs)/2, hex, fs, TextColor, Left, true)
	}
	for _, ev := range s.Touched {
		row := int(ev.Byte - s.First)
		if row < 0 || row >= rows {
			continue
		}
		c := BitCell(grid, row, ev.Bit, rows)
		l.frame(c.X, c.Y, c.W, c.H, math.Max(2, f*0.18), Accent.Alpha(pulse))
	}
	y = grid.Y + grid.H + f*0.4
	shown := fmt.Sprintf("%d–%d", s.First, s.First+int64(rows)-1)
	l.text(in.X, y, tr(s.lang, "bytes %s of %d shown · %d set bits shown", "đang xem byte %s / %d · %d bit 1", shown, s.Info.Len, ones), f*0.7, Dim, Left, false)
	return l
}

// OnesIn counts the set bits of p (what BITCOUNT over those bytes answers).
func OnesIn(p []byte) int {
	n := 0
	for _, b := range p {
		n += bits.OnesCount8(b)
	}
	return n
}
