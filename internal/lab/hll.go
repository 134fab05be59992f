package lab

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"redscope/engine"
)

// `redscope lab hll` reproduces the course's HyperLogLog tables (seeds/000 §3.7): the error and
// the bytes of one HLL as the true count grows, then a week of daily HLLs merged.
//
// The article does not list its elements. Adding u0, u1, … (--elements 'u%d', the naming its
// "PFADD week u5" line shows) one id after the other reproduces every PFCOUNT it prints (99, 994,
// 1497, 2006, 9977, 100420, 1005024; 807767 for the week), so that is the default. The data has
// no randomness: --seed only seeds the engine.

// HLLConfig is one `lab hll` run.
type HLLConfig struct {
	Counts  []int64 // true counts at which to measure, increasing
	Days    int64
	PerDay  int64
	Overlap float64 // share of a day's viewers already seen the day before
	Set     bool    // also keep the week's viewers in a set (SCARD, MEMORY USAGE)
	Elems   keyPattern
}

func runHLL(args []string, w io.Writer) error {
	var ef engineFlags
	fs := newEngineFlagSet("hll", &ef)
	counts := fs.String("counts", "100,1000,1500,2000,10000,100000,1000000", "true counts to measure at")
	days := fs.Int64("days", 7, "days of the week merge")
	perDay := fs.Int64("per-day", 200000, "distinct viewers per day")
	overlap := fs.Float64("overlap", 0.5, "share of a day's viewers who also came the day before (0…1)")
	set := fs.Bool("set", true, "also store the week's viewers in a set, for comparison")
	elems := fs.String("elements", "u%d", "element names, one %d for the id 0, 1, 2, …")
	e, err := parseEngine(fs, &ef, args)
	if err != nil {
		return err
	}
	cfg := HLLConfig{Days: *days, PerDay: *perDay, Overlap: *overlap, Set: *set}
	if cfg.Elems, err = parsePattern(*elems); err != nil {
		return fmt.Errorf("lab hll: %v", strings.Replace(err.Error(), "--keys", "--elements", 1))
	}
	if cfg.Counts, err = intList("counts", *counts, true); err != nil {
		return fmt.Errorf("lab hll: %v", err)
	}
	if err := checkBounds(fs, bounds{"days", cfg.Days, 0, 1000}, bounds{"per-day", cfg.PerDay, 1, 100000000}); err != nil {
		return err
	}
	if !(cfg.Overlap >= 0 && cfg.Overlap <= 1) {
		return fmt.Errorf("lab hll: --overlap %v: want 0 … 1", cfg.Overlap)
	}
	if last := cfg.Counts[len(cfg.Counts)-1]; last > 1e8 {
		return fmt.Errorf("lab hll: --counts: %d is too many (at most 100000000)", last)
	}
	if !e.HasCommand("pfadd") {
		return fmt.Errorf("lab hll: the engine has no PFADD")
	}
	return HLL(e, ef.seed, cfg, w)
}

// HLL runs the lab on e and prints its tables.
func HLL(e *engine.Engine, seed uint64, cfg HLLConfig, w io.Writer) error {
	r := &runner{e: e}
	fmt.Fprintf(w, "lab hll: %s; elements %s, %s, … added in order (the article's naming, not listed in it)\n\n",
		profile(e, seed), cfg.Elems.key(0), cfg.Elems.key(1))

	rows := [][]string{{"true", "PFCOUNT", "error %", "bytes", "encoding"}}
	const key = "hll"
	b := newBatch(r, 1000, "PFADD", key)
	var buf []byte
	var n int64
	for _, c := range cfg.Counts {
		for ; n < c; n++ {
			buf = cfg.Elems.append(buf[:0], n)
			b.add(buf)
		}
		b.flush()
		est := r.int("PFCOUNT", key)
		rows = append(rows, []string{strconv.FormatInt(c, 10), strconv.FormatInt(est, 10),
			signedFixed(float64(est-c)/float64(c)*100, 2), strconv.FormatInt(r.mem(key), 10),
			r.str("PFDEBUG", "ENCODING", key)})
		if r.err != nil {
			return r.err
		}
	}
	tableN(w, rows, true)
	fmt.Fprintf(w, "\nbytes: MEMORY USAGE; encoding: PFDEBUG ENCODING (sparse turns dense past hll-sparse-max-bytes %s)\n",
		r.config("hll-sparse-max-bytes"))
	if cfg.Days > 0 {
		hllWeek(r, seed, cfg, w)
	}
	return r.err
}

// hllWeek: day d (1-based) has the ids step·(d−1) … step·(d−1)+perDay−1, step = perDay·(1−overlap).
func hllWeek(r *runner, seed uint64, cfg HLLConfig, w io.Writer) {
	step := int64(math.Round(float64(cfg.PerDay) * (1 - cfg.Overlap)))
	trueDistinct := (cfg.Days-1)*step + cfg.PerDay
	fmt.Fprintf(w, "\nweek: %d days × %d viewers, each day sharing %s%% of its viewers with the day before (day d: ids %d·(d-1) … %d·(d-1)+%d)\n\n",
		cfg.Days, cfg.PerDay, toFixed(cfg.Overlap*100, 0), step, step, cfg.PerDay-1)
	days := make([]string, cfg.Days)
	var buf []byte
	var sumDaily int64
	for d := range days {
		days[d] = "d" + strconv.Itoa(d+1)
		b := newBatch(r, 1000, "PFADD", days[d])
		lo := int64(d) * step
		for i := lo; i < lo+cfg.PerDay; i++ {
			buf = cfg.Elems.append(buf[:0], i)
			b.add(buf)
		}
		b.flush()
		sumDaily += r.int("PFCOUNT", days[d])
	}
	span := days[0]
	if len(days) > 1 {
		span += " … " + days[len(days)-1]
	}
	onTheFly := r.int(append([]string{"PFCOUNT"}, days...)...)
	r.do(append([]string{"PFMERGE", "week"}, days...)...)
	week := r.int("PFCOUNT", "week")
	errPct := func(est int64) string {
		return signedFixed(float64(est-trueDistinct)/float64(trueDistinct)*100, 2) + "%"
	}
	rows := [][]string{
		{"true distinct viewers", strconv.FormatInt(trueDistinct, 10), ""},
		{"PFCOUNT " + span, strconv.FormatInt(onTheFly, 10), "merged on the fly, error " + errPct(onTheFly)},
		{"PFMERGE week, PFCOUNT week", strconv.FormatInt(week, 10), "error " + errPct(week)},
		{"MEMORY USAGE week", strconv.FormatInt(r.mem("week"), 10), "bytes, " + r.str("PFDEBUG", "ENCODING", "week")},
		{"sum of the daily PFCOUNTs", strconv.FormatInt(sumDaily, 10),
			fmt.Sprintf("what adding up the days gives: returning viewers counted again (true sum %d)", cfg.Days*cfg.PerDay)},
	}
	buf = cfg.Elems.append(buf[:0], 5)
	rows = append(rows, []string{"PFADD week " + string(buf), strconv.FormatInt(r.int("PFADD", "week", string(buf)), 10),
		"a day-1 viewer again: no register changes (1 only when one does)"})
	if cfg.Set && r.e.HasCommand("sadd") {
		// One SADD per day, as the course's lab did: how far the set's hash table has got in
		// an incremental resize (and so MEMORY USAGE) depends on how the members arrive.
		for d := int64(0); d < int64(cfg.Days); d++ {
			b := newBatch(r, int(cfg.PerDay), "SADD", "wset")
			for i := d * step; i < d*step+cfg.PerDay; i++ {
				buf = cfg.Elems.append(buf[:0], i)
				b.add(buf)
			}
			b.flush()
		}
		rows = append(rows,
			[]string{"SCARD wset", strconv.FormatInt(r.int("SCARD", "wset"), 10), "the same viewers in a set: exact"},
			[]string{"MEMORY USAGE wset", strconv.FormatInt(r.mem("wset"), 10), "bytes, " + r.str("OBJECT", "ENCODING", "wset")})
	}
	table(w, rows, true)
}
