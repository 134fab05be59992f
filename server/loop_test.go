package server

import (
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"redscope/engine"
)

// chunkConn is a net.Conn whose reads return at most n bytes at a time.
type chunkConn struct {
	net.Conn
	data []byte
	n    int
}

func (c *chunkConn) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	k := min(c.n, len(p), len(c.data))
	copy(p, c.data[:k])
	c.data = c.data[k:]
	return k, nil
}

// TestParserChunks: the same input cut into reads of every size from 1 byte up gives the same
// commands, in order, with inline quoting as redcon (and Redis) parse it.
func TestParserChunks(t *testing.T) {
	in := cmd("SET", "k", "a\r\nb") + "PING hello\r\n" + "\r\n" + `set "a b" 'c d' "x\ny"` + "\r\n" +
		cmd("GET", "") + "ECHO  two   spaces\n" + cmd("ECHO", strings.Repeat("v", 40000))
	want := []string{"SET|k|a\r\nb", "PING|hello", "set|a b|c d|x\ny", "GET|", "ECHO|two|spaces", "ECHO|" + strings.Repeat("v", 40000)}
	cfg := engine.New(engine.Options{}).Config() // the parser's bounds at their defaults
	for _, n := range []int{1, 2, 3, 7, 64, 1 << 20} {
		cn := &netConn{nc: &chunkConn{data: []byte(in), n: n}, buf: make([]byte, 16),
			maxBulk: int(cfg.Int("proto-max-bulk-len")), queryLimit: int(cfg.Int("client-query-buffer-limit"))}
		var got []string
		for {
			cmds, err := cn.readBatch()
			for _, c := range cmds {
				parts := make([]string, len(c))
				for i, a := range c {
					parts[i] = string(a)
				}
				got = append(got, strings.Join(parts, "|"))
			}
			if err != nil {
				if err != io.EOF {
					t.Fatalf("chunks of %d: %v", n, err)
				}
				break
			}
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("chunks of %d: got %q", n, got)
		}
	}
}

// TestParserProtocolErrors: what the server answers to malformed input, after running the
// complete commands sent before it; then it hangs up. (Checked by hand against redis-server
// 7.0.15, which answers the same bytes.)
func TestParserProtocolErrors(t *testing.T) {
	_, addr := start(t, engine.V70)
	for _, tc := range []struct{ send, want string }{
		{"*x\r\n", "-ERR Protocol error: invalid multibulk length\r\n"},
		{"*+1\r\n", "-ERR Protocol error: invalid multibulk length\r\n"},
		{"*1\r\n$04\r\nPING\r\n", "-ERR Protocol error: invalid bulk length\r\n"},
		{"*0\r\n*-1\r\n*x\r\n", "-ERR Protocol error: invalid multibulk length\r\n"}, // *0, *-1: skipped
		{"*1\r\n+PING\r\n", "-ERR Protocol error: expected '$', got '+'\r\n"},
		{"*1\r\n$-3\r\n", "-ERR Protocol error: invalid bulk length\r\n"},
		// over INT_MAX arguments, over proto-max-bulk-len bytes: refused at once, not waited for
		// (processMultibulkBuffer; redis-server 7.0.15 answers these three the same)
		{"*2147483648\r\n", "-ERR Protocol error: invalid multibulk length\r\n"},
		{"*3000000000\r\n", "-ERR Protocol error: invalid multibulk length\r\n"},
		{"*1\r\n$536870913\r\n", "-ERR Protocol error: invalid bulk length\r\n"},
		{"*1\r\n$4\r\nPINGxx*x\r\n", "+PONG\r\n-ERR Protocol error: invalid multibulk length\r\n"}, // CRLF not checked
		{"PING\r\nSET \"a\r\n", "+PONG\r\n-ERR Protocol error: unbalanced quotes in request\r\n"},
		{"ECHO a\"b\"\r\nECHO \"a\"b\r\n", "$2\r\nab\r\n-ERR Protocol error: unbalanced quotes in request\r\n"},
		{"ECHO 'x\\'y' \"\\x41\\n\"\r\n*x\r\n", "-ERR wrong number of arguments for 'echo' command\r\n-ERR Protocol error: invalid multibulk length\r\n"},
		{"\r\n\r\nPING\r\n*1\r\n$4\r\nPING\r\n*x\r\n", "+PONG\r\n+PONG\r\n-ERR Protocol error: invalid multibulk length\r\n"},
	} {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		c.Write([]byte(tc.send))
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		got, _ := io.ReadAll(c) // the server closes the connection after the error
		c.Close()
		if string(got) != tc.want {
			t.Errorf("%q: got %q, want %q", tc.send, got, tc.want)
		}
	}
}

// TestArgumentsOutliveThePipeline: values written by one pipeline are intact after later
// pipelines reuse the connection's read buffer (the engine may keep argument slices).
func TestArgumentsOutliveThePipeline(t *testing.T) {
	c := startConn(t, engine.V70)
	exchange(t, c, cmd("MULTI")+cmd("RPUSH", "l", "first")+cmd("SET", "s", "value-one"), 5+9+9)
	exchange(t, c, cmd("ECHO", "zzzzzzzzzzzzzzzzzzzz"), 9)
	want := "*3\r\n:1\r\n+OK\r\n$20\r\nzzzzzzzzzzzzzzzzzzzz\r\n"
	if got := exchange(t, c, cmd("EXEC"), len(want)); got != want {
		t.Fatalf("EXEC: %q", got)
	}
	want = "*1\r\n$5\r\nfirst\r\n"
	if got := exchange(t, c, cmd("LRANGE", "l", "0", "-1"), len(want)); got != want {
		t.Fatalf("LRANGE: %q", got)
	}
	want = "$9\r\nvalue-one\r\n"
	if got := exchange(t, c, cmd("GET", "s"), len(want)); got != want {
		t.Fatalf("GET: %q", got)
	}
}

// TestPipelineAfterBlock: the commands sent after a command that blocks, in the same pipeline,
// run once it is served, with their own arguments: the connection's input buffer is reused for
// the next input (loop.go) and overwritten under PoisonInput, so runAll must have copied them.
func TestPipelineAfterBlock(t *testing.T) {
	if !PoisonInput {
		t.Fatal("PoisonInput is off: this test would not see a kept argument")
	}
	_, addr := start(t, engine.V70)
	a, b := dial(t, addr), dial(t, addr)
	if _, err := a.Write([]byte(cmd("BLPOP", "q", "0") + cmd("SET", "key-after-block", "value-after-block"))); err != nil {
		t.Fatal(err)
	}
	// a's buffer is overwritten by a's next read: a sends more while it waits (read meanwhile
	// and kept for after the reply, blocking.go), longer than what it sent before
	time.Sleep(50 * time.Millisecond)
	if _, err := a.Write([]byte(cmd("GET", strings.Repeat("z", 200)))); err != nil {
		t.Fatal(err)
	}
	time.Sleep(50 * time.Millisecond)
	if got := exchange(t, b, cmd("RPUSH", "q", "x"), len(":1\r\n")); got != ":1\r\n" {
		t.Fatalf("RPUSH: %q", got)
	}
	want := "*2\r\n$1\r\nq\r\n$1\r\nx\r\n+OK\r\n$-1\r\n"
	a.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, len(want))
	if _, err := io.ReadFull(a, buf); err != nil {
		t.Fatalf("after the block: %v (got %q)", err, buf)
	}
	if string(buf) != want {
		t.Fatalf("after the block: %q, want %q", buf, want)
	}
	if got := exchange(t, b, cmd("GET", "key-after-block"), len("$17\r\nvalue-after-block\r\n")); got != "$17\r\nvalue-after-block\r\n" {
		t.Fatalf("GET from another connection: %q", got)
	}
}
