package difftest

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Client-side caching (server/tracking.go) against redis-server 7.0.15: a script on four raw
// connections, as TestPubsubScript runs it (every connection's bytes read until it is quiet after
// each step, each connection's whole transcript compared). "{idN}" in a step is connection N's
// client id on that server; in the replies, a client id after "redirect", in GETREDIR's answer,
// in redir= and in tracking-redir-broken is written back as {idN}, so the ids the two servers
// hand out do not matter while which client is named does. The script:
// testdata/rawscripts/tracking.txt.

// runTrackScript is runPubsubScript with the {idN} placeholders.
func runTrackScript(t *testing.T, addr string, script []psStep) [psConns][]byte {
	t.Helper()
	conns := dialScriptConns(t, addr)
	ids := make([]string, psConns)
	for i, nc := range conns {
		nc.Write([]byte("CLIENT ID\r\n"))
		nc.SetReadDeadline(time.Now().Add(2 * time.Second))
		line, err := bufio.NewReader(nc).ReadString('\n')
		if err != nil || !strings.HasPrefix(line, ":") {
			t.Fatalf("CLIENT ID: %q %v", line, err)
		}
		ids[i] = strings.TrimSpace(line[1:])
	}
	out := playRawScript(conns, script, func(cmd string) string {
		for i, id := range ids {
			cmd = strings.ReplaceAll(cmd, fmt.Sprintf("{id%d}", i), id)
		}
		return cmd
	})
	for i := range out {
		for j, id := range ids {
			ph := fmt.Sprintf("{id%d}", j)
			for _, pre := range []string{"redirect\r\n:", "tracking-redir-broken\r\n:", "GETREDIR\n:"} {
				out[i] = bytes.ReplaceAll(out[i], []byte(pre+id+"\r\n"), []byte(pre+ph+"\r\n"))
			}
			out[i] = bytes.ReplaceAll(out[i], []byte(" redir="+id+" "), []byte(" redir="+ph+" "))
		}
	}
	return out
}

// trackInfoLine keeps, of an INFO stats reply, its tracking counters.
var trackInfoText = regexp.MustCompile(`(?s)[$=]\d+\r\n(txt:)?# Stats\r\n.*?\r\n\r\n(> |\z)`)

func trackNormalize(b []byte) []byte {
	b = trackInfoText.ReplaceAllFunc(b, func(b []byte) []byte { return keepInfoLines(b, "tracking_") })
	// CLIENT INFO's length depends on the redir= id too
	b = regexp.MustCompile(`([$=])\d+\r\n((txt:)?id=)`).ReplaceAll(b, []byte("$1*\r\n$2"))
	return normalize(b)
}

func TestTrackingScript(t *testing.T) {
	script := loadRawScript(t, "tracking")
	want, _, lines := compareScript(t, script, runTrackScript, trackNormalize)
	// the script must have exercised the messages themselves
	for _, m := range []string{"invalidate", "__redis__:invalidate", "tracking-redir-broken", "user:2"} {
		if !bytes.Contains(want[0], []byte(m)) && !bytes.Contains(want[1], []byte(m)) {
			t.Errorf("redis-server's transcripts have no %q: the script no longer tests it", m)
		}
	}
	t.Logf("%d script steps on %d connections; %d transcript lines identical", len(script), psConns, lines)
}
