package scene

import (
	"bytes"
	"strings"
	"testing"

	"redscope/engine"
	"redscope/lesson"
)

func zsetAt(t *testing.T, cfg lesson.Config, pos int) *zsetScene {
	t.Helper()
	s := &zsetScene{}
	s.Update(encAt(t, encBuiltin(t, "leaderboard"), cfg, pos, "en"))
	return s
}

func members(s *zsetScene) string {
	var b []string
	for _, m := range s.Members {
		b = append(b, m.Member+"="+m.Score)
	}
	return strings.Join(b, " ")
}

// TestZSetLeaderboardListpack follows the course's five steps: pairs stay sorted by score, the
// re-ranked member's old and new ranks come from the listpack delete offset, and the bytes are
// those redis-server 7.0.15 dumps after step 4 (DUMP: 56-byte listpack, 8 entries).
func TestZSetLeaderboardListpack(t *testing.T) {
	s := zsetAt(t, encDeb16, 1)
	if members(s) != "sku-ao-thun=3" || s.Move == nil || s.Move.From != -1 || s.Move.To != 0 || !s.Changed["sku-ao-thun"] {
		t.Fatalf("%s %+v", members(s), s.Move)
	}
	s = zsetAt(t, encDeb16, 2)
	if members(s) != "sku-ao-thun=3 sku-giay=5" || s.Move == nil || *s.Move != (zMove{"sku-giay", -1, 1}) {
		t.Fatalf("%s %+v", members(s), s.Move)
	}
	s = zsetAt(t, encDeb16, 3)
	if members(s) != "sku-giay=5 sku-ao-thun=7" || s.Move == nil || *s.Move != (zMove{"sku-ao-thun", 0, 1}) {
		t.Fatalf("%s %+v", members(s), s.Move)
	}
	if !strings.Contains(s.Note, "sku-ao-thun: rank 0 → 1 (from the top: #2 → #1)") {
		t.Fatalf("note %q", s.Note)
	}
	s = zsetAt(t, encDeb16, 4)
	want := []byte("\x38\x00\x00\x00\x08\x00\x87sku-non\x08\x03\x01\x88sku-giay\x09\x05\x01\x87sku-tui\x08\x06\x01\x8bsku-ao-thun\x0c\x07\x01\xff")
	if !bytes.Equal(s.LP.Bytes, want) {
		t.Fatalf("bytes %q", s.LP.Bytes)
	}
	// Step 4 ran three commands; the last (ZINCRBY 1 sku-non: 2 → 3) stays at rank 0, and every
	// member the step wrote is lit.
	if members(s) != "sku-non=3 sku-giay=5 sku-tui=6 sku-ao-thun=7" || s.Move == nil || *s.Move != (zMove{"sku-non", 0, 0}) ||
		!s.Changed["sku-tui"] || !s.Changed["sku-non"] || s.Changed["sku-giay"] {
		t.Fatalf("%s %+v %v", members(s), s.Move, s.Changed)
	}
	s = zsetAt(t, encDeb16, 5)
	if strings.Join(s.Top, ",") != "sku-ao-thun,sku-tui,sku-giay" || s.topPlace("sku-tui") != 2 || s.topPlace("sku-non") != 0 || s.Move != nil {
		t.Fatalf("top %v move %+v", s.Top, s.Move)
	}
}

// TestZSetLeaderboardSkiplist: the 65-byte member converts to a skiplist (redis-server 7.0.15:
// OBJECT ENCODING skiplist), nodes in score order with levels ≥ 1 and the list level their
// maximum; ZINCRBY 5 sku-giay moves the node from rank 2 to 4 (SkiplistEvent delete/insert).
func TestZSetLeaderboardSkiplist(t *testing.T) {
	for _, v := range engine.Versions {
		cfg := lesson.Config{Version: v}
		s := zsetAt(t, cfg, 6)
		if s.LP != nil || s.Conv == nil || s.Conv.To != "skiplist" || s.Conv.Why.Name != "zset-max-listpack-value" {
			t.Fatalf("%v: conv %+v", v, s.Conv)
		}
		if len(s.Members) != 5 || s.Members[0].Score != "1" || len(s.Members[0].Member) != 65 || s.Members[4].Member != "sku-ao-thun" {
			t.Fatalf("%v: %s", v, members(s))
		}
		mx := 0
		for _, m := range s.Members {
			if m.Level < 1 || m.Level > 32 || len(m.Spans) != m.Level {
				t.Fatalf("%v: level %d", v, m.Level)
			}
			mx = max(mx, m.Level)
		}
		if s.ListLevel != mx || len(s.Mem) != 2 || s.Mem[0].Encoding != "listpack" || s.Mem[1].Encoding != "skiplist" {
			t.Fatalf("%v: list level %d max %d mem %+v", v, s.ListLevel, mx, s.Mem)
		}
		s = zsetAt(t, cfg, 7)
		if s.Move == nil || *s.Move != (zMove{"sku-giay", 2, 4}) || members(s)[len(members(s))-len("sku-giay=10"):] != "sku-giay=10" {
			t.Fatalf("%v: %+v %s", v, s.Move, members(s))
		}
		s = zsetAt(t, cfg, 8)
		if strings.Join(s.Top, ",") != "sku-giay,sku-ao-thun,sku-tui" {
			t.Fatalf("%v: top %v", v, s.Top)
		}
	}
}

// TestZSetSlots: during a move every member has its own slot at the start and at the end, the
// moved one travels from its old rank to its new one, and a new member makes room.
func TestZSetSlots(t *testing.T) {
	s := &zsetScene{Members: make([]zMember, 5)}
	perm := func(k float64) map[float64]bool {
		seen := map[float64]bool{}
		for i := range s.Members {
			seen[s.slot(i, k)] = true
		}
		return seen
	}
	for _, mv := range []zMove{{"a", 1, 4}, {"a", 4, 0}, {"a", 2, 2}} {
		s.Move = &mv
		for _, k := range []float64{0, 1} {
			if p := perm(k); len(p) != 5 || !p[0] || !p[4] {
				t.Fatalf("%+v k=%v: %v", mv, k, p)
			}
		}
		if s.slot(mv.To, 0) != float64(mv.From) || s.slot(mv.To, 1) != float64(mv.To) || s.slot(mv.To, 0.5) != float64(mv.From+mv.To)/2 {
			t.Fatalf("%+v", mv)
		}
	}
	s.Move = &zMove{"n", -1, 1}
	if s.slot(2, 0) != 1 || s.slot(2, 1) != 2 || s.slot(0, 0) != 0 {
		t.Fatal("room for a new member")
	}
	// Card slots: a fractional slot slides along its row.
	c := cardSlot(Rect{10, 20, 500, 300}, 1.5, 3, 100, 40, 10)
	if c.X != 10+1.5*110 || c.Y != 20 {
		t.Fatalf("%+v", c)
	}
	if c := cardSlot(Rect{10, 20, 500, 300}, 4, 3, 100, 40, 10); c.X != 10+110 || c.Y != 70 {
		t.Fatalf("%+v", c)
	}
}

func TestZSetRangeRead(t *testing.T) {
	xs := []engine.Exchange{{Cmd: "ZRANGE k 0 1 REV", Reply: "1) \"b\"\n2) \"a\""}, {Cmd: "ZRANGE other 0 -1", Reply: "1) \"x\""}}
	top, cmd := rangeRead(xs, "k")
	if strings.Join(top, ",") != "b,a" || cmd != "ZRANGE k 0 1 REV" {
		t.Fatal(top, cmd)
	}
	xs = []engine.Exchange{{Cmd: "zrevrange k 0 0 withscores", Reply: "1) \"sku \\\"x\\\"\"\n2) \"1.5\""}}
	if top, _ := rangeRead(xs, "k"); len(top) != 1 || top[0] != `sku "x"` {
		t.Fatal(top)
	}
	if top, _ := rangeRead([]engine.Exchange{{Cmd: "ZRANGE k 0 1", Reply: "(empty array)"}}, "k"); len(top) != 0 {
		t.Fatal(top)
	}
}

func TestZSetLayout(t *testing.T) {
	encCheckLesson(t, "leaderboard", func() Scene { return &zsetScene{} }, encDeb16, lesson.Config{Version: engine.V88})
	// Columns and cards fit the phone.
	r := Stage(360, 640).inset(fontSize(Stage(360, 640)) * 0.8)
	f := fontSize(Stage(360, 640))
	cols, cw, _, gap := cardLayout(5, r.W, f)
	if float64(cols)*cw+float64(cols-1)*gap > r.W+0.01 || cols < 2 {
		t.Fatalf("cards %d × %.1f", cols, cw)
	}
	if n := skipCols(5, r.W, f); n < 5 {
		t.Fatalf("skiplist columns on a phone: %d", n)
	}
}

func TestZSetPalette(t *testing.T) {

	for _, c := range []struct {
		fg, bg Color
		what   string
	}{
		{textColor, panelC, "member on a card"}, {oneC, panelC, "score on a card"}, {dim, panelC, "rank badge"},
		{textColor, topCardC, "member on a top card"}, {oneC, topCardC, "score on a top card"}, {dim, topCardC, "badge on a top card"},
		{Background, accent, "#n on a top tower"}, {textColor, headerC.mix(Background, 0.35), "header level"},
	} {
		if r := contrast(c.fg, c.bg); r < 4.5 {
			t.Errorf("%s: %.2f", c.what, r)
		}
	}
}

// TestSkiplistBackwardLinks: the leaderboard's skiplist draws a backward link (a line and its
// arrowhead, in indexC or lit toward Accent) from every node to the one before it, which the
// caption of its last step walks.
func TestSkiplistBackwardLinks(t *testing.T) {
	checked := false
	playLesson(t, "leaderboard", engine.V70, func(pos int, in Input) {
		s := &zsetScene{}
		s.Update(in)
		if s.ListLevel == 0 || in.Lang != "en" {
			return
		}
		checked = true
		lit := indexC.mix(accent, pulseAt(1))
		n := 0
		for _, p := range s.Frame(Stage(1280, 800), 1) {
			if p.Kind == KLine && (p.Color == indexC || p.Color == lit) {
				n++
			}
		}
		if want := 3 * (len(s.Members) - 1); n < want {
			t.Errorf("step %d: %d backward-link strokes for %d members, want %d", pos, n, len(s.Members), want)
		}
	})
	if !checked {
		t.Fatal("no skiplist step")
	}
}
