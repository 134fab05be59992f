package scene

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"redscope/engine"
	"redscope/lesson"
)

func listInput(t *testing.T, v engine.Version, lang string, keys []string, lines ...string) (Input, *lesson.Player) {
	t.Helper()
	p := lesson.NewPlayer(lesson.Config{Version: v})
	for _, l := range lines {
		if x := p.Exec(l); x.Error {
			t.Fatalf("%s: %s", l, x.Reply)
		}
	}
	return Input{Engine: p.Engine(), Keys: keys, Last: lastOf(p)[len(lastOf(p))-1:], Lang: lang}, p
}

// TestListStrip: a node's strip is to the scale of its bytes and always fills its width.
func TestListStrip(t *testing.T) {
	n := engine.ListNode{Bytes: 16, Count: 3, Entries: []engine.ListEntry{{Value: "a", Size: 3}, {Value: "b", Size: 3}, {Value: "c", Size: 3}}}
	cells := listStrip(10, 160, 0, n)
	want := []float64{60, 30, 30, 30, 10} // 6 + 3 + 3 + 3 + 1 bytes of 16 over 160 px
	if len(cells) != len(want) {
		t.Fatalf("cells %+v", cells)
	}
	x := 10.0
	for i, c := range cells {
		if math.Abs(c.W-want[i]) > 1e-9 || math.Abs(c.X-x) > 1e-9 {
			t.Errorf("cell %d: x %v w %v, want x %v w %v", i, c.X, c.W, x, want[i])
		}
		x += c.W
	}
	if cells[0].Kind != listHdr || cells[4].Kind != listEnd || cells[1].Text != "a" {
		t.Errorf("kinds %+v", cells)
	}
	// A minimum width keeps the end byte visible and the total unchanged.
	cells = listStrip(0, 160, 8, n)
	sum := 0.0
	for _, c := range cells {
		sum += c.W
	}
	if math.Abs(sum-160) > 1e-9 || cells[4].W < 8 {
		t.Errorf("min width: sum %v end %v", sum, cells[4].W)
	}
	// Entries not drawn are one cell with their bytes and count.
	n = engine.ListNode{Bytes: 6 + 20*3 + 1, Count: 20}
	for i := 0; i < listPerNode; i++ {
		n.Entries = append(n.Entries, engine.ListEntry{Value: "x", Size: 3})
	}
	cells = listStrip(0, 670, 0, n)
	more := cells[len(cells)-2]
	if more.Kind != listMore || more.Bytes != 8*3 || more.Text != "+8" || math.Abs(more.W-240) > 1e-9 {
		t.Errorf("more cell %+v", more)
	}
}

func TestListNodeRects(t *testing.T) {
	xs, bw := listNodeRects(0, 300, 10, 1000, 3)
	if math.Abs(bw-280.0/3) > 1e-9 || len(xs) != 3 || math.Abs(xs[2]-(2*(bw+10))) > 1e-9 {
		t.Errorf("xs %v bw %v", xs, bw)
	}
	// Capped boxes are centred.
	xs, bw = listNodeRects(0, 300, 10, 50, 2)
	if bw != 50 || xs[0] != 95 || xs[1] != 155 {
		t.Errorf("centred xs %v bw %v", xs, bw)
	}
	if xs, _ := listNodeRects(0, 300, 10, 50, 0); xs != nil {
		t.Errorf("no nodes: %v", xs)
	}
}

// TestListScene70: on 7.0 a list is a quicklist; the nodes, their listpacks and bytes come from the
// engine, and the text alternative states them in both languages.
func TestListScene70(t *testing.T) {
	in, p := listInput(t, engine.V70, "en", []string{"jobs"}, "CONFIG SET list-max-listpack-size 2", "RPUSH jobs a b c d e")
	s := &listScene{}
	s.Update(in)
	ls := s.Lists[0]
	if !ls.View.Quicklist || ls.View.NodeCount != 3 || ls.View.Len != 5 || ls.PushT != 5 {
		t.Fatalf("view %+v pushT %d", ls.View, ls.PushT)
	}
	sizes := []int{}
	for _, n := range ls.View.Nodes {
		sizes = append(sizes, n.Bytes)
	}
	// 6 header + 3 per one-letter entry + 1 end.
	if fmt.Sprint(sizes) != "[13 13 10]" {
		t.Fatalf("node bytes %v", sizes)
	}
	mem := p.Key("jobs").Memory
	if d, want := s.Describe(), fmt.Sprintf("list jobs: quicklist, 3 nodes (listpack 2 entries 13 B; 2 entries 13 B; 1 entry 10 B); MEMORY USAGE %d B; last: \"e\" pushed at the tail of jobs", mem); d != want {
		t.Errorf("en:\n got %q\nwant %q", d, want)
	}
	in.Lang = "vi"
	s.Update(in)
	if d, want := s.Describe(), fmt.Sprintf("list jobs: quicklist, 3 node (listpack 2 phần tử 13 B; 2 phần tử 13 B; 1 phần tử 10 B); MEMORY USAGE %d B; vừa rồi: \"e\" được đẩy vào đuôi của jobs", mem); d != want {
		t.Errorf("vi:\n got %q\nwant %q", d, want)
	}
	// Three node boxes, head and tail labelled, every pushed entry lit.
	in.Lang = "en"
	s.Update(in)
	frames, lit := 0, 0
	var head, tail bool
	for _, pr := range s.Frame(Rect{0, 0, 820, 720}, 0) {
		switch {
		case pr.Kind == KFrame:
			frames++
		case pr.Kind == KText && pr.Text == "head":
			head = true
		case pr.Kind == KText && pr.Text == "tail":
			tail = true
		case pr.Kind == KRect && pr.Color == accent && pr.H > 20: // strip cells, not the legend's swatch
			lit++
		}
	}
	if frames != 3 || !head || !tail || lit != 5 {
		t.Errorf("frames %d head %v tail %v lit %d", frames, head, tail, lit)
	}
}

// TestListSceneListpack: from 7.2 a small list is one listpack; LPOP flies out of the head.
func TestListSceneListpack(t *testing.T) {
	in, p := listInput(t, engine.V88, "en", []string{"q"}, "RPUSH q job1 job2 job3", "LPOP q")
	s := &listScene{}
	s.Update(in)
	ls := s.Lists[0]
	if ls.View.Quicklist || ls.View.Len != 2 || len(ls.Popped) != 1 || ls.Popped[0] != "job1" || !ls.PopH {
		t.Fatalf("%+v", ls)
	}
	// "job2" is 1 + 4 + 1 bytes: 6 + 6 + 6 + 1.
	if ls.View.Nodes[0].Bytes != 19 {
		t.Fatalf("bytes %d", ls.View.Nodes[0].Bytes)
	}
	mem := p.Key("q").Memory
	if d, want := s.Describe(), fmt.Sprintf("list q: listpack, 2 entries, 19 B; MEMORY USAGE %d B; last: \"job1\" popped from the head of q", mem); d != want {
		t.Errorf("got %q want %q", d, want)
	}
	var flew bool
	for _, pr := range s.Frame(Rect{0, 0, 820, 720}, 0) {
		if pr.Kind == KText && pr.Text == "← job1" {
			flew = true
		}
	}
	if !flew {
		t.Error("the popped element is not drawn at the head")
	}
	// LSET, LINSERT and LREM redraw the nodes from the engine.
	for _, c := range []struct{ line, want, edit string }{
		{"LSET q 0 x", "[x job3]", "listpack: replace at byte 6: +3 B −6 B, memmove 7 B"},
		{"LINSERT q BEFORE job3 y", "[x y job3]", "listpack: insert at byte 9: +3 B, memmove 7 B"},
		{"LREM q 1 y", "[x job3]", "listpack: delete at byte 9: −3 B, memmove 7 B"},
	} {
		p.Exec(c.line)
		s.Update(Input{Engine: p.Engine(), Keys: []string{"q"}, Last: lastOf(p)[len(lastOf(p))-1:], Lang: "en"})
		var got []string
		for _, e := range s.Lists[0].View.Nodes[0].Entries {
			got = append(got, e.Value)
		}
		if fmt.Sprint(got) != c.want {
			t.Errorf("%s: %v, want %s", c.line, got, c.want)
		}
		if e := s.Lists[0].Edit; e == nil || e.text("en") != c.edit {
			t.Errorf("%s: edit %+v, want %q", c.line, e, c.edit)
		}
	}
}

// TestListSceneLong: a long quicklist draws its first nodes, a gap and its tail node.
func TestListSceneLong(t *testing.T) {
	args := []string{"RPUSH", "big"}
	for i := 0; i < 100; i++ {
		args = append(args, fmt.Sprintf("e%d", i))
	}
	in, _ := listInput(t, engine.V70, "en", []string{"big"}, "CONFIG SET list-max-listpack-size 4", strings.Join(args, " "))
	s := &listScene{}
	s.Update(in)
	v := s.Lists[0].View
	if v.NodeCount != 25 || len(v.Nodes) != listNodes || v.Skipped != 25-listNodes {
		t.Fatalf("nodes %d drawn %d skipped %d", v.NodeCount, len(v.Nodes), v.Skipped)
	}
	if last := v.Nodes[len(v.Nodes)-1].Entries; last[len(last)-1].Value != "e99" {
		t.Fatalf("tail node %+v", last)
	}
	var gap bool
	for _, pr := range s.Frame(Rect{0, 0, 1460, 1080}, 1) {
		if pr.Kind == KText && pr.Text == fmt.Sprintf("… %d nodes …", v.Skipped) {
			gap = true
		}
	}
	if !gap {
		t.Error("no gap for the skipped nodes")
	}
}

// TestListBytes: the byte row is the listpack as stored: header (total bytes, count), each
// entry's encoding byte, data and backlen, the end byte.
func TestListBytes(t *testing.T) {
	in, _ := listInput(t, engine.V70, "en", []string{"l"}, "RPUSH l a 42")
	v, _ := in.Engine.PeekList([]byte("l"), listPerNode, listNodes)
	bs, complete := listBytes(v.Nodes[0])
	var hex, parts []string
	for _, b := range bs {
		hex = append(hex, fmt.Sprintf("%02x", b.B))
		parts = append(parts, fmt.Sprint(b.Part))
	}
	// 12 bytes: 0c 00 00 00 | 02 00 | 81 'a' 02 | 2a 01 | ff
	if got := strings.Join(hex, " "); got != "0c 00 00 00 02 00 81 61 02 2a 01 ff" || !complete {
		t.Fatalf("bytes %s complete %v", got, complete)
	}
	want := fmt.Sprint([]int{listHdr, listHdr, listHdr, listHdr, listHdr, listHdr, listEnc, listEntry, listBack, listEnc, listBack, listEnd})
	if got := "[" + strings.Join(parts, " ") + "]"; got != want {
		t.Fatalf("parts %s, want %s", got, want)
	}
	if e := v.Nodes[0].Entries[1]; e.Enc != "7bit-uint" || !e.Int || e.Size != 2 {
		t.Fatalf("42: %+v", e)
	}
}
