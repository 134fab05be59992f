//go:build !(js && wasm)

package browsertest

// The lesson list follows the course map (lesson/course.go, docs/course.md): one <optgroup> per
// "article — section", in the course's order, labelled in the page's language.

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"redscope/assets"
	"redscope/lesson"
)

// lessonHeads is the header of every built-in lesson.
func lessonHeads(t *testing.T) []*lesson.Lesson {
	t.Helper()
	var heads []*lesson.Lesson
	for _, src := range assets.Lessons() {
		h, err := lesson.ParseHeader(src.Name+".lesson", src.Src)
		if err != nil {
			t.Fatal(err)
		}
		heads = append(heads, h)
	}
	return heads
}

// courseFirst is the course's first lesson, the one a first visit opens.
func courseFirst(t *testing.T) string {
	t.Helper()
	return lesson.CourseOrder(lessonHeads(t))[0].Name
}

// listEntry is one child of the lesson <select>: an option outside any group, or a group.
type listEntry struct {
	Tag     string      `json:"tag"`
	Label   string      `json:"label"`   // the optgroup's label, or the option's text
	Value   string      `json:"value"`   // the option's value
	Options [][2]string `json:"options"` // the group's (value, text) pairs
}

func (b *browser) lessonList() []listEntry {
	b.t.Helper()
	s := b.str(`JSON.stringify([...document.getElementById("lesson").children].map(c => c.tagName === "OPTGROUP"
		? {tag: "OPTGROUP", label: c.label, options: [...c.children].map(o => [o.value, o.textContent])}
		: {tag: c.tagName, label: c.textContent, value: c.value}))`)
	var out []listEntry
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		b.t.Fatal(err)
	}
	return out
}

// TestLessonListCourse: in vi and in en, the lesson list is the free-play entry, then one group
// per course section in the course's order (articles 000, 001, 003, 004 and their sections in
// the articles' order), each lesson once with its title in the page's language, the group
// labels "article — section" in that language; a first visit opens the course's first lesson;
// the arrow keys walk across groups and Enter opens the lesson reached.
func TestLessonListCourse(t *testing.T) {
	heads := lessonHeads(t)
	groups := lesson.CourseGroups(heads)
	// Where each section sits in the course, to check the page's order independently of
	// CourseGroups: article index × 100 + section index.
	rank := map[string]int{}
	for i, a := range lesson.Course() {
		for j := range a.Sections {
			for _, lang := range []string{"vi", "en"} {
				g := lesson.CourseGroup{Article: &a, Section: &a.Sections[j]}
				rank[lang+"|"+g.Label(lang, "")] = i*100 + j
			}
		}
	}
	b := start(t, 1280, 800)
	labels := map[string][]string{}
	for _, lang := range []string{"vi", "en"} {
		b.open("?lang=" + lang)
		list := b.lessonList()
		if len(list) == 0 || list[0].Tag != "OPTION" || list[0].Value != "sandbox" || list[0].Label != assets.T(lang, "sandbox") {
			t.Fatalf("%s: the list does not start with free play: %+v", lang, list)
		}
		list = list[1:]
		if len(list) != len(groups) {
			t.Fatalf("%s: %d groups on the page, the course has %d", lang, len(list), len(groups))
		}
		seen := map[string]bool{}
		last := -1
		for i, e := range list {
			g := groups[i]
			if e.Tag != "OPTGROUP" {
				t.Fatalf("%s: entry %d is a %s, not a group", lang, i+1, e.Tag)
			}
			if want := g.Label(lang, assets.T(lang, "otherLessons")); e.Label != want {
				t.Errorf("%s: group %d is %q, want %q", lang, i+1, e.Label, want)
			}
			if r, ok := rank[lang+"|"+e.Label]; !ok && g.Section != nil {
				t.Errorf("%s: group %q names no section of the course", lang, e.Label)
			} else if ok {
				if r <= last {
					t.Errorf("%s: group %q out of the course's order", lang, e.Label)
				}
				last = r
			} else if i != len(list)-1 {
				t.Errorf("%s: the group of lessons without a section is not last", lang)
			}
			if len(e.Options) != len(g.Lessons) {
				t.Errorf("%s: group %q has %d lessons, want %d", lang, e.Label, len(e.Options), len(g.Lessons))
				continue
			}
			for k, o := range e.Options {
				l := g.Lessons[k]
				if o[0] != l.Name || o[1] != l.Title.In(lang) {
					t.Errorf("%s: group %q option %d is %v, want %s %q", lang, e.Label, k, o, l.Name, l.Title.In(lang))
				}
				if seen[o[0]] {
					t.Errorf("%s: %s listed twice", lang, o[0])
				}
				seen[o[0]] = true
			}
			labels[lang] = append(labels[lang], e.Label)
		}
		if len(seen) != len(heads) {
			t.Errorf("%s: %d lessons listed, %d built in", lang, len(seen), len(heads))
		}
		// A first visit opens the course's first lesson, and the list shows it.
		first := groups[0].Lessons[0].Name
		if l := b.state().(map[string]any)["lesson"]; l != first || b.str(`document.getElementById("lesson").value`) != first {
			t.Errorf("%s: opened %v, the course starts with %s", lang, l, first)
		}
		if lbl := b.str(`document.getElementById("lesson").labels[0].textContent`); lbl != assets.T(lang, "lesson") {
			t.Errorf("%s: the list is labelled %q", lang, lbl)
		}
	}
	// Every label differs between the languages (each one is translated), and the vi page uses
	// the course's Vietnamese titles.
	for i := range labels["vi"] {
		if labels["vi"][i] == labels["en"][i] {
			t.Errorf("group %d has the same label in vi and en: %q", i+1, labels["vi"][i])
		}
	}
	if !strings.HasPrefix(labels["vi"][0], "String, Bitmap, HLL — 3.1 SDS: có độ dài đi kèm") {
		t.Errorf("first vi group %q", labels["vi"][0])
	}
	// The keyboard walks the native list across a group's end: the last lesson of the first
	// group, then the first of the second; Enter opens it.
	g0, g1 := groups[0].Lessons, groups[1].Lessons
	b.open("?lang=vi&lesson=" + g0[len(g0)-1].Name)
	b.eval(`document.getElementById("lesson").focus()`)
	b.do(chromedp.KeyEvent(kb.ArrowDown))
	b.poll(fmt.Sprintf(`document.getElementById("lesson").value === %q`, g1[0].Name), 10*time.Second)
	if got := b.str(`document.getElementById("lesson").selectedOptions[0].parentElement.label`); got != groups[1].Label("vi", "") {
		t.Errorf("the option reached is in group %q", got)
	}
	b.do(chromedp.KeyEvent(kb.Enter))
	b.poll(fmt.Sprintf(`window.redscope.state().lesson === %q`, g1[0].Name), 10*time.Second)
}

// TestLessonListShots writes the page and its lesson list at 360, 1280 and 1920 px in vi and
// en. Headless Chromium does not draw a native select's popup in a screenshot, so the list
// shots show the same <select> unfolded as a list box (size = 16), its groups as the browser
// draws them, at the top of the list and scrolled to its end.
func TestLessonListShots(t *testing.T) {
	for _, sz := range [][2]int{{360, 740}, {1280, 800}, {1920, 1080}} {
		b := start(t, sz[0], sz[1])
		for _, lang := range []string{"vi", "en"} {
			b.open("?lang=" + lang)
			b.shot(fmt.Sprintf("course-page-%d-%s.png", sz[0], lang))
			b.eval(`(s => { s.size = 16; s.scrollIntoView(); s.focus(); })(document.getElementById("lesson"))`)
			b.shot(fmt.Sprintf("course-list-%d-%s.png", sz[0], lang))
			b.eval(`(s => { s.scrollTop = s.scrollHeight; })(document.getElementById("lesson"))`)
			b.shot(fmt.Sprintf("course-list-end-%d-%s.png", sz[0], lang))
		}
		b.stop()
	}
}
