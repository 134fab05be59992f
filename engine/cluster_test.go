package engine

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestCRC16Check(t *testing.T) {
	if got := CRC16([]byte("123456789")); got != 0x31C3 {
		t.Errorf("CRC16 check value %#x", got)
	}
}

// Slots checked with CLUSTER KEYSLOT on a cluster-enabled redis-server 7.0.15.
func TestClusterKeyslot(t *testing.T) {
	cases := map[string]int64{
		"somekey": 11058, "foo{hash_tag}": 2515, "foo": 12182, "bar": 5061, "hello": 866,
		"key": 12539, "": 0, "{user1000}.following": 3443, "{user1000}.followers": 3443,
		"foo{}{bar}": 8363, "foo{{bar}}zap": 4015, "foo{bar}{zap}": 5061,
		"rl:{user42}:minute": 14710, "{": 4092, "}": 12090, "{}": 15257, "a{b": 13340,
		"a}b{c}": 7365, "é": 10180,
	}
	for _, v := range Versions {
		e := New(Options{Version: v})
		for k, slot := range cases {
			r := e.Do("CLUSTER", "KEYSLOT", k)
			if r.Kind != KindInt || r.Int != slot {
				t.Errorf("%v KEYSLOT %q: %v want %d", v, k, r, slot)
			}
		}
	}
}

// A non-cluster 7.0.15 answers these (KEYSLOT aside, which redscope answers as a cluster node).
func TestClusterOtherSubcommands(t *testing.T) {
	e := New(Options{Version: V70})
	dis := "(error) ERR This instance has cluster support disabled"
	want(t, e, dis, "CLUSTER", "INFO")
	want(t, e, dis, "cluster", "help")
	want(t, e, dis, "CLUSTER", "MYID")
	want(t, e, dis, "CLUSTER", "COUNTKEYSINSLOT", "1")
	want(t, e, dis, "CLUSTER", "GETKEYSINSLOT", "1", "1")
	want(t, e, "(error) ERR wrong number of arguments for 'cluster' command", "CLUSTER")
	want(t, e, "(error) ERR wrong number of arguments for 'cluster|keyslot' command", "CLUSTER", "KEYSLOT")
	want(t, e, "(error) ERR wrong number of arguments for 'cluster|keyslot' command", "CLUSTER", "KEYSLOT", "a", "b")
	want(t, e, "(error) ERR unknown subcommand 'foo'. Try CLUSTER HELP.", "CLUSTER", "foo")
	want(t, e, "(error) ERR unknown subcommand 'MYSHARDID'. Try CLUSTER HELP.", "CLUSTER", "MYSHARDID")
	e8 := New(Options{Version: V88})
	want(t, e8, dis, "CLUSTER", "MYSHARDID")
}

func slotRanges(cl *Cluster) [][3]int {
	var out [][3]int
	for s := 0; s < ClusterSlots; s++ {
		o := cl.SlotOwner(s)
		if len(out) > 0 && out[len(out)-1][2] == o && out[len(out)-1][1] == s-1 {
			out[len(out)-1][1] = s
		} else {
			out = append(out, [3]int{s, s, o})
		}
	}
	return out
}

// The layouts redis-cli --cluster create prints for 3 to 6 masters (Master[i] -> Slots a - b),
// and for every N from 1 to 16: one contiguous range per master, in order, covering all slots,
// sizes within one slot of 16384/N.
func TestClusterLayout(t *testing.T) {
	known := map[int][][3]int{
		3: {{0, 5460, 0}, {5461, 10922, 1}, {10923, 16383, 2}},
		4: {{0, 4095, 0}, {4096, 8191, 1}, {8192, 12287, 2}, {12288, 16383, 3}},
		5: {{0, 3276, 0}, {3277, 6553, 1}, {6554, 9829, 2}, {9830, 13106, 3}, {13107, 16383, 4}},
		6: {{0, 2730, 0}, {2731, 5460, 1}, {5461, 8191, 2}, {8192, 10922, 3}, {10923, 13652, 4}, {13653, 16383, 5}},
	}
	for n := 1; n <= 16; n++ {
		cl := NewCluster(ClusterOptions{Masters: n, Port: 7000})
		r := slotRanges(cl)
		if len(r) != n {
			t.Fatalf("%d masters: %d ranges %v", n, len(r), r)
		}
		for i, x := range r {
			size := x[1] - x[0] + 1
			if x[2] != i || size < ClusterSlots/n-1 || size > ClusterSlots/n+2 {
				t.Errorf("%d masters: range %d is %v", n, i, x)
			}
		}
		if want, ok := known[n]; ok && fmt.Sprint(r) != fmt.Sprint(want) {
			t.Errorf("%d masters: %v want %v", n, r, want)
		}
		// Config epochs 1…n, current epoch n, everybody ok.
		for i, e := range cl.Nodes() {
			info := e.Do("CLUSTER", "INFO").Str
			for _, w := range []string{"cluster_state:ok\r\n", fmt.Sprintf("cluster_known_nodes:%d\r\n", n),
				fmt.Sprintf("cluster_size:%d\r\n", n), fmt.Sprintf("cluster_current_epoch:%d\r\n", n),
				fmt.Sprintf("cluster_my_epoch:%d\r\n", i+1)} {
				if !strings.Contains(info, w) {
					t.Errorf("%d masters, node %d: CLUSTER INFO lacks %q:\n%s", n, i, w, info)
				}
			}
		}
	}
}

func TestClusterNodeIDs(t *testing.T) {
	a := NewCluster(ClusterOptions{Masters: 3, Empty: 1, Options: Options{Seed: 5}})
	b := NewCluster(ClusterOptions{Masters: 3, Empty: 1, Options: Options{Seed: 5}})
	c := NewCluster(ClusterOptions{Masters: 3, Empty: 1, Options: Options{Seed: 6}})
	seen := map[string]bool{}
	for i := 0; i < 4; i++ {
		id := a.NodeID(i)
		if len(id) != 40 || strings.Trim(id, "0123456789abcdef") != "" {
			t.Errorf("node %d ID %q is not 40 hex characters", i, id)
		}
		if id != b.NodeID(i) {
			t.Errorf("node %d: the same seed gave %s and %s", i, id, b.NodeID(i))
		}
		if id == c.NodeID(i) || seen[id] {
			t.Errorf("node %d: ID %s repeats", i, id)
		}
		seen[id] = true
		if got := a.Nodes()[i].Do("CLUSTER", "MYID").Str; got != id {
			t.Errorf("CLUSTER MYID %s want %s", got, id)
		}
	}
}

func TestClusterRoutingEngine(t *testing.T) {
	cl := NewCluster(ClusterOptions{Masters: 3, Port: 7000})
	n0 := cl.Nodes()[0]
	want(t, n0, "(error) MOVED 12182 127.0.0.1:7002", "SET", "foo", "x")
	want(t, n0, "OK", "SET", "bar", "x")
	want(t, n0, "(error) CROSSSLOT Keys in request don't hash to the same slot", "MGET", "bar", "foo")
	want(t, n0, "(error) CROSSSLOT Keys in request don't hash to the same slot", "ZUNIONSTORE", "{bar}d", "2", "bar", "b")
	want(t, n0, "(integer) 0", "ZUNIONSTORE", "{bar}d", "2", "{bar}z", "{bar}x")
	want(t, n0, "(error) CROSSSLOT Keys in request don't hash to the same slot", "SINTERCARD", "2", "bar", "b")
	want(t, n0, "(error) ERR numkeys should be greater than 0", "SINTERCARD", "0", "bar", "b")
	want(t, n0, "(error) CROSSSLOT Keys in request don't hash to the same slot", "BLMPOP", "0", "2", "bar", "b", "LEFT")
	want(t, n0, "(error) CROSSSLOT Keys in request don't hash to the same slot", "SORT", "bar", "STORE", "b")
	want(t, n0, "(error) ERR SELECT is not allowed in cluster mode", "SELECT", "3")
	want(t, n0, "OK", "MULTI")
	want(t, n0, "QUEUED", "GET", "bar")
	want(t, n0, "(error) MOVED 12182 127.0.0.1:7002", "GET", "foo")
	want(t, n0, "(error) EXECABORT Transaction discarded because of previous errors.", "EXEC")
	// The standalone engine answers every key.
	want(t, New(Options{}), "OK", "MSET", "bar", "1", "foo", "2")
	want(t, New(Options{}), "(error) ERR This instance has cluster support disabled", "READONLY")
	want(t, New(Options{}), "(error) ERR This instance has cluster support disabled", "ASKING")
}

// MSETEX (8.4) is a numkeys command: its keys come from the count, every other argument.
func TestClusterMsetex(t *testing.T) {
	cl := NewCluster(ClusterOptions{Masters: 3, Port: 7000, Options: Options{Version: V84}})
	n0 := cl.Nodes()[0]
	want(t, n0, "(error) CROSSSLOT Keys in request don't hash to the same slot", "MSETEX", "2", "bar", "1", "b", "2", "EX", "10")
	want(t, n0, "(error) MOVED 12182 127.0.0.1:7002", "MSETEX", "1", "foo", "1", "EX", "10")
	want(t, n0, "(integer) 1", "MSETEX", "2", "bar", "1", "{bar}2", "2", "EX", "10")
	// The value "b" of a key is not a key.
	want(t, n0, "(integer) 1", "MSETEX", "1", "bar", "b", "EX", "10")
	want(t, New(Options{Version: V84}), "(integer) 1", "MSETEX", "2", "bar", "1", "b", "2")
}

func TestClusterMyShardID(t *testing.T) {
	c70 := NewCluster(ClusterOptions{Masters: 3, Options: Options{Version: V70}})
	want(t, c70.Nodes()[0], "(error) ERR unknown subcommand 'MYSHARDID'. Try CLUSTER HELP.", "CLUSTER", "MYSHARDID")
	c72 := NewCluster(ClusterOptions{Masters: 3, Options: Options{Version: V72}})
	a, b := c72.Nodes()[0].Do("CLUSTER", "MYSHARDID").Str, c72.Nodes()[1].Do("CLUSTER", "MYSHARDID").Str
	if len(a) != 40 || a == b || a == c72.NodeID(0) {
		t.Errorf("MYSHARDID %q %q", a, b)
	}
}

// SETSLOT and MIGRATE between engine nodes, as redis-cli's reshard sends them; the importing
// node (epoch 2, not the greatest) bumps its config epoch to 4 (a node already holding the
// greatest epoch would not: clusterBumpConfigEpochWithoutConsensus).
func TestClusterMoveSlotEngine(t *testing.T) {
	cl := NewCluster(ClusterOptions{Masters: 3, Port: 7000})
	n := cl.Nodes()
	want(t, n[0], "OK", "MSET", "bar", "1", "{bar}2", "2")
	want(t, n[0], "(integer) 1", "EXPIRE", "bar", "100")
	want(t, n[1], "OK", "CLUSTER", "SETSLOT", "5061", "IMPORTING", cl.NodeID(0))
	want(t, n[0], "OK", "CLUSTER", "SETSLOT", "5061", "MIGRATING", cl.NodeID(1))
	want(t, n[0], "1) \"{bar}2\"\n2) \"bar\"", "CLUSTER", "GETKEYSINSLOT", "5061", "10")
	want(t, n[0], "OK", "MIGRATE", "127.0.0.1", "7001", "", "0", "5000", "KEYS", "bar", "{bar}2")
	want(t, n[0], "(error) ASK 5061 127.0.0.1:7001", "GET", "bar")
	want(t, n[1], "(integer) 2", "CLUSTER", "COUNTKEYSINSLOT", "5061")
	want(t, n[1], "OK", "CLUSTER", "SETSLOT", "5061", "NODE", cl.NodeID(1))
	want(t, n[0], "OK", "CLUSTER", "SETSLOT", "5061", "NODE", cl.NodeID(1))
	want(t, n[0], "(error) MOVED 5061 127.0.0.1:7001", "GET", "bar")
	want(t, n[1], "\"1\"", "GET", "bar")
	if ttl := n[1].Do("TTL", "bar"); ttl.Int < 99 || ttl.Int > 100 {
		t.Errorf("TTL after MIGRATE %v", ttl)
	}
	for i, e := range n {
		info := e.Do("CLUSTER", "INFO").Str
		if !strings.Contains(info, "cluster_current_epoch:4\r\n") {
			t.Errorf("node %d: %s", i, info)
		}
	}
	if !strings.Contains(n[1].Do("CLUSTER", "INFO").Str, "cluster_my_epoch:4\r\n") {
		t.Errorf("the importing node did not bump its epoch")
	}
}

// CLUSTER HELP per profile: 7.0's list (checked on 7.0.15 by routing.txt), 7.2's with MYSHARDID,
// 7.4's two parts (by definition: cluster.c and cluster_legacy.c of 7.4.1 and 8.0).
func TestClusterHelpProfiles(t *testing.T) {
	for _, c := range []struct {
		v     Version
		n     int
		first string
		at    int
		line  string
	}{
		{V70, 56, "ADDSLOTS <slot> [<slot> ...]", 29, "MYID"},
		{V72, 58, "ADDSLOTS <slot> [<slot> ...]", 31, "MYSHARDID"},
		{V74, 58, "COUNTKEYSINSLOT <slot>", 11, "MYSHARDID"},
		{V88, 58, "COUNTKEYSINSLOT <slot>", 23, "ADDSLOTS <slot> [<slot> ...]"},
	} {
		cl := NewCluster(ClusterOptions{Masters: 3, Options: Options{Version: c.v}})
		r := cl.Nodes()[0].Do("CLUSTER", "HELP")
		footer := "    Prints this help." // addReplyHelp's text before 7.2
		if c.v.Has(V72) {
			footer = "    Print this help."
		}
		if len(r.Array) != c.n || r.Array[1].Str != c.first || r.Array[c.at].Str != c.line ||
			r.Array[c.n-2].Str != "HELP" || r.Array[c.n-1].Str != footer {
			t.Errorf("%v: %d lines:\n%s", c.v, len(r.Array), r.FormatCLI())
		}
	}
	cl := NewCluster(ClusterOptions{Masters: 3, Options: Options{Version: V72}})
	want(t, cl.Nodes()[0], "(error) ERR Invalid base port specified: x", "CLUSTER", "MEET", "127.0.0.1", "x")
}

// The per-slot key index against a scan of the keyspace, under seeded random SET, DEL, RENAME,
// SADD, EXPIRE with time passing, and FLUSHALL.
func TestClusterSlotIndex(t *testing.T) {
	clock := &ManualClock{Ms: StartMs}
	cl := NewCluster(ClusterOptions{Masters: 1, Options: Options{Clock: clock}})
	e := cl.Nodes()[0]
	n := e.cluster
	rng := rand.New(rand.NewPCG(3, 4))
	key := func() string { return fmt.Sprintf("{t%d}k%d", rng.IntN(4), rng.IntN(30)) }
	for i := 0; i < 6000; i++ {
		switch rng.IntN(12) {
		case 0, 1, 2:
			e.Do("SET", key(), "v")
		case 3, 4:
			e.Do("DEL", key())
		case 5:
			a, b := key(), key()
			if KeySlot([]byte(a)) == KeySlot([]byte(b)) {
				e.Do("RENAME", a, b)
			}
		case 6, 7:
			e.Do("SADD", key(), "m")
		case 8:
			e.Do("PEXPIRE", key(), "5")
		case 9:
			clock.Ms += 3
			e.Do("EXISTS", key())
		case 10:
			e.Do("GETDEL", key())
		case 11:
			if rng.IntN(50) == 0 {
				e.Do("FLUSHALL")
			}
		}
		if i%97 == 0 {
			for s := 0; s < 4; s++ {
				slot := KeySlot([]byte(fmt.Sprintf("t%d", s)))
				want := 0
				for k := range e.dbs[0].keys {
					if KeySlot([]byte(k)) == slot {
						want++
					}
				}
				if got := n.countKeysInSlot(slot); got != want {
					t.Fatalf("step %d slot %d: index %d keys, keyspace %d", i, slot, got, want)
				}
				if r := e.Do("CLUSTER", "GETKEYSINSLOT", itoa(int64(slot)), "1000"); len(r.Array) != want {
					t.Fatalf("step %d: GETKEYSINSLOT %d keys, want %d", i, len(r.Array), want)
				}
			}
		}
	}
}

// MoveSlot sends what redis-cli's reshard sends, and the trace events tell a scene what happened.
func TestClusterMoveSlotAndEvents(t *testing.T) {
	cl := NewCluster(ClusterOptions{Masters: 3, Port: 7000, Options: Options{Trace: true}})
	n := cl.Nodes()
	for i := 0; i < 25; i++ {
		n[0].Do("SET", fmt.Sprintf("{bar}%d", i), "v")
	}
	res := n[0].Exec([][]byte{[]byte("GET"), []byte("foo")})
	if len(res.Events) != 1 {
		t.Fatalf("GET foo events %#v", res.Events)
	}
	if ev, ok := res.Events[0].(ClusterRedirectEvent); !ok || ev.Redirect != "MOVED" || ev.To != 2 || ev.Slot != 12182 || fmt.Sprint(ev.Slots) != "[12182]" {
		t.Errorf("GET foo: %#v", res.Events[0])
	}
	res = n[0].Exec([][]byte{[]byte("MGET"), []byte("bar"), []byte("b")})
	if ev, ok := res.Events[0].(ClusterRedirectEvent); !ok || ev.Redirect != "CROSSSLOT" || fmt.Sprint(ev.Slots) != "[5061 3300]" {
		t.Errorf("MGET bar b: %#v", res.Events)
	}
	res = n[0].Exec([][]byte{[]byte("GET"), []byte("{bar}1")})
	if ev, ok := res.Events[0].(ClusterServedEvent); !ok || ev.Node != 0 || ev.Slot != 5061 {
		t.Errorf("GET {bar}1: %#v", res.Events)
	}
	if _, err := cl.MoveSlot(5061, 0); err == nil {
		t.Errorf("MoveSlot to the owner did not fail")
	}
	steps, err := cl.MoveSlot(5061, 1)
	if err != nil {
		t.Fatal(err)
	}
	var cmds []string
	migrated, owners := 0, 0
	for _, st := range steps {
		cmds = append(cmds, fmt.Sprintf("%d:%s %s", st.Node, st.Args[0], st.Args[1]))
		for _, ev := range st.Result.Events {
			switch ev := ev.(type) {
			case ClusterKeyMigratedEvent:
				if ev.From != 0 || ev.To != 1 || ev.Slot != 5061 {
					t.Errorf("%#v", ev)
				}
				migrated++
			case ClusterSlotEvent:
				if ev.Action == "owner" && ev.To == 1 {
					owners++
				}
			}
		}
	}
	want := "[1:CLUSTER SETSLOT 0:CLUSTER SETSLOT 0:CLUSTER GETKEYSINSLOT 0:MIGRATE 127.0.0.1 0:CLUSTER GETKEYSINSLOT 0:MIGRATE 127.0.0.1 0:CLUSTER GETKEYSINSLOT 0:MIGRATE 127.0.0.1 0:CLUSTER GETKEYSINSLOT 1:CLUSTER SETSLOT 0:CLUSTER SETSLOT 2:CLUSTER SETSLOT]"
	if fmt.Sprint(cmds) != want {
		t.Errorf("steps %v", cmds)
	}
	if migrated != 25 || owners != 3 {
		t.Errorf("%d keys migrated, %d owner changes", migrated, owners)
	}
	if cl.SlotOwner(5061) != 1 || n[1].Do("CLUSTER", "COUNTKEYSINSLOT", "5061").Int != 25 || n[0].Do("DBSIZE").Int != 0 {
		t.Errorf("after MoveSlot: owner %d", cl.SlotOwner(5061))
	}
	if cl.MigratingTo(0, 5061) != -1 || cl.ImportingFrom(1, 5061) != -1 || !cl.Known(0, 2) {
		t.Errorf("slot left open")
	}
}

// A routed GET on a cluster node (compare BenchmarkClusterGet with the standalone engine's).
func BenchmarkClusterGet(b *testing.B) {
	for _, nodes := range []int{0, 3} {
		b.Run(fmt.Sprintf("masters=%d", nodes), func(b *testing.B) {
			e := New(Options{})
			if nodes > 0 {
				e = NewCluster(ClusterOptions{Masters: nodes}).Nodes()[0]
			}
			e.Do("SET", "bar", "v")
			args := [][]byte{[]byte("GET"), []byte("bar")}
			b.ReportAllocs()
			for b.Loop() {
				e.Exec(args)
			}
		})
	}
}

// MEMORY USAGE on a cluster node counts the keyspace dict's cluster metadata: +16 on 7.0
// (checked on 7.0.15 by migrating.txt), +8 on 7.2, nothing from 7.4 (by definition).
func TestClusterMemoryUsage(t *testing.T) {
	for v, extra := range map[Version]int64{V70: 16, V72: 8, V74: 0, V88: 0} {
		alone := New(Options{Version: v})
		node := NewCluster(ClusterOptions{Masters: 1, Options: Options{Version: v}}).Nodes()[0]
		for _, e := range []*Engine{alone, node} {
			e.Do("SET", "bar", "hello")
			e.Do("RPUSH", "{bar}l", "a", "b")
		}
		for _, k := range []string{"bar", "{bar}l"} {
			a, b := alone.Do("MEMORY", "USAGE", k).Int, node.Do("MEMORY", "USAGE", k).Int
			if b-a != extra {
				t.Errorf("%v %s: standalone %d, cluster node %d (want +%d)", v, k, a, b, extra)
			}
		}
	}
}

// Adding a node as a scene would: AddNode, CLUSTER MEET, then MoveSlot of a range.
func TestClusterAddNodeAndReshard(t *testing.T) {
	cl := NewCluster(ClusterOptions{Masters: 3, Port: 7000})
	inRange := int64(0) // keys of slots 0-199
	for i := 0; i < 3000; i++ {
		k := fmt.Sprintf("user:%d", i)
		cl.Nodes()[cl.SlotOwner(KeySlot([]byte(k)))].Do("SET", k, "v")
		if KeySlot([]byte(k)) < 200 {
			inRange++
		}
	}
	e := cl.AddNode()
	want(t, e, "(error) CLUSTERDOWN Hash slot not served", "GET", "user:1")
	if !strings.Contains(e.Do("CLUSTER", "NODES").Str, " :7003@17003 myself,master - 0 0 0 connected") {
		t.Errorf("new node: %s", e.Do("CLUSTER", "NODES").Str)
	}
	want(t, e, "OK", "CLUSTER", "MEET", "127.0.0.1", "7000")
	for s := 0; s < 200; s++ {
		if _, err := cl.MoveSlot(s, 3); err != nil {
			t.Fatal(err)
		}
	}
	total := int64(0)
	for i, n := range cl.Nodes() {
		total += n.Do("DBSIZE").Int
		if !strings.Contains(n.Do("CLUSTER", "INFO").Str, "cluster_known_nodes:4\r\ncluster_size:4\r\n") {
			t.Errorf("node %d: %s", i, n.Do("CLUSTER", "INFO").Str)
		}
	}
	moved := e.Do("DBSIZE").Int
	if total != 3000 || moved != inRange || inRange == 0 {
		t.Errorf("%d keys in all, %d on the new node, want %d", total, moved, inRange)
	}
	if r := cl.Nodes()[0].Do("CLUSTER", "SLOTS").FormatCLI(); !strings.HasPrefix(r, "1) 1) (integer) 0\n   2) (integer) 199\n   3) 1) \"127.0.0.1\"\n      2) (integer) 7003\n") {
		t.Errorf("CLUSTER SLOTS:\n%s", r)
	}
}

// The checks a script layer runs for each redis.call on a cluster node (by definition: script.c).
func TestClusterScriptCheck(t *testing.T) {
	cl := NewCluster(ClusterOptions{Masters: 3, Port: 7000, Options: Options{Version: V70}}) // 7.4 words CROSSSLOT its own way
	e := cl.Nodes()[0]
	b := func(s ...string) [][]byte {
		out := make([][]byte, len(s))
		for i, x := range s {
			out[i] = []byte(x)
		}
		return out
	}
	slot := -1
	if got := e.ClusterScriptCheck(b("GET", "foo"), &slot, false); got != "Script attempted to access a non local key in a cluster node" {
		t.Errorf("GET foo: %q", got)
	}
	if got := e.ClusterScriptCheck(b("MGET", "bar", "b"), &slot, false); got != "Script attempted to access a non local key in a cluster node" {
		t.Errorf("MGET bar b: %q", got)
	}
	if got := e.ClusterScriptCheck(b("PING"), &slot, false); got != "" || slot != -1 {
		t.Errorf("PING: %q %d", got, slot)
	}
	if got := e.ClusterScriptCheck(b("SET", "bar", "1"), &slot, false); got != "" || slot != 5061 {
		t.Errorf("SET bar: %q slot %d", got, slot)
	}
	if got := e.ClusterScriptCheck(b("GET", "b"), &slot, false); got != "Script attempted to access keys that do not hash to the same slot" {
		t.Errorf("GET b: %q", got)
	}
	if got := e.ClusterScriptCheck(b("GET", "b"), &slot, true); got != "" {
		t.Errorf("GET b allowed: %q", got)
	}
	if s := e.ClusterCommandSlot(b("SINTERCARD", "1", "{bar}x")); s != 5061 {
		t.Errorf("SINTERCARD slot %d", s)
	}
	if e.HasCommand("eval") { // once scripting exists: the declared keys' slot
		if s := e.ClusterCommandSlot(b("EVAL", "return 1", "1", "{bar}x")); s != 5061 {
			t.Errorf("EVAL slot %d", s)
		}
	}
	// While a script runs, dispatch does not redirect (the script layer checks).
	e.ClusterScriptRunning(true)
	want(t, e, "(nil)", "GET", "foo")
	want(t, e, "(error) ERR SELECT is not allowed in cluster mode", "SELECT", "2")
	e.ClusterScriptRunning(false)
	want(t, e, "(error) MOVED 12182 127.0.0.1:7002", "GET", "foo")
	if New(Options{}).ClusterCommandSlot(b("GET", "foo")) != -1 {
		t.Errorf("standalone slot")
	}
}
