package scene

import (
	"math"
)

// One scale for every MEMORY USAGE bar. A bar's length must mean the same at every step of a
// lesson, under every version profile and in every scene, so it is not scaled to the largest
// key on screen (which made 32 B, 56 B and 120 B all full width): it is a fixed logarithmic
// scale from MemScaleMin (16 B, the smallest allocation class) to MemScaleMax (1 GiB), one
// equal step per doubling, and every bar says so with the axis drawn under it. On this scale
// 32 B, 56 B and 120 B are 1, 1.8 and 2.9 doublings long, and a 512 MiB string nearly fills it.
const (
	MemScaleMin = 16
	MemScaleMax = 1 << 30
)

// MemFrac is the share of a MEMORY USAGE bar's full length that n bytes take: 0 at or below
// MemScaleMin, 1 at MemScaleMax, log2 in between.
func MemFrac(n int64) float64 {
	if n <= MemScaleMin {
		return 0
	}
	f := math.Log2(float64(n)/MemScaleMin) / math.Log2(float64(MemScaleMax)/MemScaleMin)
	return math.Min(1, f)
}

// memBarLen is the drawn length of a bar of n bytes on an axis w long: a sliver of at least 2 px
// so that a 16-byte key is still seen.
func memBarLen(n int64, w float64) float64 { return math.Max(2, w*MemFrac(n)) }

// memTicks are the axis marks: 16 B, 1 KiB, 64 KiB, 4 MiB, 256 MiB.
var memTicks = []struct {
	n     int64
	label string
}{{16, "16 B"}, {1 << 10, "1 KiB"}, {64 << 10, "64 KiB"}, {4 << 20, "4 MiB"}, {256 << 20, "256 MiB"}, {1 << 30, "1 GiB"}}

// drawMemAxis draws the fixed scale under bars that start at x and are w long at full scale:
// the ticks, their labels (those that fit) and, wrapped in cw, what the scale is. It returns the
// height used.
func drawMemAxis(l *list, x, y, w, cw, f float64, lang string) float64 {
	size := math.Max(11, f*0.6)
	l.line(x, y, x+w, y, 1, Grid)
	last := -1e9
	for _, tk := range memTicks {
		tx := x + w*MemFrac(tk.n)
		l.line(tx, y-size*0.3, tx, y+size*0.3, 1, Grid)
		lw := TextWidth(tk.label, size, false)
		lx, al := tx-lw/2, Center // the label's left edge and alignment: inside [x, x+w]
		switch {
		case lx < x:
			lx, al = x, Left
		case lx+lw > x+w:
			lx, al = x+w-lw, Right
		}
		if lx > last+size*0.5 {
			ax := map[Align]float64{Left: lx, Center: tx, Right: x + w}[al]
			l.text(ax, y+size*0.35, tk.label, size, Dim, al, false)
			last = lx + lw
		}
	}
	h := size * 1.6
	if cw >= 420 { // room for the words: say what the scale is (a phone reads it from the marks)
		cap := tr(lang, "MEMORY USAGE bars: one fixed log scale (each mark ×64) in every lesson and version",
			"thanh MEMORY USAGE: một thang log cố định (mỗi vạch ×64) ở mọi bài, mọi phiên bản")
		h = l.wrap(Rect{x, y + h, cw, size * 2.7}, y+h, cap, size, Dim) - y
	}
	return h
}

// memAxisHeight is the height drawMemAxis takes.
func memAxisHeight(cw, f float64, lang string) float64 {
	var scratch list
	return drawMemAxis(&scratch, 0, 0, cw, cw, f, lang)
}

// memBarC is the fill of a MEMORY USAGE bar.
func memBarC() Color { return DataC.Mix(Background, 0.3) }
