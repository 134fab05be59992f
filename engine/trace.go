package engine

import (
	"redscope/engine/listpack"
	"redscope/engine/rdb"
	"redscope/engine/sds"
	"redscope/engine/skiplist"
)

// Trace events: the contract between the engine and the renderer (scene/, lesson/, wasm/).
//
// Every event type the engine emits is declared in this file, grouped by data type. The engine
// promises three things:
//
//   - Order. A command's events come back in Result.Events in the order things happened inside
//     it (in the example below: the allocation, the key's creation, the growth the first element
//     needed, the element, the rewrite of the opcodes). A renderer plays them in that order and
//     may stop at any one of them.
//   - Completeness. Each event carries every figure its picture needs, already computed by the
//     same code that answered the command: byte offsets, lengths before and after, the register
//     or node touched, the rule that fired (Why) with the numbers it compared. The renderer never
//     re-derives engine state: it does not re-hash an element, re-run an encoding rule or
//     recompute a size. (To draw a structure as it now stands a scene reads the value through
//     Engine.Peek, and the engine's packages decode its bytes, e.g. engine/hll.)
//   - No cost when off. Events are collected only while tracing is on (Options.Trace /
//     SetTracing), so the protocol server and benchmarks pay nothing for them.
//
// Each event is a small struct; Kind names it for JSON and JavaScript.
//
// A real example: PFADD h a on a fresh 7.0 engine (alloc.Jemalloc, the default) answers (integer) 1 and reports
// five events:
//
//	sds         Key h, pfadd: new sds5, Len 18 (an empty sparse HLL), Usable 24
//	key         Key h "created", type string
//	sds         Key h, Requested 21: sds5 → sds8, Len 18, Alloc 44, Usable 48 (Greedy, TypeChange)
//	hll         Key h, Element "a", Hash 0x53d2470a9b43b1a7, Index 12711, Count 2, Old 0, New 2, sparse
//	hll-sparse  Key h, "split": "Z:16384" → "Z:12711 v:2,1 Z:3672", 18 → 21 bytes, Merged 0
//
// The sds scene grows the allocation from the two SDSEvents; the HLL scene draws the hash's 14
// index bits and run of zeros from HLLEvent and the opcode rewrite from HLLSparseEvent, without
// redoing any of the work (TestTraceContractExample checks this sequence).
type Event interface {
	Kind() string
}

// ---------------------------------------------------------------- Keys and values, any type

// KeyEvent: a key came into being, was removed, replaced by a new object, expired or renamed.
type KeyEvent struct {
	Key    string
	Action string // "created", "deleted", "overwritten", "expired", "renamed"
	Type   string // the value's type ("string", "hash", …) after the action (before, for deletions)
	To     string // new name, for "renamed"
}

func (KeyEvent) Kind() string { return "key" }

// TTLEvent: a key's expiry was set, cleared or kept by a write.
type TTLEvent struct {
	Key    string
	Action string // "set", "cleared", "kept"
	Before int64  // absolute ms, -1 = none
	After  int64
}

func (TTLEvent) Kind() string { return "ttl" }

// EncodingEvent: a value's encoding changed (int → raw, embstr → raw, sparse → dense, listpack → hashtable…).
type EncodingEvent struct {
	Key  string
	From string
	To   string
	Why  Why // the rule that fired, typed (the page phrases it in its language)
}

func (EncodingEvent) Kind() string { return "encoding" }

// DumpEvent: DUMP serialized a key (cmd_dump.go). Payload is the reply's bytes; Dump is their
// split by engine/rdb (rdb.Sections): the type byte, the value's body (a string's header and
// data, a listpack or intset blob, a quicklist's nodes, or one opaque part), the RDB version the
// profile writes and the CRC-64 footer, with the offset and length of each part.
type DumpEvent struct {
	Key      string
	Encoding string // the value's OBJECT ENCODING when it was dumped
	Payload  []byte
	Dump     rdb.Dump
}

func (DumpEvent) Kind() string { return "dump" }

// ---------------------------------------------------------------- Strings (sds.go, t_string.c)

// SDSEvent: a string value's sds allocation changed (created, grown, resized or freed).
type SDSEvent struct {
	Key        string
	Cmd        string     // the command that caused it, lowercase
	Before     sds.Header // zero Header when the sds is new
	After      sds.Header
	Requested  int  // bytes the command needed (len after the write)
	Greedy     bool // growth used sdsMakeRoomFor's doubling / +1 MiB rule
	Realloc    bool // a (re)allocation happened; false when the spare room sufficed
	TypeChange bool // the header type changed (fresh malloc + copy rather than realloc)
}

func (SDSEvent) Kind() string { return "sds" }

// ---------------------------------------------------------------- Bitmaps and bit fields (bitops.c)

// BitEvent: one bit was read, set or cleared by SETBIT/GETBIT.
type BitEvent struct {
	Key    string
	Offset int64 // bit offset
	Byte   int64 // offset >> 3
	Bit    int   // offset & 7 (0 = most significant)
	Old    int
	New    int
	Write  bool
}

func (BitEvent) Kind() string { return "bit" }

// BitfieldEvent: one BITFIELD GET/SET/INCRBY.
type BitfieldEvent struct {
	Key      string
	Op       string // "get", "set", "incrby"
	Signed   bool
	Bits     int
	Offset   int64  // bit offset of the first (most significant) bit
	Arg      int64  // the SET value or INCRBY increment as given (0 for get)
	Old      int64  // value before
	New      int64  // value after (== Old for get and for a FAIL)
	Overflow string // "wrap", "sat", "fail"
	Outcome  string // "ok", "wrapped", "saturated", "failed"
}

func (BitfieldEvent) Kind() string { return "bitfield" }

// BitopEvent: BITOP computed a result into Dest (or deleted Dest, when every source was empty).
// For results up to BitopDetailBytes bytes it carries every source's bytes (zero-padded to the
// result length) and the result bytes, so the visualizer can animate the operation byte by byte.
type BitopEvent struct {
	Dest       string
	Op         string   // "and", "or", "xor", "not", "diff", "diff1", "andor", "one"
	Sources    []string // source key names, in order
	SourceLens []int    // their lengths in bytes (0 for a missing key)
	ResultLen  int      // the reply: length of the longest source
	Deleted    bool     // the result was empty, so Dest was deleted (or stayed absent)
	Inputs     [][]byte // per source, zero-padded to ResultLen; nil when ResultLen > BitopDetailBytes
	Result     []byte   // nil when ResultLen > BitopDetailBytes
}

func (BitopEvent) Kind() string { return "bitop" }

// BitScanEvent: BITCOUNT or BITPOS went over a range of an existing string. First and Last are
// absolute bit offsets (a byte range is converted: bytes 1..2 are bits 8..23), both included;
// the event is not emitted when the range is empty or the key is missing.
type BitScanEvent struct {
	Key    string
	Cmd    string // "bitcount" or "bitpos"
	Bit    int    // BITPOS: the bit looked for
	First  int64
	Last   int64
	Result int64 // BITCOUNT: the count; BITPOS: the reply (-1: none)
	Past   bool  // BITPOS 0 without an end found none and answered the first bit past the string
}

func (BitScanEvent) Kind() string { return "bitscan" }

// ---------------------------------------------------------------- HyperLogLog (hyperloglog.c; engine/hll holds the format)

// HLLEvent: one PFADD element and the register it touched.
type HLLEvent struct {
	Key      string
	Element  []byte
	Hash     uint64
	Index    int    // register, hash & 16383
	Count    int    // run length: 1 + trailing zeros of the remaining 50 bits
	Old      int    // register value before
	New      int    // after (== Old when unchanged)
	Encoding string // "sparse" or "dense" at the time of the update
}

func (HLLEvent) Kind() string { return "hll" }

// HLLSparseEvent: a sparse HLL's opcodes were rewritten by an update.
type HLLSparseEvent struct {
	Key         string
	Before      string // PFDEBUG DECODE form of the affected opcodes
	After       string
	BytesBefore int // whole string length
	BytesAfter  int
	Index       int    // the register that was set
	Rewrite     string // "in-place" (a one-register opcode took the new value) or "split" (a run was split into up to three opcodes)
	Merged      int    // adjacent equal VAL opcodes merged afterwards (bytes saved)
}

func (HLLSparseEvent) Kind() string { return "hll-sparse" }

// HLLPromoteEvent: a sparse HLL became dense.
type HLLPromoteEvent struct {
	Key         string
	Why         Why // WhyHLLValue (a register needs a value > 32) or WhyHLLBytes (hll-sparse-max-bytes), or the command that asked
	SparseBytes int
	DenseBytes  int
	Index       int   // the register whose update caused it (-1 for PFDEBUG TODENSE/GETREG and PFMERGE with a dense input)
	Value       int   // the value it needed
	Limit       int64 // hll-sparse-max-bytes at the time
}

func (HLLPromoteEvent) Kind() string { return "hll-promote" }

// ---------------------------------------------------------------- Bloom filters (RedisBloom's BF.* commands)

// BloomEvent: one BF.ADD/BF.MADD/BF.EXISTS/BF.MEXISTS item and the bits it probed.
type BloomEvent struct {
	Key       string
	Op        string // "add" or "exists"
	Item      []byte
	HashA     uint64 // MurmurHash64A(item, 0xc6a4a7935bd1e995)
	HashB     uint64 // MurmurHash64A(item, HashA)
	Filter    int    // sub-filter (0 = oldest) that took the item or whose probes were all set; for an absent item the newest
	Filters   int    // sub-filters in the chain after the operation
	Bits      uint64 // size in bits of that sub-filter
	Positions []uint64
	WasSet    []bool // each position's bit before the operation
	Result    string // "added", "exists" (all probes of some sub-filter were set), "absent", "full"
}

func (BloomEvent) Kind() string { return "bloom" }

// BloomFilterAddedEvent: a sub-filter was created (BF.RESERVE, BF.ADD on a missing key, or a full
// chain growing).
type BloomFilterAddedEvent struct {
	Key      string
	Index    int
	Reason   string // "reserve", "autocreate", "expansion"
	Capacity uint64
	Error    float64
	Bits     uint64
	Bytes    uint64
	Hashes   int
}

func (BloomFilterAddedEvent) Kind() string { return "bloom-filter-added" }

// ---------------------------------------------------------------- Lists (t_list.c, quicklist.c) and the clients blocked on them (blocked.c)

// QuicklistEvent: a quicklist node was created, deleted, split or merged, or a listpack inside a
// node changed.
type QuicklistEvent struct {
	Key       string
	Op        string // "node-new", "node-del", "split", "merge", "listpack"
	NodeCount int    // nodes after the event
	NodeBytes int    // the node's size (node->sz)
	NodeElems int    // elements in the node
	Change    listpack.Change
}

func (QuicklistEvent) Kind() string { return "quicklist" }

// ListEvent: one element entered or left a list at an end (LPUSH/RPUSH, LPOP/RPOP and the two
// halves of LMOVE/RPOPLPUSH), in the order it happened: the list scene moves it.
type ListEvent struct {
	Key   string
	Op    string // "push" or "pop"
	Head  bool   // at the head (LPUSH, LPOP, LMOVE … LEFT), else the tail
	Value string // the element
	Len   int    // the list's length after
}

func (ListEvent) Kind() string { return "list" }

// BlockEvent: a client started waiting, or stopped (served by a key, timed out, unblocked).
type BlockEvent struct {
	Client   int64    // Client.ID
	Action   string   // "blocked", "woken" (in the waking command's trace), "served", "timeout", "unblocked"
	Cmd      string   // the blocked command, lowercase
	Keys     []string // the keys it waits on ("blocked")
	Key      string   // the ready key that served it ("woken", "served")
	Deadline int64    // absolute ms, 0 = no timeout
}

func (BlockEvent) Kind() string { return "block" }

// ---------------------------------------------------------------- Hashes and sets: their listpack, intset and hash-table storage (t_hash.c, t_set.c)

// ListpackEvent: one mutation of a hash's or set's listpack.
type ListpackEvent struct {
	Key      string
	Op       string // "insert", "replace", "delete", "delete-range", "truncate"
	Offset   int    // byte offset of the entry written or of the first one removed
	Added    int    // bytes of the new entry
	Removed  int    // bytes removed
	Entries  int    // entries inserted or removed
	Moved    int    // bytes memmove shifted
	OldTotal int
	NewTotal int
	Realloc  bool
	Value    string // the entry written (insert/replace)
}

func (ListpackEvent) Kind() string { return "listpack" }

// IntsetEvent: one intset insert, upgrade or removal.
type IntsetEvent struct {
	Key      string
	Op       string // "insert", "upgrade", "remove"
	Value    int64
	Pos      int
	OldWidth int // bytes per member before
	NewWidth int
	Moved    int // bytes shifted or rewritten
	OldBytes int
	NewBytes int
}

func (IntsetEvent) Kind() string { return "intset" }

// DictEvent: a structural change of a value's hash table (a bucket insert/delete, a resize, a
// rehash step); mirrors engine/dict's Event.
type DictEvent struct {
	Key       string
	Op        string // dict.EventKind name: "insert", "delete", "resize", "rehash-step", "rehash-done"
	Table     int
	Index     uint64
	ChainLen  int
	Moved     int
	Visited   int
	Bucket    bool
	RehashIdx int64
	OldSize   uint64
	NewSize   uint64
}

func (DictEvent) Kind() string { return "dict" }

// RandomPickEvent: a random choice of SRANDMEMBER / SPOP / HRANDFIELD.
type RandomPickEvent struct {
	Key    string
	Cmd    string
	Method string // "rand-index" (listpack/intset rand()%n), "lp-next-random", "dict-fair-random", "dict-remove-fair"
	Index  int    // listpack/intset index, -1 for dict picks
	Member string
}

func (RandomPickEvent) Kind() string { return "random-pick" }

// FieldExpireEvent: a hash field was removed because its TTL passed (lazily on access, by an
// HEXPIRE with a time in the past, or by HRANDFIELD's sweep).
type FieldExpireEvent struct {
	Key      string
	Field    string
	ExpireAt int64
	Reason   string // "lazy", "past-time", "sweep"
}

func (FieldExpireEvent) Kind() string { return "hash-field-expired" }

// FieldTTLEvent: a hash field's TTL was set, changed or removed.
type FieldTTLEvent struct {
	Key    string
	Field  string
	Before int64 // unix ms, 0 = none
	After  int64
}

func (FieldTTLEvent) Kind() string { return "hash-field-ttl" }

// ---------------------------------------------------------------- Sorted sets (t_zset.c)

// SkiplistEvent: a skiplist node was inserted, deleted or had its score updated in place (level,
// rank and the update vector with the spans after the change).
type SkiplistEvent struct {
	Key    string
	Change skiplist.Change
}

func (SkiplistEvent) Kind() string { return "skiplist" }

// ---------------------------------------------------------------- Streams (t_stream.c)

// StreamEvent reports what a stream command did inside, for the stream scene:
//
//   - "node-created": a new rax node (listpack) was opened for entry ID; Node is its index,
//     Master its master ID, Reason why the previous node was closed ("" for the first node).
//   - "entry-added": entry ID was appended to node Node (Bytes = the listpack's total after it,
//     SameFields = it was stored with the SAMEFIELDS flag).
//   - "entry-deleted": entry ID in node Node was flagged deleted (XDEL, exact trimming).
//   - "node-deleted": node Node (master Master) was freed (its last live entry went, or
//     trimming removed it whole); Count = the live entries it held.
//   - "delivered": entry ID was delivered to Consumer of Group (XREADGROUP, XCLAIM, XAUTOCLAIM);
//     Count = its delivery count after.
//   - "acked": entry ID left Group's PEL (XACK, or its entry no longer exists).
//   - "group-created", "group-destroyed", "consumer-created", "consumer-deleted", "group-setid".
type StreamEvent struct {
	Key        string
	Action     string
	ID         string
	Node       int
	Master     string
	Group      string
	Consumer   string
	Count      int64
	Bytes      int
	SameFields bool
	Reason     string
}

func (StreamEvent) Kind() string { return "stream" }

// ---------------------------------------------------------------- Scripting (script_lua.c, function_lua.c)

// ScriptCallEvent: a command a script ran through redis.call / redis.pcall, with its reply; the
// command's own events come before it.
type ScriptCallEvent struct {
	Script string // SHA1 of an EVAL script, or the function name for FCALL
	Cmd    []string
	Reply  Reply
	Line   int  // the script line that called it
	Raised bool // redis.call turned an error reply into a Lua error
}

func (ScriptCallEvent) Kind() string { return "script-call" }

// ScriptEvent: a script started or ended.
type ScriptEvent struct {
	Script string // SHA1 or function name
	Action string // "start", "end", "error", "killed", "stopped"
	Calls  int    // commands run (on end)
	Steps  int64  // Lua instructions run, counted in steps of the hook (on end)
}

func (ScriptEvent) Kind() string { return "script" }

// ---------------------------------------------------------------- Cluster (cluster.c; cluster.go has the model, cluster_trace.go emits these)

// ClusterServedEvent: node Node served a command on slot Slot.
type ClusterServedEvent struct {
	Node int
	Slot int
	Keys []string
}

func (ClusterServedEvent) Kind() string { return "cluster-served" }

// ClusterRedirectEvent: node Node refused a command: Redirect is "MOVED", "ASK", "CROSSSLOT",
// "TRYAGAIN" or "CLUSTERDOWN"; To is the node to ask (MOVED, ASK) or -1; Slots are the slots of
// the keys, in argument order.
type ClusterRedirectEvent struct {
	Node     int
	Redirect string
	Slot     int
	To       int
	Keys     []string
	Slots    []int
}

func (ClusterRedirectEvent) Kind() string { return "cluster-redirect" }

// ClusterSlotEvent: slot Slot changed on node Node: Action is "owner" (now served by To; -1:
// unassigned), "migrating" (to To), "importing" (from To) or "stable".
type ClusterSlotEvent struct {
	Node   int
	Slot   int
	Action string
	To     int
}

func (ClusterSlotEvent) Kind() string { return "cluster-slot" }

// ClusterKeyMigratedEvent: MIGRATE handed Key (slot Slot) from node From to node To; Copy keeps
// it on From too.
type ClusterKeyMigratedEvent struct {
	Key      string
	Slot     int
	From, To int
	Copy     bool
}

func (ClusterKeyMigratedEvent) Kind() string { return "cluster-key-migrated" }

// ClusterReshardEvent is what Reshard did, measured on the nodes: the slots it moved in the
// order it moved them, each with its old node and the keys MIGRATE handed over, and every
// node's slot and key counts before and after. A scene animates Moves one by one; the
// ClusterKeyMigratedEvents and ClusterSlotEvents of the commands come before it.
type ClusterReshardEvent struct {
	To                      int
	First, Last             int
	Moves                   []ClusterSlotMove
	Keys                    int // keys moved, summed over Moves
	KeysBefore, KeysAfter   []int
	SlotsBefore, SlotsAfter []int
}

// ClusterSlotMove is one slot Reshard moved.
type ClusterSlotMove struct {
	Slot, From, Keys int
}

func (ClusterReshardEvent) Kind() string { return "cluster-reshard" }

// Why is the rule behind a conversion, as a code and the figures it compared, so that the page
// phrases it in the reader's language (scene/why.go) instead of showing an English sentence.
// N is the figure the rule measured (bytes, members, a register value), Limit what it was
// compared with, Extra a second figure where the rule has one (list: the bytes being added), and
// Name the config parameter or command the rule is about ("hash-max-listpack-value", "APPEND").
type Why struct {
	Code  WhyCode
	N     int64
	Limit int64
	Extra int64
	Name  string
}

// WhyCode names a conversion rule.
type WhyCode uint8

const (
	WhyNone WhyCode = iota
	// strings (object.c, createStringObject / tryObjectEncoding)
	WhySharedInt   // an integer 0..9999 (Limit): one of the shared objects
	WhyInt         // a strict 64-bit integer kept in the pointer field
	WhyEmbstr      // N ≤ Limit (44) bytes: robj and sds in one allocation
	WhyEmbstrKV    // 8.x: N ≤ Limit bytes and key + value fit the 64-byte key object
	WhyRaw         // N > Limit (44) bytes: a separate sds
	WhyRawKV       // 8.x: key + value (N bytes) do not fit the 64-byte key object
	WhyBigArg      // an argument of N ≥ Limit (32 KiB) bytes: the query buffer becomes the value
	WhyInPlace     // command Name modifies the value in place (embstr/int → raw)
	WhySetrange    // SETRANGE on a missing key: a zero-filled sds of exactly offset+len (N) bytes
	WhyExpireKV    // 8.x: the expire field added to the key object leaves no room for the value
	WhyEntries     // N entries > Limit, the config parameter Name
	WhyBringsMore  // the command brings N entries > Limit, the config parameter Name
	WhyValue       // an element of N bytes > Limit, the config parameter Name
	WhyLPMax       // the listpack would pass 1 GiB
	WhyHFE         // the first hash-field-expiration command on a listpack hash
	WhyNonInt      // a non-integer member added to an intset (→ hashtable before 7.2)
	WhyNonIntLP    // a non-integer member added to a small intset (→ listpack, 7.2+)
	WhyNonIntBig   // a non-integer member added to an intset too big for a listpack
	WhyOnlyInts    // a store command's result holds only integers (→ intset)
	WhySpopRebuild // SPOP with a count of N ≥ 5 × the members that stay (Extra): the set is rebuilt
	WhyFitsLP      // a result of N members fits Limit entries (and the value limit Extra)
	WhyNewZset     // a new sorted set whose first member or pair count does not fit a listpack
	WhySort        // SORT converts a listpack sorted set to a skiplist
	WhyListNode    // a listpack of N bytes + Extra new bytes passes list-max-listpack-size Limit
	WhyListShrink  // one node of N bytes, within half the node limit: back to a listpack
	WhyListSort    // a SORT STORE result that fits one listpack node
	WhyHLLValue    // a register needs the value N > Limit (32), more than a sparse VAL opcode holds
	WhyHLLBytes    // the sparse form would pass hll-sparse-max-bytes (Limit)
	WhyHLLCmd      // the command Name ("PFMERGE", "PFDEBUG GETREG", "PFDEBUG TODENSE") asks for a dense HLL
)

var whyNames = [...]string{"none", "shared-int", "int", "embstr", "embstr-kv", "raw", "raw-kv", "big-arg",
	"in-place", "setrange", "expire-kv", "entries", "brings-more", "value", "listpack-max", "hfe",
	"non-int", "non-int-listpack", "non-int-big", "only-ints", "spop-rebuild", "fits-listpack",
	"new-zset", "sort", "list-node", "list-shrink", "list-sort", "hll-value", "hll-bytes", "hll-cmd"}

// String is the code's name ("entries", "hll-bytes", …), for logs and JSON.
func (c WhyCode) String() string {
	if int(c) < len(whyNames) {
		return whyNames[c]
	}
	return "unknown"
}
