package scene

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"redscope/engine"
	"redscope/engine/skiplist"
)

// zsetScene draws a sorted set as a leaderboard: member/score cards in rank order over the
// listpack's bytes (pairs kept sorted by score), or, once converted, the skiplist: one tower per
// node as tall as its random level, the forward links of every level, and the header. A ZINCRBY
// that re-ranks a member slides its card / node from the old rank to the new one (from the listpack
// delete offset or the skiplist's delete/insert ranks), and the members a ZRANGE … REV read are lit
// with their place (#1, #2, #3).
type zsetScene struct {
	container
	Members   []zMember // ascending rank (listpack / level-0 order)
	LP        *lpView
	ListLevel int // skiplist level (0 for a listpack)
	Move      *zMove
	Changed   map[string]bool
	Top       []string // members of the step's last range read, in reply order
	TopCmd    string
	Note      string
}

// zMember is one member.
type zMember struct {
	Member string
	Score  string
	Level  int      // skiplist node level (0 in a listpack)
	Spans  []uint64 // skiplist spans per level
}

// zMove is a member re-ranked by the step's last write: 0-based ascending ranks, From −1 for a
// new member.
type zMove struct {
	Member   string
	From, To int
}

// Update implements Scene.
func (s *zsetScene) Update(in Input) {
	*s = zsetScene{container: s.container, Changed: map[string]bool{}}
	if !s.update(in) {
		return
	}
	o := in.Engine.Peek([]byte(s.Key))
	if o == nil || o.Type != engine.TypeZSet {
		return
	}
	if lp := o.Listpack(); lp != nil {
		s.LP = newLPView(lp, 2, lp.Usable(in.Engine.Allocator()))
		for i := 0; i+1 < len(s.LP.Entries); i += 2 {
			s.Members = append(s.Members, zMember{Member: s.LP.Entries[i].Text, Score: s.LP.Entries[i+1].Text})
		}
	} else if zl := o.Skiplist(); zl != nil {
		s.ListLevel = zl.Level()
		zl.Range(func(n *skiplist.Node) bool {
			m := zMember{Member: n.Member, Score: strconv.FormatFloat(n.Score, 'g', -1, 64), Level: n.Level()}
			for _, lv := range n.Levels() {
				m.Spans = append(m.Spans, lv.Span)
			}
			s.Members = append(s.Members, m)
			return true
		})
	}
	// Events: all writes of the step light their members; the last exchange's move animates.
	var lpEvs []engine.ListpackEvent
	lastX := -1
	for i, x := range in.Last {
		for _, ev := range x.Events {
			switch e := ev.(type) {
			case engine.ListpackEvent:
				if e.Key == s.Key {
					lpEvs = append(lpEvs, e)
					lastX = i
				}
			case engine.SkiplistEvent:
				if e.Key == s.Key {
					s.Changed[e.Change.Member] = true
					lastX = i
				}
			case engine.EncodingEvent:
				if e.Key == s.Key {
					lpEvs = lpEvs[:0]
				}
			}
		}
	}
	if s.LP != nil {
		s.LP.applyEvents(lpEvs)
		for _, e := range lpEvs {
			if e.Op == "insert" && s.memberIndex(e.Value) >= 0 {
				s.Changed[e.Value] = true
			}
		}
		s.Note = lpNote(s.LP.Last, s.lang)
	}
	if lastX >= 0 && s.Conv == nil { // a conversion rebuilds everything: nothing slides
		s.Move = s.moveOf(in.Last[lastX].Events)
	}
	if s.Move != nil && s.Move.From >= 0 && s.Move.From != s.Move.To {
		s.Note = tr(s.lang, "%s: rank %d → %d (from the top: #%d → #%d)", "%s: hạng %d → %d (tính từ đầu bảng: #%d → #%d)",
			s.Move.Member, s.Move.From, s.Move.To, len(s.Members)-s.Move.From, len(s.Members)-s.Move.To)
	}
	if s.Conv != nil {
		s.Note = tr(s.lang, "%s → %s: %s", "%s → %s: %s", s.Conv.From, s.Conv.To, whyText(s.lang, s.Conv.Why))
	}
	s.Top, s.TopCmd = rangeRead(in.Last, s.Key)
}

func (s *zsetScene) memberIndex(m string) int {
	for i, z := range s.Members {
		if z.Member == m {
			return i
		}
	}
	return -1
}

// moveOf finds the member one exchange re-ranked (or created).
func (s *zsetScene) moveOf(evs []engine.Event) *zMove {
	var mv *zMove
	del := -1 // listpack delete offset
	for _, ev := range evs {
		switch e := ev.(type) {
		case engine.SkiplistEvent:
			if e.Key != s.Key {
				continue
			}
			c := e.Change
			switch c.Op {
			case skiplist.OpDelete:
				mv = &zMove{Member: c.Member, From: int(c.Rank) - 1, To: int(c.Rank) - 1}
			case skiplist.OpInsert:
				if mv == nil || mv.Member != c.Member {
					mv = &zMove{Member: c.Member, From: -1}
				}
				mv.To = int(c.Rank) - 1
			case skiplist.OpUpdateInPlace:
				mv = &zMove{Member: c.Member, From: int(c.Rank) - 1, To: int(c.Rank) - 1}
			}
		case engine.ListpackEvent:
			if e.Key != s.Key {
				continue
			}
			switch {
			case e.Op == "delete-range" || e.Op == "delete":
				del = e.Offset
			case e.Op == "insert" && s.memberIndex(e.Value) >= 0 && (mv == nil || mv.Member != e.Value):
				to := s.memberIndex(e.Value)
				mv = &zMove{Member: e.Value, From: -1, To: to}
				if del >= 0 {
					mv.From = s.oldRank(e.Value, del)
				}
			}
		}
	}
	if mv != nil && s.memberIndex(mv.Member) < 0 {
		return nil
	}
	return mv
}

// oldRank is the rank member m had in the listpack before it was deleted at byte offset del:
// the other pairs are unchanged and in the same order, so it is the number of them that started
// before del in the old layout.
func (s *zsetScene) oldRank(m string, del int) int {
	if s.LP == nil {
		return -1
	}
	off, rank := 6, 0
	for i := 0; i+1 < len(s.LP.Entries); i += 2 {
		if s.LP.Entries[i].Text == m {
			continue
		}
		if off < del {
			rank++
		}
		off += s.LP.Entries[i].Size + s.LP.Entries[i+1].Size
	}
	return rank
}

// rangeRead returns the members of the step's last ZRANGE-family reply on key, in reply order.
func rangeRead(xs []engine.Exchange, key string) ([]string, string) {
	for i := len(xs) - 1; i >= 0; i-- {
		args, err := engine.SplitArgs(xs[i].Cmd)
		if err != nil || len(args) < 2 || string(args[1]) != key || xs[i].Error {
			continue
		}
		name := strings.ToLower(string(args[0]))
		switch name {
		case "zrange", "zrevrange", "zrangebyscore", "zrevrangebyscore":
		default:
			continue
		}
		withScores := false
		for _, a := range args[2:] {
			if strings.EqualFold(string(a), "withscores") {
				withScores = true
			}
		}
		var out []string
		for j, ln := range strings.Split(xs[i].Reply, "\n") {
			_, v, ok := strings.Cut(ln, ") ")
			if !ok || (withScores && j%2 == 1) {
				continue
			}
			if u, err := strconv.Unquote(strings.TrimSpace(v)); err == nil {
				out = append(out, u)
			}
		}
		return out, xs[i].Cmd
	}
	return nil, ""
}

// topPlace is member m's place (1-based) in the step's range read, 0 when not read.
func (s *zsetScene) topPlace(m string) int {
	for i, x := range s.Top {
		if x == m {
			return i + 1
		}
	}
	return 0
}

// cardSlot is the card at (possibly fractional, while moving) slot pos in rows of cols cards.
// A card moving between rows slides along its row, then drops to the next.
func cardSlot(r Rect, pos float64, cols int, w, h, gap float64) Rect {
	row := math.Floor(pos / float64(cols))
	col := pos - row*float64(cols)
	return Rect{r.X + col*(w+gap), r.Y + row*(h+gap), w, h}
}

// cardLayout sizes n cards in width w at font size f: columns, card width and height.
func cardLayout(n int, w, f float64) (cols int, cw, ch, gap float64) {
	gap = f * 0.4
	cols = max(1, min(n, int((w+gap)/(f*7.5+gap))))
	cw = math.Min((w-gap*float64(cols-1))/float64(cols), f*12)
	return cols, cw, f * 2.6, gap
}

// Frame implements Scene.
func (s *zsetScene) Frame(r Rect, t float64) []Prim {
	return s.fit.framed(r, t, s.lang, s.start, s.layout)
}

// layout lays the scene out in r (Frame zooms it to fill the stage).
func (s *zsetScene) layout(r Rect, t float64) []Prim {
	var l list
	f, in := margins(r)
	y := in.Y
	small := f * 0.75
	if s.Key == "" || !s.Info.Exists || len(s.Members) == 0 {
		msg := tr(s.lang, "No sorted set yet: run ZADD or ZINCRBY.", "Chưa có sorted set: hãy chạy ZADD hoặc ZINCRBY.")
		return emptyNote(in, f, msg)
	}
	title := fit(s.Key, in.W*0.5, f)
	l.text(in.X, y, title, f, textColor, Left, true)
	tx := in.X + monoWidth(title, f) + f*0.6
	sub := fmt.Sprintf("zset · %s · %d", s.Info.Encoding, len(s.Members))
	l.text(tx, y+f*0.15, fit(sub, in.X+in.W-tx, f*0.8), f*0.8, dim, Left, true)
	y += f * 1.45
	// Path: listpack → skiplist.
	x := in.X
	for i, enc := range encodingPath("zset", engine.V70) {
		if i > 0 {
			l.text(x, y, "→", small, dim, Left, true)
			x += monoWidth("→ ", small)
		}
		w := monoWidth(enc, small) + small*0.8
		bg, fg := panelC, encColor(enc) // the structure's colour (palette.go), as in every scene
		if enc == s.Info.Encoding {
			bg = encColor(enc)
			fg = textOn(bg)
		}
		l.rect(x, y-small*0.15, w, small*1.3, bg)
		l.text(x+w/2, y, enc, small, fg, Center, true)
		x += w + small*0.4
	}
	y += small * 1.7
	if s.Note != "" {
		c := dim
		if s.Conv != nil || s.Move != nil {
			c = textColor.mix(accent, pulseAt(t))
		}
		for _, ln := range wrap(s.Note, in.W, small, 2) {
			l.text(in.X, y, ln, small, c, Left, true)
			y += small * 1.3
		}
		y += f * 0.2
	}
	memLines := max(1, len(s.Mem))
	topLines := 0
	if len(s.Top) > 0 {
		topLines = 1 + min(len(s.Top), 3)
	}
	memH := float64(memLines)*f*1.15 + f*0.2 + memAxisHeight(in.W, f, s.lang)
	bottomH := memH + float64(topLines)*small*1.35 + f*0.3
	main := Rect{in.X, y, in.W, math.Max(f*3, in.Y+in.H-bottomH-y)}
	if s.LP != nil {
		s.drawListpack(&l, main, f, t)
	} else {
		s.drawSkiplist(&l, main, f, t)
	}
	yb := main.Y + main.H + f*0.3
	if topLines > 0 {
		l.text(in.X, yb, fit("> "+s.TopCmd, in.W, small), small, dim, Left, true)
		yb += small * 1.35
		for i, m := range s.Top[:min(len(s.Top), 3)] {
			score := ""
			if j := s.memberIndex(m); j >= 0 {
				score = s.Members[j].Score
			}
			line := fmt.Sprintf("#%d  %s  %s", i+1, score, m)
			l.text(in.X, yb, fit(line, in.W, small), small, textColor.mix(accent, pulseAt(t)), Left, true)
			yb += small * 1.35
		}
	}
	drawMemBars(&l, Rect{in.X, yb, in.W, memH}, f, t, s.Mem, s.Info, s.Conv != nil, s.lang)
	return l
}

// slot interpolates member i's slot during a move: the moved member slides from its old rank,
// the ones between shift by one.
func (s *zsetScene) slot(i int, k float64) float64 {
	mv := s.Move
	if mv == nil || k >= 1 {
		return float64(i)
	}
	if mv.From < 0 { // a new member: the ones after it make room
		if i > mv.To {
			return float64(i-1) + k
		}
		return float64(i)
	}
	if i == mv.To {
		return float64(mv.From) + (float64(mv.To)-float64(mv.From))*k
	}
	old := i
	switch {
	case mv.From < mv.To && i >= mv.From && i < mv.To:
		old = i + 1
	case mv.From > mv.To && i > mv.To && i <= mv.From:
		old = i - 1
	}
	return float64(old) + float64(i-old)*k
}

// drawCard draws one member card.
func (s *zsetScene) drawCard(l *list, c Rect, m zMember, f, t float64, rankFromTop int, showText bool) {
	place := s.topPlace(m.Member)
	bg := panelC
	if place > 0 {
		bg = topCardC
	}
	l.rect(c.X, c.Y, c.W, c.H, bg)
	if !showText {
		return
	}
	size := f * 0.72
	l.text(c.X+size*0.4, c.Y+size*0.3, fit(m.Member, c.W-size*0.8, size), size, textColor, Left, true)
	sc := "score " + m.Score
	l.text(c.X+size*0.4, c.Y+size*1.55, fit(sc, c.W-size*3.2, size), size, oneC, Left, true)
	badge := fmt.Sprintf("#%d", rankFromTop)
	l.text(c.X+c.W-size*0.4, c.Y+size*1.55, badge, size, dim, Right, true)
	if place > 0 || s.Changed[m.Member] {
		l.frame(c.X, c.Y, c.W, c.H, math.Max(1.5, f*0.12), accent.alpha(pulseAt(t)))
	}
}

// topCardC is the fill of a card the step's range read returned: an accent tint of the panel
// that the card's member (textColor), score (oneC) and badge (Dim) stay readable on. SetTheme
// recomputes it.
var topCardC Color

func init() {
	onTheme(func() { topCardC = tint(accent, panelC, 0.84, textColor, oneC, dim) })
}

func overlapRect(a, b Rect) bool {
	return a.X < b.X+b.W && b.X < a.X+a.W && a.Y < b.Y+b.H && b.Y < a.Y+a.H
}

// drawListpack draws the cards in listpack order (ascending score) and the bytes below.
func (s *zsetScene) drawListpack(l *list, r Rect, f, t float64) {
	n := len(s.Members)
	cols, cw, ch, gap := cardLayout(n, r.W, f)
	rows := (n + cols - 1) / cols
	cardsH := math.Min(float64(rows)*(ch+gap), r.H*0.5)
	k := ease(t)
	shown := min(n, int((cardsH+gap)/(ch+gap))*cols)
	first := max(0, n-shown) // keep the top of the board (highest scores) in view
	// The moving card is drawn last, over the others; a card it covers hides its text meanwhile.
	moved, mr := -1, Rect{}
	if s.Move != nil && k < 1 {
		if moved = s.memberIndex(s.Move.Member); moved >= first {
			mr = cardSlot(r, s.slot(moved, k)-float64(first), cols, cw, ch, gap)
		} else {
			moved = -1
		}
	}
	for i := first; i < n; i++ {
		pos := s.slot(i, k) - float64(first)
		if pos < 0 || i == moved {
			continue
		}
		c := cardSlot(r, pos, cols, cw, ch, gap)
		s.drawCard(l, c, s.Members[i], f, t, n-i, moved < 0 || !overlapRect(c, mr))
	}
	if moved >= 0 {
		s.drawCard(l, mr, s.Members[moved], f, t, n-moved, true)
	}
	y := r.Y + cardsH + f*0.3
	drawLPBytes(l, s.LP, Rect{r.X, y, r.W, r.Y + r.H - y}, f, t, &s.img, s.lang)
}

// skipCols is how many skiplist nodes fit in width w (after the header column) at font size f.
func skipCols(n int, w, f float64) int {
	return max(1, min(n, int((w-f*4)/(f*3.7))))
}

// drawSkiplist draws the header and the nodes as towers with their forward links; when not all
// nodes fit, the highest-ranked ones (the top of the board) are shown.
func (s *zsetScene) drawSkiplist(l *list, r Rect, f, t float64) {
	n := len(s.Members)
	vis := skipCols(n, r.W, f)
	first := n - vis
	levels := max(1, s.ListLevel)
	size := f * 0.7
	labelH := size * 2.8
	boxH := math.Min(f*2.2, (r.H-labelH)/float64(levels+1)) // towers grow into a tall stage
	headW := f * 3
	nilW := monoWidth("NIL", size*0.8) + f*0.5
	colW := (r.W - headW - nilW) / float64(vis)
	baseY := r.Y + float64(levels)*boxH // bottom of level 0
	k := ease(t)
	xOf := func(slot float64) float64 { return r.X + headW + (slot-float64(first))*colW + colW*0.15 }
	boxW := colW * 0.7
	// Header tower.
	for lv := 0; lv < levels; lv++ {
		y := baseY - float64(lv+1)*boxH
		l.rect(r.X, y+1, headW*0.7, boxH-2, headerC.mix(Background, 0.35))
		if boxH >= size*1.1 {
			l.text(r.X+headW*0.35, y+(boxH-size)/2, "L"+strconv.Itoa(lv+1), size, textColor, Center, true)
		}
	}
	l.text(r.X, baseY+size*0.3, "head", size, dim, Left, true)
	// Forward links: from each tower (or the header) to the next node at least as tall.
	next := func(i, lv int) int {
		for j := i + 1; j < n; j++ {
			if s.Members[j].Level > lv {
				return j
			}
		}
		return n
	}
	for lv := 0; lv < levels; lv++ {
		y := baseY - float64(lv)*boxH - boxH/2
		from := -1
		for from < n {
			to := next(from, lv)
			x0 := r.X + headW*0.7
			if from >= 0 {
				x0 = xOf(s.slot(from, k)) + boxW
			}
			x1 := r.X + r.W - nilW + f*0.2
			if to < n {
				x1 = xOf(s.slot(to, k))
			}
			if from < first-1 && from >= 0 {
				x0 = r.X + headW*0.7
			}
			if to >= first && x1 > x0 {
				l.line(x0, y, x1, y, math.Max(1, f*0.08), dim)
				if to < n {
					l.line(x1-size*0.4, y-size*0.3, x1, y, math.Max(1, f*0.08), dim)
					l.line(x1-size*0.4, y+size*0.3, x1, y, math.Max(1, f*0.08), dim)
				}
			}
			if to >= n {
				break
			}
			from = to
		}
		if boxH >= size*1.1 {
			l.text(r.X+r.W, y-size*0.4, "NIL", size*0.8, dim, Right, true)
		}
	}
	// Backward links (level 0 only, as in t_zset.c's zskiplistNode): each node points back at
	// the one before it, drawn under the forward link in their own colour, lit when the step
	// read the set from the top (ZREVRANGE and friends walk them from the tail).
	bc := indexC
	if strings.Contains(strings.ToLower(s.TopCmd), "rev") {
		bc = indexC.mix(accent, pulseAt(t))
	}
	by := baseY - boxH*0.2
	bs := math.Max(1, f*0.08)
	for i := max(first, 1); i < n; i++ {
		x1 := xOf(s.slot(i, k))
		x0 := xOf(s.slot(i-1, k)) + boxW
		if x1-x0 < size*0.9 {
			continue
		}
		l.line(x1, by, x0, by, bs, bc)
		l.line(x0+size*0.4, by-size*0.3, x0, by, bs, bc)
		l.line(x0+size*0.4, by+size*0.3, x0, by, bs, bc)
	}
	// Towers and labels; the moving node is drawn last and hides the labels it passes over.
	moved := -1
	if s.Move != nil && k < 1 {
		moved = s.memberIndex(s.Move.Member)
	}
	labelBox := func(x float64) Rect { return Rect{x - colW*0.15, baseY, colW, labelH} }
	order := make([]int, 0, n)
	for i := first; i < n; i++ {
		if i != moved {
			order = append(order, i)
		}
	}
	if moved >= first {
		order = append(order, moved)
	}
	for _, i := range order {
		m := s.Members[i]
		x := xOf(s.slot(i, k))
		if x < r.X+headW-1 {
			continue
		}
		place := s.topPlace(m.Member)
		c := dataC
		if place > 0 {
			c = accent
		}
		if s.Conv != nil {
			c = c.mix(Background, 0.6*(1-k))
		}
		for lv := 0; lv < m.Level && lv < levels; lv++ {
			y := baseY - float64(lv+1)*boxH
			l.rect(x, y+1, boxW, boxH-2, c)
		}
		if s.Changed[m.Member] || place > 0 {
			top := baseY - float64(min(m.Level, levels))*boxH
			l.frame(x-1, top, boxW+2, baseY-top, math.Max(1.5, f*0.1), accent.alpha(pulseAt(t)))
		}
		if i != moved && moved >= first && overlapRect(labelBox(x), labelBox(xOf(s.slot(moved, k)))) {
			continue
		}
		if place > 0 && boxH >= size*1.1 && (s.Conv == nil || k >= 1) {
			l.text(x+boxW/2, baseY-boxH+(boxH-size)/2, "#"+strconv.Itoa(place), size, Background, Center, true)
		}
		lw := colW - 2
		l.text(x-colW*0.15+colW/2, baseY+size*0.3, fit(m.Member, lw, size), size, textColor, Center, true)
		l.text(x-colW*0.15+colW/2, baseY+size*1.6, fit(m.Score, lw, size), size, oneC, Center, true)
	}
	if first > 0 {
		l.text(r.X, baseY+size*1.6, fit(fmt.Sprintf("+%d…", first), headW-2, size), size, dim, Left, true)
	}
}

func init() {
	register("zset", func() Scene { return &zsetScene{} })
}
