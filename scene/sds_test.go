package scene

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"redscope/engine"
	"redscope/engine/alloc"
	"redscope/engine/sds"
	"redscope/internal/numfmt"
	"redscope/lesson"
)

// sdsStep plays src (a lesson's text) on 7.0 with Debian's jemalloc and returns the scene
// input at step n.
func sdsStep(t *testing.T, src string, n int) Input {
	t.Helper()
	l, err := lesson.Parse("t", []byte("title en: t\nscene sds\n"+src))
	if err != nil {
		t.Fatal(err)
	}
	p := lesson.NewPlayer(lesson.Config{Version: engine.V70, Allocator: alloc.Jemalloc16})
	p.Load(l)
	p.Seek(n)
	return Input{Engine: p.Engine(), Keys: l.Keys, Last: lastOf(p), Lang: "en"}
}

const bigAppends = `keys s:append s:set s:far
step
en: 1000 appends
repeat 1000..1999 > APPEND s:append %d.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
step
en: set
> SET s:set
arg x*100000
step
en: 45 big appends
`

func bigAppendSteps() string {
	return bigAppends + strings.Repeat("> APPEND s:append\narg y*100000\n", 45) +
		"step\nen: far\n> SETRANGE s:far 10000000 x\n"
}

// TestSDSHistoryFromEvents: the chart has one point per APPEND, taken from its sds event; the
// reallocations it counts are the events' Realloc flags; below 1 MiB Redis asks for twice the
// need, from 1 MiB on for the need + 1 MiB, rounded up to the allocator's class. Sizes checked
// with DEBUG SDSLEN on redis-server 7.0.15 (Debian, jemalloc 16-byte quantum).
func TestSDSHistoryFromEvents(t *testing.T) {
	in := sdsStep(t, bigAppendSteps(), 1)
	s := &sdsScene{}
	s.Update(in)
	h := s.History
	if h == nil || h.Key != "s:append" || len(h.Points) != 1000 {
		t.Fatalf("history %+v", h)
	}
	reallocs := 0
	for i, x := range in.Last {
		var ev engine.SDSEvent
		n := 0
		for _, e := range x.Events {
			if e, ok := e.(engine.SDSEvent); ok {
				ev, n = e, n+1
			}
		}
		p := h.Points[i]
		if n != 1 || p.Len != ev.After.Len || p.Alloc != ev.After.Alloc || p.Realloc != ev.Realloc || p.Len != 100*(i+1) {
			t.Fatalf("point %d %+v from %d events, last %+v", i, p, n, ev)
		}
		if ev.Realloc {
			reallocs++
		}
	}
	// Created exactly (100 bytes in a 112-byte class), then 8 doublings: 448, 1024, 2560, 6144,
	// 14336, 32768, 81920, 196608 (val_zmalloc after APPENDs 2, 5, 11, 26, 62, 144, 328, 820).
	if h.Reallocs != reallocs || reallocs != 9 || h.Doubled != 8 || h.PlusMiB != 0 {
		t.Fatalf("reallocs %d (events %d), doubled %d, +1 MiB %d", h.Reallocs, reallocs, h.Doubled, h.PlusMiB)
	}
	var classes []int
	for i, p := range h.Points {
		if p.Realloc {
			classes = append(classes, p.Usable)
			if i > 0 && (!p.Greedy || p.Ask != 2*p.Requested) {
				t.Errorf("point %d: ask %d for need %d", i, p.Ask, p.Requested)
			}
		}
	}
	want := []int{112, 448, 1024, 2560, 6144, 14336, 32768, 81920, 196608}
	if !slices.Equal(classes, want) {
		t.Fatalf("classes %v want %v", classes, want)
	}
	if last := h.Points[999]; last.Alloc-last.Len != 96598 {
		t.Fatalf("avail after 1000 appends %d (server: 96598)", last.Alloc-last.Len)
	}

	// 45 appends of 100 000 bytes: doubling up to 1 MiB, then need + 1 MiB.
	in = sdsStep(t, bigAppendSteps(), 3)
	s.Update(in)
	h = s.History
	if h == nil || len(h.Points) != 45 || h.Reallocs != 5 || h.Doubled != 2 || h.PlusMiB != 3 {
		t.Fatalf("big history: %d points, %d reallocs, %d doubled, %d +1 MiB", len(h.Points), h.Reallocs, h.Doubled, h.PlusMiB)
	}
	a := alloc.Jemalloc16
	var big []int
	for i, p := range h.Points {
		if p.Len != 100000*(i+2) {
			t.Fatalf("point %d len %d", i, p.Len)
		}
		if !p.Realloc {
			continue
		}
		hb := p.Type.HeaderSize()
		if p.Requested >= sds.MaxPrealloc {
			// The step above 1 MB: exactly 1 MiB more than the need, then the allocator's class.
			if p.Ask-p.Requested != 1<<20 || p.Usable != a.Usable(hb+p.Ask+1) || p.Alloc != p.Usable-hb-1 || p.Alloc-p.Len < 1<<20 {
				t.Errorf("point %d: need %d ask %d alloc %d usable %d", i, p.Requested, p.Ask, p.Alloc, p.Usable)
			}
			big = append(big, p.Usable)
		} else if p.Ask != 2*p.Requested {
			t.Errorf("point %d below 1 MiB: ask %d for %d", i, p.Ask, p.Requested)
		}
	}
	// val_zmalloc on the server after 2.5 MB, 4 MB and 4.6 MB.
	if !slices.Equal(big, []int{2621440, 4194304, 6291456}) {
		t.Fatalf("classes above 1 MiB: %v", big)
	}
	// Steps without many sds events have no chart.
	s.Update(sdsStep(t, bigAppendSteps(), 2))
	if s.History != nil {
		t.Fatalf("a SET has no history: %+v", s.History)
	}
}

// TestSDSHistoryFrame: the chart marks every reallocation once, draws at most one column per
// 2 px whatever the number of commands, and stays inside the stage.
func TestSDSHistoryFrame(t *testing.T) {
	s := &sdsScene{}
	s.Update(sdsStep(t, bigAppendSteps(), 1))
	for _, r := range []Rect{Stage(1280, 800), Stage(360, 800)} {
		prims := s.Frame(r, 1)
		f := fontSize(r)
		marks, cols := 0, 0
		var plot Rect // the plot area: the first Panel rectangle
		for _, p := range prims {
			if p.Kind == KRect && p.Color == panelC {
				plot = Rect{p.X, p.Y, p.W, p.H}
				break
			}
		}
		for _, p := range prims {
			if p.Kind == KRect && p.Color == accent && math.Abs(p.W-f*0.36) < 1e-9 && plot.Contains(p.X+p.W/2, p.Y+p.H/2) {
				marks++
			}
			if p.Kind == KRect && (p.Color == dataC) {
				cols++
			}
			if p.Kind != KText && (p.X < r.X-0.01 || p.Y < r.Y-0.01 || p.X+p.W > r.X+r.W+0.01 || p.Y+p.H > r.Y+r.H+0.01) {
				t.Fatalf("%v: outside the stage: %+v", r, p)
			}
		}
		if marks != s.History.Reallocs {
			t.Errorf("%v: %d reallocation marks, want %d", r, marks, s.History.Reallocs)
		}
		if cols == 0 || float64(cols) > r.W/2 {
			t.Errorf("%v: %d data columns", r, cols)
		}
		if len(prims) > 1500 {
			t.Errorf("%v: %d primitives", r, len(prims))
		}
	}
}

// TestSDSBarToScale: big strings are bars to scale. SET vs APPEND of the same 100 000 bytes
// share one scale (196 608 vs 114 688 bytes of allocation on 7.0.15); the far SETRANGE's string
// is a zero-filled run of 10 000 000 bytes before the one written byte.
func TestSDSBarToScale(t *testing.T) {
	s := &sdsScene{}
	s.Update(sdsStep(t, bigAppendSteps(), 2))
	ap, st := s.Keys[0], s.Keys[1]
	if ap.Alloc != 196608 || st.Alloc != 114688 || ap.Info.Memory != 196664 || st.Info.Memory != 114736 {
		t.Fatalf("allocs %d %d, MEMORY USAGE %d %d", ap.Alloc, st.Alloc, ap.Info.Memory, st.Info.Memory)
	}
	if c := s.compareText(); c != "same len 100000: MEMORY USAGE s:append = 196664, s:set = 114736: +71%" {
		t.Fatalf("compare %q", c)
	}
	r := Stage(1280, 800)
	prims := s.Frame(r, 1)
	// The bars' outlines (Grid frames of bar height) give their widths.
	var widths []float64
	for _, p := range prims {
		if p.Kind == KFrame && p.Color == grid && p.Stroke == 1 && p.H < fontSize(r)*1.5 {
			widths = append(widths, p.W)
		}
	}
	if len(widths) != 2 || math.Abs(widths[1]/widths[0]-114688.0/196608) > 1e-9 {
		t.Fatalf("bar widths %v, want the ratio %v", widths, 114688.0/196608)
	}
	// s:far: header | zeros | data | NUL | free.
	s.Update(sdsStep(t, bigAppendSteps(), 4))
	far := s.Keys[2]
	want := []segment{{segHeader, 9}, {segZero, 10000000}, {segData, 1}, {segNul, 1}, {segFree, 485749}}
	var got []segment
	for _, sg := range far.Bar {
		if sg.Bytes > 0 {
			got = append(got, sg)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("bar %+v", far.Bar)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("bar %+v want %+v", got, want)
		}
	}
	w := 600.0
	ws := barWidths(far.Bar, w, 4)
	sum := 0.0
	for i, sg := range far.Bar {
		sum += ws[i]
		if sg.Bytes > 0 && ws[i] < 4-1e-9 {
			t.Errorf("segment %+v is %v px wide", sg, ws[i])
		}
		if sg.Bytes == 0 && ws[i] != 0 {
			t.Errorf("empty segment drawn %v px", ws[i])
		}
	}
	if math.Abs(sum-w) > 1e-6 {
		t.Fatalf("widths add up to %v", sum)
	}
	// The zeros take their share of the allocation, less the room lent to the tiny segments.
	zi := 1
	for far.Bar[zi].Kind != segZero {
		zi++
	}
	if share := ws[zi] / w; math.Abs(share-10000000.0/10485760) > 12.0/w {
		t.Fatalf("zero run share %v", share)
	}
	// s:set is under a fifth of s:far: drawn on its own scale, and said so.
	prims = s.Frame(r, 1)
	own := false
	for _, p := range prims {
		if p.Kind == KText && p.Text == "(own scale)" {
			own = true
		}
	}
	if !own {
		t.Fatal("no (own scale) label for the small bars")
	}
	if numfmt.Bytes(9) != "9 B" || numfmt.Bytes(196608) != "192.0 KiB" || numfmt.Bytes(6291456) != "6.00 MiB" || numfmt.Bytes(10485760) != "10.0 MiB" {
		t.Fatal(numfmt.Bytes(196608), numfmt.Bytes(6291456))
	}
}

// TestZeroRuns: zero runs of a paged buffer come from its unallocated pages and from zero bytes
// inside allocated ones; short runs are ignored.
func TestZeroRuns(t *testing.T) {
	e := engine.New(engine.Options{})
	e.Do("setrange", "k", "3000000", "ab\x00\x00\x00c")
	e.Do("setrange", "k", "100", "x")
	b := &e.Peek([]byte("k")).Buf
	got := zeroRuns(b, 2)
	want := [][2]int{{0, 100}, {101, 3000000}, {3000002, 3000005}}
	if len(got) != len(want) {
		t.Fatalf("%v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%v want %v", got, want)
		}
	}
	if got := zeroRuns(b, 4); len(got) != 2 {
		t.Fatalf("minRun 4: %v", got)
	}
	e.Do("set", "t", strings.Repeat("text", 1000))
	if got := zeroRuns(&e.Peek([]byte("t")).Buf, 1); len(got) != 0 {
		t.Fatalf("text: %v", got)
	}
}

const ttlSteps = `keys k
step
en: clear
> SET k 1 EX 100
> TTL k
> SET k 2
> TTL k
step
en: keep
> EXPIRE k 100
> SET k 2 KEEPTTL
> TTL k
step
en: incr
> INCR k
> TTL k
step
en: no ttl event
> GET k
`

// TestSDSTTLBadge: the badge shows the TTL left and which command of the step set, kept or
// cleared it; the table lists those commands and the TTL replies.
func TestSDSTTLBadge(t *testing.T) {
	s := &sdsScene{}
	cases := []struct {
		step  int
		badge string
		c     Color
		rows  []string
	}{
		{1, "no expiry · cleared by SET", ErrorC, []string{"SET k 1 EX 100 set 100000", "TTL k (integer) 100", "SET k 2 cleared -1", "TTL k (integer) -1"}},
		{2, "TTL 100 s · kept by SET", oneC, []string{"EXPIRE k 100 set 100000", "SET k 2 KEEPTTL kept 100000", "TTL k (integer) 100"}},
		{3, "TTL 100 s · kept by INCR", oneC, []string{"INCR k kept 100000", "TTL k (integer) 100"}},
		{4, "TTL 100 s", accent, nil},
	}
	for _, c := range cases {
		s.Update(sdsStep(t, ttlSteps, c.step))
		badge, col := s.ttlBadge(s.Keys[0])
		if badge != c.badge || col != c.c {
			t.Errorf("step %d: badge %q %v, want %q %v", c.step, badge, col, c.badge, c.c)
		}
		var rows []string
		for _, r := range s.TTLRows {
			if r.Action != "" {
				rows = append(rows, strings.Join([]string{r.Cmd, r.Action, strconv.FormatInt(r.After, 10)}, " "))
			} else {
				rows = append(rows, r.Cmd+" "+r.Reply)
			}
		}
		if strings.Join(rows, "|") != strings.Join(c.rows, "|") {
			t.Errorf("step %d: rows %q want %q", c.step, rows, c.rows)
		}
		// The badge is drawn, in its colour, in both languages.
		for _, lang := range []string{"en", "vi"} {
			s.lang = lang
			want, _ := s.ttlBadge(s.Keys[0])
			found := false
			for _, p := range s.Frame(Stage(1280, 800), 1) {
				if p.Kind == KText && p.Text == want && p.Color == c.c {
					found = true
				}
			}
			if !found {
				t.Errorf("step %d %s: badge %q not drawn", c.step, lang, want)
			}
		}
	}
	// No TTL involved: no badge, no table.
	s.Update(sdsStep(t, "keys a\nstep\nen: x\n> SET a hello\n", 1))
	if b, _ := s.ttlBadge(s.Keys[0]); b != "" || s.TTLRows != nil {
		t.Fatalf("badge %q rows %v", b, s.TTLRows)
	}
}

// sdsUnder is the colour under (x, y) once prims are drawn over the background (rects and
// frames; alpha composited).
func sdsUnder(prims []Prim, x, y float64) Color {
	c := Background
	for _, q := range prims {
		r := Rect{q.X, q.Y, q.W, q.H}
		in := r.Contains(x, y)
		if q.Kind == KFrame {
			in = in && !r.inset(q.Stroke).Contains(x, y)
		}
		if (q.Kind == KRect || q.Kind == KFrame) && in {
			c = sdsOver(q.Color, c)
		}
	}
	return c
}

func sdsOver(top, under Color) Color {
	a := float64(top.A) / 255
	m := func(t, u uint8) uint8 { return uint8(math.Round(float64(t)*a + float64(u)*(1-a))) }
	return Color{m(top.R, under.R), m(top.G, under.G), m(top.B, under.B), 0xff}
}

// TestSDSTextContrast: every text of the string scene, at every step of a big-string lesson and of
// the TTL steps, keeps 4.5:1 over what is drawn under it (its start, middle and end), in both
// themes, on a wide and a phone stage.
func TestSDSTextContrast(t *testing.T) {
	defer SetTheme("dark")
	for _, theme := range []string{"dark", "light"} {
		if !SetTheme(theme) {
			t.Fatalf("theme %s", theme)
		}
		for _, src := range []string{bigAppendSteps(), ttlSteps, "keys a b\nstep\nen: x\n> SET a hello\n> APPEND a \" world\"\n> SET b 12\n"} {
			l, _ := lesson.Parse("t", []byte("title en: t\n"+src))
			for n := 1; n <= len(l.Steps); n++ {
				in := sdsStep(t, src, n)
				for _, lang := range []string{"en", "vi"} {
					in.Lang = lang
					s := &sdsScene{}
					s.Update(in)
					for _, r := range []Rect{Stage(1280, 800), Stage(360, 800)} {
						prims := s.Frame(r, 1)
						for i, p := range prims {
							if p.Kind != KText || strings.TrimSpace(p.Text) == "" {
								continue
							}
							b := textBox(p)
							x0, w := b.X, b.W
							for _, fx := range []float64{0.1, 0.5, 0.9} {
								u := sdsUnder(prims[:i], x0+w*fx, p.Y+p.Size*0.6)
								if c := contrast(sdsOver(p.Color, u), u); c < 4.5 {
									t.Errorf("%s step %d %s %v: %q in %v over %v: %.2f", theme, n, lang, r, p.Text, p.Color, u, c)
									break
								}
							}
						}
					}
				}
			}
		}
	}
}
