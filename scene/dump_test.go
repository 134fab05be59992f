package scene

import (
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"redscope/engine"
	"redscope/lesson"
)

// dumpAfter types lines in a fresh free-play player of version v and returns what Auto draws.
func dumpAfter(t *testing.T, v engine.Version, lang string, lines ...string) (*Auto, *dumpScene) {
	t.Helper()
	p := lesson.NewPlayer(lesson.Config{Version: v})
	a := NewAuto("", nil)
	sc, _ := autoAfter(t, p, a, lang, lines...)
	if sc != "dump" {
		t.Fatalf("%v: %q drawn by %s", v, lines, sc)
	}
	return a, a.cur.(*dumpScene)
}

// hexCells is the payload strip's cell texts (the first n two-digit hex texts of the frame).
func hexCells(ps []Prim, n int) string {
	var b strings.Builder
	for _, p := range ps {
		if p.Kind == KText && p.Mono && len(p.Text) == 2 && n > 0 {
			if _, err := hex.DecodeString(p.Text); err == nil {
				b.WriteString(p.Text)
				n--
			}
		}
	}
	return b.String()
}

// TestDumpSceneBytes: the scene draws the bytes DUMP answered (redis-server 7.0.15's replies,
// redis-cli --raw DUMP as hex) with a line per part, and the listpack / intset body again with
// the encoding scene's drawing.
func TestDumpSceneBytes(t *testing.T) {
	for _, c := range []struct {
		lines []string
		hex   string
		want  []string // texts the frame holds
		lp    int      // listpack entries drawn (-1: no listpack)
		is    int      // intset members drawn (-1: no intset)
	}{
		{[]string{"SET k 1", "DUMP k"}, "00c0010a002678e7b6d10111fc",
			[]string{"DUMP k", "type byte  0 = string", "integer encoding  0xC0 = int8", "integer  1", "RDB version  10 Redis 7.0", "CRC-64  2678e7b6d10111fc"}, -1, -1},
		{[]string{"HSET h a 1", "DUMP h"}, "100c0c00000002008161020101ff0a0084a693e8aa17e4db",
			[]string{"type byte  16 = hash listpack", "length  12", "listpack  12 bytes", "RDB version  10 Redis 7.0", "the listpack inside", "2 entries · 12 bytes", "field", "value", "backlen"}, 2, -1},
		{[]string{"SADD s 1 2 3", "DUMP s"}, "0b0e02000000030000000100020003000a00a5025ce26d6e4d1b",
			[]string{"type byte  11 = set intset", "intset  14 bytes", "the intset inside", "3 integers × 2 bytes + 8-byte header = 14 bytes", "integers"}, -1, 3},
	} {
		_, s := dumpAfter(t, engine.V70, "en", c.lines...)
		if got := hex.EncodeToString(s.Ev.Payload); got != c.hex {
			t.Fatalf("%s: payload %s, want %s", c.lines[1], got, c.hex)
		}
		ps := s.Frame(Stage(1280, 800), 1)
		if got := hexCells(ps, len(s.Ev.Payload)); got != c.hex {
			t.Errorf("%s: cells %s, want %s", c.lines[1], got, c.hex)
		}
		txt := allText(ps)
		for _, w := range c.want {
			if !strings.Contains(txt, w) {
				t.Errorf("%s: no %q in\n%s", c.lines[1], w, txt)
			}
		}
		if (s.LP != nil) != (c.lp >= 0) || (s.LP != nil && len(s.LP.Entries) != c.lp) {
			t.Errorf("%s: listpack %+v", c.lines[1], s.LP)
		}
		if (s.IS != nil) != (c.is >= 0) || (s.IS != nil && len(s.IS.Values) != c.is) {
			t.Errorf("%s: intset %+v", c.lines[1], s.IS)
		}
		// The listpack's bytes in the strip carry the encoding scene's classes.
		if s.LP != nil {
			for i, cl := range s.LP.Class {
				if s.Class[2+i] != cl {
					t.Fatalf("%s: strip byte %d class %d, listpack's %d", c.lines[1], 2+i, s.Class[2+i], cl)
				}
			}
		}
	}
}

// TestDumpSceneVersions: the version part is what the profile writes (7.2: 11, 7.4: 12).
func TestDumpSceneVersions(t *testing.T) {
	for v, want := range map[engine.Version]string{engine.V72: "RDB version  11 Redis 7.2", engine.V74: "RDB version  12 Redis 7.4+"} {
		_, s := dumpAfter(t, v, "en", "SET k 1", "DUMP k")
		if txt := allText(s.Frame(Stage(1280, 800), 1)); !strings.Contains(txt, want) {
			t.Errorf("%v: no %q in\n%s", v, want, txt)
		}
	}
}

// TestDumpSceneLongAndNarrow: a long payload shows its first bytes and counts the rest; at
// 360 px nothing is drawn past the stage and every text is at least the smallest size.
func TestDumpSceneLongAndNarrow(t *testing.T) {
	var big strings.Builder
	for i := 0; i < 80; i++ { // little for LZF to find
		fmt.Fprintf(&big, "%03d", i*7919%1000)
	}
	_, s := dumpAfter(t, engine.V70, "vi", "SET big "+big.String(), "DUMP big")
	total := len(s.Ev.Payload)
	if total <= dumpMaxCells || len(s.Class) != dumpMaxCells {
		t.Fatalf("payload %d, shown %d", total, len(s.Class))
	}
	for _, w := range [][2]float64{{360, 740}, {1280, 800}, {1920, 1080}, {360, 300}} {
		r := Stage(w[0], w[1])
		ps := s.Frame(r, 1)
		txt := allText(ps)
		more := -1
		for _, ln := range strings.Split(txt, "\n") {
			if strings.HasPrefix(ln, "… còn ") && strings.HasSuffix(ln, " byte") {
				fmt.Sscan(strings.TrimPrefix(ln, "… còn "), &more)
			}
		}
		shown := total - more
		if more <= 0 || shown > dumpMaxCells || shown < 8 {
			t.Errorf("%v px: %d bytes counted as not shown in\n%s", w, more, txt)
		} else if got, want := hexCells(ps, shown), hex.EncodeToString(s.Ev.Payload[:shown]); got != want {
			t.Errorf("%v px: cells %s, want the payload's first %d bytes %s", w, got, shown, want)
		}
		for _, p := range ps {
			if p.Kind != KText {
				continue
			}
			b := textBox(p)
			if b.X < r.X-0.5 || b.X+b.W > r.X+r.W+0.5 || b.Y+b.H > r.Y+r.H+0.5 {
				t.Errorf("%v px: %q at %.0f,%.0f w %.0f outside the stage %v", w, p.Text, b.X, b.Y, b.W, r)
			}
			if p.Size < minText-0.01 {
				t.Errorf("%v px: %q at %.1f px", w, p.Text, p.Size)
			}
		}
	}
}

// TestDumpSceneDescribe: the text alternative names every part, in both languages.
func TestDumpSceneDescribe(t *testing.T) {
	a, _ := dumpAfter(t, engine.V70, "vi", "HSET h a 1", "DUMP h")
	d := a.Describe()
	for _, w := range []string{"DUMP h: payload 24 byte", "byte kiểu 16 = hash listpack tại 0", "listpack 12 byte tại 2", "phiên bản RDB 10 Redis 7.0 tại 14", "CRC-64 84a693e8aa17e4db tại 16", "listpack chứa 2 entry: a, 1"} {
		if !strings.Contains(d, w) {
			t.Errorf("no %q in %q", w, d)
		}
	}
	a, _ = dumpAfter(t, engine.V70, "en", "HSET h a 1", "DUMP h")
	if d := a.Describe(); !strings.Contains(d, "type byte 16 = hash listpack at 0") || !strings.Contains(d, "RDB version 10 Redis 7.0 at 14") {
		t.Errorf("en: %q", d)
	}
}

// TestDumpSceneLessonKey: DUMP of a key the lesson's own scene shows is still drawn as its
// payload; the next command on that key goes back to the lesson's scene.
func TestDumpSceneLessonKey(t *testing.T) {
	p := lesson.NewPlayer(lesson.Config{Version: engine.V70})
	a := NewAuto("encoding", []string{"h"})
	if sc, _ := autoAfter(t, p, a, "en", "HSET h a 1", "DUMP h"); sc != "dump" {
		t.Fatalf("DUMP h drawn by %s", sc)
	}
	if sc, _ := autoAfter(t, p, a, "en", "HSET h b 2"); sc != "encoding" {
		t.Fatalf("HSET h drawn by %s", sc)
	}
}

// TestDumpSceneLessonStep: a lesson step that ends with DUMP is drawn as the payload, whatever
// the lesson's scene; the next step is drawn by the lesson's scene again.
func TestDumpSceneLessonStep(t *testing.T) {
	p, a := autoLessonPlayer(t, strings.Replace(autoLesson, "> HSET h a 1\n", "> HSET h a 1\n> DUMP h\n", 1))
	p.Step()
	if sc, k := autoAfter(t, p, a, "vi"); sc != "dump" || k != "h" {
		t.Fatalf("step 1 (DUMP h): %s/%s", sc, k)
	}
	if d := a.Describe(); !strings.Contains(d, "16 = hash listpack") || !strings.Contains(d, "phiên bản RDB 12 Redis 7.4+") {
		t.Fatalf("step 1: %q", d)
	}
	p.Step()
	if sc, k := autoAfter(t, p, a, "vi"); sc != "encoding" || k != "h" {
		t.Fatalf("step 2: %s/%s", sc, k)
	}
}

// TestDumpPalette: in both themes the strip's digits are readable (4.5:1) on every part's fill,
// and the RDB frame's colours differ from one another and from the listpack's and intset's
// byte classes drawn beside them.
func TestDumpPalette(t *testing.T) {
	defer SetTheme(ThemeName())
	for _, th := range []string{"dark", "light"} {
		SetTheme(th)
		frame := []int{dumpType, dumpHeader, dumpData, dumpVersion, dumpCRC}
		for _, c := range frame {
			fill := dumpColor(c)
			if r := contrast(textOn(fill), fill); r < 4.5 {
				t.Errorf("%s: class %d text %.2f:1", th, c, r)
			}
		}
		all := append([]int{}, frame...)
		for c := 0; c < numByteClasses; c++ {
			if c != byteField { // a string's bytes are data as a listpack field's are
				all = append(all, c)
			}
		}
		for i, a := range frame {
			for _, b := range all {
				if b != a && (a != dumpData || b != byteField) && dumpColor(a) == dumpColor(b) {
					t.Errorf("%s: classes %d (#%d) and %d share a colour", th, a, i, b)
				}
			}
		}
	}
}

// TestDumpSceneListpackEx: under 7.4 a hash with a field TTL dumps as a listpackex (redis-server
// 7.4.1's reply, hex): the minimum TTL part, then the listpack drawn in triples with its TTL
// class in the legend.
func TestDumpSceneListpackEx(t *testing.T) {
	_, s := dumpAfter(t, engine.V74, "en", "HSET h a 1 b 2", "HPEXPIREAT h 4102444800000 FIELDS 1 a", "DUMP h")
	const want = "1900d8c32cbb0300001d1d00000006008161020101f400d8c32cbb0300000981620202010001ff0c0045a4795c939a9c04"
	if got := hex.EncodeToString(s.Ev.Payload); got != want {
		t.Fatalf("payload %s, want %s", got, want)
	}
	txt := allText(s.Frame(Stage(1280, 800), 1))
	for _, w := range []string{"type byte  25 = hash listpack ex", "smallest field TTL  4102444800000 ms", "listpack  29 bytes", "TTL", "6 entries · 29 bytes"} {
		if !strings.Contains(txt, w) {
			t.Errorf("no %q in\n%s", w, txt)
		}
	}
	if s.LP == nil || s.LP.Tuple != 3 {
		t.Fatalf("listpack %+v", s.LP)
	}
}

// TestDumpSceneQuicklist: a list of three nodes: its first node's parts, one line for the other
// two, and the first node's listpack drawn below.
func TestDumpSceneQuicklist(t *testing.T) {
	_, s := dumpAfter(t, engine.V70, "en", "CONFIG SET list-max-listpack-size 2", "RPUSH l a b c d e", "DUMP l")
	if s.Nodes != 3 || s.LP == nil || len(s.LP.Entries) != 2 {
		t.Fatalf("nodes %d listpack %+v", s.Nodes, s.LP)
	}
	txt := allText(s.Frame(Stage(1280, 800), 1))
	for _, w := range []string{"type byte  18 = list quicklist 2", "length  3", "container  2 = packed (listpack)", "nodes 2 … 3", "quicklist node 1 of 3: its listpack"} {
		if !strings.Contains(txt, w) {
			t.Errorf("no %q in\n%s", w, txt)
		}
	}
	if n := strings.Count(txt, "container  2"); n != 1 {
		t.Errorf("%d container lines", n)
	}
}
