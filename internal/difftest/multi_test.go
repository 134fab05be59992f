package difftest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"redscope/engine"
	"redscope/internal/transcript"
)

// txStep is one step of a multi-connection transaction scenario: a command on connection Conn,
// or a pause (wall time, so that TTLs pass on both servers).
type txStep struct {
	Conn  int
	Cmd   string
	Want  string        // expected redis-cli output without the final newline; "" = not checked
	Sleep time.Duration // a pause instead of a command
}

func at(conn int, cmd string, want ...string) txStep {
	return txStep{Conn: conn, Cmd: cmd, Want: strings.Join(want, "\n")}
}

func pause(d time.Duration) txStep { return txStep{Sleep: d} }

// txScenarios: WATCH across connections, databases, flushes and expiry. Every expected reply was
// seen on redis-server 7.0.15; the test also compares each raw reply of the two servers.
var txScenarios = []struct {
	name  string
	steps []txStep
}{
	{"other connection writes", []txStep{
		at(0, "SET k 1"), at(0, "WATCH k", "OK"), at(1, "SET k 2", "OK"),
		at(0, "MULTI", "OK"), at(0, "INCR k", "QUEUED"), at(0, "EXEC", "(nil)"), at(0, "GET k", `"2"`),
	}},
	{"other connection reads", []txStep{
		at(0, "SET k 1"), at(0, "WATCH k"), at(1, "GET k", `"1"`), at(1, "TTL k"), at(1, "EXISTS k"),
		at(0, "MULTI"), at(0, "INCR k"), at(0, "EXEC", "1) (integer) 2"),
	}},
	{"no-op writes of the other connection", []txStep{
		at(0, "SADD k a"), at(0, "WATCH k"), at(1, "SADD k a", "(integer) 0"), at(1, "SREM k zz", "(integer) 0"),
		at(1, "EXPIRE k 100 XX", "(integer) 0"), at(0, "MULTI"), at(0, "SCARD k"), at(0, "EXEC", "1) (integer) 1"),
	}},
	{"every watcher is touched", []txStep{
		at(0, "WATCH k"), at(2, "WATCH k j"), at(1, "SET k x"),
		at(0, "MULTI"), at(0, "PING"), at(0, "EXEC", "(nil)"),
		at(2, "MULTI"), at(2, "PING"), at(2, "EXEC", "(nil)"),
	}},
	{"a transaction of another connection touches", []txStep{
		at(0, "WATCH k"), at(1, "MULTI"), at(1, "SET k x", "QUEUED"),
		at(0, "MULTI"), at(0, "PING"), at(0, "EXEC", "1) PONG"), // queued only: nothing changed yet
		at(0, "WATCH k"), at(1, "EXEC", "1) OK"),
		at(0, "MULTI"), at(0, "PING"), at(0, "EXEC", "(nil)"),
	}},
	{"writes inside EXEC do not touch the writer", []txStep{
		at(0, "WATCH k"), at(0, "MULTI"), at(0, "SET k 1"), at(1, "GET k", "(nil)"),
		at(0, "EXEC", "1) OK"), at(1, "GET k", `"1"`),
	}},
	{"databases", []txStep{
		at(0, "SELECT 1"), at(0, "WATCH k"), at(1, "SET k x"),
		at(0, "MULTI"), at(0, "PING"), at(0, "EXEC", "1) PONG"),
		at(0, "WATCH k"), at(1, "SELECT 1"), at(1, "SET k x"),
		at(0, "MULTI"), at(0, "PING"), at(0, "EXEC", "(nil)"),
	}},
	{"FLUSHDB and FLUSHALL touch existing watched keys", []txStep{
		at(0, "WATCH k"), at(1, "FLUSHALL", "OK"),
		at(0, "MULTI"), at(0, "PING"), at(0, "EXEC", "1) PONG"),
		at(1, "SET k x"), at(0, "WATCH k"), at(1, "SELECT 3"), at(1, "FLUSHDB"),
		at(0, "MULTI"), at(0, "PING"), at(0, "EXEC", "1) PONG"),
		at(0, "WATCH k"), at(1, "FLUSHALL"),
		at(0, "MULTI"), at(0, "PING"), at(0, "EXEC", "(nil)"),
	}},
	{"a key that expires after WATCH", []txStep{
		at(0, "SET k v PX 100"), at(0, "WATCH k"), pause(250 * time.Millisecond),
		at(0, "MULTI"), at(0, "PING"), at(0, "EXEC", "(nil)"),
	}},
	{"a key already expired at WATCH", []txStep{
		// (the real server's active expiry may delete the key first: that is no change either)
		at(0, "SET k v PX 50"), pause(150 * time.Millisecond), at(0, "WATCH k"),
		at(0, "MULTI"), at(0, "PING"), at(0, "EXEC", "1) PONG"),
		// its lazy deletion by another connection is no change
		at(0, "SET k v PX 50"), pause(150 * time.Millisecond), at(0, "WATCH k"), at(1, "GET k", "(nil)"),
		at(0, "MULTI"), at(0, "PING"), at(0, "EXEC", "1) PONG"),
		// nor is FLUSHDB
		at(0, "SET k v PX 50"), pause(150 * time.Millisecond), at(0, "WATCH k"), at(1, "FLUSHDB"),
		at(0, "MULTI"), at(0, "PING"), at(0, "EXEC", "1) PONG"),
		// but a new value is
		at(0, "SET k v PX 50"), pause(150 * time.Millisecond), at(0, "WATCH k"), at(1, "SET k w"),
		at(0, "MULTI"), at(0, "PING"), at(0, "EXEC", "(nil)"),
	}},
	{"a key created with a TTL after WATCH", []txStep{
		at(0, "WATCH k"), at(1, "SET k v PX 50"), pause(150 * time.Millisecond),
		at(0, "MULTI"), at(0, "PING"), at(0, "EXEC", "(nil)"),
	}},
	{"queueing errors win over touched keys", []txStep{
		at(0, "WATCH k"), at(1, "SET k 1"), at(0, "MULTI"), at(0, "NOSUCH"),
		at(0, "EXEC", "(error) EXECABORT Transaction discarded because of previous errors."),
	}},
	{"a dirty client watches nothing more, UNWATCH cleans it", []txStep{
		at(0, "WATCH k"), at(1, "SET k 1"), at(0, "WATCH j"), at(0, "UNWATCH"), at(1, "SET k 2"),
		at(0, "MULTI"), at(0, "PING"), at(0, "EXEC", "1) PONG"),
	}},
	{"RESET forgets the watched keys", []txStep{
		at(0, "WATCH k"), at(0, "RESET", "RESET"), at(1, "SET k 1"),
		at(0, "MULTI"), at(0, "PING"), at(0, "EXEC", "1) PONG"),
	}},
}

// TestMultiWatchTwoConnections plays txScenarios on redis-server 7.0.15 and on redscope, three
// connections each; every reply must be byte-identical.
func TestMultiWatchTwoConnections(t *testing.T) {
	addr := realRedis(t)
	checkRealVersion(t, addr)
	srv, scopeAddr := scopeServer(t)
	rs := newResetter(t, addr)
	for _, sc := range txScenarios {
		t.Run(sc.name, func(t *testing.T) {
			rs.reset(t)
			srv.SetEngine(newEngine70())
			dial := func(a string) []*transcript.Conn {
				var cs []*transcript.Conn
				for i := 0; i < 3; i++ {
					c, err := transcript.Dial(a)
					if err != nil {
						t.Fatal(err)
					}
					t.Cleanup(func() { c.Close() })
					cs = append(cs, c)
				}
				return cs
			}
			ref, got := dial(addr), dial(scopeAddr)
			for i, st := range sc.steps {
				if st.Sleep > 0 {
					time.Sleep(st.Sleep)
					continue
				}
				args, err := engine.SplitArgs(st.Cmd)
				if err != nil {
					t.Fatal(err)
				}
				refRaw, refR, err := ref[st.Conn].Do(args)
				if err != nil {
					t.Fatalf("step %d %q: redis-server: %v", i, st.Cmd, err)
				}
				refRaw = append([]byte(nil), refRaw...)
				gotRaw, gotR, err := got[st.Conn].Do(args)
				if err != nil {
					t.Fatalf("step %d %q: redscope: %v", i, st.Cmd, err)
				}
				if !bytes.Equal(refRaw, gotRaw) {
					t.Errorf("step %d, connection %d, %s:\nredis-server: %sredscope:     %s", i, st.Conn, st.Cmd, refR.FormatCLI(), gotR.FormatCLI())
				}
				if st.Want != "" {
					if g := strings.TrimSuffix(refR.FormatCLI(), "\n"); g != st.Want {
						t.Errorf("step %d, connection %d, %s: redis-server answered %q, the test expects %q", i, st.Conn, st.Cmd, g, st.Want)
					}
				}
			}
		})
	}
}

// TestGoRedisWatch is the optimistic-locking loop of go-redis's documentation (Watch + TxPipelined)
// on both servers: a concurrent writer makes the first attempt fail with redis.TxFailedErr, the
// retry succeeds, and the counter ends where it must.
func TestGoRedisWatch(t *testing.T) {
	addr := realRedis(t)
	checkRealVersion(t, addr)
	_, scopeAddr := scopeServer(t)
	rs := newResetter(t, addr)
	for _, a := range []struct{ name, addr string }{{"redis-server", addr}, {"redscope", scopeAddr}} {
		t.Run(a.name, func(t *testing.T) {
			if a.name == "redis-server" {
				rs.reset(t)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			rdb := redis.NewClient(&redis.Options{Addr: a.addr, Protocol: 2, PoolSize: 4})
			defer rdb.Close()
			other := redis.NewClient(&redis.Options{Addr: a.addr, Protocol: 2})
			defer other.Close()
			if err := rdb.Set(ctx, "counter", 10, 0).Err(); err != nil {
				t.Fatal(err)
			}
			attempts := 0
			var results []string
			for {
				attempts++
				err := rdb.Watch(ctx, func(tx *redis.Tx) error {
					n, err := tx.Get(ctx, "counter").Int()
					if err != nil {
						return err
					}
					if attempts == 1 {
						// Another connection writes the watched key between GET and EXEC.
						if err := other.IncrBy(ctx, "counter", 100).Err(); err != nil {
							return err
						}
					}
					cmds, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
						p.Set(ctx, "counter", n+1, 0)
						p.Expire(ctx, "counter", time.Hour)
						return nil
					})
					for _, c := range cmds {
						results = append(results, fmt.Sprint(c))
					}
					return err
				}, "counter")
				if errors.Is(err, redis.TxFailedErr) {
					if attempts > 1 {
						t.Fatalf("attempt %d failed too", attempts)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				break
			}
			if attempts != 2 {
				t.Fatalf("%d attempts, want 2 (the first EXEC must be aborted)", attempts)
			}
			if got, err := rdb.Get(ctx, "counter").Int(); err != nil || got != 111 {
				t.Fatalf("counter = %d %v, want 111 (10 + 100 by the other connection, + 1)", got, err)
			}
			want := "set counter 111: OK expire counter 3600: true"
			if got := strings.Join(results[len(results)-2:], " "); got != want {
				t.Fatalf("last transaction: %q, want %q", got, want)
			}
		})
	}
}
