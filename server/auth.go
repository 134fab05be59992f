package server

// Who may connect and run what (Redis 7.0's networking.c clientAcceptHandler, server.c
// processCommand, acl.c authCommand).
//
// A connection starts authenticated when the default user is nopass and on (createClient); it
// then runs as "default". While it is not authenticated every command but AUTH, HELLO, QUIT and
// RESET answers NOAUTH (and inside MULTI the refusal aborts the transaction, as any command
// refused while queueing). AUTH pass is AUTH default pass; AUTH user pass switches the connection's
// user; a wrong pair, an unknown or disabled user answers WRONGPASS. Every command then passes the
// user's ACL (engine/acl.go): NOPERM when the command or one of its keys is not allowed.
//
// Protected mode (clientAcceptHandler): while protected-mode is yes and the default user has no
// password, a client whose address is not 127.0.0.1 or ::1 gets the DENIED error and is closed
// before it can send anything. So `redscope resp --addr 0.0.0.0:6379` answers only local clients
// until a password is set (--requirepass or CONFIG SET requirepass).

import (
	"net"
	"strings"

	"redscope/engine"
)

var errNoAuth = engine.Err("NOAUTH Authentication required.")

// errHelloNoAuth is helloCommand's refusal of an unauthenticated HELLO without AUTH.
var errHelloNoAuth = engine.Err("NOAUTH HELLO must be called with the client already authenticated, otherwise the HELLO AUTH <user> <pass> option can be used to authenticate the client and select the RESP protocol version at the same time")

// deniedText is clientAcceptHandler's message to a remote client in protected mode.
const deniedText = "-DENIED Redis is running in protected mode because protected mode is enabled and no password is set for the default user. In this mode connections are only accepted from the loopback interface. If you want to connect from external computers to Redis you may adopt one of the following solutions: 1) Just disable protected mode sending the command 'CONFIG SET protected-mode no' from the loopback interface by connecting to Redis from the same host the server is running, however MAKE SURE Redis is not publicly accessible from internet if you do so. Use CONFIG REWRITE to make this change permanent. 2) Alternatively you can just disable the protected mode by editing the Redis configuration file, and setting the protected mode option to 'no', and then restarting the server. 3) If you started the server manually just for testing, restart it with the '--protected-mode no' option. 4) Setup a an authentication password for the default user. NOTE: You only need to do one of the above things in order for the server to start accepting connections from the outside.\r\n"

// protectedRefuses is the decision of clientAcceptHandler for a client at remote (s.mu held).
func protectedRefuses(e *engine.Engine, remote net.Addr) bool {
	if e.Config().Get("protected-mode") != "yes" || !e.ACL().Default().NoPass() {
		return false
	}
	return !isLocal(remote)
}

// isLocal is islocalClient: a unix socket, or the peer 127.0.0.1 or ::1 exactly.
func isLocal(a net.Addr) bool {
	switch a := a.(type) {
	case *net.UnixAddr:
		return true
	case *net.TCPAddr:
		ip := a.IP.String()
		return ip == "127.0.0.1" || ip == "::1"
	}
	return false
}

// refuseProtected writes the DENIED error to a new connection and closes it when protected mode
// refuses its peer; it reports whether it did.
func (s *Server) refuseProtected(nc net.Conn) bool {
	s.mu.Lock()
	deny := protectedRefuses(s.eng, nc.RemoteAddr())
	s.mu.Unlock()
	if !deny {
		return false
	}
	nc.Write([]byte(deniedText))
	nc.Close()
	return true
}

// syncUser gives c a user of the current engine: a new engine (SetEngine) has its own users,
// and the connection starts over as its default user.
func (s *Server) syncUser(c *client) {
	if c.userEng == s.eng && c.user != nil {
		return
	}
	acl := s.eng.ACL()
	c.user, c.userEng = acl.Default(), s.eng
	c.authed = !acl.AuthRequired()
}

// noAuthCommand: the commands an unauthenticated client may send (CMD_NO_AUTH).
func noAuthCommand(name []byte) bool {
	return eqFold(name, "auth") || eqFold(name, "hello") || eqFold(name, "quit") || eqFold(name, "reset")
}

// gate is processCommand's authentication and ACL checks, made after the existence and arity
// checks (a command that fails those is left to the engine, which answers its error). It
// reports the refusal, if any.
func (s *Server) gate(c *client, tx *engine.Client, args [][]byte) (engine.Reply, bool) {
	s.syncUser(c)
	if c.user.Deleted() {
		// ACL DELUSER closed the connection (ACLFreeUserAndKillClients): nothing is answered.
		c.quit = true
		return engine.Reply{}, true
	}
	acl := s.eng.ACL()
	acl.SetCurrent(c.user)
	if c.authed && c.user.Unrestricted() {
		return engine.Reply{}, false
	}
	if !tx.Check(args) {
		return engine.Reply{}, false
	}
	if !c.authed && !noAuthCommand(args[0]) {
		return reject(tx, args, errNoAuth), true
	}
	if r, ok := acl.Check(c.user, args); !ok {
		return reject(tx, args, r), true
	}
	return engine.Reply{}, false
}

// plainUser is gate's first case, without its call: an authenticated client whose user is
// unrestricted and still exists (the engine's ACL is told who runs the command).
func (s *Server) plainUser(c *client) bool {
	if c.userEng != s.eng || c.user == nil || !c.authed || !c.user.Unrestricted() || c.user.Deleted() {
		return false
	}
	s.eng.ACL().SetCurrent(c.user)
	return true
}

// reject is rejectCommand: inside MULTI the transaction is flagged, and a refused EXEC discards
// it and answers EXECABORT with the reason (execCommandAbort).
func reject(tx *engine.Client, args [][]byte, r engine.Reply) engine.Reply {
	tx.Engine().CountCommand(fullName(args), r, true)
	if eqFold(args[0], "exec") {
		tx.Abort()
		return engine.Err("EXECABORT Transaction discarded because of: " + r.Str)
	}
	tx.Reject()
	return r
}

// authCmd is AUTH [user] pass.
func (s *Server) authCmd(c *client, args [][]byte) engine.Reply {
	switch len(args) {
	case 2:
		if s.eng.ACL().Default().NoPass() {
			return errNoPass
		}
		return s.authUserPass(c, []byte("default"), args[1])
	case 3:
		return s.authUserPass(c, args[1], args[2])
	case 1:
		return arityErr("auth")
	}
	return engine.ErrSyntax
}

// authUserPass is ACLAuthenticateUser: on success the connection is authenticated as user.
func (s *Server) authUserPass(c *client, user, pass []byte) engine.Reply {
	s.syncUser(c)
	u := s.eng.ACL().Authenticate(user, pass)
	if u == nil {
		return errWrongPass
	}
	c.user, c.authed = u, true
	s.eng.ACL().SetCurrent(u)
	return engine.OK
}

// helloAuthCheck is helloCommand's "need to be authenticated to continue".
func (s *Server) helloAuthCheck(c *client) (engine.Reply, bool) {
	s.syncUser(c)
	if !c.authed {
		return errHelloNoAuth, false
	}
	return engine.Reply{}, true
}

// fullName is the command's name for INFO commandstats: "client|list" for a subcommand of the
// commands with subcommands, the lowercase name else.
func fullName(args [][]byte) string {
	n := strings.ToLower(string(args[0]))
	if len(args) > 1 && (n == "client" || n == "config" || n == "acl" || n == "object" || n == "memory" ||
		n == "command" || n == "cluster" || n == "function" || n == "script" || n == "xinfo" || n == "xgroup") {
		n += "|" + strings.ToLower(string(args[1]))
	}
	return n
}

// countFrontEnd counts for INFO the commands the engine's dispatch does not see: those this
// server answers (HELLO, AUTH, CLIENT …) and the transaction commands (engine.Client's).
func (s *Server) countFrontEnd(args [][]byte, r engine.Reply) {
	n := args[0]
	if len(n) < 4 || len(n) > 7 {
		return
	}
	if eqFold(n, "hello") || eqFold(n, "auth") || eqFold(n, "client") || eqFold(n, "multi") || eqFold(n, "exec") ||
		eqFold(n, "discard") || eqFold(n, "watch") || eqFold(n, "unwatch") {
		if r.Kind == engine.KindStatus && r.Str == "QUEUED" {
			return
		}
		s.eng.CountCommand(fullName(args), r, false)
	}
}

// execRecheck is execCommand's second ACL check of each queued command, in case the rules
// changed since it was queued: the command is not run and its reply is this NOPERM.
func (s *Server) execRecheck(c *client, args [][]byte) (engine.Reply, bool) {
	if c.user.Unrestricted() {
		return engine.Reply{}, false
	}
	cmd, _, ok := s.eng.ACL().Permit(c.user, args)
	if ok {
		return engine.Reply{}, false
	}
	reason := "no permission to touch the specified keys"
	if cmd != "" {
		reason = "no permission to execute the command or subcommand"
	}
	r := engine.Err("NOPERM ACLs rules changed between the moment the transaction was accumulated and the EXEC call. This command is no longer allowed for the following reason: " + reason)
	s.eng.CountCommand("", r, true) // an error reply, no call
	return r, true
}
