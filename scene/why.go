package scene

import (
	"strings"

	"redscope/assets/text"
	"redscope/engine"
)

// The engine reports why an encoding changed as a typed rule (engine.Why: a code and the figures
// it compared); this file phrases it in the reader's language, so a Vietnamese page never shows
// an English sentence from the engine. The sentences are data, one per rule in both languages
// (assets/text/why.txt); config parameter names, command names and encoding names stay as Redis
// spells them (they are what a student types or reads in redis.conf).

var whySentences = text.NewCatalog("why.txt")

// whyText phrases the rule w in lang ("vi" or "en"): its sentence with the rule's figures filled
// in, or the rule's name when the catalog has no sentence for it.
func whyText(lang string, w engine.Why) string {
	p, ok := whySentences.Get(w.Code.String())
	if !ok {
		return w.Code.String()
	}
	return fillWhy(p.In(lang), w)
}

// fillWhy fills the blanks of a why.txt sentence with w's figures: {n}, {lim} and {extra} as
// grouped numbers, {name} and {NAME} (in capitals), and {n|one|many} / {extra|one|many} as the
// number with the English noun in its form for it. Anything else stays as written.
func fillWhy(s string, w engine.Why) string {
	if strings.IndexByte(s, '{') < 0 {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '{')
		j := strings.IndexByte(s[i+1:], '}')
		if i < 0 || j < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		blank := s[i+1 : i+1+j]
		s = s[i+2+j:]
		field, forms, plural3 := strings.Cut(blank, "|")
		one, many, _ := strings.Cut(forms, "|")
		var n int64
		switch field {
		case "n":
			n = w.N
		case "lim":
			n = w.Limit
		case "extra":
			n = w.Extra
		case "name":
			b.WriteString(w.Name)
			continue
		case "NAME":
			b.WriteString(strings.ToUpper(w.Name))
			continue
		default:
			b.WriteString("{" + blank + "}")
			continue
		}
		if plural3 {
			b.WriteString(plural(n, one, many))
		} else {
			b.WriteString(num(n))
		}
	}
}
