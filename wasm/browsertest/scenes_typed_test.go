//go:build !(js && wasm)

package browsertest

import (
	"bytes"
	"fmt"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"redscope/scene"
)

// drawn is what the canvas draws now: state().scene and state().focus.
func (b *browser) drawn() (string, string) {
	b.t.Helper()
	v := b.eval(`[window.redscope.state().scene, window.redscope.state().focus]`).([]any)
	return v[0].(string), v[1].(string)
}

// typeLine types a command into the console and presses Enter, then waits for its reply.
func (b *browser) typeLine(line string) {
	b.t.Helper()
	n := b.eval(`window.redscope.state().outputs.commands.length`).(float64)
	b.do(chromedp.Click(chromedp.ID("console")), chromedp.SendKeys(chromedp.ID("console"), line+"\r"))
	run(b, chromedp.Poll[bool](fmt.Sprintf(`window.redscope.state().outputs.commands.length > %d`, int(n)), chromedp.WithPollingTimeout(20*time.Second)))
}

// pixel reads one CSS pixel of a fresh screenshot (device scale 1).
func (b *browser) pixel(x, y int) scene.Color {
	b.t.Helper()
	time.Sleep(300 * time.Millisecond)
	img, err := png.Decode(bytes.NewReader(run(b, chromedp.CaptureScreenshot())))
	if err != nil {
		b.t.Fatal(err)
	}
	r, g, bl, a := img.At(x, y).RGBA()
	return scene.Color{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(bl >> 8), A: uint8(a >> 8)}
}

// TestTypedCommandsDrawn types commands of every type in free play and inside a lesson and
// checks which scene and key the canvas draws (state().scene/focus), the red error band on the
// canvas (read from a screenshot) and its clearing, HELP, and the "not simulated" reply.
func TestTypedCommandsDrawn(t *testing.T) {
	b := start(t, 1280, 800)
	b.open("?lang=en&lesson=sandbox")
	if sc, k := b.drawn(); sc != "keys" || k != "" {
		t.Fatalf("empty sandbox: %s/%s", sc, k)
	}
	for i, c := range []struct{ line, scene, key string }{
		{"SET greeting hello", "sds", "greeting"},
		{"SETBIT flags 7 1", "bits", "flags"},
		{"PFADD visitors a b c", "hll", "visitors"},
		{"HSET user:1 name ann", "encoding", "user:1"},
		{"SADD tags 1 2 3", "encoding", "tags"},
		{"ZADD board 10 ann 20 bob", "zset", "board"},
		{"RPUSH jobs a b c", "list", "jobs"},
		{"BF.ADD seen x", "bloom", "seen"},
		{"LMOVE jobs done LEFT RIGHT", "list", "done"},
		{"PING", "list", "done"},
		{"DEL greeting", "keys", ""},
	} {
		if i%2 == 0 {
			b.typeLine(c.line) // the console input
		} else {
			b.eval(fmt.Sprintf(`window.redscope.exec(%q)`, c.line))
		}
		if sc, k := b.drawn(); sc != c.scene || k != c.key {
			t.Errorf("sandbox %s: %s/%s, want %s/%s", c.line, sc, k, c.scene, c.key)
		}
	}
	// An error: a red band at the top of the stage, until the next command that succeeds.
	stage := scene.Stage(1280, 800)
	px, py := int(stage.W/2), 3
	if c := b.pixel(px, py); near(c, scene.ErrorC, 12) {
		t.Fatalf("red before any error: %v", c)
	}
	b.typeLine("LPUSH tags x")
	if sc, k := b.drawn(); sc != "encoding" || k != "tags" {
		t.Errorf("WRONGTYPE drawn by %s/%s", sc, k)
	}
	if c := b.pixel(px, py); !near(c, scene.ErrorC, 12) {
		t.Fatalf("no error band: pixel %v, want %v", c, scene.ErrorC)
	}
	b.shot("typed-error-en-1280.png")
	b.typeLine("SCARD tags")
	if c := b.pixel(px, py); near(c, scene.ErrorC, 12) {
		t.Fatalf("error band not cleared: %v", c)
	}
	// HELP answers from the command table; a real command not simulated says so.
	if r := b.eval(`window.redscope.exec("HELP LPUSH")`).(string); !strings.HasPrefix(r, "  LPUSH key element [element ...]\n  summary: Inserts elements at the head of a list.") {
		t.Errorf("HELP LPUSH: %q", r)
	}
	if r := b.eval(`window.redscope.exec("GEOADD s 1 2 m")`); r != "(error) ERR redscope does not simulate 'geoadd' yet" {
		t.Errorf("GEOADD: %q", r)
	}
	if sc, k := b.drawn(); sc != "encoding" || k != "tags" {
		t.Errorf("after GEOADD (no key): %s/%s", sc, k)
	}

	// Inside a lesson: its scene draws its steps and keys; a typed key of another type switches.
	b.eval(`window.redscope.lesson("encodings-hash")`)
	b.eval(`window.redscope.step()`)
	if sc, k := b.drawn(); sc != "encoding" || k != "user:1" {
		t.Fatalf("lesson step 1: %s/%s", sc, k)
	}
	for _, c := range []struct{ line, scene, key string }{
		{"HSET user:1 extra 1", "encoding", "user:1"},
		{"RPUSH queue a b", "list", "queue"},
		{"SET name redscope", "sds", "name"},
		{"ZADD z 1 m", "zset", "z"},
		{"SETBIT bm 100 1", "bits", "bm"},
		{"PFADD hl x", "hll", "hl"},
		{"DBSIZE", "hll", "hl"},
	} {
		b.typeLine(c.line)
		if sc, k := b.drawn(); sc != c.scene || k != c.key {
			t.Errorf("lesson %s: %s/%s, want %s/%s", c.line, sc, k, c.scene, c.key)
		}
	}
	b.eval(`window.redscope.step()`)
	if sc, k := b.drawn(); sc != "encoding" || k != "user:1" {
		t.Errorf("lesson step 2: %s/%s", sc, k)
	}

	// Vietnamese: the "not simulated" reply in the page's language.
	b.open("?lang=vi&lesson=sandbox")
	if r := b.eval(`window.redscope.exec("GEOADD s 1 2 m")`); r != "(error) ERR redscope chưa mô phỏng lệnh GEOADD (Redis có từ 3.2.0, nhóm geo)" {
		t.Errorf("vi GEOADD: %q", r)
	}
	if r := b.eval(`window.redscope.exec("HELP")`).(string); !strings.HasPrefix(r, "redscope mô phỏng Redis 8.8.") {
		t.Errorf("vi HELP: %q", r)
	}
}

// TestTypedScreenshots saves the list scene and typed-command pictures at 360, 1280 and 1920 px in
// vi and en (REDSCOPE_ARTIFACTS, e.g. /tmp/shots-scenes) and checks that the stage is not blank.
func TestTypedScreenshots(t *testing.T) {
	for _, sz := range [][2]int{{360, 740}, {1280, 800}, {1920, 1080}} {
		for _, lang := range []string{"vi", "en"} {
			func() {
				b := start(t, sz[0], sz[1])
				defer b.stop()
				b.open("?lang=" + lang + "&lesson=sandbox&version=7.0")
				for _, l := range []string{"CONFIG SET list-max-listpack-size 4", "RPUSH jobs job:1 job:2 job:3 job:4 job:5 job:6 42 7", "RPUSH done old", "LMOVE jobs done LEFT RIGHT"} {
					b.eval(fmt.Sprintf(`window.redscope.exec(%q)`, l))
				}
				if sc, _ := b.drawn(); sc != "list" {
					t.Fatalf("not the list scene: %s", sc)
				}
				p := b.shot(fmt.Sprintf("list-lmove-%s-%d.png", lang, sz[0]))
				checkNotBlank(t, p, scene.Stage(float64(sz[0]), float64(sz[1])))
				b.open("?lang=" + lang + "&lesson=sandbox")
				b.eval(`window.redscope.exec("RPUSH q a b c")`)
				b.eval(`window.redscope.exec("LPOP q")`)
				b.shot(fmt.Sprintf("list-listpack-%s-%d.png", lang, sz[0]))
				b.eval(`window.redscope.exec("HSET user:1 name ann age 42")`)
				b.shot(fmt.Sprintf("typed-hash-%s-%d.png", lang, sz[0]))
				b.eval(`window.redscope.exec("SET greeting hello")`)
				b.eval(`window.redscope.exec("INCR greeting")`)
				b.shot(fmt.Sprintf("typed-error-%s-%d.png", lang, sz[0]))
			}()
		}
	}
}

// checkNotBlank fails when the stage of a screenshot is a single colour.
func checkNotBlank(t *testing.T, path string, stage scene.Rect) {
	t.Helper()
	img, bounds := stageOf(t, path, stage)
	colours := map[[3]uint32]bool{}
	for y := bounds.Min.Y; y < bounds.Max.Y; y += 4 {
		for x := bounds.Min.X; x < bounds.Max.X; x += 4 {
			r, g, b, _ := img.At(x, y).RGBA()
			colours[[3]uint32{r >> 8, g >> 8, b >> 8}] = true
		}
	}
	if len(colours) < 4 {
		t.Errorf("%s: the stage has %d colours", path, len(colours))
	}
}
