package engine

import (
	"strconv"
	"testing"
)

// TestMemoryModelled: under 8.x a hashtable hash and a skiplist zset are marked as modelled, their
// small (listpack) forms and other types are not, and nothing is marked under 7.x.
func TestMemoryModelled(t *testing.T) {
	for _, v := range []Version{V70, V74, V80, V88} {
		e := New(Options{Version: v})
		e.Do("SET", "s", "hello")
		e.Do("HSET", "hsmall", "f", "v")
		e.Do("ZADD", "zsmall", "1", "a")
		e.Do("SADD", "set", "a", "b")
		for i := 0; i < 600; i++ {
			n := strconv.Itoa(i)
			e.Do("HSET", "hbig", "f"+n, "v")
			e.Do("ZADD", "zbig", n, "m"+n)
			e.Do("SADD", "sbig", "m"+n)
		}
		if enc := e.Peek([]byte("hbig")).Enc; enc != EncHashtable {
			t.Fatalf("%v: hbig is %v", v, enc)
		}
		if enc := e.Peek([]byte("zbig")).Enc; enc != EncSkiplist {
			t.Fatalf("%v: zbig is %v", v, enc)
		}
		kv := v.KVObj()
		for key, want := range map[string]bool{"s": false, "hsmall": false, "zsmall": false, "set": false,
			"sbig": false, "nosuch": false, "hbig": kv, "zbig": kv} {
			if got := e.MemoryModelled(key); got != want {
				t.Errorf("%v: MemoryModelled(%q) = %v, want %v", v, key, got, want)
			}
		}
	}
}
