package scene

// Start cards of the list and stream scenes (layout.go, drawStart).

func (s *listScene) start() (startCard, bool) {
	// Only before anything happened: no list yet, nothing moved, nobody waiting.
	_, ok := unmade(s.Lists, func(ls listShow) (string, bool) { return ls.Key, ls.Info.Exists })
	if !ok || len(s.Moves) > 0 || s.Conv != nil || len(s.Waiting) > 0 || len(s.Clients) > 0 {
		return startCard{}, false
	}
	c := startCard{
		title: tr(s.lang, "A list is a quicklist: a chain of listpack nodes, pushed and popped at its head and tail",
			"List là một quicklist: chuỗi node listpack, đẩy vào và lấy ra ở đầu và đuôi"),
		keys: s.watch,
		hint: tr(s.lang, "Type RPUSH jobs a b c below.", "Gõ RPUSH jobs a b c bên dưới."),
		parts: []swatch{
			{encColor("quicklist"), "quicklist", tr(s.lang, "the chain of nodes (7.0; 7.2+ keeps a small list as one listpack)", "chuỗi node (7.0; từ 7.2 list nhỏ chỉ là một listpack)")},
			{encColor("listpack"), "listpack", tr(s.lang, "one node: its entries packed byte after byte", "một node: các phần tử xếp sát nhau từng byte")},
			{accent, tr(s.lang, "changed", "vừa đổi"), tr(s.lang, "what the last command pushed or popped", "phần tử lệnh vừa đẩy vào hay lấy ra")},
		},
	}
	if len(s.watch) > 0 {
		c.hint = ""
	}
	return c, true
}

func (s *streamScene) start() (startCard, bool) {
	if s.Exists {
		return startCard{}, false
	}
	c := startCard{
		title: tr(s.lang, "A stream: a radix tree of listpack nodes, each with a master entry, and consumer groups with their pending entries",
			"Stream: cây radix gồm các node listpack, mỗi node có master entry, cùng các consumer group và entry đang chờ của chúng"),
		hint: tr(s.lang, "Type XADD s * a 1 below.", "Gõ XADD s * a 1 bên dưới."),
		parts: []swatch{
			{encColor("listpack"), "listpack", tr(s.lang, "a node of the radix tree", "một node của cây radix")},
			{accent, tr(s.lang, "changed", "vừa đổi"), tr(s.lang, "what the last command added, delivered or acknowledged", "thứ lệnh vừa thêm, giao hay xác nhận")},
		},
	}
	if s.Key != "" {
		c.keys, c.hint = []string{s.Key}, ""
	}
	return c, true
}
