package engine

import (
	"strings"
	"testing"
	"time"

	"redscope/engine/alloc"
)

// [7.0.15]: read from Debian's redis-server 7.0.15 (16-byte quantum), also lines of
// testdata/transcripts/diff/hash.txt. [facts]: docs/internals.md rules (8-byte quantum, 7.4 source).

func TestHashListpackThresholds70(t *testing.T) {
	e := newSetEngine(V70, alloc.Jemalloc16)
	doInt(t, e, "HSET", "h", "f", "v")
	wantEnc(t, e, "h", "listpack")
	wantMem(t, e, 64, "h") // [7.0.15] listpack 13 B → 16
	doInt(t, e, "HSET", "h2", "field1", "100", "field2", "-5000", "field3", "hello")
	wantMem(t, e, 96, "h2") // [7.0.15] 44 B → 48
	// value length: 64 stays, 65 converts
	x64, x65 := strings.Repeat("x", 64), strings.Repeat("x", 65)
	doInt(t, e, "HSET", "h3", "f1", x64)
	wantEnc(t, e, "h3", "listpack")
	wantMem(t, e, 128, "h3") // [7.0.15]
	doInt(t, e, "HSET", "h3", "f2", x65)
	wantEnc(t, e, "h3", "hashtable")
	wantMem(t, e, 360, "h3") // [7.0.15]
	doInt(t, e, "HSET", "h4", "f1", x65)
	wantMem(t, e, 248, "h4") // [7.0.15]
	// entries threshold through CONFIG SET
	doStr(t, e, "CONFIG", "SET", "hash-max-listpack-entries", "4")
	doInt(t, e, "HSET", "h7", "a", "1", "b", "2", "c", "3", "d", "4")
	wantEnc(t, e, "h7", "listpack")
	wantMem(t, e, 80, "h7") // [7.0.15]
	doInt(t, e, "HSET", "h7", "e", "5")
	wantEnc(t, e, "h7", "hashtable")
	wantMem(t, e, 368, "h7") // [7.0.15]
	doInt(t, e, "HDEL", "h7", "a", "b", "c", "d")
	wantEnc(t, e, "h7", "hashtable") // never back
	wantMem(t, e, 208, "h7")         // [7.0.15] htNeedsResize shrank it to 4 buckets
	doStr(t, e, "CONFIG", "SET", "hash-max-listpack-entries", "512")
	// 512 fields stay a listpack, the 513th converts (7.0 has no size-hint conversion)
	args := []string{"HSET", "big"}
	for i := 1; i <= 1024; i++ {
		args = append(args, "g"+itoa(int64(i)))
	}
	doInt(t, e, args...)
	wantEnc(t, e, "big", "listpack")
	wantMem(t, e, 6192, "big") // [7.0.15]
	doInt(t, e, "HSET", "big", "x", "y")
	wantEnc(t, e, "big", "hashtable")
	wantMem(t, e, 28816, "big", "SAMPLES", "0") // [7.0.15] 512 + 1024 buckets mid-rehash
}

func TestHashHFEListpackEx74(t *testing.T) {
	e := newSetEngine(V74, alloc.Jemalloc)
	doInt(t, e, "HSET", "h2", "field1", "100", "field2", "-5000", "field3", "hello")
	wantMem(t, e, 96, "h2") // [facts]
	e.Do("HEXPIRE", "h2", "100", "FIELDS", "1", "field1")
	wantEnc(t, e, "h2", "listpackex")
	wantMem(t, e, 144, "h2") // [facts]
	// TTL order: by TTL, no-TTL fields last (docs/internals.md §Hash field expiry)
	doInt(t, e, "HSET", "h", "a", "1", "b", "2", "c", "3", "d", "4")
	keys := func() string { return strings.Join(replyStrings(e.Do("HKEYS", "h")), " ") }
	steps := []struct {
		cmd  []string
		want string
	}{
		{[]string{"HEXPIRE", "h", "100", "FIELDS", "1", "c"}, "c a b d"},
		{[]string{"HEXPIRE", "h", "50", "FIELDS", "1", "d"}, "d c a b"},
		{[]string{"HPERSIST", "h", "FIELDS", "1", "d"}, "c a b d"},
		{[]string{"HSET", "h", "c", "9"}, "a b d c"},
	}
	for _, s := range steps {
		e.Do(s.cmd...)
		if got := keys(); got != s.want {
			t.Fatalf("after %v: HKEYS %q, want %q", s.cmd, got, s.want)
		}
	}
	// never back to listpack
	e.Do("HPERSIST", "h", "FIELDS", "1", "c")
	wantEnc(t, e, "h", "listpackex")
}

func TestHashHFEHashtableMemory74(t *testing.T) {
	e := newSetEngine(V74, alloc.Jemalloc)
	doInt(t, e, "HSET", "ht", "f1", strings.Repeat("x", 65))
	wantMem(t, e, 248, "ht") // [facts]
	e.Do("HEXPIRE", "ht", "100", "FIELDS", "1", "f1")
	wantMem(t, e, 264, "ht") // [facts] +18 bytes of field metadata
	doInt(t, e, "HSET", "ht", "f1", "v")
	wantMem(t, e, 176, "ht") // a new field without metadata, 1-byte value
}

func TestHashLazyFieldExpiry74(t *testing.T) {
	clk := &ManualClock{Ms: StartMs}
	e := New(Options{Version: V74, Clock: clk})
	doInt(t, e, "HSET", "h", "a", "1", "b", "2")
	e.Do("HPEXPIRE", "h", "100", "FIELDS", "1", "a")
	clk.Advance(100 * time.Millisecond)
	// expire == now: not yet expired for reads, but HTTL on a listpackex says -2 (expire ≤ now)
	if r := e.Do("HGET", "h", "a"); r.Str != "1" {
		t.Fatalf("HGET at the expiry ms: %+v", r)
	}
	if r := e.Do("HTTL", "h", "FIELDS", "1", "a"); r.Array[0].Int != -2 {
		t.Fatalf("HTTL at the expiry ms: %+v", r)
	}
	clk.Advance(time.Millisecond)
	if n := doInt(t, e, "HLEN", "h"); n != 2 {
		t.Fatalf("HLEN counts the expired field until it is reclaimed: %d", n)
	}
	if got := replyStrings(e.Do("HKEYS", "h")); len(got) != 1 || got[0] != "b" {
		t.Fatalf("HKEYS skips expired fields: %v", got)
	}
	if r := e.Do("HGET", "h", "a"); r.Kind != KindNil {
		t.Fatalf("HGET of an expired field: %+v", r)
	}
	if n := doInt(t, e, "HLEN", "h"); n != 1 {
		t.Fatalf("HGET reclaims the field: HLEN %d", n)
	}
	// the last field expiring deletes the key
	e.Do("HPEXPIRE", "h", "10", "FIELDS", "1", "b")
	clk.Advance(11 * time.Millisecond)
	if n := doInt(t, e, "EXISTS", "h"); n != 1 {
		t.Fatal("lazy expiry only: the key is still there before an access")
	}
	if n := doInt(t, e, "HEXISTS", "h", "b"); n != 0 {
		t.Fatal("expired field exists")
	}
	if n := doInt(t, e, "EXISTS", "h"); n != 0 {
		t.Fatal("reading the last expired field must delete the key")
	}
	// hashtable encoding too; HINCRBY keeps the TTL, HSET clears it
	doInt(t, e, "HSET", "t", "n", "5", "big", strings.Repeat("y", 70))
	wantEnc(t, e, "t", "hashtable")
	e.Do("HEXPIRE", "t", "10", "FIELDS", "1", "n")
	doInt(t, e, "HINCRBY", "t", "n", "1")
	if r := e.Do("HTTL", "t", "FIELDS", "1", "n"); r.Array[0].Int != 10 {
		t.Fatalf("HINCRBY lost the TTL: %+v", r)
	}
	doInt(t, e, "HSET", "t", "n", "1")
	if r := e.Do("HTTL", "t", "FIELDS", "1", "n"); r.Array[0].Int != -1 {
		t.Fatalf("HSET kept the TTL: %+v", r)
	}
	e.Do("HEXPIRE", "t", "1", "FIELDS", "1", "n")
	clk.Advance(1001 * time.Millisecond)
	if r := e.Do("HRANDFIELD", "t", "5"); len(r.Array) != 1 || r.Array[0].Str != "big" {
		t.Fatalf("HRANDFIELD sweeps expired fields first: %+v", r)
	}
}

func TestHashIncrByFloat(t *testing.T) {
	e := newSetEngine(V70, alloc.Jemalloc16)
	cases := []struct{ set, incr, want string }{
		{"10.50", "0.1", "10.6"},
		{"5.0e3", "2.0e2", "5200"},
		{"0.1", "0.2", "0.3"},
		{"1e10", "0.1", "10000000000.09999999962747097"}, // [facts] 80-bit rounding
		{"0", "1e-20", "0"},
		{"3", "0x10", "19"},
	}
	for _, c := range cases {
		e.Do("HSET", "h", "f", c.set)
		if got := doStr(t, e, "HINCRBYFLOAT", "h", "f", c.incr); got != c.want {
			t.Fatalf("%s + %s = %s, want %s", c.set, c.incr, got, c.want)
		}
	}
	if r := e.Do("HINCRBYFLOAT", "h", "f", "inf"); r.Str != "ERR value is NaN or Infinity" {
		t.Fatalf("%+v", r)
	}
	// a long result converts the listpack (the value check is inside hashTypeSet)
	e.Do("HSET", "h2", "f", "1")
	e.Do("HINCRBYFLOAT", "h2", "f", "1e64") // 64 characters: still fits
	wantEnc(t, e, "h2", "listpack")
	e.Do("HINCRBYFLOAT", "h2", "f", "1e65")
	wantEnc(t, e, "h2", "hashtable")
}

func TestHashRandFieldCases(t *testing.T) {
	for _, v := range []Version{V70, V74} {
		e := newSetEngine(v, alloc.Jemalloc)
		args := []string{"HSET", "lp"}
		for _, f := range seq("f", 0, 99) {
			args = append(args, f, "v"+f)
		}
		doInt(t, e, args...)
		args[1] = "ht"
		args = append(args, "long", strings.Repeat("z", 100))
		doInt(t, e, args...)
		for _, key := range []string{"lp", "ht"} {
			for _, count := range []int{5, 40, 90} {
				r := e.Do("HRANDFIELD", key, itoa(int64(count)), "WITHVALUES")
				seen := map[string]bool{}
				for i := 0; i+1 < len(r.Array); i += 2 {
					f, val := r.Array[i].Str, r.Array[i+1].Str
					if seen[f] || (f != "long" && val != "v"+f) {
						t.Fatalf("%v %s %d: bad pair %s=%s", v, key, count, f, val)
					}
					seen[f] = true
				}
				if len(seen) != count {
					t.Fatalf("%v %s %d: %d fields", v, key, count, len(seen))
				}
			}
			if r := e.Do("HRANDFIELD", key, "-2000", "WITHVALUES"); len(r.Array) != 4000 {
				t.Fatalf("negative count: %d", len(r.Array))
			}
		}
	}
}

func TestHashCopyIsDeep(t *testing.T) {
	e := newSetEngine(V74, alloc.Jemalloc)
	doInt(t, e, "HSET", "a", "f", "1")
	e.Do("HEXPIRE", "a", "100", "FIELDS", "1", "f")
	doInt(t, e, "HSET", "b", "f", strings.Repeat("q", 80))
	e.Do("HEXPIRE", "b", "100", "FIELDS", "1", "f")
	for _, k := range []string{"a", "b"} {
		enc := doStr(t, e, "OBJECT", "ENCODING", k)
		doInt(t, e, "COPY", k, k+"2")
		wantEnc(t, e, k+"2", enc)
		if r := e.Do("HTTL", k+"2", "FIELDS", "1", "f"); r.Array[0].Int != 100 {
			t.Fatalf("COPY lost the field TTL: %+v", r)
		}
		e.Do("HSET", k, "f", "changed")
		if got := doStr(t, e, "HGET", k+"2", "f"); got == "changed" {
			t.Fatalf("%s copy shares storage", enc)
		}
		if m1, m2 := doInt(t, e, "MEMORY", "USAGE", k+"2"), doInt(t, e, "MEMORY", "USAGE", k+"2"); m1 != m2 {
			t.Fatal("unstable memory")
		}
	}
}

func TestHashVersionGates(t *testing.T) {
	e := newSetEngine(V72, alloc.Jemalloc)
	if r := e.Do("HEXPIRE", "h", "1", "FIELDS", "1", "a"); !r.IsError() || !strings.HasPrefix(r.Str, "ERR unknown command") {
		t.Fatalf("HEXPIRE on 7.2: %+v", r)
	}
	e = newSetEngine(V74, alloc.Jemalloc)
	if r := e.Do("HGETDEL", "h", "FIELDS", "1", "a"); !strings.HasPrefix(r.Str, "ERR unknown command") {
		t.Fatalf("HGETDEL on 7.4: %+v", r)
	}
	// 7.2 presizes when a command brings more fields than the listpack may hold
	e = newSetEngine(V72, alloc.Jemalloc)
	e.Do("CONFIG", "SET", "hash-max-listpack-entries", "2")
	e.Do("HSET", "h", "a", "1", "a", "2", "a", "3")
	wantEnc(t, e, "h", "hashtable")
	e = newSetEngine(V70, alloc.Jemalloc)
	e.Do("CONFIG", "SET", "hash-max-listpack-entries", "2")
	e.Do("HSET", "h", "a", "1", "a", "2", "a", "3")
	wantEnc(t, e, "h", "listpack")
}

func TestHashCommandsNeverPanic(t *testing.T) {
	for _, v := range []Version{V70, V74, V80} {
		e := newSetEngine(v, alloc.Jemalloc)
		e.SetTracing(true)
		cmds := [][]string{
			{"HSET", "h", "a", "1"}, {"HRANDFIELD", "h", "-9223372036854775807"},
			{"HRANDFIELD", "h", "4611686018427387903", "WITHVALUES"}, {"HSCAN", "h", "0", "COUNT", "9223372036854775807"},
			{"HEXPIRE", "h", "0", "FIELDS", "1", "a"}, {"HGETEX", "h", "PERSIST"}, {"HGETEX", "h", "EX"},
			{"HSETEX", "h", "EX"}, {"HSETEX", "h", "FIELDS"}, {"HSETEX", "h", "FIELDS", "9223372036854775807", "a", "b"},
			{"HINCRBYFLOAT", "h", "f", "1e4932"}, {"HINCRBYFLOAT", "h", "f", "1e4932"}, {"HGETDEL", "h", "FIELDS", "1", "f"},
		}
		for _, c := range cmds {
			if r := e.Do(c...); r.IsError() && strings.Contains(r.Str, "internal error") {
				t.Fatalf("%v %v: %s", v, c, r.Str)
			}
		}
	}
}
