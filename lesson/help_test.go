package lesson

import (
	"strings"
	"testing"

	"redscope/engine"
)

// TestHelpConsole: HELP in the console answers from the command table in the player's language,
// never reaches the engine, and is left out of the redis-cli transcript.
func TestHelpConsole(t *testing.T) {
	p := NewPlayer(Config{Version: engine.V70, Lang: "en"})
	x := p.Exec("HELP LPUSH")
	want := "  LPUSH key element [element ...]\n  summary: Inserts elements at the head of a list.\n  since: 1.0.0\n  group: list"
	if x.Error || x.Reply != want || len(x.Events) != 0 {
		t.Fatalf("HELP LPUSH:\n%q\nwant\n%q", x.Reply, want)
	}
	p = NewPlayer(Config{Version: engine.V70, Lang: "vi"})
	x = p.Exec("help lpush")
	if !strings.Contains(x.Reply, "tóm tắt: Chèn phần tử vào đầu list.") || !strings.Contains(x.Reply, "từ phiên bản: 1.0.0") || !strings.Contains(x.Reply, "nhóm: list") {
		t.Fatalf("vi: %q", x.Reply)
	}
	if tr := p.Transcript(); strings.Contains(strings.ToLower(tr), "help") {
		t.Fatalf("transcript keeps HELP: %q", tr)
	}
	// A subcommand, by its two words.
	if r := Help(engine.V70, "en", "config get"); !strings.HasPrefix(r, "  CONFIG GET parameter [parameter ...]\n  summary: Reads configuration") {
		t.Fatalf("config get: %q", r)
	}
}

func TestHelpKinds(t *testing.T) {
	for _, c := range []struct {
		v          engine.Version
		lang, arg  string
		want       []string
		wantAbsent string
	}{
		{engine.V70, "en", "", []string{"redscope simulates Redis 7.0", "HELP <command>", "@list", "@stream"}, ""},
		{engine.V70, "vi", "", []string{"redscope mô phỏng Redis 7.0", "HELP <lệnh>", "@string"}, ""},
		{engine.V70, "en", "GEOADD", []string{"GEOADD", "redscope does not simulate this Redis command yet.", "since: 3.2.0", "group: geo"}, "summary"},
		{engine.V70, "vi", "geoadd", []string{"redscope chưa mô phỏng lệnh Redis này.", "từ phiên bản: 3.2.0"}, ""},
		// newer than the profile, in the table
		{engine.V70, "en", "HGETDEL", []string{"HGETDEL key FIELDS numfields", "(not in Redis 7.0: choose Redis 8.0 or newer)"}, ""},
		{engine.V88, "en", "HGETDEL", []string{"HGETDEL key FIELDS numfields", "since: 8.0.0"}, "not in Redis"},
		{engine.V70, "en", "FROBNICATE", []string{"No such Redis command: FROBNICATE."}, ""},
		{engine.V70, "en", "@list", []string{"@list", "LPUSH", "Inserts elements at the head of a list.", "BLMOVE"}, "XADD"},
		{engine.V70, "en", "@geo", []string{"GEOADD", "(not simulated yet)"}, ""},
		{engine.V70, "vi", "@nope", []string{"Không có nhóm @nope."}, ""},
	} {
		r := Help(c.v, c.lang, c.arg)
		for _, w := range c.want {
			if !strings.Contains(r, w) {
				t.Errorf("%v %s HELP %s: no %q in\n%s", c.v, c.lang, c.arg, w, r)
			}
		}
		if c.wantAbsent != "" && strings.Contains(r, c.wantAbsent) {
			t.Errorf("%v HELP %s: %q in\n%s", c.v, c.arg, c.wantAbsent, r)
		}
	}
}

// TestNotSimulatedConsole: the console shows the engine's "not simulated" error in the page's
// language; Redis's unknown-command error stays as it is.
func TestNotSimulatedConsole(t *testing.T) {
	en := NewPlayer(Config{Version: engine.V70, Lang: "en"})
	if x := en.Exec("GEOADD s 1 2 m"); !x.Error || x.Reply != "(error) ERR redscope does not simulate 'geoadd' yet" {
		t.Fatalf("en %q", x.Reply)
	}
	vi := NewPlayer(Config{Version: engine.V70, Lang: "vi"})
	if x := vi.Exec("GEOADD s 1 2 m"); !x.Error || x.Reply != "(error) ERR redscope chưa mô phỏng lệnh GEOADD (Redis có từ 3.2.0, nhóm geo)" {
		t.Fatalf("vi %q", x.Reply)
	}
	if x := vi.Exec("HSETEX h FIELDS 1 f v"); x.Reply != "(error) ERR unknown command 'HSETEX', with args beginning with: 'h' 'FIELDS' '1' 'f' 'v' " {
		t.Fatalf("newer %q", x.Reply)
	}
	if x := vi.Exec("FROB"); x.Reply != "(error) ERR unknown command 'FROB', with args beginning with: " {
		t.Fatalf("unknown %q", x.Reply)
	}
}

// TestNotSimulatedLimited: the browser's limited path shows the same text.
func TestNotSimulatedLimited(t *testing.T) {
	lim := DefaultLimits
	vi := NewPlayer(Config{Version: engine.V88, Lang: "vi", Limits: &lim})
	if x := vi.Exec("GEOADD s 1 2 m"); x.Reply != "(error) ERR redscope chưa mô phỏng lệnh GEOADD (Redis có từ 3.2.0, nhóm geo)" {
		t.Fatalf("vi %q", x.Reply)
	}
	if x := vi.Exec("HELP GEOADD"); !strings.Contains(x.Reply, "redscope chưa mô phỏng lệnh Redis này.") {
		t.Fatalf("help %q", x.Reply)
	}
}

// TestLocalReplyBlocked: a command typed into a blocked console client is refused in the page's
// language (the engine's text is English).
func TestLocalReplyBlocked(t *testing.T) {
	p := NewPlayer(Config{Version: engine.V70, Lang: "vi"})
	p.Load(nil)
	p.Exec("BRPOP jobs 0")
	x := p.Exec("PING")
	if x.Reply != "(error) ERR redscope: máy khách này đang bị chặn; lệnh của nó phải chờ đến khi nó được phục vụ" {
		t.Fatalf("vi: %q", x.Reply)
	}
	en := NewPlayer(Config{Version: engine.V70, Lang: "en"})
	en.Load(nil)
	en.Exec("BRPOP jobs 0")
	if x := en.Exec("PING"); x.Reply != blockedEn {
		t.Fatalf("en: %q", x.Reply)
	}
}
