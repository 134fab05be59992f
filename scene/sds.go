package scene

import (
	"bytes"
	"math"
	"strconv"
	"strings"

	"redscope/engine"
	"redscope/engine/sds"
)

// sdsScene draws string values as their allocations: robj and sds header, the bytes, the NUL, the
// spare room left by greedy growth and the allocator's rounding, with MEMORY USAGE bars so that a
// string built by APPENDs and the same bytes stored by one SET sit side by side. Small
// allocations are drawn byte by byte; big ones as a bar to scale (header | data | zero-filled
// runs | free tail | rounding) with the sizes labelled. When a step grows one string many times
// (1 000 APPENDs), a chart of len and alloc after every command shows the reallocations: the
// stairs that double below 1 MiB and grow by 1 MiB above. Each key wears a TTL badge once a TTL
// is involved, and a step that sets, keeps or clears TTLs lists its commands with what each did
// to the TTL.
type sdsScene struct {
	Keys    []sdsKey
	Note    string // what the last command did to the allocation, in the input's language
	NoteErr bool   // the note is the last command's error reply
	History *sdsHistory
	TTLRows []ttlRow
	// Compare: two keys holding raw strings of the same length with different MEMORY USAGE (the
	// string built by APPENDs and the one written by one SET), the larger first.
	Compare *[2]engine.KeyInfo
	lang    string
	watch   []string // the watched keys (the start card names them)
	fit     fitter   // the zoom that fills the stage (layout.go)
}

// Segment kinds of an allocation strip.
const (
	segRobj = iota
	segHeader
	segData
	segNul
	segFree
	segSlack
	segZero // data bytes that are zero-filled runs (SETRANGE / SETBIT past the end): bars only
)

// segment is a run of bytes of one kind inside an allocation.
type segment struct {
	Kind  int
	Bytes int
}

// sdsKey is one string key's allocation.
type sdsKey struct {
	Info     engine.KeyInfo
	Data     []byte // the first bytes of the value (at most sdsShowBytes)
	Alloc    int    // bytes of the allocation drawn (usable size)
	Segs     []segment
	Bar      []segment // Segs with the data split into data and zero-filled runs, for the bar to scale
	NewFrom  int       // bytes [NewFrom, NewTo) were written by the last command
	NewTo    int
	Realloc  bool // the last command (re)allocated this key
	Changed  bool // the last command touched this key
	Shared   bool // a shared integer
	IntValue string
	// TTL: what the step's last TTL event for this key did ("set", "kept", "cleared"; "" when
	// none) and the command that did it.
	TTLAction string
	TTLCmd    string
}

const sdsShowBytes = 256

// historyMin is how many sds events one key needs in a step before the scene charts them.
const historyMin = 3

// histPoint is a string's sds after one command of the step.
type histPoint struct {
	Cmd        string // lowercase command name
	Len        int    // sdslen after
	Alloc      int    // sdsalloc after
	Usable     int    // allocation size class after
	Requested  int    // the length the command needed
	Ask        int    // what sdsMakeRoomFor asked the allocator for (data bytes), when Realloc
	Realloc    bool
	Greedy     bool
	Type       sds.Type
	TypeChange bool
}

// sdsHistory is one key's sds after each command of the step, one point per sds event.
type sdsHistory struct {
	Key      string
	Points   []histPoint
	Reallocs int // points with Realloc
	Doubled  int // greedy reallocations below 1 MiB (asked twice the need)
	PlusMiB  int // greedy reallocations from 1 MiB on (asked the need + 1 MiB)
	MaxBytes int // the largest alloc or ask: the chart's scale
}

// ttlRow is one command of a step that involved a TTL: its effect, or a TTL/PTTL reply.
type ttlRow struct {
	Cmd    string
	Action string // "set", "kept", "cleared", or "" for a TTL/PTTL query
	Key    string
	After  int64 // ms left after the command (-1 none); for a query, the reply
	Reply  string
}

// Update implements Scene.
func (s *sdsScene) Update(in Input) {
	s.fit.reset()
	s.watch = in.Keys
	s.lang = in.Lang
	s.Keys = s.Keys[:0]
	s.Note, s.NoteErr = "", false
	keys := in.Keys
	if len(keys) == 0 {
		if k := focusKey(in, nil); k != "" {
			keys = []string{k}
		}
	}
	if len(keys) > 3 {
		keys = keys[:3]
	}
	s.TTLRows = buildTTLRows(in)
	if len(s.TTLRows) > 4 && len(keys) > 1 {
		keys = keys[:1] // a long TTL table takes the room
	}
	for _, k := range keys {
		s.Keys = append(s.Keys, buildSDSKey(in, k))
	}
	s.Note = sdsNote(in, in.Lang)
	if s.Note == "" {
		// Nothing allocated: say why when a command of the step failed.
		for i := len(in.Last) - 1; i >= 0; i-- {
			if x := in.Last[i]; x.Error && x.Cmd != "" {
				s.Note, s.NoteErr = x.Cmd+" → "+x.Reply, true
				break
			}
		}
	}
	s.History = buildHistory(in.Last)
	s.Compare = nil
	for i, a := range s.Keys {
		for _, b := range s.Keys[i+1:] {
			if s.Compare == nil && a.Info.Encoding == "raw" && b.Info.Encoding == "raw" && a.Info.Len > 0 &&
				a.Info.Len == b.Info.Len && a.Info.Memory > 0 && b.Info.Memory > 0 && a.Info.Memory != b.Info.Memory {
				if a.Info.Memory < b.Info.Memory {
					a, b = b, a
				}
				s.Compare = &[2]engine.KeyInfo{a.Info, b.Info}
			}
		}
	}
}

// compareText is the comparison of the two keys of Compare: same length, how much more memory.
func (s *sdsScene) compareText() string {
	if s.Compare == nil {
		return ""
	}
	a, b := s.Compare[0], s.Compare[1]
	pct := int(math.Round(100 * float64(a.Memory-b.Memory) / float64(b.Memory)))
	return tr(s.lang, "same len %d: MEMORY USAGE %s = %d, %s = %d: +%d%%",
		"cùng len %d: MEMORY USAGE %s = %d, %s = %d: +%d%%", a.Len, a.Key, a.Memory, b.Key, b.Memory, pct)
}

func buildSDSKey(in Input, key string) sdsKey {
	e := in.Engine
	k := sdsKey{Info: e.Inspect(key), NewFrom: -1, NewTo: -1}
	for _, x := range in.Last {
		for _, ev := range x.Events {
			if ev, ok := ev.(engine.TTLEvent); ok && ev.Key == key {
				k.TTLAction, k.TTLCmd = ev.Action, cmdName(x.Cmd)
			}
		}
	}
	o := e.Peek([]byte(key))
	if o == nil || o.Type != engine.TypeString {
		return k
	}
	switch o.Enc {
	case engine.EncInt:
		k.IntValue = strconv.FormatInt(o.Int, 10)
		k.Shared = o.Shared
		k.Alloc = 16
		k.Segs = []segment{{segRobj, 16}}
	case engine.EncEmbstr:
		n := o.Buf.Len()
		k.Alloc = e.Allocator().Usable(16 + 3 + n + 1)
		k.Segs = []segment{{segRobj, 16}, {segHeader, 3}, {segData, n}, {segNul, 1}, {segSlack, k.Alloc - 16 - 3 - n - 1}}
	default:
		h := o.SDS
		hb := h.Type.HeaderSize()
		k.Alloc = h.Usable
		free := h.Avail()
		k.Segs = []segment{{segHeader, hb}, {segData, h.Len}, {segNul, 1}, {segFree, free}, {segSlack, h.Usable - hb - h.Len - 1 - free}}
	}
	k.Bar = barSegments(k.Segs, &o.Buf)
	n := min(o.Buf.Len(), sdsShowBytes)
	k.Data = make([]byte, n)
	o.Buf.ReadAt(k.Data, 0)
	for _, x := range in.Last {
		for _, ev := range x.Events {
			switch ev := ev.(type) {
			case engine.SDSEvent:
				if ev.Key != key {
					continue
				}
				// Several events (a step of APPENDs): the bytes new since the first one.
				if k.NewFrom < 0 || ev.Before.Len < k.NewFrom {
					k.NewFrom = ev.Before.Len
				}
				k.Changed = true
				k.Realloc = k.Realloc || ev.Realloc
				k.NewTo = ev.After.Len
			case engine.KeyEvent, engine.EncodingEvent:
				if kk, _ := engine.EventKey(ev); kk == key {
					k.Changed = true
				}
			}
		}
	}
	if k.Changed && k.NewFrom < 0 {
		// Created or replaced without an sds event (SET): the whole value is new.
		k.NewFrom, k.NewTo = 0, o.StringLen()
	}
	return k
}

// cmdName is the upper-case command name of a command line.
func cmdName(cmd string) string {
	f := strings.Fields(cmd)
	if len(f) == 0 {
		return ""
	}
	return strings.ToUpper(f[0])
}

// barSegments splits the data segment of segs into data and zero-filled runs (at least 1/400 of
// the string and 64 bytes long), reading buf by runs so unallocated pages cost nothing.
func barSegments(segs []segment, buf *sds.Buf) []segment {
	out := make([]segment, 0, len(segs)+4)
	for _, sg := range segs {
		if sg.Kind != segData {
			out = append(out, sg)
			continue
		}
		runs := zeroRuns(buf, max(64, sg.Bytes/400))
		pos := 0
		for _, z := range runs {
			if z[0] > pos {
				out = append(out, segment{segData, z[0] - pos})
			}
			out = append(out, segment{segZero, z[1] - z[0]})
			pos = z[1]
		}
		if pos < sg.Bytes || sg.Bytes == 0 {
			out = append(out, segment{segData, sg.Bytes - pos})
		}
	}
	return out
}

// zeroRuns lists the runs [from, to) of zero bytes of buf that are at least minRun long.
// Unallocated pages are zero runs without reading them; allocated bytes are searched with
// IndexByte, so text without zero bytes is skipped fast.
func zeroRuns(buf *sds.Buf, minRun int) [][2]int {
	var out [][2]int
	start := -1 // start of the current zero run
	end := func(at int) {
		if start >= 0 && at-start >= minRun {
			out = append(out, [2]int{start, at})
		}
		start = -1
	}
	buf.Runs(0, buf.Len(), func(off, n int, data []byte, fill byte) bool {
		if data == nil {
			if fill == 0 {
				if start < 0 {
					start = off
				}
			} else {
				end(off)
			}
			return true
		}
		for i := 0; i < len(data); {
			if start < 0 {
				j := bytes.IndexByte(data[i:], 0)
				if j < 0 {
					break
				}
				i += j
				start = off + i
			}
			for i < len(data) && data[i] == 0 {
				i++
			}
			if i < len(data) {
				end(off + i)
			}
		}
		return true
	})
	end(buf.Len())
	return out
}

// buildHistory charts the key with the most sds events among the exchanges (at least
// historyMin): one point per event, in order.
func buildHistory(xs []engine.Exchange) *sdsHistory {
	count := map[string]int{}
	best := ""
	for _, x := range xs {
		for _, ev := range x.Events {
			if ev, ok := ev.(engine.SDSEvent); ok {
				count[ev.Key]++
				if count[ev.Key] > count[best] || best == "" {
					best = ev.Key
				}
			}
		}
	}
	if count[best] < historyMin {
		return nil
	}
	h := &sdsHistory{Key: best, Points: make([]histPoint, 0, count[best])}
	for _, x := range xs {
		for _, ev := range x.Events {
			ev, ok := ev.(engine.SDSEvent)
			if !ok || ev.Key != best {
				continue
			}
			p := histPoint{Cmd: ev.Cmd, Len: ev.After.Len, Alloc: ev.After.Alloc, Usable: ev.After.Usable,
				Requested: ev.Requested, Realloc: ev.Realloc, Greedy: ev.Greedy, Type: ev.After.Type, TypeChange: ev.TypeChange}
			if ev.Realloc {
				h.Reallocs++
				p.Ask = ev.Requested
				if ev.Greedy {
					p.Ask = greedyAsk(ev.Requested)
					if ev.Requested < sds.MaxPrealloc {
						h.Doubled++
					} else {
						h.PlusMiB++
					}
				}
			}
			h.MaxBytes = max(h.MaxBytes, p.Alloc, p.Ask, p.Len)
			h.Points = append(h.Points, p)
		}
	}
	return h
}

// buildTTLRows lists the step's commands that set, kept or cleared a TTL, and its TTL/PTTL
// queries, when the step involved a TTL at all.
func buildTTLRows(in Input) []ttlRow {
	var rows []ttlRow
	involved := false
	now := in.Engine.NowMs()
	for _, x := range in.Last {
		if x.Cmd == "" {
			continue
		}
		var row *ttlRow
		for _, ev := range x.Events {
			if ev, ok := ev.(engine.TTLEvent); ok {
				r := ttlRow{Cmd: x.Cmd, Action: ev.Action, Key: ev.Key, After: -1}
				if ev.After >= 0 {
					r.After = max(ev.After-now, 0)
				}
				row = &r
				involved = true
			}
		}
		if row == nil {
			if n := cmdName(x.Cmd); (n == "TTL" || n == "PTTL") && !x.Error {
				rows = append(rows, ttlRow{Cmd: x.Cmd, Reply: x.Reply})
			}
			continue
		}
		rows = append(rows, *row)
	}
	if !involved {
		return nil
	}
	if len(rows) > ttlMaxRows {
		// A long step (the whole table at once): keep the commands that kept or cleared a TTL.
		kept := rows[:0:0]
		for _, r := range rows {
			if r.Action == "kept" || r.Action == "cleared" {
				kept = append(kept, r)
			}
		}
		if len(kept) > 0 {
			rows = kept
		}
	}
	return rows
}

// greedyAsk is what sdsMakeRoomFor asks for when a string must hold need bytes: twice as much
// below 1 MiB, 1 MiB more above.
func greedyAsk(need int) int {
	if need < sds.MaxPrealloc {
		return need * 2
	}
	return need + sds.MaxPrealloc
}

// sdsNote describes the last exchange's allocation change (its sds event, else its encoding
// change).
func sdsNote(in Input, lang string) string {
	var note string
	for _, x := range in.Last {
		hasSDS := false
		for _, ev := range x.Events {
			if _, ok := ev.(engine.SDSEvent); ok {
				hasSDS = true
			}
		}
		for _, ev := range x.Events {
			switch ev := ev.(type) {
			case engine.EncodingEvent:
				if hasSDS {
					continue
				}
				if ev.From == "" {
					note = tr(lang, "%s: encoding %s (%s)", "%s: mã hoá %s (%s)", ev.Key, ev.To, whyText(lang, ev.Why))
				} else {
					note = tr(lang, "%s: encoding %s → %s (%s)", "%s: mã hoá %s → %s (%s)", ev.Key, ev.From, ev.To, whyText(lang, ev.Why))
				}
			case engine.SDSEvent:
				a := ev.After
				switch {
				case ev.Before.Type == 0:
					n := func(v int) string { return num(int64(v)) }
					note = tr(lang, "%s: new sds of %s: %s, malloc(%s) → %s-byte class",
						"%s: sds mới %s: %s, malloc(%s) → lớp %s byte",
						ev.Key, nBytes(lang, a.Len), a.Type, n(a.Type.HeaderSize()+a.Alloc+1), n(a.Usable))
					if a.Type != sds.Type5 && a.Usable != a.Type.HeaderSize()+a.Len+1 {
						note = tr(lang, "%s: new sds of %s: %s, malloc(%s) → %s-byte class, alloc %s",
							"%s: sds mới %s: %s, malloc(%s) → lớp %s byte, alloc %s",
							ev.Key, nBytes(lang, a.Len), a.Type, n(a.Type.HeaderSize()+a.Len+1), n(a.Usable), n(a.Alloc))
					}
				case !ev.Realloc:
					note = tr(lang, "%s: len %s → %s fits in alloc %s: no reallocation",
						"%s: len %s → %s vừa trong alloc %s: không cấp phát lại", ev.Key, num(int64(ev.Before.Len)), num(int64(a.Len)), num(int64(a.Alloc)))
				default:
					ask := ev.Requested
					if ev.Greedy {
						ask = greedyAsk(ev.Requested)
					}
					mul := tr(lang, "doubled", "gấp đôi")
					if ev.Requested >= sds.MaxPrealloc {
						mul = tr(lang, "+1 MiB", "+1 MiB")
					}
					n := func(v int) string { return num(int64(v)) }
					note = tr(lang, "%s: needs %s, asks %s (%s): %s → %s, %s → %s-byte class, alloc %s",
						"%s: cần %s, xin %s (%s): %s → %s, lớp %s → %s byte, alloc %s",
						ev.Key, nBytes(lang, ev.Requested), n(ask), mul, ev.Before.Type, a.Type, n(ev.Before.Usable), n(a.Usable), n(a.Alloc))
				}
			}
		}
	}
	return note
}

// ttlMaxRows is how many commands the TTL table lists (the last ones).
const ttlMaxRows = 10
