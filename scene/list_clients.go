package scene

import (
	"fmt"
	"strings"

	"redscope/engine"
)

// The clients a list's picture shows: each client that blocked on a drawn list in this step, was
// served or timed out in it, or is still waiting from an earlier step, as a card under the lists
// with a line up to the end of the list it takes from. A queue lesson's worker is thus in the
// picture when the list is empty (an empty list is no key at all, so there is nothing else to
// draw): "client 3 · BRPOP jobs 1 · timed out → (nil)".
//
// Everything comes from the step's trace (engine.BlockEvent: blocked, served, woken, timeout,
// unblocked), the woken client's reply, and engine.Waiters for the clients still waiting.

// listClient is one client card.
type listClient struct {
	Client   int64
	Cmd      string // the blocking command as typed ("BRPOP jobs 1")
	Verb     string // its name, lowercase ("brpop")
	State    string // "waiting", "served", "timeout", "unblocked"
	Key      string // the key it waits on or was served by
	Got      string // what it received (the woken reply's last value), "" while waiting
	Deadline int64  // absolute ms, 0 = no timeout
}

// listClientsMax is how many client cards are drawn.
const listClientsMax = 4

// gatherClients builds s.Clients from the step's exchanges and the engine's waiters.
func (s *listScene) gatherClients(in Input) {
	idx := map[int64]int{}
	get := func(id int64) *listClient {
		if i, ok := idx[id]; ok {
			return &s.Clients[i]
		}
		idx[id] = len(s.Clients)
		s.Clients = append(s.Clients, listClient{Client: id})
		return &s.Clients[len(s.Clients)-1]
	}
	drawn := map[string]bool{}
	for _, k := range in.Keys {
		drawn[k] = true
	}
	for _, x := range in.Last {
		for _, ev := range x.Events {
			b, ok := ev.(engine.BlockEvent)
			if !ok || !listVerb(b.Cmd) {
				continue
			}
			c := get(b.Client)
			c.Verb = b.Cmd
			switch b.Action {
			case "blocked":
				c.State, c.Deadline, c.Cmd = "waiting", b.Deadline, x.Cmd
				if len(b.Keys) > 0 {
					c.Key = b.Keys[0]
					for _, k := range b.Keys {
						if drawn[k] {
							c.Key = k
							break
						}
					}
				}
			case "served", "woken":
				c.State, c.Key = "served", b.Key
			case "timeout":
				c.State = "timeout"
			case "unblocked":
				c.State = "unblocked"
			}
		}
		if x.Woken && x.Client > 0 {
			if i, ok := idx[int64(x.Client)]; ok {
				s.Clients[i].Got = lastValue(x.Reply)
				if s.Clients[i].Cmd == "" {
					s.Clients[i].Cmd = x.Cmd
				}
			}
		}
	}
	// Still waiting from an earlier step.
	for _, k := range in.Keys {
		for _, w := range s.Waiting[k] {
			c := get(w.Client)
			if c.State == "" {
				c.State, c.Verb, c.Key, c.Deadline = "waiting", w.Cmd, k, w.Deadline
			}
		}
	}
	// A card says which command: the one typed, else its name and key.
	for i := range s.Clients {
		if s.Clients[i].Cmd == "" {
			s.Clients[i].Cmd = strings.ToUpper(s.Clients[i].Verb) + " " + s.Clients[i].Key
		}
	}
	if len(s.Clients) > listClientsMax {
		s.Clients = s.Clients[len(s.Clients)-listClientsMax:]
	}
	s.now = in.Engine.NowMs()
}

// listVerb: the blocking commands the list scene draws.
func listVerb(cmd string) bool {
	switch cmd {
	case "blpop", "brpop", "brpoplpush", "blmove", "blmpop":
		return true
	}
	return false
}

// lastValue is the last value of a redis-cli reply: `2) "email:101"` → email:101, (nil) → (nil).
func lastValue(reply string) string {
	lines := strings.Split(strings.TrimSpace(reply), "\n")
	v := strings.TrimSpace(lines[len(lines)-1])
	if i := strings.Index(v, ") "); i > 0 && i < 5 && strings.Trim(v[:i], "0123456789 ") == "" {
		v = strings.TrimSpace(v[i+2:])
	}
	return strings.Trim(v, `"`)
}

// status is the card's last line: "waiting · no timeout", "got email:101", "timed out → (nil)".
func (c listClient) status(lang string, now int64) string {
	switch c.State {
	case "served":
		if c.Got != "" {
			return tr(lang, "got %s", "nhận %s", c.Got)
		}
		return tr(lang, "served by %s", "được %s phục vụ", c.Key)
	case "timeout":
		return tr(lang, "timed out → (nil)", "hết giờ → (nil)")
	case "unblocked":
		return tr(lang, "unblocked → %s", "bị gỡ chặn → %s", orNil(c.Got))
	}
	if c.Deadline == 0 {
		return tr(lang, "waiting · no timeout", "đang chờ · không hết hạn")
	}
	left := max(c.Deadline-now, 0)
	return tr(lang, "waiting · %s left", "đang chờ · còn %s", msText(left))
}

func orNil(s string) string {
	if s == "" {
		return "(nil)"
	}
	return s
}

// msText is a wait in seconds with up to one decimal: 1000 → "1 s", 1500 → "1.5 s".
func msText(ms int64) string {
	if ms%1000 == 0 {
		return fmt.Sprintf("%d s", ms/1000)
	}
	return fmt.Sprintf("%.1f s", float64(ms)/1000)
}

// describeClients is the cards as one sentence for the text alternative.
func (s *listScene) describeClients() string {
	var out []string
	for _, c := range s.Clients {
		out = append(out, tr(s.lang, "client %d (%s): %s", "máy khách %d (%s): %s", c.Client, c.Cmd, c.status(s.lang, s.now)))
	}
	return strings.Join(out, "; ")
}

// clientLaneH is the height the cards take at text size small.
func clientLaneH(small float64) float64 { return small * 6.2 }

// frameClients draws the cards in r (the lane under the lists) with a line from each card up to
// the end of its list that it takes from (BLPOP the head, the others the tail).
func (s *listScene) frameClients(l *list, r Rect, anchors map[string]listAnchor, f, small, t float64) {
	n := len(s.Clients)
	if n == 0 {
		return
	}
	last := ""
	if len(s.Lists) > 0 {
		last = s.Lists[len(s.Lists)-1].Key
	}
	// Full cards (title, client, command, status), or on a short stage cards of the client and
	// its status only; none when even those do not fit (the text alternative still says it).
	full := r.H >= clientLaneH(small)
	if !full && r.H < small*3.6 {
		return
	}
	gap := f * 0.8
	cw := min((r.W-gap*float64(n-1))/float64(n), f*18)
	x := r.X
	top, h := r.Y+small*1.4, clientLaneH(small)-small*1.4
	if !full {
		top, h = r.Y, small*3.4
	} else {
		l.text(r.X, r.Y, clipTo(tr(s.lang, "clients blocked on the list (BRPOP, BLPOP, BLMOVE)", "máy khách chờ trên list (BRPOP, BLPOP, BLMOVE)"), r.W, small), small, dim, Left, false)
	}
	for _, c := range s.Clients {
		col := dim
		switch c.State {
		case "served":
			col = accent
		case "timeout", "unblocked":
			col = ErrorC
		}
		stroke := 1.5
		if c.State != "waiting" {
			stroke = 2.5 * (0.6 + 0.4*pulseAt(t))
		}
		l.rect(x, top, cw, h, panelC)
		l.frame(x, top, cw, h, stroke, col)
		pad := small * 0.5
		y := top + pad
		l.text(x+pad, y, clipTo(tr(s.lang, "client %d", "máy khách %d", c.Client), cw-2*pad, small), small, textColor, Left, false)
		y += small * 1.5
		if full {
			l.text(x+pad, y, clipTo(c.Cmd, cw-2*pad, small), small, dim, Left, true)
			y += small * 1.5
			for _, line := range wrapMono(c.status(s.lang, s.now), cw-2*pad, small, 2) {
				l.text(x+pad, y, line, small, col, Left, true)
				y += small * 1.3
			}
		} else {
			l.text(x+pad, y, clipTo(c.status(s.lang, s.now), cw-2*pad, small), small, col, Left, true)
		}
		// A line up to the end of the list just above that it takes from (a list drawn higher,
		// LMOVE's source, is named on the card instead: a line would cross the other list).
		if a, ok := anchors[c.Key]; ok && c.Key == last {
			ax := a.tailX
			if c.Verb == "blpop" {
				ax = a.headX
			}
			ax = min(max(ax, r.X+small), r.X+r.W-small)
			cx := min(max(ax, x+small), x+cw-small)
			l.line(cx, top, ax, a.bottom+small*0.3, 1.5, col)
		}
		x += cw + gap
	}
}
