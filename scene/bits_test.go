package scene

import (
	"math"
	"strings"
	"testing"

	"redscope/engine"
	"redscope/engine/alloc"
	"redscope/engine/sds"
	"redscope/internal/numfmt"
	"redscope/lesson"
)

// bitsAfter plays lines on a fresh player (each a console line) and builds the bits scene from
// the last one, as the page does after a step.
func bitsAfter(t *testing.T, v engine.Version, keys []string, lines ...string) (*bitsScene, *lesson.Player) {
	t.Helper()
	p := lesson.NewPlayer(lesson.Config{Version: v, Allocator: alloc.Jemalloc16})
	for _, l := range lines {
		p.Exec(l)
	}
	s := New("bits").(*bitsScene)
	s.Update(Input{Engine: p.Engine(), Keys: keys, Last: lastOf(p)[len(lastOf(p))-1:], Lang: "en"})
	return s, p
}

// framesAt returns the frames of prims as cells (row, first bit, last bit) of the byte grid the
// last Frame laid out; frames on the grid that are not on whole cells are reported as row -1.
func framesAt(s *bitsScene, prims []Prim) [][3]int {
	var out [][3]int
	g := s.lay.grid
	n := len(s.lay.rows)
	for _, p := range prims {
		if p.Kind != KFrame || !g.Contains(p.X+p.W/2, p.Y+p.H/2) {
			continue // not a frame on the byte grid (the strip's outline)
		}
		cw, ch := g.W/8, g.H/float64(n)
		row := (p.Y - g.Y) / ch
		b0 := (p.X - g.X) / cw
		b1 := (p.X+p.W-g.X)/cw - 1
		if math.Abs(row-math.Round(row)) > 0.01 || math.Abs(b0-math.Round(b0)) > 0.01 || math.Abs(b1-math.Round(b1)) > 0.01 {
			out = append(out, [3]int{-1, 0, 0})
			continue
		}
		out = append(out, [3]int{int(math.Round(row)), int(math.Round(b0)), int(math.Round(b1))})
	}
	return out
}

var bitsStage = Stage(1280, 800)

// TestBitsSetbitAtByteBoundaries: offsets 7 and 8 are the last bit of byte 0 and the first bit of
// byte 1; the frame sits on that cell and nowhere else.
func TestBitsSetbitAtByteBoundaries(t *testing.T) {
	for _, c := range []struct {
		off       string
		row, bit  int
		data0     byte
		rows, grw int
	}{{"7", 0, 7, 0x01, 1, 1}, {"8", 1, 0, 0x00, 2, 2}, {"15", 1, 7, 0x00, 2, 2}} {
		s, _ := bitsAfter(t, engine.V70, []string{"k"}, "SETBIT k "+c.off+" 1")
		prims := s.Frame(bitsStage, 0)
		if len(s.Data) != c.rows || s.Data[0] != c.data0 || s.GrewTo != int64(c.grw) {
			t.Fatalf("offset %s: data % x grew to %d", c.off, s.Data, s.GrewTo)
		}
		fr := framesAt(s, prims)
		if len(fr) != 1 || fr[0] != [3]int{c.row, c.bit, c.bit} {
			t.Fatalf("offset %s: frames %v, want row %d bit %d", c.off, fr, c.row, c.bit)
		}
		if !strings.Contains(allText(prims), "offset "+c.off+" → byte") {
			t.Fatalf("offset %s: note missing:\n%s", c.off, allText(prims))
		}
	}
}

// TestBitsBitpos: the bit found is framed in its cell, the bits outside the range searched are
// dimmed, and -1 frames nothing.
func TestBitsBitpos(t *testing.T) {
	setup := []string{"SETBIT bm 7 1", "SETBIT bm 0 1", "SETBIT bm 100 1"}
	s, _ := bitsAfter(t, engine.V70, []string{"bm"}, append(setup, "BITPOS bm 1 1 -1")...)
	if s.Scan == nil || s.Scan.First != 8 || s.Scan.Last != 103 || s.Scan.Result != 100 {
		t.Fatalf("scan %+v", s.Scan)
	}
	prims := s.Frame(bitsStage, 1)
	if fr := framesAt(s, prims); len(fr) != 1 || fr[0] != [3]int{12, 4, 4} {
		t.Fatalf("frames %v, want byte 12 bit 4", fr)
	}
	// Byte 0 lies outside the range: its set bit is drawn dimmed, byte 12's at full strength.
	g := s.lay.grid
	c0 := bitCell(g, 0, 0, len(s.lay.rows))
	c12 := bitCell(g, 12, 4, len(s.lay.rows))
	var col0, col12 Color
	for _, p := range prims {
		if p.Kind == KRect && c0.Contains(p.X+1, p.Y+1) && p.W < c0.W {
			col0 = p.Color
		}
		if p.Kind == KRect && c12.Contains(p.X+1, p.Y+1) && p.W < c12.W {
			col12 = p.Color
		}
	}
	if col12 != oneC || col0 == oneC || col0 == (Color{}) {
		t.Fatalf("byte 0 bit 0 %v, byte 12 bit 4 %v (OneC %v)", col0, col12, oneC)
	}
	s, _ = bitsAfter(t, engine.V70, []string{"bm"}, append(setup, "BITPOS bm 1 2 11")...)
	prims = s.Frame(bitsStage, 1)
	if s.Scan == nil || s.Scan.Result != -1 || len(framesAt(s, prims)) != 0 || !strings.Contains(allText(prims), "→ -1") {
		t.Fatalf("-1: %+v\n%s", s.Scan, allText(prims))
	}
	// BITPOS 0 on all ones without an end answers the bit past the string (docs/internals.md §Bitmaps).
	s, _ = bitsAfter(t, engine.V70, []string{"c"}, `SET c "\xff\xff\xff"`, "BITPOS c 0")
	if s.Scan == nil || !s.Scan.Past || s.Scan.Result != 24 || s.Reply != "(integer) 24" {
		t.Fatalf("past: %+v %q", s.Scan, s.Reply)
	}
	// BITCOUNT with a BIT range: the event's range is in bits.
	s, _ = bitsAfter(t, engine.V70, []string{"bm"}, append(setup, "BITCOUNT bm 0 7 BIT")...)
	if s.Scan == nil || s.Scan.First != 0 || s.Scan.Last != 7 || s.Scan.Result != 2 {
		t.Fatalf("bitcount %+v", s.Scan)
	}
}

// TestBitsBitop: the sources' rows and the result's, and a lit column exactly where the result
// has a 1 (checked on the real server: AND of \xf0\x3c and \xcc\x0f is \xc0\x0c).
func TestBitsBitop(t *testing.T) {
	s, _ := bitsAfter(t, engine.V70, []string{"d1", "d2", "r"}, `SET d1 "\xf0\x3c"`, `SET d2 "\xcc\x0f"`, `SET d3 "\xaa"`, "BITOP OR r d1 d2 d3")
	v := s.Op
	if v == nil || v.Op != "or" || v.Dest != "r" || len(v.Inputs) != 3 || v.Inputs[2][1] != 0 || v.Result[0] != 0xfe || v.Result[1] != 0x3f {
		t.Fatalf("%+v", v)
	}
	for _, r := range []Rect{bitsStage, Stage(360, 740)} {
		prims := s.Frame(r, 1)
		lay := s.lay
		if lay.opNB != 2 || lay.opRow != 4 {
			t.Fatalf("%v: %d bytes, %d rows", r, lay.opNB, lay.opRow)
		}
		cellX := func(b int) float64 { return lay.opX + float64(b)*lay.opCW + float64(b/8)*lay.opGap }
		lit := map[int]bool{}
		for _, p := range prims {
			if p.Kind != KRect || math.Abs(p.W-lay.opCW) > 0.01 || p.H < 3*lay.opCH {
				continue
			}
			b := -1
			for i := 0; i < 16; i++ {
				if math.Abs(p.X-cellX(i)) < 0.01 {
					b = i
				}
			}
			if b < 0 {
				t.Fatalf("a column band off the grid at x %.1f", p.X)
			}
			lit[b] = true
		}
		for b := 0; b < 16; b++ {
			if lit[b] != bitopBit(v.Result, b) {
				t.Fatalf("%v: column %d lit %v, result bit %v", r, b, lit[b], bitopBit(v.Result, b))
			}
		}
		if txt := allText(prims); !strings.Contains(txt, "OR: 1 where at least one source has a 1") || !strings.Contains(txt, "r =") {
			t.Fatalf("%s", txt)
		}
	}
	// Every source empty: the destination is deleted and the scene says so.
	s, _ = bitsAfter(t, engine.V70, []string{"r"}, "SET r x", "BITOP AND r nobody nobody2")
	if s.Op == nil || !s.Op.Deleted || !strings.Contains(strings.Join(strings.Fields(allText(s.Frame(bitsStage, 1))), " "), "r is deleted") {
		t.Fatalf("%+v", s.Op)
	}
	// A result longer than the event carries: the rows come from the keys themselves.
	s, _ = bitsAfter(t, engine.V70, []string{"a"}, "SETBIT a 1000 1", "SETBIT a 3 1", "BITOP NOT n a")
	if s.Op == nil || s.Op.Len != 126 || len(s.Op.Result) != bitopShow || s.Op.Result[0] != 0xef || s.Op.Inputs[0][0] != 0x10 {
		t.Fatalf("%+v", s.Op)
	}
}

// TestBitsBitfieldCells: a u7 cell at #1 covers the last bit of byte 0 and six bits of byte 1;
// an i5 at bit 60 covers bits 4–7 of byte 7 and bit 0 of byte 8. Each part is framed on its row.
func TestBitsBitfieldCells(t *testing.T) {
	if lo, hi, ok := fieldSpan(7, 7, 0); !ok || lo != 7 || hi != 7 {
		t.Fatal("span byte 0")
	}
	if lo, hi, ok := fieldSpan(7, 7, 1); !ok || lo != 0 || hi != 5 {
		t.Fatal("span byte 1")
	}
	if _, _, ok := fieldSpan(7, 7, 2); ok {
		t.Fatal("span byte 2")
	}
	s, _ := bitsAfter(t, engine.V70, []string{"prog"}, "BITFIELD prog SET u7 #0 30", "BITFIELD prog SET u7 #1 100 GET u7 #1")
	if len(s.Fields) != 2 || s.Fields[0].Offset != 7 || s.Fields[0].New != 100 || s.Data[0] != 0x3d || s.Data[1] != 0x90 {
		t.Fatalf("%+v % x", s.Fields, s.Data)
	}
	prims := s.Frame(bitsStage, 1)
	fr := framesAt(s, prims)
	want := [][3]int{{0, 7, 7}, {1, 0, 5}, {0, 7, 7}, {1, 0, 5}}
	if len(fr) != len(want) {
		t.Fatalf("frames %v", fr)
	}
	for i := range want {
		if fr[i] != want[i] {
			t.Fatalf("frames %v, want %v", fr, want)
		}
	}
	if txt := allText(prims); !strings.Contains(txt, "SET u7 #1: 0 → 100 · bits 7–13, bytes 0–1") || !strings.Contains(txt, "GET u7 #1: = 100 · bits 7–13, bytes 0–1") {
		t.Fatalf("%s", txt)
	}
	s, _ = bitsAfter(t, engine.V70, []string{"prog"}, "BITFIELD prog SET i5 60 -16 INCRBY i5 60 -1")
	fr = framesAt(s, s.Frame(bitsStage, 1))
	if s.Data[7] != 0x07 || s.Data[8] != 0x80 { // GETRANGE prog 7 8 on redis-server 7.0.15: "\a\x80"
		t.Fatalf("% x", s.Data)
	}
	if len(fr) != 4 || fr[0] != [3]int{7, 4, 7} || fr[1] != [3]int{8, 0, 0} {
		t.Fatalf("i5 frames %v", fr)
	}
	// The overflow outcomes (the course's u7 at 120 + 10: WRAP 2, SAT 127, FAIL nil).
	for _, c := range []struct{ ow, out, text string }{
		{"WRAP", "wrapped", "120 +10 → 2 (OVERFLOW WRAP)"},
		{"SAT", "saturated", "120 +10 → 127 (OVERFLOW SAT)"},
		{"FAIL", "failed", "120 +10 → nil (OVERFLOW FAIL), stays 120"},
	} {
		s, _ = bitsAfter(t, engine.V70, []string{"p"}, "BITFIELD p SET u7 #3 120", "BITFIELD p OVERFLOW "+c.ow+" INCRBY u7 #3 10")
		if len(s.Fields) != 1 || s.Fields[0].Outcome != c.out || !strings.Contains(allText(s.Frame(bitsStage, 1)), c.text) {
			t.Fatalf("%s: %+v\n%s", c.ow, s.Fields, allText(s.Frame(bitsStage, 1)))
		}
	}
	// A bulk BITFIELD (thousands of cells) frames only the last few.
	var b strings.Builder
	b.WriteString("BITFIELD att")
	for i := 0; i < 3000; i++ {
		b.WriteString(" SET u10 #" + itoa(i) + " 747")
	}
	s, _ = bitsAfter(t, engine.V88, []string{"att"}, b.String())
	if s.FieldOps != 3000 || len(s.Fields) != maxFieldMarks || s.Fields[maxFieldMarks-1].Offset != 29990 {
		t.Fatalf("%d ops, %d marks", s.FieldOps, len(s.Fields))
	}
	if txt := allText(s.Frame(bitsStage, 1)); !strings.Contains(txt, "3000 cells written") {
		t.Fatalf("%s", txt)
	}
}

// TestBitsFarOffset: one bit at 2^32−1 draws the first bytes, a divider for the zero bytes in
// between, the window with the last byte (0x01), a strip whose mark is at the far end, and the
// cost: MEMORY USAGE 671088688 (redis-server 7.0.15, Debian's jemalloc) against one 64 KiB page.
func TestBitsFarOffset(t *testing.T) {
	s, p := bitsAfter(t, engine.V70, []string{"small", "huge"}, "SETBIT small 7 1", "SETBIT huge 4294967295 1")
	if s.Key != "huge" || s.Info.Len != 536870912 || s.Info.Memory != 671088688 || s.Stored != sds.PageSize {
		t.Fatalf("%+v stored %d", s.Info, s.Stored)
	}
	if len(s.Head) != bitsHead || s.First != 536870912-bitsWindow || s.Data[len(s.Data)-1] != 0x01 {
		t.Fatalf("head % x first %d data % x", s.Head, s.First, s.Data)
	}
	if len(s.Mem) != 2 || s.Mem[1].Memory != 671088688 {
		t.Fatalf("memory bars %+v", s.Mem)
	}
	for name, r := range map[string]Rect{"1280": bitsStage, "360": Stage(360, 740)} {
		prims := s.Frame(r, 1)
		rows := s.lay.rows
		if rows[0] != 0 || rows[1] != 1 || rows[2] != -1 || rows[len(rows)-1] != 536870911 {
			t.Fatalf("%s: rows %v", name, rows)
		}
		txt := strings.NewReplacer("\n", " ", "\u202f", " ", "\u00a0", " ").Replace(allText(prims)) // grouped digits: narrow no-break spaces
		gap := numfmt.Group(536870912 - bitsWindow - bitsHead)
		for _, want := range []string{gap + " zero bytes", "671 088 688 B (640.0 MiB)", "the simulator stores 65 536 B (64.0 KiB)", "the whole string: 536 870 912 bytes"} {
			if !strings.Contains(txt, want) {
				t.Fatalf("%s: %q missing:\n%s", name, want, txt)
			}
		}
		// The frame on the bit: last row, last column.
		fr := framesAt(s, prims)
		if len(fr) != 1 || fr[0] != [3]int{len(rows) - 1, 7, 7} {
			t.Fatalf("%s: frames %v", name, fr)
		}
		// The strip's mark for the bit sits at its right end.
		var mark *Prim
		for i, q := range prims {
			if q.Kind == KRect && math.Abs(q.W-2*s.fit.scale()) < 1e-9 && q.Color == accent { // 2 px, zoomed (layout.go)
				mark = &prims[i]
			}
		}
		if mark == nil || mark.X < r.X+r.W*0.9 { // at the right end, whatever the zoom
			t.Fatalf("%s: mark %+v", name, mark)
		}
	}
	// BITCOUNT and BITPOS of it: the engine's event covers the whole string.
	p.Exec("BITPOS huge 1")
	s.Update(Input{Engine: p.Engine(), Keys: []string{"huge"}, Last: lastOf(p)[len(lastOf(p))-1:], Lang: "vi"})
	if s.Scan == nil || s.Scan.First != 0 || s.Scan.Last != 4294967295 || s.Scan.Result != 4294967295 || s.First != 536870912-bitsWindow {
		t.Fatalf("%+v first %d", s.Scan, s.First)
	}
}

// TestBitsLessonLayouts: every position of the bit lessons, in both languages, laid out on a
// phone, a laptop and a projector: nothing outside the stage, no overlapping texts, no text
// under 10 px or under 4.5:1 contrast.
func TestBitsLessonLayouts(t *testing.T) {
	for _, c := range []struct {
		name string
		v    engine.Version
	}{
		{"bit-offsets", engine.V70}, {"bitop", engine.V70}, {"bitop-new", engine.V82}, {"bit-far", engine.V70},
		{"bitfield", engine.V70}, {"attendance", engine.V88},
	} {
		checkLessonLayouts(t, c.name, "bits", c.v)
	}
}

// TestBitsAttendance: the bitmap and the set side by side, and the set bits of the window are
// the day's pattern (students 0–9 all present, then 0 2 3 4 6 8 9 of every ten).
func TestBitsAttendance(t *testing.T) {
	var last *bitsScene
	playLesson(t, "attendance", engine.V88, func(pos int, in Input) {
		s := New("bits").(*bitsScene)
		s.Update(in)
		if pos == 1 && in.Lang == "en" && (len(s.Data) != 2 || s.Data[0] != 0xff || s.Data[1] != 0xc0) {
			t.Fatalf("step 1: % x", s.Data)
		}
		last = s
	})
	if len(last.Mem) != 2 || last.Mem[0].Key != "att:d1" || last.Mem[0].Memory != 16416 || last.Mem[1].Type != "set" || last.Mem[1].Memory < 2_000_000 {
		t.Fatalf("%+v", last.Mem)
	}
	// Ids 8–15 are 1 1 | 1 0 1 1 1 0 (group 1: digits 0 2 3 4 6 8 9), ids 16–23 1 0 1 1 1 0 1 1.
	if last.Scan == nil || last.Scan.Result != 11 || last.First != 0 || last.Data[0] != 0xff || last.Data[1] != 0xee || last.Data[2] != 0xbb {
		t.Fatalf("%+v % x", last.Scan, last.Data[:3])
	}
}
