package engine

import "redscope/engine/sds"

// What the simulator itself holds, as opposed to what Redis would (MEMORY USAGE). The two agree
// except for strings longer than sds.DenseLimit, which sds.Buf keeps in pages where an all-zero
// page is not allocated: `SETBIT huge 4294967295 1` is a 512 MiB string to Redis (MEMORY USAGE
// 671088688 with Debian's jemalloc) and one 64 KiB page here. The browser app's limits
// (lesson/limits.go) bound what the page holds and the work a command does with these figures.

// HeldPageCost is what each page of a paged string's length counts for in HeldMemory, allocated
// or not: its page-table entry and the time a scan (BITCOUNT, BITPOS, BITOP) spends stepping over
// it, about what scanning 128 bytes costs.
const HeldPageCost = 128

// heldMemory is objectMemory for everything but a paged string, which counts its allocated
// pages, HeldPageCost for each page of its length, and never more than objectMemory.
func (e *Engine) heldMemory(key []byte, o *Object, samples int) int64 {
	m := e.objectMemory(key, o, samples)
	if o.Type != TypeString || o.Enc != EncRaw || o.Buf.Len() <= sds.DenseLimit || o.Buf.Cap() != 0 {
		return m
	}
	pages := int64(o.Buf.Len()+sds.PageSize-1) / sds.PageSize
	return min(m, int64(o.Buf.PagesInUse())*sds.PageSize+pages*HeldPageCost+64)
}

// PeekHeldMemory is PeekMemoryUsage measured as HeldMemory: what the simulator holds for key
// (no lazy expiry); ok=false when the key is missing or expired.
func (e *Engine) PeekHeldMemory(key []byte, samples int) (size int64, ok bool) {
	o := e.Peek(key)
	if o == nil {
		return 0, false
	}
	return e.heldMemory(key, o, samples), true
}

// DatasetHeldMemory is DatasetMemory measured as HeldMemory.
func (e *Engine) DatasetHeldMemory() int64 { return e.sumKeys(e.heldMemory) }
