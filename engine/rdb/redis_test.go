package rdb

// Differential check of LZF and the string encodings against a real redis-server 7.0: random
// strings are SET there and the bytes of `DUMP key` must equal this package's encoding. Run with
//
//	REDSCOPE_REDIS_PORT=6379 go test ./engine/rdb -run Redis -v

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"testing"
)

func redisDo(t *testing.T, c net.Conn, r *bufio.Reader, args ...[]byte) []byte {
	t.Helper()
	var b bytes.Buffer
	fmt.Fprintf(&b, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(&b, "$%d\r\n%s\r\n", len(a), a)
	}
	if _, err := c.Write(b.Bytes()); err != nil {
		t.Fatal(err)
	}
	line, err := r.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	switch line[0] {
	case '+', ':':
		return []byte(line[1 : len(line)-2])
	case '$':
		n, _ := strconv.Atoi(line[1 : len(line)-2])
		if n < 0 {
			return nil
		}
		p := make([]byte, n+2)
		if _, err := io.ReadFull(r, p); err != nil {
			t.Fatal(err)
		}
		return p[:n]
	}
	t.Fatalf("reply %q", line)
	return nil
}

func TestRedisStringDump(t *testing.T) {
	port := os.Getenv("REDSCOPE_REDIS_PORT")
	if port == "" {
		t.Skip("REDSCOPE_REDIS_PORT not set")
	}
	c, err := net.Dial("tcp", "127.0.0.1:"+port)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r := bufio.NewReader(c)
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
		redisDo(t, c, r, []byte("SET"), []byte("rdbtest:k"), b)
		got := redisDo(t, c, r, []byte("DUMP"), []byte("rdbtest:k"))
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
	redisDo(t, c, r, []byte("DEL"), []byte("rdbtest:k"))
}
