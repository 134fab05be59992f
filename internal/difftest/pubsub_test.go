package difftest

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Pub/Sub (server/pubsub.go) against redis-server 7.0.15: a script of commands on several raw
// connections; after every step each connection's bytes are read until it is quiet, and each
// connection's whole transcript must be byte-identical on both servers. Messages delivered to
// one connection while another publishes are part of the transcript, so their order and their
// framing (arrays in RESP2, pushes in RESP3) are compared too. Redis lists channels (PUBSUB
// CHANNELS, UNSUBSCRIBE without arguments) in the order of a dict hashed with a seed drawn at
// startup, which differs from run to run; redscope sorts them (PUBSUB) or keeps subscription
// order (UNSUBSCRIBE), so the script never asks for two of them at once. The script:
// testdata/rawscripts/pubsub.txt.

type psStep struct {
	conn int
	cmd  string // inline command line (sent with \r\n)
}

// loadRawScript reads the script testdata/rawscripts/name.txt (parseRawScript).
func loadRawScript(t *testing.T, name string) []psStep {
	t.Helper()
	path := filepath.Join("..", "..", "testdata", "rawscripts", name+".txt")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	script, err := parseRawScript(string(b))
	if err != nil {
		t.Fatalf("%s:%v", path, err)
	}
	return script
}

// parseRawScript reads a script's steps, one a line: the connection (0 to psConns-1), a space
// and the command line as sent; lines that start with # and empty lines are passed over. An
// error names the line.
func parseRawScript(text string) ([]psStep, error) {
	var script []psStep
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		n, cmd, _ := strings.Cut(line, " ")
		conn, err := strconv.Atoi(n)
		if err != nil || conn < 0 || conn >= psConns || cmd == "" {
			return nil, fmt.Errorf("%d: not a connection 0 to %d, a space and a command: %q", i+1, psConns-1, line)
		}
		script = append(script, psStep{conn, cmd})
	}
	if len(script) == 0 {
		return nil, errors.New("1: no step")
	}
	return script, nil
}

const psConns = 4

func runPubsubScript(t *testing.T, addr string, script []psStep) [psConns][]byte {
	t.Helper()
	return playRawScript(dialScriptConns(t, addr), script, nil)
}

// dialScriptConns opens the psConns raw connections of a script to addr, closed when the test
// ends.
func dialScriptConns(t *testing.T, addr string) [psConns]net.Conn {
	t.Helper()
	var conns [psConns]net.Conn
	for i := range conns {
		nc, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { nc.Close() })
		conns[i] = nc
	}
	return conns
}

// playRawScript writes each step's command to its connection and appends to that connection's
// transcript "> cmd" and everything every connection received meanwhile; rewrite (when not nil)
// turns the command as written in the transcript into the bytes sent (tracking's {idN}).
func playRawScript(conns [psConns]net.Conn, script []psStep, rewrite func(string) string) [psConns][]byte {
	var out [psConns][]byte
	buf := make([]byte, 64<<10)
	drain := func() {
		for i, nc := range conns {
			for {
				nc.SetReadDeadline(time.Now().Add(40 * time.Millisecond))
				n, err := nc.Read(buf)
				out[i] = append(out[i], buf[:n]...)
				if err != nil {
					if !errors.Is(err, os.ErrDeadlineExceeded) {
						out[i] = append(out[i], "<closed>"...)
						conns[i] = &closedConn{nc}
					}
					break
				}
			}
		}
	}
	for _, st := range script {
		cmd := st.cmd
		if rewrite != nil {
			cmd = rewrite(cmd)
		}
		out[st.conn] = append(out[st.conn], "> "+st.cmd+"\n"...)
		conns[st.conn].Write([]byte(cmd + "\r\n"))
		time.Sleep(10 * time.Millisecond)
		drain()
	}
	return out
}

// closedConn is a connection already seen closed: reads end at once.
type closedConn struct{ net.Conn }

func (closedConn) Read([]byte) (int, error)  { return 0, net.ErrClosed }
func (closedConn) Write([]byte) (int, error) { return 0, net.ErrClosed }

// normalize hides what differs between any two servers: CLIENT INFO's and HELLO's ids,
// addresses, ages and buffer sizes.
var clientInfoVar = regexp.MustCompile(`(id|addr|laddr|fd|age|idle|qbuf|qbuf-free|argv-mem|multi-mem|rbs|rbp|obl|oll|omem|tot-mem)=\S*`)

func normalize(b []byte) []byte {
	b = clientInfoVar.ReplaceAll(b, []byte("$1=*"))
	b = regexp.MustCompile(`(\$2\r\nid\r\n:)\d+`).ReplaceAll(b, []byte("$1*")) // HELLO's id
	// the length of CLIENT INFO's verbatim/bulk string follows the hidden fields
	b = regexp.MustCompile(`([$=])\d+\r\n((txt:)?id=)`).ReplaceAll(b, []byte("$1*\r\n$2"))
	return infoText.ReplaceAllFunc(b, infoPubsub)
}

// infoText is an INFO reply; only its Pub/Sub counters are compared.
var infoText = regexp.MustCompile(`(?s)\$\d+\r\n# Server\r\n.*?\r\n\r\n(> |\z)`)

func infoPubsub(b []byte) []byte {
	return keepInfoLines(b, "pubsub_channels:", "pubsub_patterns:", "pubsubshard_channels:")
}

// keepInfoLines shortens an INFO reply (with the "> " of the next command when it follows) to
// "INFO" and its lines that start with one of prefixes: the counters a script test compares.
func keepInfoLines(b []byte, prefixes ...string) []byte {
	var keep []string
	for _, l := range strings.Split(string(b), "\r\n") {
		for _, p := range prefixes {
			if strings.HasPrefix(l, p) {
				keep = append(keep, l)
				break
			}
		}
	}
	tail := ""
	if bytes.HasSuffix(b, []byte("> ")) {
		tail = "> "
	}
	return []byte("INFO " + strings.Join(keep, " ") + "\r\n" + tail)
}

func TestPubsubScript(t *testing.T) {
	script := loadRawScript(t, "pubsub")
	_, _, lines := compareScript(t, script, runPubsubScript, normalize)
	t.Logf("%d script steps on %d connections; %d transcript lines identical", len(script), psConns, lines)
}

// compareScript plays script with run on both servers (fresh) and compares their connections'
// transcripts with compareConns; it returns the transcripts of redis-server (want) and of
// redscope (got) and how many lines were identical, and fails the test when none were.
func compareScript(t *testing.T, script []psStep, run func(*testing.T, string, []psStep) [psConns][]byte,
	norm func([]byte) []byte) (want, got [psConns][]byte, lines int) {
	t.Helper()
	s := freshServers(t)
	want = run(t, s.ref, script)
	got = run(t, s.scope, script)
	lines = compareConns(t, want[:], got[:], norm)
	if lines == 0 {
		t.Fatal("nothing compared")
	}
	return want, got, lines
}

// compareConns compares each connection's transcript of a raw script run on both servers, after
// norm hides what may differ (times, ports, ids); it reports the first differing line of each
// connection and returns how many lines were identical.
func compareConns(t *testing.T, want, got [][]byte, norm func([]byte) []byte) (lines int) {
	t.Helper()
	for i := range want {
		w, g := norm(want[i]), norm(got[i])
		if !bytes.Equal(w, g) {
			wl, gl := strings.Split(string(w), "\n"), strings.Split(string(g), "\n")
			for j := 0; j < len(wl) || j < len(gl); j++ {
				var a, b string
				if j < len(wl) {
					a = wl[j]
				}
				if j < len(gl) {
					b = gl[j]
				}
				if a != b {
					t.Errorf("connection %d differs at line %d:\nredis-server: %q\nredscope:     %q\n(redis-server's transcript:\n%s)", i, j, a, b, w)
					break
				}
			}
			continue
		}
		lines += bytes.Count(w, []byte("\n"))
	}
	return lines
}

// TestParseRawScript: a script's steps as written, comments and empty lines passed over; a line
// that is no step is refused with its line number.
func TestParseRawScript(t *testing.T) {
	got, err := parseRawScript("# a comment\n\n0 PING\n3 SET \"a b\" {id1}\r\n")
	if want := []psStep{{0, "PING"}, {3, `SET "a b" {id1}`}}; err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("parseRawScript: %v %v, want %v", got, err, want)
	}
	for _, text := range []string{"# a comment\nPING\n", "#\n4 PING\n", "#\n-1 PING\n", "#\n0\n", "#\n0 \n"} {
		if _, err := parseRawScript(text); err == nil || !strings.HasPrefix(err.Error(), "2: ") {
			t.Errorf("parseRawScript(%q): %v, want an error at line 2", text, err)
		}
	}
	if _, err := parseRawScript("# only a comment\n"); err == nil {
		t.Error("a script without a step: no error")
	}
}
