package engine

import (
	"strconv"

	"redscope/engine/sds"
)

// ObjType is a value's type as TYPE reports it.
type ObjType uint8

const (
	TypeString ObjType = iota
	TypeList
	TypeSet
	TypeZSet
	TypeHash
	TypeStream
)

func (t ObjType) String() string {
	names := [...]string{"string", "list", "set", "zset", "hash", "stream"}
	if int(t) < len(names) {
		return names[t]
	}
	return moduleTypeNames[t]
}

// moduleTypeNames names the module value types (TYPE answers a module type's registered name,
// e.g. "MBbloom--"); the files implementing them add their constant and name from init.
var moduleTypeNames = map[ObjType]string{}

// Encoding is a value's encoding as OBJECT ENCODING reports it.
type Encoding uint8

const (
	EncRaw Encoding = iota
	EncInt
	EncEmbstr
	EncHashtable
	EncQuicklist
	EncListpack
	EncListpackEx
	EncIntset
	EncSkiplist
	EncStream
)

var encodingNames = [...]string{"raw", "int", "embstr", "hashtable", "quicklist", "listpack", "listpackex", "intset", "skiplist", "stream"}

func (c Encoding) String() string { return encodingNames[c] }

// Object is one value (robj). Strings keep their bytes in Buf and their modelled sds allocation
// in SDS; an int-encoded string keeps Int. Other types keep their structure in Val.
type Object struct {
	// The fields every lookup reads or writes come first, in one cache line with the string's
	// bytes slice (the keyspace of a redis-benchmark run does not fit in the caches, and each
	// line an access touches is a miss: BENCHMARKS.md, RESP server).
	Type   ObjType
	Enc    Encoding
	Shared bool // EncInt from the shared pool 0..9999 (refcount INT_MAX)
	// Expirable: in the 8.x kvobj layout (docs/internals.md §Strings) the object carries an 8-byte expire
	// field. Set when the object was created for a key with a TTL or when a TTL was added later
	// (memory.go kvobjExpireSlot); it stays set when the TTL is removed. See kvobjUsable.
	Expirable bool
	// lru is the robj's 24-bit lru field (cmd_debug.go): the LRU clock in seconds of the last
	// access under a non-LFU policy, or minutes<<8 | LFU counter under an LFU policy, written
	// when the key is stored and on each access.
	lru uint32
	Int int64      // EncInt
	Buf sds.Buf    // EncRaw, EncEmbstr
	SDS sds.Header // EncRaw: the sds allocation; EncEmbstr: Type8 header, Len
	Val any        // lists, sets, zsets, hashes
}

// StringBytes returns a string value's bytes (an int prints in decimal). The result may alias
// the object's storage.
func (o *Object) StringBytes() []byte {
	if o.Enc == EncInt {
		return strconv.AppendInt(nil, o.Int, 10)
	}
	return o.Buf.Bytes()
}

// StringLen is STRLEN.
func (o *Object) StringLen() int {
	if o.Enc == EncInt {
		return len(strconv.AppendInt(make([]byte, 0, 20), o.Int, 10))
	}
	return o.Buf.Len()
}

// DictCompares reports how many entries a lookup of member in the hash table of a value (Dict's:
// a hashtable-encoded hash or set, a skiplist-encoded sorted set) compares: member's 1-based
// position in its bucket chain (ht0, then ht1 while rehashing, as dictFind walks them), or the
// length of every chain walked when it is absent. ok is false for any other value. It walks the
// whole table: for labs, not for hot paths.
func (o *Object) DictCompares(member []byte) (compared int, ok bool) {
	d := o.valueDict()
	if d == nil {
		return 0, false
	}
	k := string(member)
	if d.Len() == 0 {
		return 0, true
	}
	n := 0
	for t := 0; t <= 1; t++ {
		if d.TableSize(t) == 0 {
			continue
		}
		idx := d.BucketOf(t, k)
		for _, b := range d.Buckets() {
			if b.Table != t || b.Index != idx {
				continue
			}
			for _, key := range b.Keys {
				n++
				if key == k {
					return n, true
				}
			}
		}
		if !d.IsRehashing() {
			break
		}
	}
	return n, true
}
