package difftest

// Redis Cluster against a real one: three Debian redis-server 7.0.15 started with
// --cluster-enabled yes and joined by `redis-cli --cluster create`, and a three-master redscope
// cluster (engine.NewCluster served by server.Cluster). The transcripts of
// testdata/transcripts/cluster/ are replayed on both, node by node ("> @node N" switches; $IDn
// and $PORTn in a command stand for node n's ID and port on each side), and the replies must be
// identical once each side's ports and node IDs are replaced by "node n" markers (and CLUSTER
// NODES's ping/pong columns zeroed, its lines sorted; CLUSTER INFO's bus message counters
// dropped). Then `redis-cli --cluster reshard` moves 100 slots from node 0 to node 2 on both,
// and the slot maps (CLUSTER SLOTS on every node) and the key count of every node and moved slot
// must agree.

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"redscope/engine"
	"redscope/engine/alloc"
	"redscope/internal/transcript"
	"redscope/server"
)

// clusterSide is one of the two clusters under test.
type clusterSide struct {
	name  string
	ports []int
	ids   []string
	conns []*transcript.Conn
}

func (cs *clusterSide) addr(i int) string { return fmt.Sprintf("127.0.0.1:%d", cs.ports[i]) }

func (cs *clusterSide) close() {
	for _, c := range cs.conns {
		if c != nil {
			c.Close()
		}
	}
}

// dialAll opens one connection per node.
func (cs *clusterSide) dialAll(t *testing.T) {
	t.Helper()
	cs.close()
	cs.conns = make([]*transcript.Conn, len(cs.ports))
	for i := range cs.ports {
		c, err := transcript.Dial(cs.addr(i))
		if err != nil {
			t.Fatalf("%s node %d: %v", cs.name, i, err)
		}
		c.Timeout = 10 * time.Second
		cs.conns[i] = c
	}
	cs.ids = make([]string, len(cs.ports))
	for i, c := range cs.conns {
		_, r, err := c.DoStrings("CLUSTER", "MYID")
		if err != nil || r.Kind != engine.KindBulk {
			t.Fatalf("%s node %d: CLUSTER MYID: %v %s", cs.name, i, err, r.FormatCLI())
		}
		cs.ids[i] = r.Str
	}
}

func (cs *clusterSide) do(t *testing.T, i int, args ...string) engine.Reply {
	t.Helper()
	_, r, err := cs.conns[i].DoStrings(args...)
	if err != nil {
		t.Fatalf("%s node %d: %v: %v", cs.name, i, args, err)
	}
	return r
}

// portPair reports whether port and its cluster bus port (port+10000) are both free.
func portPair(p int) bool {
	for _, q := range []int{p, p + 10000} {
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", q))
		if err != nil {
			return false
		}
		ln.Close()
	}
	return true
}

// startRealCluster starts three cluster-enabled redis-server and joins them with redis-cli
// --cluster create, plus one more that knows only itself (for add-node); it waits until the three
// report cluster_state:ok and know each other.
func startRealCluster(t *testing.T) *clusterSide {
	bin := need(t, "redis-server")
	cli := need(t, "redis-cli")
	dir := t.TempDir()
	cs := &clusterSide{name: "redis-server"}
	var procs []*exec.Cmd
	t.Cleanup(func() {
		for _, p := range procs {
			p.Process.Kill()
			p.Wait()
		}
	})
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	for len(cs.ports) < 4 {
		p := 20000 + rng.IntN(30000)
		if !portPair(p) {
			continue
		}
		cmd, err := startRedisProc(bin, p, "127.0.0.1", dir, fmt.Sprintf("redis-%d.log", p),
			"--cluster-enabled", "yes", "--cluster-config-file", filepath.Join(dir, fmt.Sprintf("nodes-%d.conf", p)))
		if err != nil {
			t.Fatal(err)
		}
		procs = append(procs, cmd)
		cs.ports = append(cs.ports, p)
	}
	args := []string{"--cluster", "create"}
	for i := 0; i < 3; i++ {
		args = append(args, cs.addr(i))
	}
	args = append(args, "--cluster-yes")
	if out, err := exec.Command(cli, args...).CombinedOutput(); err != nil {
		t.Fatalf("redis-cli %v: %v\n%s", args, err, out)
	}
	cs.dialAll(t)
	checkRealVersion(t, cs.addr(0))
	waitClusterAgrees(t, cs, 3)
	return cs
}

// waitClusterAgrees waits until the first n nodes are ok, know each other, have the same current
// epoch and print the same normalized CLUSTER SLOTS (gossip has spread the last change).
func waitClusterAgrees(t *testing.T, cs *clusterSide, n int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		ok := true
		var first, epoch string
		for i := 0; i < n && ok; i++ {
			info := cs.do(t, i, "CLUSTER", "INFO").Str
			if !strings.Contains(info, "cluster_state:ok") || !strings.Contains(info, fmt.Sprintf("cluster_known_nodes:%d\r", n)) {
				ok = false
				break
			}
			_, e, _ := strings.Cut(info, "cluster_current_epoch:")
			e, _, _ = strings.Cut(e, "\r")
			s := cs.normalize(cs.do(t, i, "CLUSTER", "SLOTS"), true).FormatCLI()
			if i == 0 {
				first, epoch = s, e
			} else if s != first || e != epoch {
				ok = false
			}
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: the cluster did not settle", cs.name)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// startScopeCluster serves a three-master redscope cluster (7.0 profile, jemalloc-16) on three
// consecutive free ports.
func startScopeCluster(t *testing.T, masters, empty int) (*clusterSide, *engine.Cluster) {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 11))
	for try := 0; try < 50; try++ {
		base := 20000 + rng.IntN(30000)
		cl := engine.NewCluster(engine.ClusterOptions{Masters: masters, Empty: empty, Port: base,
			Options: engine.Options{Version: engine.V70, Allocator: alloc.Jemalloc16, Clock: engine.WallClock{}, Seed: 1}})
		srv := server.NewCluster(cl)
		if err := srv.Listen("127.0.0.1", base); err != nil {
			continue
		}
		go srv.Serve()
		t.Cleanup(func() { srv.Close() })
		cs := &clusterSide{name: "redscope"}
		for i := 0; i < masters+empty; i++ {
			cs.ports = append(cs.ports, base+i)
		}
		for i := range cs.ports {
			if err := waitPing(cs.addr(i), 5*time.Second); err != nil {
				t.Fatal(err)
			}
		}
		cs.dialAll(t)
		return cs, cl
	}
	t.Fatal("no free ports for a redscope cluster")
	return nil, nil
}

// subst replaces $IDn and $PORTn in a command's arguments.
func (cs *clusterSide) subst(args [][]byte) []string {
	out := make([]string, len(args))
	for i, a := range args {
		s := string(a)
		for n := len(cs.ports) - 1; n >= 0; n-- {
			s = strings.ReplaceAll(s, fmt.Sprintf("$ID%d", n), cs.ids[n])
			s = strings.ReplaceAll(s, fmt.Sprintf("$PORT%d", n), strconv.Itoa(cs.ports[n]))
		}
		out[i] = s
	}
	return out
}

// normalize replaces the side's node IDs and ports by markers; portInts also turns integers equal
// to a node's port into markers (CLUSTER SLOTS and SHARDS).
func (cs *clusterSide) normalize(r engine.Reply, portInts bool) engine.Reply {
	switch r.Kind {
	case engine.KindStatus, engine.KindError, engine.KindBulk:
		s := r.Str
		for i, id := range cs.ids {
			s = strings.ReplaceAll(s, id, fmt.Sprintf("<id%d>", i))
		}
		for i, p := range cs.ports {
			s = strings.ReplaceAll(s, fmt.Sprintf(":%d@%d", p, p+10000), fmt.Sprintf(":<port%d>@<bus%d>", i, i))
			s = strings.ReplaceAll(s, fmt.Sprintf(":%d", p), fmt.Sprintf(":<port%d>", i))
		}
		r.Str = s
	case engine.KindInt:
		if portInts {
			for i, p := range cs.ports {
				if r.Int == int64(p) {
					return engine.BulkStr(fmt.Sprintf("<port%d>", i))
				}
			}
		}
	case engine.KindArray:
		out := make([]engine.Reply, len(r.Array))
		for i, x := range r.Array {
			out[i] = cs.normalize(x, portInts)
		}
		r.Array = out
	}
	return r
}

// normalizeFor applies the per-command normalizations.
func (cs *clusterSide) normalizeFor(args []string, r engine.Reply) engine.Reply {
	sub := ""
	if len(args) >= 2 && strings.EqualFold(args[0], "cluster") {
		sub = strings.ToLower(args[1])
	}
	r = cs.normalize(r, sub == "slots" || sub == "shards")
	if r.Kind != engine.KindBulk {
		return r
	}
	switch sub {
	case "nodes":
		lines := strings.Split(strings.TrimSuffix(r.Str, "\n"), "\n")
		for i, l := range lines {
			f := strings.Fields(l)
			if len(f) > 5 {
				f[4], f[5] = "<ping>", "<pong>"
			}
			lines[i] = strings.Join(f, " ")
		}
		sort.Strings(lines)
		r.Str = strings.Join(lines, "\n") + "\n"
	case "info":
		var keep []string
		for _, l := range strings.Split(r.Str, "\r\n") {
			if strings.HasPrefix(l, "cluster_stats_messages_") {
				continue
			}
			keep = append(keep, l)
		}
		r.Str = strings.Join(keep, "\r\n")
	}
	return r
}

// flushAll empties every node of a side.
func (cs *clusterSide) flushAll(t *testing.T) {
	for i := range cs.conns {
		if r := cs.do(t, i, "FLUSHALL"); r.IsError() {
			t.Fatalf("%s node %d FLUSHALL: %s", cs.name, i, r.Str)
		}
	}
}

// runClusterTranscript replays one file on both sides; it returns the number of compared lines.
func runClusterTranscript(t *testing.T, path string, ref, scope *clusterSide) int {
	f, err := transcript.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	node, n := 0, 0
	for _, st := range f.Steps {
		if len(st.Args) == 2 && string(st.Args[0]) == "@node" {
			node, err = strconv.Atoi(string(st.Args[1]))
			if err != nil || node < 0 || node >= len(ref.ports) {
				t.Fatalf("%s:%d: bad @node", path, st.Line)
			}
			continue
		}
		var got [2]engine.Reply
		for k, cs := range []*clusterSide{ref, scope} {
			args := cs.subst(st.Args)
			r := cs.normalizeFor(args, cs.do(t, node, args...))
			if st.Sort {
				r = transcript.SortReply(r)
			}
			got[k] = r
		}
		n++
		a, b := got[0].AppendRESP2(nil), got[1].AppendRESP2(nil)
		if !bytes.Equal(a, b) {
			t.Errorf("%s:%d: node %d > %s\nredis-server:\n%s(raw %q)\nredscope:\n%s(raw %q)", filepath.Base(path), st.Line, node, st.Text,
				got[0].FormatCLI(), a, got[1].FormatCLI(), b)
		}
	}
	return n
}

// clusterPair starts the real cluster and a three-master redscope cluster with one empty node;
// their connections close when the test ends.
func clusterPair(t *testing.T) (ref, scope *clusterSide) {
	ref = startRealCluster(t)
	t.Cleanup(ref.close)
	scope, _ = startScopeCluster(t, 3, 1)
	t.Cleanup(scope.close)
	return ref, scope
}

// replayClusterDir replays every transcript of testdata/transcripts/<sub> on both sides, each
// on emptied nodes and fresh connections (no ASKING/READONLY left over); it returns the number
// of compared replies.
func replayClusterDir(t *testing.T, sub string, ref, scope *clusterSide) int {
	files, err := filepath.Glob(filepath.Join(transcriptsDir, sub, "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no transcripts in %s: %v", sub, err)
	}
	total := 0
	for _, path := range files {
		ref.flushAll(t)
		scope.flushAll(t)
		ref.dialAll(t)
		scope.dialAll(t)
		n := runClusterTranscript(t, path, ref, scope)
		t.Logf("%s: %d replies compared", filepath.Base(path), n)
		total += n
	}
	return total
}

func TestClusterDiff(t *testing.T) {
	ref, scope := clusterPair(t)
	total := replayClusterDir(t, "cluster", ref, scope)
	ref.flushAll(t)
	scope.flushAll(t)
	t.Logf("cluster transcripts: %d replies compared with redis-server 7.0.15", total)

	// Keys for the reshard: 400 keys spread over the cluster, and 60 in slots 0-99 (the ones
	// that move), set through redis-cli -c style routing on both sides.
	keys, keys2 := reshardKeys()
	for _, cs := range []*clusterSide{ref, scope} {
		for _, k := range keys {
			owner := ownerOf(engine.KeySlot([]byte(k)))
			if r := cs.do(t, owner, "SET", k, "v:"+k); r.IsError() {
				t.Fatalf("%s: SET %s: %s", cs.name, k, r.Str)
			}
		}
	}
	compareLayout(t, ref, scope, "before reshard")
	compareViews(t, ref, scope, 3, "before reshard")

	cli := need(t, "redis-cli")
	for _, cs := range []*clusterSide{ref, scope} {
		args := []string{"--cluster", "reshard", cs.addr(0), "--cluster-from", cs.ids[0], "--cluster-to", cs.ids[2],
			"--cluster-slots", "100", "--cluster-yes"}
		out, err := exec.Command(cli, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: redis-cli %v: %v\n%s", cs.name, args, err, out)
		}
		if moved := strings.Count(string(out), " to "+cs.addr(2)+": "); moved != 100 {
			t.Errorf("%s: redis-cli reshard moved %d slots, want 100:\n%s", cs.name, moved, out)
		}
	}
	waitClusterAgrees(t, ref, 3)
	waitClusterAgrees(t, scope, 3)
	for _, cs := range []*clusterSide{ref, scope} {
		var n int64
		for s := 0; s < 100; s++ {
			n += cs.do(t, 2, "CLUSTER", "COUNTKEYSINSLOT", strconv.Itoa(s)).Int
		}
		if n != 60 {
			t.Errorf("%s: node 2 holds %d keys of slots 0-99 after the reshard, want 60", cs.name, n)
		}
	}
	compareLayout(t, ref, scope, "after reshard")
	compareViews(t, ref, scope, 3, "after reshard")
	checkCluster(t, cli, ref, scope)

	// The empty fourth node: what it says alone, then add-node, then 100 slots from all masters.
	compareViews(t, ref, scope, 4, "empty node")
	for _, args := range [][]string{{"CLUSTER", "RESET", "SOFT"}, {"CLUSTER", "RESET", "HARD"}, {"CLUSTER", "RESET"}} {
		a, b := ref.do(t, 3, args...), scope.do(t, 3, args...)
		if a.FormatCLI() != b.FormatCLI() {
			t.Errorf("empty node %v: redis-server %s redscope %s", args, a.FormatCLI(), b.FormatCLI())
		}
	}
	ref.dialAll(t) // RESET HARD gave node 3 a new ID
	scope.dialAll(t)
	if ref.ids[3] == scope.ids[3] || len(scope.ids[3]) != 40 {
		t.Errorf("node IDs after RESET HARD: %s %s", ref.ids[3], scope.ids[3])
	}
	compareViews(t, ref, scope, 4, "empty node after CLUSTER RESET HARD")
	for _, cs := range []*clusterSide{ref, scope} {
		out, err := exec.Command(cli, "--cluster", "add-node", cs.addr(3), cs.addr(0)).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "[OK] New node added correctly.") {
			t.Fatalf("%s: redis-cli --cluster add-node: %v\n%s", cs.name, err, out)
		}
	}
	waitClusterAgrees(t, ref, 4)
	waitClusterAgrees(t, scope, 4)
	compareViews(t, ref, scope, 4, "after add-node")
	movedBy := map[string]int{}
	for _, cs := range []*clusterSide{ref, scope} {
		for _, k := range keys2 {
			if r := cs.do(t, ownerAfterFirstReshard(engine.KeySlot([]byte(k))), "SET", k, "v:"+k); r.IsError() {
				t.Fatalf("%s: SET %s: %s", cs.name, k, r.Str)
			}
		}
		args := []string{"--cluster", "reshard", cs.addr(0), "--cluster-from", "all", "--cluster-to", cs.ids[3],
			"--cluster-slots", "100", "--cluster-yes"}
		out, err := exec.Command(cli, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: redis-cli %v: %v\n%s", cs.name, args, err, out)
		}
		// redis-cli gives each source its share rounded down but the first: 99 slots here.
		movedBy[cs.name] = strings.Count(string(out), " to "+cs.addr(3)+": ")
	}
	if movedBy[ref.name] != movedBy[scope.name] || movedBy[ref.name] < 97 {
		t.Errorf("redis-cli reshard from all moved %v slots to the new node", movedBy)
	}
	waitClusterAgrees(t, ref, 4)
	waitClusterAgrees(t, scope, 4)
	compareLayout(t, ref, scope, "after add-node and reshard")
	compareViews(t, ref, scope, 4, "after add-node and reshard")
	checkCluster(t, cli, ref, scope)
}

// ownerAfterFirstReshard: slots 0-99 went from node 0 to node 2.
func ownerAfterFirstReshard(slot int) int {
	if slot < 100 {
		return 2
	}
	return ownerOf(slot)
}

func checkCluster(t *testing.T, cli string, sides ...*clusterSide) {
	t.Helper()
	for _, cs := range sides {
		out, err := exec.Command(cli, "--cluster", "check", cs.addr(0)).CombinedOutput()
		if err != nil || !strings.Contains(string(out), "[OK] All 16384 slots covered.") || !strings.Contains(string(out), "[OK] All nodes agree about slots configuration.") {
			t.Errorf("%s: redis-cli --cluster check: %v\n%s", cs.name, err, out)
		}
	}
}

// compareViews compares CLUSTER INFO, CLUSTER NODES and CLUSTER SHARDS (normalized) of the first
// n nodes.
func compareViews(t *testing.T, ref, scope *clusterSide, n int, when string) {
	t.Helper()
	lines := 0
	defer func() { t.Logf("%s: %d CLUSTER INFO/NODES/SHARDS replies compared", when, lines) }()
	for i := 0; i < n; i++ {
		for _, args := range [][]string{{"CLUSTER", "INFO"}, {"CLUSTER", "NODES"}, {"CLUSTER", "SHARDS"}} {
			lines++
			a := transcript.SortReply(ref.normalizeFor(args, ref.do(t, i, args...)))
			b := transcript.SortReply(scope.normalizeFor(args, scope.do(t, i, args...)))
			if a.FormatCLI() != b.FormatCLI() {
				t.Errorf("%s: node %d %v:\nredis-server:\n%s\nredscope:\n%s", when, i, args, a.FormatCLI(), b.FormatCLI())
			}
		}
	}
}

// ownerOf is the node serving a slot in the create layout.
func ownerOf(slot int) int {
	switch {
	case slot <= 5460:
		return 0
	case slot <= 10922:
		return 1
	}
	return 2
}

// reshardKeys are the keys set before the first reshard (60 in slots 0-99, the ones it moves, and
// 200 more) and before the second (200 more).
func reshardKeys() (first, second []string) {
	var low, other []string
	for i := 0; len(low) < 60 || len(other) < 400; i++ {
		k := fmt.Sprintf("key:%d", i)
		if engine.KeySlot([]byte(k)) < 100 {
			if len(low) < 60 {
				low = append(low, k)
			}
		} else if len(other) < 400 {
			other = append(other, k)
		}
	}
	return append(low, other[:200]...), other[200:]
}

// compareLayout compares CLUSTER SLOTS of every node, DBSIZE of every node and the key count of
// slots 0-99 between the sides.
func compareLayout(t *testing.T, ref, scope *clusterSide, when string) {
	t.Helper()
	lines := 0
	for i := range ref.ports {
		for _, args := range [][]string{{"CLUSTER", "SLOTS"}, {"DBSIZE"}, {"CLUSTER", "COUNTKEYSINSLOT", "0"}} {
			a := ref.normalizeFor(args, ref.do(t, i, args...))
			b := scope.normalizeFor(args, scope.do(t, i, args...))
			lines++
			if a.FormatCLI() != b.FormatCLI() {
				t.Errorf("%s: node %d %v:\nredis-server:\n%s\nredscope:\n%s", when, i, args, a.FormatCLI(), b.FormatCLI())
			}
		}
	}
	for s := 0; s < 100; s++ {
		for i := range ref.ports {
			args := []string{"CLUSTER", "COUNTKEYSINSLOT", strconv.Itoa(s)}
			a, b := ref.do(t, i, args...), scope.do(t, i, args...)
			lines++
			if a.FormatCLI() != b.FormatCLI() {
				t.Errorf("%s: node %d %v: redis-server %s redscope %s", when, i, args, a.FormatCLI(), b.FormatCLI())
			}
		}
	}
	t.Logf("%s: %d layout replies compared", when, lines)
}

// The redscope cluster alone with the cluster tools: redis-cli -c follows MOVED, --cluster
// add-node joins an empty node, --cluster reshard gives it slots with their keys, --cluster
// check is happy; go-redis's ClusterClient routes by itself.
func TestClusterScopeTools(t *testing.T) {
	cli := need(t, "redis-cli")
	scope, cl := startScopeCluster(t, 3, 1)
	defer scope.close()
	run := func(args ...string) string {
		out, err := exec.Command(cli, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("redis-cli %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	// redis-cli -c follows the redirection (foo lives in slot 12182, node 2).
	if out := run("-c", "-p", strconv.Itoa(scope.ports[0]), "SET", "foo", "bar"); strings.TrimSpace(out) != "OK" {
		t.Errorf("redis-cli -c SET: %q", out)
	}
	if out := run("-c", "-p", strconv.Itoa(scope.ports[0]), "GET", "foo"); strings.TrimSpace(out) != "bar" {
		t.Errorf("redis-cli -c GET: %q", out)
	}
	if r := scope.do(t, 2, "GET", "foo"); r.Str != "bar" {
		t.Errorf("foo is not on node 2: %s", r.FormatCLI())
	}
	keys, keys2 := reshardKeys()
	keys = append(keys, keys2...)
	for _, k := range keys {
		scope.do(t, ownerOf(engine.KeySlot([]byte(k))), "SET", k, "v")
	}
	before := make([]int64, 4)
	for i := range before {
		before[i] = scope.do(t, i, "DBSIZE").Int
	}
	if before[3] != 0 {
		t.Fatalf("the empty node has %d keys", before[3])
	}
	if r := scope.do(t, 3, "CLUSTER", "INFO"); !strings.Contains(r.Str, "cluster_known_nodes:1\r") || !strings.Contains(r.Str, "cluster_state:fail") {
		t.Errorf("empty node before add-node:\n%s", r.Str)
	}
	out := run("--cluster", "add-node", scope.addr(3), scope.addr(0))
	if !strings.Contains(out, "[OK] New node added correctly.") {
		t.Fatalf("add-node:\n%s", out)
	}
	for i := range scope.ports {
		if r := scope.do(t, i, "CLUSTER", "INFO"); !strings.Contains(r.Str, "cluster_known_nodes:4\r") || !strings.Contains(r.Str, "cluster_state:ok") {
			t.Errorf("node %d after add-node:\n%s", i, r.Str)
		}
	}
	out = run("--cluster", "reshard", scope.addr(0), "--cluster-from", "all", "--cluster-to", scope.ids[3],
		"--cluster-slots", "300", "--cluster-yes")
	// redis-cli splits 300 slots over three sources by weight, rounding down: 299.
	if n := strings.Count(out, " to "+scope.addr(3)+": "); n < 297 || n > 300 {
		t.Errorf("reshard moved %d slots, want about 300", n)
	}
	// Every key now lives on the node serving its slot, and none was lost.
	var total int64
	for i := range scope.ports {
		total += scope.do(t, i, "DBSIZE").Int
	}
	if want := before[0] + before[1] + before[2]; total != want {
		t.Errorf("%d keys after reshard, want %d", total, want)
	}
	moved := scope.do(t, 3, "DBSIZE").Int
	if moved == 0 {
		t.Errorf("no key moved to the new node")
	}
	out = run("--cluster", "check", scope.addr(0))
	for _, want := range []string{"[OK] All nodes agree about slots configuration.", "[OK] All 16384 slots covered.", fmt.Sprintf("%s (%s...) -> %d keys | 299 slots", scope.addr(3), scope.ids[3][:8], moved)} {
		if !strings.Contains(out, want) {
			t.Errorf("check after reshard lacks %q:\n%s", want, out)
		}
	}
	for _, k := range append(keys, "foo") {
		owner := cl.SlotOwner(engine.KeySlot([]byte(k)))
		if r := scope.do(t, owner, "EXISTS", k); r.Int != 1 {
			t.Errorf("%s (slot %d) is not on node %d", k, engine.KeySlot([]byte(k)), owner)
		}
	}
	// The epochs redis-cli expects: the importing node bumped its config epoch once.
	if r := scope.do(t, 3, "CLUSTER", "INFO"); !strings.Contains(r.Str, "cluster_my_epoch:4\r") || !strings.Contains(r.Str, "cluster_current_epoch:4\r") {
		t.Errorf("epochs after reshard:\n%s", r.Str)
	}
	testGoRedisCluster(t, scope, keys)
}

// redis-cli --cluster create on three lone redscope nodes (ADDSLOTS, SET-CONFIG-EPOCH, MEET, then
// its wait for the nodes to agree) gives the cluster that engine.NewCluster makes directly.
func TestClusterScopeCreate(t *testing.T) {
	cli := need(t, "redis-cli")
	lone, _ := startScopeCluster(t, 0, 3)
	defer lone.close()
	made, _ := startScopeCluster(t, 3, 0)
	defer made.close()
	args := []string{"--cluster", "create"}
	for i := range lone.ports {
		args = append(args, lone.addr(i))
	}
	out, err := exec.Command(cli, append(args, "--cluster-yes")...).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "[OK] All 16384 slots covered.") {
		t.Fatalf("redis-cli %v: %v\n%s", args, err, out)
	}
	for _, want := range []string{"Master[0] -> Slots 0 - 5460", "Master[1] -> Slots 5461 - 10922", "Master[2] -> Slots 10923 - 16383"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("redis-cli create did not print %q", want)
		}
	}
	compareViews(t, lone, made, 3, "created by redis-cli vs NewCluster")
	for i := range lone.ports {
		a := lone.normalizeFor([]string{"CLUSTER", "SLOTS"}, lone.do(t, i, "CLUSTER", "SLOTS"))
		b := made.normalizeFor([]string{"CLUSTER", "SLOTS"}, made.do(t, i, "CLUSTER", "SLOTS"))
		if a.FormatCLI() != b.FormatCLI() {
			t.Errorf("node %d CLUSTER SLOTS:\n%s\nvs\n%s", i, a.FormatCLI(), b.FormatCLI())
		}
	}
}
