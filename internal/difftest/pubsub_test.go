package difftest

import (
	"bytes"
	"errors"
	"net"
	"os"
	"regexp"
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
// order (UNSUBSCRIBE), so the script never asks for two of them at once.

type psStep struct {
	conn int
	cmd  string // inline command line (sent with \r\n)
}

func psScript() []psStep {
	return []psStep{
		{0, "PUBLISH nobody hi"},
		{0, "CLIENT REPLY SKIP"},
		{0, "PING skipped"},
		{0, "PING shown"},
		{0, "CLIENT REPLY OFF"},
		{0, "PING off"},
		{0, "CLIENT REPLY SKIP"},
		{0, "CLIENT REPLY ON"},
		{0, "CLIENT REPLY FOO"},
		{0, "CLIENT REPLY"},
		{0, "UNSUBSCRIBE"},
		{0, "PUNSUBSCRIBE"},
		{0, "SUNSUBSCRIBE"},
		{0, "SUBSCRIBE"},
		{0, "SUBSCRIBE news sport news"},
		{1, "PSUBSCRIBE n* s?ort"},
		{2, "HELLO 3"},
		{2, "SUBSCRIBE news"},
		{2, "PSUBSCRIBE *"},
		{3, "PUBLISH news hello"},
		{3, "PUBLISH sport goal"},
		{3, "PUBLISH other x"},
		{3, "PUBSUB NUMSUB news sport other"},
		{3, "CLIENT LIST TYPE pubsub"},
		{3, "CLIENT LIST TYPE normal"},
		{3, "CLIENT LIST"},
		{3, "PUBSUB NUMSUB"},
		{3, "PUBSUB NUMPAT"},
		{3, "PUBSUB CHANNELS n*"},
		{3, "PUBSUB CHANNELS s*"},
		{3, "PUBSUB CHANNELS a b"},
		{3, "PUBSUB NUMPAT x"},
		{3, "PUBSUB FOO"},
		{3, "PUBSUB"},
		{3, "PUBSUB HELP"},
		{3, "SUBSCRIBE"},
		{3, "PUBLISH a"},
		{0, "GET k"},
		{0, "SET k v"},
		{0, "CLIENT ID x"},
		{0, "CLIENT INFO"},
		{0, "NOSUCHCMD"},
		{0, "GET"},
		{0, "MULTI"},
		{0, "PUBLISH news x"},
		{0, "PING"},
		{0, "PING hello"},
		{0, "PING a b"},
		{2, "PING"},
		{2, "GET k"},
		{2, "CLIENT INFO"},
		{3, "INFO"},
		{2, "PUBLISH news self"},
		{0, "UNSUBSCRIBE news nothere"},
		{0, "UNSUBSCRIBE"},
		{0, "GET k"},
		{1, "PUNSUBSCRIBE s?ort"},
		{3, "PUBLISH sport two"},
		{1, "RESET"},
		{1, "GET k"},
		{3, "PUBLISH news after"},
		{3, "PUBSUB NUMPAT"},
		{2, "UNSUBSCRIBE"},
		{2, "PUNSUBSCRIBE"},
		{2, "GET k"},
		{3, "MULTI"},
		{3, "SUBSCRIBE tx"},
		{3, "EXEC"},
		{0, "PUBLISH tx viaexec"},
		{3, "UNSUBSCRIBE tx"},
		{3, "SSUBSCRIBE sh1 sh2"},
		{0, "SPUBLISH sh1 shard"},
		{0, "PUBSUB SHARDCHANNELS *1"},
		{0, "PUBSUB SHARDNUMSUB sh1 sh3"},
		{3, "SUBSCRIBE c1"},
		{3, "SUNSUBSCRIBE sh1"},
		{3, "SUNSUBSCRIBE"},
		{3, "SUNSUBSCRIBE"},
		{3, "GET k"},
		{3, "QUIT"},
		{2, "CLIENT REPLY OFF"},
		{2, "SUBSCRIBE late"},
		{0, "PUBLISH late m"},
		{2, "PING"},
		{2, "CLIENT REPLY ON"},
		{2, "UNSUBSCRIBE late"},
		{0, "PUBSUB NUMSUB c1"},
	}
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
	script := psScript()
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
