package difftest

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"testing"
	"time"
)

// The request parser (networking.c processInlineBuffer and processMultibulkBuffer; server/loop.go):
// raw bytes are written to a fresh connection of each server and everything the server answers
// until it closes the connection (or stays quiet for a while) must be byte-identical, and so must
// whether it closed.

type rawCase struct {
	name string
	in   []string // written one after the other, each flushed
	auth bool     // requirepass is set while the case runs (unauthenticated limits)
}

func protocolCases() []rawCase {
	big := strings.Repeat("A", 70000)
	return []rawCase{
		{name: "empty query", in: []string{"\r\nPING\r\n"}},
		{name: "negative multibulk", in: []string{"*-10\r\nPING\r\n"}},
		{name: "zero multibulk", in: []string{"*0\r\nPING\r\n"}},
		{name: "out of range multibulk", in: []string{"*3000000000\r\n"}},
		{name: "empty multibulk count", in: []string{"*\r\nPING\r\n"}},
		{name: "plus sign count", in: []string{"*+1\r\n$4\r\nPING\r\n"}},
		{name: "leading zero count", in: []string{"*01\r\n$4\r\nPING\r\n"}},
		{name: "wrong payload header", in: []string{"*3\r\n$3\r\nSET\r\n$1\r\nx\r\nfooz\r\n"}},
		{name: "negative bulk", in: []string{"*3\r\n$3\r\nSET\r\n$1\r\nx\r\n$-10\r\n"}},
		{name: "out of range bulk", in: []string{"*3\r\n$3\r\nSET\r\n$1\r\nx\r\n$2000000000\r\n"}},
		{name: "non-number bulk", in: []string{"*3\r\n$3\r\nSET\r\n$1\r\nx\r\n$blabla\r\n"}},
		{name: "not followed by bulk", in: []string{"*1\r\nfoo\r\n"}},
		{name: "byte after CR unread", in: []string{"*1X$4XPINGXX*1\r\n$4\r\nPING\r\n"}},
		{name: "count ends at CR only", in: []string{"*1\rZ$4\rZPING\r\n"}},
		{name: "LF without CR in count", in: []string{"*1\n$4\r\nPING\r\n"}},
		{name: "unbalanced quotes", in: []string{"set \"\"\"k\"\"\" v\r\nping\r\n"}},
		{name: "inline LF only", in: []string{"PING a\nECHO \"x y\"\n"}},
		{name: "commands before the error run", in: []string{"PING\r\n*1\r\n$4\r\nPING\r\n*x\r\n"}},
		{name: "too big inline", in: []string{"PING", big}},
		{name: "NUL in inline", in: []string{"\x00payload", big}},
		{name: "NUL hides LF", in: []string{"PI\x00NG\r\n", big}},
		{name: "too big mbulk count", in: []string{"*\x00", big}},
		{name: "dollar first is inline", in: []string{"$\x00", big}},
		{name: "too big bulk count", in: []string{"*2\r\n$4\r\nECHO\r\n$", big}},
		{name: "big bulk then more", in: []string{"*2\r\n$4\r\nECHO\r\n$70000\r\n" + big + "\r\n*1\r\n$4\r\nPING\r\n"}},
		{name: "unauthenticated multibulk", auth: true, in: []string{"*11\r\n"}},
		{name: "unauthenticated ten args", auth: true, in: []string{"*10\r\n$4\r\nAUTH\r\n$1\r\na\r\n$1\r\na\r\n$1\r\na\r\n$1\r\na\r\n$1\r\na\r\n$1\r\na\r\n$1\r\na\r\n$1\r\na\r\n$1\r\na\r\n"}},
		{name: "unauthenticated bulk length", auth: true, in: []string{"*2\r\n$4\r\nAUTH\r\n$16385\r\n"}},
		{name: "unauthenticated 16384 bytes", auth: true, in: []string{"*2\r\n$4\r\nAUTH\r\n$16384\r\n" + strings.Repeat("p", 16384) + "\r\n"}},
		{name: "unauthenticated inline is unlimited", auth: true, in: []string{"AUTH a b c d e f g h i j k l\r\n"}},
		// CONFIG SET of the parser's bound applies from the next read (the last two cases: the
		// second puts the default back)
		{name: "bulk over a lowered proto-max-bulk-len", in: []string{"CONFIG SET proto-max-bulk-len 1048576\r\n", "*2\r\n$4\r\nECHO\r\n$1048577\r\n"}},
		{name: "proto-max-bulk-len back to its default", in: []string{"CONFIG SET proto-max-bulk-len 536870912\r\n", "*2\r\n$4\r\nECHO\r\n$1048577\r\n" + strings.Repeat("b", 1048577) + "\r\n"}},
	}
}

// rawExchange writes the case's pieces and reads until the server closes or is quiet for quiet.
func rawExchange(t *testing.T, addr string, in []string, quiet time.Duration) (got []byte, closed bool) {
	t.Helper()
	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	for _, p := range in {
		if _, err := nc.Write([]byte(p)); err != nil {
			break // closed while writing: what it answered is still read below
		}
		time.Sleep(20 * time.Millisecond)
	}
	buf := make([]byte, 64<<10)
	for {
		nc.SetReadDeadline(time.Now().Add(quiet))
		n, err := nc.Read(buf)
		got = append(got, buf[:n]...)
		if err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) {
				return got, false
			}
			return got, errors.Is(err, io.EOF) || strings.Contains(err.Error(), "reset")
		}
	}
}

func setRequirepass(t *testing.T, addr, pass string, authWith string) {
	t.Helper()
	in := ""
	if authWith != "" {
		in = "AUTH " + authWith + "\r\n"
	}
	got, _ := rawExchange(t, addr, []string{in + "CONFIG SET requirepass \"" + pass + "\"\r\n"}, 200*time.Millisecond)
	if !bytes.HasSuffix(got, []byte("+OK\r\n")) {
		t.Fatalf("CONFIG SET requirepass on %s: %q", addr, got)
	}
}

func TestProtocolErrors(t *testing.T) {
	s := freshServers(t)
	same := 0
	for _, c := range protocolCases() {
		t.Run(c.name, func(t *testing.T) {
			var out [2][]byte
			var closed [2]bool
			for i, addr := range []string{s.ref, s.scope} {
				if c.auth {
					setRequirepass(t, addr, "pw", "")
				}
				out[i], closed[i] = rawExchange(t, addr, c.in, 300*time.Millisecond)
				if c.auth {
					setRequirepass(t, addr, "", "pw")
				}
			}
			if !bytes.Equal(out[0], out[1]) || closed[0] != closed[1] {
				t.Fatalf("redis-server: %q (closed %v)\nredscope:     %q (closed %v)", trunc(out[0]), closed[0], trunc(out[1]), closed[1])
			}
			if len(out[0]) == 0 && !closed[0] {
				t.Fatal("the case tells nothing: no reply and no close")
			}
			same++
		})
	}
	t.Logf("%d of %d raw exchanges identical", same, len(protocolCases()))
}

func trunc(b []byte) []byte {
	if len(b) > 300 {
		return append(append([]byte(nil), b[:300]...), "…"...)
	}
	return b
}
