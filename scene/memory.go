package scene

import (
	"fmt"
	"math"
	"strings"

	"redscope/engine"
)

// Memory draws the watched keys side by side by what they cost: one row per key with its type
// and encoding, a MEMORY USAGE bar on the fixed log scale every scene uses (layout.go), its size
// in bytes and its TTL; when several watched keys share a type, a Σ row adds them up, so "one
// hash against six strings" is two totals on one scale, and the ratio between the two largest
// totals is written out. Under the bars, the step's last commands with their replies (HGETALL
// against six GETs, one EXPIRE against six). Every figure is the engine's: MEMORY USAGE as
// engine.PeekMemoryUsage answers it (SAMPLES 5, as the outputs panel), the TTL as the key holds
// it; the sums and the ratio add and divide those figures, nothing else.
//
// For a user profile on 7.0 with Debian's allocator, the hash of five fields is 144 bytes and
// the five strings 72 + 88 + 72 + 72 + 56 = 360 bytes: each string key pays its own
// dictEntry, key sds and object header, which the hash pays once.
type Memory struct {
	Keys  []MemKey
	Sums  []MemSum
	Rows  []verdict // the step's last commands (judge: reply; no verdict colours but writes')
	More  int
	Ratio string // "2.7×" between the two largest sums (or keys), "" when there is one
	lang  string
	fit   fitter
}

// MemKey is one watched key's row.
type MemKey struct {
	Info    engine.KeyInfo
	Touched bool
}

// MemSum is the total of the watched keys of one type.
type MemSum struct {
	Type  string
	Keys  int
	Bytes int64
}

// MemoryMaxRows is how many commands of a step the scene lists.
const MemoryMaxRows = 7

func init() { register("memory", func() Scene { return &Memory{} }) }

// Update implements Scene.
func (s *Memory) Update(in Input) {
	s.fit.reset()
	*s = Memory{lang: in.Lang}
	touched := keysTouched(in.Last)
	sums := map[string]*MemSum{}
	var order []string
	for _, k := range in.Keys {
		ki := in.Engine.Inspect(k)
		s.Keys = append(s.Keys, MemKey{Info: ki, Touched: touched[k]})
		if !ki.Exists || ki.Memory < 0 {
			continue
		}
		if sums[ki.Type] == nil {
			sums[ki.Type] = &MemSum{Type: ki.Type}
			order = append(order, ki.Type)
		}
		sums[ki.Type].Keys++
		sums[ki.Type].Bytes += ki.Memory
	}
	// The totals compared: one per type (a single key is its own total).
	var tot []int64
	for _, t := range order {
		if sums[t].Keys > 1 {
			s.Sums = append(s.Sums, *sums[t])
		}
		tot = append(tot, sums[t].Bytes)
	}
	if len(tot) >= 2 {
		hi, lo := int64(0), int64(math.MaxInt64)
		for _, b := range tot {
			hi, lo = max(hi, b), min(lo, b)
		}
		if lo > 0 {
			s.Ratio = ratioText(float64(hi) / float64(lo))
		}
	}
	var xs []engine.Exchange
	for _, x := range in.Last {
		if x.Cmd != "" || x.Advance != "" {
			xs = append(xs, x)
		}
	}
	s.Rows, s.More = judged(xs, MemoryMaxRows, in.Lang)
}

// ratioText writes a ratio: "2.7×", "386×".
func ratioText(r float64) string {
	if r >= 10 {
		return num(int64(math.Round(r))) + "×"
	}
	return fmt.Sprintf("%.1f×", r)
}

func (s *Memory) start() (startCard, bool) {
	keys, ok := unmade(s.Keys, func(k MemKey) (string, bool) { return k.Info.Key, k.Info.Exists })
	if !ok || len(s.Rows) > 0 {
		return startCard{}, false
	}
	return card(s.lang, "memory", keys), true
}

// Frame implements Scene.
func (s *Memory) Frame(r Rect, t float64) []Prim {
	return s.fit.framed(r, t, s.lang, s.start, s.layout)
}

func (s *Memory) layout(r Rect, t float64) []Prim {
	var l list
	f, in := margins(r)
	fs := math.Max(minText, f*0.8)
	cw := monoWidth("m", fs)
	pulse := pulseAt(t)
	narrow := in.W < cw*58
	nameW := cw * 16
	for _, k := range s.Keys {
		nameW = math.Max(nameW, monoWidth(k.Info.Key, fs)+cw)
	}
	nameW = math.Min(nameW, in.W*0.4)
	barX := in.X + nameW
	numW := monoWidth("12 345 678 B", fs)
	barW := in.X + in.W - barX - numW
	rowH := fs * 1.7
	if narrow {
		barX, barW, rowH = in.X, in.W-numW, fs*2.9
	}
	y := in.Y
	bar := func(y float64, n int64, c Color) {
		l.rect(barX, y, barW, fs*0.9, zeroC)
		l.rect(barX, y, memBarLen(n, barW), fs*0.9, c)
		l.text(in.X+in.W, y-fs*0.1, nBytes(s.lang, n), fs, textColor, Right, true)
	}
	for _, k := range s.Keys {
		if y+rowH > in.Y+in.H*0.62 {
			break
		}
		ki := k.Info
		c := textColor
		if k.Touched {
			c = textColor.mix(accent, pulse)
		}
		l.rect(in.X-fs*0.3, y, in.W+fs*0.6, rowH-fs*0.15, panelC)
		if k.Touched {
			l.frame(in.X-fs*0.3, y, in.W+fs*0.6, rowH-fs*0.15, 1.5, grid.mix(accent, pulse))
		}
		label := ki.Key
		desc := tr(s.lang, "(missing)", "(không có)")
		if ki.Exists {
			desc = ki.Type + " · " + ki.Encoding
			if ki.TTLMs >= 0 {
				desc += " · TTL " + fmtDur(ki.TTLMs)
			}
		}
		if narrow {
			l.text(in.X, y+fs*0.15, fitText(label+"  "+desc, in.W, fs, true), fs, c, Left, true)
			if ki.Exists && ki.Memory >= 0 {
				bar(y+fs*1.5, ki.Memory, memBarC())
			}
		} else {
			l.text(in.X, y+fs*0.15, fitText(label, nameW-cw, fs, true), fs, c, Left, true)
			if ki.Exists && ki.Memory >= 0 {
				bar(y+fs*0.35, ki.Memory, memBarC())
				// type · encoding over the bar's empty end, where the bar leaves room
				dw := monoWidth(desc, fs*0.8)
				if bx := barX + memBarLen(ki.Memory, barW) + cw; bx+dw < barX+barW {
					l.text(bx, y+fs*0.4, desc, fs*0.8, dim, Left, true)
				}
			} else {
				l.text(barX, y+fs*0.15, desc, fs, dim, Left, true)
			}
		}
		y += rowH
	}
	for _, sm := range s.Sums {
		if y+rowH > in.Y+in.H*0.75 {
			break
		}
		label := tr(s.lang, "Σ %d %s keys", "Σ %d key %s", sm.Keys, sm.Type)
		if narrow {
			l.text(in.X, y+fs*0.15, label, fs, oneC, Left, false)
			bar(y+fs*1.5, sm.Bytes, oneC)
		} else {
			l.text(in.X, y+fs*0.15, fitText(label, nameW-cw, fs, false), fs, oneC, Left, false)
			bar(y+fs*0.35, sm.Bytes, oneC)
		}
		y += rowH
	}
	if s.Ratio != "" {
		msg := tr(s.lang, "largest total / smallest: %s", "tổng lớn nhất / nhỏ nhất: %s", s.Ratio)
		l.text(in.X, y+fs*0.1, msg, fs, textColor, Left, false)
		y += fs * 1.5
	}
	y += drawMemAxis(&l, barX, y+fs*0.4, barW, in.X+in.W-barX, f, s.lang) + fs*0.8
	// The step's commands.
	if s.More > 0 && y+fs*1.4 <= in.Y+in.H {
		l.text(in.X, y, tr(s.lang, "… %d earlier commands", "… %d lệnh trước đó", s.More), fs, dim, Left, false)
		y += fs * 1.4
	}
	for _, v := range s.Rows {
		if y+fs*1.35 > in.Y+in.H+0.01 {
			break
		}
		col := textColor
		if v.Advance {
			col = dim
		}
		line := v.Cmd
		if v.Reply != "" {
			line += " → " + v.Reply
		}
		l.text(in.X, y, fitText(line, in.W, fs, true), fs, col, Left, true)
		y += fs * 1.35
	}
	return l
}

// Describe implements Describer.
func (s *Memory) Describe() string {
	var parts []string
	for _, k := range s.Keys {
		if k.Info.Exists {
			parts = append(parts, keyWords(s.lang, k.Info))
		}
	}
	for _, sm := range s.Sums {
		parts = append(parts, tr(s.lang, "%d %s keys: %s in all", "%d key %s: tổng %s", sm.Keys, sm.Type, nBytes(s.lang, sm.Bytes)))
	}
	if s.Ratio != "" {
		parts = append(parts, tr(s.lang, "largest total / smallest %s", "tổng lớn nhất / nhỏ nhất %s", s.Ratio))
	}
	if len(parts) == 0 {
		return tr(s.lang, "no key yet", "chưa có key nào")
	}
	return sentence(strings.Join(parts, "; "))
}
