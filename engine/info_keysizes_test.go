package engine

import (
	"strings"
	"testing"
)

// TestKeysizesBins: bin i holds [2^i, 2^(i+1)) (db.c updateKeysizesHist, util.h log2ceil =
// 63 - clz), the last of kvstore.h's 48 bins takes anything larger; labels are server.c
// genRedisInfoString's expSizeLabels (2^(i mod 10) and the suffix of its power of 1024).
func TestKeysizesBins(t *testing.T) {
	for _, c := range []struct {
		n   uint64
		bin int
	}{{1, 0}, {2, 1}, {3, 1}, {4, 2}, {7, 2}, {8, 3}, {1023, 9}, {1024, 10}, {1<<20 - 1, 19},
		{1 << 20, 20}, {1 << 47, 47}, {1 << 62, 47}} {
		if got := keysizesBin(c.n); got != c.bin {
			t.Errorf("keysizesBin(%d) = %d, want %d", c.n, got, c.bin)
		}
	}
	for bin, w := range map[int]string{0: "1", 1: "2", 9: "512", 10: "1K", 11: "2K", 19: "512K",
		20: "1M", 29: "512M", 30: "1G", 40: "1T", 47: "128T"} {
		if got := keysizesLabel(bin); got != w {
			t.Errorf("keysizesLabel(%d) = %q, want %q", bin, got, w)
		}
	}
}

func keysizesSection(e *Engine) string {
	s := e.Info(argv("keysizes"))
	return strings.TrimSuffix(strings.ReplaceAll(strings.TrimPrefix(s, "# Keysizes\r\n"), "\r\n", " "), " ")
}

// TestInfoKeysizes: the section on 8.0+ (after keyspace, in the default set), absent before;
// lines per database and type in OBJ_* order; empty strings, streams and bloom filters not
// counted; an int-encoded string counts its digits; hash fields whose TTL passed count until
// they are deleted.
func TestInfoKeysizes(t *testing.T) {
	old, _ := newEngineAt(V74)
	old.Do("SET", "k", "v")
	if s := old.Info(argv("keysizes")); s != "" || strings.Contains(old.Info(nil), "Keysizes") || strings.Contains(old.Info(argv("everything")), "Keysizes") {
		t.Errorf("7.4 has no keysizes section: %q", s)
	}
	e, clock := newEngineAt(V80)
	if s := e.Info(argv("keysizes")); s != "# Keysizes\r\n" {
		t.Errorf("empty: %q", s)
	}
	for _, c := range [][]string{
		{"SET", "s1", "x"}, {"SET", "s2", "0123456789"}, {"SET", "n", "12345"}, {"SET", "empty", ""},
		{"SET", "big", strings.Repeat("a", 1500)}, {"RPUSH", "l", "a", "b", "c"},
		{"SADD", "set", "1", "2", "3", "4"}, {"SADD", "set2", "a"}, {"ZADD", "z", "1", "a", "2", "b"},
		{"HSET", "h", "a", "1", "b", "2", "c", "3", "d", "4", "e", "5", "f", "6", "g", "7", "h", "8"},
		{"XADD", "st", "*", "f", "v"}, {"SELECT", "2"}, {"LPUSH", "l", "x"}, {"SELECT", "0"},
	} {
		if r := e.Do(c...); r.IsError() {
			t.Fatalf("%v: %s", c, r.FormatCLI())
		}
	}
	want := "db0_distrib_strings_sizes:1=1,4=1,8=1,1K=1 db0_distrib_lists_items:2=1 " +
		"db0_distrib_sets_items:1=1,4=1 db0_distrib_zsets_items:2=1 db0_distrib_hashes_items:8=1 " +
		"db2_distrib_lists_items:1=1"
	if got := keysizesSection(e); got != want {
		t.Errorf("INFO keysizes:\n got %s\nwant %s", got, want)
	}
	for _, args := range [][]string{nil, {"default"}, {"all"}, {"everything"}} {
		s := e.Info(argv(args...))
		if i, j := strings.Index(s, "\r\n# Keyspace\r\n"), strings.Index(s, "\r\n\r\n# Keysizes\r\ndb0_"); i < 0 || j < i {
			t.Errorf("INFO %v: keysizes does not follow keyspace", args)
		}
	}
	// INCR changes the digits; an expired field still counts until read; DEL and APPEND.
	e.Do("INCRBY", "n", "100000")
	e.Do("HPEXPIRE", "h", "10", "FIELDS", "1", "a")
	clock.Ms += 100
	e.Do("DEL", "s2")
	e.Do("APPEND", "s1", "yz")
	want = "db0_distrib_strings_sizes:2=1,4=1,1K=1 db0_distrib_lists_items:2=1 " +
		"db0_distrib_sets_items:1=1,4=1 db0_distrib_zsets_items:2=1 db0_distrib_hashes_items:8=1 " +
		"db2_distrib_lists_items:1=1"
	if got := keysizesSection(e); got != want {
		t.Errorf("after INCRBY/HPEXPIRE/DEL/APPEND:\n got %s\nwant %s", got, want)
	}
	e.Do("HGET", "h", "a") // deletes the expired field: 7 left
	e.Do("SET", "s1", "")  // not counted
	if got := keysizesSection(e); !strings.Contains(got, "db0_distrib_hashes_items:4=1") || !strings.HasPrefix(got, "db0_distrib_strings_sizes:4=1,1K=1 ") {
		t.Errorf("after HGET of an expired field and SET \"\": %s", got)
	}
	e.Do("FLUSHDB")
	if got := keysizesSection(e); got != "db2_distrib_lists_items:1=1" {
		t.Errorf("after FLUSHDB: %q", got)
	}
}
