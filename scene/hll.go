package scene

import (
	"encoding/binary"
	"fmt"
	"math"

	"redscope/engine"
	"redscope/lesson"
)

// HLL draws a HyperLogLog's 16 384 registers as a 128 x 128 image (one pixel per register,
// uploaded in one go and scaled up), and the last element's 64-bit hash with its 14 index bits
// and the run of zeros that gives the count.
type HLL struct {
	Key    string
	Info   lesson.KeyInfo
	Regs   [HLLRegisters]uint8
	Valid  bool // the key holds a readable HLL
	Events []engine.HLLEvent
	Reply  string
	Cmd    string
	Img    Pixels
	lang   string
}

// maxHLLMarks caps how many touched registers one step frames on the map.
const maxHLLMarks = 256

// maxCmdChars caps the command text shown beside the map.
const maxCmdChars = 120

// shortCmd cuts a long command line for display.
func shortCmd(c string) string {
	if r := []rune(c); len(r) > maxCmdChars {
		return string(r[:maxCmdChars-1]) + "…"
	}
	return c
}

// HLLRegisters is m = 2^14.
const HLLRegisters = 16384

// HLLSide is the register map's side: 128 x 128 registers.
const HLLSide = 128

// Update implements Scene.
func (s *HLL) Update(in Input) {
	gen := s.Img.Gen
	*s = HLL{lang: in.Lang, Img: s.Img}
	s.Img.Gen = gen + 1
	if s.Img.RGBA == nil {
		s.Img = Pixels{W: HLLSide, H: HLLSide, RGBA: make([]byte, 4*HLLRegisters), Gen: gen + 1}
	}
	s.Key = focusKey(in, func(ev engine.Event) bool {
		switch ev.(type) {
		case engine.HLLEvent, engine.HLLPromoteEvent, engine.KeyEvent:
			return true
		}
		return false
	})
	if _, x := lastCmd(in.Last); x != nil {
		s.Reply, s.Cmd = x.Reply, shortCmd(x.Cmd)
	}
	for _, x := range in.Last {
		for _, ev := range x.Events {
			if h, ok := ev.(engine.HLLEvent); ok && h.Key == s.Key {
				s.Events = append(s.Events, h)
			}
		}
	}
	// A console PFADD of thousands of elements would frame every register it touched, each
	// frame a draw: keep the most recent ones, enough to show where the elements landed.
	if n := len(s.Events); n > maxHLLMarks {
		s.Events = s.Events[n-maxHLLMarks:]
	}
	if s.Key != "" {
		s.Info = lesson.Measure(in.Engine, s.Key)
		if o := in.Engine.Peek([]byte(s.Key)); o != nil && o.Type == engine.TypeString && o.Enc == engine.EncRaw {
			s.Valid = DecodeHLL(o.Buf.Bytes(), &s.Regs)
		}
	}
	if !s.Valid {
		clear(s.Regs[:])
	}
	for i, v := range s.Regs {
		c := RegColor(v)
		copy(s.Img.RGBA[4*i:], []byte{c.R, c.G, c.B, c.A})
	}
}

// DecodeHLL reads the registers of a HyperLogLog string (dense or sparse, REDIS-FACTS §4);
// false when p is not a valid HLL.
func DecodeHLL(p []byte, regs *[HLLRegisters]uint8) bool {
	if len(p) < 16 || string(p[:4]) != "HYLL" {
		return false
	}
	body := p[16:]
	switch p[4] {
	case 0: // dense: 6-bit registers packed LSB first
		if len(body) != HLLRegisters*6/8 {
			return false
		}
		for i := range regs {
			bit := 6 * i
			b := bit / 8
			sh := uint(bit % 8)
			v := uint(body[b]) >> sh
			if b+1 < len(body) {
				v |= uint(body[b+1]) << (8 - sh)
			}
			regs[i] = uint8(v & 63)
		}
		return true
	case 1: // sparse: ZERO, XZERO and VAL opcodes
		i := 0
		for j := 0; j < len(body); j++ {
			op := body[j]
			switch {
			case op&0xc0 == 0: // ZERO 00xxxxxx
				n := int(op&0x3f) + 1
				if i+n > HLLRegisters {
					return false
				}
				clear(regs[i : i+n])
				i += n
			case op&0xc0 == 0x40: // XZERO 01xxxxxx yyyyyyyy
				if j+1 >= len(body) {
					return false
				}
				n := (int(op&0x3f)<<8 | int(body[j+1])) + 1
				j++
				if i+n > HLLRegisters {
					return false
				}
				clear(regs[i : i+n])
				i += n
			default: // VAL 1vvvvvxx
				v := uint8((op>>2)&0x1f) + 1
				n := int(op&3) + 1
				if i+n > HLLRegisters {
					return false
				}
				for k := 0; k < n; k++ {
					regs[i+k] = v
				}
				i += n
			}
		}
		return i == HLLRegisters
	}
	return false
}

// RegColor is a register value's colour: dark for 0, then blue to yellow as the count grows.
func RegColor(v uint8) Color {
	if v == 0 {
		return Color{0x1c, 0x24, 0x33, 0xff}
	}
	t := math.Min(1, float64(v-1)/11)
	return IndexC.Mix(Accent, t)
}

// RegCell is where register i sits in the register map drawn in r.
func RegCell(r Rect, i int) Rect {
	c := r.W / HLLSide
	return Rect{r.X + float64(i%HLLSide)*c, r.Y + float64(i/HLLSide)*c, c, c}
}

// HashBit classes for the hash strip.
const (
	BitIndex = iota // one of the 14 low bits: the register index
	BitRun          // one of the zeros counted by the run
	BitStop         // the 1 that ends the run
	BitRest         // higher bits that do not matter
)

// HashBitClass tells what bit b (0 = least significant) of a hash means for a count of count
// (1 + number of zeros above the index bits).
func HashBitClass(b, count int) int {
	switch {
	case b < 14:
		return BitIndex
	case b < 14+count-1:
		return BitRun
	case b == 14+count-1:
		return BitStop
	}
	return BitRest
}

// Frame implements Scene.
func (s *HLL) Frame(r Rect, t float64) []Prim {
	var l list
	f := FontSize(r)
	in := r.Inset(f * 0.8)
	y := in.Y
	if s.Key == "" {
		l.text(in.X, y, tr(s.lang, "No HyperLogLog yet: try PFADD h a b c.", "Chưa có HyperLogLog: thử PFADD h a b c."), f, Dim, Left, false)
		return l
	}
	head := s.Key
	if s.Info.Exists {
		head += fmt.Sprintf(" · %s · %d B · MEMORY USAGE %d", s.Info.HLL, s.Info.Len, s.Info.Memory)
	} else {
		head += " " + tr(s.lang, "(missing)", "(không tồn tại)")
	}
	l.text(in.X, y, head, f, TextColor, Left, true)
	y += f * 1.6
	// Layout: register map left (or on top when narrow), hash panel beside it.
	wide := in.W > in.H*1.3
	var mapR, side Rect
	if wide {
		sz := math.Min(in.H-(y-in.Y), in.W*0.48)
		mapR = Rect{in.X, y, sz, sz}
		side = Rect{in.X + sz + f, y, in.W - sz - f, in.H - (y - in.Y)}
	} else {
		sz := math.Min(in.W, (in.H-(y-in.Y))*0.55)
		mapR = Rect{in.X, y, sz, sz}
		side = Rect{in.X, y + sz + f*0.5, in.W, in.H - (y - in.Y) - sz - f*0.5}
	}
	l.rect(mapR.X-1, mapR.Y-1, mapR.W+2, mapR.H+2, Grid)
	l = append(l, Prim{Kind: KImage, X: mapR.X, Y: mapR.Y, W: mapR.W, H: mapR.H, Img: &s.Img})
	pulse := Pulse(t)
	for _, ev := range s.Events {
		c := RegCell(mapR, ev.Index)
		d := math.Max(3, c.W*2)
		col := Accent
		if ev.New == ev.Old {
			col = Dim
		}
		l.frame(c.X+c.W/2-d, c.Y+c.W/2-d, 2*d, 2*d, 1.5, col.Alpha(pulse))
	}
	y = side.Y
	if len(s.Events) == 0 {
		if s.Reply != "" {
			l.text(side.X, y, s.Cmd+" → "+s.Reply, f*0.8, Accent, Left, true)
		}
		return l
	}
	ev := s.Events[len(s.Events)-1]
	fs := f * 0.8
	l.text(side.X, y, fmt.Sprintf("%q → hash 0x%016x", ev.Element, ev.Hash), fs, TextColor, Left, true)
	y += fs * 1.5
	// The 64 hash bits, most significant first, in two rows of 32.
	cw := math.Min(side.W/32, f*1.1)
	for row := 0; row < 2; row++ {
		for k := 0; k < 32; k++ {
			b := 63 - (row*32 + k)
			on := ev.Hash>>uint(b)&1 == 1
			col := ZeroC
			switch HashBitClass(b, ev.Count) {
			case BitIndex:
				col = IndexC
			case BitRun:
				col = RunC
			case BitStop:
				col = Accent
			}
			if !on && HashBitClass(b, ev.Count) == BitRest {
				col = ZeroC
			}
			x := side.X + float64(k)*cw
			l.rect(x+0.5, y+0.5, cw-1, cw*1.2-1, col.Alpha(0.45+0.55*b2f(on)))
			if cw >= fs*0.6 {
				d := "0"
				if on {
					d = "1"
				}
				l.text(x+cw/2, y+(cw*1.2-fs*0.8)/2, d, fs*0.8, TextColor, Center, true)
			}
		}
		y += cw*1.2 + 2
	}
	y += fs * 0.5
	idx := fmt.Sprintf("%014b", ev.Index)
	l.text(side.X, y, tr(s.lang, "index = low 14 bits %s = %d", "index = 14 bit thấp %s = %d", idx, ev.Index), fs, IndexC, Left, false)
	y += fs * 1.4
	l.text(side.X, y, tr(s.lang, "%d zeros above them, then a 1 → count %d", "%d số 0 phía trên, rồi số 1 → count %d", ev.Count-1, ev.Count), fs, RunC, Left, false)
	y += fs * 1.4
	msg := tr(s.lang, "register %d: %d → %d (keeps the max)", "thanh ghi %d: %d → %d (giữ giá trị lớn nhất)", ev.Index, ev.Old, ev.New)
	if ev.New == ev.Old {
		msg = tr(s.lang, "register %d stays %d (count %d is not larger)", "thanh ghi %d giữ %d (count %d không lớn hơn)", ev.Index, ev.Old, ev.Count)
	}
	l.text(side.X, y, msg, fs, Accent, Left, false)
	y += fs * 1.6
	if len(s.Events) > 1 {
		l.text(side.X, y, tr(s.lang, "%d elements in this step", "%d phần tử trong bước này", len(s.Events)), fs*0.9, Dim, Left, false)
		y += fs * 1.4
	}
	if s.Reply != "" {
		l.text(side.X, y, s.Cmd+" → "+s.Reply, fs*0.9, Dim, Left, true)
	}
	return l
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// HLLHeaderCard reads the cached cardinality of an HLL header and whether it is valid.
func HLLHeaderCard(p []byte) (card uint64, valid bool) {
	if len(p) < 16 {
		return 0, false
	}
	v := binary.LittleEndian.Uint64(p[8:16])
	return v &^ (1 << 63), v>>63 == 0
}
