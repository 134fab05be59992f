package scene

import (
	"strings"
	"testing"

	"redscope/engine"
	"redscope/lesson"
)

func TestTokenIndexAndTTL(t *testing.T) {
	for v, want := range map[string]int{"tok-A": 0, "tok-b": 1, "tok-Z": 25, "v1": -1, "tok-AB": -1, "x-A": -1, "tok-1": -1, "": -1} {
		if got := tokenIndex(v); got != want {
			t.Errorf("%q: %d want %d", v, got, want)
		}
	}
	if ttlFraction(30000, 60000) != 0.5 || ttlFraction(-1, 60000) != 0 || ttlFraction(90000, 60000) != 1 {
		t.Fatal("ttl fraction")
	}
	if expiryArg("INCREX k BYINT 1 UBOUND 5 EX 60 ENX") != 60000 || expiryArg("SET l tok-A NX PX 30000") != 30000 || expiryArg("SET ex ex") != 0 {
		t.Fatal("expiry arg")
	}
	if fmtDur(250) != "250ms" || fmtDur(35000) != "35s" || fmtDur(125000) != "2m05s" {
		t.Fatal("fmtDur")
	}
}

func TestJudge(t *testing.T) {
	cases := []struct {
		x       engine.Exchange
		ok, neu bool
		reply   string
	}{
		{engine.Exchange{Cmd: "INCREX rl BYINT 1 UBOUND 5", Reply: "1) (integer) 5\n2) (integer) 0"}, false, false, "[5, 0]"},
		{engine.Exchange{Cmd: "INCREX rl BYINT -1 LBOUND 0", Reply: "1) (integer) 1\n2) (integer) -1"}, true, false, "[1, -1]"},
		{engine.Exchange{Cmd: "SET l tok-B NX PX 30000", Reply: "(nil)"}, false, false, "(nil)"},
		{engine.Exchange{Cmd: "set cfg v2 ifeq v1", Reply: "OK"}, true, false, "OK"},
		{engine.Exchange{Cmd: "DELEX l IFEQ tok-A", Reply: "(integer) 0"}, false, false, "(integer) 0"},
		{engine.Exchange{Cmd: "DELEX l IFEQ tok-B", Reply: "(integer) 1"}, true, false, "(integer) 1"},
		{engine.Exchange{Cmd: "GET cfg", Reply: `"v2"`}, false, true, `"v2"`},
		{engine.Exchange{Cmd: "SET cfg v1", Reply: "OK"}, false, true, "OK"},
		{engine.Exchange{Advance: "25s"}, false, true, ""},
	}
	for _, c := range cases {
		v := judge(c.x, "en")
		if v.OK != c.ok || v.Neutral != c.neu || v.Reply != c.reply {
			t.Errorf("%q: %+v", c.x.Cmd, v)
		}
	}
}

// TestCountersScene plays the rate-limit lesson: values and TTLs are the engine's, and on an
// older profile the scene names the missing command.
func TestCountersScene(t *testing.T) {
	var last *countersScene
	playLesson(t, "counters", engine.V88, func(pos int, in Input) {
		s := New("counters").(*countersScene)
		s.Update(in)
		for _, k := range s.Keys {
			ki := in.Engine.Inspect(k.Key)
			if k.Exists != ki.Exists || k.TTLMs != ki.TTLMs {
				t.Fatalf("step %d %s: %+v vs %+v", pos, k.Key, k, ki)
			}
		}
		if s.Missing != "" {
			t.Fatalf("8.8: missing %q", s.Missing)
		}
		last = s
	})
	// The end: rl:slide refused at 5, rl:fixed at 3 with 10 s left, the clock at 2m30s.
	byKey := map[string]counterKey{}
	for _, k := range last.Keys {
		byKey[k.Key] = k
	}
	if byKey["rl:slide"].Value != "5" || byKey["rl:fixed"].Value != "3" || byKey["stock:sku1"].Value != "0" || byKey["stock:x"].Value != "100" {
		t.Fatalf("%+v", byKey)
	}
	p := lesson.NewPlayer(lesson.Config{Version: engine.V70})
	p.Exec("INCREX rl:u1 BYINT 1 UBOUND 5 EX 60 ENX")
	s := &countersScene{}
	s.Update(Input{Engine: p.Engine(), Keys: []string{"rl:u1"}, Last: lastOf(p), Lang: "en"})
	if s.Missing != "INCREX" || s.Version != "7.0" {
		t.Fatalf("%+v", s)
	}
	var text string
	for _, q := range s.Frame(Stage(1280, 800), 1) {
		text += q.Text + " "
	}
	if !strings.Contains(text, "Redis 7.0 does not know INCREX") {
		t.Fatal(text)
	}
}

func TestLocksScene(t *testing.T) {
	playLesson(t, "locks", engine.V84, func(pos int, in Input) {
		if pos != 5 || in.Lang != "en" {
			return
		}
		s := New("counters").(*countersScene)
		s.Update(in)
		// After the clock move B holds the lock: its token is client B's.
		for _, k := range s.Keys {
			if k.Key == "lock:order:9" && (k.Value != "tok-B" || k.Token != 1 || k.TTLMs != 30000) {
				t.Fatalf("%+v", k)
			}
		}
		if len(s.Rows) != 2 || !s.Rows[0].Advance || !s.Rows[1].OK {
			t.Fatalf("%+v", s.Rows)
		}
	})
}
