// Package assets holds what the browser app embeds besides code: the built-in lessons
// (lessons/*.lesson, format in ../lesson/FORMAT.md) and the page's interface strings in
// Vietnamese and English (text/ui.txt; package text holds the translated texts kept as data).
package assets

import (
	"embed"
	"io/fs"
	"strings"
)

//go:embed lessons/*.lesson
var lessonFiles embed.FS

// Lesson is one built-in lesson's source.
type Lesson struct {
	Name string // file name without .lesson
	Src  []byte
}

// Lessons lists the built-in lessons by file name. Their course order comes from their
// `course` lines and the course table (lesson.CourseGroups; text/course.txt): the app's lesson
// list groups them by article and section.
func Lessons() []Lesson {
	ents, _ := fs.ReadDir(lessonFiles, "lessons") // sorted by file name
	var out []Lesson
	for _, e := range ents {
		b, err := lessonFiles.ReadFile("lessons/" + e.Name())
		if err != nil {
			continue
		}
		out = append(out, Lesson{Name: strings.TrimSuffix(e.Name(), ".lesson"), Src: b})
	}
	return out
}
