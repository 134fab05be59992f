package scene

import (
	"strings"
	"testing"

	"redscope/engine"
)

// TestListWaiting: a worker blocked in BRPOP on a list that does not exist is in the picture (no
// start card), in both languages, and leaves it once a push has served it.
func TestListWaiting(t *testing.T) {
	e := engine.New(engine.Options{Version: engine.V70})
	c := e.NewClient()
	c.ID, c.Blocking = 1, true
	if r := c.Exec([][]byte{[]byte("BRPOP"), []byte("jobs"), []byte("0")}); !r.Blocked {
		t.Fatalf("did not block: %+v", r)
	}
	for lang, want := range map[string]string{"en": "waiting · no timeout", "vi": "đang chờ · không hết hạn"} {
		s := &listScene{}
		s.Update(Input{Engine: e, Keys: []string{"jobs"}, Lang: lang})
		if _, ok := s.start(); ok {
			t.Fatalf("%s: a start card while a client waits", lang)
		}
		if got := allText(s.Frame(Rect{0, 0, 820, 800}, 1)); !strings.Contains(got, want) {
			t.Fatalf("%s: %q not in %q", lang, want, got)
		}
	}
	e.Do("LPUSH", "jobs", "a")
	s := &listScene{}
	s.Update(Input{Engine: e, Keys: []string{"jobs"}, Lang: "en"})
	if got := allText(s.Frame(Rect{0, 0, 820, 800}, 1)); strings.Contains(got, "waiting ·") {
		t.Fatalf("still waiting after the push: %q", got)
	}
}
