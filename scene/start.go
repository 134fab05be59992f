package scene

// The scenes' start cards (layout.go, drawStart): what each picture will show before the
// lesson's first command has made its keys.

// unmade is the names of the keys ks (their name and whether they exist, by key) for a start
// card, or false once one of them exists: the card is only for a lesson's first picture.
func unmade[K any](ks []K, key func(K) (string, bool)) ([]string, bool) {
	var names []string
	for _, k := range ks {
		name, exists := key(k)
		if exists {
			return nil, false
		}
		names = append(names, name)
	}
	return names, true
}

func (s *sdsScene) start() (startCard, bool) {
	_, ok := unmade(s.Keys, func(k sdsKey) (string, bool) { return k.Info.Key, k.Info.Exists })
	if !ok || s.History != nil || len(s.TTLRows) > 0 || s.Note != "" {
		return startCard{}, false
	}
	c := startCard{
		title: tr(s.lang, "A Redis string byte by byte: the object, the sds header, the bytes, the spare room",
			"Chuỗi Redis từng byte: robj, header sds, dữ liệu và phần dư"),
		keys: s.watch,
		hint: tr(s.lang, "Type SET k hello or APPEND k world below.", "Gõ SET k hello hoặc APPEND k world bên dưới."),
	}
	for kind := segRobj; kind <= segSlack; kind++ {
		c.parts = append(c.parts, swatch{segColor(kind), segName(kind, s.lang), ""})
	}
	c.parts = append(c.parts,
		swatch{encColor("int"), "int", tr(s.lang, "a number kept in the object itself", "số nguyên cất ngay trong robj")},
		swatch{encColor("embstr"), "embstr", tr(s.lang, "≤ 44 bytes: object and sds in one allocation", "≤ 44 byte: robj và sds chung một vùng")},
		swatch{encColor("raw"), "raw", tr(s.lang, "a separate sds that can grow", "sds riêng, lớn lên được")})
	return c, true
}

func (s *bitsScene) start() (startCard, bool) {
	if s.Op != nil || s.Error || len(s.Deleted) > 0 || s.Key != "" && s.Info.Exists {
		return startCard{}, false
	}
	return startCard{
		title: pick(s.lang, "A string as a row of bits: offset n is bit n mod 8 of byte n/8, counted from the left",
			"String là một dãy bit: offset n là bit thứ n mod 8 của byte n/8, tính từ trái"),
		keys: s.watch,
		hint: tr(s.lang, "Type SETBIT k 7 1 below.", "Gõ SETBIT k 7 1 bên dưới."),
		parts: []swatch{
			{oneC, "1", tr(s.lang, "a set bit", "bit bật")},
			{zeroC, "0", tr(s.lang, "a clear bit (and every byte never written)", "bit tắt (và mọi byte chưa ghi)")},
			{accent, tr(s.lang, "changed", "vừa đổi"), tr(s.lang, "what the last command touched", "chỗ lệnh vừa chạm tới")},
			{encColor("raw"), "raw", tr(s.lang, "the sds that holds the bytes", "sds giữ các byte")},
		},
	}, true
}

func (s *HLL) start() (startCard, bool) {
	if s.Counting && len(s.Rows) > 0 || !s.Counting && s.Key != "" && s.Info.Exists || s.Reply != "" {
		return startCard{}, false
	}
	return startCard{
		title: tr(s.lang, "HyperLogLog: 16 384 registers, each the longest run of zeros its elements' hashes showed",
			"HyperLogLog: 16 384 thanh ghi, mỗi thanh ghi giữ chuỗi số 0 dài nhất từ hash của các phần tử"),
		keys: s.watch,
		hint: tr(s.lang, "Type PFADD h a b c below.", "Gõ PFADD h a b c bên dưới."),
		parts: []swatch{
			{indexC, tr(s.lang, "index bits", "bit chỉ số"), tr(s.lang, "the low 14 bits of the hash pick the register", "14 bit thấp của hash chọn thanh ghi")},
			{runC, tr(s.lang, "run of zeros", "chuỗi số 0"), tr(s.lang, "zeros before the first 1, plus one: the count", "số 0 trước số 1 đầu tiên, cộng 1: count")},
			{RegColor(6), tr(s.lang, "register", "thanh ghi"), tr(s.lang, "keeps the largest count seen", "giữ count lớn nhất từng thấy")},
			{encColor("sparse"), "sparse", tr(s.lang, "runs of registers as opcodes, while small", "dãy thanh ghi thành opcode, khi còn nhỏ")},
			{encColor("dense"), "dense", tr(s.lang, "6 bits per register, 12 304 bytes", "6 bit mỗi thanh ghi, 12 304 byte")},
		},
	}, true
}

func encStartParts(lang string, encs ...string) []swatch {
	what := map[string][2]string{
		"listpack":  {"entries packed one after another in one allocation", "các entry xếp liền nhau trong một vùng nhớ"},
		"intset":    {"sorted integers of one width", "số nguyên xếp tăng, cùng độ rộng"},
		"hashtable": {"buckets of pointers, chains of entries", "mảng bucket, mỗi bucket một chuỗi entry"},
		"skiplist":  {"nodes with towers of forward links and a backward link", "node có tháp con trỏ tiến và một con trỏ lùi"},
	}
	var out []swatch
	for _, e := range encs {
		w := what[e]
		out = append(out, swatch{encColor(e), e, pick(lang, w[0], w[1])})
	}
	return out
}

func (s *encodingScene) start() (startCard, bool) {
	if s.Key != "" && s.Info.Exists || s.Note != "" {
		return startCard{}, false
	}
	return startCard{
		title: tr(s.lang, "Small hashes and sets are packed; past a limit Redis converts them to a hashtable",
			"Hash và set nhỏ được nén chặt; vượt ngưỡng, Redis đổi sang hashtable"),
		keys:  s.watch,
		hint:  tr(s.lang, "Type HSET h f v or SADD s 1 2 3 below.", "Gõ HSET h f v hoặc SADD s 1 2 3 bên dưới."),
		parts: encStartParts(s.lang, "listpack", "intset", "hashtable"),
	}, true
}

func (s *zsetScene) start() (startCard, bool) {
	if s.Key != "" && s.Info.Exists && len(s.Members) > 0 || s.Note != "" {
		return startCard{}, false
	}
	return startCard{
		title: tr(s.lang, "A sorted set: a listpack while small, then a skiplist with a dict",
			"Sorted set: listpack khi còn nhỏ, rồi skiplist kèm dict"),
		keys:  s.watch,
		hint:  tr(s.lang, "Type ZADD z 1 a 2 b below.", "Gõ ZADD z 1 a 2 b bên dưới."),
		parts: encStartParts(s.lang, "listpack", "skiplist"),
	}, true
}

func (s *bloomScene) start() (startCard, bool) {
	if s.Key != "" && len(s.Filters) > 0 {
		return startCard{}, false
	}
	return startCard{
		title: tr(s.lang, "A Bloom filter: k hashes set k bits per item; a query answers maybe or certainly not",
			"Bloom filter: k hàm băm bật k bit cho mỗi phần tử; khi hỏi, trả lời có thể có hoặc chắc chắn không"),
		keys: s.watch,
		hint: tr(s.lang, "Type BF.RESERVE bf 0.01 100, then BF.ADD bf hello below.", "Gõ BF.RESERVE bf 0.01 100 rồi BF.ADD bf hello bên dưới."),
		parts: []swatch{
			{oneC, tr(s.lang, "bit set", "bit bật"), tr(s.lang, "set by some item's hash", "do hash của một phần tử bật")},
			{zeroC, tr(s.lang, "bit clear", "bit tắt"), tr(s.lang, "one clear bit proves an item absent", "một bit tắt chứng minh phần tử không có")},
			{accent, tr(s.lang, "probed", "vừa hỏi"), tr(s.lang, "the bits of the last item", "các bit của phần tử vừa xử lý")},
		},
	}, true
}

func (s *ringScene) start() (startCard, bool) {
	if s.Ev != nil || len(s.Slots) > 0 {
		return startCard{}, false
	}
	c := startCard{
		title: tr(s.lang, "Consistent hashing: nodes and keys on one ring; a key belongs to the next node clockwise",
			"Consistent hashing: node và key trên cùng một vòng; key thuộc node kế tiếp theo chiều kim đồng hồ"),
		hint: tr(s.lang, "Type ring nodes a,b,c,d or CLUSTER KEYSLOT k below.", "Gõ ring nodes a,b,c,d hoặc CLUSTER KEYSLOT k bên dưới."),
	}
	for i := 0; i < 4; i++ {
		c.parts = append(c.parts, swatch{nodeColor(i), "node " + string(rune('a'+i)), tr(s.lang, "its arcs of the ring and its keys", "các cung của nó trên vòng và key của nó")})
	}
	return c, true
}

func (s *countersScene) start() (startCard, bool) {
	keys, ok := unmade(s.Keys, func(k counterKey) (string, bool) { return k.Key, k.Exists })
	if !ok || len(s.Rows) > 0 || s.ClockMs != 0 || s.Missing != "" {
		return startCard{}, false
	}
	return startCard{
		title: tr(s.lang, "Counters, limits and locks: each key's value and time to live, each command's verdict",
			"Bộ đếm, giới hạn và khoá: giá trị và thời gian sống của từng key, kết quả của từng lệnh"),
		keys: keys,
		hint: tr(s.lang, "Type SET lock tok-A NX PX 30000 below.", "Gõ SET lock tok-A NX PX 30000 bên dưới."),
		parts: []swatch{
			{oneC, "TTL", tr(s.lang, "the time left, on the logical clock", "thời gian còn lại, theo đồng hồ logic")},
			{oneC, tr(s.lang, "done", "đã làm"), tr(s.lang, "the command wrote, added or deleted", "lệnh đã ghi, cộng hoặc xoá")},
			{ErrorC, tr(s.lang, "refused", "từ chối"), tr(s.lang, "a limit or a condition said no", "giới hạn hoặc điều kiện không cho")},
			{clientColor(0), "client A", tr(s.lang, "a token written by client A", "token do client A ghi")},
			{clientColor(1), "client B", tr(s.lang, "a token written by client B", "token do client B ghi")},
		},
	}, true
}
