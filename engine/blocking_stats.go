package engine

// A command served again after it blocked counts as one call (call() of Redis 7.4.1's server.c
// skips the stats while the client is CLIENT_BLOCKED; the re-run of 7.2+'s
// handleClientsBlockedOnKey counts it, or updateStatsOnUnblock on a timeout). redscope's
// dispatch counted the call that blocked, so before the re-run that count is taken back; the
// re-run counts it (with its error, if any). A CONFIG RESETSTAT in between has already dropped
// it.
func (e *Engine) uncountBlockedCall(args [][]byte) {
	if len(args) == 0 {
		return
	}
	c := lookupCommand(args[0])
	if c == nil {
		return
	}
	st := e.cfg.stats
	if cs := st.cmds[c.FullName()]; cs != nil && cs.calls > 0 && st.numCommands > 0 {
		cs.calls--
		st.numCommands--
	}
}
