package scene

import (
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"redscope/engine"
)

// The per-command shortcuts of Auto and HLL (issue 11) give what the code they replaced gave.

func TestShortCmdAsRunes(t *testing.T) {
	old := func(c string) string { // the []rune version
		if r := []rune(c); len(r) > maxCmdChars {
			return string(r[:maxCmdChars-1]) + "…"
		}
		return c
	}
	var cases []string
	for _, unit := range []string{"a", "é", "ệ", "😀", "\xff", "a\xffb"} {
		for _, n := range []int{0, 1, maxCmdChars - 2, maxCmdChars - 1, maxCmdChars, maxCmdChars + 1, maxCmdChars + 2, 3000} {
			cases = append(cases, strings.Repeat(unit, n), "PFADD h "+strings.Repeat(unit, n), strings.Repeat(unit, n)+"\xff")
		}
	}
	for _, c := range cases {
		if got, want := shortCmd(c), old(c); got != want {
			t.Errorf("shortCmd(%q…, %d bytes) = %q, want %q", c[:min(len(c), 20)], len(c), got, want)
		}
	}
}

func TestKeyslotAndTouchedFromOneSplit(t *testing.T) {
	e := engine.New(engine.Options{Trace: true})
	e.Do("SET", "a", "1")
	for _, line := range []string{"CLUSTER KEYSLOT user:{42}", "cluster keyslot a", "CLUSTER KEYSLOT", "cluster keyslot a b",
		`"cluster" 'keyslot' "x y"`, `"\x63luster" keyslot k`, "CLUSTER INFO", `cluster keyslot "bad`, "PFADD h a b c", "MSET a 1 b 2 c 3",
		"GET a", "PING", "", "   ", `SET "k k" v`} {
		res := e.Exec(split(t, line))
		x := engine.Exchange{Cmd: line, Reply: res.Reply.FormatCLI(), Error: res.Reply.IsError(), Events: res.Events}
		args, err := engine.SplitArgs(line)
		if got, want := isKeyslotArgs(x, args, err), isKeyslot(x); got != want {
			t.Errorf("%q: isKeyslotArgs %v, isKeyslot %v", line, got, want)
		}
		if got, want := touchedKeysArgs(e, x, args, err), touchedKeys(e, x); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: touchedKeysArgs %q, touchedKeys %q", line, got, want)
		}
	}
}

// TestTypedSharesEvents: when every event of a typed exchange is about the keys drawn, the
// scene gets all of them, in order; an event about another key (RENAME's old name) is left out.
func TestTypedSharesEvents(t *testing.T) {
	e := engine.New(engine.Options{Trace: true})
	run := func(line string) engine.Exchange {
		res := e.Exec(split(t, line))
		return engine.Exchange{Cmd: line, Reply: res.Reply.FormatCLI(), Console: true, Events: res.Events}
	}
	x := run("PFADD h a b c d e f g")
	a := NewAuto("", nil)
	a.Update(Input{Engine: e, Last: []engine.Exchange{x}, Lang: "en"})
	if got := a.sub.Last[0].Events; !reflect.DeepEqual(got, x.Events) || len(got) == 0 {
		t.Fatalf("PFADD: the scene got %d events, the exchange has %d", len(got), len(x.Events))
	}
	run("RPUSH l a b")
	y := run("RENAME l m")
	a.Update(Input{Engine: e, Last: []engine.Exchange{y}, Lang: "en"})
	for _, ev := range a.sub.Last[0].Events {
		if k, ok := rawKey(ev); ok && k == "l" {
			t.Fatalf("RENAME: an event about the old name reached the scene: %#v", ev)
		}
	}
}

func split(t *testing.T, line string) [][]byte {
	t.Helper()
	args, err := engine.SplitArgs(line)
	if err != nil || len(args) == 0 {
		return [][]byte{[]byte("PING")}
	}
	return args
}

// TestAllAboutIsLoop: allAbout, which skips the map for an event about the key before, answers
// what the loop over every event it replaced answered, on random sequences of events about a few
// keys (the empty name among them) and events about none.
func TestAllAboutIsLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 4))
	keys := []string{"", "a", "b", "c"}
	for i := 0; i < 20000; i++ {
		var evs []engine.Event
		for j := r.IntN(8); j > 0; j-- {
			k := keys[r.IntN(len(keys))]
			switch r.IntN(4) {
			case 0:
				evs = append(evs, engine.KeyEvent{Key: k, Action: "renamed"})
			case 1:
				evs = append(evs, engine.HLLEvent{Key: k})
			case 2:
				evs = append(evs, engine.ScriptEvent{Action: "start"})
			default:
				evs = append(evs, engine.SDSEvent{Key: k})
			}
		}
		draw := map[string]bool{}
		for _, k := range keys {
			if r.IntN(2) == 0 {
				draw[k] = true
			}
		}
		want := true
		for _, ev := range evs {
			if k, ok := rawKey(ev); ok && !draw[k] {
				want = false
				break
			}
		}
		if got := allAbout(evs, draw); got != want {
			t.Fatalf("%+v with %v: allAbout %v, the loop %v", evs, draw, got, want)
		}
	}
}

// TestHLLSetRegsIsCount: the registers set that Describe states, counted while Update paints
// them, are the count of Regs that are not 0, for a missing key, an empty HLL, sparse and dense
// ones, and a string that is not an HLL.
func TestHLLSetRegsIsCount(t *testing.T) {
	e := engine.New(engine.Options{Trace: true})
	s := &HLL{}
	check := func(key string) {
		t.Helper()
		s.Update(Input{Engine: e, Keys: []string{key}, Lang: "en"})
		n := 0
		for _, v := range s.Regs {
			if v != 0 {
				n++
			}
		}
		if s.setRegs != n {
			t.Fatalf("%s: setRegs %d, %d registers not 0", key, s.setRegs, n)
		}
	}
	check("nokey")
	e.Exec(split(t, "PFADD empty"))
	check("empty")
	e.Exec(split(t, "PFADD sp a b c"))
	check("sp")
	var line strings.Builder
	line.WriteString("PFADD dense")
	for i := 0; i < 3000; i++ {
		line.WriteString(" e" + strconv.Itoa(i))
	}
	e.Exec(split(t, line.String()))
	check("dense")
	e.Exec(split(t, "SET str hello"))
	check("str")
}
