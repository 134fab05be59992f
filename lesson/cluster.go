package lesson

import (
	"fmt"
	"strconv"
	"strings"

	"redscope/engine"
)

// A lesson can run on a Redis Cluster (engine.Cluster: N engines sharing one slot map, answering
// as cluster-enabled redis-servers do). What redis-cli does around the server — creating the
// cluster, choosing the node to talk to, following MOVED with -c, resharding — are `cluster`
// lines (FORMAT.md, "The cluster"); the Player keeps the cluster instead of its single engine and
// rebuilds it on Back and Reset by replaying the same lines, so both stay exact.
//
//	cluster create 3 [empty 1]    three masters on 127.0.0.1:7000…7002 with the slot ranges of
//	                              redis-cli --cluster create (0–5460, 5461–10922, 10923–16383),
//	                              and lone nodes with no slot after them (7003)
//	cluster node 7001             the commands that follow go to this node (redis-cli -p 7001)
//	cluster follow on             follow MOVED and ASK as redis-cli -c does: print
//	                              "-> Redirected to slot [S] located at HOST:PORT", send the
//	                              command there (ASKING first for ASK) and stay connected there
//	cluster reshard 0-99 7003     move the slots, with their keys, to the node on that port with
//	                              the commands redis-cli --cluster reshard sends (engine.MoveSlot)
//
// Inside a cluster every command goes to the connected node's own client: the console's client
// tabs are for a single server.

// ClusterBasePort is the port of a lesson cluster's first node.
const ClusterBasePort = 7000

// ClusterMaxNodes bounds `cluster create` (masters and empty nodes together).
const ClusterMaxNodes = 16

// clusterHops is how many redirections a followed command may take (redis-cli -c stops too).
const clusterHops = 5

// clusterState is the cluster a Player keeps between steps.
type clusterState struct {
	cl     *engine.Cluster
	node   int  // the connected node
	follow bool // redis-cli -c
}

// IsClusterLine reports whether line is a `cluster` line (and not Redis's CLUSTER command, whose
// subcommands have other names).
func IsClusterLine(line string) bool {
	f := strings.Fields(line)
	if len(f) < 2 || !strings.EqualFold(f[0], "cluster") {
		return false
	}
	switch strings.ToLower(f[1]) {
	case "create", "node", "follow", "reshard":
		return true
	}
	return false
}

// clusterOp is one parsed cluster line.
type clusterOp struct {
	op            string // create, node, follow, reshard
	masters, lone int    // create
	port          int    // node, reshard
	on            bool   // follow
	from, to      int    // reshard: the slot range
}

func parseCluster(line string) (clusterOp, error) {
	f := strings.Fields(line)
	op := clusterOp{op: strings.ToLower(f[1])}
	num := func(s string) (int, bool) {
		n, err := strconv.Atoi(s)
		return n, err == nil
	}
	switch op.op {
	case "create":
		ok := len(f) == 3 || len(f) == 5 && strings.EqualFold(f[3], "empty")
		if ok {
			op.masters, ok = num(f[2])
		}
		if ok && len(f) == 5 {
			op.lone, ok = num(f[4])
		}
		if !ok || op.masters < 1 || op.lone < 0 || op.masters+op.lone > ClusterMaxNodes {
			return op, fmt.Errorf("cluster create needs 1 … %d masters: cluster create 3 [empty 1]", ClusterMaxNodes)
		}
	case "node":
		var ok bool
		if len(f) == 3 {
			op.port, ok = num(f[2])
		}
		if !ok {
			return op, fmt.Errorf("cluster node needs a port: cluster node %d", ClusterBasePort+1)
		}
	case "follow":
		if len(f) != 3 || (f[2] != "on" && f[2] != "off") {
			return op, fmt.Errorf("cluster follow needs on or off")
		}
		op.on = f[2] == "on"
	case "reshard":
		ok := len(f) == 4
		if ok {
			lo, hi, rng := strings.Cut(f[2], "-")
			op.from, ok = num(lo)
			op.to = op.from
			if ok && rng {
				op.to, ok = num(hi)
			}
		}
		if ok {
			op.port, ok = num(f[3])
		}
		if !ok || op.from < 0 || op.to < op.from || op.to >= engine.ClusterSlots {
			return op, fmt.Errorf("cluster reshard needs a slot range and a port: cluster reshard 0-99 %d", ClusterBasePort+3)
		}
	}
	return op, nil
}

// execClusterLine runs a cluster line.
func (p *Player) execClusterLine(line string, console bool, checks []Check) Exchange {
	x := Exchange{Exchange: engine.Exchange{Cmd: line, Console: console}}
	op, err := parseCluster(line)
	if err == nil && op.op != "create" && p.cluster == nil {
		err = fmt.Errorf("no cluster yet: cluster create 3 first")
	}
	if err == nil {
		switch op.op {
		case "create":
			x.Reply = p.clusterCreate(op)
		case "node":
			i := p.cluster.cl.NodeByPort(op.port)
			if i < 0 {
				err = fmt.Errorf("no node listens on port %d", op.port)
				break
			}
			p.connect(i)
			x.Reply = p.tr("connected to %s", "đã kết nối tới %s", p.cluster.cl.NodeAddr(i))
		case "follow":
			p.cluster.follow = op.on
			x.Reply = p.tr("following MOVED and ASK: off (redis-cli)", "theo MOVED và ASK: tắt (redis-cli)")
			if op.on {
				x.Reply = p.tr("following MOVED and ASK: on (redis-cli -c)", "theo MOVED và ASK: bật (redis-cli -c)")
			}
		case "reshard":
			x.Reply, x.Events, err = p.clusterReshard(op)
		}
	}
	if err != nil {
		x.Reply, x.Error = "(error) "+err.Error(), true
	}
	for _, c := range checks {
		got := p.measure(c, x.Reply)
		x.Checks = append(x.Checks, CheckResult{Check: c.String(), OK: got == c.Want, Got: got})
	}
	return x
}

func (p *Player) tr(en, vi string, a ...any) string {
	if p.cfg.Lang == "en" {
		return fmt.Sprintf(en, a...)
	}
	return fmt.Sprintf(vi, a...)
}

// clusterCreate replaces the Player's engine by node 0 of a new cluster.
func (p *Player) clusterCreate(op clusterOp) string {
	cl := engine.NewCluster(engine.ClusterOptions{Masters: op.masters, Empty: op.lone, Port: ClusterBasePort,
		Options: engine.Options{Version: p.cfg.Version, Allocator: p.cfg.Allocator, Seed: p.seed(), Clock: p.clock, Trace: true}})
	p.cluster = &clusterState{cl: cl}
	if p.cfg.Limits != nil {
		// Each node meets the limits (newGuard also guards the commands its scripts call).
		for _, e := range cl.Nodes() {
			p.guard = newGuard(p.cfg.Limits, e)
		}
	}
	p.connect(0)
	var parts []string
	for i := 0; i < op.masters+op.lone; i++ {
		parts = append(parts, p.tr("%s: %d slots", "%s: %d slot", cl.NodeAddr(i), cl.SlotCount(i)))
	}
	return p.tr("cluster of %d masters (%s); connected to %s", "cluster %d master (%s); đã kết nối tới %s",
		op.masters, strings.Join(parts, ", "), cl.NodeAddr(0))
}

// connect makes node i the Player's engine: the scenes, the outputs and the commands that follow
// use it.
func (p *Player) connect(i int) {
	p.cluster.node = i
	e := p.cluster.cl.Nodes()[i]
	e.SetTracing(true)
	p.eng = e
}

// clusterReshard moves the slots of op to the node on op.port; the events of every command it
// sent are the exchange's.
func (p *Player) clusterReshard(op clusterOp) (string, []engine.Event, error) {
	cl := p.cluster.cl
	to := cl.NodeByPort(op.port)
	if to < 0 {
		return "", nil, fmt.Errorf("no node listens on port %d", op.port)
	}
	evs, ev, err := cl.Reshard(op.from, op.to, to)
	if err != nil {
		return "", evs, err
	}
	moved, keys := len(ev.Moves), ev.Keys
	word := "keys"
	if keys == 1 {
		word = "key"
	}
	if p.cfg.Lang != "en" {
		return fmt.Sprintf("đã chuyển %d slot (%d–%d) cùng %d key sang %s", moved, op.from, op.to, keys, cl.NodeAddr(to)), evs, nil
	}
	return fmt.Sprintf("moved %d slots (%d–%d) with %d %s to %s", moved, op.from, op.to, keys, word, cl.NodeAddr(to)), evs, nil
}

// execInCluster runs one command on the connected node and, with follow on, follows MOVED and
// ASK as redis-cli -c does.
func (p *Player) execInCluster(line string, pre [][]byte, console bool, checks []Check) Exchange {
	p.hopping = true
	defer func() { p.hopping = false }()
	x := p.exec(line, pre, console, nil, 0)
	var evs []engine.Event
	hops := ""
	for h := 0; h < clusterHops && p.cluster.follow && x.Error; h++ {
		kind, slot, port, ok := redirection(x.Reply)
		if !ok {
			break
		}
		to := p.cluster.cl.NodeByPort(port)
		if to < 0 {
			break
		}
		evs = append(evs, x.Events...)
		hops += fmt.Sprintf("-> Redirected to slot [%d] located at %s\n", slot, p.cluster.cl.NodeAddr(to))
		p.connect(to)
		if kind == "ASK" {
			p.eng.Exec([][]byte{[]byte("ASKING")})
		}
		x = p.exec(line, pre, console, nil, 0)
	}
	x.Reply = hops + x.Reply
	x.Events = append(evs, x.Events...)
	return p.evalChecks(x, checks)
}

// redirection reads "(error) MOVED 12182 127.0.0.1:7002" or "(error) ASK …".
func redirection(reply string) (kind string, slot, port int, ok bool) {
	f := strings.Fields(strings.TrimPrefix(reply, "(error) "))
	if len(f) != 3 || (f[0] != "MOVED" && f[0] != "ASK") {
		return "", 0, 0, false
	}
	slot, err := strconv.Atoi(f[1])
	_, ps, found := strings.Cut(f[2], ":")
	port, err2 := strconv.Atoi(ps)
	return f[0], slot, port, err == nil && found && err2 == nil
}

// ClusterNode is the address of the node the Player is connected to ("127.0.0.1:7001"), "" when
// the lesson runs on a single server.
func (p *Player) ClusterNode() string {
	if p.cluster == nil {
		return ""
	}
	return p.cluster.cl.NodeAddr(p.cluster.node)
}
