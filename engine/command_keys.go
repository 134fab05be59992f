package engine

import "strings"

// CommandKeys lists the keys a command line names, from the command table's key positions
// (first, last, step — what COMMAND GETKEYS reports), for the visualizer to pick the key a typed
// command touched. Commands whose keys move (LMPOP, ZUNIONSTORE, SINTERCARD …: first key 0 in the
// table) and names the profile does not know give none; the caller also has the trace events.
func (e *Engine) CommandKeys(args [][]byte) []string {
	if len(args) == 0 {
		return nil
	}
	c := lookupCommand(args[0])
	if c == nil || !e.ver.Has(c.Since) {
		return nil
	}
	if c.Sub != nil && len(args) >= 2 {
		if s := c.Sub[strings.ToLower(string(args[1]))]; s != nil && e.ver.Has(s.Since) {
			c = s
		}
	}
	if c.FirstKey <= 0 || !arityOK(c.Arity, len(args)) {
		return nil
	}
	last := c.LastKey
	if last < 0 {
		last = len(args) + last
	}
	var out []string
	for i := c.FirstKey; i <= last && i < len(args); i += max(c.Step, 1) {
		out = append(out, string(args[i]))
	}
	return out
}
