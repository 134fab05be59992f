//go:build !(js && wasm)

package browsertest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"redscope/engine"
)

// The page's cost per step and per message must not grow with the session (issue 11, goal 1):
// these tests report the time of each block of work, with the load average (the machine is
// shared), and assert only what the page answered.

// longLesson is a generated lesson of n steps, one command each, cycling through four kinds of
// key (a list that grows by one per step, counters, a hash and a HyperLogLog), every command
// with its expected reply computed here: a failed check would show in the page's error box.
func longLesson(n int) (src string, want map[string]string) {
	var b strings.Builder
	b.WriteString("lesson long-run\ntitle vi: Bài dài\ntitle en: A long lesson\nscene none\nkeys q\nvi: Bài học sinh ra.\nen: A generated lesson.\n")
	llen, hlen := 0, 0
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "step\nvi: Bước %d.\nen: Step %d.\n", i, i)
		switch i % 4 {
		case 0:
			llen++
			fmt.Fprintf(&b, "> RPUSH q e%d\nexpect reply: (integer) %d\n", i, llen)
		case 1:
			fmt.Fprintf(&b, "> SET c:%d %d\nexpect reply: OK\n", i, i)
		case 2:
			hlen++
			fmt.Fprintf(&b, "> HSET h f%d %d\nexpect reply: (integer) 1\n", i, i)
		case 3:
			fmt.Fprintf(&b, "> PFADD v u%d\n", i)
		}
	}
	return b.String(), map[string]string{"LLEN q": fmt.Sprintf("(integer) %d", llen), "HLEN h": fmt.Sprintf("(integer) %d", hlen)}
}

// TestLongLessonNext plays a generated 5 000-step lesson in the page, step by step as Next does
// (window.redscope.step(), the Next button's operation; the last steps through the button
// itself), and reports the time of each 1 000 steps. It asserts that every step was applied with
// its checks holding, and the final keys.
func TestLongLessonNext(t *testing.T) {
	const steps, block, byButton = 5000, 1000, 5
	src, want := longLesson(steps)
	b := start(t, 1280, 800)
	b.open("?lesson=sandbox")
	if ok := b.eval(fmt.Sprintf(`window.redscope.lesson({source: %s})`, js(src))); ok != true {
		t.Fatalf("lesson not loaded: %v (error %v)", ok, b.eval(`window.redscope.error`))
	}
	res := b.str(fmt.Sprintf(`(() => {
		const r = redscope, blocks = [];
		let t = performance.now();
		for (let i = 1; i <= %d; i++) {
			if (r.step() !== true) return "step " + i + " not applied";
			if (r.error !== "") return "step " + i + ": " + r.error;
			if (i %% %d === 0) { const n = performance.now(); blocks.push(Math.round(n - t)); t = n; }
		}
		return JSON.stringify(blocks);
	})()`, steps-byButton, block))
	var blocks []int
	if err := json.Unmarshal([]byte(res), &blocks); err != nil {
		t.Fatal(res)
	}
	// The last steps through the Next button (posted to the game loop, applied at the next frame).
	for i := steps - byButton + 1; i <= steps; i++ {
		b.eval(`document.getElementById("next").click()`)
		b.poll(fmt.Sprintf(`window.redscope.state().step === %d`, i), 20*time.Second)
	}
	if e := b.eval(`window.redscope.error`); e != "" {
		t.Fatalf("error after the button's steps: %v", e)
	}
	if got := b.eval(`document.getElementById("next").disabled`); got != true {
		t.Errorf("Next still enabled at the last step")
	}
	for cmd, w := range want {
		if got := b.eval(fmt.Sprintf(`window.redscope.exec(%q)`, cmd)); got != w {
			t.Errorf("%s = %v, want %s", cmd, got, w)
		}
	}
	if got := b.str(`document.getElementById("stepLabel").textContent`); !strings.Contains(got, fmt.Sprint(steps)) {
		t.Errorf("step label %q", got)
	}
	ratio := float64(blocks[len(blocks)-1]) / float64(max(1, blocks[0]))
	line := fmt.Sprintf("%d steps through step(): ms per %d steps %v (last/first %.2f); load %s", steps-byButton, block, blocks, ratio, loadAvg())
	t.Log(line)
	writeArtifact(t, "long-lesson.txt", line)
}

// TestEmbedExecSessionCost sends the course's HyperLogLog week (7 days × 300 PFADD of 1 000
// elements, as TestPageSessionCost types it through window.redscope.exec) as postMessage exec
// requests from an embedding page, in batches of 50 sent at once (the next batch when the 50
// replies are in), and reports the time of each day and batch, and the frames the page drew
// meanwhile; then one batch of 50 sent one at a time (each when the previous reply arrived).
// The page draws only when something changed, and while requests keep coming it puts the frame
// off to a pause or every 400 ms (wasm/frames.go), so the frames drawn are logged as well. The
// PFCOUNTs are checked against a native engine.
func TestEmbedExecSessionCost(t *testing.T) {
	dist := buildDist(t)
	page := `<!doctype html><html><head><link rel="icon" href="data:,"></head><body>
<iframe id="app" style="width:1000px;height:700px" src="index.html?lesson=sandbox"></iframe>
<script>
let next = 1; const waiting = new Map();
window.ready = false;
window.addEventListener("message", ev => {
  const d = ev.data;
  if (d.redscope === "ready") window.ready = true;
  if (d.redscope === "reply" && waiting.has(d.id)) { waiting.get(d.id)(d); waiting.delete(d.id); }
});
window.ask = (type, args) => new Promise(res => {
  const id = next++; waiting.set(id, res);
  document.getElementById("app").contentWindow.postMessage({redscope: type, id, args}, location.origin);
});
window.day = async (d, perDay, step, batch, pipelined) => {
  const batches = [], td = performance.now();
  let tb = td;
  for (let c0 = 0; c0 < perDay; c0 += 50) {
    const sent = [];
    for (let c = c0; c < Math.min(perDay, c0 + 50); c++) {
      const lo = d * step + c * batch, parts = ["PFADD", "d" + (d + 1)];
      for (let i = 0; i < batch; i++) parts.push("u" + (lo + i));
      const p = window.ask("exec", [parts.join(" ")]);
      if (!pipelined) await p;
      sent.push(p);
    }
    for (const rep of await Promise.all(sent))
      if (rep.result !== "(integer) 1" && rep.result !== "(integer) 0") return "bad reply " + JSON.stringify(rep);
    const n = performance.now(); batches.push(Math.round(n - tb)); tb = n;
  }
  const ms = performance.now() - td;
  const count = (await window.ask("exec", ["PFCOUNT d" + (d + 1)])).result;
  return JSON.stringify({ms, batches, count});
};
</script></body></html>`
	if err := os.WriteFile(filepath.Join(dist, "session-embed.html"), []byte(page), 0o644); err != nil {
		t.Fatal(err)
	}
	b := start(t, 1280, 800)
	b.do(chromedp.Navigate(b.url + "/session-embed.html"))
	b.poll(`window.ready === true`, 60*time.Second)
	const days, perDay, batch, step = 7, 300, 1000, 150000
	var week sessionWeek
	for d := 0; d < days; d++ {
		week.add(t, d, b.await(fmt.Sprintf(`window.day(%d, %d, %d, %d, true)`, d, perDay, step, batch)))
	}
	frames := b.eval(`document.getElementById("app").contentWindow.redscope.stats().frames`)
	// One more batch, one request at a time (day 8's first 50 PFADDs).
	seq := b.await(fmt.Sprintf(`window.day(%d, 50, %d, %d, false)`, days, step, batch))
	framesSeq := b.eval(`document.getElementById("app").contentWindow.redscope.stats().frames`)
	line := fmt.Sprintf("the week through postMessage exec, 50 requests at a time: %s; %v frames drawn by then; then 50 PFADD one at a time: %s, frames drawn by then %v; load %s",
		week.summary(), frames, seq, framesSeq, loadAvg())
	t.Log(line)
	week.checkNative(t, days, perDay, batch, step)
	writeArtifact(t, "session-cost-embed.txt", line)
}

// sessionWeek gathers the days of a session-cost run: the time of each day and of each batch of
// 50 PFADDs, and each day's PFCOUNT.
type sessionWeek struct {
	total, first, last  float64
	got, dayMs, batchMs []string
}

// add records day d (0-based) from the page's JSON answer {ms, batches, count}.
func (w *sessionWeek) add(t *testing.T, d int, res string) {
	t.Helper()
	var day struct {
		Ms      float64
		Batches []int
		Count   string
	}
	if err := json.Unmarshal([]byte(res), &day); err != nil {
		t.Fatalf("day %d: %s", d+1, res)
	}
	if d == 0 {
		w.first = day.Ms
	}
	w.last = day.Ms
	w.total += day.Ms
	w.got = append(w.got, day.Count)
	w.dayMs = append(w.dayMs, fmt.Sprintf("%.0f", day.Ms))
	w.batchMs = append(w.batchMs, fmt.Sprint(day.Batches))
}

// summary is the figures of the week, as the session-cost tests report them.
func (w *sessionWeek) summary() string {
	return fmt.Sprintf("total %.0f ms; days %s ms (last/first %.2f); batches of 50 PFADD (ms) %s; PFCOUNT %s",
		w.total, strings.Join(w.dayMs, " "), w.last/w.first, strings.Join(w.batchMs, " "), strings.Join(w.got, ", "))
}

// checkNative fails unless the page's PFCOUNTs are those of the same week on a native engine.
func (w *sessionWeek) checkNative(t *testing.T, days, perDay, batch, step int) {
	t.Helper()
	if g, n := strings.Join(w.got, ", "), strings.Join(nativeWeek(days, perDay, batch, step), ", "); g != n {
		t.Fatalf("PFCOUNTs %s, the native engine %s", g, n)
	}
}

// nativeWeek is the PFCOUNT of each day of the typed week on a native engine.
func nativeWeek(days, perDay, batch, step int) []string {
	e := engine.New(engine.Options{})
	var want []string
	for d := 0; d < days; d++ {
		for c := 0; c < perDay; c++ {
			args := []string{"PFADD", fmt.Sprintf("d%d", d+1)}
			lo := d*step + c*batch
			for i := 0; i < batch; i++ {
				args = append(args, fmt.Sprintf("u%d", lo+i))
			}
			e.Do(args...)
		}
		want = append(want, fmt.Sprintf("(integer) %d", e.Do("PFCOUNT", fmt.Sprintf("d%d", d+1)).Int))
	}
	return want
}

func writeArtifact(t *testing.T, name, line string) {
	if p := os.Getenv("REDSCOPE_ARTIFACTS"); p != "" {
		os.WriteFile(filepath.Join(p, name), []byte(line+"\n"), 0o644)
	}
}
