package engine

import (
	"redscope/engine/dict"
	"redscope/engine/intset"
	"redscope/engine/listpack"
	"redscope/engine/skiplist"
)

// Read-only views of a container value's storage, for the visualizer (scene/): the listpack,
// intset, dict or skiplist behind a hash, set or sorted set. They return the engine's own
// structures, not copies: callers must only read them (never insert, delete or resize), and must
// not keep them across commands.

// Listpack is the listpack of a hash (listpack or listpackex), a set (listpack) or a sorted set
// (listpack); nil for any other value or encoding.
func (o *Object) Listpack() *listpack.Listpack {
	if o == nil {
		return nil
	}
	switch v := o.Val.(type) {
	case *hashValue:
		if o.Enc == EncListpack || o.Enc == EncListpackEx {
			return v.lp
		}
	case *setValue:
		if o.Enc == EncListpack {
			return v.lp
		}
	case *zsetValue:
		if o.Enc == EncListpack {
			return v.lp
		}
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

func viewOf[V any](d *dict.Dict[string, V]) (DictView, bool) {
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

// Dict describes the hash table of a hashtable-encoded hash or set, or of a skiplist-encoded
// sorted set (its member → score dict); ok is false for any other value.
func (o *Object) Dict() (v DictView, ok bool) {
	if o == nil {
		return DictView{}, false
	}
	switch x := o.Val.(type) {
	case *hashValue:
		if o.Enc == EncHashtable {
			return viewOf(x.ht)
		}
	case *setValue:
		if o.Enc == EncHashtable {
			return viewOf(x.ht)
		}
	case *zsetValue:
		if o.Enc == EncSkiplist {
			return viewOf(x.dict)
		}
	}
	return DictView{}, false
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
