package server

import (
	"net"
	"strings"
	"testing"

	"redscope/engine"
)

// TestProtectedDecision is clientAcceptHandler's decision without a network: only 127.0.0.1,
// ::1 and unix sockets are local; a remote peer is refused while protected-mode is yes and the
// default user has no password.
func TestProtectedDecision(t *testing.T) {
	e := engine.New(engine.Options{Version: engine.V70})
	remote := &net.TCPAddr{IP: net.ParseIP("192.0.2.7"), Port: 5000}
	for _, a := range []struct {
		addr  net.Addr
		local bool
	}{
		{&net.TCPAddr{IP: net.ParseIP("127.0.0.1")}, true},
		{&net.TCPAddr{IP: net.ParseIP("::1")}, true},
		{&net.TCPAddr{IP: net.ParseIP("127.0.0.2")}, false}, // islocalClient compares the text
		{remote, false},
		{&net.UnixAddr{Name: "/tmp/redis.sock"}, true},
	} {
		if got := protectedRefuses(e, a.addr); got != !a.local {
			t.Errorf("%v: refused %v", a.addr, got)
		}
	}
	exec := func(args ...string) {
		var b [][]byte
		for _, x := range args {
			b = append(b, []byte(x))
		}
		if r := e.Exec(b).Reply; r.IsError() {
			t.Fatal(r.Str)
		}
	}
	exec("CONFIG", "SET", "requirepass", "pw")
	if protectedRefuses(e, remote) {
		t.Error("refused with a password set")
	}
	exec("CONFIG", "SET", "requirepass", "")
	exec("CONFIG", "SET", "protected-mode", "no")
	if protectedRefuses(e, remote) {
		t.Error("refused with protected-mode no")
	}
	if !strings.HasPrefix(deniedText, "-DENIED Redis is running in protected mode") || !strings.HasSuffix(deniedText, "from the outside.\r\n") {
		t.Errorf("denied text %q", deniedText)
	}
}
