package engine

import (
	"bytes"
	"math"
	"sort"

	"redscope/engine/quicklist"
)

// MOVE, SWAPDB, SORT and SORT_RO, answering as Redis 7.0.15 does (db.c, sort.c).
//
// SORT notes (sort.c):
//   - a listpack sorted set is converted to a skiplist for good before sorting (zsetConvert);
//   - BY with a pattern without '*' means "do not sort" (a set is then sorted ALPHA anyway when
//     the result is STOREd); GET # is the element itself; "key->field" reads a hash field;
//   - numbers are read with strtod up to the end of the C string; ALPHA compares with strcoll
//     (the server runs in the C.UTF-8 locale here: byte order up to the first NUL byte) and,
//     when STOREing, in binary;
//   - ties keep the input order (glibc's qsort is a merge sort); a hashtable set or zset gives
//     its elements in hash order, which the real server seeds at random;
//   - STORE writes a list (7.0: a quicklist; 7.2+: converted to a listpack when it fits one
//     node), an empty result deletes the destination.

func init() {
	register(
		&Command{Name: "move", Arity: 3, Flags: FlagWrite | FlagFast, Cats: "keyspace", KeyFlags: []string{"RW access update"}, Paged: true, Fn: cmdMove},
		&Command{Name: "swapdb", Arity: 3, Flags: FlagWrite | FlagFast, Cats: "keyspace dangerous", Keyless: true, Fn: cmdSwapdb},
		&Command{Name: "sort", Arity: -2, Flags: FlagWrite | FlagDenyOOM, FirstKey: 1, LastKey: 1, Step: 1, Cats: "set sortedset list dangerous", KeyFlags: []string{"RO access"}, KeyExtra: []KeySpec{KeySpec{Flags: "RO access", Notes: "For the optional BY/GET keyword. It is marked 'unknown' because the key names derive from the content of the key we sort"}, KeySpec{Flags: "OW update", Notes: "For the optional STORE keyword. It is marked 'unknown' because the keyword can appear anywhere in the argument array"}}, KeysFn: sortKeys, Fn: cmdSort},
		&Command{Name: "sort_ro", Arity: -2, Flags: FlagReadonly, FirstKey: 1, LastKey: 1, Step: 1, Cats: "set sortedset list dangerous", KeyExtra: []KeySpec{KeySpec{Flags: "RO access", Notes: "For the optional BY/GET keyword. It is marked 'unknown' because the key names derive from the content of the key we sort"}}, KeysFn: sortKeys, Fn: cmdSort},
	)
}

// getIntArg is getIntFromObjectOrReply: an integer within the C int range. msg replaces both
// errors when set.
func getIntArg(b []byte, msg string) (int64, *Reply) {
	n, ok := string2ll(b)
	if !ok {
		r := ErrNotInt
		if msg != "" {
			r = Err("ERR " + msg)
		}
		return 0, &r
	}
	if n < math.MinInt32 || n > math.MaxInt32 {
		r := Err("ERR value is out of range, value must between -2147483648 and 2147483647")
		if msg != "" {
			r = Err("ERR " + msg)
		}
		return 0, &r
	}
	return n, nil
}

// MOVE key db: the value object moves with its TTL to the other database, unless the key
// exists there.
func cmdMove(e *Engine, args [][]byte) Reply {
	id, r := getIntArg(args[2], "")
	if r != nil {
		return *r
	}
	if id < 0 || int(id) >= len(e.dbs) {
		return errDBIndex
	}
	src, dst := e.db, e.dbs[id]
	if src == dst {
		return errSameObject
	}
	key := args[1]
	dirty := e.cfg.stats.dirty
	if !e.keyToDB(key, key, dst, false, func(o *Object) *Object { return o }) {
		return Int(0)
	}
	e.Delete(key)
	e.cfg.stats.dirty = dirty + 1 // moveCommand's one server.dirty++ (the key added and deleted count nothing)
	return Int(1)
}

// SWAPDB index1 index2: the two databases exchange their contents (a connection that selected
// one of them sees the other's keys from now on).
func cmdSwapdb(e *Engine, args [][]byte) Reply {
	id1, r := getIntArg(args[1], "invalid first DB index")
	if r != nil {
		return *r
	}
	id2, r := getIntArg(args[2], "invalid second DB index")
	if r != nil {
		return *r
	}
	if id1 < 0 || int(id1) >= len(e.dbs) || id2 < 0 || int(id2) >= len(e.dbs) {
		return errDBIndex
	}
	e.cfg.stats.dirty++ // swapdbCommand's server.dirty++ (also when the two indexes are the same)
	if id1 == id2 {
		return OK
	}
	cur := e.CurrentDB()
	e.touchAllWatchedKeysInDb(int(id1), int(id2))
	e.touchAllWatchedKeysInDb(int(id2), int(id1))
	e.scanDeletedStreams(int(id1), e.dbs[id2])
	e.scanDeletedStreams(int(id2), e.dbs[id1])
	e.dbs[id1], e.dbs[id2] = e.dbs[id2], e.dbs[id1]
	e.db = e.dbs[cur]
	e.scanReady(int(id1)) // clients stay in their database: what it holds now may serve them
	e.scanReady(int(id2))
	return OK
}

// sortLookup is lookupKeyByPattern: "#" is the element itself; otherwise the first '*' is
// replaced by the element and the key read (a string), or with "->field" a hash field. nil
// when there is no '*', no such key, or the wrong type.
func (e *Engine) sortLookup(pattern, subst []byte) ([]byte, bool) {
	if len(pattern) > 0 && pattern[0] == '#' && (len(pattern) == 1 || pattern[1] == 0) {
		return subst, true
	}
	cp := cstr(pattern)
	star := bytes.IndexByte(cp, '*')
	if star < 0 {
		return nil, false
	}
	var field []byte
	fieldlen := 0
	if f := bytes.Index(cp[star+1:], []byte("->")); f >= 0 {
		f += star + 1
		if f+2 < len(cp) {
			field = pattern[f+2:]
			fieldlen = len(field)
		}
	}
	postfix := len(pattern) - (star + 1)
	if field != nil {
		postfix -= fieldlen + 2
	}
	key := make([]byte, 0, star+len(subst)+postfix)
	key = append(key, pattern[:star]...)
	key = append(key, subst...)
	key = append(key, pattern[star+1:star+1+postfix]...)
	o := e.Lookup(key)
	if o == nil {
		return nil, false
	}
	if field != nil {
		if o.Type != TypeHash {
			return nil, false
		}
		s, iv, isInt, res := e.hashGet(key, o, field, true)
		if res != getOK {
			return nil, false
		}
		if isInt {
			return []byte(itoa(iv)), true
		}
		return append([]byte{}, s...), true
	}
	if o.Type != TypeString {
		return nil, false
	}
	return o.StringBytes(), true
}

type sortItem struct {
	obj   []byte
	score float64
	cmp   []byte // BY value for ALPHA (nil: missing)
}

// SORT key [BY pattern] [LIMIT offset count] [GET pattern ...] [ASC|DESC] [ALPHA] [STORE dst];
// SORT_RO without STORE.
func cmdSort(e *Engine, args [][]byte) Reply {
	readonly := eqFold(args[0], "sort_ro")
	desc, alpha, dontsort := false, false, false
	limitStart, limitCount := int64(0), int64(-1)
	var sortby, storekey []byte
	var gets [][]byte
	for j := 2; j < len(args); j++ {
		left := len(args) - j - 1
		a := args[j]
		switch {
		case eqFold(a, "asc"):
			desc = false
		case eqFold(a, "desc"):
			desc = true
		case eqFold(a, "alpha"):
			alpha = true
		case eqFold(a, "limit") && left >= 2:
			var ok bool
			if limitStart, ok = string2ll(args[j+1]); !ok {
				return ErrNotInt
			}
			if limitCount, ok = string2ll(args[j+2]); !ok {
				return ErrNotInt
			}
			j += 2
		case !readonly && eqFold(a, "store") && left >= 1:
			storekey = args[j+1]
			j++
		case eqFold(a, "by") && left >= 1:
			sortby = args[j+1]
			dontsort = bytes.IndexByte(cstr(sortby), '*') < 0
			j++
		case eqFold(a, "get") && left >= 1:
			gets = append(gets, args[j+1])
			j++
		default:
			return ErrSyntax
		}
	}
	o := e.Lookup(args[1])
	if o != nil && o.Type != TypeSet && o.Type != TypeList && o.Type != TypeZSet {
		return ErrWrongType
	}
	isSet := o != nil && o.Type == TypeSet
	isZset := o != nil && o.Type == TypeZSet
	if dontsort && isSet && storekey != nil {
		dontsort, alpha, sortby = false, true, nil
	}
	var z *zsetValue
	if isZset {
		z = e.zsetOf(o, args[1])
		if z.lp != nil {
			z.convertToSkiplist(z.card(), Why{Code: WhySort})
			o.Enc = EncSkiplist
		}
	}
	var vectorlen int64
	switch {
	case o == nil:
	case o.Type == TypeList:
		vectorlen = int64(e.listOf(o, args[1]).length())
	case isSet:
		vectorlen = int64(setSize(o))
	default:
		vectorlen = int64(z.dict.Len())
	}
	start := min(max(limitStart, 0), vectorlen)
	limitCount = min(max(limitCount, -1), vectorlen)
	end := vectorlen - 1
	if limitCount >= 0 {
		end = start + limitCount - 1
	}
	if start >= vectorlen {
		start, end = vectorlen-1, vectorlen-2
	}
	if end >= vectorlen {
		end = vectorlen - 1
	}
	ordered := o == nil || o.Type == TypeList || isZset
	if ordered && dontsort && (start != 0 || end != vectorlen-1) {
		vectorlen = end - start + 1
	}
	vec := make([]sortItem, 0, max(vectorlen, 0))
	switch {
	case o == nil:
	case o.Type == TypeList && dontsort:
		if end >= start {
			l := e.listOf(o, args[1])
			from := int(start)
			if desc {
				from = l.length() - int(start) - 1
			}
			it := l.iterAt(from, desc)
			for int64(len(vec)) < vectorlen {
				v, ok := it.next()
				if !ok {
					break
				}
				vec = append(vec, sortItem{obj: append([]byte(nil), v...)})
			}
			end -= start
			start = 0
		}
	case o.Type == TypeList:
		it := e.listOf(o, args[1]).iterAt(0, false)
		for {
			v, ok := it.next()
			if !ok {
				break
			}
			vec = append(vec, sortItem{obj: append([]byte(nil), v...)})
		}
	case isSet:
		var buf [24]byte
		setEach(o, func(s []byte, iv int64, isInt bool) bool {
			vec = append(vec, sortItem{obj: append([]byte(nil), memberBytes(s, iv, isInt, buf[:])...)})
			return true
		})
	case dontsort:
		n := int64(z.dict.Len())
		x := z.zsl.First()
		if desc {
			x = z.zsl.Last()
			if start > 0 {
				x = z.zsl.GetByRank(uint64(n - start))
			}
		} else if start > 0 {
			x = z.zsl.GetByRank(uint64(start + 1))
		}
		for i := int64(0); i < vectorlen && x != nil; i++ {
			vec = append(vec, sortItem{obj: []byte(x.Member)})
			if desc {
				x = x.Prev()
			} else {
				x = x.Next()
			}
		}
		end -= start
		start = 0
	default:
		z.dict.Range(func(en *dictEntryF) bool {
			vec = append(vec, sortItem{obj: []byte(en.Key)})
			return true
		})
	}
	convErr := false
	if !dontsort {
		for i := range vec {
			by := vec[i].obj
			if sortby != nil {
				var ok bool
				if by, ok = e.sortLookup(sortby, vec[i].obj); !ok {
					continue
				}
			}
			if alpha {
				if sortby != nil {
					vec[i].cmp = append([]byte{}, by...)
				}
				continue
			}
			s := cstr(by)
			v, n, erange := strtod(s, !e.ver.Has(V80))
			vec[i].score = v
			if n != len(s) || erange || math.IsNaN(v) {
				convErr = true
			}
		}
		store := storekey != nil
		cmp := func(a, b *sortItem) int {
			var c int
			switch {
			case !alpha:
				switch {
				case a.score > b.score:
					c = 1
				case a.score < b.score:
					c = -1
				default:
					c = bytes.Compare(a.obj, b.obj)
				}
			case sortby != nil:
				switch {
				case a.cmp == nil || b.cmp == nil:
					switch {
					case a.cmp == nil && b.cmp == nil:
					case a.cmp == nil:
						c = -1
					default:
						c = 1
					}
				case store:
					c = bytes.Compare(a.cmp, b.cmp)
				default:
					c = bytes.Compare(cstr(a.cmp), cstr(b.cmp))
				}
			case store:
				c = bytes.Compare(a.obj, b.obj)
			default:
				c = bytes.Compare(cstr(a.obj), cstr(b.obj))
			}
			if desc {
				return -c
			}
			return c
		}
		sort.SliceStable(vec, func(i, j int) bool { return cmp(&vec[i], &vec[j]) < 0 })
	}
	if convErr {
		return Err("ERR One or more scores can't be converted into double")
	}
	count := end - start + 1
	if count < 0 {
		count = 0
	}
	if storekey == nil {
		per := max(len(gets), 1)
		out := make([]Reply, 0, int(count)*per)
		for j := start; j <= end; j++ {
			obj := vec[j].obj
			if len(gets) == 0 {
				out = append(out, Bulk(obj))
			}
			for _, g := range gets {
				if v, ok := e.sortLookup(g, obj); ok {
					out = append(out, Bulk(v))
				} else {
					out = append(out, NilReply)
				}
			}
		}
		return Reply{Kind: KindArray, Array: out}
	}
	var elems [][]byte
	for j := start; j <= end; j++ {
		obj := vec[j].obj
		if len(gets) == 0 {
			elems = append(elems, obj)
		}
		for _, g := range gets {
			v, _ := e.sortLookup(g, obj)
			elems = append(elems, append([]byte{}, v...))
		}
	}
	if len(elems) == 0 {
		e.Delete(storekey)
		return Int(0)
	}
	// 7.0's createQuicklistObject keeps quicklistCreate's defaults (fill -2), whatever
	// list-max-listpack-size says; 7.2+ passes the configured fill.
	ql := e.newQuicklist()
	if !e.ver.Has(V72) {
		ql = quicklist.New(quicklist.Options{Fill: -2, Rules: e.quicklistRules(), Alloc: e.alloc})
	}
	l := &listValue{e: e, ql: ql}
	lo := &Object{Type: TypeList, Enc: EncQuicklist, Val: l}
	if e.tracing {
		l.key = string(storekey)
		l.observe()
	}
	for _, v := range elems {
		l.push(v, false)
	}
	if e.ver.Has(V72) {
		l.tryConvertQuicklistAuto(lo, WhyListSort)
	}
	dirty := e.cfg.stats.dirty
	e.setKey(storekey, lo, false)
	e.cfg.stats.dirty = dirty + int64(len(elems)) // sortCommandGeneric's server.dirty += outputlen
	return Int(int64(len(elems)))
}
