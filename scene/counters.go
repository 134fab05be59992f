package scene

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"redscope/engine"
)

// countersScene draws counters and locks: each watched key with its value, its TTL as a bar that
// empties as the logical clock moves, and who holds it when the value is a client's token; then
// the step's commands with a verdict each (INCREX's applied increment, SET … NX/IFEQ written or
// not, DELEX deleted or not), and the logical clock.
type countersScene struct {
	Keys    []counterKey
	Rows    []verdict
	More    int     // earlier commands of the step not listed
	ClockMs int64   // logical time since the lesson started
	Window  float64 // TTL bar scale in ms (the largest EX/PX of the step's commands, else 60 s)
	Missing string  // a command this profile does not know (the lesson needs a newer one)
	Version string
	lang    string
	fit     fitter // the zoom that fills the stage (layout.go)
}

// counterKey is one key's row.
type counterKey struct {
	Key     string
	Exists  bool
	Value   string
	TTLMs   int64 // -1 none, -2 missing
	Touched bool
	Token   int // client index when the value looks like a token ("tok-A" → 0), else -1
}

// verdict is one exchange of the step, judged.
type verdict struct {
	Cmd     string
	Reply   string // short form of the reply
	OK      bool   // allowed / written / deleted
	Neutral bool   // a read or a clock move: no verdict
	Note    string // what the verdict means
	Advance bool
}

// countersMaxRows is how many exchanges of a step the scene lists.
const countersMaxRows = 8

func init() { register("counters", func() Scene { return &countersScene{} }) }

// tokenIndex maps a lock token to a client: the letter after the last '-' ("tok-A" → 0, "tok-b"
// → 1), or -1 when the value is not such a token.
func tokenIndex(v string) int {
	i := strings.LastIndexByte(v, '-')
	if i < 0 || i != len(v)-2 || !strings.HasPrefix(v, "tok") {
		return -1
	}
	c := v[len(v)-1] | 0x20
	if c < 'a' || c > 'z' {
		return -1
	}
	return int(c - 'a')
}

// judged is the verdicts of the last n of xs (the rows a scene lists) and how many earlier
// exchanges it leaves out.
func judged(xs []engine.Exchange, n int, lang string) (rows []verdict, more int) {
	last, more := lastRows(xs, n)
	for _, x := range last {
		rows = append(rows, judge(x, lang))
	}
	return rows, more
}

// judge reads one exchange: whether the command did what it asked for.
func judge(x engine.Exchange, lang string) verdict {
	v := verdict{Cmd: x.Cmd, Reply: strings.ReplaceAll(x.Reply, "\n", " ")}
	if x.Advance != "" {
		v.Advance, v.Neutral = true, true
		v.Cmd = tr(lang, "clock +%s", "đồng hồ +%s", x.Advance)
		v.Reply = ""
		return v
	}
	f := strings.Fields(strings.ToUpper(x.Cmd))
	name := ""
	if len(f) > 0 {
		name = f[0]
	}
	has := func(w string) bool {
		for _, a := range f[1:] {
			if a == w {
				return true
			}
		}
		return false
	}
	switch {
	case x.Error:
		v.Note = tr(lang, "error", "lỗi")
	case name == "INCREX":
		// "1) (integer) 5\n2) (integer) 0" → [5, 0]
		var nv, applied string
		for _, line := range strings.Split(x.Reply, "\n") {
			_, val, _ := strings.Cut(line, ") ")
			val = strings.TrimPrefix(val, "(integer) ")
			val = strings.Trim(val, `"`)
			if nv == "" {
				nv = val
			} else {
				applied = val
			}
		}
		v.Reply = "[" + nv + ", " + applied + "]"
		if a, err := strconv.ParseFloat(applied, 64); err == nil && a != 0 {
			v.OK = true
			v.Note = tr(lang, "applied %s", "đã cộng %s", applied)
		} else {
			v.Note = tr(lang, "refused: bound reached", "từ chối: chạm giới hạn")
		}
	case name == "SET" && (has("NX") || has("XX") || has("IFEQ") || has("IFNE") || has("IFDEQ") || has("IFDNE")):
		v.OK = x.Reply == "OK"
		if v.OK {
			v.Note = tr(lang, "written", "đã ghi")
		} else {
			v.Note = tr(lang, "not written", "không ghi")
		}
	case name == "DELEX" || name == "DEL" || name == "UNLINK":
		v.OK = x.Reply != "(integer) 0"
		if v.OK {
			v.Note = tr(lang, "deleted", "đã xoá")
		} else {
			v.Note = tr(lang, "kept", "không xoá")
		}
	default:
		v.Neutral = true
	}
	return v
}

// Update implements Scene.
func (s *countersScene) Update(in Input) {
	s.fit.reset()
	*s = countersScene{lang: in.Lang, Window: 60000, Version: in.Engine.Version().String()}
	s.ClockMs = in.Engine.NowMs() - engine.StartMs
	touched := keysTouched(in.Last)
	for _, x := range in.Last {
		if x.Error && s.Missing == "" && strings.Contains(x.Reply, "unknown command") {
			if f := strings.Fields(x.Cmd); len(f) > 0 {
				s.Missing = strings.ToUpper(f[0])
			}
		}
		if x.Error && s.Missing == "" && strings.Contains(x.Reply, "syntax error") {
			if f := strings.Fields(x.Cmd); len(f) > 0 {
				s.Missing = strings.ToUpper(f[0]) + " …"
			}
		}
		if ms := expiryArg(x.Cmd); ms > 0 {
			s.Window = math.Max(s.Window, float64(ms))
		}
	}
	for _, k := range in.Keys {
		ki := in.Engine.Inspect(k)
		ck := counterKey{Key: k, Exists: ki.Exists, TTLMs: ki.TTLMs, Touched: touched[k], Token: -1}
		if o := in.Engine.Peek([]byte(k)); o != nil && o.Type == engine.TypeString {
			ck.Value = string(o.StringBytes())
			ck.Token = tokenIndex(ck.Value)
		} else if ki.Exists {
			ck.Value = "(" + ki.Type + ")"
		}
		s.Keys = append(s.Keys, ck)
	}
	s.Rows, s.More = judged(in.Last, countersMaxRows, in.Lang)
}

// expiryArg is the EX/PX of a command line in ms (0 when none).
func expiryArg(cmd string) int64 {
	f := strings.Fields(strings.ToUpper(cmd))
	for i := 1; i+1 < len(f); i++ {
		n, err := strconv.ParseInt(f[i+1], 10, 64)
		if err != nil || n <= 0 || n > 1<<40 {
			continue
		}
		switch f[i] {
		case "EX":
			return n * 1000
		case "PX":
			return n
		}
	}
	return 0
}

// ttlFraction is the share of the bar a TTL fills.
func ttlFraction(ttlMs int64, window float64) float64 {
	if ttlMs < 0 || window <= 0 {
		return 0
	}
	return math.Min(1, float64(ttlMs)/window)
}

// clientColor is the colour of client i's token.
func clientColor(i int) Color { return nodeColor(i) }

// Frame implements Scene.
func (s *countersScene) Frame(r Rect, t float64) []Prim {
	return s.fit.framed(r, t, s.lang, s.start, s.layout)
}

// layout lays the scene out in r (Frame zooms it to fill the stage).
func (s *countersScene) layout(r Rect, t float64) []Prim {
	var l list
	f, in := margins(r)
	fs := f * 0.8
	if in.H >= 600 && in.W >= 700 { // a laptop's stage: the table at the base size, spread over it
		fs = f
	}
	y := in.Y
	clock := tr(s.lang, "logical clock: +%s since the start", "đồng hồ logic: +%s từ đầu bài", fmtDur(s.ClockMs))
	l.text(in.X, y, fitText(clock, in.W, fs, false), fs, dim, Left, false)
	y += fs * 1.5
	if s.Missing != "" {
		msg := tr(s.lang, "Redis %s does not know %s: this lesson needs a newer version (see the panel).", "Redis %s không có %s: bài này cần phiên bản mới hơn (xem thông báo bên cạnh).", s.Version, s.Missing)
		y = l.wrap(Rect{in.X, y, in.W, in.Y + in.H - y}, y, msg, fs, ErrorC) + fs*0.3
	}
	// Keys: name | value | TTL bar.
	cw := monoWidth("m", fs)
	nameW := cw * 14
	valW := cw * 12
	if in.W > cw*60 {
		valW = cw * 20 // room for "tok-A (client A)"
	}
	barX := in.X + nameW + valW
	barW := in.X + in.W - barX
	narrow := barW < cw*10
	rowH := fs * 1.5
	if narrow {
		rowH = fs * 2.7
		barX, barW = in.X+cw, in.W-cw
	} else if n := len(s.Keys); n > 0 {
		// A tall stage: the rows spread over half of it (the commands take the rest).
		rowH = math.Min(fs*2.6, math.Max(rowH, (in.Y+in.H*0.5-y)/float64(n)))
	}
	ty := (rowH - fs*1.5) / 2 // the row's text sits in its middle
	pulse := pulseAt(t)
	for _, k := range s.Keys {
		if y+rowH > in.Y+in.H*0.6 {
			break
		}
		c := textColor
		if k.Touched {
			c = textColor.mix(accent, pulse)
		}
		// Each key is a slot of the keyspace: a panel behind its row, framed when the step
		// touched it; a missing key's slot is empty.
		l.rect(in.X-fs*0.3, y+fs*0.05, in.W+fs*0.6, rowH-fs*0.1, panelC)
		if k.Touched {
			l.frame(in.X-fs*0.3, y+fs*0.05, in.W+fs*0.6, rowH-fs*0.1, 1.5, grid.mix(accent, pulse))
		}
		y += ty
		l.text(in.X, y, fitText(k.Key, nameW-cw, fs, true), fs, c, Left, true)
		val := tr(s.lang, "(missing)", "(không có)")
		vc := dim
		if k.Exists {
			val, vc = k.Value, textColor
			if k.Token >= 0 {
				vc = clientColor(k.Token)
				val += tr(s.lang, " (client %c)", " (client %c)", 'A'+rune(k.Token))
			}
		}
		l.text(in.X+nameW, y, fitText(val, valW-cw, fs, true), fs, vc, Left, true)
		by := y + fs*0.2
		if narrow {
			by = y + fs*1.35
		}
		if k.Exists {
			ttl := tr(s.lang, "no TTL", "không TTL")
			if k.TTLMs >= 0 {
				ttl = "TTL " + fmtDur(k.TTLMs)
			}
			tw := monoWidth("TTL 00m00s ", fs)
			bw := math.Max(0, barW-tw)
			if k.TTLMs >= 0 && bw > cw*2 {
				l.rect(barX+tw, by+fs*0.15, bw, fs*0.6, zeroC)
				l.rect(barX+tw, by+fs*0.15, bw*ttlFraction(k.TTLMs, s.Window), fs*0.6, oneC)
			}
			tc := dim
			if k.TTLMs >= 0 {
				tc = textColor
			}
			l.text(barX, by-fs*0.2, fitText(ttl, tw, fs, true), fs, tc, Left, true)
		}
		y += rowH - ty
	}
	y += fs * 0.3
	// The step's commands and their verdicts.
	if s.More > 0 && y+fs*1.4 <= in.Y+in.H {
		l.text(in.X, y, tr(s.lang, "… %d earlier commands", "… %d lệnh trước đó", s.More), fs, dim, Left, false)
		y += fs * 1.4
	}
	spread := fs * 1.4
	if !narrow && len(s.Rows) > 0 {
		spread = math.Min(fs*2.4, math.Max(spread, (in.Y+in.H-y)/float64(len(s.Rows))))
	}
	for _, v := range s.Rows {
		need := spread
		cmdW := in.W
		if !narrow {
			cmdW = in.W * 0.58
		}
		// A command too long for its column takes the row's width, its verdict the line under it
		// (as on a phone), rather than ending in "…".
		under := narrow || monoWidth(v.Cmd, fs) > cmdW-cw
		if under {
			cmdW = in.W
		}
		if under && (v.Reply != "" || v.Note != "") {
			need = math.Max(need, fs*2.7)
		}
		if y+need > in.Y+in.H+0.01 {
			break
		}
		col := textColor
		if v.Advance {
			col = dim
		}
		l.text(in.X, y, fitText(v.Cmd, cmdW-cw, fs, true), fs, col, Left, true)
		if v.Reply != "" || v.Note != "" {
			x, ry := in.X+cmdW, y
			if under {
				x, ry = in.X+cw*2, y+fs*1.3
			}
			res := v.Reply
			if v.Note != "" {
				res += " " + v.Note
			}
			rc := textColor
			if !v.Neutral {
				rc = oneC
				if !v.OK {
					rc = ErrorC
				}
			}
			l.text(x, ry, fitText(res, in.X+in.W-x, fs, true), fs, rc, Left, true)
		}
		y += need
	}
	return l
}

// fmtDur prints a duration in ms as "1m05s", "35s" or "250ms".
func fmtDur(ms int64) string {
	switch {
	case ms < 1000:
		return fmt.Sprintf("%dms", ms)
	case ms < 60000:
		return fmt.Sprintf("%ds", ms/1000)
	}
	return fmt.Sprintf("%dm%02ds", ms/60000, ms/1000%60)
}
