package scene

import (
	"strings"
	"testing"

	"redscope/assets"
	"redscope/engine"
	"redscope/lesson"
)

// describeAt plays the built-in lesson name to step n in lang and returns its scene's text
// alternative.
func describeAt(t *testing.T, name string, n int, lang string) (string, *engine.Engine) {
	t.Helper()
	l := encBuiltin(t, name)
	p := lesson.NewPlayer(lesson.Config{Version: engine.V70})
	p.Load(l)
	for i := 0; i < n; i++ {
		if !p.Step() {
			t.Fatalf("%s has no step %d", name, n)
		}
	}
	s := New(l.Scene)
	s.Update(Input{Engine: p.Engine(), Keys: p.Watched(), Last: lastOf(p), Lang: lang})
	return Describe(s), p.Engine()
}

// TestDescribe: the text alternatives carry the step's real figures in the page's language.
func TestDescribe(t *testing.T) {
	for _, c := range []struct {
		lesson string
		step   int
		lang   string
		want   []string
	}{
		// The conversion step: 513 fields, the rule and its numbers, in Vietnamese.
		{"encodings-hash", 5, "vi", []string{"hash user:1: hashtable", "513 entry", "1\u202f024 bucket", "513 phần tử > hash-max-listpack-entries 512"}},
		{"encodings-hash", 5, "en", []string{"hash user:1: hashtable", "513 entries in 1\u202f024 buckets", "513 entries > hash-max-listpack-entries 512"}},
		// Two strings of the same length with different sizes (7.0, jemalloc).
		// Two strings of the same length with different sizes: MEMORY USAGE as the engine answers.
		{"sds-growth", 6, "en", []string{"string a: raw, MEMORY USAGE {a} bytes, sds8 len 56 of alloc 92", "string b: raw, MEMORY USAGE {b} bytes"}},
		{"hll-registers", 2, "vi", []string{"HyperLogLog h, sparse: 2 / 16\u202f384 thanh ghi khác 0"}},
		{"leaderboard", 8, "en", []string{"skiplist", "5 members", "forward and backward links"}},
		{"bloom", 2, "en", []string{"Bloom filter bf: 1 filter, 1 of 100 items"}},
		{"ring", 4, "vi", []string{"5 node", "150 vnode", "100\u202f000 key", "key đổi node trên vòng"}},
	} {
		got, e := describeAt(t, c.lesson, c.step, c.lang)
		for _, w := range c.want {
			for _, k := range []string{"a", "b"} {
				w = strings.ReplaceAll(w, "{"+k+"}", num(e.Inspect(k).Memory))
			}
			if !strings.Contains(got, w) {
				t.Errorf("%s step %d %s: %q lacks %q", c.lesson, c.step, c.lang, got, w)
			}
		}
	}
}

// TestStepZeroPicture: at step 0 of every built-in lesson, before any command, the scene draws a
// picture (its start card: colours, keys, what it will show) that reaches down the stage, at a
// laptop's and a phone's size, in both languages.
func TestStepZeroPicture(t *testing.T) {
	for _, src := range assets.Lessons() {
		l := encBuiltin(t, src.Name)
		p := lesson.NewPlayer(lesson.Config{Version: engine.DefaultVersion})
		p.Load(l)
		for _, lang := range []string{"vi", "en"} {
			s := New(l.Scene)
			s.Update(Input{Engine: p.Engine(), Keys: p.Watched(), Last: lastOf(p), Lang: lang})
			for _, st := range []Rect{Stage(1280, 800), Stage(360, 740)} {
				prims := s.Frame(st, 1)
				rects, bottom := 0, 0.0
				for _, q := range prims {
					if q.Kind == KRect {
						rects++
					}
					bottom = max(bottom, q.Y+q.H, q.Y+q.Size)
				}
				if rects < 3 || bottom < st.Y+st.H*0.6 {
					t.Errorf("%s %s %.0fx%.0f step 0: %d rectangles, drawn down to %.0f of %.0f", src.Name, lang, st.W, st.H, rects, bottom, st.H)
				}
			}
		}
	}
}
