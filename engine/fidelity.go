package engine

// Which of the engine's figures are proven and which are only modelled.
//
// Every figure the engine reports is computed from a model of Redis's source. Most of them are
// also checked byte for byte against a real redis-server (the differential transcripts replayed
// against Debian's 7.0.15, and the course's 8.8 figures in the profile transcripts). A few are
// modelled from the source but not yet checked against a server of the chosen profile; the faces
// (the page, the labs) mark those next to the figure so that a learner knows which numbers are
// proven.
//
// Today that is MEMORY USAGE, under the 8.x profiles (kvobj, V80 and later), of
//
//   - a hash in its hashtable encoding: hashValueMemory samples the dict with the 7.x per-entry
//     estimate (field sds + value sds + dictEntry 24), while 8.x keeps the fields in its new
//     hashtable with entries of its own layout (t_hash.c, hashTypeEntry);
//   - a sorted set in its skiplist encoding: zsetMemory samples skiplist nodes and dict entries
//     the 7.x way (object.c, objectComputeSize, OBJ_ZSET_SKIPLIST branch).
//
// Strings, listpacks, intsets, hashtable sets (setHTAllocSize, the course's 8.8 figures), lists
// and Bloom filters are checked. When a model is checked against a server, remove its case here
// (and the test in fidelity_test.go says so).

// MemoryModelled reports whether MEMORY USAGE of key, under the engine's profile, is modelled but
// not yet checked against a real server. A missing key reports false. It has no side effects
// (Peek: no lazy expiry, no events).
func (e *Engine) MemoryModelled(key string) bool {
	o := e.Peek([]byte(key))
	if o == nil || !e.ver.KVObj() {
		return false
	}
	switch {
	case o.Type == TypeHash && o.Enc == EncHashtable:
		return true
	case o.Type == TypeZSet && o.Enc == EncSkiplist:
		return true
	}
	return false
}
