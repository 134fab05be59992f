package transcript

import (
	"net"
	"strings"
	"testing"

	"redscope/engine"
	"redscope/engine/alloc"
	"redscope/server"
)

const sample = `# a comment
@version 7.2
@allocator jemalloc-16

> PING
PONG
> ECHO "a b\x41"
"a bA"
# comment between steps
> @sort ECHO x
"x"
> ECHO 'it\'s'
> NOPE 1
(error) ERR unknown command 'NOPE', with args beginning with: '1'
`

// mustParse parses the transcript src; an error fails the test.
func mustParse(t *testing.T, name, src string) *File {
	t.Helper()
	f, err := Parse(name, strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// mustDial connects to addr until the test ends; an error fails the test.
func mustDial(t *testing.T, addr string) *Conn {
	t.Helper()
	c, err := Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestParse(t *testing.T) {
	f := mustParse(t, "sample.txt", sample)
	if f.Version != engine.V72 || !f.HasAllocator || f.Allocator != alloc.Jemalloc16 {
		t.Fatalf("header: version %v allocator %v/%v", f.Version, f.Allocator, f.HasAllocator)
	}
	if len(f.Steps) != 5 {
		t.Fatalf("%d steps, want 5", len(f.Steps))
	}
	st := f.Steps[1]
	if st.Line != 7 || st.Text != `ECHO "a b\x41"` || len(st.Args) != 2 || string(st.Args[1]) != "a bA" ||
		len(st.Want) != 1 || st.Want[0] != `"a bA"` {
		t.Fatalf("step 2: %+v", st)
	}
	if !f.Steps[2].Sort || f.Steps[2].Text != "ECHO x" {
		t.Fatalf("step 3: %+v", f.Steps[2])
	}
	if f.Steps[3].Want != nil || string(f.Steps[3].Args[1]) != "it's" {
		t.Fatalf("step 4: %+v", f.Steps[3])
	}
	// The unknown-command error ends with a space that editors strip: still equal.
	if f.Steps[4].Want[0] != "(error) ERR unknown command 'NOPE', with args beginning with: '1'" {
		t.Fatalf("step 5: %q", f.Steps[4].Want)
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"@version 6.2\n", "x.txt:1: bad @version"},
		{"@allocator tcmalloc\n", "x.txt:1: bad @allocator"},
		{"@versoin 7.0\n", "x.txt:1: unknown header"},
		{"# c\nOK\n", "x.txt:2: reply line"},
		{"> SET \"a\n", "x.txt:1: cannot split"},
		{">   \n", "x.txt:1: empty command"},
	} {
		_, err := Parse("x.txt", strings.NewReader(c.in))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.in, err, c.want)
		}
	}
}

func TestRunEngine(t *testing.T) {
	f := mustParse(t, "p.txt", "@version 8.8\n> PING\nPONG\n> ECHO hi\n\"ho\"\n> PING x\n")
	fails, err := RunEngine(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(fails) != 2 {
		t.Fatalf("%d failures, want 2: %v", len(fails), fails)
	}
	s := fails[0].String()
	for _, w := range []string{"p.txt:4: > ECHO hi", `"ho"`, `"hi"`} {
		if !strings.Contains(s, w) {
			t.Errorf("failure text lacks %q:\n%s", w, s)
		}
	}
	if fails[1].Line != 6 || !strings.Contains(fails[1].String(), "no expected lines") {
		t.Errorf("missing expected lines not reported: %s", fails[1])
	}
	f.Version = 0
	if _, err := RunEngine(f); err == nil {
		t.Error("a profile transcript without @version ran")
	}
}

func TestCheckWantSorted(t *testing.T) {
	st := &Step{Sort: true, Want: []string{`1) "b"`, `2) "a"`, `3) "c"`}}
	r := engine.Array(engine.BulkStr("c"), engine.BulkStr("a"), engine.BulkStr("b"))
	if ok, got := CheckWant(st, SortReply(r)); !ok {
		t.Fatalf("sorted compare failed: %s", got)
	}
	st.Want[2] = `3) "d"`
	if ok, _ := CheckWant(st, SortReply(r)); ok {
		t.Fatal("a different element passed")
	}
	st.Sort = false
	st.Want = []string{`1) "b"`, `2) "a"`, `3) "c"`}
	if ok, _ := CheckWant(st, r); ok {
		t.Fatal("unsorted compare ignored the order")
	}
}

func startServer(t *testing.T, v engine.Version) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	server.PoisonInput = true // a command that keeps an argument without copying it shows (server/loop.go)
	srv := server.New(engine.New(engine.Options{Version: v, Allocator: alloc.Jemalloc16, Clock: engine.WallClock{}}))
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// TestRunDiff compares two redscope servers of different profiles: HELLO's version differs, and
// an expected line that both servers contradict is reported too.
func TestRunDiff(t *testing.T) {
	a, b := startServer(t, engine.V70), startServer(t, engine.V88)
	f := mustParse(t, "d.txt", "> PING\n> HELLO 2\n> ECHO x\n\"y\"\n> @sort ECHO z\n")
	fails, err := RunDiff(f, mustDial(t, a), mustDial(t, b))
	if err != nil {
		t.Fatal(err)
	}
	if len(fails) != 2 || fails[0].Line != 2 || fails[0].What != "redis" || fails[1].Line != 3 || fails[1].What != "want" {
		t.Fatalf("failures: %v", fails)
	}
	if !strings.Contains(fails[0].String(), `"7.0.15"`) || !strings.Contains(fails[0].String(), `"8.8.0"`) {
		t.Errorf("HELLO difference not shown:\n%s", fails[0])
	}
}

// TestConnReplies decodes every RESP2 reply kind and keeps the exact bytes.
func TestConnReplies(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	const wire = "+OK\r\n-ERR x\r\n:-42\r\n$3\r\na\r\n\r\n$-1\r\n*-1\r\n*2\r\n*0\r\n$0\r\n\r\n"
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		buf := make([]byte, 4096)
		c.Read(buf)
		c.Write([]byte(wire))
		c.Read(buf)
	}()
	c := mustDial(t, ln.Addr().String())
	c.Send([][]byte{[]byte("X")})
	c.Flush()
	var raws []string
	var cli []string
	for i := 0; i < 7; i++ {
		raw, r, err := c.Receive()
		if err != nil {
			t.Fatal(err)
		}
		raws = append(raws, string(raw))
		cli = append(cli, r.FormatCLI())
		if string(r.AppendRESP2(nil)) != string(raw) {
			t.Errorf("reply %d re-encodes to %q, raw %q", i, r.AppendRESP2(nil), raw)
		}
	}
	if strings.Join(raws, "") != wire {
		t.Errorf("raw bytes %q", strings.Join(raws, ""))
	}
	want := []string{"OK\n", "(error) ERR x\n", "(integer) -42\n", "\"a\\r\\n\"\n", "(nil)\n", "(nil)\n", "1) (empty array)\n2) \"\"\n"}
	for i := range want {
		if cli[i] != want[i] {
			t.Errorf("reply %d prints %q, want %q", i, cli[i], want[i])
		}
	}
}
