package difftest

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"strings"
	"testing"
	"time"
)

// TestRandomBlocking: seeded random sessions of three connections over a few keys, mixing
// blocking commands (timeout 0, so only data or CLIENT UNBLOCK ends them) with pushes, ZADD,
// moves, renames, deletes, type changes, MULTI/EXEC, CLIENT UNBLOCK and blocked connections that
// hang up, in lockstep on redis-server 7.0.15 and
// on redscope. After every command the test asks each server which connections it has blocked
// (CLIENT LIST flags) and reads the reply of each connection that was woken: which connections
// block, which are woken, and every reply must be the same on both (bytes).
//
// REDSCOPE_BLOCKING_SEEDS=n runs seeds 1..n (default 4), REDSCOPE_BLOCKING_N the steps per seed
// (default 300).
func TestRandomBlocking(t *testing.T) {
	sv := startServers(t)
	seeds, steps := envInt("REDSCOPE_BLOCKING_SEEDS", 4), envInt("REDSCOPE_BLOCKING_N", 300)
	var cmds, woken, blocked, hangups int
	for seed := 1; seed <= seeds; seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			sv.fresh(t)
			ref, got := dialSide(t, "redis-server", sv.ref), dialSide(t, "redscope", sv.scope)
			sides := []*bside{ref, got}
			r := rand.New(rand.NewPCG(uint64(seed), 77))
			isBlocked := make([]bool, 3)
			inMulti := make([]bool, 3)
			for step := 0; step < steps; step++ {
				// a connection that is not blocked runs the next command
				var free []int
				for i := 0; i < 3; i++ {
					if !isBlocked[i] {
						free = append(free, i)
					}
				}
				if len(free) == 0 {
					isBlocked[0] = false // CLIENT UNBLOCK from the fourth connection
					cmd := "CLIENT UNBLOCK $id0"
					if r.IntN(2) == 0 {
						cmd += " ERROR"
					}
					pairReplies(t, sides, 3, cmd, step)
					compareReceive(t, sides, 0, step, "unblocked")
					continue
				}
				if n := countTrue(isBlocked); n > 0 && r.IntN(25) == 0 {
					// a blocked connection hangs up (or is unblocked by the fourth one)
					var bl []int
					for i, b := range isBlocked {
						if b {
							bl = append(bl, i)
						}
					}
					i := bl[r.IntN(len(bl))]
					isBlocked[i] = false
					if r.IntN(2) == 0 {
						for _, s := range sides {
							s.conns[i].Close()
							s.waitBlocked(t, n-1)
							s.redial(t, i)
						}
						hangups++
					} else {
						pairReplies(t, sides, 3, fmt.Sprintf("CLIENT UNBLOCK $id%d %s", i, []string{"TIMEOUT", "ERROR"}[r.IntN(2)]), step)
						compareReceive(t, sides, i, step, "CLIENT UNBLOCK")
					}
					continue
				}
				c := free[r.IntN(len(free))]
				cmd := randomBlockingCmd(r, inMulti[c])
				switch {
				case strings.HasPrefix(cmd, "MULTI"):
					inMulti[c] = true
				case cmd == "EXEC" || cmd == "DISCARD":
					inMulti[c] = false
				}
				cmds++
				wait := isBlockingCmd(cmd) && !inMulti[c]
				if !wait {
					pairReplies(t, sides, c, cmd, step)
				} else {
					// Send on both; each either answers or blocks, and both must do the same.
					var states []bool
					var raws [][]byte
					for _, s := range sides {
						b, raw := sendAndSettle(t, s, c, cmd, countTrue(isBlocked))
						states = append(states, b)
						raws = append(raws, raw)
					}
					if states[0] != states[1] || !bytes.Equal(raws[0], raws[1]) {
						t.Fatalf("step %d, connection %d, %s: redis-server blocked=%v %q, redscope blocked=%v %q", step, c, cmd, states[0], raws[0], states[1], raws[1])
					}
					if states[0] {
						isBlocked[c] = true
						blocked++
					}
				}
				// who was woken?
				for i := 0; i < 3; i++ {
					if !isBlocked[i] || (i == c && wait) {
						continue
					}
					var still []bool
					for _, s := range sides {
						still = append(still, clientBlocked(t, s, i))
					}
					if still[0] != still[1] {
						t.Fatalf("step %d after %s: connection %d blocked on redis-server %v, on redscope %v", step, cmd, i, still[0], still[1])
					}
					if !still[0] {
						isBlocked[i] = false
						woken++
						compareReceive(t, sides, i, step, cmd)
					}
				}
			}
			for i := 0; i < 3; i++ {
				if isBlocked[i] {
					pairReplies(t, sides, 3, fmt.Sprintf("CLIENT UNBLOCK $id%d", i), steps)
					compareReceive(t, sides, i, steps, "final unblock")
				}
			}
		})
	}
	t.Logf("%d commands, %d blocked, %d woken by another connection, %d hang-ups while blocked (every reply compared)", cmds, blocked, woken, hangups)
}

func countTrue(b []bool) int {
	n := 0
	for _, x := range b {
		if x {
			n++
		}
	}
	return n
}

func isBlockingCmd(cmd string) bool {
	name := strings.ToUpper(strings.Fields(cmd)[0])
	switch name {
	case "BLPOP", "BRPOP", "BLMOVE", "BRPOPLPUSH", "BLMPOP", "BZPOPMIN", "BZPOPMAX", "BZMPOP":
		return true
	}
	return false
}

func randomBlockingCmd(r *rand.Rand, inMulti bool) string {
	lk := func() string { return []string{"a", "b", "c"}[r.IntN(3)] }
	zk := func() string { return []string{"z", "y", "a"}[r.IntN(3)] }
	side := func() string { return []string{"LEFT", "RIGHT"}[r.IntN(2)] }
	vals := func() string {
		n := 1 + r.IntN(3)
		var v []string
		for i := 0; i < n; i++ {
			v = append(v, fmt.Sprint(r.IntN(100)))
		}
		return strings.Join(v, " ")
	}
	if inMulti && r.IntN(3) == 0 {
		return []string{"EXEC", "EXEC", "DISCARD"}[r.IntN(3)]
	}
	switch r.IntN(22) {
	case 0, 1:
		return fmt.Sprintf("BLPOP %s 0", lk())
	case 2:
		return fmt.Sprintf("BRPOP %s %s 0", lk(), lk())
	case 3:
		return fmt.Sprintf("BLMOVE %s %s %s %s 0", lk(), lk(), side(), side())
	case 4:
		return fmt.Sprintf("BRPOPLPUSH %s %s 0", lk(), lk())
	case 5:
		return fmt.Sprintf("BLMPOP 0 2 %s %s %s COUNT %d", lk(), lk(), side(), 1+r.IntN(3))
	case 6:
		return fmt.Sprintf("%s %s %s 0", []string{"BZPOPMIN", "BZPOPMAX"}[r.IntN(2)], zk(), zk())
	case 7:
		return fmt.Sprintf("BZMPOP 0 1 %s %s COUNT 2", zk(), []string{"MIN", "MAX"}[r.IntN(2)])
	case 8, 9, 10:
		return fmt.Sprintf("%s %s %s", []string{"LPUSH", "RPUSH"}[r.IntN(2)], lk(), vals())
	case 11, 12:
		return fmt.Sprintf("ZADD %s %d m%d %d n%d", zk(), r.IntN(9), r.IntN(5), r.IntN(9), r.IntN(5))
	case 13:
		return fmt.Sprintf("LMOVE %s %s %s %s", lk(), lk(), side(), side())
	case 14:
		return fmt.Sprintf("RENAME %s %s", lk(), lk())
	case 15:
		return fmt.Sprintf("DEL %s", []string{"a", "b", "c", "z", "y"}[r.IntN(5)])
	case 16:
		return fmt.Sprintf("SET %s str", []string{"a", "b", "z"}[r.IntN(3)])
	case 17:
		if inMulti {
			return "LRANGE a 0 -1"
		}
		return "MULTI"
	case 18:
		return fmt.Sprintf("LRANGE %s 0 -1", lk())
	case 19:
		return fmt.Sprintf("ZRANGE %s 0 -1 WITHSCORES", zk())
	case 20:
		return fmt.Sprintf("SORT %s STORE %s", lk(), lk())
	}
	return fmt.Sprintf("ZUNIONSTORE %s 2 %s %s", zk(), zk(), zk())
}

// pairReplies runs cmd on connection c of both servers and compares the replies.
func pairReplies(t *testing.T, sides []*bside, c int, cmd string, step int) {
	t.Helper()
	var raws [][]byte
	for _, s := range sides {
		conn := s.ctl
		if c < len(s.conns) {
			conn = s.conns[c]
		}
		conn.Timeout = 5 * time.Second
		raw, _, err := conn.Do(s.args(t, cmd))
		conn.Timeout = 60 * time.Second
		if err != nil {
			t.Fatalf("step %d %s on %s: %v", step, cmd, s.name, err)
		}
		raws = append(raws, append([]byte(nil), raw...))
	}
	if !bytes.Equal(raws[0], raws[1]) {
		t.Fatalf("step %d, connection %d, %s:\nredis-server: %q\nredscope:     %q", step, c, cmd, raws[0], raws[1])
	}
}

// sendAndSettle sends a blocking command and waits until it either answered (blocked=false, its
// reply) or the server counts one more blocked client.
func sendAndSettle(t *testing.T, s *bside, c int, cmd string, blockedBefore int) (bool, []byte) {
	t.Helper()
	conn := s.conns[c]
	conn.Send(s.args(t, cmd))
	if err := conn.Flush(); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprint(blockedBefore + 1)
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		conn.Timeout = 5 * time.Millisecond
		raw, _, err := conn.Receive()
		conn.Timeout = 60 * time.Second
		if err == nil {
			return false, append([]byte(nil), raw...)
		}
		var ne net.Error
		if len(raw) > 0 || !errors.As(err, &ne) || !ne.Timeout() {
			// a reply cut by the short deadline: read the rest
			t.Fatalf("%s: %s: %v (partial %q)", s.name, cmd, err, raw)
		}
		if s.infoField(t, "blocked_clients") == want {
			return true, nil
		}
	}
	t.Fatalf("%s: %s neither answered nor blocked", s.name, cmd)
	return false, nil
}

// clientBlocked reports whether connection i has the b flag.
func clientBlocked(t *testing.T, s *bside, i int) bool {
	t.Helper()
	_, r, err := s.ctl.DoStrings("CLIENT", "LIST", "ID", s.ids[i])
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range strings.Fields(r.Str) {
		if fl, ok := strings.CutPrefix(f, "flags="); ok {
			return strings.Contains(fl, "b")
		}
	}
	return false
}

// compareReceive reads the pending reply of connection i on both servers and compares them.
func compareReceive(t *testing.T, sides []*bside, i, step int, after string) {
	t.Helper()
	var raws [][]byte
	for _, s := range sides {
		c := s.conns[i]
		c.Timeout = 5 * time.Second
		raw, _, err := c.Receive()
		c.Timeout = 60 * time.Second
		if err != nil {
			t.Fatalf("step %d: %s: connection %d woken by %s: %v", step, s.name, i, after, err)
		}
		raws = append(raws, append([]byte(nil), raw...))
	}
	if !bytes.Equal(raws[0], raws[1]) {
		t.Fatalf("step %d: connection %d woken by %s:\nredis-server: %q\nredscope:     %q", step, i, after, raws[0], raws[1])
	}
}

// redial replaces connection i (closed) with a new one.
func (s *bside) redial(t *testing.T, i int) {
	t.Helper()
	c := dialConn(t, s.addr)
	_, r, err := c.DoStrings("CLIENT", "ID")
	if err != nil {
		t.Fatal(err)
	}
	s.conns[i], s.ids[i] = c, fmt.Sprint(r.Int)
}
