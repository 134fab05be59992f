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
// hand out do not matter while which client is named does.

func trackScript() []psStep {
	return []psStep{
		// argument checks and error texts
		{0, "CLIENT TRACKING"},
		{0, "CLIENT TRACKING maybe"},
		{0, "CLIENT TRACKING on foo"},
		{0, "CLIENT TRACKING on prefix a"},
		{0, "CLIENT TRACKING on bcast optin"},
		{0, "CLIENT TRACKING on optin optout"},
		{0, "CLIENT TRACKING on redirect x"},
		{0, "CLIENT TRACKING on redirect 999999"},
		{0, "CLIENT TRACKING on redirect {id1} redirect {id1}"},
		{0, "CLIENT TRACKING on bcast prefix ab prefix a"},
		{0, "CLIENT TRACKING on redirect"},
		{0, "CLIENT CACHING yes"},
		{0, "CLIENT CACHING"},
		{0, "CLIENT GETREDIR"},
		{0, "CLIENT GETREDIR x"},
		{0, "CLIENT TRACKINGINFO"},
		{0, "CLIENT TRACKINGINFO x"},
		{0, "CLIENT INFO"},
		// default mode, RESP3
		{0, "HELLO 3"},
		{0, "CLIENT TRACKING on"},
		{0, "CLIENT CACHING yes"},
		{0, "CLIENT CACHING no"},
		{0, "CLIENT CACHING maybe"},
		{0, "CLIENT TRACKING on bcast"},
		{0, "CLIENT TRACKING on optin"},
		{0, "CLIENT TRACKINGINFO"},
		{0, "CLIENT GETREDIR"},
		{0, "CLIENT INFO"},
		{3, "SET a 1"},
		{0, "GET a"},
		{0, "MGET b c"},
		{0, "HGET h f"},
		{0, "INFO stats"},
		{3, "SET a 2"},
		{3, "SET a 3"},
		{3, "MSET b 1 c 1"},
		{3, "HSET h f v"},
		{0, "GET a"},
		{0, "SET a mine"},
		{0, "GET a"},
		{0, "INCR a"},
		{0, "GET a"},
		{3, "FLUSHALL"},
		{0, "GET a"},
		{3, "FLUSHDB"},
		{0, "CLIENT TRACKING off"},
		{0, "CLIENT TRACKINGINFO"},
		{3, "SET a 1"},
		// NOLOOP
		{0, "CLIENT TRACKING on noloop"},
		{0, "GET n"},
		{0, "SET n 1"},
		{0, "GET n"},
		{3, "SET n 2"},
		{0, "CLIENT TRACKINGINFO"},
		{0, "CLIENT TRACKING off"},
		// OPTIN and OPTOUT
		{0, "CLIENT TRACKING on optin"},
		{0, "GET o1"},
		{0, "CLIENT CACHING yes"},
		{0, "CLIENT TRACKINGINFO"},
		{0, "GET o2"},
		{0, "CLIENT TRACKINGINFO"},
		{3, "MSET o1 x o2 x"},
		{0, "CLIENT TRACKING on optout"},
		{0, "CLIENT TRACKING off"},
		{0, "CLIENT TRACKING on optout"},
		{0, "CLIENT CACHING no"},
		{0, "GET o3"},
		{0, "GET o4"},
		{3, "MSET o3 x o4 x"},
		{0, "CLIENT TRACKING off"},
		// RESP2 redirected to a subscriber
		{1, "SUBSCRIBE __redis__:invalidate"},
		{2, "CLIENT TRACKING on redirect {id1}"},
		{2, "CLIENT GETREDIR"},
		{2, "CLIENT TRACKINGINFO"},
		{2, "CLIENT INFO"},
		{2, "GET r"},
		{2, "GET r2"},
		{3, "SET r 1"},
		{3, "DEL r2"},
		{3, "DEL r2"},
		{3, "FLUSHALL"},
		{2, "GET r"},
		{2, "MULTI"},
		{2, "GET r"},
		{2, "SET r 5"},
		{2, "EXEC"},
		// RESP2 without redirection: nothing is sent
		{3, "CLIENT TRACKING on"},
		{3, "GET q"},
		{2, "SET q 1"},
		{3, "CLIENT TRACKING off"},
		// BCAST with prefixes
		{0, "CLIENT TRACKING on bcast prefix user: prefix obj:"},
		{0, "CLIENT TRACKING on bcast prefix user:1"},
		{0, "CLIENT TRACKING on bcast prefix o"},
		{0, "CLIENT TRACKING on bcast prefix cart:"},
		{0, "CLIENT TRACKINGINFO"},
		{0, "CLIENT INFO"},
		{3, "INFO stats"},
		{3, "SET user:1 a"},
		{3, "MSET user:2 b obj:9 c other d"},
		{3, "DEL cart:x"},
		{3, "SET cart:x 1"},
		{0, "SET user:3 self"},
		{0, "CLIENT TRACKING off"},
		{0, "CLIENT TRACKING on bcast noloop"},
		{0, "SET mine 1"},
		{3, "SET theirs 1"},
		{0, "CLIENT TRACKING on optin"},
		{0, "CLIENT TRACKING off"},
		// a broken redirection, then RESET
		{2, "CLIENT TRACKING off"},
		{1, "QUIT"},
		{0, "CLIENT TRACKING on redirect {id2}"},
		{2, "QUIT"},
		{0, "GET z"},
		{3, "SET z 1"},
		{0, "CLIENT TRACKINGINFO"},
		{0, "CLIENT INFO"},
		{0, "CLIENT SETNAME test-client"},
		{0, "CLIENT TRACKING on"},
		{0, "RESET"},
		{0, "CLIENT INFO"},
		{0, "CLIENT TRACKINGINFO"},
		{3, "INFO stats"},
	}
}

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
	script := trackScript()
	want, _, lines := compareScript(t, script, runTrackScript, trackNormalize)
	// the script must have exercised the messages themselves
	for _, m := range []string{"invalidate", "__redis__:invalidate", "tracking-redir-broken", "user:2"} {
		if !bytes.Contains(want[0], []byte(m)) && !bytes.Contains(want[1], []byte(m)) {
			t.Errorf("redis-server's transcripts have no %q: the script no longer tests it", m)
		}
	}
	t.Logf("%d script steps on %d connections; %d transcript lines identical", len(script), psConns, lines)
}
