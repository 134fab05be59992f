package engine

import (
	"strconv"
	"testing"

	"redscope/engine/alloc"
)

// Figures marked [7.0.15] were read from Debian's redis-server 7.0.15 (16-byte jemalloc quantum)
// with redis-cli; they are also lines of testdata/transcripts/diff/set.txt. Figures marked
// [facts] follow from the rules in docs/internals.md (Redis's bundled jemalloc, 8-byte quantum).

func TestSetIntsetWidthsAndHashtable70(t *testing.T) {
	e := newSetEngine(V70, alloc.Jemalloc16)
	doInt(t, e, "SADD", "s", "1", "2", "3")
	wantEnc(t, e, "s", "intset")
	wantMem(t, e, 64, "s") // [7.0.15] 8+3×2 = 14 → 16
	doInt(t, e, "SADD", "s", "100000")
	wantMem(t, e, 80, "s") // [7.0.15] int32: 8+4×4 = 24 → 32
	doInt(t, e, "SADD", "s", "5000000000")
	wantMem(t, e, 96, "s") // [7.0.15] int64: 8+5×8 = 48
	doInt(t, e, "SADD", "s", "-70000")
	if got := e.SetMembers([]byte("s")); got[0] != "-70000" || got[5] != "5000000000" {
		t.Fatalf("intset order %v", got)
	}
	// 7.0: a non-integer member converts straight to a hashtable (no listpack).
	doInt(t, e, "SADD", "s", "a")
	wantEnc(t, e, "s", "hashtable")
	wantMem(t, e, 400, "s", "SAMPLES", "0") // [7.0.15] presized 8 buckets, 7 members
	doInt(t, e, "SREM", "s", "a")
	wantEnc(t, e, "s", "hashtable") // never back (docs/internals.md §Encodings)
	// 7.0 ignores the size hint: 600 duplicates stay an intset.
	args := []string{"SADD", "one"}
	for i := 0; i < 600; i++ {
		args = append(args, "7")
	}
	doInt(t, e, args...)
	wantEnc(t, e, "one", "intset")
}

func TestSetIntsetEntriesThreshold70(t *testing.T) {
	e := newSetEngine(V70, alloc.Jemalloc16)
	doStr(t, e, "CONFIG", "SET", "set-max-intset-entries", "4")
	doInt(t, e, "SADD", "t", "1", "2", "3", "4")
	wantEnc(t, e, "t", "intset")
	wantMem(t, e, 64, "t") // [7.0.15]
	doInt(t, e, "SADD", "t", "5")
	wantEnc(t, e, "t", "hashtable")
	wantMem(t, e, 328, "t") // [7.0.15] presized for 5 → 8 buckets
	doInt(t, e, "SADD", "t", "6", "7", "8")
	wantMem(t, e, 424, "t") // [7.0.15] 8 members in the 8 presized buckets
	doInt(t, e, "SREM", "t", "1", "2", "3", "4", "5", "6", "7")
	wantEnc(t, e, "t", "hashtable")
	wantMem(t, e, 200, "t") // [7.0.15] htNeedsResize shrank it back to 4 buckets
	// Store commands create fresh objects: an all-integer intersection is an intset again.
	doInt(t, e, "SADD", "u", "8", "9")
	doInt(t, e, "SINTERSTORE", "d", "t", "u")
	wantEnc(t, e, "d", "intset")
}

func TestSetHashtableMemory70(t *testing.T) {
	e := newSetEngine(V70, alloc.Jemalloc16)
	doInt(t, e, append([]string{"SADD", "big"}, seq("m", 1, 129)...)...)
	wantMem(t, e, 7304, "big", "SAMPLES", "0") // [7.0.15]
	doInt(t, e, "SADD", "e", "")
	wantMem(t, e, 168, "e") // [7.0.15] the empty member is an sds8
	doInt(t, e, "SADD", "l", "0123456789012345678901234567890123456789")
	wantMem(t, e, 208, "l") // [7.0.15] leading zero: not an integer, sds8 of 40
}

func TestSetListpackThresholds72(t *testing.T) {
	e := newSetEngine(V72, alloc.Jemalloc)
	doInt(t, e, "SADD", "s", "1", "2", "3")
	wantMem(t, e, 64, "s") // [facts]
	doInt(t, e, "SADD", "s", "100000")
	wantMem(t, e, 72, "s") // [facts]
	doInt(t, e, "SADD", "s", "a")
	wantEnc(t, e, "s", "listpack")
	wantMem(t, e, 72, "s") // [facts] listpack 21 B → 24
	// 128 members stay a listpack, the 129th converts.
	doInt(t, e, append([]string{"SADD", "p"}, seq("m", 1, 128)...)...)
	wantEnc(t, e, "p", "listpack")
	doInt(t, e, "SADD", "p", "m129")
	wantEnc(t, e, "p", "hashtable")
	// One SADD with 129 members: a presized hashtable at once.
	doInt(t, e, append([]string{"SADD", "big"}, seq("m", 1, 129)...)...)
	wantEnc(t, e, "big", "hashtable")
	wantMem(t, e, 6280, "big", "SAMPLES", "0") // [facts] 256 buckets
	// Value length threshold.
	doInt(t, e, "SADD", "v", string(make([]byte, 64)))
	wantEnc(t, e, "v", "listpack")
	doInt(t, e, "SADD", "v", string(make([]byte, 65)))
	wantEnc(t, e, "v", "hashtable")
	// The size hint converts before adding, even when every argument is a duplicate.
	args := []string{"SADD", "one"}
	for i := 0; i < 600; i++ {
		args = append(args, "7")
	}
	if doInt(t, e, args...) != 1 {
		t.Fatal("600 duplicates add one member")
	}
	wantEnc(t, e, "one", "hashtable") // [facts]
	// intset + a string: listpack only while the intset has fewer than 128 members.
	doInt(t, e, append([]string{"SADD", "i"}, seq("", 1, 127)...)...)
	doInt(t, e, "SADD", "i", "z")
	wantEnc(t, e, "i", "listpack")
	doInt(t, e, append([]string{"SADD", "j"}, seq("", 1, 128)...)...)
	doInt(t, e, "SADD", "j", "z")
	wantEnc(t, e, "j", "hashtable")
	// CONFIG SET takes effect for later additions only.
	doStr(t, e, "CONFIG", "SET", "set-max-listpack-entries", "2")
	wantEnc(t, e, "s", "listpack")
	doInt(t, e, "SADD", "c", "x", "y")
	wantEnc(t, e, "c", "listpack")
	doInt(t, e, "SADD", "c", "z")
	wantEnc(t, e, "c", "hashtable")
}

func TestSPopRebuild(t *testing.T) {
	// 7.2+: from a hashtable the rebuilt set starts as a listpack, even for integers [facts].
	e := newSetEngine(V72, alloc.Jemalloc)
	doInt(t, e, append([]string{"SADD", "s"}, seq("", 1, 1000)...)...)
	wantEnc(t, e, "s", "hashtable")
	r := e.Do("SPOP", "s", "990")
	if len(r.Array) != 990 {
		t.Fatalf("SPOP 990 returned %d", len(r.Array))
	}
	wantEnc(t, e, "s", "listpack")
	if n := doInt(t, e, "SCARD", "s"); n != 10 {
		t.Fatalf("SCARD %d", n)
	}
	seen := map[string]bool{}
	for _, m := range append(e.SetMembers([]byte("s")), replyStrings(r)...) {
		if seen[m] {
			t.Fatalf("member %s both popped and kept", m)
		}
		seen[m] = true
	}
	if len(seen) != 1000 {
		t.Fatalf("%d distinct members", len(seen))
	}
	// From an intset it starts as an intset.
	doInt(t, e, append([]string{"SADD", "i"}, seq("", 1, 10)...)...)
	e.Do("SPOP", "i", "9")
	wantEnc(t, e, "i", "intset")
	// 7.0: setTypeCreate on the first kept member: integers give an intset.
	e = newSetEngine(V70, alloc.Jemalloc16)
	doInt(t, e, append([]string{"SADD", "s"}, seq("", 1, 1000)...)...)
	wantEnc(t, e, "s", "hashtable")
	e.Do("SPOP", "s", "990")
	wantEnc(t, e, "s", "intset")
	// count ≥ size deletes the key.
	e.Do("SPOP", "s", "10")
	if doInt(t, e, "EXISTS", "s") != 0 {
		t.Fatal("SPOP of everything keeps the key")
	}
}

func chiSquare(counts map[string]int, size, draws int) float64 {
	exp := float64(draws) / float64(size)
	var x float64
	for _, c := range counts {
		d := float64(c) - exp
		x += d * d / exp
	}
	x += float64(size-len(counts)) * exp // members never drawn
	return x
}

// SRANDMEMBER on a hashtable set goes through dictGetFairRandomKey, whose bucket walk favours
// members after runs of empty buckets: far from uniform. A small listpack set is uniform.
func TestSrandmemberBias(t *testing.T) {
	e := newSetEngine(V72, alloc.Jemalloc)
	doInt(t, e, append([]string{"SADD", "big"}, seq("m", 0, 999)...)...)
	wantEnc(t, e, "big", "hashtable")
	const draws = 200000
	counts := map[string]int{}
	for i := 0; i < draws; i++ {
		counts[e.Do("SRANDMEMBER", "big").Str]++
	}
	if x := chiSquare(counts, 1000, draws); x < 5000 {
		t.Fatalf("hashtable chi-square %.0f: expected Redis's bias (far above 999)", x)
	}
	doInt(t, e, append([]string{"SADD", "small"}, seq("m", 0, 9)...)...)
	wantEnc(t, e, "small", "listpack")
	counts = map[string]int{}
	for i := 0; i < draws; i++ {
		counts[e.Do("SRANDMEMBER", "small").Str]++
	}
	if x := chiSquare(counts, 10, draws); x > 40 {
		t.Fatalf("listpack chi-square %.1f, want near 9", x)
	}
}

func TestSrandmemberCases(t *testing.T) {
	for _, v := range []Version{V70, V72} {
		e := newSetEngine(v, alloc.Jemalloc)
		doInt(t, e, append([]string{"SADD", "h"}, seq("m", 0, 99)...)...)
		for _, count := range []int{5, 40, 90} { // CASE 4, CASE 3, CASE 3
			r := e.Do("SRANDMEMBER", "h", strconv.Itoa(count))
			seen := map[string]bool{}
			for _, m := range replyStrings(r) {
				if seen[m] {
					t.Fatalf("%v count %d: duplicate %s", v, count, m)
				}
				seen[m] = true
			}
			if len(seen) != count {
				t.Fatalf("%v count %d: got %d", v, count, len(seen))
			}
		}
		if r := e.Do("SRANDMEMBER", "h", "-300"); len(r.Array) != 300 {
			t.Fatalf("negative count: %d", len(r.Array))
		}
	}
	// listpack distinct picks come out in listpack order
	e := newSetEngine(V72, alloc.Jemalloc)
	doInt(t, e, append([]string{"SADD", "l"}, seq("m", 10, 59)...)...)
	r := replyStrings(e.Do("SRANDMEMBER", "l", "20"))
	for i := 1; i < len(r); i++ {
		a, _ := strconv.Atoi(r[i-1][1:])
		b, _ := strconv.Atoi(r[i][1:])
		if a >= b {
			t.Fatalf("listpack picks not in order: %v", r)
		}
	}
}

func TestSetCopyIsDeep(t *testing.T) {
	e := newSetEngine(V72, alloc.Jemalloc)
	for _, members := range [][]string{{"1", "2"}, {"a", "b"}, seq("m", 1, 200)} {
		e.Do("DEL", "src", "dst")
		doInt(t, e, append([]string{"SADD", "src"}, members...)...)
		enc := doStr(t, e, "OBJECT", "ENCODING", "src")
		doInt(t, e, "COPY", "src", "dst")
		wantEnc(t, e, "dst", enc)
		doInt(t, e, "SADD", "src", "new")
		doInt(t, e, "SREM", "src", members[0])
		if doInt(t, e, "SISMEMBER", "dst", "new") != 0 || doInt(t, e, "SISMEMBER", "dst", members[0]) != 1 {
			t.Fatalf("%s copy shares storage with its source", enc)
		}
	}
}

func TestSetTraceEvents(t *testing.T) {
	e := newSetEngine(V72, alloc.Jemalloc)
	e.SetTracing(true)
	res := e.Exec([][]byte{[]byte("SADD"), []byte("s"), []byte("1"), []byte("70000")})
	var upgrade, conv, lp, dictEv bool
	for _, ev := range res.Events {
		if is, ok := ev.(IntsetEvent); ok && is.Op == "upgrade" && is.NewWidth == 4 {
			upgrade = true
		}
	}
	res = e.Exec([][]byte{[]byte("SADD"), []byte("s"), []byte("x")})
	for _, ev := range res.Events {
		switch x := ev.(type) {
		case EncodingEvent:
			conv = x.From == "intset" && x.To == "listpack" && x.Key == "s"
		case ListpackEvent:
			lp = lp || (x.Op == "insert" && x.Value == "x")
		}
	}
	args := [][]byte{[]byte("SADD"), []byte("h")}
	for _, m := range seq("m", 1, 200) {
		args = append(args, []byte(m))
	}
	res = e.Exec(args)
	for _, ev := range res.Events {
		if d, ok := ev.(DictEvent); ok && d.Op == "insert" && d.Key == "h" {
			dictEv = true
		}
	}
	if !upgrade || !conv || !lp || !dictEv {
		t.Fatalf("events: upgrade %v conversion %v listpack %v dict %v", upgrade, conv, lp, dictEv)
	}
	res = e.Exec([][]byte{[]byte("SRANDMEMBER"), []byte("h")})
	if len(res.Events) == 0 {
		t.Fatal("no random-pick event")
	}
	if _, ok := res.Events[len(res.Events)-1].(RandomPickEvent); !ok {
		t.Fatalf("last event %T", res.Events[len(res.Events)-1])
	}
}

func TestSetCommandsNeverPanic(t *testing.T) {
	for _, v := range []Version{V70, V72, V74, V88} {
		e := newSetEngine(v, alloc.Jemalloc)
		cmds := [][]string{
			{"SADD", "s", "1", "x"}, {"SPOP", "s", "0"}, {"SPOP", "s", "100"}, {"SPOP", "nosuch", "1"},
			{"SRANDMEMBER", "s", "-9223372036854775807"}, {"SINTERCARD", "9223372036854775807", "s"},
			{"SSCAN", "s", "18446744073709551615", "COUNT", "9223372036854775807"},
			{"SADD", "h", "a", "b", "c"}, {"SSCAN", "h", "0", "COUNT", "9223372036854775807"},
			{"SMOVE", "h", "h", "a"}, {"SDIFFSTORE", "h", "h"}, {"SUNIONSTORE", "x"},
		}
		for _, c := range cmds {
			if r := e.Do(c...); r.Kind == KindError && len(r.Str) > 28 && r.Str[:28] == "ERR redscope internal error:" {
				t.Fatalf("%v %v: %s", v, c, r.Str)
			}
		}
	}
}
