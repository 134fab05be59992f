package lesson

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"redscope/assets/text"
)

// The course map: which article and section of the course a lesson follows.
//
// The course is four articles, named by their number prefix: 000 (strings, bitmaps, bitfields,
// HyperLogLog), 001 (hashes and sets), 003 (six use cases of one shop) and 004 (Bloom filters,
// HyperLogLog, consistent hashing). A lesson names what it follows with header lines
//
//	course 000 3.1        article 000, section 3.1 (SDS)
//	course 003 uc5        article 003, use case 5 (check-ins by day)
//	course 004 ex1        article 004, its first worked example (a Bloom filter's size)
//
// one line per section the lesson serves; the first one places it in the app's lesson list.
// Section ids are the numbers 000 and 001 print (1 … 10, 3.1 … 3.7, 5.1, 5.2, 6.1); 003 numbers
// its six use cases 1 … 6, written uc1 … uc6; 004 numbers nothing, so its seven concept parts
// ("Khái niệm") are c1 … c7 and its four worked examples ("Ví dụ thực tế") ex1 … ex4, in the
// article's order. Course below reads the one table of them, assets/text/course.txt (docs/course.md
// maps each section to its lessons and labs; lesson.TestCourseDocs keeps the two in step).

// CourseRef is one `course ARTICLE SECTION` line.
type CourseRef struct {
	Article string `json:"article"` // "000"
	Section string `json:"section"` // "3.1", "uc5", "ex1"
}

func (r CourseRef) String() string { return r.Article + " " + r.Section }

// Article is one course article.
type Article struct {
	ID       string // the article's number prefix, "000"
	Title    Text   // as the course names it (vi), and in English
	Short    Text   // a short name, for the app's lesson list ("article — section")
	Sections []Section
}

// Section is one section of an article, in the article's order.
type Section struct {
	ID    string // "3.1", "uc5", "c2", "ex1"
	Title Text   // with the article's numbering: "3.1 SDS: …", "Use case 5: …"
	// App marks a section about the application around Redis (Laravel's facades, a service's
	// read path): the page does not simulate it (docs/course.md says what it covers).
	App bool
	// Lessons are the lessons that follow the section, in the course's order: built-in ones and
	// ones not written yet (docs/course.md marks those). The app lists a built-in lesson under
	// the section of its first course line, in this order; one the list does not name comes
	// after them, by name.
	Lessons []string
}

var (
	courseOnce sync.Once
	course     []Article
)

// Course is the course's articles and sections, in the course's order: the table of
// assets/text/course.txt, read the first time it is wanted.
func Course() []Article {
	courseOnce.Do(func() { course = parseCourseMap(text.Records("course.txt")) })
	return course
}

// parseCourseMap reads the records of course.txt; a line it does not know is left out
// (TestCourseMap reports it).
func parseCourseMap(recs [][]string) []Article {
	var out []Article
	for _, r := range recs {
		switch {
		case r[0] == "article" && len(r) == 6:
			out = append(out, Article{ID: r[1], Title: Text{VI: r[2], EN: r[3]}, Short: Text{VI: r[4], EN: r[5]}})
		case (r[0] == "section" || r[0] == "app") && (len(r) == 4 || len(r) == 5) && len(out) > 0:
			sec := Section{ID: r[1], Title: Text{VI: r[2], EN: r[3]}, App: r[0] == "app"}
			if len(r) == 5 {
				sec.Lessons = strings.Fields(r[4])
			}
			a := &out[len(out)-1]
			a.Sections = append(a.Sections, sec)
		}
	}
	return out
}

// FindSection returns the article and section a course line names, or an error that says
// what the course has.
func FindSection(article, section string) (*Article, *Section, error) {
	var ids []string
	articles := Course()
	for i := range articles {
		a := &articles[i]
		ids = append(ids, a.ID)
		if a.ID != article {
			continue
		}
		var secs []string
		for j := range a.Sections {
			if a.Sections[j].ID == section {
				return a, &a.Sections[j], nil
			}
			secs = append(secs, a.Sections[j].ID)
		}
		return nil, nil, fmt.Errorf("course %s %s: article %s has no section %q (it has %s)", article, section, article, section, strings.Join(secs, " "))
	}
	return nil, nil, fmt.Errorf("course %s %s: no article %q in the course (want %s)", article, section, article, strings.Join(ids, ", "))
}

// parseCourse reads the rest of a `course ARTICLE SECTION` line and checks it names a section
// of Course.
func parseCourse(rest string) (CourseRef, error) {
	f := strings.Fields(rest)
	if len(f) != 2 {
		return CourseRef{}, fmt.Errorf("course needs ARTICLE SECTION, e.g. course 000 3.1 or course 003 uc6 (lesson/FORMAT.md)")
	}
	r := CourseRef{Article: f[0], Section: f[1]}
	if _, _, err := FindSection(r.Article, r.Section); err != nil {
		return CourseRef{}, err
	}
	return r, nil
}

// CourseGroup is one group of the app's lesson list: the lessons whose first course line names
// Section (Article and Section nil: the lessons that follow no section, listed last).
type CourseGroup struct {
	Article *Article
	Section *Section
	Lessons []*Lesson
}

// Label is the group's name in lang: "article — section" (the article's short name), or other
// for the lessons that follow no section.
func (g CourseGroup) Label(lang, other string) string {
	if g.Section == nil {
		return other
	}
	return g.Article.Short.In(lang) + " — " + g.Section.Title.In(lang)
}

// CourseGroups sorts lessons (headers are enough) into the course's order: a group for each
// section that is the first course line of some lesson, in the order of Course, its lessons in
// the section's Lessons order (others after, by name); then the lessons without a course line,
// by name. Empty groups are left out.
func CourseGroups(ls []*Lesson) []CourseGroup {
	type place struct{ art, sec int }
	at := map[CourseRef]place{}
	articles := Course()
	for i, a := range articles {
		for j, s := range a.Sections {
			at[CourseRef{a.ID, s.ID}] = place{i, j}
		}
	}
	byPlace := map[place][]*Lesson{}
	var other []*Lesson
	for _, l := range ls {
		if len(l.Course) == 0 {
			other = append(other, l)
			continue
		}
		p, ok := at[l.Course[0]]
		if !ok { // not from the parser: treat as following no section
			other = append(other, l)
			continue
		}
		byPlace[p] = append(byPlace[p], l)
	}
	var out []CourseGroup
	for i := range articles {
		a := &articles[i]
		for j := range a.Sections {
			s := &a.Sections[j]
			g := byPlace[place{i, j}]
			if len(g) == 0 {
				continue
			}
			rank := func(name string) int {
				for k, n := range s.Lessons {
					if n == name {
						return k
					}
				}
				return len(s.Lessons)
			}
			sort.SliceStable(g, func(x, y int) bool {
				rx, ry := rank(g[x].Name), rank(g[y].Name)
				if rx != ry {
					return rx < ry
				}
				return g[x].Name < g[y].Name
			})
			out = append(out, CourseGroup{Article: a, Section: s, Lessons: g})
		}
	}
	if len(other) > 0 {
		sort.SliceStable(other, func(x, y int) bool { return other[x].Name < other[y].Name })
		out = append(out, CourseGroup{Lessons: other})
	}
	return out
}

// CourseOrder is the lessons of CourseGroups one after the other: the course's order.
func CourseOrder(ls []*Lesson) []*Lesson {
	var out []*Lesson
	for _, g := range CourseGroups(ls) {
		out = append(out, g.Lessons...)
	}
	return out
}
