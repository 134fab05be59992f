package engine

import (
	"math/rand/v2"
	"strconv"

	"redscope/engine/alloc"
	"redscope/engine/dict"
	"redscope/engine/listpack"
	"redscope/engine/skiplist"
)

// Sorted sets (t_zset.c of 7.0.15 / 7.2.6, docs/internals.md §Encodings, §Skiplist and doubles).
//
// Two encodings:
//   - listpack: member, score pairs sorted by (score, member). A score that is integral and
//     within ±2^62 is a listpack integer; any other is the d2string text of the profile (7.0:
//     %.17g, 7.2+: shortest round-trip).
//   - skiplist: a zskiplist (levels from the engine's seeded random source) plus a dict
//     member → score (the seeded dict model, so ZSCAN order and MEMORY USAGE buckets follow
//     Redis's rules).
//
// listpack → skiplist when a member longer than zset-max-listpack-value is added, or the count
// would pass zset-max-listpack-entries (7.0: checked per added member; a new key starts as
// skiplist when the first member is too long or the entries limit is 0; 7.2+: also when the
// number of pairs of one ZADD is above the limit — the dict is then pre-sized). Never back
// (docs/internals.md §Encodings), except that a new key starts small again.

// ZADD input/output flags.
const (
	zaddIncr = 1 << iota
	zaddNX
	zaddXX
	zaddGT
	zaddLT
	zaddCH // a command option only: the reply counts the updated members too
)

// zaddKeywords are ZADD's options before the score/member pairs.
var zaddKeywords = []strKeyword{{"nx", zaddNX}, {"xx", zaddXX}, {"ch", zaddCH}, {"incr", zaddIncr}, {"gt", zaddGT}, {"lt", zaddLT}}

const (
	zaddOutNop = 1 << iota
	zaddOutNaN
	zaddOutAdded
	zaddOutUpdated
)

// zsetValue is the Val of a zset Object.
type zsetValue struct {
	lp   *listpack.Listpack          // EncListpack
	zsl  *skiplist.List              // EncSkiplist
	dict *dict.Dict[string, float64] // EncSkiplist: member → score
	env  *dict.Env
	rng  *rand.Rand
	al   alloc.Allocator
	ver  Version
	// tracing context, set by bind for the running command
	e   *Engine
	key string
}

// newZsetValue makes an empty listpack zset.
func (e *Engine) newZsetListpack() *Object {
	lp := listpack.New()
	lp.Alloc = e.alloc
	return &Object{Type: TypeZSet, Enc: EncListpack, Val: &zsetValue{lp: lp, rng: e.rng, al: e.alloc, ver: e.ver, e: e}}
}

// newZsetSkiplist makes an empty skiplist zset whose dict is pre-sized for hint members (0: no
// pre-sizing).
func (e *Engine) newZsetSkiplist(hint int) *Object {
	z := &zsetValue{rng: e.rng, al: e.alloc, ver: e.ver, e: e}
	z.initSkiplist(hint)
	return &Object{Type: TypeZSet, Enc: EncSkiplist, Val: z}
}

func (z *zsetValue) initSkiplist(hint int) {
	if z.env == nil {
		if z.e != nil {
			z.env = z.e.valueDictEnv()
		} else {
			z.env = dict.NewEnv(uint16(z.ver), 0, z.rng)
		}
	}
	z.zsl = skiplist.New(z.rng)
	z.dict = dict.New[string, float64](z.env)
	if hint > 0 {
		z.dict.Expand(uint64(hint))
	}
	z.observe()
}

// bind attaches the running command's engine and key (for trace events).
func (z *zsetValue) bind(e *Engine, key []byte) *zsetValue {
	z.e = e
	if e.tracing {
		z.key = string(key)
	}
	z.observe()
	return z
}

func (z *zsetValue) observe() {
	if z.zsl == nil {
		return
	}
	if z.e != nil && z.e.tracing {
		e, key := z.e, z.key
		z.zsl.Observer = func(c skiplist.Change) { e.emit(SkiplistEvent{Key: key, Change: c}) }
	} else {
		z.zsl.Observer = nil
	}
}

func (z *zsetValue) lpEvent(op, entry string, ch listpack.Change) {
	if z.e != nil && z.e.tracing {
		z.e.emitLP(z.key, ch, []byte(entry))
	}
}

// zsetOf returns the zset value of o bound to the command.
func (e *Engine) zsetOf(o *Object, key []byte) *zsetValue {
	z := o.Val.(*zsetValue)
	if z.e != e || e.tracing || (z.zsl != nil && z.zsl.Observer != nil) {
		z.bind(e, key)
	}
	return z
}

// CloneValue is COPY (zsetDup): a listpack is copied byte for byte into an exact allocation; a
// skiplist is rebuilt from the tail (new random levels) with the dict pre-sized.
func (z *zsetValue) CloneValue() any {
	n := &zsetValue{rng: z.rng, al: z.al, ver: z.ver, env: z.env, e: z.e}
	if z.lp != nil {
		lp, err := listpack.FromBytes(z.lp.Bytes())
		if err != nil {
			lp = z.lp.Clone()
		}
		lp.Alloc = z.al
		n.lp = lp
		return n
	}
	n.zsl = skiplist.New(z.rng)
	n.dict = dict.New[string, float64](n.env)
	n.dict.Expand(uint64(z.dict.Len()))
	for x := z.zsl.Last(); x != nil; x = x.Prev() {
		n.zsl.Insert(x.Score, x.Member)
		n.dict.Add(x.Member, x.Score)
	}
	return n
}

// card is zsetLength.
func (z *zsetValue) card() int {
	if z.lp != nil {
		return z.lp.Len() / 2
	}
	return int(z.zsl.Len())
}

// ---- listpack helpers (zzl*) ----

// zzlScore reads the score entry at p (zzlGetScore: integer, or strtod of the stored text).
func (z *zsetValue) zzlScore(p int) float64 {
	s, v, isInt, ok := z.lp.Get(p)
	if !ok {
		return 0
	}
	if isInt {
		return float64(v)
	}
	if len(s) > 127 {
		s = s[:127]
	}
	f, _, _ := strtod(s, true)
	return f
}

// zzlMember returns the member at p as a string.
func (z *zsetValue) zzlMember(p int) string {
	s, v, isInt, _ := z.lp.Get(p)
	if isInt {
		return strconv.FormatInt(v, 10)
	}
	return string(s)
}

// zzlMemberReply is the member at p as a bulk reply.
func (z *zsetValue) zzlMemberReply(p int) Reply {
	s, v, isInt, _ := z.lp.Get(p)
	if isInt {
		return bulkInt(v)
	}
	return Bulk(s)
}

// zzlFind is zzlFind: the member's entry and score entry, or -1.
func (z *zsetValue) zzlFind(member []byte) (eptr, sptr int) {
	eptr = z.lp.First()
	if eptr < 0 {
		return -1, -1
	}
	eptr = z.lp.Find(eptr, member, 1)
	if eptr < 0 {
		return -1, -1
	}
	return eptr, z.lp.Next(eptr)
}

// zzlCompareMember compares the member at p with m (zzlCompareElements: memcmp of the string
// forms, shorter first on a common prefix).
func (z *zsetValue) zzlCompareMember(p int, m []byte) int {
	s, v, isInt, _ := z.lp.Get(p)
	if isInt {
		var buf [24]byte
		s = strconv.AppendInt(buf[:0], v, 10)
	}
	return compareBytes(s, m)
}

func compareBytes(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return len(a) - len(b)
}

// zzlInsert inserts (member, score) at its place (the member must be absent).
func (z *zsetValue) zzlInsert(member []byte, score float64) {
	eptr := z.lp.First()
	for eptr >= 0 {
		sptr := z.lp.Next(eptr)
		s := z.zzlScore(sptr)
		if s > score || (s == score && z.zzlCompareMember(eptr, member) > 0) {
			break
		}
		eptr = z.lp.Next(sptr)
	}
	z.zzlInsertAt(eptr, member, score)
}

// zzlInsertAt is zzlInsertAt: member then score before eptr (append when eptr is -1).
func (z *zsetValue) zzlInsertAt(eptr int, member []byte, score float64) {
	ll, isLong := double2ll(score)
	var sbuf [32]byte
	var stext []byte
	if !isLong {
		stext = appendD2String(sbuf[:0], score, z.ver)
	}
	var ch listpack.Change
	var mp int
	if eptr < 0 {
		ch = z.lp.Append(member)
		z.lpEvent("insert", string(member), ch)
		if isLong {
			ch = z.lp.AppendInt(ll)
		} else {
			ch = z.lp.Append(stext)
		}
	} else {
		mp, ch = z.lp.Insert(eptr, member, listpack.Before)
		z.lpEvent("insert", string(member), ch)
		if isLong {
			_, ch = z.lp.InsertInt(mp, ll, listpack.After)
		} else {
			_, ch = z.lp.Insert(mp, stext, listpack.After)
		}
	}
	if z.e != nil && z.e.tracing {
		if isLong {
			stext = strconv.AppendInt(sbuf[:0], ll, 10)
		}
		z.lpEvent("insert", string(stext), ch)
	}
}

// zzlDelete removes the pair at eptr.
func (z *zsetValue) zzlDelete(eptr int) {
	_, ch := z.lp.DeleteRangeAt(eptr, 2)
	z.lpEvent("delete", "", ch)
}

// ---- conversion ----

// convertToSkiplist is zsetConvert / zsetConvertAndExpand (7.2+ pre-sizes the dict for cap).
func (z *zsetValue) convertToSkiplist(cap int, why Why) {
	if z.lp == nil {
		return
	}
	lp := z.lp
	z.lp = nil
	hint := 0
	if z.ver.Has(V72) {
		hint = cap
	}
	z.initSkiplist(hint)
	for eptr := lp.First(); eptr >= 0; {
		sptr := lp.Next(eptr)
		tmp := zsetValue{lp: lp}
		m := tmp.zzlMember(eptr)
		sc := tmp.zzlScore(sptr)
		z.zsl.Insert(sc, m)
		z.dict.Add(m, sc)
		eptr = lp.Next(sptr)
	}
	if z.e != nil && z.e.tracing {
		z.e.emit(EncodingEvent{Key: z.key, From: "listpack", To: "skiplist", Why: why})
	}
}

// ---- generic operations ----

// score is zsetScore.
func (z *zsetValue) score(member []byte) (float64, bool) {
	if z.lp != nil {
		_, sptr := z.zzlFind(member)
		if sptr < 0 {
			return 0, false
		}
		return z.zzlScore(sptr), true
	}
	return z.dict.Find(string(member))
}

// add is zsetAdd. ok=false means a NaN score (the caller replies with the NaN error).
func (z *zsetValue) add(e *Engine, score float64, member []byte, flags int) (out int, newscore float64, ok bool) {
	xx := flags&zaddXX != 0
	if score != score {
		return zaddOutNaN, 0, false
	}
	if z.lp != nil {
		eptr, sptr := z.zzlFind(member)
		if eptr >= 0 {
			return zaddUpdate(flags, z.zzlScore(sptr), score, func(score float64) {
				z.zzlDelete(eptr)
				z.zzlInsert(member, score)
			})
		} else if !xx {
			maxEntries := e.cfg.Int("zset-max-listpack-entries")
			maxValue := e.cfg.Int("zset-max-listpack-value")
			switch {
			case int64(z.card()+1) > maxEntries:
				z.convertToSkiplist(z.card()+1, Why{Code: WhyEntries, N: int64(z.card() + 1), Limit: maxEntries, Name: "zset-max-listpack-entries"})
			case int64(len(member)) > maxValue:
				z.convertToSkiplist(z.card()+1, Why{Code: WhyValue, N: int64(len(member)), Limit: maxValue, Name: "zset-max-listpack-value"})
			case !z.lp.SafeToAdd(len(member)):
				z.convertToSkiplist(z.card()+1, Why{Code: WhyLPMax})
			default:
				z.zzlInsert(member, score)
				return zaddOutAdded, score, true
			}
		} else {
			return zaddOutNop, 0, true
		}
	}
	ent := z.dict.FindEntry(string(member))
	if ent != nil {
		return zaddUpdate(flags, ent.Val, score, func(score float64) {
			z.zsl.UpdateScore(ent.Val, ent.Key, score)
			ent.Val = score
		})
	} else if !xx {
		m := string(member)
		z.zsl.Insert(score, m)
		z.dict.Add(m, score)
		return zaddOutAdded, score, true
	}
	return zaddOutNop, 0, true
}

// zaddUpdate is zsetAdd's path for a member already there with score cur, the same for both
// encodings: NX leaves it, INCR adds (a NaN sum fails), GT and LT may refuse the new score, and
// set stores it when it differs from cur.
func zaddUpdate(flags int, cur, score float64, set func(score float64)) (out int, newscore float64, ok bool) {
	if flags&zaddNX != 0 {
		return zaddOutNop, 0, true
	}
	if flags&zaddIncr != 0 {
		score += cur
		if score != score {
			return zaddOutNaN, 0, false
		}
	}
	if (flags&zaddLT != 0 && score >= cur) || (flags&zaddGT != 0 && score <= cur) {
		return zaddOutNop, 0, true
	}
	if score != cur {
		set(score)
		out |= zaddOutUpdated
	}
	return out, score, true
}

// del is zsetDel (7.0/7.2: the dict may shrink after the delete, htNeedsResize).
func (z *zsetValue) del(member []byte) bool {
	if z.lp != nil {
		eptr, _ := z.zzlFind(member)
		if eptr < 0 {
			return false
		}
		z.zzlDelete(eptr)
		return true
	}
	ent := z.dict.Unlink(string(member))
	if ent == nil {
		return false
	}
	z.zsl.Delete(ent.Val, ent.Key)
	z.dict.ResizeIfNeeded()
	return true
}

// rank is zsetRank: 0-based, -1 when absent; also returns the score.
func (z *zsetValue) rank(member []byte, reverse bool) (int64, float64) {
	n := int64(z.card())
	if z.lp != nil {
		r := int64(0)
		for eptr := z.lp.First(); eptr >= 0; {
			sptr := z.lp.Next(eptr)
			if z.lp.Compare(eptr, member) {
				sc := z.zzlScore(sptr)
				if reverse {
					return n - 1 - r, sc
				}
				return r, sc
			}
			r++
			eptr = z.lp.Next(sptr)
		}
		return -1, 0
	}
	sc, ok := z.dict.Find(string(member))
	if !ok {
		return -1, 0
	}
	r := int64(z.zsl.GetRank(sc, string(member)))
	if reverse {
		return n - r, sc
	}
	return r - 1, sc
}

// zsetElem is one member and score for range walks.
type zsetElem struct {
	lpMember int // listpack offset (or -1)
	node     *skiplist.Node
	score    float64
}

// memberReply is the member as a bulk reply.
func (z *zsetValue) memberReply(el zsetElem) Reply {
	if el.node != nil {
		return BulkStr(el.node.Member)
	}
	return z.zzlMemberReply(el.lpMember)
}

// memberString is the member as a string.
func (z *zsetValue) memberString(el zsetElem) string {
	if el.node != nil {
		return el.node.Member
	}
	return z.zzlMember(el.lpMember)
}

// cursor walks the zset in order from rank start (0-based), forward or backward.
type zsetCursor struct {
	z       *zsetValue
	rev     bool
	eptr    int
	node    *skiplist.Node
	started bool
}

// seekRank positions a cursor at 0-based rank r counted from the low end (or the high end when
// rev).
func (z *zsetValue) seekRank(r int, rev bool) zsetCursor {
	c := zsetCursor{z: z, rev: rev, eptr: -1}
	if z.lp != nil {
		if rev {
			c.eptr = z.lp.Seek(-2 - 2*r)
		} else {
			c.eptr = z.lp.Seek(2 * r)
		}
		return c
	}
	n := int(z.zsl.Len())
	if rev {
		c.node = z.zsl.GetByRank(uint64(n - r))
	} else {
		c.node = z.zsl.GetByRank(uint64(r + 1))
	}
	return c
}

// at returns the current element; ok=false past the end.
func (c *zsetCursor) at() (zsetElem, bool) {
	if c.z.lp != nil {
		if c.eptr < 0 {
			return zsetElem{}, false
		}
		return zsetElem{lpMember: c.eptr, score: c.z.zzlScore(c.z.lp.Next(c.eptr))}, true
	}
	if c.node == nil {
		return zsetElem{}, false
	}
	return zsetElem{lpMember: -1, node: c.node, score: c.node.Score}, true
}

// next moves one element on in the cursor's direction.
func (c *zsetCursor) next() {
	if c.z.lp != nil {
		if c.eptr < 0 {
			return
		}
		if c.rev {
			p := c.z.lp.Prev(c.eptr)
			if p >= 0 {
				p = c.z.lp.Prev(p)
			}
			c.eptr = p
		} else {
			p := c.z.lp.Next(c.eptr)
			if p >= 0 {
				p = c.z.lp.Next(p)
			}
			c.eptr = p
		}
		return
	}
	if c.node == nil {
		return
	}
	if c.rev {
		c.node = c.node.Prev()
	} else {
		c.node = c.node.Next()
	}
}

// seek positions a cursor at the first element of a score or lex range (the last, when b.rev):
// zslFirstInRange / zslLastInRange and their lex twins on a skiplist, lpSeek on a listpack.
func (z *zsetValue) seek(b zrangeBounds) zsetCursor {
	c := zsetCursor{z: z, rev: b.rev, eptr: -1}
	score := b.rt == zrangeScore
	if z.lp == nil {
		switch {
		case score && b.rev:
			c.node = z.zsl.LastInRange(b.sr)
		case score:
			c.node = z.zsl.FirstInRange(b.sr)
		case b.rev:
			c.node = z.zsl.LastInLexRange(b.lr)
		default:
			c.node = z.zsl.FirstInLexRange(b.lr)
		}
		return c
	}
	if score {
		if !b.sr.Empty() {
			c.eptr = z.lpSeek(b.rev,
				func(_, sptr int) bool { return b.sr.GteMin(z.zzlScore(sptr)) },
				func(_, sptr int) bool { return b.sr.LteMax(z.zzlScore(sptr)) })
		}
		return c
	}
	// zzlIsInLexRange: the last member must be ≥ min and the first ≤ max. With unequal scores
	// the listpack is not in member order, so this early out changes the answer (7.0.15:
	// ZLEXCOUNT of [34 e4 d0 -0 +1] over [c4 (f6 is 0).
	r := b.lr
	if first, last := z.lp.First(), z.lp.Last(); r.Empty() || first < 0 || !r.LteMax(z.zzlMember(first)) ||
		!r.GteMin(z.zzlMember(z.lp.Prev(last))) {
		return c
	}
	c.eptr = z.lpSeek(b.rev,
		func(eptr, _ int) bool { return r.GteMin(z.zzlMember(eptr)) },
		func(eptr, _ int) bool { return r.LteMax(z.zzlMember(eptr)) })
	return c
}

// lpSeek is the listpack walk of seek (zzlFirstInRange, zzlLastInRange and
// their lex twins): forward, the first pair at or above the minimum, kept only when it is within
// the maximum too; backward, the last pair at or below the maximum, kept only when at or above
// the minimum. gteMin and lteMax test the pair whose member is at eptr and score at sptr; the
// answer is the member's position, or -1.
func (z *zsetValue) lpSeek(rev bool, gteMin, lteMax func(eptr, sptr int) bool) int {
	stop, keep := gteMin, lteMax
	if rev {
		stop, keep = lteMax, gteMin
	}
	for c := z.seekRank(0, rev); c.eptr >= 0; c.next() {
		if sptr := z.lp.Next(c.eptr); stop(c.eptr, sptr) {
			if keep(c.eptr, sptr) {
				return c.eptr
			}
			return -1
		}
	}
	return -1
}

// zsetMemory is MEMORY USAGE's value part for a zset, without the robj (keyEntryOverhead has it).
func (e *Engine) zsetMemory(o *Object, samples int) int64 {
	z := o.Val.(*zsetValue)
	if z.lp != nil {
		return int64(z.lp.Usable(e.alloc))
	}
	fixed := int64(skiplist.ZsetBytes+skiplist.ListBytes) + z.dict.UsageBase() + int64(e.alloc.Usable(skiplist.HeaderBytes))
	elesize, n := z.zsl.SampleSum(samples, func(x *skiplist.Node) int {
		return e.keySDSUsable([]byte(x.Member)) + dict.EntryMemUsage(uint16(e.ver)) + e.alloc.Usable(skiplist.NodeBytes(x.Level()))
	})
	// Redis adds the extrapolated average to the whole size (robj included) in double precision.
	return dict.Extrapolate(fixed+16, elesize, n, z.dict.Len()) - 16
}
