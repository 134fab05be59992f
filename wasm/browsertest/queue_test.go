package browsertest

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"redscope/assets"
	"redscope/lesson"
)

// waitingOf is state().clients[n-1].waiting ("" when client n is not blocked).
func waitingOf(st any, n int) string {
	cs, _ := st.(map[string]any)["clients"].([]any)
	if len(cs) < n {
		return "missing"
	}
	w, _ := cs[n-1].(map[string]any)["waiting"].(string)
	return w
}

// TestQueueClients opens queue-brpop and steps through it: after step 1 client 1's tab reads
// "◷ blocked: BRPOP jobs 0" and the transcript marks the line as client 1's and blocked; after
// step 2 the push of client 2 delivers client 1's reply (a woken exchange in state() and a
// "↳ reply to" line), and every state() equals the native Player's. Then it types by hand:
// BRPOP in client 1's tab, LPUSH in client 2's, and client 1's reply appears; Back replays the
// blocked state exactly.
func TestQueueClients(t *testing.T) {
	b := start(t, 1280, 800)
	b.open("?lesson=queue-brpop&lang=en")
	var src []byte
	for _, s := range assets.Lessons() {
		if s.Name == "queue-brpop" {
			src = s.Src
		}
	}
	l, err := lesson.Parse("queue-brpop.lesson", src)
	if err != nil {
		t.Fatal(err)
	}
	want := lesson.Run(l, lesson.Config{})
	tab := func(n int) (text, pressed string) {
		text = b.str(fmt.Sprintf(`document.getElementById("client%d").textContent`, n))
		pressed = b.str(fmt.Sprintf(`document.getElementById("client%d").getAttribute("aria-pressed")`, n))
		return
	}
	for i := 1; i < len(want); i++ {
		b.do(chromedp.Click(chromedp.ID("next")))
		b.poll(fmt.Sprintf(`window.redscope.state().step === %d`, i), 20*time.Second)
		st := b.state()
		if got, w := st, normal(t, want[i]); !reflect.DeepEqual(got, w) {
			t.Fatalf("step %d: the page's state differs from the native run:\n%v\n%v", i, got, w)
		}
		switch i {
		case 1:
			if w := waitingOf(st, 1); w != "BRPOP jobs 0" {
				t.Fatalf("step 1: client 1 waits %q", w)
			}
			if text, pressed := tab(1); text != "client 1 · ◷ blocked: BRPOP jobs 0" || pressed != "true" {
				t.Fatalf("step 1: tab 1 %q pressed %s", text, pressed)
			}
			tr := b.str(`document.getElementById("transcript").textContent`)
			if !strings.Contains(tr, "[client 1] > BRPOP jobs 0") || !strings.Contains(tr, "◷ blocked: BRPOP jobs 0") || !strings.Contains(tr, "[client 2] > EXISTS jobs") {
				t.Fatalf("step 1 transcript: %q", tr)
			}
			b.shotQueue("queue-blocked-1280-en.png")
		case 2:
			cmds := st.(map[string]any)["outputs"].(map[string]any)["commands"].([]any)
			woke := cmds[1].(map[string]any)
			if woke["woken"] != true || woke["client"] != float64(1) || woke["reply"] != "1) \"jobs\"\n2) \"email:101\"" {
				t.Fatalf("step 2: %v", cmds)
			}
			if text, _ := tab(1); text != "client 1" || waitingOf(st, 1) != "" {
				t.Fatalf("step 2: tab 1 %q", text)
			}
			tr := b.str(`document.getElementById("transcript").textContent`)
			if !strings.Contains(tr, "[client 1] ↳ reply to BRPOP jobs 0:") {
				t.Fatalf("step 2 transcript: %q", tr)
			}
			b.shotQueue("queue-woken-1280-en.png")
		}
	}

	// By hand, in the sandbox: client 1 blocks, client 2 pushes.
	b.open("?lesson=sandbox&lang=en")
	if _, pressed := tab(1); pressed != "true" {
		t.Fatal("client 1 is not the console's client at start")
	}
	b.do(chromedp.Click(chromedp.ID("console")), chromedp.SendKeys(chromedp.ID("console"), "BRPOP q 0\r"))
	b.poll(`window.redscope.state().clients[0].waiting === "BRPOP q 0"`, 20*time.Second)
	b.do(chromedp.Click(chromedp.ID("client2")))
	b.poll(`document.getElementById("client2").getAttribute("aria-pressed") === "true"`, 20*time.Second)
	if _, pressed := tab(1); pressed != "false" {
		t.Fatal("tab 1 still pressed")
	}
	if text, _ := tab(1); text != "client 1 · ◷ blocked: BRPOP q 0" {
		t.Fatalf("tab 1 %q", text)
	}
	b.do(chromedp.Click(chromedp.ID("console")), chromedp.SendKeys(chromedp.ID("console"), "LPUSH q hi\r"))
	b.poll(`window.redscope.state().clients[0].waiting === undefined`, 20*time.Second)
	cmds := b.state().(map[string]any)["outputs"].(map[string]any)["commands"].([]any)
	if len(cmds) != 3 {
		t.Fatalf("commands %v", cmds)
	}
	push, woke := cmds[1].(map[string]any), cmds[2].(map[string]any)
	if push["client"] != float64(2) || push["reply"] != "(integer) 1" || woke["client"] != float64(1) || woke["woken"] != true || woke["reply"] != "1) \"q\"\n2) \"hi\"" {
		t.Fatalf("LPUSH %v woke %v", push, woke)
	}
	// The clock button times out a BLPOP with a timeout, and the verb switches clients too.
	if n := b.eval(`window.redscope.client(3)`); n != float64(3) {
		t.Fatalf("client(3) → %v", n)
	}
	b.eval(`window.redscope.exec("BLPOP q 1")`)
	if w := waitingOf(b.state(), 3); w != "BLPOP q 1" {
		t.Fatalf("client 3 waits %q", w)
	}
	b.do(chromedp.Click(chromedp.ID("clock")))
	b.poll(`window.redscope.state().clients[2].waiting === "BLPOP q 1"`, 20*time.Second) // +1 s: not yet (now > deadline)
	b.do(chromedp.Click(chromedp.ID("clock")))
	b.poll(`window.redscope.state().clients[2].waiting === undefined`, 20*time.Second)
	cmds = b.state().(map[string]any)["outputs"].(map[string]any)["commands"].([]any)
	if last := cmds[len(cmds)-1].(map[string]any); last["woken"] != true || last["client"] != float64(3) || last["reply"] != "(nil)" {
		t.Fatalf("timeout: %v", last)
	}
	if ok := b.eval(`window.redscope.client(7)`); ok != false {
		t.Fatalf("client(7) → %v", ok)
	}
}

// shotQueue saves a screenshot in /tmp/shots-queue.
func (b *browser) shotQueue(name string) {
	b.t.Helper()
	time.Sleep(400 * time.Millisecond)
	png := run(b, chromedp.CaptureScreenshot())
	dir := filepath.Join(os.TempDir(), "shots-queue")
	os.MkdirAll(dir, 0o755)
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// TestQueueScreenshots: queue-brpop at step 1 (client 1 blocked) at 360, 1280 and 1920 wide, in
// Vietnamese and English, for a person to look at (/tmp/shots-queue).
func TestQueueScreenshots(t *testing.T) {
	for _, sz := range [][2]int{{360, 740}, {1280, 800}, {1920, 1080}} {
		b := start(t, sz[0], sz[1])
		for _, lang := range []string{"vi", "en"} {
			b.open("?lesson=queue-brpop&step=1&lang=" + lang)
			want := "máy khách 1 · ◷ đang chờ BRPOP jobs 0"
			if lang == "en" {
				want = "client 1 · ◷ blocked: BRPOP jobs 0"
			}
			if got := b.str(`document.getElementById("client1").textContent`); got != want {
				t.Errorf("%d %s: tab 1 %q", sz[0], lang, got)
			}
			b.eval(`document.getElementById("clients").scrollIntoView()`)
			b.shotQueue(fmt.Sprintf("queue-brpop-%d-%s.png", sz[0], lang))
		}
		b.stop()
	}
}
