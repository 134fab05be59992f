package lesson

import (
	"strings"
	"testing"
)

// A script's commands meet the page's limits: a GET of a 512 MB string typed in the console is
// refused, and so is the same GET run by a script (the script fails with the limit's message);
// the course's cart script runs.
func TestScriptCommandsWithinLimits(t *testing.T) {
	p := NewPlayer(Config{Limits: &DefaultLimits})
	p.Exec("SETBIT b 4294967295 1")
	if x := p.Exec("GET b"); x.Refused == "" {
		t.Fatalf("typed GET ran: %q", x.Reply)
	}
	x := p.Exec(`EVAL "return #redis.call('GET', 'b')" 0`)
	if x.Refused != "" || !strings.HasPrefix(x.Reply, "(error) ERR ") || !strings.Contains(x.Reply, "StringBytes") {
		t.Fatalf("script GET: refused=%q reply=%q", x.Refused, x.Reply)
	}
	p.Exec("HSET cart:u42 sku-1 1 sku-2 2")
	x = p.Exec(`EVAL "local q = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)\nif q <= 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end\nreturn q" 1 cart:u42 sku-2`)
	if x.Reply != "(integer) 1" {
		t.Fatalf("cart script: %q", x.Reply)
	}
	if x := p.Exec(`EVAL "while true do end" 0`); !strings.Contains(x.Reply, "Script stopped by redscope") {
		t.Fatalf("runaway script: %q", x.Reply)
	}
}
