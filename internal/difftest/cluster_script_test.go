package difftest

// Scripts on a cluster against a real one: the transcripts of testdata/transcripts/cluster-scripts/
// (EVAL, EVALSHA and FCALL on the right node, the wrong node, with keys of two slots, with keys
// they did not declare; redis.pcall's error table) replayed on three Debian redis-server 7.0.15
// joined by redis-cli --cluster create and on a three-master redscope cluster, node by node as
// TestClusterDiff does; the replies must be identical once ports and node IDs are markers.

import (
	"path/filepath"
	"testing"
)

func TestClusterScriptsDiff(t *testing.T) {
	ref := startRealCluster(t)
	defer ref.close()
	scope, _ := startScopeCluster(t, 3, 1)
	defer scope.close()
	files, err := filepath.Glob(filepath.Join(transcriptsDir, "cluster-scripts", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no cluster script transcripts: %v", err)
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
	t.Logf("cluster script transcripts: %d replies compared with redis-server 7.0.15", total)
}
