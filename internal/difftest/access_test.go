package difftest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"redscope/internal/transcript"
)

// Who may connect (ACL users, requirepass, AUTH, NOAUTH, NOPERM, protected mode), compared with
// redis-server 7.0.15 over several connections per server.

// accessStep is one line of testdata/transcripts/access/*.txt: a connection name, the command
// and whether the reply is compared with its array sorted.
type accessStep struct {
	line   int
	conn   string
	args   []string
	sorted bool
}

func parseAccess(t *testing.T, path string) []accessStep {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var steps []accessStep
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		l := strings.TrimSpace(sc.Text())
		if l == "" || l[0] == '#' {
			continue
		}
		conn, cmd, ok := strings.Cut(l, "> ")
		if !ok {
			t.Fatalf("%s:%d: no connection name: %q", path, n, l)
		}
		st := accessStep{line: n, conn: strings.TrimSuffix(conn, "~"), sorted: strings.HasSuffix(conn, "~")}
		for _, a := range strings.Fields(cmd) {
			if a == `""` {
				a = ""
			}
			st.args = append(st.args, a)
		}
		steps = append(steps, st)
	}
	return steps
}

// accessSide runs steps on one server, opening each named connection at its first step, and
// returns one line per step: the raw reply (or the sorted reply's redis-cli form), or
// "closed"/"open" for !closed.
func accessSide(t *testing.T, addr string, steps []accessStep) []string {
	conns := map[string]*transcript.Conn{}
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	var out []string
	for _, st := range steps {
		c := conns[st.conn]
		if c == nil {
			var err error
			if c, err = transcript.Dial(addr); err != nil {
				t.Fatal(err)
			}
			c.Timeout = 2 * time.Second
			conns[st.conn] = c
		}
		if st.args[0] == "!closed" {
			_, _, err := c.DoStrings("PING")
			if err != nil {
				out = append(out, "closed")
			} else {
				out = append(out, "open")
			}
			continue
		}
		raw, r, err := c.DoStrings(st.args...)
		switch {
		case err != nil:
			out = append(out, "error: "+err.Error())
		case st.sorted:
			out = append(out, transcript.SortReply(r).FormatCLI())
		default:
			out = append(out, string(raw))
		}
	}
	return out
}

// TestAccessTranscripts replays testdata/transcripts/access/*.txt on redis-server 7.0.15 and on
// redscope and requires every reply byte for byte identical.
func TestAccessTranscripts(t *testing.T) {
	sv := startServers(t)
	addr, scopeAddr := sv.ref, sv.scope
	files, _ := filepath.Glob(filepath.Join(transcriptsDir, "access", "*.txt"))
	if len(files) == 0 {
		t.Fatal("no access transcripts")
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			steps := parseAccess(t, path)
			sv.srv.SetEngine(newEngine70())
			t.Cleanup(func() { cleanAccess(t, addr) })
			want := accessSide(t, addr, steps)
			cleanAccess(t, addr)
			got := accessSide(t, scopeAddr, steps)
			for i, st := range steps {
				if want[i] != got[i] {
					t.Errorf("line %d %s> %s:\nredis-server %q\nredscope     %q", st.line, st.conn, strings.Join(st.args, " "), want[i], got[i])
				}
			}
			t.Logf("%d replies compared", len(steps))
		})
	}
}

// cleanAccess puts the reference server back: no password, only the default user (a transcript
// that failed half-way may have left a password set, so the known ones are tried).
func cleanAccess(t *testing.T, addr string) {
	c, err := transcript.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, p := range []string{"s3cret", "second"} {
		if _, r, _ := c.DoStrings("PING"); !r.IsError() {
			break
		}
		c.DoStrings("AUTH", p)
	}
	c.DoStrings("CONFIG", "SET", "requirepass", "")
	c.DoStrings("ACL", "SETUSER", "default", "on", "nopass", "~*", "&*", "+@all")
	_, users, _ := c.DoStrings("ACL", "USERS")
	for _, u := range users.Array {
		if u.Str != "default" {
			c.DoStrings("ACL", "DELUSER", u.Str)
		}
	}
	c.DoStrings("FLUSHALL")
}

// nonLoopbackIP is an IPv4 address of this machine outside 127/8, or "".
func nonLoopbackIP() string {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return ""
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() {
			return n.IP.String()
		}
	}
	return ""
}

// readUntilClosed connects to addr and reads what the server sends after cmd (nil: nothing sent) until
// it closes the connection or one second passes.
func readUntilClosed(t *testing.T, addr string, cmd []byte) string {
	nc, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	if cmd != nil {
		nc.Write(cmd)
	}
	nc.SetReadDeadline(time.Now().Add(time.Second))
	var buf bytes.Buffer
	io.Copy(&buf, nc)
	return buf.String()
}

// TestProtectedMode: a server listening beyond loopback, with protected-mode yes and no
// password, sends a client from a non-loopback address Redis's DENIED error and closes; with a
// password the client gets NOAUTH instead; with protected-mode no it is served. Both servers
// listen on the machine's non-loopback address and on loopback (for CONFIG SET); the client
// connects to the non-loopback address, so its peer address is that address too.
func TestProtectedMode(t *testing.T) {
	ip := nonLoopbackIP()
	if ip == "" {
		t.Skip("no non-loopback IPv4 address on this machine (server/auth_test.go tests the decision)")
	}
	bin := need(t, "redis-server")
	port := startTestRedis(t, bin, "127.0.0.1 "+ip, t.TempDir(), "redis.log")
	refLocal, refRemote := fmt.Sprintf("127.0.0.1:%d", port), fmt.Sprintf("%s:%d", ip, port)
	_, listening := scopeServerAt(t, "0.0.0.0:0")
	_, sp, _ := net.SplitHostPort(listening)
	scopeLocal, scopeRemote := "127.0.0.1:"+sp, net.JoinHostPort(ip, sp)
	ping := []byte("PING\r\n")
	compare := func(what string, cmd []byte) string {
		a, b := readUntilClosed(t, refRemote, cmd), readUntilClosed(t, scopeRemote, cmd)
		if a != b {
			t.Errorf("%s:\nredis-server %q\nredscope     %q", what, a, b)
		}
		return b
	}
	if got := compare("remote client, no password", nil); !strings.HasPrefix(got, "-DENIED Redis is running in protected mode") {
		t.Errorf("remote client: %q, want the DENIED error", got)
	}
	if got := readUntilClosed(t, scopeLocal, ping); got != "+PONG\r\n" {
		t.Errorf("local client: %q", got)
	}
	set := func(args ...string) {
		for _, a := range []string{refLocal, scopeLocal} {
			c, err := transcript.Dial(a)
			if err != nil {
				t.Fatal(err)
			}
			c.DoStrings("AUTH", "pw")
			if _, r, err := c.DoStrings(args...); err != nil || r.IsError() {
				t.Fatalf("%s %v: %v %s", a, args, err, r.FormatCLI())
			}
			c.Close()
		}
	}
	set("CONFIG", "SET", "requirepass", "pw")
	if got := compare("remote client, requirepass set", ping); got != "-NOAUTH Authentication required.\r\n" {
		t.Errorf("remote client with a password set: %q", got)
	}
	compare("remote client, AUTH", []byte("AUTH pw\r\nPING\r\n"))
	set("CONFIG", "SET", "requirepass", "")
	set("CONFIG", "SET", "protected-mode", "no")
	if got := compare("remote client, protected-mode no", ping); got != "+PONG\r\n" {
		t.Errorf("remote client, protected-mode no: %q", got)
	}
}
