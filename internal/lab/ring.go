package lab

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"redscope/ring"
)

// maxRingKeys and maxVNodes bound the work of one run.
const (
	maxRingKeys = 10_000_000
	maxVNodes   = 100_000
)

// RingConfig is one `lab ring` run.
type RingConfig struct {
	Hash   string
	Keys   string // pattern with one %d, numbered 0 … Count-1
	Count  int
	Nodes  []string
	Change ring.Change
	VNodes []int
}

func runRing(args []string, w io.Writer) error {
	var c common
	fs := newFlagSet("ring", &c)
	cfg := RingConfig{}
	fs.StringVar(&cfg.Hash, "hash", "md5", "md5, crc32 or xxh3")
	fs.StringVar(&cfg.Keys, "keys", "product:%d", "key pattern, %d is the key number")
	fs.IntVar(&cfg.Count, "count", 100000, "number of keys")
	nodes := fs.String("nodes", "cache-a,cache-b,cache-c,cache-d", "nodes before the change, comma separated")
	fs.StringVar(&cfg.Change.Add, "add", "", "node to add")
	fs.StringVar(&cfg.Change.Remove, "remove", "", "node to remove")
	vnodes := fs.String("vnodes", "1,150", "virtual nodes per node, comma separated counts")
	if err := parse(fs, &c, args); err != nil {
		return err
	}
	cfg.Nodes = splitList(*nodes)
	for _, s := range splitList(*vnodes) {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 || v > maxVNodes {
			return fmt.Errorf("lab ring: --vnodes: %q is not a count between 1 and %d", s, maxVNodes)
		}
		cfg.VNodes = append(cfg.VNodes, v)
	}
	return RingLab(cfg, w)
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// RingLab runs the ring lab and prints its table.
func RingLab(cfg RingConfig, w io.Writer) error {
	h, err := ring.Lookup(cfg.Hash)
	if err != nil {
		return fmt.Errorf("lab ring: --hash: %v", err)
	}
	pat, err := parsePattern(cfg.Keys)
	if err != nil {
		return fmt.Errorf("lab ring: %v", err)
	}
	if cfg.Count < 1 || cfg.Count > maxRingKeys {
		return fmt.Errorf("lab ring: --count must be between 1 and %d", maxRingKeys)
	}
	if len(cfg.Nodes) == 0 {
		return fmt.Errorf("lab ring: --nodes is empty")
	}
	seen := map[string]bool{}
	for _, n := range cfg.Nodes {
		if seen[n] {
			return fmt.Errorf("lab ring: node %q given twice", n)
		}
		seen[n] = true
	}
	ch := cfg.Change
	switch {
	case ch.Add == "" && ch.Remove == "":
		return fmt.Errorf("lab ring: say what changes: --add NODE or --remove NODE")
	case ch.Add != "" && seen[ch.Add] && ch.Add != ch.Remove:
		return fmt.Errorf("lab ring: --add %q: already one of the nodes", ch.Add)
	case ch.Remove != "" && !seen[ch.Remove]:
		return fmt.Errorf("lab ring: --remove %q: not one of the nodes", ch.Remove)
	case ch.Remove != "" && ch.Add == "" && len(cfg.Nodes) == 1:
		return fmt.Errorf("lab ring: cannot remove the only node")
	}
	positions := make([]uint64, cfg.Count)
	var buf []byte
	for i := range positions {
		buf = pat.append(buf[:0], int64(i))
		positions[i] = h(string(buf))
	}
	results := ring.Compare(h, positions, cfg.Nodes, ch, cfg.VNodes)

	var what []string
	if ch.Remove != "" {
		what = append(what, "remove "+ch.Remove)
	}
	if ch.Add != "" {
		what = append(what, "add "+ch.Add)
	}
	fmt.Fprintf(w, "lab ring: %d keys %s … %s, hash %s, nodes %s; %s\n\n", cfg.Count, pat.key(0),
		pat.key(int64(cfg.Count-1)), cfg.Hash, strings.Join(cfg.Nodes, ","), strings.Join(what, ", "))
	header := append([]string{"scheme"}, cfg.Nodes...)
	header = append(header, "moved")
	rows := [][]string{header}
	for _, r := range results {
		row := []string{r.Scheme}
		for _, n := range r.Before {
			row = append(row, strconv.Itoa(n))
		}
		row = append(row, pct(int64(r.Moved), int64(r.Keys), 1))
		rows = append(rows, row)
	}
	table(w, rows, false)
	fmt.Fprintln(w)
	fmt.Fprintln(w, "keys per node before the change; moved: share of all keys whose node changed")
	if ch.Add != "" && ch.Remove == "" {
		n := len(cfg.Nodes) + 1
		fmt.Fprintf(w, "least possible with an even spread: 1/%d = %s\n", n, pct(1, int64(n), 1))
	} else if ch.Remove != "" && ch.Add == "" {
		fmt.Fprintln(w, "least possible: the keys the removed node held")
	}
	return nil
}
