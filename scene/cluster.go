package scene

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"redscope/engine"
)

// Cluster draws a Redis Cluster (a lesson's `cluster` lines, lesson/cluster.go): one row per
// node, the 16 384 hash slots as a strip across the stage with the ranges the node serves in its
// colour (three masters: 0–5460, 5461–10922, 10923–16383, so each is a third of the strip), the
// node's keys as marks at their slot (`{user:1}:name` and `{user:1}:cart` share slot 10778, so
// their marks fall together), slots migrating or importing outlined, and beside each row its
// address, slots, keys and the commands with keys it served (a hot key shows as one node's count
// running away). What the step did is drawn over it from the trace: a MOVED or ASK hop as an
// arrow from the node asked to the node that owns the slot, CROSSSLOT as the keys' slots marked
// in red, keys migrated by MIGRATE as arrows from their old node to their new one. A reshard
// (engine.ClusterReshardEvent: 4 096 slots in the order the engine moved them) is animated slot
// by slot over the step's animation: a window of slots (15 % of them) travels at a time from
// the old node's strip to the new node's, lit when it carries keys, while the note counts the
// slots and keys arrived; under reduced motion the page passes t = 1 and all are drawn arrived.
// The key marks are a bounded sample (Cluster.SampleKeys: the lesson's keys, then keys spread
// over the node's slots, 64 in all), so an Update costs the same for 1 000 keys as for 1 000 000 (BenchmarkClusterUpdate).
type Cluster struct {
	Nodes   []ClusterRow
	Conn    int // the connected node
	Redir   []engine.ClusterRedirectEvent
	Served  []engine.ClusterServedEvent
	Moved   []engine.ClusterKeyMigratedEvent
	Reshard []engine.ClusterReshardEvent // the step's reshards, animated slot by slot
	Changed map[int]bool                 // slots whose owner changed in the step
	lang    string
	watch   []string
	noNotes bool // composed with the ring (ringslots.go): the notes are drawn there

	servedKeys map[int]map[string]bool // node → the keys it served in the step
	movedN     int                     // keys MIGRATE moved in the step (Moved keeps the first)
}

// ClusterRow is one node as drawn.
type ClusterRow struct {
	Addr      string
	Ranges    [][2]int // the slot ranges it serves, in order
	Slots     int
	Keys      []string // a sample of its keys: the lesson's, then keys spread over its slots in slot order (at most ClusterKeysDrawn)
	KeyCount  int
	Served    int64
	Migrating []int // slots migrating away
	Importing []int
}

// ClusterKeysDrawn bounds the key marks of one node.
const ClusterKeysDrawn = 64

// clusterLabels bounds the named marks of one row besides the lesson's and the served keys.
const clusterLabels = 3

func init() { register("cluster", func() Scene { return &Cluster{} }) }

// Update implements Scene.
func (s *Cluster) Update(in Input) {
	*s = Cluster{lang: in.Lang, watch: in.Keys, Conn: -1, Changed: map[int]bool{}}
	defer func() {
		if n := len(s.Redir); n > clusterEventsKept {
			s.Redir = s.Redir[n-clusterEventsKept:]
		}
		if n := len(s.Served); n > clusterEventsKept {
			s.Served = s.Served[n-clusterEventsKept:]
		}
	}()
	cl := in.Engine.Cluster()
	if cl == nil {
		return
	}
	s.Conn = in.Engine.ClusterNode()
	for i, e := range cl.Nodes() {
		row := ClusterRow{Addr: cl.NodeAddr(i), Slots: cl.SlotCount(i), Served: cl.Served(i)}
		start := -1
		for sl := 0; sl <= engine.ClusterSlots; sl++ {
			mine := sl < engine.ClusterSlots && cl.SlotOwner(sl) == i
			switch {
			case mine && start < 0:
				start = sl
			case !mine && start >= 0:
				row.Ranges = append(row.Ranges, [2]int{start, sl - 1})
				start = -1
			}
		}
		for _, sl := range cl.MigratingSlots(i) {
			if cl.SlotOwner(sl) == i {
				row.Migrating = append(row.Migrating, sl)
			}
		}
		row.Importing = cl.ImportingSlots(i)
		// A bounded sample (the engine reads it through its slot index): the cost of an Update
		// does not grow with the node's key count.
		row.KeyCount = cl.KeyCount(i)
		seen := map[string]bool{}
		for _, k := range in.Keys {
			if len(row.Keys) < ClusterKeysDrawn && !seen[k] && e.Peek([]byte(k)) != nil {
				seen[k] = true
				row.Keys = append(row.Keys, k)
			}
		}
		for _, k := range cl.SampleKeys(i, ClusterKeysDrawn) {
			if len(row.Keys) < ClusterKeysDrawn && !seen[k] {
				seen[k] = true
				row.Keys = append(row.Keys, k)
			}
		}
		s.Nodes = append(s.Nodes, row)
	}
	for _, x := range in.Last {
		for _, ev := range x.Events {
			switch ev := ev.(type) {
			case engine.ClusterRedirectEvent:
				s.Redir = append(s.Redir, ev)
			case engine.ClusterServedEvent:
				s.Served = append(s.Served, ev)
				if s.servedKeys == nil {
					s.servedKeys = map[int]map[string]bool{}
				}
				if s.servedKeys[ev.Node] == nil {
					s.servedKeys[ev.Node] = map[string]bool{}
				}
				for _, k := range ev.Keys {
					s.servedKeys[ev.Node][k] = true
				}
			case engine.ClusterKeyMigratedEvent:
				s.movedN++
				if len(s.Moved) < clusterEventsKept {
					s.Moved = append(s.Moved, ev)
				}
			case engine.ClusterReshardEvent:
				s.Reshard = append(s.Reshard, ev)
			case engine.ClusterSlotEvent:
				if ev.Action == "owner" {
					s.Changed[ev.Slot] = true
				}
			}
		}
	}
}

// clusterEventsKept bounds the events of one kind a step keeps to draw (a step of 5 000 SETs
// followed with -c has about 3 300 MOVED hops; the picture draws the last ones, the counts stay
// whole).
const clusterEventsKept = 32

// Focus implements Focuser.
func (s *Cluster) Focus() (string, string) {
	if len(s.Served) > 0 && len(s.Served[len(s.Served)-1].Keys) > 0 {
		return "cluster", s.Served[len(s.Served)-1].Keys[0]
	}
	return "cluster", ""
}

// Describe implements Describer: "cluster: 127.0.0.1:7000 slots 0–5460, 2 keys, 3 commands; …".
func (s *Cluster) Describe() string {
	if len(s.Nodes) == 0 {
		return tr(s.lang, "no cluster yet", "chưa có cluster")
	}
	var parts []string
	for i, n := range s.Nodes {
		conn := ""
		if i == s.Conn {
			conn = tr(s.lang, " (connected)", " (đang kết nối)")
		}
		parts = append(parts, tr(s.lang, "%s%s: slots %s, %s, %s served", "%s%s: slot %s, %s, phục vụ %s",
			n.Addr, conn, rangesText(n.Ranges, s.lang), trPlural(s.lang, int64(n.KeyCount), "key", "keys", "key"),
			trPlural(s.lang, n.Served, "command", "commands", "lệnh")))
	}
	for _, r := range s.Redir {
		parts = append(parts, s.redirText(r))
	}
	if len(s.Reshard) > 0 {
		parts = append(parts, s.reshardText(1))
	} else if len(s.Moved) > 0 {
		parts = append(parts, s.movedText())
	}
	return "cluster: " + strings.Join(parts, "; ")
}

func rangesText(rs [][2]int, lang string) string {
	if len(rs) == 0 {
		return tr(lang, "none", "không có")
	}
	var out []string
	for i, r := range rs {
		if i == 3 {
			out = append(out, tr(lang, "… %d ranges", "… %d đoạn", len(rs)))
			break
		}
		if r[0] == r[1] {
			out = append(out, strconv.Itoa(r[0]))
		} else {
			out = append(out, fmt.Sprintf("%d–%d", r[0], r[1]))
		}
	}
	return strings.Join(out, ", ")
}

func (s *Cluster) addr(i int) string {
	if i >= 0 && i < len(s.Nodes) {
		return s.Nodes[i].Addr
	}
	return "?"
}

func (s *Cluster) redirText(r engine.ClusterRedirectEvent) string {
	switch r.Redirect {
	case "MOVED", "ASK":
		return tr(s.lang, "%s: slot %d is served by %s, not %s", "%s: slot %d do %s phục vụ, không phải %s", r.Redirect, r.Slot, s.addr(r.To), s.addr(r.Node))
	case "CROSSSLOT":
		var sl []string
		for _, x := range r.Slots {
			sl = append(sl, strconv.Itoa(x))
		}
		return tr(s.lang, "CROSSSLOT: the keys are in slots %s, not one", "CROSSSLOT: các key nằm ở slot %s, không cùng một slot", strings.Join(sl, ", "))
	}
	return r.Redirect
}

func (s *Cluster) movedText() string {
	from, to := s.Moved[0].From, s.Moved[0].To
	return tr(s.lang, "%s moved from %s to %s", "%s chuyển từ %s sang %s", trPlural(s.lang, int64(s.movedN), "key", "keys", "key"), s.addr(from), s.addr(to))
}

// Frame implements Scene.
func (s *Cluster) Frame(r Rect, t float64) []Prim {
	var l list
	f := fontSize(r)
	tight := s.noNotes && r.W < 560 // composed on a phone (ringslots.go): every pixel counts
	in := r.inset(f * 0.8)
	if tight {
		in = r.inset(f * 0.3)
	}
	if c, ok := s.start(); ok {
		return drawStart(r, s.lang, c)
	}
	small := max(f*0.75, minText)
	compact := in.W < 560
	labelW := 0.0
	if !compact {
		labelW = min(max(monoWidth("127.0.0.1:7000 ►", small)+small, in.W*0.22), in.W*0.3)
	}
	stripX, stripW := in.X+labelW, in.W-labelW
	// Header: what the strip is.
	conn := s.addr(s.Conn)
	if tight {
		conn = s.port(s.Conn)
	}
	head := tr(s.lang, "%s · 16\u202f384 slots · connected to %s", "%s · 16\u202f384 slot · đang kết nối %s", trPlural(s.lang, int64(len(s.Nodes)), "node", "nodes", "node"), conn)
	l.text(in.X, in.Y, fitText(head, in.W, f, false), f, textColor, Left, false)
	y := in.Y + f*1.6
	notes := s.noteLines(t)
	if s.noNotes {
		notes = nil
	}
	footer := small*1.5*float64(len(notes)) + small*2.2 // the notes and the slot axis
	rowGap, rowMin := small*0.6, small*3.2
	if tight {
		y, footer, rowGap, rowMin = in.Y+f*1.3, small*1.4, small*0.3, small*clusterTightRow
	}
	rowH := min(max((in.Y+in.H-y-footer)/float64(len(s.Nodes))-rowGap, rowMin), f*5.5)
	maxServed := int64(1)
	for _, n := range s.Nodes {
		maxServed = max(maxServed, n.Served)
	}
	xOf := func(slot int) float64 { return stripX + stripW*(float64(slot)+0.5)/engine.ClusterSlots }
	rowY := make([]float64, len(s.Nodes))
	bars := make([][2]float64, len(s.Nodes)) // each row's strip: y and height
	anim := s.reshardAnim(t)
	for i, n := range s.Nodes {
		rowY[i] = y
		c := nodeColor(i)
		slotsW := trPlural(s.lang, int64(n.Slots), "slot", "slots", "slot")
		keysW := trPlural(s.lang, int64(n.KeyCount), "key", "keys", "key")
		if b, ok := s.before(i); ok { // a reshard in the step: the counts before → after
			slotsW = fmt.Sprintf("%d→%s", b[0], slotsW)
			keysW = fmt.Sprintf("%d→%s", b[1], keysW)
		}
		// the label: address, slots, keys, served (with a bar for the served count)
		lx, ly := in.X, y
		if compact {
			line := fmt.Sprintf("%s · %s · %s", n.Addr, slotsW, keysW)
			if tight || monoWidth(line+"► ", small) > in.W {
				line = fmt.Sprintf("%s · %s · %s", s.port(i), slotsW, keysW)
			}
			if i == s.Conn {
				line = "► " + line
			}
			l.text(lx, ly, fitText(line, in.W, small, true), small, c, Left, true)
			ly += small * 1.3
		} else {
			name := n.Addr
			if i == s.Conn {
				name += " ►"
			}
			l.text(lx, ly, fitText(name, labelW-small*0.5, small, true), small, c, Left, true)
			lw := labelW - small*0.5
			line := 1.3
			if both := slotsW + " · " + keysW; textWidth(both, small, false) <= lw {
				l.text(lx, ly+small*line, both, small, dim, Left, false)
			} else { // before → after: slots and keys a line each
				l.text(lx, ly+small*line, fitText(slotsW, lw, small, false), small, dim, Left, false)
				line += 1.3
				l.text(lx, ly+small*line, fitText(keysW, lw, small, false), small, dim, Left, false)
			}
			line += 1.3
			if rowH >= small*(line+1.7) {
				served := tr(s.lang, "%d served", "phục vụ %d", n.Served)
				l.text(lx, ly+small*line, fitText(served, lw, small, false), small, dim, Left, false)
				bw := (labelW - small) * float64(n.Served) / float64(maxServed)
				if n.Served > 0 {
					l.rect(lx, ly+small*(line+1.3), max(bw, 2), small*0.4, c)
				}
			}
		}
		sy := ly
		sh := rowH - (ly - y)
		if compact {
			sh = max(rowH-small*1.3, small*1.6)
			if tight {
				sh = rowH - small*1.3
			}
		}
		markH := min(sh*0.4, small*1.4)
		barY, barH := sy+markH, sh-markH
		bars[i] = [2]float64{barY, barH}
		// the strip: all slots, the node's ranges in its colour
		l.rect(stripX, barY, stripW, barH, panelC)
		l.frame(stripX, barY, stripW, barH, 1, grid)
		for _, rg := range n.Ranges {
			x0, x1 := stripX+stripW*float64(rg[0])/engine.ClusterSlots, stripX+stripW*float64(rg[1]+1)/engine.ClusterSlots
			fill := c
			for sl := range s.Changed {
				if len(s.Reshard) > 0 {
					break // the reshard's slots are drawn moving (drawReshard)
				}
				if sl >= rg[0] && sl <= rg[1] {
					fill = c.mix(accent, pulseAt(t))
					break
				}
			}
			l.rect(x0, barY, max(x1-x0, 1.5), barH, fill)
			if x1-x0 > monoWidth("00000–00000", small)+small && barH >= small*1.25 {
				txt := fmt.Sprintf("%d–%d", rg[0], rg[1])
				l.text((x0+x1)/2, barY+barH/2-small*0.6, txt, small, textOn(fill), Center, true)
			}
		}
		for _, sl := range n.Migrating {
			l.frame(xOf(sl)-2, barY-1, 4, barH+2, 1.5, accent)
		}
		for _, sl := range n.Importing {
			l.frame(xOf(sl)-2, barY-1, 4, barH+2, 1.5, textColor)
		}
		// the keys: a mark at each key's slot above the strip, named when there is room (the
		// lesson's keys first, then the others in order, none over another)
		// Keys sharing a slot (a hash tag) make one mark: "{user:1}:name +1".
		bySlot := map[int][]string{}
		var order []int
		for _, k := range n.Keys {
			sl := engine.KeySlot([]byte(k))
			if _, ok := bySlot[sl]; !ok {
				order = append(order, sl)
			}
			bySlot[sl] = append(bySlot[sl], k)
		}
		rank := func(sl int) int { // served first, then the lesson's keys, then the others
			r := 2
			for _, k := range bySlot[sl] {
				if s.served(i, k) {
					return 0
				}
				if s.isWatched(k) {
					r = 1
				}
			}
			return r
		}
		sort.SliceStable(order, func(a, b int) bool { return rank(order[a]) < rank(order[b]) })
		// Ticks first, then the labels over them on the background (the lesson's and the served
		// keys first, at most clusterLabels of the others), none over another.
		type mark struct {
			x     float64
			label string
			c     Color
			rank  int
		}
		var marks []mark
		for _, sl := range order {
			if ph, ok := anim.phase[sl]; ok && ph < 1 {
				continue // its slot has not arrived yet: drawn moving below
			}
			ks := bySlot[sl]
			sort.SliceStable(ks, func(a, b int) bool { return s.served(i, ks[a]) && !s.served(i, ks[b]) })
			x := xOf(sl)
			kc := dim
			rk := rank(sl)
			if rk == 0 {
				kc = accent // lit for the whole step
			}
			l.line(x, barY-markH*0.9, x, barY+barH*0.2, 2, kc)
			label := clip(ks[0], 16)
			if len(ks) > 1 {
				label += fmt.Sprintf(" +%d", len(ks)-1)
			}
			marks = append(marks, mark{x, label, kc, rk})
		}
		var taken [][2]float64
		others := 0
		for _, m := range marks {
			if markH < small*1.1 || (m.rank == 2 && others >= clusterLabels) {
				continue
			}
			w := monoWidth(m.label, small)
			lx := m.x + 3
			if lx+w > stripX+stripW {
				lx = m.x - 3 - w
			}
			free := true
			for _, sp := range taken {
				if lx < sp[1]+small*0.5 && lx+w > sp[0]-small*0.5 {
					free = false
				}
			}
			if free {
				if m.rank == 2 {
					others++
				}
				taken = append(taken, [2]float64{lx, lx + w})
				l.rect(lx-2, barY-small*1.25, w+4, small*1.15, Background)
				l.text(lx, barY-small*1.2, m.label, small, m.c, Left, true)
			}
		}
		y += rowH + rowGap
	}
	// the slot axis under the rows
	for _, sl := range []int{0, 5461, 10923, 16383} {
		x := stripX + stripW*float64(sl)/engine.ClusterSlots
		a := Center
		switch sl {
		case 0:
			a = Left
		case 16383:
			a, x = Right, stripX+stripW
		}
		l.text(x, y, strconv.Itoa(sl), small, dim, a, true)
	}
	y += small * 1.6
	// what the step did: hops, refusals, moves
	for _, r := range s.Redir {
		if (r.Redirect == "MOVED" || r.Redirect == "ASK") && r.Node >= 0 && r.Node < len(rowY) && r.To >= 0 && r.To < len(rowY) {
			x := xOf(r.Slot)
			c := ErrorC.mix(accent, 1-pulseAt(t))
			l.line(x, rowY[r.Node]+rowH*0.5, x, rowY[r.To]+rowH*0.5, 3, c)
			l.frame(x-small*0.4, rowY[r.To]+rowH*0.5-small*0.4, small*0.8, small*0.8, 2, c)
		}
		if r.Redirect == "CROSSSLOT" && r.Node >= 0 && r.Node < len(rowY) {
			for _, sl := range r.Slots {
				x := xOf(sl)
				l.frame(x-small*0.4, rowY[r.Node], small*0.8, rowH, 2, ErrorC)
			}
		}
	}
	if len(anim.moves) > 0 {
		s.drawReshard(&l, anim, bars, stripX, stripW, small)
	}
	for _, m := range s.Moved {
		if len(s.Reshard) > 0 {
			break // a reshard's keys travel with their slots (drawReshard)
		}
		if m.From < len(rowY) && m.To < len(rowY) {
			x := xOf(m.Slot)
			l.line(x, rowY[m.From]+rowH*0.5, x+small, rowY[m.To]+rowH*0.3, 1.5, accent)
		}
	}
	for _, line := range notes {
		l.text(in.X, y, fitText(line.text, in.W, small, true), small, line.c, Left, true)
		y += small * 1.5
	}
	return l
}

type clusterNote struct {
	text string
	c    Color
}

// noteLines are the step's events in words, under the picture.
func (s *Cluster) noteLines(t float64) []clusterNote {
	var out []clusterNote
	seen := map[string]bool{}
	for _, r := range s.Redir {
		t := s.redirText(r)
		if !seen[t] {
			seen[t] = true
			out = append(out, clusterNote{t, ErrorC})
		}
	}
	if len(s.Reshard) > 0 {
		out = append(out, clusterNote{s.reshardText(t), accent})
	} else if len(s.Moved) > 0 {
		out = append(out, clusterNote{s.movedText(), accent})
	}
	if len(s.Served) > 0 {
		ev := s.Served[len(s.Served)-1]
		keys := append([]string(nil), ev.Keys...)
		sort.Strings(keys)
		if len(keys) > 3 {
			keys = append(keys[:3], "…")
		}
		out = append(out, clusterNote{tr(s.lang, "served by %s: slot %d (%s)", "%s phục vụ: slot %d (%s)", s.addr(ev.Node), ev.Slot, strings.Join(keys, ", ")), accent})
	}
	if len(out) > 3 {
		out = out[len(out)-3:]
	}
	return out
}

// served: node i served a command on key k in this step.
func (s *Cluster) served(i int, k string) bool { return s.servedKeys[i][k] }

func (s *Cluster) isWatched(k string) bool {
	for _, w := range s.watch {
		if w == k {
			return true
		}
	}
	return false
}

// clusterMove is one slot a reshard of the step moved, in the order the engine moved it.
type clusterMove struct {
	engine.ClusterSlotMove
	To int
}

// reshardState is where the step's reshards are at animation progress t: each moved slot
// leaves its old row and reaches its new one in the order the engine moved it, a window of
// slots travelling at once; phase[slot] is 0 (not left yet) … 1 (arrived).
type reshardState struct {
	moves []clusterMove
	phase map[int]float64
	done  int // slots arrived
	keys  int // keys arrived with them
}

// clusterMoveWindow is the share of the moved slots travelling at the same moment.
const clusterMoveWindow = 0.15

func (s *Cluster) reshardAnim(t float64) reshardState {
	var st reshardState
	for _, r := range s.Reshard {
		for _, m := range r.Moves {
			st.moves = append(st.moves, clusterMove{m, r.To})
		}
	}
	n := float64(len(st.moves))
	w := max(1, n*clusterMoveWindow)
	st.phase = make(map[int]float64, len(st.moves))
	for j, m := range st.moves {
		ph := 1.0
		if t < 1 {
			ph = min(1, max(0, (t*(n+w)-float64(j))/w))
		}
		st.phase[m.Slot] = ph
		if ph >= 1 {
			st.done++
			st.keys += m.Keys
		}
	}
	return st
}

// drawReshard draws the moving slots over the rows (which show where everything ends): a slot
// not yet left is its old node's colour on the old row and blank on the new one; a travelling
// slot is a block between the two rows, lit when it carries keys, one dot per key (at most
// three a block); an arrived slot is as the rows draw it.
func (s *Cluster) drawReshard(l *list, st reshardState, bars [][2]float64, stripX, stripW, small float64) {
	x0 := func(sl int) float64 { return stripX + stripW*float64(sl)/engine.ClusterSlots }
	// Runs of consecutive slots with the same nodes and the same quantised phase make one block.
	type run struct {
		from, to, first, last, keys int
		ph                          float64
	}
	var runs []run
	for _, m := range st.moves {
		ph := st.phase[m.Slot]
		if ph >= 1 || m.From < 0 || m.From >= len(bars) || m.To < 0 || m.To >= len(bars) {
			continue
		}
		q := math.Round(ph*12) / 12
		if k := len(runs) - 1; k >= 0 && runs[k].from == m.From && runs[k].to == m.To && runs[k].last == m.Slot-1 && runs[k].ph == q {
			runs[k].last, runs[k].keys = m.Slot, runs[k].keys+m.Keys
			continue
		}
		runs = append(runs, run{m.From, m.To, m.Slot, m.Slot, m.Keys, q})
	}
	for _, r := range runs {
		a, b := x0(r.first), x0(r.last+1)
		w := max(b-a, 1.5)
		fy, fh := bars[r.from][0], bars[r.from][1]
		ty, th := bars[r.to][0], bars[r.to][1]
		l.rect(a, ty, w, th, panelC) // not arrived on the new row yet
		if r.ph <= 0 {
			l.rect(a, fy, w, fh, nodeColor(r.from))
			continue
		}
		l.rect(a, fy, w, fh, panelC) // left the old row
		e := r.ph * r.ph * (3 - 2*r.ph)
		y, h := fy+(ty-fy)*e, fh+(th-fh)*e
		c := nodeColor(r.from).mix(nodeColor(r.to), e)
		l.rect(a, y, w, h, c)
		if r.keys > 0 {
			l.frame(a, y, w, h, 1.5, accent)
			d := max(3, small*0.35)
			for k := 0; k < min(r.keys, 3); k++ {
				l.rect(a+w/2-d/2, y+h*(float64(k)+0.5)/3-d/2, d, d, accent)
			}
		}
	}
}

// reshardText is the reshard note: while slots travel, how many have arrived; settled, the
// slots and keys moved and each node's key count before and after.
func (s *Cluster) reshardText(t float64) string {
	st := s.reshardAnim(t)
	first, last := s.Reshard[0], s.Reshard[len(s.Reshard)-1]
	if st.done < len(st.moves) {
		return tr(s.lang, "resharding to %s: %d of %d slots moved, %s with them", "đang reshard sang %s: đã chuyển %d/%d slot, kèm %s",
			s.addr(last.To), st.done, len(st.moves), trPlural(s.lang, int64(st.keys), "key", "keys", "key"))
	}
	var counts []string
	for i := range last.KeysAfter {
		if i < len(first.KeysBefore) && first.KeysBefore[i] != last.KeysAfter[i] {
			counts = append(counts, fmt.Sprintf("%s %d→%d", s.port(i), first.KeysBefore[i], last.KeysAfter[i]))
		}
	}
	keys := 0
	for _, r := range s.Reshard {
		keys += r.Keys
	}
	return tr(s.lang, "%s moved to %s with %s; keys %s", "%s chuyển sang %s kèm %s; key %s",
		trPlural(s.lang, int64(len(st.moves)), "slot", "slots", "slot"), s.addr(last.To),
		trPlural(s.lang, int64(keys), "key", "keys", "key"), strings.Join(counts, ", "))
}

// port is node i's port alone ("7003").
func (s *Cluster) port(i int) string {
	a := s.addr(i)
	if j := strings.LastIndexByte(a, ':'); j >= 0 {
		return a[j+1:]
	}
	return a
}

// before is node i's slot and key counts before the step's first reshard, when the step has
// one that changed them.
func (s *Cluster) before(i int) ([2]int, bool) {
	if len(s.Reshard) == 0 {
		return [2]int{}, false
	}
	f, l := s.Reshard[0], s.Reshard[len(s.Reshard)-1]
	if i >= len(f.KeysBefore) || i >= len(l.KeysAfter) || (f.KeysBefore[i] == l.KeysAfter[i] && f.SlotsBefore[i] == l.SlotsAfter[i]) {
		return [2]int{}, false
	}
	return [2]int{f.SlotsBefore[i], f.KeysBefore[i]}, true
}

// clusterTightRow is a row's least height in small text lines when composed on a phone: its
// label line and a strip with key ticks.
const clusterTightRow = 2.6

// tightHeight is the height Frame needs for the cluster composed on a phone (noNotes, narrower
// than 560 px) at base text size f.
func (s *Cluster) tightHeight(f float64) float64 {
	small := max(f*0.75, minText)
	return f*0.6 + f*1.3 + float64(len(s.Nodes))*small*(clusterTightRow+0.3) + small*1.4
}
