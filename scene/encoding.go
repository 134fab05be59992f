package scene

import (
	"math"
	"strconv"
	"strings"

	"redscope/engine"
	"redscope/engine/listpack"
)

// encodingScene draws a hash, set or sorted set as its real storage: a listpack as its bytes
// (header, each entry's encoding byte, data and backlen, the EOF), an intset as its header and
// fixed-width integers, a hashtable as its bucket array and chains. Each step's trace events light
// what changed: the entry written at its offset (with the tail that memmove shifted sliding into
// place), the intset value and its width upgrade, the bucket a field went to, and the conversion
// with the rule that fired. MEMORY USAGE readings of the step are drawn as bars, so the jump at the
// conversion is measured, not told.
type encodingScene struct {
	container
	Type string // "hash", "set", "zset" or "" (missing / other)
	Ver  engine.Version

	LP *lpView // listpack encodings
	IS *isView // intset
	HT *htView // hashtable (and a skiplist zset's dict)

	Note string // what the last change did, in the input's language
}

// container is what the encoding and zset scenes share: the key they draw and what Update read
// of it, the language, the cached image and the zoom.
type container struct {
	Key  string
	Info engine.KeyInfo
	Conv *engine.EncodingEvent // the conversion of this step, if any
	Mem  []memReading          // MEMORY USAGE replies of this step for Key

	lang  string
	img   cachedImage // byte minimap or bucket map
	watch []string    // the watched keys (the start card names them)
	fit   fitter      // the zoom that fills the stage (layout.go)
}

// update begins a scene's Update: the container made anew for in (the cached image kept, its
// generation moved on), then the key to draw (containerFocus), its KeyInfo, and the step's
// MEMORY USAGE readings and conversion of it. It is false when there is no key to draw.
func (c *container) update(in Input) bool {
	img := c.img
	*c = container{lang: in.Lang, img: img, watch: in.Keys}
	c.img.gen++
	if c.Key = containerFocus(in); c.Key == "" {
		return false
	}
	c.Info = in.Engine.Inspect(c.Key)
	c.Mem, c.Conv = memReadings(in, c.Key, c.Info.Encoding)
	return true
}

// memReading is one MEMORY USAGE reply of the step.
type memReading struct {
	Bytes    int64
	Encoding string // the key's encoding when it was measured
	After    bool   // measured after the step's conversion
}

// byteSpan is a byte range [From, To).
type byteSpan struct{ From, To int }

// lpEntry is one listpack entry.
type lpEntry struct {
	Off, Size       int
	Hdr, Data, Back int // encoding bytes, data bytes, backlen bytes
	Text            string
	Int             bool
	Enc             string
	Class           int // byteField, byteValue or byteTTL
}

// lpView is a listpack as drawn.
type lpView struct {
	Bytes     []byte
	Entries   []lpEntry
	Class     []uint8    // per byte
	Tuple     int        // entries per element: 1 set, 2 hash/zset, 3 listpackex
	Alloc     int        // usable size of the allocation
	New       []byteSpan // bytes written by the step (final offsets)
	ShiftFrom int        // first byte of the tail the last edit moved (final offsets), -1 none
	Shift     int        // how far it moved (+ insert, − delete)
	Last      *engine.ListpackEvent
}

// newLPView reads lp; tuple is the number of entries per element (1, 2 or 3).
func newLPView(lp *listpack.Listpack, tuple int, usable int) *lpView {
	b := lp.Bytes()
	v := &lpView{Bytes: append([]byte(nil), b...), Tuple: max(tuple, 1), Alloc: usable, ShiftFrom: -1}
	v.Class = make([]uint8, len(b))
	for i := 0; i < len(b) && i < listpack.HeaderSize; i++ {
		v.Class[i] = byteLPHeader
	}
	if len(b) > 0 {
		v.Class[len(b)-1] = byteEOF
	}
	var buf [24]byte
	i := 0
	for p := lp.First(); p >= 0; p = lp.Next(p) {
		size := lp.EntrySizeAt(p)
		if size == 0 {
			break
		}
		enc := lp.EncodingAt(p)
		back := 1
		for k := 1; k <= 5; k++ {
			if listpack.BacklenSize(size-k) == k {
				back = k
				break
			}
		}
		hdr := 1
		switch enc {
		case listpack.EncStr12:
			hdr = 2
		case listpack.EncStr32:
			hdr = 5
		}
		data := size - back - hdr
		if enc == listpack.EncUint7 { // the value lives in the encoding byte itself
			hdr, data = 0, 1
		}
		cls := byteField
		if v.Tuple >= 2 {
			switch i % v.Tuple {
			case 1:
				cls = byteValue
			case 2:
				cls = byteTTL
			}
		}
		e := lpEntry{Off: p, Size: size, Hdr: hdr, Data: data, Back: back, Int: enc.IsInt(), Enc: enc.String(), Class: cls,
			Text: string(lp.GetString(p, buf[:]))}
		v.Entries = append(v.Entries, e)
		for j := 0; j < size && p+j < len(b); j++ {
			c := uint8(cls)
			switch {
			case j < hdr:
				c = byteEnc
			case j >= size-back:
				c = byteBacklen
			}
			v.Class[p+j] = c
		}
		i++
	}
	return v
}

// elements is the number of fields / members.
func (v *lpView) elements() int { return len(v.Entries) / v.Tuple }

// isNew reports whether byte i was written by the step.
func (v *lpView) isNew(i int) bool {
	for _, s := range v.New {
		if i >= s.From && i < s.To {
			return true
		}
	}
	return false
}

// applyEvents computes the bytes the step wrote and the tail the last edit shifted, in final
// offsets, from the step's listpack events in order.
func (v *lpView) applyEvents(evs []engine.ListpackEvent) {
	v.New = v.New[:0]
	v.ShiftFrom, v.Shift = -1, 0
	for i := range evs {
		ev := evs[i]
		delta := ev.Added - ev.Removed
		end := ev.Offset + ev.Removed // first byte after the edited range, before the edit
		var out []byteSpan
		for _, s := range v.New {
			switch {
			case s.To <= ev.Offset:
				out = append(out, s)
			case s.From >= end:
				out = append(out, byteSpan{s.From + delta, s.To + delta})
			default: // overlapped by a delete or replace: keep the part before the edit
				if s.From < ev.Offset {
					out = append(out, byteSpan{s.From, ev.Offset})
				}
			}
		}
		if ev.Added > 0 {
			out = addSpan(out, byteSpan{ev.Offset, ev.Offset + ev.Added})
		}
		v.New = out
		v.ShiftFrom, v.Shift = ev.Offset+ev.Added, delta
		if ev.Moved == 0 || delta == 0 {
			v.ShiftFrom, v.Shift = -1, 0
		}
		v.Last = &evs[i]
	}
	// Later edits may have shifted the tail start of an earlier one; only the last edit animates.
	if v.ShiftFrom > len(v.Bytes) {
		v.ShiftFrom, v.Shift = -1, 0
	}
}

// addSpan adds n to spans, merged with a span it touches (appends stay one span).
func addSpan(spans []byteSpan, n byteSpan) []byteSpan {
	for i, sp := range spans {
		if sp.To == n.From || n.To == sp.From {
			spans[i] = byteSpan{min(sp.From, n.From), max(sp.To, n.To)}
			return spans
		}
	}
	return append(spans, n)
}

// isView is an intset as drawn.
type isView struct {
	Width    int // bytes per member: 2, 4 or 8
	Values   []int64
	NewPos   int // index of the member the step inserted, -1 none
	OldWidth int // width before an upgrade in this step (0 when none)
	Alloc    int
}

// byteLen is the blob size: 8 + n × width.
func (v *isView) byteLen() int { return 8 + len(v.Values)*v.Width }

// byteClass is the class of byte i of the blob.
func (v *isView) byteClass(i int) int {
	if i < 8 {
		return byteISHeader
	}
	if ((i-8)/v.Width)%2 == 0 {
		return byteISValue
	}
	return byteISValue2
}

// htView is a hash table as drawn.
type htView struct {
	View    engine.DictView
	Lens    [2][]uint16 // chain length per bucket
	Hist    [5]int      // buckets with 0, 1, 2, 3, 4+ entries (table 0)
	HitT    int         // table of the bucket the step's last insert went to
	HitIdx  int64       // its index, -1 none
	HitKey  string      // the key inserted there
	Resized bool        // the step resized the table
}

// newHTView summarises a dict view.
func newHTView(d engine.DictView) *htView {
	h := &htView{View: d, HitIdx: -1}
	for t := 0; t < 2; t++ {
		h.Lens[t] = make([]uint16, d.Size[t])
	}
	for _, b := range d.Buckets {
		if b.Table >= 0 && b.Table < 2 && b.Index < uint64(len(h.Lens[b.Table])) {
			h.Lens[b.Table][b.Index] = uint16(min(len(b.Keys), math.MaxUint16))
		}
	}
	for _, n := range h.Lens[0] {
		h.Hist[min(int(n), 4)]++
	}
	return h
}

// containerKey is the key a container event (listpack, intset, dict, skiplist) is about.
func containerKey(ev engine.Event) (string, bool) {
	switch e := ev.(type) {
	case engine.ListpackEvent:
		return e.Key, true
	case engine.IntsetEvent:
		return e.Key, true
	case engine.DictEvent:
		return e.Key, true
	case engine.SkiplistEvent:
		return e.Key, true
	}
	return "", false
}

// encKeyOf is the key a container event, an encoding change or a key event is about.
func encKeyOf(ev engine.Event) (string, bool) {
	if k, ok := containerKey(ev); ok {
		return k, true
	}
	switch e := ev.(type) {
	case engine.EncodingEvent:
		return e.Key, true
	case engine.KeyEvent:
		return e.Key, true
	}
	return "", false
}

// containerFocus picks the key to draw: the last key a container event touched, else the first
// watched key that holds a hash, set or sorted set, else the first watched key.
func containerFocus(in Input) string {
	for i := len(in.Last) - 1; i >= 0; i-- {
		evs := in.Last[i].Events
		for j := len(evs) - 1; j >= 0; j-- {
			if k, ok := encKeyOf(evs[j]); ok && k != "" {
				return k
			}
		}
	}
	for _, k := range in.Keys {
		if o := in.Engine.Peek([]byte(k)); o != nil && (o.Type == engine.TypeHash || o.Type == engine.TypeSet || o.Type == engine.TypeZSet) {
			return k
		}
	}
	if len(in.Keys) > 0 {
		return in.Keys[0]
	}
	return ""
}

// memReadings collects the step's MEMORY USAGE replies for key, split at the conversion.
func memReadings(in Input, key string, cur string) (out []memReading, conv *engine.EncodingEvent) {
	for _, x := range in.Last {
		for _, ev := range x.Events {
			if e, ok := ev.(engine.EncodingEvent); ok && e.Key == key {
				e := e
				conv = &e
			}
		}
		f := strings.Fields(x.Cmd)
		if len(f) < 3 || !strings.EqualFold(f[0], "memory") || !strings.EqualFold(f[1], "usage") || f[2] != key {
			continue
		}
		n, err := strconv.ParseInt(strings.TrimPrefix(x.Reply, "(integer) "), 10, 64)
		if err != nil {
			continue
		}
		r := memReading{Bytes: n, Encoding: cur, After: conv != nil}
		if conv == nil {
			r.Encoding = ""
		}
		out = append(out, r)
	}
	// Readings taken before the conversion had the old encoding.
	for i := range out {
		if out[i].Encoding == "" {
			if conv != nil {
				out[i].Encoding = conv.From
			} else {
				out[i].Encoding = cur
			}
		}
	}
	return out, conv
}

// Update implements Scene.
func (s *encodingScene) Update(in Input) {
	*s = encodingScene{container: s.container, Ver: in.Engine.Version()}
	if !s.update(in) {
		return
	}
	o := in.Engine.Peek([]byte(s.Key))
	if o != nil {
		switch o.Type {
		case engine.TypeHash, engine.TypeSet, engine.TypeZSet:
			s.Type = o.Type.String()
		}
	}
	if s.Type == "" {
		return
	}
	var lpEvs []engine.ListpackEvent
	var isEv *engine.IntsetEvent
	var dictIns *engine.DictEvent
	resized := false
	for _, x := range in.Last {
		for _, ev := range x.Events {
			switch e := ev.(type) {
			case engine.ListpackEvent:
				if e.Key == s.Key {
					lpEvs = append(lpEvs, e)
				}
			case engine.IntsetEvent:
				if e.Key == s.Key {
					e := e
					isEv = &e
				}
			case engine.DictEvent:
				if e.Key == s.Key {
					if e.Op == "insert" {
						e := e
						dictIns = &e
					}
					if e.Op == "resize" {
						resized = true
					}
				}
			case engine.EncodingEvent:
				if e.Key == s.Key {
					lpEvs = lpEvs[:0] // edits before a conversion are gone with the old listpack
					isEv = nil
				}
			}
		}
	}
	al := in.Engine.Allocator()
	if lp := o.Listpack(); lp != nil {
		tuple := 1
		switch {
		case o.Enc == engine.EncListpackEx:
			tuple = 3
		case o.Type == engine.TypeHash || o.Type == engine.TypeZSet:
			tuple = 2
		}
		s.LP = newLPView(lp, tuple, lp.Usable(al))
		s.LP.applyEvents(lpEvs)
		s.Note = lpNote(s.LP.Last, s.lang)
	} else if is := o.Intset(); is != nil {
		v := &isView{Width: is.Encoding(), NewPos: -1, Alloc: is.Usable(al)}
		is.All(func(_ int, x int64) bool { v.Values = append(v.Values, x); return true })
		if isEv != nil {
			if isEv.Op == "insert" || isEv.Op == "upgrade" {
				v.NewPos = isEv.Pos
			}
			if isEv.Op == "upgrade" {
				v.OldWidth = isEv.OldWidth
			}
			s.Note = isNote(*isEv, s.lang)
		}
		s.IS = v
	} else if d, ok := o.Dict(); ok {
		s.HT = newHTView(d)
		s.HT.Resized = resized
		if dictIns != nil {
			s.HT.HitT, s.HT.HitIdx = dictIns.Table, int64(dictIns.Index)
			for _, b := range d.Buckets {
				if b.Table == dictIns.Table && int64(b.Index) == s.HT.HitIdx && len(b.Keys) > 0 {
					s.HT.HitKey = b.Keys[0] // dictAdd links new entries at the head
				}
			}
		}
	}
	if s.Conv != nil {
		s.Note = tr(s.lang, "%s → %s: %s", "%s → %s: %s", s.Conv.From, s.Conv.To, whyText(s.lang, s.Conv.Why))
	}
}

func lpNote(ev *engine.ListpackEvent, lang string) string {
	if ev == nil {
		return ""
	}
	val := ev.Value
	if len(val) > 24 {
		val = val[:21] + "…"
	}
	switch ev.Op {
	case "insert":
		return tr(lang, "insert %q at offset %s: +%s, memmove %s", "chèn %q tại offset %s: +%s, memmove %s",
			val, num(int64(ev.Offset)), nBytes(lang, ev.Added), nBytes(lang, ev.Moved))
	case "replace":
		return tr(lang, "replace at offset %s: %s → %s, memmove %s", "thay tại offset %s: %s → %s, memmove %s",
			num(int64(ev.Offset)), num(int64(ev.Removed)), nBytes(lang, ev.Added), nBytes(lang, ev.Moved))
	default:
		return tr(lang, "delete %s at offset %s: −%s, memmove %s", "xoá %s tại offset %s: −%s, memmove %s",
			trPlural(lang, int64(ev.Entries), "entry", "entries", "entry"), num(int64(ev.Offset)), nBytes(lang, ev.Removed), nBytes(lang, ev.Moved))
	}
}

func isNote(ev engine.IntsetEvent, lang string) string {
	switch ev.Op {
	case "upgrade":
		return tr(lang, "%d needs %s: every member rewritten from %s to %s", "%d cần %s: mọi phần tử viết lại từ %s thành %s",
			ev.Value, nBytes(lang, ev.NewWidth), nBytes(lang, ev.OldWidth), nBytes(lang, ev.NewWidth))
	case "insert":
		return tr(lang, "insert %d at position %d (kept sorted): memmove %s", "chèn %d ở vị trí %d (giữ thứ tự tăng): memmove %s",
			ev.Value, ev.Pos, nBytes(lang, ev.Moved))
	}
	return tr(lang, "remove %d from position %d", "xoá %d ở vị trí %d", ev.Value, ev.Pos)
}

// encodingPath is the encodings a type goes through under version v, smallest first.
func encodingPath(typ string, v engine.Version) []string {
	switch typ {
	case "hash":
		return []string{"listpack", "hashtable"}
	case "set":
		if v.Has(engine.V72) {
			return []string{"intset", "listpack", "hashtable"}
		}
		return []string{"intset", "hashtable"}
	case "zset":
		return []string{"listpack", "skiplist"}
	}
	return nil
}

func init() {
	register("encoding", func() Scene { return &encodingScene{} })
}
