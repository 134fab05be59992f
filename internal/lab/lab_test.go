package lab

import (
	"bytes"
	"strings"
	"testing"
)

func run(t *testing.T, args ...string) string {
	t.Helper()
	var b bytes.Buffer
	if err := Run(args, &b); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return b.String()
}

// The course article (seeds/004, "% N so với consistent hashing") publishes, for 100000 keys
// product:0…99999 on cache-a…cache-d with md5 and a fifth node added:
//
//	hash % N, 4 -> 5 nodes, keys moved: 80.0%
//	ring vnodes=1: load per node=31795/22446/11909/33850, keys moved after adding a 5th node: 21.2%
//	ring vnodes=150: load per node=22850/24877/24181/28092, keys moved after adding a 5th node: 22.3%
func TestRingLabReproducesArticle(t *testing.T) {
	out := run(t, "ring", "--hash", "md5", "--keys", "product:%d", "--count", "100000",
		"--nodes", "cache-a,cache-b,cache-c,cache-d", "--add", "cache-e", "--vnodes", "1,150")
	want := `lab ring: 100000 keys product:0 … product:99999, hash md5, nodes cache-a,cache-b,cache-c,cache-d; add cache-e

scheme           cache-a  cache-b  cache-c  cache-d  moved
hash % N           24951    24897    25147    25005  80.0%
ring vnodes=1      31795    22446    11909    33850  21.2%
ring vnodes=150    22850    24877    24181    28092  22.3%

keys per node before the change; moved: share of all keys whose node changed
least possible with an even spread: 1/5 = 20.0%
`
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// Removing a node from a ring moves exactly the keys it held; hash % N moves most keys.
func TestRingLabRemove(t *testing.T) {
	out := run(t, "ring", "--hash", "xxh3", "--count", "100000", "--remove", "cache-b", "--vnodes", "1,10,150",
		"--seed", "7", "--redis-version", "8.8")
	for _, line := range []string{
		"hash % N           25008    25027    24976    24989  75.3%",
		"ring vnodes=1       2532    30509    27394    39565  30.5%",
		"ring vnodes=10     19373    21194    33971    25462  21.2%",
		"ring vnodes=150    29377    25427    21167    24029  25.4%",
	} {
		if !strings.Contains(out, line+"\n") {
			t.Errorf("missing %q in\n%s", line, out)
		}
	}
}

// The article's Bloom filter example prints (seeds/004, "Bloom filter: kích thước…"):
//
//	10M items @1%: m=95850584 bits (11.4 MB), k=7
//	n=100000: 119814 bytes, false negatives=0, false positive rate=0.99%
//	after 3x overfill: false positive rate=43.55%
func TestBloomLabReproducesArticle(t *testing.T) {
	out := run(t, "bloom", "--hash", "sha256", "--keys", "product:%d", "--capacity", "100000",
		"--error", "0.01", "--probes", "200000", "--overfill", "3")
	want := `lab bloom: capacity n=100000, target false-positive rate p=0.01, hash sha256, keys product:%d

m (bits)           958506  ceil(-n·ln p / ln²2)
k (hashes)              7  max(1, round(m/n · ln 2))
bytes              119814  0.1 MiB
false negatives         0  of 100000 inserted keys product:0 … product:99999
false positives     0.99%  1985 of 200000 probes product:100000 … product:299999
after 3x overfill  43.55%  87090 of 200000 probes product:1000000 … product:1199999, 300000 keys inserted
`
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	out = run(t, "bloom", "--capacity", "10000000", "--error", "0.01", "--size-only")
	for _, line := range []string{"m (bits)    95850584", "k (hashes)         7", "bytes       11981323  11.4 MiB"} {
		if !strings.Contains(out, line) {
			t.Errorf("missing %q in\n%s", line, out)
		}
	}
}

func TestBloomSizeFormula(t *testing.T) {
	cases := []struct {
		n int64
		p float64
		m uint64
		k int
	}{
		{100000, 0.01, 958506, 7}, {10000000, 0.01, 95850584, 7}, {1, 0.5, 2, 1}, {1000, 0.001, 14378, 10},
	}
	for _, c := range cases {
		if m, k := BloomSize(c.n, c.p); m != c.m || k != c.k {
			t.Errorf("n=%d p=%v: m=%d k=%d want %d %d", c.n, c.p, m, k, c.m, c.k)
		}
	}
}

func TestToFixed(t *testing.T) {
	cases := []struct {
		x    float64
		d    int
		want string
	}{
		{21.25, 1, "21.3"}, {0.125, 2, "0.13"}, {80, 1, "80.0"}, {99.95, 1, "100.0"}, {43.545, 2, "43.55"},
		{0.994, 2, "0.99"}, {9.5, 0, "10"}, {0.05, 1, "0.1"},
	}
	for _, c := range cases {
		if got := toFixed(c.x, c.d); got != c.want {
			t.Errorf("toFixed(%v, %d) = %s want %s", c.x, c.d, got, c.want)
		}
	}
}

// runError is a lab command line that must fail, and a piece of its error text.
type runError struct {
	args []string
	want string
}

// wantRunErrors runs each command line and requires an error that mentions its want.
func wantRunErrors(t *testing.T, cases []runError) {
	t.Helper()
	for _, c := range cases {
		var b bytes.Buffer
		err := Run(c.args, &b)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: err %v, want it to mention %q", c.args, err, c.want)
		}
	}
}

func TestLabErrors(t *testing.T) {
	wantRunErrors(t, []runError{
		{nil, "which one"},
		{[]string{"nope"}, `unknown lab "nope"`},
		{[]string{"ring", "--bogus", "1", "--add", "x"}, "unknown flag --bogus"},
		{[]string{"ring"}, "--add NODE or --remove NODE"},
		{[]string{"ring", "--add", "cache-a"}, "already one of the nodes"},
		{[]string{"ring", "--remove", "cache-z"}, "not one of the nodes"},
		{[]string{"ring", "--add", "e", "--hash", "sha1"}, "unknown hash"},
		{[]string{"ring", "--add", "e", "--vnodes", "0"}, "--vnodes"},
		{[]string{"ring", "--add", "e", "--keys", "product"}, "%d"},
		{[]string{"ring", "--add", "e", "--count", "0"}, "--count"},
		{[]string{"ring", "--add", "e", "--nodes", "a,a"}, "given twice"},
		{[]string{"ring", "--add", "e", "--redis-version", "6.2"}, "unknown Redis version"},
		{[]string{"ring", "--add", "e", "--seed", "x"}, "seed"},
		{[]string{"ring", "--add", "e", "extra"}, "unexpected argument"},
		{[]string{"bloom", "--hash", "md5"}, "only sha256"},
		{[]string{"bloom", "--error", "1"}, "--error"},
		{[]string{"bloom", "--capacity", "0"}, "--capacity"},
		{[]string{"bloom", "--probes", "0"}, "--probes"},
		{[]string{"bloom", "--overfill", "-1"}, "--overfill"},
		{[]string{"bloom", "--size-only=maybe"}, "size-only"},
	})
}

func TestLabDeterministic(t *testing.T) {
	a := run(t, "ring", "--add", "cache-e", "--count", "5000", "--hash", "crc32", "--seed", "1")
	b := run(t, "ring", "--add", "cache-e", "--count", "5000", "--hash", "crc32", "--seed", "2")
	if a != b {
		t.Errorf("ring output depends on the seed")
	}
}
