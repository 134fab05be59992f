package engine

import (
	"strconv"
	"strings"
	"time"
)

// The slow log (Redis's src/slowlog.c): after each command the call path (dispatch) gives its
// arguments and duration to slowPush, which keeps it when slowlog-log-slower-than is not -1 and
// the duration is at least that many microseconds, newest first, at most slowlog-max-len
// entries. Commands flagged FlagSkipSlowlog (EXEC, whose queued commands are logged one by one)
// are never logged (server.c slowlogPushCurrentCommand). Durations come from the engine clock:
// a clock with NowUs (WallClock) gives microseconds, a ManualClock only milliseconds, so a lesson
// or a test sees the same durations every run.

const (
	slowlogMaxArgc   = 32  // SLOWLOG_ENTRY_MAX_ARGC
	slowlogMaxString = 128 // SLOWLOG_ENTRY_MAX_STRING
)

// slowEntry is one logged command.
type slowEntry struct {
	id, time, duration int64
	args               [][]byte
	peer, name         string
}

type slowlogState struct {
	entries []slowEntry // newest first
	nextID  int64
	cur     *Client // the client whose SetPeer came last: the one whose command runs
}

type slowPeer struct{ addr, name string }

// NowUs is real time in microseconds (the slow log's durations).
func (WallClock) NowUs() int64 { return time.Now().UnixMicro() }

// nowUs is the engine clock in microseconds.
func (e *Engine) nowUs() int64 {
	if e.now.depth > 0 && e.now.wall {
		return e.now.us // the running command's time (calltime.go)
	}
	return e.clockUs()
}

// clockUs reads the engine clock in microseconds.
func (e *Engine) clockUs() int64 {
	if c, ok := e.clock.(interface{ NowUs() int64 }); ok {
		return c.NowUs()
	}
	return e.clock.NowMs() * 1000
}

// SetPeer tells the engine the client's address ("ip:port") and name (CLIENT SETNAME), which the
// slow log records with each entry. Empty strings: unknown / no name.
func (c *Client) SetPeer(addr, name string) {
	c.peer = slowPeer{addr, name}
	if addr != "" || name != "" {
		c.e.slow.cur = c
	}
}

// ForgetPeer drops what SetPeer recorded (the connection closed).
func (c *Client) ForgetPeer() {
	c.peer = slowPeer{}
	if c.e.slow.cur == c {
		c.e.slow.cur = nil
	}
}

// slowPush logs a command that ran for dur microseconds (slowlogPushEntryIfNeeded).
func (e *Engine) slowPush(c *Command, args [][]byte, dur int64) {
	if c.Flags&FlagSkipSlowlog != 0 {
		return
	}
	slower, maxLen := e.cfg.hot.slowlogSlower, e.cfg.hot.slowlogMaxLen
	s := &e.slow
	if slower < 0 || (maxLen == 0 && e.ver.Has(V74)) { // 7.4 stops early at max-len 0 (#12965)
		return
	}
	if dur >= slower {
		var p slowPeer
		switch {
		case e.lua != nil && e.lua.run != nil:
			// a script's command: Redis's Lua client has no connection and no name; its peer id
			// reads "?:0" on 7.0.15 and "" on 7.4.1 (the two builds compared)
			if !e.ver.Has(V74) {
				p.addr = "?:0"
			}
		case e.blocker != nil:
			p = e.blocker.peer // a blocked command served now (blocking.go handleBlocked)
		case s.cur != nil:
			p = s.cur.peer
		}
		ent := slowEntry{id: s.nextID, time: e.NowMs() / 1000, duration: dur, args: slowArgs(c, args), peer: p.addr, name: p.name}
		s.nextID++
		s.entries = append(s.entries, slowEntry{})
		copy(s.entries[1:], s.entries)
		s.entries[0] = ent
	}
	if int64(len(s.entries)) > maxLen {
		s.entries = s.entries[:maxLen]
	}
}

// slowArgs copies the arguments as slowlogCreateEntry keeps them: at most 32, the last of them
// "... (N more arguments)" when there were more, each string cut to 128 bytes plus
// "... (N more bytes)", and the values Redis redacts (CONFIG SET of a sensitive parameter)
// replaced by "(redacted)".
func slowArgs(c *Command, args [][]byte) [][]byte {
	n := len(args)
	if n > slowlogMaxArgc {
		n = slowlogMaxArgc
	}
	red := redacted(c, args)
	out := make([][]byte, n)
	for j := 0; j < n; j++ {
		a := args[j]
		switch {
		case n != len(args) && j == n-1:
			out[j] = []byte("... (" + strconv.Itoa(len(args)-n+1) + " more arguments)")
		case red[j]:
			out[j] = []byte("(redacted)")
		case len(a) > slowlogMaxString:
			out[j] = append(append([]byte{}, a[:slowlogMaxString]...), "... ("+strconv.Itoa(len(a)-slowlogMaxString)+" more bytes)"...)
		default:
			out[j] = append([]byte{}, a...)
		}
	}
	return out
}

// redacted marks the arguments Redis replaces with "(redacted)" before the slow log sees them
// (redactClientCommandArgument's callers): CONFIG SET's sensitive values (config.c), AUTH's
// arguments, HELLO's AUTH username and password (networking.c helloCommand), ACL SETUSER /
// DELUSER / GETUSER's (acl.c), MIGRATE's AUTH and AUTH2 (cluster.c).
func redacted(c *Command, args [][]byte) map[int]bool {
	red := map[int]bool{}
	switch c.FullName() {
	case "config|set":
		for j := 3; j < len(args); j += 2 {
			if sensitiveConfig(args[j-1]) {
				red[j] = true
			}
		}
	case "auth":
		if len(args) <= 3 {
			for j := 1; j < len(args); j++ {
				red[j] = true
			}
		}
	case "hello":
		for j := 2; j+2 < len(args); j++ {
			if EqFold(args[j], "auth") {
				red[j+1], red[j+2] = true, true
				break
			}
		}
	case "acl|setuser", "acl|deluser", "acl|getuser":
		for j := 2; j < len(args); j++ {
			red[j] = true
		}
	case "migrate":
		for j := 6; j < len(args); j++ {
			if EqFold(args[j], "keys") {
				break
			}
			if EqFold(args[j], "auth") && j+1 < len(args) {
				red[j+1] = true
				j++
			} else if EqFold(args[j], "auth2") && j+2 < len(args) {
				red[j+1], red[j+2] = true, true
				j += 2
			}
		}
	}
	return red
}

// SlowlogFrontEnd logs a command the layer above answered itself (CLIENT, AUTH, HELLO … of the
// RESP server: Client.FrontEnd), which dispatch did not see; t is from SlowlogStart.
func (c *Client) SlowlogFrontEnd(args [][]byte, t SlowTimer) {
	c.slowlogFrontEnd(args, c.e.elapsedUs(t.t))
}

func (c *Client) slowlogFrontEnd(args [][]byte, dur int64) {
	if len(args) == 0 {
		return
	}
	cmd := lookupCommand(args[0])
	if cmd == nil { // CLIENT, HELLO, AUTH …: not in the engine's table, and none skips the log
		cmd = &Command{Name: strings.ToLower(string(args[0]))}
	}
	if cmd.Sub != nil && len(args) >= 2 {
		if sub := cmd.Sub[strings.ToLower(string(args[1]))]; sub != nil {
			cmd = sub
		}
	}
	c.e.slowPush(cmd, args, dur)
}

// slowlogTx logs a transaction command the client answered itself (MULTI, DISCARD, WATCH,
// UNWATCH outside a queue: multi.go's txCommand, which dispatch does not see); EXEC is
// FlagSkipSlowlog and its queued commands went through dispatch. A queued command (QUEUED) is
// not logged: Redis runs it only at EXEC.
func (c *Client) slowlogTx(args [][]byte, r Reply, dur int64) {
	if len(args) == 0 || txKind(args[0]) == txNone || txKind(args[0]) == txExec {
		return
	}
	if (r.Kind == KindStatus && r.Str == "QUEUED") || RefusedBeforeCall(r) {
		return
	}
	c.slowlogFrontEnd(args, dur)
}

// RefusedBeforeCall: an arity error, which Redis gives before call() (and the slow log).
func RefusedBeforeCall(r Reply) bool {
	return r.Kind == KindError && strings.HasPrefix(r.Str, "ERR wrong number of arguments")
}

// SlowTimer measures a command the layer above answers itself (SlowlogFrontEnd).
type SlowTimer struct{ t callTimer }

// SlowlogStart starts measuring such a command (elapsedStart: calltime.go).
func (e *Engine) SlowlogStart() SlowTimer { return SlowTimer{e.startTimer()} }

// NowUs is the engine clock in microseconds: the running command's time while one runs
// (calltime.go), as MONITOR shows it.
func (e *Engine) NowUs() int64 { return e.nowUs() }

// sensitiveConfig: the parameters config.c flags SENSITIVE_CONFIG, whose CONFIG SET values
// are redacted.
func sensitiveConfig(name []byte) bool {
	switch strings.ToLower(string(name)) {
	case "requirepass", "masterauth", "masteruser", "tls-key-file-pass", "tls-client-key-file-pass":
		return true
	}
	return false
}
