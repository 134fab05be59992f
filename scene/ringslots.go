package scene

import (
	"fmt"
	"math"

	"redscope/ring"
)

// ringSlots puts the consistent-hash ring and Redis Cluster's slot map side by side (lesson
// ring-vs-slots): the same keys product:0 … product:9999 placed both ways, and a node joining
// both. Above (or left of) it the ring of the step's `ring` lines (package ring measures every
// key: md5, 3 nodes × 150 points, adding 7003 moves about a quarter of the keys, each from the
// node whose point follows one of 7003's new points), with a table of keys per node before,
// after and moved; below (or right of) it the cluster of the step's `cluster` lines (the engine's
// nodes: slots and keys per node, the reshard animated slot by slot from its
// ClusterReshardEvents). The footer sets the two figures side by side: keys moved on the ring,
// keys and slots moved in the cluster. Nothing is computed here: the ring's figures are its
// Events', the cluster's its nodes' and its events'.
type ringSlots struct {
	ring   ringScene
	cl     Cluster
	before *ring.Event // the step's first ring event when a later one changed the nodes
	lang   string
	watch  []string
}

func init() { register("ringslots", func() Scene { return &ringSlots{} }) }

// Update implements Scene.
func (s *ringSlots) Update(in Input) {
	s.lang, s.watch, s.before = in.Lang, in.Keys, nil
	s.ring.Update(in)
	s.cl.Update(in)
	s.cl.noNotes = true
	var evs []ring.Event
	for _, x := range in.Last {
		for _, ev := range x.Events {
			if r, ok := ev.(ring.Event); ok {
				evs = append(evs, r)
			}
		}
	}
	if n := len(evs); n >= 2 && evs[n-1].RingMoved >= 0 {
		b := evs[n-2]
		s.before = &b
	}
}

// Describe implements Describer.
func (s *ringSlots) Describe() string {
	out := ""
	if ev := s.ring.Ev; ev != nil {
		out = tr(s.lang, "ring: %s over %s", "vòng: %s trên %s", s.loadsText(), s.plural(ev.Keys))
		if ev.RingMoved >= 0 {
			out += tr(s.lang, ", %s moved (%s)", ", %s đổi node (%s)", s.plural(ev.RingMoved), ring.Percent(ev.RingMoved, ev.Keys))
		}
		out += "; "
	}
	return out + s.cl.Describe()
}

func (s *ringSlots) plural(n int) string { return trPlural(s.lang, int64(n), "key", "keys", "key") }

func (s *ringSlots) loadsText() string {
	ev := s.ring.Ev
	out := ""
	for i, n := range ev.Nodes {
		if i > 0 {
			out += ", "
		}
		out += fmt.Sprintf("%s %d", n, ev.RingLoad[i])
	}
	return out
}

// Frame implements Scene.
func (s *ringSlots) Frame(r Rect, t float64) []Prim {
	if c, ok := s.start(); ok {
		return drawStart(r, s.lang, c)
	}
	var l list
	f := fontSize(r)
	in := r.inset(f * 0.6)
	fs := math.Max(minText, f*0.75)
	var foot []clusterNote // the footer's lines, wrapped to the stage
	for _, n := range s.footer(t) {
		for _, line := range wrapText(n.text, in.W, fs) {
			foot = append(foot, clusterNote{line, n.c})
		}
	}
	footH := fs * 1.35 * float64(len(foot))
	body := Rect{in.X, in.Y, in.W, in.H - footH}
	var ringR, clR Rect
	switch {
	case s.ring.Ev == nil:
		clR = body
	case len(s.cl.Nodes) == 0:
		ringR = body
	case body.W >= 1.5*body.H && body.W >= 900: // side by side
		w := math.Min(body.W*0.45, body.H*1.25)
		ringR = Rect{body.X, body.Y, w, body.H}
		clR = Rect{body.X + w + f, body.Y, body.W - w - f, body.H}
	default: // stacked; on a phone the cluster takes what its rows need, the ring the rest
		h := math.Round(body.H * 0.42)
		if body.W < 560 {
			h = math.Round(body.H - fs*0.3 - s.cl.tightHeight(fontMin))
		}
		ringR = Rect{body.X, body.Y, body.W, h}
		clR = Rect{body.X, body.Y + h + fs*0.3, body.W, body.H - h - fs*0.3}
	}
	if s.ring.Ev != nil {
		s.drawRingPanel(&l, ringR, fs, t)
	}
	if len(s.cl.Nodes) > 0 {
		l = append(l, s.cl.Frame(clR, t)...)
	}
	y := body.Y + body.H
	for _, line := range foot {
		l.text(in.X, y+fs*0.2, fitText(line.text, in.W, fs, false), fs, line.c, Left, false)
		y += fs * 1.35
	}
	return l
}

// footer is the comparison: keys moved on the ring and in the cluster.
func (s *ringSlots) footer(t float64) []clusterNote {
	var out []clusterNote
	if ev := s.ring.Ev; ev != nil && ev.RingMoved >= 0 {
		out = append(out, clusterNote{tr(s.lang, "ring: %s of %s moved (%s) to %s", "vòng: %s/%s đổi node (%s) sang %s",
			num(int64(ev.RingMoved)), s.plural(ev.Keys), ring.Percent(ev.RingMoved, ev.Keys), ev.Arg), accent})
	}
	if rs := s.cl.Reshard; len(rs) > 0 {
		st := s.cl.reshardAnim(t)
		to := s.cl.port(rs[len(rs)-1].To)
		if st.done < len(st.moves) { // the slots are travelling
			out = append(out, clusterNote{tr(s.lang, "cluster: %s of %s slots moved to %s so far, %s with them",
				"cluster: đã chuyển %s/%s slot sang %s, kèm %s",
				num(int64(st.done)), num(int64(len(st.moves))), to, s.plural(st.keys)), accent})
			return out
		}
		total := 0
		for _, k := range rs[len(rs)-1].KeysAfter {
			total += k
		}
		out = append(out, clusterNote{tr(s.lang, "cluster: %s of %s moved (%s) with %s slots to %s",
			"cluster: %s/%s chuyển (%s) cùng %s slot sang %s",
			num(int64(st.keys)), s.plural(total), ring.Percent(st.keys, total), num(int64(len(st.moves))), to), accent})
	}
	return out
}

// drawRingPanel draws the ring and its table: circle left, table right when there is room,
// else the circle above the table.
func (s *ringSlots) drawRingPanel(l *list, r Rect, fs, t float64) {
	ev := s.ring.Ev
	y := r.Y
	head := tr(s.lang, "Consistent-hash ring · %s · %d points/node · %s", "Vòng consistent hash · %s · %d điểm/node · %s",
		ev.Hash, ev.VNodes, s.plural(ev.Keys))
	l.text(r.X, y, fitText(head, r.W, fs*1.1, false), fs*1.1, textColor, Left, false)
	y += fs * 1.6
	rows := len(ev.Nodes) + 1
	cw := monoWidth("m", fs)
	tableW := cw * 30
	area := Rect{r.X, y, r.W, r.Y + r.H - y}
	var circle, table Rect
	if area.W-tableW-fs >= area.H*0.5 {
		d := math.Min(area.H, area.W-tableW-fs)
		circle = Rect{area.X, area.Y, d, d}
		table = Rect{area.X + d + fs, area.Y, area.W - d - fs, area.H}
	} else {
		tableH := fs * 1.4 * float64(rows+1)
		d := math.Max(0, math.Min(area.W, area.H-tableH-fs*0.5))
		circle = Rect{area.X + (area.W-d)/2, area.Y, d, d}
		table = Rect{area.X, area.Y + d + fs*0.5, area.W, area.H - d - fs*0.5}
	}
	if circle.W >= 40 {
		s.ring.drawCircle(l, circle, fs/0.8, t)
	}
	s.drawRingTable(l, table, fs, t)
}

// drawRingTable: node | before | after | moved out (or in, for the node that joined).
func (s *ringSlots) drawRingTable(l *list, r Rect, fs, t float64) {
	ev := s.ring.Ev
	rowH := fs * 1.4
	cw := monoWidth("m", fs)
	cols := []float64{r.X + cw*1.8, r.X + cw*8, r.X + cw*15, r.X + cw*22}
	y := r.Y
	heads := []string{"node", tr(s.lang, "before", "trước"), tr(s.lang, "after", "sau"), tr(s.lang, "moved", "đổi")}
	if s.before == nil {
		heads = []string{"node", tr(s.lang, "keys", "key")}
	}
	for i, h := range heads {
		l.text(cols[i], y, fitText(h, cw*6.5, fs, true), fs, dim, Left, true)
	}
	y += rowH
	old := map[string]int{}
	if s.before != nil {
		for i, n := range s.before.Nodes {
			old[n] = s.before.RingLoad[i]
		}
	}
	for i, n := range ev.Nodes {
		if y+rowH > r.Y+r.H+0.01 {
			return
		}
		col := s.ring.nodeColorOf(n)
		l.rect(r.X, y+fs*0.15, cw*1.2, fs*0.9, col)
		c := textColor
		if ev.Op == "add" && n == ev.Arg {
			c = textColor.mix(accent, pulseAt(t))
		}
		l.text(cols[0], y, fitText(n, cw*6, fs, true), fs, c, Left, true)
		if s.before == nil {
			l.text(cols[1], y, num(int64(ev.RingLoad[i])), fs, textColor, Left, true)
		} else {
			b := old[n]
			d := ev.RingLoad[i] - b
			l.text(cols[1], y, num(int64(b)), fs, textColor, Left, true)
			l.text(cols[2], y, num(int64(ev.RingLoad[i])), fs, textColor, Left, true)
			mv := "+" + num(int64(d))
			if d < 0 {
				mv = "−" + num(int64(-d))
			}
			l.text(cols[3], y, mv, fs, accent, Left, true)
		}
		y += rowH
	}
}
