package lab

import (
	"fmt"
	"io"
	"strconv"

	"redscope/engine"
	"redscope/engine/listpack"
)

// `redscope lab listpack` shows what the course's listpack-vs-hashtable lab (seeds/001 §3.2)
// measured in µs, as work the engine counts: for a hash of N fields kept as a listpack (by
// raising hash-max-listpack-entries, as the article does) and as a hashtable, the entries each
// HGET/HSET compares, the listpack bytes it walks over and the bytes it moves.
//
// The article does not name its fields: the lab uses field:0 … field:N-1 = value:0 … value:N-1.

// ListpackConfig is one `lab listpack` run.
type ListpackConfig struct {
	Counts []int64
}

func runListpack(args []string, w io.Writer) error {
	var ef engineFlags
	fs := newEngineFlagSet("listpack", &ef)
	counts := fs.String("counts", "16,128,512,1000,10000", "field counts")
	e, err := parseEngine(fs, &ef, args)
	if err != nil {
		return err
	}
	var cfg ListpackConfig
	if cfg.Counts, err = intList("counts", *counts, false); err != nil {
		return fmt.Errorf("lab listpack: %v", err)
	}
	for _, c := range cfg.Counts {
		if c > 100000 {
			return fmt.Errorf("lab listpack: --counts: %d fields is too many (at most 100000)", c)
		}
	}
	if !e.HasCommand("hset") {
		return fmt.Errorf("lab listpack: this engine has no HSET yet")
	}
	return Listpack(e, ef.seed, cfg, w)
}

// lpWork is the work one command did on a key's value.
type lpWork struct {
	lp       listpack.Work
	isLP     bool
	compared int // hashtable: entries compared by the lookup
	rehashed int // hashtable: entries moved by incremental rehashing
	resized  bool
}

// measure runs a command on a hash key and reports its work: the listpack's counters when the
// value is a listpack, the lookup's chain and the rehash moves when it is a hashtable. The chain
// is read after the command (dictFind does its rehash step first) unless the command adds the
// field (it then walked the whole chain the field was not in).
func measure(r *runner, key, field string, adds bool, args ...string) (lpWork, engine.Reply) {
	var w lpWork
	o := r.e.Peek([]byte(key))
	before := o.Listpack()
	var b0 listpack.Work
	if before != nil {
		b0 = before.Work
		w.isLP = true
	} else if n, ok := o.DictCompares([]byte(field)); ok && adds {
		w.compared = n
	}
	tracing := r.e.Tracing()
	r.e.SetTracing(true)
	argv := make([][]byte, len(args))
	for i, a := range args {
		argv[i] = []byte(a)
	}
	res := r.e.Exec(argv)
	r.e.SetTracing(tracing)
	if res.Reply.Kind == engine.KindError && r.err == nil {
		r.err = fmt.Errorf("%s: %s", cmdLine(argv), res.Reply.Str)
	}
	if w.isLP {
		after := r.e.Peek([]byte(key)).Listpack()
		if after == before {
			w.lp = listpack.Work{Scanned: after.Work.Scanned - b0.Scanned, Moved: after.Work.Moved - b0.Moved,
				Compared: after.Work.Compared - b0.Compared}
		} else if after != nil {
			w.lp = after.Work
		}
	} else if n, ok := r.e.Peek([]byte(key)).DictCompares([]byte(field)); ok && !adds {
		w.compared = n
	}
	for _, ev := range res.Events {
		if d, ok := ev.(engine.DictEvent); ok {
			switch d.Op {
			case "rehash-step":
				w.rehashed += d.Moved
			case "resize":
				w.resized = true
			}
		}
	}
	return w, res.Reply
}

// Listpack runs the lab on e and prints its tables.
func Listpack(e *engine.Engine, seed uint64, cfg ListpackConfig, w io.Writer) error {
	r := &runner{e: e}
	fmt.Fprintf(w, "lab listpack: %s; hashes of N fields field:0 … field:N-1 = value:0 … (names not given by the article); listpack kept by CONFIG SET hash-max-listpack-entries N+1, hashtable made by setting it to 0\n\n",
		profile(e, seed))
	def := r.config("hash-max-listpack-entries")
	mem := [][]string{{"fields", "listpack bytes", "hashtable bytes", "hashtable/listpack"}}
	work := [][]string{{"fields", "command", "listpack: compared", "scanned B", "moved B", "hashtable: compared", "rehashed"}}
	for _, n := range cfg.Counts {
		lpKey, htKey := "lp:"+strconv.FormatInt(n, 10), "ht:"+strconv.FormatInt(n, 10)
		for _, k := range []struct {
			key   string
			limit int64
		}{{lpKey, n + 1}, {htKey, 0}} {
			r.do("CONFIG", "SET", "hash-max-listpack-entries", strconv.FormatInt(k.limit, 10))
			b := newBatch(r, 2000, "HSET", k.key)
			var buf []byte
			for i := int64(0); i < n; i++ {
				b.add(strconv.AppendInt(append(buf[:0], "field:"...), i, 10))
				b.add(strconv.AppendInt(append(buf[:0], "value:"...), i, 10))
			}
			b.flush()
		}
		// Keep the listpack a listpack through the HSETs below (a hashtable never converts back).
		r.do("CONFIG", "SET", "hash-max-listpack-entries", strconv.FormatInt(n+1, 10))
		if enc := r.str("OBJECT", "ENCODING", lpKey); enc != "listpack" && r.err == nil {
			r.err = fmt.Errorf("%s is %s, not listpack", lpKey, enc)
		}
		if enc := r.str("OBJECT", "ENCODING", htKey); enc != "hashtable" && r.err == nil {
			r.err = fmt.Errorf("%s is %s, not hashtable", htKey, enc)
		}
		lpMem, htMem := r.mem(lpKey), r.mem(htKey)
		mem = append(mem, []string{strconv.FormatInt(n, 10), strconv.FormatInt(lpMem, 10), strconv.FormatInt(htMem, 10),
			toFixed(float64(htMem)/float64(lpMem), 2) + "x"})

		first, last, fresh := "field:0", "field:"+strconv.FormatInt(n-1, 10), "field:"+strconv.FormatInt(n, 10)
		ops := []struct {
			label, field string
			adds         bool
			args         func(key string) []string
		}{
			{"HGET " + first, first, false, func(k string) []string { return []string{"HGET", k, first} }},
			{"HGET " + last, last, false, func(k string) []string { return []string{"HGET", k, last} }},
			{"HGET missing", "missing", false, func(k string) []string { return []string{"HGET", k, "missing"} }},
			{"HSET " + fresh + " (new)", fresh, true, func(k string) []string { return []string{"HSET", k, fresh, "value:" + strconv.FormatInt(n, 10)} }},
			{"HSET " + first + " value:0-updated", first, false, func(k string) []string { return []string{"HSET", k, first, "value:0-updated"} }},
		}
		for i, op := range ops {
			lw, _ := measure(r, lpKey, op.field, op.adds, op.args(lpKey)...)
			hw, _ := measure(r, htKey, op.field, op.adds, op.args(htKey)...)
			label := ""
			if i == 0 {
				label = strconv.FormatInt(n, 10)
			}
			reh := strconv.Itoa(hw.rehashed)
			if hw.resized {
				reh += " (resize)"
			}
			work = append(work, []string{label, op.label, strconv.FormatInt(lw.lp.Compared, 10),
				strconv.FormatInt(lw.lp.Scanned, 10), strconv.FormatInt(lw.lp.Moved, 10), strconv.Itoa(hw.compared), reh})
		}
		if enc := r.str("OBJECT", "ENCODING", lpKey); enc != "listpack" && r.err == nil {
			r.err = fmt.Errorf("%s turned %s", lpKey, enc)
		}
		if r.err != nil {
			break
		}
	}
	r.do("CONFIG", "SET", "hash-max-listpack-entries", def)
	if r.err != nil {
		return r.err
	}
	tableN(w, mem, false)
	fmt.Fprintln(w, "\nbytes: MEMORY USAGE (SAMPLES 5, the default)")
	fmt.Fprintln(w)
	tableN(w, work, false)
	fmt.Fprintln(w, "\nlistpack: entries compared, bytes of entries walked over and bytes memmoved, from the listpack's own work counters")
	fmt.Fprintln(w, "hashtable: entries of the field's bucket chain compared (after one SipHash of the field), entries moved by incremental rehashing")
	return nil
}
