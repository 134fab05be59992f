package scene

// Start cards of the list and stream scenes (layout.go, drawStart; their text in
// assets/text/cards.txt).

func (s *listScene) start() (startCard, bool) {
	// Only before anything happened: no list yet, nothing moved, nobody waiting.
	_, ok := unmade(s.Lists, func(ls listShow) (string, bool) { return ls.Key, ls.Info.Exists })
	if !ok || len(s.Moves) > 0 || s.Conv != nil || len(s.Waiting) > 0 || len(s.Clients) > 0 {
		return startCard{}, false
	}
	c := card(s.lang, "list", s.watch)
	if len(s.watch) > 0 {
		c.hint = ""
	}
	return c, true
}

func (s *streamScene) start() (startCard, bool) {
	if s.Exists {
		return startCard{}, false
	}
	c := card(s.lang, "stream", nil)
	if s.Key != "" {
		c.keys, c.hint = []string{s.Key}, ""
	}
	return c, true
}
