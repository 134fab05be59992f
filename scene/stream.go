package scene

import (
	"fmt"
	"strconv"
	"strings"

	"redscope/engine"
)

// streamScene draws a stream as Redis stores it (t_stream.c): a radix tree whose keys are master
// IDs and whose values are listpacks ("nodes"). Each node's listpack starts with its master entry —
// count | deleted | num-fields | the fields | 0 — and then holds the entries as deltas from the
// master ID (flags | ms-delta | seq-delta | values … | lp-count; with flag SAMEFIELDS only the
// values, since the fields are the master's). `XADD s 1-1 a 1` makes one node of 28 bytes: the
// 6-byte header, an 11-byte master entry (1, 0, 1, "a", 0), a 10-byte entry (2, 0, 0, "1", 4) and
// the end byte. A node is closed when it holds stream-node-max-entries entries (100; live and
// deleted ones count) or the next entry would take it to stream-node-max-bytes (4096), and the next
// XADD opens a new one.
//
// The scene draws each node as a strip to the scale of its bytes — header | master | entries |
// end — the strips' widths in proportion to their nodes' sizes; under them each consumer group
// with its last-delivered-id, entries-read and pending entries list, one row of pending IDs per
// consumer with their delivery counts. The step's changes are lit: entries XADD appended, a node
// it opened (and which limit closed the previous one), entries XDEL flagged deleted, nodes XTRIM
// dropped, entries XREADGROUP delivered, XCLAIM/XAUTOCLAIM moved to another consumer, and XACK
// took out of the PEL. The state is engine.StreamView; what changed is the step's StreamEvents.
type streamScene struct {
	Key    string
	Info   engine.KeyInfo
	View   engine.StreamView
	Exists bool
	Events []engine.StreamEvent // the step's events about Key, in order
	Added  map[string]bool      // entry IDs appended by the step
	Dead   map[string]bool      // entry IDs the step flagged deleted
	Moved  map[string]string    // entry ID → consumer it was delivered / claimed to by the step
	Acked  []string             // IDs the step took out of a PEL
	Opened *engine.StreamEvent  // a node the step created
	Freed  []engine.StreamEvent // nodes the step freed
	lang   string
}

const (
	// streamNodes is how many nodes are drawn (the first ones and the last).
	streamNodes = 5
	// streamPerNode is how many entries of a node are drawn as their own cells.
	streamPerNode = 16
)

func init() { register("stream", func() Scene { return &streamScene{} }) }

// Update implements Scene.
func (s *streamScene) Update(in Input) {
	*s = streamScene{lang: in.Lang, Added: map[string]bool{}, Dead: map[string]bool{}, Moved: map[string]string{}}
	s.Key = ""
	if len(in.Keys) > 0 {
		s.Key = in.Keys[0]
	}
	if s.Key == "" {
		s.Key = focusKey(in, func(ev engine.Event) bool { _, ok := ev.(engine.StreamEvent); return ok })
	}
	if s.Key == "" {
		return
	}
	s.Info = in.Engine.Inspect(s.Key)
	s.View, s.Exists = in.Engine.StreamView(in.Engine.Peek([]byte(s.Key)))
	for _, x := range in.Last {
		for _, ev := range x.Events {
			se, ok := ev.(engine.StreamEvent)
			if !ok || se.Key != s.Key {
				continue
			}
			s.Events = append(s.Events, se)
			switch se.Action {
			case "entry-added":
				s.Added[se.ID] = true
			case "entry-deleted":
				s.Dead[se.ID] = true
			case "node-created":
				c := se
				s.Opened = &c
			case "node-deleted":
				s.Freed = append(s.Freed, se)
			case "delivered":
				s.Moved[se.ID] = se.Consumer
			case "acked":
				s.Acked = append(s.Acked, se.ID)
			}
		}
	}
}

// Focus implements Focuser.
func (s *streamScene) Focus() (string, string) { return "stream", s.Key }

// Describe implements Describer, e.g. "stream s: 5 entries in 2 nodes (master 1-1: 3 entries,
// 0 deleted, 45 B; master 1-4: 2 entries, 0 deleted, 33 B); MEMORY USAGE 8 912 B; group g:
// last-delivered-id 1-3, entries-read 3, 2 pending (alice 1, bob 1); last: 1-5 appended".
func (s *streamScene) Describe() string {
	if s.Key == "" {
		return ""
	}
	if !s.Exists {
		if !s.Info.Exists {
			return tr(s.lang, "stream %s: does not exist", "stream %s: không tồn tại", s.Key)
		}
		return tr(s.lang, "%s is a %s, not a stream", "%s là %s, không phải stream", s.Key, s.Info.Type)
	}
	v := s.View
	var nodes []string
	for _, n := range v.Nodes {
		nodes = append(nodes, tr(s.lang, "master %s: %s, %d deleted, %d B", "master %s: %s, %d đã xoá, %d B",
			n.Master, entriesWord(s.lang, int(n.Count)), n.Deleted, n.Bytes))
	}
	nodeW := tr(s.lang, "%d nodes", "%d node", len(v.Nodes))
	if len(v.Nodes) == 1 && s.lang == "en" {
		nodeW = "1 node"
	}
	out := tr(s.lang, "stream %s: %s in %s (%s); MEMORY USAGE %d B", "stream %s: %s trong %s (%s); MEMORY USAGE %d B",
		s.Key, entriesWord(s.lang, int(v.Length)), nodeW, strings.Join(nodes, "; "), s.Info.Memory)
	for _, g := range v.Groups {
		var per []string
		for _, c := range g.Consumers {
			per = append(per, fmt.Sprintf("%s %d", c.Name, len(c.Pending)))
		}
		er := strconv.FormatInt(g.EntriesRead, 10)
		if g.EntriesRead < 0 {
			er = tr(s.lang, "unknown", "không rõ")
		}
		out += tr(s.lang, "; group %s: last-delivered-id %s, entries-read %s, %d pending", "; group %s: last-delivered-id %s, entries-read %s, %d đang chờ",
			g.Name, g.LastID, er, len(g.Pending))
		if len(per) > 0 {
			out += " (" + strings.Join(per, ", ") + ")"
		}
	}
	if c := s.change(); c != "" {
		out += tr(s.lang, "; last: %s", "; vừa rồi: %s", c)
	}
	return out
}

// change says what the step did, from its events: "1-4 appended; new node (master 1-4):
// stream-node-max-entries 3 reached".
func (s *streamScene) change() string {
	var parts []string
	var added, dead, acked []string
	var moved []string
	for _, ev := range s.Events {
		switch ev.Action {
		case "entry-added":
			added = append(added, ev.ID)
		case "entry-deleted":
			dead = append(dead, ev.ID)
		case "acked":
			acked = append(acked, ev.ID)
		case "delivered":
			switch ev.Reason {
			case "claimed", "autoclaimed":
				moved = append(moved, tr(s.lang, "%s claimed by %s (delivery %d)", "%s được %s nhận lại (lần giao %d)", ev.ID, ev.Consumer, ev.Count))
			default:
				moved = append(moved, tr(s.lang, "%s delivered to %s", "%s được giao cho %s", ev.ID, ev.Consumer))
			}
		case "group-created":
			parts = append(parts, tr(s.lang, "group %s created at %s", "tạo group %s tại %s", ev.Group, ev.ID))
		case "consumer-created":
			parts = append(parts, tr(s.lang, "consumer %s created", "tạo consumer %s", ev.Consumer))
		}
	}
	if len(added) > 0 {
		parts = append(parts, tr(s.lang, "%s appended", "thêm %s", strings.Join(added, ", ")))
	}
	if s.Opened != nil {
		if s.Opened.Reason != "" {
			parts = append(parts, tr(s.lang, "new node (master %s): %s", "node mới (master %s): %s", s.Opened.Master, nodeReason(s.lang, s.Opened.Reason)))
		} else {
			parts = append(parts, tr(s.lang, "new node (master %s)", "node mới (master %s)", s.Opened.Master))
		}
	}
	if len(dead) > 0 {
		parts = append(parts, tr(s.lang, "%s flagged deleted", "%s được đánh dấu đã xoá", strings.Join(dead, ", ")))
	}
	for _, f := range s.Freed {
		parts = append(parts, tr(s.lang, "node %s freed (%d live entries)", "node %s được giải phóng (%d entry còn sống)", f.Master, f.Count))
	}
	parts = append(parts, moved...)
	if len(acked) > 0 {
		parts = append(parts, tr(s.lang, "%s acknowledged (left the PEL)", "%s đã xác nhận (rời PEL)", strings.Join(acked, ", ")))
	}
	return strings.Join(parts, "; ")
}

// nodeReason is the engine's reason for closing a node ("stream-node-max-entries 3 reached") in
// the scene's language.
func nodeReason(lang, reason string) string {
	if p, ok := strings.CutSuffix(reason, " reached"); ok && lang != "en" {
		return "đã đạt " + p
	}
	return reason
}

// streamCell is one drawn part of a node's strip.
type streamCell struct {
	X, W  float64
	Part  int // streamHdr, streamMaster, streamEntry, streamMore, streamEnd
	Bytes int
	Entry int // index into the node's Entries (streamEntry)
}

// parts of a node strip.
const (
	streamHdr = iota
	streamMaster
	streamEntry
	streamMore
	streamEnd
)

// streamStrip lays out a node's listpack across w pixels from x, to the scale of its bytes: the
// 6-byte header, the master entry, each of the first streamPerNode entries, one cell for the
// rest, the end byte. Every cell gets at least minW pixels; the cells add up to w.
func streamStrip(x, w, minW float64, n engine.StreamNodeView) []streamCell {
	cells := []streamCell{{Part: streamHdr, Bytes: 6}, {Part: streamMaster, Bytes: n.MasterBytes}}
	rest := 0
	for i, e := range n.Entries {
		if i < streamPerNode {
			cells = append(cells, streamCell{Part: streamEntry, Bytes: e.Size, Entry: i})
		} else {
			rest += e.Size
		}
	}
	if rest > 0 {
		cells = append(cells, streamCell{Part: streamMore, Bytes: rest, Entry: streamPerNode})
	}
	cells = append(cells, streamCell{Part: streamEnd, Bytes: 1})
	spreadByBytes(cells, x, w, minW, func(c *streamCell) (int, *float64, *float64) { return c.Bytes, &c.X, &c.W })
	return cells
}

// parseID splits "ms-seq".
func parseID(s string) (ms, seq uint64) {
	a, b, _ := strings.Cut(s, "-")
	ms, _ = strconv.ParseUint(a, 10, 64)
	seq, _ = strconv.ParseUint(b, 10, 64)
	return ms, seq
}

// streamDelta is how an entry's ID is stored in its node: ms and seq minus the master's, the seq
// difference signed as the listpack holds it (master 1-5, entry 2-0: "+1-(−5)").
func streamDelta(master, id string) string {
	mm, ms := parseID(master)
	im, is := parseID(id)
	if d := int64(is - ms); d < 0 {
		return fmt.Sprintf("+%d-(−%d)", im-mm, -d)
	}
	return fmt.Sprintf("+%d-%d", im-mm, is-ms)
}

// shownNodes are the indexes of the nodes drawn: all of them, or the first streamNodes-1 and the
// last (skipped = how many are left out).
func (s *streamScene) shownNodes() (idx []int, skipped int) {
	n := len(s.View.Nodes)
	if n <= streamNodes {
		for i := 0; i < n; i++ {
			idx = append(idx, i)
		}
		return idx, 0
	}
	for i := 0; i < streamNodes-1; i++ {
		idx = append(idx, i)
	}
	return append(idx, n-1), n - streamNodes
}

// streamLabel is the smallest text the stream scene draws: 11 CSS px at least.
func streamLabel(f float64) float64 { return max(f*0.75, 11) }

// streamLegend is the strip's colour key.
func (s *streamScene) streamLegend() []legendItem {
	items := []legendItem{{byteColor(byteLPHeader), "header", "header"}, {headerC, "master entry", "master entry"},
		{dataC, "SAMEFIELDS (values only)", "SAMEFIELDS (chỉ value)"}, {runC, "own fields", "field riêng"}, {panelC, "deleted", "đã xoá"}}
	for i := range items {
		if s.lang != "en" {
			items[i].en = items[i].vi
		}
	}
	return items
}

type legendItem struct {
	c      Color
	en, vi string
}

// legendRows lays the legend out in w: each item's x and row.
func legendRows(items []legendItem, x0, w, small float64) (xs []float64, rows []int) {
	x, row := x0, 0
	for _, it := range items {
		wd := small*1.2 + textWidth(it.en, small, false) + small*0.8
		if x+wd > x0+w && x > x0 {
			x, row = x0, row+1
		}
		xs, rows = append(xs, x), append(rows, row)
		x += wd
	}
	return xs, rows
}

// entryLine is one row of the entry table: how the entry is stored in its node.
func (s *streamScene) entryLine(n engine.StreamNodeView, e engine.StreamEntryView) string {
	flags := 0
	var what string
	if e.Deleted {
		flags |= 1
	}
	if e.SameFields {
		flags |= 2
	}
	var kv []string
	for i := 0; i+1 < len(e.Fields); i += 2 {
		kv = append(kv, e.Fields[i]+"="+e.Fields[i+1])
	}
	switch {
	case e.SameFields:
		what = tr(s.lang, "values only", "chỉ value")
	default:
		what = tr(s.lang, "%d own fields", "%d field riêng", len(e.Fields)/2)
	}
	flagW := fmt.Sprintf("flags %d", flags)
	if e.Deleted {
		flagW += tr(s.lang, " deleted", " đã xoá")
	}
	return fmt.Sprintf("%s: Δ %s · %s · %s · %s · %d B", e.ID, streamDelta(n.Master, e.ID), flagW, what, strings.Join(kv, " "), e.Size)
}

// detailNode is the node the step changed last, or that holds the last entry it delivered,
// claimed or acknowledged (the last node when none).
func (s *streamScene) detailNode() int {
	for i := len(s.Events) - 1; i >= 0; i-- {
		ev := s.Events[i]
		for j, n := range s.View.Nodes {
			switch ev.Action {
			case "entry-added", "entry-deleted", "node-created":
				if n.Master == ev.Master {
					return j
				}
			case "delivered", "acked":
				for _, e := range n.Entries {
					if e.ID == ev.ID {
						return j
					}
				}
			}
		}
	}
	return len(s.View.Nodes) - 1
}

// Frame implements Scene. What must be drawn — the key's line, the nodes (at least small*3.4
// high each), the groups — is laid out first; the rest goes in only when the stage has room, in
// this order: the step's change, the legend, the radix-tree line, the entry table of the node the
// step changed.
func (s *streamScene) Frame(r Rect, t float64) []Prim {
	var l list
	f, in := margins(r)
	small := streamLabel(f)
	if c, ok := s.start(); ok && len(s.Events) == 0 {
		return drawStart(r, s.lang, c)
	}
	if s.Key == "" || !s.Exists {
		msg := tr(s.lang, "No stream yet. Try XADD s * a 1.", "Chưa có stream. Thử XADD s * a 1.")
		if s.Key != "" {
			msg = s.Describe()
		}
		for i, line := range wrapMono(msg, in.W, f, 3) {
			l.text(in.X, in.Y+float64(i)*f*1.3, line, f, dim, Left, false)
		}
		return l
	}
	v := s.View
	y := in.Y
	bottom := in.Y + in.H
	// Heights of the parts.
	head := fmt.Sprintf("%s · stream · XLEN %d · MEMORY USAGE %d B", s.Key, v.Length, s.Info.Memory)
	oneLine := monoWidth(head, f) <= in.W
	headH := f*1.3 + small*1.5
	if oneLine {
		headH = f * 1.5
	}
	idx, skipped := s.shownNodes()
	rows := float64(len(idx))
	if skipped > 0 {
		rows += 0.6
	}
	rowMin := small * 3.4
	groupH := 0.0
	for _, g := range v.Groups {
		groupH += small*1.5 + float64(max(len(g.Consumers), 1))*small*1.9
		if len(s.Acked) > 0 {
			groupH += small * 1.5
		}
	}
	freedH := float64(len(s.Freed)) * small * 1.4
	change := s.change()
	changeLines := wrapMono(change, in.W, small, 2)
	if change == "" {
		changeLines = nil
	}
	legend := s.streamLegend()
	lxs, lrows := legendRows(legend, in.X, in.W, small)
	legendH := float64(lrows[len(lrows)-1]+1)*small*1.4 + small*0.2
	raxH := small * 1.5
	free := bottom - y - headH - rows*rowMin - groupH - freedH
	use := func(h float64) bool {
		if free >= h {
			free -= h
			return true
		}
		return false
	}
	if !use(float64(len(changeLines))*small*1.3 + small*0.3) {
		if len(changeLines) > 1 && use(small*1.6) {
			changeLines = wrapMono(change, in.W, small, 1)
		} else {
			changeLines = nil
		}
	}
	showLegend := use(legendH)
	showRax := use(raxH)
	dn := s.detailNode()
	var table []string
	if dn >= 0 {
		n := v.Nodes[dn]
		want := min(len(n.Entries), 8)
		for want > 0 && !use(small*1.5+float64(want)*small*1.35+small*0.4) {
			want--
		}
		if want > 0 {
			// the last entries of the node (the ones an XADD appended)
			for _, e := range n.Entries[len(n.Entries)-want:] {
				table = append(table, s.entryLine(n, e))
			}
		}
	}
	rowH := min(rowMin+free/max(rows, 1), f*5)

	if oneLine {
		l.text(in.X, y, head, f, textColor, Left, true)
		y += f * 1.5
	} else {
		l.text(in.X, y, clipTo(s.Key+" · stream", in.W, f), f, textColor, Left, true)
		y += f * 1.3
		l.text(in.X, y, clipTo(fmt.Sprintf("XLEN %d · MEMORY USAGE %d B", v.Length, s.Info.Memory), in.W, small), small, dim, Left, true)
		y += small * 1.5
	}
	if showRax {
		rax := tr(s.lang, "radix tree: %s, %s · last ID %s", "radix tree: %s, %s · ID cuối %s",
			trPlural(s.lang, int64(len(v.Nodes)), "key", "keys", "khoá"), trPlural(s.lang, int64(v.RaxNodes), "rax node", "rax nodes", "node rax"), v.LastID)
		l.text(in.X, y, clipTo(rax, in.W, small), small, dim, Left, true)
		y += raxH
	}
	// The nodes, one strip each, stacked; widths to the scale of their bytes.
	maxB := 1
	for _, i := range idx {
		maxB = max(maxB, v.Nodes[i].Bytes)
	}
	stripH := rowH - small*1.6
	for k, ni := range idx {
		if skipped > 0 && k == len(idx)-1 {
			l.text(in.X, y, tr(s.lang, "… %d nodes …", "… %d node …", skipped), small, dim, Left, false)
			y += rowMin * 0.6
		}
		n := v.Nodes[ni]
		opened := s.Opened != nil && s.Opened.Master == n.Master
		cap := fmt.Sprintf("master %s · count %d · deleted %d · %d B", n.Master, n.Count, n.Deleted, n.Bytes)
		if monoWidth(cap, small) > in.W {
			cap = fmt.Sprintf("%s · %d/%d · %d B", n.Master, n.Count, n.Deleted, n.Bytes)
		}
		capC := dim
		if opened {
			capC = accent
			cap = tr(s.lang, "new · ", "mới · ") + cap
		}
		l.text(in.X, y, clipTo(cap, in.W, small), small, capC, Left, true)
		sy := y + small*1.35
		w := in.W * max(float64(n.Bytes)/float64(maxB), 0.4)
		if opened {
			l.frame(in.X, sy-2, w, stripH+4, 2, accent.alpha(pulseAt(t)))
		}
		s.frameStrip(&l, in.X, sy, w, stripH, n, small, t)
		y += rowH
	}
	// Freed nodes: a ghost line.
	for _, fr := range s.Freed {
		txt := tr(s.lang, "× node %s freed (%d live entries)", "× node %s đã giải phóng (%d entry còn sống)", fr.Master, fr.Count)
		l.text(in.X, y, clipTo(txt, in.W, small), small, textColor.mix(accent, pulseAt(t)), Left, true)
		y += small * 1.4
	}
	if len(table) > 0 {
		n := v.Nodes[dn]
		l.text(in.X, y, clipTo(tr(s.lang, "node %s: entries as stored, Δ = ID − master", "node %s: entry như được lưu, Δ = ID − master", n.Master), in.W, small), small, dim, Left, false)
		y += small * 1.5
		for i, line := range table {
			e := n.Entries[len(n.Entries)-len(table)+i]
			c := textColor
			if s.Added[e.ID] || s.Dead[e.ID] || s.Moved[e.ID] != "" {
				c = accent
			}
			l.text(in.X, y, clipTo(line, in.W, small), small, c, Left, true)
			y += small * 1.35
		}
		y += small * 0.4
	}
	if showLegend {
		for i, it := range legend {
			ly := y + float64(lrows[i])*small*1.4
			l.rect(lxs[i], ly+small*0.15, small*0.9, small*0.9, it.c)
			l.text(lxs[i]+small*1.2, ly, it.en, small, dim, Left, false)
		}
		y += legendH
	}
	// What the step did.
	if len(changeLines) > 0 {
		for _, line := range changeLines {
			l.text(in.X, y, line, small, accent, Left, true)
			y += small * 1.3
		}
		y += small * 0.3
	}
	// Consumer groups and their PELs.
	for _, g := range v.Groups {
		er := strconv.FormatInt(g.EntriesRead, 10)
		if g.EntriesRead < 0 {
			er = "?"
		}
		gh := fmt.Sprintf("group %s · last-delivered-id %s · entries-read %s · PEL %d", g.Name, g.LastID, er, len(g.Pending))
		if monoWidth(gh, small) > in.W {
			gh = fmt.Sprintf("%s · last-delivered-id %s · PEL %d", g.Name, g.LastID, len(g.Pending))
		}
		l.text(in.X, y, clipTo(gh, in.W, small), small, textColor, Left, true)
		y += small * 1.5
		count := map[string]uint64{}
		for _, p := range g.Pending {
			count[p.ID] = p.DeliveryCount
		}
		for _, c := range g.Consumers {
			name := clip(c.Name, 10) + ":"
			l.text(in.X, y+small*0.25, name, small, dim, Left, true)
			cx := in.X + monoWidth(name+" ", small)
			for i, id := range c.Pending {
				chip := fmt.Sprintf("%s ×%d", id, count[id])
				cw := monoWidth(chip, small) + small*0.8
				more := fmt.Sprintf("+%d", len(c.Pending)-i)
				if cx+cw > in.X+in.W || (i < len(c.Pending)-1 && cx+cw+small*0.4+monoWidth(more, small) > in.X+in.W && cx+cw > in.X+in.W-monoWidth(more, small)) {
					l.text(cx, y+small*0.25, more, small, dim, Left, true)
					break
				}
				fill := panelC
				tc := textColor
				if s.Moved[id] == c.Name {
					fill = accent.mix(panelC, 1-pulseAt(t))
					tc = textOn(fill)
				}
				l.rect(cx, y, cw, small*1.5, fill)
				l.frame(cx, y, cw, small*1.5, 1, grid)
				l.text(cx+small*0.4, y+small*0.25, chip, small, tc, Left, true)
				cx += cw + small*0.4
			}
			if len(c.Pending) == 0 {
				l.text(cx, y+small*0.25, clipTo(tr(s.lang, "(nothing pending)", "(không có gì chờ)"), in.X+in.W-cx, small), small, dim, Left, true)
			}
			y += small * 1.9
		}
		if len(s.Acked) > 0 {
			txt := tr(s.lang, "XACK %s: out of the PEL", "XACK %s: rời PEL", strings.Join(s.Acked, ", "))
			l.text(in.X, y, clipTo(txt, in.W, small), small, textColor.mix(accent, pulseAt(t)), Left, true)
			y += small * 1.5
		}
	}
	return l
}

// frameStrip draws one node's listpack as cells.
func (s *streamScene) frameStrip(l *list, x, y, w, h float64, n engine.StreamNodeView, small, t float64) {
	cells := streamStrip(x, w, small*0.8, n)
	for _, c := range cells {
		var fill Color
		txt := ""
		switch c.Part {
		case streamHdr:
			fill = byteColor(byteLPHeader)
			txt = "hdr"
		case streamMaster:
			fill = headerC
			txt = "master " + strings.Join(n.Fields, ",")
		case streamEnd:
			fill = byteColor(byteEOF)
		case streamMore:
			fill = panelC
			txt = "+" + strconv.Itoa(len(n.Entries)-streamPerNode)
		case streamEntry:
			e := n.Entries[c.Entry]
			fill = runC
			if e.SameFields {
				fill = dataC
			}
			txt = streamDelta(n.Master, e.ID)
			if e.Deleted {
				fill = panelC
			}
			if s.Added[e.ID] || s.Dead[e.ID] {
				fill = accent.mix(fill, 1-pulseAt(t))
			}
		}
		l.rect(c.X, y, max(c.W-1, 1), h, fill)
		if c.Part == streamEntry && n.Entries[c.Entry].Deleted {
			l.line(c.X+2, y+h-2, c.X+c.W-3, y+2, 1.5, ErrorC)
		}
		if txt != "" {
			fit := clipTo(txt, c.W-3, small)
			if c.Part != streamMaster && c.Part != streamEntry && fit != txt {
				fit = ""
			}
			if c.Part == streamEntry && fit != txt {
				fit = ""
			}
			if fit != "" {
				l.text(c.X+c.W/2, y+h/2-small*0.6, fit, small, textOn(fill), Center, true)
			}
		}
	}
}
