package server

// Client-side caching (tracking.c, and networking.c clientCommand's TRACKING, CACHING, GETREDIR
// and TRACKINGINFO), as Redis 7.0 does it:
//
//   - Default mode: the keys a tracking client reads with a read-only command (the command
//     table's key specs: the engine calls TrackRead, engine/tracking_hook.go) are remembered in
//     one table by name (every database alike). When any client modifies one of them (the
//     engine's signalModifiedKey: TrackModified) each client that read it gets one invalidate
//     message and the key is forgotten. OPTIN remembers only after CLIENT CACHING YES, OPTOUT
//     everything but after CLIENT CACHING NO; the CACHING flag lasts for the next command (a
//     whole MULTI … EXEC).
//   - BCAST: a client names prefixes (none: every key); the keys modified under a prefix are
//     gathered and sent once, sorted, when the connection's pipeline has run (Redis sends them
//     in beforeSleep), leaving out with NOLOOP the keys the client changed itself.
//   - The message: a RESP3 push ">2 invalidate [keys]"; with REDIRECT id to another client, a
//     RESP3 push to it or, in RESP2, a Pub/Sub message on __redis__:invalidate when it is
//     subscribed to anything; a RESP2 client without redirection gets nothing. A redirection to
//     a client that is gone marks the client R (broken_redirect) and, in RESP3, pushes
//     "tracking-redir-broken id". FLUSHALL/FLUSHDB send every tracking client a null in place of
//     the keys and empty the table.
//   - Messages to the client running the command (NOLOOP off) are written after its reply.
//
// Messages to other connections go through their push queue (pubsub.go, deliver).

import (
	"sort"
	"strconv"
	"strings"

	"redscope/engine"
)

// trackState is one client's tracking flags (CLIENT_TRACKING_*).
type trackState struct {
	on, bcast, optin, optout, noloop, caching, broken bool
	redir                                             int64
	prefixes                                          []string // sorted (a rax)
}

// bcastState is one prefix: its clients and the keys modified in this cycle, with who did it.
type bcastState struct {
	clients map[*client]bool
	keys    map[string]*client
}

// tracking is the server's side (s.mu guards it).
type tracking struct {
	table   map[string]map[int64]bool
	items   int
	prefix  map[string]*bcastState
	clients int
	cur     *client // the client whose command is running
	self    *client // the client whose pipeline has just run (trackBroadcast)
	// overLimit counts the calls of trackLimit in a row that left the table too big
	overLimit int
}

var trackingChannel = "__redis__:invalidate"

func (s *Server) trk() *tracking {
	if s.track == nil {
		s.track = &tracking{table: map[string]map[int64]bool{}, prefix: map[string]*bcastState{}}
	}
	return s.track
}

// TrackRead is trackingRememberKeys for the running client.
func (s *Server) TrackRead(args [][]byte, keys []engine.KeyRef) {
	t := s.trk()
	c := t.cur
	if c == nil || c.tr == nil || !c.tr.on || c.tr.bcast {
		return
	}
	if (c.tr.optin && !c.tr.caching) || (c.tr.optout && c.tr.caching) {
		return
	}
	for _, k := range keys {
		key := string(args[k.Arg])
		ids := t.table[key]
		if ids == nil {
			ids = map[int64]bool{}
			t.table[key] = ids
		}
		if !ids[c.id] {
			ids[c.id] = true
			t.items++
		}
	}
}

// TrackModified is trackingInvalidateKey(current client, key, bcast=1).
// An expired key is modified by no client (expire.c and db.c signal it with c NULL).
func (s *Server) TrackModified(key string, expired bool) {
	by := s.trk().cur
	if expired {
		by = nil
	}
	s.invalidateKey(key, by, true)
}

// invalidateKey is trackingInvalidateKey: key was modified by client by (nil: the server).
func (s *Server) invalidateKey(key string, by *client, bcast bool) {
	t := s.trk()
	if bcast {
		for p, bs := range t.prefix {
			if strings.HasPrefix(key, p) {
				bs.keys[key] = by
			}
		}
	}
	ids := t.table[key]
	if ids == nil {
		return
	}
	idl := make([]int64, 0, len(ids))
	for id := range ids {
		idl = append(idl, id)
	}
	sort.Slice(idl, func(i, j int) bool { return idl[i] < idl[j] })
	for _, id := range idl {
		target := s.clients[id]
		if target == nil || target.tr == nil || !target.tr.on || target.tr.bcast {
			continue
		}
		if target.tr.noloop && target == by && by != nil {
			continue
		}
		k := key
		s.sendTracking(target, func(dst []byte, proto int) []byte {
			return appendBulk(append(dst, "*1\r\n"...), k)
		})
	}
	t.items -= len(ids)
	delete(t.table, key)
}

// TrackFlush is trackingInvalidateKeysOnFlush.
func (s *Server) TrackFlush() {
	t := s.trk()
	if t.clients > 0 {
		ids := make([]int64, 0, len(s.clients))
		for id, c := range s.clients {
			if c.tr != nil && c.tr.on {
				ids = append(ids, id)
			}
		}
		sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
		for _, id := range ids {
			s.sendTracking(s.clients[id], func(dst []byte, proto int) []byte {
				if proto == 3 {
					return append(dst, "_\r\n"...)
				}
				return append(dst, "$-1\r\n"...)
			})
		}
	}
	t.table = map[string]map[int64]bool{}
	t.items = 0
}

func appendBulk(dst []byte, s string) []byte {
	dst = append(strconv.AppendInt(append(dst, '$'), int64(len(s)), 10), '\r', '\n')
	return append(append(dst, s...), '\r', '\n')
}

// sendTracking is sendTrackingMessage: value writes the keys part in the receiver's protocol.
func (s *Server) sendTracking(c *client, value func([]byte, int) []byte) {
	to := c
	redirected := false
	if c.tr.redir != 0 {
		r := s.clients[c.tr.redir]
		if r == nil {
			c.tr.broken = true
			if c.proto == 3 {
				id := c.tr.redir
				s.trackDeliver(c, func(dst []byte) []byte {
					dst = append(dst, ">2\r\n"...)
					dst = appendBulk(dst, "tracking-redir-broken")
					return append(strconv.AppendInt(append(dst, ':'), id, 10), '\r', '\n')
				})
			}
			return
		}
		to, redirected = r, true
	}
	proto := to.proto
	switch {
	case proto == 3:
		s.trackDeliver(to, func(dst []byte) []byte {
			dst = appendBulk(append(dst, ">2\r\n"...), "invalidate")
			return value(dst, 3)
		})
	case redirected && to.subscribed():
		s.trackDeliver(to, func(dst []byte) []byte {
			dst = appendBulk(append(dst, "*3\r\n"...), "message")
			dst = appendBulk(dst, trackingChannel)
			return value(dst, 2)
		})
	}
}

// trackDeliver queues a message for t: after the running command's reply when t runs it,
// through t's pusher otherwise.
func (s *Server) trackDeliver(t *client, enc func([]byte) []byte) {
	if tk := s.trk(); t == tk.cur {
		t.deferred = enc(t.deferred)
		return
	} else if t == tk.self {
		t.out = enc(t.out) // (broadcast after its pipeline: after its replies)
		return
	}
	if t.ps == nil || !t.ps.started {
		if t.ps == nil {
			t.ps = &pubsubState{}
		}
		s.startPusher(t)
		if !t.ps.started {
			return
		}
	}
	s.deliver(nil, t, enc)
}

// trackBroadcast is trackingBroadcastInvalidationMessages: every prefix's modified keys, sorted,
// to each of its clients (less, with NOLOOP, the keys the client modified itself).
func (s *Server) trackBroadcast(self *client) {
	t := s.track
	if t == nil || len(t.prefix) == 0 {
		return
	}
	t.self = self
	defer func() { t.self = nil }()
	ps := make([]string, 0, len(t.prefix))
	for p, bs := range t.prefix {
		if len(bs.keys) > 0 {
			ps = append(ps, p)
		}
	}
	sort.Strings(ps)
	for _, p := range ps {
		bs := t.prefix[p]
		keys := make([]string, 0, len(bs.keys))
		for k := range bs.keys {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		cl := make([]*client, 0, len(bs.clients))
		for c := range bs.clients {
			cl = append(cl, c)
		}
		sort.Slice(cl, func(i, j int) bool { return cl[i].id < cl[j].id })
		for _, c := range cl {
			var send []string
			for _, k := range keys {
				if !c.tr.noloop || bs.keys[k] != c {
					send = append(send, k)
				}
			}
			if len(send) == 0 {
				continue
			}
			s.sendTracking(c, func(dst []byte, proto int) []byte {
				dst = append(strconv.AppendInt(append(dst, '*'), int64(len(send)), 10), '\r', '\n')
				for _, k := range send {
					dst = appendBulk(dst, k)
				}
				return dst
			})
		}
		bs.keys = map[string]*client{}
	}
}

// trackBegin and trackEnd surround one command of c (run): the running client, and the
// CACHING flag cleared after any command but CLIENT outside MULTI (resetClient).
func (s *Server) trackBegin(c *client) {
	if s.track != nil {
		if s.track.clients > 0 {
			s.track.self = c // (its messages go after the replies already in c.out)
			s.trackLimit()   // (processCommand)
			s.track.self = nil
		}
		s.track.cur = c
	}
}

// trackLimit is trackingLimitUsedSlots (serverCron and processCommand): while the table has
// more keys than tracking-table-max-keys (0: no limit), keys are invalidated as if the server
// modified them, up to an effort of 100 keys times the number of calls in a row that found the
// table still too big. Redis picks them by a random walk of its radix tree; redscope takes them
// in key order, so which keys go is deterministic.
func (s *Server) trackLimit() {
	t := s.track
	if t == nil || t.clients == 0 {
		return
	}
	max, err := strconv.ParseInt(s.eng.Config().Get("tracking-table-max-keys"), 10, 64)
	if err != nil || max <= 0 || int64(len(t.table)) <= max {
		t.overLimit = 0
		return
	}
	keys := make([]string, 0, len(t.table))
	for k := range t.table {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	effort := 100 * (t.overLimit + 1)
	for _, k := range keys {
		if effort == 0 {
			break
		}
		effort--
		s.invalidateKey(k, nil, false)
		if int64(len(t.table)) <= max {
			t.overLimit = 0
			return
		}
	}
	t.overLimit++
}

func (s *Server) trackEnd(c *client, args [][]byte) {
	if s.track != nil {
		s.track.cur = nil
	}
	if c.tr != nil && c.tr.caching && !eqFold(args[0], "client") && (c.tx == nil || !c.tx.InMulti()) {
		c.tr.caching = false
	}
}

// disableTracking turns c's tracking off (CLIENT TRACKING OFF, RESET, a closed connection).
func (s *Server) disableTracking(c *client) {
	tr := c.tr
	if tr == nil || !tr.on {
		return
	}
	t := s.trk()
	if tr.bcast {
		for _, p := range tr.prefixes {
			if bs := t.prefix[p]; bs != nil {
				delete(bs.clients, c)
				if len(bs.clients) == 0 {
					delete(t.prefix, p)
				}
			}
		}
	}
	t.clients--
	c.tr = nil
}

func overlap(a, b string) bool {
	n := min(len(a), len(b))
	return a[:n] == b[:n]
}

// trackingCmd answers CLIENT TRACKING, CACHING, GETREDIR and TRACKINGINFO (arity checked).
func (s *Server) trackingCmd(c *client, sub string, args [][]byte) engine.Reply {
	switch sub {
	case "tracking":
		return s.clientTracking(c, args)
	case "caching":
		if c.tr == nil || !c.tr.on {
			return engine.Err("ERR CLIENT CACHING can be called only when the client is in tracking mode with OPTIN or OPTOUT mode enabled")
		}
		switch {
		case eqFold(args[2], "yes"):
			if !c.tr.optin {
				return engine.Err("ERR CLIENT CACHING YES is only valid when tracking is enabled in OPTIN mode.")
			}
		case eqFold(args[2], "no"):
			if !c.tr.optout {
				return engine.Err("ERR CLIENT CACHING NO is only valid when tracking is enabled in OPTOUT mode.")
			}
		default:
			return engine.ErrSyntax
		}
		c.tr.caching = true
		return engine.OK
	case "getredir":
		return engine.Int(trackRedir(c))
	}
	// trackinginfo
	tr := c.tr
	if tr == nil {
		tr = &trackState{}
	}
	flags := []engine.Reply{engine.BulkStr(map[bool]string{true: "on", false: "off"}[tr.on])}
	add := func(ok bool, f string) {
		if ok {
			flags = append(flags, engine.BulkStr(f))
		}
	}
	add(tr.bcast, "bcast")
	add(tr.optin, "optin")
	add(tr.optin && tr.caching, "caching-yes")
	add(tr.optout, "optout")
	add(tr.optout && tr.caching, "caching-no")
	add(tr.noloop, "noloop")
	add(tr.broken, "broken_redirect")
	pre := make([]engine.Reply, len(tr.prefixes))
	for i, p := range tr.prefixes {
		pre[i] = engine.BulkStr(p)
	}
	return engine.Map(engine.BulkStr("flags"), engine.Set(flags...),
		engine.BulkStr("redirect"), engine.Int(trackRedir(c)),
		engine.BulkStr("prefixes"), engine.Array(pre...))
}

func trackRedir(c *client) int64 {
	if c.tr != nil && c.tr.on {
		return c.tr.redir
	}
	return -1
}

// clientTracking is CLIENT TRACKING ON|OFF [REDIRECT id] [BCAST] [PREFIX p]… [OPTIN] [OPTOUT]
// [NOLOOP], with clientCommand's checks in its order.
func (s *Server) clientTracking(c *client, args [][]byte) engine.Reply {
	var redir int64
	var bcast, optin, optout, noloop bool
	var prefixes []string
	for j := 3; j < len(args); j++ {
		more := len(args) - 1 - j
		switch {
		case eqFold(args[j], "redirect") && more > 0:
			j++
			if redir != 0 {
				return engine.Err("ERR A client can only redirect to a single other client")
			}
			n, ok := strictInt(args[j])
			if !ok {
				return engine.Err("ERR value is not an integer or out of range")
			}
			redir = n
			if s.clients[redir] == nil {
				return engine.Err("ERR The client ID you want redirect to does not exist")
			}
		case eqFold(args[j], "bcast"):
			bcast = true
		case eqFold(args[j], "optin"):
			optin = true
		case eqFold(args[j], "optout"):
			optout = true
		case eqFold(args[j], "noloop"):
			noloop = true
		case eqFold(args[j], "prefix") && more > 0:
			j++
			prefixes = append(prefixes, string(args[j]))
		default:
			return engine.ErrSyntax
		}
	}
	switch {
	case eqFold(args[2], "off"):
		s.disableTracking(c)
		return engine.OK
	case !eqFold(args[2], "on"):
		return engine.ErrSyntax
	}
	old := c.tr
	if old == nil {
		old = &trackState{}
	}
	if !bcast && len(prefixes) > 0 {
		return engine.Err("ERR PREFIX option requires BCAST mode to be enabled")
	}
	if old.on && old.bcast != bcast {
		return engine.Err("ERR You can't switch BCAST mode on/off before disabling tracking for this client, and then re-enabling it with a different mode.")
	}
	if bcast && (optin || optout) {
		return engine.Err("ERR OPTIN and OPTOUT are not compatible with BCAST")
	}
	if optin && optout {
		return engine.Err("ERR You can't specify both OPTIN mode and OPTOUT mode")
	}
	if (optin && old.optout) || (optout && old.optin) {
		return engine.Err("ERR You can't switch OPTIN/OPTOUT mode before disabling tracking for this client, and then re-enabling it with a different mode.")
	}
	if bcast {
		for i, p := range prefixes {
			for _, q := range old.prefixes {
				if overlap(q, p) {
					return engine.Err("ERR Prefix '" + p + "' overlaps with an existing prefix '" + q + "'. Prefixes for a single client must not overlap.")
				}
			}
			for _, q := range prefixes[i+1:] {
				if overlap(p, q) {
					return engine.Err("ERR Prefix '" + p + "' overlaps with another provided prefix '" + q + "'. Prefixes for a single client must not overlap.")
				}
			}
		}
	}
	// enableTracking
	t := s.trk()
	s.eng.SetTracker(s)
	if !old.on {
		t.clients++
	}
	tr := &trackState{on: true, redir: redir, prefixes: old.prefixes, caching: old.caching}
	c.tr = tr
	if bcast {
		tr.bcast = true
		if len(prefixes) == 0 {
			prefixes = []string{""}
		}
		for _, p := range prefixes {
			bs := t.prefix[p]
			if bs == nil {
				bs = &bcastState{clients: map[*client]bool{}, keys: map[string]*client{}}
				t.prefix[p] = bs
			}
			if !bs.clients[c] {
				bs.clients[c] = true
				i := sort.SearchStrings(tr.prefixes, p)
				if i == len(tr.prefixes) || tr.prefixes[i] != p {
					tr.prefixes = append(tr.prefixes[:i:i], append([]string{p}, tr.prefixes[i:]...)...)
				}
			}
		}
	}
	tr.optin, tr.optout, tr.noloop = optin, optout, noloop
	return engine.OK
}

// trackFlags are catClientInfoString's t, R and B; trackRedirField is its redir=.
func trackFlags(c *client) string {
	if c.tr == nil || !c.tr.on {
		return ""
	}
	f := "t"
	if c.tr.broken {
		f += "R"
	}
	if c.tr.bcast {
		f += "B"
	}
	return f
}

// trackInfo fills INFO's tracking fields.
func (s *Server) trackInfo(h *engine.InfoHost) {
	if s.track == nil {
		return
	}
	h.TrackingClients, h.TrackingKeys, h.TrackingItems, h.TrackingPrefixes =
		s.track.clients, len(s.track.table), s.track.items, len(s.track.prefix)
}
