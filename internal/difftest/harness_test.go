package difftest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"redscope/internal/transcript"
	"redscope/server"

	"github.com/redis/go-redis/v9"
)

// Pieces the differential tests share besides the lockstep harness (blocking_test.go).

// servers is what a differential test compares: the reference redis-server 7.0.15 listening
// at ref, and redscope's in-process RESP server srv listening at scope; rs puts the reference
// back to the state it was found in.
type servers struct {
	ref, scope string
	srv        *server.Server
	rs         *resetter
}

// startServers starts both servers (the reference once per test binary, checked to be 7.0)
// and takes the reference's configuration as the state to reset to.
func startServers(t testing.TB) *servers {
	t.Helper()
	addr := realRedis(t)
	checkRealVersion(t, addr)
	srv, scopeAddr := scopeServer(t)
	return &servers{ref: addr, scope: scopeAddr, srv: srv, rs: newResetter(t, addr)}
}

// fresh empties both servers: the reference is reset (FLUSHALL, every changed config
// parameter restored) and redscope gets a new engine.
func (s *servers) fresh(t testing.TB) {
	t.Helper()
	s.rs.reset(t)
	s.srv.SetEngine(newEngine70())
}

// freshServers is startServers and fresh, with the reference reset again when the test ends,
// so that what the test changed does not leak into the tests that run after it.
func freshServers(t testing.TB) *servers {
	t.Helper()
	s := startServers(t)
	s.fresh(t)
	t.Cleanup(func() { s.rs.reset(t) })
	return s
}

// refConn is one connection to the reference redis-server (checked to be 7.0), closed when the
// test ends.
func refConn(t testing.TB) *transcript.Conn {
	t.Helper()
	addr := realRedis(t)
	checkRealVersion(t, addr)
	return dialConn(t, addr)
}

// dialConn is one connection to addr, closed when the test ends.
func dialConn(t testing.TB, addr string) *transcript.Conn {
	t.Helper()
	c, err := transcript.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// dialPair opens one connection to the reference redis-server and one to redscope; both close
// when the test ends.
func dialPair(t testing.TB, refAddr, scopeAddr string) (ref, got *transcript.Conn) {
	t.Helper()
	return dialConn(t, refAddr), dialConn(t, scopeAddr)
}

// freshPair connects to the real redis-server (reset now and when the test ends) and to a fresh
// in-process redscope with a new 7.0 engine (freshServers, then dialPair).
func freshPair(t testing.TB) (ref, got *transcript.Conn) {
	t.Helper()
	sv := freshServers(t)
	return dialPair(t, sv.ref, sv.scope)
}

// workQueue is the course's worker pattern with go-redis on addr: workers goroutines, each with
// its own client, call take until it answers redis.Nil (nothing came for its block time: that
// worker is done), while push adds the jobs job:00 … job:NN, pausing after every ten so that
// the workers drain the queue and block again. Every job must be taken exactly once and every
// worker end without an error.
func workQueue(t *testing.T, ctx context.Context, addr string, workers, jobs int,
	take func(rdb *redis.Client, w int) ([]string, error), push func(job string) error) {
	t.Helper()
	done := make(chan string, jobs)
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		go func() {
			rdb := redis.NewClient(&redis.Options{Addr: addr, Protocol: 2})
			defer rdb.Close()
			for {
				taken, err := take(rdb, w)
				if err == redis.Nil {
					errs <- nil
					return
				}
				if err != nil {
					errs <- err
					return
				}
				for _, j := range taken {
					done <- j
				}
			}
		}()
	}
	for i := 0; i < jobs; i++ {
		if err := push(fmt.Sprintf("job:%02d", i)); err != nil {
			t.Fatal(err)
		}
		if i%10 == 9 {
			time.Sleep(20 * time.Millisecond) // let the workers drain and block again
		}
	}
	seen := map[string]bool{}
	for len(seen) < jobs {
		select {
		case j := <-done:
			if seen[j] {
				t.Fatalf("%s taken twice", j)
			}
			seen[j] = true
		case err := <-errs:
			t.Fatalf("worker: %v", err)
		case <-ctx.Done():
			t.Fatalf("only %d jobs done", len(seen))
		}
	}
	for w := 0; w < workers; w++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

// side is one server of onBothServers.
type side struct{ name, addr string }

// client is a go-redis client (RESP2) of the server, closed when the test ends.
func (a side) client(t *testing.T) *redis.Client {
	rdb := redis.NewClient(&redis.Options{Addr: a.addr, Protocol: 2})
	t.Cleanup(func() { rdb.Close() })
	return rdb
}

// within is a context that ends after d, or when the test ends.
func within(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// onBothServers runs f as a subtest on redis-server 7.0.15 (reset first) and then on redscope's
// RESP server: the client-library tests, which check what each server lets a real client do.
func onBothServers(t *testing.T, f func(t *testing.T, a side)) {
	s := startServers(t)
	for _, a := range []side{{"redis-server", s.ref}, {"redscope", s.scope}} {
		t.Run(a.name, func(t *testing.T) {
			if a.name == "redis-server" {
				s.rs.reset(t)
			}
			f(t, a)
		})
	}
}
