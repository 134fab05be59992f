package text

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestUnescape(t *testing.T) {
	for in, want := range map[string]string{
		`a\nb`:    "a\nb",
		`a\\nb`:   `a\nb`,
		`a\tb`:    `a\tb`, // only \n and \\ are escapes
		`trail\`:  `trail\`,
		`\n\n`:    "\n\n",
		"no-esc":  "no-esc",
		`\\\\`:    `\\`,
		`x\\\ny`:  "x\\\ny",
		`ends\\`:  `ends\`,
		`mid\qok`: `mid\qok`,
	} {
		if got := unescape(in); got != want {
			t.Errorf("unescape(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestFiles: every line of the flat catalogs has its fields, every id once, and no text is
// empty (a missing translation would show as a blank on the page).
func TestFiles(t *testing.T) {
	for name, fields := range map[string]int{"ui.txt": 3, "limits.txt": 2, "why.txt": 3, "bitop.txt": 3} {
		recs := Records(name)
		if len(recs) == 0 {
			t.Errorf("%s: no records", name)
		}
		seen := map[string]bool{}
		for _, r := range recs {
			if len(r) != fields {
				t.Errorf("%s: %q has %d fields, want %d", name, r, len(r), fields)
				continue
			}
			if seen[r[0]] {
				t.Errorf("%s: %s twice", name, r[0])
			}
			seen[r[0]] = true
			for _, s := range r {
				if strings.TrimSpace(s) == "" {
					t.Errorf("%s: %q has an empty field", name, r)
				}
			}
		}
	}
	if Records("nosuch.txt") != nil {
		t.Error("a file not embedded has records")
	}
	// Every .txt of the directory is embedded and known by name.
	txts, _ := filepath.Glob("*.txt")
	for _, name := range txts {
		b, _ := os.ReadFile(name)
		if f, ok := files[name]; !ok || *f != string(b) {
			t.Errorf("%s is not embedded as files[%q]", name, name)
		}
	}
	if len(txts) != len(files) {
		t.Errorf("%d .txt files, %d embedded", len(txts), len(files))
	}
}

func TestCatalog(t *testing.T) {
	c := NewCatalog("ui.txt")
	p, ok := c.Get("lessonTextHint")
	if !ok || p.VI != "title vi: …\nstep\nvi: …\n> SET a 1" || p.In("en") != "title en: …\nstep\nen: …\n> SET a 1" || p.In("vi") != p.VI {
		t.Errorf("lessonTextHint = %q, %v", p, ok)
	}
	if _, ok := c.Get("nosuch"); ok {
		t.Error("an unknown id is found")
	}
	ids := c.IDs()
	if len(ids) != len(Records("ui.txt")) || ids[0] != "reset" {
		t.Errorf("ids %d (first %q), records %d", len(ids), ids[0], len(Records("ui.txt")))
	}
}
