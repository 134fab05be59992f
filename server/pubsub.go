package server

// Pub/Sub (pubsub.c): SUBSCRIBE, UNSUBSCRIBE, PSUBSCRIBE, PUNSUBSCRIBE, SSUBSCRIBE,
// SUNSUBSCRIBE, PUBLISH, SPUBLISH and PUBSUB CHANNELS / NUMSUB / NUMPAT / SHARDCHANNELS /
// SHARDNUMSUB / HELP, in RESP2 (arrays) and RESP3 (pushes), with the RESP2 subscribed context
// (only the (P|S)(UN)SUBSCRIBE family, PING, QUIT and RESET; PING answers ["pong", msg]).
//
// The registry lives with the other per-connection state of the server (s.mu guards it): the
// server maps every channel, pattern and shard channel to its subscribers in subscription order,
// and each client keeps its own subscriptions in the order it made them (UNSUBSCRIBE without
// arguments answers in that order; Redis walks a dict, whose order a test cannot rely on).
//
// A message for another connection is appended to that connection's push queue and written by
// its pusher goroutine (started with its first subscription), so a publisher never waits for a
// subscriber's socket. A connection's own replies and its queued messages go out under its write
// lock, which the connection takes before it releases s.mu: what was published after its
// command ran cannot overtake that command's reply. A message a connection publishes to itself
// (RESP3) goes into its reply buffer: before PUBLISH's own reply in 7.0, after the reply of the
// whole command (EXEC) from 7.2 on.

import (
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"redscope/engine"
)

// subSet is one client's subscriptions of one kind, in the order they were made.
type subSet struct {
	keys []string
	has  map[string]bool
}

func (ss *subSet) add(k string) bool {
	if ss.has[k] {
		return false
	}
	if ss.has == nil {
		ss.has = map[string]bool{}
	}
	ss.has[k] = true
	ss.keys = append(ss.keys, k)
	return true
}

func (ss *subSet) remove(k string) bool {
	if !ss.has[k] {
		return false
	}
	delete(ss.has, k)
	for i, x := range ss.keys {
		if x == k {
			ss.keys = append(ss.keys[:i:i], ss.keys[i+1:]...)
			break
		}
	}
	return true
}

func (ss *subSet) n() int { return len(ss.keys) }

// pubsubState is a client's side of Pub/Sub.
type pubsubState struct {
	chans, pats, shards subSet
	// the pusher (started with the first subscription)
	pmu     sync.Mutex // guards queue
	queue   []byte
	kick    chan struct{}
	done    chan struct{}
	wmu     sync.Mutex // held while the connection's socket is written
	started bool
	stopped bool
	record  *[]engine.Reply // inside EXEC: the confirmations, as replies
}

// registry is the server's side: subscribers per channel, pattern and shard channel.
type registry struct {
	chans, pats, shards map[string][]*client
	patOrder            []string // patterns in the order they got their first subscriber
	clients             int      // clients with any subscription (pubsub_clients)
}

func (r *registry) add(m *map[string][]*client, k string, c *client) {
	if *m == nil {
		*m = map[string][]*client{}
	}
	if m == &r.pats && len(r.pats[k]) == 0 {
		r.patOrder = append(r.patOrder, k)
	}
	(*m)[k] = append((*m)[k], c)
}

func (r *registry) remove(m *map[string][]*client, k string, c *client) {
	l := (*m)[k]
	for i, x := range l {
		if x == c {
			l = append(l[:i:i], l[i+1:]...)
			break
		}
	}
	if len(l) > 0 {
		(*m)[k] = l
		return
	}
	delete(*m, k)
	if m == &r.pats {
		for i, p := range r.patOrder {
			if p == k {
				r.patOrder = append(r.patOrder[:i:i], r.patOrder[i+1:]...)
				break
			}
		}
	}
}

// subscribed reports whether c is in Pub/Sub mode (CLIENT_PUBSUB).
func (c *client) subscribed() bool {
	return c.ps != nil && c.ps.chans.n()+c.ps.pats.n()+c.ps.shards.n() > 0
}

// pubsubMsg encodes a Pub/Sub array (RESP2) or push (RESP3) of bulk strings, with a null where
// an element is nil and a trailing integer when count >= 0.
func pubsubMsg(dst []byte, proto int, count int64, elems ...*string) []byte {
	n := len(elems)
	if count >= 0 {
		n++
	}
	if proto == 3 {
		dst = append(dst, '>')
	} else {
		dst = append(dst, '*')
	}
	dst = append(strconv.AppendInt(dst, int64(n), 10), '\r', '\n')
	for _, e := range elems {
		if e == nil {
			if proto == 3 {
				dst = append(dst, "_\r\n"...)
			} else {
				dst = append(dst, "$-1\r\n"...)
			}
			continue
		}
		dst = append(strconv.AppendInt(append(dst, '$'), int64(len(*e)), 10), '\r', '\n')
		dst = append(append(dst, *e...), '\r', '\n')
	}
	if count >= 0 {
		dst = append(strconv.AppendInt(append(dst, ':'), count, 10), '\r', '\n')
	}
	return dst
}

func sp(s string) *string { return &s }

// pubsubArity is the arity of the Pub/Sub commands (their COMMAND INFO).
var pubsubArity = map[string]int{
	"subscribe": -2, "unsubscribe": -1, "psubscribe": -2, "punsubscribe": -1,
	"ssubscribe": -2, "sunsubscribe": -1, "publish": 3, "spublish": 3, "pubsub": -2,
}

var pubsubSubArity = map[string]int{
	"channels": -2, "numsub": -2, "numpat": 2, "shardchannels": -2, "shardnumsub": -2, "help": 2,
}

// pubsubName is the lowercase name of a Pub/Sub command, or "".
func pubsubName(name []byte) string {
	if len(name) < 6 || len(name) > 12 {
		return ""
	}
	var buf [12]byte
	for i, x := range name {
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		buf[i] = x
	}
	switch string(buf[:len(name)]) { // (no allocation: every command passes here)
	case "subscribe":
		return "subscribe"
	case "unsubscribe":
		return "unsubscribe"
	case "psubscribe":
		return "psubscribe"
	case "punsubscribe":
		return "punsubscribe"
	case "ssubscribe":
		return "ssubscribe"
	case "sunsubscribe":
		return "sunsubscribe"
	case "publish":
		return "publish"
	case "spublish":
		return "spublish"
	case "pubsub":
		return "pubsub"
	}
	return ""
}

// pubsubCheck is the existence and arity check of the Pub/Sub commands (for MULTI's queue).
func pubsubCheck(args [][]byte) (engine.Reply, bool) {
	n := pubsubName(args[0])
	if n == "" {
		return engine.Reply{}, false
	}
	if !arityOK(pubsubArity[n], len(args)) {
		return arityErr(n), true
	}
	if n == "pubsub" {
		sub := strings.ToLower(string(args[1]))
		a, ok := pubsubSubArity[sub]
		if !ok {
			return engine.Err("ERR unknown subcommand '" + cleanText(args[1]) + "'. Try PUBSUB HELP."), true
		}
		if !arityOK(a, len(args)) {
			return arityErr("pubsub|" + sub), true
		}
	}
	return engine.Reply{}, true
}

func arityOK(a, n int) bool { return (a > 0 && n == a) || (a < 0 && n >= -a) }

// pubsubCommand runs a Pub/Sub command for c (s.mu held); handled is false for other commands.
// Outside EXEC the (un)subscribe confirmations are written into c.out at once and written is
// true. Inside EXEC (c.inExec) they become EXEC's element: the first confirmation as an array
// (the one confirmation of a single channel, as Redis writes it in RESP2; a command naming
// several channels has only its first there, and RESP3 gets an array where Redis writes a push).
func (s *Server) pubsubCommand(c *client, args [][]byte) (r engine.Reply, written, handled bool) {
	n := pubsubName(args[0])
	if n == "" {
		return engine.Reply{}, false, false
	}
	c.lastCmd = n
	if r, _ := pubsubCheck(args); r.Kind != 0 {
		return r, false, true
	}
	switch n {
	case "publish", "spublish":
		return engine.Int(int64(s.publish(c, n == "spublish", string(args[1]), string(args[2])))), false, true
	case "pubsub":
		c.lastCmd = "pubsub|" + strings.ToLower(string(args[1]))
		return s.pubsubIntrospect(args), false, true
	}
	if c.ps == nil {
		c.ps = &pubsubState{}
	}
	var rec []engine.Reply
	if c.inExec {
		c.ps.record = &rec
		defer func() { c.ps.record = nil }()
	}
	if strings.HasSuffix(n, "unsubscribe") {
		s.unsubscribe(c, n, args[1:], true)
	} else {
		s.subscribe(c, n, args[1:])
	}
	if c.inExec {
		return rec[0], false, true
	}
	return engine.Reply{}, true, true
}

// confirm writes (or records, inside EXEC) one (un)subscribe confirmation.
func (s *Server) confirm(c *client, cmd string, name *string, count int64) {
	if c.ps.record != nil {
		ch := engine.NilReply
		if name != nil {
			ch = engine.BulkStr(*name)
		}
		*c.ps.record = append(*c.ps.record, engine.Array(engine.BulkStr(cmd), ch, engine.Int(count)))
		return
	}
	c.pushOut(func(dst []byte) []byte { return pubsubMsg(dst, c.proto, count, &cmd, name) })
}

// pushOut appends a Pub/Sub reply to c's output. Under CLIENT REPLY OFF or SKIP a RESP3 push
// is still sent (prepareClientToWrite lets CLIENT_PUSHING through): it goes to c.keep, which
// survives the reply's suppression (Server.run).
func (c *client) pushOut(enc func([]byte) []byte) {
	if c.proto == 3 && (c.replyOff || c.replySkip) {
		c.keep = enc(c.keep)
		return
	}
	c.out = enc(c.out)
}

// subKind: "c" (channels), "p" (patterns) or "s" (shard channels) for a (un)subscribe command.
func subKind(cmd string) string {
	switch cmd {
	case "psubscribe", "punsubscribe":
		return "p"
	case "ssubscribe", "sunsubscribe":
		return "s"
	}
	return "c"
}

func (s *Server) kindOf(c *client, kind string) (*subSet, *map[string][]*client) {
	switch kind {
	case "p":
		return &c.ps.pats, &s.reg.pats
	case "s":
		return &c.ps.shards, &s.reg.shards
	}
	return &c.ps.chans, &s.reg.chans
}

// countFor is the number a confirmation reports: channels and patterns together, shard channels
// apart (clientSubscriptionsCount, clientShardSubscriptionsCount).
func countFor(c *client, kind string) int64 {
	if kind == "s" {
		return int64(c.ps.shards.n())
	}
	return int64(c.ps.chans.n() + c.ps.pats.n())
}

func (s *Server) subscribe(c *client, cmd string, names [][]byte) {
	kind := subKind(cmd)
	if c.ps == nil {
		c.ps = &pubsubState{}
	}
	was := c.subscribed()
	set, m := s.kindOf(c, kind)
	for _, b := range names {
		k := string(b)
		if set.add(k) {
			s.reg.add(m, k, c)
		}
		s.confirm(c, cmd, &k, countFor(c, kind))
	}
	if !was && c.subscribed() {
		s.reg.clients++
	}
	s.startPusher(c)
}

// unsubscribe removes c's subscriptions of one kind: those named, or all of them (notify: the
// confirmations are written; RESET and a closed connection unsubscribe silently).
func (s *Server) unsubscribe(c *client, cmd string, names [][]byte, notify bool) {
	kind := subKind(cmd)
	if c.ps == nil {
		c.ps = &pubsubState{}
	}
	was := c.subscribed()
	set, m := s.kindOf(c, kind)
	one := func(k string) {
		if set.remove(k) {
			s.reg.remove(m, k, c)
		}
		if notify {
			s.confirm(c, cmd, &k, countFor(c, kind))
		}
	}
	if len(names) == 0 {
		all := append([]string(nil), set.keys...)
		for _, k := range all {
			one(k)
		}
		if notify && len(all) == 0 {
			s.confirm(c, cmd, nil, countFor(c, kind))
		}
	} else {
		for _, b := range names {
			one(string(b))
		}
	}
	if was && !c.subscribed() {
		s.reg.clients--
	}
}

// pubsubDrop unsubscribes c from everything, silently (RESET, a closed connection).
func (s *Server) pubsubDrop(c *client) {
	if c.ps == nil {
		return
	}
	s.unsubscribe(c, "unsubscribe", nil, false)
	s.unsubscribe(c, "punsubscribe", nil, false)
	s.unsubscribe(c, "sunsubscribe", nil, false)
}

// publish delivers msg to the subscribers of channel, then to the clients of every matching
// pattern (pubsubPublishMessage), and returns how many receptions there were.
func (s *Server) publish(from *client, shard bool, channel, msg string) int {
	n := 0
	if shard {
		for _, t := range s.reg.shards[channel] {
			s.deliver(from, t, func(dst []byte) []byte {
				return pubsubMsg(dst, t.proto, -1, sp("smessage"), &channel, &msg)
			})
			n++
		}
		return n
	}
	for _, t := range s.reg.chans[channel] {
		s.deliver(from, t, func(dst []byte) []byte {
			return pubsubMsg(dst, t.proto, -1, sp("message"), &channel, &msg)
		})
		n++
	}
	for _, p := range s.reg.patOrder {
		if !engine.StringMatch([]byte(p), []byte(channel)) {
			continue
		}
		for _, t := range s.reg.pats[p] {
			s.deliver(from, t, func(dst []byte) []byte {
				return pubsubMsg(dst, t.proto, -1, sp("pmessage"), &p, &channel, &msg)
			})
			n++
		}
	}
	return n
}

func (s *Server) deliver(from, t *client, enc func([]byte) []byte) {
	if t == from {
		if s.eng.Version().Has(engine.V72) {
			// 7.2+ holds a client's messages to itself until the reply of the command that
			// published them (EXEC, EVAL included) is written (server.c, call and
			// afterCommand's pending pushes); 7.0 writes them at once.
			t.deferred = enc(t.deferred)
			return
		}
		t.pushOut(enc)
		return
	}
	if t.replyOff && t.proto == 2 {
		return // CLIENT REPLY OFF: no RESP2 messages either (RESP3 pushes still go)
	}
	ps := t.ps
	ps.pmu.Lock()
	ps.queue = enc(ps.queue)
	ps.pmu.Unlock()
	select {
	case ps.kick <- struct{}{}:
	default:
	}
}

// startPusher starts c's pusher goroutine once (s.mu held).
func (s *Server) startPusher(c *client) {
	ps := c.ps
	if ps.started || c.conn == nil {
		return
	}
	ps.started = true
	ps.kick, ps.done = make(chan struct{}, 1), make(chan struct{})
	kick, done, nc := ps.kick, ps.done, c.conn.nc
	go func() {
		for {
			select {
			case <-kick:
			case <-done:
				return
			}
			ps.wmu.Lock()
			b := ps.take()
			if len(b) > 0 {
				nc.Write(b) // an error ends the connection's own loop
			}
			ps.wmu.Unlock()
		}
	}()
}

func (ps *pubsubState) take() []byte {
	ps.pmu.Lock()
	b := ps.queue
	ps.queue = nil
	ps.pmu.Unlock()
	return b
}

// stopPusher ends c's pusher (s.mu held; the connection is gone).
func (s *Server) stopPusher(c *client) {
	if c.ps != nil && c.ps.started && !c.ps.stopped {
		close(c.ps.done)
		c.ps.stopped = true
	}
}

// lockWrite takes c's write lock when it has a pusher (called with s.mu held, so nothing
// published after the command can be written before its reply).
func (c *client) lockWrite() {
	if c.ps != nil && c.ps.started && !c.wlocked {
		c.ps.wmu.Lock()
		c.wlocked = true
	}
}

// write writes the queued messages and then b to the socket, under the write lock.
func (c *client) write(b []byte) error {
	if c.ps != nil && c.ps.started && !c.wlocked {
		c.ps.wmu.Lock()
		c.wlocked = true
	}
	var err error
	if c.wlocked {
		if q := c.ps.take(); len(q) > 0 {
			_, err = c.conn.nc.Write(q)
		}
	}
	if err == nil && len(b) > 0 {
		_, err = c.conn.nc.Write(b)
	}
	if c.wlocked {
		c.wlocked = false
		c.ps.wmu.Unlock()
	}
	return err
}

// pubsubRefuse is processCommand's RESP2 subscribed-context check: the reply when c may not run
// args now.
func (s *Server) pubsubRefuse(c *client, tx *engine.Client, args [][]byte) (engine.Reply, bool) {
	if c.proto != 2 || !c.subscribed() {
		return engine.Reply{}, false
	}
	name := strings.ToLower(string(args[0]))
	if name == "ping" || name == "quit" || name == "reset" {
		return engine.Reply{}, false
	}
	if n := pubsubName(args[0]); n != "" && n != "publish" && n != "spublish" && n != "pubsub" {
		return engine.Reply{}, false
	}
	if r, ok := pubsubCheck(args); ok {
		if r.Kind != 0 {
			return engine.Reply{}, false // its own error comes first
		}
	} else if r, ok := s.connCheck(args); ok {
		if r.Kind != 0 {
			return engine.Reply{}, false
		}
	} else if !tx.Check(args) {
		return engine.Reply{}, false
	}
	full := name
	if len(args) >= 2 {
		if h, ok := engine.LookupHelp(name+"|"+strings.ToLower(string(args[1])), "en"); ok && h.Since != "" {
			full = h.Name
		}
	}
	return reject(tx, args, engine.Err("ERR Can't execute '"+full+"': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in this context")), true
}

// subscribedPing is PING in the RESP2 subscribed context: ["pong", msg or ""].
func subscribedPing(c *client, args [][]byte) (engine.Reply, bool) {
	if c.proto != 2 || !c.subscribed() || !eqFold(args[0], "ping") {
		return engine.Reply{}, false
	}
	if len(args) > 2 {
		return arityErr("ping"), true
	}
	msg := ""
	if len(args) == 2 {
		msg = string(args[1])
	}
	return engine.Array(engine.BulkStr("pong"), engine.BulkStr(msg)), true
}

func (s *Server) pubsubIntrospect(args [][]byte) engine.Reply {
	sub := strings.ToLower(string(args[1]))
	list := func(m map[string][]*client) engine.Reply {
		if len(args) > 3 {
			return engine.Err("ERR unknown subcommand or wrong number of arguments for '" + cleanText(args[1]) + "'. Try PUBSUB HELP.")
		}
		var names []string
		for k := range m {
			if len(args) == 2 || engine.StringMatch(args[2], []byte(k)) {
				names = append(names, k)
			}
		}
		sort.Strings(names)
		out := make([]engine.Reply, len(names))
		for i, k := range names {
			out[i] = engine.BulkStr(k)
		}
		return engine.Array(out...)
	}
	numsub := func(m map[string][]*client) engine.Reply {
		out := make([]engine.Reply, 0, 2*(len(args)-2))
		for _, a := range args[2:] {
			out = append(out, engine.Bulk(a), engine.Int(int64(len(m[string(a)]))))
		}
		return engine.Array(out...)
	}
	switch sub {
	case "help":
		return engine.HelpReply(s.eng.Version(), "PUBSUB", engine.HelpLinesFor("PUBSUB", s.eng.Version()))
	case "channels":
		return list(s.reg.chans)
	case "shardchannels":
		return list(s.reg.shards)
	case "numsub":
		return numsub(s.reg.chans)
	case "shardnumsub":
		return numsub(s.reg.shards)
	case "numpat":
		return engine.Int(int64(len(s.reg.pats)))
	}
	return engine.Err("ERR unknown subcommand '" + cleanText(args[1]) + "'. Try PUBSUB HELP.")
}

// hasPublish: a batch with a PUBLISH or SPUBLISH.
func hasPublish(cmds [][][]byte) bool {
	for _, a := range cmds {
		if len(a) > 0 && (eqFold(a[0], "publish") || eqFold(a[0], "spublish")) {
			return true
		}
	}
	return false
}

// catchUp lets the subscribed connections run what they have already sent before a PUBLISH
// runs. Redis serves every connection from one event loop, in the order their input arrives: an
// UNSUBSCRIBE written just before another client's PUBLISH runs first, and Redis's own tests
// rely on it. Here each connection has its goroutine, so the publisher waits (at most 20 ms,
// without the engine lock) while a subscribed connection has input read and not run, or unread
// bytes in its socket.
func (s *Server) catchUp(self *client) {
	for i := 0; i < 40; i++ {
		s.mu.Lock()
		busy := false
		for _, t := range s.clients {
			if t != self && t.subscribed() && t.conn != nil && !t.detached &&
				(t.conn.inFlight.Load() || unread(t.conn.nc)) {
				busy = true
				break
			}
		}
		s.mu.Unlock()
		if !busy {
			return
		}
		time.Sleep(500 * time.Microsecond)
	}
}
