package lesson

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"redscope/engine"
	"redscope/ring"
)

// The consistent-hash ring is not a Redis command, so lessons drive it with `ring` lines (see
// FORMAT.md, "The ring"). A ring line is an action like a command: it runs inside the Player,
// which keeps the ring's state beside the engine and rebuilds it on Back and Reset by replaying
// the same lines, so both stay exact. Its exchange carries the measured figures (keys per node,
// keys moved) as its reply, and a ring.Event with the whole picture for the ring scene.
//
//	ring nodes cache-a,cache-b,cache-c,cache-d [vnodes 150] [keys product:%d 10000] [hash md5]
//	ring add cache-e
//	ring remove cache-b
//	ring vnodes 1
//
// The figures come from package ring with the placement rules of `redscope lab ring`: the
// same nodes, keys, hash and change give the same keys per node and the same share moved.

// Ring limits: one ring line must stay cheap to replay in the browser.
const (
	RingMaxKeys   = 100_000
	RingMaxVNodes = 1000
	RingMaxNodes  = 12
	// RingSamples is how many keys (the pattern's first) a ring.Event places individually.
	RingSamples = 48
)

// Ring defaults (the course article's lab: md5, product:%d, 150 virtual nodes).
const (
	RingDefaultVNodes = 150
	RingDefaultKeys   = 10_000
	RingDefaultHash   = "md5"
)

// ringState is the ring a Player keeps between steps.
type ringState struct {
	hash      ring.Hash
	hashName  string
	vnodes    int
	nodes     []string
	pattern   string
	positions []uint64
}

// IsRingLine reports whether a command line is a ring line ("ring …", any case).
func IsRingLine(line string) bool { return ring.IsLine(line) }

// ringOp is one parsed ring line.
type ringOp struct {
	op      string // "nodes", "add", "remove", "vnodes"
	nodes   []string
	node    string
	vnodes  int // 0 = keep/default
	pattern string
	count   int
	hash    string
}

// parseRing parses the words after "ring".
func parseRing(line string) (ringOp, error) {
	f := strings.Fields(line)
	if len(f) > 0 && strings.EqualFold(f[0], "ring") {
		f = f[1:]
	}
	if len(f) == 0 {
		return ringOp{}, fmt.Errorf("ring needs nodes, add, remove or vnodes")
	}
	op := ringOp{op: strings.ToLower(f[0])}
	args := f[1:]
	num := func(s string, lo, hi int, what string) (int, error) {
		n, err := strconv.Atoi(s)
		if err != nil || n < lo || n > hi {
			return 0, fmt.Errorf("ring: %s must be a whole number from %d to %d", what, lo, hi)
		}
		return n, nil
	}
	switch op.op {
	case "add", "remove":
		if len(args) != 1 {
			return op, fmt.Errorf("ring %s needs one node name", op.op)
		}
		op.node = args[0]
	case "vnodes":
		if len(args) != 1 {
			return op, fmt.Errorf("ring vnodes needs a count")
		}
		n, err := num(args[0], 1, RingMaxVNodes, "vnodes")
		if err != nil {
			return op, err
		}
		op.vnodes = n
	case "nodes":
		if len(args) == 0 {
			return op, fmt.Errorf("ring nodes needs a comma-separated list of nodes")
		}
		seen := map[string]bool{}
		for _, n := range strings.Split(args[0], ",") {
			if n = strings.TrimSpace(n); n == "" {
				continue
			}
			if seen[n] {
				return op, fmt.Errorf("ring: node %q given twice", n)
			}
			seen[n] = true
			op.nodes = append(op.nodes, n)
		}
		if len(op.nodes) == 0 || len(op.nodes) > RingMaxNodes {
			return op, fmt.Errorf("ring nodes needs 1 to %d nodes", RingMaxNodes)
		}
		op.vnodes, op.pattern, op.count, op.hash = RingDefaultVNodes, "product:%d", RingDefaultKeys, RingDefaultHash
		for i := 1; i < len(args); i++ {
			switch strings.ToLower(args[i]) {
			case "vnodes":
				if i+1 >= len(args) {
					return op, fmt.Errorf("ring nodes: vnodes needs a count")
				}
				n, err := num(args[i+1], 1, RingMaxVNodes, "vnodes")
				if err != nil {
					return op, err
				}
				op.vnodes = n
				i++
			case "keys":
				if i+2 >= len(args) {
					return op, fmt.Errorf("ring nodes: keys needs a pattern with %%d and a count")
				}
				if strings.Count(args[i+1], "%d") != 1 || strings.Count(args[i+1], "%") != 1 {
					return op, fmt.Errorf("ring nodes: the key pattern needs exactly one %%d")
				}
				n, err := num(args[i+2], 1, RingMaxKeys, "the key count")
				if err != nil {
					return op, err
				}
				op.pattern, op.count = args[i+1], n
				i += 2
			case "hash":
				if i+1 >= len(args) {
					return op, fmt.Errorf("ring nodes: hash needs a name")
				}
				if _, err := ring.Lookup(strings.ToLower(args[i+1])); err != nil {
					return op, fmt.Errorf("ring nodes: %v", err)
				}
				op.hash = strings.ToLower(args[i+1])
				i++
			default:
				return op, fmt.Errorf("ring nodes: unknown option %q (want vnodes, keys, hash)", args[i])
			}
		}
	default:
		return op, fmt.Errorf("ring: unknown operation %q (want nodes, add, remove, vnodes)", f[0])
	}
	return op, nil
}

// apply runs op on the state st (nil before the first `ring nodes`) and returns the new state
// and the event.
func applyRing(st *ringState, op ringOp) (*ringState, ring.Event, error) {
	if op.op == "nodes" {
		h, _ := ring.Lookup(op.hash)
		nst := &ringState{hash: h, hashName: op.hash, vnodes: op.vnodes, nodes: op.nodes, pattern: op.pattern}
		// Positions are computed once per key set and shared by later lines (never modified).
		if st != nil && st.hashName == op.hash && st.pattern == op.pattern && len(st.positions) == op.count {
			nst.positions = st.positions
		} else {
			nst.positions = make([]uint64, op.count)
			for i := range nst.positions {
				nst.positions[i] = h(ring.KeyName(op.pattern, i))
			}
		}
		r := ring.New(h, op.vnodes, op.nodes...)
		ev := nst.event(op, nil, nil, r)
		return nst, ev, nil
	}
	if st == nil {
		return nil, ring.Event{}, fmt.Errorf("no ring yet: start with ring nodes a,b,c,d")
	}
	before := ring.New(st.hash, st.vnodes, st.nodes...)
	nst := *st
	after := ring.New(st.hash, st.vnodes, st.nodes...)
	switch op.op {
	case "add":
		for _, n := range st.nodes {
			if n == op.node {
				return nil, ring.Event{}, fmt.Errorf("%s is already on the ring", op.node)
			}
		}
		if len(st.nodes) >= RingMaxNodes {
			return nil, ring.Event{}, fmt.Errorf("at most %d nodes", RingMaxNodes)
		}
		nst.nodes = ring.Change{Add: op.node}.Apply(st.nodes)
		after.Add(op.node)
	case "remove":
		found := false
		for _, n := range st.nodes {
			found = found || n == op.node
		}
		if !found {
			return nil, ring.Event{}, fmt.Errorf("%s is not on the ring", op.node)
		}
		if len(st.nodes) == 1 {
			return nil, ring.Event{}, fmt.Errorf("cannot remove the only node")
		}
		nst.nodes = ring.Change{Remove: op.node}.Apply(st.nodes)
		after.Remove(op.node)
	case "vnodes":
		nst.vnodes = op.vnodes
		after = ring.New(st.hash, op.vnodes, st.nodes...)
	}
	ev := nst.event(op, st.nodes, before, after)
	return &nst, ev, nil
}

// event measures the state after op: every key's owner on the ring and with hash % N, and,
// when before is given, how many owners changed.
func (st *ringState) event(op ringOp, oldNodes []string, before, after *ring.Ring) ring.Event {
	ev := ring.Event{Op: op.op, Hash: st.hashName, VNodes: st.vnodes, Pattern: st.pattern,
		Keys: len(st.positions), Nodes: append([]string(nil), st.nodes...), RingMoved: -1, ModMoved: -1,
		Points: append([]ring.Point(nil), after.Points()...)}
	ev.Space = math.Exp2(32)
	if st.hashName == "xxh3" {
		ev.Space = math.Exp2(64)
	}
	switch op.op {
	case "add", "remove":
		ev.Arg = op.node
	case "vnodes":
		ev.Arg = strconv.Itoa(op.vnodes)
	}
	if oldNodes != nil {
		ev.Before = append([]string(nil), oldNodes...)
	}
	ringAfter := make([]string, len(st.positions))
	modAfter := make([]string, len(st.positions))
	ringMoved, modMoved := 0, 0
	for i, p := range st.positions {
		ringAfter[i] = after.Owner(p)
		modAfter[i] = ring.Mod(p, st.nodes)
		if before != nil && before.Owner(p) != ringAfter[i] {
			ringMoved++
		}
		if oldNodes != nil && ring.Mod(p, oldNodes) != modAfter[i] {
			modMoved++
		}
	}
	ev.RingLoad = ring.Loads(ringAfter, st.nodes)
	ev.ModLoad = ring.Loads(modAfter, st.nodes)
	if before != nil {
		ev.RingMoved = ringMoved
	}
	if oldNodes != nil && op.op != "vnodes" {
		ev.ModMoved = modMoved
	}
	for i := 0; i < min(RingSamples, len(st.positions)); i++ {
		p := st.positions[i]
		s := ring.Sample{Key: ring.KeyName(st.pattern, i), Pos: p, Owner: ringAfter[i], ModOwner: modAfter[i]}
		if before != nil {
			s.Was = before.Owner(p)
		}
		if oldNodes != nil {
			s.ModWas = ring.Mod(p, oldNodes)
		}
		ev.Samples = append(ev.Samples, s)
	}
	return ev
}

// execRing runs a ring line on the player's ring.
func (p *Player) execRing(line string, console bool, checks []Check) Exchange {
	x := Exchange{Exchange: engine.Exchange{Cmd: line, Console: console}}
	op, err := parseRing(line)
	if err == nil {
		var st *ringState
		var ev ring.Event
		if st, ev, err = applyRing(p.ring, op); err == nil {
			p.ring = st
			x.Reply = ev.Reply()
			x.Events = []engine.Event{ev}
		}
	}
	if err != nil {
		x.Reply, x.Error = "(error) "+strings.TrimPrefix(err.Error(), "ring: "), true
	}
	for _, c := range checks {
		got := p.measure(c, x.Reply)
		x.Checks = append(x.Checks, CheckResult{Check: c.String(), OK: got == c.Want, Got: got})
	}
	return x
}
