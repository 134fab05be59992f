package transcript

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"time"

	"redscope/engine"
)

// Conn is a minimal RESP2 client that keeps every reply's exact bytes, so two servers can be
// compared byte for byte, and also decodes it into an engine.Reply for display.
type Conn struct {
	nc      net.Conn
	rd      *bufio.Reader
	wbuf    []byte
	raw     []byte
	Timeout time.Duration // per command; default 60 s
}

// Dial connects to a RESP server.
func Dial(addr string) (*Conn, error) {
	nc, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return nil, err
	}
	return &Conn{nc: nc, rd: bufio.NewReaderSize(nc, 64*1024), Timeout: 60 * time.Second}, nil
}

// Close closes the connection.
func (c *Conn) Close() error { return c.nc.Close() }

// Do sends one command and reads its reply. raw is only valid until the next call.
func (c *Conn) Do(args [][]byte) (raw []byte, r engine.Reply, err error) {
	if err := c.Send(args); err != nil {
		return nil, engine.Reply{}, err
	}
	if err := c.Flush(); err != nil {
		return nil, engine.Reply{}, err
	}
	return c.Receive()
}

// DoStrings is Do with string arguments.
func (c *Conn) DoStrings(args ...string) (raw []byte, r engine.Reply, err error) {
	b := make([][]byte, len(args))
	for i, a := range args {
		b[i] = []byte(a)
	}
	return c.Do(b)
}

// Send buffers a command (pipelining); Flush sends the buffer.
func (c *Conn) Send(args [][]byte) error {
	c.wbuf = append(c.wbuf, '*')
	c.wbuf = strconv.AppendInt(c.wbuf, int64(len(args)), 10)
	c.wbuf = append(c.wbuf, '\r', '\n')
	for _, a := range args {
		c.wbuf = append(c.wbuf, '$')
		c.wbuf = strconv.AppendInt(c.wbuf, int64(len(a)), 10)
		c.wbuf = append(c.wbuf, '\r', '\n')
		c.wbuf = append(c.wbuf, a...)
		c.wbuf = append(c.wbuf, '\r', '\n')
	}
	return nil
}

// Flush writes the buffered commands.
func (c *Conn) Flush() error {
	if len(c.wbuf) == 0 {
		return nil
	}
	c.nc.SetWriteDeadline(time.Now().Add(c.Timeout))
	_, err := c.nc.Write(c.wbuf)
	if cap(c.wbuf) > 1<<20 {
		c.wbuf = nil
	} else {
		c.wbuf = c.wbuf[:0]
	}
	return err
}

// Receive reads one reply.
func (c *Conn) Receive() (raw []byte, r engine.Reply, err error) {
	c.nc.SetReadDeadline(time.Now().Add(c.Timeout))
	c.raw = c.raw[:0]
	r, err = c.read(0)
	return c.raw, r, err
}

var errProto = errors.New("resp: protocol error")

func (c *Conn) line() ([]byte, error) {
	start := len(c.raw)
	for {
		chunk, err := c.rd.ReadSlice('\n')
		c.raw = append(c.raw, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return nil, err
		}
		break
	}
	l := c.raw[start:]
	if len(l) < 3 || l[len(l)-2] != '\r' {
		return nil, fmt.Errorf("%w: bad line %q", errProto, l)
	}
	return l[:len(l)-2], nil
}

func (c *Conn) read(depth int) (engine.Reply, error) {
	if depth > 64 {
		return engine.Reply{}, fmt.Errorf("%w: nesting too deep", errProto)
	}
	l, err := c.line()
	if err != nil {
		return engine.Reply{}, err
	}
	body := string(l[1:])
	switch l[0] {
	case '+':
		return engine.Status(body), nil
	case '-':
		return engine.Err(body), nil
	case ':':
		n, err := strconv.ParseInt(body, 10, 64)
		if err != nil {
			return engine.Reply{}, fmt.Errorf("%w: bad integer %q", errProto, body)
		}
		return engine.Int(n), nil
	case '$', '*':
		what, null := "bulk", engine.NilReply
		if l[0] == '*' {
			what, null = "array", engine.NilArray
		}
		n, err := strconv.Atoi(body)
		switch {
		case err != nil || n < -1:
			return engine.Reply{}, fmt.Errorf("%w: bad %s length %q", errProto, what, body)
		case n == -1:
			return null, nil
		case l[0] == '$':
			return c.bulk(n)
		}
		items := make([]engine.Reply, n)
		for i := range items {
			if items[i], err = c.read(depth + 1); err != nil {
				return engine.Reply{}, err
			}
		}
		return engine.Reply{Kind: engine.KindArray, Array: items}, nil
	}
	return engine.Reply{}, fmt.Errorf("%w: unexpected type byte %q", errProto, l[0])
}

// bulk reads a bulk string's n bytes and its CRLF.
func (c *Conn) bulk(n int) (engine.Reply, error) {
	start := len(c.raw)
	c.raw = append(c.raw, make([]byte, n+2)...)
	if _, err := io.ReadFull(c.rd, c.raw[start:]); err != nil {
		return engine.Reply{}, err
	}
	if c.raw[len(c.raw)-2] != '\r' || c.raw[len(c.raw)-1] != '\n' {
		return engine.Reply{}, fmt.Errorf("%w: bulk not terminated by CRLF", errProto)
	}
	return engine.BulkStr(string(c.raw[start : start+n])), nil
}
