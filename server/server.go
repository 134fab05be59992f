// Package server speaks RESP2 and RESP3 for one engine.Engine, so redis-cli, redis-benchmark and client
// libraries (go-redis, …) can talk to redscope as if it were a redis-server.
//
// On Linux an event loop serves the plain connections as redis-server's own loop does, one
// epoll_wait for all of them (eventloop_linux.go); a connection that subscribes, monitors,
// tracks, runs a script or blocks moves to a goroutine of its own (loop.go), as every
// connection has elsewhere. Commands run one at a time: one mutex guards the engine. Each
// connection has its own selected database, which is made current in the engine before each of
// its commands. Connection-level
// commands (HELLO, CLIENT, AUTH, QUIT, RESET, INFO) are answered here with Redis 7's texts; every
// other command goes to Engine.Exec and its reply is written with Reply.AppendRESP in the
// connection's protocol: RESP2 until HELLO 3 (RESET and HELLO 2 go back), as networking.c keeps
// c->resp. Replies are protocol-neutral (engine/reply.go): the same Reply is a flat array in
// RESP2 and a map, a set or an array of pairs in RESP3.
//
// Blocking commands (BLPOP … BZMPOP) really wait: when the engine parks a connection's client
// (Result.Blocked), the connection leaves its loop (loop.go, blocking.go) and waits, without holding
// the lock, for its reply — served by another connection's push, timed out, or CLIENT UNBLOCK —
// while a reader goroutine keeps reading what the client sends (to run after the reply, as Redis
// keeps a blocked client's query buffer) and notices when it hangs up.
package server

import (
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"redscope/engine"
)

// Server is a RESP2/RESP3 server for one engine.
type Server struct {
	// the parser's bounds, proto-max-bulk-len and client-query-buffer-limit as CONFIG last set
	// them: read by each connection's loop without the lock (loop.go), stored by syncLimits
	maxBulk, queryLimit atomic.Int64
	mu                  *sync.Mutex // guards eng and everything below (shared by a cluster's nodes: cluster.go)
	eng                 *engine.Engine
	clients             map[int64]*client
	nextID              int64
	started             time.Time
	runID               string
	port                int

	names         map[string]string // interned lowercase command names (CLIENT LIST cmd=)
	totalConns    int64
	totalCommands int64

	ln          net.Listener
	closed      bool
	cronStarted bool
	reg         registry                   // Pub/Sub subscribers (pubsub.go)
	track       *tracking                  // client-side caching (tracking.go)
	conns       map[*netConn]struct{}      // connections in serveConn's loop
	detached    map[*client]detachedConn   // connections waiting in a blocking command (blocking.go)
	monitors    []*client                  // MONITOR clients, in the order they began (monitor.go)
	cur         *client                    // the client whose command runs (monitor.go)
	loop        *eventLoop                 // serves the plain connections (eventloop_linux.go)
	busy        atomic.Pointer[busyEngine] // the running script's monitor (script_busy.go)

	// NoEventLoop gives every connection a goroutine of its own, also where the event loop
	// would serve it (set before Serve).
	NoEventLoop bool
}

// client is one connection's state.
type client struct {
	id      int64
	conn    *netConn
	addr    string
	laddr   string
	name    string
	libName string
	libVer  string
	proto   int // 2 or 3 (HELLO)
	db      int
	created time.Time
	lastCmd string
	lastAt  time.Time
	out     []byte // replies of the current pipeline, written after the engine lock is released
	quit    bool
	// tx is the connection's engine client (MULTI queue, watched keys, selected database); it
	// is remade when the server's engine is replaced.
	tx    *engine.Client
	txEng *engine.Engine
	// The user the connection runs as and whether it is authenticated (auth.go), for userEng.
	user    *engine.ACLUser
	userEng *engine.Engine
	authed  bool
	inExec  bool // running EXEC's queued commands (their ACL is checked again: auth.go)
	// Blocking (blocking.go): parked is set while the client waits in a blocking command;
	// pending holds the commands read after it; wake receives the blocked command's reply.
	parked   bool
	pending  [][][]byte
	wake     chan engine.Result
	detached bool
	// Pub/Sub (pubsub.go): subscriptions and the pusher; wlocked: the write lock is held
	ps      *pubsubState
	tr      *trackState // CLIENT TRACKING (tracking.go)
	wlocked bool
	monitor bool // MONITOR (monitor.go)
	// CLIENT REPLY: replyOff (OFF), replySkip (this command's reply is dropped), replySkipNext
	// (SKIP: the next one's is), replyNone (this command answers nothing)
	replyOff, replySkip, replySkipNext, replyNone bool
	keep                                          []byte // RESP3 pushes sent despite them (pubsub.go)
	deferred                                      []byte // messages to itself, written after the reply (7.2+; pubsub.go)
}

// New makes a server for e. e should use real time (engine.WallClock{}).
func New(e *engine.Engine) *Server {
	s := &Server{mu: new(sync.Mutex), eng: e, clients: map[int64]*client{}, started: time.Now(), names: map[string]string{}}
	s.runID = makeRunID()
	s.syncLimits()
	return s
}

// syncLimits copies the parser's bounds from the engine's configuration (s.mu held, or before
// the server serves): a CONFIG SET of proto-max-bulk-len or client-query-buffer-limit applies
// from the next input read, as Redis reads server.proto_max_bulk_len on each parse.
func (s *Server) syncLimits() {
	cfg := s.eng.Config()
	s.maxBulk.Store(cfg.Int("proto-max-bulk-len"))
	s.queryLimit.Store(cfg.Int("client-query-buffer-limit"))
}

// Engine runs f with the engine while no command runs (tests, labs).
func (s *Server) Engine(f func(e *engine.Engine)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f(s.eng)
}

// SetEngine replaces the engine (a fresh keyspace) between two commands.
func (s *Server) SetEngine(e *engine.Engine) {
	s.mu.Lock()
	s.eng = e
	s.mu.Unlock()
}

// ListenAndServe listens on addr (host:port) and serves until Close.
func (s *Server) ListenAndServe(addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	return s.Serve(ln)
}

// Serve serves connections from ln until Close (loop.go).
func (s *Server) Serve(ln net.Listener) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		ln.Close()
		return errors.New("server: closed")
	}
	if ta, ok := ln.Addr().(*net.TCPAddr); ok {
		s.port = ta.Port
	}
	s.ln = ln
	if !s.cronStarted {
		s.cronStarted = true
		go s.cron() // cron.go
	}
	if s.loop == nil && !s.NoEventLoop {
		s.loop = startEventLoop(s) // (eventloop_linux.go; nil elsewhere)
	}
	loop := s.loop
	s.mu.Unlock()
	for {
		nc, err := ln.Accept()
		if err != nil {
			s.mu.Lock()
			closed := s.closed
			s.mu.Unlock()
			if closed || errors.Is(err, net.ErrClosed) {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			return err
		}
		if s.refuseProtected(nc) {
			continue
		}
		inLoop := false
		if loop != nil {
			nc, inLoop = loop.add(nc)
		}
		cn := newNetConn(nc)
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			if inLoop {
				nc.(*fdConn).closeNow()
			} else {
				nc.Close()
			}
			continue
		}
		if s.conns == nil {
			s.conns = map[*netConn]struct{}{}
		}
		s.conns[cn] = struct{}{}
		s.mu.Unlock()
		c := s.accept(cn)
		if inLoop {
			loop.register(cn, c)
		} else {
			go s.serveConn(cn, c)
		}
	}
}

// Addr is the listening address (nil before Serve).
func (s *Server) Addr() net.Addr {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ln == nil {
		return nil
	}
	return s.ln.Addr()
}

// Close stops listening and closes every connection.
func (s *Server) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.loop != nil {
		s.loop.stop() // it ends the connections it serves (eventloop_linux.go)
	}
	for cn := range s.conns {
		cn.nc.Close() // its loop ends and forgets the client
	}
	for _, dc := range s.detached {
		// Only the socket: its reader fails and serveDetached, which owns the connection's
		// buffers, ends it.
		dc.NetConn().Close()
	}
	if s.ln != nil {
		return s.ln.Close()
	}
	return nil
}

// accept registers a new connection's client.
func (s *Server) accept(cn *netConn) *client {
	c := &client{conn: cn, addr: cn.addr, created: time.Now(), wake: make(chan engine.Result, 1), proto: 2}
	c.laddr = cn.nc.LocalAddr().String()
	s.mu.Lock()
	s.nextID++
	c.id = s.nextID
	s.clients[c.id] = c
	s.totalConns++
	s.syncUser(c)
	s.mu.Unlock()
	return c
}

// dropClient forgets a closed connection: its watched keys and its place among the blocked
// clients (s.mu is held).
func (s *Server) dropClient(c *client) {
	delete(s.clients, c.id)
	s.pubsubDrop(c)
	s.monitorDrop(c)
	s.disableTracking(c)
	s.stopPusher(c)
	if c.tx != nil {
		c.tx.ForgetPeer()
		c.tx.Close() // (a client of a replaced engine touches only that engine)
	}
	c.tx = nil
}

// runAll runs a pipeline under the engine lock. A panic outside Engine.Exec (which recovers its
// own) answers an error and closes the connection instead of killing the server. When a command
// blocks, the commands after it are kept in c.pending. cmds is not empty.
func (s *Server) runAll(c *client, cmds [][][]byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer c.lockWrite() // (pubsub.go: before s.mu is released)
	defer s.syncLimits()
	defer s.trackBroadcast(c)
	defer s.recoverRun(c)
	now := time.Now()
	if c.tx != nil && c.txEng == s.eng {
		s.eng.Prefetch(c.db, cmds) // (engine/db.go)
	}
	s.eng.ChainCalls(true) // (engine/calltime.go)
	defer s.eng.ChainCalls(false)
	s.run(c, cmds[0], now)
	rest := cmds[1:]
	for i := 0; i < len(rest) && !c.quit; i++ {
		if c.parked {
			for _, a := range rest[i:] { // (the connection's buffers are reused: loop.go)
				c.pending = append(c.pending, engine.CopyArgs(a))
			}
			return
		}
		s.run(c, rest[i], now)
	}
}

func (s *Server) recoverRun(c *client) {
	if p := recover(); p != nil {
		c.out = engine.Err(fmt.Sprintf("ERR redscope internal error: %v", p)).AppendRESP(c.out, c.proto)
		c.quit = true
	}
}

// run executes one command for c; s.mu is held. A command that blocks writes nothing: c.parked
// is set and its reply comes through c.wake.
func (s *Server) run(c *client, args [][]byte, now time.Time) {
	if len(args) == 0 {
		return
	}
	mark := len(c.out)
	s.trackBegin(c)
	s.run1(c, args, now)
	s.trackEnd(c, args)
	// CLIENT REPLY (networking.c, clientCommand and commandProcessed)
	if c.replyOff || c.replySkip || c.replyNone {
		c.out = c.out[:mark]
	}
	if len(c.keep) > 0 {
		c.out, c.keep = append(c.out, c.keep...), c.keep[:0]
	}
	if len(c.deferred) > 0 && !c.parked {
		c.out, c.deferred = append(c.out, c.deferred...), c.deferred[:0]
	}
	c.replyNone, c.replySkip = false, false
	if c.replySkipNext {
		c.replySkip, c.replySkipNext = true, false
	}
}

func (s *Server) run1(c *client, args [][]byte, now time.Time) {
	s.totalCommands++
	c.lastAt = now
	tx := s.txClient(c)
	s.cur = c
	// (The checks below are skipped when they cannot apply: each returns a whole Reply, and
	// their calls were a fifth of a plain command's cost in the server.)
	name := args[0]
	if n := len(name); n == 4 && name[0]|0x20 == 'q' || n == 5 && name[0]|0x20 == 'r' { // QUIT, RESET
		if r, handled := s.quitReset(c, tx, args); handled {
			c.out = r.AppendRESP(c.out, c.proto)
			s.feedFront(c, args, r)
			return
		}
	}
	c.lastCmd = s.intern(name)
	if !s.plainUser(c) {
		if r, refused := s.gate(c, tx, args); refused {
			if !c.quit {
				c.out = r.AppendRESP2(c.out)
			}
			return
		}
	}
	if c.monitor {
		if r, refused := s.monitorRefuse(c, tx, args); refused {
			c.out = r.AppendRESP(c.out, c.proto)
			return
		}
	}
	if c.ps != nil {
		if r, refused := s.pubsubRefuse(c, tx, args); refused {
			c.out = r.AppendRESP(c.out, c.proto)
			return
		}
	}
	if !tx.InMulti() && (c.ps != nil || len(name) >= 6 && len(name) <= 12) {
		if r, ok := subscribedPing(c, args); ok {
			c.out = r.AppendRESP(c.out, c.proto)
			s.feedFront(c, args, r)
			return
		}
		if r, written, ok := s.pubsubCommand(c, args); ok {
			if !written {
				c.out = r.AppendRESP(c.out, c.proto)
			}
			s.feedFront(c, args, r)
			return
		}
	}
	c.inExec = eqFold(args[0], "exec") && tx.InMulti()
	tx.SetPeer(c.addr, c.name) // what SLOWLOG GET shows of the client
	res := tx.Exec(args)       // (the transaction commands log themselves in the slow log)
	c.inExec = false
	s.countFrontEnd(args, res.Reply)
	if c.user.Deleted() {
		c.quit = true // ACL DELUSER closes the user's connections
	}
	c.db = tx.DB()
	if res.Blocked {
		c.parked = true
		return
	}
	c.out = res.Reply.AppendRESP(c.out, c.proto)
}

// txClient is c's engine client for the current engine: a new engine (SetEngine) gets a new
// client on the connection's database.
func (s *Server) txClient(c *client) *engine.Client {
	if c.txEng != s.eng || c.tx == nil {
		c.tx, c.txEng = s.eng.NewClient(), s.eng
		s.eng.SetInfoHost(s.infoHost)
		s.syncMonitor() // (monitor.go)
		if !c.tx.SetDB(c.db) {
			c.db = 0
		}
		c.tx.ID = c.id
		c.tx.Blocking = true
		wake := c.wake
		c.tx.OnWake = func(r engine.Result) {
			select {
			case wake <- r:
			default: // one reply per blocked command: never reached
			}
		}
		c.tx.FrontEndFor = func(name []byte) bool { return c.inExec || frontEndName(name) }
		c.tx.FrontEnd = func(args [][]byte, check bool) (engine.Reply, bool) {
			if check {
				return s.connCheck(args)
			}
			if c.inExec {
				if r, refused := s.execRecheck(c, args); refused {
					return r, true
				}
			}
			if !frontEndName(args[0]) {
				return engine.Reply{}, false
			}
			start := s.eng.SlowlogStart()
			r, ok := s.connCommand(c, args)
			if ok {
				s.feedFront(c, args, r) // (monitor.go)
			}
			if ok && !engine.RefusedBeforeCall(r) {
				c.tx.SetPeer(c.addr, c.name) // CLIENT SETNAME's own entry has the new name
				c.tx.SlowlogFrontEnd(args, start)
			}
			return r, ok
		}
	}
	return c.tx
}

// eqFold compares an argument with a lowercase ASCII keyword, ignoring case (engine.EqFold).
func eqFold(b []byte, lower string) bool { return engine.EqFold(b, lower) }

// intern returns the lowercase command name without allocating for names seen before.
func (s *Server) intern(name []byte) string {
	if c := s.cur; c != nil && len(c.lastCmd) == len(name) && eqFold(name, c.lastCmd) {
		return c.lastCmd // (a pipeline repeats its command)
	}
	var buf [32]byte
	if len(name) > len(buf) {
		return "NULL"
	}
	for i, x := range name {
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		buf[i] = x
	}
	if n, ok := s.names[string(buf[:len(name)])]; ok {
		return n
	}
	n := string(buf[:len(name)])
	if len(s.names) < 1024 {
		s.names[n] = n
	}
	return n
}
