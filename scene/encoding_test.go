package scene

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"redscope/assets"
	"redscope/engine"
	"redscope/engine/alloc"
	"redscope/lesson"
)

// encBuiltin parses a built-in lesson.
func encBuiltin(t *testing.T, name string) *lesson.Lesson {
	t.Helper()
	for _, src := range assets.Lessons() {
		if src.Name == name {
			l, err := lesson.Parse(name+".lesson", src.Src)
			if err != nil {
				t.Fatal(err)
			}
			return l
		}
	}
	t.Fatalf("no lesson %s", name)
	return nil
}

// at plays lesson l to position pos and returns the scene input there.
func encAt(t *testing.T, l *lesson.Lesson, cfg lesson.Config, pos int, lang string) Input {
	t.Helper()
	p := lesson.NewPlayer(cfg)
	p.Load(l)
	p.Seek(pos)
	if p.Pos() != pos {
		t.Fatalf("%s: seek %d got %d", l.Name, pos, p.Pos())
	}
	if f := p.Failed(); len(f) > 0 {
		t.Fatalf("%s step %d: %+v", l.Name, pos, f)
	}
	return Input{Engine: p.Engine(), Keys: p.Watched(), Last: lastOf(p), Lang: lang}
}

var encDeb16 = lesson.Config{Version: engine.V70, Allocator: alloc.Jemalloc16}

// TestEncodingHashBytes checks the listpack the scene draws against the bytes redis-server
// 7.0.15 dumps (DUMP user:1 after each of the lesson's first three steps).
func TestEncodingHashBytes(t *testing.T) {
	l := encBuiltin(t, "encodings-hash")
	want := [][]byte{
		[]byte("\x11\x00\x00\x00\x02\x00\x84name\x05\x82An\x03\xff"),
		[]byte("\x23\x00\x00\x00\x06\x00\x84name\x05\x82An\x03\x84city\x05\x83Hue\x04\x83age\x04\x14\x01\xff"),
		[]byte("\x25\x00\x00\x00\x06\x00\x84name\x05\x84Binh\x05\x84city\x05\x83Hue\x04\x83age\x04\x14\x01\xff"),
	}
	s := &encodingScene{}
	for i, w := range want {
		s.Update(encAt(t, l, encDeb16, i+1, "en"))
		if s.Key != "user:1" || s.LP == nil || !bytes.Equal(s.LP.Bytes, w) {
			t.Fatalf("step %d: key %q bytes %q want %q", i+1, s.Key, s.LP.Bytes, w)
		}
	}
	// Step 1: header, "name" (enc, 4 data, backlen), "An", EOF.
	s.Update(encAt(t, l, encDeb16, 1, "en"))
	v := s.LP
	cls := []int{0, 0, 0, 0, 0, 0, byteEnc, byteField, byteField, byteField, byteField, byteBacklen, byteEnc, byteValue, byteValue, byteBacklen, byteEOF}
	for i, c := range cls {
		if int(v.Class[i]) != c {
			t.Fatalf("byte %d class %d want %d", i, v.Class[i], c)
		}
	}
	if len(v.New) != 1 || v.New[0] != (byteSpan{6, 16}) || v.elements() != 1 { // two inserts, merged
		t.Fatalf("new %v elements %d", v.New, v.elements())
	}
	// Step 2: three fields appended before the EOF; 20 is a 7-bit integer (value in the encoding byte).
	s.Update(encAt(t, l, encDeb16, 2, "en"))
	v = s.LP
	var span []byteSpan
	for _, sp := range v.New {
		span = append(span, sp)
	}
	if len(span) != 1 || span[0] != (byteSpan{16, 34}) {
		t.Fatalf("new %v", span)
	}
	last := v.Entries[len(v.Entries)-1]
	if !last.Int || last.Text != "20" || last.Hdr != 0 || last.Data != 1 || last.Back != 1 || last.Off != 32 || last.Class != byteValue {
		t.Fatalf("20: %+v", last)
	}
	if !strings.Contains(s.Note, `insert "20" at offset 32`) {
		t.Fatalf("note %q", s.Note)
	}
	// Step 3: "An" (4 bytes) replaced by "Binh" (6) at offset 12; the tail after it moved 2 bytes.
	s.Update(encAt(t, l, encDeb16, 3, "vi"))
	v = s.LP
	if len(v.New) != 1 || v.New[0] != (byteSpan{12, 18}) || v.ShiftFrom != 18 || v.Shift != 2 {
		t.Fatalf("replace: new %v shift %d from %d", v.New, v.Shift, v.ShiftFrom)
	}
	if !strings.Contains(s.Note, "thay tại offset 12: 4 → 6 byte") {
		t.Fatalf("note %q", s.Note)
	}
}

// TestEncodingHashConversion: the 513th field converts to a hashtable of 1024 buckets (DEBUG
// HTSTATS-KEY on redis-server 7.0.15: table size 1024, 513 elements), with MEMORY USAGE before
// and after as the server measured them (6192 → 28816 with Debian's jemalloc).
func TestEncodingHashConversion(t *testing.T) {
	l := encBuiltin(t, "encodings-hash")
	s := &encodingScene{}
	s.Update(encAt(t, l, encDeb16, 5, "en"))
	if s.HT == nil || s.LP != nil || s.Conv == nil || s.Conv.From != "listpack" || s.Conv.To != "hashtable" ||
		!strings.Contains(s.Conv.Why.Name, "hash-max-listpack-entries") {
		t.Fatalf("conv %+v ht %v", s.Conv, s.HT != nil)
	}
	if s.HT.View.Size[0] != 1024 || s.HT.View.Used[0]+s.HT.View.Used[1] != 513 {
		t.Fatalf("table %+v used %+v", s.HT.View.Size, s.HT.View.Used)
	}
	sum, entries := 0, 0
	for n, c := range s.HT.Hist {
		sum += c
		entries += n * c
	}
	if sum != 1024 {
		t.Fatalf("hist %v", s.HT.Hist)
	}
	if len(s.Mem) != 2 || s.Mem[0].Bytes != 6192 || s.Mem[0].Encoding != "listpack" || s.Mem[0].After ||
		s.Mem[1].Bytes != 28816 || s.Mem[1].Encoding != "hashtable" || !s.Mem[1].After {
		t.Fatalf("mem %+v", s.Mem)
	}
	// The conversion rebuilds the dict: its inserts are the conversion's, and the last one is lit.
	if s.HT.HitIdx < 0 || s.HT.Lens[s.HT.HitT][s.HT.HitIdx] == 0 {
		t.Fatalf("hit %d", s.HT.HitIdx)
	}
	// Deleting back: still a hashtable (and no conversion this step).
	s.Update(encAt(t, l, encDeb16, 6, "en"))
	if s.HT == nil || s.Conv != nil || s.Info.Encoding != "hashtable" {
		t.Fatalf("after HDEL: %+v", s.Info)
	}
	// The 65-byte value: user:2 converts with the value rule, MEMORY USAGE 144 → 288 on the server.
	s.Update(encAt(t, l, encDeb16, 8, "en"))
	if s.Key != "user:2" || s.Conv == nil || s.Conv.Why.Name != "hash-max-listpack-value" ||
		len(s.Mem) != 2 || s.Mem[0].Bytes != 144 || s.Mem[1].Bytes != 288 {
		t.Fatalf("value rule: key %q conv %+v mem %+v", s.Key, s.Conv, s.Mem)
	}
}

// TestEncodingSetPath: intset bytes as redis-server 7.0.15 dumps them (enc 2, len 3, 1 2 3; then
// enc 4 after 70000), then the 7.2+ listpack and the 7.0 hashtable for the same command.
func TestEncodingSetPath(t *testing.T) {
	l := encBuiltin(t, "encodings-set")
	c72 := lesson.Config{Version: engine.V72, Allocator: alloc.Jemalloc16}
	s := &encodingScene{}
	s.Update(encAt(t, l, c72, 1, "en"))
	if s.IS == nil || s.IS.Width != 2 || fmt.Sprint(s.IS.Values) != "[1 2 3]" || s.IS.byteLen() != 14 || s.IS.NewPos < 0 {
		t.Fatalf("intset %+v", s.IS)
	}
	s.Update(encAt(t, l, c72, 2, "en"))
	if s.IS == nil || s.IS.Width != 4 || s.IS.OldWidth != 2 || s.IS.NewPos != 3 || s.IS.byteLen() != 24 {
		t.Fatalf("upgrade %+v", s.IS)
	}
	if s.IS.byteClass(7) != byteISHeader || s.IS.byteClass(8) != byteISValue || s.IS.byteClass(12) != byteISValue2 {
		t.Fatal("intset byte classes")
	}
	s.Update(encAt(t, l, c72, 3, "en"))
	if s.LP == nil || s.Conv == nil || s.Conv.To != "listpack" || s.LP.elements() != 5 || !s.LP.Entries[3].Int || s.LP.Entries[4].Text != "sale" {
		t.Fatalf("listpack %+v conv %+v", s.LP, s.Conv)
	}
	// The member inserted after the conversion is the one lit.
	if last := s.LP.Entries[4]; !s.LP.isNew(last.Off) || s.LP.isNew(s.LP.Entries[0].Off) {
		t.Fatalf("new %v", s.LP.New)
	}
	if p := encodingPath("set", engine.V72); strings.Join(p, ",") != "intset,listpack,hashtable" {
		t.Fatal(p)
	}
	if p := encodingPath("set", engine.V70); strings.Join(p, ",") != "intset,hashtable" {
		t.Fatal(p)
	}
	s.Update(encAt(t, l, c72, 5, "en"))
	if s.HT == nil || s.Conv == nil || s.Conv.From != "listpack" || len(s.Mem) != 2 || s.Mem[1].Bytes <= s.Mem[0].Bytes {
		t.Fatalf("129th: conv %+v mem %+v", s.Conv, s.Mem)
	}
}

// TestEncodingVersionLesson plays the comparison lesson on 7.0 and 7.2: the same SADD makes a
// hashtable on 7.0 (redis-server 7.0.15 answers "hashtable") and a listpack on 7.2; the 0.1
// score is stored as 7.0's 17 significant digits (ZSCORE on the server: "0.10000000000000001")
// and as "0.1" on 7.2.
func TestEncodingVersionLesson(t *testing.T) {
	l := encBuiltin(t, "encodings-version")
	if l.Since != 0 {
		t.Fatal("the comparison lesson must run on every profile")
	}
	s := &encodingScene{}
	s.Update(encAt(t, l, encDeb16, 2, "en"))
	if s.Info.Encoding != "hashtable" || s.Conv == nil || s.Conv.Why.Code != engine.WhyNonInt {
		t.Fatalf("7.0: %s %+v", s.Info.Encoding, s.Conv)
	}
	s.Update(encAt(t, l, lesson.Config{Version: engine.V72}, 2, "en"))
	if s.Info.Encoding != "listpack" || s.LP == nil || s.Conv == nil {
		t.Fatalf("7.2: %s %+v", s.Info.Encoding, s.Conv)
	}
	s.Update(encAt(t, l, lesson.Config{Version: engine.V72}, 3, "en"))
	if s.Info.Encoding != "listpack" {
		t.Fatalf("7.2 after SREM: %s", s.Info.Encoding)
	}
	for _, c := range []struct {
		cfg   lesson.Config
		score string
		bytes int
	}{{encDeb16, "0.10000000000000001", 6 + 9 + 21 + 1}, {lesson.Config{Version: engine.V88}, "0.1", 6 + 9 + 5 + 1}} {
		in := encAt(t, l, c.cfg, 4, "en")
		s.Update(in)
		if s.Key != "prices" || s.LP == nil || s.LP.Entries[1].Text != c.score || len(s.LP.Bytes) != c.bytes {
			t.Fatalf("%v: %+v", c.cfg.Version, s.LP)
		}
		if got := in.Last[len(in.Last)-1].Reply; got != `"`+c.score+`"` {
			t.Fatalf("ZSCORE %s", got)
		}
	}
}

func TestLayoutGrid(t *testing.T) {
	// 17 bytes at a phone's font: large cells with characters, inside the area.
	g := layoutGrid(17, 330, 120, 13, 8)
	if g.Image || !g.Text || g.Cols%8 != 0 || g.CW > 3.2*13+0.01 || g.height(17) > 120 {
		t.Fatalf("%+v", g)
	}
	// A short area keeps them at most 2.2 f wide; a few bytes on a taller one get larger cells.
	if s := layoutGrid(17, 330, 50, 13, 8); s.Image || s.CW > 2.2*13+0.01 || s.height(17) > 50 || s.CW >= g.CW {
		t.Fatalf("short %+v, tall %+v", s, g)
	}
	// 6192 bytes cannot be cells at 330 × 120: one pixel per byte, scaled, inside the area.
	g = layoutGrid(6192, 330, 120, 13, 8)
	if !g.Image || g.ImgW > 330.01 || g.ImgH > 120.01 || g.Cols*((6192+g.Cols-1)/g.Cols) < 6192 {
		t.Fatalf("%+v", g)
	}
	// Cells never overlap and follow each other in reading order.
	g = layoutGrid(100, 600, 400, 16, 8)
	a, b := g.cell(0, 0, g.Cols-1), g.cell(0, 0, g.Cols)
	if a.X+a.W > 600.01 || b.X != 0 || b.Y != g.CH {
		t.Fatalf("%+v %+v %+v", g, a, b)
	}
}

func TestApplyEventsShifts(t *testing.T) {
	v := &lpView{Bytes: make([]byte, 40)}
	// Insert 5 bytes at 10, then 4 bytes at 6 (before it): the first span moves by 4.
	v.applyEvents([]engine.ListpackEvent{{Op: "insert", Offset: 10, Added: 5, Moved: 10}, {Op: "insert", Offset: 6, Added: 4, Moved: 20}})
	if len(v.New) != 2 || v.New[0] != (byteSpan{14, 19}) || v.New[1] != (byteSpan{6, 10}) || v.ShiftFrom != 10 || v.Shift != 4 {
		t.Fatalf("%v %d %d", v.New, v.ShiftFrom, v.Shift)
	}
	// A delete over a new span drops it; an append at the end moves nothing.
	v.applyEvents([]engine.ListpackEvent{{Op: "insert", Offset: 10, Added: 5, Moved: 1}, {Op: "delete-range", Offset: 8, Removed: 9, Moved: 3}})
	if len(v.New) != 0 || v.ShiftFrom != 8 || v.Shift != -9 {
		t.Fatalf("%v %d %d", v.New, v.ShiftFrom, v.Shift)
	}
}

func encOverlaps(a, b Rect, tol float64) bool {
	return a.X+tol < b.X+b.W && b.X+tol < a.X+a.W && a.Y+tol < b.Y+b.H && b.Y+tol < a.Y+a.H
}

// encCheckFrame fails when a primitive leaves the stage, two texts overlap, two filled rectangles
// overlap once settled (t = 1), or a text is drawn on a fill it does not contrast with (≥ 4.5).
func encCheckFrame(t *testing.T, what string, prims []Prim, r Rect, settled bool) {
	t.Helper()
	const eps = 0.51
	var texts, rects []Prim
	for _, p := range prims {
		b := Rect{p.X, p.Y, p.W, p.H}
		switch p.Kind {
		case KText:
			b = textBox(p)
			if p.Text == "" || p.Size < 7 {
				t.Errorf("%s: empty or tiny text %+v", what, p)
			}
			texts = append(texts, p)
		case KLine:
			b = Rect{math.Min(p.X, p.X+p.W), math.Min(p.Y, p.Y+p.H), math.Abs(p.W), math.Abs(p.H)}
		case KRect:
			rects = append(rects, p)
		}
		if b.X < r.X-eps || b.Y < r.Y-eps || b.X+b.W > r.X+r.W+eps || b.Y+b.H > r.Y+r.H+eps {
			t.Errorf("%s: outside %+v: %+v (box %+v)", what, r, p, b)
			return
		}
	}
	for i := range texts {
		for j := i + 1; j < len(texts); j++ {
			if encOverlaps(textBox(texts[i]), textBox(texts[j]), 1) {
				t.Errorf("%s: texts overlap: %q %+v and %q %+v", what, texts[i].Text, textBox(texts[i]), texts[j].Text, textBox(texts[j]))
				return
			}
		}
	}
	if !settled {
		return
	}
	for i := range rects {
		for j := i + 1; j < len(rects); j++ {
			a, b := Rect{rects[i].X, rects[i].Y, rects[i].W, rects[i].H}, Rect{rects[j].X, rects[j].Y, rects[j].W, rects[j].H}
			if encOverlaps(a, b, 0.5) {
				t.Errorf("%s: fills overlap: %+v and %+v", what, a, b)
				return
			}
		}
	}
	// Contrast: the fill under a text's centre (the last one drawn before it).
	for i, p := range prims {
		if p.Kind != KText {
			continue
		}
		bx := textBox(p)
		cx, cy := bx.X+bx.W/2, bx.Y+bx.H/2
		under := Background
		for j := i - 1; j >= 0; j-- {
			q := prims[j]
			if q.Kind == KRect && (Rect{q.X, q.Y, q.W, q.H}).Contains(cx, cy) {
				under = q.Color
				break
			}
		}
		if c := contrast(p.Color, under); c < 4.5 {
			t.Errorf("%s: %q contrast %.2f on %v", what, p.Text, c, under)
			return
		}
	}
}

// Stages the layout tests use: a phone (360 px wide), a laptop and a projector at 1920 × 1080.
var encStages = []struct {
	name string
	r    Rect
}{
	{"phone 360×640", Stage(360, 640)},
	{"phone 360×800", Stage(360, 800)},
	{"laptop 1280×720", Stage(1280, 720)},
	{"1920×1080", Stage(1920, 1080)},
	{"full 1920×1080", Rect{0, 0, 1920, 1080}},
}

// encCheckLesson lays out every position of a lesson at every stage and time.
func encCheckLesson(t *testing.T, name string, sc func() Scene, cfgs ...lesson.Config) {
	l := encBuiltin(t, name)
	for _, cfg := range cfgs {
		for _, lang := range []string{"vi", "en"} {
			p := lesson.NewPlayer(cfg)
			p.Load(l)
			for {
				s := sc()
				s.Update(Input{Engine: p.Engine(), Keys: p.Watched(), Last: lastOf(p), Lang: lang})
				for _, st := range encStages {
					for _, tt := range []float64{0, 0.5, 1} {
						what := fmt.Sprintf("%s %v %s step %d %s t=%.1f", name, cfg.Version, lang, p.Pos(), st.name, tt)
						encCheckFrame(t, what, s.Frame(st.r, tt), st.r, tt == 1)
					}
				}
				if !p.Step() {
					break
				}
			}
		}
	}
}

func TestEncodingLayout(t *testing.T) {
	encCheckLesson(t, "encodings-hash", func() Scene { return &encodingScene{} }, encDeb16)
	encCheckLesson(t, "encodings-set", func() Scene { return &encodingScene{} }, lesson.Config{Version: engine.V72})
	encCheckLesson(t, "encodings-version", func() Scene { return &encodingScene{} }, encDeb16, lesson.Config{Version: engine.V88})
}

// checkByteContrast: in the current theme, characters drawn in the background colour are
// readable (4.5:1) on field, value, TTL and EOF bytes, bucket indexes on chain colours, member
// values on intset bytes.
func checkByteContrast(t *testing.T) {
	t.Helper()
	for _, c := range []int{byteField, byteValue, byteTTL, byteEOF, byteISValue, byteISValue2} {
		if r := contrast(Background, byteColor(c)); r < 4.5 {
			t.Errorf("byte class %d: %.2f", c, r)
		}
	}
	for n := 1; n <= 3; n++ {
		if r := contrast(Background, chainColor(n)); r < 4.5 {
			t.Errorf("chain %d: %.2f", n, r)
		}
	}
}

func TestEncodingPalette(t *testing.T) {
	checkByteContrast(t)
	if r := contrast(textColor, byteColor(byteISHeader)); r < 4.5 {
		t.Errorf("intset header label %.2f", r)
	}
	// Classes are distinguishable from the empty-bucket colour and from each other.
	seen := map[Color]int{}
	for c := byteLPHeader; c <= byteEOF; c++ {
		if o, dup := seen[byteColor(c)]; dup {
			t.Errorf("classes %d and %d share a colour", o, c)
		}
		seen[byteColor(c)] = c
	}
}

func TestArgsDirective(t *testing.T) {
	l, err := lesson.Parse("x.lesson", []byte("title en: x\nstep\nen: x\n> HSET h\nargs 1..3 > f%d v%d\nexpect reply: (integer) 3\n"))
	if err != nil {
		t.Fatal(err)
	}
	a := l.Steps[0].Actions[0]
	if a.Cmd != "HSET h f1 v1 … f3 v3" || a.Run != "HSET h f1 v1 f2 v2 f3 v3" {
		t.Fatalf("%q / %q", a.Cmd, a.Run)
	}
	st := lesson.Run(l, lesson.Config{})
	x := st[1].Outputs.Commands[0]
	if x.Cmd != "HSET h f1 v1 … f3 v3" || x.Reply != "(integer) 3" || !x.Checks[0].OK {
		t.Fatalf("%+v", x)
	}
	for _, bad := range []string{"args 3..1 > f%d", "args 1..2", "args x..2 > a", "args 0..100000 > a"} {
		if _, err := lesson.Parse("x.lesson", []byte("title en: x\nstep\n> HSET h\n"+bad+"\n")); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if _, err := lesson.Parse("x.lesson", []byte("title en: x\nstep\nargs 1..2 > a\n")); err == nil {
		t.Error("args without a command accepted")
	}
}
