package engine

import (
	"math"
	"strconv"

	"redscope/engine/bloom"
)

// Bloom filters: RedisBloom's BF.RESERVE, BF.ADD, BF.MADD, BF.EXISTS, BF.MEXISTS, BF.INFO and
// BF.CARD over engine/bloom (sizing, hashing and scaling rules are documented there).
//
// Profiles: 8.x has Bloom filters built in (RedisBloom 8.x texts: range errors "ERR error rate
// must be in the range (0.000000, 1.000000)", capacity [1, 2^30], expansion [0, 32768], an error
// rate above 0.25 is capped to 0.25, EXPANSION 0 means NONSCALING). The 7.x profiles answer as
// Redis Stack of that generation (RedisBloom 2.6/2.8 texts: "ERR (0 < error rate range < 1) ",
// "ERR (capacity should be larger than 0)", "ERR expansion should be greater or equal to 1").
// Like a module, each command checks its own argument count (arity -1 in the table), and the
// arity error names the command in lowercase.
//
// The value is a module type: TYPE says "MBbloom--", OBJECT ENCODING "raw".

// TypeBloom is the ObjType of a Bloom filter (RedisBloom's module type "MBbloom--"). Module
// types use numbers from 64 up so that core types can take the next small ones.
const TypeBloom ObjType = 64

func init() {
	moduleTypeNames[TypeBloom] = "MBbloom--"
	register(
		&Command{Name: "bf.reserve", Arity: -1, Flags: FlagWrite | FlagDenyOOM, Cost: bfReserveCost, Fn: cmdBFReserve},
		&Command{Name: "bf.add", Arity: -1, Flags: FlagWrite | FlagDenyOOM, Fn: cmdBFAdd},
		&Command{Name: "bf.madd", Arity: -1, Flags: FlagWrite | FlagDenyOOM, Fn: cmdBFAdd},
		&Command{Name: "bf.exists", Arity: -1, Flags: FlagReadonly | FlagFast, Fn: cmdBFExists},
		&Command{Name: "bf.mexists", Arity: -1, Flags: FlagReadonly | FlagFast, Fn: cmdBFExists},
		&Command{Name: "bf.info", Arity: -1, Flags: FlagReadonly | FlagFast, Fn: cmdBFInfo},
		&Command{Name: "bf.card", Arity: -1, Flags: FlagReadonly | FlagFast, Fn: cmdBFCard},
	)
}

// BloomValue is the Val of a TypeBloom object.
type BloomValue struct{ Chain *bloom.Chain }

// CloneValue implements ValueCloner (COPY).
func (v *BloomValue) CloneValue() any { return &BloomValue{Chain: v.Chain.Clone()} }

func (e *Engine) emitFilterAdded(key []byte, c *bloom.Chain, reason string) {
	if !e.tracing {
		return
	}
	i := len(c.Filters) - 1
	f := c.Filters[i]
	e.emit(BloomFilterAddedEvent{Key: string(key), Index: i, Reason: reason, Capacity: f.Entries,
		Error: f.Error, Bits: f.Bits, Bytes: f.Bytes, Hashes: f.Hashes})
}

// bloom limits and defaults (8.x configuration; 2.x hard-codes the same defaults).
const (
	bfDefaultError     = 0.01
	bfDefaultCapacity  = 100
	bfDefaultExpansion = 2
	bfErrorCap         = 0.25
	bfMaxCapacity      = 1 << 30
	bfMaxExpansion     = 32768
)

// lookupBloom returns the chain of key: missing → (nil, false), another type → wrongType.
func (e *Engine) lookupBloom(key []byte) (c *bloom.Chain, wrongType bool) {
	o := e.Lookup(key)
	if o == nil {
		return nil, false
	}
	v, ok := o.Val.(*BloomValue)
	if o.Type != TypeBloom || !ok {
		return nil, true
	}
	return v.Chain, false
}

// argIndex is RMUtil_ArgIndex: the first argument (the command name included) equal to word,
// ignoring case, or -1.
func argIndex(args [][]byte, word string) int {
	for i, a := range args {
		if eqFold(a, word) {
			return i
		}
	}
	return -1
}

func (e *Engine) newBloomObject(key []byte, c *bloom.Chain, reason string) {
	e.add(key, &Object{Type: TypeBloom, Enc: EncRaw, Val: &BloomValue{Chain: c}})
	e.emitFilterAdded(key, c, reason)
}

func bloomCreateErr(err error) Reply {
	if err == bloom.ErrOOM {
		return Err("ERR Insufficient memory to create filter")
	}
	return Err("ERR could not create filter")
}

func cmdBFReserve(e *Engine, args [][]byte) Reply {
	if len(args) < 4 || len(args) > 7 {
		return errArity("bf.reserve")
	}
	legacy := !e.ver.Has(V80)
	rate, ok := parseStrtod(args[2])
	if !ok {
		return Err("ERR bad error rate")
	}
	if !(rate > 0 && rate < 1) {
		if legacy {
			return Err("ERR (0 < error rate range < 1) ")
		}
		return Err("ERR error rate must be in the range (0.000000, 1.000000)")
	}
	if !legacy && rate > bfErrorCap {
		rate = bfErrorCap
	}
	capacity, ok := string2ll(args[3])
	if !ok {
		return Err("ERR bad capacity")
	}
	if legacy && capacity <= 0 {
		return Err("ERR (capacity should be larger than 0)")
	}
	if !legacy && (capacity < 1 || capacity > bfMaxCapacity) {
		return Err("ERR capacity must be in the range [1, 1073741824]")
	}
	nonScaling := argIndex(args, "nonscaling") != -1
	expansion := int64(bfDefaultExpansion)
	ex := argIndex(args, "expansion")
	if ex+1 == len(args) {
		return Err("ERR no expansion")
	}
	if ex != -1 {
		if legacy {
			if nonScaling {
				return errNonScalingExpand
			}
			if expansion, ok = string2ll(args[ex+1]); !ok {
				return errBadExpansion
			}
			if expansion < 1 {
				return Err("ERR expansion should be greater or equal to 1")
			}
		} else {
			if expansion, ok = string2ll(args[ex+1]); !ok {
				return errBadExpansion
			}
			if expansion == 0 {
				nonScaling = true
			} else if nonScaling {
				return errNonScalingExpand
			}
			if expansion < 0 || expansion > bfMaxExpansion {
				return Err("ERR expansion must be in the range [0, 32768]")
			}
		}
	}
	if c, wrong := e.lookupBloom(args[1]); wrong {
		return ErrWrongType
	} else if c != nil {
		return errBFExists
	}
	c, err := bloom.NewChain(uint64(capacity), rate, uint32(expansion), nonScaling)
	if err != nil {
		return bloomCreateErr(err)
	}
	e.newBloomObject(args[1], c, "reserve")
	return OK
}

// bfReserveCost: BF.RESERVE allocates its first filter at once, sized by the error rate and the
// capacity (bloom.SizeFilter, as NewChain sizes it).
func bfReserveCost(e *Engine, args [][]byte) Cost {
	if len(args) < 4 {
		return Cost{}
	}
	rate, ok1 := parseStrtod(args[2])
	capacity, ok2 := string2ll(args[3])
	if !ok1 || !ok2 || capacity <= 0 {
		return Cost{}
	}
	f, err := bloom.SizeFilter(uint64(capacity), rate)
	if err != nil {
		return Cost{}
	}
	return Cost{AllocBytes: int64(f.Bits / 8)}
}

func cmdBFAdd(e *Engine, args [][]byte) Reply {
	multi := len(args[0]) > 3 && (args[0][3] == 'm' || args[0][3] == 'M')
	if (multi && len(args) < 3) || (!multi && len(args) != 3) {
		return errArity(lowerASCII(args[0]))
	}
	c, wrong := e.lookupBloom(args[1])
	if wrong {
		return ErrWrongType
	}
	if c == nil {
		var err error
		c, err = bloom.NewChain(bfDefaultCapacity, bfDefaultError, bfDefaultExpansion, false)
		if err != nil {
			return bloomCreateErr(err)
		}
		e.newBloomObject(args[1], c, "autocreate")
	}
	e.signalModifiedBytes(e.db, args[1]) // (module.c: a key opened for writing, closed)
	var out []Reply
	if multi {
		out = make([]Reply, 0, len(args)-2)
	}
	for _, item := range args[2:] {
		res, err := c.Add(item, e.tracing)
		var r Reply
		switch {
		case err == bloom.ErrFull:
			r = Err("ERR non scaling filter is full")
		case err != nil:
			r = Err("ERR problem inserting into filter")
		case res.Added:
			r = Int(1)
		default:
			r = Int(0)
		}
		if e.tracing {
			if res.FilterAdded {
				e.emitFilterAdded(args[1], c, "expansion")
			}
			e.emitBloomItem(args[1], "add", item, c, res, err)
		}
		if !multi {
			return r
		}
		out = append(out, r)
		if err == bloom.ErrFull {
			break
		}
	}
	return Array(out...)
}

// emitBloomItem reports one item's probes.
func (e *Engine) emitBloomItem(key []byte, op string, item []byte, c *bloom.Chain, res bloom.AddResult, err error) {
	ev := BloomEvent{Key: string(key), Op: op, Item: append([]byte(nil), item...), HashA: res.Hash.A,
		HashB: res.Hash.B, Filter: res.Filter, Filters: len(c.Filters)}
	switch {
	case err == bloom.ErrFull:
		ev.Result, ev.Filter = "full", len(c.Filters)-1
	case err != nil:
		ev.Result, ev.Filter = "error", len(c.Filters)-1
	case res.Added:
		ev.Result = "added"
	case op == "add" || res.Filter >= 0:
		ev.Result = "exists"
	default:
		ev.Result, ev.Filter = "absent", len(c.Filters)-1
	}
	f := c.Filters[ev.Filter]
	ev.Bits = f.Bits
	if res.Probes != nil {
		for _, p := range res.Probes {
			ev.Positions = append(ev.Positions, p.Bit)
			ev.WasSet = append(ev.WasSet, p.WasSet)
		}
	} else {
		for i := 0; i < f.Hashes; i++ {
			x := f.Position(res.Hash, i)
			ev.Positions = append(ev.Positions, x)
			ev.WasSet = append(ev.WasSet, f.Test(x))
		}
	}
	e.emit(ev)
}

func cmdBFExists(e *Engine, args [][]byte) Reply {
	multi := len(args[0]) > 3 && (args[0][3] == 'm' || args[0][3] == 'M')
	if (multi && len(args) < 3) || (!multi && len(args) != 3) {
		return errArity(lowerASCII(args[0]))
	}
	// RedisBloom answers 0 for a missing key and for a key of another type alike.
	c, _ := e.lookupBloom(args[1])
	var out []Reply
	if multi {
		out = make([]Reply, 0, len(args)-2)
	}
	for _, item := range args[2:] {
		found := false
		if c != nil {
			found = c.Contains(item)
			if e.tracing {
				e.traceExists(args[1], item, c)
			}
		}
		r := Int(0)
		if found {
			r = Int(1)
		}
		if !multi {
			return r
		}
		out = append(out, r)
	}
	return Array(out...)
}

func (e *Engine) traceExists(key, item []byte, c *bloom.Chain) {
	h := bloom.HashItem(item)
	res := bloom.AddResult{Hash: h, Filter: -1}
	for i := len(c.Filters) - 1; i >= 0; i-- {
		if c.Filters[i].Contains(h) {
			res.Filter = i
			break
		}
	}
	e.emitBloomItem(key, "exists", item, c, res, nil)
}

func cmdBFInfo(e *Engine, args [][]byte) Reply {
	if len(args) != 2 && len(args) != 3 {
		return errArity("bf.info")
	}
	c, wrong := e.lookupBloom(args[1])
	if wrong {
		return ErrWrongType
	}
	if c == nil {
		return errBFNotFound
	}
	expansion := Int(int64(c.Growth))
	if c.NoScaling {
		expansion = NilReply
	}
	if len(args) == 3 {
		var r Reply
		switch f := args[2]; {
		case eqFold(f, "capacity"):
			r = Int(int64(c.Capacity()))
		case eqFold(f, "size"):
			r = Int(int64(c.MemUsage()))
		case eqFold(f, "filters"):
			r = Int(int64(len(c.Filters)))
		case eqFold(f, "items"):
			r = Int(int64(c.Items))
		case eqFold(f, "expansion"):
			r = expansion
		default:
			return Err("Invalid information value")
		}
		return Array(r)
	}
	return Array(
		Status("Capacity"), Int(int64(c.Capacity())),
		Status("Size"), Int(int64(c.MemUsage())),
		Status("Number of filters"), Int(int64(len(c.Filters))),
		Status("Number of items inserted"), Int(int64(c.Items)),
		Status("Expansion rate"), expansion,
	)
}

func cmdBFCard(e *Engine, args [][]byte) Reply {
	if len(args) != 2 {
		return errArity("bf.card")
	}
	c, wrong := e.lookupBloom(args[1])
	if wrong {
		return ErrWrongType
	}
	if c == nil {
		return Int(0)
	}
	return Int(int64(c.Items))
}

// BloomMemUsage is the module's memory-usage callback for a Bloom value (BF.INFO Size); 0 for
// other objects. MEMORY USAGE can add it to the key overhead.
func BloomMemUsage(o *Object) int64 {
	if v, ok := o.Val.(*BloomValue); ok && o.Type == TypeBloom {
		return int64(v.Chain.MemUsage())
	}
	return 0
}

// parseStrtod is Redis's string2d as RedisModule_StringToDouble uses it: the whole argument must
// be a C strtod number (decimal or hexadecimal, "inf"/"infinity" in any case, optional sign), no
// leading space, not NaN, not overflowing to ±HUGE_VAL and not underflowing to zero.
func parseStrtod(b []byte) (float64, bool) {
	if len(b) == 0 || len(b) > 512 {
		return 0, false
	}
	i := 0
	if b[0] == '+' || b[0] == '-' {
		i++
	}
	rest := b[i:]
	if eqFold(rest, "inf") || eqFold(rest, "infinity") {
		if b[0] == '-' {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	}
	hex := len(rest) > 2 && rest[0] == '0' && (rest[1] == 'x' || rest[1] == 'X')
	digits, nonzero, dot, exp := 0, false, false, false
	j := 0
	if hex {
		j = 2
	}
	for ; j < len(rest); j++ {
		c := rest[j]
		switch {
		case c >= '0' && c <= '9' || hex && (c|0x20) >= 'a' && (c|0x20) <= 'f':
			digits++
			nonzero = nonzero || c != '0'
		case c == '.' && !dot:
			dot = true
		default:
			goto mantissaDone
		}
	}
mantissaDone:
	if digits == 0 {
		return 0, false
	}
	if j < len(rest) {
		c := rest[j] | 0x20
		if (!hex && c == 'e') || (hex && c == 'p') {
			k := j + 1
			if k < len(rest) && (rest[k] == '+' || rest[k] == '-') {
				k++
			}
			if k == len(rest) {
				return 0, false
			}
			for ; k < len(rest); k++ {
				if rest[k] < '0' || rest[k] > '9' {
					return 0, false
				}
			}
			exp = true
		} else {
			return 0, false
		}
	}
	s := string(b)
	if hex && !exp {
		s += "p0"
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil && (math.IsInf(v, 0) || v == 0) {
		return 0, false
	}
	if err != nil || math.IsNaN(v) {
		return 0, false
	}
	if v == 0 && nonzero {
		return 0, false // underflow: strtod sets ERANGE and returns 0
	}
	return v, true
}

// bloomMemory is MEMORY USAGE of a Bloom key. For a module value Redis counts the type's
// mem_usage callback (BF.INFO Size) instead of the robj: 7.x adds the key sds and the dictEntry
// (objectComputeSize returns the callback alone), 8.x the kvobj allocation.
func (e *Engine) bloomMemory(key []byte, o *Object) int64 {
	if e.ver.KVObj() {
		return e.keyEntryOverhead(key, o) + BloomMemUsage(o)
	}
	return int64(e.keySDSUsable(key)+24) + BloomMemUsage(o)
}
