package server

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"redscope/engine"
)

// Connection-level commands, with Redis 7.0's replies and error texts (checked against Debian's
// redis-server 7.0.15).

var (
	errNoProto   = engine.Err("NOPROTO unsupported protocol version")
	errWrongPass = engine.Err("WRONGPASS invalid username-password pair or user is disabled.")
	errNoPass    = engine.Err("ERR AUTH <password> called without any password configured for the default user. Are you sure your configuration is correct?")
	errBadName   = engine.Err("ERR Client names cannot contain spaces, newlines or special characters.")
)

func arityErr(name string) engine.Reply {
	return engine.Err("ERR wrong number of arguments for '" + name + "' command")
}

// connCommand answers the commands that belong to the connection rather than the keyspace.
// frontEndName reports whether connCommand answers a command of this name (so that the engine's
// commands pass without starting its slow-log timer).
func frontEndName(name []byte) bool {
	switch len(name) {
	case 4:
		return eqFold(name, "auth")
	case 5:
		return eqFold(name, "hello")
	case 6:
		return eqFold(name, "client") || pubsubName(name) != ""
	case 7:
		return eqFold(name, "monitor") || pubsubName(name) != ""
	}
	return pubsubName(name) != ""
}

func (s *Server) connCommand(c *client, args [][]byte) (engine.Reply, bool) {
	if r, _, ok := s.pubsubCommand(c, args); ok {
		return r, true // (inside EXEC: pubsub.go)
	}
	if r, ok := s.monitorCommand(c, args); ok {
		return r, true // (monitor.go)
	}
	name := args[0]
	if len(name) < 4 || len(name) > 6 {
		return engine.Reply{}, false
	}
	switch {
	case eqFold(name, "hello"):
		c.lastCmd = "hello"
		return s.hello(c, args), true
	case eqFold(name, "client"):
		c.lastCmd = "client"
		return s.clientCmd(c, args), true
	case eqFold(name, "auth"):
		c.lastCmd = "auth"
		return s.authCmd(c, args), true
	}
	return engine.Reply{}, false
}

// quitReset answers QUIT and RESET, which 7.0 runs at once even inside MULTI (they are never
// queued). RESET also discards the transaction and unwatches every key.
func (s *Server) quitReset(c *client, tx *engine.Client, args [][]byte) (engine.Reply, bool) {
	name := args[0]
	switch {
	case eqFold(name, "quit"):
		c.lastCmd = "quit"
		c.quit = true
		return engine.OK, true
	case eqFold(name, "reset"):
		c.lastCmd = "reset"
		if len(args) != 1 {
			return arityErr("reset"), true
		}
		tx.Reset()
		s.pubsubDrop(c)
		s.monitorDrop(c)
		s.disableTracking(c)
		c.replyOff, c.replySkipNext = false, false
		c.name, c.db, c.proto = "", 0, 2
		c.userEng = nil // clientSetDefaultAuth: back to the default user (auth.go)
		s.syncUser(c)
		return engine.Status("RESET"), true
	}
	return engine.Reply{}, false
}

// clientSubArity is CLIENT's subcommands with their arity (7.0.15; no-touch and setinfo 7.2).
var clientSubArity = map[string]int{
	"caching": 3, "getname": 2, "getredir": 2, "help": 2, "id": 2, "info": 2, "kill": -3,
	"list": -2, "no-evict": 3, "pause": -3, "reply": 3, "setname": 3, "tracking": -3,
	"trackinginfo": 2, "unblock": -3, "unpause": 2, "no-touch": 3, "setinfo": 4,
}

// connCheck is the existence and arity check of the connection commands, for queueing them
// inside MULTI.
func (s *Server) connCheck(args [][]byte) (engine.Reply, bool) {
	if r, ok := pubsubCheck(args); ok {
		return r, true
	}
	if r, ok := monitorCheck(args); ok {
		return r, true
	}
	name := args[0]
	arity := func(n int, full string) engine.Reply {
		if (n > 0 && len(args) != n) || (n < 0 && len(args) < -n) {
			return arityErr(full)
		}
		return engine.Reply{}
	}
	switch {
	case eqFold(name, "hello"):
		return engine.Reply{}, true
	case eqFold(name, "auth"):
		return arity(-2, "auth"), true
	case eqFold(name, "client"):
		if len(args) < 2 {
			return arityErr("client"), true
		}
		sub := strings.ToLower(string(args[1]))
		n, ok := clientSubArity[sub]
		if ok && (sub == "no-touch" || sub == "setinfo") && !s.eng.Version().Has(engine.V72) {
			ok = false
		}
		if !ok {
			return engine.Err("ERR unknown subcommand '" + cleanText(args[1]) + "'. Try CLIENT HELP."), true
		}
		return arity(n, "client|"+sub), true
	}
	return engine.Reply{}, false
}

// profileVersion is the redis_version a profile reports.
func profileVersion(v engine.Version) string {
	switch v {
	case engine.V70:
		return "7.0.15"
	case engine.V72:
		return "7.2.7"
	case engine.V74:
		return "7.4.2"
	case engine.V80:
		return "8.0.2"
	case engine.V82:
		return "8.2.1"
	case engine.V84:
		return "8.4.0"
	case engine.V88:
		return "8.8.0"
	}
	return v.String() + ".0"
}

// hello implements HELLO [protover [AUTH user pass] [SETNAME name]] (networking.c, helloCommand):
// protover 2 or 3 switches the connection's protocol once the options are accepted, and the reply
// — a map, so RESP3 sees %7 and RESP2 a flat array of 14 — is written in the new protocol.
func (s *Server) hello(c *client, args [][]byte) engine.Reply {
	var ver int64
	if len(args) >= 2 {
		var ok bool
		ver, ok = strictInt(args[1])
		if !ok {
			return engine.Err("ERR Protocol version is not an integer or out of range")
		}
		if ver < 2 || ver > 3 {
			return errNoProto
		}
	}
	var setname, user, pass []byte
	hasName, hasAuth := false, false
	for i := 2; i < len(args); i++ {
		more := len(args) - i - 1
		switch {
		case eqFold(args[i], "auth") && more >= 2:
			user, pass, hasAuth = args[i+1], args[i+2], true
			i += 2
		case eqFold(args[i], "setname") && more >= 1:
			setname, hasName = args[i+1], true
			i++
		default:
			return engine.Err("ERR Syntax error in HELLO option '" + cleanText(args[i]) + "'")
		}
	}
	if hasAuth {
		if r := s.authUserPass(c, user, pass); r.IsError() {
			return r
		}
	}
	if r, ok := s.helloAuthCheck(c); !ok {
		return r
	}
	if hasName {
		if !validName(setname) {
			return errBadName
		}
		c.name = string(setname)
	}
	if ver != 0 {
		c.proto = int(ver)
	}
	v := s.eng.Version()
	return engine.Map(
		engine.BulkStr("server"), engine.BulkStr("redis"),
		engine.BulkStr("version"), engine.BulkStr(profileVersion(v)),
		engine.BulkStr("proto"), engine.Int(int64(c.proto)),
		engine.BulkStr("id"), engine.Int(c.id),
		engine.BulkStr("mode"), engine.BulkStr(redisMode(s.eng)),
		engine.BulkStr("role"), engine.BulkStr("master"),
		engine.BulkStr("modules"), engine.EmptyArr,
	)
}

// strictInt is Redis's string2ll: optional '-', no '+', no spaces, no leading zeros.
func strictInt(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 20 {
		return 0, false
	}
	if len(b) == 1 && b[0] == '0' {
		return 0, true
	}
	d := b
	if d[0] == '-' {
		d = d[1:]
	}
	if len(d) == 0 || d[0] < '1' || d[0] > '9' {
		return 0, false
	}
	n, err := strconv.ParseInt(string(b), 10, 64)
	return n, err == nil
}

// validName: client names (and lib-name/lib-ver) may only hold '!'..'~'.
func validName(b []byte) bool {
	for _, c := range b {
		if c < '!' || c > '~' {
			return false
		}
	}
	return true
}

func cleanText(b []byte) string {
	if len(b) > 128 {
		b = b[:128]
	}
	return strings.Map(func(r rune) rune {
		if r == '\r' || r == '\n' {
			return ' '
		}
		return r
	}, string(b))
}

func (s *Server) clientCmd(c *client, args [][]byte) engine.Reply {
	if len(args) < 2 {
		return arityErr("client")
	}
	sub := strings.ToLower(string(args[1]))
	exact := func(n int) (engine.Reply, bool) {
		if len(args) != n {
			return arityErr("client|" + sub), false
		}
		return engine.Reply{}, true
	}
	switch sub {
	case "id":
		if r, ok := exact(2); !ok {
			return r
		}
		return engine.Int(c.id)
	case "getname":
		if r, ok := exact(2); !ok {
			return r
		}
		if c.name == "" {
			return engine.NilReply
		}
		return engine.BulkStr(c.name)
	case "setname":
		if r, ok := exact(3); !ok {
			return r
		}
		if !validName(args[2]) {
			return errBadName
		}
		c.name = string(args[2])
		return engine.OK
	case "setinfo":
		if !s.eng.Version().Has(engine.V72) {
			break
		}
		if r, ok := exact(4); !ok {
			return r
		}
		attr := strings.ToLower(string(args[2]))
		if attr != "lib-name" && attr != "lib-ver" {
			return engine.Err("ERR Unrecognized option '" + cleanText(args[2]) + "'")
		}
		if !validName(args[3]) {
			return engine.Err("ERR " + attr + " cannot contain spaces, newlines or special characters.")
		}
		if attr == "lib-name" {
			c.libName = string(args[3])
		} else {
			c.libVer = string(args[3])
		}
		return engine.OK
	case "info":
		if r, ok := exact(2); !ok {
			return r
		}
		c.lastCmd = "client|info"
		return engine.Verbatim(s.clientLine(c, time.Now()) + "\n")
	case "list":
		c.lastCmd = "client|list"
		return s.clientList(args[2:])
	case "help":
		if r, ok := exact(2); !ok {
			return r
		}
		return clientHelp(s.eng.Version())
	case "unblock":
		return s.clientUnblock(args)
	case "reply":
		if r, ok := exact(3); !ok {
			return r
		}
		switch {
		case eqFold(args[2], "on"):
			c.replyOff, c.replySkip = false, false
			return engine.OK
		case eqFold(args[2], "off"):
			c.replyOff = true
		case eqFold(args[2], "skip"):
			if !c.replyOff {
				c.replySkipNext = true
			}
		default:
			return engine.ErrSyntax
		}
		c.replyNone = true // OFF and SKIP answer nothing
		return engine.OK
	case "tracking", "trackinginfo", "caching", "getredir":
		if n := clientSubArity[sub]; !arityOK(n, len(args)) {
			return arityErr("client|" + sub)
		}
		return s.trackingCmd(c, sub, args)
	case "kill", "pause", "unpause", "no-evict", "no-touch":
		return engine.Err("ERR redscope does not implement CLIENT " + strings.ToUpper(sub))
	}
	return engine.Err("ERR unknown subcommand '" + cleanText(args[1]) + "'. Try CLIENT HELP.")
}

// clientUnblock is CLIENT UNBLOCK id [TIMEOUT|ERROR] (networking.c, clientCommand): the reason
// is checked before the id; a blocked client is answered the timeout's nil array or the
// UNBLOCKED error, and the caller gets 1 (0 when no such client is blocked).
func (s *Server) clientUnblock(args [][]byte) engine.Reply {
	if len(args) < 3 {
		return arityErr("client|unblock")
	}
	if len(args) > 4 {
		return engine.Err("ERR unknown subcommand or wrong number of arguments for '" + cleanText(args[1]) + "'. Try CLIENT HELP.")
	}
	withError := false
	if len(args) == 4 {
		switch {
		case eqFold(args[3], "timeout"):
		case eqFold(args[3], "error"):
			withError = true
		default:
			return engine.Err("ERR CLIENT UNBLOCK reason should be TIMEOUT or ERROR")
		}
	}
	id, ok := strictInt(args[2])
	if !ok {
		return engine.Err("ERR value is not an integer or out of range")
	}
	if t := s.clients[id]; t != nil && t.tx != nil && t.tx.Unblock(withError) {
		return engine.Int(1)
	}
	return engine.Int(0)
}

// clientList implements CLIENT LIST [TYPE normal|master|replica|pubsub] [ID id …].
func (s *Server) clientList(opts [][]byte) engine.Reply {
	var ids map[int64]bool
	typ := "" // no TYPE: every client
	for i := 0; i < len(opts); i++ {
		switch {
		case eqFold(opts[i], "type") && i+1 < len(opts):
			typ = strings.ToLower(string(opts[i+1]))
			switch typ {
			case "normal", "master", "replica", "slave", "pubsub":
			default:
				return engine.Err("ERR Unknown client type '" + cleanText(opts[i+1]) + "'")
			}
			i++
		case eqFold(opts[i], "id") && i+1 < len(opts):
			ids = map[int64]bool{}
			for i++; i < len(opts); i++ {
				n, err := strconv.ParseInt(string(opts[i]), 10, 64)
				if err != nil || n <= 0 {
					return engine.Err("ERR Invalid client ID")
				}
				ids[n] = true
			}
		default:
			return engine.ErrSyntax
		}
	}
	var b strings.Builder
	if typ == "" || typ == "normal" || typ == "pubsub" {
		keys := make([]int64, 0, len(s.clients))
		for id, c := range s.clients {
			if (ids == nil || ids[id]) && (typ == "" || c.subscribed() == (typ == "pubsub")) {
				keys = append(keys, id)
			}
		}
		sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
		now := time.Now()
		for _, id := range keys {
			b.WriteString(s.clientLine(s.clients[id], now))
			b.WriteByte('\n')
		}
	}
	return engine.Verbatim(b.String())
}

func (s *Server) clientLine(c *client, now time.Time) string {
	cmd := c.lastCmd
	if cmd == "" {
		cmd = "NULL"
	}
	flags, multi := "", -1
	var sub, psub, ssub int
	if c.ps != nil {
		sub, psub, ssub = c.ps.chans.n(), c.ps.pats.n(), c.ps.shards.n()
	}
	if c.monitor {
		flags += "O" // (catClientInfoString: S or O first)
	}
	if c.subscribed() {
		flags += "P"
	}
	if tx := c.tx; tx != nil && c.txEng == s.eng {
		// catClientInfoString's order: x (MULTI), b (blocked), d (dirty CAS).
		if tx.InMulti() {
			flags += "x"
			multi = tx.Queued()
		}
		if tx.Blocked() {
			flags += "b"
		}
		flags += trackFlags(c)
		if tx.Dirty() {
			flags += "d"
		}
	}
	if flags == "" {
		flags = "N"
	}
	line := fmt.Sprintf("id=%d addr=%s laddr=%s fd=8 name=%s age=%d idle=%d flags=%s db=%d sub=%d psub=%d ssub=%d multi=%d qbuf=0 qbuf-free=0 argv-mem=0 multi-mem=0 rbs=16384 rbp=16384 obl=0 oll=0 omem=0 tot-mem=0 events=r cmd=%s user=%s redir=%d resp=%d",
		c.id, c.addr, c.laddr, c.name, int64(now.Sub(c.created).Seconds()), int64(now.Sub(c.lastAt).Seconds()), flags, c.db, sub, psub, ssub, multi, cmd, c.user.Name, trackRedir(c), c.proto)
	if s.eng.Version().Has(engine.V72) {
		line += " lib-name=" + c.libName + " lib-ver=" + c.libVer
	}
	return line
}

// clientHelp is CLIENT HELP (networking.c clientCommand): 7.2 added SETINFO and NO-TOUCH to its
// lines, 7.4 KILL's ID and MAXAGE filters (marked so in engine/help.txt).
func clientHelp(v engine.Version) engine.Reply {
	return engine.HelpReply(v, "CLIENT", engine.HelpLinesFor("CLIENT", v))
}

var pid = os.Getpid()

func makeRunID() string { return engine.HexID(uint64(time.Now().UnixNano()), 40) }

func executable() string {
	p, err := os.Executable()
	if err != nil {
		return ""
	}
	return p
}
