package lab

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"

	"redscope/engine"
)

// `redscope lab bitmap` reproduces the course's attendance lab (seeds/000 §3.5): one bitmap per
// day for N students, its size against a set of the same ids, the BITOP questions with the work
// the engine counted (instead of µs), and the cost of one bit at a large offset.
//
// The article does not give its attendance data. The lab draws it from the seed: every student
// gets an attendance rate uniform in [30%, 100%), then attends each day with that probability.

// BitmapConfig is one `lab bitmap` run.
type BitmapConfig struct {
	Students int64
	Days     int
	RateMin  float64
	RateMax  float64
	Set      bool // also store each day as a set (when the engine has SADD)
}

func runBitmap(args []string, w io.Writer) error {
	var ef engineFlags
	fs := newEngineFlagSet("bitmap", &ef)
	students := fs.Int64("students", 100000, "number of students (ids 0 … N-1)")
	days := fs.Int("days", 7, "number of days (at least 2)")
	set := fs.Bool("set", true, "also store each day as a set of the same ids")
	e, err := parseEngine(fs, &ef, args)
	if err != nil {
		return err
	}
	cfg := BitmapConfig{Students: *students, Days: *days, RateMin: 0.3, RateMax: 1, Set: *set}
	if err := checkBounds(fs, bounds{"students", cfg.Students, 1, 10000000}, bounds{"days", int64(cfg.Days), 2, 31}); err != nil {
		return err
	}
	return Bitmap(e, ef.seed, cfg, w)
}

// attendance draws who came on which day: att[d][i] for day d (0-based) and student i.
func attendance(seed uint64, cfg BitmapConfig) [][]bool {
	rng := rand.New(rand.NewPCG(seed, 0x617474656e64)) // "attend"
	att := make([][]bool, cfg.Days)
	for d := range att {
		att[d] = make([]bool, cfg.Students)
	}
	for i := int64(0); i < cfg.Students; i++ {
		rate := cfg.RateMin + (cfg.RateMax-cfg.RateMin)*rng.Float64()
		for d := range att {
			att[d][i] = rng.Float64() < rate
		}
	}
	return att
}

// Bitmap runs the lab on e and prints its tables.
func Bitmap(e *engine.Engine, seed uint64, cfg BitmapConfig, w io.Writer) error {
	r := &runner{e: e}
	fmt.Fprintf(w, "lab bitmap: %s; %d students × %d days; each student's attendance rate drawn from [%s%%, %s%%) by the seed, then each day drawn with it (the article's data is not given)\n\n",
		profile(e, seed), cfg.Students, cfg.Days, toFixed(cfg.RateMin*100, 0), toFixed(cfg.RateMax*100, 0))
	att := attendance(seed, cfg)
	withSet := cfg.Set && e.HasCommand("sadd")

	bitKeys := make([]string, cfg.Days)
	setKeys := make([]string, cfg.Days)
	argv := [][]byte{[]byte("SETBIT"), nil, nil, []byte("1")}
	var num []byte
	for d := range att {
		bitKeys[d] = "att:d" + strconv.Itoa(d+1)
		setKeys[d] = "att:set:d" + strconv.Itoa(d+1)
		argv[1] = []byte(bitKeys[d])
		var sb *batch
		if withSet {
			sb = newBatch(r, 1000, "SADD", setKeys[d])
		}
		for i, here := range att[d] {
			if !here {
				continue
			}
			num = strconv.AppendInt(num[:0], int64(i), 10)
			argv[2] = num
			r.exec(argv)
			if sb != nil {
				sb.add(num)
			}
		}
		if sb != nil {
			sb.flush()
		}
		if r.err != nil {
			return r.err
		}
	}

	rows := [][]string{{"key", "holds", "count", "MEMORY USAGE", ""}}
	rows = append(rows, []string{bitKeys[0], "bitmap, SETBIT id 1 in id order",
		strconv.FormatInt(r.int("BITCOUNT", bitKeys[0]), 10), strconv.FormatInt(r.mem(bitKeys[0]), 10),
		"STRLEN " + strconv.FormatInt(r.int("STRLEN", bitKeys[0]), 10)})
	if withSet {
		rows = append(rows, []string{setKeys[0], "set, SADD the same ids",
			strconv.FormatInt(r.int("SCARD", setKeys[0]), 10), strconv.FormatInt(r.mem(setKeys[0]), 10),
			r.str("OBJECT", "ENCODING", setKeys[0])})
	} else if cfg.Set {
		rows = append(rows, []string{setKeys[0], "set: this engine has no SADD yet", "-", "-", ""})
	}
	table(w, rows, true)

	// The BITOP questions.
	last, prev := bitKeys[cfg.Days-1], bitKeys[cfg.Days-2]
	span := func(keys []string) []string { return keys }
	type question struct {
		what string
		args []string
		v82  bool
	}
	qs := []question{
		{fmt.Sprintf("present all %d days", cfg.Days), append([]string{"AND", "res"}, span(bitKeys)...), false},
		{"present at least 1 day", append([]string{"OR", "res"}, bitKeys...), false},
		{fmt.Sprintf("present day %d, absent day %d", cfg.Days-1, cfg.Days), []string{"DIFF", "res", prev, last}, true},
		{fmt.Sprintf("present day %d, absent day %d", cfg.Days, cfg.Days-1), []string{"DIFF1", "res", prev, last}, true},
		{"present day 1 and at least one other day", append([]string{"ANDOR", "res"}, bitKeys...), true},
		{"present exactly 1 day", append([]string{"ONE", "res"}, bitKeys...), true},
	}
	fmt.Fprintln(w)
	rows = [][]string{{"question", "command", "students", "bytes scanned", "bytes written"}}
	var skipped []string
	for _, q := range qs {
		if q.v82 && !e.Version().Has(engine.V82) {
			skipped = append(skipped, q.args[0])
			continue
		}
		e.Work = engine.Work{}
		r.do(append([]string{"BITOP"}, q.args...)...)
		wk := e.Work
		rows = append(rows, []string{q.what, "BITOP " + shortArgs(q.args), strconv.FormatInt(r.int("BITCOUNT", "res"), 10),
			strconv.FormatInt(wk.BytesScanned, 10), strconv.FormatInt(wk.BytesMoved, 10)})
	}
	if withSet && e.HasCommand("sintercard") {
		args := append([]string{"SINTERCARD", strconv.Itoa(cfg.Days)}, setKeys...)
		e.Work = engine.Work{}
		n := r.int(args...)
		rows = append(rows, []string{fmt.Sprintf("the same with the sets: all %d days", cfg.Days),
			shortArgs(args), strconv.FormatInt(n, 10), workCell(e.Work.BytesScanned), workCell(e.Work.BytesMoved)})
	}
	table(w, rows, false)
	fmt.Fprintln(w, "\nstudents: BITCOUNT res; bytes: the engine's work counters for the command (no wall time); - : the engine counts no bytes for set commands")
	if len(skipped) > 0 {
		fmt.Fprintf(w, "BITOP %s: Redis 8.2+, not in the %s profile\n", strings.Join(skipped, ", "), e.Version())
	}
	if r.err != nil {
		return r.err
	}

	// One bit at a large offset.
	fmt.Fprintln(w)
	rows = [][]string{{"command", "reply", "STRLEN", "MEMORY USAGE", "work"}}
	for _, c := range []struct{ key, off string }{{"sparse", "10000000"}, {"huge", "4294967295"}} {
		e.SetTracing(true)
		res := e.Exec([][]byte{[]byte("SETBIT"), []byte(c.key), []byte(c.off), []byte("1")})
		e.SetTracing(false)
		var filled int64
		for _, ev := range res.Events {
			if s, ok := ev.(engine.SDSEvent); ok {
				filled += int64(s.After.Len - s.Before.Len)
			}
		}
		rows = append(rows, []string{"SETBIT " + c.key + " " + c.off + " 1", cli(res.Reply),
			strconv.FormatInt(r.int("STRLEN", c.key), 10), strconv.FormatInt(r.mem(c.key), 10), fmt.Sprintf("%d bytes allocated and zeroed", filled)})
	}
	e.Work = engine.Work{}
	n := r.int("BITCOUNT", "huge")
	rows = append(rows, []string{"BITCOUNT huge", "(integer) " + strconv.FormatInt(n, 10), "", "",
		fmt.Sprintf("%d bytes scanned", e.Work.BytesScanned)})
	table(w, rows, true)
	fmt.Fprintf(w, "SETBIT huge 4294967296 1 → %s\n", cli(r.try("SETBIT", "huge", "4294967296", "1")))
	return r.err
}

// shortArgs prints a command, eliding the middle of a long run of keys.
func shortArgs(args []string) string {
	if len(args) <= 6 {
		return strings.Join(args, " ")
	}
	return strings.Join(args[:3], " ") + " … " + args[len(args)-1]
}

func workCell(n int64) string {
	if n == 0 {
		return "-"
	}
	return strconv.FormatInt(n, 10)
}
