// Package server speaks RESP2 for one engine.Engine, so redis-cli, redis-benchmark and client
// libraries (go-redis, …) can talk to redscope as if it were a redis-server.
//
// Commands run one at a time: one mutex guards the engine. Each connection has its own selected
// database, which is made current in the engine before each of its commands. Connection-level
// commands (HELLO, CLIENT, AUTH, QUIT, RESET, INFO) are answered here with Redis 7's texts; every
// other command goes to Engine.Exec and its reply is written with Reply.AppendRESP2.
package server

import (
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/tidwall/redcon"

	"redscope/engine"
)

// Server is a RESP2 server for one engine.
type Server struct {
	mu      sync.Mutex // guards eng and everything below
	eng     *engine.Engine
	clients map[int64]*client
	nextID  int64
	started time.Time
	runID   string
	port    int

	names         map[string]string // interned lowercase command names (CLIENT LIST cmd=)
	totalConns    int64
	totalCommands int64

	rs     *redcon.Server
	ln     net.Listener
	closed bool
}

// client is one connection's state.
type client struct {
	id      int64
	conn    redcon.Conn
	addr    string
	laddr   string
	name    string
	libName string
	libVer  string
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
}

// New makes a server for e. e should use real time (engine.WallClock{}).
func New(e *engine.Engine) *Server {
	s := &Server{eng: e, clients: map[int64]*client{}, started: time.Now(), names: map[string]string{}}
	s.runID = makeRunID()
	return s
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

// Serve serves connections from ln until Close.
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
	s.rs = redcon.NewServerNetwork(ln.Addr().Network(), ln.Addr().String(), s.handle, s.accept, s.closedConn)
	rs := s.rs
	s.mu.Unlock()
	return rs.Serve(ln)
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
	s.closed = true
	rs := s.rs
	s.mu.Unlock()
	if rs != nil {
		return rs.Close()
	}
	return nil
}

func (s *Server) accept(conn redcon.Conn) bool {
	c := &client{conn: conn, addr: conn.RemoteAddr(), created: time.Now()}
	if nc := conn.NetConn(); nc != nil {
		c.laddr = nc.LocalAddr().String()
	}
	s.mu.Lock()
	s.nextID++
	c.id = s.nextID
	s.clients[c.id] = c
	s.totalConns++
	s.mu.Unlock()
	conn.SetContext(c)
	return true
}

func (s *Server) closedConn(conn redcon.Conn, err error) {
	c, ok := conn.Context().(*client)
	if !ok {
		return
	}
	s.mu.Lock()
	delete(s.clients, c.id)
	if c.tx != nil && c.txEng == s.eng {
		c.tx.Close() // its watched keys
	}
	c.tx = nil
	s.mu.Unlock()
}

// handle runs cmd and every other command already read from the same pipeline under one
// acquisition of the engine lock, then hands the replies to redcon, which flushes them.
func (s *Server) handle(conn redcon.Conn, cmd redcon.Command) {
	c, ok := conn.Context().(*client)
	if !ok {
		return
	}
	if s.scriptBusy(conn, cmd.Args) { // script_busy.go: BUSY and SCRIPT KILL while a script runs
		return
	}
	rest := conn.ReadPipeline()
	c.out = c.out[:0]
	s.runAll(c, cmd.Args, rest)
	conn.WriteRaw(c.out)
	if cap(c.out) > 1<<20 {
		c.out = nil
	}
	if c.quit {
		conn.Close()
	}
}

// runAll runs a pipeline under the engine lock. A panic outside Engine.Exec (which recovers its
// own) answers an error and closes the connection instead of killing the server.
func (s *Server) runAll(c *client, first [][]byte, rest []redcon.Command) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer func() {
		if p := recover(); p != nil {
			c.out = engine.Err(fmt.Sprintf("ERR redscope internal error: %v", p)).AppendRESP2(c.out)
			c.quit = true
		}
	}()
	now := time.Now()
	s.run(c, first, now)
	for i := 0; i < len(rest) && !c.quit; i++ {
		s.run(c, rest[i].Args, now)
	}
}

// run executes one command for c; s.mu is held.
func (s *Server) run(c *client, args [][]byte, now time.Time) {
	if len(args) == 0 {
		return
	}
	s.totalCommands++
	c.lastAt = now
	tx := s.txClient(c)
	if r, handled := s.quitReset(c, tx, args); handled {
		c.out = r.AppendRESP2(c.out)
		return
	}
	c.lastCmd = s.intern(args[0])
	res := tx.Exec(args)
	c.db = tx.DB()
	c.out = res.Reply.AppendRESP2(c.out)
}

// txClient is c's engine client for the current engine: a new engine (SetEngine) gets a new
// client on the connection's database.
func (s *Server) txClient(c *client) *engine.Client {
	if c.txEng != s.eng || c.tx == nil {
		c.tx, c.txEng = s.eng.NewClient(), s.eng
		if !c.tx.SetDB(c.db) {
			c.db = 0
		}
		c.tx.FrontEnd = func(args [][]byte, check bool) (engine.Reply, bool) {
			if check {
				return s.connCheck(args)
			}
			return s.connCommand(c, args)
		}
	}
	return c.tx
}

func eqFold(b []byte, lower string) bool {
	if len(b) != len(lower) {
		return false
	}
	for i := 0; i < len(b); i++ {
		x := b[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if x != lower[i] {
			return false
		}
	}
	return true
}

// intern returns the lowercase command name without allocating for names seen before.
func (s *Server) intern(name []byte) string {
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
