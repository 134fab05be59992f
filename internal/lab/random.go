package lab

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"

	"redscope/engine"
)

// `redscope lab random` reproduces the course's draw-fairness lab (seeds/001 §3.5): SRANDMEMBER
// (no count) drawn many times from a small set and from a hashtable set, counting how often each
// member comes out, against the fair way the article recommends: the application draws a rank
// uniformly and reads it with ZRANGE z i i from a sorted set whose scores are the ranks.
// ZRANDMEMBER on the same sorted set is shown too (the article reports it as biased as
// SRANDMEMBER).
//
// Member names are not given by the article: the lab uses member:0 … member:N-1. The engine's
// random source and the application's draws both come from --seed.

// RandomConfig is one `lab random` run.
type RandomConfig struct {
	Small   int64 // members of the small set
	Members int64 // members of the big set and of the sorted set
	Draws   int64 // draws per row
}

func runRandom(args []string, w io.Writer) error {
	var ef engineFlags
	fs := newEngineFlagSet("random", &ef)
	small := fs.Int64("small", 10, "members of the small set")
	members := fs.Int64("members", 1000, "members of the big set and of the sorted set")
	draws := fs.Int64("draws", 200000, "draws per row")
	e, err := parseEngine(fs, &ef, args)
	if err != nil {
		return err
	}
	cfg := RandomConfig{Small: *small, Members: *members, Draws: *draws}
	if cfg.Small < 1 || cfg.Small > 1000000 || cfg.Members < 1 || cfg.Members > 1000000 {
		return fmt.Errorf("lab random: --small and --members: want 1 … 1000000")
	}
	if err := checkBounds(fs, bounds{"draws", cfg.Draws, 1, 100000000}); err != nil {
		return err
	}
	for _, c := range []string{"sadd", "srandmember"} {
		if !e.HasCommand(c) {
			return fmt.Errorf("lab random: this engine has no %s yet", c)
		}
	}
	return Random(e, ef.seed, cfg, w)
}

// drawStats summarises how often each of n members was drawn.
type drawStats struct {
	min, max int64
	chi2     float64
}

func stats(counts []int64, draws int64) drawStats {
	exp := float64(draws) / float64(len(counts))
	s := drawStats{min: counts[0], max: counts[0]}
	for _, c := range counts {
		s.min, s.max = min(s.min, c), max(s.max, c)
		d := float64(c) - exp
		s.chi2 += d * d / exp
	}
	return s
}

// Random runs the lab on e and prints its table.
func Random(e *engine.Engine, seed uint64, cfg RandomConfig, w io.Writer) error {
	r := &runner{e: e}
	fmt.Fprintf(w, "lab random: %s; members member:0 … member:N-1 (names not given by the article); the engine's and the application's random draws come from the seed\n\n",
		profile(e, seed))
	fill := func(cmd, key string, n int64, withScore bool) {
		b := newBatch(r, 1000, cmd, key)
		var buf []byte
		for i := int64(0); i < n; i++ {
			if withScore {
				b.add(strconv.AppendInt(buf[:0], i, 10))
			}
			buf = strconv.AppendInt(append(buf[:0], "member:"...), i, 10)
			b.add(buf)
		}
		b.flush()
	}
	index := func(rep engine.Reply, n int64) int64 {
		if rep.Kind == engine.KindArray && len(rep.Array) == 1 {
			rep = rep.Array[0]
		}
		if rep.Kind != engine.KindBulk || len(rep.Str) < 7 || rep.Str[:7] != "member:" {
			if r.err == nil {
				r.err = fmt.Errorf("unexpected draw %s", cli(rep))
			}
			return -1
		}
		i, err := strconv.ParseInt(rep.Str[7:], 10, 64)
		if err != nil || i < 0 || i >= n {
			if r.err == nil {
				r.err = fmt.Errorf("unexpected draw %s", cli(rep))
			}
			return -1
		}
		return i
	}
	rows := [][]string{{"draw", "encoding", "members", "draws", "expected", "min", "max", "chi-square", "uniform ≈"}}
	row := func(label, key string, n int64, draw func() engine.Reply) {
		counts := make([]int64, n)
		for d := int64(0); d < cfg.Draws && r.err == nil; d++ {
			if i := index(draw(), n); i >= 0 {
				counts[i]++
			}
		}
		s := stats(counts, cfg.Draws)
		rows = append(rows, []string{label, r.str("OBJECT", "ENCODING", key), strconv.FormatInt(n, 10),
			strconv.FormatInt(cfg.Draws, 10), toFixed(float64(cfg.Draws)/float64(n), 0),
			strconv.FormatInt(s.min, 10), strconv.FormatInt(s.max, 10), toFixed(s.chi2, 0), strconv.FormatInt(n-1, 10)})
	}
	cmd := func(args ...string) func() engine.Reply {
		b := make([][]byte, len(args))
		for i, a := range args {
			b[i] = []byte(a)
		}
		return func() engine.Reply { return r.exec(b) }
	}
	fill("SADD", "small", cfg.Small, false)
	fill("SADD", "big", cfg.Members, false)
	row("SRANDMEMBER small", "small", cfg.Small, cmd("SRANDMEMBER", "small"))
	row("SRANDMEMBER big", "big", cfg.Members, cmd("SRANDMEMBER", "big"))
	if e.HasCommand("zadd") && e.HasCommand("zrange") {
		fill("ZADD", "z", cfg.Members, true)
		if e.HasCommand("zrandmember") {
			row("ZRANDMEMBER z", "z", cfg.Members, cmd("ZRANDMEMBER", "z"))
		}
		app := rand.New(rand.NewPCG(seed, 0x72616e6b)) // "rank"
		args := [][]byte{[]byte("ZRANGE"), []byte("z"), nil, nil}
		var buf []byte
		row("app rank i, ZRANGE z i i", "z", cfg.Members, func() engine.Reply {
			buf = strconv.AppendInt(buf[:0], app.Int64N(cfg.Members), 10)
			args[2], args[3] = buf, buf
			return r.exec(args)
		})
	}
	if r.err != nil {
		return r.err
	}
	table(w, rows, false)
	fmt.Fprintln(w, "\nchi-square: Σ (count − expected)² / expected over the members; a fair draw gives about members − 1")
	return r.err
}
