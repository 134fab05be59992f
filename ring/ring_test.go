package ring

import (
	"strconv"
	"testing"
)

// Reference values: Python hashlib.md5 / zlib.crc32; XXH3-64 of "" is the published 0x2D06800538D394C2.
func TestHashes(t *testing.T) {
	cases := []struct {
		s          string
		md5, crc32 uint64
	}{
		{"cache-a#0", 865605960, 330349473},
		{"product:0", 3302914588, 1584212445},
		{"hello", 1564557354, 907060870},
	}
	for _, c := range cases {
		if got := MD5(c.s); got != c.md5 {
			t.Errorf("MD5(%q) = %d want %d", c.s, got, c.md5)
		}
		if got := CRC32(c.s); got != c.crc32 {
			t.Errorf("CRC32(%q) = %d want %d", c.s, got, c.crc32)
		}
	}
	if got := XXH3(""); got != 0x2D06800538D394C2 {
		t.Errorf("XXH3(\"\") = %#x", got)
	}
	for _, n := range HashNames {
		if _, err := Lookup(n); err != nil {
			t.Error(err)
		}
	}
	if _, err := Lookup("sha1"); err == nil {
		t.Error("sha1 accepted")
	}
}

// A hand-made hash makes the ring's rules visible: positions are the numbers in the labels.
func TestRingRules(t *testing.T) {
	pos := map[string]uint64{"a#0": 100, "b#0": 200, "c#0": 300, "k50": 50, "k100": 100, "k101": 101, "k300": 300, "k301": 301, "x#0": 200}
	h := func(s string) uint64 { return pos[s] }
	r := New(h, 1, "a", "b", "c")
	for key, want := range map[string]string{"k50": "a", "k100": "a", "k101": "b", "k300": "c", "k301": "a"} {
		if got := r.Get(key); got != want {
			t.Errorf("%s → %s want %s", key, got, want)
		}
	}
	// x lands on the same position as b: the earlier point keeps it (stable order).
	r.Add("x")
	if got := r.Get("k101"); got != "b" {
		t.Errorf("tie: k101 → %s want b", got)
	}
	if !r.Remove("b") || r.Remove("b") {
		t.Error("Remove result wrong")
	}
	if got := r.Get("k101"); got != "x" {
		t.Errorf("after removing b: k101 → %s want x", got)
	}
	if len(r.Points()) != 3 || len(r.Nodes()) != 3 {
		t.Errorf("points %v nodes %v", r.Points(), r.Nodes())
	}
	if New(h, 1).Get("k1") != "" || Mod(5, nil) != "" {
		t.Error("empty ring/mod should own nothing")
	}
}

func TestLabelsAndVnodes(t *testing.T) {
	r := New(MD5, 150, "cache-a")
	if len(r.Points()) != 150 || Label("cache-a", 0) != "cache-a#0" {
		t.Fatal("vnode points/labels")
	}
	for i := 1; i < len(r.Points()); i++ {
		if r.Points()[i-1].Pos > r.Points()[i].Pos {
			t.Fatal("points not sorted")
		}
	}
	// the point labelled cache-a#0 sits at md5("cache-a#0")
	found := false
	for _, p := range r.Points() {
		if p.Label == "cache-a#0" && p.Pos == 865605960 {
			found = true
		}
	}
	if !found {
		t.Error("cache-a#0 not at its md5 position")
	}
}

// Adding a node to a ring only moves keys to the new node; loads add up.
func TestCompareInvariants(t *testing.T) {
	nodes := []string{"n1", "n2", "n3"}
	pos := make([]uint64, 20000)
	for i := range pos {
		pos[i] = XXH3("k" + strconv.Itoa(i))
	}
	res := Compare(XXH3, pos, nodes, Change{Add: "n4"}, []int{1, 64})
	if len(res) != 3 || res[0].Scheme != "hash % N" || res[2].Scheme != "ring vnodes=64" {
		t.Fatalf("results %+v", res)
	}
	for _, r := range res {
		sum, sumAfter := 0, 0
		for _, n := range r.Before {
			sum += n
		}
		for _, n := range r.After {
			sumAfter += n
		}
		if sum != len(pos) || sumAfter != len(pos) {
			t.Errorf("%s: loads sum to %d/%d", r.Scheme, sum, sumAfter)
		}
		if r.VNodes > 0 && r.Moved != r.After[3] {
			t.Errorf("%s: moved %d but the new node got %d", r.Scheme, r.Moved, r.After[3])
		}
	}
	if s := res[0].MovedShare(); s < 0.7 || s > 0.8 {
		t.Errorf("hash %% N moved %.3f, expected about 3/4", s)
	}
	rm := Compare(XXH3, pos, nodes, Change{Remove: "n2"}, []int{16})
	if rm[1].Moved != rm[1].Before[1] {
		t.Errorf("removal moved %d, the removed node held %d", rm[1].Moved, rm[1].Before[1])
	}
}
