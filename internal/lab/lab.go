// Package lab implements redscope's command-line labs (`redscope lab ring|bloom|hll|bitmap|
// bitfield|random|listpack|lesson`): small deterministic experiments that print plain tables,
// reproducing the figures the course articles publish. All but ring and bloom run on the engine
// and report its work counters, never wall time.
package lab

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"redscope/engine"
)

// labs are the labs by name, in the order usage lists them.
var labs = []struct {
	name string
	run  func(args []string, stdout io.Writer) error
}{
	{"ring", runRing}, {"bloom", runBloom}, {"hll", runHLL}, {"bitmap", runBitmap},
	{"bitfield", runBitfield}, {"random", runRandom}, {"listpack", runListpack}, {"lesson", runLesson},
}

// Run runs one lab: args[0] names it (see usage), the rest are its flags.
func Run(args []string, stdout io.Writer) error {
	var names []string
	for _, l := range labs {
		names = append(names, l.name)
	}
	if len(args) == 0 {
		return fmt.Errorf("lab: which one? (%s)", strings.Join(names, ", "))
	}
	for _, l := range labs {
		if l.name == args[0] {
			return l.run(args[1:], stdout)
		}
	}
	switch args[0] {
	case "help", "-h", "--help":
		_, err := io.WriteString(stdout, usage)
		return err
	}
	last := len(names) - 1
	return fmt.Errorf("lab: unknown lab %q (want %s or %s)", args[0], strings.Join(names[:last], ", "), names[last])
}

const usage = `redscope lab ring  [--hash md5|crc32|xxh3] [--keys 'product:%d'] [--count 100000]
                   [--nodes cache-a,cache-b,cache-c,cache-d] (--add NODE | --remove NODE)
                   [--vnodes 1,150]
    keys per node with hash % N and with a consistent-hash ring of each vnode count, and the
    share of keys that move when a node is added or removed.
redscope lab bloom [--hash sha256] [--keys 'product:%d'] [--capacity 100000] [--error 0.01]
                   [--probes 200000] [--overfill 3] [--size-only]
    a textbook Bloom filter: size, false negatives, false-positive rate, and the rate after
    overfilling it.
redscope lab hll   [--counts 100,1000,1500,2000,10000,100000,1000000] [--elements 'u%d']
                   [--days 7] [--per-day 200000] [--overlap 0.5] [--set=true]
    HyperLogLog error, bytes and encoding as the true count grows; a week of daily HLLs:
    PFCOUNT of the days, PFMERGE, and what summing daily counts gives.
redscope lab bitmap [--students 100000] [--days 7] [--set=true]
    attendance bitmaps against sets of the same ids, the BITOP questions (DIFF, DIFF1, ANDOR,
    ONE on 8.2+) with the bytes the engine scanned and wrote, one bit at a large offset.
redscope lab bitfield [--students 100000] [--lessons 40] [--hash=true]
    a progress table as u7 BITFIELD cells of one string against one hash per student, and
    OVERFLOW WRAP / SAT / FAIL on +10 from 120.
redscope lab random [--small 10] [--members 1000] [--draws 200000]
    how evenly SRANDMEMBER and ZRANDMEMBER draw (min, max, chi-square) against a uniform rank
    drawn by the application and read with ZRANGE.
redscope lab listpack [--counts 16,128,512,1000,10000]
    listpack against hashtable hashes of growing size: MEMORY USAGE, and the entries compared
    and bytes scanned and moved by HGET/HSET, from the engine's work counters.
redscope lab lesson FILE [--check] [--lang en|vi]
    plays a lesson file (lesson/FORMAT.md) headless and prints its transcript; --check fails
    when an expectation does not hold.
Every lab accepts --seed N and --redis-version V (default 8.8); the labs that run on the engine
(all but ring and bloom) also take --allocator jemalloc|jemalloc-16. Output is deterministic for
a seed; no figure is a wall-clock time.
`

// common are the flags every lab accepts.
type common struct {
	seed    uint64
	version string
}

// newFlagSet is the flag set of a lab that does not run on the engine (newEngineFlagSet's do).
func newFlagSet(name string, c *common) *flag.FlagSet {
	return labFlagSet(name, c, "random seed (unused: the lab is deterministic)", "", "Redis version profile (unused by this lab)")
}

// labFlagSet is a lab's flag set holding --seed and --redis-version (default version).
func labFlagSet(name string, c *common, seedUsage, version, versionUsage string) *flag.FlagSet {
	fs := flag.NewFlagSet("lab "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Func("seed", seedUsage, func(s string) error {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return errors.New("not an unsigned integer")
		}
		c.seed = v
		return nil
	})
	fs.StringVar(&c.version, "redis-version", version, versionUsage)
	return fs
}

func parse(fs *flag.FlagSet, c *common, args []string) error {
	if err := fs.Parse(args); err != nil {
		msg := err.Error()
		if strings.HasPrefix(msg, "flag provided but not defined: ") {
			msg = "unknown flag --" + strings.TrimLeft(strings.TrimPrefix(msg, "flag provided but not defined: "), "-")
		}
		return fmt.Errorf("%s: %s", fs.Name(), msg)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%s: unexpected argument %q", fs.Name(), fs.Arg(0))
	}
	if c.version != "" {
		if _, err := engine.ParseVersion(c.version); err != nil {
			return fmt.Errorf("%s: %v", fs.Name(), err)
		}
	}
	return nil
}

// bounds is an integer flag's value and the range it must be in.
type bounds struct {
	flag      string
	v, lo, hi int64
}

// checkBounds is nil when every flag is in its range, else the first one outside, as
// "lab NAME: --flag V: want LO … HI".
func checkBounds(fs *flag.FlagSet, bs ...bounds) error {
	for _, b := range bs {
		if b.v < b.lo || b.v > b.hi {
			return fmt.Errorf("%s: --%s %d: want %d … %d", fs.Name(), b.flag, b.v, b.lo, b.hi)
		}
	}
	return nil
}

// keyPattern turns 'product:%d' into a key maker; the pattern must hold exactly one %d.
type keyPattern struct{ prefix, suffix string }

func parsePattern(p string) (keyPattern, error) {
	i := strings.Index(p, "%d")
	if i < 0 || strings.Contains(p[i+2:], "%d") {
		return keyPattern{}, fmt.Errorf("--keys %q must contain %%d exactly once", p)
	}
	return keyPattern{p[:i], p[i+2:]}, nil
}

func (k keyPattern) append(dst []byte, n int64) []byte {
	dst = append(dst, k.prefix...)
	dst = strconv.AppendInt(dst, n, 10)
	return append(dst, k.suffix...)
}

func (k keyPattern) key(n int64) string { return string(k.append(nil, n)) }

// pct formats num/den·100 with the given decimals, as the article's JavaScript
// ((num / den) * 100).toFixed(d) does.
func pct(num, den int64, decimals int) string {
	if den == 0 {
		return "-"
	}
	return toFixed(float64(num)/float64(den)*100, decimals) + "%"
}

// toFixed is JavaScript's Number.prototype.toFixed for finite x ≥ 0 below 1e21: the exact binary
// value rounded to d decimals, a tie going to the larger number (strconv rounds ties to even).
func toFixed(x float64, d int) string {
	s := strconv.FormatFloat(x, 'f', d+40, 64) // exact digits well past any possible tie
	dot := strings.IndexByte(s, '.')
	keep := []byte(s[:dot+1+d])
	if s[dot+1+d] >= '5' {
		i := len(keep) - 1
		for ; i >= 0; i-- {
			if keep[i] == '.' {
				continue
			}
			if keep[i] < '9' {
				keep[i]++
				break
			}
			keep[i] = '0'
		}
		if i < 0 {
			keep = append([]byte{'1'}, keep...)
		}
	}
	return strings.TrimSuffix(string(keep), ".")
}

// table prints rows with columns padded to their widest cell; numeric-looking cells are right
// aligned (but not a free-text last column, with freeLast).
func table(w io.Writer, rows [][]string, freeLast bool) { printTable(w, rows, freeLast, false) }

// tableN is table with numeric cells of the first column right aligned too.
func tableN(w io.Writer, rows [][]string, freeLast bool) { printTable(w, rows, freeLast, true) }

func printTable(w io.Writer, rows [][]string, freeLast, numFirst bool) {
	var widths []int
	for _, r := range rows {
		for i, c := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			if n := utf8.RuneCountInString(c); n > widths[i] {
				widths[i] = n
			}
		}
	}
	var b strings.Builder
	for _, r := range rows {
		b.Reset()
		for i, c := range r {
			if i > 0 {
				b.WriteString("  ")
			}
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			if i == len(r)-1 && freeLast {
				b.WriteString(c)
			} else if (i > 0 || numFirst) && numeric(c) {
				b.WriteString(pad + c)
			} else {
				b.WriteString(c + pad)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

func numeric(s string) bool {
	if s == "" {
		return false
	}
	c := s[0]
	return c >= '0' && c <= '9' || c == '-'
}
