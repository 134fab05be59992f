package difftest

import (
	"sort"
	"testing"
)

// perRunConfig are the CONFIG GET values that depend on how and where the reference server was
// started (its free port, its temporary dir and log file, the bind address the tests give it).
var perRunConfig = map[string]bool{"port": true, "dir": true, "logfile": true, "bind": true}

// TestConfigGetAll compares CONFIG GET * of redscope with redis-server 7.0.15 as two maps
// (Redis replies in its hash table's order, which follows the random hash seed): the same
// names, aliases included, and the same values except perRunConfig. Then every parameter is set
// to the value it already has, on both, which must be accepted (or refused) alike.
func TestConfigGetAll(t *testing.T) {
	sv := freshServers(t)
	want, err := configAll(sv.ref)
	if err != nil {
		t.Fatal(err)
	}
	got, err := configAll(sv.scope)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for k := range want {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		g, ok := got[k]
		switch {
		case !ok:
			t.Errorf("CONFIG GET * lacks %q (redis-server: %q)", k, want[k])
		case g != want[k] && !perRunConfig[k]:
			t.Errorf("CONFIG GET %s = %q, redis-server %q", k, g, want[k])
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("CONFIG GET * has %q, redis-server does not", k)
		}
	}
	ref, sc := dialPair(t, sv.ref, sv.scope)
	for _, k := range names {
		if perRunConfig[k] {
			continue
		}
		_, a, _ := ref.DoStrings("CONFIG", "SET", k, want[k])
		_, b, _ := sc.DoStrings("CONFIG", "SET", k, want[k])
		if a.FormatCLI() != b.FormatCLI() {
			t.Errorf("CONFIG SET %s %q:\nredis-server %s\nredscope     %s", k, want[k], a.FormatCLI(), b.FormatCLI())
		}
	}
	t.Logf("%d parameters compared", len(names))
}
