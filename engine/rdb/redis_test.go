package rdb

// Differential check of LZF and the string encodings against a real redis-server 7.0: random
// strings are SET there and the bytes of `DUMP key` must equal this package's encoding. Run with
//
//	REDSCOPE_REDIS_PORT=6379 go test ./engine/rdb -run Redis -v

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"testing"

	"redscope/internal/refredis"
)

func TestRedisStringDump(t *testing.T) {
	c := refredis.DialEnv(t, "REDSCOPE_REDIS_PORT", "no redis-server 7.0 to compare with")
	rng := rand.New(rand.NewPCG(7, 9))
	for i := 0; i < 3000; i++ {
		n := rng.IntN(600)
		if i%3 == 0 {
			n = rng.IntN(40)
		}
		b := make([]byte, n)
		alpha := 1 + rng.IntN(12)
		for j := range b {
			b[j] = byte('a' + rng.IntN(alpha))
		}
		if i%7 == 0 {
			b = []byte(strconv.FormatInt(rng.Int64N(1<<40)-1<<39, 10))
		}
		c.Do(t, "SET", "rdbtest:k", b)
		got, _ := c.Do(t, "DUMP", "rdbtest:k").([]byte)
		w := &Writer{Compress: true}
		w.Type(TypeString)
		if v, ok := strictInt(b); ok && len(b) <= 20 {
			w.Int(v)
		} else {
			w.String(b)
		}
		want := Wrap(w.B, 10)
		if !bytes.Equal(got, want) {
			t.Fatalf("DUMP of %q:\nredis % x\nours  % x", b, got, want)
		}
	}
	c.Do(t, "DEL", "rdbtest:k")
}
