package assets

import (
	"sync"

	"redscope/assets/text"
)

// The page's interface strings and the Vietnamese explanations of the app's limits are data:
// text/ui.txt and text/limits.txt, read on first use.
var (
	ui         = text.NewCatalog("ui.txt")
	limitsOnce sync.Once
	limitText  map[string]string // limit → its Vietnamese explanation
)

// Limit is the page's explanation of a refused command in lang: the limit's Vietnamese
// explanation, or the limit's own English message (detail).
func Limit(lang, limit, detail string) string {
	if lang != "en" {
		limitsOnce.Do(func() {
			limitText = map[string]string{}
			for _, r := range text.Records("limits.txt") {
				if len(r) == 2 {
					limitText[r[0]] = r[1]
				}
			}
		})
		if s, ok := limitText[limit]; ok {
			return s
		}
	}
	return detail
}

// T returns UI string id in lang ("vi" or "en"); the id itself when unknown.
func T(lang, id string) string {
	s, ok := ui.Get(id)
	if !ok {
		return id
	}
	return s.In(lang)
}

// UIIDs lists the string ids (for tests and the page).
func UIIDs() []string { return ui.IDs() }
