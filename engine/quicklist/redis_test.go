package quicklist

// Differential check against a real redis-server 7.0 (Debian's 7.0.15 here): random hashes, sorted
// sets, intsets and lists are built both on the server and with this module's packages, and the
// raw bytes inside `DUMP key` (RDB types 16/17 listpack, 11 intset, 18 quicklist) must be equal,
// as must MEMORY USAGE (Jemalloc16 classes). Run with
//
//	REDSCOPE_REDIS_PORT=7006 go test ./engine/quicklist -run Redis -v
//
// The payloads are read with engine/rdb (LZF-compressed blobs included).

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"redscope/engine/alloc"
	"redscope/engine/intset"
	"redscope/engine/listpack"
	"redscope/engine/rdb"
	"redscope/internal/refredis"
)

func dialRedis(t *testing.T) *refredis.Conn {
	return refredis.DialEnv(t, "REDSCOPE_REDIS_PORT", "no redis-server 7.0 to compare with")
}

// dumpBlobs returns the RDB type and the raw blobs (one for hash/zset/intset, one per node for a
// quicklist; plain nodes are prefixed with "PLAIN:").
func dumpBlobs(t *testing.T, c *refredis.Conn, key string) (byte, [][]byte) {
	t.Helper()
	v, ok := c.Do(t, "DUMP", key).([]byte)
	if !ok {
		t.Fatalf("DUMP %s failed", key)
	}
	if _, _, ok := rdb.Verify(v, 12, false); !ok {
		t.Fatalf("DUMP %s: bad footer", key)
	}
	r := &rdb.Reader{B: v}
	typ := r.Byte()
	var blobs [][]byte
	str := func() []byte { s, _, _ := r.String(); return s }
	switch typ {
	case rdb.TypeSetIntset, rdb.TypeHashListpack, rdb.TypeZSetListpack:
		blobs = append(blobs, str())
	case rdb.TypeListQuicklist2:
		n := r.Len()
		for i := uint64(0); i < n && r.Err == nil; i++ {
			container := r.Len()
			s := str()
			if container == rdb.ContainerPlain {
				s = append([]byte("PLAIN:"), s...)
			}
			blobs = append(blobs, s)
		}
	default:
		t.Fatalf("unexpected RDB type %d", typ)
	}
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	return typ, blobs
}

func memUsage(t *testing.T, c *refredis.Conn, key string, samples int) int64 {
	t.Helper()
	n, ok := c.Do(t, "MEMORY", "USAGE", key, "SAMPLES", samples).(int64)
	if !ok {
		t.Fatal("MEMORY USAGE")
	}
	return n
}

// tally counts the random cases of a single-blob type (hash or zset listpack, intset) whose
// DUMP payload is byte-exact and whose MEMORY USAGE is equal.
type tally struct{ cases, bytes, memory int }

// empty counts a case that deleted every element: no key on either side, nothing to compare.
func (tl *tally) empty() { tl.cases, tl.bytes, tl.memory = tl.cases+1, tl.bytes+1, tl.memory+1 }

// check compares case i's value at key with ours — its one blob, and MEMORY USAGE as the robj
// (16), the blob's allocation (usable), the key's sds and the dict entry (24) — then deletes key.
func (tl *tally) check(t *testing.T, c *refredis.Conn, i int, key string, ours []byte, usable int) {
	t.Helper()
	tl.cases++
	_, blobs := dumpBlobs(t, c, key)
	if bytes.Equal(blobs[0], ours) {
		tl.bytes++
	} else {
		t.Errorf("case %d: bytes differ\nredis %q\nours  %q", i, blobs[0], ours)
	}
	if want, got := memUsage(t, c, key, 5), int64(16+usable+keyUsable(key)+24); want == got {
		tl.memory++
	} else {
		t.Errorf("case %d: MEMORY USAGE redis %d ours %d (%d bytes)", i, want, got, len(ours))
	}
	c.Do(t, "DEL", key)
}

func (tl *tally) log(t *testing.T, what string) {
	t.Helper()
	t.Logf("%s: %d/%d byte-exact, %d/%d MEMORY USAGE equal", what, tl.bytes, tl.cases, tl.memory, tl.cases)
}

// blob is a model value held in one allocation: a listpack or an intset.
type blob interface {
	Len() int
	Bytes() []byte
	Usable(alloc.Allocator) int
}

// compareBlobs plays n random cases on keys prefix0, prefix1, …: each case's key is deleted,
// play builds it on the server and in its model, and the model's blob is compared with the
// server's (tally.check); a case that emptied the key counts as equal. what names the log line.
func compareBlobs(t *testing.T, c *refredis.Conn, what, prefix string, n int, play func(i int, key string) blob) {
	t.Helper()
	var tl tally
	for i := 0; i < n; i++ {
		key := prefix + strconv.Itoa(i)
		c.Do(t, "DEL", key)
		if m := play(i, key); m.Len() > 0 {
			tl.check(t, c, i, key, m.Bytes(), m.Usable(alloc.Jemalloc16))
		} else {
			tl.empty()
		}
	}
	tl.log(t, what)
}

func keyUsable(key string) int { return alloc.Jemalloc16.Usable(1 + len(key) + 1) } // sds5, len < 32

// ---------------------------------------------------------------------------------------------

func valueGen(r *rand.Rand, maxStr int) string {
	switch r.IntN(12) {
	case 0:
		return strconv.Itoa(r.IntN(128))
	case 1:
		return strconv.Itoa(r.IntN(8192) - 4096)
	case 2:
		return strconv.Itoa(r.IntN(65536) - 32768)
	case 3:
		return strconv.Itoa(r.IntN(1<<24) - 1<<23)
	case 4:
		return strconv.FormatInt(r.Int64N(1<<32)-1<<31, 10)
	case 5:
		return strconv.FormatInt(int64(r.Uint64()), 10)
	case 6:
		return []string{"-0", "+1", "007", "", " 5", "1e3", "9223372036854775808",
			"-9223372036854775808", "9223372036854775807", "12345678901234567890123"}[r.IntN(10)]
	case 7:
		return randStr(r, 64+r.IntN(min(maxStr, 4096)-63))
	case 8:
		if maxStr > 4096 && r.IntN(4) == 0 {
			return randStr(r, 4096+r.IntN(maxStr-4096))
		}
		return randStr(r, r.IntN(64))
	}
	return randStr(r, r.IntN(20))
}

func randStr(r *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = 'a' + byte(r.IntN(26))
	}
	return string(b)
}

func TestRedisHashListpack(t *testing.T) {
	c := dialRedis(t)
	c.Do(t, "CONFIG", "SET", "hash-max-listpack-value", "6000")
	c.Do(t, "CONFIG", "SET", "hash-max-listpack-entries", "512")
	defer c.Do(t, "CONFIG", "SET", "hash-max-listpack-value", "64")
	r := rand.New(rand.NewPCG(7, 7))
	compareBlobs(t, c, "hash listpack", "h", 300, func(i int, key string) blob {
		lp := listpack.New()
		fields := []string{}
		nops := 1 + r.IntN(60)
		for op := 0; op < nops; op++ {
			if len(fields) > 0 && r.IntN(4) == 0 {
				f := fields[r.IntN(len(fields))]
				c.Do(t, "HDEL", key, f)
				if p := lp.Find(lp.First(), []byte(f), 1); p >= 0 {
					lp.DeleteRangeAt(p, 2)
				}
				fields = slices.DeleteFunc(fields, func(x string) bool { return x == f })
				continue
			}
			f := valueGen(r, 5000)
			if len(fields) > 0 && r.IntN(3) == 0 {
				f = fields[r.IntN(len(fields))]
			}
			v := valueGen(r, 5000)
			c.Do(t, "HSET", key, f, v)
			p := -1
			if lp.First() >= 0 {
				p = lp.Find(lp.First(), []byte(f), 1)
			}
			if p >= 0 {
				lp.Replace(lp.Next(p), []byte(v))
			} else {
				lp.Append([]byte(f))
				lp.Append([]byte(v))
				fields = append(fields, f)
			}
		}
		if lp.Len() > 0 {
			if enc := c.Do(t, "OBJECT", "ENCODING", key); enc.([]byte) == nil || string(enc.([]byte)) != "listpack" {
				t.Fatalf("case %d: encoding %s", i, enc)
			}
		}
		return lp
	})
}

func TestRedisZsetListpack(t *testing.T) {
	c := dialRedis(t)
	c.Do(t, "CONFIG", "SET", "zset-max-listpack-value", "6000")
	defer c.Do(t, "CONFIG", "SET", "zset-max-listpack-value", "64")
	r := rand.New(rand.NewPCG(8, 8))
	compareBlobs(t, c, "zset listpack", "z", 200, func(i int, key string) blob {
		lp := listpack.New()
		n := 1 + r.IntN(60)
		for op := 0; op < n; op++ {
			m := valueGen(r, 5000)
			var score float64
			var ss string
			if r.IntN(3) == 0 {
				score = float64(r.IntN(40)-20) + 0.5
				ss = strconv.FormatFloat(score, 'g', 17, 64)
			} else {
				sv := r.Int64N(1<<40) - 1<<39
				if r.IntN(2) == 0 {
					sv = r.Int64N(50)
				}
				score, ss = float64(sv), strconv.FormatInt(sv, 10)
			}
			if r.IntN(5) == 0 && lp.Len() > 0 {
				// ZREM a member that exists.
				p := lp.Seek(2 * r.IntN(lp.Len()/2))
				rm := string(lp.GetString(p, nil))
				c.Do(t, "ZREM", key, rm)
				lp.DeleteRangeAt(p, 2)
				continue
			}
			c.Do(t, "ZADD", key, ss, m)
			// zsetAdd on a listpack: delete the old pair, insert in (score, member) order.
			if p := lp.Find(lp.First(), []byte(m), 1); lp.First() >= 0 && p >= 0 {
				lp.DeleteRangeAt(p, 2)
			}
			p := lp.First()
			for p >= 0 {
				sp := lp.Next(p)
				s2, _ := strconv.ParseFloat(string(lp.GetString(sp, nil)), 64)
				if s2 > score || (s2 == score && string(lp.GetString(p, nil)) > m) {
					break
				}
				p = lp.Next(sp)
			}
			if p < 0 {
				lp.Append([]byte(m))
				lp.Append([]byte(ss))
			} else {
				np, _ := lp.Insert(p, []byte(m), listpack.Before)
				lp.Insert(np, []byte(ss), listpack.After)
			}
		}
		return lp
	})
}

func TestRedisIntset(t *testing.T) {
	c := dialRedis(t)
	r := rand.New(rand.NewPCG(9, 9))
	compareBlobs(t, c, "intset", "s", 300, func(i int, key string) blob {
		s := intset.New()
		widest := r.IntN(3)
		n := 1 + r.IntN(100)
		var added []int64
		for op := 0; op < n; op++ {
			var v int64
			switch r.IntN(widest + 1) {
			case 0:
				v = r.Int64N(1<<16) - 1<<15
			case 1:
				v = r.Int64N(1<<32) - 1<<31
			default:
				v = int64(r.Uint64())
			}
			if len(added) > 0 && r.IntN(4) == 0 {
				v = added[r.IntN(len(added))]
				c.Do(t, "SREM", key, strconv.FormatInt(v, 10))
				s.Remove(v)
				continue
			}
			c.Do(t, "SADD", key, strconv.FormatInt(v, 10))
			s.Add(v)
			added = append(added, v)
		}
		return s
	})
}

// listModel applies the 7.0 t_list.c command semantics on a Quicklist.
func ltrim(q *Quicklist, start, end int) {
	llen := q.Count()
	if start < 0 {
		start += llen
	}
	if end < 0 {
		end += llen
	}
	if start < 0 {
		start = 0
	}
	var l, rt int
	if start > end || start >= llen {
		l, rt = llen, 0
	} else {
		if end >= llen {
			end = llen - 1
		}
		l, rt = start, llen-end-1
	}
	q.DelRange(0, l)
	q.DelRange(-rt, rt)
}

func lrem(q *Quicklist, count int, v []byte) int {
	var it Iter
	if count < 0 {
		count = -count
		it, _ = q.IteratorAt(FromTail, -1)
	} else {
		it, _ = q.IteratorAt(FromHead, 0)
	}
	removed := 0
	var e Entry
	for it.Next(&e) {
		if Compare(&e, v) {
			it.DelEntry(&e)
			removed++
			if count > 0 && removed == count {
				break
			}
		}
	}
	return removed
}

func linsert(q *Quicklist, after bool, pivot, v []byte) bool {
	it := q.Iterator(FromHead)
	var e Entry
	for it.Next(&e) {
		if Compare(&e, pivot) {
			if after {
				q.InsertAfter(&it, &e, v)
			} else {
				q.InsertBefore(&it, &e, v)
			}
			return true
		}
	}
	return false
}

func listElem(r *rand.Rand, big int) string {
	switch r.IntN(6) {
	case 0:
		return strconv.Itoa(r.IntN(300) - 100)
	case 1:
		return strconv.FormatInt(int64(r.Uint64()), 10)
	case 2:
		return randStr(r, r.IntN(big))
	case 3:
		if r.IntN(10) == 0 {
			return randStr(r, 8000+r.IntN(3000)) // larger than a node
		}
	}
	return randStr(r, r.IntN(3)) + strconv.Itoa(r.IntN(5))
}

func TestRedisQuicklist(t *testing.T) {
	c := dialRedis(t)
	defer c.Do(t, "CONFIG", "SET", "list-max-listpack-size", "-2")
	r := rand.New(rand.NewPCG(10, 10))
	fills := []int{-2, -1, -3, 1, 2, 5, 16, 0, -5, 100}
	matched, memMatched, cases := 0, 0, 400
	nodesSeen, multi := 0, 0
	var events [5]int
	rules := Rules70
	if os.Getenv("REDSCOPE_QL_RULES") == "72" { // sensitivity check: 7.2 rules must NOT match 7.0
		rules = Rules72
	}
	for i := 0; i < cases; i++ {
		fill := fills[i%len(fills)]
		c.Do(t, "CONFIG", "SET", "list-max-listpack-size", strconv.Itoa(fill))
		key := "l" + strconv.Itoa(i)
		c.Do(t, "DEL", key)
		q := New(Options{Fill: fill, Rules: rules, Alloc: alloc.Jemalloc16})
		q.OnEvent = func(ev Event) { events[ev.Kind]++ }
		big := []int{50, 400, 1500}[r.IntN(3)]
		nops := 5 + r.IntN(150)
		var buf []byte
		for op := 0; op < nops; op++ {
			v := listElem(r, big)
			exists := q.Count() > 0
			switch k := r.IntN(20); {
			case k < 6 || !exists:
				c.Do(t, "RPUSH", key, v)
				q.PushTail([]byte(v))
			case k < 10:
				c.Do(t, "LPUSH", key, v)
				q.PushHead([]byte(v))
			case k == 10:
				c.Do(t, "LPOP", key)
				buf, _ = q.Pop(Head, buf)
			case k == 11:
				c.Do(t, "RPOP", key)
				buf, _ = q.Pop(Tail, buf)
			case k < 15:
				e, _, _ := q.Index(r.IntN(q.Count()))
				pivot := slices.Clone(e.Bytes(nil))
				after := r.IntN(2) == 0
				where := "BEFORE"
				if after {
					where = "AFTER"
				}
				c.Do(t, "LINSERT", key, where, pivot, v)
				linsert(q, after, pivot, []byte(v))
			case k < 17:
				idx := r.IntN(2*q.Count()) - q.Count()
				c.Do(t, "LSET", key, idx, v)
				q.ReplaceAtIndex(idx, []byte(v))
			case k == 17:
				e, _, _ := q.Index(r.IntN(q.Count()))
				target := slices.Clone(e.Bytes(nil))
				cnt := r.IntN(5) - 2
				n := c.Do(t, "LREM", key, cnt, target).(int64)
				if got := lrem(q, cnt, target); int64(got) != n {
					t.Fatalf("case %d: LREM removed %d, ours %d", i, n, got)
				}
			default:
				n := q.Count()
				s, e := r.IntN(n+2)-1, n-1-r.IntN(3)
				if r.IntN(2) == 0 {
					e = -1 - r.IntN(3)
				}
				c.Do(t, "LTRIM", key, s, e)
				ltrim(q, s, e)
			}
			if err := q.Check(); err != nil {
				t.Fatalf("case %d op %d: %v", i, op, err)
			}
		}
		if q.Count() == 0 {
			if n := c.Do(t, "EXISTS", key).(int64); n != 0 {
				t.Fatalf("case %d: key exists, our list is empty", i)
			}
			matched++
			memMatched++
			continue
		}
		_, blobs := dumpBlobs(t, c, key)
		var ours [][]byte
		for n := q.Head(); n != nil; n = n.Next() {
			if n.IsPlain() {
				ours = append(ours, append([]byte("PLAIN:"), n.PlainBytes()...))
			} else {
				ours = append(ours, n.Listpack().Bytes())
			}
		}
		nodesSeen += len(ours)
		if len(ours) > 1 {
			multi++
		}
		if slices.EqualFunc(blobs, ours, bytes.Equal) {
			matched++
		} else {
			t.Errorf("case %d (fill %d): redis %d nodes, ours %d", i, fill, len(blobs), len(ours))
			for j := 0; j < max(len(blobs), len(ours)); j++ {
				var a, b []byte
				if j < len(blobs) {
					a = blobs[j]
				}
				if j < len(ours) {
					b = ours[j]
				}
				if !bytes.Equal(a, b) {
					t.Logf("  node %d differs: redis %d bytes, ours %d bytes", j, len(a), len(b))
				}
			}
		}
		ok := true
		for _, s := range []int{0, 5, 1} {
			want := memUsage(t, c, key, s)
			got := q.MemoryUsage(alloc.Jemalloc16, s) + int64(keyUsable(key)+24)
			if want != got {
				ok = false
				t.Errorf("case %d: MEMORY USAGE SAMPLES %d redis %d ours %d", i, s, want, got)
			}
		}
		if ok {
			memMatched++
		}
		c.Do(t, "DEL", key)
	}
	t.Logf("quicklist: %d/%d byte-exact (%d nodes, %d multi-node lists), %d/%d MEMORY USAGE equal (samples 0/5/1)",
		matched, cases, nodesSeen, multi, memMatched, cases)
	t.Logf("quicklist events: %d node-new, %d node-del, %d splits, %d merges", events[EvNodeNew], events[EvNodeDel],
		events[EvSplit], events[EvMerge])
}

// TestRedisQuicklistBoundaries sweeps element sizes so that node fill limits and merge estimates
// are hit exactly (random workloads rarely land on the boundary byte).
func TestRedisQuicklistBoundaries(t *testing.T) {
	c := dialRedis(t)
	defer c.Do(t, "CONFIG", "SET", "list-max-listpack-size", "-2")
	rules := Rules70
	if os.Getenv("REDSCOPE_QL_RULES") == "72" {
		rules = Rules72
	}
	r := rand.New(rand.NewPCG(11, 11))
	matched, cases := 0, 0
	for _, fill := range []int{-1, -2, 7} {
		c.Do(t, "CONFIG", "SET", "list-max-listpack-size", strconv.Itoa(fill))
		for l := 40; l < 700; l += 3 {
			cases++
			key := "b" + strconv.Itoa(l)
			c.Do(t, "DEL", key)
			q := New(Options{Fill: fill, Rules: rules, Alloc: alloc.Jemalloc16})
			n := 8192*3/(l+3) + 3
			args := []any{"RPUSH", key}
			for i := 0; i < n; i++ {
				s := fmt.Sprintf("%0*d", l, i) // unique, leading zeros keep it a string
				args = append(args, s)
				q.PushTail([]byte(s))
			}
			c.Do(t, args...)
			// Split/merge traffic: inserts in the middle, then pops and removals to shrink nodes.
			for k := 0; k < 6; k++ {
				e, _, _ := q.Index(r.IntN(q.Count()))
				pivot := slices.Clone(e.Bytes(nil))
				v := randStr(r, l-r.IntN(8))
				after := k%2 == 0
				where := map[bool]string{true: "AFTER", false: "BEFORE"}[after]
				c.Do(t, "LINSERT", key, where, pivot, v)
				linsert(q, after, pivot, []byte(v))
				if k == 2 {
					for j := 0; j < n/3; j++ {
						idx := r.IntN(q.Count())
						e, _, _ := q.Index(idx)
						target := slices.Clone(e.Bytes(nil))
						c.Do(t, "LREM", key, 1, target)
						lrem(q, 1, target)
					}
				}
			}
			_, blobs := dumpBlobs(t, c, key)
			var ours [][]byte
			for nd := q.Head(); nd != nil; nd = nd.Next() {
				ours = append(ours, nd.Listpack().Bytes())
			}
			if slices.EqualFunc(blobs, ours, bytes.Equal) {
				matched++
			} else {
				t.Errorf("fill %d len %d: redis %d nodes, ours %d", fill, l, len(blobs), len(ours))
			}
			c.Do(t, "DEL", key)
		}
	}
	t.Logf("quicklist boundaries: %d/%d byte-exact", matched, cases)
}
