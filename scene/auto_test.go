package scene

import (
	"strings"
	"testing"

	"redscope/engine"
	"redscope/lesson"
)

// autoAfter types each line on p and updates a, returning what it draws after the last.
func autoAfter(t *testing.T, p *lesson.Player, a *Auto, lang string, lines ...string) (string, string) {
	t.Helper()
	for _, l := range lines {
		p.Exec(l)
	}
	a.Update(Input{Engine: p.Engine(), Keys: p.Watched(), Last: lastOf(p), Lang: lang})
	return a.Focus()
}

// TestAutoSandboxTypes: in free play every typed command is drawn by the scene of the key it
// touched, chosen from the engine's type and encoding and the command's group.
func TestAutoSandboxTypes(t *testing.T) {
	for _, v := range []engine.Version{engine.V70, engine.V88} {
		p := lesson.NewPlayer(lesson.Config{Version: v})
		a := NewAuto("", nil)
		if sc, k := autoAfter(t, p, a, "en"); sc != "keys" || k != "" {
			t.Fatalf("%v: empty sandbox draws %s/%s", v, sc, k)
		}
		for _, c := range []struct{ line, scene, key string }{
			{"SET s hello", "sds", "s"},
			{"APPEND s world", "sds", "s"},
			{"INCR n", "sds", "n"},
			{"SETBIT b 7 1", "bits", "b"},
			{"BITCOUNT b", "bits", "b"},
			{"GET b", "sds", "b"}, // a string read by a string command: its sds
			{"PFADD h a b c", "hll", "h"},
			{"GET h", "hll", "h"}, // a HyperLogLog string stays a HyperLogLog
			{"HSET user f v", "encoding", "user"},
			{"SADD tags 1 2 3", "encoding", "tags"},
			{"SMEMBERS tags", "encoding", "tags"},
			{"ZADD board 10 ann 20 bob", "zset", "board"},
			{"RPUSH jobs a b c", "list", "jobs"},
			{"LRANGE jobs 0 -1", "list", "jobs"},
			{"BF.ADD seen x", "bloom", "seen"},
			{"XADD events 1-1 a 1", "stream", "events"},
			{"XGROUP CREATE events g 0", "stream", "events"},
			{"XREADGROUP GROUP g alice STREAMS events >", "stream", "events"},
			{"XLEN events", "stream", "events"},
			{"PING", "stream", "events"},
			{"LMOVE jobs done LEFT RIGHT", "list", "done"},
			{"PING", "list", "done"},   // no key: the last picture
			{"DBSIZE", "list", "done"}, // likewise
			{"GET s", "sds", "s"},
			{"DEL s", "keys", ""}, // the key is gone: the key list
			{"OBJECT ENCODING user", "encoding", "user"},
			{"RENAME user person", "encoding", "person"},
		} {
			if sc, k := autoAfter(t, p, a, "en", c.line); sc != c.scene || k != c.key {
				t.Errorf("%v: %s → %s/%s, want %s/%s", v, c.line, sc, k, c.scene, c.key)
			}
		}
	}
}

// TestAutoLMOVEShowsBoth: LMOVE draws its source above its destination and the element moving.
func TestAutoLMOVEShowsBoth(t *testing.T) {
	p := lesson.NewPlayer(lesson.Config{Version: engine.V70})
	a := NewAuto("", nil)
	autoAfter(t, p, a, "en", "RPUSH q a b c", "RPUSH done x")
	autoAfter(t, p, a, "en", "LMOVE q done LEFT RIGHT")
	l, ok := a.inner().(*listScene)
	if !ok {
		t.Fatalf("inner %T", a.inner())
	}
	if len(l.Lists) != 2 || l.Lists[0].Key != "q" || l.Lists[1].Key != "done" {
		t.Fatalf("lists %+v", l.Lists)
	}
	if got := l.Lists[0].Popped; len(got) != 1 || got[0] != "a" || !l.Lists[0].PopH {
		t.Fatalf("source popped %v head %v", got, l.Lists[0].PopH)
	}
	if l.Lists[1].PushT != 1 || l.Lists[1].View.Len != 2 {
		t.Fatalf("destination pushT %d len %d", l.Lists[1].PushT, l.Lists[1].View.Len)
	}
	if d := a.Describe(); !strings.HasPrefix(d, "list q: quicklist, 1 node (listpack 2 entries 13 B); MEMORY USAGE ") ||
		!strings.Contains(d, "; list done: quicklist, 1 node (listpack 2 entries 13 B)") || !strings.HasSuffix(d, `last: "a" pushed at the tail of done`) {
		t.Fatalf("describe %q", d)
	}
	var arrow bool
	for _, pr := range a.Frame(Rect{0, 0, 820, 720}, 0) {
		if pr.Kind == KText && strings.HasPrefix(pr.Text, "LMOVE a") {
			arrow = true
		}
	}
	if !arrow {
		t.Fatal("no LMOVE arrow drawn")
	}
}

// TestAutoErrorBand: an error reply of a typed command is drawn as a band over the key's scene
// (or the last picture) and cleared by the next command that succeeds.
func TestAutoErrorBand(t *testing.T) {
	p := lesson.NewPlayer(lesson.Config{Version: engine.V88, Lang: "en"})
	a := NewAuto("", nil)
	autoAfter(t, p, a, "en", "SET s hello")
	sc, k := autoAfter(t, p, a, "en", "LPUSH s x")
	if sc != "sds" || k != "s" || !strings.HasPrefix(a.ErrText, "(error) WRONGTYPE") {
		t.Fatalf("WRONGTYPE: %s/%s err %q", sc, k, a.ErrText)
	}
	band := func() bool {
		for _, pr := range a.Frame(Rect{0, 0, 820, 720}, 1) {
			if pr.Kind == KRect && pr.Color == ErrorC && pr.W == 820 {
				return true
			}
		}
		return false
	}
	if !band() {
		t.Fatal("no error band")
	}
	if d := a.Describe(); !strings.HasPrefix(d, "Error: LPUSH s x → (error) WRONGTYPE") {
		t.Fatalf("describe %q", d)
	}
	a.Update(Input{Engine: p.Engine(), Keys: p.Watched(), Last: lastOf(p), Lang: "vi"})
	if d := a.Describe(); !strings.HasPrefix(d, "Lỗi: LPUSH s x → (error) WRONGTYPE") {
		t.Fatalf("describe vi %q", d)
	}
	// A command Redis has and redscope does not simulate: the last picture, with the band.
	sc, k = autoAfter(t, p, a, "en", "GEOADD st 1 2 m")
	if sc != "sds" || k != "s" || !strings.Contains(a.ErrText, "does not simulate 'geoadd'") {
		t.Fatalf("GEOADD: %s/%s err %q", sc, k, a.ErrText)
	}
	autoAfter(t, p, a, "en", "GET s")
	if a.ErrText != "" || band() {
		t.Fatalf("error not cleared: %q", a.ErrText)
	}
}

const autoLesson = `title en: t
title vi: t
scene encoding
keys h
step
en: one
vi: một
> HSET h a 1
step
en: two
vi: hai
> HSET h b 2
`

// autoLessonPlayer loads the lesson src on an 8.8 player, with the Auto its scene and keys make.
func autoLessonPlayer(t *testing.T, src string) (*lesson.Player, *Auto) {
	t.Helper()
	l, err := lesson.Parse("t.lesson", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p := lesson.NewPlayer(lesson.Config{Version: engine.V88})
	p.Load(l)
	return p, NewAuto(l.Scene, l.Keys)
}

// TestAutoLesson: in a lesson the lesson's scene draws its steps and its keys; a typed command on
// another key switches to that key's scene; the next step comes back to the lesson's scene.
func TestAutoLesson(t *testing.T) {
	p, a := autoLessonPlayer(t, autoLesson)
	if sc, k := autoAfter(t, p, a, "en"); sc != "encoding" || k != "h" {
		t.Fatalf("step 0: %s/%s", sc, k)
	}
	p.Step()
	if sc, k := autoAfter(t, p, a, "en"); sc != "encoding" || k != "h" {
		t.Fatalf("step 1: %s/%s", sc, k)
	}
	if sc, k := autoAfter(t, p, a, "en", "HSET h c 3"); sc != "encoding" || k != "h" || a.inner() != a.base {
		t.Fatalf("typed on the lesson's key: %s/%s", sc, k)
	}
	if sc, k := autoAfter(t, p, a, "en", "RPUSH jobs a b"); sc != "list" || k != "jobs" {
		t.Fatalf("typed list: %s/%s", sc, k)
	}
	if sc, k := autoAfter(t, p, a, "en", "SET name redscope"); sc != "sds" || k != "name" {
		t.Fatalf("typed string: %s/%s", sc, k)
	}
	if sc, k := autoAfter(t, p, a, "en", "PING"); sc != "sds" || k != "name" {
		t.Fatalf("keyless: %s/%s", sc, k)
	}
	p.Step()
	if sc, k := autoAfter(t, p, a, "en"); sc != "encoding" || k != "h" || a.inner() != a.base {
		t.Fatalf("step 2: %s/%s", sc, k)
	}
	// Back replays the console lines typed at step 1: the last is drawn again.
	p.Back()
	if sc, k := autoAfter(t, p, a, "en"); sc != "sds" || k != "name" {
		t.Fatalf("back to 1: %s/%s", sc, k)
	}
}

// TestKeysDescribe: the key list's text alternative in both languages.
func TestKeysDescribe(t *testing.T) {
	p := lesson.NewPlayer(lesson.Config{Version: engine.V70})
	p.Exec("SET a hello")
	p.Exec("RPUSH l x")
	s := &keysScene{}
	s.Update(Input{Engine: p.Engine(), Last: lastOf(p), Lang: "en"})
	if d := s.Describe(); d != "2 keys: a (string, embstr), l (list, quicklist)" {
		t.Errorf("en %q", d)
	}
	s.Update(Input{Engine: p.Engine(), Last: lastOf(p), Lang: "vi"})
	if d := s.Describe(); d != "2 khoá: a (string, embstr), l (list, quicklist)" {
		t.Errorf("vi %q", d)
	}
	p.Exec("FLUSHALL")
	s.Update(Input{Engine: p.Engine(), Last: lastOf(p), Lang: "vi"})
	if d := s.Describe(); d != "Cơ sở dữ liệu trống." {
		t.Errorf("vi empty %q", d)
	}
}

func TestWrapMono(t *testing.T) {
	// 10 glyphs per line at size 10 (advance 6.001 px) in 61 px.
	got := wrapMono("(error) WRONGTYPE Operation against a key", 61, 10, 5)
	want := []string{"(error)", "WRONGTYPE", "Operation", "against a", "key"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("%q", got)
	}
	if got := wrapMono("abcdefghijklmnop", 61, 10, 5); strings.Join(got, "|") != "abcdefghij|klmnop" {
		t.Errorf("long word %q", got)
	}
	if got := wrapMono("a b c d e f g h i j k l m n o p q r s t u v w", 61, 10, 2); len(got) != 2 || !strings.HasSuffix(got[1], "…") {
		t.Errorf("capped %q", got)
	}
}

// TestAutoLessonNoScene: a lesson with `scene none` draws the key list at its steps, and a typed
// key's scene in between.
func TestAutoLessonNoScene(t *testing.T) {
	p, a := autoLessonPlayer(t, strings.Replace(autoLesson, "scene encoding", "scene none", 1))
	p.Step()
	if sc, _ := autoAfter(t, p, a, "en"); sc != "keys" {
		t.Fatalf("step 1: %s", sc)
	}
	if sc, k := autoAfter(t, p, a, "en", "RPUSH jobs a"); sc != "list" || k != "jobs" {
		t.Fatalf("typed: %s/%s", sc, k)
	}
	p.Step()
	if sc, _ := autoAfter(t, p, a, "en"); sc != "keys" {
		t.Fatalf("step 2: %s", sc)
	}
}
