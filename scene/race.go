package scene

import (
	"fmt"
	"math"
	"strings"

	"redscope/engine"
)

// Race draws two (or three) console clients taking turns on the same keys: a sequence diagram
// of the step. Each client has a lane (client 1 on the left, client 2 on the right, client 3
// under them when it speaks); the step's commands go down the stage in the order the engine ran
// them, each as a card in its sender's lane with the reply it got, and a numbered mark on the
// middle line, the single thread that runs one command at a time. Commands of the lesson's own
// client (steps without a `client` line) span the lanes. Above the lanes, the watched keys as
// they are now: a string's value, a sorted set's or hash's first pairs.
//
// A read-modify-write that loses an update reads, in the picture: client 1 GET → "5", client 2
// GET → "5", client 1 SET 6, client 2 SET 6, and the key at 6; INCRBY from both lanes shows 6
// and 7 as the replies themselves. Everything drawn is an exchange of the step (its command,
// client and reply) or the key as the engine holds it (Peek).
type Race struct {
	Keys  []RaceKey
	Rows  []RaceRow
	More  int // earlier exchanges of the step not drawn
	Lanes int // 2, or 3 when client 3 sent a command
	lang  string
	watch []string
	fit   fitter
}

// RaceKey is one watched key's current value.
type RaceKey struct {
	Key     string
	Exists  bool
	Value   string // a string's value in quotes, or "member score, …" / "field value, …"
	Type    string
	Touched bool
}

// RaceRow is one exchange of the step.
type RaceRow struct {
	Client int // 0 = the lesson's own client
	Cmd    string
	Reply  string // the reply's lines joined by " · "; "" for a command that blocked
	Error  bool
	Queued bool // answered QUEUED inside MULTI: it runs at EXEC
	Nil    bool // answered (nil): EXEC of a transaction whose watched key changed, a missing key
}

// RaceMaxRows is how many exchanges of a step the scene draws (the last ones).
const RaceMaxRows = 9

func init() { register("race", func() Scene { return &Race{} }) }

// Update implements Scene.
func (s *Race) Update(in Input) {
	s.fit.reset()
	*s = Race{lang: in.Lang, watch: in.Keys, Lanes: 2}
	touched := keysTouched(in.Last)
	var rows []RaceRow
	for _, x := range in.Last {
		if x.Advance != "" || x.Cmd == "" {
			continue
		}
		r := RaceRow{Client: x.Client, Cmd: shortCmd(x.Cmd), Reply: strings.ReplaceAll(x.Reply, "\n", " · "), Error: x.Error}
		r.Queued = x.Reply == "QUEUED"
		r.Nil = x.Reply == "(nil)"
		if x.Client == 3 {
			s.Lanes = 3
		}
		rows = append(rows, r)
	}
	s.Rows, s.More = lastRows(rows, RaceMaxRows)
	for _, k := range in.Keys {
		rk := RaceKey{Key: k, Touched: touched[k]}
		o := in.Engine.Peek([]byte(k))
		if o != nil {
			rk.Exists, rk.Type = true, o.Type.String()
			rk.Value = raceValue(in.Engine, o)
		}
		s.Keys = append(s.Keys, rk)
	}
}

// raceValue is a key's value as the picture writes it.
func raceValue(e *engine.Engine, o *engine.Object) string {
	switch o.Type {
	case engine.TypeString:
		v := o.StringBytes()
		if len(v) > 40 {
			return fmt.Sprintf("%q…", v[:40])
		}
		return fmt.Sprintf("%q", v)
	case engine.TypeZSet, engine.TypeHash:
		lp := o.Listpack()
		if lp == nil {
			return o.Enc.String()
		}
		v := newLPView(lp, 2, lp.Usable(e.Allocator()))
		var parts []string
		for i := 0; i+1 < len(v.Entries) && len(parts) < 4; i += 2 {
			parts = append(parts, v.Entries[i].Text+" "+v.Entries[i+1].Text)
		}
		if n := len(v.Entries) / 2; n > len(parts) {
			parts = append(parts, fmt.Sprintf("+%d", n-len(parts)))
		}
		return strings.Join(parts, ", ")
	}
	return o.Enc.String()
}

// Frame implements Scene.
func (s *Race) Frame(r Rect, t float64) []Prim {
	return s.fit.framed(r, t, s.lang, s.start, s.layout)
}

// laneName is a lane's heading.
func (s *Race) laneName(c int) string {
	if c == 0 {
		return tr(s.lang, "lesson", "bài học")
	}
	return tr(s.lang, "client %d", "máy khách %d", c)
}

// raceColor is client c's colour (the lesson's own client: the text colour).
func raceColor(c int) Color {
	if c <= 0 {
		return dim
	}
	return clientColor(c - 1)
}

func (s *Race) start() (startCard, bool) {
	keys, ok := unmade(s.Keys, func(k RaceKey) (string, bool) { return k.Key, k.Exists })
	if !ok || len(s.Rows) > 0 {
		return startCard{}, false
	}
	return card(s.lang, "race", keys), true
}

// layout lays the scene out in r (Frame zooms it to fill the stage).
func (s *Race) layout(r Rect, t float64) []Prim {
	var l list
	f, in := margins(r)
	fs := math.Max(minText, f*0.8)
	cw := monoWidth("m", fs)
	y := in.Y
	pulse := pulseAt(t)
	// The keys as they are now.
	for _, k := range s.Keys {
		if !k.Exists && !k.Touched {
			continue
		}
		if y+fs*1.6 > in.Y+in.H*0.3 {
			break
		}
		l.rect(in.X-fs*0.3, y, in.W+fs*0.6, fs*1.5, panelC)
		if k.Touched {
			l.frame(in.X-fs*0.3, y, in.W+fs*0.6, fs*1.5, 1.5, grid.mix(accent, pulse))
		}
		val := tr(s.lang, "(missing)", "(không có)")
		if k.Exists {
			val = k.Value
		}
		txt := k.Key + " = " + val
		l.text(in.X, y+fs*0.2, fitText(txt, in.W, fs, true), fs, textColor, Left, true)
		y += fs * 1.8
	}
	y += fs * 0.2
	// Lane headings and the middle line.
	lanes := s.Lanes
	laneW := in.W / float64(lanes)
	laneX := func(c int) float64 { return in.X + float64(c-1)*laneW }
	for c := 1; c <= lanes; c++ {
		x := laneX(c)
		l.rect(x+2, y, laneW-4, fs*1.5, raceColor(c))
		l.text(x+laneW/2, y+fs*0.2, fitText(s.laneName(c), laneW-8, fs, false), fs, textOn(raceColor(c)), Center, false)
	}
	y += fs * 1.9
	if s.More > 0 {
		l.text(in.X, y, tr(s.lang, "… %d earlier commands", "… %d lệnh trước đó", s.More), fs, dim, Left, false)
		y += fs * 1.4
	}
	rowH := fs * 2.9
	if n := len(s.Rows); n > 0 {
		rowH = math.Min(fs*4, math.Max(rowH, (in.Y+in.H-y)/float64(n)))
	}
	top := y
	// The lane guides: one thin line down the middle of each lane.
	bottom := math.Min(in.Y+in.H, top+rowH*float64(len(s.Rows)))
	for c := 1; c <= lanes; c++ {
		x := laneX(c) + laneW/2
		l.line(x, top, x, bottom, 1, grid)
	}
	for i, row := range s.Rows {
		if y+fs*2.7 > in.Y+in.H+0.01 {
			break
		}
		x, w := in.X, in.W
		if row.Client >= 1 && row.Client <= lanes {
			x, w = laneX(row.Client)+3, laneW-6
		}
		cardH := math.Min(rowH-fs*0.3, fs*2.7)
		col := raceColor(row.Client)
		l.rect(x, y, w, cardH, panelC)
		last := i == len(s.Rows)-1
		stroke := 1.5
		if last {
			stroke = 2.5
		}
		l.frame(x, y, w, cardH, stroke, col)
		// The order mark: which command the engine ran n-th in this step.
		num := fmt.Sprintf("%d", s.More+i+1)
		nw := monoWidth(num, fs) + fs*0.5
		l.rect(x, y, nw, fs*1.3, col)
		l.text(x+nw/2, y+fs*0.1, num, fs, textOn(col), Center, true)
		tx := x + nw + cw*0.5
		l.text(tx, y+fs*0.1, fitText(row.Cmd, x+w-tx-cw*0.3, fs, true), fs, textColor, Left, true)
		rc := textColor
		switch {
		case row.Error || row.Nil:
			rc = ErrorC
		case row.Queued:
			rc = dim
		case last:
			rc = textColor.mix(accent, pulse)
		}
		rep := "→ " + row.Reply
		if row.Reply == "" {
			rep = tr(s.lang, "→ (waiting)", "→ (đang chờ)")
		}
		l.text(x+cw, y+fs*1.35, fitText(rep, w-cw*1.5, fs, true), fs, rc, Left, true)
		y += rowH
	}
	return l
}

// Describe implements Describer.
func (s *Race) Describe() string {
	var parts []string
	for _, k := range s.Keys {
		if k.Exists {
			parts = append(parts, k.Key+" = "+k.Value)
		}
	}
	for i, row := range s.Rows {
		who := s.laneName(row.Client)
		parts = append(parts, fmt.Sprintf("%d. %s: %s → %s", s.More+i+1, who, row.Cmd, row.Reply))
	}
	if len(parts) == 0 {
		return tr(s.lang, "no command yet", "chưa có lệnh nào")
	}
	return sentence(parts...)
}
