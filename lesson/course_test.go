package lesson

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"redscope/assets"
)

// TestParseCourse: course lines are read by Parse and ParseHeader alike, in order, and a line
// naming no section of Course is refused by both with the same message and line.
func TestParseCourse(t *testing.T) {
	src := "lesson c\ntitle en: C\ncourse 000 3.1\n  course 003 uc6\ncourse 004 ex1\nstep\n> PING\n"
	want := []CourseRef{{"000", "3.1"}, {"003", "uc6"}, {"004", "ex1"}}
	l, h := parseAndHeader(t, "c.lesson", src)
	if !reflect.DeepEqual(l.Course, want) || !reflect.DeepEqual(h.Course, want) {
		t.Fatalf("Parse %v, ParseHeader %v, want %v", l.Course, h.Course, want)
	}
	if l, _ := Parse("n.lesson", []byte("title en: N\nstep\n> PING\n")); len(l.Course) != 0 {
		t.Fatalf("no course line gave %v", l.Course)
	}
	for _, c := range []struct{ line, msg string }{
		{"course 002 3.1", `c.lesson:2: course 002 3.1: no article "002" in the course (want 000, 001, 003, 004)`},
		{"course 000 3.8", `c.lesson:2: course 000 3.8: article 000 has no section "3.8" (it has 1 2 3 3.1 3.2 3.3 3.4 3.5 3.6 3.7 4 5 5.1 5.2 6 7 8 9 10)`},
		{"course 003 6", `c.lesson:2: course 003 6: article 003 has no section "6" (it has uc1 uc2 uc3 uc4 uc5 uc6)`},
		{"course 004 ex5", `c.lesson:2: course 004 ex5: article 004 has no section "ex5"`},
		{"course 000", `c.lesson:2: course needs ARTICLE SECTION, e.g. course 000 3.1 or course 003 uc6`},
		{"course", `c.lesson:2: course needs ARTICLE SECTION`},
		{"course 000 3.1 extra", `c.lesson:2: course needs ARTICLE SECTION`},
		{"course 0 3.1", `no article "0"`},
	} {
		src := "title en: C\n" + c.line + "\nstep\n> PING\n"
		_, err1 := Parse("c.lesson", []byte(src))
		_, err2 := ParseHeader("c.lesson", []byte(src))
		if err1 == nil || err2 == nil {
			t.Errorf("%q accepted (Parse %v, ParseHeader %v)", c.line, err1, err2)
			continue
		}
		if !strings.Contains(err1.Error(), c.msg) || err1.Error() != err2.Error() {
			t.Errorf("%q: Parse %q, ParseHeader %q, want %q", c.line, err1, err2, c.msg)
		}
	}
	if _, err := Parse("d.lesson", []byte("title en: D\ncourse 000 3.1\ncourse 000 3.1\nstep\n> PING\n")); err == nil || !strings.Contains(err.Error(), "d.lesson:3: course 000 3.1 given twice") {
		t.Errorf("a repeated course line: %v", err)
	}
	// A course line is a header line: inside a step it is an unknown line.
	if _, err := Parse("s.lesson", []byte("title en: S\nstep\ncourse 000 3.1\n> PING\n")); err == nil || !strings.Contains(err.Error(), "unknown line in a step") {
		t.Errorf("course inside a step: %v", err)
	}
}

// TestCourseTable: the table is well formed (unique ids, both languages, a section's lessons
// named once), so that a course line and docs/course.md have one meaning.
func TestCourseTable(t *testing.T) {
	arts := map[string]bool{}
	for _, a := range Course() {
		if arts[a.ID] || a.Title.VI == "" || a.Title.EN == "" || a.Short.VI == "" || a.Short.EN == "" {
			t.Errorf("article %q repeated or untitled", a.ID)
		}
		arts[a.ID] = true
		secs := map[string]bool{}
		for _, s := range a.Sections {
			if secs[s.ID] || s.Title.VI == "" || s.Title.EN == "" || strings.ContainsAny(s.ID, " \t") {
				t.Errorf("%s %q repeated, untitled or spaced", a.ID, s.ID)
			}
			secs[s.ID] = true
			seen := map[string]bool{}
			for _, n := range s.Lessons {
				if seen[n] {
					t.Errorf("%s %s lists %q twice", a.ID, s.ID, n)
				}
				seen[n] = true
			}
		}
	}
}

// builtinLessons parses every built-in lesson.
func builtinLessons(t *testing.T) []*Lesson {
	t.Helper()
	var ls []*Lesson
	for _, src := range assets.Lessons() {
		l, err := Parse(src.Name+".lesson", src.Src)
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
	}
	return ls
}

// TestBuiltinCourseLines: every built-in lesson's course lines name real sections (Parse checks
// that), and a section's lesson list in Course names a built-in lesson only if that lesson
// says it follows the section, so the table's order and the docs cannot claim a lesson the
// lesson itself does not.
func TestBuiltinCourseLines(t *testing.T) {
	ls := builtinLessons(t)
	by := map[string]*Lesson{}
	for _, l := range ls {
		by[l.Name] = l
	}
	follows := 0
	for _, a := range Course() {
		for _, s := range a.Sections {
			for _, n := range s.Lessons {
				l := by[n]
				if l == nil {
					continue // not written yet (docs/course.md says so)
				}
				found := false
				for _, c := range l.Course {
					found = found || c == CourseRef{a.ID, s.ID}
				}
				if !found {
					t.Errorf("Course lists %s under %s %s, but its course lines are %v", n, a.ID, s.ID, l.Course)
				}
			}
		}
	}
	for _, l := range ls {
		if len(l.Course) > 0 {
			follows++
		}
		for _, c := range l.Course {
			if _, _, err := FindSection(c.Article, c.Section); err != nil {
				t.Errorf("%s: %v", l.Name, err)
			}
		}
	}
	if follows == 0 {
		t.Fatal("no built-in lesson has a course line")
	}
}

// TestCourseGroups: the lesson list's groups follow Course: articles and sections in the
// table's order, lessons in the section's order, unknown ones after them by name, lessons
// that follow nothing last; every built-in lesson appears once.
func TestCourseGroups(t *testing.T) {
	mk := func(name string, refs ...CourseRef) *Lesson { return &Lesson{Name: name, Course: refs} }
	ls := []*Lesson{
		mk("zz-other"),
		mk("ring", CourseRef{"004", "ex3"}),
		mk("bit-offsets", CourseRef{"000", "3.5"}),
		mk("a-new-bitmap", CourseRef{"000", "3.5"}),
		mk("attendance", CourseRef{"000", "3.5"}, CourseRef{"003", "uc5"}),
		mk("sds-big", CourseRef{"000", "3.1"}),
		mk("sds-growth", CourseRef{"000", "3.1"}),
		mk("aa-other"),
		mk("queue-lmove", CourseRef{"003", "uc6"}),
	}
	var got []string
	for _, g := range CourseGroups(ls) {
		var names []string
		for _, l := range g.Lessons {
			names = append(names, l.Name)
		}
		got = append(got, g.Label("en", "Other")+": "+strings.Join(names, ","))
	}
	want := []string{
		"Strings, bitmaps, HLL — 3.1 SDS: a length kept with the bytes, spare room on append: sds-growth,sds-big",
		"Strings, bitmaps, HLL — 3.5 Bitmaps: bit N stands for id N: bit-offsets,attendance,a-new-bitmap",
		"Six use cases — Use case 6: a queue of light jobs such as emails: queue-lmove",
		"Bloom, HLL, consistent hashing — Example: % N against consistent hashing, and hash slots: ring",
		"Other: aa-other,zz-other",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("groups\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if l := CourseGroups(ls)[0].Label("vi", "Khác"); l != "String, Bitmap, HLL — 3.1 SDS: có độ dài đi kèm, cấp phát dư khi nối" {
		t.Errorf("vi label %q", l)
	}
	// The built-in lessons: each once, the course's first lesson first.
	order := CourseOrder(builtinLessons(t))
	seen := map[string]bool{}
	for _, l := range order {
		if seen[l.Name] {
			t.Errorf("%s listed twice", l.Name)
		}
		seen[l.Name] = true
	}
	if len(order) != len(assets.Lessons()) || order[0].Name != "sds-growth" {
		t.Errorf("course order: %d lessons, first %s", len(order), order[0].Name)
	}
}

// TestCourseDocs: docs/course.md names every section of Course (its id in a table row of its
// article), every built-in lesson, every lesson the table plans, and only labs that exist;
// sections marked App are said to be application-side.
func TestCourseDocs(t *testing.T) {
	b, err := os.ReadFile("../docs/course.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	// Split the page by article: "## 000 …" headings.
	parts := map[string]string{}
	for _, chunk := range strings.Split(doc, "\n## ")[1:] {
		id, _, _ := strings.Cut(chunk, " ")
		parts[id] = chunk
	}
	builtin := map[string]bool{}
	for _, src := range assets.Lessons() {
		builtin[src.Name] = true
		if !strings.Contains(doc, "`"+src.Name+"`") {
			t.Errorf("docs/course.md does not list the built-in lesson %s", src.Name)
		}
	}
	for _, a := range Course() {
		part, ok := parts[a.ID]
		if !ok {
			t.Errorf("docs/course.md has no \"## %s …\" part", a.ID)
			continue
		}
		for _, s := range a.Sections {
			row := ""
			for _, line := range strings.Split(part, "\n") {
				if strings.HasPrefix(line, "| "+s.ID+" |") {
					row = line
				}
			}
			if row == "" {
				t.Errorf("docs/course.md, %s: no row \"| %s | …\"", a.ID, s.ID)
				continue
			}
			for _, n := range s.Lessons {
				if !strings.Contains(row, "`"+n+"`") {
					t.Errorf("docs/course.md, %s %s: lesson %s missing from %q", a.ID, s.ID, n, row)
				}
				if !builtin[n] && !strings.Contains(row, "`"+n+"` (planned)") {
					t.Errorf("docs/course.md, %s %s: %s is not built in yet; the row should say \"(planned)\"", a.ID, s.ID, n)
				}
			}
			if s.App && !strings.Contains(row, "application-side") {
				t.Errorf("docs/course.md, %s %s: an application-side section whose row does not say so", a.ID, s.ID)
			}
		}
	}
	// Every `redscope lab NAME` the page cites is a lab.
	labs := regexp.MustCompile("redscope lab ([a-z]+)").FindAllStringSubmatch(doc, -1)
	if len(labs) == 0 {
		t.Fatal("docs/course.md cites no lab")
	}
	run, err := os.ReadFile("../internal/lab/lab.go") // lab.Run's table (labs) names the labs, its switch help
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range labs {
		if !regexp.MustCompile(`\{"` + m[1] + `", run[A-Za-z]+\}|case [^\n]*"` + m[1] + `"[,:]`).Match(run) {
			t.Errorf("docs/course.md cites redscope lab %s, which lab.Run does not know", m[1])
		}
	}
	for _, m := range regexp.MustCompile("redscope lab lesson (assets/lessons/[a-z0-9-]+)\\.lesson").FindAllStringSubmatch(doc, -1) {
		if !builtin[strings.TrimPrefix(m[1], "assets/lessons/")] {
			t.Errorf("docs/course.md plays %s, which is not a built-in lesson", m[1])
		}
	}
}
