//go:build !(js && wasm)

package browsertest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/chromedp"

	"redscope/assets"
	"redscope/lesson"
)

// TestLessonListAccessible reads the lesson list as a screen reader gets it, from Chromium's
// accessibility tree: in vi and en, a combobox named by its label whose popup holds one group
// per course section, named "article — section" in the page's language and in the course's
// order, each holding its lessons' options named by their titles.
func TestLessonListAccessible(t *testing.T) {
	groups := lesson.CourseGroups(lessonHeads(t))
	b := start(t, 1280, 800)
	for _, lang := range []string{"vi", "en"} {
		b.open("?lang=" + lang)
		res, err := chromedp.Call(b.ctx, accessibility.GetFullAXTree, accessibility.GetFullAXTreeParams{})
		if err != nil {
			t.Fatal(err)
		}
		byID := map[accessibility.NodeID]*accessibility.Node{}
		kids := map[accessibility.NodeID][]accessibility.NodeID{} // from parentId, in the tree's order
		for _, n := range res.Nodes {
			byID[n.NodeID] = n
			kids[n.ParentID] = append(kids[n.ParentID], n.NodeID)
		}
		children := func(n *accessibility.Node) []accessibility.NodeID {
			if len(n.ChildIDs) > 0 {
				return n.ChildIDs
			}
			return kids[n.NodeID]
		}
		str := func(v *accessibility.Value) string {
			var s string
			if v != nil {
				json.Unmarshal(v.Value, &s)
			}
			return s
		}
		var box *accessibility.Node
		for _, n := range res.Nodes {
			if str(n.Role) == "combobox" && str(n.Name) == assets.T(lang, "lesson") {
				box = n
			}
		}
		if box == nil {
			t.Fatalf("%s: no combobox named %q", lang, assets.T(lang, "lesson"))
		}
		// The groups under the combobox, depth first in the children's order.
		var got []string
		var walk func(id accessibility.NodeID)
		walk = func(id accessibility.NodeID) {
			n := byID[id]
			if n == nil {
				return
			}
			if str(n.Role) == "group" && !n.Ignored {
				var opts []string
				var find func(id accessibility.NodeID) // the options under the group, at any depth
				find = func(id accessibility.NodeID) {
					for _, c := range children(byID[id]) {
						if o := byID[c]; o != nil && str(o.Role) == "option" {
							opts = append(opts, str(o.Name))
						} else if o != nil {
							find(c)
						}
					}
				}
				find(n.NodeID)
				got = append(got, str(n.Name)+": "+strings.Join(opts, " | "))
				return
			}
			for _, c := range children(n) {
				walk(c)
			}
		}
		walk(box.NodeID)
		var want []string
		for _, g := range groups {
			var opts []string
			for _, l := range g.Lessons {
				opts = append(opts, l.Title.In(lang))
			}
			want = append(want, g.Label(lang, assets.T(lang, "otherLessons"))+": "+strings.Join(opts, " | "))
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: the accessibility tree's groups\n%s\nwant\n%s", lang, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}
