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
)

func (t ObjType) String() string {
	return [...]string{"string", "list", "set", "zset", "hash"}[t]
}

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
)

func (c Encoding) String() string {
	return [...]string{"raw", "int", "embstr", "hashtable", "quicklist", "listpack", "listpackex", "intset", "skiplist"}[c]
}

// Object is one value (robj). Strings keep their bytes in Buf and their modelled sds allocation
// in SDS; an int-encoded string keeps Int. Other types keep their structure in Val.
type Object struct {
	Type   ObjType
	Enc    Encoding
	Int    int64      // EncInt
	Shared bool       // EncInt from the shared pool 0..9999 (refcount INT_MAX)
	Buf    sds.Buf    // EncRaw, EncEmbstr
	SDS    sds.Header // EncRaw: the sds allocation; EncEmbstr: Type8 header, Len
	Val    any        // lists, sets, zsets, hashes
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
