package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"sort"
	"strings"
	"sync"
)

// ACL users: who may run which command on which keys (Redis's acl.c, 7.0.15 and 7.4.1).
//
// A server starts with one user, "default": on, nopass, ~* &* +@all. `CONFIG SET requirepass p`
// is ACLUpdateDefaultUserPassword: resetpass, then >p (or nopass when p is empty). A user made by
// `ACL SETUSER alice` is off, with no password, no keys, no channels (acl-pubsub-default is
// resetchannels) and -@all; the rules then apply left to right on a copy, and only if every one
// is valid the copy replaces the user (ACLStringSetUser).
//
// Commands are allowed per full name ("get", "config|set"): Redis's bitmap of command ids, here a
// set of names. +@cat allows every command and subcommand whose ACL categories (the command
// table's, see commandCategories) include cat; +cmd allows cmd and, for a container, all its
// subcommands; +cmd|sub one subcommand; +cmd|arg (cmd without subcommands) one first argument.
// allFuture is Redis's reserved "future commands" bit, set by +@all only: it decides whether ACL
// LIST describes the user from +@all (subtracting) or from -@all (adding), with the best-fit
// category search of ACLDescribeSelectorCommandRules.
//
// Passwords are kept as SHA-256 hex (64 characters), as ACL GETUSER and ACL LIST show them.
// Selectors (rules in parentheses) are not modelled: SETUSER refuses them with Redis's syntax
// error. Which user a connection is authenticated as belongs to the RESP server (server/auth.go);
// the engine answers ACL WHOAMI with the user the layer above set (SetACLUser), "default" in the
// browser.

// ACLUser is one user.
type ACLUser struct {
	Name      string
	enabled   bool
	nopass    bool
	sanitize  int // 0 none, 1 sanitize-payload, 2 skip-sanitize-payload
	passwords []string
	allCmds   bool // SELECTOR_FLAG_ALLCOMMANDS: no per-command test
	allFuture bool
	allowed   map[string]bool
	firstArgs map[string][]string
	allKeys   bool
	keys      []aclKeyPattern
	allChans  bool
	chans     []string
	deleted   bool
}

type aclKeyPattern struct {
	pat   string
	flags int // aclRead | aclWrite
}

const (
	aclRead  = 1
	aclWrite = 2
)

// ACL is the user table.
type ACL struct {
	e       *Engine
	users   map[string]*ACLUser
	current *ACLUser // the user of the command being run (SetACLUser)
}

func newACL(e *Engine) *ACL {
	a := &ACL{e: e, users: map[string]*ACLUser{}}
	d := &ACLUser{Name: "default", allowed: map[string]bool{}}
	d.allCmds, d.allFuture, d.allKeys, d.allChans, d.enabled, d.nopass = true, true, true, true, true, true
	a.users["default"] = d
	a.current = d
	return a
}

func (a *ACL) newUser(name string) *ACLUser {
	return &ACLUser{Name: name, allowed: map[string]bool{}, allChans: a.e.cfg.Get("acl-pubsub-default") == "allchannels"}
}

// ACL gives the engine's user table.
func (e *Engine) ACL() *ACL { return e.cfg.acl }

// User finds a user by exact name.
func (a *ACL) User(name string) *ACLUser { return a.users[name] }

// Default is the default user.
func (a *ACL) Default() *ACLUser { return a.users["default"] }

// SetCurrent names the user the next commands run as (ACL WHOAMI; nil: default).
func (a *ACL) SetCurrent(u *ACLUser) {
	if u == nil {
		u = a.Default()
	}
	a.current = u
}

// Deleted reports whether ACL DELUSER removed the user (its connections are closed).
func (u *ACLUser) Deleted() bool { return u.deleted }

// NoPass reports whether any password opens the user.
func (u *ACLUser) NoPass() bool { return u.nopass }

// Enabled reports whether the user is "on".
func (u *ACLUser) Enabled() bool { return u.enabled }

// Unrestricted reports whether the user may run every command on every key (the fast path).
func (u *ACLUser) Unrestricted() bool { return u.allCmds && u.allKeys && u.allChans }

// AuthRequired is authRequired for a connection not yet authenticated: the default user has a
// password or is off.
func (a *ACL) AuthRequired() bool {
	d := a.Default()
	return !d.nopass || !d.enabled
}

// Authenticate is ACLCheckUserCredentials: the user exists, is on, and nopass or one of its
// passwords matches.
func (a *ACL) Authenticate(user, pass []byte) *ACLUser {
	u := a.users[string(user)]
	if u == nil || !u.enabled {
		return nil
	}
	if u.nopass {
		return u
	}
	h := hashPassword(pass)
	for _, p := range u.passwords {
		if p == h {
			return u
		}
	}
	return nil
}

func hashPassword(p []byte) string {
	s := sha256.Sum256(p)
	return hex.EncodeToString(s[:])
}

// setDefaultPassword is ACLUpdateDefaultUserPassword (CONFIG SET requirepass).
func (a *ACL) setDefaultPassword(p string) {
	d := a.Default()
	d.nopass, d.passwords = false, nil
	if p == "" {
		d.nopass = true
		return
	}
	d.passwords = []string{hashPassword([]byte(p))}
}

// materialize fills the allowed set of a user made with +@all (the default user keeps it empty
// until a rule or a description needs it).
func (a *ACL) materialize(u *ACLUser) {
	if u.allCmds && len(u.allowed) == 0 {
		for _, c := range a.aclCommands() {
			u.allowed[c.name] = true
		}
	}
}

func (u *ACLUser) clone() *ACLUser {
	c := *u
	c.passwords = append([]string(nil), u.passwords...)
	c.allowed = make(map[string]bool, len(u.allowed))
	for k, v := range u.allowed {
		c.allowed[k] = v
	}
	c.firstArgs = map[string][]string{}
	for k, v := range u.firstArgs {
		c.firstArgs[k] = append([]string(nil), v...)
	}
	c.keys = append([]aclKeyPattern(nil), u.keys...)
	c.chans = append([]string(nil), u.chans...)
	return &c
}

// ---- the command universe ----

// frontEndCommands are the connection commands the RESP server answers (server/conn.go), with
// their ACL categories from Redis's command table, so rules and ACL CAT see them.
var frontEndCommands = []struct {
	name, cats string
	noAuth     bool
}{
	{"auth", "@fast @connection", true},
	{"hello", "@fast @connection", true},
	{"info", "@slow @dangerous", false},
	{"quit", "@fast @connection", true},
	{"reset", "@fast @connection", true},
	{"client", "", false},
	{"client|getname", "@slow @connection", false},
	{"client|id", "@slow @connection", false},
	{"client|info", "@slow @connection", false},
	{"client|list", "@admin @slow @dangerous @connection", false},
	{"client|setname", "@slow @connection", false},
	{"client|help", "@slow @connection", false},
	{"client|unblock", "@admin @slow @dangerous @connection", false},
}

// aclCommand is one entry of the universe: a full name, its categories and its container's
// subcommands.
type aclCommand struct {
	name string
	cats map[string]bool
	subs []string
	cmd  *Command
}

// aclUniverse caches aclCommands per profile (the command table is fixed after init).
var aclUniverse sync.Map // Version → []aclCommand

// aclCommands lists every command and subcommand of the profile, in name order.
func (a *ACL) aclCommands() []aclCommand {
	if v, ok := aclUniverse.Load(a.e.ver); ok {
		return v.([]aclCommand)
	}
	out := a.buildCommands()
	aclUniverse.Store(a.e.ver, out)
	return out
}

func (a *ACL) buildCommands() []aclCommand {
	var out []aclCommand
	catSet := func(list []string) map[string]bool {
		m := map[string]bool{}
		for _, c := range list {
			m[strings.TrimPrefix(c, "@")] = true
		}
		return m
	}
	for _, c := range a.e.Commands() {
		subs := a.e.subcommands(c)
		ac := aclCommand{name: c.Name, cmd: c}
		if len(subs) == 0 {
			ac.cats = catSet(commandCategories(c))
		} else {
			ac.cats = map[string]bool{}
		}
		for _, s := range subs {
			ac.subs = append(ac.subs, s.FullName())
		}
		out = append(out, ac)
		for _, s := range subs {
			out = append(out, aclCommand{name: s.FullName(), cats: catSet(commandCategories(s)), cmd: s})
		}
	}
	for _, f := range frontEndCommands {
		out = append(out, aclCommand{name: f.name, cats: catSet(strings.Fields(f.cats))})
		if parent, _, ok := strings.Cut(f.name, "|"); ok {
			for i := range out {
				if out[i].name == parent {
					out[i].subs = append(out[i].subs, f.name)
				}
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

func (a *ACL) lookupACLCommand(name string) *aclCommand {
	name = strings.ToLower(name)
	for _, c := range a.aclCommands() {
		if c.name == name {
			c := c
			return &c
		}
	}
	return nil
}

func validCategory(cat string) bool {
	cat = strings.ToLower(cat)
	for _, c := range aclCategories {
		if c == cat {
			return true
		}
	}
	return false
}

// changePerm is ACLChangeSelectorPerm.
func (u *ACLUser) changePerm(c *aclCommand, allow bool) {
	u.setBit(c.name, allow)
	delete(u.firstArgs, c.name)
	for _, s := range c.subs {
		u.setBit(s, allow)
	}
}

func (u *ACLUser) setBit(name string, allow bool) {
	if allow {
		u.allowed[name] = true
	} else {
		delete(u.allowed, name)
		u.allCmds = false
	}
}

// setCategory is ACLSetSelectorCommandBitsForCategory.
func (a *ACL) setCategory(u *ACLUser, cat string, allow bool) {
	for _, c := range a.aclCommands() {
		if c.cats[cat] {
			c := c
			u.changePerm(&c, allow)
		}
	}
}

func validHash(h string) bool {
	if len(h) != 64 {
		return false
	}
	for _, c := range h {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// apply is ACLSetUser for one rule ("" on success, else the error of ACLSetUserStringError).
func (a *ACL) apply(u *ACLUser, op string) string {
	if op == "" {
		return ""
	}
	switch strings.ToLower(op) {
	case "on":
		u.enabled = true
	case "off":
		u.enabled = false
	case "skip-sanitize-payload":
		u.sanitize = 2
	case "sanitize-payload":
		u.sanitize = 1
	case "nopass":
		u.nopass, u.passwords = true, nil
	case "resetpass":
		u.nopass, u.passwords = false, nil
	case "reset": // the rules ACLSetUser's "reset" applies in turn
		for _, r := range []string{"resetpass", "resetkeys", "resetchannels", "off", "sanitize-payload", "clearselectors", "-@all"} {
			a.apply(u, r)
		}
		u.allChans = a.e.cfg.Get("acl-pubsub-default") == "allchannels"
	case "clearselectors": // selectors are not modelled
	case "allkeys", "~*":
		u.allKeys, u.keys = true, nil
	case "resetkeys":
		u.allKeys, u.keys = false, nil
	case "allchannels", "&*":
		u.allChans, u.chans = true, nil
	case "resetchannels":
		u.allChans, u.chans = false, nil
	case "allcommands", "+@all":
		u.allowed = map[string]bool{}
		for _, c := range a.aclCommands() {
			u.allowed[c.name] = true
		}
		u.allCmds, u.allFuture, u.firstArgs = true, true, nil
	case "nocommands", "-@all":
		u.allowed, u.allCmds, u.allFuture, u.firstArgs = map[string]bool{}, false, false, nil
	default:
		return a.applyPrefixed(u, op)
	}
	return ""
}

// applyPrefixed is ACLSetUser for the rules named by their first character: passwords and
// hashes (> # < !), key and channel patterns (~ % &), commands and categories (+ -).
func (a *ACL) applyPrefixed(u *ACLUser, op string) string {
	switch op[0] {
	case '>', '#', '<', '!':
		// >pass and <pass hash the clear text; #hash and !hash give the hash itself.
		h := op[1:]
		if op[0] == '>' || op[0] == '<' {
			h = hashPassword([]byte(op[1:]))
		} else if !validHash(h) {
			return aclErrHash
		}
		i := slices.Index(u.passwords, h)
		switch {
		case op[0] == '>' || op[0] == '#':
			if i < 0 {
				u.passwords = append(u.passwords, h)
			}
			u.nopass = false
		case i < 0:
			return aclErrNoPass
		default:
			u.passwords = append(u.passwords[:i], u.passwords[i+1:]...)
		}
		return ""
	case '(':
		return aclErrSyntax // selectors are not modelled
	case '~', '%':
		if u.allKeys {
			return aclErrKeysAll
		}
		flags, off := aclRead|aclWrite, 1
		if op[0] == '%' {
			flags = 0
			ok := false
			for ; off < len(op); off++ {
				ch := op[off] | 0x20
				if ch == 'r' && flags&aclRead == 0 {
					flags |= aclRead
				} else if ch == 'w' && flags&aclWrite == 0 {
					flags |= aclWrite
				} else if op[off] == '~' {
					off++
					ok = true
					break
				} else {
					return aclErrSyntax
				}
			}
			if !ok || flags == 0 {
				return aclErrSyntax
			}
		}
		pat := op[off:]
		if strings.ContainsAny(pat, " \x00") {
			return aclErrSyntax
		}
		for i := range u.keys {
			if u.keys[i].pat == pat {
				u.keys[i].flags |= flags
				return ""
			}
		}
		u.keys = append(u.keys, aclKeyPattern{pat, flags})
		return ""
	case '&':
		if u.allChans {
			return aclErrChansAll
		}
		pat := op[1:]
		if strings.ContainsAny(pat, " \x00") {
			return aclErrSyntax
		}
		if !slices.Contains(u.chans, pat) {
			u.chans = append(u.chans, pat)
		}
		return ""
	case '+', '-':
		allow := op[0] == '+'
		if len(op) > 1 && op[1] == '@' {
			cat := strings.ToLower(op[2:])
			if !validCategory(cat) {
				return aclErrUnknown
			}
			a.setCategory(u, cat, allow)
			return ""
		}
		name := op[1:]
		if allow && strings.Contains(name, "|") {
			i := strings.LastIndexByte(name, '|')
			parent, sub := name[:i], name[i+1:]
			pc := a.lookupACLCommand(parent)
			if pc == nil {
				return aclErrUnknown
			}
			if strings.Contains(pc.name, "|") {
				return aclErrChild
			}
			if sub == "" {
				return aclErrSyntax
			}
			if len(pc.subs) > 0 {
				c := a.lookupACLCommand(name)
				if c == nil {
					return aclErrUnknown
				}
				u.changePerm(c, true)
				return ""
			}
			if u.firstArgs == nil {
				u.firstArgs = map[string][]string{}
			}
			if !slices.Contains(u.firstArgs[pc.name], strings.ToLower(sub)) {
				u.firstArgs[pc.name] = append(u.firstArgs[pc.name], strings.ToLower(sub))
			}
			return ""
		}
		c := a.lookupACLCommand(name)
		if c == nil {
			return aclErrUnknown
		}
		u.changePerm(c, allow)
		return ""
	}
	return aclErrSyntax
}

// SetUser is ACL SETUSER's work: the rules applied to a copy, which replaces (or creates) the
// user only when all are valid. The error is the reply text without "ERR ".
func (a *ACL) SetUser(name string, rules []string) string {
	u := a.users[name]
	var tmp *ACLUser
	if u != nil {
		a.materialize(u)
		tmp = u.clone()
	} else {
		tmp = a.newUser(name)
	}
	for _, r := range rules {
		if msg := a.apply(tmp, r); msg != "" {
			return "Error in ACL SETUSER modifier '" + r + "': " + msg
		}
	}
	if u == nil {
		a.users[name] = tmp
		return ""
	}
	deleted := u.deleted
	*u = *tmp
	u.deleted = deleted
	return ""
}

// ---- checking a command ----

// Check is ACLCheckAllUserCommandPerm for u running args (whose command exists and whose arity
// was checked): the NOPERM reply and false when refused.
func (a *ACL) Check(u *ACLUser, args [][]byte) (Reply, bool) {
	cmd, key, ok := a.permit(u, args)
	if ok {
		return Reply{}, true
	}
	return a.noPerm(u, cmd, key), false
}

// Permit is the check itself: on refusal the command's full name (command denied) or the key
// denied.
func (a *ACL) Permit(u *ACLUser, args [][]byte) (deniedCmd, deniedKey string, ok bool) {
	return a.permit(u, args)
}

func (a *ACL) permit(u *ACLUser, args [][]byte) (deniedCmd, deniedKey string, ok bool) {
	if u == nil || u.Unrestricted() || len(args) == 0 {
		return "", "", true
	}
	name := strings.ToLower(string(args[0]))
	var cmd *Command
	noAuth := false
	if c := lookupCommand(args[0]); c != nil && a.e.ver.Has(c.Since) {
		cmd = c
		if c.Sub != nil && len(args) >= 2 {
			if s := c.Sub[strings.ToLower(string(args[1]))]; s != nil {
				cmd = s
				name = s.FullName()
			}
		}
	} else {
		for _, f := range frontEndCommands {
			if f.name == name {
				noAuth = f.noAuth
			}
		}
		if name == "client" && len(args) >= 2 {
			name += "|" + strings.ToLower(string(args[1]))
		}
	}
	if !u.allCmds && !noAuth && !u.allowed[name] {
		allowed := false
		parent, _, isSub := strings.Cut(name, "|")
		if fa := u.firstArgs[parent]; fa != nil && len(args) > 1 && !isSub {
			for _, x := range fa {
				if eqFold(args[1], x) {
					allowed = true
				}
			}
		}
		if !allowed {
			return name, "", false
		}
	}
	if !u.allKeys && cmd != nil && cmd.hasKeys() {
		refs, err := a.e.CommandKeyRefs(args)
		if err == nil {
			for _, r := range refs {
				if !u.keyAllowed(args[r.Arg], r.Flags) {
					return "", string(args[r.Arg]), false
				}
			}
		}
	}
	return "", "", true
}

// keyAllowed is ACLSelectorCheckKey.
func (u *ACLUser) keyAllowed(key []byte, specFlags string) bool {
	need := 0
	for _, f := range strings.Fields(specFlags) {
		switch f {
		case "access":
			need |= aclRead
		case "insert", "delete", "update":
			need |= aclWrite
		}
	}
	for _, p := range u.keys {
		if p.flags&need != need {
			continue
		}
		if stringMatch([]byte(p.pat), key, false) {
			return true
		}
	}
	return false
}

// noPerm is the NOPERM text: 7.0's processCommand, or getAclErrorMessage (7.2+, not verbose).
func (a *ACL) noPerm(u *ACLUser, cmd, key string) Reply {
	if !a.e.ver.Has(V72) {
		if cmd != "" {
			return Err("NOPERM this user has no permissions to run the '" + cmd + "' command")
		}
		return Err("NOPERM this user has no permissions to access one of the keys used as arguments")
	}
	if cmd != "" {
		return Err("NOPERM User " + u.Name + " has no permissions to run the '" + cmd + "' command")
	}
	return Err("NOPERM No permissions to access a key")
}

// ---- describing a user ----

// describeCommands is ACLDescribeSelectorCommandRules: +@all or -@all, then the categories that
// best fit the difference, then single commands (in name order: Redis's hash-table order).
func (a *ACL) describeCommands(u *ACLUser) string {
	a.materialize(u)
	cmds := a.aclCommands()
	additive := !u.allFuture
	var rules []string
	fake := map[string]bool{}
	if additive {
		rules = append(rules, "-@all")
	} else {
		rules = append(rules, "+@all")
		for _, c := range cmds {
			fake[c.name] = true
		}
	}
	temp := map[string]bool{}
	for k, v := range u.allowed {
		temp[k] = v
	}
	applyCat := func(m map[string]bool, cat string, allow bool) {
		for _, c := range cmds {
			if c.cats[cat] {
				m[c.name] = allow
				for _, s := range c.subs {
					m[s] = allow
				}
			}
		}
	}
	applied := map[string]bool{}
	for {
		best, mindiff, maxsame := "", int(^uint(0)>>1), 0
		for _, cat := range aclCategories {
			if applied[cat] {
				continue
			}
			on, off := 0, 0
			for _, c := range cmds {
				if c.cats[cat] {
					if temp[c.name] {
						on++
					} else {
						off++
					}
				}
			}
			diff, same := off, on
			if !additive {
				diff, same = on, off
			}
			if same > diff && (diff < mindiff || diff == mindiff && same > maxsame) {
				best, mindiff, maxsame = cat, diff, same
			}
		}
		if best == "" {
			break
		}
		if additive {
			rules = append(rules, "+@"+best)
		} else {
			rules = append(rules, "-@"+best)
		}
		applyCat(fake, best, additive)
		applyCat(temp, best, !additive)
		applied[best] = true
	}
	for _, c := range cmds {
		ub, fb := u.allowed[c.name], fake[c.name]
		if ub != fb {
			if ub {
				rules = append(rules, "+"+c.name)
			} else {
				rules = append(rules, "-"+c.name)
			}
			fake[c.name] = ub
			for _, s := range c.subs {
				fake[s] = ub
			}
		}
		if !ub && !strings.Contains(c.name, "|") {
			for _, fa := range u.firstArgs[c.name] {
				rules = append(rules, "+"+c.name+"|"+fa)
			}
		}
	}
	return strings.Join(rules, " ")
}

func (u *ACLUser) keyPatterns() []string {
	var out []string
	for _, p := range u.keys {
		switch p.flags {
		case aclRead | aclWrite:
			out = append(out, "~"+p.pat)
		case aclRead:
			out = append(out, "%R~"+p.pat)
		default:
			out = append(out, "%W~"+p.pat)
		}
	}
	return out
}

func (u *ACLUser) flagNames() []string {
	var out []string
	if u.enabled {
		out = append(out, "on")
	} else {
		out = append(out, "off")
	}
	if u.nopass {
		out = append(out, "nopass")
	}
	switch u.sanitize {
	case 2:
		out = append(out, "skip-sanitize-payload")
	case 1:
		out = append(out, "sanitize-payload")
	}
	return out
}

// describe is ACLDescribeUser (ACL LIST's line after "user name ").
func (a *ACL) describe(u *ACLUser) string {
	parts := u.flagNames()
	for _, p := range u.passwords {
		parts = append(parts, "#"+p)
	}
	if u.allKeys {
		parts = append(parts, "~*")
	} else {
		parts = append(parts, u.keyPatterns()...)
	}
	if u.allChans {
		parts = append(parts, "&*")
	} else {
		parts = append(parts, "resetchannels")
		for _, c := range u.chans {
			parts = append(parts, "&"+c)
		}
	}
	parts = append(parts, a.describeCommands(u))
	return strings.Join(parts, " ")
}

// names lists the users in name order (Redis's rax order).
func (a *ACL) names() []string {
	var out []string
	for n := range a.users {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Check is the existence and arity check processCommand makes before the ACL checks (the
// connection commands through the FrontEnd): false when the command would be refused anyway.
func (c *Client) Check(args [][]byte) bool {
	_, ok := c.check(args)
	return ok
}

// Reject marks the transaction as failed when a command is refused while queueing
// (rejectCommand's flagTransaction): EXEC then answers EXECABORT.
func (c *Client) Reject() {
	if c.multi {
		c.dirtyTx = true
	}
}

// Abort is execCommandAbort's discardTransaction: a refused EXEC drops the queue and the
// watched keys.
func (c *Client) Abort() { c.discard() }

// Engine is the engine the client runs on.
func (c *Client) Engine() *Engine { return c.e }

// scriptACL is scriptVerifyACL: the error of a command a script may not run as the user of the
// calling connection ("" when allowed). 7.0 words it with its getAclErrorMessage, 7.2+ as
// "ACL failure in script: " and the NOPERM text.
func (e *Engine) scriptACL(argv [][]byte) string {
	a := e.cfg.acl
	u := a.current
	if u == nil || u.Unrestricted() {
		return ""
	}
	cmd, _, ok := a.permit(u, argv)
	if ok {
		return ""
	}
	if e.ver.Has(V72) {
		msg := a.noPerm(u, cmd, "x").Str
		return "ACL failure in script: " + strings.TrimPrefix(msg, "NOPERM ")
	}
	if cmd != "" {
		return "The user executing the script can't run this command or subcommand"
	}
	return "The user executing the script can't access at least one of the keys mentioned in the command arguments"
}
