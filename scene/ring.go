package scene

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"redscope/engine"
	"redscope/ring"
)

// ringScene draws the consistent-hash ring of a lesson's `ring` lines (lesson/ring.go): the circle
// coloured by which node owns each arc, the first keys as dots (those that just moved outlined),
// keys per node on the ring and with hash % N, and the share of keys moved; and Redis Cluster's
// 16 384 slots for the CLUSTER KEYSLOT commands of the step: the key, its hash tag, its slot.
type ringScene struct {
	Ev    *ring.Event // the last ring line of the step (nil when none)
	Slots []slotInfo  // the step's CLUSTER KEYSLOT commands
	Img   Pixels      // the ring's arcs
	lang  string
	watch []string // the watched keys (the start card names them)
	fit   fitter   // the zoom that fills the stage (layout.go)
}

// slotInfo is one CLUSTER KEYSLOT exchange.
type slotInfo struct {
	Key      string
	Slot     int
	Tag      string // the hashed part when the key has a hash tag
	TagStart int    // byte offset of the tag in Key (-1 without a tag)
	CRC      uint16 // CRC16 of the hashed bytes
}

func init() { register("ring", func() Scene { return &ringScene{} }) }

// ringImageSize is the side of the ring image in pixels.
const ringImageSize = 360

// ringGen numbers the pictures so that the drawing side uploads a new one only when it changed.
var ringGen uint64

// Update implements Scene.
func (s *ringScene) Update(in Input) {
	s.fit.reset()
	s.watch = in.Keys
	s.Ev, s.Slots, s.lang = nil, nil, in.Lang
	for _, x := range in.Last {
		for _, ev := range x.Events {
			if r, ok := ev.(ring.Event); ok {
				r := r
				s.Ev = &r
			}
		}
		if si, ok := parseKeyslot(x); ok {
			s.Slots = append(s.Slots, si)
		}
	}
	if s.Ev != nil {
		s.paint()
	}
}

// parseKeyslot reads a CLUSTER KEYSLOT exchange.
func parseKeyslot(x engine.Exchange) (slotInfo, bool) {
	args, err := engine.SplitArgs(x.Cmd)
	if err != nil || len(args) != 3 || x.Error || !strings.EqualFold(string(args[0]), "cluster") || !strings.EqualFold(string(args[1]), "keyslot") {
		return slotInfo{}, false
	}
	var slot int
	if _, err := fmt.Sscanf(x.Reply, "(integer) %d", &slot); err != nil {
		return slotInfo{}, false
	}
	key := args[2]
	si := slotInfo{Key: string(key), Slot: slot, TagStart: -1}
	hashed := key
	if tag, start, ok := hashTag(key); ok {
		si.Tag, si.TagStart = string(tag), start
		hashed = tag
	}
	si.CRC = engine.CRC16(hashed)
	return si, true
}

// hashTag is Redis Cluster's hash tag rule: the bytes between the first '{' and the first '}'
// after it, when there is at least one.
func hashTag(key []byte) (tag []byte, start int, ok bool) {
	i := strings.IndexByte(string(key), '{')
	if i < 0 {
		return nil, -1, false
	}
	j := strings.IndexByte(string(key[i+1:]), '}')
	if j <= 0 {
		return nil, -1, false
	}
	return key[i+1 : i+1+j], i + 1, true
}

// ringAngle is the angle (radians, clockwise from 12 o'clock) of a hash position.
func ringAngle(pos uint64, space float64) float64 {
	return 2 * math.Pi * float64(pos) / space
}

// ringOwnerAt is the index of the point owning angle a: the first point at or after the
// position, wrapping to the first.
func ringOwnerAt(ev *ring.Event, a float64) int {
	pos := a / (2 * math.Pi) * ev.Space
	i := sort.Search(len(ev.Points), func(i int) bool { return float64(ev.Points[i].Pos) >= pos })
	if i == len(ev.Points) {
		i = 0
	}
	return i
}

func (s *ringScene) nodeIndex(n string) int {
	// A node's colour follows its name, not its place in the current list: the index in the
	// sorted names of the nodes before and after the line, so that removing cache-b leaves
	// cache-c, cache-d and cache-e their colours, and adding cache-e changes no other.
	names := append(append([]string{}, s.Ev.Nodes...), s.Ev.Before...)
	slices.Sort(names)
	names = slices.Compact(names)
	if i, ok := slices.BinarySearch(names, n); ok {
		return i
	}
	return -1
}

// nodeColorOf is the colour of node n (see nodeIndex).
func (s *ringScene) nodeColorOf(n string) Color { return nodeColor(s.nodeIndex(n)) }

// paint draws the ring's arcs into the image: an annulus coloured by the owner of each angle.
func (s *ringScene) paint() {
	n := ringImageSize
	if s.Img.RGBA == nil {
		s.Img = Pixels{W: n, H: n, RGBA: make([]byte, 4*n*n)}
	}
	clear(s.Img.RGBA)
	ringGen++
	s.Img.Gen = ringGen
	if len(s.Ev.Points) == 0 {
		return
	}
	// The owner of each of 2048 angle buckets, then the annulus.
	const buckets = 2048
	var owner [buckets]Color
	for b := range owner {
		i := ringOwnerAt(s.Ev, (float64(b)+0.5)/buckets*2*math.Pi)
		owner[b] = nodeColor(s.nodeIndex(s.Ev.Points[i].Node))
	}
	c := float64(n) / 2
	r1, r0 := c-1, c*0.80
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			dx, dy := float64(x)+0.5-c, float64(y)+0.5-c
			d := math.Hypot(dx, dy)
			if d < r0 || d > r1 {
				continue
			}
			a := math.Atan2(dx, -dy)
			if a < 0 {
				a += 2 * math.Pi
			}
			col := owner[int(a/(2*math.Pi)*buckets)%buckets]
			o := 4 * (y*n + x)
			s.Img.RGBA[o], s.Img.RGBA[o+1], s.Img.RGBA[o+2], s.Img.RGBA[o+3] = col.R, col.G, col.B, 0xff
		}
	}
}

// Frame implements Scene.
func (s *ringScene) Frame(r Rect, t float64) []Prim {
	return s.fit.framed(r, t, s.lang, s.start, s.layout)
}

// layout lays the scene out in r (Frame zooms it to fill the stage).
func (s *ringScene) layout(r Rect, t float64) []Prim {
	var l list
	f := fontSize(r)
	in := r.inset(f * 0.8)
	if s.Ev == nil && len(s.Slots) == 0 {
		l.wrap(in, in.Y, tr(s.lang, "No ring yet: a lesson step or the console line  ring nodes a,b,c,d  makes one; CLUSTER KEYSLOT key shows a slot.",
			"Chưa có vòng hash: một bước của bài hoặc dòng console  ring nodes a,b,c,d  tạo vòng; CLUSTER KEYSLOT key cho biết slot."), f*0.9, dim)
		return l
	}
	ringR, slotR := in, Rect{}
	if s.Ev != nil && len(s.Slots) > 0 {
		h := math.Min(in.H*0.4, f*1.3*float64(2*len(s.Slots)+2))
		ringR = Rect{in.X, in.Y, in.W, in.H - h - f*0.5}
		slotR = Rect{in.X, in.Y + in.H - h, in.W, h}
	} else if s.Ev == nil {
		slotR = in
	}
	if s.Ev != nil {
		s.drawRing(&l, ringR, f, t)
	}
	if len(s.Slots) > 0 {
		s.drawSlots(&l, slotR, f, t)
	}
	return l
}

// ringLayout splits the area below the header into the circle and the table: side by side
// when the area is wide, else the circle above the table. rows is the table's row count.
func ringLayout(area Rect, f float64, rows int) (circle Rect, table Rect) {
	fs := f * 0.8
	tableH := fs * 1.35 * float64(rows)
	tableW := monoWidth(strings.Repeat("m", ringTableChars), fs)
	if area.W-tableW-f >= area.H*0.6 { // room for a circle beside the table
		d := math.Min(area.H, area.W-tableW-f)
		circle = Rect{area.X, area.Y, d, d}
		table = Rect{area.X + d + f, area.Y, area.W - d - f, area.H}
		return
	}
	d := math.Max(0, math.Min(area.W, area.H-tableH-f*0.5))
	circle = Rect{area.X + (area.W-d)/2, area.Y, d, d}
	table = Rect{area.X, area.Y + d + f*0.5, area.W, area.H - d - f*0.5}
	return
}

// ringTableChars is the width of the node table in monospace characters.
const ringTableChars = 30

func (s *ringScene) drawRing(l *list, r Rect, f, t float64) {
	ev := s.Ev
	y := r.Y
	head := fmt.Sprintf("%s · %s vnode/node · %s key · %s node", ev.Hash, num(int64(ev.VNodes)), num(int64(ev.Keys)), num(int64(len(ev.Nodes))))
	if s.lang == "en" {
		head = fmt.Sprintf("%s · %s vnodes/node · %s · %s", ev.Hash, num(int64(ev.VNodes)),
			plural(int64(ev.Keys), "key", "keys"), plural(int64(len(ev.Nodes)), "node", "nodes"))
	}
	y += f*1.3 + float64(headText(l, r.X, y, r.W, head, f*0.85, textColor, true)-1)*f*0.85*1.25
	var note string
	switch ev.Op {
	case "nodes":
		note = tr(s.lang, "a key belongs to the first node point clockwise from it", "key thuộc điểm node đầu tiên theo chiều kim đồng hồ")
	case "add":
		note = tr(s.lang, "added %s", "thêm %s", ev.Arg)
	case "remove":
		note = tr(s.lang, "removed %s", "bỏ %s", ev.Arg)
	case "vnodes":
		note = tr(s.lang, "now %s vnodes per node", "giờ %s vnode mỗi node", ev.Arg)
	}
	l.text(r.X, y, fitText(note, r.W, f*0.85, false), f*0.85, accent, Left, false)
	y += f * 1.4
	rows := len(ev.Nodes) + 1
	if ev.RingMoved >= 0 {
		rows += 2
	}
	circle, table := ringLayout(Rect{r.X, y, r.W, r.Y + r.H - y}, f, rows)
	if circle.W >= 40 {
		s.drawCircle(l, circle, f, t)
	}
	s.drawTable(l, table, f, t)
}

func (s *ringScene) drawCircle(l *list, c Rect, f, t float64) {
	ev := s.Ev
	*l = append(*l, Prim{Kind: KImage, X: c.X, Y: c.Y, W: c.W, H: c.H, Img: &s.Img})
	cx, cy, R := c.X+c.W/2, c.Y+c.H/2, c.W/2
	at := func(a, rad float64) (float64, float64) { return cx + rad*math.Sin(a), cy - rad*math.Cos(a) }
	// Node points: a tick across the band when they are few enough to see one by one.
	if len(ev.Points) <= 64 {
		for _, p := range ev.Points {
			a := ringAngle(p.Pos, ev.Space)
			x0, y0 := at(a, R*0.74)
			x1, y1 := at(a, R)
			col := textColor
			if (ev.Op == "add" && p.Node == ev.Arg) || len(ev.Points) <= 12 {
				col = textColor.mix(accent, pulseAt(t))
			}
			l.line(x0, y0, x1, y1, math.Max(2, R*0.015), col)
		}
	}
	// The first keys as dots inside the band; keys that changed owner outlined.
	pulse := pulseAt(t)
	d := math.Max(4, R*0.045)
	moved := 0
	for _, k := range ev.Samples {
		a := ringAngle(k.Pos, ev.Space)
		x, y := at(a, R*0.66)
		l.rect(x-d/2, y-d/2, d, d, nodeColor(s.nodeIndex(k.Owner)))
		if k.Was != "" && k.Was != k.Owner {
			moved++
			l.frame(x-d, y-d, 2*d, 2*d, math.Max(1.5, d*0.3), accent.alpha(pulse))
		}
	}
	// Centre: what the dots are.
	fs := math.Max(11, math.Min(f*0.7, R*0.14))
	lines := []string{tr(s.lang, "first %d keys", "%d key đầu", len(ev.Samples))}
	if ev.RingMoved >= 0 {
		lines = append(lines, tr(s.lang, "%d moved", "%d đổi node", moved))
	}
	for i, txt := range lines {
		if monoWidth(txt, fs)*1.0 < R*1.1 {
			l.text(cx, cy-fs*float64(len(lines))*0.65+float64(i)*fs*1.3, txt, fs, dim, Center, false)
		}
	}
}

func (s *ringScene) drawTable(l *list, r Rect, f, t float64) {
	ev := s.Ev
	fs := f * 0.8
	rowH := fs * 1.35
	if r.H < rowH {
		return
	}
	cw := monoWidth("m", fs)
	colName := r.X + cw*2
	colRing := colName + cw*10
	colMod := colRing + cw*10
	y := r.Y
	l.text(colRing, y, fitText(tr(s.lang, "ring", "vòng"), cw*9, fs, true), fs, dim, Left, true)
	l.text(colMod, y, "hash % N", fs, dim, Left, true)
	y += rowH
	maxLoad := 1
	for i := range ev.Nodes {
		maxLoad = max(maxLoad, ev.RingLoad[i], ev.ModLoad[i])
	}
	for i, n := range ev.Nodes {
		if y+rowH > r.Y+r.H+0.01 {
			break
		}
		col := s.nodeColorOf(n)
		l.rect(r.X, y+fs*0.15, cw*1.2, fs*0.9, col)
		c := textColor
		if ev.Op == "add" && n == ev.Arg {
			c = textColor.mix(accent, pulseAt(t))
		}
		l.text(colName, y, fitText(n, cw*9.5, fs, true), fs, c, Left, true)
		for j, v := range []int{ev.RingLoad[i], ev.ModLoad[i]} {
			x := colRing + float64(j)*cw*10
			w := cw * 8.5 * float64(v) / float64(maxLoad)
			l.rect(x, y+fs*1.05, w, math.Max(2, fs*0.18), col.alpha(0.8))
			l.text(x, y, fmt.Sprint(v), fs, textColor, Left, true)
		}
		y += rowH
	}
	if ev.RingMoved >= 0 && y+rowH*2 <= r.Y+r.H+0.01 {
		y += rowH * 0.2
		l.text(r.X, y, fitText(tr(s.lang, "keys moved:", "key đổi node:"), r.W, fs, false), fs, dim, Left, false)
		y += rowH
		l.text(colRing, y, ring.Percent(ev.RingMoved, ev.Keys), fs, accent, Left, true)
		if ev.ModMoved >= 0 {
			l.text(colMod, y, ring.Percent(ev.ModMoved, ev.Keys), fs, ErrorC, Left, true)
		}
	}
}

// slotX is where slot s sits on a bar of width w starting at x.
func slotX(x, w float64, slot int) float64 { return x + w*(float64(slot)+0.5)/16384 }

// clusterShards are the slot ranges `redis-cli --cluster create` gives three masters.
var clusterShards = [3][2]int{{0, 5460}, {5461, 10922}, {10923, 16383}}

func (s *ringScene) drawSlots(l *list, r Rect, f, t float64) {
	fs := f * 0.8
	if s.Ev == nil {
		fs = f * 0.9
	}
	y := r.Y
	y = l.wrap(r, y, tr(s.lang, "Redis Cluster: slot = CRC16(key, or only its {tag}) mod 16384; three masters share the slots:",
		"Redis Cluster: slot = CRC16(key, hoặc chỉ phần {tag}) mod 16384; ba master chia nhau các slot:"), fs, textColor)
	y += fs * 0.2
	// The bar of 16 384 slots in three shards, a marker per key above it (stacked when keys
	// share a slot).
	stack := 0
	for i, si := range s.Slots {
		n := 0
		for _, o := range s.Slots[:i] {
			if o.Slot == si.Slot {
				n++
			}
		}
		stack = max(stack, n+1)
	}
	mk := fs * 0.8
	barH, rowH := fs*1.2, fs*1.35
	if s.Ev == nil { // the slots alone: the bar and the rows grow with the stage's height
		mk = fs * 1.2
		barH = math.Min(fs*3, math.Max(fs*1.2, (r.Y+r.H-y)*0.14))
	}
	y += mk * float64(stack)
	for i, sh := range clusterShards {
		x0, x1 := slotX(r.X, r.W, sh[0])-r.W/32768, slotX(r.X, r.W, sh[1])+r.W/32768
		l.rect(x0, y, x1-x0-1, barH, nodeColor(i).mix(Background, 0.55))
		lbl := fmt.Sprintf("%d–%d", sh[0], sh[1])
		al, lx := Center, (x0+x1)/2
		if i == 0 {
			al, lx = Left, x0
		} else if i == 2 {
			al, lx = Right, x1
		}
		l.text(lx, y+barH+2, lbl, fs, dim, al, true)
	}
	pulse := pulseAt(t)
	for i, si := range s.Slots {
		n := 0
		for _, o := range s.Slots[:i] {
			if o.Slot == si.Slot {
				n++
			}
		}
		x := slotX(r.X, r.W, si.Slot)
		x = math.Max(r.X+mk/2, math.Min(r.X+r.W-mk/2, x))
		l.rect(x-1, y, 2, barH, textColor)
		l.rect(x-mk/2, y-mk*float64(n+1), mk, mk*0.85, keyColor(i).mix(accent, 0.3*pulse))
	}
	y += barH + fs*1.7
	if n := len(s.Slots); s.Ev == nil && n > 0 {
		rowH = math.Min(fs*2.4, math.Max(rowH, (r.Y+r.H-y)/float64(n)))
	}
	cw := monoWidth("m", fs)
	for i, si := range s.Slots {
		if y+fs*1.3 > r.Y+r.H+0.01 {
			break
		}
		l.rect(r.X, y+fs*0.2, cw, fs*0.8, keyColor(i))
		x := r.X + cw*1.6
		key := si.Key
		maxKey := int(math.Max(4, (r.W*0.55)/cw))
		if utf8.RuneCountInString(key) > maxKey || si.TagStart < 0 {
			l.text(x, y, fitText(key, cw*float64(maxKey), fs, true), fs, textColor, Left, true)
		} else {
			// The hashed part lit: prefix, tag, suffix, each placed by the monospace advance.
			pre, tag, post := key[:si.TagStart], si.Tag, key[si.TagStart+len(si.Tag):]
			l.text(x, y, pre, fs, dim, Left, true)
			l.text(x+monoWidth(pre, fs), y, tag, fs, accent, Left, true)
			l.text(x+monoWidth(pre+tag, fs), y, post, fs, dim, Left, true)
		}
		x += cw * float64(min(maxKey, utf8.RuneCountInString(key))+1)
		shard := 0
		for j, sh := range clusterShards {
			if si.Slot >= sh[0] && si.Slot <= sh[1] {
				shard = j
			}
		}
		rest := fmt.Sprintf("→ %d", si.Slot)
		if r.X+r.W-x > monoWidth(rest+"  CRC16 0xffff  master 3", fs) {
			rest += fmt.Sprintf("  CRC16 0x%04x  master %d", si.CRC, shard+1)
		} else if r.X+r.W-x > monoWidth(rest+"  CRC16 0xffff", fs) {
			rest += fmt.Sprintf("  CRC16 0x%04x", si.CRC)
		}
		l.text(x, y, fitText(rest, r.X+r.W-x, fs, true), fs, textColor, Left, true)
		y += rowH
	}
}

// keyColor is the marker colour of the i-th key of a step (Accent is kept for the tag).
func keyColor(i int) Color { return nodeColor(i + 3) }

// --- text helpers shared by the ring, bloom and counters scenes ---

// sansAdvance bounds the average advance of Liberation Sans (em units) for layout estimates.
const sansAdvance = 0.56

// sansRune is the advance of r in the sans font in em (sanswidth.go, from the font itself); a
// rune outside the subset counts as 0.6 em.
func sansRune(r rune) float64 {
	if r >= 0 && r < rune(len(sansLatin)) {
		if a := sansLatin[r]; a > 0 || r >= 0x300 {
			return float64(a) / sansUPM
		}
		if r < 0x20 {
			return 0
		}
	} else if a, ok := sansOther[r]; ok {
		return float64(a) / sansUPM
	} else if r >= 0x300 && r < 0x370 {
		return 0 // combining marks
	}
	return 0.6
}
