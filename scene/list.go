package scene

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"redscope/engine"
)

// listScene draws lists as Redis stores them. In 7.0 every list is a quicklist: a doubly linked
// list of nodes, each node a listpack of its own (header 6 bytes: total bytes and entry count; the
// entries; the end byte 0xFF), so RPUSH jobs a b c on an empty key makes one node of 6 + 3×3 + 1 =
// 16 bytes ("a" is one encoding byte, one data byte and one backlen byte). From 7.2 a small list is
// a single listpack with no quicklist around it, and becomes a quicklist when it outgrows
// list-max-listpack-size (-2: 8 KiB per node). The scene draws each node as a strip to the scale of
// its own bytes — header | entries | end — with head at the left and tail at the right; the
// elements the last command pushed are lit, the ones it popped fly out of their end, and
// LMOVE/RPOPLPUSH draws its source above its destination with the element moving between them.
// Everything comes from the engine: PeekList for the nodes, ListEvent for what moved, EncodingEvent
// for a listpack ↔ quicklist conversion.
type listScene struct {
	Lists []listShow // at most listMax: Input.Keys, a source before its destination
	focus string     // Input.Keys[0]
	Moves []engine.ListEvent
	Conv  *engine.EncodingEvent
	// Waiting: the clients blocked on each drawn key (engine.Waiters, serving order), so that a
	// worker waiting in BRPOP on an empty queue is in the picture.
	Waiting map[string][]engine.Waiter
	// Clients: the cards under the lists (list_clients.go).
	Clients []listClient
	now     int64
	watch   []string
	lang    string
	fit     fitter // the zoom that fills the stage (layout.go)
}

// listShow is one list key with its nodes.
type listShow struct {
	Key    string
	Info   engine.KeyInfo
	View   engine.ListView
	PushH  int      // elements the step pushed at the head (still there)
	PushT  int      // … at the tail
	Popped []string // elements the step popped, in order
	PopH   bool     // the last pop was at the head
	Edit   *listEdit
}

// listEdit is the last byte-level change the step made inside one of the list's listpacks (a
// listpack-encoded list's ListpackEvent, or a quicklist node's QuicklistEvent).
type listEdit struct {
	Op                     string // "insert", "replace", "delete", "delete-range", "truncate"; or a quicklist node op: "node-new", "node-del", "split", "merge"
	Offset, Added, Removed int
	Moved                  int
	Packed                 bool // Offset is within the list's only listpack (listpack encoding)
	NodeBytes, NodeElems   int  // the quicklist node after the change
}

const (
	// listMax is how many lists the scene draws (LMOVE's source and destination).
	listMax = 2
	// listPerNode is how many entries of a node are drawn.
	listPerNode = 12
	// listNodes is how many nodes are drawn (the first ones and the tail).
	listNodes = 6
)

func init() { register("list", func() Scene { return &listScene{} }) }

// Update implements Scene.
func (s *listScene) Update(in Input) {
	*s = listScene{lang: in.Lang, watch: in.Keys, Waiting: map[string][]engine.Waiter{}}
	keys := in.Keys
	for _, k := range in.Keys {
		if w := in.Engine.Waiters(k); len(w) > 0 {
			s.Waiting[k] = w
		}
	}
	s.gatherClients(in)
	if len(keys) == 0 {
		if k := focusKey(in, nil); k != "" {
			keys = []string{k}
		}
	}
	for _, x := range in.Last {
		for _, ev := range x.Events {
			switch ev := ev.(type) {
			case engine.ListEvent:
				s.Moves = append(s.Moves, ev)
			case engine.EncodingEvent:
				if ev.From == "quicklist" || ev.To == "quicklist" {
					c := ev
					s.Conv = &c
				}
			}
		}
	}
	if len(keys) > 0 {
		s.focus = keys[0]
	}
	for _, k := range keys {
		if len(s.Lists) == listMax {
			break
		}
		ls := listShow{Key: k, Info: in.Engine.Inspect(k)}
		ls.View, _ = in.Engine.PeekList([]byte(k), listPerNode, listNodes)
		for _, x := range in.Last {
			for _, ev := range x.Events {
				switch ev := ev.(type) {
				case engine.ListpackEvent:
					if ev.Key == k {
						ls.Edit = &listEdit{Op: ev.Op, Offset: ev.Offset, Added: ev.Added, Removed: ev.Removed, Moved: ev.Moved, Packed: true}
					}
				case engine.QuicklistEvent:
					if ev.Key == k {
						ls.Edit = &listEdit{Op: ev.Op, Offset: ev.Change.Offset, Added: ev.Change.Added, Removed: ev.Change.Removed,
							Moved: ev.Change.Moved, NodeBytes: ev.NodeBytes, NodeElems: ev.NodeElems}
						if ev.Op == "listpack" {
							ls.Edit.Op = ev.Change.Kind.String()
						}
					}
				}
			}
		}
		for _, m := range s.Moves {
			if m.Key != k {
				continue
			}
			switch {
			case m.Op == "push" && m.Head:
				ls.PushH++
			case m.Op == "push":
				ls.PushT++
			case m.Op == "pop":
				ls.Popped = append(ls.Popped, m.Value)
				ls.PopH = m.Head
				// A pop takes back a push made at the same end in this step.
				if m.Head && ls.PushH > 0 {
					ls.PushH--
				} else if !m.Head && ls.PushT > 0 {
					ls.PushT--
				}
			}
		}
		ls.PushH, ls.PushT = min(ls.PushH, ls.View.Len), min(ls.PushT, ls.View.Len)
		s.Lists = append(s.Lists, ls)
	}
	// LMOVE: the list popped first is drawn above the one pushed.
	if len(s.Lists) == 2 && len(s.Moves) > 0 && s.Moves[0].Op == "pop" && s.Moves[0].Key == s.Lists[1].Key {
		s.Lists[0], s.Lists[1] = s.Lists[1], s.Lists[0]
	}
}

// Focus implements Focuser: the list the command was about (LMOVE's destination).
func (s *listScene) Focus() (string, string) { return "list", s.focus }

// Describe implements Describer, e.g. "list jobs: quicklist, 2 nodes (listpack 3 entries 24 B;
// 5 entries 41 B)".
func (s *listScene) Describe() string {
	var parts []string
	for _, ls := range s.Lists {
		parts = append(parts, ls.describe(s.lang))
	}
	if len(s.Moves) > 0 {
		m := s.Moves[len(s.Moves)-1]
		end := tr(s.lang, "tail", "đuôi")
		if m.Head {
			end = tr(s.lang, "head", "đầu")
		}
		if m.Op == "push" {
			parts = append(parts, tr(s.lang, "last: %q pushed at the %s of %s", "vừa rồi: %q được đẩy vào %s của %s", m.Value, end, m.Key))
		} else {
			parts = append(parts, tr(s.lang, "last: %q popped from the %s of %s", "vừa rồi: %q được lấy ra từ %s của %s", m.Value, end, m.Key))
		}
	}
	if s.Conv != nil {
		parts = append(parts, tr(s.lang, "converted %s → %s", "chuyển %s → %s", s.Conv.From, s.Conv.To))
	}
	if len(s.Clients) > 0 {
		parts = append(parts, s.describeClients())
	}
	return strings.Join(parts, "; ")
}

func (ls listShow) describe(lang string) string {
	if !ls.Info.Exists {
		return tr(lang, "list %s: does not exist", "list %s: không tồn tại", ls.Key)
	}
	if ls.Info.Type != "list" {
		return tr(lang, "%s is a %s, not a list", "%s là %s, không phải list", ls.Key, ls.Info.Type)
	}
	v := ls.View
	if !v.Quicklist {
		n := ls.nodes()[0]
		return tr(lang, "list %s: listpack, %s, %d B; MEMORY USAGE %d B", "list %s: listpack, %s, %d B; MEMORY USAGE %d B",
			ls.Key, entriesWord(lang, n.Count), n.Bytes, ls.Info.Memory)
	}
	var nodes []string
	for i, n := range v.Nodes {
		w := ""
		if i == 0 {
			w = "listpack "
		}
		if n.Plain {
			nodes = append(nodes, tr(lang, "plain %d B", "plain %d B", n.Bytes))
			continue
		}
		nodes = append(nodes, fmt.Sprintf("%s%s %d B", w, entriesWord(lang, n.Count), n.Bytes))
	}
	more := ""
	if v.Skipped > 0 {
		more = tr(lang, "; … %d more", "; … thêm %d", v.Skipped)
	}
	nodeW := tr(lang, "%d nodes", "%d node", v.NodeCount)
	if v.NodeCount == 1 && lang == "en" {
		nodeW = "1 node"
	}
	return tr(lang, "list %s: quicklist, %s (%s%s); MEMORY USAGE %d B", "list %s: quicklist, %s (%s%s); MEMORY USAGE %d B",
		ls.Key, nodeW, strings.Join(nodes, "; "), more, ls.Info.Memory)
}

func entriesWord(lang string, n int) string {
	if lang != "en" {
		return strconv.Itoa(n) + " phần tử"
	}
	if n == 1 {
		return "1 entry"
	}
	return strconv.Itoa(n) + " entries"
}

func (ls listShow) nodes() []engine.ListNode { return ls.View.Nodes }

// listCell is one drawn part of a node's strip.
type listCell struct {
	X, W   float64
	Offset int    // an entry's byte offset in the listpack
	Kind   int    // listHdr, listEntry, listMore, listEnd
	Bytes  int    // bytes the part stands for
	Text   string // the element (entries)
	Lit    bool   // pushed by the step
}

// parts of a node strip.
const (
	listHdr = iota
	listEntry
	listMore // the entries not drawn, as one cell
	listEnd
)

// listStrip lays out one packed node's listpack across w pixels from x, to the scale of its
// bytes: the 6-byte header, each drawn entry, one cell for the entries not drawn, the end byte.
// Every cell gets at least minW pixels (the end byte would otherwise vanish); the others share
// what is left in proportion to their bytes, so the cells always add up to w.
func listStrip(x, w, minW float64, n engine.ListNode) []listCell {
	cells := []listCell{{Kind: listHdr, Bytes: 6, Text: "hdr"}}
	rest := n.Bytes - 7
	for _, e := range n.Entries {
		cells = append(cells, listCell{Kind: listEntry, Bytes: e.Size, Text: e.Value, Offset: e.Offset})
		rest -= e.Size
	}
	if len(n.Entries) < n.Count && rest > 0 {
		cells = append(cells, listCell{Kind: listMore, Bytes: rest, Text: "+" + strconv.Itoa(n.Count-len(n.Entries))})
	}
	cells = append(cells, listCell{Kind: listEnd, Bytes: 1, Text: "ff"})
	spreadByBytes(cells, x, w, minW, func(c *listCell) (int, *float64, *float64) { return c.Bytes, &c.X, &c.W })
	return cells
}

// listNodeRects lays out n node boxes in a row of width w starting at x, gap pixels apart, each
// at most maxW wide, centred.
func listNodeRects(x, w, gap, maxW float64, n int) (xs []float64, bw float64) {
	if n <= 0 {
		return nil, 0
	}
	bw = math.Min(maxW, (w-gap*float64(n-1))/float64(n))
	used := bw*float64(n) + gap*float64(n-1)
	x0 := x + (w-used)/2
	for i := 0; i < n; i++ {
		xs = append(xs, x0+float64(i)*(bw+gap))
	}
	return xs, bw
}

// listAnchor is where a drawn list's ends are, for LMOVE's arrow.
type listAnchor struct{ headX, tailX, top, bottom float64 } // bottom: below the row's drawing; top: the row's top

// Frame implements Scene.
func (s *listScene) Frame(r Rect, t float64) []Prim {
	return s.fit.framed(r, t, s.lang, s.start, s.layout)
}

// layout lays the scene out in r (Frame zooms it to fill the stage).
func (s *listScene) layout(r Rect, t float64) []Prim {
	var l list
	f, in := margins(r)
	if len(s.Lists) == 0 {
		l.text(in.X, in.Y, tr(s.lang, "No list yet. Try RPUSH jobs a b c.", "Chưa có list. Thử RPUSH jobs a b c."), f, dim, Left, false)
		return l
	}
	gap := 0.0
	if len(s.Lists) == 2 {
		gap = f * 2.2 // room for LMOVE's arrow
	}
	small := listLabel(f)
	lane := 0.0
	if len(s.Clients) > 0 {
		lane = clientLaneH(small) + f*1.2 // the cards and room for their lines
	}
	rowH := (in.H - gap - lane) / float64(len(s.Lists))
	var anchors []listAnchor
	byKey := map[string]listAnchor{}
	for i, ls := range s.Lists {
		row := Rect{in.X, in.Y + float64(i)*(rowH+gap), in.W, rowH}
		a := s.frameList(&l, row, ls, f, t)
		anchors = append(anchors, a)
		byKey[ls.Key] = a
	}
	if lane > 0 {
		// Under the lists' drawing, however far down it reached.
		// Right under the lists' drawing, never over it: compact cards when the stage is short.
		bottom := in.Y
		for _, a := range anchors {
			bottom = max(bottom, a.bottom)
		}
		top := bottom + f*1.2
		if in.Y+in.H-top < clientLaneH(small) {
			top = max(bottom+small*0.4, in.Y+in.H-clientLaneH(small))
		}
		s.frameClients(&l, Rect{in.X, top, in.W, in.Y + in.H - top}, byKey, f, small, t)
	}
	// LMOVE: the element travels from the end it left to the end it entered.
	if len(anchors) == 2 && len(s.Lists[0].Popped) > 0 && s.Lists[1].PushH+s.Lists[1].PushT > 0 {
		src, dst := anchors[0], anchors[1]
		x0, x1 := src.tailX, dst.tailX
		if s.Lists[0].PopH {
			x0 = src.headX
		}
		if s.Lists[1].PushH > 0 {
			x1 = dst.headX
		}
		c := accent.alpha(pulseAt(t))
		y0, y1 := src.bottom, dst.top-f*0.2
		l.line(x0, y0, x1, y1, 2, c)
		v := clip(s.Lists[0].Popped[len(s.Lists[0].Popped)-1], 16)
		sz := max(f*0.8, 11)
		l.text((x0+x1)/2, (y0+y1)/2-sz*1.3, "LMOVE "+v, sz, accent, Center, true)
	}
	return l
}

// listLabel is the smallest text the list scene draws: 11 CSS px at least (a phone's stage).
func listLabel(f float64) float64 { return max(f*0.75, 11) }

func (s *listScene) frameList(l *list, r Rect, ls listShow, f, t float64) listAnchor {
	y := r.Y
	small := listLabel(f)
	compact := r.W < 560
	name := ls.Key
	var figures string
	switch {
	case !ls.Info.Exists:
		name += tr(s.lang, " — does not exist", " — không tồn tại")
	case ls.Info.Type != "list":
		name += " — " + ls.Info.Type
	default:
		name += " · " + ls.Info.Encoding
		figures = fmt.Sprintf("LLEN %d · MEMORY USAGE %d B", ls.View.Len, ls.Info.Memory)
	}
	if figures != "" && monoWidth(name+" · "+figures, f) <= r.W {
		l.text(r.X, y, name+" · "+figures, f, textColor, Left, true)
		y += f * 1.5
	} else {
		l.text(r.X, y, clipTo(name, r.W, f), f, textColor, Left, true)
		y += f * 1.3
		if figures != "" {
			l.text(r.X, y, clipTo(figures, r.W, small), small, dim, Left, true)
			y += small * 1.5
		}
	}
	if !ls.Info.Exists || ls.Info.Type != "list" {
		if len(ls.Popped) > 0 {
			l.text(r.X, y, clipTo(tr(s.lang, "popped: %s (the last element: the key is deleted)", "đã lấy ra: %s (phần tử cuối: khoá bị xoá)", strings.Join(ls.Popped, ", ")), r.W, small), small, accent, Left, true)
			y += small * 1.5
		}
		if ls.Info.Exists {
			return listAnchor{r.X, r.X + r.W, y, y + f}
		}
		// No key: the empty place the list would take, so the picture shows the empty queue.
		bh := min(f*3.2, max(r.Y+r.H-y-small, f*1.6))
		bw := min(r.W, f*26)
		l.frame(r.X, y, bw, bh, 1.5, grid)
		lines := wrapMono(tr(s.lang, "empty: a list with no elements is no key at all", "trống: list không còn phần tử thì không còn key"), bw-small, small, 2)
		ty := y + bh/2 - float64(len(lines))*small*0.65
		for _, line := range lines {
			l.text(r.X+bw/2, ty, line, small, dim, Center, true)
			ty += small * 1.3
		}
		return listAnchor{r.X + small, r.X + bw - small, y, y + bh}
	}
	v := ls.View
	popped := ""
	if len(ls.Popped) > 0 {
		popped = clip(ls.Popped[len(ls.Popped)-1], 10)
	}
	// head and tail: beside the strip, or above it on a narrow stage
	pad := 0.0
	if !compact {
		pad = min(max(f*3.2, monoWidth("← "+popped, small)+f*0.5), r.W*0.15)
	} else {
		l.text(r.X, y, tr(s.lang, "head", "đầu"), small, dim, Left, false)
		l.text(r.X+r.W, y, tr(s.lang, "tail", "đuôi"), small, dim, Right, false)
		if popped != "" {
			pc := dim.mix(accent, pulseAt(t)) // settles readable (contrast ≥ 4.5:1), not transparent
			if ls.PopH {
				l.text(r.X+monoWidth("head ", small)+f*0.3, y, "← "+popped, small, pc, Left, true)
			} else {
				l.text(r.X+r.W-monoWidth("tail ", small)-f*0.3, y, popped+" →", small, pc, Right, true)
			}
		}
		y += small * 1.4
	}
	notes := 0
	if ls.Edit != nil || ls.PushH+ls.PushT > 0 {
		notes++
	}
	if s.Conv != nil && s.Conv.Key == ls.Key {
		notes++
	}
	avail := r.Y + r.H - y - float64(notes)*small*1.4
	boxH := min(max(avail*0.42, f*3.2), f*7)
	inner := Rect{r.X + pad, y, r.W - 2*pad, boxH}
	if !compact {
		l.text(r.X, y+boxH/2-small*0.6, tr(s.lang, "head", "đầu"), small, dim, Left, false)
		l.text(r.X+r.W, y+boxH/2-small*0.6, tr(s.lang, "tail", "đuôi"), small, dim, Right, false)
		if popped != "" {
			pc := dim.mix(accent, pulseAt(t)) // settles readable (contrast ≥ 4.5:1), not transparent
			if ls.PopH {
				l.text(r.X, y+boxH/2+small*0.7, "← "+popped, small, pc, Left, true)
			} else {
				l.text(r.X+r.W, y+boxH/2+small*0.7, popped+" →", small, pc, Right, true)
			}
		}
	}
	nodes := v.Nodes
	slots := len(nodes)
	if v.Skipped > 0 {
		slots++ // the "… n nodes …" gap
	}
	gap := f * 1.4
	if !v.Quicklist {
		gap = 0
	}
	xs, bw := listNodeRects(inner.X, inner.W, gap, inner.W, slots)
	idx, slot := 0, 0
	litAny := false
	for ni, n := range nodes {
		if v.Skipped > 0 && ni == len(nodes)-1 {
			l.text(xs[slot]+bw/2, inner.Y+inner.H/2-small*0.6, tr(s.lang, "… %d nodes …", "… %d node …", v.Skipped), small, dim, Center, false)
			slot++
			idx = v.Len - n.Count
		}
		x0 := xs[slot]
		label := fitNodeLabel(s.lang, n, bw, small)
		if v.Quicklist {
			l.frame(x0, inner.Y, bw, inner.H, 1.5, grid)
		}
		l.text(x0+bw/2, inner.Y+small*0.2, label, small, dim, Center, false)
		sy, sh := inner.Y+small*1.5, inner.H-small*1.9
		if n.Plain {
			l.rect(x0+f*0.2, sy, bw-f*0.4, sh, dataC)
			if len(n.Entries) > 0 {
				l.text(x0+bw/2, sy+sh/2-small*0.6, clipTo(n.Entries[0].Value, bw-f*0.4, small), small, textOn(dataC), Center, true)
			}
			idx++
		} else {
			cells := listStrip(x0+f*0.2, bw-f*0.4, f*0.5, n)
			for _, c := range cells {
				fill := listByteColor(listHdr)
				switch c.Kind {
				case listEntry:
					fill = listByteColor(listEntry)
					lit := idx < ls.PushH || idx >= v.Len-ls.PushT ||
						(ls.Edit != nil && ls.Edit.Packed && ls.Edit.Added > 0 && c.Offset == ls.Edit.Offset)
					if lit {
						fill = accent.mix(dataC, 1-pulseAt(t))
						litAny = true
					}
					idx++
				case listMore:
					fill = panelC
					idx += n.Count - (len(cells) - 3)
				case listEnd:
					fill = listByteColor(listEnd)
				}
				l.rect(c.X, sy, max(c.W-1, 1), sh, fill)
				sz := max(f*0.8, 11)
				if c.Kind != listEntry {
					sz = small
				}
				txt := clipTo(c.Text, c.W-2, sz)
				if c.Kind != listEntry && monoWidth(c.Text, sz) > c.W-2 {
					txt = "" // "hdr", "ff", "+8" whole or not at all
				}
				if txt != "" {
					l.text(c.X+c.W/2, sy+sh/2-sz*0.6, txt, sz, textOn(fill), Center, true)
				}
			}
		}
		if v.Quicklist && slot+1 < len(xs) {
			ax := x0 + bw
			l.line(ax, inner.Y+inner.H*0.42, ax+gap, inner.Y+inner.H*0.42, 1.5, dim)
			l.line(ax, inner.Y+inner.H*0.58, ax+gap, inner.Y+inner.H*0.58, 1.5, dim)
		}
		slot++
	}
	y = inner.Y + inner.H + f*0.4
	// The bytes of the node the command worked on, when there is room.
	if dn := s.detailNode(ls); dn >= 0 && r.Y+r.H-y-float64(notes)*small*1.4 >= small*4.5 {
		bsz := small
		if r.Y+r.H-y > f*9 {
			bsz = max(small, f*0.9) // one list: room for bigger bytes
		}
		y = s.frameBytes(l, Rect{r.X, y, r.W, r.Y + r.H - y}, ls, dn, bsz)
	}
	if ls.Edit != nil || litAny {
		x := r.X
		if litAny {
			word := tr(s.lang, "written by this command", "lệnh này vừa ghi")
			l.rect(x, y+small*0.15, small*0.9, small*0.9, accent.mix(dataC, 1-pulseAt(t)))
			l.text(x+small*1.2, y, word, small, dim, Left, false)
			x += small*2.2 + textWidth(word, small, false)
		}
		if ls.Edit != nil {
			if x > r.X && x+textWidth(ls.Edit.text(s.lang), small, false) > r.X+r.W {
				x, y = r.X, y+small*1.4
			}
			l.text(x, y, clipTo(ls.Edit.text(s.lang), r.X+r.W-x, small), small, dim, Left, false)
		}
		y += small * 1.4
	}
	if s.Conv != nil && s.Conv.Key == ls.Key {
		for _, line := range wrapMono(tr(s.lang, "%s → %s: %s", "%s → %s: %s", s.Conv.From, s.Conv.To, whyText(s.lang, s.Conv.Why)), r.W, small, 2) {
			l.text(r.X, y, line, small, accent, Left, true)
			y += small * 1.3
		}
	}
	return listAnchor{headX: inner.X, tailX: inner.X + inner.W, top: r.Y, bottom: y}
}

// fitNodeLabel is a node's caption: "28 B · 3 entries", shortened to "28 B · 3" when narrow.
func fitNodeLabel(lang string, n engine.ListNode, w, size float64) string {
	if n.Plain {
		return fmt.Sprintf("plain %d B", n.Bytes)
	}
	long := fmt.Sprintf("%d B · %s", n.Bytes, entriesWord(lang, n.Count))
	if textWidth(long, size, false) <= w {
		return long
	}
	return fmt.Sprintf("%d B · %d", n.Bytes, n.Count)
}

// detailNode is the node whose bytes are drawn: the one at the end the last push or pop used
// (the head node for none), -1 for a plain node.
func (s *listScene) detailNode(ls listShow) int {
	i := 0
	for _, m := range s.Moves {
		if m.Key == ls.Key {
			i = 0
			if !m.Head {
				i = len(ls.View.Nodes) - 1
			}
		}
	}
	if i >= len(ls.View.Nodes) || ls.View.Nodes[i].Plain {
		return -1
	}
	return i
}

// listByte is one byte of a node's listpack as the byte row draws it.
type listByte struct {
	B    byte
	Part int // listHdr, listEntry (data), listEnd, or listEnc / listBack for an entry's framing
}

// Byte parts beyond the strip's cell kinds.
const (
	listEnc = iota + 10
	listBack
)

// listBytes lists a packed node's bytes in order — the 6 header bytes, each drawn entry's
// encoding, data and backlen bytes, the end byte — and whether every byte is there (an entry
// longer than 16 bytes, or entries not drawn, leave the row incomplete).
func listBytes(n engine.ListNode) (out []listByte, complete bool) {
	for _, b := range n.Header {
		out = append(out, listByte{b, listHdr})
	}
	complete = len(n.Entries) == n.Count
	for _, e := range n.Entries {
		for i, b := range e.Raw {
			part := listEntry
			switch {
			case i < e.Head:
				part = listEnc
			case i >= e.Size-e.Back:
				part = listBack
			}
			out = append(out, listByte{b, part})
		}
		if len(e.Raw) < e.Size {
			complete = false
			break
		}
	}
	if complete {
		out = append(out, listByte{0xff, listEnd})
	}
	return out, complete
}

// listByteColor is a part's fill: the encoding scene's byte classes (byteColor), so a listpack
// has the same colours in every scene.
func listByteColor(part int) Color {
	switch part {
	case listHdr:
		return byteColor(byteLPHeader)
	case listEnc:
		return byteColor(byteEnc)
	case listBack:
		return byteColor(byteBacklen)
	case listEnd:
		return byteColor(byteEOF)
	}
	return byteColor(byteField)
}

// frameBytes draws the bytes of node i as hex cells with a legend; it returns the y below.
func (s *listScene) frameBytes(l *list, r Rect, ls listShow, i int, small float64) float64 {
	n := ls.View.Nodes[i]
	bs, complete := listBytes(n)
	cw := max(monoWidth("00", small)+small*0.5, small*1.9)
	per := max(int(r.W/cw), 1)
	rows := min((len(bs)+per-1)/per, max(int((r.H-small*3.2)/(small*1.7)), 1))
	where := tr(s.lang, "the listpack's bytes", "các byte của listpack")
	if ls.View.Quicklist {
		where = tr(s.lang, "bytes of node %d of %d", "các byte của node %d / %d", i+1, ls.View.NodeCount)
		if i == len(ls.View.Nodes)-1 && ls.View.Skipped > 0 {
			where = tr(s.lang, "bytes of the tail node", "các byte của node đuôi")
		}
	}
	l.text(r.X, r.Y, where, small, dim, Left, false)
	y := r.Y + small*1.4
	shown := 0
	for row := 0; row < rows; row++ {
		for c := 0; c < per && shown < len(bs); c++ {
			b := bs[shown]
			fill := listByteColor(b.Part)
			x := r.X + float64(c)*cw
			l.rect(x, y, cw-1, small*1.5, fill)
			l.text(x+cw/2, y+small*0.2, fmt.Sprintf("%02x", b.B), small, textOn(fill), Center, true)
			shown++
		}
		y += small * 1.7
	}
	x := r.X
	if shown < len(bs) || !complete {
		l.text(x, y, "…", small, dim, Left, false)
		x += textWidth("… ", small, false)
	}
	for _, it := range []struct {
		part   int
		en, vi string
	}{{listHdr, "header", "header"}, {listEnc, "encoding", "mã hoá"}, {listEntry, "data", "dữ liệu"}, {listBack, "backlen", "backlen"}, {listEnd, "end", "kết thúc"}} {
		word := it.vi
		if s.lang == "en" {
			word = it.en
		}
		w := small*0.9 + small*0.3 + textWidth(word, small, false) + small*0.8
		if x+w > r.X+r.W && x > r.X {
			x, y = r.X, y+small*1.4 // the legend wraps
		}
		l.rect(x, y+small*0.15, small*0.9, small*0.9, listByteColor(it.part))
		l.text(x+small*1.2, y, word, small, dim, Left, false)
		x += w
	}
	return y + small*1.5
}

// text says what the edit did, e.g. "listpack: replace at byte 6: +3 B −6 B, memmove 11 B".
func (e *listEdit) text(lang string) string {
	switch e.Op {
	case "node-new":
		return tr(lang, "quicklist: a new node (%d B, %d)", "quicklist: thêm một node (%d B, %d)", e.NodeBytes, e.NodeElems)
	case "node-del":
		return tr(lang, "quicklist: a node was freed", "quicklist: một node được giải phóng")
	case "split":
		return tr(lang, "quicklist: a node was split", "quicklist: một node bị tách đôi")
	case "merge":
		return tr(lang, "quicklist: two nodes merged (%d B, %d)", "quicklist: hai node được gộp (%d B, %d)", e.NodeBytes, e.NodeElems)
	}
	op := e.Op
	if lang != "en" {
		op = map[string]string{"insert": "chèn", "replace": "thay", "delete": "xoá", "delete-range": "xoá một đoạn", "truncate": "cắt đuôi"}[e.Op]
		if op == "" {
			op = e.Op
		}
	}
	s := tr(lang, "listpack: %s at byte %d:", "listpack: %s tại byte %d:", op, e.Offset)
	if e.Added > 0 {
		s += fmt.Sprintf(" +%d B", e.Added)
	}
	if e.Removed > 0 {
		s += fmt.Sprintf(" −%d B", e.Removed)
	}
	if e.Moved > 0 {
		s += fmt.Sprintf(", memmove %d B", e.Moved)
	}
	return s
}
