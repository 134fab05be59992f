package difftest

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// txScenarios: WATCH across connections, databases, flushes and expiry. Every expected reply was
// seen on redis-server 7.0.15; the test also compares each raw reply of the two servers.
var txScenarios = []bscenario{
	{"other connection writes", []bstep{
		bat(0, "SET k 1"), bat(0, "WATCH k", "OK"), bat(1, "SET k 2", "OK"),
		bat(0, "MULTI", "OK"), bat(0, "INCR k", "QUEUED"), bat(0, "EXEC", "(nil)"), bat(0, "GET k", `"2"`),
	}},
	{"other connection reads", []bstep{
		bat(0, "SET k 1"), bat(0, "WATCH k"), bat(1, "GET k", `"1"`), bat(1, "TTL k"), bat(1, "EXISTS k"),
		bat(0, "MULTI"), bat(0, "INCR k"), bat(0, "EXEC", "1) (integer) 2"),
	}},
	{"no-op writes of the other connection", []bstep{
		bat(0, "SADD k a"), bat(0, "WATCH k"), bat(1, "SADD k a", "(integer) 0"), bat(1, "SREM k zz", "(integer) 0"),
		bat(1, "EXPIRE k 100 XX", "(integer) 0"), bat(0, "MULTI"), bat(0, "SCARD k"), bat(0, "EXEC", "1) (integer) 1"),
	}},
	{"every watcher is touched", []bstep{
		bat(0, "WATCH k"), bat(2, "WATCH k j"), bat(1, "SET k x"),
		bat(0, "MULTI"), bat(0, "PING"), bat(0, "EXEC", "(nil)"),
		bat(2, "MULTI"), bat(2, "PING"), bat(2, "EXEC", "(nil)"),
	}},
	{"a transaction of another connection touches", []bstep{
		bat(0, "WATCH k"), bat(1, "MULTI"), bat(1, "SET k x", "QUEUED"),
		bat(0, "MULTI"), bat(0, "PING"), bat(0, "EXEC", "1) PONG"), // queued only: nothing changed yet
		bat(0, "WATCH k"), bat(1, "EXEC", "1) OK"),
		bat(0, "MULTI"), bat(0, "PING"), bat(0, "EXEC", "(nil)"),
	}},
	{"writes inside EXEC do not touch the writer", []bstep{
		bat(0, "WATCH k"), bat(0, "MULTI"), bat(0, "SET k 1"), bat(1, "GET k", "(nil)"),
		bat(0, "EXEC", "1) OK"), bat(1, "GET k", `"1"`),
	}},
	{"databases", []bstep{
		bat(0, "SELECT 1"), bat(0, "WATCH k"), bat(1, "SET k x"),
		bat(0, "MULTI"), bat(0, "PING"), bat(0, "EXEC", "1) PONG"),
		bat(0, "WATCH k"), bat(1, "SELECT 1"), bat(1, "SET k x"),
		bat(0, "MULTI"), bat(0, "PING"), bat(0, "EXEC", "(nil)"),
	}},
	{"FLUSHDB and FLUSHALL touch existing watched keys", []bstep{
		bat(0, "WATCH k"), bat(1, "FLUSHALL", "OK"),
		bat(0, "MULTI"), bat(0, "PING"), bat(0, "EXEC", "1) PONG"),
		bat(1, "SET k x"), bat(0, "WATCH k"), bat(1, "SELECT 3"), bat(1, "FLUSHDB"),
		bat(0, "MULTI"), bat(0, "PING"), bat(0, "EXEC", "1) PONG"),
		bat(0, "WATCH k"), bat(1, "FLUSHALL"),
		bat(0, "MULTI"), bat(0, "PING"), bat(0, "EXEC", "(nil)"),
	}},
	{"a key that expires after WATCH", []bstep{
		bat(0, "SET k v PX 100"), bat(0, "WATCH k"), bpause(250 * time.Millisecond),
		bat(0, "MULTI"), bat(0, "PING"), bat(0, "EXEC", "(nil)"),
	}},
	{"a key already expired at WATCH", []bstep{
		// (the real server's active expiry may delete the key first: that is no change either)
		bat(0, "SET k v PX 50"), bpause(150 * time.Millisecond), bat(0, "WATCH k"),
		bat(0, "MULTI"), bat(0, "PING"), bat(0, "EXEC", "1) PONG"),
		// its lazy deletion by another connection is no change
		bat(0, "SET k v PX 50"), bpause(150 * time.Millisecond), bat(0, "WATCH k"), bat(1, "GET k", "(nil)"),
		bat(0, "MULTI"), bat(0, "PING"), bat(0, "EXEC", "1) PONG"),
		// nor is FLUSHDB
		bat(0, "SET k v PX 50"), bpause(150 * time.Millisecond), bat(0, "WATCH k"), bat(1, "FLUSHDB"),
		bat(0, "MULTI"), bat(0, "PING"), bat(0, "EXEC", "1) PONG"),
		// but a new value is
		bat(0, "SET k v PX 50"), bpause(150 * time.Millisecond), bat(0, "WATCH k"), bat(1, "SET k w"),
		bat(0, "MULTI"), bat(0, "PING"), bat(0, "EXEC", "(nil)"),
	}},
	{"a key created with a TTL after WATCH", []bstep{
		bat(0, "WATCH k"), bat(1, "SET k v PX 50"), bpause(150 * time.Millisecond),
		bat(0, "MULTI"), bat(0, "PING"), bat(0, "EXEC", "(nil)"),
	}},
	{"queueing errors win over touched keys", []bstep{
		bat(0, "WATCH k"), bat(1, "SET k 1"), bat(0, "MULTI"), bat(0, "NOSUCH"),
		bat(0, "EXEC", "(error) EXECABORT Transaction discarded because of previous errors."),
	}},
	{"a dirty client watches nothing more, UNWATCH cleans it", []bstep{
		bat(0, "WATCH k"), bat(1, "SET k 1"), bat(0, "WATCH j"), bat(0, "UNWATCH"), bat(1, "SET k 2"),
		bat(0, "MULTI"), bat(0, "PING"), bat(0, "EXEC", "1) PONG"),
	}},
	{"RESET forgets the watched keys", []bstep{
		bat(0, "WATCH k"), bat(0, "RESET", "RESET"), bat(1, "SET k 1"),
		bat(0, "MULTI"), bat(0, "PING"), bat(0, "EXEC", "1) PONG"),
	}},
}

// TestMultiWatchTwoConnections plays txScenarios on redis-server 7.0.15 and on redscope with the
// lockstep harness of blocking_test.go (several connections each); every reply must be
// byte-identical.
func TestMultiWatchTwoConnections(t *testing.T) {
	playLockstep(t, txScenarios)
}

// TestGoRedisWatch is the optimistic-locking loop of go-redis's documentation (Watch + TxPipelined)
// on both servers: a concurrent writer makes the first attempt fail with redis.TxFailedErr, the
// retry succeeds, and the counter ends where it must.
func TestGoRedisWatch(t *testing.T) {
	onBothServers(t, func(t *testing.T, a side) {
		ctx, other := within(t, 20*time.Second), a.client(t)
		rdb := redis.NewClient(&redis.Options{Addr: a.addr, Protocol: 2, PoolSize: 4})
		defer rdb.Close()
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
