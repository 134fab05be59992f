package engine

import "redscope/engine/sds"

// Trace events: what a command did inside, in enough detail that the visualizer animates them
// without re-deriving engine state. Each event is a small struct; Kind names it for JSON/JS.
//
// Events are collected only while tracing is on (Options.Trace / SetTracing), so the protocol
// server and benchmarks pay nothing for them. Every command's events come back in Result.Events,
// in the order things happened.
type Event interface {
	Kind() string
}

// KeyEvent: a key came into being, was removed, replaced by a new object, expired or renamed.
type KeyEvent struct {
	Key    string
	Action string // "created", "deleted", "overwritten", "expired", "renamed"
	Type   string // the value's type ("string", "hash", …) after the action (before, for deletions)
	To     string // new name, for "renamed"
}

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

// EncodingEvent: a value's encoding changed (int → raw, embstr → raw, sparse → dense, listpack → hashtable…).
type EncodingEvent struct {
	Key  string
	From string
	To   string
	Why  Why // the rule that fired, typed (the page phrases it in its language)
}

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

// TTLEvent: a key's expiry was set, cleared or kept by a write.
type TTLEvent struct {
	Key    string
	Action string // "set", "cleared", "kept"
	Before int64  // absolute ms, -1 = none
	After  int64
}

func (KeyEvent) Kind() string        { return "key" }
func (SDSEvent) Kind() string        { return "sds" }
func (EncodingEvent) Kind() string   { return "encoding" }
func (BitEvent) Kind() string        { return "bit" }
func (BitfieldEvent) Kind() string   { return "bitfield" }
func (HLLEvent) Kind() string        { return "hll" }
func (HLLSparseEvent) Kind() string  { return "hll-sparse" }
func (HLLPromoteEvent) Kind() string { return "hll-promote" }
func (TTLEvent) Kind() string        { return "ttl" }

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
