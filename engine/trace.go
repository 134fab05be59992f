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
	Key    string
	From   string
	To     string
	Reason string // the rule that fired, e.g. "APPEND modifies in place", "hll-sparse-max-bytes 3000 exceeded"
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
	Reason      string // "value>32" or "hll-sparse-max-bytes"
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
