// Package ring places keys on nodes two ways: plain hash % N and a consistent-hash ring with
// virtual nodes. It is pure Go, shared by `redscope lab ring` and the browser's ring scene.
//
// The ring is the textbook construction the course article uses: node n's i-th virtual node
// (i = 0 … V-1) sits at hash("n#i"); a key belongs to the first point at or after hash(key),
// wrapping past the top to the first point. Points are kept sorted by position; points with
// equal positions keep the order they were added in (nodes in the order given, virtual nodes
// in index order, later nodes after earlier ones).
package ring

import (
	"crypto/md5"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"sort"
	"strconv"

	"github.com/zeebo/xxh3"
)

// Hash maps a label or key to a position.
type Hash func(s string) uint64

// HashNames lists the hashes Lookup knows.
var HashNames = []string{"md5", "crc32", "xxh3"}

// Lookup returns a hash by name:
//   - md5: the first 4 bytes of MD5, big-endian (the article's h32);
//   - crc32: CRC-32 (IEEE);
//   - xxh3: XXH3-64.
func Lookup(name string) (Hash, error) {
	switch name {
	case "md5":
		return MD5, nil
	case "crc32":
		return CRC32, nil
	case "xxh3":
		return XXH3, nil
	}
	return nil, fmt.Errorf("unknown hash %q (want one of md5, crc32, xxh3)", name)
}

// MD5 is the first 4 bytes of md5(s), big-endian.
func MD5(s string) uint64 {
	d := md5.Sum([]byte(s))
	return uint64(binary.BigEndian.Uint32(d[:4]))
}

// CRC32 is CRC-32/IEEE of s.
func CRC32(s string) uint64 { return uint64(crc32.ChecksumIEEE([]byte(s))) }

// XXH3 is XXH3-64 of s.
func XXH3(s string) uint64 { return xxh3.HashString(s) }

// Point is one virtual node on the ring.
type Point struct {
	Pos   uint64
	Node  string
	Label string // "node#i"
}

// Label is the string hashed for node's i-th virtual node.
func Label(node string, i int) string { return node + "#" + strconv.Itoa(i) }

// Ring is a consistent-hash ring.
type Ring struct {
	hash   Hash
	vnodes int
	nodes  []string
	points []Point
}

// New makes a ring with vnodes points per node (at least 1) and adds nodes in order.
func New(h Hash, vnodes int, nodes ...string) *Ring {
	if vnodes < 1 {
		vnodes = 1
	}
	r := &Ring{hash: h, vnodes: vnodes}
	for _, n := range nodes {
		r.Add(n)
	}
	return r
}

// Nodes lists the nodes in the order they were added.
func (r *Ring) Nodes() []string { return append([]string(nil), r.nodes...) }

// Points lists the ring's points in ring order (callers must not modify it).
func (r *Ring) Points() []Point { return r.points }

// VNodes is the number of points per node.
func (r *Ring) VNodes() int { return r.vnodes }

// Add places node's virtual nodes (nothing happens if the node is already there).
func (r *Ring) Add(node string) {
	for _, n := range r.nodes {
		if n == node {
			return
		}
	}
	r.nodes = append(r.nodes, node)
	for i := 0; i < r.vnodes; i++ {
		l := Label(node, i)
		r.points = append(r.points, Point{Pos: r.hash(l), Node: node, Label: l})
	}
	sort.SliceStable(r.points, func(a, b int) bool { return r.points[a].Pos < r.points[b].Pos })
}

// Remove takes node and its points off the ring; it reports whether it was there.
func (r *Ring) Remove(node string) bool {
	found := false
	for i, n := range r.nodes {
		if n == node {
			r.nodes = append(r.nodes[:i:i], r.nodes[i+1:]...)
			found = true
			break
		}
	}
	if !found {
		return false
	}
	kept := r.points[:0]
	for _, p := range r.points {
		if p.Node != node {
			kept = append(kept, p)
		}
	}
	r.points = kept
	return true
}

// PointIndex is the index of the point owning position pos: the first at or after it, wrapping
// to 0. It is -1 on an empty ring.
func (r *Ring) PointIndex(pos uint64) int {
	if len(r.points) == 0 {
		return -1
	}
	i := sort.Search(len(r.points), func(i int) bool { return r.points[i].Pos >= pos })
	if i == len(r.points) {
		i = 0
	}
	return i
}

// Owner is the node owning position pos ("" on an empty ring).
func (r *Ring) Owner(pos uint64) string {
	i := r.PointIndex(pos)
	if i < 0 {
		return ""
	}
	return r.points[i].Node
}

// Get is the node a key belongs to.
func (r *Ring) Get(key string) string { return r.Owner(r.hash(key)) }

// Mod is hash % N placement: nodes[pos % len(nodes)] ("" without nodes).
func Mod(pos uint64, nodes []string) string {
	if len(nodes) == 0 {
		return ""
	}
	return nodes[pos%uint64(len(nodes))]
}

// Loads counts how many assignments went to each node, in the order of nodes.
func Loads(assign []string, nodes []string) []int {
	idx := make(map[string]int, len(nodes))
	for i, n := range nodes {
		idx[n] = i
	}
	out := make([]int, len(nodes))
	for _, a := range assign {
		if i, ok := idx[a]; ok {
			out[i]++
		}
	}
	return out
}

// Moved counts the keys whose node differs between two assignments of the same keys.
func Moved(before, after []string) int {
	n := 0
	for i := range before {
		if i < len(after) && before[i] != after[i] {
			n++
		}
	}
	return n
}

// Change is a membership change: add one node or remove one.
type Change struct {
	Add    string
	Remove string
}

// Apply returns nodes after the change (a new slice; order kept, an added node last).
func (c Change) Apply(nodes []string) []string {
	out := make([]string, 0, len(nodes)+1)
	for _, n := range nodes {
		if n != c.Remove {
			out = append(out, n)
		}
	}
	if c.Add != "" {
		out = append(out, c.Add)
	}
	return out
}

// Result is one placement scheme's outcome for a set of keys and a change.
type Result struct {
	Scheme     string // "hash % N" or "ring vnodes=V"
	VNodes     int    // 0 for hash % N
	Before     []int  // keys per node before the change, in the order of the nodes before
	After      []int  // keys per node after the change, in the order of the nodes after
	Moved      int
	Keys       int
	NodesAfter []string
}

// MovedShare is Moved/Keys.
func (r Result) MovedShare() float64 {
	if r.Keys == 0 {
		return 0
	}
	return float64(r.Moved) / float64(r.Keys)
}

// Compare places keys (given by their positions) with hash % N and with a ring of each vnode
// count, before and after the change.
func Compare(h Hash, positions []uint64, nodes []string, change Change, vnodes []int) []Result {
	after := change.Apply(nodes)
	before := make([]string, len(positions))
	moved := make([]string, len(positions))
	var out []Result
	for i, p := range positions {
		before[i] = Mod(p, nodes)
		moved[i] = Mod(p, after)
	}
	out = append(out, Result{Scheme: "hash % N", Before: Loads(before, nodes), After: Loads(moved, after),
		Moved: Moved(before, moved), Keys: len(positions), NodesAfter: after})
	for _, v := range vnodes {
		r := New(h, v, nodes...)
		for i, p := range positions {
			before[i] = r.Owner(p)
		}
		if change.Remove != "" {
			r.Remove(change.Remove)
		}
		if change.Add != "" {
			r.Add(change.Add)
		}
		for i, p := range positions {
			moved[i] = r.Owner(p)
		}
		out = append(out, Result{Scheme: "ring vnodes=" + strconv.Itoa(v), VNodes: v,
			Before: Loads(before, nodes), After: Loads(moved, after), Moved: Moved(before, moved),
			Keys: len(positions), NodesAfter: after})
	}
	return out
}
