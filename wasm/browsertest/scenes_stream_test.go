//go:build !(js && wasm)

package browsertest

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// sceneDesc is the canvas's text alternative (#sceneDesc, filled from scene.Describe).
func (b *browser) sceneDesc() string {
	b.t.Helper()
	return b.eval(`document.getElementById("sceneDesc").textContent`).(string)
}

// top scrolls the page's panel back to its start: typing in the console scrolls it on a phone,
// and headless Chromium then paints a black box over the stage's lower part in screenshots.
func (b *browser) top() {
	b.t.Helper()
	b.eval(`document.activeElement && document.activeElement.blur(); document.querySelectorAll("*").forEach(e => { if (e.scrollTop) e.scrollTop = 0 }); true`)
}

// streamScript is the EVAL of TestStreamSceneTyped: three commands on three script lines.
const streamScript = `EVAL "redis.call('SET', KEYS[1], 'v')\nredis.call('XADD', KEYS[2], '1-9', 'a', ARGV[1])\nreturn redis.call('XLEN', KEYS[2])" 2 k s 7`

// TestStreamSceneTyped types a stream's commands in free play — XADD across a node boundary
// (stream-node-max-entries 3), a group with two consumers, XACK, XAUTOCLAIM — and an EVAL, and
// checks what the canvas draws (state().scene / focus) and says (#sceneDesc), in English and
// Vietnamese, at a phone's, a laptop's and a projector's width; it saves a screenshot of each.
func TestStreamSceneTyped(t *testing.T) {
	for _, size := range [][2]int{{360, 740}, {1280, 800}, {1920, 1080}} {
		t.Run(fmt.Sprint(size[0]), func(t *testing.T) {
			b := start(t, size[0], size[1])
			for _, lang := range []string{"en", "vi"} {
				b.open("?lang=" + lang + "&lesson=sandbox")
				for i, line := range []string{"CONFIG SET stream-node-max-entries 3", "XADD s 1-1 a 1", "XADD s 1-2 a 2", "XADD s 1-3 a 3 b 4", "XADD s 1-4 a 5"} {
					if i == 1 || i == 4 {
						b.typeLine(line) // the console input
					} else {
						b.eval(fmt.Sprintf(`window.redscope.exec(%q)`, line))
					}
				}
				if sc, k := b.drawn(); sc != "stream" || k != "s" {
					t.Fatalf("%s XADD: %s/%s", lang, sc, k)
				}
				want := map[string]string{"en": "new node (master 1-4): stream-node-max-entries 3 reached", "vi": "node mới (master 1-4): đã đạt stream-node-max-entries 3"}[lang]
				if d := b.sceneDesc(); !strings.Contains(d, want) {
					t.Errorf("%s: #sceneDesc %q lacks %q", lang, d, want)
				}
				b.top()
				b.shot(fmt.Sprintf("stream-%s-%d-xadd.png", lang, size[0]))
				for _, line := range []string{"XGROUP CREATE s g 0", "XREADGROUP GROUP g alice COUNT 2 STREAMS s >", "XREADGROUP GROUP g bob COUNT 1 STREAMS s >", "XACK s g 1-1"} {
					b.eval(fmt.Sprintf(`window.redscope.exec(%q)`, line))
				}
				b.typeLine("XAUTOCLAIM s g bob 0 0-0")
				if sc, k := b.drawn(); sc != "stream" || k != "s" {
					t.Fatalf("%s XAUTOCLAIM: %s/%s", lang, sc, k)
				}
				want = map[string]string{"en": "2 pending (alice 0, bob 2); last: 1-2 claimed by bob (delivery 2)", "vi": "2 đang chờ (alice 0, bob 2); vừa rồi: 1-2 được bob nhận lại (lần giao 2)"}[lang]
				if d := b.sceneDesc(); !strings.Contains(d, want) {
					t.Errorf("%s: #sceneDesc %q lacks %q", lang, d, want)
				}
				b.top()
				b.shot(fmt.Sprintf("stream-%s-%d-group.png", lang, size[0]))
				// The first EVAL of the tab moves the session to the build with Lua (wasm/lua.go),
				// which runs it: the English pass goes through the handover, the Vietnamese one
				// starts in the build with Lua already.
				b.eval(fmt.Sprintf(`window.redscope.exec(%q)`, streamScript))
				b.waitLuaBuild(60 * time.Second)
				if sc, k := b.drawn(); sc != "stream" || k != "s" {
					t.Fatalf("%s EVAL: %s/%s", lang, sc, k)
				}
				want = map[string]string{"en": `the script ran 3 commands: line 1 SET k v → OK; line 2 XADD s 1-9 a 7 → "1-9"; line 3 XLEN s → (integer) 5; drawn: s.`,
					"vi": `script đã chạy 3 lệnh: dòng 1 SET k v → OK; dòng 2 XADD s 1-9 a 7 → "1-9"; dòng 3 XLEN s → (integer) 5; đang vẽ: s.`}[lang]
				if d := b.sceneDesc(); !strings.HasPrefix(d, want) {
					t.Errorf("%s: #sceneDesc %q does not start %q", lang, d, want)
				}
				b.top()
				b.shot(fmt.Sprintf("stream-%s-%d-eval.png", lang, size[0]))
			}
		})
	}
}
