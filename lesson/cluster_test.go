package lesson

import (
	"strings"
	"testing"

	"redscope/engine"
)

// A cluster lesson: follow on hops and stays; reshard moves the keys; Back is exact (the
// cluster is rebuilt by replaying the lines); bad cluster lines are refused by name.
func TestClusterLines(t *testing.T) {
	src := `lesson c
title en: c
scene cluster
step
en: one
cluster create 3 empty 1
> SET foo bar
expect reply: (error) MOVED 12182 127.0.0.1:7002
step
en: two
cluster follow on
> SET foo bar
expect reply: -> Redirected to slot [12182] located at 127.0.0.1:7002
expect reply: OK
> SET product:1 x
> CLUSTER MEET 127.0.0.1 7003
step
en: three
cluster reshard 0-9 7003
> GET product:1
expect reply: -> Redirected to slot [0] located at 127.0.0.1:7003
expect reply: "x"
`
	l, err := Parse("c.lesson", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p := NewPlayer(Config{Version: engine.V70, Lang: "en"})
	p.Load(l)
	for p.Step() {
		if f := p.Failed(); len(f) > 0 {
			t.Fatalf("step %d: %+v", p.Pos(), f)
		}
	}
	cl := p.Engine().Cluster()
	if cl == nil || p.ClusterNode() != "127.0.0.1:7003" || cl.SlotOwner(0) != 3 || cl.SlotOwner(10) != 0 || cl.SlotCount(3) != 10 {
		t.Fatalf("after the lesson: node %q", p.ClusterNode())
	}
	if !strings.Contains(p.Last()[0].Reply, "moved 10 slots (0–9) with 1 key to 127.0.0.1:7003") {
		t.Errorf("reshard reply %q", p.Last()[0].Reply)
	}
	p.Back()
	if p.ClusterNode() != "127.0.0.1:7000" || p.Engine().Cluster().SlotOwner(0) != 0 {
		t.Errorf("Back: node %q, slot 0 on %d", p.ClusterNode(), p.Engine().Cluster().SlotOwner(0))
	}
	p.Reset()
	if p.ClusterNode() != "" || p.Engine().Cluster() != nil {
		t.Errorf("Reset kept the cluster")
	}
	for _, bad := range []string{"cluster create 0", "cluster create 20", "cluster follow maybe", "cluster reshard 9-1 7003", "cluster node x"} {
		if _, err := Parse("b.lesson", []byte("lesson b\ntitle en: b\nstep\nen: s\n"+bad+"\n")); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	// Redis's own CLUSTER subcommands are not cluster lines.
	for _, line := range []string{"CLUSTER NODES", "cluster info", "CLUSTER KEYSLOT foo"} {
		if IsClusterLine(line) {
			t.Errorf("%q taken for a cluster line", line)
		}
	}
}
