package lab

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"redscope/engine"
	"redscope/engine/alloc"
)

// engineFlags are the flags of the labs that run on the engine.
type engineFlags struct {
	common
	allocator string
}

func newEngineFlagSet(name string, c *engineFlags) *flag.FlagSet {
	fs := labFlagSet(name, &c.common, "random seed of the engine and of the generated data",
		engine.DefaultVersion.String(), "Redis version profile")
	fs.StringVar(&c.allocator, "allocator", "jemalloc", "jemalloc | jemalloc-16")
	return fs
}

// parseEngine parses the flags and makes the engine.
func parseEngine(fs *flag.FlagSet, c *engineFlags, args []string) (*engine.Engine, error) {
	o, err := parseEngineOptions(fs, c, args)
	if err != nil {
		return nil, err
	}
	return engine.New(o), nil
}

// parseEngineOptions parses the flags into engine options.
func parseEngineOptions(fs *flag.FlagSet, c *engineFlags, args []string) (engine.Options, error) {
	if err := parse(fs, &common{}, args); err != nil {
		return engine.Options{}, err
	}
	v, err := engine.ParseVersion(c.version)
	if err != nil {
		return engine.Options{}, fmt.Errorf("%s: %v", fs.Name(), err)
	}
	a, err := alloc.Parse(c.allocator)
	if err != nil || c.allocator == "" {
		return engine.Options{}, fmt.Errorf("%s: unknown allocator %q (want jemalloc or jemalloc-16)", fs.Name(), c.allocator)
	}
	return engine.Options{Version: v, Allocator: a, Seed: c.seed}, nil
}

// profile is the header fragment naming the engine a lab ran on.
func profile(e *engine.Engine, seed uint64) string {
	return fmt.Sprintf("Redis %s, %s, seed %d", e.Version(), e.Allocator(), seed)
}

// runner runs commands on an engine and keeps the first unexpected error reply.
type runner struct {
	e   *engine.Engine
	err error
}

func (r *runner) exec(args [][]byte) engine.Reply {
	rep := r.e.Exec(args).Reply
	if rep.Kind == engine.KindError && r.err == nil {
		r.err = fmt.Errorf("%s: %s", cmdLine(args), rep.Str)
	}
	return rep
}

func (r *runner) do(args ...string) engine.Reply {
	b := make([][]byte, len(args))
	for i, a := range args {
		b[i] = []byte(a)
	}
	return r.exec(b)
}

// try runs a command whose error reply is expected (it is returned, not kept).
func (r *runner) try(args ...string) engine.Reply { return r.e.Do(args...) }

// int runs a command that answers an integer.
func (r *runner) int(args ...string) int64 {
	rep := r.do(args...)
	if rep.Kind != engine.KindInt {
		if r.err == nil {
			r.err = fmt.Errorf("%s: want an integer, got %s", strings.Join(args, " "), rep.FormatCLI())
		}
		return 0
	}
	return rep.Int
}

// mem is MEMORY USAGE key.
func (r *runner) mem(key string) int64 { return r.int("MEMORY", "USAGE", key) }

// str runs a command that answers a status or bulk string.
func (r *runner) str(args ...string) string {
	rep := r.do(args...)
	if rep.Kind != engine.KindStatus && rep.Kind != engine.KindBulk {
		if r.err == nil {
			r.err = fmt.Errorf("%s: want a string, got %s", strings.Join(args, " "), rep.FormatCLI())
		}
		return ""
	}
	return rep.Str
}

// batch accumulates the arguments of a variadic command (PFADD key e1 e2 …, SADD …) and runs it
// every size arguments.
type batch struct {
	r    *runner
	head [][]byte
	args [][]byte
	buf  []byte
	offs []int
	size int
}

func newBatch(r *runner, size int, head ...string) *batch {
	b := &batch{r: r, size: size}
	for _, h := range head {
		b.head = append(b.head, []byte(h))
	}
	return b
}

// add appends one argument (copied).
func (b *batch) add(arg []byte) {
	b.offs = append(b.offs, len(b.buf))
	b.buf = append(b.buf, arg...)
	if len(b.offs) >= b.size {
		b.flush()
	}
}

func (b *batch) flush() {
	if len(b.offs) == 0 {
		return
	}
	b.args = append(b.args[:0], b.head...)
	for i, o := range b.offs {
		end := len(b.buf)
		if i+1 < len(b.offs) {
			end = b.offs[i+1]
		}
		b.args = append(b.args, b.buf[o:end:end])
	}
	b.r.exec(b.args)
	b.buf, b.offs = b.buf[:0], b.offs[:0]
}

func cmdLine(args [][]byte) string {
	var sb strings.Builder
	for i, a := range args {
		if i > 0 {
			sb.WriteByte(' ')
		}
		if i == 6 && len(args) > 8 {
			fmt.Fprintf(&sb, "… (%d arguments)", len(args))
			break
		}
		sb.Write(a)
	}
	return sb.String()
}

// mix is a bijection of uint64 keyed by the seed (xor, then SplitMix64's finalizer): distinct
// inputs give distinct ids, so generated data has an exact true count.
func mix(seed, i uint64) uint64 {
	x := i ^ (seed*0x9e3779b97f4a7c15 + 0x632be59bd9b4e019)
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// intList parses "100,1000,1500" (underscores allowed: 1_000_000) into positive increasing ints.
func intList(name, s string, increasing bool) ([]int64, error) {
	var out []int64
	for _, f := range strings.Split(s, ",") {
		f = strings.ReplaceAll(strings.TrimSpace(f), "_", "")
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("--%s %q: want positive integers separated by commas", name, s)
		}
		if increasing && len(out) > 0 && v <= out[len(out)-1] {
			return nil, fmt.Errorf("--%s %q: the counts must increase", name, s)
		}
		out = append(out, v)
	}
	return out, nil
}

// signedFixed prints x with d decimals and a leading minus for negatives (toFixed of |x|).
func signedFixed(x float64, d int) string {
	if x < 0 {
		s := toFixed(-x, d)
		if strings.Trim(s, "0.") == "" {
			return s
		}
		return "-" + s
	}
	return toFixed(x, d)
}

// config is CONFIG GET name's value.
func (r *runner) config(name string) string {
	rep := r.do("CONFIG", "GET", name)
	if rep.Kind != engine.KindArray || len(rep.Array) != 2 {
		if r.err == nil {
			r.err = fmt.Errorf("CONFIG GET %s: got %s", name, rep.FormatCLI())
		}
		return ""
	}
	return rep.Array[1].Str
}

// cli is the reply as redis-cli --no-raw prints it, without the final newline.
func cli(r engine.Reply) string { return strings.TrimSuffix(r.FormatCLI(), "\n") }
