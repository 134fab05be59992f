//go:build !(js && wasm)

package browsertest

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"redscope/lesson"
)

// withDemo copies web/embed-demo.html into the dist the tests serve (build.sh dist does the same).
func withDemo(t *testing.T) {
	t.Helper()
	if testing.Short() || chromiumPath() == "" {
		return // start() skips
	}
	dist := buildDist(t)
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "web", "embed-demo.html"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dist, "embed-demo.html"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func (b *browser) poll(expr string, d time.Duration) {
	b.t.Helper()
	run(b, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(d)))
}

func (b *browser) str(expr string) string {
	b.t.Helper()
	return run(b, chromedp.Evaluate[string](expr))
}

// await evaluates an expression that gives a promise of a string.
func (b *browser) await(expr string) string {
	b.t.Helper()
	return run(b, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
}

func js(s string) string { return fmt.Sprintf("%q", s) } // a Go-quoted string is a valid JS string literal here

// TestEmbedDemo drives the two lessons of web/embed-demo.html with the page's buttons
// (postMessage), checks the step messages and replies, and takes a screenshot.
func TestEmbedDemo(t *testing.T) {
	withDemo(t)
	b := start(t, 1600, 1000)
	b.do(chromedp.Navigate(b.url + "/embed-demo.html"))
	b.poll(`window.demo && window.demo.ready.sds === true && window.demo.ready.bits === true`, 60*time.Second)
	click := func(frame, req string) {
		t.Helper()
		b.do(chromedp.Click(chromedp.CSS(fmt.Sprintf(`button[data-frame=%q][data-req=%q]`, frame, req))))
	}
	steps := func(frame string) string {
		return b.str(fmt.Sprintf(`window.demo.messages.filter(m => m.frame === %q && m.redscope === "step").map(m => m.lesson + ":" + m.step + "/" + m.steps).join(" ")`, frame))
	}
	nb, ns := len(builtin(t, "bit-offsets").Steps), len(builtin(t, "sds-growth").Steps)
	for i := 0; i < 3; i++ {
		click("bits", "step")
		b.poll(fmt.Sprintf(`window.demo.messages.filter(m => m.frame === "bits" && m.redscope === "step").length === %d`, i+1), 10*time.Second)
	}
	click("sds", "step")
	click("sds", "step")
	b.poll(`window.demo.messages.filter(m => m.frame === "sds" && m.redscope === "step").length === 2`, 10*time.Second)
	if want := fmt.Sprintf("bit-offsets:1/%d bit-offsets:2/%d bit-offsets:3/%d", nb, nb, nb); steps("bits") != want {
		got := steps("bits")
		t.Fatalf("bits step messages %q", got)
	}
	if want := fmt.Sprintf("sds-growth:1/%d sds-growth:2/%d", ns, ns); steps("sds") != want {
		got := steps("sds")
		t.Fatalf("sds step messages %q", got)
	}
	click("bits", "back")
	b.poll(fmt.Sprintf(`document.getElementById("progress-bits").textContent === "Bước 2/%d"`, nb), 10*time.Second)
	click("bits", "step")
	click("bits", "exec") // GETBIT bm 100 after step 3
	b.poll(`document.getElementById("log").textContent.includes("bits: trả lời — (integer) 1")`, 10*time.Second)
	click("sds", "exec") // STRLEN a after step 2
	b.poll(`document.getElementById("log").textContent.includes("sds: trả lời — (integer) 11")`, 10*time.Second)
	// state, lesson and bad requests through the page's send().
	got := b.await(`(async () => { const s = await window.demo.send("bits", "state"); return s.lesson + " " + s.step + "/" + s.steps; })()`)
	if got != fmt.Sprintf("bit-offsets 3/%d", nb) {
		t.Fatalf("state over postMessage: %q", got)
	}
	got = b.await(`window.demo.send("sds", "frobnicate").then(() => "answered", e => e.message)`)
	if !strings.Contains(got, `unknown request "frobnicate"`) {
		t.Fatalf("unknown request: %q", got)
	}
	got = b.await(`window.demo.send("sds", "lesson", ["no-such-lesson"]).then(() => "loaded", e => e.message)`)
	if got != `no lesson "no-such-lesson"` {
		t.Fatalf("bad lesson name: %q", got)
	}
	got = b.await(`window.demo.send("sds", "exec", ["SET k x"]).then(() => window.demo.send("sds", "exec", ["SRANDMEMBER k -10000000"]))`)
	if !strings.HasPrefix(got, "(refused) ") || !strings.Contains(got, "limit ReplyItems") {
		t.Fatalf("refused exec over postMessage: %q", got)
	}
	got = b.await(`window.demo.send("sds", "step", [4]).then(n => String(n))`)
	if got != "4" {
		t.Fatalf("seek over postMessage: %q", got)
	}
	b.poll(fmt.Sprintf(`document.getElementById("progress-sds").textContent === "Bước 4/%d"`, ns), 10*time.Second)
	p := b.shot("embed-demo.png")
	t.Logf("demo screenshot: %s", p)
}

// TestEmbedOrigins: only the embedding page is answered, and only from an allowed origin.
func TestEmbedOrigins(t *testing.T) {
	b := start(t, 1400, 900)
	appURL := b.url // http://127.0.0.1:PORT
	// A course page on another origin (localhost vs 127.0.0.1), with a sibling frame.
	mux := http.NewServeMux()
	courseOrigin := ""
	mux.HandleFunc("/course.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html><head><link rel="icon" href="data:,"></head><body>
<iframe id="app" style="width:900px;height:500px" src="%[1]s/index.html?lesson=bit-offsets&%[2]s"></iframe>
<iframe id="ctl" style="width:900px;height:500px" src="%[1]s/index.html?lesson=bit-offsets&origins=%[3]s"></iframe>
<iframe id="sib" style="width:200px;height:100px" src="/sib.html"></iframe>
<script>
window.got = []; window.ctl = [];
const fmt = d => d.redscope + ":" + (d.id || "") + ":" + (d.result !== undefined ? d.result : d.error);
window.addEventListener("message", ev => {
  if (ev.source === document.getElementById("app").contentWindow) window.got.push(fmt(ev.data));
  if (ev.source === document.getElementById("ctl").contentWindow) window.ctl.push(fmt(ev.data));
});
window.ask = (type, id, args) => document.getElementById("app").contentWindow.postMessage({redscope: type, id, args}, %[4]q);
window.askCtl = (type, id, args) => document.getElementById("ctl").contentWindow.postMessage({redscope: type, id, args}, %[4]q);
</script></body></html>`, appURL, r.URL.RawQuery, courseOrigin, appURL)
	})
	mux.HandleFunc("/sib.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html><head><link rel="icon" href="data:,"></head><body><script>window.got = []; window.addEventListener("message", ev => window.got.push(ev.data));</script></body></html>`)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	courseURL := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1)
	courseOrigin = courseURL

	// 1. Without origins=, a cross-origin parent is not answered (nor told of steps), while the
	// control frame, allowed by origins=, answers the same page.
	b.do(chromedp.Navigate(courseURL + "/course.html?x=1"))
	b.poll(`(window.askCtl("exec", 1, ["PING"]), window.ctl.includes("reply:1:PONG"))`, 60*time.Second)
	for i := 0; i < 6; i++ {
		b.eval(`window.ask("exec", 1, ["SET a 1"])`)
		time.Sleep(500 * time.Millisecond)
	}
	if n := b.eval(`window.got.length`); n != float64(0) {
		t.Fatalf("a cross-origin parent without origins= was answered: %v", b.str(`window.got.join(" ")`))
	}
	if !strings.Contains(b.str(`window.ctl.join(" ")`), "ready::") {
		t.Errorf("the allowed frame said no ready: %s", b.str(`window.ctl.join(" ")`))
	}
	// 2. With origins=<course origin>: answered, and the sibling frame (same allowed origin, but
	// not the parent) is ignored.
	b.do(chromedp.Navigate(courseURL + "/course.html?origins=" + courseOrigin))
	b.poll(`(window.ask("exec", 2, ["PING"]), window.got.some(g => g === "reply:2:PONG"))`, 60*time.Second)
	if !strings.Contains(b.str(`window.got.join(" ")`), "ready::") {
		t.Errorf("no ready message: %s", b.str(`window.got.join(" ")`))
	}
	b.eval(`document.getElementById("sib").contentWindow.eval('parent.frames[0].postMessage({redscope: "exec", id: 99, args: ["SET sib 1"]}, "*")')`)
	time.Sleep(700 * time.Millisecond)
	b.eval(`window.ask("exec", 3, ["EXISTS sib"])`)
	b.poll(`window.got.some(g => g.startsWith("reply:3:"))`, 10*time.Second)
	if got := b.str(`window.got.find(g => g.startsWith("reply:3:"))`); got != "reply:3:(integer) 0" {
		t.Fatalf("the sibling frame drove the app: %s", got)
	}
	if n := b.eval(`document.getElementById("sib").contentWindow.got.length`); n != float64(0) {
		t.Fatalf("the sibling frame got answers: %v", n)
	}
	b.eval(`window.ask("step", 4, [])`)
	b.poll(`window.got.includes("step::undefined") || window.got.some(g => g === "reply:4:true")`, 10*time.Second)
	// 3. A top-level app page ignores messages (it has no parent), even from itself.
	b.open("?lesson=bit-offsets")
	b.eval(`window.postMessage({redscope: "exec", id: 1, args: ["SET self 1"]}, "*")`)
	time.Sleep(500 * time.Millisecond)
	if r := b.eval(`window.redscope.exec("EXISTS self")`); r != "(integer) 0" {
		t.Fatalf("a top-level page obeyed its own message: %v", r)
	}
}

const xssLesson = `lesson xss-test
title en: <b>bold?</b> title
title vi: <b>đậm?</b>
en: <img src=x onerror="window.__xss=1">intro
vi: <img src=x onerror="window.__xss=1">mở đầu
step
en: <script>window.__xss=2</script><img src=x onerror="window.__xss=3"> caption
vi: <img src=x onerror="window.__xss=3"> chú thích
> SET "<img src=x onerror=window.__xss=4>" "<script>window.__xss=5</script>"
expect reply: OK
step
en: second
> GET "<img src=x onerror=window.__xss=4>"
`

// TestEmbedLinksAndParams: URL parameters, a lesson in the fragment (whose markup stays text),
// the link and embed code round trip, theme and minimal controls.
func TestEmbedLinksAndParams(t *testing.T) {
	b := start(t, 1280, 800)
	enc := lesson.EncodeLesson([]byte(xssLesson))
	b.open("?lang=en&theme=light&controls=minimal&step=1&seed=3#lesson=" + enc)
	if e := b.eval(`window.redscope.error`); e != "" {
		t.Fatalf("error: %v", e)
	}
	st := b.state().(map[string]any)
	if st["lesson"] != "xss-test" || stepOf(st) != 1 {
		t.Fatalf("state %v", st)
	}
	cap := b.str(`document.getElementById("caption").textContent`)
	if cap != `<script>window.__xss=2</script><img src=x onerror="window.__xss=3"> caption` {
		t.Fatalf("caption %q", cap)
	}
	if got := b.str(`document.getElementById("title").textContent`); got != "<b>bold?</b> title" {
		t.Fatalf("title %q", got)
	}
	time.Sleep(300 * time.Millisecond)
	if n := b.eval(`document.querySelectorAll("#panel img, #panel script, #panel b").length`); n != float64(0) {
		t.Fatalf("markup from the lesson became elements: %v", n)
	}
	if x := b.eval(`String(window.__xss)`); x != "undefined" {
		t.Fatalf("a script from the lesson ran: %v", x)
	}
	if tr := b.str(`document.getElementById("transcript").textContent`); !strings.Contains(tr, `> SET "<img src=x onerror=window.__xss=4>" "<script>window.__xss=5</script>"`) {
		t.Fatalf("transcript %q", tr)
	}
	if got := b.str(`document.documentElement.dataset.theme + " " + document.documentElement.dataset.controls`); got != "light minimal" {
		t.Fatalf("theme/controls %q", got)
	}
	if v := b.eval(`document.getElementById("console").offsetParent === null && document.getElementById("next").offsetParent !== null`); v != true {
		t.Fatal("minimal controls: the console is visible or Next is hidden")
	}
	b.shot("embed-light-minimal-en.png")
	// The link to step 2 reopens the same lesson there; the embed code is an escaped iframe.
	link := b.str(`window.redscope.link(2)`)
	if !strings.Contains(link, "step=2") || !strings.Contains(link, "#lesson=") || !strings.Contains(link, "lang=en") {
		t.Fatalf("link %q", link)
	}
	code := b.str(`window.redscope.embedCode()`)
	if !strings.HasPrefix(code, `<iframe src="`+b.url+`/?`) || strings.Contains(code, "<b>") || !strings.Contains(code, `title="redscope: &lt;b&gt;bold?&lt;/b&gt; title"`) {
		t.Fatalf("embed code %q", code)
	}
	b.do(chromedp.Navigate(link))
	b.poll(`window.redscope && window.redscope.ready === true`, 60*time.Second)
	st = b.state().(map[string]any)
	if st["lesson"] != "xss-test" || stepOf(st) != 2 {
		t.Fatalf("after the link: %v", st)
	}
	// A built-in lesson by name, autoplay.
	b.open("?lesson=bit-offsets&autoplay=1&version=7.0")
	b.poll(`window.redscope.state().step >= 2`, 20*time.Second)
	if l := b.str(`window.redscope.link(-1)`); l != b.url+"/?lesson=bit-offsets&version=7.0" {
		t.Fatalf("built-in link %q", l)
	}
	// The share panel's buttons fill the text box (the clipboard may be unavailable headless).
	// Autoplay first runs to the end: each step changes the panel's height, and a click aimed
	// while the layout moves can land beside its button.
	b.poll(`(s => s.step === s.steps)(window.redscope.state())`, 60*time.Second)
	b.do(chromedp.Click(chromedp.CSS("#share summary")))
	b.do(chromedp.Click(chromedp.ID("copyEmbed")))
	b.poll(`document.getElementById("shareOut").value.startsWith("<iframe ")`, 10*time.Second)
	b.do(chromedp.Click(chromedp.ID("exportTranscript")))
	b.poll(`document.getElementById("shareOut").value === window.redscope.transcript()`, 10*time.Second)
	if tr := b.str(`window.redscope.transcript()`); !strings.HasPrefix(tr, "SETBIT bm 7 1\nSETBIT bm 0 1\nSETBIT bm 100 1\n") {
		t.Fatalf("transcript %q", tr)
	}
	b.shot("embed-share-panel-vi.png")
}

// TestBadInput: every bad input gives a clear message, runs nothing unbounded, and the page
// keeps working (no console errors: start() fails the test on any).
func TestBadInput(t *testing.T) {
	b := start(t, 1280, 800)
	b.open("?lesson=bit-offsets&step=abc&theme=neon")
	errText := func() string {
		return b.str(`document.getElementById("error").hidden ? "" : document.getElementById("error").textContent`)
	}
	if e := errText(); !strings.Contains(e, `step="abc"`) || !strings.Contains(e, `theme="neon"`) {
		t.Fatalf("bad parameters: %q", e)
	}
	alive := func() {
		t.Helper()
		if r := b.eval(`window.redscope.exec("PING")`); r != "PONG" {
			t.Fatalf("page not working: %v", r)
		}
		b.framesFollowChanges() // page_test.go
	}
	timed := func(what string, expr string) any {
		t.Helper()
		t0 := time.Now()
		v := b.eval(expr)
		// Not a speed check: a refusal that took this long would mean the command ran (a frozen
		// page), which is what the limits exist to prevent.
		if d := time.Since(t0); d > 10*time.Second {
			t.Errorf("%s took %v", what, d)
		}
		return v
	}
	// Far offsets run as on a real server (the engine does not store the zero bytes), but copying
	// such a string out is refused.
	for _, c := range [][2]string{{"SETRANGE k 500000000 x", "(integer) 500000001"}, {"SETBIT k 4294967295 1", "(integer) 0"}, {"STRLEN k", "(integer) 536870912"}} {
		if r := timed(c[0], `window.redscope.exec(`+js(c[0])+`)`); r != c[1] {
			t.Fatalf("%s → %q, want %q", c[0], r, c[1])
		}
	}
	// Commands past the limits.
	for _, c := range []struct{ line, limit string }{
		{"SET big " + strings.Repeat("x", 2<<20), "LineBytes"},
		{"GET k", "StringBytes"},
		{"GETRANGE k 0 -1", "StringBytes"},
		{"SRANDMEMBER s -10000000", "ReplyItems"},
		{"BF.RESERVE f 0.0001 1000000000", "Memory"},
	} {
		r := timed(c.limit, `window.redscope.exec(`+js(c.line)+`)`).(string)
		if !strings.HasPrefix(r, "(refused) ") || !strings.Contains(r, "limit "+c.limit) {
			t.Fatalf("%s → %q", c.limit, r)
		}
		if e := errText(); !strings.Contains(e, "giới hạn "+c.limit) { // the page's language (vi)
			t.Fatalf("%s: error shown %q", c.limit, e)
		}
		alive()
	}
	// An unknown command in the console: Redis's own error.
	if r := b.eval(`window.redscope.exec("FROBNICATE x")`); r != "(error) ERR unknown command 'FROBNICATE', with args beginning with: 'x' " {
		t.Fatalf("unknown command %q", r)
	}
	// Lessons that ask too much or are malformed: refused with the line, the page stays on its lesson.
	var ten strings.Builder
	ten.WriteString("title en: ten million\nstep\nen: x\n")
	for i := 0; i < 100; i++ {
		ten.WriteString("> PFADD h\nargs 1..100000 > e%d\n")
	}
	for _, c := range []struct{ src, want string }{
		{ten.String(), "api.lesson:13: the step asks for 500005 arguments or more"},
		{"title en: t\nstep\nen: x\n> SET a 1\n> FROB a\n", `api.lesson:5: unknown command "FROB"`},
		{"title en: t\nstep\nen: x\n> SET a \"open\n", "api.lesson:4: cannot split command"},
		{"title en: t\nstep\nen: x\nexpect reply: OK\n", "api.lesson:4: expect without a command"},
		{"no title\n", "api.lesson:1: unknown header line"},
		{"title en: t\nstep\n> SET a\narg x*5000000\n", "api.lesson:4: the command grows to 5000005 bytes"},
		{strings.Repeat("# pad pad pad pad\n", 70000), "the lesson is 1260000 bytes"},
	} {
		got := timed(c.want, `window.redscope.loadSource(`+js(c.src)+`)`).(string)
		if !strings.HasPrefix(got, c.want) {
			t.Fatalf("loadSource → %q, want %q…", got, c.want)
		}
		if e := errText(); e != "" && strings.Contains(e, c.want) {
			t.Fatalf("the API's error should be returned, not shown: %q", e)
		}
		if l := b.state().(map[string]any)["lesson"]; l != "bit-offsets" {
			t.Fatalf("lesson changed to %v", l)
		}
		alive()
	}
	// The same through the paste box: the message is shown on the page.
	b.do(chromedp.Click(chromedp.CSS("#share summary")))
	b.do(chromedp.SetValue(chromedp.ID("lessonText"), "title en: t\nstep\nen: x\n> SET a 1\n> FROB a\n"))
	b.do(chromedp.Click(chromedp.ID("loadText")))
	b.poll(`document.getElementById("error").textContent.includes("pasted.lesson:5: unknown command \"FROB\"")`, 10*time.Second)
	alive()
	// A good lesson pasted, then one dropped as a file.
	b.do(chromedp.SetValue(chromedp.ID("lessonText"), "title en: pasted\nstep\nen: one\n> SET p 1\n"))
	b.do(chromedp.Click(chromedp.ID("loadText")))
	b.poll(`window.redscope.state().lesson === "pasted" && document.getElementById("error").hidden`, 10*time.Second)
	b.eval(`(() => { const dt = new DataTransfer(); dt.items.add(new File(["title en: dropped\nstep\nen: one\n> SET d 1\n"], "dropped.lesson"));
		document.getElementById("lessonText").dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true})); })()`)
	b.poll(`window.redscope.state().lesson === "dropped"`, 10*time.Second)
	if ok := b.eval(`window.redscope.step()`); ok != true {
		t.Fatal("cannot step the dropped lesson")
	}
	b.shot("bad-input-after.png")
	// A broken link fragment.
	b.open("?lesson=bit-offsets#lesson=!!!notbase64")
	if e := errText(); !strings.Contains(e, "bài học trong liên kết hỏng (không phải base64url") {
		t.Fatalf("broken fragment: %q", e)
	}
	if l := b.state().(map[string]any)["lesson"]; l != "bit-offsets" {
		t.Fatalf("lesson %v", l)
	}
	alive()
}
