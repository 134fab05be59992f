package engine

// maxmemory refusals (processCommand of Redis 7.4.1's server.c, "Handle the maxmemory
// directive", with performEvictions of evict.c under the noeviction policy).
//
// When maxmemory is set and the memory in use is above it, a command flagged denyoom (SET,
// LPUSH, SADD…) is refused with
//
//	-OOM command not allowed when used memory > 'maxmemory'.
//
// after the existence and arity checks and before the command runs or is queued (7.0 and 7.2
// refuse every command sent inside MULTI but EXEC and DISCARD: multiOOM); inside MULTI the
// refusal flags the transaction (EXEC answers EXECABORT … previous errors). EXEC itself is
// denyoom when one of its queued commands is (the mstate's accumulated flags), so a transaction
// that would use memory is refused at EXEC with "EXECABORT Transaction discarded because of: OOM
// …" and discarded, while one of reads runs. The memory in use is INFO's used_memory (the
// startup figure plus every key's MEMORY USAGE: info.go), counted only for a denyoom command.
// Eviction is not simulated: under a policy other than noeviction nothing is refused (the
// command runs as if the eviction had made room).

// outOfMemory reports whether a denyoom command would be refused now.
func (e *Engine) outOfMemory() bool {
	limit := e.cfg.hot.maxmemory
	if limit <= 0 || e.cfg.Get("maxmemory-policy") != "noeviction" {
		return false
	}
	if limit < infoStartupMemory {
		return true // the empty server is already above it
	}
	used, _ := e.infoMemory()
	return used > limit
}

// denyOOM is the command args names (a subcommand itself) when it is flagged denyoom.
func denyOOM(args [][]byte) *Command {
	c := lookupCommand(args[0])
	if c != nil && c.Sub != nil && len(args) >= 2 {
		c = c.Sub[lowerASCII(args[1])]
	}
	if c == nil || c.Flags&FlagDenyOOM == 0 {
		return nil
	}
	return c
}

// oomRefused is processCommand's maxmemory test for a command outside MULTI or being queued
// (args has passed the existence and arity checks): the OOM error, counted as a rejected call,
// or false.
func (e *Engine) oomRefused(args [][]byte) (Reply, bool) {
	if len(args) == 0 || e.cfg.hot.maxmemory <= 0 {
		return Reply{}, false
	}
	c := denyOOM(args)
	if c == nil || !e.outOfMemory() {
		return Reply{}, false
	}
	return e.cfg.stats.rejected(c.FullName(), errOOM), true
}

// multiOOM is the older rule for a command sent inside MULTI (7.0 and 7.2, until "Revert multi
// OOM limit", redis#12961, in 7.4): every command but EXEC, DISCARD, QUIT and RESET is refused
// there, read-only or not, since queueing itself takes memory.
func (e *Engine) multiOOM(args [][]byte) (Reply, bool) {
	if len(args) == 0 || e.cfg.hot.maxmemory <= 0 || !e.outOfMemory() {
		return Reply{}, false
	}
	name := lowerASCII(args[0])
	if c := lookupCommand(args[0]); c != nil {
		name = c.Name
		if c.Sub != nil && len(args) >= 2 {
			if sub := c.Sub[lowerASCII(args[1])]; sub != nil {
				name = sub.FullName()
			}
		}
	}
	return e.cfg.stats.rejected(name, errOOM), true
}

// execOOM is the same test for EXEC: denyoom when any queued command is.
func (c *Client) execOOM() bool {
	if c.e.cfg.hot.maxmemory <= 0 {
		return false
	}
	for _, q := range c.queue {
		if denyOOM(q) != nil {
			return c.e.outOfMemory()
		}
	}
	return false
}
