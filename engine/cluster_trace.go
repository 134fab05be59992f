package engine

// Cluster trace events and the slot moves a scene animates (cluster.go has the model).
//
// A node reports, for each command with keys, either where it served it (ClusterServedEvent: a
// per-node request counter makes a hot key visible) or why it did not (ClusterRedirectEvent:
// MOVED and ASK with the node to ask, CROSSSLOT with the keys' slots, TRYAGAIN, CLUSTERDOWN).
// Slot ownership and migration states report ClusterSlotEvent; MIGRATE reports one
// ClusterKeyMigratedEvent per key it handed over. Events are collected only while the node's
// engine traces (Options.Trace). The event types, Reshard's summary ClusterReshardEvent
// included, are declared with the others in trace.go.
//
// A scene draws a node's keys from SampleKeys: K keys spread over the node's slots, read
// through the per-slot key index, so drawing a node of 1 000 000 keys costs what drawing one of
// 1 000 does.

import (
	"slices"
	"strconv"
	"strings"
)

var redirNames = [...]string{redirCrossSlot: "CROSSSLOT", redirUnstable: "TRYAGAIN", redirDownState: "CLUSTERDOWN",
	redirDownUnbound: "CLUSTERDOWN", redirMoved: "MOVED", redirAsk: "ASK"}

// traceRoute reports the routing decision for the keys of cmds.
func (n *clusterNode) traceRoute(cmds []queuedCmd, to *clusterNode, slot int, code clusterRedir) {
	if !n.e.tracing {
		return
	}
	var keys []string
	var slots []int
	for _, q := range cmds {
		for _, k := range commandKeys(q.c, q.args) {
			keys = append(keys, string(k))
			slots = append(slots, KeySlot(k))
		}
	}
	if len(keys) == 0 {
		return
	}
	if code == redirNone && to == n {
		n.e.emit(ClusterServedEvent{Node: n.idx, Slot: slot, Keys: keys})
		return
	}
	idx := -1
	if to != nil {
		idx = to.idx
	}
	n.e.emit(ClusterRedirectEvent{Node: n.idx, Redirect: redirNames[code], Slot: slot, To: idx, Keys: keys, Slots: slots})
}

func (n *clusterNode) traceSlot(slot int, action string, to int) {
	n.e.emit(ClusterSlotEvent{Node: n.idx, Slot: slot, Action: action, To: to})
}

// MigratingTo is the node slot s is migrating to on node i (-1: none); ImportingFrom likewise.
func (cl *Cluster) MigratingTo(i, s int) int {
	if to, ok := cl.nodes[i].migrating[s]; ok {
		return to
	}
	return -1
}

// MigratingSlots lists the slots node i is migrating away, in order.
func (cl *Cluster) MigratingSlots(i int) []int { return sortedSlots(cl.nodes[i].migrating) }

// ImportingSlots lists the slots node i is importing, in order.
func (cl *Cluster) ImportingSlots(i int) []int { return sortedSlots(cl.nodes[i].importing) }

func sortedSlots(m map[int]int) []int {
	out := make([]int, 0, len(m))
	for s := range m {
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

// ImportingFrom is the node node i imports slot s from (-1: none).
func (cl *Cluster) ImportingFrom(i, s int) int {
	if from, ok := cl.nodes[i].importing[s]; ok {
		return from
	}
	return -1
}

// Known reports whether node i knows node j (CLUSTER NODES of i lists j).
func (cl *Cluster) Known(i, j int) bool { return cl.nodes[i].known[j] }

// MoveSlot moves slot s and its keys from the node serving it to node to with the commands
// redis-cli --cluster reshard sends (clusterManagerMoveSlot): SETSLOT IMPORTING on the target,
// MIGRATING on the source, CLUSTER GETKEYSINSLOT s 10 and MIGRATE … KEYS until the slot is
// empty, then SETSLOT NODE on the target, the source and every other master. It returns each
// command's node and result (trace events included), and stops at the first error reply.
func (cl *Cluster) MoveSlot(s, to int) ([]ClusterStep, error) {
	if s < 0 || s >= ClusterSlots || to < 0 || to >= len(cl.nodes) {
		return nil, errString("MoveSlot: no such slot or node")
	}
	from := cl.SlotOwner(s)
	if from < 0 || from == to {
		return nil, errString("MoveSlot: slot " + strconv.Itoa(s) + " is unassigned or already there")
	}
	var steps []ClusterStep
	do := func(node int, args ...string) (Reply, error) {
		b := make([][]byte, len(args))
		for i, a := range args {
			b[i] = []byte(a)
		}
		res := cl.nodes[node].e.Exec(b)
		steps = append(steps, ClusterStep{Node: node, Args: args, Result: res})
		if res.Reply.IsError() {
			return res.Reply, errString(res.Reply.Str)
		}
		return res.Reply, nil
	}
	slot := strconv.Itoa(s)
	src, dst := cl.nodes[from], cl.nodes[to]
	if _, err := do(to, "CLUSTER", "SETSLOT", slot, "IMPORTING", src.id); err != nil {
		return steps, err
	}
	if _, err := do(from, "CLUSTER", "SETSLOT", slot, "MIGRATING", dst.id); err != nil {
		return steps, err
	}
	for {
		r, err := do(from, "CLUSTER", "GETKEYSINSLOT", slot, "10")
		if err != nil {
			return steps, err
		}
		if len(r.Array) == 0 {
			break
		}
		args := []string{"MIGRATE", dst.ip, strconv.Itoa(dst.port), "", "0", "60000", "KEYS"}
		for _, k := range r.Array {
			args = append(args, k.Str)
		}
		if _, err := do(from, args...); err != nil {
			return steps, err
		}
	}
	order := []int{to, from}
	for i := range cl.nodes {
		if i != to && i != from && cl.nodes[i].known[to] && cl.nodes[i].numSlots() > 0 {
			order = append(order, i)
		}
	}
	for _, i := range order {
		if _, err := do(i, "CLUSTER", "SETSLOT", slot, "NODE", dst.id); err != nil {
			return steps, err
		}
	}
	return steps, nil
}

// Reshard moves slots first…last (those not already served by node to) to node to, one by one
// with MoveSlot, and returns the events of every command it sent followed by the summary
// ClusterReshardEvent (its Moves hold the slots moved before an error, if one stopped it).
func (cl *Cluster) Reshard(first, last, to int) ([]Event, ClusterReshardEvent, error) {
	ev := ClusterReshardEvent{To: to, First: first, Last: last}
	if first < 0 || last >= ClusterSlots || first > last || to < 0 || to >= len(cl.nodes) {
		return nil, ev, errString("Reshard: no such slot range or node")
	}
	counts := func() (keys, slots []int) {
		for i, n := range cl.nodes {
			keys = append(keys, len(n.e.dbs[0].keys))
			slots = append(slots, cl.SlotCount(i))
		}
		return
	}
	ev.KeysBefore, ev.SlotsBefore = counts()
	var evs []Event
	var err error
	for s := first; s <= last && err == nil; s++ {
		from := cl.SlotOwner(s)
		if from == to {
			continue
		}
		var steps []ClusterStep
		steps, err = cl.MoveSlot(s, to)
		mv := ClusterSlotMove{Slot: s, From: from}
		for _, st := range steps {
			for _, e := range st.Result.Events {
				if k, ok := e.(ClusterKeyMigratedEvent); ok && !k.Copy {
					mv.Keys++
				}
				evs = append(evs, e)
			}
		}
		if err == nil {
			ev.Moves = append(ev.Moves, mv)
			ev.Keys += mv.Keys
		}
	}
	ev.KeysAfter, ev.SlotsAfter = counts()
	return append(evs, ev), ev, err
}

// SampleKeys is up to k of node i's keys of db 0, spread over the slot map, in slot order. A
// node of at most sampleAll keys gives every (n/k)-th of its keys sorted by slot; a bigger one
// the smallest key of each of 4k slots evenly spaced over the 16 384 (every 64th slot for
// k = 64) that holds keys. It reads the per-slot key index without changing it, so its cost
// does not grow with the node's key count (with 3 masters and 1 000 000 keys a slot holds
// about 61).
func (cl *Cluster) SampleKeys(i, k int) []string {
	n := cl.nodes[i]
	if k <= 0 {
		return nil
	}
	db := n.e.dbs[0].keys
	if len(db) <= max(sampleAll, k) {
		type slotKey struct {
			slot int
			key  string
		}
		sk := make([]slotKey, 0, len(db))
		for key := range db {
			sk = append(sk, slotKey{KeySlot([]byte(key)), key})
		}
		slices.SortFunc(sk, func(a, b slotKey) int {
			if a.slot != b.slot {
				return a.slot - b.slot
			}
			return strings.Compare(a.key, b.key)
		})
		all := make([]string, len(sk))
		for j, x := range sk {
			all[j] = x.key
		}
		if len(all) <= k {
			return all
		}
		out := make([]string, k)
		for j := range out {
			out[j] = all[j*len(all)/k]
		}
		return out
	}
	var out []string
	for j := 0; j < 4*k && len(out) < k; j++ {
		m := n.slotKeys[j*ClusterSlots/(4*k)]
		best, ok := "", false
		for key := range m { // the smallest key, then whether it is live (one lookup)
			if !ok || key < best {
				best, ok = key, true
			}
		}
		if _, live := db[best]; ok && !live { // a deleted key still indexed: check them all
			best, ok = "", false
			for key := range m {
				if _, live := db[key]; live && (!ok || key < best) {
					best, ok = key, true
				}
			}
		}
		if ok {
			out = append(out, best)
		}
	}
	return out
}

// sampleAll is the largest node SampleKeys sorts whole.
const sampleAll = 1024

// KeyCount is how many keys node i holds in db 0.
func (cl *Cluster) KeyCount(i int) int { return len(cl.nodes[i].e.dbs[0].keys) }

// ClusterStep is one command MoveSlot sent.
type ClusterStep struct {
	Node   int
	Args   []string
	Result Result
}

type errString string

func (e errString) Error() string { return string(e) }
