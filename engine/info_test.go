package engine

import (
	"strings"
	"testing"
)

func infoKeys(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\r\n") {
		if k, _, ok := strings.Cut(l, ":"); ok {
			out = append(out, k)
		}
	}
	return out
}

// TestInfoProfiles: the clients section per profile, in the order of genRedisInfoString of
// 7.0.15, 7.2.7 and 7.4.1; "debug" only on 7.2+ and only when named; an unknown section is empty;
// the counters follow the commands and CONFIG RESETSTAT clears them.
func TestInfoProfiles(t *testing.T) {
	base := "connected_clients cluster_connections maxclients client_recent_max_input_buffer client_recent_max_output_buffer blocked_clients tracking_clients"
	for _, c := range []struct {
		v    Version
		want string
	}{
		{V70, base + " clients_in_timeout_table"},
		{V72, base + " clients_in_timeout_table total_blocking_keys total_blocking_keys_on_nokey"},
		{V74, base + " pubsub_clients watching_clients clients_in_timeout_table total_watched_keys total_blocking_keys total_blocking_keys_on_nokey"},
	} {
		e := New(Options{Version: c.v})
		if got := strings.Join(infoKeys(e.Info(argv("clients"))), " "); got != c.want {
			t.Errorf("%v clients: %s", c.v, got)
		}
		debug := e.Info(argv("debug"))
		if (debug != "") != c.v.Has(V72) || strings.Contains(e.Info(argv("everything")), "# Debug") {
			t.Errorf("%v debug: %q", c.v, debug)
		}
		if s := e.Info(argv("nosuch")); s != "" {
			t.Errorf("%v INFO nosuch: %q", c.v, s)
		}
		e.Do("SET", "k", "v")
		e.Do("GET", "k")
		e.Do("GET", "nokey")
		e.Do("GET")
		e.Do("HGET", "k", "f")
		stats := e.Info(argv("commandstats", "errorstats", "stats"))
		for _, w := range []string{"cmdstat_get:calls=2,usec=0,usec_per_call=0.00,rejected_calls=1,failed_calls=0\r\n",
			"cmdstat_hget:calls=1,usec=0,usec_per_call=0.00,rejected_calls=0,failed_calls=1\r\n",
			"errorstat_ERR:count=1\r\nerrorstat_WRONGTYPE:count=1\r\n", "keyspace_hits:2\r\n", "keyspace_misses:1\r\n",
			"total_commands_processed:4\r\n", "total_error_replies:2\r\n"} {
			if !strings.Contains(stats, w) {
				t.Errorf("%v: INFO lacks %q:\n%s", c.v, w, stats)
			}
		}
		e.Do("CONFIG", "RESETSTAT")
		if s := e.Info(argv("commandstats")); s != "# Commandstats\r\ncmdstat_config|resetstat:calls=1,usec=0,usec_per_call=0.00,rejected_calls=0,failed_calls=0\r\n" {
			t.Errorf("%v after RESETSTAT: %q", c.v, s)
		}
	}
}
