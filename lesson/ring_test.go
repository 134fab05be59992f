package lesson_test

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"redscope/internal/lab"
	"redscope/lesson"
	"redscope/ring"
)

func ringLesson(t *testing.T, body string) *lesson.Lesson {
	t.Helper()
	l, err := lesson.Parse("r.lesson", []byte("title en: r\nscene ring\n"+body))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func ringEvent(t *testing.T, x lesson.Exchange) ring.Event {
	t.Helper()
	for _, ev := range x.Events {
		if r, ok := ev.(ring.Event); ok {
			return r
		}
	}
	t.Fatalf("no ring event in %+v", x)
	return ring.Event{}
}

// TestRingMatchesLab: the figures of ring lines are those of `redscope lab ring` for the same
// nodes, keys, hash and change (the course article's table: 100 000 keys, 4 nodes, add a 5th).
func TestRingMatchesLab(t *testing.T) {
	var out bytes.Buffer
	if err := lab.Run([]string{"ring", "--count", "100000", "--add", "cache-e", "--vnodes", "1,150"}, &out); err != nil {
		t.Fatal(err)
	}
	table := out.String()
	for _, v := range []string{"1", "150"} {
		l := ringLesson(t, "step\nen: a\nring nodes cache-a,cache-b,cache-c,cache-d vnodes "+v+" keys product:%d 100000 hash md5\nstep\nen: b\nring add cache-e\n")
		p := lesson.NewPlayer(lesson.Config{})
		p.Load(l)
		p.Step()
		start := ringEvent(t, p.Last()[0])
		p.Step()
		ev := ringEvent(t, p.Last()[0])
		// The lab prints: scheme, keys per node before, moved share.
		row := "ring vnodes=" + v
		var loads []string
		for _, n := range start.RingLoad {
			loads = append(loads, itoa(n))
		}
		want := row + "  " + strings.Join(loads, "  ")
		if !containsRow(table, row, append(loads, ring.Percent(ev.RingMoved, ev.Keys))) {
			t.Errorf("lab table does not have %q moved %s:\n%s", want, ring.Percent(ev.RingMoved, ev.Keys), table)
		}
		var modLoads []string
		for _, n := range start.ModLoad {
			modLoads = append(modLoads, itoa(n))
		}
		if !containsRow(table, "hash % N", append(modLoads, ring.Percent(ev.ModMoved, ev.Keys))) {
			t.Errorf("hash %% N row differs: %v moved %d\n%s", modLoads, ev.ModMoved, table)
		}
		if ev.Keys != 100000 || len(ev.Nodes) != 5 || ev.Nodes[4] != "cache-e" || len(ev.Points) != 5*atoi(v) {
			t.Errorf("event %+v", ev.Nodes)
		}
		sum := 0
		for _, n := range ev.RingLoad {
			sum += n
		}
		if sum != 100000 {
			t.Errorf("ring loads sum %d", sum)
		}
	}
	// The course article's figures (engine-computed, so they may be asserted): hash % N moves
	// 80.0 %, the 150-vnode ring 22.3 % with 22850/24877/24181/28092 before.
	if !strings.Contains(table, "80.0%") || !containsRow(table, "ring vnodes=150", []string{"22850", "24877", "24181", "28092", "22.3%"}) {
		t.Errorf("article figures missing:\n%s", table)
	}
}

func containsRow(table, scheme string, cells []string) bool {
	for _, line := range strings.Split(table, "\n") {
		if !strings.HasPrefix(line, scheme) {
			continue
		}
		f := strings.Fields(strings.TrimPrefix(line, scheme))
		if strings.Join(f, " ") == strings.Join(cells, " ") {
			return true
		}
	}
	return false
}

func itoa(n int) string { return strconv.Itoa(n) }

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// TestRingBackIsExact: Back replays ring lines (and console ring lines) exactly.
func TestRingBackIsExact(t *testing.T) {
	l := ringLesson(t, `step
en: a
ring nodes a,b,c,d vnodes 20 keys k:%d 2000
step
en: b
ring add e
expect reply: x
step
en: c
ring remove b
step
en: d
ring vnodes 1
`)
	p := lesson.NewPlayer(lesson.Config{})
	p.Load(l)
	var replies []string
	for p.Step() {
		replies = append(replies, p.Last()[0].Reply)
	}
	if len(replies) != 4 {
		t.Fatal(replies)
	}
	p.Exec("ring add z")
	if x := p.Last()[1]; x.Error || !strings.Contains(x.Reply, "nodes:    a c d e z") {
		t.Fatalf("console ring line: %+v", x)
	}
	for i := 3; i >= 1; i-- {
		p.Back()
		if got := p.Last()[0].Reply; got != replies[i-1] {
			t.Fatalf("back to %d:\n%s\nwant\n%s", i, got, replies[i-1])
		}
	}
	// The check on the ring line is evaluated against its reply.
	p.Seek(2)
	if f := p.Failed(); len(f) != 1 || !strings.Contains(f[0].Got, "moved") {
		t.Fatalf("failed %+v", f)
	}
	ev := ringEvent(t, p.Last()[0])
	if ev.Op != "add" || ev.Arg != "e" || ev.RingMoved <= 0 || ev.ModMoved <= ev.RingMoved || len(ev.Samples) != lesson.RingSamples {
		t.Fatalf("%+v", ev)
	}
	// Each sample's owners are those of the ring package.
	r := ring.New(ring.MD5, 20, "a", "b", "c", "d")
	for _, s := range ev.Samples {
		if r.Get(s.Key) != s.Was || ring.Mod(ring.MD5(s.Key), []string{"a", "b", "c", "d"}) != s.ModWas {
			t.Fatalf("sample %+v", s)
		}
	}
	r.Add("e")
	for _, s := range ev.Samples {
		if r.Get(s.Key) != s.Owner {
			t.Fatalf("sample after %+v", s)
		}
	}
	p.Seek(4)
	if ev := ringEvent(t, p.Last()[0]); ev.Op != "vnodes" || len(ev.Points) != 4 || ev.ModMoved != -1 || ev.RingMoved <= 0 {
		t.Fatalf("vnodes: %+v", ev)
	}
}

func TestRingErrors(t *testing.T) {
	p := lesson.NewPlayer(lesson.Config{})
	for line, want := range map[string]string{
		"ring add x":                    "(error) no ring yet",
		"RING":                          "(error) ring needs",
		"ring nodes a,a":                "(error) node \"a\" given twice",
		"ring nodes a vnodes 0":         "(error) vnodes must be",
		"ring nodes a keys k 10":        "(error) ring nodes: the key pattern",
		"ring nodes a hash sha1":        "(error) ring nodes: unknown hash",
		"ring nodes a keys k:%d 100001": "(error) the key count",
		"ring spin":                     "(error) unknown operation",
	} {
		x := p.Exec(line)
		if !x.Error || !strings.HasPrefix(x.Reply, want) {
			t.Errorf("%q → %q, want %q…", line, x.Reply, want)
		}
	}
	p.Exec("ring nodes a keys k:%d 10")
	for line, want := range map[string]string{"ring remove a": "(error) cannot remove the only node", "ring add a": "(error) a is already", "ring remove q": "(error) q is not"} {
		if x := p.Exec(line); x.Reply != want && !strings.HasPrefix(x.Reply, want) {
			t.Errorf("%q → %q", line, x.Reply)
		}
	}
	for _, src := range []string{"ring add x\n", "step\nen: a\nring fly\n", "step\nen: a\nrepeat 0..5 >\n", "step\nen: a\nrepeat 0..5000 > GET a:%d\n", "step\nen: a\nrepeat 5..1 > GET a:%d\n", "step\nen: a\nrepeat 0..1 > ring add n%d\n"} {
		if _, err := lesson.Parse("x", []byte("title en: x\n"+src)); err == nil {
			t.Errorf("accepted %q", src)
		}
	}
}

func TestRepeat(t *testing.T) {
	// Without %d the same command runs as many times as the range counts.
	if l, err := lesson.Parse("x", []byte("title en: x\nstep\nen: a\nrepeat 1..3 > INCR n\n")); err != nil || len(l.Steps[0].Actions) != 3 || l.Steps[0].Actions[2].Cmd != "INCR n" {
		t.Fatalf("repeat without %%d: %v", err)
	}
	l, err := lesson.Parse("x", []byte("title en: x\nstep\nen: a\nrepeat 3..5 > SET k:%d v%d\n> DBSIZE\nexpect reply: (integer) 3\n"))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(l.Steps[0].Actions); n != 4 || l.Steps[0].Actions[2].Cmd != "SET k:5 v5" {
		t.Fatalf("%+v", l.Steps[0].Actions)
	}
	st := lesson.Run(l, lesson.Config{})
	if c := st[1].Outputs.Commands; len(c) != 4 || !c[3].Checks[0].OK {
		t.Fatalf("%+v", c)
	}
}
