package ring

import (
	"fmt"
	"strconv"
	"strings"
)

// Sample is one key placed on the ring, before and after a ring line.
type Sample struct {
	Key      string
	Pos      uint64
	Owner    string // ring owner after the line
	Was      string // ring owner before ("" for `ring nodes`)
	ModOwner string // hash % N after
	ModWas   string
}

// Event is what a lesson's ring line ("ring add cache-e", lesson/FORMAT.md) did, measured over
// all its keys: on md5 with 4 nodes × 150 virtual nodes and the 10 000 keys product:0 …
// product:9999, adding cache-e moves 2 263 keys (22.6%) on the ring and 8 021 (80.2%) with
// hash % N. The lesson player makes it (it implements redscope/engine's Event); the ring scene
// draws it.
type Event struct {
	Op        string // "nodes", "add", "remove", "vnodes"
	Arg       string // the node added or removed, the new vnode count
	Hash      string
	Space     float64 // size of the hash space: positions are in [0, Space)
	VNodes    int
	Pattern   string
	Keys      int
	Nodes     []string // after the line, in the order hash % N uses
	Before    []string // before the line (nil for "nodes")
	Points    []Point  // the ring after the line, in ring order
	RingLoad  []int    // keys per node of Nodes on the ring
	ModLoad   []int    // keys per node of Nodes with hash % N
	RingMoved int      // keys whose ring owner changed (-1 for "nodes")
	ModMoved  int      // keys whose hash % N owner changed (-1 for "nodes" and "vnodes")
	Samples   []Sample
}

// Kind implements redscope/engine's Event: a ring line's exchange carries one.
func (Event) Kind() string { return "ring" }

// IsLine reports whether a command line is a ring line ("ring …", any case).
func IsLine(line string) bool {
	w, _, _ := strings.Cut(strings.TrimSpace(line), " ")
	return strings.EqualFold(w, "ring")
}

// KeyName is key i of a ring line's pattern: its first %d replaced by i ("product:%d", 7 →
// "product:7").
func KeyName(pattern string, i int) string {
	return strings.Replace(pattern, "%d", strconv.Itoa(i), 1)
}

// Reply is the exchange's text: the measured figures, one line each.
func (ev Event) Reply() string {
	var b strings.Builder
	fmt.Fprintf(&b, "ring %s, %d vnodes/node, %d keys %s … %s\n", ev.Hash, ev.VNodes, ev.Keys,
		KeyName(ev.Pattern, 0), KeyName(ev.Pattern, ev.Keys-1))
	fmt.Fprintf(&b, "nodes:    %s\n", strings.Join(ev.Nodes, " "))
	loads := func(l []int) string {
		s := make([]string, len(l))
		for i, n := range l {
			s[i] = strconv.Itoa(n)
		}
		return strings.Join(s, " ")
	}
	fmt.Fprintf(&b, "ring:     %s", loads(ev.RingLoad))
	if ev.RingMoved >= 0 {
		fmt.Fprintf(&b, " · moved %d (%s)", ev.RingMoved, Percent(ev.RingMoved, ev.Keys))
	}
	fmt.Fprintf(&b, "\nhash %% N: %s", loads(ev.ModLoad))
	if ev.ModMoved >= 0 {
		fmt.Fprintf(&b, " · moved %d (%s)", ev.ModMoved, Percent(ev.ModMoved, ev.Keys))
	}
	return b.String()
}

// Percent prints n/of as a percentage with one decimal, as `redscope lab ring` does.
func Percent(n, of int) string {
	if of == 0 {
		return "0.0%"
	}
	return strconv.FormatFloat(100*float64(n)/float64(of), 'f', 1, 64) + "%"
}
