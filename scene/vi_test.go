package scene

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode"

	"redscope/assets"
	"redscope/engine"
	"redscope/lesson"
)

// englishWords are words of English prose that a Vietnamese canvas must not show. The rule the
// vi sweep applies to every text a scene draws in Vietnamese:
//   - text between double quotes is Redis's (a reply, a member, a value) and is not checked,
//     nor is a reply as redis-cli prints it ("(error) …" to the end of the text, "(integer)",
//     "(nil)"), nor a command line: from a word that is a command name (SET, EXISTS) to the
//     "→" before its reply or the end of the text (its arguments are the student's data);
//   - a word written in capitals (SET, MEMORY USAGE, OK) is a command or reply name, and a
//     word with a hyphen (hash-max-listpack-value) is a config parameter: not checked;
//   - encoding and structure names (listpack, hashtable, skiplist, intset, quicklist, embstr,
//     raw, int, sparse, dense, sds, key, byte, bit, member, field, node, filter, and value,
//     count, encoding, length, entry as the course's captions use them) are the words the course
//     uses in Vietnamese too, so they are not in this list;
//   - any other lowercase word in this list is English prose and fails the test.
//
// The list holds English function words and the words of the scenes' English sentences; a word
// that is also Vietnamese or a Redis term (a, in, set, list) is left out.
var englishWords = strings.Fields(`the of and or is are was be to on with from into than that this these
	those which when where what why how not no does did has have had will would can could
	fits fit longer shorter exceeded exceeds exceed reached bytes entries members values fields keys
	old command commands shared object objects embedded separate allocation allocated
	step steps empty missing whole side shown show shows never written zero zeros each every
	one two three first last next previous before after grows grew growth greedy spare room
	free used usage size limit limits items item register registers run runs estimate
	counts becomes become stays stay rebuilt changes changed change modifies
	place buffer query argument integer integers pointer only holds hold needs need asks
	form promoted update updates rewrite split merged merge hashes hashing buckets bucket
	table tables chain chains rank ranks score scores top bottom left right head tail
	nodes slots slot clients client owner lock locks expired expires expire ttl
	database type types encodings here there now then still already
	your you we our it its they them their his her him she he fixed order`)

// allowedInVi are words of englishWords that a Vietnamese text may carry as a term the course
// keeps in English (they are also Redis's vocabulary in the Vietnamese course).
var allowedInVi = map[string]bool{"ttl": true, "slot": true, "slots": true, "node": true, "nodes": true,
	"client": true, "clients": true, "score": true, "head": true, "tail": true, "bucket": true, "buckets": true}

var cmdEngine = engine.New(engine.Options{})

// notProse cuts from s what is Redis's and not the scene's prose: replies and command lines.
func notProse(s string) string {
	if i := strings.Index(s, "(error)"); i >= 0 {
		s = s[:i]
	}
	for _, r := range []string{"(integer)", "(nil)", "(empty array)", "(integer…", "(integ…", "(inte…"} {
		s = strings.ReplaceAll(s, r, " ")
	}
	f := strings.Fields(s)
	for i := 0; i < len(f); i++ {
		w := f[i]
		if len(w) > 1 && w == strings.ToUpper(w) && cmdEngine.HasCommand(strings.ToLower(w)) {
			j := i
			for j < len(f) && f[j] != "→" {
				j++
			}
			f = append(f[:i], f[j:]...)
		}
	}
	return strings.Join(f, " ")
}

func englishIn(s string) []string {
	s = notProse(s)
	deny := map[string]bool{}
	for _, w := range englishWords {
		deny[w] = true
	}
	var out []string
	inQuote := false
	word := []rune{}
	hyphen := false
	flush := func() {
		if len(word) > 0 && !inQuote && !hyphen {
			w := string(word)
			if w == strings.ToLower(w) && deny[w] && !allowedInVi[w] {
				out = append(out, w)
			}
		}
		word, hyphen = word[:0], false
	}
	for _, r := range s {
		switch {
		case r == '"':
			flush()
			inQuote = !inQuote
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			word = append(word, r)
		case r == '-' || r == '_' || r == ':' || r == '.':
			if len(word) > 0 {
				hyphen = true // a config name, a key like user:1, a file name
				word = append(word, r)
			}
		default:
			flush()
		}
	}
	flush()
	return out
}

func TestEnglishIn(t *testing.T) {
	for s, want := range map[string]string{
		`hash user:1 · listpack · 512 phần tử`:                    "",
		`field or value longer than hash-max-listpack-value`:      "or longer than",
		`SET doc new IFDEQ 3 → (integer) 0 the`:                   "the",
		`(error) ERR bit offset is not an integer`:                "",
		`> GET a → "the value"`:                                   "",
		`MEMORY USAGE 56 (embstr)`:                                "",
		`≤ 44 bytes and fits the 64-byte key object with the key`: "bytes and fits the object with the",
		`một phần tử 70 byte > hash-max-listpack-value 64`:        "",
		`1 zeros`: "zeros",
		`bit 1 ở offset 7 · Bước 3/5 · key "of the" · zset-max-entries`: "",
	} {
		if got := strings.Join(englishIn(s), " "); got != want {
			t.Errorf("englishIn(%q) = %q, want %q", s, got, want)
		}
	}
}

// sweepFrames plays every built-in lesson in lang, every step, updates the lesson's scene and
// calls fn with each frame's display list at the stages of a 1280×800, 1920×1080 and 360×740
// window, settled and mid-animation.
func sweepFrames(t *testing.T, lang string, fn func(where string, s Scene, prims []Prim)) {
	t.Helper()
	for _, src := range assets.Lessons() {
		l, err := lesson.Parse(src.Name+".lesson", src.Src)
		if err != nil {
			t.Fatal(err)
		}
		p := lesson.NewPlayer(lesson.Config{Version: engine.DefaultVersion})
		p.Load(l)
		s := New(l.Scene)
		for i := 0; ; i++ {
			s.Update(Input{Engine: p.Engine(), Keys: p.Watched(), Last: lastOf(p), Lang: lang})
			for _, st := range []Rect{Stage(1280, 800), Stage(1920, 1080), Stage(360, 740)} {
				for _, at := range []float64{0, 1} {
					fn(fmt.Sprintf("%s step %d %.0fx%.0f", l.Name, i, st.W, st.H), s, s.Frame(st, at))
				}
			}
			if !p.Step() {
				break
			}
		}
	}
}

// TestVietnameseCanvas plays every built-in lesson in Vietnamese, every step, and fails on English
// prose in any text the scene draws or in its text alternative (the rule: englishWords).
func TestVietnameseCanvas(t *testing.T) {
	bad := map[string]string{}
	sweepFrames(t, "vi", func(where string, s Scene, prims []Prim) {
		for _, p := range prims {
			if p.Kind != KText {
				continue
			}
			if w := englishIn(p.Text); len(w) > 0 {
				if _, dup := bad[p.Text]; !dup {
					bad[p.Text] = fmt.Sprintf("%s: %q (%s)", where, p.Text, strings.Join(w, " "))
				}
			}
		}
		if d := Describe(s); d != "" {
			if w := englishIn(d); len(w) > 0 {
				bad["describe:"+d] = fmt.Sprintf("%s: text alternative %q (%s)", where, d, strings.Join(w, " "))
			}
		}
	})
	var out []string
	for _, v := range bad {
		out = append(out, v)
	}
	sort.Strings(out)
	for _, v := range out {
		t.Error(v)
	}
}

// badPlural finds an English noun in the plural after the number 1 ("1 zeros", "memmove 1
// bytes"), or in the singular after another number ("3 byte"), in the nouns the scenes count.
var badPlural = regexp.MustCompile(`(?:^|[^\d.,\x{202f}\x{a0}])(?:1 (?:bytes|zeros|ones|entries|members|integers|keys|nodes|bits|items|filters|fields|registers|hashes|opcodes|buckets|steps|elements)|(?:[02-9]|\d\d) (?:zero|entry|member|integer|item|filter|field|register|opcode|bucket|element))\b`)

// TestEnglishPlurals plays every built-in lesson in English and fails on "1 bytes"-like texts.
func TestEnglishPlurals(t *testing.T) {
	if badPlural.FindString("memmove 1 bytes") == "" || badPlural.FindString("3 zero") == "" || badPlural.FindString("1 byte, 2 bytes, 11 zeros") != "" {
		t.Fatal("badPlural does not work")
	}
	bad := map[string]string{}
	sweepFrames(t, "en", func(where string, s Scene, prims []Prim) {
		for _, p := range prims {
			if p.Kind == KText && badPlural.MatchString(p.Text) {
				bad[p.Text] = where
			}
		}
		if d := Describe(s); badPlural.MatchString(d) {
			bad[d] = where + " (text alternative)"
		}
	})
	for s, w := range bad {
		t.Errorf("%s: %q", w, s)
	}
}

// TestPhoneTextSize: on a phone's stage (360 px wide) no text of any built-in lesson, at any
// step, is smaller than minText (11 CSS px).
func TestPhoneTextSize(t *testing.T) {
	small := map[string]string{}
	sweepFrames(t, "vi", func(where string, s Scene, prims []Prim) {
		for _, p := range prims {
			if p.Kind == KText && p.Text != "" && p.Size < minText-1e-9 {
				small[fmt.Sprintf("%T %.1f px", s, p.Size)] = where + ": " + p.Text
			}
		}
	})
	for k, v := range small {
		t.Errorf("%s: %s", k, v)
	}
}
