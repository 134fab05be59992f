package difftest

// Scripts on a cluster against a real one: the transcripts of testdata/transcripts/cluster-scripts/
// (EVAL, EVALSHA and FCALL on the right node, the wrong node, with keys of two slots, with keys
// they did not declare; redis.pcall's error table) replayed on three Debian redis-server 7.0.15
// joined by redis-cli --cluster create and on a three-master redscope cluster, node by node as
// TestClusterDiff does; the replies must be identical once ports and node IDs are markers.

import "testing"

func TestClusterScriptsDiff(t *testing.T) {
	ref, scope := clusterPair(t)
	total := replayClusterDir(t, "cluster-scripts", ref, scope)
	t.Logf("cluster script transcripts: %d replies compared with redis-server 7.0.15", total)
}
