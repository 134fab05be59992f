package engine

import (
	"redscope/engine/dict"
	"redscope/engine/hll"
	"redscope/engine/intset"
	"redscope/engine/listpack"
	"redscope/engine/skiplist"
)

// Read-only views of a container value's storage, for the visualizer (scene/): the listpack,
// intset, dict or skiplist behind a hash, set or sorted set. They return the engine's own
// structures, not copies: callers must only read them (never insert, delete or resize), and must
// not keep them across commands.

// Listpack is the listpack of a hash (listpack or listpackex), a set (listpack) or a sorted set
// (listpack); nil for any other value or encoding. Its cumulative Work counters (bytes scanned
// while finding, bytes moved) are what `redscope lab listpack` reports instead of wall time.
func (o *Object) Listpack() *listpack.Listpack {
	if o == nil || (o.Enc != EncListpack && o.Enc != EncListpackEx) {
		return nil
	}
	switch v := o.Val.(type) {
	case *hashValue:
		return v.lp
	case *setValue:
		return v.lp
	case *zsetValue:
		return v.lp
	}
	return nil
}

// Intset is the intset of an intset-encoded set; nil otherwise.
func (o *Object) Intset() *intset.Intset {
	if o == nil || o.Enc != EncIntset {
		return nil
	}
	if v, ok := o.Val.(*setValue); ok {
		return v.is
	}
	return nil
}

// Skiplist is the skiplist of a skiplist-encoded sorted set; nil otherwise.
func (o *Object) Skiplist() *skiplist.List {
	if o == nil || o.Enc != EncSkiplist {
		return nil
	}
	if v, ok := o.Val.(*zsetValue); ok {
		return v.zsl
	}
	return nil
}

// DictView is the shape of a value's hash table: both tables' sizes and fill, the rehash index,
// and every non-empty bucket with its chain (keys head first).
type DictView struct {
	Size      [2]uint64
	Used      [2]uint64
	RehashIdx int64 // -1 when not rehashing
	Buckets   []dict.Bucket[string]
}

// hashTable is what DictView and DictCompares read of a value's hash table, whatever its values.
type hashTable interface {
	Len() int
	IsRehashing() bool
	RehashIndex() int64
	TableSize(t int) uint64
	TableUsed(t int) uint64
	Buckets() []dict.Bucket[string]
	BucketOf(t int, k string) uint64
}

// valueDict is the hash table of a hashtable-encoded hash or set, or of a skiplist-encoded sorted
// set (its member → score dict); nil for any other value.
func (o *Object) valueDict() hashTable {
	if o == nil {
		return nil
	}
	switch x := o.Val.(type) {
	case *hashValue:
		if o.Enc == EncHashtable && x.ht != nil {
			return x.ht
		}
	case *setValue:
		if o.Enc == EncHashtable && x.ht != nil {
			return x.ht
		}
	case *zsetValue:
		if o.Enc == EncSkiplist && x.dict != nil {
			return x.dict
		}
	}
	return nil
}

// Dict describes the hash table of a hashtable-encoded hash or set, or of a skiplist-encoded
// sorted set (its member → score dict); ok is false for any other value.
func (o *Object) Dict() (v DictView, ok bool) {
	d := o.valueDict()
	if d == nil {
		return DictView{}, false
	}
	return DictView{
		Size:      [2]uint64{d.TableSize(0), d.TableSize(1)},
		Used:      [2]uint64{d.TableUsed(0), d.TableUsed(1)},
		RehashIdx: d.RehashIndex(),
		Buckets:   d.Buckets(),
	}, true
}

// SetLen is SCARD of a set value in any encoding, read without side effects (for the
// visualizer's exact counts); ok is false for any other value.
func (o *Object) SetLen() (n int, ok bool) {
	if o == nil || o.Type != TypeSet {
		return 0, false
	}
	if _, is := o.Val.(*setValue); !is {
		return 0, false
	}
	return setSize(o), true
}

// SDSInfo is a string's sds allocation as the engine models it (sdshdr8 … sdshdr64 of sds.h):
// a short SET value is an embstr with an sds8 header of 3 bytes; after APPEND it is raw, and its
// Alloc, Avail and Usable show the growth.
type SDSInfo struct {
	Type   string `json:"type"` // "sds5" … "sds64"; embstr values report sds8
	Header int    `json:"header"`
	Len    int    `json:"len"`
	Alloc  int    `json:"alloc"`
	Avail  int    `json:"avail"`
	Usable int    `json:"usable"` // jemalloc size class of the allocation (0 for embstr: shared with the robj)
}

// KeyInfo is one key's figures as the page's outputs panel and the scenes show them: what TYPE,
// OBJECT ENCODING, STRLEN, MEMORY USAGE and PTTL would answer, read without side effects.
type KeyInfo struct {
	Key      string   `json:"key"`
	Exists   bool     `json:"exists"`
	Type     string   `json:"type"`     // TYPE ("none" when missing)
	Encoding string   `json:"encoding"` // OBJECT ENCODING
	Len      int64    `json:"len"`      // STRLEN for strings; -1 when not measured
	Memory   int64    `json:"memory"`   // MEMORY USAGE (default SAMPLES 5)
	TTLMs    int64    `json:"ttlMs"`    // PTTL: -1 no expiry, -2 missing
	SDS      *SDSInfo `json:"sds,omitempty"`
	HLL      string   `json:"hll,omitempty"` // "sparse" or "dense" for a HyperLogLog string
}

// Inspect reads one key's figures without side effects (Peek: no lazy expiry, no events, no
// change to the key's LRU/LFU data), so the visualizer can measure as often as it draws.
func (e *Engine) Inspect(key string) KeyInfo {
	k := KeyInfo{Key: key, Type: "none", Len: -1, Memory: -1, TTLMs: -2}
	o := e.Peek([]byte(key))
	if o == nil {
		return k
	}
	k.Exists = true
	k.Type = o.Type.String()
	k.Encoding = o.Enc.String()
	if m, ok := e.PeekMemoryUsage([]byte(key), 5); ok {
		k.Memory = m
	}
	k.TTLMs = -1
	if w := e.Expire(key); w >= 0 {
		k.TTLMs = max(w-e.NowMs(), 0)
	}
	if o.Type == TypeString {
		k.Len = int64(o.StringLen())
		switch o.Enc {
		case EncRaw:
			h := o.SDS
			k.SDS = &SDSInfo{Type: h.Type.String(), Header: h.Type.HeaderSize(), Len: h.Len, Alloc: h.Alloc, Avail: h.Avail(), Usable: h.Usable}
		case EncEmbstr:
			h := o.SDS
			k.SDS = &SDSInfo{Type: h.Type.String(), Header: h.Type.HeaderSize(), Len: h.Len, Alloc: h.Alloc, Avail: h.Avail()}
		}
		if o.Enc == EncRaw && o.Buf.Len() >= hll.HdrSize {
			var hdr [hll.HdrSize]byte
			o.Buf.ReadAt(hdr[:], 0)
			k.HLL = hll.Recognise(hdr[:]) // engine/hll owns the format
		}
	}
	return k
}

// EventKey is the key a trace event is about; ok is false for events about no single key.
func EventKey(ev Event) (key string, ok bool) {
	switch e := ev.(type) {
	case KeyEvent:
		return e.Key, true
	case SDSEvent:
		return e.Key, true
	case EncodingEvent:
		return e.Key, true
	case BitEvent:
		return e.Key, true
	case BitfieldEvent:
		return e.Key, true
	case HLLEvent:
		return e.Key, true
	case HLLSparseEvent:
		return e.Key, true
	case HLLPromoteEvent:
		return e.Key, true
	case TTLEvent:
		return e.Key, true
	case BloomEvent:
		return e.Key, true
	case BloomFilterAddedEvent:
		return e.Key, true
	}
	return "", false
}

// Exchange is one command line a client ran and what came back, or one clock move: the part of a
// lesson player's record (lesson.Exchange embeds it) that a scene replays. Its trace events are
// the engine's own, in order; the JSON names are the page API's.
type Exchange struct {
	Cmd     string `json:"cmd"`
	Reply   string `json:"reply"` // redis-cli --no-raw output without the final newline
	Error   bool   `json:"error,omitempty"`
	Console bool   `json:"console,omitempty"` // typed in the console, not part of the lesson
	Advance string `json:"advance,omitempty"` // a clock move ("10s"); Cmd and Reply are empty
	// Client is the console client (1 … 3) that sent the command, 0 for the lesson's own
	// implicit client (steps without a `client` line).
	Client int `json:"client,omitempty"`
	// Blocked: the command waits (BRPOP on an empty list); Reply is empty, and its reply comes
	// later as a Woken exchange of the same client.
	Blocked bool `json:"blocked,omitempty"`
	// Woken: the reply of a command that had blocked, delivered after the command (another
	// client's push, a clock move, CLIENT UNBLOCK) that ended the wait; Cmd is the blocked command.
	Woken   bool    `json:"woken,omitempty"`
	Refused string  `json:"refused,omitempty"` // the page's limit that refused the command; it did not run
	Events  []Event `json:"-"`                 // trace events, in order
	// Args is Cmd split as the command ran (SplitArgs(Cmd)) when the one who ran it kept it, so
	// that a reader needs not split a long line again; nil: split Cmd. Readers do not change it.
	Args [][]byte `json:"-"`
}
