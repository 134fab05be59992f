package engine

import (
	"strings"
	"testing"

	"redscope/engine/alloc"
)

// DEBUG SDSLEN figures verified on Debian's redis-server 7.0.15 (16-byte quantum).
func TestDebugSDSLen(t *testing.T) {
	e, _ := newTestEngine()
	e.Do("SET", "foo", "bar")
	e.Do("SET", "r", "hello")
	e.Do("APPEND", "r", " world")
	e.Do("SET", "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk", "x")
	e.Do("SET", "", "x")
	e.Do("SET", "n", "123")
	want(t, e, "key_sds_len:3, key_sds_avail:0, key_zmalloc: 8, val_sds_len:3, val_sds_avail:0, val_zmalloc: 16", "DEBUG", "SDSLEN", "foo")
	want(t, e, "key_sds_len:1, key_sds_avail:0, key_zmalloc: 8, val_sds_len:11, val_sds_avail:17, val_zmalloc: 32", "DEBUG", "SDSLEN", "r")
	want(t, e, "key_sds_len:32, key_sds_avail:12, key_zmalloc: 48, val_sds_len:1, val_sds_avail:0, val_zmalloc: 16", "DEBUG", "SDSLEN", "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk")
	want(t, e, "key_sds_len:0, key_sds_avail:4, key_zmalloc: 8, val_sds_len:1, val_sds_avail:0, val_zmalloc: 16", "DEBUG", "SDSLEN", "")
	want(t, e, "(error) ERR Not an sds encoded string.", "DEBUG", "SDSLEN", "n")
	want(t, e, "(error) ERR no such key", "DEBUG", "SDSLEN", "nokey")
	want(t, e, "(error) ERR unknown subcommand or wrong number of arguments for 'sdslen'. Try DEBUG HELP.", "DEBUG", "sdslen")
	want(t, e, "(error) ERR unknown subcommand or wrong number of arguments for 'JMAP'. Try DEBUG HELP.", "DEBUG", "JMAP")
	// Redis's own build (8-byte quantum): the 32-byte key's sds8 takes 40.
	e8 := New(Options{Version: V70, Allocator: alloc.Jemalloc})
	e8.Do("SET", "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk", "x")
	want(t, e8, "key_sds_len:32, key_sds_avail:4, key_zmalloc: 40, val_sds_len:1, val_sds_avail:0, val_zmalloc: 8", "DEBUG", "SDSLEN", "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk")
}

func TestRegisterDebugDuplicatePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("no panic")
		}
	}()
	registerDebug("sdslen", 3, debugSDSLen)
}

func TestObjectCommand(t *testing.T) {
	e, _ := newTestEngine()
	e.Do("SET", "s", "5")
	e.Do("SET", "i", "12345678901")
	want(t, e, "(integer) 2147483647", "OBJECT", "REFCOUNT", "s")
	want(t, e, "(integer) 1", "OBJECT", "REFCOUNT", "i")
	want(t, e, "\"int\"", "OBJECT", "ENCODING", "i")
	want(t, e, "(integer) 0", "OBJECT", "IDLETIME", "s")
	want(t, e, "(error) ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust.", "OBJECT", "FREQ", "s")
	want(t, e, "OK", "CONFIG", "SET", "maxmemory-policy", "volatile-lfu")
	// The key was stored under noeviction: its lru field holds an LRU clock, which read as an LFU
	// word decays to 0 (redis-server 7.0.15 answers 0 too).
	want(t, e, "(integer) 0", "OBJECT", "FREQ", "s")
	want(t, e, "(nil)", "OBJECT", "FREQ", "nokey")
}

func TestMemoryUsageWrapper(t *testing.T) {
	e, _ := newTestEngine()
	e.Do("SET", "foo", "bar")
	want(t, e, "(integer) 64", "MEMORY", "USAGE", "foo") // 7.0.15, Debian build
	want(t, e, "(integer) 64", "MEMORY", "USAGE", "foo", "SAMPLES", "0")
	want(t, e, "(error) ERR syntax error", "MEMORY", "USAGE", "nokey", "SAMPLES", "-1")
	want(t, e, "(error) ERR value is not an integer or out of range", "MEMORY", "USAGE", "foo", "SAMPLES", "x")
	want(t, e, "(nil)", "MEMORY", "USAGE", "nokey")
}

func TestConfigSetAtomicAndTyped(t *testing.T) {
	e, _ := newTestEngine()
	want(t, e, "(error) ERR CONFIG SET failed (possibly related to argument 'maxmemory-policy') - argument(s) must be one of the following: volatile-lru, volatile-lfu, volatile-random, volatile-ttl, allkeys-lru, allkeys-lfu, allkeys-random, noeviction",
		"CONFIG", "SET", "maxmemory", "100", "maxmemory-policy", "nope")
	if e.Config().Int("maxmemory") != 0 {
		t.Error("failed CONFIG SET left maxmemory changed")
	}
	want(t, e, "OK", "CONFIG", "SET", "maxmemory", "2mb", "hll-sparse-max-bytes", "1k")
	if e.Config().Int("maxmemory") != 2<<20 || e.Config().Int("hll-sparse-max-bytes") != 1000 {
		t.Errorf("values %d %d", e.Config().Int("maxmemory"), e.Config().Int("hll-sparse-max-bytes"))
	}
	want(t, e, "1) \"maxmemory\"\n2) \"2097152\"", "CONFIG", "GET", "maxmemory")
	// Shared integers are not used with an LRU policy and maxmemory set.
	want(t, e, "OK", "CONFIG", "SET", "maxmemory-policy", "allkeys-lru")
	e.Do("SET", "n", "7")
	want(t, e, "(integer) 1", "OBJECT", "REFCOUNT", "n")
}

func TestMemtoull(t *testing.T) {
	cases := []struct {
		in string
		v  uint64
		ok bool
	}{
		{"", 0, true}, {"1kb", 1024, true}, {"1KB", 1024, true}, {"1k", 1000, true}, {"3m", 3000000, true},
		{"1gb", 1 << 30, true}, {"1b", 1, true}, {"1tb", 0, false}, {"-1", 0, false}, {" 1", 0, false},
		{"1.5", 0, false}, {"18446744073709551616", 1<<64 - 1, true}, {"20000000000gb", 3028092406290448384, true},
	}
	for _, c := range cases {
		v, ok := memtoull(c.in)
		if v != c.v || ok != c.ok {
			t.Errorf("memtoull(%q) = %d,%v", c.in, v, ok)
		}
	}
}

func TestCommandTable(t *testing.T) {
	e, _ := newTestEngine()
	want(t, e, "1) \"a\"\n2) \"b\"\n3) \"c\"", "COMMAND", "GETKEYS", "DEL", "a", "b", "c")
	want(t, e, "1) \"k\"", "COMMAND", "GETKEYS", "object", "encoding", "k")
	want(t, e, "(error) ERR The command has no key arguments", "COMMAND", "GETKEYS", "ping", "x")
	want(t, e, "(error) ERR Invalid number of arguments specified for command", "COMMAND", "GETKEYS", "get", "a", "b")
	n := e.Do("COMMAND", "COUNT").Int
	if int(n) != len(e.Commands()) || n < 30 {
		t.Errorf("COMMAND COUNT %d", n)
	}
	docs := e.Do("COMMAND", "DOCS")
	if docs.Kind != KindArray || len(docs.Array) != 2*int(n) {
		t.Errorf("COMMAND DOCS has %d items for %d commands", len(docs.Array), n)
	}
	info := e.Do("COMMAND", "INFO", "expire")
	want(t, e, info.FormatCLI()[:len(info.FormatCLI())-1], "COMMAND", "INFO", "EXPIRE")
	if got := info.Array[0].Array[6].FormatCLI(); got != "1) @keyspace\n2) @write\n3) @fast\n" {
		t.Errorf("categories %q", got)
	}
}

func TestTime(t *testing.T) {
	e, c := newTestEngine()
	c.Ms = 1767225600123
	want(t, e, "1) \"1767225600\"\n2) \"123000\"", "TIME")
}

// TestMemoryMallocStats: MEMORY MALLOC-STATS is jemalloc's text framed as malloc_stats_print
// frames it, a verbatim string in RESP3, and its allocated bytes are INFO memory's.
func TestMemoryMallocStats(t *testing.T) {
	e, _ := newTestEngine()
	e.Do("SET", "k", strings.Repeat("x", 100))
	r := e.Do("MEMORY", "MALLOC-STATS")
	info := e.Do("INFO", "memory").Str
	i := strings.Index(info, "allocator_allocated:")
	alloc := strings.TrimSpace(info[i+len("allocator_allocated:") : i+strings.Index(info[i:], "\r\n")])
	if r.R3 != R3Verbatim || !strings.HasPrefix(r.Str, "___ Begin jemalloc statistics ___\n") ||
		!strings.HasSuffix(r.Str, "--- End jemalloc statistics ---\n") ||
		!strings.Contains(r.Str, "Allocated: "+alloc+", ") {
		t.Fatalf("MEMORY MALLOC-STATS = %+v (allocator_allocated %s)", r, alloc)
	}
}
