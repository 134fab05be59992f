//go:build !(js && wasm)

package browsertest

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"redscope/engine"
	"redscope/lesson"
	"redscope/scene"
)

// TestDumpSceneTyped types HSET h a 1 and DUMP h in the sandbox under 7.0 and 7.4, in Vietnamese
// and English: the canvas draws the dump scene for h (state().scene / focus), its text
// alternative names the payload's parts with the bytes redis-server 7.0.15 answers (type byte
// 16 = hash listpack, RDB version 10, CRC-64 84a693e8aa17e4db; 12 under 7.4), and the
// screenshot shows the payload strip where the scene laid it out: the type byte's cell in the
// accent colour and the version's in the version colour, at the positions the same scene
// computes natively for the same commands. Screenshots at 360, 1280 and 1920 px are saved.
func TestDumpSceneTyped(t *testing.T) {
	b := start(t, 1280, 800)
	if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}},
	}); err != nil {
		t.Fatal(err)
	}
	lines := []string{"HSET h a 1", "DUMP h"}
	for _, lang := range []string{"vi", "en"} {
		for _, v := range []engine.Version{engine.V70, engine.V74} {
			b.do(chromedp.EmulateViewport(1280, 800))
			b.open("?lang=" + lang + "&lesson=sandbox")
			b.setVersion(v)
			for _, l := range lines {
				b.typeLine(l)
			}
			b.top()
			if sc, k := b.drawn(); sc != "dump" || k != "h" {
				t.Fatalf("%s %v: DUMP h drawn by %s/%s", lang, v, sc, k)
			}
			ver, typ, crc := "10 Redis 7.0", "16 = hash listpack", "CRC-64 84a693e8aa17e4db"
			if v == engine.V74 {
				ver, crc = "12 Redis 7.4+", "CRC-64 "
			}
			desc := b.sceneDesc()
			for _, w := range []string{"DUMP h", typ, ver, crc, "listpack"} {
				if !strings.Contains(desc, w) {
					t.Errorf("%s %v: no %q in the text alternative %q", lang, v, w, desc)
				}
			}
			// The same scene natively: where its type and version cells are.
			p := lesson.NewPlayer(lesson.Config{Version: v})
			a := scene.NewAuto("", nil)
			for _, l := range lines {
				p.Exec(l)
			}
			a.Update(scene.Input{Engine: p.Engine(), Keys: p.Watched(), Last: lesson.EngineExchanges(p.Last()), Lang: lang})
			if d := scene.Describe(a); d != desc {
				t.Errorf("%s %v: page says %q, the native scene %q", lang, v, desc, d)
			}
			stage := scene.Stage(1280, 800)
			ps := a.Frame(stage, 1)
			img, err := png.Decode(bytes.NewReader(mustRead(t, b.shot(fmt.Sprintf("dump-1280-%s-%v.png", lang, v)))))
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range []scene.Color{scene.Dark.Accent, scene.Dark.IndexC} {
				var cell *scene.Prim
				for i := range ps {
					if ps[i].Kind == scene.KRect && ps[i].Color == want && ps[i].W > 4 {
						cell = &ps[i]
						break
					}
				}
				if cell == nil {
					t.Fatalf("%s %v: no cell of colour %v in the native frame", lang, v, want)
				}
				r, g, bl, _ := img.At(int(cell.X+3), int(cell.Y+3)).RGBA()
				got := scene.Color{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(bl >> 8), A: 255}
				if !near(got, want, 14) {
					t.Errorf("%s %v: pixel at %.0f,%.0f is %v, want the cell's %v", lang, v, cell.X+3, cell.Y+3, got, want)
				}
			}
			if v != engine.V70 {
				continue
			}
			for _, sz := range [][2]int{{360, 740}, {1920, 1080}} {
				b.do(chromedp.EmulateViewport(int64(sz[0]), int64(sz[1])))
				b.top()
				pth := b.shot(fmt.Sprintf("dump-%d-%s.png", sz[0], lang))
				lk := inkAt(t, pth, sz[0], sz[1], scene.Dark.Background)
				if lk.ink < 0.02 || lk.spanW < 0.4 || lk.spanH < 0.18 {
					t.Errorf("%s %d: no picture on the stage: ink %.1f%%, spans %.0f%% × %.0f%%", lang, sz[0], 100*lk.ink, 100*lk.spanW, 100*lk.spanH)
				}
			}
		}
	}
	// An intset and an int-encoded string, in Vietnamese, at a laptop's and a phone's width.
	b.do(chromedp.EmulateViewport(1280, 800))
	b.open("?lang=vi&lesson=sandbox")
	for _, c := range []struct{ add, key, want string }{{"SADD s 1 2 3", "s", "11 = set intset"}, {"SET k 1", "k", "0 = string"}} {
		b.typeLine(c.add)
		b.typeLine("DUMP " + c.key)
		b.top()
		if d := b.sceneDesc(); !strings.Contains(d, c.want) {
			t.Errorf("DUMP %s: %q", c.key, d)
		}
		for _, w := range []int{1280, 360} {
			b.do(chromedp.EmulateViewport(int64(w), map[int]int64{1280: 800, 360: 740}[w]))
			b.top()
			b.shot(fmt.Sprintf("dump-%d-vi-%s.png", w, c.key))
		}
		b.do(chromedp.EmulateViewport(1280, 800))
	}
	// A long payload: the strip stops at its first bytes and counts the rest.
	b.do(chromedp.EmulateViewport(360, 740))
	b.open("?lang=en&lesson=sandbox")
	var big strings.Builder
	for i := 0; i < 80; i++ { // little for LZF to find: 240 bytes packed to 234
		fmt.Fprintf(&big, "%03d", i*7919%1000)
	}
	b.typeLine("SET big " + big.String())
	b.typeLine("DUMP big")
	b.top()
	if d := b.sceneDesc(); !strings.Contains(d, "LZF data 234 bytes, packed") {
		t.Errorf("long: %q", d)
	}
	b.shot("dump-360-en-long.png")
	b.do(chromedp.EmulateViewport(1280, 800))
	b.shot("dump-1280-en-long.png")
	// A list of one listpack, LZF-compressed: drawn unpacked below the strip.
	b.typeLine("RPUSH l " + strings.Repeat("alpha beta gamma delta ", 12))
	b.typeLine("DUMP l")
	b.top()
	if d := b.sceneDesc(); !strings.Contains(d, "list quicklist 2") || !strings.Contains(d, "the listpack holds 48 entries") {
		t.Errorf("list: %q", d)
	}
	b.shot("dump-1280-en-list.png")
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
