// Package assets holds what the browser app embeds besides code: the built-in lessons
// (lessons/*.lesson, format in ../lesson/FORMAT.md) and the page's interface strings in
// Vietnamese and English.
package assets

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

//go:embed lessons/*.lesson
var lessonFiles embed.FS

// Lesson is one built-in lesson's source.
type Lesson struct {
	Name string // file name without .lesson
	Src  []byte
}

// Lessons lists the built-in lessons in a fixed order (the course order first, then by name).
func Lessons() []Lesson {
	ents, _ := fs.ReadDir(lessonFiles, "lessons")
	var out []Lesson
	for _, e := range ents {
		b, err := lessonFiles.ReadFile("lessons/" + e.Name())
		if err != nil {
			continue
		}
		out = append(out, Lesson{Name: strings.TrimSuffix(e.Name(), ".lesson"), Src: b})
	}
	rank := func(n string) int {
		for i, o := range Order {
			if o == n {
				return i
			}
		}
		return len(Order)
	}
	sort.SliceStable(out, func(i, j int) bool {
		ri, rj := rank(out[i].Name), rank(out[j].Name)
		if ri != rj {
			return ri < rj
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// Order is the course order of the built-in lessons.
var Order = []string{
	// strings, counters, bitmaps, HyperLogLog (course article 000)
	"sds-growth", "sds-big", "ttl", "counters", "locks",
	"bit-offsets", "bitop", "bitop-new", "attendance", "bit-far", "bitfield",
	"hll-registers", "hll-sparse", "hll-estimate", "hll-week",
	// hashes and sets (001)
	"encodings-hash", "encodings-set", "encodings-version", "cart-script",
	// choosing a structure: a lost update, a profile hash, a cart, unique visitors, the daily top list (003)
	"lost-update", "profile-hash", "cart-hash", "cart-voucher", "unique-visitors", "leaderboard",
	// job queues: a list without ack, LMOVE with a processing list, a stream with a group (003)
	"queue-brpop", "queue-lmove", "queue-stream",
	// Bloom filters and consistent hashing (004)
	"bloom", "webhook-dedupe", "ring",
}
