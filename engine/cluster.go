package engine

// Redis Cluster as N engines sharing one topology (cluster.c of 7.0.15; redis-cli.c's --cluster
// code for the layout it creates).
//
//   - 16 384 hash slots (KeySlot). Each master owns slot ranges; with three masters
//     `redis-cli --cluster create` gives 0–5460, 5461–10922 and 10923–16383 (16384/3 = 5461.33
//     slots per node, each range ending at lround(cursor + 5461.33 - 1) in float32 arithmetic,
//     the last one at 16383) and config epochs 1, 2, 3 in the order the nodes were named
//     (CLUSTER SET-CONFIG-EPOCH), so the current epoch is 3.
//   - Every node is an Engine of its own (its own keyspace: only db 0 is usable). The slot map is
//     shared: a real cluster gossips a change within a second or so; here every node knows it at
//     once. What stays per node is what Redis keeps per node: the nodes it knows (an added node
//     knows only itself until CLUSTER MEET), its config epoch, and its migrating/importing slots
//     (CLUSTER SETSLOT … MIGRATING/IMPORTING).
//   - Before a command with keys runs, the node decides as getNodeByQuery does: the keys' slot
//     (all keys must share one: CROSSSLOT), the node serving it (MOVED <slot> <ip>:<port>),
//     ASK <slot> <ip>:<port> when the slot is migrating and a key is missing here, TRYAGAIN when
//     some keys of a multi-key command are here and some are not, and the command is served on
//     an importing node only after ASKING. Inside MULTI each queued command is checked alone
//     (an error flags the transaction, so EXEC answers EXECABORT); EXEC checks all queued
//     commands together and answers CROSSSLOT when they span slots.
//   - The keys of a command come from the command table (command.go: FirstKey, LastKey, Step,
//     and for the commands Redis marks movablekeys — a numkeys argument, SORT … STORE, MIGRATE …
//     KEYS — KeyNum and KeysFn).
//   - Node IDs are 40 hex characters drawn from the seed, so a run is reproducible.
//
// For a scene: Options.Trace gives each node's commands their cluster events (cluster_trace.go),
// AddNode starts one more lone node, MoveSlot moves a slot with redis-cli's commands, SlotOwner,
// MigratingTo, ImportingFrom and Known read the state to draw.
//
// A Cluster is not safe for concurrent use: its nodes' commands must run one at a time (the RESP
// server serves all nodes of a cluster under one lock).

import (
	"encoding/hex"
	"math"
	"math/rand/v2"
	"strconv"
)

// ClusterSlots is the number of hash slots.
const ClusterSlots = 16384

// ClusterOptions configure NewCluster.
type ClusterOptions struct {
	Masters int     // masters with slots, 1…16
	Empty   int     // nodes with no slot that know only themselves (to add with CLUSTER MEET)
	Host    string  // the IP every node announces (default 127.0.0.1)
	Port    int     // node i listens on Port+i; its cluster bus port is Port+i+10000
	Options Options // each node's engine options; node i is seeded Seed+i
}

// Cluster is a set of cluster nodes and their slot map.
type Cluster struct {
	nodes []*clusterNode
	slots [ClusterSlots]int16 // owner node index, -1 when unassigned
	gen   uint64              // bumped by every change of slots or of who knows whom
	cov   slotCover
	opts  ClusterOptions
}

// changed invalidates the nodes' cached cluster state.
func (cl *Cluster) changed() { cl.gen++ }

// clusterNode is one node's cluster state.
type clusterNode struct {
	cl        *Cluster
	idx       int
	e         *Engine
	id        string
	shardID   string
	ip        string
	ipKnown   bool // a node learns its own address from the first node it meets
	port      int
	cport     int
	epoch     uint64 // config epoch
	current   uint64 // current epoch as this node knows it
	known     map[int]bool
	migrating map[int]int // slot → node index
	importing map[int]int
	births    map[string]uint64           // when each key of db 0 was last added (GETKEYSINSLOT's order)
	slotKeys  map[int]map[string]struct{} // keys added per slot; deleted ones are dropped on reading
	born      uint64
	okGen     uint64 // cl.gen+1 when ok was computed
	ok        bool
	conn      clusterConn // the flags of Exec's implicit client
	inExec    bool        // running EXEC's queued commands: already checked
	inScript  bool        // running a script's commands: ClusterScriptCheck routes them
	served    int64       // keyed commands this node served (outside MULTI and scripts)
}

// clusterConn is a connection's cluster flags (CLIENT_ASKING, CLIENT_READONLY).
type clusterConn struct {
	asking   bool
	readonly bool
}

// NewCluster makes the nodes: Masters of them joined, with the slot layout and config epochs
// redis-cli --cluster create gives, then Empty lone nodes.
func NewCluster(o ClusterOptions) *Cluster {
	if o.Masters < 0 {
		o.Masters = 0
	}
	if o.Host == "" {
		o.Host = "127.0.0.1"
	}
	cl := &Cluster{opts: o}
	for i := range cl.slots {
		cl.slots[i] = -1
	}
	for i := 0; i < o.Masters+o.Empty; i++ {
		cl.AddNode()
	}
	// redis-cli's allocation (clusterManagerCommandCreate), float32 like its C code.
	if o.Masters > 0 {
		per := float32(ClusterSlots) / float32(o.Masters)
		first, cursor := 0, float32(0)
		for i := 0; i < o.Masters; i++ {
			last := int(math.Round(float64(cursor + per - 1)))
			if last > ClusterSlots || i == o.Masters-1 {
				last = ClusterSlots - 1
			}
			if last < first {
				last = first
			}
			for s := first; s <= last; s++ {
				cl.slots[s] = int16(i)
			}
			first = last + 1
			cursor += per
		}
	}
	for i := 0; i < o.Masters; i++ {
		n := cl.nodes[i]
		n.ipKnown = o.Masters > 1
		n.epoch = uint64(i + 1)
		n.current = uint64(o.Masters)
		for j := 0; j < o.Masters; j++ {
			n.known[j] = true
		}
	}
	cl.changed()
	return cl
}

// AddNode makes one more node, with no slots and knowing only itself (as a freshly started
// cluster-enabled redis-server), on the port after the last node's; CLUSTER MEET joins it.
func (cl *Cluster) AddNode() *Engine {
	o, i := cl.opts, len(cl.nodes)
	eo := o.Options
	eo.Seed = o.Options.Seed + uint64(i)
	e := New(eo)
	rng := rand.New(rand.NewPCG(o.Options.Seed^0x636c7573746572, uint64(i)))
	n := &clusterNode{cl: cl, idx: i, e: e, id: randomHex(rng), shardID: randomHex(rng), ip: o.Host,
		port: o.Port + i, cport: o.Port + i + 10000, known: map[int]bool{i: true},
		migrating: map[int]int{}, importing: map[int]int{}, births: map[string]uint64{}, slotKeys: map[int]map[string]struct{}{}}
	e.cluster = n
	cl.nodes = append(cl.nodes, n)
	cl.changed()
	return e
}

func randomHex(r *rand.Rand) string {
	b := make([]byte, 20)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return hex.EncodeToString(b)
}

// Nodes are the nodes' engines, in port order.
func (cl *Cluster) Nodes() []*Engine {
	out := make([]*Engine, len(cl.nodes))
	for i, n := range cl.nodes {
		out[i] = n.e
	}
	return out
}

// NodeID is node i's 40-character ID.
func (cl *Cluster) NodeID(i int) string { return cl.nodes[i].id }

// SlotOwner is the index of the node serving slot s, or -1.
func (cl *Cluster) SlotOwner(s int) int { return int(cl.slots[s]) }

// keyBorn records that key was just added to the keyspace (dbAdd; an overwrite keeps its
// place): Redis lists a slot's keys newest first.
func (e *Engine) keyBorn(key string) {
	if n := e.cluster; n != nil && e.db == e.dbs[0] {
		n.born++
		n.births[key] = n.born
		s := KeySlot([]byte(key))
		m := n.slotKeys[s]
		if m == nil {
			m = map[string]struct{}{}
			n.slotKeys[s] = m
		}
		m[key] = struct{}{}
		if len(n.births) > 2*len(e.dbs[0].keys)+1024 { // forget deleted keys now and then
			for k := range n.births {
				if _, ok := e.dbs[0].keys[k]; !ok {
					delete(n.births, k)
					delete(n.slotKeys[KeySlot([]byte(k))], k)
				}
			}
		}
	}
}

// keysInSlot lists the keys of db 0 in slot s (those expired but not yet deleted too), dropping
// the index entries of deleted keys.
func (n *clusterNode) keysInSlot(s int) []string {
	m := n.slotKeys[s]
	keys := make([]string, 0, len(m))
	for k := range m {
		if _, ok := n.e.dbs[0].keys[k]; ok {
			keys = append(keys, k)
		} else {
			delete(m, k)
		}
	}
	return keys
}

// clusterEntryExtra is what MEMORY USAGE adds for a key on a cluster node (object.c
// memoryCommand: dictMetadataSize of the keyspace dict): 7.0, the dictEntry's slot-list
// pointers (clusterDictEntryMetadata, 16 bytes); 7.2, the dict's back pointer to its db
// (clusterDictMetadata, 8 bytes, as 7.2 counts it); 7.4 and later nothing (one dict per slot).
func (e *Engine) clusterEntryExtra() int64 {
	switch {
	case e.cluster == nil || e.ver.Has(V74):
		return 0
	case e.ver.Has(V72):
		return 8
	}
	return 16
}

// ClusterEnabled reports whether the engine is a cluster node (INFO's cluster_enabled).
func (e *Engine) ClusterEnabled() bool { return e.cluster != nil }

// owner is the node serving slot s as n knows it (nil: unassigned or an unknown node).
func (n *clusterNode) owner(s int) *clusterNode {
	o := n.cl.slots[s]
	if o < 0 || !n.known[int(o)] {
		return nil
	}
	return n.cl.nodes[o]
}

func (n *clusterNode) numSlots() int { return n.cl.cover().counts[n.idx] }

// slotCover is the slot map counted once per topology change (every node's routing asks
// whether all 16 384 slots are served; a reshard of 4 096 slots changes the map about 16 000
// times, and scanning it once per change instead of once per node and change is what keeps
// such a reshard under a second in the browser).
type slotCover struct {
	gen        uint64 // cl.gen+1 when counted
	counts     []int  // slots per node
	unassigned int
}

func (cl *Cluster) cover() *slotCover {
	c := &cl.cov
	if c.gen == cl.gen+1 && len(c.counts) == len(cl.nodes) {
		return c
	}
	c.gen, c.unassigned = cl.gen+1, 0
	c.counts = append(c.counts[:0], make([]int, len(cl.nodes))...)
	for _, o := range cl.slots {
		if o < 0 {
			c.unassigned++
		} else {
			c.counts[o]++
		}
	}
	return c
}

// addrIP is x's IP as n knows it: a node that never met another does not know its own.
func (n *clusterNode) addrIP(x *clusterNode) string {
	if x == n && !x.ipKnown {
		return ""
	}
	return x.ip
}

// stateOK: every slot is served by a node this node knows (cluster-require-full-coverage yes),
// cached until the topology changes.
func (n *clusterNode) stateOK() bool {
	if n.okGen == n.cl.gen+1 {
		return n.ok
	}
	n.ok, n.okGen = true, n.cl.gen+1
	c := n.cl.cover()
	if c.unassigned > 0 {
		n.ok = false
	}
	for i, k := range c.counts {
		if k > 0 && !n.known[i] {
			n.ok = false
		}
	}
	return n.ok
}

// lookup finds a known node by its ID (clusterLookupNode).
func (n *clusterNode) lookup(id []byte) *clusterNode {
	if len(id) != 40 {
		return nil
	}
	for i := range n.known {
		if n.cl.nodes[i].id == string(id) {
			return n.cl.nodes[i]
		}
	}
	return nil
}

// byAddr finds a node of the cluster by ip and port (MIGRATE's and MEET's target).
func (cl *Cluster) byAddr(ip string, port int) *clusterNode {
	for _, x := range cl.nodes {
		if x.port == port && (x.ip == ip || ip == "localhost" && x.ip == "127.0.0.1") {
			return x
		}
	}
	return nil
}

// bumpEpoch is clusterBumpConfigEpochWithoutConsensus: a new config epoch unless this node has
// the greatest one already (and it is non-zero).
func (n *clusterNode) bumpEpoch() bool {
	var maxEpoch uint64
	for i := range n.known {
		maxEpoch = max(maxEpoch, n.cl.nodes[i].epoch)
	}
	if n.epoch != 0 && n.epoch == maxEpoch {
		return false
	}
	n.current++
	n.epoch = n.current
	n.gossipEpoch()
	return true
}

// gossipEpoch spreads the greatest current epoch over the nodes n knows.
func (n *clusterNode) gossipEpoch() {
	m := n.current
	for i := range n.known {
		m = max(m, n.cl.nodes[i].current)
	}
	for i := range n.known {
		n.cl.nodes[i].current = m
	}
}

// meet joins everything n knows with everything x knows (a completed handshake and gossip).
func (n *clusterNode) meet(x *clusterNode) {
	all := map[int]bool{}
	for i := range n.known {
		all[i] = true
	}
	for i := range x.known {
		all[i] = true
	}
	for i := range all {
		for j := range all {
			n.cl.nodes[i].known[j] = true
		}
		n.cl.nodes[i].ipKnown = n.cl.nodes[i].ipKnown || len(all) > 1
	}
	n.cl.changed()
	n.gossipEpoch()
}

// ---- routing (getNodeByQuery) ----

// keynumSpec is a "keynum" key spec: the number of keys at NumIdx, the keys from NumIdx+First,
// every Step; Before lists key positions before the count (ZUNIONSTORE's destination).
// commandKeys lists the key arguments of a command whose name and arity were checked, from the
// command table (Command.keyRefs, Redis's getKeysFromCommand).
func commandKeys(c *Command, args [][]byte) [][]byte { return c.keysOf(args) }

type clusterRedir int

const (
	redirNone clusterRedir = iota
	redirCrossSlot
	redirUnstable
	redirDownState
	redirDownUnbound
	redirMoved
	redirAsk
)

type queuedCmd struct {
	c    *Command
	args [][]byte
}

// nodeByQuery is getNodeByQuery for one command or for EXEC's queue.
func (n *clusterNode) nodeByQuery(cmds []queuedCmd, cc *clusterConn, migrate bool) (*clusterNode, int, clusterRedir) {
	var first []byte
	var owner *clusterNode
	slot, multiple, migrating, importing, missing, existing := 0, false, false, false, 0, 0
	haveFirst := false
	for _, q := range cmds {
		for _, k := range commandKeys(q.c, q.args) {
			ks := KeySlot(k)
			if !haveFirst {
				haveFirst, first, slot = true, k, ks
				owner = n.owner(slot)
				if owner == nil {
					return nil, slot, redirDownUnbound
				}
				if _, ok := n.migrating[slot]; ok && owner == n {
					migrating = true
				} else if _, ok := n.importing[slot]; ok {
					importing = true
				}
			} else if string(first) != string(k) {
				if slot != ks {
					return nil, slot, redirCrossSlot
				}
				multiple = true
			}
			if migrating || importing {
				if n.peekDB0(k) {
					existing++
				} else {
					missing++
				}
			}
		}
	}
	if !haveFirst {
		return n, 0, redirNone
	}
	if !n.stateOK() {
		return nil, slot, redirDownState
	}
	if (migrating || importing) && migrate {
		return n, slot, redirNone
	}
	if migrating && missing > 0 {
		if existing > 0 {
			return nil, slot, redirUnstable
		}
		return n.cl.nodes[n.migrating[slot]], slot, redirAsk
	}
	if importing && cc.asking {
		if multiple && missing > 0 {
			return nil, slot, redirUnstable
		}
		return n, slot, redirNone
	}
	if owner != n {
		return owner, slot, redirMoved
	}
	return n, slot, redirNone
}

// peekDB0 reports whether key lives in db 0, without expiring it (LOOKUP_NOEXPIRE).
func (n *clusterNode) peekDB0(key []byte) bool {
	_, ok := n.e.dbs[0].keys[string(key)]
	return ok
}

func redirReply(to *clusterNode, slot int, code clusterRedir) Reply {
	switch code {
	case redirCrossSlot:
		return Err("CROSSSLOT Keys in request don't hash to the same slot")
	case redirUnstable:
		return Err("TRYAGAIN Multiple keys request during rehashing of slot")
	case redirDownState:
		return errClusterDown
	case redirDownUnbound:
		return errSlotNotServed
	case redirAsk, redirMoved:
		kind := "MOVED"
		if code == redirAsk {
			kind = "ASK"
		}
		return Err(kind + " " + itoa(int64(slot)) + " " + to.ip + ":" + itoa(int64(to.port)))
	}
	return Reply{}
}

// clusterConnNow is the flags of the client whose command runs.
func (e *Engine) clusterConnNow() *clusterConn {
	if e.ccs != nil {
		return e.ccs
	}
	return &e.cluster.conn
}

// clusterBefore is processCommand's cluster step for a command outside MULTI whose name and
// arity were checked: it answers the redirection or error, or lets the command run.
func (e *Engine) clusterBefore(c *Command, args [][]byte) (Reply, bool) {
	n := e.cluster
	if c.Name == "select" && c.parent == nil {
		if id, ok := string2ll(args[1]); ok && id != 0 && id >= math.MinInt32 && id <= math.MaxInt32 {
			return errSelectCluster, true
		}
		return Reply{}, false
	}
	if !n.inExec && !n.inScript && (c.FirstKey > 0 || hasMovableKeys(c)) {
		q := []queuedCmd{{c, args}}
		to, slot, code := n.nodeByQuery(q, e.clusterConnNow(), c.Name == "migrate")
		n.traceRoute(q, to, slot, code)
		if code != redirNone || to != n {
			return redirReply(to, slot, code), true
		}
		n.served++
	}
	return clusterRefuse(c, args)
}

// clusterRefuse answers the commands that refuse to work on a cluster node, after routing (db.c:
// moveCommand, swapdbCommand, copyCommand once its options parsed).
func clusterRefuse(c *Command, args [][]byte) (Reply, bool) {
	if c.parent != nil {
		return Reply{}, false
	}
	switch c.Name {
	case "move":
		return Err("ERR MOVE is not allowed in cluster mode"), true
	case "swapdb":
		return Err("ERR SWAPDB is not allowed in cluster mode"), true
	case "copy":
		db := int64(0)
		for j := 3; j < len(args); j++ {
			switch {
			case eqFold(args[j], "replace"):
			case eqFold(args[j], "db") && j+1 < len(args):
				n, ok := string2ll(args[j+1])
				if !ok || n < 0 || n > 15 {
					return Reply{}, false // COPY answers its own error
				}
				db = n
				j++
			default:
				return Reply{}, false
			}
		}
		if db != 0 {
			return Err("ERR Copying to another database is not allowed in cluster mode"), true
		}
	}
	return Reply{}, false
}

// clusterAfter clears ASKING after any other command (resetClient), outside MULTI.
func (e *Engine) clusterAfter(c *Command, inMulti bool) {
	if c.Name != "asking" && !inMulti {
		e.clusterConnNow().asking = false
	}
}

func hasMovableKeys(c *Command) bool { return c.Flags&FlagMovableKeys != 0 }

// lookupChecked finds the command (or subcommand) of args, or nil.
func (e *Engine) lookupChecked(args [][]byte) *Command {
	c := lookupCommand(args[0])
	if c == nil || !e.ver.Has(c.Since) {
		return nil
	}
	if c.Sub != nil && len(args) >= 2 {
		s := c.Sub[lowerASCII(args[1])]
		if s == nil || !e.ver.Has(s.Since) {
			return nil
		}
		return s
	}
	return c
}

// clusterQueueCheck is the cluster step for a command being queued inside MULTI: an error here
// flags the transaction.
func (c *Client) clusterQueueCheck(args [][]byte) (Reply, bool) {
	n := c.e.cluster
	if n == nil {
		return Reply{}, false
	}
	cmd := c.e.lookupChecked(args)
	if cmd == nil || cmd.FirstKey <= 0 && !hasMovableKeys(cmd) {
		return Reply{}, false
	}
	q := []queuedCmd{{cmd, args}}
	to, slot, code := n.nodeByQuery(q, &c.cluster, cmd.Name == "migrate")
	if code != redirNone || to != n {
		n.traceRoute(q, to, slot, code)
		return redirReply(to, slot, code), true
	}
	return Reply{}, false
}

// clusterExecCheck is the cluster step for EXEC: all queued commands together.
func (c *Client) clusterExecCheck() (Reply, bool) {
	n := c.e.cluster
	if n == nil {
		return Reply{}, false
	}
	var q []queuedCmd
	for _, args := range c.queue {
		if cmd := c.e.lookupChecked(args); cmd != nil {
			q = append(q, queuedCmd{cmd, args})
		}
	}
	to, slot, code := n.nodeByQuery(q, &c.cluster, false)
	n.traceRoute(q, to, slot, code)
	if code != redirNone || to != n {
		return redirReply(to, slot, code), true
	}
	return Reply{}, false
}

// clusterUse makes c's cluster flags current while its command runs; the returned function
// restores the previous ones.
func (c *Client) clusterUse() func() {
	e := c.e
	if e.cluster == nil {
		return func() {}
	}
	prev := e.ccs
	e.ccs = &c.cluster
	return func() { e.ccs = prev }
}

// clusterAfterCommand is resetClient's part: ASKING ends after any other command, refused ones
// included, unless MULTI is open.
func (c *Client) clusterAfterCommand(args [][]byte) {
	if c.e.cluster != nil && !c.multi && !eqFold(args[0], "asking") {
		c.cluster.asking = false
	}
}

// clusterExecBegin marks EXEC's queued commands as checked; the returned function ends it and
// clears ASKING.
func (c *Client) clusterExecBegin() func() {
	n := c.e.cluster
	if n == nil {
		return func() {}
	}
	n.inExec = true
	return func() {
		n.inExec = false
		c.cluster.asking = false
	}
}

// What a scene reads of a cluster (read only; nothing here changes a node).

// Cluster is the cluster e is a node of, nil when e is a standalone server.
func (e *Engine) Cluster() *Cluster {
	if e.cluster == nil {
		return nil
	}
	return e.cluster.cl
}

// ClusterNode is e's index among its cluster's nodes, -1 when e is a standalone server.
func (e *Engine) ClusterNode() int {
	if e.cluster == nil {
		return -1
	}
	return e.cluster.idx
}

// NodeAddr is node i's announced address, "127.0.0.1:7000".
func (cl *Cluster) NodeAddr(i int) string {
	n := cl.nodes[i]
	return n.ip + ":" + strconv.Itoa(n.port)
}

// NodeByPort is the index of the node listening on port, -1 when none.
func (cl *Cluster) NodeByPort(port int) int {
	for i, n := range cl.nodes {
		if n.port == port {
			return i
		}
	}
	return -1
}

// SlotCount is how many slots the slot map gives node i.
func (cl *Cluster) SlotCount(i int) int { return cl.cover().counts[i] }

// Served is how many commands with keys node i served itself (not redirected): the per-node
// request counter that makes a hot key visible.
func (cl *Cluster) Served(i int) int64 { return cl.nodes[i].served }
