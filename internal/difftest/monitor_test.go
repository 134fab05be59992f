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
// (CLIENT INFO's addr=).

func monitorScript() []psStep {
	return []psStep{
		{0, "MONITOR"},
		{1, "CLIENT INFO"},
		{2, "CLIENT INFO"},
		{1, "SET k v"},
		{1, "GET k"},
		{1, "INCR n"},
		{1, "NOSUCHCMD a"},
		{1, "GET"},
		{1, "MULTI"},
		{1, "SET a 1"},
		{1, "INCR a"},
		{1, "GET a"},
		{1, "EXEC"},
		{1, "MULTI"},
		{1, "NOSUCH"},
		{1, "EXEC"},
		{1, "EXEC"},
		{1, `EVAL "redis.call('set','x','y'); return redis.call('get','x')" 0`},
		{1, `EVAL "redis.call('select','2'); return redis.call('set','in2','v')" 0`},
		{1, "EVALSHA 0000000000000000000000000000000000000000 0"},
		{1, "AUTH secret"},
		{1, "AUTH someone secret"},
		{1, "HELLO 3 AUTH default secret"},
		{1, "HELLO 4 AUTH default secret"},
		{1, "HELLO 2 SETNAME w1"},
		{1, "CONFIG SET maxmemory-policy noeviction"},
		{1, "CONFIG GET maxmemory-policy"},
		{1, "CLIENT LIST ID 1"},
		{1, "CLIENT GETNAME"},
		{1, "CLIENT FOO"},
		{1, `SET "a\x00b" "q\"\n\xff\t\r\a\b"`},
		{1, `SET "sp ace" "\\back"`},
		{1, "SELECT 1"},
		{1, "SET k1 v1"},
		{1, "DBSIZE"},
		{1, `EVAL "return redis.call('dbsize')" 0`},
		{1, "SELECT 0"},
		{1, "SUBSCRIBE ch"},
		{1, "PING"},
		{1, "UNSUBSCRIBE"},
		{2, "PUBLISH ch m"},
		{2, "BLPOP list 0"},
		{1, "RPUSH list a"},
		{2, "WATCH k"},
		{2, "UNWATCH"},
		{2, "DISCARD"},
		{2, "MULTI"},
		{2, "MONITOR"},
		{2, "EXEC"},
		{0, "GET k"},
		{0, "SET k x"},
		{0, "PUBLISH ch m"},
		{0, "EVAL 'return 1' 0"},
		{0, "PING"},
		{0, "ECHO hi"},
		{0, "MONITOR"},
		{0, "CLIENT INFO"},
		{0, "RESET"},
		{0, "CLIENT INFO"},
		{1, "SET after reset"},
		{0, "GET after"},
		{1, "QUIT"},
	}
}

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
	script := monitorScript()
	want, got, lines := compareScript(t, script, runPubsubScript, hideMonitor)
	fedWant := checkMonitorLines(t, "redis-server", want)
	fedGot := checkMonitorLines(t, "redscope", got)
	if fedWant < 30 {
		t.Fatalf("redis-server fed only %d lines: the script does not exercise MONITOR", fedWant)
	}
	t.Logf("%d script steps; %d lines fed to the monitor by redis-server, %d by redscope; %d transcript lines identical", len(script), fedWant, fedGot, lines)
}
