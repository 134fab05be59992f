package engine

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"redscope/engine/alloc"
	"redscope/engine/rdb"
)

// Automatic IDs come from the engine clock: ms-0 for a new millisecond, last+1 when the clock
// has not moved or went back; "ms-*" picks the next sequence of that millisecond.
func TestStreamAutoIDsFromClock(t *testing.T) {
	clk := &ManualClock{Ms: StartMs}
	e := New(Options{Version: V70, Clock: clk})
	doLines(t, e, `
		XADD s * a 1 => "1767225600000-0"
		XADD s * a 2 => "1767225600000-1"
		XADD s 1767225600000-* a 3 => "1767225600000-2"
		XADD s 1767225600005-* a 4 => "1767225600005-0"
		XADD s * a 5 => "1767225600005-1"
	`)
	clk.Advance(10 * time.Millisecond)
	doLines(t, e, `XADD s * a 6 => "1767225600010-0"`)
	clk.Ms = StartMs - 1000 // the clock jumps back: IDs keep growing
	doLines(t, e, `
		XADD s * a 7 => "1767225600010-1"
		XADD s 18446744073709551615-18446744073709551615 a 8 => "18446744073709551615-18446744073709551615"
		XADD s * a 9 => (error) ERR The stream has exhausted the last possible ID, unable to add more items
		XADD t 5-18446744073709551615 a 1 => "5-18446744073709551615"
		XADD t 5-* a 1 => (error) ERR The ID specified in XADD is equal or smaller than the target stream top item
		XADD t 6-* a 1 => "6-0"
		XLEN s => (integer) 8
	`)
}

// Idle times, delivery times and seen times use the engine clock.
func TestStreamClockFields(t *testing.T) {
	for _, v := range []Version{V70, V72} {
		clk := &ManualClock{Ms: StartMs}
		e := New(Options{Version: v, Clock: clk})
		doLines(t, e, `
			XADD s 1-0 a 1 => "1-0"
			XADD s 2-0 a 2 => "2-0"
			XGROUP CREATE s g 0 => OK
			XGROUP CREATECONSUMER s g idler => (integer) 1
			XREADGROUP GROUP g alice COUNT 1 STREAMS s > => 1) 1) "s" |    2) 1) 1) "1-0" |          2) 1) "a" |             2) "1"
		`)
		clk.Advance(1500 * time.Millisecond)
		doLines(t, e, `
			XREADGROUP GROUP g bob STREAMS s > => 1) 1) "s" |    2) 1) 1) "2-0" |          2) 1) "a" |             2) "2"
		`)
		clk.Advance(500 * time.Millisecond)
		doLines(t, e, `
			XPENDING s g - + 10 => 1) 1) "1-0" |    2) "alice" |    3) (integer) 2000 |    4) (integer) 1 | 2) 1) "2-0" |    2) "bob" |    3) (integer) 500 |    4) (integer) 1
			XPENDING s g IDLE 1000 - + 10 => 1) 1) "1-0" |    2) "alice" |    3) (integer) 2000 |    4) (integer) 1
			XCLAIM s g carol 1999 1-0 2-0 JUSTID => 1) "1-0"
			XPENDING s g - + 10 carol => 1) 1) "1-0" |    2) "carol" |    3) (integer) 0 |    4) (integer) 1
			XAUTOCLAIM s g dave 400 0 JUSTID => 1) "0-0" | 2) 1) "2-0" | 3) (empty array)
			XCLAIM s g erin 0 1-0 IDLE 700 RETRYCOUNT 9 JUSTID => 1) "1-0"
			XPENDING s g - + 10 => 1) 1) "1-0" |    2) "erin" |    3) (integer) 700 |    4) (integer) 9 | 2) 1) "2-0" |    2) "dave" |    3) (integer) 0 |    4) (integer) 1
			XCLAIM s g erin 0 1-0 TIME 1767225600001 JUSTID => 1) "1-0"
		`)
		info := e.Do("XINFO", "CONSUMERS", "s", "g").FormatCLI()
		// idler was created 2000 ms ago and never read: 7.0 shows idle 2000; 7.2 adds
		// "inactive" -1 for a consumer that never read or claimed.
		wantIdler := "name\"\n   2) \"idler\"\n   3) \"pending\"\n   4) (integer) 0\n   5) \"idle\"\n   6) (integer) 2000\n"
		if v.Has(V72) {
			wantIdler += "   7) \"inactive\"\n   8) (integer) -1\n"
		}
		if !bytes.Contains([]byte(info), []byte(wantIdler)) {
			t.Errorf("%s: XINFO CONSUMERS:\n%s\nwant a consumer\n%s", v, info, wantIdler)
		}
		full := e.Do("XINFO", "STREAM", "s", "FULL").FormatCLI()
		if !bytes.Contains([]byte(full), []byte("(integer) 1767225600001")) {
			t.Errorf("%s: XINFO STREAM FULL lacks the TIME-set delivery time:\n%s", v, full)
		}
		if got := bytes.Contains([]byte(full), []byte(`"active-time"`)); got != v.Has(V72) {
			t.Errorf("%s: active-time shown = %v", v, got)
		}
	}
}

// 7.2 changes: XCLAIM / XAUTOCLAIM create the consumer even when nothing is claimed; the
// unbalanced XREADGROUP text names the command and '>'; XSETID refuses an ID below the
// max-deleted ID.
func TestStreamVersionDifferences(t *testing.T) {
	script := `
		XADD s 1-0 a 1 => "1-0"
		XADD s 2-0 a 1 => "2-0"
		XGROUP CREATE s g 0 => OK
		XCLAIM s g ghost 0 9-0 => (empty array)
		XAUTOCLAIM s g ghost2 0 0 => 1) "0-0" | 2) (empty array) | 3) (empty array)
		XDEL s 2-0 => (integer) 1
	`
	e70 := New(Options{Version: V70})
	doLines(t, e70, script)
	doLines(t, e70, `
		XINFO GROUPS s => 1)  1) "name" |     2) "g" |     3) "consumers" |     4) (integer) 0 |     5) "pending" |     6) (integer) 0 |     7) "last-delivered-id" |     8) "0-0" |     9) "entries-read" |    10) (nil) |    11) "lag" |    12) (nil)
		XREADGROUP GROUP g c STREAMS s t > => (error) ERR Unbalanced XREAD list of streams: for each stream key an ID or '$' must be specified.
		XSETID s 1-0 => OK
	`)
	e72 := New(Options{Version: V72})
	doLines(t, e72, script)
	doLines(t, e72, `
		XINFO GROUPS s => 1)  1) "name" |     2) "g" |     3) "consumers" |     4) (integer) 2 |     5) "pending" |     6) (integer) 0 |     7) "last-delivered-id" |     8) "0-0" |     9) "entries-read" |    10) (nil) |    11) "lag" |    12) (nil)
		XREADGROUP GROUP g c STREAMS s t > => (error) ERR Unbalanced 'xreadgroup' list of streams: for each stream key an ID or '>' must be specified.
		XREAD STREAMS s t > => (error) ERR Unbalanced 'xread' list of streams: for each stream key an ID or '$' must be specified.
		XSETID s 1-0 => (error) ERR The ID specified in XSETID is smaller than current max_deleted_entry_id
	`)
	// XREAD's text names '+' from 8.0 (xreadCommand, tag 8.0-m01); 7.4.1 reads "+" but still
	// says "an ID or '$'" (testdata/transcripts/profile/stream-74.txt, checked on 7.4.1).
	for v, want := range map[Version]string{
		V74: "(error) ERR Unbalanced 'xread' list of streams: for each stream key an ID or '$' must be specified.",
		V80: "(error) ERR Unbalanced 'xread' list of streams: for each stream key an ID, '+', or '$' must be specified.",
	} {
		doLines(t, New(Options{Version: v}), "XREAD STREAMS s t + => "+want)
	}
}

// The trace events say which node an entry went to, when a node was opened and why, and what
// happened to pending entries.
func TestStreamTraceEvents(t *testing.T) {
	e := New(Options{Version: V70, Trace: true})
	e.Do("CONFIG", "SET", "stream-node-max-entries", "3")
	var evs []StreamEvent
	run := func(args ...string) {
		b := make([][]byte, len(args))
		for i, a := range args {
			b[i] = []byte(a)
		}
		evs = evs[:0]
		for _, ev := range e.Exec(b).Events {
			if se, ok := ev.(StreamEvent); ok {
				evs = append(evs, se)
			}
		}
	}
	for i := 1; i <= 3; i++ {
		run("XADD", "s", strconv.Itoa(i)+"-0", "f", "v")
	}
	if len(evs) != 1 || evs[0].Action != "entry-added" || evs[0].Node != 0 || !evs[0].SameFields || evs[0].Master != "1-0" {
		t.Fatalf("third XADD: %+v", evs)
	}
	run("XADD", "s", "4-0", "g", "v")
	if len(evs) != 2 || evs[0].Action != "node-created" || evs[0].Node != 1 || evs[0].Reason != "stream-node-max-entries 3 reached" ||
		evs[1].Action != "entry-added" || evs[1].Node != 1 || evs[1].ID != "4-0" {
		t.Fatalf("fourth XADD: %+v", evs)
	}
	run("XADD", "s", "5-0", "h", "v")
	if len(evs) != 1 || evs[0].SameFields {
		t.Fatalf("XADD with other fields: %+v", evs)
	}
	run("XGROUP", "CREATE", "s", "g", "0")
	run("XREADGROUP", "GROUP", "g", "c", "COUNT", "2", "STREAMS", "s", ">")
	if len(evs) != 3 || evs[0].Action != "consumer-created" || evs[1].Action != "delivered" || evs[1].ID != "1-0" || evs[2].Consumer != "c" {
		t.Fatalf("XREADGROUP: %+v", evs)
	}
	run("XACK", "s", "g", "1-0", "9-0")
	if len(evs) != 1 || evs[0].Action != "acked" || evs[0].ID != "1-0" {
		t.Fatalf("XACK: %+v", evs)
	}
	run("XDEL", "s", "2-0")
	if len(evs) != 1 || evs[0].Action != "entry-deleted" || evs[0].Node != 0 {
		t.Fatalf("XDEL: %+v", evs)
	}
	run("XTRIM", "s", "MAXLEN", "2") // the first node (1-0, 3-0 live; 2-0 deleted) goes whole
	if len(evs) != 1 || evs[0].Action != "node-deleted" || evs[0].Count != 2 || evs[0].Master != "1-0" {
		t.Fatalf("XTRIM MAXLEN 2: %+v", evs)
	}
	run("XTRIM", "s", "MAXLEN", "1") // exact trimming flags 4-0 inside the last node
	if len(evs) != 1 || evs[0].Action != "entry-deleted" || evs[0].ID != "4-0" || evs[0].Master != "4-0" {
		t.Fatalf("XTRIM MAXLEN 1: %+v", evs)
	}
}

// naiveRaxNodes counts rax nodes from a characterisation independent of raxSub's recursion: a
// prefix of some key is a node exactly when it is the root, a whole key, a branching point (two
// or more next bytes), or a child of a branching point (where a compressed node or a leaf
// starts).
func naiveRaxNodes(keys [][16]byte) int {
	if len(keys) == 0 {
		return 1
	}
	children := map[string]map[byte]bool{}
	for _, k := range keys {
		for d := 0; d < 16; d++ {
			p := string(k[:d])
			if children[p] == nil {
				children[p] = map[byte]bool{}
			}
			children[p][k[d]] = true
		}
	}
	isNode := func(p string) bool {
		if p == "" || len(p) == 16 || len(children[p]) >= 2 {
			return true
		}
		return len(children[p[:len(p)-1]]) >= 2
	}
	nodes := 0
	seen := map[string]bool{}
	for _, k := range keys {
		for d := 0; d <= 16; d++ {
			p := string(k[:d])
			if !seen[p] && isNode(p) {
				seen[p] = true
				nodes++
			}
		}
	}
	return nodes
}

func TestRaxNodeCount(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 300; trial++ {
		n := r.IntN(40)
		set := map[StreamID]bool{}
		for len(set) < n {
			id := StreamID{Ms: uint64(r.IntN(1 << uint(r.IntN(40)+1))), Seq: uint64(r.IntN(4))}
			set[id] = true
		}
		var ids []StreamID
		for id := range set {
			ids = append(ids, id)
		}
		slices.SortFunc(ids, func(a, b StreamID) int { return a.cmp(b) })
		keys := idKeys(ids)
		if got, want := raxNodeCount(keys), naiveRaxNodes(keys); got != want {
			t.Fatalf("keys %v: raxNodeCount %d, naive %d", ids, got, want)
		}
	}
	// One key: a compressed root and the leaf; two keys differing in the last byte: root
	// compressed up to byte 15, the branching node, two leaves.
	if got := raxNodeCount(idKeys([]StreamID{{1, 1}})); got != 2 {
		t.Errorf("one key: %d", got)
	}
	if got := raxNodeCount(idKeys([]StreamID{{1, 1}, {1, 2}})); got != 4 {
		t.Errorf("two keys: %d", got)
	}
}

// MEMORY USAGE arithmetic for one small stream, from objectComputeSize's terms.
func TestStreamMemoryFormula(t *testing.T) {
	e := New(Options{Version: V70, Allocator: alloc.Jemalloc16})
	e.Do("XADD", "s", "1-1", "a", "1")
	// robj 16 + stream 80 + rax (1 key · 16 + 2 nodes · 244) + listpack allocation 4096, key
	// sds "s" (sds5, 3 bytes: the 8-byte class) + dictEntry 24 = 4728, as redis-server says.
	want := int64(16 + 80 + 16 + 2*244 + 4096 + 8 + 24)
	if got := e.Do("MEMORY", "USAGE", "s").Int; got != want {
		t.Errorf("MEMORY USAGE = %d, want %d", got, want)
	}
	e.Do("XGROUP", "CREATE", "s", "g", "0")
	e.Do("XREADGROUP", "GROUP", "g", "bob", "STREAMS", "s", ">")
	// + group 40 + PEL rax (16 + 2·244) + NACK 24 + consumer 24 + "bob" 3 + its PEL (16 + 2·244)
	want += 40 + 16 + 2*244 + 24 + 24 + 3 + 16 + 2*244
	if got := e.Do("MEMORY", "USAGE", "s").Int; got != want {
		t.Errorf("MEMORY USAGE with a group = %d, want %d", got, want)
	}
}

// Huge COUNTs are limits, not allocation sizes.
func TestStreamHugeCounts(t *testing.T) {
	e := New(Options{Version: V70})
	doLines(t, e, `
		XADD s 1-0 a 1 => "1-0"
		XGROUP CREATE s g 0 => OK
		XRANGE s - + COUNT 9223372036854775807 => 1) 1) "1-0" |    2) 1) "a" |       2) "1"
		XREAD COUNT 9223372036854775807 STREAMS s 0 => 1) 1) "s" |    2) 1) 1) "1-0" |          2) 1) "a" |             2) "1"
		XREADGROUP GROUP g c COUNT 9223372036854775807 STREAMS s > => 1) 1) "s" |    2) 1) 1) "1-0" |          2) 1) "a" |             2) "1"
		XAUTOCLAIM s g c 0 0 COUNT 2748779069440 JUSTID => 1) "0-0" | 2) 1) "1-0" | 3) (empty array)
		XAUTOCLAIM s g c 0 0 COUNT 2748779069441 JUSTID => (error) ERR Insufficient memory, failed allocating transient memory, COUNT too high.
		XAUTOCLAIM s g c 0 0 COUNT 576460752303423487 JUSTID => (error) ERR Insufficient memory, failed allocating transient memory, COUNT too high.
		XAUTOCLAIM s g c 0 0 COUNT 576460752303423488 JUSTID => (error) ERR COUNT must be > 0
		XPENDING s g - + 9223372036854775807 => 1) 1) "1-0" |    2) "c" |    3) (integer) 0 |    4) (integer) 1
	`)
}

func TestStreamHugeFullCount(t *testing.T) {
	e := New(Options{Version: V70})
	for i := 1; i <= 15; i++ {
		e.Do("XADD", "s", strconv.Itoa(i)+"-0", "a", "1")
	}
	// COUNT 0 and a huge COUNT list every entry; the default is 10.
	for _, c := range []string{"0", "9223372036854775807"} {
		r := e.Do("XINFO", "STREAM", "s", "FULL", "COUNT", c)
		if r.IsError() || len(r.Array) != 18 || len(r.Array[15].Array) != 15 {
			t.Fatalf("COUNT %s: %s", c, r.FormatCLI())
		}
	}
	if r := e.Do("XINFO", "STREAM", "s", "FULL"); len(r.Array[15].Array) != 10 {
		t.Fatalf("default COUNT: %d entries", len(r.Array[15].Array))
	}
}

// XREAD / XREADGROUP BLOCK with nothing to serve answer as a timeout (xreadBlock).
func TestStreamBlockWithoutData(t *testing.T) {
	e := New(Options{Version: V70})
	doLines(t, e, `
		XREAD BLOCK 0 STREAMS s $ => (nil)
		XGROUP CREATE s g $ MKSTREAM => OK
		XREADGROUP GROUP g c BLOCK 100 STREAMS s > => (nil)
		XADD s 1-0 a 1 => "1-0"
		XREAD BLOCK 100 STREAMS s 0 => 1) 1) "s" |    2) 1) 1) "1-0" |          2) 1) "a" |             2) "1"
		XREAD BLOCK -1 STREAMS s 0 => (error) ERR timeout is negative
		XREAD BLOCK 1.5 STREAMS s 0 => (error) ERR timeout is not an integer or out of range
		MULTI => OK
		XREAD BLOCK 0 STREAMS s $ => QUEUED
		EXEC => 1) (nil)
	`)
}

// FuzzStream runs stream commands with fuzzed IDs and arguments: no panic, and the stream stays
// consistent (XLEN = the entries XRANGE lists; every pending entry has its consumer).
func FuzzStream(f *testing.F) {
	f.Add("1-1", "5", "0", "a")
	f.Add("18446744073709551615-18446744073709551615", "(0-0", "+", "~")
	f.Add("0-*", "-", "(18446744073709551615", "=")
	f.Add(" 1", "00001-1", "1--01", "")
	f.Fuzz(func(t *testing.T, id, a, b, c string) {
		e := New(Options{Version: V72})
		e.Do("CONFIG", "SET", "stream-node-max-entries", "2")
		for i, x := range []string{"1-1", id, "2-*", a, "*"} {
			e.Do("XADD", "s", x, "f", strconv.Itoa(i))
		}
		e.Do("XGROUP", "CREATE", "s", "g", a)
		e.Do("XREADGROUP", "GROUP", "g", "c", "COUNT", b, "STREAMS", "s", ">")
		e.Do("XDEL", "s", id, a)
		e.Do("XTRIM", "s", "MINID", c, b)
		e.Do("XTRIM", "s", "MAXLEN", c, a)
		e.Do("XCLAIM", "s", "g", "d", "0", id, a, "FORCE", c)
		e.Do("XAUTOCLAIM", "s", "g", "d", "0", b, "COUNT", c)
		e.Do("XRANGE", "s", a, b, "COUNT", c)
		e.Do("XREVRANGE", "s", b, a)
		e.Do("XSETID", "s", id, "ENTRIESADDED", c)
		e.Do("XINFO", "STREAM", "s", "FULL")
		e.Do("MEMORY", "USAGE", "s")
		o := e.Peek([]byte("s"))
		if o == nil {
			return
		}
		s := stv(o)
		n := 0
		s.rangeEach(StreamID{}, maxStreamID, false, func(*nodeEntry) bool { n++; return true })
		if uint64(n) != s.length {
			t.Fatalf("length %d, entries %d", s.length, n)
		}
		for _, g := range s.groups {
			for _, id := range g.pel {
				if nk := g.nacks[id]; nk == nil || nk.consumer == nil || !slices.Contains(nk.consumer.pel, id) {
					t.Fatalf("pending %v has no consumer", id)
				}
			}
		}
	})
}

// StreamView shows the nodes, the master entry and the PELs as the commands left them.
func TestStreamView(t *testing.T) {
	e := New(Options{Version: V70, Allocator: alloc.Jemalloc16})
	e.Do("CONFIG", "SET", "stream-node-max-entries", "2")
	e.Do("XADD", "s", "1-0", "a", "1")
	e.Do("XADD", "s", "2-0", "b", "2")
	e.Do("XADD", "s", "3-0", "a", "3")
	e.Do("XDEL", "s", "2-0")
	e.Do("XGROUP", "CREATE", "s", "g", "0")
	e.Do("XREADGROUP", "GROUP", "g", "bob", "COUNT", "1", "STREAMS", "s", ">")
	v, ok := e.StreamView(e.Peek([]byte("s")))
	// Keys 1-0 and 3-0 part at byte 7: a compressed root, the branching node, and for each key a
	// compressed node of the other 8 bytes and its leaf.
	if !ok || len(v.Nodes) != 2 || v.RaxNodes != 6 || v.Length != 2 {
		t.Fatalf("view: %+v", v)
	}
	n0 := v.Nodes[0]
	// The first node was closed at 2 entries and shrunk to fit: 7 + master (1,1,1,"a",0) +
	// entry 1-0 (2,0,0,"1",4: 10 bytes) + entry 2-0 (0,1,0,1,"b","2",6: 15 bytes), with count 1 /
	// deleted 1 after XDEL.
	if n0.Master != "1-0" || n0.Count != 1 || n0.Deleted != 1 || !slices.Equal(n0.Fields, []string{"a"}) ||
		len(n0.Entries) != 2 || !n0.Entries[0].SameFields || n0.Entries[1].SameFields || !n0.Entries[1].Deleted ||
		n0.Bytes != 7+11+10+15 || n0.Alloc != 48 {
		t.Fatalf("node 0: %+v", n0)
	}
	if v.Nodes[1].Alloc != 4096 || v.Nodes[1].Entries[0].ID != "3-0" {
		t.Fatalf("node 1: %+v", v.Nodes[1])
	}
	g := v.Groups[0]
	if g.LastID != "1-0" || len(g.Pending) != 1 || g.Pending[0].Consumer != "bob" || g.Pending[0].DeliveryCount != 1 ||
		len(g.Consumers) != 1 || !slices.Equal(g.Consumers[0].Pending, []string{"1-0"}) {
		t.Fatalf("group: %+v", g)
	}
	if _, ok := e.StreamView(nil); ok {
		t.Fatal("StreamView(nil) ok")
	}
}

// INFO's rdb_changes_since_last_save after each stream command, as redis-server 7.0.15 and 7.4.1
// count it (t_stream.c's server.dirty: cmd_stream.go streamDirty); the figures were read from
// both servers for this sequence.
func TestStreamDirtyCounts(t *testing.T) {
	steps := []struct {
		d70, d74 int64
		cmd      string
	}{
		{1, 1, `XADD x 1-0 data a`},
		{1, 1, `XADD x 2-0 data b`},
		{1, 1, `XADD x 3-0 data c`},
		{1, 1, `XADD x 4-0 data d`},
		{1, 1, `XADD x 5-0 data d`},
		{1, 1, `XGROUP CREATE x g1 0`},
		{0, 0, `XGROUP CREATE x g1 0`},
		{1, 1, `XGROUP CREATE y g1 0 MKSTREAM`},
		{1, 1, `XGROUP CREATECONSUMER x g1 Alice`},
		{0, 0, `XGROUP CREATECONSUMER x g1 Alice`},
		{1, 1, `XREADGROUP GROUP g1 Alice COUNT 2 STREAMS x >`},
		{1, 1, `XREADGROUP GROUP g1 Alice NOACK COUNT 1 STREAMS x >`},
		{1, 0, `XREADGROUP GROUP g1 Alice COUNT 2 STREAMS x 0`},
		{1, 0, `XREADGROUP GROUP g1 Alice COUNT 2 STREAMS x 9000`},
		{2, 1, `XREADGROUP GROUP g1 noconsumer COUNT 2 STREAMS x 0`},
		{2, 2, `XREADGROUP GROUP g1 Bob COUNT 2 STREAMS x >`},
		{0, 0, `XREADGROUP GROUP g1 Bob COUNT 2 STREAMS x >`},
		{0, 1, `XREADGROUP GROUP g1 Bob COUNT 2 STREAMS x y > >`},
		{2, 2, `XACK x g1 1-0 2-0 9-0`},
		{0, 0, `XACK x g1 1-0`},
		{3, 3, `XCLAIM x g1 Carol 0 4-0 5-0`},
		{1, 1, `XCLAIM x g1 Carol 0 4-0 JUSTID`},
		{0, 0, `XCLAIM x g1 Carol 0 9-0`},
		{1, 1, `XCLAIM x g1 Carol 0 4-0 LASTID 8-0`},
		{3, 3, `XAUTOCLAIM x g1 Dave 0 0`},
		{2, 2, `XAUTOCLAIM x g1 Dave 0 0 JUSTID`},
		{1, 1, `XDEL x 4-0`},
		{3, 3, `XAUTOCLAIM x g1 Eve 0 0`},
		{3, 3, `XDEL x 1-0 2-0 3-0`},
		{0, 0, `XDEL x 1-0`},
		{1, 1, `XTRIM x MAXLEN 0`},
		{0, 0, `XTRIM x MAXLEN 0`},
		{1, 1, `XSETID x 10-0`},
		{1, 1, `XGROUP SETID x g1 0`},
		{1, 1, `XGROUP DELCONSUMER x g1 Alice`},
		{0, 0, `XGROUP DELCONSUMER x g1 nobody`},
		{1, 1, `XGROUP DESTROY x g1`},
		{0, 0, `XGROUP DESTROY x g1`},
		{0, 0, `XADD z NOMKSTREAM 1-0 a b`},
		{1, 1, `XADD z MAXLEN 0 1-0 a b`},
	}
	for _, v := range []Version{V70, V74} {
		e := New(Options{Version: v})
		dirty := func() int64 {
			r := e.Do("INFO", "persistence")
			_, after, _ := strings.Cut(r.Str, "rdb_changes_since_last_save:")
			n, _ := strconv.ParseInt(strings.TrimSpace(strings.SplitN(after, "\r\n", 2)[0]), 10, 64)
			return n
		}
		prev := dirty()
		for _, st := range steps {
			args := strings.Fields(st.cmd)
			e.Do(args...)
			want := st.d74
			if v == V70 {
				want = st.d70
			}
			if now := dirty(); now-prev != want {
				t.Errorf("%s: %s: dirty +%d, redis-server +%d", v, st.cmd, now-prev, want)
			}
			prev = dirty()
		}
	}
}

// RESTORE of a stream in the RDB type of Redis <= 6.2 (RDB_TYPE_STREAM_LISTPACKS, 15): it has no
// first ID, max-deleted ID, entries-added nor group entries-read, so rdb.c's loader takes
// entries-added as the length, the first ID from the entries, and each group's entries-read
// from streamEstimateDistanceFromFirstEverEntry (-1, shown as nil, when that cannot be known).
// redis-server 7.4.1 restores such a payload with the same XINFO STREAM FULL figures.
func TestRestoreStreamV1Payload(t *testing.T) {
	src := New(Options{Version: V74})
	for _, c := range [][]string{{"XADD", "x", "1-0", "data", "a"}, {"XADD", "x", "2-0", "data", "b"}, {"XADD", "x", "3-0", "data", "c"}, {"XDEL", "x", "1-0"}} {
		src.Do(c...)
	}
	s := stv(src.db.keys["x"])
	var w rdb.Writer
	w.Type(rdb.TypeStreamListpacks)
	rdbSaveStreamHead(&w, s)
	w.Len(2) // groups: g1 delivered up to 2-0, g2 up to 3-0
	for _, g := range []struct {
		name string
		last StreamID
	}{{"g1", StreamID{2, 0}}, {"g2", StreamID{3, 0}}} {
		w.String([]byte(g.name))
		w.Len(g.last.Ms)
		w.Len(g.last.Seq)
		w.Len(0) // PEL
		w.Len(0) // consumers
	}
	payload := string(rdb.Wrap(w.B, 9))
	e := New(Options{Version: V74})
	if r := e.Do("RESTORE", "y", "0", payload); r.Str != "OK" {
		t.Fatalf("RESTORE: %s", r.FormatCLI())
	}
	got := oneLine(e.Do("XINFO", "STREAM", "y", "FULL"))
	for _, want := range []string{
		`"max-deleted-entry-id" | 10) "0-0" | 11) "entries-added" | 12) (integer) 2 | 13) "recorded-first-entry-id" | 14) "2-0"`,
		`"g1" |         3) "last-delivered-id" |         4) "2-0" |         5) "entries-read" |         6) (integer) 1 |         7) "lag" |         8) (integer) 1 |`,
		`"g2" |         3) "last-delivered-id" |         4) "3-0" |         5) "entries-read" |         6) (integer) 2 |         7) "lag" |         8) (integer) 0 |`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("XINFO STREAM FULL lacks %s\n%s", want, got)
		}
	}
}
