package scene

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"redscope/engine"
)

// Draws counts the random draws of a step and draws how often each member came out, members
// sorted from the least drawn to the most, against the line a fair draw would give. The counts
// come from the engine's RandomPickEvents (one per member SRANDMEMBER, SPOP or HRANDFIELD picked,
// with the method: a listpack's rand() % n, a hashtable's dictGetFairRandomKey), so the picture is
// what the seeded engine did, not a simulation. A step that reads ranks with ZRANGE key i i (the
// fair way: the application draws i) is counted from those replies. A step without draws shows
// the key itself, as the encoding scene draws it.
//
// Example (lesson fair-draws, 8.8, seed 0): SRANDMEMBER big -100000 on 1 000 members in a
// hashtable: expected 100 a member, the least drawn about a third of that, the most about twice,
// chi-square in the thousands where a fair draw gives about 999; the same on a 10-member
// listpack stays within a few percent of the line.
type Draws struct {
	Key     string
	Cmd     string  // the command that drew ("SRANDMEMBER", "ZRANGE" …)
	Method  string  // the engine's pick method ("dict-fair-random", "rand-index", "rank")
	Enc     string  // the key's encoding
	Members int64   // the key's size (members never drawn count as 0)
	Counts  []int64 // per member, ascending
	Total   int64   // draws counted
	Min     int64
	Max     int64
	Chi2    float64 // Σ (count − expected)² / expected

	enc  encodingScene // the key when the step drew nothing
	lang string
	fit  fitter
}

func init() { register("draws", func() Scene { return &Draws{} }) }

// Expected is the count a fair draw gives each member.
func (s *Draws) Expected() float64 {
	if s.Members == 0 {
		return 0
	}
	return float64(s.Total) / float64(s.Members)
}

// Update implements Scene.
func (s *Draws) Update(in Input) {
	*s = Draws{enc: s.enc, lang: in.Lang}
	s.fit.reset()
	counts := map[string]int64{}
	for _, x := range in.Last {
		for _, ev := range x.Events {
			if p, ok := ev.(engine.RandomPickEvent); ok && (s.Key == "" || p.Key == s.Key) {
				if s.Key == "" {
					s.Key, s.Method = p.Key, p.Method
					s.Cmd = strings.ToUpper(p.Cmd)
				}
				counts[p.Member]++
			}
		}
	}
	if s.Key == "" { // the fair way: the application's rank read with ZRANGE key i i
		for _, x := range in.Last {
			f := strings.Fields(x.Cmd)
			if len(f) != 4 || !strings.EqualFold(f[0], "zrange") || f[2] != f[3] || (s.Key != "" && f[1] != s.Key) {
				continue
			}
			if m, ok := singleMember(x.Reply); ok {
				s.Key, s.Cmd, s.Method = f[1], "ZRANGE", "rank"
				counts[m]++
			}
		}
	}
	if s.Key == "" {
		s.enc.Update(in)
		return
	}
	o := in.Engine.Peek([]byte(s.Key))
	s.Enc, s.Members = in.Engine.Inspect(s.Key).Encoding, max(elements(o), int64(len(counts)))
	for _, n := range counts {
		s.Counts = append(s.Counts, n)
		s.Total += n
	}
	for int64(len(s.Counts)) < s.Members {
		s.Counts = append(s.Counts, 0)
	}
	slices.Sort(s.Counts)
	if len(s.Counts) > 0 {
		s.Min, s.Max = s.Counts[0], s.Counts[len(s.Counts)-1]
	}
	if e := s.Expected(); e > 0 {
		for _, n := range s.Counts {
			d := float64(n) - e
			s.Chi2 += d * d / e
		}
	}
}

// elements is the number of members (fields) of a set, sorted set or hash, 0 for anything else.
func elements(o *engine.Object) int64 {
	if o == nil {
		return 0
	}
	if n, ok := o.SetLen(); ok {
		return int64(n)
	}
	if sl := o.Skiplist(); sl != nil {
		return int64(sl.Len())
	}
	if lp := o.Listpack(); lp != nil {
		switch {
		case o.Enc == engine.EncListpackEx:
			return int64(lp.Len() / 3)
		case o.Type == engine.TypeHash || o.Type == engine.TypeZSet:
			return int64(lp.Len() / 2)
		}
		return int64(lp.Len())
	}
	if d, ok := o.Dict(); ok {
		return int64(d.Used[0] + d.Used[1])
	}
	return 0
}

// singleMember reads a one-element reply as redis-cli prints it: `1) "m"`.
func singleMember(reply string) (string, bool) {
	r, ok := strings.CutPrefix(reply, "1) ")
	if !ok || strings.Contains(r, "\n") {
		return "", false
	}
	m, err := strconv.Unquote(r)
	return m, err == nil
}

// Frame implements Scene.
func (s *Draws) Frame(r Rect, t float64) []Prim {
	if s.Key == "" {
		return s.enc.Frame(r, t)
	}
	return s.fit.frame(r, t, s.layout)
}

func (s *Draws) layout(r Rect, t float64) []Prim {
	var l list
	f, in := margins(r)
	y := in.Y
	how := tr(s.lang, "hashtable: dictGetFairRandomKey", "hashtable: dictGetFairRandomKey")
	switch s.Method {
	case "rand-index", "lp-next-random":
		how = tr(s.lang, "%s: rand() %% %s", "%s: rand() %% %s", s.Enc, num(s.Members))
	case "rank":
		how = tr(s.lang, "rank i drawn by the application", "thứ hạng i do ứng dụng rút")
	}
	for _, line := range wrapNum(tr(s.lang, "%s %s · %s draws · %s · %s", "%s %s · %s lần rút · %s · %s",
		s.Cmd, s.Key, num(s.Total), trPlural(s.lang, s.Members, "member", "members", "member"), how), in.W, f, 3) {
		l.text(in.X, y, line, f, textColor, Left, false)
		y += f * 1.3
	}
	exp := s.Expected()
	stats := tr(s.lang, "expected %s a member · fewest %s · most %s · chi-square %s (fair ≈ %s)",
		"kỳ vọng %s mỗi member · ít nhất %s · nhiều nhất %s · chi-square %s (đều thì ≈ %s)",
		fmtExpected(exp), num(s.Min), num(s.Max), num(int64(math.Round(s.Chi2))), num(max(s.Members-1, 0)))
	for _, line := range wrapNum(stats, in.W, f*0.85, 3) {
		l.text(in.X, y, line, f*0.85, dim, Left, false)
		y += f * 1.15
	}
	y += f * 0.4
	// The chart: one column per member (or per run of members when they outnumber the pixels),
	// sorted ascending, scaled so that twice the expected count fits.
	axis := f * 1.4
	ch := Rect{in.X, y, in.W, math.Max(in.Y+in.H-y-axis, f*3)}
	top := math.Max(float64(s.Max), 2*exp)
	if top <= 0 {
		top = 1
	}
	l.rect(ch.X, ch.Y, ch.W, ch.H, panelC)
	cols := len(s.Counts)
	maxCols := int(ch.W / 2)
	if cols > maxCols {
		cols = maxCols
	}
	gap := 0.0
	if cols <= 60 {
		gap = math.Min(ch.W/float64(max(cols, 1))*0.15, 4)
	}
	cw := ch.W / float64(max(cols, 1))
	grow := ease(t*1.5 + 0.2)
	for c := 0; c < cols; c++ {
		i0, i1 := c*len(s.Counts)/cols, (c+1)*len(s.Counts)/cols
		var sum int64
		for _, n := range s.Counts[i0:i1] {
			sum += n
		}
		v := float64(sum) / float64(max(i1-i0, 1))
		h := ch.H * v / top * grow
		col := dataC
		if exp > 0 && (v > exp*1.5 || v < exp/1.5) {
			col = ErrorC
		}
		l.rect(ch.X+float64(c)*cw+gap/2, ch.Y+ch.H-h, math.Max(cw-gap, 0.8), h, col)
	}
	ey := ch.Y + ch.H - ch.H*exp/top
	l.line(ch.X, ey, ch.X+ch.W, ey, math.Max(2, f*0.12), accent)
	lbl := tr(s.lang, "fair: %s", "đều: %s", fmtExpected(exp))
	lw := textWidth(lbl, f*0.8, false) + f*0.6
	l.rect(ch.X+ch.W-lw, ey-f*1.25, lw, f*1.1, Background)
	l.text(ch.X+ch.W-f*0.3, ey-f*1.2, lbl, f*0.8, accent, Right, false)
	l.text(ch.X, ch.Y+ch.H+f*0.3, tr(s.lang, "members, from the least drawn to the most", "các member, từ ít được chọn nhất đến nhiều nhất"), f*0.8, dim, Left, false)
	key := tr(s.lang, "red: more than 1.5× or less than 2/3 of fair", "đỏ: hơn 1,5 lần hoặc dưới 2/3 mức đều")
	if textWidth(key, f*0.8, false)+f < ch.W/2 {
		l.text(ch.X+ch.W, ch.Y+ch.H+f*0.3, key, f*0.8, dim, Right, false)
	} else {
		l.text(ch.X, ch.Y+ch.H+f*1.3, key, f*0.8, dim, Left, false)
	}
	return l
}

// wrapNum is wrap that keeps a grouped number (num's narrow no-break spaces) on one line.
func wrapNum(s string, w, size float64, maxLines int) []string {
	out := wrap(strings.ReplaceAll(s, "\u202f", "\x00"), w, size, maxLines)
	for i := range out {
		out[i] = strings.ReplaceAll(out[i], "\x00", "\u202f")
	}
	return out
}

// fmtExpected writes an expected count: whole numbers plainly, others with one decimal.
func fmtExpected(x float64) string {
	if x == math.Trunc(x) {
		return num(int64(x))
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}

// Describe implements Describer.
func (s *Draws) Describe() string {
	if s.Key == "" {
		return s.enc.Describe()
	}
	return tr(s.lang, "%s %s: %s draws over %s; expected %s each, fewest %s, most %s, chi-square %s (fair ≈ %s).",
		"%s %s: %s lần rút trên %s; kỳ vọng %s mỗi member, ít nhất %s, nhiều nhất %s, chi-square %s (đều thì ≈ %s).",
		s.Cmd, s.Key, num(s.Total), trPlural(s.lang, s.Members, "member", "members", "member"), fmtExpected(s.Expected()),
		num(s.Min), num(s.Max), num(int64(math.Round(s.Chi2))), num(max(s.Members-1, 0)))
}

// Focus implements Focuser.
func (s *Draws) Focus() (string, string) {
	if s.Key == "" {
		return "encoding", s.enc.Key
	}
	return "draws", s.Key
}
