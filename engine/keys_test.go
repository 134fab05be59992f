package engine

import (
	"testing"
	"time"
)

// TTL rounding is (ms+500)/1000 and a key expires once now > when (lazily, on lookup).
func TestTTLRoundingAndLazyExpiry(t *testing.T) {
	e, c := newTestEngine()
	want(t, e, "OK", "SET", "k", "v")
	want(t, e, "(integer) 1", "PEXPIRE", "k", "1500")
	want(t, e, "(integer) 2", "TTL", "k") // 1500 → (1500+500)/1000
	c.Advance(1 * time.Millisecond)
	want(t, e, "(integer) 1", "TTL", "k") // 1499 → 1
	want(t, e, "(integer) 1499", "PTTL", "k")
	c.Advance(998 * time.Millisecond) // 501 left
	want(t, e, "(integer) 1", "TTL", "k")
	c.Advance(2 * time.Millisecond) // 499 left
	want(t, e, "(integer) 0", "TTL", "k")
	c.Advance(499 * time.Millisecond) // when == now: still there
	want(t, e, "(integer) 0", "PTTL", "k")
	want(t, e, "(integer) 1", "DBSIZE")
	c.Advance(1 * time.Millisecond) // now > when
	res := e.Exec([][]byte{[]byte("EXISTS"), []byte("k")})
	if res.Reply.Int != 0 {
		t.Fatalf("EXISTS after expiry = %d", res.Reply.Int)
	}
	if len(res.Events) != 1 || res.Events[0].(KeyEvent).Action != "expired" {
		t.Errorf("events %+v, want one expired KeyEvent", res.Events)
	}
	want(t, e, "(integer) 0", "DBSIZE")
	want(t, e, "(integer) -2", "TTL", "k")
}

// EXPIRE with a time not after now deletes (checkAlreadyExpired: when <= now).
func TestExpireNowDeletes(t *testing.T) {
	e, _ := newTestEngine()
	e.Do("SET", "k", "v")
	want(t, e, "(integer) 1", "PEXPIREAT", "k", itoa(StartMs+1))
	want(t, e, "(integer) 1", "EXISTS", "k")
	want(t, e, "(integer) 1", "PEXPIREAT", "k", itoa(StartMs))
	want(t, e, "(integer) 0", "EXISTS", "k")
	e.Do("SET", "k", "v")
	want(t, e, "(integer) 1", "EXPIREAT", "k", itoa(StartMs/1000+100))
	want(t, e, "(integer) "+itoa(StartMs/1000+100), "EXPIRETIME", "k")
	want(t, e, "(integer) 100", "TTL", "k")
	// LT with no TTL succeeds; GT with no TTL fails.
	e.Do("SET", "j", "v")
	want(t, e, "(integer) 0", "EXPIRE", "j", "10", "GT")
	want(t, e, "(integer) 1", "EXPIRE", "j", "10", "LT")
	want(t, e, "(integer) 10", "TTL", "j")
}

func TestTTLEventsAndRename(t *testing.T) {
	e, _ := newTestEngine()
	e.Do("SET", "a", "1")
	r := e.Exec([][]byte{[]byte("EXPIRE"), []byte("a"), []byte("10")})
	ev, ok := r.Events[0].(TTLEvent)
	if !ok || ev.Action != "set" || ev.Before != -1 || ev.After != StartMs+10000 {
		t.Errorf("EXPIRE events %+v", r.Events)
	}
	e.Do("SET", "b", "2")
	r = e.Exec([][]byte{[]byte("RENAME"), []byte("a"), []byte("b")})
	var kinds []string
	for _, x := range r.Events {
		switch v := x.(type) {
		case KeyEvent:
			kinds = append(kinds, v.Action+":"+v.Key+">"+v.To)
		case TTLEvent:
			kinds = append(kinds, "ttl-"+v.Action+":"+v.Key)
		}
	}
	if got := fmtList(kinds); got != "deleted:b> renamed:a>b ttl-set:b" {
		t.Errorf("RENAME events %s", got)
	}
	want(t, e, "(integer) 10", "TTL", "b")
	r = e.Exec([][]byte{[]byte("PERSIST"), []byte("b")})
	if ev, ok := r.Events[0].(TTLEvent); !ok || ev.Action != "cleared" {
		t.Errorf("PERSIST events %+v", r.Events)
	}
}

func fmtList(l []string) string {
	s := ""
	for i, x := range l {
		if i > 0 {
			s += " "
		}
		s += x
	}
	return s
}

type fakeList struct{ items []string }

func (f *fakeList) CloneValue() any { return &fakeList{items: append([]string(nil), f.items...)} }

func TestCopyDeepClone(t *testing.T) {
	e, _ := newTestEngine()
	e.db.keys["l"] = &Object{Type: TypeList, Enc: EncQuicklist, Val: &fakeList{items: []string{"x"}}}
	want(t, e, "(integer) 1", "COPY", "l", "m")
	m := e.db.keys["m"].Val.(*fakeList)
	m.items[0] = "changed"
	if e.db.keys["l"].Val.(*fakeList).items[0] != "x" {
		t.Error("COPY shared the value instead of cloning it")
	}
	want(t, e, "list", "TYPE", "m")
	want(t, e, "\"quicklist\"", "OBJECT", "ENCODING", "m")
	// A raw string with spare room becomes an exact-size sds (dupStringObject).
	e.Do("SET", "r", "hello")
	e.Do("APPEND", "r", " world")
	e.Do("COPY", "r", "r2")
	if h := e.db.keys["r2"].SDS; h.Avail() != 0 || h.Usable != 16 {
		t.Errorf("copied raw sds %+v", h)
	}
	// DB option and TTL transfer.
	e.Do("PEXPIRE", "r", "5000")
	want(t, e, "(integer) 1", "COPY", "r", "r", "DB", "3")
	e.SelectDB(3)
	want(t, e, "(integer) 5000", "PTTL", "r")
	want(t, e, "\"hello world\"", "GET", "r")
}

func TestScanCursor(t *testing.T) {
	e, c := newTestEngine()
	for _, k := range []string{"k1", "k2", "k3", "k4", "k5"} {
		e.Do("SET", k, "v")
	}
	e.Do("PEXPIRE", "k2", "1")
	c.Advance(2 * time.Millisecond)
	// KEYS skips the expired key without deleting it.
	want(t, e, "1) \"k1\"\n2) \"k3\"\n3) \"k4\"\n4) \"k5\"", "KEYS", "*")
	want(t, e, "(integer) 5", "DBSIZE")
	// SCAN deletes it (db.c, scanGenericCommand), and the cursor steps back over it so k3 is not
	// skipped: every live key comes exactly once.
	want(t, e, "1) \"1\"\n2) 1) \"k1\"", "SCAN", "0", "COUNT", "2")
	want(t, e, "(integer) 4", "DBSIZE")
	want(t, e, "1) \"3\"\n2) 1) \"k3\"\n   2) \"k4\"", "SCAN", "1", "COUNT", "2")
	want(t, e, "1) \"0\"\n2) 1) \"k5\"", "SCAN", "3", "COUNT", "2")
	want(t, e, "1) \"0\"\n2) (empty array)", "SCAN", "-1")
	want(t, e, "(error) ERR invalid cursor", "SCAN", "1x")
	want(t, e, "1) \"0\"\n2) 1) \"k4\"", "SCAN", "0", "MATCH", "*4")
}

func TestParseScanCursor(t *testing.T) {
	cases := []struct {
		in string
		v  uint64
		ok bool
	}{
		{"0", 0, true}, {"", 0, true}, {"01", 1, true}, {"+5", 5, true}, {"-1", 1<<64 - 1, true},
		{"18446744073709551615", 1<<64 - 1, true}, {"18446744073709551616", 0, false},
		{" 0", 0, false}, {"0 ", 0, false}, {"abc", 0, false}, {"-", 0, false}, {"+", 0, false},
	}
	for _, c := range cases {
		v, ok := parseScanCursor([]byte(c.in))
		if v != c.v || ok != c.ok {
			t.Errorf("parseScanCursor(%q) = %d,%v want %d,%v", c.in, v, ok, c.v, c.ok)
		}
	}
}

func TestRandomKeySkipsExpired(t *testing.T) {
	e, c := newTestEngine()
	want(t, e, "(nil)", "RANDOMKEY")
	e.Do("SET", "gone1", "v", "PX", "1")
	e.Do("SET", "gone2", "v", "PX", "1")
	e.Do("SET", "live", "v")
	c.Advance(5 * time.Millisecond)
	for i := 0; i < 20; i++ {
		want(t, e, "\"live\"", "RANDOMKEY")
	}
	if e.KeyCount() > 3 {
		t.Fatal("impossible")
	}
}

// Verified on redis-server 7.0.15 with KEYS (see testdata/transcripts/diff/keys.txt).
func TestStringMatch(t *testing.T) {
	cases := []struct {
		pat, s string
		want   bool
	}{
		{"*", "", false}, {"", "", true}, {"a*", "a", true}, {"a?", "a", false}, {"a?", "ab", true},
		{`a\*`, "a*", true}, {`a\*`, "ab", false}, {"a[bc]", "ac", true}, {"a[^b]*", "a*", true},
		{"a[^b]*", "abc", false}, {"a[!b]*", "abc", true}, {"[b-a]*", "b", true}, {"[a-b]*", "c", false},
		{`\[x\]`, "[x]", true}, {"[[]x]", "[x]", true}, {`[\]]*`, "]z", true}, {"[a-]*", "a", true},
		{"[a-]*", "ab", false}, {"a[", "a", false}, {"a[b", "ab", true}, {"[^", "z", true}, {"[^", "zz", false},
		{"??", "ab", true}, {"*c", "abc", true}, {"**", "x", true}, {"*a*b*c*", "xaybzc", true},
		{"*a*b*c*", "xaybz", false}, {"h[a-c]llo*", "hbllo!", true}, {"\\", "\\", true},
	}
	for _, c := range cases {
		if got := stringMatch([]byte(c.pat), []byte(c.s), false); got != c.want {
			t.Errorf("match(%q, %q) = %v", c.pat, c.s, got)
		}
	}
	if !stringMatch([]byte("MAXMEM*"), []byte("maxmemory"), true) || stringMatch([]byte("MAXMEM*"), []byte("maxmemory"), false) {
		t.Error("nocase")
	}
	// Pathological pattern stays fast (skipLongerMatches).
	long := make([]byte, 2000)
	for i := range long {
		long[i] = 'a'
	}
	if stringMatch([]byte("*a*a*a*a*a*a*a*a*a*a*b"), long, false) {
		t.Error("matched")
	}
}

func TestFlush(t *testing.T) {
	e, _ := newTestEngine()
	e.Do("SET", "a", "1")
	e.Do("SELECT", "1")
	e.Do("SET", "b", "1", "EX", "10")
	want(t, e, "OK", "FLUSHDB")
	want(t, e, "(integer) 0", "DBSIZE")
	want(t, e, "(integer) -2", "TTL", "b")
	e.Do("SELECT", "0")
	want(t, e, "(integer) 1", "DBSIZE")
	want(t, e, "(error) ERR syntax error", "FLUSHALL", "LAZY")
	want(t, e, "OK", "FLUSHALL", "async")
	want(t, e, "(integer) 0", "DBSIZE")
	if e.CurrentDB() != 0 {
		t.Error("FLUSHALL changed the selected db")
	}
}

func TestCopyKeepsHugeBitmapSparse(t *testing.T) {
	e := New(Options{Version: V70})
	e.Do("SETBIT", "huge", "4294967295", "1")
	if r := e.Do("COPY", "huge", "copy"); r.Int != 1 {
		t.Fatalf("COPY = %v", r.FormatCLI())
	}
	o := e.Lookup([]byte("copy"))
	if got := o.Buf.PagesInUse(); got > 2 {
		t.Fatalf("copy of a one-bit 512 MiB bitmap holds %d pages", got)
	}
	if r := e.Do("GETBIT", "copy", "4294967295"); r.Int != 1 {
		t.Fatalf("GETBIT on the copy = %v", r.FormatCLI())
	}
	if a, b := e.Do("MEMORY", "USAGE", "huge").Int, e.Do("MEMORY", "USAGE", "copy").Int; a != b {
		t.Fatalf("MEMORY USAGE huge %d copy %d", a, b)
	}
}

// The active expire cycle deletes, in every database, the keys whose time has passed and that
// nobody reads; keys without a TTL or still alive stay; DEBUG SET-ACTIVE-EXPIRE 0 stops it.
func TestActiveExpireCycle(t *testing.T) {
	e, c := newTestEngine()
	want(t, e, "OK", "SET", "plain", "v")
	want(t, e, "OK", "PSETEX", "soon", "100", "v")
	want(t, e, "OK", "PSETEX", "later", "5000", "v")
	want(t, e, "OK", "SELECT", "3")
	want(t, e, "OK", "PSETEX", "other", "100", "v")
	want(t, e, "OK", "SELECT", "0")
	c.Advance(100 * time.Millisecond) // now == when: not yet
	if n := e.ActiveExpireCycle(); n != 0 {
		t.Fatalf("cycle at now == when deleted %d keys", n)
	}
	c.Advance(1 * time.Millisecond)
	want(t, e, "OK", "DEBUG", "SET-ACTIVE-EXPIRE", "0")
	if n := e.ActiveExpireCycle(); n != 0 {
		t.Fatalf("cycle after SET-ACTIVE-EXPIRE 0 deleted %d keys", n)
	}
	want(t, e, "(integer) 3", "DBSIZE") // lazy expiry only: DBSIZE still counts "soon"
	want(t, e, "OK", "DEBUG", "SET-ACTIVE-EXPIRE", "1")
	if n := e.ActiveExpireCycle(); n != 2 {
		t.Fatalf("cycle deleted %d keys, want 2 (soon in db 0, other in db 3)", n)
	}
	want(t, e, "(integer) 2", "DBSIZE")
	want(t, e, "(integer) 1", "EXISTS", "later")
	want(t, e, "OK", "SELECT", "3")
	want(t, e, "(integer) 0", "DBSIZE")
	want(t, e, "OK", "SELECT", "0") // the cycle left the selected database alone
	want(t, e, "(integer) 1", "EXISTS", "plain")
}
