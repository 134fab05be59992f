// Package text holds translated texts of the app as data, Vietnamese and English side by side:
// ui.txt the page's strings and limits.txt its explanations of the app's limits (package
// assets), cards.txt the scenes' start cards, why.txt the sentences of the encoding conversions
// and bitop.txt BITOP's rules (package scene), course.txt the course map (package lesson). Each
// line is a TAB-separated record. (The scenes' labels that are built around figures stay next
// to the code that measures them, in tr calls.)
//
// A file is read when it is first asked for and cut into records once; nothing here parses at
// start-up, and nothing needs encoding/json.
package text

import (
	_ "embed"
	"strings"
	"sync"
)

// The files, as strings: a record's fields are cut out of them without copying.
var (
	//go:embed ui.txt
	uiTxt string
	//go:embed limits.txt
	limitsTxt string
	//go:embed cards.txt
	cardsTxt string
	//go:embed why.txt
	whyTxt string
	//go:embed bitop.txt
	bitopTxt string
	//go:embed course.txt
	courseTxt string
)

var files = map[string]*string{"ui.txt": &uiTxt, "limits.txt": &limitsTxt, "cards.txt": &cardsTxt,
	"why.txt": &whyTxt, "bitop.txt": &bitopTxt, "course.txt": &courseTxt}

// Records are the lines of file name cut at TABs: blank lines and lines starting with # are
// left out, and in every field \n stands for a line break and \\ for a backslash. A file that
// is not embedded has no records.
func Records(name string) [][]string {
	f, ok := files[name]
	if !ok {
		return nil
	}
	var out [][]string
	for rest := *f; rest != ""; {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		line = strings.TrimSuffix(line, "\r")
		if line == "" || line[0] == '#' {
			continue
		}
		fs := strings.Split(line, "\t")
		for i, s := range fs {
			if strings.IndexByte(s, '\\') >= 0 {
				fs[i] = unescape(s)
			}
		}
		out = append(out, fs)
	}
	return out
}

// unescape turns \n into a line break and \\ into a backslash; any other backslash stays.
func unescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case 'n':
				b.WriteByte('\n')
				i++
				continue
			case '\\':
				b.WriteByte('\\')
				i++
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// Pair is one text in both languages.
type Pair struct{ VI, EN string }

// In is the text in lang: English for "en", else Vietnamese.
func (p Pair) In(lang string) string {
	if lang == "en" {
		return p.EN
	}
	return p.VI
}

// Catalog is a file of lines "id<TAB>Vietnamese<TAB>English", read on first use.
type Catalog struct {
	name string
	once sync.Once
	m    map[string]Pair
	ids  []string
}

// NewCatalog is the catalog of file name (read when first looked up).
func NewCatalog(name string) *Catalog { return &Catalog{name: name} }

func (c *Catalog) load() {
	c.once.Do(func() {
		recs := Records(c.name)
		c.m = make(map[string]Pair, len(recs))
		for _, r := range recs {
			if len(r) != 3 {
				continue // the catalog's test reports it
			}
			if _, dup := c.m[r[0]]; !dup {
				c.ids = append(c.ids, r[0])
			}
			c.m[r[0]] = Pair{VI: r[1], EN: r[2]}
		}
	})
}

// Get is the text id in both languages, and whether the catalog has it.
func (c *Catalog) Get(id string) (Pair, bool) {
	c.load()
	p, ok := c.m[id]
	return p, ok
}

// IDs lists the catalog's ids in the file's order.
func (c *Catalog) IDs() []string {
	c.load()
	return append([]string(nil), c.ids...)
}
