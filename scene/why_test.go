package scene

import (
	"strings"
	"testing"

	"redscope/engine"
)

// TestWhyCatalog: every rule the engine reports has its sentence in both languages
// (assets/text/why.txt), with every blank filled, and no sentence is for a rule that does not
// exist.
func TestWhyCatalog(t *testing.T) {
	codes := map[string]bool{}
	for c := engine.WhyCode(1); c.String() != "unknown"; c++ {
		codes[c.String()] = true
		for _, lang := range []string{"vi", "en"} {
			for _, w := range []engine.Why{{Code: c, N: 1, Limit: 44, Extra: 1, Name: "hset"}, {Code: c, N: 6176, Limit: 128, Extra: 2, Name: "x"}} {
				got := whyText(lang, w)
				if got == c.String() || strings.ContainsAny(got, "{}|") {
					t.Errorf("%s %s: %q", lang, c, got)
				}
			}
		}
	}
	for _, id := range whySentences.IDs() {
		if !codes[id] {
			t.Errorf("why.txt: %s is no rule of engine.Why", id)
		}
	}
	for _, c := range []struct {
		lang string
		w    engine.Why
		want string
	}{
		{"en", engine.Why{Code: engine.WhyEmbstr, N: 1, Limit: 44}, "1 byte ≤ 44: object and sds in one allocation"},
		{"en", engine.Why{Code: engine.WhyEmbstr, N: 6176, Limit: 44}, "6\u202f176 bytes ≤ 44: object and sds in one allocation"},
		{"vi", engine.Why{Code: engine.WhyEmbstr, N: 6176, Limit: 44}, "6\u202f176 byte ≤ 44: đối tượng và sds chung một lần cấp phát"},
		{"en", engine.Why{Code: engine.WhyListNode, N: 8000, Extra: 1, Limit: 8192}, "8\u202f000 bytes + 1 new byte pass list-max-listpack-size 8\u202f192"},
		{"vi", engine.Why{Code: engine.WhyListNode, N: 8000, Extra: 300, Limit: 8192}, "8\u202f000 byte + 300 byte mới vượt list-max-listpack-size 8\u202f192"},
		{"en", engine.Why{Code: engine.WhyInPlace, Name: "append"}, "APPEND changes the value in place"},
		{"vi", engine.Why{Code: engine.WhyEntries, N: 129, Limit: 128, Name: "hash-max-listpack-entries"}, "129 phần tử > hash-max-listpack-entries 128"},
		{"en", engine.Why{Code: engine.WhyNone}, "none"},
	} {
		if got := whyText(c.lang, c.w); got != c.want {
			t.Errorf("whyText(%s, %+v) = %q, want %q", c.lang, c.w, got, c.want)
		}
	}
	// A blank the sentences do not know stays as written, and a sentence may end in one.
	if got := fillWhy("{n} {what} {lim", engine.Why{N: 3}); got != "3 {what} {lim" {
		t.Errorf("fillWhy = %q", got)
	}
}

// TestBitopRules: every operation BITOP has (the 8.2 ones included) has its rule in both
// languages; an unknown one shows its name.
func TestBitopRules(t *testing.T) {
	for _, op := range []string{"and", "or", "xor", "not", "diff", "diff1", "andor", "one"} {
		en, vi := bitopRule("en", &bitopView{Op: op}), bitopRule("vi", &bitopView{Op: op})
		if !strings.HasPrefix(en, strings.ToUpper(op)) || !strings.HasPrefix(vi, strings.ToUpper(op)) || en == vi {
			t.Errorf("%s: %q / %q", op, en, vi)
		}
	}
	if got := bitopRule("en", &bitopView{Op: "nand"}); got != "NAND" {
		t.Errorf("unknown op: %q", got)
	}
	if n := len(bitopRules.IDs()); n != 8 {
		t.Errorf("bitop.txt has %d rules, want 8", n)
	}
}
