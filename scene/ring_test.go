package scene

import (
	"math"
	"strings"
	"testing"

	"redscope/assets"
	"redscope/engine"
	"redscope/lesson"
	"redscope/ring"
)

func overlap(a, b Rect) bool {
	const e = 0.5
	return a.X+e < b.X+b.W && b.X+e < a.X+a.W && a.Y+e < b.Y+b.H && b.Y+e < a.Y+a.H
}

// checkLayout fails when a primitive leaves the stage, two texts overlap, a text is smaller than
// 10 px, or a text's contrast with what is under it is below 4.5:1.
func checkLayout(t *testing.T, what string, prims []Prim, r Rect) {
	t.Helper()
	var texts []Prim
	for i, p := range prims {
		b := Rect{p.X, p.Y, p.W, p.H}
		if p.Kind == KLine {
			b = Rect{math.Min(p.X, p.X+p.W), math.Min(p.Y, p.Y+p.H), math.Abs(p.W), math.Abs(p.H)}
		}
		if p.Kind == KText {
			if p.Text == "" {
				continue
			}
			b = textBox(p)
			if p.Size < 10 {
				t.Errorf("%s: text %q at %.1f px", what, p.Text, p.Size)
			}
			// What is under the text's centre: the last opaque rect drawn before it.
			bg := Background
			cx, cy := b.X+b.W/2, b.Y+b.H/2
			for _, q := range prims[:i] {
				if q.Kind == KRect && q.Color.A == 0xff && (Rect{q.X, q.Y, q.W, q.H}).Contains(cx, cy) {
					bg = q.Color
				}
			}
			if c := contrast(p.Color, bg); p.Color.A == 0xff && c < 4.5 {
				t.Errorf("%s: text %q contrast %.2f on %v", what, p.Text, c, bg)
			}
			for _, q := range texts {
				if overlap(b, textBox(q)) {
					t.Errorf("%s: texts overlap: %q %+v and %q %+v", what, p.Text, b, q.Text, textBox(q))
				}
			}
			texts = append(texts, p)
		}
		if b.X < r.X-0.5 || b.Y < r.Y-0.5 || b.X+b.W > r.X+r.W+0.5 || b.Y+b.H > r.Y+r.H+0.5 {
			t.Errorf("%s: outside the stage %+v: kind %d %q %+v", what, r, p.Kind, p.Text, b)
		}
	}
}

// stages are the windows every scene is laid out for: a 360 px phone, a laptop, a projector.
var stages = map[string]Rect{
	"360x740":   Stage(360, 740),
	"360x640":   Stage(360, 640),
	"1280x800":  Stage(1280, 800),
	"1920x1080": Stage(1920, 1080),
}

// playLesson plays a built-in lesson and calls fn at every position, in both languages.
func playLesson(t *testing.T, name string, v engine.Version, fn func(pos int, in Input)) {
	t.Helper()
	for _, src := range assets.Lessons() {
		if src.Name != name {
			continue
		}
		l, err := lesson.Parse(src.Name+".lesson", src.Src)
		if err != nil {
			t.Fatal(err)
		}
		p := lesson.NewPlayer(lesson.Config{Version: v})
		p.Load(l)
		for {
			for _, lang := range []string{"vi", "en"} {
				fn(p.Pos(), Input{Engine: p.Engine(), Keys: p.Watched(), Last: lastOf(p), Lang: lang})
			}
			if !p.Step() {
				return
			}
		}
	}
	t.Fatalf("no lesson %s", name)
}

func checkLessonLayouts(t *testing.T, lessonName, sceneName string, v engine.Version) {
	playLesson(t, lessonName, v, func(pos int, in Input) {
		s := New(sceneName)
		s.Update(in)
		for sn, r := range stages {
			for _, at := range []float64{0, 1} {
				checkLayout(t, lessonName+" step "+itoa(pos)+" "+in.Lang+" "+sn, s.Frame(r, at), r)
			}
		}
	})
}

func itoa(n int) string { return fmtInt(n) }

func fmtInt(n int) string {
	if n == 0 {
		return "0"
	}
	s := ""
	for ; n > 0; n /= 10 {
		s = string(rune('0'+n%10)) + s
	}
	return s
}

func TestRingLessonLayouts(t *testing.T) { checkLessonLayouts(t, "ring", "ring", engine.V70) }

func TestNodeColorsContrast(t *testing.T) {
	for i, c := range nodeColors {
		if r := contrast(c, Background); r < 3 {
			t.Errorf("node colour %d: %.2f < 3 against the background", i, r)
		}
		if r := contrast(c, panelC); r < 3 {
			t.Errorf("node colour %d: %.2f < 3 against the panel", i, r)
		}
	}
}

func TestHashTagAndKeyslot(t *testing.T) {
	// CLUSTER KEYSLOT on a cluster-enabled redis-server 7.0.15: the engine's reply, the tag the
	// scene lights and its CRC16 must agree.
	cases := []struct {
		key, tag string
		slot     int
	}{
		{"somekey", "", 11058}, {"foo{hash_tag}", "hash_tag", 2515}, {"rl:{user42}:minute", "user42", 14710},
		{"rl:{user42}:hour", "user42", 14710}, {"foo{}{bar}", "", 8363}, {"foo{{bar}}zap", "{bar", 4015},
		{"foo{bar}{zap}", "bar", 5061}, {"{user1000}.following", "user1000", 3443}, {"product:42", "", 12456},
		{"user:1000", "", 1649}, {"user:{1000}", "1000", 11326},
	}
	p := lesson.NewPlayer(lesson.Config{Version: engine.V70})
	for _, c := range cases {
		x := p.Exec("CLUSTER KEYSLOT " + c.key)
		si, ok := parseKeyslot(x.Exchange)
		if !ok || si.Slot != c.slot || si.Tag != c.tag || int(si.CRC)&0x3fff != c.slot {
			t.Errorf("%s: %+v %v (reply %q)", c.key, si, ok, x.Reply)
		}
		if c.tag != "" && si.Key[si.TagStart:si.TagStart+len(si.Tag)] != c.tag {
			t.Errorf("%s: tag offset %d", c.key, si.TagStart)
		}
	}
	if _, ok := parseKeyslot(engine.Exchange{Cmd: "CLUSTER KEYSLOT", Reply: "(error) ERR wrong number of arguments for 'cluster|keyslot' command", Error: true}); ok {
		t.Error("an error parsed as a slot")
	}
}

func TestRingScene(t *testing.T) {
	p := lesson.NewPlayer(lesson.Config{})
	p.Exec("ring nodes a,b,c,d vnodes 1 keys k:%d 1000")
	p.Exec("ring add e")
	s := &ringScene{}
	s.Update(Input{Engine: p.Engine(), Last: lastOf(p)[1:], Lang: "en"})
	if s.Ev == nil || s.Ev.Op != "add" || len(s.Ev.Points) != 5 {
		t.Fatalf("%+v", s.Ev)
	}
	// Every arc of the picture has the colour of the node owning it: sample the annulus.
	n := ringImageSize
	c := float64(n) / 2
	for _, deg := range []float64{1, 45, 100, 181, 270, 359} {
		a := deg * math.Pi / 180
		x := int(c + c*0.9*math.Sin(a))
		y := int(c - c*0.9*math.Cos(a))
		o := 4 * (y*n + x)
		got := Color{s.Img.RGBA[o], s.Img.RGBA[o+1], s.Img.RGBA[o+2], s.Img.RGBA[o+3]}
		ax := math.Atan2(float64(x)+0.5-c, -(float64(y) + 0.5 - c))
		if ax < 0 {
			ax += 2 * math.Pi
		}
		want := nodeColor(s.nodeIndex(s.Ev.Points[ringOwnerAt(s.Ev, ax)].Node))
		if got != want {
			t.Errorf("%v°: %v want %v", deg, got, want)
		}
	}
	// The key owners the dots are coloured by are the ring's: the owner of each sample's angle.
	for _, k := range s.Ev.Samples {
		if got := s.Ev.Points[ringOwnerAt(s.Ev, ringAngle(k.Pos, s.Ev.Space))].Node; got != k.Owner {
			t.Errorf("%s: %s want %s", k.Key, got, k.Owner)
		}
	}
	gen := s.Img.Gen
	s.Update(Input{Engine: p.Engine(), Last: lastOf(p)[1:], Lang: "en"})
	if s.Img.Gen == gen {
		t.Error("the picture generation did not change")
	}
	prims := s.Frame(Rect{0, 0, 900, 700}, 0)
	img, moved, text := countKind(prims, KImage), countKind(prims, KFrame), allText(prims)
	wantMoved := 0
	for _, k := range s.Ev.Samples {
		if k.Was != k.Owner {
			wantMoved++
		}
	}
	if img != 1 || moved != wantMoved || wantMoved == 0 || !strings.Contains(text, ring.Percent(s.Ev.RingMoved, 1000)) || !strings.Contains(text, ring.Percent(s.Ev.ModMoved, 1000)) {
		t.Fatalf("img %d moved %d/%d\n%s", img, moved, wantMoved, text)
	}
	// The empty scene says what to do, in both languages.
	e := &ringScene{lang: "vi"}
	pr := e.Frame(Rect{0, 0, 360, 300}, 1)
	all := ""
	for _, q := range pr {
		all += q.Text + " "
	}
	if !strings.Contains(all, "ring nodes a,b,c,d") || !strings.Contains(all, "CLUSTER KEYSLOT") {
		t.Fatalf("%q", all)
	}
	checkLayout(t, "empty ring", pr, Rect{0, 0, 360, 300})
}

func TestRingLayoutMaths(t *testing.T) {
	f := 26.0
	c, tb := ringLayout(Rect{0, 0, 1400, 900}, f, 7)
	if c.W != 900 || tb.X < c.X+c.W {
		t.Fatalf("wide: %+v %+v", c, tb)
	}
	f = 13
	c, tb = ringLayout(Rect{10, 50, 340, 230}, f, 8)
	if c.W <= 40 || tb.X < c.X+c.W && tb.Y < c.Y+c.H {
		t.Fatalf("narrow: %+v %+v", c, tb)
	}
	if x := slotX(0, 16384, 0); x != 0.5 {
		t.Fatal(x)
	}
	if x := slotX(100, 16384, 16383); x != 100+16383.5 {
		t.Fatal(x)
	}
	if got := wrapText("a bb ccc dddd", textWidth("a bb", 10, false)+0.1, 10); len(got) != 3 || got[0] != "a bb" {
		t.Fatalf("%q", got)
	}
	if got := fitText("abcdefghij", monoWidth("abcde", 10), 10, true); got != "abcd…" {
		t.Fatalf("%q", got)
	}
}

func TestBloomLessonLayouts(t *testing.T) { checkLessonLayouts(t, "bloom", "bloom", engine.V88) }

func TestCountersLessonLayouts(t *testing.T) {
	checkLessonLayouts(t, "counters", "counters", engine.V88)
	checkLessonLayouts(t, "counters", "counters", engine.V70) // errors: the scene says why
	checkLessonLayouts(t, "locks", "counters", engine.V84)
	checkLessonLayouts(t, "locks", "counters", engine.V72)
}

// TestRingColorsStable: a node keeps its colour when another is added or removed (the ring
// lesson's steps 4, add cache-e, and 5, remove cache-b).
func TestRingColorsStable(t *testing.T) {
	cols := map[int]map[string]Color{}
	playLesson(t, "ring", engine.V70, func(pos int, in Input) {
		if pos != 3 && pos != 4 && pos != 5 || in.Lang != "en" {
			return
		}
		s := &ringScene{}
		s.Update(in)
		cols[pos] = map[string]Color{}
		for _, n := range append(append([]string{}, s.Ev.Nodes...), s.Ev.Before...) {
			cols[pos][n] = s.nodeColorOf(n)
		}
	})
	for _, n := range []string{"cache-a", "cache-c", "cache-d"} {
		if cols[3][n] != cols[4][n] || cols[4][n] != cols[5][n] {
			t.Errorf("%s: %v, %v, %v at steps 3, 4, 5", n, cols[3][n], cols[4][n], cols[5][n])
		}
	}
	if cols[4]["cache-e"] != cols[5]["cache-e"] || cols[4]["cache-e"] == cols[4]["cache-d"] {
		t.Errorf("cache-e %v / %v, cache-d %v", cols[4]["cache-e"], cols[5]["cache-e"], cols[4]["cache-d"])
	}
}
