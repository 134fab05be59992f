package difftest

// RESP3 differential test: testdata/transcripts/resp3/*.txt are replayed, on raw TCP connections,
// against Debian's redis-server 7.0.15 and an in-process redscope server, and the raw reply bytes
// are compared. A file switches its connection to RESP3 itself (HELLO 3 as one of its lines), so
// HELLO's own reply is compared too, and HELLO 2 in the middle of a file checks the way back.
//
// Lines of a file:
//
//	# comment                 (and blank lines) ignored
//	> CMD arg …               the two servers' reply bytes must be identical
//	>shape CMD arg …          only the reply's skeleton must match: every element's RESP3 type
//	                          byte, every aggregate's length and a verbatim string's format, not
//	                          the scalars' contents (HELLO's id, CLIENT INFO's addr, INFO's text)
//	>sorted CMD arg …         identical once the elements of every set and the pairs of every
//	                          map are sorted (hashtable-encoded values list in hash order)
//
// Arguments are split as redis-cli splits a line (quotes, \x escapes).

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"redscope/engine"
)

// resp3Conn is a raw connection that writes commands as multibulk and reads whole replies of
// any RESP2/RESP3 type as their bytes.
type resp3Conn struct {
	nc net.Conn
	br *bufio.Reader
}

func dialResp3(t testing.TB, addr string) *resp3Conn {
	t.Helper()
	nc, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	return &resp3Conn{nc: nc, br: bufio.NewReader(nc)}
}

func (c *resp3Conn) do(args [][]byte) ([]byte, error) {
	var b []byte
	b = append(b, '*')
	b = strconv.AppendInt(b, int64(len(args)), 10)
	b = append(b, '\r', '\n')
	for _, a := range args {
		b = append(b, '$')
		b = strconv.AppendInt(b, int64(len(a)), 10)
		b = append(b, '\r', '\n')
		b = append(b, a...)
		b = append(b, '\r', '\n')
	}
	c.nc.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := c.nc.Write(b); err != nil {
		return nil, err
	}
	var raw []byte
	n, err := readResp3(c.br, &raw, 0)
	for err == nil && n.typ == '>' {
		// A push message is no reply: the command's reply follows it (kept in raw).
		n, err = readResp3(c.br, &raw, 0)
	}
	return raw, err
}

// resp3Node is a parsed reply: its type byte, its header text (a length or a scalar's line) and
// its children (an aggregate's elements; a map's keys and values in turn).
type resp3Node struct {
	typ  byte
	head string
	body []byte // a bulk / verbatim / blob error's payload
	kids []*resp3Node
}

// readResp3 reads one reply, appending its bytes to raw.
func readResp3(br *bufio.Reader, raw *[]byte, depth int) (*resp3Node, error) {
	if depth > 100 {
		return nil, fmt.Errorf("reply nested too deep")
	}
	line, err := br.ReadBytes('\n')
	if err != nil {
		return nil, err
	}
	*raw = append(*raw, line...)
	if len(line) < 3 || line[len(line)-2] != '\r' {
		return nil, fmt.Errorf("bad reply line %q", line)
	}
	n := &resp3Node{typ: line[0], head: string(line[1 : len(line)-2])}
	switch n.typ {
	case '+', '-', ':', ',', '#', '_', '(':
		return n, nil
	case '$', '=', '!':
		l, err := strconv.Atoi(n.head)
		if err != nil {
			return nil, fmt.Errorf("bad length in %q", line)
		}
		if l < 0 {
			return n, nil
		}
		buf := make([]byte, l+2)
		if _, err := io.ReadFull(br, buf); err != nil {
			return nil, err
		}
		*raw = append(*raw, buf...)
		n.body = buf[:l]
		return n, nil
	case '*', '~', '%', '>', '|':
		l, err := strconv.Atoi(n.head)
		if err != nil {
			return nil, fmt.Errorf("bad length in %q", line)
		}
		if n.typ == '%' || n.typ == '|' {
			l *= 2
		}
		for i := 0; i < l; i++ {
			k, err := readResp3(br, raw, depth+1)
			if err != nil {
				return nil, err
			}
			n.kids = append(n.kids, k)
		}
		return n, nil
	}
	return nil, fmt.Errorf("unknown reply type %q", line)
}

func parseResp3(raw []byte) (*resp3Node, error) {
	var sink []byte
	return readResp3(bufio.NewReader(bytes.NewReader(raw)), &sink, 0)
}

// skeleton is a reply's shape: types, aggregate lengths, verbatim formats.
func (n *resp3Node) skeleton(b *strings.Builder) {
	b.WriteByte(n.typ)
	switch n.typ {
	case '*', '~', '%', '>', '|':
		b.WriteString(n.head)
		b.WriteByte('[')
		for i, k := range n.kids {
			if i > 0 {
				b.WriteByte(' ')
			}
			k.skeleton(b)
		}
		b.WriteByte(']')
	case '=':
		if len(n.body) >= 4 {
			b.Write(n.body[:4])
		}
	case '_':
	}
}

// canonical re-encodes a reply with sets' elements and maps' pairs sorted.
func (n *resp3Node) canonical() string {
	var b strings.Builder
	b.WriteByte(n.typ)
	b.WriteString(n.head)
	b.WriteString("\r\n")
	switch n.typ {
	case '~':
		parts := make([]string, len(n.kids))
		for i, k := range n.kids {
			parts[i] = k.canonical()
		}
		sort.Strings(parts)
		b.WriteString(strings.Join(parts, ""))
	case '%':
		parts := make([]string, 0, len(n.kids)/2)
		for i := 0; i+1 < len(n.kids); i += 2 {
			parts = append(parts, n.kids[i].canonical()+n.kids[i+1].canonical())
		}
		sort.Strings(parts)
		b.WriteString(strings.Join(parts, ""))
	default:
		for _, k := range n.kids {
			b.WriteString(k.canonical())
		}
		if n.body != nil {
			b.Write(n.body)
			b.WriteString("\r\n")
		}
	}
	return b.String()
}

type resp3Step struct {
	line int
	mode string // "", "shape", "sorted"
	cmd  string
	args [][]byte
}

func parseResp3File(path string) ([]resp3Step, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var steps []resp3Step
	for i, l := range strings.Split(string(data), "\n") {
		l = strings.TrimRight(l, "\r")
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if !strings.HasPrefix(l, ">") {
			return nil, fmt.Errorf("%s:%d: a line is a comment or a command (> …)", path, i+1)
		}
		mode, rest, _ := strings.Cut(l[1:], " ")
		if mode != "" && mode != "shape" && mode != "sorted" {
			return nil, fmt.Errorf("%s:%d: unknown mode %q", path, i+1, mode)
		}
		args, err := engine.SplitArgs(rest)
		if err != nil || len(args) == 0 {
			return nil, fmt.Errorf("%s:%d: bad command %q: %v", path, i+1, rest, err)
		}
		steps = append(steps, resp3Step{line: i + 1, mode: mode, cmd: rest, args: args})
	}
	return steps, nil
}

// TestResp3Transcripts replays every RESP3 transcript against both servers.
func TestResp3Transcripts(t *testing.T) {
	ref := realRedis(t)
	checkRealVersion(t, ref)
	rs := newResetter(t, ref)
	total, same := 0, 0
	for _, path := range resp3Files(t) {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txt"), func(t *testing.T) {
			steps := mustParseResp3(t, path)
			rs.reset(t)
			_, scope := scopeServer(t)
			rc, sc := dialResp3(t, ref), dialResp3(t, scope)
			for _, st := range steps {
				want, err := rc.do(st.args)
				if err != nil {
					t.Fatalf("line %d %s: redis-server: %v", st.line, st.cmd, err)
				}
				got, err := sc.do(st.args)
				if err != nil {
					t.Fatalf("line %d %s: redscope: %v", st.line, st.cmd, err)
				}
				total++
				ok, how := resp3Equal(st.mode, want, got)
				if ok {
					same++
					continue
				}
				t.Errorf("line %d > %s (%s)\nredis-server: %q\nredscope:     %q", st.line, st.cmd, how, want, got)
			}
		})
	}
	t.Logf("RESP3: %d commands compared, %d identical", total, same)
}

func resp3Equal(mode string, want, got []byte) (bool, string) {
	switch mode {
	case "shape", "sorted":
		w, err1 := parseResp3(want)
		g, err2 := parseResp3(got)
		if err1 != nil || err2 != nil {
			return false, fmt.Sprintf("unparsable: %v %v", err1, err2)
		}
		if mode == "sorted" {
			return w.canonical() == g.canonical(), "sorted"
		}
		var a, b strings.Builder
		w.skeleton(&a)
		g.skeleton(&b)
		return a.String() == b.String(), "shape " + a.String() + " vs " + b.String()
	}
	return bytes.Equal(want, got), "bytes"
}

// TestResp3RedisCLI pipes the exactly-compared commands of the RESP3 transcripts into
// `redis-cli -3` (which says HELLO 3 when it connects and prints maps as `1# "k" => "v"`,
// doubles as `(double) 1.5`, sets with `~`, booleans as `(true)`) against both servers; the two
// printouts must be identical.
func TestResp3RedisCLI(t *testing.T) {
	cli, ref, rs := resp3CLISetup(t)
	lines := 0
	for _, path := range resp3Files(t) {
		steps := mustParseResp3(t, path)
		var in strings.Builder
		for _, st := range steps {
			// (redis-cli 7.0 stops at a big number, "Unknown reply type: 13", and at an
			// attribute, "Protocol error, got "|" as reply type byte")
			if st.mode == "" && !strings.Contains(st.cmd, "big_number") && !strings.Contains(st.cmd, "bignum") &&
				!strings.Contains(st.cmd, "attrib") {
				in.WriteString(st.cmd)
				in.WriteByte('\n')
			}
		}
		rs.reset(t)
		_, scope := scopeServer(t)
		want, got := runCLI(t, cli, ref, in.String(), "-3"), runCLI(t, cli, scope, in.String(), "-3")
		if i, w, g, differ := firstLineDiff(want, got); differ {
			t.Fatalf("%s: redis-cli -3 output line %d differs:\nredis-server: %q\nredscope:     %q", filepath.Base(path), i+1, w, g)
		}
		lines += strings.Count(want, "\n") + 1
		if !strings.Contains(want, "(double)") && strings.Contains(path, "types") {
			t.Fatalf("redis-cli did not speak RESP3 (no (double) in its output)")
		}
	}
	t.Logf("redis-cli -3: %d output lines identical", lines)
}

// TestResp3FormatCLI checks engine.Reply.FormatCLI3 against redis-cli -3: the exactly-compared
// commands of the RESP3 transcripts (but the connection commands the protocol server answers:
// HELLO, CLIENT, INFO, RESET; and DEBUG, whose HTSTATS replies redis-cli prints raw whatever
// their type) run on an engine and are formatted with FormatCLI3; the same
// commands piped into `redis-cli -3` against redis-server must print the same lines.
func TestResp3FormatCLI(t *testing.T) {
	cli, ref, rs := resp3CLISetup(t)
	compared := 0
	for _, path := range resp3Files(t) {
		steps := mustParseResp3(t, path)
		e := newEngine70()
		var in, got strings.Builder
		for _, st := range steps {
			name := strings.ToLower(string(st.args[0]))
			if st.mode != "" || strings.Contains(st.cmd, "big_number") || name == "hello" ||
				name == "client" || name == "info" || name == "reset" || name == "debug" {
				continue
			}
			in.WriteString(st.cmd)
			in.WriteByte('\n')
			got.WriteString(e.Exec(st.args).Reply.FormatCLI3())
			compared++
		}
		// (redis-cli prints an error differently when it is the last reply of its input)
		in.WriteString("PING\n")
		got.WriteString("PONG\n")
		rs.reset(t)
		out := runCLI(t, cli, ref, in.String(), "-3")
		if i, w, g, differ := firstLineDiff(out, got.String()); differ {
			t.Fatalf("%s: line %d:\nredis-cli -3: %q\nFormatCLI3:   %q", filepath.Base(path), i+1, w, g)
		}
	}
	t.Logf("FormatCLI3: %d replies printed as redis-cli -3 prints them", compared)
}

// resp3CLISetup is the opening of the redis-cli -3 tests: redis-cli, the real server (checked
// to be 7.0) and its resetter.
func resp3CLISetup(t *testing.T) (cli, ref string, rs *resetter) {
	cli = need(t, "redis-cli")
	ref = realRedis(t)
	checkRealVersion(t, ref)
	return cli, ref, newResetter(t, ref)
}

// resp3Files lists the RESP3 transcripts (there must be some).
func resp3Files(t *testing.T) []string {
	files, err := filepath.Glob(filepath.Join(transcriptsDir, "resp3", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no RESP3 transcripts: %v", err)
	}
	return files
}

// mustParseResp3 is parseResp3File, failing the test on a bad file.
func mustParseResp3(t *testing.T, path string) []resp3Step {
	steps, err := parseResp3File(path)
	if err != nil {
		t.Fatal(err)
	}
	return steps
}
