package difftest

import (
	"regexp"
	"strconv"
	"testing"
	"time"
)

// MONITOR (server/monitor.go, engine/monitor.go) against redis-server 7.0.15: connection 0 is a
// monitor while connections 1 and 2 run a script of plain commands, transactions, scripts,
// AUTH/HELLO (redacted), admin commands (not shown), quoted binary arguments and commands in
// database 1; every connection's transcript, the fed lines included, must be identical once
// the time and the client ports are hidden. The time of every line must be the server's clock
// (within a minute of now), and the address in the lines must be the sending connection's own
// (CLIENT INFO's addr=). The script: testdata/rawscripts/monitor.txt.

var (
	monitorLine = regexp.MustCompile(`\+(\d+)\.(\d{6}) \[(\d+) (lua|127\.0\.0\.1:\d+)\] `)
	infoAddr    = regexp.MustCompile(`\bid=\d+ addr=(\S+)`)
)

// checkMonitorLines checks the fed lines of one server's transcripts: times near now, and each
// address one of the clients' own (the monitor's too: its PING is fed to itself).
func checkMonitorLines(t *testing.T, side string, out [psConns][]byte) int {
	t.Helper()
	addrs := map[string]bool{}
	for i := 0; i < 3; i++ {
		if m := infoAddr.FindSubmatch(out[i]); m != nil {
			addrs[string(m[1])] = true
		}
	}
	if len(addrs) != 3 {
		t.Fatalf("%s: %d client addresses in the CLIENT INFO replies", side, len(addrs))
	}
	now := time.Now().Unix()
	n := 0
	for _, m := range monitorLine.FindAllSubmatch(out[0], -1) {
		n++
		secs, _ := strconv.ParseInt(string(m[1]), 10, 64)
		if secs < now-60 || secs > now+60 {
			t.Errorf("%s: a line's time %s.%s is not the clock's (%d)", side, m[1], m[2], now)
		}
		if a := string(m[4]); a != "lua" && !addrs[a] {
			t.Errorf("%s: a line names %s, no client's address", side, a)
		}
	}
	return n
}

func hideMonitor(b []byte) []byte {
	b = monitorLine.ReplaceAllFunc(b, func(l []byte) []byte {
		m := monitorLine.FindSubmatch(l)
		who := "ADDR"
		if string(m[4]) == "lua" {
			who = "lua"
		}
		return []byte("+T [" + string(m[3]) + " " + who + "] ")
	})
	return normalize(b)
}

func TestMonitorScript(t *testing.T) {
	script := loadRawScript(t, "monitor")
	want, got, lines := compareScript(t, script, runPubsubScript, hideMonitor)
	fedWant := checkMonitorLines(t, "redis-server", want)
	fedGot := checkMonitorLines(t, "redscope", got)
	if fedWant < 30 {
		t.Fatalf("redis-server fed only %d lines: the script does not exercise MONITOR", fedWant)
	}
	t.Logf("%d script steps; %d lines fed to the monitor by redis-server, %d by redscope; %d transcript lines identical", len(script), fedWant, fedGot, lines)
}
