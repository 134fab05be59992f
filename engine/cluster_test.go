package engine

import "testing"

func clusterWant(t *testing.T, e *Engine, w string, args ...string) {
	t.Helper()
	if got := e.Do(args...).FormatCLI(); got != w+"\n" {
		t.Errorf("%v: got %q want %q", args, got, w+"\n")
	}
}

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
	clusterWant(t, e, dis, "CLUSTER", "INFO")
	clusterWant(t, e, dis, "cluster", "help")
	clusterWant(t, e, dis, "CLUSTER", "MYID")
	clusterWant(t, e, dis, "CLUSTER", "COUNTKEYSINSLOT", "1")
	clusterWant(t, e, dis, "CLUSTER", "GETKEYSINSLOT", "1", "1")
	clusterWant(t, e, "(error) ERR wrong number of arguments for 'cluster' command", "CLUSTER")
	clusterWant(t, e, "(error) ERR wrong number of arguments for 'cluster|keyslot' command", "CLUSTER", "KEYSLOT")
	clusterWant(t, e, "(error) ERR wrong number of arguments for 'cluster|keyslot' command", "CLUSTER", "KEYSLOT", "a", "b")
	clusterWant(t, e, "(error) ERR unknown subcommand 'foo'. Try CLUSTER HELP.", "CLUSTER", "foo")
	clusterWant(t, e, "(error) ERR unknown subcommand 'MYSHARDID'. Try CLUSTER HELP.", "CLUSTER", "MYSHARDID")
	e8 := New(Options{Version: V88})
	clusterWant(t, e8, dis, "CLUSTER", "MYSHARDID")
}
