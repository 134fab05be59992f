package engine

// Cluster checks of the commands a script runs (script.c scriptVerifyClusterState of 7.0.15 and
// 7.4.1), for the scripting layer. While a script runs (ClusterScriptRunning(true)) the commands
// it calls are not redirected with MOVED/ASK by dispatch; luaRedisCall calls ClusterScriptCheck
// before each redis.call/pcall, after the write and read-only checks, and raises (or, for
// redis.pcall, returns) the error text it gives as an "ERR …" error with the script's suffix:
//
//   - a command whose keys are served elsewhere (MOVED, ASK) or span slots (CROSSSLOT inside one
//     call): "Script attempted to access a non local key in a cluster node" on 7.0/7.2; 7.4 words
//     CROSSSLOT "Command 'mset' in script attempted to access keys that don't hash to the same
//     slot", TRYAGAIN "Unable to execute command 'mget' in script because undeclared keys were
//     accessed during rehashing of the slot" and an unassigned slot "Script attempted to access a
//     slot not served";
//   - a cluster that is not ok: "Script attempted to execute a command while the cluster is down";
//   - keys of another slot than the script's — the slot of EVAL / FCALL's declared keys
//     (getNodeByQuery of the EVAL, ClusterCommandSlot), else the first slot a call touched —
//     "Script attempted to access keys that do not hash to the same slot", unless the script may
//     cross slots: an EVAL script without a shebang (compatibility mode) always may, a "#!lua"
//     script or a function only with flags=allow-cross-slot-keys.
//
// So on node 0 of a three-master cluster (slots 0-5460), `EVAL "return redis.call('get','foo')"
// 0` fails (foo is slot 12182, node 2's), `EVAL "redis.call('set','b',1) return
// redis.call('get','bar')" 0` runs (b 3300 and bar 5061 are both node 0's, and a script without
// a shebang may cross slots), the same body under "#!lua" fails at its second call.
//
// Not modelled: inside MULTI/EXEC Redis's slot is the one EXEC computed for the whole
// transaction and is shared by the scripts it runs; here each script starts from its own
// declared keys.

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
	to, s, code := n.nodeByQuery([]queuedCmd{{c, args}}, e.clusterConnNow(), c.Name == "migrate")
	if code != redirNone || to != n {
		if code == redirDownState {
			return "Script attempted to execute a command while the cluster is down"
		}
		if e.ver.Has(V74) {
			switch code {
			case redirCrossSlot:
				return "Command '" + c.FullName() + "' in script attempted to access keys that don't hash to the same slot"
			case redirUnstable:
				return "Unable to execute command '" + c.FullName() + "' in script because undeclared keys were accessed during rehashing of the slot"
			case redirDownUnbound:
				return "Script attempted to access a slot not served"
			}
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

// clusterScriptCall is scriptVerifyClusterState for luaRedisCall: "" when the command may run.
func (e *Engine) clusterScriptCall(run *scriptRun, args [][]byte) string {
	if e.cluster == nil {
		return ""
	}
	return e.ClusterScriptCheck(args, &run.slot, run.crossSlot)
}

// clusterScriptAsking keeps the caller's ASKING flag across one command a script runs (dispatch
// clears it after every command, as resetClient does; the commands of a script are not followed
// by resetClient, so the flag holds for the whole script). It returns the restore.
func (e *Engine) clusterScriptAsking() func() {
	if e.cluster == nil {
		return func() {}
	}
	cc := e.clusterConnNow()
	asking := cc.asking
	return func() { cc.asking = asking }
}
