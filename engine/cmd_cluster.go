package engine

// CLUSTER, ASKING, READONLY, READWRITE and MIGRATE (cluster.c clusterCommand, askingCommand,
// readonlyCommand, migrateCommand of 7.0.15; the node model is in cluster.go).
//
// On a standalone engine CLUSTER KEYSLOT still answers, as a cluster-enabled node does (the
// lessons use it to show hash slots); every other subcommand answers what a non-cluster 7.0.15
// answers, "ERR This instance has cluster support disabled" (which 7.0.15 says for KEYSLOT too:
// that one difference is deliberate). On a cluster node (NewCluster) they answer as a cluster
// node does. Arity is checked first and an unknown subcommand gets the usual error.
//
// CLUSTER GETKEYSINSLOT lists a slot's keys newest first, as Redis links them (an overwritten key
// keeps its place, a renamed one is new); a node indexes its keys by slot as they are added
// (keyBorn), so COUNTKEYSINSLOT and GETKEYSINSLOT cost the slot's size. Known differences: the ping/pong columns of CLUSTER NODES are 0 and the engine clock; the
// bus message counters of CLUSTER INFO are 0; CLUSTER LINKS describes links nobody opened.
// MIGRATE hands the value to the target node in the same process instead of DUMP + RESTORE over a
// socket (restoredObject: strings are re-encoded as RESTORE does, other types cloned).

import (
	"sort"
	"strconv"
	"strings"
)

func init() {
	type subFn = func(e *Engine, n *clusterNode, args [][]byte) Reply
	on := func(f subFn) cmdFunc {
		return func(e *Engine, args [][]byte) Reply {
			if e.cluster == nil {
				return errClusterDisabled
			}
			return f(e, e.cluster, args)
		}
	}
	sub := map[string]*Command{
		"keyslot": {Name: "keyslot", Arity: 3, Flags: FlagStale, Fn: cmdClusterKeyslot},
	}
	for _, s := range []struct {
		name  string
		arity int
		since Version
		fn    subFn
	}{
		{"addslots", -3, 0, clusterAddDelSlots}, {"addslotsrange", -4, 0, clusterAddDelSlotsRange},
		{"bumpepoch", 2, 0, clusterBumpEpoch}, {"count-failure-reports", 3, 0, clusterCountFailureReports},
		{"countkeysinslot", 3, 0, clusterCountKeysInSlot}, {"delslots", -3, 0, clusterAddDelSlots},
		{"delslotsrange", -4, 0, clusterAddDelSlotsRange}, {"failover", -2, 0, clusterFailover},
		{"flushslots", 2, 0, clusterFlushSlots}, {"forget", 3, 0, clusterForget},
		{"getkeysinslot", 4, 0, clusterGetKeysInSlot}, {"help", 2, 0, clusterHelp}, {"info", 2, 0, clusterInfo},
		{"links", 2, 0, clusterLinks}, {"meet", -4, 0, clusterMeet}, {"myid", 2, 0, clusterMyID},
		{"nodes", 2, 0, clusterNodes}, {"replicas", 3, 0, clusterReplicas}, {"replicate", 3, 0, clusterReplicate},
		{"reset", -2, 0, clusterReset}, {"saveconfig", 2, 0, func(*Engine, *clusterNode, [][]byte) Reply { return OK }},
		{"set-config-epoch", 3, 0, clusterSetConfigEpoch}, {"setslot", -4, 0, clusterSetSlot},
		{"shards", 2, 0, clusterShards}, {"slaves", 3, 0, clusterReplicas}, {"slots", 2, 0, clusterSlotsCmd},
		{"myshardid", 2, V72, clusterMyShardID}, {"slot-stats", -4, V80, nil},
	} {
		fn := errClusterDisabledFn
		if s.fn != nil {
			fn = on(s.fn)
		}
		sub[s.name] = &Command{Name: s.name, Arity: s.arity, Since: s.since, Flags: FlagStale, Fn: fn}
	}
	// COMMAND INFO's flags and tips of the subcommands (7.0.15).
	for _, n := range strings.Fields("addslots addslotsrange bumpepoch count-failure-reports delslots delslotsrange failover flushslots forget meet replicas replicate reset saveconfig set-config-epoch setslot slaves") {
		sub[n].Flags |= FlagAdmin
	}
	for _, n := range strings.Fields("addslots addslotsrange bumpepoch delslots delslotsrange failover flushslots forget meet replicate saveconfig set-config-epoch setslot") {
		sub[n].Flags |= FlagNoAsyncLoading
	}
	for _, n := range strings.Fields("bumpepoch count-failure-reports getkeysinslot info links nodes replicas shards slaves slots") {
		sub[n].Tips = "nondeterministic_output"
	}
	sub["help"].Flags |= FlagLoading
	sub["reset"].Flags |= FlagNoScript
	register(&Command{Name: "cluster", Arity: -2, Sub: sub})
	register(
		&Command{Name: "asking", Arity: 1, Flags: FlagFast, Cats: "connection", Fn: cmdAsking},
		&Command{Name: "readonly", Arity: 1, Flags: FlagFast | FlagLoading | FlagStale, Cats: "connection", Fn: cmdReadonly},
		&Command{Name: "readwrite", Arity: 1, Flags: FlagFast | FlagLoading | FlagStale, Cats: "connection", Fn: cmdReadwrite},
		&Command{Name: "migrate", Arity: -6, Flags: FlagWrite, FirstKey: 3, LastKey: 3, Step: 1, Cats: "keyspace dangerous", Tips: "nondeterministic_output", KeyFlags: []string{"RW access delete"}, KeyExtra: []KeySpec{{Flags: "RW access delete incomplete", Keyword: "KEYS", StartFrom: -2, LastKey: -1, Step: 1}}, KeysFn: migrateKeys, Fn: cmdMigrate},
	)
}

func errClusterDisabledFn(e *Engine, args [][]byte) Reply { return errClusterDisabled }

func cmdClusterKeyslot(e *Engine, args [][]byte) Reply {
	return Int(int64(KeySlot(args[2])))
}

// KeySlot is the Redis Cluster hash slot of a key: CRC16-XMODEM of the key, or of its hash tag
// (the bytes between the first '{' and the first '}' after it, when there is at least one), mod
// 16384.
func KeySlot(key []byte) int {
	for s := 0; s < len(key); s++ {
		if key[s] == '{' {
			for e := s + 1; e < len(key); e++ {
				if key[e] == '}' {
					if e > s+1 {
						key = key[s+1 : e]
					}
					break
				}
			}
			break
		}
	}
	return int(CRC16(key) & 0x3FFF)
}

// crc16Table is CRC16-CCITT (XMODEM): polynomial 0x1021, initial value 0, no reflection.
var crc16Table = func() (t [256]uint16) {
	for i := range t {
		c := uint16(i) << 8
		for b := 0; b < 8; b++ {
			if c&0x8000 != 0 {
				c = c<<1 ^ 0x1021
			} else {
				c <<= 1
			}
		}
		t[i] = c
	}
	return
}()

// CRC16 is CRC16-XMODEM ("123456789" → 0x31C3).
func CRC16(b []byte) uint16 {
	var crc uint16
	for _, c := range b {
		crc = crc<<8 ^ crc16Table[byte(crc>>8)^c]
	}
	return crc
}

// ---- the subcommands ----

var clusterHelpLines = helpLines("CLUSTER")

// clusterHelpFor is CLUSTER HELP of a profile: 7.2 adds MYSHARDID and the hostname in the NODES
// format line; 7.4 (cluster.c clusterCommandHelp + cluster_legacy.c
// clusterCommandExtendedHelp, the same in 8.0) lists the read-only subcommands first.
func clusterHelpFor(v Version) []string {
	nodesFmt72 := "    <id> <ip:port@bus-port[,hostname]> <flags> <master> <pings> <pongs> <epoch> <link> <slot> ..."
	if !v.Has(V72) {
		return clusterHelpLines
	}
	find := func(l string) int {
		for i, x := range clusterHelpLines {
			if x == l {
				return i
			}
		}
		return -1
	}
	if !v.Has(V74) {
		var out []string
		for _, l := range clusterHelpLines {
			if strings.HasPrefix(l, "    <id> <ip:port>") {
				l = nodesFmt72
			}
			out = append(out, l)
			if l == "    Return the node id." {
				out = append(out, "MYSHARDID", "    Return the node's shard id.")
			}
		}
		return out
	}
	entry := func(name string) []string { // a subcommand's lines in the 7.0 list
		i := find(name)
		j := i + 1
		for j < len(clusterHelpLines) && strings.HasPrefix(clusterHelpLines[j], "    ") {
			j++
		}
		return clusterHelpLines[i:j]
	}
	var out []string
	for _, name := range []string{"COUNTKEYSINSLOT <slot>", "GETKEYSINSLOT <slot> <count>", "INFO", "KEYSLOT <key>", "MYID"} {
		out = append(out, entry(name)...)
	}
	out = append(out, "MYSHARDID", "    Return the node's shard id.", "NODES", "    Return cluster configuration seen by node. Output format:", nodesFmt72)
	for _, name := range []string{"REPLICAS <node-id>", "SLOTS", "SHARDS", "ADDSLOTS <slot> [<slot> ...]",
		"ADDSLOTSRANGE <start slot> <end slot> [<start slot> <end slot> ...]", "BUMPEPOCH", "COUNT-FAILURE-REPORTS <node-id>",
		"DELSLOTS <slot> [<slot> ...]", "DELSLOTSRANGE <start slot> <end slot> [<start slot> <end slot> ...]",
		"FAILOVER [FORCE|TAKEOVER]", "FORGET <node-id>", "FLUSHSLOTS", "MEET <ip> <port> [<bus-port>]", "REPLICATE <node-id>",
		"RESET [HARD|SOFT]", "SET-CONFIG-EPOCH <epoch>", "SETSLOT <slot> (IMPORTING <node-id>|MIGRATING <node-id>|STABLE|NODE <node-id>)",
		"SAVECONFIG", "LINKS"} {
		out = append(out, entry(name)...)
	}
	return out
}

func clusterHelp(e *Engine, n *clusterNode, args [][]byte) Reply {
	return helpReply(clusterHelpFor(e.ver))(e, args)
}

func errSubSyntax(args [][]byte) Reply {
	return errSubcommandSyntax("CLUSTER", args[1])
}

// getSlot is getSlotOrReply.
func getSlot(b []byte) (int, *Reply) {
	s, ok := string2ll(b)
	if !ok || s < 0 || s >= ClusterSlots {
		r := Err("ERR Invalid or out of range slot")
		return 0, &r
	}
	return int(s), nil
}

// knownNodes are the nodes n knows, in index order.
func (n *clusterNode) knownNodes() []*clusterNode {
	var out []*clusterNode
	for _, x := range n.cl.nodes {
		if n.known[x.idx] {
			out = append(out, x)
		}
	}
	return out
}

// ranges are the slot ranges x serves as n sees them.
func (n *clusterNode) ranges(x *clusterNode) [][2]int {
	var out [][2]int
	for s := 0; s < ClusterSlots; s++ {
		if n.owner(s) != x {
			continue
		}
		if len(out) > 0 && out[len(out)-1][1] == s-1 {
			out[len(out)-1][1] = s
		} else {
			out = append(out, [2]int{s, s})
		}
	}
	return out
}

func clusterInfo(e *Engine, n *clusterNode, args [][]byte) Reply {
	assigned, size := 0, 0
	for s := 0; s < ClusterSlots; s++ {
		if n.owner(s) != nil {
			assigned++
		}
	}
	for _, x := range n.knownNodes() {
		if len(n.ranges(x)) > 0 {
			size++
		}
	}
	state := "fail"
	if n.stateOK() {
		state = "ok"
	}
	var b strings.Builder
	kv := func(k string, v any) {
		b.WriteString(k)
		b.WriteByte(':')
		switch x := v.(type) {
		case string:
			b.WriteString(x)
		case int:
			b.WriteString(strconv.Itoa(x))
		case uint64:
			b.WriteString(strconv.FormatUint(x, 10))
		}
		b.WriteString("\r\n")
	}
	kv("cluster_state", state)
	kv("cluster_slots_assigned", assigned)
	kv("cluster_slots_ok", assigned)
	kv("cluster_slots_pfail", 0)
	kv("cluster_slots_fail", 0)
	kv("cluster_known_nodes", len(n.known))
	kv("cluster_size", size)
	kv("cluster_current_epoch", n.current)
	kv("cluster_my_epoch", n.epoch)
	kv("cluster_stats_messages_sent", 0)
	kv("cluster_stats_messages_received", 0)
	kv("total_cluster_links_buffer_limit_exceeded", 0)
	return Verbatim(b.String())
}

// nodeLine is clusterGenNodeDescription.
func (n *clusterNode) nodeLine(x *clusterNode) string {
	var b strings.Builder
	b.WriteString(x.id)
	b.WriteString(" " + n.addrIP(x) + ":" + itoa(int64(x.port)) + "@" + itoa(int64(x.cport)) + " ")
	if x == n {
		b.WriteString("myself,")
	}
	b.WriteString("master - 0 ")
	if x == n {
		b.WriteString("0")
	} else {
		b.WriteString(strconv.FormatInt(n.e.NowMs(), 10))
	}
	b.WriteString(" " + strconv.FormatUint(x.epoch, 10) + " connected")
	for _, r := range n.ranges(x) {
		if r[0] == r[1] {
			b.WriteString(" " + itoa(int64(r[0])))
		} else {
			b.WriteString(" " + itoa(int64(r[0])) + "-" + itoa(int64(r[1])))
		}
	}
	if x == n {
		for s := 0; s < ClusterSlots; s++ {
			if to, ok := n.migrating[s]; ok {
				b.WriteString(" [" + itoa(int64(s)) + "->-" + n.cl.nodes[to].id + "]")
			} else if from, ok := n.importing[s]; ok {
				b.WriteString(" [" + itoa(int64(s)) + "-<-" + n.cl.nodes[from].id + "]")
			}
		}
	}
	return b.String()
}

func clusterNodes(e *Engine, n *clusterNode, args [][]byte) Reply {
	var b strings.Builder
	for _, x := range n.knownNodes() {
		b.WriteString(n.nodeLine(x))
		b.WriteByte('\n')
	}
	return Verbatim(b.String())
}

func clusterMyID(e *Engine, n *clusterNode, args [][]byte) Reply      { return BulkStr(n.id) }
func clusterMyShardID(e *Engine, n *clusterNode, args [][]byte) Reply { return BulkStr(n.shardID) }

func clusterSlotsCmd(e *Engine, n *clusterNode, args [][]byte) Reply {
	out := []Reply{}
	start := 0
	for s := 1; s <= ClusterSlots; s++ {
		prev := n.owner(s - 1)
		if s < ClusterSlots && n.owner(s) == prev {
			continue
		}
		if prev != nil {
			out = append(out, Array(Int(int64(start)), Int(int64(s-1)),
				Array(BulkStr(n.addrIP(prev)), Int(int64(prev.port)), BulkStr(prev.id), EmptyMap)))
		}
		start = s
	}
	return Reply{Kind: KindArray, Array: out}
}

func clusterShards(e *Engine, n *clusterNode, args [][]byte) Reply {
	out := []Reply{}
	for _, x := range n.knownNodes() {
		slots := []Reply{}
		for _, r := range n.ranges(x) {
			slots = append(slots, Int(int64(r[0])), Int(int64(r[1])))
		}
		node := Map(BulkStr("id"), BulkStr(x.id), BulkStr("port"), Int(int64(x.port)),
			BulkStr("ip"), BulkStr(n.addrIP(x)), BulkStr("endpoint"), BulkStr(n.addrIP(x)),
			BulkStr("role"), BulkStr("master"), BulkStr("replication-offset"), Int(0),
			BulkStr("health"), BulkStr("online"))
		out = append(out, Map(BulkStr("slots"), Reply{Kind: KindArray, Array: slots},
			BulkStr("nodes"), Array(node)))
	}
	return Reply{Kind: KindArray, Array: out}
}

func clusterLinks(e *Engine, n *clusterNode, args [][]byte) Reply {
	out := []Reply{}
	for _, x := range n.knownNodes() {
		if x == n {
			continue
		}
		for _, dir := range []string{"to", "from"} {
			out = append(out, Map(BulkStr("direction"), BulkStr(dir), BulkStr("node"), BulkStr(x.id),
				BulkStr("create-time"), Int(e.NowMs()), BulkStr("events"), BulkStr("r"),
				BulkStr("send-buffer-allocated"), Int(0), BulkStr("send-buffer-used"), Int(0)))
		}
	}
	return Reply{Kind: KindArray, Array: out}
}

// countKeysInSlot counts the keys of db 0 in slot s (those expired but not yet deleted too).
func (n *clusterNode) countKeysInSlot(s int) int { return len(n.keysInSlot(s)) }

func clusterCountKeysInSlot(e *Engine, n *clusterNode, args [][]byte) Reply {
	s, ok := string2ll(args[2])
	if !ok {
		return ErrNotInt
	}
	if s < 0 || s >= ClusterSlots {
		return Err("ERR Invalid slot")
	}
	return Int(int64(n.countKeysInSlot(int(s))))
}

func clusterGetKeysInSlot(e *Engine, n *clusterNode, args [][]byte) Reply {
	s, maxKeys, ok := string2llPair(args[2], args[3])
	if !ok {
		return ErrNotInt
	}
	if s < 0 || s >= ClusterSlots || maxKeys < 0 {
		return Err("ERR Invalid slot or number of keys")
	}
	keys := n.keysInSlot(int(s))
	sort.Slice(keys, func(i, j int) bool { // newest first, as slotToKeyAddEntry links them
		bi, bj := n.births[keys[i]], n.births[keys[j]]
		if bi != bj {
			return bi > bj
		}
		return keys[i] < keys[j]
	})
	if int64(len(keys)) > maxKeys {
		keys = keys[:maxKeys]
	}
	out := make([]Reply, len(keys))
	for i, k := range keys {
		out[i] = BulkStr(k)
	}
	return Reply{Kind: KindArray, Array: out}
}

// checkSlots is checkSlotAssignmentsOrReply for start…end.
func (n *clusterNode) checkSlots(seen []bool, del bool, start, end int) *Reply {
	for s := start; s <= end; s++ {
		var r Reply
		switch {
		case del && n.owner(s) == nil:
			r = Err("ERR Slot " + itoa(int64(s)) + " is already unassigned")
		case !del && n.owner(s) != nil:
			r = Err("ERR Slot " + itoa(int64(s)) + " is already busy")
		case seen[s]:
			r = Err("ERR Slot " + itoa(int64(s)) + " specified multiple times")
		default:
			seen[s] = true
			continue
		}
		return &r
	}
	return nil
}

// updateSlots is clusterUpdateSlots.
func (n *clusterNode) updateSlots(seen []bool, del bool) {
	defer n.cl.changed()
	for s, on := range seen {
		if !on {
			continue
		}
		delete(n.importing, s)
		if del {
			n.cl.slots[s] = -1
			n.traceSlot(s, "owner", -1)
		} else {
			n.cl.slots[s] = int16(n.idx)
			n.traceSlot(s, "owner", n.idx)
		}
	}
}

func clusterAddDelSlots(e *Engine, n *clusterNode, args [][]byte) Reply {
	del := eqFold(args[1], "delslots")
	seen := make([]bool, ClusterSlots)
	slots := make([]int, 0, len(args)-2)
	for _, a := range args[2:] {
		s, bad := getSlot(a)
		if bad != nil {
			return *bad
		}
		slots = append(slots, s)
	}
	for _, s := range slots {
		if r := n.checkSlots(seen, del, s, s); r != nil {
			return *r
		}
	}
	n.updateSlots(seen, del)
	return OK
}

func clusterAddDelSlotsRange(e *Engine, n *clusterNode, args [][]byte) Reply {
	if len(args)%2 == 1 {
		return errArity("cluster|" + lowerASCII(args[1]))
	}
	del := eqFold(args[1], "delslotsrange")
	seen := make([]bool, ClusterSlots)
	for j := 2; j < len(args); j += 2 {
		start, bad := getSlot(args[j])
		if bad != nil {
			return *bad
		}
		end, bad := getSlot(args[j+1])
		if bad != nil {
			return *bad
		}
		if start > end {
			return Err("ERR start slot number " + itoa(int64(start)) + " is greater than end slot number " + itoa(int64(end)))
		}
		if r := n.checkSlots(seen, del, start, end); r != nil {
			return *r
		}
	}
	n.updateSlots(seen, del)
	return OK
}

func clusterFlushSlots(e *Engine, n *clusterNode, args [][]byte) Reply {
	if len(n.e.dbs[0].keys) != 0 {
		return Err("ERR DB must be empty to perform CLUSTER FLUSHSLOTS.")
	}
	defer n.cl.changed()
	for s := range n.cl.slots {
		if int(n.cl.slots[s]) == n.idx {
			n.cl.slots[s] = -1
		}
	}
	return OK
}

func clusterSetSlot(e *Engine, n *clusterNode, args [][]byte) Reply {
	s, bad := getSlot(args[2])
	if bad != nil {
		return *bad
	}
	action := args[3]
	switch {
	case (eqFold(action, "migrating") || eqFold(action, "importing")) && len(args) == 5:
		// A slot migrates from its owner and is imported by another node.
		what, marks := "importing", n.importing
		if eqFold(action, "migrating") {
			what, marks = "migrating", n.migrating
			if n.owner(s) != n {
				return Err("ERR I'm not the owner of hash slot " + itoa(int64(s)))
			}
		} else if n.owner(s) == n {
			return Err("ERR I'm already the owner of hash slot " + itoa(int64(s)))
		}
		x := n.lookup(args[4])
		if x == nil {
			return errNodeNotKnown(args[4])
		}
		marks[s] = x.idx
		n.traceSlot(s, what, x.idx)
	case eqFold(action, "stable") && len(args) == 4:
		delete(n.importing, s)
		delete(n.migrating, s)
		n.traceSlot(s, "stable", -1)
	case eqFold(action, "node") && len(args) == 5:
		x := n.lookup(args[4])
		if x == nil {
			return errUnknownNode(args[4])
		}
		if n.owner(s) == n && x != n && n.countKeysInSlot(s) != 0 {
			return Err("ERR Can't assign hashslot " + itoa(int64(s)) + " to a different node while I still hold keys for this hash slot.")
		}
		if _, ok := n.migrating[s]; ok && n.countKeysInSlot(s) == 0 {
			delete(n.migrating, s)
		}
		n.cl.slots[s] = int16(x.idx)
		n.cl.changed()
		n.traceSlot(s, "owner", x.idx)
		if _, ok := n.importing[s]; ok && x == n {
			n.bumpEpoch()
			delete(n.importing, s)
		}
	default:
		return Err("ERR Invalid CLUSTER SETSLOT action or number of arguments. Try CLUSTER HELP")
	}
	return OK
}

func clusterBumpEpoch(e *Engine, n *clusterNode, args [][]byte) Reply {
	word := "STILL"
	if n.bumpEpoch() {
		word = "BUMPED"
	}
	return Status(word + " " + strconv.FormatUint(n.epoch, 10))
}

func clusterSetConfigEpoch(e *Engine, n *clusterNode, args [][]byte) Reply {
	ep, ok := string2ll(args[2])
	if !ok {
		return ErrNotInt
	}
	switch {
	case ep < 0:
		return Err("ERR Invalid config epoch specified: " + strconv.FormatInt(ep, 10))
	case len(n.known) > 1:
		return Err("ERR The user can assign a config epoch only when the node does not know any other node.")
	case n.epoch != 0:
		return Err("ERR Node config epoch is already non-zero")
	}
	n.epoch = uint64(ep)
	n.current = max(n.current, n.epoch)
	return OK
}

func clusterMeet(e *Engine, n *clusterNode, args [][]byte) Reply {
	if len(args) > 5 {
		return errSubSyntax(args)
	}
	tcp := "TCP " // 7.2 dropped the word
	if e.ver.Has(V72) {
		tcp = ""
	}
	port, ok := string2ll(args[3])
	if !ok {
		return Err("ERR Invalid " + tcp + "base port specified: " + cleanErr(string(args[3])))
	}
	if len(args) == 5 {
		if _, ok := string2ll(args[4]); !ok {
			return Err("ERR Invalid " + tcp + "bus port specified: " + cleanErr(string(args[4])))
		}
	}
	ip := string(args[2])
	if port <= 0 || port > 65535-10000 || !validIP(ip) {
		return Err("ERR Invalid node address specified: " + cleanErr(ip) + ":" + cleanErr(string(args[3])))
	}
	if x := n.cl.byAddr(ip, int(port)); x != nil {
		n.meet(x)
	}
	return OK
}

// validIP: clusterStartHandshake accepts IPv4 and IPv6 literals only.
func validIP(s string) bool {
	if strings.Contains(s, ":") {
		return true
	}
	parts := strings.Split(s, ".")
	if len(parts) != 4 {
		return false
	}
	for _, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 || v > 255 || p == "" {
			return false
		}
	}
	return true
}

func clusterForget(e *Engine, n *clusterNode, args [][]byte) Reply {
	x := n.lookup(args[2])
	if x == nil {
		return errUnknownNode(args[2])
	}
	if x == n {
		return Err("ERR I tried hard but I can't forget myself...")
	}
	delete(n.known, x.idx)
	n.cl.changed()
	return OK
}

func clusterReset(e *Engine, n *clusterNode, args [][]byte) Reply {
	if len(args) > 3 {
		return errSubSyntax(args)
	}
	hard := false
	if len(args) == 3 {
		var ok bool
		if hard, ok = eitherKeyword(args[2], "soft", "hard"); !ok {
			return ErrSyntax
		}
	}
	if len(n.e.dbs[0].keys) != 0 {
		return Err("ERR CLUSTER RESET can't be called with master nodes containing keys")
	}
	n.migrating, n.importing = map[int]int{}, map[int]int{}
	for s := range n.cl.slots {
		if int(n.cl.slots[s]) == n.idx {
			n.cl.slots[s] = -1
		}
	}
	n.known = map[int]bool{n.idx: true}
	n.cl.changed()
	if hard {
		n.current, n.epoch = 0, 0
		n.id = randomHex(n.e.rng)
	}
	return OK
}

func clusterReplicas(e *Engine, n *clusterNode, args [][]byte) Reply {
	if n.lookup(args[2]) == nil {
		return errUnknownNode(args[2])
	}
	return EmptyArr // no replicas are modelled
}

func clusterCountFailureReports(e *Engine, n *clusterNode, args [][]byte) Reply {
	if n.lookup(args[2]) == nil {
		return errUnknownNode(args[2])
	}
	return Int(0)
}

func clusterReplicate(e *Engine, n *clusterNode, args [][]byte) Reply {
	x := n.lookup(args[2])
	switch {
	case x == nil:
		return errUnknownNode(args[2])
	case x == n:
		return Err("ERR Can't replicate myself")
	case n.numSlots() != 0 || len(n.e.dbs[0].keys) != 0:
		return Err("ERR To set a master the node must be empty and without assigned slots.")
	}
	return Err("ERR redscope does not model replicas")
}

func clusterFailover(e *Engine, n *clusterNode, args [][]byte) Reply {
	if len(args) > 3 {
		return errSubSyntax(args)
	}
	if len(args) == 3 && !eqFold(args[2], "force") && !eqFold(args[2], "takeover") {
		return ErrSyntax
	}
	return Err("ERR You should send CLUSTER FAILOVER to a replica")
}

// restoredObject is what RESTORE builds on the target from o's DUMP payload. A string is loaded
// and passed through tryObjectEncoding (rdb.c rdbLoadObject): int when it reads as one, embstr up
// to 44 bytes, else an exact raw sds — whatever its encoding was on the source. Other types are
// cloned as COPY clones them (RESTORE's re-encoding of hashes, sets and sorted sets by the
// target's thresholds is not modelled).
func (e *Engine) restoredObject(key []byte, o *Object) *Object {
	if o.Type == TypeString {
		return e.newStringObject(key, o.StringBytes())
	}
	return e.cloneObject(o)
}

// ---- ASKING, READONLY, READWRITE ----

func cmdAsking(e *Engine, args [][]byte) Reply {
	return e.clusterConnFlag(func(c *clusterConn) { c.asking = true })
}

func cmdReadonly(e *Engine, args [][]byte) Reply {
	return e.clusterConnFlag(func(c *clusterConn) { c.readonly = true })
}

func cmdReadwrite(e *Engine, args [][]byte) Reply {
	return e.clusterConnFlag(func(c *clusterConn) { c.readonly = false })
}

// clusterConnFlag is askingCommand, readonlyCommand and readwriteCommand: an error without
// cluster mode, else set changes the connection's flag.
func (e *Engine) clusterConnFlag(set func(c *clusterConn)) Reply {
	if e.cluster == nil {
		return errClusterDisabled
	}
	set(e.clusterConnNow())
	return OK
}

// ---- MIGRATE host port key|"" destination-db timeout [COPY] [REPLACE] [AUTH pw] [AUTH2 u pw] [KEYS k …] ----

// MIGRATE's plain options (AUTH, AUTH2 and KEYS take values).
const (
	migrateCopy = 1 << iota
	migrateReplace
)

var migrateKeywords = []strKeyword{{"copy", migrateCopy}, {"replace", migrateReplace}}

func cmdMigrate(e *Engine, args [][]byte) Reply {
	var flags int
	var user, pass []byte
	first, num := 3, 1
	for j := 6; j < len(args); j++ {
		if f := keywordFlag(args[j], migrateKeywords); f != 0 {
			flags |= f
			continue
		}
		more := len(args) - 1 - j
		switch {
		case eqFold(args[j], "auth"):
			if more < 1 {
				return ErrSyntax
			}
			pass = args[j+1]
			j++
		case eqFold(args[j], "auth2"):
			if more < 2 {
				return ErrSyntax
			}
			user, pass = args[j+1], args[j+2]
			j += 2
		case eqFold(args[j], "keys"):
			if len(args[3]) != 0 {
				return Err("ERR When using MIGRATE KEYS option, the key argument must be set to the empty string")
			}
			first, num = j+1, len(args)-j-1
			j = len(args)
		default:
			return ErrSyntax
		}
	}
	copyKeys, replace := flags&migrateCopy != 0, flags&migrateReplace != 0
	if _, ok := string2ll(args[5]); !ok {
		return ErrNotInt
	}
	dbid, ok := string2ll(args[4])
	if !ok {
		return ErrNotInt
	}
	var keys [][]byte
	var objs []*Object
	for _, k := range args[first : first+num] {
		if o := e.Lookup(k); o != nil {
			keys, objs = append(keys, k), append(objs, o)
		}
	}
	if len(keys) == 0 {
		return Status("NOKEY")
	}
	port, _ := string2ll(args[2])
	var target *clusterNode
	if e.cluster != nil {
		target = e.cluster.cl.byAddr(string(args[1]), int(port))
	}
	if target == nil || target == e.cluster {
		return Err("IOERR error or timeout connecting to the client")
	}
	t := target.e
	targetErr := func(r Reply) Reply { return Err("ERR Target instance replied with error: " + r.Str) }
	// The target's AUTH: nodes have no password, the default user takes any (nopass).
	if pass != nil {
		switch {
		case user == nil:
			return targetErr(Err("ERR AUTH <password> called without any password configured for the default user. Are you sure your configuration is correct?"))
		case string(user) != "default":
			return targetErr(Err("WRONGPASS invalid username-password pair or user is disabled."))
		}
	}
	if dbid != 0 {
		return targetErr(errSelectCluster)
	}
	var firstErr *Reply
	for i, k := range keys {
		// RESTORE-ASKING on the target: the target must serve or import the slot.
		s := KeySlot(k)
		if _, imp := target.importing[s]; target.owner(s) != target && !imp {
			if !target.stateOK() {
				r := targetErr(errClusterDown)
				firstErr = &r
				break
			}
			to := target.owner(s)
			var r Reply
			if to == nil {
				r = targetErr(errSlotNotServed)
			} else {
				r = targetErr(redirReply(to, s, redirMoved))
			}
			if firstErr == nil {
				firstErr = &r
			}
			continue
		}
		saved := t.db
		t.db = t.dbs[0]
		exists := t.Lookup(k) != nil
		if exists && !replace {
			t.db = saved
			if firstErr == nil {
				r := targetErr(errBusyKey)
				firstErr = &r
			}
			continue
		}
		when := e.Expire(string(k))
		if exists {
			t.Delete(k)
		}
		t.add(k, t.restoredObject(k, objs[i]))
		if when != -1 {
			t.setExpire(string(k), when)
		}
		t.db = saved
		if !copyKeys {
			e.Delete(k)
		}
		e.emit(ClusterKeyMigratedEvent{Key: string(k), Slot: s, From: e.cluster.idx, To: target.idx, Copy: copyKeys})
	}
	if firstErr != nil {
		return *firstErr
	}
	return OK
}
