package engine

// Cluster checks of the commands a script runs (script.c scriptVerifyClusterState of 7.0.15), for
// the scripting layer: while a script runs (ClusterScriptRunning(true)) the commands it calls are
// not redirected with MOVED/ASK by dispatch; the script layer calls ClusterScriptCheck before each
// redis.call/pcall and raises the error text it returns. Routing errors become "Script attempted
// to access a non local key in a cluster node" (CROSSSLOT inside one call too), a cluster that is
// not ok "Script attempted to execute a command while the cluster is down", and keys of another
// slot than the script's (its declared keys', else the first key it touched) "Script attempted to
// access keys that do not hash to the same slot" unless the script allows cross-slot keys
// (#!lua flags=allow-cross-slot-keys).

// ClusterScriptRunning marks the start and the end of a script on a cluster node (no effect on a
// standalone engine).
func (e *Engine) ClusterScriptRunning(on bool) {
	if e.cluster != nil {
		e.cluster.inScript = on
	}
}

// ClusterScriptCheck checks one command of a script on a cluster node; slot is the script's slot
// so far (-1: none yet; ClusterCommandSlot of the EVAL gives the declared keys' slot) and is
// updated. It returns "" when the command may run, else the error text (without a prefix).
func (e *Engine) ClusterScriptCheck(args [][]byte, slot *int, allowCrossSlot bool) string {
	n := e.cluster
	if n == nil || len(args) == 0 {
		return ""
	}
	c := e.lookupChecked(args)
	if c == nil || c.FirstKey <= 0 && !hasMovableKeys(c) {
		return ""
	}
	to, s, code := n.nodeByQuery([]queuedCmd{{c, args}}, e.clusterConnNow(), false)
	if code != redirNone || to != n {
		if code == redirDownState {
			return "Script attempted to execute a command while the cluster is down"
		}
		return "Script attempted to access a non local key in a cluster node"
	}
	if len(commandKeys(c, args)) == 0 || allowCrossSlot {
		return ""
	}
	if *slot == -1 {
		*slot = s
	} else if *slot != s {
		return "Script attempted to access keys that do not hash to the same slot"
	}
	return ""
}

// ClusterCommandSlot is the slot of a command's keys (the first key's), or -1 when it has none
// or the engine is standalone.
func (e *Engine) ClusterCommandSlot(args [][]byte) int {
	if e.cluster == nil || len(args) == 0 {
		return -1
	}
	c := e.lookupChecked(args)
	if c == nil {
		return -1
	}
	if keys := commandKeys(c, args); len(keys) > 0 {
		return KeySlot(keys[0])
	}
	return -1
}
