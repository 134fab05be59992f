package lab

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"

	"redscope/engine"
)

// `redscope lab bitfield` reproduces the course's progress table (seeds/000 §3.6): the progress
// (0…100 %) of S students × L lessons as u7 cells of one string, against one hash per student,
// and the three OVERFLOW behaviours on +10 from 120.
//
// The article does not give the progress values (only that student 12345's lesson 7 is at 30);
// the lab draws every cell uniformly from 0…100 with the seed.

// BitfieldConfig is one `lab bitfield` run.
type BitfieldConfig struct {
	Students int64
	Lessons  int64
	Hash     bool // also store one hash per student (when the engine has HSET)
}

func runBitfield(args []string, w io.Writer) error {
	var ef engineFlags
	fs := newEngineFlagSet("bitfield", &ef)
	students := fs.Int64("students", 100000, "number of students")
	lessons := fs.Int64("lessons", 40, "lessons per student")
	hash := fs.Bool("hash", true, "also store one hash per student")
	e, err := parseEngine(fs, &ef, args)
	if err != nil {
		return err
	}
	cfg := BitfieldConfig{Students: *students, Lessons: *lessons, Hash: *hash}
	if err := checkBounds(fs, bounds{"students", cfg.Students, 1, 1000000}, bounds{"lessons", cfg.Lessons, 1, 1000}); err != nil {
		return err
	}
	if cfg.Students*cfg.Lessons > 100000000 {
		return fmt.Errorf("lab bitfield: %d cells is too many (at most 100000000)", cfg.Students*cfg.Lessons)
	}
	return Bitfield(e, ef.seed, cfg, w)
}

// Bitfield runs the lab on e and prints its tables.
func Bitfield(e *engine.Engine, seed uint64, cfg BitfieldConfig, w io.Writer) error {
	r := &runner{e: e}
	fmt.Fprintf(w, "lab bitfield: %s; progress 0…100%% of %d students × %d lessons, every cell drawn from the seed (the article's values are not given)\n\n",
		profile(e, seed), cfg.Students, cfg.Lessons)
	rng := rand.New(rand.NewPCG(seed, 0x70726f6772657373)) // "progress"
	withHash := cfg.Hash && e.HasCommand("hset")

	// One BITFIELD command per student, cells in order: cell student·L + lesson.
	bf := [][]byte{[]byte("BITFIELD"), []byte("prog")}
	hs := [][]byte{[]byte("HSET"), nil}
	var buf []byte
	setOp, u7 := []byte("SET"), []byte("u7")
	var hashBytes int64
	for s := int64(0); s < cfg.Students; s++ {
		bf = bf[:2]
		hs = hs[:2]
		buf = buf[:0]
		// Build all arguments in one buffer, then slice it (no aliasing: the buffer is not grown
		// after the slices are taken, because offsets are recorded first).
		var offs []int
		for l := int64(0); l < cfg.Lessons; l++ {
			v := rng.IntN(101)
			offs = append(offs, len(buf))
			buf = append(buf, '#')
			buf = strconv.AppendInt(buf, s*cfg.Lessons+l, 10)
			offs = append(offs, len(buf))
			buf = strconv.AppendInt(buf, l, 10)
			offs = append(offs, len(buf))
			buf = strconv.AppendInt(buf, int64(v), 10)
		}
		offs = append(offs, len(buf))
		for l := 0; l < int(cfg.Lessons); l++ {
			cell, field, val := buf[offs[3*l]:offs[3*l+1]], buf[offs[3*l+1]:offs[3*l+2]], buf[offs[3*l+2]:offs[3*l+3]]
			bf = append(bf, setOp, u7, cell, val)
			hs = append(hs, field, val)
		}
		r.exec(bf)
		if withHash {
			key := "prog:" + strconv.FormatInt(s, 10)
			hs[1] = []byte(key)
			r.exec(hs)
			hashBytes += r.mem(key)
		}
		if r.err != nil {
			return r.err
		}
	}
	student := min(12345, cfg.Students-1)
	lesson := min(7, cfg.Lessons-1)
	cell := "#" + strconv.FormatInt(student*cfg.Lessons+lesson, 10)
	ro := "BITFIELD_RO"
	if !e.HasCommand("bitfield_ro") {
		ro = "BITFIELD"
	}
	rows := [][]string{{"layout", "keys", "bytes", "read one cell", "reply"}}
	rows = append(rows, []string{"one string, u7 cells", "1", strconv.FormatInt(r.mem("prog"), 10),
		ro + " prog GET u7 " + cell, replyItems(r.do(ro, "prog", "GET", "u7", cell))})
	if withHash {
		hkey := "prog:" + strconv.FormatInt(student, 10)
		rows = append(rows, []string{"one hash per student (" + r.str("OBJECT", "ENCODING", hkey) + ")",
			strconv.FormatInt(cfg.Students, 10), strconv.FormatInt(hashBytes, 10),
			"HGET " + hkey + " " + strconv.FormatInt(lesson, 10), cli(r.do("HGET", hkey, strconv.FormatInt(lesson, 10)))})
	} else {
		rows = append(rows, []string{"one hash per student", "-", "-", "this engine has no HSET yet", ""})
	}
	table(w, rows, true)
	fmt.Fprintf(w, "\nbytes: MEMORY USAGE of the string (STRLEN %d = ceil(%d cells × 7 bits / 8), the rest is greedy growth); for the hashes the sum of their MEMORY USAGE (the keyspace's own entries not included)\n",
		r.int("STRLEN", "prog"), cfg.Students*cfg.Lessons)

	// OVERFLOW on +10 from 120 (u7: 0…127).
	fmt.Fprintln(w)
	rows = [][]string{{"OVERFLOW", "BITFIELD ovf … INCRBY u7 #0 10", "reply", "value after"}}
	for _, mode := range []string{"", "WRAP", "SAT", "FAIL"} {
		r.do("BITFIELD", "ovf", "SET", "u7", "#0", "120")
		args := []string{"BITFIELD", "ovf"}
		label := mode
		if mode == "" {
			label = "(none: WRAP)"
		} else {
			args = append(args, "OVERFLOW", mode)
		}
		args = append(args, "INCRBY", "u7", "#0", "10")
		rep := r.do(args...)
		rows = append(rows, []string{label, shortArgs(args[2:]), replyItems(rep),
			replyItems(r.do("BITFIELD", "ovf", "GET", "u7", "#0"))})
	}
	table(w, rows, false)
	return r.err
}

// replyItems prints an array reply on one line: [2], [(nil)].
func replyItems(rep engine.Reply) string {
	if rep.Kind != engine.KindArray {
		return cli(rep)
	}
	s := ""
	for i, it := range rep.Array {
		if i > 0 {
			s += " "
		}
		switch it.Kind {
		case engine.KindInt:
			s += strconv.FormatInt(it.Int, 10)
		default:
			s += cli(it)
		}
	}
	return s
}
