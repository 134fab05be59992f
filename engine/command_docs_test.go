package engine

import (
	"strings"
	"testing"
)

// TestCommandDocs: every command and subcommand of the table has a doc with a syntax line that
// starts with its name and a summary in both languages, a since-version and a group.
func TestCommandDocs(t *testing.T) {
	n := 0
	check := func(c *Command) {
		n++
		name := c.FullName()
		d, ok := commandDocs[name]
		if !ok {
			t.Errorf("%s: no doc", name)
			return
		}
		up := strings.ToUpper(strings.ReplaceAll(name, "|", " "))
		if d.Syntax != up && !strings.HasPrefix(d.Syntax, up+" ") {
			t.Errorf("%s: syntax %q", name, d.Syntax)
		}
		if d.En == "" || d.Vi == "" || d.En == d.Vi {
			t.Errorf("%s: summaries %q / %q", name, d.En, d.Vi)
		}
		h, ok := LookupHelp(name, "vi")
		if !ok || !h.Simulated || h.Since == "" || h.Group == "" || h.Summary != d.Vi {
			t.Errorf("%s: help %+v", name, h)
		}
	}
	for _, c := range commandTable {
		check(c)
		for _, s := range c.Sub {
			check(s)
		}
	}
	if n < 200 {
		t.Fatalf("only %d commands", n)
	}
	// No doc for a command that is not in the table.
	for name := range commandDocs {
		if tableCommand(name) == nil {
			t.Errorf("doc for %s, which the table lacks", name)
		}
	}
}

func TestLookupHelp(t *testing.T) {
	h, ok := LookupHelp("LPUSH", "en")
	if !ok || h.Syntax != "LPUSH key element [element ...]" || h.Since != "1.0.0" || h.Group != "list" || !h.Simulated {
		t.Fatalf("lpush %+v", h)
	}
	if h, ok := LookupHelp("config get", "vi"); !ok || h.Name != "config|get" || !strings.HasPrefix(h.Syntax, "CONFIG GET parameter") {
		t.Fatalf("config get %+v", h)
	}
	if h, ok := LookupHelp("geoadd", "en"); !ok || h.Simulated || h.Since != "3.2.0" || h.Group != "geo" || h.Syntax != "" {
		t.Fatalf("geoadd %+v", h)
	}
	if h, ok := LookupHelp("hgetdel", "en"); !ok || h.Profile != V80 || h.Since != "8.0.0" {
		t.Fatalf("hgetdel %+v", h)
	}
	if _, ok := LookupHelp("frobnicate", "en"); ok {
		t.Fatal("frobnicate known")
	}
	if g := CommandGroup("setbit"); g != "bitmap" {
		t.Fatalf("setbit group %q", g)
	}
	if g := CommandGroup("pfadd"); g != "hyperloglog" {
		t.Fatalf("pfadd group %q", g)
	}
}

// TestNotSimulated: a real Redis command missing from the table answers that redscope does not
// simulate it; a name newer than the profile, or unknown to Redis, keeps Redis's error; inside
// MULTI the same reply flags the transaction.
func TestNotSimulated(t *testing.T) {
	for _, c := range []struct {
		v    Version
		args []string
		want string
	}{
		{V70, []string{"GEOADD", "g", "1", "2", "m"}, "ERR redscope does not simulate 'geoadd' yet"},
		{V88, []string{"publish", "ch", "m"}, "ERR redscope does not simulate 'publish' yet"},
		{V70, []string{"SUBSCRIBE", "ch"}, "ERR redscope does not simulate 'subscribe' yet"},
		{V70, []string{"MEMORY", "STATS"}, "ERR redscope does not simulate 'memory|stats' yet"},
		// newer than the profile: Redis 7.0's own error
		{V70, []string{"HEXPIRE", "h", "1", "FIELDS", "1", "a"}, "ERR unknown command 'HEXPIRE', with args beginning with: 'h' '1' 'FIELDS' '1' 'a' "},
		{V70, []string{"DELEX", "k"}, "ERR unknown command 'DELEX', with args beginning with: 'k' "},
		{V70, []string{"CLUSTER", "MYSHARDID"}, "ERR unknown subcommand 'MYSHARDID'. Try CLUSTER HELP."},
		// never in Redis
		{V88, []string{"FROBNICATE", "x"}, "ERR unknown command 'FROBNICATE', with args beginning with: 'x' "},
		{V88, []string{"OBJECT", "NOPE"}, "ERR unknown subcommand 'NOPE'. Try OBJECT HELP."},
		// simulated: answered
		{V88, []string{"CLUSTER", "INFO"}, "ERR This instance has cluster support disabled"},
	} {
		e := New(Options{Version: c.v})
		if r := e.Do(c.args...); r.Kind != KindError || r.Str != c.want {
			t.Errorf("%v %v: %q, want %q", c.v, c.args, r.Str, c.want)
		}
	}
	e := New(Options{Version: V70})
	e.Do("MULTI")
	if r := e.Do("GEOPOS", "g", "m"); r.Str != "ERR redscope does not simulate 'geopos' yet" {
		t.Fatalf("queued %q", r.Str)
	}
	if r := e.Do("EXEC"); !strings.HasPrefix(r.Str, "EXECABORT") {
		t.Fatalf("exec %q", r.Str)
	}
}
