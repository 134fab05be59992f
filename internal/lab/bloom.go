package lab

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"
)

// The textbook Bloom filter of the course article (not RedisBloom's; engine/bloom is that one):
//
//	m = ceil(−n·ln p / ln²2) bits, k = max(1, round(m/n · ln 2)), bytes = ceil(m/8);
//	h1, h2 = the first two big-endian 32-bit words of sha256(key), h2 forced odd;
//	probe i = (h1 + i·h2) mod m, bit p being bit p%8 (least significant first) of byte p/8.
type textbookBloom struct {
	m    uint64
	k    int
	bits []byte
}

// BloomSize is the article's forCapacity: m bits and k hashes for n items at false-positive
// rate p (computed in float64 exactly as the JavaScript does).
func BloomSize(n int64, p float64) (m uint64, k int) {
	ln2 := math.Ln2
	mf := math.Ceil(-float64(n) * math.Log(p) / (ln2 * ln2))
	m = uint64(mf)
	k = int(math.Max(1, math.Round(mf/float64(n)*ln2)))
	return m, k
}

func newTextbookBloom(m uint64, k int) *textbookBloom {
	return &textbookBloom{m: m, k: k, bits: make([]byte, (m+7)/8)}
}

func sha256Words(key []byte) (h1, h2 uint64) {
	d := sha256.Sum256(key)
	return uint64(binary.BigEndian.Uint32(d[0:])), uint64(binary.BigEndian.Uint32(d[4:]) | 1)
}

func (b *textbookBloom) add(key []byte) {
	h1, h2 := sha256Words(key)
	for i := 0; i < b.k; i++ {
		p := (h1 + uint64(i)*h2) % b.m
		b.bits[p>>3] |= 1 << (p & 7)
	}
}

func (b *textbookBloom) mightContain(key []byte) bool {
	h1, h2 := sha256Words(key)
	for i := 0; i < b.k; i++ {
		p := (h1 + uint64(i)*h2) % b.m
		if b.bits[p>>3]&(1<<(p&7)) == 0 {
			return false
		}
	}
	return true
}

// BloomConfig is one `lab bloom` run.
type BloomConfig struct {
	Hash     string
	Keys     string
	Capacity int64
	Error    float64
	Probes   int64
	Overfill int64
	SizeOnly bool
}

// BloomResult is what a run measured.
type BloomResult struct {
	M              uint64
	K              int
	Bytes          uint64
	FalseNegatives int64
	FP             int64 // false positives among Probes fresh keys, at capacity
	FPOverfill     int64 // and after overfilling
}

const (
	maxBloomCapacity = 100_000_000
	maxBloomProbes   = 100_000_000
	maxBloomOverfill = 1_000_000_000 // keys inserted in all
)

func runBloom(args []string, w io.Writer) error {
	var c common
	fs := newFlagSet("bloom", &c)
	cfg := BloomConfig{}
	fs.StringVar(&cfg.Hash, "hash", "sha256", "hash (sha256)")
	fs.StringVar(&cfg.Keys, "keys", "product:%d", "key pattern, %d is the key number")
	fs.Int64Var(&cfg.Capacity, "capacity", 100000, "planned number of items n")
	fs.Float64Var(&cfg.Error, "error", 0.01, "target false-positive rate p")
	fs.Int64Var(&cfg.Probes, "probes", 200000, "fresh keys to probe")
	fs.Int64Var(&cfg.Overfill, "overfill", 3, "finally fill to this many times the capacity (0 or 1: skip)")
	fs.BoolVar(&cfg.SizeOnly, "size-only", false, "print m, k and bytes only")
	if err := parse(fs, &c, args); err != nil {
		return err
	}
	return BloomLab(cfg, w)
}

func (cfg BloomConfig) validate() error {
	if cfg.Hash != "sha256" {
		return fmt.Errorf("lab bloom: --hash %q: only sha256 is implemented", cfg.Hash)
	}
	if _, err := parsePattern(cfg.Keys); err != nil {
		return fmt.Errorf("lab bloom: %v", err)
	}
	if cfg.Capacity < 1 || cfg.Capacity > maxBloomCapacity {
		return fmt.Errorf("lab bloom: --capacity must be between 1 and %d", maxBloomCapacity)
	}
	if !(cfg.Error > 0 && cfg.Error < 1) {
		return fmt.Errorf("lab bloom: --error must be between 0 and 1 (exclusive)")
	}
	if cfg.SizeOnly {
		return nil
	}
	if cfg.Probes < 1 || cfg.Probes > maxBloomProbes {
		return fmt.Errorf("lab bloom: --probes must be between 1 and %d", maxBloomProbes)
	}
	if cfg.Overfill < 0 || cfg.Overfill > maxBloomOverfill/cfg.Capacity {
		return fmt.Errorf("lab bloom: --overfill must be between 0 and %d for this capacity", maxBloomOverfill/cfg.Capacity)
	}
	return nil
}

// RunBloom measures the textbook filter (SizeOnly: sizes only).
func RunBloom(cfg BloomConfig) (BloomResult, error) {
	if err := cfg.validate(); err != nil {
		return BloomResult{}, err
	}
	pat, _ := parsePattern(cfg.Keys)
	var r BloomResult
	r.M, r.K = BloomSize(cfg.Capacity, cfg.Error)
	r.Bytes = (r.M + 7) / 8
	if cfg.SizeOnly {
		return r, nil
	}
	if r.Bytes > 1<<32 {
		return r, fmt.Errorf("lab bloom: a %d-byte filter is too large to build here", r.Bytes)
	}
	b := newTextbookBloom(r.M, r.K)
	n := cfg.Capacity
	var key []byte
	for i := int64(0); i < n; i++ {
		key = pat.append(key[:0], i)
		b.add(key)
	}
	for i := int64(0); i < n; i++ {
		key = pat.append(key[:0], i)
		if !b.mightContain(key) {
			r.FalseNegatives++
		}
	}
	for i := int64(0); i < cfg.Probes; i++ {
		key = pat.append(key[:0], n+i)
		if b.mightContain(key) {
			r.FP++
		}
	}
	if cfg.Overfill > 1 {
		for i := n; i < cfg.Overfill*n; i++ {
			key = pat.append(key[:0], i)
			b.add(key)
		}
		for i := int64(0); i < cfg.Probes; i++ {
			key = pat.append(key[:0], 10*n+i)
			if b.mightContain(key) {
				r.FPOverfill++
			}
		}
	}
	return r, nil
}

// BloomLab runs the bloom lab and prints its table.
func BloomLab(cfg BloomConfig, w io.Writer) error {
	r, err := RunBloom(cfg)
	if err != nil {
		return err
	}
	pat, _ := parsePattern(cfg.Keys)
	fmt.Fprintf(w, "lab bloom: capacity n=%d, target false-positive rate p=%s, hash %s, keys %s\n\n",
		cfg.Capacity, strconv.FormatFloat(cfg.Error, 'g', -1, 64), cfg.Hash, cfg.Keys)
	rows := [][]string{
		{"m (bits)", strconv.FormatUint(r.M, 10), "ceil(-n·ln p / ln²2)"},
		{"k (hashes)", strconv.Itoa(r.K), "max(1, round(m/n · ln 2))"},
		{"bytes", strconv.FormatUint(r.Bytes, 10), toFixed(float64(r.Bytes)/1024/1024, 1) + " MiB"},
	}
	if !cfg.SizeOnly {
		n := cfg.Capacity
		rows = append(rows,
			[]string{"false negatives", strconv.FormatInt(r.FalseNegatives, 10),
				fmt.Sprintf("of %d inserted keys %s … %s", n, pat.key(0), pat.key(n-1))},
			[]string{"false positives", pct(r.FP, cfg.Probes, 2),
				fmt.Sprintf("%d of %d probes %s … %s", r.FP, cfg.Probes, pat.key(n), pat.key(n+cfg.Probes-1))})
		if cfg.Overfill > 1 {
			rows = append(rows, []string{fmt.Sprintf("after %dx overfill", cfg.Overfill), pct(r.FPOverfill, cfg.Probes, 2),
				fmt.Sprintf("%d of %d probes %s … %s, %d keys inserted", r.FPOverfill, cfg.Probes,
					pat.key(10*n), pat.key(10*n+cfg.Probes-1), cfg.Overfill*n)})
		}
	}
	table(w, rows, true)
	return nil
}
