package scene

import (
	"math"
	"strings"
	"testing"

	"redscope/engine"
	"redscope/lesson"
)

// streamAuto types lines on a fresh 7.0 player (failing on an error reply) and returns the
// player and an Auto updated after the last one.
func streamAuto(t *testing.T, lang string, lines ...string) (*lesson.Player, *Auto) {
	t.Helper()
	p := lesson.NewPlayer(lesson.Config{Version: engine.V70})
	a := NewAuto("", nil)
	for _, l := range lines {
		if x := p.Exec(l); x.Error {
			t.Fatalf("%s: %s", l, x.Reply)
		}
	}
	a.Update(Input{Engine: p.Engine(), Keys: p.Watched(), Last: lastOf(p), Lang: lang})
	return p, a
}

func streamOf(t *testing.T, a *Auto) *streamScene {
	t.Helper()
	s, ok := a.inner().(*streamScene)
	if !ok {
		t.Fatalf("inner scene %T, want *Stream", a.inner())
	}
	return s
}

// checkStage: every text is at least 11 px and inside the stage; every box ends above its bottom.
func checkStage(t *testing.T, prims []Prim, r Rect) {
	t.Helper()
	for _, p := range prims {
		if (p.Kind == KRect || p.Kind == KFrame) && p.Y+p.H > r.Y+r.H+0.5 {
			t.Errorf("box %+v ends below the stage (%.0f)", p, r.Y+r.H)
		}
		if p.Kind != KText {
			continue
		}
		if p.Y+p.Size*1.2 > r.Y+r.H+0.5 {
			t.Errorf("text %q at y %.1f below the stage (%.0f)", p.Text, p.Y, r.Y+r.H)
		}
		if p.Size < 11 {
			t.Errorf("text %q at %.1f px", p.Text, p.Size)
		}
		b := textBox(p)
		x0, w := b.X, b.W
		if x0 < r.X-0.5 || x0+w > r.X+r.W+0.5 {
			t.Errorf("text %q spans %.1f..%.1f, stage %.0f..%.0f", p.Text, x0, x0+w, r.X, r.X+r.W)
		}
	}
}

var streamFill = []string{"CONFIG SET stream-node-max-entries 3", "XADD s 1-1 a 1", "XADD s 1-2 a 2", "XADD s 1-3 a 3 b 4"}

// TestStreamNodeBoundary: the fourth XADD with stream-node-max-entries 3 opens a second node; the
// scene says which limit closed the first, lights the new node and entry, and draws each node to
// the scale of its bytes with the master entry and the SAMEFIELDS flag from the engine.
func TestStreamNodeBoundary(t *testing.T) {
	_, a := streamAuto(t, "en", append(streamFill, "XADD s 1-4 a 5")...)
	if sc, k := a.Focus(); sc != "stream" || k != "s" {
		t.Fatalf("focus %s/%s", sc, k)
	}
	s := streamOf(t, a)
	v := s.View
	if len(v.Nodes) != 2 || v.Nodes[0].Master != "1-1" || v.Nodes[1].Master != "1-4" || v.Nodes[0].Count != 3 {
		t.Fatalf("nodes %+v", v.Nodes)
	}
	if s.Opened == nil || s.Opened.Master != "1-4" || s.Opened.Reason != "stream-node-max-entries 3 reached" || !s.Added["1-4"] || len(s.Added) != 1 {
		t.Fatalf("opened %+v added %v", s.Opened, s.Added)
	}
	// The node's parts add up to its listpack: header 6 + master + entries + end byte.
	for _, n := range v.Nodes {
		sum := 6 + n.MasterBytes + 1
		for _, e := range n.Entries {
			sum += e.Size
		}
		if sum != n.Bytes {
			t.Errorf("node %s: parts %d B, listpack %d B", n.Master, sum, n.Bytes)
		}
	}
	n0 := v.Nodes[0]
	// 1-1 and 1-2 have the master's fields (a): values only; 1-3 has a and b: its own fields.
	if !n0.Entries[0].SameFields || !n0.Entries[1].SameFields || n0.Entries[2].SameFields {
		t.Fatalf("SAMEFIELDS %+v", n0.Entries)
	}
	if n0.Entries[2].Size <= n0.Entries[1].Size {
		t.Errorf("an entry with its own fields (%d B) is not bigger than a SAMEFIELDS one (%d B)", n0.Entries[2].Size, n0.Entries[1].Size)
	}
	// Strip cells are to the scale of the bytes (past their minimum width).
	cells := streamStrip(0, 580, 0, n0)
	for _, c := range cells {
		if want := 580 * float64(c.Bytes) / float64(n0.Bytes); math.Abs(c.W-want) > 1e-9 {
			t.Errorf("cell %+v: width %v, want %v", c, c.W, want)
		}
	}
	if streamDelta("1-1", "1-3") != "+0-2" || streamDelta("5-7", "9-7") != "+4-0" || streamDelta("1-5", "2-0") != "+1-(−5)" {
		t.Errorf("delta %s %s", streamDelta("1-1", "1-3"), streamDelta("5-7", "9-7"))
	}
	d := a.Describe()
	for _, want := range []string{"stream s: 4 entries in 2 nodes (master 1-1: 3 entries, 0 deleted, 58 B; master 1-4: 1 entry, 0 deleted, 28 B); MEMORY USAGE ",
		"last: 1-4 appended; new node (master 1-4): stream-node-max-entries 3 reached"} {
		if !strings.Contains(d, want) {
			t.Errorf("describe %q lacks %q", d, want)
		}
	}
	for _, r := range []Rect{{0, 0, 360, 333}, {0, 0, 820, 720}, {0, 0, 1460, 1080}} {
		prims := a.Frame(r, 0)
		checkStage(t, prims, r)
		txt := allText(prims)
		for _, want := range []string{"+0-1", "+0-2", "new · "} {
			if !strings.Contains(txt, want) {
				t.Errorf("%v: no %q drawn in %q", r, want, txt)
			}
		}
		// The two strips (header cell to end byte): widths in proportion to 58 and 28 bytes.
		var hdrs, ends []Prim
		for _, p := range prims {
			if p.Kind == KRect && p.Color == byteColor(byteLPHeader) && p.W != p.H /* not the legend square */ {
				hdrs = append(hdrs, p)
			}
			if p.Kind == KRect && p.Color == byteColor(byteEOF) {
				ends = append(ends, p)
			}
		}
		if len(hdrs) != 2 || len(ends) != 2 {
			t.Fatalf("%v: %d headers, %d ends", r, len(hdrs), len(ends))
		}
		w0, w1 := ends[0].X+ends[0].W+1-hdrs[0].X, ends[1].X+ends[1].W+1-hdrs[1].X
		if math.Abs(w1/w0-28.0/58) > 0.01 {
			t.Errorf("%v: strip widths %.1f and %.1f, want 58:28", r, w0, w1)
		}
	}
	_, a = streamAuto(t, "vi", append(streamFill, "XADD s 1-4 a 5")...)
	if d := a.Describe(); !strings.HasPrefix(d, "stream s: 4 phần tử trong 2 node (master 1-1: 3 phần tử, 0 đã xoá, 58 B;") ||
		!strings.Contains(d, "vừa rồi: thêm 1-4; node mới (master 1-4): đã đạt stream-node-max-entries 3") {
		t.Errorf("vi describe %q", d)
	}
}

// TestStreamNodeMaxBytes: a node is also closed when the next entry would take it to
// stream-node-max-bytes, and the scene says that limit.
func TestStreamNodeMaxBytes(t *testing.T) {
	big := strings.Repeat("x", 40)
	_, a := streamAuto(t, "en", "CONFIG SET stream-node-max-bytes 64", "XADD s 1-1 a 1", "XADD s 1-2 a "+big)
	s := streamOf(t, a)
	if len(s.View.Nodes) != 2 || s.Opened == nil || s.Opened.Reason != "stream-node-max-bytes 64 reached" {
		t.Fatalf("nodes %+v opened %+v", s.View.Nodes, s.Opened)
	}
	if d := a.Describe(); !strings.HasSuffix(d, "last: 1-2 appended; new node (master 1-2): stream-node-max-bytes 64 reached") {
		t.Errorf("describe %q", d)
	}
	_, a = streamAuto(t, "vi", "CONFIG SET stream-node-max-bytes 64", "XADD s 1-1 a 1", "XADD s 1-2 a "+big)
	if d := a.Describe(); !strings.HasSuffix(d, "vừa rồi: thêm 1-2; node mới (master 1-2): đã đạt stream-node-max-bytes 64") {
		t.Errorf("vi describe %q", d)
	}
}

// TestStreamGroupPEL: a group with two consumers; XACK takes an entry out of the PEL and
// XAUTOCLAIM moves the rest to bob with their delivery counts raised, as the engine holds them.
func TestStreamGroupPEL(t *testing.T) {
	lines := append(streamFill, "XGROUP CREATE s g 0", "XREADGROUP GROUP g alice COUNT 2 STREAMS s >", "XREADGROUP GROUP g bob COUNT 1 STREAMS s >")
	p, a := streamAuto(t, "en", lines...)
	s := streamOf(t, a)
	g := s.View.Groups[0]
	if g.LastID != "1-3" || g.EntriesRead != 3 || len(g.Pending) != 3 || s.Moved["1-3"] != "bob" {
		t.Fatalf("group %+v moved %v", g, s.Moved)
	}
	if d := a.Describe(); !strings.Contains(d, "group g: last-delivered-id 1-3, entries-read 3, 3 pending (alice 2, bob 1); last: consumer bob created; 1-3 delivered to bob") {
		t.Errorf("describe %q", d)
	}
	p.Exec("XACK s g 1-1")
	a.Update(Input{Engine: p.Engine(), Last: lastOf(p), Lang: "en"})
	s = streamOf(t, a)
	if len(s.Acked) != 1 || s.Acked[0] != "1-1" || len(s.View.Groups[0].Pending) != 2 {
		t.Fatalf("acked %v pending %+v", s.Acked, s.View.Groups[0].Pending)
	}
	if !strings.Contains(allText(a.Frame(Rect{0, 0, 360, 333}, 0)), "XACK 1-1: out of the PEL") {
		t.Error("XACK not drawn")
	}
	p.Exec("XAUTOCLAIM s g bob 0 0-0")
	a.Update(Input{Engine: p.Engine(), Last: lastOf(p), Lang: "en"})
	s = streamOf(t, a)
	if s.Moved["1-2"] != "bob" || s.Moved["1-3"] != "bob" {
		t.Fatalf("moved %v", s.Moved)
	}
	d := a.Describe()
	if !strings.Contains(d, "2 pending (alice 0, bob 2); last: 1-2 claimed by bob (delivery 2); 1-3 claimed by bob (delivery 2)") {
		t.Errorf("describe %q", d)
	}
	for _, r := range []Rect{{0, 0, 360, 333}, {0, 0, 1200, 900}} {
		prims := a.Frame(r, 0)
		checkStage(t, prims, r)
		var lit, bobRow bool
		bobY := -1.0
		for _, pr := range prims {
			if pr.Kind == KText && pr.Text == "bob:" {
				bobY = pr.Y
			}
		}
		for _, pr := range prims {
			if pr.Kind == KText && pr.Text == "1-2 ×2" {
				bobRow = math.Abs(pr.Y-bobY) < 1
			}
			if pr.Kind == KRect && pr.Color == accent.mix(panelC, 0) {
				lit = true
			}
		}
		if !bobRow || !lit {
			t.Errorf("%v: 1-2 ×2 in bob's row %v, lit %v", r, bobRow, lit)
		}
	}
	a.Update(Input{Engine: p.Engine(), Last: lastOf(p), Lang: "vi"})
	if d := a.Describe(); !strings.Contains(d, "2 đang chờ (alice 0, bob 2); vừa rồi: 1-2 được bob nhận lại (lần giao 2)") {
		t.Errorf("vi describe %q", d)
	}
	// XCLAIM moves 1-3 back to alice.
	p.Exec("XCLAIM s g alice 0 1-3")
	a.Update(Input{Engine: p.Engine(), Last: lastOf(p), Lang: "en"})
	s = streamOf(t, a)
	if s.Moved["1-3"] != "alice" || len(s.View.Groups[0].Consumers[0].Pending) != 1 {
		t.Fatalf("XCLAIM: moved %v consumers %+v", s.Moved, s.View.Groups[0].Consumers)
	}
	if d := a.Describe(); !strings.Contains(d, "(alice 1, bob 1); last: 1-3 claimed by alice (delivery 3)") {
		t.Errorf("XCLAIM describe %q", d)
	}
}

// TestStreamDelTrim: XDEL flags an entry deleted (the node keeps its bytes); XTRIM frees whole
// nodes.
func TestStreamDelTrim(t *testing.T) {
	p, a := streamAuto(t, "en", append(streamFill, "XADD s 1-4 a 5", "XDEL s 1-2")...)
	s := streamOf(t, a)
	n0 := s.View.Nodes[0]
	if !s.Dead["1-2"] || n0.Count != 2 || n0.Deleted != 1 || !n0.Entries[1].Deleted || n0.Bytes != 58 {
		t.Fatalf("dead %v node %+v", s.Dead, n0)
	}
	if d := a.Describe(); !strings.Contains(d, "master 1-1: 2 entries, 1 deleted, 58 B") || !strings.HasSuffix(d, "last: 1-2 flagged deleted") {
		t.Errorf("describe %q", d)
	}
	p.Exec("XTRIM s MAXLEN 1")
	a.Update(Input{Engine: p.Engine(), Last: lastOf(p), Lang: "en"})
	s = streamOf(t, a)
	if len(s.View.Nodes) != 1 || len(s.Freed) != 1 || s.Freed[0].Master != "1-1" || s.Freed[0].Count != 2 {
		t.Fatalf("nodes %+v freed %+v", s.View.Nodes, s.Freed)
	}
	if !strings.Contains(allText(a.Frame(Rect{0, 0, 360, 333}, 0)), "× node 1-1 freed (2 live entries)") {
		t.Error("freed node not drawn")
	}
}

// TestAutoScriptCalls: an EVAL that runs three commands is drawn as those commands with their
// script lines and replies above the key it last wrote.
func TestAutoScriptCalls(t *testing.T) {
	script := `EVAL "redis.call('SET', KEYS[1], 'v')\nredis.call('XADD', KEYS[2], '1-1', 'a', ARGV[1])\nreturn redis.call('XLEN', KEYS[2])" 2 k s 7`
	for _, lang := range []string{"en", "vi"} {
		_, a := streamAuto(t, lang, script)
		if sc, k := a.Focus(); sc != "stream" || k != "s" {
			t.Fatalf("focus %s/%s", sc, k)
		}
		run := a.Script
		if run == nil || run.Outcome != "end" || len(run.Calls) != 3 {
			t.Fatalf("script %+v", run)
		}
		for i, want := range []struct {
			line  int
			cmd   string
			reply string
		}{{1, "SET k v", "OK"}, {2, "XADD s 1-1 a 7", `"1-1"`}, {3, "XLEN s", "(integer) 1"}} {
			c := run.Calls[i]
			if c.Line != want.line || strings.Join(c.Cmd, " ") != want.cmd || replyLine(c.Reply) != want.reply {
				t.Errorf("call %d: line %d %v → %q", i, c.Line, c.Cmd, replyLine(c.Reply))
			}
		}
		d := a.Describe()
		want := `the script ran 3 commands: line 1 SET k v → OK; line 2 XADD s 1-1 a 7 → "1-1"; line 3 XLEN s → (integer) 1; drawn: s. stream s: 1 entry`
		if lang == "vi" {
			want = `script đã chạy 3 lệnh: dòng 1 SET k v → OK; dòng 2 XADD s 1-1 a 7 → "1-1"; dòng 3 XLEN s → (integer) 1; đang vẽ: s. stream s: 1 phần tử`
		}
		if !strings.HasPrefix(d, want) {
			t.Errorf("%s describe %q", lang, d)
		}
		r := Rect{0, 0, 360, 333}
		prims := a.Frame(r, 0)
		checkStage(t, prims, r)
		txt := allText(prims)
		call := "line 2: XADD s 1-1 a 7"
		if lang == "vi" {
			call = "dòng 2: XADD s 1-1 a 7"
		}
		if !strings.Contains(txt, call) || !strings.Contains(txt, "+0-0") {
			t.Errorf("%s: frame %q", lang, txt)
		}
	}
	// A plain command after it: no script panel.
	p, a := streamAuto(t, "en", script)
	p.Exec("XLEN s")
	a.Update(Input{Engine: p.Engine(), Last: lastOf(p), Lang: "en"})
	if a.Script != nil || strings.Contains(a.Describe(), "script") {
		t.Errorf("script still shown: %q", a.Describe())
	}
}
