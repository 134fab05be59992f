package dict

// Observation for the visualizer: a dict with an Observer reports every structural change as an
// Event, in the order it happened. With no observer the cost is one nil check per change.

// EventKind names what happened.
type EventKind uint8

const (
	// EvInsert: a new entry was put at the head of bucket Index of Table; ChainLen is the chain's
	// length afterwards.
	EvInsert EventKind = iota + 1
	// EvDelete: an entry was unlinked from bucket Index of Table; ChainLen is the length afterwards.
	EvDelete
	// EvResize: a new table of NewSize buckets was allocated (OldSize is ht0's size, 0 for the
	// first allocation). Shrink is set when NewSize < OldSize. When Installed is set the table
	// replaced ht0 at once (first allocation, or 7.4+ with an empty ht0); otherwise an
	// incremental rehash into ht1 started.
	EvResize
	// EvRehashStep: one step of incremental rehashing (from the rehashidx walk) visited Visited
	// empty buckets and moved the Moved entries of bucket Index (Moved 0: the step gave up after
	// 10 empty buckets). Bucket is set for a 7.4+ _dictBucketRehash of the key's own bucket.
	EvRehashStep
	// EvRehashDone: ht0 became empty; ht1 (NewSize buckets) became ht0.
	EvRehashDone
)

func (k EventKind) String() string {
	switch k {
	case EvInsert:
		return "insert"
	case EvDelete:
		return "delete"
	case EvResize:
		return "resize"
	case EvRehashStep:
		return "rehash-step"
	case EvRehashDone:
		return "rehash-done"
	}
	return "unknown"
}

// Event is one structural change.
type Event struct {
	Kind      EventKind
	Table     int    // 0 or 1 (EvInsert, EvDelete)
	Index     uint64 // bucket index (EvInsert, EvDelete: in Table; EvRehashStep: in ht0)
	ChainLen  int    // chain length after the change (EvInsert, EvDelete)
	Moved     int    // entries moved (EvRehashStep)
	Visited   int    // empty buckets skipped before the moved one (EvRehashStep)
	Bucket    bool   // EvRehashStep came from _dictBucketRehash (7.4+)
	RehashIdx int64  // rehashidx after the change (-1 when not rehashing)
	OldSize   uint64 // EvResize, EvRehashDone: ht0's size before
	NewSize   uint64 // EvResize, EvRehashDone: the new table's size
	Shrink    bool   // EvResize: a shrink
	Installed bool   // EvResize: installed as ht0 immediately, no rehash
}

// Observer receives events.
type Observer func(Event)
