package difftest

import (
	"strconv"
	"strings"
	"testing"

	"redscope/internal/transcript"
)

// dirtyCases: commands whose count of changes (INFO persistence rdb_changes_since_last_save,
// server.dirty) is compared step by step. SETBIT and BITFIELD count a new key once
// (lookupStringForBitCommand's dbAdd is no change of its own), BITFIELD one change per op that
// writes (bitfieldGeneric's changes++: created, grown or a different value). LPUSH and RPUSH
// count each element pushed (pushGenericCommand), LMOVE one change even when it creates the
// destination and deletes the source (lmoveGenericCommand), pops and LTRIM the elements removed
// (listElementsRemoved's server.dirty += count; deleting the emptied key is no change of its own).
var dirtyCases = []string{
	"SETBIT foo 0 0", "BITFIELD foo2 SET i5 0 0", "SETBIT foo 0 0", "BITFIELD foo2 SET i5 0 0",
	"SETBIT foo 0 1", "SETBIT foo 0 1", "SETBIT foo 0 0",
	"BITFIELD foo2 SET i5 0 1", "BITFIELD foo2 SET i5 0 1", "BITFIELD foo2 SET i5 0 0",
	"BITFIELD foo3 INCRBY i5 0 1", "BITFIELD foo3 INCRBY i5 0 1", "BITFIELD foo3 INCRBY i5 0 0",
	"SETBIT foo 100 0", "BITFIELD foo2 SET i5 100 0",
	"BITFIELD foo2 SET i5 0 1 SET i5 8 1 GET i5 0", "BITFIELD foo2 SET i5 0 1 SET i5 8 1 GET i5 0",
	"BITFIELD foo4 GET i5 0", "BITFIELD foo5 SET i5 0 0 SET i5 8 0", "BITFIELD foo6 INCRBY u4 0 20 INCRBY u4 0 1",
	"BITFIELD foo7 OVERFLOW FAIL INCRBY u4 0 20", "SETBIT foo8 1000 0",
	"LPUSH lst a", "LPUSH lst b c", "LPUSHX nope a", "RPUSH lst d e f", "RPUSHX lst g", "LPOP lst",
	"LMOVE lst lst1 LEFT LEFT", "LMOVE lst lst1 RIGHT LEFT", "RPOPLPUSH lst lst2", "LMOVE nope lst1 LEFT LEFT",
	"LPUSH one x", "LMOVE one one2 LEFT RIGHT", "DEL lst lst1 lst2 one2",
	"RPUSH p a b c d e f g h", "LPOP p 2", "RPOP p", "LTRIM p 1 -2", "LTRIM p 0 -1", "LMPOP 1 p LEFT COUNT 2",
	"BLPOP p 0", "RPUSH p x y x z x", "LREM p 2 x", "LREM p 0 nope", "LSET p 0 q", "LINSERT p BEFORE q r",
	"LPOP p 10", "RPUSH p a", "RPOP p 3", "RPUSH p a", "LTRIM p 5 10", "RPUSH p a", "BRPOP p 0",
}

// TestDirtyCounts runs dirtyCases on redis-server 7.0.15 and on redscope and compares how much
// each one adds to rdb_changes_since_last_save.
func TestDirtyCounts(t *testing.T) {
	sv := startServers(t)
	sv.fresh(t)
	ref, got := dialPair(t, sv.ref, sv.scope)
	dirty := func(c *transcript.Conn) int {
		_, r, err := c.DoStrings("INFO", "persistence")
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(r.Str, "\r\n") {
			if v, ok := strings.CutPrefix(l, "rdb_changes_since_last_save:"); ok {
				n, _ := strconv.Atoi(v)
				return n
			}
		}
		t.Fatal("no rdb_changes_since_last_save")
		return 0
	}
	changed := 0
	for _, cmd := range dirtyCases {
		var deltas [2]int
		for i, c := range []*transcript.Conn{ref, got} {
			before := dirty(c)
			if _, _, err := c.DoStrings(strings.Fields(cmd)...); err != nil {
				t.Fatal(err)
			}
			deltas[i] = dirty(c) - before
		}
		if deltas[0] != deltas[1] {
			t.Errorf("%s: redis-server +%d, redscope +%d", cmd, deltas[0], deltas[1])
		}
		changed += deltas[0]
	}
	if changed == 0 {
		t.Fatal("no command changed anything: the comparison is empty")
	}
	t.Logf("%d commands, %d changes on redis-server", len(dirtyCases), changed)
}
