package bench

import (
	"reflect"
	"strings"
	"testing"

	"redscope/engine"
	"redscope/lesson"
	"redscope/scene"
)

// TestExchangeArgsAreTheSplit: the split line a typed exchange carries (engine.Exchange.Args,
// kept by the player so that the scene need not split a 7 KB line again) is engine.SplitArgs of
// its Cmd whenever it is set, and the scene draws and describes the same with it as without it
// (its own split of Cmd): quoted and escaped arguments, refused lines (whose Cmd is cut), blocked
// and woken commands, keyless commands, CLUSTER KEYSLOT, clock moves, HELP, with the page's limits
// and without, in free play and in a lesson with an `args` line (whose Cmd is the short form).
func TestExchangeArgsAreTheSplit(t *testing.T) {
	long := "SET big " + strings.Repeat("x", 300<<10)
	lines := []string{
		"PFADD h a b c", `SET "a key" "v\x41\n"`, "SET 'q' 'it''s'", `SET bad "unbalanced`, "PING", "DBSIZE",
		"CLUSTER KEYSLOT h", "RPUSH l a b c", "RENAME l m", "DEL m", long, "SRANDMEMBER s -1000000",
		"advance 5s", "HELP PFADD", "BLPOP q 0", "client 2", "RPUSH q x", "client 1", "GET \"a key\"",
		"PFADD " + strings.Repeat("u ", 2000), "HSET hh f v g w", "EVAL \"return redis.call('SET','s','1')\" 0", "BOGUS k",
	}
	for _, lim := range []*lesson.Limits{&lesson.DefaultLimits, nil} {
		for _, src := range []string{"", "title en: t\nstep\nen: one\n> SADD s a\nargs 1..50 > m%d\n"} {
			p := lesson.NewPlayer(lesson.Config{Version: engine.DefaultVersion, Limits: lim, Lang: "en"})
			if src != "" {
				l, err := lesson.Parse("t", []byte(src))
				if err != nil {
					t.Fatal(err)
				}
				p.Load(l)
				p.Step()
			}
			with, without := scene.NewAuto("", nil), scene.NewAuto("", nil)
			set := 0
			for _, line := range lines {
				if n, ok := strings.CutPrefix(line, "client "); ok {
					p.SetActiveClient(int(n[0] - '0'))
					continue
				}
				p.Exec(line)
				last := lesson.EngineExchanges(p.Recent())
				for _, x := range last {
					if x.Args == nil {
						continue
					}
					set++
					if want, err := engine.SplitArgs(x.Cmd); err != nil || !reflect.DeepEqual(x.Args, want) {
						t.Fatalf("%q: Args %d arguments, SplitArgs(Cmd) %d (%v)", x.Cmd[:min(len(x.Cmd), 40)], len(x.Args), len(want), err)
					}
				}
				bare := make([]engine.Exchange, len(last))
				for i, x := range last {
					x.Args = nil
					bare[i] = x
				}
				with.Update(scene.Input{Engine: p.Engine(), Keys: p.Watched(), Last: last, Lang: "en"})
				without.Update(scene.Input{Engine: p.Engine(), Keys: p.Watched(), Last: bare, Lang: "en"})
				if a, b := scene.Describe(with), scene.Describe(without); a != b {
					t.Fatalf("after %q: with Args %q, without %q", line[:min(len(line), 40)], a, b)
				}
				r := scene.Rect{W: 820, H: 720}
				if a, b := with.Frame(r, 1), without.Frame(r, 1); !reflect.DeepEqual(a, b) {
					t.Fatalf("after %q: the frames differ", line[:min(len(line), 40)])
				}
			}
			if set == 0 {
				t.Fatal("no exchange kept its split line")
			}
		}
	}
}
