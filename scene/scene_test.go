package scene

import (
	"fmt"
	"strings"
	"testing"

	"redscope/engine"
	"redscope/engine/alloc"
	"redscope/engine/sds"
	"redscope/lesson"
)

// play runs lines on a player (one step each) and returns the scene input at the end.
func play(t *testing.T, cfg lesson.Config, keys []string, lines ...string) Input {
	t.Helper()
	p := lesson.NewPlayer(cfg)
	for _, l := range lines {
		if !p.Engine().HasCommand(strings.Fields(l)[0]) {
			t.Skipf("%s not implemented yet", strings.Fields(l)[0])
		}
		p.Exec(l)
	}
	return Input{Engine: p.Engine(), Keys: keys, Last: lastOf(p), Lang: "en"}
}

func TestStage(t *testing.T) {
	if r := Stage(1280, 720); r.W != 1280-460 || r.H != 720 {
		t.Fatalf("wide: %+v", r)
	}
	if r := Stage(1000, 700); r.W != 620 {
		t.Fatalf("38%%: %+v", r)
	}
	if r := Stage(800, 600); r.W != 480 {
		t.Fatalf("min panel: %+v", r)
	}
	if r := Stage(360, 640); r.W != 360 || r.H != 288 {
		t.Fatalf("narrow: %+v", r)
	}
	if f := fontSize(Stage(360, 640)); f != fontMin { // small labels (3/4 of it) are minText
		t.Fatalf("phone font %v", f)
	}
	if f := fontSize(Rect{0, 0, 1920, 1080}); f != 26 {
		t.Fatalf("projector font %v", f)
	}
}

func TestContrast(t *testing.T) {
	for _, c := range []Color{textColor, dim, accent, oneC, indexC, runC} {
		if r := contrast(c, Background); r < 4.5 {
			t.Errorf("%v on background: %.2f < 4.5", c, r)
		}
	}
	if r := contrast(textColor, Background); r < 7 {
		t.Errorf("text contrast %.2f < 7", r)
	}
	if r := contrast(Background, oneC); r < 4.5 { // digits drawn on set bits
		t.Errorf("digit on a set bit: %.2f", r)
	}
}

func TestGreedyAsk(t *testing.T) {
	if greedyAsk(11) != 22 || greedyAsk(sds.MaxPrealloc) != 2*sds.MaxPrealloc || greedyAsk(sds.MaxPrealloc-1) != 2*sds.MaxPrealloc-2 {
		t.Fatal("greedy rule")
	}
}

func TestCellCols(t *testing.T) {
	if c := cellCols(32, 600, 16); c != 32 {
		t.Fatalf("%d", c)
	}
	if c := cellCols(32, 300, 16); c != 16 {
		t.Fatalf("narrow %d", c)
	}
	if c := cellCols(4096, 600, 16); c != 0 {
		t.Fatalf("big %d", c)
	}
}

func TestBitsFirst(t *testing.T) {
	cases := []struct{ n, focus, want int64 }{
		{3, 2, 0}, {16, 15, 0}, {100, 5, 0}, {100, 12, 0}, {100, 50, 40}, {100, 99, 84}, {536870912, 536870911, 536870896},
	}
	for _, c := range cases {
		if got := bitsFirst(c.n, c.focus); got != c.want {
			t.Errorf("BitsFirst(%d,%d) = %d want %d", c.n, c.focus, got, c.want)
		}
	}
	g := Rect{100, 50, 80, 40}
	if c := bitCell(g, 1, 3, 2); c != (Rect{130, 70, 10, 20}) {
		t.Fatalf("%+v", c)
	}
}

func TestHashBitClass(t *testing.T) {
	// "a": count 2 → bits 0..13 index, bit 14 is the one zero, bit 15 the stopping 1.
	want := map[int]int{0: BitIndex, 13: BitIndex, 14: BitRun, 15: BitStop, 16: BitRest, 63: BitRest}
	for b, c := range want {
		if got := hashBitClass(b, 2); got != c {
			t.Errorf("bit %d: %d want %d", b, got, c)
		}
	}
	if hashBitClass(14, 1) != BitStop {
		t.Error("count 1: bit 14 stops the run")
	}
	const h = 0x53d2470a9b43b1a7 // docs/internals.md §HyperLogLog: hash of "a": index 12711, count 2
	if h&0x3fff != 12711 || h>>14&1 != 0 || h>>15&1 != 1 {
		t.Fatal("test vector does not match the classes")
	}
}

func TestDecodeHLL(t *testing.T) {
	var regs [HLLRegisters]uint8
	// PFADD x a = Z:12711 v:2,1 Z:3672 (docs/internals.md §HyperLogLog): XZERO 12711, VAL 2 x1, XZERO 3672.
	sparse := []byte("HYLL\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x80")
	x1 := 12711 - 1
	x2 := 3672 - 1
	sparse = append(sparse, byte(0x40|x1>>8), byte(x1), 0x80|(2-1)<<2|0, byte(0x40|x2>>8), byte(x2))
	if !decodeHLL(sparse, &regs) {
		t.Fatal("sparse not decoded")
	}
	for i, v := range regs {
		if (i == 12711) != (v == 2) || (i != 12711 && v != 0) {
			t.Fatalf("register %d = %d", i, v)
		}
	}
	if decodeHLL(sparse[:len(sparse)-2], &regs) {
		t.Fatal("short sparse accepted")
	}
	dense := make([]byte, 16+12288)
	copy(dense, "HYLL")
	// Register 1 = 5 sits at bits 6..11: byte 0 bits 6-7 and byte 1 bits 0-3.
	dense[16] = 5 << 6 & 0xff
	dense[17] = 5 >> 2
	dense[16+12287] = 63 << 2 // register 16383 = bits 98298..98303: byte 12287 bits 2-7
	if !decodeHLL(dense, &regs) || regs[1] != 5 || regs[0] != 0 || regs[2] != 0 || regs[16383] != 63 {
		t.Fatalf("dense: %d %d %d %d", regs[0], regs[1], regs[2], regs[16383])
	}
	if decodeHLL([]byte("HYLX"), &regs) {
		t.Fatal("bad magic")
	}
}

func TestHLLSceneRealPFADD(t *testing.T) {
	in := play(t, lesson.Config{Version: engine.V70}, []string{"h"}, "PFADD h a")
	s := &HLL{}
	s.Update(in)
	if !s.Valid || s.Regs[12711] != 2 || s.Info.HLL != "sparse" {
		t.Fatalf("valid %v reg %d hll %q", s.Valid, s.Regs[12711], s.Info.HLL)
	}
	n := 0
	for _, v := range s.Regs {
		if v != 0 {
			n++
		}
	}
	if n != 1 || len(s.Events) != 1 || s.Events[0].Index != 12711 || s.Events[0].Count != 2 {
		t.Fatalf("nonzero %d events %+v", n, s.Events)
	}
	c := regColor(2)
	if got := s.Img.RGBA[4*12711 : 4*12711+4]; got[0] != c.R || got[1] != c.G || got[2] != c.B {
		t.Fatalf("pixel %v want %v", got, c)
	}
	prims := s.Frame(Rect{0, 0, 800, 600}, 0)
	img, marks, text := countKind(prims, KImage), countKind(prims, KFrame), allText(prims)
	// Two images (all 16 384 registers; the sparse bytes up to hll-sparse-max-bytes), never a draw
	// call per cell; two marks: the register and the sparse opcode holding it.
	if img != 2 || marks != 2 || !strings.Contains(text, "12711") || !strings.Contains(text, "count 2") {
		t.Fatalf("img %d marks %d\n%s", img, marks, text)
	}
}

func TestBitsSceneRealSETBIT(t *testing.T) {
	in := play(t, lesson.Config{Version: engine.V70, Allocator: alloc.Jemalloc16}, []string{"k"}, "SETBIT k 100 1")
	s := &bitsScene{}
	s.Update(in)
	if s.Key != "k" || len(s.Data) != 13 || s.Data[12] != 0x08 || len(s.Touched) != 1 {
		t.Fatalf("%+v", s)
	}
	if s.GrewFrom != 0 || s.GrewTo != 13 {
		t.Fatalf("grew %d..%d", s.GrewFrom, s.GrewTo)
	}
	prims := s.Frame(Rect{0, 0, 700, 600}, 0)
	// The touched bit: byte 12, bit 4 from the left, framed in the accent colour.
	var framed []Prim
	for _, p := range prims {
		if p.Kind == KFrame {
			framed = append(framed, p)
		}
	}
	if len(framed) != 1 {
		t.Fatalf("frames %d", len(framed))
	}
	f := fontSize(Rect{0, 0, 700, 600})
	in2 := Rect{0, 0, 700, 600}.inset(f * 0.8)
	x0 := in2.X + monoWidth("byte 000000", f*0.8)
	cw := framed[0].W
	if got := (framed[0].X - x0) / cw; got < 3.99 || got > 4.01 {
		t.Fatalf("highlighted column %.2f, want 4", got)
	}
	if framed[0].Color.R != accent.R {
		t.Fatal("highlight colour")
	}
	in = play(t, lesson.Config{}, []string{"k"}, "SETBIT k 7 1", "SETBIT k 0 1", "BITCOUNT k")
	s.Update(in)
	if !s.Count || s.Reply != "(integer) 2" || onesIn(s.Data) != 2 || s.Data[0] != 0x81 {
		t.Fatalf("bitcount: %+v", s)
	}
}

func TestSDSSceneFromSETBIT(t *testing.T) {
	in := play(t, lesson.Config{Version: engine.V70, Allocator: alloc.Jemalloc}, []string{"k"}, "SETBIT k 7 1")
	s := &sdsScene{}
	s.Update(in)
	k := s.Keys[0]
	// sdsnewlen(1): sds5, malloc(1+1+1 = 3) → the 8-byte class.
	want := []segment{{segHeader, 1}, {segData, 1}, {segNul, 1}, {segFree, 0}, {segSlack, 5}}
	if k.Alloc != 8 || len(k.Segs) != len(want) {
		t.Fatalf("%+v", k)
	}
	for i := range want {
		if k.Segs[i] != want[i] {
			t.Fatalf("seg %d: %+v want %+v", i, k.Segs[i], want[i])
		}
	}
	if !k.Changed || !k.Realloc || k.NewFrom != 0 || k.NewTo != 1 {
		t.Fatalf("%+v", k)
	}
	if !strings.Contains(s.Note, "new sds of 1 byte: sds5") {
		t.Fatalf("note %q", s.Note)
	}
	// Grow to 13 bytes: greedy, sds5 → sds8.
	p := lesson.NewPlayer(lesson.Config{Version: engine.V70})
	p.Exec("SETBIT k 7 1")
	p.Exec("SETBIT k 100 1")
	x := lastOf(p)[1]
	s.Update(Input{Engine: p.Engine(), Keys: []string{"k"}, Last: []engine.Exchange{x}, Lang: "vi"})
	k = s.Keys[0]
	var total int
	for _, sg := range k.Segs {
		total += sg.Bytes
	}
	if total != k.Alloc || k.Info.SDS.Type != "sds8" || k.NewFrom != 1 || k.NewTo != 13 {
		t.Fatalf("%+v %+v", k, k.Info.SDS)
	}
	if !strings.Contains(s.Note, "cần 13 byte, xin 26") {
		t.Fatalf("note %q", s.Note)
	}
}

func TestSDSSceneSynthetic(t *testing.T) {
	// Frame never draws outside the stage and draws one cell per allocated byte.
	s := &sdsScene{Keys: []sdsKey{{
		Info:  engine.KeyInfo{Key: "k", Exists: true, Encoding: "raw", Memory: 80, SDS: &engine.SDSInfo{Type: "sds8", Len: 11, Alloc: 28, Avail: 17, Usable: 32}},
		Data:  []byte("hello world"),
		Alloc: 32, Segs: []segment{{segHeader, 3}, {segData, 11}, {segNul, 1}, {segFree, 17}, {segSlack, 0}},
		NewFrom: 5, NewTo: 11, Changed: true, Realloc: true,
	}}, lang: "en"}
	r := Rect{0, 0, 600, 400}
	prims := s.Frame(r, 0.5)
	cells, hi := 0, 0
	for _, p := range prims {
		if p.Kind == KRect && p.W < 30 && p.H > 10 && p.Y < 100 && p.Color != encColor("raw") { // not the MEMORY USAGE bar
			cells++
		}
		if p.Kind == KFrame {
			hi++
		}
		if p.Kind != KText && (p.X < r.X || p.Y < r.Y || p.X+p.W > r.X+r.W+0.01 || p.Y+p.H > r.Y+r.H+0.01) {
			t.Fatalf("outside the stage: %+v", p)
		}
	}
	if cells != 32 || hi != 6 {
		t.Fatalf("cells %d highlighted %d", cells, hi)
	}
}

func TestKeysScene(t *testing.T) {
	in := play(t, lesson.Config{}, nil, "SETBIT a 1 1", "PFADD h x")
	in.Last = in.Last[1:] // only PFADD produced the current picture
	s := New("").(*keysScene)
	s.Update(in)
	if len(s.Rows) != 2 || s.Rows[0].Key != "a" || s.Rows[1].Key != "h" || !s.Touched["h"] || s.Touched["a"] {
		t.Fatalf("%+v %v", s.Rows, s.Touched)
	}
}

// TestHLLCapsMarks: a console PFADD of many elements frames at most maxHLLMarks registers and
// shows a shortened command, so one frame stays cheap to draw.
func TestHLLCapsMarks(t *testing.T) {
	e := engine.New(engine.Options{Trace: true})
	args := []string{"PFADD", "h"}
	for i := 0; i < 5000; i++ {
		args = append(args, fmt.Sprintf("e%d", i))
	}
	b := make([][]byte, len(args))
	for i, a := range args {
		b[i] = []byte(a)
	}
	res := e.Exec(b)
	s := &HLL{}
	s.Update(Input{Engine: e, Keys: []string{"h"}, Last: []engine.Exchange{{Cmd: strings.Join(args, " "), Reply: res.Reply.FormatCLI(), Events: res.Events}}, Lang: "en"})
	if len(s.Events) != maxHLLMarks {
		t.Fatalf("%d register marks, want %d", len(s.Events), maxHLLMarks)
	}
	if n := len([]rune(s.Cmd)); n > maxCmdChars {
		t.Fatalf("command text of %d characters", n)
	}
}

// lastOf is the player's exchanges as a scene takes them.
func lastOf(p *lesson.Player) []engine.Exchange { return lesson.EngineExchanges(p.Last()) }
