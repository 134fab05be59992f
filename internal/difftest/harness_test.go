package difftest

import (
	"testing"

	"redscope/internal/transcript"
)

// Pieces the differential tests share besides the lockstep harness (blocking_test.go).

// dialPair opens one connection to the reference redis-server and one to redscope; both close
// when the test ends.
func dialPair(t testing.TB, refAddr, scopeAddr string) (ref, got *transcript.Conn) {
	t.Helper()
	for _, a := range []struct {
		addr string
		c    **transcript.Conn
	}{{refAddr, &ref}, {scopeAddr, &got}} {
		c, err := transcript.Dial(a.addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		*a.c = c
	}
	return ref, got
}

// side is one server of onBothServers.
type side struct{ name, addr string }

// onBothServers runs f as a subtest on redis-server 7.0.15 (reset first) and then on redscope's
// RESP server: the client-library tests, which check what each server lets a real client do.
func onBothServers(t *testing.T, f func(t *testing.T, a side)) {
	addr := realRedis(t)
	checkRealVersion(t, addr)
	_, scopeAddr := scopeServer(t)
	rs := newResetter(t, addr)
	for _, a := range []side{{"redis-server", addr}, {"redscope", scopeAddr}} {
		t.Run(a.name, func(t *testing.T) {
			if a.name == "redis-server" {
				rs.reset(t)
			}
			f(t, a)
		})
	}
}
