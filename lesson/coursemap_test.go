package lesson

import (
	"strings"
	"testing"

	"redscope/assets/text"
)

// TestCourseMap: every line of assets/text/course.txt is an article or a section line with its
// fields, the first line an article, no article or section of one twice and no title empty; and
// the parsed map keeps the file's order and App marks.
func TestCourseMap(t *testing.T) {
	recs := text.Records("course.txt")
	arts := map[string]bool{}
	var secs map[string]bool
	for i, r := range recs {
		switch {
		case r[0] == "article" && len(r) == 6:
			if arts[r[1]] {
				t.Errorf("course.txt: article %s twice", r[1])
			}
			arts[r[1]], secs = true, map[string]bool{}
		case (r[0] == "section" || r[0] == "app") && (len(r) == 4 || len(r) == 5):
			if i == 0 {
				t.Errorf("course.txt: %q before the first article", r)
				continue
			}
			if secs[r[1]] {
				t.Errorf("course.txt: section %s twice in its article", r[1])
			}
			secs[r[1]] = true
			if len(r) == 5 && len(strings.Fields(r[4])) == 0 {
				t.Errorf("course.txt: %q has an empty lesson list", r)
			}
		default:
			t.Errorf("course.txt: %q is no article or section line", r)
		}
		for _, f := range r {
			if strings.TrimSpace(f) == "" {
				t.Errorf("course.txt: %q has an empty field", r)
			}
		}
	}
	c := Course()
	if len(c) != len(arts) || len(c) != 4 || c[0].ID != "000" || c[3].ID != "004" {
		t.Fatalf("%d articles", len(c))
	}
	s := c[0].Sections[3]
	if s.ID != "3.1" || s.Title.EN != "3.1 SDS: a length kept with the bytes, spare room on append" || s.App ||
		strings.Join(s.Lessons, ",") != "sds-growth,sds-big" {
		t.Errorf("000 3.1 = %+v", s)
	}
	if a := c[0].Sections[13]; a.ID != "5.2" || !a.App || strings.Join(a.Lessons, ",") != "counters,locks" {
		t.Errorf("000 5.2 = %+v", a)
	}
	if got := parseCourseMap([][]string{{"section", "1", "a", "b"}, {"article", "9", "a", "b", "c", "d"}, {"app", "x", "a", "b", "l1  l2"}, {"bogus"}}); len(got) != 1 || len(got[0].Sections) != 1 ||
		!got[0].Sections[0].App || strings.Join(got[0].Sections[0].Lessons, ",") != "l1,l2" {
		t.Errorf("parseCourseMap = %+v", got)
	}
}
