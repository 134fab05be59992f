package engine

import (
	"bytes"
	"encoding/binary"
	"slices"
	"sort"
	"strconv"

	"redscope/engine/listpack"
)

// Streams, as Redis 7.0 stores them (stream.h, t_stream.c streamAppendItem).
//
// A stream is a radix tree (rax) whose keys are 128-bit big-endian IDs — ms then seq, 16 bytes,
// so byte order is ID order — and whose values are listpacks ("nodes"). The key of a node is its
// master ID: the ID of the first entry added to it. Each listpack starts with the master entry
//
//	count | deleted | num-fields | field_1 … field_N | 0
//
// (count = live entries, deleted = entries flagged deleted, the fields of the first entry, a 0
// terminator) followed by the entries, each
//
//	flags | ms-delta | seq-delta | [num-fields | field_1] value_1 … | lp-count
//
// with the ID stored as the difference from the master ID and, when the entry has exactly the
// master's fields in the same order (flag SAMEFIELDS = 2), only the values. lp-count is the number
// of listpack elements of the entry minus one (3 + N, or 3 + 2N + 1 without SAMEFIELDS) so the
// node can be walked backwards. XDEL and exact XTRIM only set flag DELETED (1) and move one from
// count to deleted; a node is freed when its last live entry goes.
//
// Numbers (default config, stream-node-max-entries 100, stream-node-max-bytes 4096):
// `XADD s 1-1 a 1` makes one node whose listpack is 7 header/EOF bytes + master entry
// (1, 0, 1, "a", 0: 2+2+2+3+2 = 11) + entry (2, 0, 0, 1, 4: 10 bytes) = 28 bytes, in an allocation
// of 4096 (lpNew(4096): the node is pre-allocated up to stream-node-max-bytes). A new node is
// opened for the 101st entry (live and deleted ones count) or for an entry whose raw field and
// value bytes, added to the node's current size, reach 4096; the full node is then shrunk to fit
// (lpShrinkToFit), e.g. to 48 bytes of allocation for 43 bytes of listpack.
//
// MEMORY USAGE (object.c objectComputeSize, OBJ_STREAM) is not a sum of allocations but this
// estimate: robj 16 + struct stream 80 + the rax (streamRadixTreeMemoryUsage: 16 per key + 244
// per rax node — a 4-byte node header plus a flat 240 (30 longs) standing for child pointers and
// the value pointer; the sizeof(rax) the function starts from is overwritten, so it counts 0) + the listpacks, where only the first `samples`
// nodes' allocations are read: when there are more nodes, their average (integer division)
// counts for all but the last, and the last node's real allocation is added. Each consumer
// group adds 40 (streamCG) + its PEL rax + 24 per pending entry (streamNACK); each consumer
// 24 (7.0; 32 from 7.2 with active_time) + the length of its name + its own PEL rax.
//
// Rax node counts: a rax keeps one node per branching point, per key and per run of
// single-child bytes (compressed node), plus the root. For keys of equal length (all our rax
// keys are 16-byte IDs) Redis's insert and delete algorithms (rax.c raxGenericInsert,
// raxRemove with its recompression) leave the tree in that canonical shape — checked against
// redis-server's XINFO radix-tree-nodes and MEMORY USAGE after appends, XDEL, XTRIM and
// shuffled XACKs (testdata/transcripts/diff/stream-*.txt) — so raxNodeCount computes the count
// from the sorted keys: one stream node holding `XADD s 1-1 a 1` is a rax
// of 2 nodes (a 16-byte compressed root and the key's leaf): MEMORY USAGE
// = 16 + 80 + (16 + 2·244) + 4096 + key = 4696 + key sds + dictEntry.

// Stream entry flags (t_stream.c STREAM_ITEM_FLAG_*).
const (
	streamFlagDeleted    = 1
	streamFlagSameFields = 2
)

// streamListpackMaxSize is STREAM_LISTPACK_MAX_SIZE; streamListpackMaxPrealloc is
// STREAM_LISTPACK_MAX_PRE_ALLOCATE.
const (
	streamListpackMaxSize     = 1 << 30
	streamListpackMaxPrealloc = 4096
)

// StreamID is a stream entry ID: milliseconds and a sequence number.
type StreamID struct{ Ms, Seq uint64 }

var maxStreamID = StreamID{^uint64(0), ^uint64(0)}

func (a StreamID) cmp(b StreamID) int {
	switch {
	case a.Ms < b.Ms:
		return -1
	case a.Ms > b.Ms:
		return 1
	case a.Seq < b.Seq:
		return -1
	case a.Seq > b.Seq:
		return 1
	}
	return 0
}

func (a StreamID) isZero() bool { return a.Ms == 0 && a.Seq == 0 }

// String is "ms-seq".
func (a StreamID) String() string {
	return strconv.FormatUint(a.Ms, 10) + "-" + strconv.FormatUint(a.Seq, 10)
}

// incr is streamIncrID: false when the ID is already the maximum.
func (a *StreamID) incr() bool {
	if a.Seq == ^uint64(0) {
		if a.Ms == ^uint64(0) {
			return false
		}
		a.Ms++
		a.Seq = 0
		return true
	}
	a.Seq++
	return true
}

// decr is streamDecrID: false at 0-0.
func (a *StreamID) decr() bool {
	if a.Seq == 0 {
		if a.Ms == 0 {
			return false
		}
		a.Ms--
		a.Seq = ^uint64(0)
		return true
	}
	a.Seq--
	return true
}

// key is the 16-byte big-endian rax key.
func (a StreamID) key() [16]byte {
	var k [16]byte
	binary.BigEndian.PutUint64(k[:8], a.Ms)
	binary.BigEndian.PutUint64(k[8:], a.Seq)
	return k
}

// streamNode is one rax key and its listpack.
type streamNode struct {
	master StreamID
	lp     *listpack.Listpack
}

// streamValue is struct stream.
type streamValue struct {
	nodes        []*streamNode // the rax, in key order
	length       uint64
	lastID       StreamID
	firstID      StreamID
	maxDeletedID StreamID
	entriesAdded uint64
	groups       []*streamCG // the cgroups rax, in name order
}

// streamCG is a consumer group.
type streamCG struct {
	name        string
	lastID      StreamID
	entriesRead int64 // -1: invalid (SCG_INVALID_ENTRIES_READ)
	pel         idSet
	nacks       map[StreamID]*streamNACK
	consumers   []*streamConsumer // in name order
}

// streamConsumer is one consumer of a group.
type streamConsumer struct {
	name       string
	seenTime   int64
	activeTime int64 // 7.2+: -1 until it first reads or claims
	pel        idSet
}

// streamNACK is a pending entry.
type streamNACK struct {
	deliveryTime  int64
	deliveryCount uint64
	consumer      *streamConsumer
}

// idSet is a sorted set of IDs (a PEL rax's keys).
type idSet []StreamID

func (s idSet) search(id StreamID) int {
	return sort.Search(len(s), func(i int) bool { return s[i].cmp(id) >= 0 })
}

func (s *idSet) insert(id StreamID) bool {
	i := s.search(id)
	if i < len(*s) && (*s)[i] == id {
		return false
	}
	*s = slices.Insert(*s, i, id)
	return true
}

func (s *idSet) remove(id StreamID) bool {
	i := s.search(id)
	if i < len(*s) && (*s)[i] == id {
		*s = slices.Delete(*s, i, i+1)
		return true
	}
	return false
}

// stv returns a stream object's value.
func stv(o *Object) *streamValue { return o.Val.(*streamValue) }

func (e *Engine) newStreamObject() *Object {
	return &Object{Type: TypeStream, Enc: EncStream, Val: &streamValue{}}
}

// ---- listpack helpers ----

func lpInt(lp *listpack.Listpack, p int) int64 {
	s, v, isInt, ok := lp.Get(p)
	if !ok {
		return 0
	}
	if isInt {
		return v
	}
	n, _ := strconv.ParseInt(string(s), 10, 64)
	return n
}

// nodeEntry is one entry of a node as the iterator sees it.
type nodeEntry struct {
	id       StreamID
	flags    int64
	flagsPos int
	fields   [][]byte // field, value, field, value…
}

// masterInfo reads the master entry: live count, deleted count, fields, and the offset of the
// first entry (−1 when none).
func masterInfo(lp *listpack.Listpack) (count, deleted int64, fields [][]byte, first int) {
	p := lp.First()
	count = lpInt(lp, p)
	p = lp.Next(p)
	deleted = lpInt(lp, p)
	p = lp.Next(p)
	nf := lpInt(lp, p)
	p = lp.Next(p)
	for i := int64(0); i < nf; i++ {
		fields = append(fields, slices.Clone(lp.GetString(p, nil)))
		p = lp.Next(p)
	}
	return count, deleted, fields, lp.Next(p) // skip the 0 terminator
}

// entries decodes every entry of a node (deleted ones too) in order.
func (n *streamNode) entries() []nodeEntry {
	var out []nodeEntry
	n.each(nil, func(en *nodeEntry) bool { out = append(out, *en); return true })
	return out
}

// each walks the entries of a node in order until fn returns false. Fields and values are read
// only for entries that need accepts (nil: all; it sees the ID, flags and offset); they point into
// the listpack (or hold an integer's decimal form), so they are valid until the node changes.
func (n *streamNode) each(need func(en *nodeEntry) bool, fn func(en *nodeEntry) bool) {
	lp := n.lp
	p := lp.First()
	p = lp.Next(p)
	p = lp.Next(p)
	nf := lpInt(lp, p)
	p = lp.Next(p)
	fieldsAt := p
	for i := int64(0); i < nf; i++ {
		p = lp.Next(p)
	}
	p = lp.Next(p) // the master entry's 0 terminator
	var en nodeEntry
	for p >= 0 {
		en = nodeEntry{flagsPos: p, flags: lpInt(lp, p)}
		p = lp.Next(p)
		en.id.Ms = n.master.Ms + uint64(lpInt(lp, p))
		p = lp.Next(p)
		en.id.Seq = n.master.Seq + uint64(lpInt(lp, p))
		p = lp.Next(p)
		read := need == nil || need(&en)
		same := en.flags&streamFlagSameFields != 0
		cnt := nf
		if !same {
			cnt = lpInt(lp, p)
			p = lp.Next(p)
		}
		if read {
			en.fields = make([][]byte, 0, 2*cnt)
		}
		f := fieldsAt
		for i := int64(0); i < cnt; i++ {
			if same {
				if read {
					en.fields = append(en.fields, lp.GetString(f, nil))
				}
				f = lp.Next(f)
			} else {
				if read {
					en.fields = append(en.fields, lp.GetString(p, nil))
				}
				p = lp.Next(p)
			}
			if read {
				en.fields = append(en.fields, lp.GetString(p, nil))
			}
			p = lp.Next(p)
		}
		p = lp.Next(p) // lp-count
		if !fn(&en) {
			return
		}
	}
}

// entryAt decodes the entry whose flags are at offset p, fields included.
func (n *streamNode) entryAt(p int) nodeEntry {
	var got nodeEntry
	n.each(func(en *nodeEntry) bool { return en.flagsPos == p }, func(en *nodeEntry) bool {
		if en.flagsPos < p {
			return true
		}
		got = *en
		return false
	})
	return got
}

// ---- append, delete, trim ----

// nextID is streamNextID: now, or last+1 when the clock is behind.
func (e *Engine) streamNextID(last StreamID) StreamID {
	ms := uint64(e.NowMs())
	if ms > last.Ms {
		return StreamID{ms, 0}
	}
	id := last
	id.incr()
	return id
}

// errStreamIDSmall etc. are streamAppendItem's failures.
type appendErr int

const (
	appendOK appendErr = iota
	appendEDOM
	appendERANGE
)

// appendItem is streamAppendItem: fv holds field, value pairs; use is the given ID (nil = *),
// seqGiven false for "ms-*".
func (e *Engine) streamAppend(key []byte, s *streamValue, fv [][]byte, use *StreamID, seqGiven bool) (StreamID, appendErr) {
	var id StreamID
	if use != nil {
		if seqGiven {
			id = *use
		} else if s.lastID.Ms == use.Ms {
			if s.lastID.Seq == ^uint64(0) {
				return id, appendEDOM
			}
			id = s.lastID
			id.Seq++
		} else {
			id = *use
		}
	} else {
		id = e.streamNextID(s.lastID)
	}
	if id.cmp(s.lastID) <= 0 {
		return id, appendEDOM
	}
	tot := 0
	for _, b := range fv {
		tot += len(b)
	}
	if tot > streamListpackMaxSize {
		return id, appendERANGE
	}
	numfields := int64(len(fv) / 2)
	var tail *streamNode
	if len(s.nodes) > 0 {
		tail = s.nodes[len(s.nodes)-1]
	}
	reason := ""
	if tail != nil {
		maxBytes := e.cfg.Int("stream-node-max-bytes")
		if maxBytes == 0 || maxBytes > streamListpackMaxSize {
			maxBytes = streamListpackMaxSize
		}
		maxEntries := e.cfg.Int("stream-node-max-entries")
		if int64(tail.lp.TotalBytes()+tot) >= maxBytes {
			reason = "stream-node-max-bytes " + itoa(maxBytes) + " reached"
		} else if maxEntries != 0 {
			c, d, _, _ := masterInfo(tail.lp)
			if c+d >= maxEntries {
				reason = "stream-node-max-entries " + itoa(maxEntries) + " reached"
			}
		}
		if reason != "" {
			tail.lp.ShrinkToFit()
			tail = nil
		}
	}
	flags := int64(0)
	if tail == nil {
		prealloc := int64(streamListpackMaxPrealloc)
		if mb := e.cfg.Int("stream-node-max-bytes"); mb > 0 && mb < prealloc {
			prealloc = mb
		}
		lp := listpack.NewCap(int(prealloc))
		lp.Alloc = e.alloc
		lp.AppendInt(1)
		lp.AppendInt(0)
		lp.AppendInt(numfields)
		for i := 0; i < len(fv); i += 2 {
			lp.Append(fv[i])
		}
		lp.AppendInt(0)
		tail = &streamNode{master: id, lp: lp}
		s.nodes = append(s.nodes, tail)
		flags |= streamFlagSameFields
		e.emit(StreamEvent{Key: string(key), Action: "node-created", ID: id.String(), Node: len(s.nodes) - 1, Master: id.String(), Reason: reason})
	} else {
		lp := tail.lp
		p := lp.First()
		c := lpInt(lp, p)
		lp.ReplaceInt(p, c+1)
		_, _, mf, _ := masterInfo(lp)
		if len(mf) == int(numfields) {
			same := true
			for i, f := range mf {
				if !bytes.Equal(f, fv[2*i]) {
					same = false
					break
				}
			}
			if same {
				flags |= streamFlagSameFields
			}
		}
	}
	lp := tail.lp
	lp.AppendInt(flags)
	lp.AppendInt(int64(id.Ms - tail.master.Ms))
	lp.AppendInt(int64(id.Seq - tail.master.Seq))
	same := flags&streamFlagSameFields != 0
	if !same {
		lp.AppendInt(numfields)
	}
	for i := 0; i < len(fv); i += 2 {
		if !same {
			lp.Append(fv[i])
		}
		lp.Append(fv[i+1])
	}
	lpCount := numfields + 3
	if !same {
		lpCount += numfields + 1
	}
	lp.AppendInt(lpCount)
	s.length++
	s.entriesAdded++
	s.lastID = id
	if s.length == 1 {
		s.firstID = id
	}
	e.emit(StreamEvent{Key: string(key), Action: "entry-added", ID: id.String(), Node: len(s.nodes) - 1, Master: tail.master.String(), Bytes: lp.TotalBytes(), SameFields: same})
	return id, appendOK
}

// nodeIndexLE is the index of the last node whose master ID ≤ id (raxSeek "<="), or −1.
func (s *streamValue) nodeIndexLE(id StreamID) int {
	i := sort.Search(len(s.nodes), func(i int) bool { return s.nodes[i].master.cmp(id) > 0 })
	return i - 1
}

// rangeEach walks live entries with start ≤ ID ≤ end (forward, or backward when rev), stopping
// when fn returns false.
func (s *streamValue) rangeEach(start, end StreamID, rev bool, fn func(en *nodeEntry) bool) {
	if start.cmp(end) > 0 {
		return
	}
	if !rev {
		i := 0
		if !start.isZero() {
			i = max(s.nodeIndexLE(start), 0)
		}
		live := func(en *nodeEntry) bool {
			return en.id.cmp(start) >= 0 && en.id.cmp(end) <= 0 && en.flags&streamFlagDeleted == 0
		}
		for stop := false; i < len(s.nodes) && !stop; i++ {
			s.nodes[i].each(live, func(en *nodeEntry) bool {
				if en.id.cmp(start) < 0 || en.flags&streamFlagDeleted != 0 {
					return true
				}
				if en.id.cmp(end) > 0 || !fn(en) {
					stop = true
					return false
				}
				return true
			})
		}
		return
	}
	i := len(s.nodes) - 1
	if !end.isZero() {
		if j := s.nodeIndexLE(end); j >= 0 {
			i = j
		}
	}
	skip := func(*nodeEntry) bool { return false }
	for ; i >= 0; i-- {
		n := s.nodes[i]
		var ens []nodeEntry // IDs and flags only; fields are read for the entries served
		n.each(skip, func(en *nodeEntry) bool { ens = append(ens, *en); return true })
		for k := len(ens) - 1; k >= 0; k-- {
			en := &ens[k]
			if en.id.cmp(end) > 0 || en.flags&streamFlagDeleted != 0 {
				continue
			}
			if en.id.cmp(start) < 0 {
				return
			}
			full := n.entryAt(en.flagsPos)
			if !fn(&full) {
				return
			}
		}
	}
}

// lookupEntry returns the live entry with this ID.
func (s *streamValue) lookupEntry(id StreamID) (*nodeEntry, bool) {
	var found *nodeEntry
	s.rangeEach(id, id, false, func(en *nodeEntry) bool { found = en; return false })
	return found, found != nil
}

// lastValidID is streamLastValidID.
func (s *streamValue) lastValidID() StreamID {
	var id StreamID
	s.rangeEach(StreamID{}, maxStreamID, true, func(en *nodeEntry) bool { id = en.id; return false })
	return id
}

// firstValidID is streamGetEdgeID(first, skip tombstones).
func (s *streamValue) firstValidID() StreamID {
	var id StreamID
	s.rangeEach(StreamID{}, maxStreamID, false, func(en *nodeEntry) bool { id = en.id; return false })
	return id
}

// updateFirstID is the first-entry id after deletions: none in an empty stream, else the first
// live entry's (streamGetEdgeID) when moved says the first entry may have gone.
func (s *streamValue) updateFirstID(moved bool) {
	if s.length == 0 {
		s.firstID = StreamID{}
	} else if moved {
		s.firstID = s.firstValidID()
	}
}

// deleteEntry is streamDeleteItem: flag the entry deleted (freeing its node when it was the
// node's last live entry).
func (e *Engine) streamDelete(key []byte, s *streamValue, id StreamID) bool {
	i := s.nodeIndexLE(id)
	if i < 0 {
		return false
	}
	n := s.nodes[i]
	for _, en := range n.entries() {
		if en.id != id || en.flags&streamFlagDeleted != 0 {
			continue
		}
		lp := n.lp
		lp.ReplaceInt(en.flagsPos, en.flags|streamFlagDeleted)
		p := lp.First()
		c := lpInt(lp, p)
		if c == 1 {
			s.nodes = slices.Delete(s.nodes, i, i+1)
			e.emit(StreamEvent{Key: string(key), Action: "node-deleted", ID: id.String(), Node: i, Master: n.master.String(), Count: 1})
		} else {
			p, _ = lp.ReplaceInt(p, c-1)
			p = lp.Next(p)
			d := lpInt(lp, p)
			lp.ReplaceInt(p, d+1)
			e.emit(StreamEvent{Key: string(key), Action: "entry-deleted", ID: id.String(), Node: i, Master: n.master.String(), Bytes: lp.TotalBytes()})
		}
		s.length--
		return true
	}
	return false
}

// trimArgs is streamAddTrimArgs.
type trimArgs struct {
	strategy int // 0 none, 1 MAXLEN, 2 MINID
	approx   bool
	limit    int64
	maxlen   int64
	minid    StreamID
	argIdx   int
}

// streamTrim is t_stream.c streamTrim: whole nodes from the head, then (exact trimming only)
// entries flagged deleted inside the first node that cannot go whole.
func (e *Engine) streamTrim(key []byte, s *streamValue, a *trimArgs) int64 {
	if a.strategy == 0 {
		return 0
	}
	deleted := int64(0)
	for len(s.nodes) > 0 {
		if a.strategy == 1 && s.length <= uint64(a.maxlen) {
			break
		}
		n := s.nodes[0]
		entries, _, _, _ := masterInfo(n.lp)
		if a.limit != 0 && deleted+entries > a.limit {
			break
		}
		var remove bool
		if a.strategy == 1 {
			remove = int64(s.length)-entries >= a.maxlen
		} else {
			ens := n.entries()
			last := ens[len(ens)-1].id // lpGetEdgeStreamID: the last entry, deleted or not
			remove = last.cmp(a.minid) < 0
		}
		if remove {
			s.nodes = s.nodes[1:]
			s.length -= uint64(entries)
			deleted += entries
			e.emit(StreamEvent{Key: string(key), Action: "node-deleted", Node: 0, Master: n.master.String(), Count: entries, Reason: "trimmed"})
			continue
		}
		if a.approx {
			break
		}
		fromLP := int64(0)
		lp := n.lp
		for _, en := range n.entries() {
			var stop bool
			if a.strategy == 1 {
				stop = s.length <= uint64(a.maxlen)
			} else {
				stop = en.id.cmp(a.minid) >= 0
			}
			if stop {
				break
			}
			if en.flags&streamFlagDeleted == 0 {
				// Replacing a small integer by another keeps every offset: flags are 0..3.
				lp.ReplaceInt(en.flagsPos, en.flags|streamFlagDeleted)
				fromLP++
				s.length--
				e.emit(StreamEvent{Key: string(key), Action: "entry-deleted", ID: en.id.String(), Node: 0, Master: n.master.String(), Reason: "trimmed"})
			}
		}
		deleted += fromLP
		p := lp.First()
		p, _ = lp.ReplaceInt(p, entries-fromLP)
		p = lp.Next(p)
		d := lpInt(lp, p)
		lp.ReplaceInt(p, d+fromLP)
		break
	}
	s.updateFirstID(deleted > 0)
	return deleted
}

// ---- groups ----

// groupIndex is where the group called name is (ok) or would go in s.groups, which is kept
// sorted by name (Redis keeps groups in a rax, walked in name order).
func (s *streamValue) groupIndex(name string) (int, bool) {
	return slices.BinarySearchFunc(s.groups, name, func(g *streamCG, n string) int { return cmpStr(g.name, n) })
}

// consumerIndex is groupIndex for g's consumers.
func (g *streamCG) consumerIndex(name string) (int, bool) {
	return slices.BinarySearchFunc(g.consumers, name, func(c *streamConsumer, n string) int { return cmpStr(c.name, n) })
}

func (s *streamValue) group(name []byte) *streamCG {
	i, ok := s.groupIndex(string(name))
	if !ok {
		return nil
	}
	return s.groups[i]
}

func cmpStr(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// createGroup is streamCreateCG (nil when the name exists).
func (s *streamValue) createGroup(name []byte, id StreamID, entriesRead int64) *streamCG {
	i, ok := s.groupIndex(string(name))
	if ok {
		return nil
	}
	g := &streamCG{name: string(name), lastID: id, entriesRead: entriesRead, nacks: map[StreamID]*streamNACK{}}
	s.groups = slices.Insert(s.groups, i, g)
	return g
}

func (s *streamValue) destroyGroup(name []byte) bool {
	i, ok := s.groupIndex(string(name))
	if ok {
		s.groups = slices.Delete(s.groups, i, i+1)
	}
	return ok
}

func (g *streamCG) consumer(name []byte) *streamConsumer {
	i, ok := g.consumerIndex(string(name))
	if !ok {
		return nil
	}
	return g.consumers[i]
}

// createConsumer is streamCreateConsumer (nil when it exists).
func (e *Engine) createConsumer(key []byte, g *streamCG, name []byte) *streamConsumer {
	i, ok := g.consumerIndex(string(name))
	if ok {
		return nil
	}
	c := &streamConsumer{name: string(name), seenTime: e.NowMs(), activeTime: -1}
	g.consumers = slices.Insert(g.consumers, i, c)
	e.addDirty(1) // (every streamCreateConsumer call is SCC_DEFAULT)
	e.emit(StreamEvent{Key: string(key), Action: "consumer-created", Group: g.name, Consumer: c.name})
	return c
}

// lookupConsumer is streamLookupConsumer; 7.0 refreshes seen-time unless noRefresh.
func (e *Engine) lookupConsumer(g *streamCG, name []byte, noRefresh bool) *streamConsumer {
	c := g.consumer(name)
	if c != nil && !noRefresh && !e.ver.Has(V72) {
		c.seenTime = e.NowMs()
	}
	return c
}

// lookupOrCreateConsumer finds or makes a consumer (refreshing seen-time on 7.0 lookups).
func (e *Engine) lookupOrCreateConsumer(key []byte, g *streamCG, name []byte) *streamConsumer {
	if c := e.lookupConsumer(g, name, false); c != nil {
		return c
	}
	return e.createConsumer(key, g, name)
}

// delConsumer is streamDelConsumer: its pending entries leave the group PEL too.
func (g *streamCG) delConsumer(c *streamConsumer) {
	for _, id := range c.pel {
		g.pel.remove(id)
		delete(g.nacks, id)
	}
	i, ok := g.consumerIndex(c.name)
	if ok {
		g.consumers = slices.Delete(g.consumers, i, i+1)
	}
}

// ack removes id from the group PEL and its consumer's.
func (g *streamCG) ack(id StreamID) bool {
	n, ok := g.nacks[id]
	if !ok {
		return false
	}
	g.pel.remove(id)
	if n.consumer != nil {
		n.consumer.pel.remove(id)
	}
	delete(g.nacks, id)
	return true
}

// ---- lag (t_stream.c streamRangeHasTombstones, streamEstimateDistanceFromFirstEverEntry) ----

func (s *streamValue) rangeHasTombstones(start StreamID, end *StreamID) bool {
	if s.length == 0 || s.maxDeletedID.isZero() {
		return false
	}
	if s.firstID.cmp(s.maxDeletedID) > 0 {
		return false
	}
	en := maxStreamID
	if end != nil {
		en = *end
	}
	return start.cmp(s.maxDeletedID) <= 0 && s.maxDeletedID.cmp(en) <= 0
}

func (s *streamValue) estimateDistance(id StreamID) int64 {
	if s.entriesAdded == 0 {
		return 0
	}
	if s.length == 0 && id.cmp(s.lastID) < 1 {
		return int64(s.entriesAdded)
	}
	cmpLast := id.cmp(s.lastID)
	if cmpLast == 0 {
		return int64(s.entriesAdded)
	} else if cmpLast > 0 {
		return -1
	}
	cmpFirst := id.cmp(s.firstID)
	if s.maxDeletedID.isZero() || s.maxDeletedID.cmp(s.firstID) < 0 {
		if cmpFirst < 0 {
			return int64(s.entriesAdded - s.length)
		} else if cmpFirst == 0 {
			return int64(s.entriesAdded - s.length + 1)
		}
	}
	return -1
}

// lag is streamReplyWithCGLag.
func (s *streamValue) lag(g *streamCG) Reply {
	switch {
	case s.entriesAdded == 0:
		return Int(0)
	case g.entriesRead != -1 && !s.rangeHasTombstones(g.lastID, nil):
		return Int(int64(s.entriesAdded) - g.entriesRead)
	}
	if r := s.estimateDistance(g.lastID); r != -1 {
		return Int(int64(s.entriesAdded) - r)
	}
	return NilReply
}

// ---- memory ----

// raxNodeCount is the number of nodes of a rax holding these keys, all of the same length,
// sorted and distinct (see the file comment): the root, plus for every branching position one
// node per child, plus a compressed node before each run of single-child bytes.
func raxNodeCount(keys [][16]byte) int {
	if len(keys) == 0 {
		return 1
	}
	return raxSub(keys, 0)
}

// raxSub counts the nodes of the subtree starting at depth for keys sharing their first depth
// bytes.
func raxSub(keys [][16]byte, depth int) int {
	if len(keys) == 1 {
		if depth == 16 {
			return 1
		}
		return 2 // a compressed node holding the rest, then the key's leaf
	}
	first, last := keys[0], keys[len(keys)-1]
	l := depth
	for l < 16 && first[l] == last[l] {
		l++
	}
	n := 0
	if l > depth {
		n++ // compressed node up to the branching point
	}
	n++ // the branching node
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && keys[j][l] == keys[i][l] {
			j++
		}
		n += raxSub(keys[i:j], l+1)
		i = j
	}
	return n
}

func idKeys(ids []StreamID) [][16]byte {
	out := make([][16]byte, len(ids))
	for i, id := range ids {
		out[i] = id.key()
	}
	return out
}

// raxMemory is streamRadixTreeMemoryUsage.
func raxMemory(numele, numnodes int) int64 {
	return int64(numele*16 + numnodes*4 + numnodes*8*30)
}

func (s *streamValue) raxNodes() int {
	ids := make([]StreamID, len(s.nodes))
	for i, n := range s.nodes {
		ids[i] = n.master
	}
	return raxNodeCount(idKeys(ids))
}

// streamMemory is objectComputeSize's OBJ_STREAM branch without the robj (keyEntryOverhead adds
// it). samples ≤ 0 reads every node.
func (e *Engine) streamMemory(o *Object, samples int) int64 {
	s := stv(o)
	size := int64(80) + raxMemory(len(s.nodes), s.raxNodes())
	if samples <= 0 {
		samples = int(^uint(0) >> 1)
	}
	lpsize, n := int64(0), 0
	for n < samples && n < len(s.nodes) {
		lpsize += int64(s.nodes[n].lp.Usable(e.alloc))
		n++
	}
	if len(s.nodes) <= n {
		size += lpsize
	} else {
		if n > 0 {
			lpsize /= int64(n)
		}
		size += lpsize * int64(len(s.nodes)-1)
		size += int64(s.nodes[len(s.nodes)-1].lp.Usable(e.alloc))
	}
	consumerSize := int64(24)
	if e.ver.Has(V72) {
		consumerSize = 32
	}
	for _, g := range s.groups {
		size += 40 + raxMemory(len(g.pel), raxNodeCount(idKeys(g.pel))) + 24*int64(len(g.pel))
		for _, c := range g.consumers {
			size += consumerSize + int64(len(c.name)) + raxMemory(len(c.pel), raxNodeCount(idKeys(c.pel)))
		}
	}
	return size
}

// CloneValue is streamDup for COPY (ValueCloner): a deep copy of the listpacks, groups,
// consumers and PELs.
func (s *streamValue) CloneValue() any {
	d := &streamValue{length: s.length, lastID: s.lastID, firstID: s.firstID, maxDeletedID: s.maxDeletedID, entriesAdded: s.entriesAdded}
	for _, n := range s.nodes {
		lp := n.lp.Clone()
		lp.ShrinkToFit() // streamDup copies lpBytes() bytes
		d.nodes = append(d.nodes, &streamNode{master: n.master, lp: lp})
	}
	for _, g := range s.groups {
		ng := &streamCG{name: g.name, lastID: g.lastID, entriesRead: g.entriesRead, pel: slices.Clone(g.pel), nacks: map[StreamID]*streamNACK{}}
		byName := map[*streamConsumer]*streamConsumer{}
		for _, c := range g.consumers {
			nc := &streamConsumer{name: c.name, seenTime: c.seenTime, activeTime: c.activeTime, pel: slices.Clone(c.pel)}
			byName[c] = nc
			ng.consumers = append(ng.consumers, nc)
		}
		for id, n := range g.nacks {
			ng.nacks[id] = &streamNACK{deliveryTime: n.deliveryTime, deliveryCount: n.deliveryCount, consumer: byName[n.consumer]}
		}
		d.groups = append(d.groups, ng)
	}
	return d
}

// ---- read-only view for the visualizer ----

// StreamView is a snapshot of a stream's inside, for the stream scene: its rax nodes with their
// listpacks, and its consumer groups with their PELs. It is a copy: the scene may keep it.
type StreamView struct {
	Length       uint64
	LastID       string
	FirstID      string
	MaxDeletedID string
	EntriesAdded uint64
	RaxNodes     int // rax nodes (XINFO radix-tree-nodes); len(Nodes) is radix-tree-keys
	Nodes        []StreamNodeView
	Groups       []StreamGroupView
}

// StreamNodeView is one rax key and its listpack.
type StreamNodeView struct {
	Master  string   // the master ID (the rax key)
	Bytes   int      // listpack total bytes
	Alloc   int      // the listpack's allocation (what MEMORY USAGE samples)
	Count   int64    // live entries (master entry's count)
	Deleted int64    // entries flagged deleted
	Fields  []string // the master entry's fields
	// MasterBytes is the master entry's size in the listpack (count, deleted, num-fields, the
	// fields and the 0 terminator), from byte 6 (after the listpack header).
	MasterBytes int
	Entries     []StreamEntryView
}

// StreamEntryView is one entry of a node, deleted ones included.
type StreamEntryView struct {
	ID         string
	Deleted    bool
	SameFields bool // stored as values only (flag SAMEFIELDS)
	Fields     []string
	Offset     int // the entry's first byte (its flags) in the listpack
	Size       int // its bytes, flags to lp-count included
}

// StreamGroupView is a consumer group.
type StreamGroupView struct {
	Name        string
	LastID      string
	EntriesRead int64 // -1 when unknown
	Pending     []StreamPendingView
	Consumers   []StreamConsumerView
}

// StreamPendingView is one entry of a group's PEL.
type StreamPendingView struct {
	ID            string
	Consumer      string
	DeliveryTime  int64
	DeliveryCount uint64
}

// StreamConsumerView is one consumer and its PEL (IDs).
type StreamConsumerView struct {
	Name       string
	SeenTime   int64
	ActiveTime int64
	Pending    []string
}

// StreamView returns the stream's inside; ok is false for any other value.
func (e *Engine) StreamView(o *Object) (v StreamView, ok bool) {
	if o == nil || o.Type != TypeStream {
		return v, false
	}
	s := stv(o)
	v = StreamView{Length: s.length, LastID: s.lastID.String(), FirstID: s.firstID.String(), MaxDeletedID: s.maxDeletedID.String(),
		EntriesAdded: s.entriesAdded, RaxNodes: s.raxNodes()}
	for _, n := range s.nodes {
		c, d, mf, _ := masterInfo(n.lp)
		nv := StreamNodeView{Master: n.master.String(), Bytes: n.lp.TotalBytes(), Alloc: n.lp.Usable(e.alloc), Count: c, Deleted: d}
		for _, f := range mf {
			nv.Fields = append(nv.Fields, string(f))
		}
		ens := n.entries()
		end := n.lp.TotalBytes() - 1 // the listpack's end byte
		nv.MasterBytes = end - 6
		if len(ens) > 0 {
			nv.MasterBytes = ens[0].flagsPos - 6
		}
		for i, en := range ens {
			ev := StreamEntryView{ID: en.id.String(), Deleted: en.flags&streamFlagDeleted != 0, SameFields: en.flags&streamFlagSameFields != 0, Offset: en.flagsPos}
			next := end
			if i+1 < len(ens) {
				next = ens[i+1].flagsPos
			}
			ev.Size = next - en.flagsPos
			for _, f := range en.fields {
				ev.Fields = append(ev.Fields, string(f))
			}
			nv.Entries = append(nv.Entries, ev)
		}
		v.Nodes = append(v.Nodes, nv)
	}
	for _, g := range s.groups {
		gv := StreamGroupView{Name: g.name, LastID: g.lastID.String(), EntriesRead: g.entriesRead}
		for _, id := range g.pel {
			n := g.nacks[id]
			pv := StreamPendingView{ID: id.String(), DeliveryTime: n.deliveryTime, DeliveryCount: n.deliveryCount}
			if n.consumer != nil {
				pv.Consumer = n.consumer.name
			}
			gv.Pending = append(gv.Pending, pv)
		}
		for _, c := range g.consumers {
			cv := StreamConsumerView{Name: c.name, SeenTime: c.seenTime, ActiveTime: c.activeTime}
			for _, id := range c.pel {
				cv.Pending = append(cv.Pending, id.String())
			}
			gv.Consumers = append(gv.Consumers, cv)
		}
		v.Groups = append(v.Groups, gv)
	}
	return v, true
}
