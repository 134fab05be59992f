package engine

import (
	"strings"
	"testing"
)

// TestBlockedCommandCountedOnce: a BLPOP that blocks and is then served counts one call in
// INFO commandstats and total_commands_processed, on the 7.0 profile (served by the pop itself,
// Debian's 7.0.15 answers calls=1) and on 7.2+ where the command is run again
// (handleClientsBlockedOnKey; call() of 7.4.1's server.c counts nothing while the client is
// CLIENT_BLOCKED). On 7.2+ a CONFIG RESETSTAT while it waits leaves the one call of the re-run.
func TestBlockedCommandCountedOnce(t *testing.T) {
	for _, v := range []Version{V70, V72, V74} {
		_, _, cs, woken := blockingClientsV(t, v, 2)
		field := func(section, name string) string {
			info := do(t, cs[1], "INFO "+section).Reply.Str
			for _, l := range strings.Split(info, "\r\n") {
				if rest, ok := strings.CutPrefix(l, name); ok {
					return rest
				}
			}
			return ""
		}
		do(t, cs[1], "CONFIG RESETSTAT")
		mustBlock(t, cs[0], "BLPOP q 0")
		do(t, cs[1], "LPUSH q a")
		wantWoken(t, woken[0], `1) "q" | 2) "a"`, v.String())
		if got := field("commandstats", "cmdstat_blpop:"); !strings.HasPrefix(got, "calls=1,") {
			t.Errorf("%s: cmdstat_blpop %q, want calls=1", v, got)
		}
		// CONFIG RESETSTAT, BLPOP, LPUSH, INFO
		if got := field("stats", "total_commands_processed:"); got != "4" {
			t.Errorf("%s: total_commands_processed %s, want 4", v, got)
		}
		if v == V70 {
			continue // (7.0's serve path counts the call when it blocks: not the re-run's rule)
		}
		mustBlock(t, cs[0], "BLPOP q 0")
		do(t, cs[1], "CONFIG RESETSTAT")
		do(t, cs[1], "RPUSH q b")
		if got := field("commandstats", "cmdstat_blpop:"); !strings.HasPrefix(got, "calls=1,") {
			t.Errorf("%s: after RESETSTAT, cmdstat_blpop %q, want calls=1", v, got)
		}
	}
}
