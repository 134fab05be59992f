package engine

import (
	"math"
	"strconv"
	"strings"
)

// ConfigParam is one CONFIG GET/SET parameter the engine models.
//
// Kinds and how CONFIG SET parses them (config.c of 7.0.15):
//   - "int": a strict integer (string2ll) → "argument couldn't be parsed into an integer";
//   - "memory": memtoull (digits then an optional b/k/kb/m/mb/g/gb unit, any case; "" is 0)
//     → "argument must be a memory value";
//   - "enum": one of Enum, any case → "argument(s) must be one of the following: …";
//   - "bool": yes/no → "argument must be 'yes' or 'no'";
//   - "save": pairs of seconds/changes or "" → "Invalid save parameters";
//   - "string": any value.
//
// Numbers are then checked against [Min, Max]: signed for long long / int configs, and as
// unsigned 64-bit values when Unsigned (size_t, unsigned int, unsigned long long configs: a
// negative input wraps around and fails, and Max -1 stands for ULLONG_MAX).
type ConfigParam struct {
	Name      string
	Aliases   []string
	Kind      string // "int", "memory" (accepts 1kb, 512mb…), "enum", "string", "bool", "save"
	Default   string
	Min       int64
	Max       int64
	Enum      []string
	Since     Version
	Unsigned  bool // bounds checked (and the value printed) as an unsigned number
	Immutable bool // CONFIG SET fails with "can't set immutable config"
}

const maxLong = 1<<63 - 1

// configParams are the parameters that change what the engine does, followed by read/write
// parameters clients commonly ask for (their values are what a 7.0.15 started with
// an empty save list and appendonly no reports; setting them changes nothing else).
var configParams = []*ConfigParam{
	{Name: "hll-sparse-max-bytes", Kind: "memory", Default: "3000", Min: 0, Max: maxLong, Unsigned: true},
	{Name: "proto-max-bulk-len", Kind: "memory", Default: "536870912", Min: 1 << 20, Max: maxLong},
	{Name: "hash-max-listpack-entries", Aliases: []string{"hash-max-ziplist-entries"}, Kind: "int", Default: "512", Min: 0, Max: maxLong, Unsigned: true},
	{Name: "hash-max-listpack-value", Aliases: []string{"hash-max-ziplist-value"}, Kind: "memory", Default: "64", Min: 0, Max: maxLong, Unsigned: true},
	{Name: "set-max-intset-entries", Kind: "int", Default: "512", Min: 0, Max: maxLong, Unsigned: true},
	{Name: "set-max-listpack-entries", Kind: "int", Default: "128", Min: 0, Max: maxLong, Since: V72, Unsigned: true},
	{Name: "set-max-listpack-value", Kind: "memory", Default: "64", Min: 0, Max: maxLong, Since: V72, Unsigned: true},
	{Name: "zset-max-listpack-entries", Aliases: []string{"zset-max-ziplist-entries"}, Kind: "int", Default: "128", Min: 0, Max: maxLong, Unsigned: true},
	{Name: "zset-max-listpack-value", Aliases: []string{"zset-max-ziplist-value"}, Kind: "memory", Default: "64", Min: 0, Max: maxLong, Unsigned: true},
	{Name: "list-max-listpack-size", Aliases: []string{"list-max-ziplist-size"}, Kind: "int", Default: "-2", Min: -(1 << 31), Max: 1<<31 - 1},
	{Name: "list-compress-depth", Kind: "int", Default: "0", Min: 0, Max: 1<<31 - 1},
	{Name: "maxmemory", Kind: "memory", Default: "0", Min: 0, Max: -1, Unsigned: true},
	{Name: "maxmemory-policy", Kind: "enum", Default: "noeviction", Enum: []string{"volatile-lru", "volatile-lfu", "volatile-random", "volatile-ttl", "allkeys-lru", "allkeys-lfu", "allkeys-random", "noeviction"}},

	// Commonly requested, no effect on the engine.
	{Name: "save", Kind: "save", Default: ""},
	{Name: "appendonly", Kind: "bool", Default: "no"},
	{Name: "rdbcompression", Kind: "bool", Default: "yes"},
	{Name: "sanitize-dump-payload", Kind: "enum", Default: "no", Enum: []string{"no", "yes", "clients"}},
	{Name: "appendfsync", Kind: "enum", Default: "everysec", Enum: []string{"everysec", "always", "no"}},
	{Name: "databases", Kind: "int", Default: "16", Min: 1, Max: 1<<31 - 1, Immutable: true},
	{Name: "maxclients", Kind: "int", Default: "10000", Min: 1, Max: 1<<32 - 1, Unsigned: true},
	{Name: "timeout", Kind: "int", Default: "0", Min: 0, Max: 1<<31 - 1, Unsigned: true},
	{Name: "maxmemory-samples", Kind: "int", Default: "5", Min: 1, Max: 1<<31 - 1},
	{Name: "maxmemory-eviction-tenacity", Kind: "int", Default: "10", Min: 0, Max: 100},
	{Name: "lfu-log-factor", Kind: "int", Default: "10", Min: 0, Max: 1<<31 - 1},
	{Name: "lfu-decay-time", Kind: "int", Default: "1", Min: 0, Max: 1<<31 - 1},
	{Name: "active-expire-effort", Kind: "int", Default: "1", Min: 1, Max: 10},
	{Name: "activerehashing", Kind: "bool", Default: "yes"},
	{Name: "lazyfree-lazy-user-del", Kind: "bool", Default: "no"},
	{Name: "lazyfree-lazy-user-flush", Kind: "bool", Default: "no"},
	{Name: "lazyfree-lazy-expire", Kind: "bool", Default: "no"},
	{Name: "lazyfree-lazy-eviction", Kind: "bool", Default: "no"},
	{Name: "lazyfree-lazy-server-del", Kind: "bool", Default: "no"},
	{Name: "stream-node-max-bytes", Kind: "memory", Default: "4096", Min: 0, Max: maxLong, Unsigned: true},
	{Name: "stream-node-max-entries", Kind: "int", Default: "100", Min: 0, Max: maxLong},
}

// Config holds the current parameter values.
type Config struct {
	e    *Engine
	vals map[string]string // canonical name → value as CONFIG GET prints it
	ints map[string]int64
}

func newConfig(e *Engine) *Config {
	c := &Config{e: e, vals: map[string]string{}, ints: map[string]int64{}}
	for _, p := range configParams {
		c.vals[p.Name] = p.Default
		if p.Kind == "int" || p.Kind == "memory" {
			n, _ := strconv.ParseInt(p.Default, 10, 64)
			c.ints[p.Name] = n
		}
	}
	return c
}

// Param finds a parameter by name or alias (case-insensitive) available in this profile.
func (c *Config) Param(name string) *ConfigParam {
	p, _ := c.lookup(name)
	return p
}

// lookup is Param that also reports whether name was an alias (Redis 7.0 keeps aliases as
// separate table entries: `CONFIG SET a 1 alias-of-a 2` is not a duplicate).
func (c *Config) lookup(name string) (*ConfigParam, bool) {
	name = strings.ToLower(name)
	for _, p := range configParams {
		if !c.e.ver.Has(p.Since) {
			continue
		}
		if p.Name == name {
			return p, false
		}
		for _, a := range p.Aliases {
			if a == name {
				return p, true
			}
		}
	}
	return nil, false
}

// Int returns a numeric parameter's value (an unsigned value above MaxInt64, only possible for
// maxmemory, reads as negative).
func (c *Config) Int(name string) int64 { return c.ints[name] }

// Get returns a parameter's value as CONFIG GET prints it.
func (c *Config) Get(name string) string { return c.vals[name] }

// set stores an already validated value.
func (c *Config) set(p *ConfigParam, printed string, n int64) {
	c.vals[p.Name] = printed
	if p.Kind == "int" || p.Kind == "memory" {
		c.ints[p.Name] = n
	}
}

// Config gives read access to the engine's configuration.
func (e *Engine) Config() *Config { return e.cfg }

// memtoull is Redis's memory-value parser: leading digits, then "", b, k, kb, m, mb, g or gb
// (any case). Digits overflowing 64 bits saturate (strtoull) and the unit multiplication wraps,
// exactly as the C code does; "" reads as 0.
func memtoull(s string) (uint64, bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	var mul uint64
	switch strings.ToLower(s[i:]) {
	case "", "b":
		mul = 1
	case "k":
		mul = 1000
	case "kb":
		mul = 1024
	case "m":
		mul = 1000 * 1000
	case "mb":
		mul = 1024 * 1024
	case "g":
		mul = 1000 * 1000 * 1000
	case "gb":
		mul = 1024 * 1024 * 1024
	default:
		return 0, false
	}
	var v uint64
	for _, ch := range []byte(s[:i]) {
		d := uint64(ch - '0')
		if v > (math.MaxUint64-d)/10 {
			v = math.MaxUint64
			break
		}
		v = v*10 + d
	}
	return v * mul, true
}

// parseValue validates a CONFIG SET value: the printed form and the number, or Redis's error.
func (c *Config) parseValue(p *ConfigParam, val string) (printed string, n int64, errText string) {
	switch p.Kind {
	case "bool":
		switch strings.ToLower(val) {
		case "yes":
			return "yes", 0, ""
		case "no":
			return "no", 0, ""
		}
		return "", 0, "argument must be 'yes' or 'no'"
	case "enum":
		lv := strings.ToLower(val)
		for _, o := range p.Enum {
			if o == lv {
				return o, 0, ""
			}
		}
		return "", 0, "argument(s) must be one of the following: " + strings.Join(p.Enum, ", ")
	case "save":
		// sdssplitlen on single spaces, then strtoll per token: seconds >= 1, changes >= 0.
		if val == "" {
			return "", 0, ""
		}
		f := strings.Split(val, " ")
		if len(f)%2 != 0 {
			return "", 0, "Invalid save parameters"
		}
		nums := make([]string, len(f))
		for i, x := range f {
			v, ok := strtoll(x)
			if !ok || (i%2 == 0 && v < 1) || (i%2 == 1 && v < 0) {
				return "", 0, "Invalid save parameters"
			}
			nums[i] = itoa(v)
		}
		return strings.Join(nums, " "), 0, ""
	case "string":
		return val, 0, ""
	}
	var ll int64
	if p.Kind == "memory" {
		u, ok := memtoull(val)
		if !ok {
			return "", 0, "argument must be a memory value"
		}
		ll = int64(u)
	} else {
		v, ok := string2ll([]byte(val))
		if !ok {
			return "", 0, "argument couldn't be parsed into an integer"
		}
		ll = v
	}
	if p.Unsigned {
		u, lo, hi := uint64(ll), uint64(p.Min), uint64(p.Max)
		if u < lo || u > hi {
			return "", 0, "argument must be between " + strconv.FormatUint(lo, 10) + " and " + strconv.FormatUint(hi, 10) + " inclusive"
		}
		return strconv.FormatUint(u, 10), ll, ""
	}
	if ll < p.Min || ll > p.Max {
		return "", 0, "argument must be between " + itoa(p.Min) + " and " + itoa(p.Max) + " inclusive"
	}
	return itoa(ll), ll, ""
}

// strtoll is C's strtoll(s, &end, 10) with the check end == "": leading white space, an optional
// sign, digits (saturating); a string with no digits parses as 0 only when it is empty.
func strtoll(s string) (int64, bool) {
	i := 0
	for i < len(s) && (s[i] == ' ' || (s[i] >= '\t' && s[i] <= '\r')) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	start := i
	var v uint64
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if v < 1<<63 {
			v = v*10 + uint64(s[i]-'0')
		}
		i++
	}
	if i == start {
		return 0, s == ""
	}
	if i != len(s) {
		return 0, false
	}
	if neg {
		if v > 1<<63 {
			v = 1 << 63
		}
		return -int64(v), true
	}
	if v > math.MaxInt64 {
		v = math.MaxInt64
	}
	return int64(v), true
}
