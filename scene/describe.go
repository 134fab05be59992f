package scene

import (
	"fmt"
	"redscope/engine"
	"strings"
)

// The text alternatives of the scenes (Describer): one or two sentences in the Input's language
// saying what the picture shows at this step, with the figures drawn, for a screen reader and
// for anyone who cannot see the canvas.

// keyWords is "hash user:1: listpack, 6 176 bytes" (en) or "hash user:1: listpack, 6 176 byte"
// (vi) from a key's measures; a missing key is "a: does not exist" / "a: không tồn tại".
func keyWords(lang string, k engine.KeyInfo) string {
	if !k.Exists {
		return tr(lang, "%s: does not exist", "%s: không tồn tại", k.Key)
	}
	s := fmt.Sprintf("%s %s: %s", k.Type, k.Key, k.Encoding)
	if k.Memory >= 0 {
		s += tr(lang, ", MEMORY USAGE %s", ", MEMORY USAGE %s", nBytes(lang, k.Memory))
	}
	return s
}

func sentence(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return ""
	}
	s := strings.Join(out, "; ")
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

// Describe implements Describer.
func (s *sdsScene) Describe() string {
	var parts []string
	for _, k := range s.Keys {
		p := keyWords(s.lang, k.Info)
		if k.Info.Exists && k.Info.SDS != nil {
			p += tr(s.lang, ", %s len %s of alloc %s", ", %s len %s trên alloc %s", k.Info.SDS.Type, num(int64(k.Info.SDS.Len)), num(int64(k.Info.SDS.Alloc)))
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		parts = append(parts, tr(s.lang, "no string drawn yet", "chưa có chuỗi nào"))
	}
	return sentence(strings.Join(parts, "; "), s.Note)
}

// Describe implements Describer.
func (s *bitsScene) Describe() string {
	if s.Key == "" {
		return tr(s.lang, "No bitmap drawn yet.", "Chưa có bitmap nào.")
	}
	p := keyWords(s.lang, s.Info)
	if s.Info.Exists && s.Info.Len >= 0 {
		p += tr(s.lang, ", %s (%s)", ", %s (%s)", nBytes(s.lang, s.Info.Len), trPlural(s.lang, s.Info.Len*8, "bit", "bits", "bit"))
	}
	var last string
	if len(s.Touched) > 0 {
		ev := s.Touched[len(s.Touched)-1]
		last = tr(s.lang, "bit %s is byte %s, bit %d: %d → %d", "bit %s nằm ở byte %s, bit %d: %d → %d", num(ev.Offset), num(ev.Byte), ev.Bit, ev.Old, ev.New)
	}
	if s.Op != nil {
		last = tr(s.lang, "BITOP %s %s ← %s: %s", "BITOP %s %s ← %s: %s", strings.ToUpper(s.Op.Op), s.Op.Dest, strings.Join(s.Op.Sources, " "), nBytes(s.lang, s.Op.Len))
	}
	return sentence(p, last)
}

// Describe implements Describer.
func (s *HLL) Describe() string {
	if s.Counting && len(s.Rows) > 0 {
		var parts []string
		for _, r := range s.Rows {
			if r.Set {
				parts = append(parts, tr(s.lang, "set %s: %s members exactly, %s", "set %s: đúng %s phần tử, %s", r.Key, num(r.Count), nBytes(s.lang, r.Memory)))
			} else if r.Known {
				parts = append(parts, tr(s.lang, "HyperLogLog %s (%s): about %s, %s", "HyperLogLog %s (%s): khoảng %s, %s", r.Key, r.Enc, num(r.Count), nBytes(s.lang, r.Memory)))
			} else {
				parts = append(parts, tr(s.lang, "HyperLogLog %s (%s): %s", "HyperLogLog %s (%s): %s", r.Key, r.Enc, nBytes(s.lang, r.Memory)))
			}
		}
		return sentence(parts...)
	}
	if !s.Valid {
		return sentence(keyWords(s.lang, s.Info))
	}
	p := tr(s.lang, "HyperLogLog %s, %s: %s of %s registers set, %s", "HyperLogLog %s, %s: %s / %s thanh ghi khác 0, %s",
		s.Key, s.Info.HLL, num(int64(s.setRegs)), num(HLLRegisters), nBytes(s.lang, s.Bytes))
	var last string
	if n := len(s.Events); n > 0 {
		ev := s.Events[n-1]
		last = tr(s.lang, "the last element went to register %s with count %d (it holds %d)", "phần tử cuối vào thanh ghi %s với count %d (thanh ghi giữ %d)",
			num(int64(ev.Index)), ev.Count, ev.New)
	}
	if s.Promote != nil {
		last = tr(s.lang, "it became dense in this step: %s", "vừa chuyển sang dense: %s", whyText(s.lang, s.Promote.Why))
	}
	return sentence(p, last)
}

// Describe implements Describer.
func (s *encodingScene) Describe() string {
	if s.Key == "" {
		return tr(s.lang, "No key drawn yet.", "Chưa có key nào.")
	}
	p := keyWords(s.lang, s.Info)
	switch {
	case s.LP != nil:
		p += tr(s.lang, ", %s in a listpack of %s", ", %s trong listpack %s", trPlural(s.lang, int64(len(s.LP.Entries)), "entry", "entries", "entry"), nBytes(s.lang, len(s.LP.Bytes)))
	case s.IS != nil:
		p += tr(s.lang, ", %s of %s each", ", %s, mỗi số %s", trPlural(s.lang, int64(len(s.IS.Values)), "integer", "integers", "số nguyên"), nBytes(s.lang, s.IS.Width))
	case s.HT != nil:
		v := s.HT.View
		p += tr(s.lang, ", %s in %s", ", %s trong %s", trPlural(s.lang, int64(v.Used[0]+v.Used[1]), "entry", "entries", "entry"),
			trPlural(s.lang, int64(v.Size[0]+v.Size[1]), "bucket", "buckets", "bucket"))
	}
	return sentence(p, s.Note)
}

// Describe implements Describer.
func (s *zsetScene) Describe() string {
	if s.Key == "" {
		return tr(s.lang, "No sorted set drawn yet.", "Chưa có sorted set nào.")
	}
	p := keyWords(s.lang, s.Info) + tr(s.lang, ", %s", ", %s", trPlural(s.lang, int64(len(s.Members)), "member", "members", "member"))
	if s.ListLevel > 0 {
		p += tr(s.lang, ", %d skiplist levels with forward and backward links", ", skiplist %d tầng, có con trỏ tiến và lùi", s.ListLevel)
	}
	if n := len(s.Members); n > 0 {
		top := s.Members[n-1]
		p += tr(s.lang, ", top: %s (%s)", ", đứng đầu: %s (%s)", top.Member, top.Score)
	}
	return sentence(p, s.Note)
}

// Describe implements Describer.
func (s *ringScene) Describe() string {
	if s.Ev == nil {
		if len(s.Slots) > 0 {
			sl := s.Slots[len(s.Slots)-1]
			return sentence(tr(s.lang, "key %s is in hash slot %s of 16 384", "key %s nằm ở slot %s trên 16 384", sl.Key, num(int64(sl.Slot))))
		}
		return tr(s.lang, "No ring drawn yet.", "Chưa có vòng băm nào.")
	}
	ev := s.Ev
	p := tr(s.lang, "a hash ring (%s) of %s with %s each, %s spread over it", "vòng băm %s gồm %s node, mỗi node %s vnode, %s key rải trên vòng",
		ev.Hash, num(int64(len(ev.Nodes))), num(int64(ev.VNodes)), num(int64(ev.Keys)))
	if s.lang == "en" {
		p = fmt.Sprintf("a hash ring (%s) of %s with %s each, %s spread over it", ev.Hash, plural(int64(len(ev.Nodes)), "node", "nodes"),
			plural(int64(ev.VNodes), "vnode", "vnodes"), plural(int64(ev.Keys), "key", "keys"))
	}
	var moved string
	if ev.RingMoved >= 0 {
		moved = tr(s.lang, "%s moved to another node on the ring", "%s key đổi node trên vòng", plural(int64(ev.RingMoved), "key", "keys"))
		if s.lang != "en" {
			moved = fmt.Sprintf("%s key đổi node trên vòng", num(int64(ev.RingMoved)))
		}
		if ev.ModMoved >= 0 {
			moved += tr(s.lang, ", %s with hash %% N", ", %s với hash %% N", num(int64(ev.ModMoved)))
		}
	}
	return sentence(p, moved)
}

// Describe implements Describer.
func (s *bloomScene) Describe() string {
	if s.Key == "" || len(s.Filters) == 0 {
		return sentence(tr(s.lang, "no Bloom filter yet", "chưa có Bloom filter nào"))
	}
	var items, capTotal, bits, set uint64
	for _, f := range s.Filters {
		items += f.Items
		capTotal += f.Capacity
		bits += f.Bits
		set += f.Set
	}
	p := tr(s.lang, "Bloom filter %s: %s, %s of %s items, %s of %s bits set", "Bloom filter %s: %s filter, %s / %s phần tử, %s / %s bit là 1",
		s.Key, plural(int64(len(s.Filters)), "filter", "filters"), num(int64(items)), num(int64(capTotal)), num(int64(set)), num(int64(bits)))
	if s.lang != "en" {
		p = fmt.Sprintf("Bloom filter %s: %s filter, %s / %s phần tử, %s / %s bit là 1", s.Key, num(int64(len(s.Filters))), num(int64(items)), num(int64(capTotal)), num(int64(set)), num(int64(bits)))
	}
	var probes string
	if s.Probes > 0 {
		probes = tr(s.lang, "%s of %s probes answered 1", "%s / %s lần hỏi trả 1", num(int64(s.Yes)), num(int64(s.Probes)))
		if s.Probes >= bloomProbesMin {
			probes += tr(s.lang, " (false-positive rate %.1f%%)", " (tỉ lệ dương tính giả %.1f%%)", 100*float64(s.Yes)/float64(s.Probes))
		}
	}
	return sentence(p, probes)
}

// Describe implements Describer.
func (s *countersScene) Describe() string {
	var parts []string
	for _, k := range s.Keys {
		switch {
		case !k.Exists:
			parts = append(parts, tr(s.lang, "%s does not exist", "%s không tồn tại", k.Key))
		case k.TTLMs >= 0:
			parts = append(parts, tr(s.lang, "%s = %q, %s ms left", "%s = %q, còn %s ms", k.Key, k.Value, num(k.TTLMs)))
		default:
			parts = append(parts, tr(s.lang, "%s = %q, no expiry", "%s = %q, không hết hạn", k.Key, k.Value))
		}
	}
	if n := len(s.Rows); n > 0 {
		r := s.Rows[n-1]
		parts = append(parts, tr(s.lang, "last: %s → %s", "lệnh cuối: %s → %s", r.Cmd, r.Reply))
	}
	if len(parts) == 0 {
		return tr(s.lang, "No key drawn yet.", "Chưa có key nào.")
	}
	return sentence(parts...)
}
