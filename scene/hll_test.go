package scene

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"redscope/engine"
	"redscope/engine/hll"
	"redscope/lesson"
)

// hllInput runs lines on a fresh traced engine and returns the scene input after the last one
// (its exchange only, as a lesson step would give).
func hllInput(t *testing.T, keys []string, lines ...string) Input {
	t.Helper()
	p := lesson.NewPlayer(lesson.Config{Version: engine.V70})
	for _, l := range lines {
		if x := p.Exec(l); x.Error {
			t.Fatalf("%s: %s", l, x.Reply)
		}
	}
	return Input{Engine: p.Engine(), Keys: keys, Last: lastOf(p)[len(lastOf(p))-1:], Lang: "en"}
}

// nums is "PFADD key lo … hi" with the decimal strings as elements.
func nums(cmd string, lo, hi int) string {
	var b strings.Builder
	b.WriteString(cmd)
	for i := lo; i <= hi; i++ {
		fmt.Fprintf(&b, " %d", i)
	}
	return b.String()
}

// TestHLLSparseOpsMatchKey plays hll-sparse: while the key is sparse, the scene's opcodes are
// the key's bytes (each opcode's first byte has its kind's bit pattern, the sizes add up to the
// string) and print as the engine's PFDEBUG DECODE; the strip paints each byte in its opcode's
// colour.
func TestHLLSparseOpsMatchKey(t *testing.T) {
	sparseSteps, denseSteps := 0, 0
	playLesson(t, "hll-sparse", engine.V70, func(pos int, in Input) {
		if in.Lang != "en" {
			return
		}
		s := New("hll").(*HLL)
		s.Update(in)
		o := in.Engine.Peek([]byte("h"))
		if o == nil {
			return
		}
		p := o.Buf.Bytes()
		if !s.Sparse {
			denseSteps++
			if len(s.Ops) != 0 || len(p) != HLLDenseBytes || s.Bytes != HLLDenseBytes {
				t.Fatalf("step %d: dense key with %d ops, %d bytes", pos, len(s.Ops), len(p))
			}
			return
		}
		sparseSteps++
		if got, want := formatOps(s.Ops), string(hll.AppendDecode(nil, p)); got != want {
			t.Fatalf("step %d: ops %q, engine decodes %q", pos, got, want)
		}
		off := 16
		for _, op := range s.Ops {
			if op.Off != off {
				t.Fatalf("step %d: op %v at %d, want %d", pos, op, op.Off, off)
			}
			// The op's own bytes, after a header, decode (engine/hll) to the op alone.
			alone := append(append([]byte(nil), p[:16]...), p[op.Off:op.Off+op.Len()]...)
			if got := string(hll.AppendDecode(nil, alone)); got != op.String() {
				t.Fatalf("step %d: op %v over bytes %q (%s)", pos, op, p[op.Off:op.Off+op.Len()], got)
			}
			off += op.Len()
		}
		if off != len(p) || s.Bytes != len(p) {
			t.Fatalf("step %d: ops end at %d, string is %d", pos, off, len(p))
		}
		// The strip: header, opcode bytes, then room up to the limit.
		px := func(i int) Color {
			b := s.Strip.RGBA[4*i : 4*i+4]
			return Color{b[0], b[1], b[2], b[3]}
		}
		if s.Strip.W != HLLStripCols || s.Strip.W*s.Strip.H < hLLStripBytes(len(p), s.Limit) {
			t.Fatalf("step %d: strip %dx%d", pos, s.Strip.W, s.Strip.H)
		}
		for _, op := range s.Ops {
			for k := 0; k < op.Len(); k++ {
				if px(op.Off+k) != opColor(op.Kind, op.Val) {
					t.Fatalf("step %d: byte %d of %v painted %v", pos, op.Off+k, op, px(op.Off+k))
				}
			}
		}
		if px(0) != headerC || px(15) != headerC {
			t.Fatalf("step %d: header not painted", pos)
		}
		if int64(len(p)) < s.Limit && px(len(p)) != stripRoomColor() {
			t.Fatalf("step %d: room after the string painted %v", pos, px(len(p)))
		}
		// The strip is one image: no primitive per byte or per opcode.
		images := 0
		for _, pr := range s.Frame(Stage(1280, 800), 1) {
			if pr.Kind == KImage {
				images++
			}
		}
		if images != 2 {
			t.Fatalf("step %d: %d images, want the map and the strip", pos, images)
		}
	})
	if sparseSteps < 5 || denseSteps < 2 {
		t.Fatalf("sparse at %d positions, dense at %d", sparseSteps, denseSteps)
	}
}

// TestHLLFirstOpcodes: PFADD h a then b are the opcodes docs/internals.md §HyperLogLog and redis-server
// 7.0.15 decode (PFDEBUG DECODE h = Z:12711 v:2,1 Z:3068 v:1,1 Z:603, 24 bytes), and the
// rewrite of the step is the split of the run that held register 15780.
func TestHLLFirstOpcodes(t *testing.T) {
	s := &HLL{}
	s.Update(hllInput(t, []string{"h"}, "PFADD h a", "PFADD h b"))
	want := []HLLOp{
		{OpXZero, 16, 0, 12711, 0}, {OpVal, 18, 12711, 1, 2}, {OpXZero, 19, 12712, 3068, 0},
		{OpVal, 21, 15780, 1, 1}, {OpXZero, 22, 15781, 603, 0},
	}
	if fmt.Sprint(s.Ops) != fmt.Sprint(want) || s.Bytes != 24 {
		t.Fatalf("%+v (%d bytes)", s.Ops, s.Bytes)
	}
	if formatOps(s.Ops) != "Z:12711 v:2,1 Z:3068 v:1,1 Z:603" {
		t.Fatal(formatOps(s.Ops))
	}
	if s.LastRewrite == nil || s.LastRewrite.Index != 15780 || s.LastRewrite.Rewrite != "split" || s.Rewrites != 1 {
		t.Fatalf("%+v", s.LastRewrite)
	}
	text := allText(s.Frame(Stage(1280, 800), 1))
	for _, w := range []string{"sparse: 24 B", "hll-sparse-max-bytes = 3000", "XZERO 3", "VAL 2", "ZERO 0", "Z:12711 v:2,1 Z:3068 v:1,1 Z:603", "register 15780, a run split:", "v:2,1 Z:3672 → v:2,1 Z:3068 v:1,1 Z:603"} {
		if !strings.Contains(text, w) {
			t.Errorf("%q missing from\n%s", w, text)
		}
	}
}

// TestHLLGaugeFollowsConfig: the gauge's limit is the engine's hll-sparse-max-bytes (3000 by
// default, whatever CONFIG SET made it), and the promotion comes where redis-server 7.0.15 makes
// it: with the limit at 400, "1" … "149" fill exactly 400 bytes and "150" promotes.
func TestHLLGaugeFollowsConfig(t *testing.T) {
	s := &HLL{}
	s.Update(hllInput(t, []string{"h"}, "PFADD h a"))
	if s.Limit != 3000 {
		t.Fatalf("default limit %d", s.Limit)
	}
	g := Rect{10, 20, 300, 12}
	if fill, mark := hLLGauge(g, 21, s.Limit); fill.W != 300*21.0/3000 || mark != 310 {
		t.Fatalf("fill %+v mark %v", fill, mark)
	}
	s.Update(hllInput(t, []string{"h"}, "CONFIG SET hll-sparse-max-bytes 400", nums("PFADD h", 1, 149)))
	if s.Limit != 400 || !s.Sparse || s.Bytes != 400 || s.Promote != nil {
		t.Fatalf("limit %d sparse %v bytes %d promote %+v", s.Limit, s.Sparse, s.Bytes, s.Promote)
	}
	if fill, mark := hLLGauge(g, s.Bytes, s.Limit); fill.W != 300 || mark != 310 {
		t.Fatalf("full gauge: fill %+v mark %v", fill, mark)
	}
	if !strings.Contains(allText(s.Frame(Stage(1280, 800), 1)), "hll-sparse-max-bytes = 400") {
		t.Fatal("gauge title does not follow the config")
	}
	if s.Strip.H != 4 { // 400 bytes, 100 a row
		t.Fatalf("strip rows %d", s.Strip.H)
	}
	s.Update(hllInput(t, []string{"h"}, "CONFIG SET hll-sparse-max-bytes 400", nums("PFADD h", 1, 149), "PFADD h 150"))
	if s.Sparse || s.Bytes != HLLDenseBytes || s.Promote == nil || s.Promote.SparseBytes != 400 || s.Promote.Limit != 400 || s.Promote.Why.Code != engine.WhyHLLBytes {
		t.Fatalf("promotion: sparse %v bytes %d %+v", s.Sparse, s.Bytes, s.Promote)
	}
	// Dense: the string overflows the mark, which sits at 400/12304 of the gauge.
	fill, mark := hLLGauge(g, s.Bytes, s.Limit)
	if fill.W != 300 || math.Abs(mark-(10+300*400.0/12304)) > 1e-9 {
		t.Fatalf("overflow: fill %+v mark %v", fill, mark)
	}
	text := allText(s.Frame(Stage(1280, 800), 1))
	if !strings.Contains(text, "sparse 400 B + this update > 400") || !strings.Contains(text, "dense: 12304 B") {
		t.Fatalf("promotion not shown:\n%s", text)
	}
	if s.Strip.W != 0 || s.Strip.H != 0 {
		t.Fatal("a dense key has no strip")
	}
}

func TestHLLStripBytes(t *testing.T) {
	if hLLStripBytes(21, 3000) != 3000 || hLLStripBytes(500, 400) != 500 || hLLStripBytes(21, 1<<40) != 16384 {
		t.Fatal("strip span")
	}
}

// TestHLLBand: the band is the truth ∓ 1.04/128 of it (the standard error with 16 384
// registers), twice that for ±2σ.
func TestHLLBand(t *testing.T) {
	lo, hi := hLLBand(100000, 1)
	if lo != 99187.5 || hi != 100812.5 { // 100000 ∓ 100000·1.04/128
		t.Fatalf("%v %v", lo, hi)
	}
	lo, hi = hLLBand(80000, 2)
	if lo != 80000-2*650 || hi != 80000+2*650 {
		t.Fatalf("2σ %v %v", lo, hi)
	}
	if HLLStdErr != 1.04/math.Sqrt(16384) {
		t.Fatal("1.04/√m")
	}
	r := Rect{0, 0, 600, 10}
	a := bandAxis(100420, 100000, true) // +0.42 %: inside ±3σ, the axis stays ±3σ
	if a != 3*HLLStdErr || bandX(r, 100000, 100000, a) != 300 || math.Abs(bandX(r, hi, 80000, bandAxis(0, 80000, false))-(300+300*2.0/3)) > 1e-9 {
		t.Fatal("axis")
	}
	if a := bandAxis(110000, 100000, true); a < 0.1 {
		t.Fatal("an estimate outside ±3σ widens the axis")
	}
}

// TestHLLEstimateScene plays hll-estimate: each HLL is compared with its set, the estimate is
// PFCOUNT's reply (cached in the header), the truth is SCARD's, and the band drawn around the
// truth spans ±1.04/128 of it. Values: redis-server 7.0.15 (994, 9977, 100420).
func TestHLLEstimateScene(t *testing.T) {
	want := map[string]int64{"h:1k": 994, "h:10k": 9977, "h:100k": 100420}
	truth := map[string]int64{"h:1k": 1000, "h:10k": 10000, "h:100k": 100000}
	last := 0
	playLesson(t, "hll-estimate", engine.V70, func(pos int, in Input) {
		s := New("hll").(*HLL)
		s.Update(in)
		if pos == 0 {
			if !strings.Contains(allText(s.Frame(Stage(1280, 800), 1)), "PFADD") {
				t.Fatal("empty start")
			}
			return
		}
		if !s.Counting || len(s.parts()) != 0 {
			t.Fatalf("step %d: counting %v parts %v", pos, s.Counting, s.parts())
		}
		pairs := s.Pairs()
		if len(pairs) != min(pos, 3) {
			t.Fatalf("step %d: %d pairs", pos, len(pairs))
		}
		for _, i := range pairs {
			h, tr := s.Rows[i], s.Rows[s.Rows[i].Truth]
			if !h.Known || h.Count != want[h.Key] || tr.Count != truth[h.Key] || !tr.Set {
				t.Fatalf("step %d: %+v vs %+v", pos, h, tr)
			}
		}
		if in.Lang != "en" {
			return
		}
		// The drawing: a band of ±1.04/128 of the truth around the truth's line, the estimate
		// inside it where the error is smaller.
		prims := s.Frame(Stage(1280, 800), 1)
		text := allText(prims)
		for _, i := range pairs {
			h, tr := s.Rows[i], s.Rows[s.Rows[i].Truth]
			head := fmt.Sprintf("%s PFCOUNT %d · %s SCARD %d · %s", h.Key, h.Count, tr.Key, tr.Count, signedPct(relErr(h.Count, tr.Count)))
			lo, hi := hLLBand(tr.Count, 1)
			if !strings.Contains(text, head) || !strings.Contains(text, fmt.Sprintf("%.0f = −0.81%%", lo)) || !strings.Contains(text, fmt.Sprintf("+0.81%% = %.0f", hi)) {
				t.Fatalf("step %d: %q or the bounds missing\n%s", pos, head, text)
			}
		}
		bands, marks := 0, 0
		for j, p := range prims {
			if p.Kind == KRect && p.H < 20*s.fit.scale() {
				continue // the legend's swatches (at 1280 x 800 the axes are taller)
			}
			if p.Kind == KRect && p.Color == panelC.mix(indexC, 0.4) {
				// The ±1σ band: its width over the axis's (the previous two rects: axis, ±2σ).
				axis := prims[j-2]
				a := bandAxis(s.Rows[pairs[bands]].Count, s.Rows[s.Rows[pairs[bands]].Truth].Count, true)
				if math.Abs(p.W/axis.W-HLLStdErr/a) > 1e-9 {
					t.Fatalf("step %d: band %v of axis %v", pos, p.W, axis.W)
				}
				bands++
			}
			if p.Kind == KRect && p.Color == accent {
				marks++
			}
		}
		if bands != len(pairs) || marks != len(pairs) {
			t.Fatalf("step %d: %d bands, %d estimate marks", pos, bands, marks)
		}
		last = pos
	})
	if last != 4 {
		t.Fatalf("lesson ended at %d", last)
	}
}

// TestHLLWeekScene plays hll-week: the days are bars of their PFCOUNT, the sum of the bars is
// drawn as long as that sum, and the merged week and the truth are bars on the same scale.
// Values: redis-server 7.0.15 (the days' PFCOUNTs, SCARD seen = 80000, PFCOUNT week = 80638).
func TestHLLWeekScene(t *testing.T) {
	days := []int64{20029, 20225, 20052, 19966, 19972, 19948, 20024}
	var sum int64
	for _, d := range days {
		sum += d
	}
	seen := map[int]bool{}
	playLesson(t, "hll-week", engine.V70, func(pos int, in Input) {
		if in.Lang != "en" || pos == 0 {
			return
		}
		s := New("hll").(*HLL)
		s.Update(in)
		parts := s.parts()
		if !s.Counting || len(parts) != []int{0, 1, 3, 5, 7, 7, 7, 7}[pos] {
			t.Fatalf("step %d: parts %v", pos, parts)
		}
		for k, i := range parts {
			if r := s.Rows[i]; r.Key != fmt.Sprintf("day:%d", k+1) || !r.Known || r.Count != days[k] {
				t.Fatalf("step %d: %+v", pos, r)
			}
		}
		prims := s.Frame(Stage(1280, 800), 1)
		text := allText(prims)
		var bars []Prim
		for _, p := range prims {
			if p.Kind == KRect {
				bars = append(bars, p)
			}
		}
		scale := float64(s.weekScale())
		barW := func(c Color) (w float64) {
			for _, b := range bars {
				if b.Color == c && b.W > w {
					w = b.W
				}
			}
			return w
		}
		if pos < 4 {
			return
		}
		// Full day bars, then the sum: the parts' segments laid end to end.
		got, _ := s.partsSum()
		if got != sum || scale != float64(sum) || !strings.Contains(text, fmt.Sprint(sum)) {
			t.Fatalf("step %d: sum %d scale %v", pos, got, scale)
		}
		segs := 0.0
		for _, b := range bars[len(parts):] {
			if b.Color == indexC || b.Color == indexC.mix(panelC, 0.45) {
				segs += b.W
			}
		}
		truthW := barW(oneC)
		if math.Abs(segs/truthW-float64(sum)/80000) > 1e-6 {
			t.Fatalf("step %d: sum bar %v vs truth bar %v", pos, segs, truthW)
		}
		if !strings.Contains(text, fmt.Sprintf("+%d", sum-80000)) {
			t.Fatalf("step %d: the overcount is not shown\n%s", pos, text)
		}
		seen[4] = true
		if pos >= 5 {
			pairs := s.Pairs()
			if len(pairs) != 1 || s.Rows[pairs[0]].Key != "week" || s.Rows[s.Rows[pairs[0]].Truth].Key != "seen" {
				t.Fatalf("step %d: pairs %v", pos, pairs)
			}
			w := s.Rows[pairs[0]]
			if w.Count != 80638 || !w.Known || w.Enc != "dense" {
				t.Fatalf("step %d: week %+v", pos, w)
			}
			// Merged bar : truth bar = 80638 : 80000, and both far shorter than the sum.
			if mw := barW(accent); math.Abs(mw/truthW-80638.0/80000) > 1e-6 || mw >= segs*0.6 {
				t.Fatalf("step %d: merged %v truth %v sum %v", pos, mw, truthW, segs)
			}
			if !strings.Contains(text, "80638 +0.80 %") {
				t.Fatalf("step %d:\n%s", pos, text)
			}
			seen[5] = true
		}
	})
	if !seen[4] || !seen[5] {
		t.Fatal("the lesson did not reach the sum and the merge")
	}
}

// TestHLLStaleCount: after PFADD and before PFCOUNT the header's cache is stale: the row says
// so rather than show an old figure.
func TestHLLStaleCount(t *testing.T) {
	s := &HLL{}
	s.Update(hllInput(t, []string{"h", "s"}, "PFADD h a b c", "SADD s a b c", "PFCOUNT h", "PFADD h d"))
	if !s.Counting || len(s.Rows) != 2 || s.Rows[0].Known || s.Rows[1].Count != 3 || s.Rows[0].Truth != 1 {
		t.Fatalf("%+v", s.Rows)
	}
	s.Update(hllInput(t, []string{"h", "s"}, "PFADD h a b c", "SADD s a b c", "PFADD h d", "PFCOUNT h"))
	if !s.Rows[0].Known || s.Rows[0].Count != 4 {
		t.Fatalf("%+v", s.Rows[0])
	}
}

// TestRegColorFollowsTheme: register 0's colour is computed from the palette when called.
func TestRegColorFollowsTheme(t *testing.T) {
	saved := panelC
	defer func() { panelC = saved }()
	panelC = Color{0xf0, 0xf0, 0xf0, 0xff}
	if c := regColor(0); c == saved.mix(grid, 0.06) || c != panelC.mix(grid, 0.06) {
		t.Fatalf("%v", c)
	}
}

// The HLL lessons keep every text inside the stage, unoverlapped, ≥ 10 px and readable.
func TestHLLLessonLayouts(t *testing.T) {
	for _, name := range []string{"hll-registers", "hll-sparse", "hll-estimate", "hll-week"} {
		checkLessonLayouts(t, name, "hll", engine.V70)
	}
}

// The same in the light theme (the colours are computed from the palette when drawn).
func TestHLLLessonLayoutsLight(t *testing.T) {
	if !SetTheme("light") {
		t.Skip("no light theme")
	}
	defer SetTheme("dark")
	for _, name := range []string{"hll-sparse", "hll-estimate", "hll-week"} {
		checkLessonLayouts(t, name, "hll", engine.V88)
	}
}

// TestHLLSparseStripLegible: the sparse byte strip the hll-sparse captions point at is drawn at
// least a text line tall per row on a laptop stage (it was a few pixels high).
func TestHLLSparseStripLegible(t *testing.T) {
	seen := 0
	playLesson(t, "hll-sparse", engine.V70, func(pos int, in Input) {
		s := New("hll").(*HLL)
		s.Update(in)
		if !s.Sparse || s.Counting || in.Lang != "en" {
			return
		}
		for _, p := range s.Frame(Stage(1280, 800), 1) {
			if p.Kind == KImage && p.Img == &s.Strip {
				seen++
				if rowH := p.H / float64(s.Strip.H); rowH < 8 || p.H < 24 {
					t.Errorf("step %d: strip %.0f px for %d rows (%.1f px a row)", pos, p.H, s.Strip.H, rowH)
				}
			}
		}
	})
	if seen == 0 {
		t.Fatal("no sparse strip drawn")
	}
}
