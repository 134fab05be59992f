package difftest

// The built-in cluster lessons (assets/lessons with `cluster` lines, lesson/cluster.go) played on
// a real three-master redis-server 7.0.15 cluster with one lone node, as a student's redis-cli
// would: each command sent to the node the lesson is connected to; with `cluster follow on`,
// MOVED and ASK followed as redis-cli -c does (the "-> Redirected to slot [S] located at
// HOST:PORT" line, ASKING before an ASK, staying on the new node); `cluster reshard A-B P` done by
// `redis-cli --cluster reshard` with --cluster-slots B-A+1 from the node owning slot A (it moves
// a source's lowest slots first, so the lesson's range must be the start of one node's slots);
// CLUSTER MEET's port mapped to the real node. Every reply the lesson shows must be the real
// cluster's, its ports written as the lesson's (7000 + node index).

import (
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"redscope/assets"
	"redscope/engine"
	"redscope/engine/alloc"
	"redscope/lesson"
)

func TestClusterLessonsOnRealCluster(t *testing.T) {
	n := 0
	for _, src := range assets.Lessons() {
		l, err := lesson.Parse(src.Name+".lesson", src.Src)
		if err != nil {
			t.Fatal(err)
		}
		if !hasClusterLine(l) {
			continue
		}
		n++
		t.Run(l.Name, func(t *testing.T) { playClusterLesson(t, l) })
	}
	if n == 0 {
		t.Fatal("no built-in lesson has a cluster")
	}
}

func hasClusterLine(l *lesson.Lesson) bool {
	for _, s := range l.Steps {
		for _, a := range s.Actions {
			if lesson.IsClusterLine(a.Cmd) {
				return true
			}
		}
	}
	return false
}

func playClusterLesson(t *testing.T, l *lesson.Lesson) {
	var xs []lesson.Exchange
	for _, st := range lesson.Run(l, lesson.Config{Version: engine.V70, Allocator: alloc.Jemalloc16, Lang: "en"})[1:] {
		xs = append(xs, st.Outputs.Commands...)
	}
	var ref *clusterSide
	cli := need(t, "redis-cli")
	node, follow, i, compared := 0, false, 0, 0
	// lessonAddr writes a real node's address as the lesson's.
	lessonAddr := func(s string) string {
		for j, p := range ref.ports {
			s = strings.ReplaceAll(s, "127.0.0.1:"+strconv.Itoa(p), "127.0.0.1:"+strconv.Itoa(lesson.ClusterBasePort+j))
		}
		return s
	}
	realPort := func(p int) int { return ref.ports[p-lesson.ClusterBasePort] }
	for si, st := range l.Steps {
		for _, a := range st.Actions {
			if i >= len(xs) {
				t.Fatalf("step %d: the engine ran %d exchanges", si+1, len(xs))
			}
			x := xs[i]
			i++
			if x.Cmd != a.Cmd {
				t.Fatalf("step %d: exchange %q for action %q", si+1, x.Cmd, a.Cmd)
			}
			if lesson.IsRingLine(a.Cmd) {
				continue // the ring is package ring's, not the server's
			}
			if lesson.IsClusterLine(a.Cmd) {
				f := strings.Fields(a.Cmd)
				switch f[1] {
				case "create":
					if f[2] != "3" || (len(f) == 5 && f[4] != "1") {
						t.Fatalf("%s: the real cluster here has 3 masters and 1 lone node", a.Cmd)
					}
					ref = startRealCluster(t)
					defer ref.close()
				case "node":
					p, _ := strconv.Atoi(f[2])
					node = p - lesson.ClusterBasePort
				case "follow":
					follow = f[2] == "on"
				case "reshard":
					lo, hi, _ := strings.Cut(f[2], "-")
					first, _ := strconv.Atoi(lo)
					last := first
					if hi != "" {
						last, _ = strconv.Atoi(hi)
					}
					p, _ := strconv.Atoi(f[3])
					to := p - lesson.ClusterBasePort
					// redis-cli --cluster reshard with one source takes that node's first slots.
					from := ownerOfOn(t, ref, first)
					if from < 0 || (first > 0 && ownerOfOn(t, ref, first-1) == from) {
						t.Fatalf("%s: the test reshards the first slots of one node only", a.Cmd)
					}
					args := []string{"--cluster", "reshard", ref.addr(0), "--cluster-from", ref.ids[from], "--cluster-to", ref.ids[to],
						"--cluster-slots", strconv.Itoa(last - first + 1), "--cluster-yes"}
					if out, err := exec.Command(cli, args...).CombinedOutput(); err != nil {
						t.Fatalf("redis-cli %v: %v\n%s", args, err, out)
					}
					waitClusterAgrees(t, ref, len(ref.ports))
					for s := first; s <= last; s++ {
						if o := ownerOfOn(t, ref, s); o != to {
							t.Fatalf("after the reshard slot %d is node %d's", s, o)
						}
					}
				}
				continue
			}
			if ref == nil {
				t.Fatalf("step %d: %q before cluster create", si+1, a.Cmd)
			}
			args, err := engine.SplitArgs(a.Cmd)
			if err != nil {
				t.Fatal(err)
			}
			sargs := make([]string, len(args))
			for j, b := range args {
				sargs[j] = string(b)
			}
			meet := len(sargs) == 4 && strings.EqualFold(sargs[0], "cluster") && strings.EqualFold(sargs[1], "meet")
			if meet {
				p, _ := strconv.Atoi(sargs[3])
				sargs[3] = strconv.Itoa(realPort(p))
			}
			got := ""
			r := ref.do(t, node, sargs...)
			for hop := 0; hop < 5 && follow && r.IsError(); hop++ {
				fs := strings.Fields(r.Str)
				if len(fs) != 3 || (fs[0] != "MOVED" && fs[0] != "ASK") {
					break
				}
				_, ps, _ := strings.Cut(fs[2], ":")
				p, _ := strconv.Atoi(ps)
				to := -1
				for j, q := range ref.ports {
					if q == p {
						to = j
					}
				}
				if to < 0 {
					t.Fatalf("redirected to unknown port %d", p)
				}
				got += fmt.Sprintf("-> Redirected to slot [%s] located at 127.0.0.1:%d\n", fs[1], lesson.ClusterBasePort+to)
				node = to
				if fs[0] == "ASK" {
					ref.do(t, node, "ASKING")
				}
				r = ref.do(t, node, sargs...)
			}
			got += strings.TrimSuffix(r.FormatCLI(), "\n")
			if got = lessonAddr(got); got != x.Reply {
				t.Errorf("step %d %s:\nredis-server 7.0.15: %q\nredscope lesson:     %q", si+1, a.Cmd, got, x.Reply)
			}
			compared++
			if meet {
				waitClusterAgrees(t, ref, len(ref.ports))
			}
		}
	}
	t.Logf("%s: %d replies identical to a real 7.0.15 cluster", l.Name, compared)
}

// ownerOfOn is the index of the node serving slot s, by CLUSTER SLOTS of node 0.
func ownerOfOn(t *testing.T, cs *clusterSide, s int) int {
	r := cs.do(t, 0, "CLUSTER", "SLOTS")
	for _, rg := range r.Array {
		if len(rg.Array) < 3 || rg.Array[0].Int > int64(s) || rg.Array[1].Int < int64(s) {
			continue
		}
		port := rg.Array[2].Array[1].Int
		for j, p := range cs.ports {
			if int64(p) == port {
				return j
			}
		}
	}
	return -1
}
