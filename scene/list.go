package scene

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"redscope/engine"
	"redscope/lesson"
)

// List draws lists as Redis stores them. In 7.0 every list is a quicklist: a doubly linked list
// of nodes, each node a listpack of its own (header 6 bytes: total bytes and entry count; the
// entries; the end byte 0xFF), so RPUSH jobs a b c on an empty key makes one node of
// 6 + 3×3 + 1 = 16 bytes ("a" is one encoding byte, one data byte and one backlen byte). From 7.2
// a small list is a single listpack with no quicklist around it, and becomes a quicklist when it
// outgrows list-max-listpack-size (-2: 8 KiB per node). The scene draws each node as a strip to
// the scale of its own bytes — header | entries | end — with head at the left and tail at the
// right; the elements the last command pushed are lit, the ones it popped fly out of their end,
// and LMOVE/RPOPLPUSH draws its source above its destination with the element moving between
// them. Everything comes from the engine: PeekList for the nodes, ListEvent for what moved,
// EncodingEvent for a listpack ↔ quicklist conversion.
type List struct {
	Lists []ListShow // at most ListMax: Input.Keys, a source before its destination
	focus string     // Input.Keys[0]
	Moves []engine.ListEvent
	Conv  *engine.EncodingEvent
	lang  string
}

// ListShow is one list key with its nodes.
type ListShow struct {
	Key    string
	Info   lesson.KeyInfo
	View   engine.ListView
	PushH  int      // elements the step pushed at the head (still there)
	PushT  int      // … at the tail
	Popped []string // elements the step popped, in order
	PopH   bool     // the last pop was at the head
}

const (
	// ListMax is how many lists the scene draws (LMOVE's source and destination).
	ListMax = 2
	// ListPerNode is how many entries of a node are drawn.
	ListPerNode = 12
	// ListNodes is how many nodes are drawn (the first ones and the tail).
	ListNodes = 6
)

func init() { Register("list", func() Scene { return &List{} }) }

// Update implements Scene.
func (s *List) Update(in Input) {
	*s = List{lang: in.Lang}
	keys := in.Keys
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
		if len(s.Lists) == ListMax {
			break
		}
		ls := ListShow{Key: k, Info: lesson.Measure(in.Engine, k)}
		ls.View, _ = in.Engine.PeekList([]byte(k), ListPerNode, ListNodes)
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
func (s *List) Focus() (string, string) { return "list", s.focus }

// Describe implements Describer, e.g. "list jobs: quicklist, 2 nodes (listpack 3 entries 24 B;
// 5 entries 41 B)".
func (s *List) Describe() string {
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
	return strings.Join(parts, "; ")
}

func (ls ListShow) describe(lang string) string {
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

func (ls ListShow) nodes() []engine.ListNode { return ls.View.Nodes }

// ListCell is one drawn part of a node's strip.
type ListCell struct {
	X, W  float64
	Kind  int    // ListHdr, ListEntry, ListMore, ListEnd
	Bytes int    // bytes the part stands for
	Text  string // the element (entries)
	Lit   bool   // pushed by the step
}

// Parts of a node strip.
const (
	ListHdr = iota
	ListEntry
	ListMore // the entries not drawn, as one cell
	ListEnd
)

// ListStrip lays out one packed node's listpack across w pixels from x, to the scale of its
// bytes: the 6-byte header, each drawn entry, one cell for the entries not drawn, the end byte.
// Every cell gets at least minW pixels (the end byte would otherwise vanish); the others share
// what is left in proportion to their bytes, so the cells always add up to w.
func ListStrip(x, w, minW float64, n engine.ListNode) []ListCell {
	cells := []ListCell{{Kind: ListHdr, Bytes: 6, Text: "hdr"}}
	rest := n.Bytes - 7
	for _, e := range n.Entries {
		cells = append(cells, ListCell{Kind: ListEntry, Bytes: e.Size, Text: e.Value})
		rest -= e.Size
	}
	if len(n.Entries) < n.Count && rest > 0 {
		cells = append(cells, ListCell{Kind: ListMore, Bytes: rest, Text: "+" + strconv.Itoa(n.Count-len(n.Entries))})
	}
	cells = append(cells, ListCell{Kind: ListEnd, Bytes: 1, Text: "ff"})
	minW = math.Min(minW, w/float64(len(cells)))
	total := 0
	for _, c := range cells {
		total += c.Bytes
	}
	share := w - minW*float64(len(cells))
	for i := range cells {
		cells[i].W = minW + share*float64(cells[i].Bytes)/float64(max(total, 1))
		cells[i].X = x
		x += cells[i].W
	}
	return cells
}

// ListNodeRects lays out n node boxes in a row of width w starting at x, gap pixels apart, each
// at most maxW wide, centred.
func ListNodeRects(x, w, gap, maxW float64, n int) (xs []float64, bw float64) {
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

// Frame implements Scene.
func (s *List) Frame(r Rect, t float64) []Prim {
	var l list
	f := FontSize(r)
	in := r.Inset(f * 0.8)
	if len(s.Lists) == 0 {
		l.text(in.X, in.Y, tr(s.lang, "No list yet. Try RPUSH jobs a b c.", "Chưa có list. Thử RPUSH jobs a b c."), f, Dim, Left, false)
		return l
	}
	rowH := in.H / float64(len(s.Lists))
	for i, ls := range s.Lists {
		row := Rect{in.X, in.Y + float64(i)*rowH, in.W, rowH - f*0.6}
		s.frameList(&l, row, ls, f, t)
	}
	// LMOVE: the element travels from the source row to the destination row.
	if len(s.Lists) == 2 && len(s.Lists[0].Popped) > 0 && (s.Lists[1].PushH+s.Lists[1].PushT) > 0 {
		v := s.Lists[0].Popped[len(s.Lists[0].Popped)-1]
		y0, y1 := in.Y+rowH*0.55, in.Y+rowH*1.35
		x := in.X + in.W/2
		l.line(x, y0, x, y1, 2, Accent.Alpha(Pulse(t)))
		l.text(x+f*0.4, (y0+y1)/2-f*0.5, "LMOVE "+clip(v, 16)+" ↓", f*0.85, Accent, Left, true)
	}
	return l
}

func (s *List) frameList(l *list, r Rect, ls ListShow, f, t float64) {
	y := r.Y
	title := ls.Key
	switch {
	case !ls.Info.Exists:
		title += tr(s.lang, " — does not exist", " — không tồn tại")
	case ls.Info.Type != "list":
		title += " — " + ls.Info.Type
	default:
		title += fmt.Sprintf(" · %s · LLEN %d · MEMORY USAGE %d B", ls.Info.Encoding, ls.View.Len, ls.Info.Memory)
	}
	l.text(r.X, y, title, f, TextColor, Left, true)
	y += f * 1.5
	if !ls.Info.Exists || ls.Info.Type != "list" {
		if len(ls.Popped) > 0 {
			l.text(r.X, y, tr(s.lang, "popped: %s (the last element: the key is deleted)", "đã lấy ra: %s (phần tử cuối: khoá bị xoá)", strings.Join(ls.Popped, ", ")), f*0.85, Accent, Left, true)
		}
		return
	}
	v := ls.View
	// head / tail labels and the popped elements outside their end
	pad := f * 3.2
	inner := Rect{r.X + pad, y, r.W - 2*pad, math.Max(f*3, math.Min(r.Y+r.H-y-f*1.6, f*6))}
	l.text(r.X, y+inner.H/2-f*0.5, "head", f*0.8, Dim, Left, false)
	l.text(r.X+r.W, y+inner.H/2-f*0.5, "tail", f*0.8, Dim, Right, false)
	if len(ls.Popped) > 0 {
		last := clip(ls.Popped[len(ls.Popped)-1], 10)
		c := Accent.Alpha(Pulse(t))
		if ls.PopH {
			l.text(r.X, y+inner.H/2+f*0.5, "← "+last, f*0.8, c, Left, true)
		} else {
			l.text(r.X+r.W, y+inner.H/2+f*0.5, last+" →", f*0.8, c, Right, true)
		}
	}
	nodes := v.Nodes
	slots := len(nodes)
	if v.Skipped > 0 {
		slots++ // the "… n nodes …" gap
	}
	gap := f * 1.6
	if !v.Quicklist {
		gap = 0
	}
	xs, bw := ListNodeRects(inner.X, inner.W, gap, inner.W, slots)
	// elements counted from the head: which are lit
	idx := 0
	slot := 0
	for ni, n := range nodes {
		if v.Skipped > 0 && ni == len(nodes)-1 {
			// the gap slot for the skipped nodes
			l.text(xs[slot]+bw/2, inner.Y+inner.H/2-f*0.5, tr(s.lang, "… %d nodes …", "… %d node …", v.Skipped), f*0.8, Dim, Center, false)
			slot++
			idx = v.Len - n.Count
		}
		x0 := xs[slot]
		// node box
		label := fmt.Sprintf("%d B · %d", n.Bytes, n.Count)
		if v.Quicklist {
			if n.Plain {
				label = fmt.Sprintf("plain %d B", n.Bytes)
			}
			l.frame(x0, inner.Y, bw, inner.H, 1.5, Grid)
		}
		l.text(x0+bw/2, inner.Y+f*0.2, label, f*0.75, Dim, Center, false)
		sy, sh := inner.Y+f*1.2, inner.H-f*1.6
		if n.Plain {
			l.rect(x0+f*0.2, sy, bw-f*0.4, sh, DataC)
			if len(n.Entries) > 0 {
				l.text(x0+bw/2, sy+sh/2-f*0.45, clip(n.Entries[0].Value, 12), f*0.8, TextOn(DataC), Center, true)
			}
			idx++
		} else {
			cells := ListStrip(x0+f*0.2, bw-f*0.4, f*0.5, n)
			for _, c := range cells {
				fill := HeaderC.Mix(Background, 0.35)
				switch c.Kind {
				case ListEntry:
					fill = DataC
					lit := idx < ls.PushH || idx >= v.Len-ls.PushT
					if lit {
						fill = Accent.Mix(DataC, 1-Pulse(t))
					}
					idx++
				case ListMore:
					fill = Panel
					idx += n.Count - (len(cells) - 3)
				case ListEnd:
					fill = NulC
				}
				l.rect(c.X, sy, math.Max(c.W-1, 1), sh, fill)
				txt := c.Text
				if c.Kind == ListEntry {
					txt = clipTo(c.Text, c.W-2, f*0.75)
				} else if c.Kind != ListMore {
					txt = clipTo(txt, c.W-2, f*0.6)
				}
				if txt != "" {
					sz := f * 0.75
					if c.Kind == ListHdr || c.Kind == ListEnd {
						sz = f * 0.6
					}
					l.text(c.X+c.W/2, sy+sh/2-sz*0.55, txt, sz, TextOn(fill), Center, true)
				}
			}
		}
		// prev/next links between quicklist nodes
		if v.Quicklist && slot+1 < len(xs) {
			ax := x0 + bw
			l.line(ax, inner.Y+inner.H*0.4, ax+gap, inner.Y+inner.H*0.4, 1.5, Dim)
			l.line(ax, inner.Y+inner.H*0.6, ax+gap, inner.Y+inner.H*0.6, 1.5, Dim)
			l.text(ax+gap/2, inner.Y+inner.H*0.4-f*0.75, "→", f*0.6, Dim, Center, false)
			l.text(ax+gap/2, inner.Y+inner.H*0.6+f*0.05, "←", f*0.6, Dim, Center, false)
		}
		slot++
	}
	y = inner.Y + inner.H + f*0.3
	if s.Conv != nil && s.Conv.Key == ls.Key {
		l.text(r.X, y, tr(s.lang, "%s → %s: %s", "%s → %s: %s", s.Conv.From, s.Conv.To, s.Conv.Reason), f*0.75, Accent, Left, false)
	}
}

// clip shortens s to n runes with an ellipsis.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	if n <= 1 {
		return "…"
	}
	return string(r[:n-1]) + "…"
}

// clipTo shortens s to fit w pixels of monospace text at size ("" when not even one glyph fits).
func clipTo(s string, w, size float64) string {
	n := int(w / (MonoAdvance * size))
	if n <= 0 {
		return ""
	}
	return clip(s, n)
}
