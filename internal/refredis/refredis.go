// Package refredis is the small RESP2 client with which the tests of the engine's packages
// compare with a real redis-server named by an environment variable (a test is skipped when it
// is not set). It knows nothing of the engine, so that the engine's own tests and those of the
// packages it imports can use it (internal/transcript, the differential tests' client, imports
// the engine).
package refredis

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
)

// Conn is one connection to the reference server.
type Conn struct {
	nc net.Conn
	r  *bufio.Reader
	w  *bufio.Writer
}

// Error is an error reply's text (without the leading '-').
type Error string

// DialEnv connects to the server the environment variable env names — a port on 127.0.0.1, or
// host:port — and closes the connection when the test ends; the test is skipped, with why as
// the reason, when env is not set.
func DialEnv(t testing.TB, env, why string) *Conn {
	t.Helper()
	addr := os.Getenv(env)
	if addr == "" {
		t.Skipf("%s is not set: %s", env, why)
	}
	if !strings.Contains(addr, ":") {
		addr = "127.0.0.1:" + addr
	}
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	return &Conn{nc: nc, r: bufio.NewReader(nc), w: bufio.NewWriter(nc)}
}

// Do sends one command (each argument a string, a []byte or an int) and returns its reply: a
// string (status), an Error, an int64, a []byte (bulk), nil (a null bulk), or a []any (an
// array; a nil []any for a null array). An I/O error or a malformed reply fails the test.
func (c *Conn) Do(t testing.TB, args ...any) any {
	t.Helper()
	fmt.Fprintf(c.w, "*%d\r\n", len(args))
	for _, a := range args {
		var b []byte
		switch v := a.(type) {
		case string:
			b = []byte(v)
		case []byte:
			b = v
		case int:
			b = []byte(strconv.Itoa(v))
		default:
			t.Fatalf("argument of type %T", a)
		}
		fmt.Fprintf(c.w, "$%d\r\n", len(b))
		c.w.Write(b)
		c.w.WriteString("\r\n")
	}
	if err := c.w.Flush(); err != nil {
		t.Fatal(err)
	}
	v, err := c.read()
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return v
}

// DoStrings is Do with string arguments.
func (c *Conn) DoStrings(t testing.TB, args ...string) any {
	t.Helper()
	a := make([]any, len(args))
	for i, s := range args {
		a[i] = s
	}
	return c.Do(t, a...)
}

func (c *Conn) read() (any, error) {
	line, err := c.r.ReadString('\n')
	if err != nil {
		return nil, err
	}
	line = strings.TrimSuffix(line, "\r\n")
	if line == "" {
		return nil, fmt.Errorf("empty reply line")
	}
	switch line[0] {
	case '+':
		return line[1:], nil
	case '-':
		return Error(line[1:]), nil
	case ':':
		return strconv.ParseInt(line[1:], 10, 64)
	case '$':
		n, err := strconv.Atoi(line[1:])
		if err != nil || n < 0 {
			return nil, err
		}
		b := make([]byte, n+2)
		if _, err := io.ReadFull(c.r, b); err != nil {
			return nil, err
		}
		return b[:n], nil
	case '*':
		n, err := strconv.Atoi(line[1:])
		if err != nil || n < 0 {
			return []any(nil), err
		}
		out := make([]any, 0, n)
		for i := 0; i < n; i++ {
			v, err := c.read()
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	return nil, fmt.Errorf("bad reply line %q", line)
}
