package browsertest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"redscope/assets"
)

// waitLuaBuild waits until the page has reloaded into the build with Lua and is ready. Evaluations
// that fail while the page reloads are tried again.
func (b *browser) waitLuaBuild(d time.Duration) {
	b.t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(b.ctx, 5*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!!(window.redscopeBuild && window.redscopeBuild.lua && window.redscope && window.redscope.ready === true)`))
		cancel()
		if err == nil && ok {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	b.t.Fatalf("the page did not reload into the build with Lua within %v\nconsole:\n%s", d, b.console())
}

// fetched lists the paths of main*.wasm files the current document fetched.
func (b *browser) fetchedWasm() string {
	b.t.Helper()
	return b.str(`performance.getEntriesByType("resource").map(e => new URL(e.name).pathname).filter(p => p.endsWith(".wasm")).join(",")`)
}

// TestHandOverToLua: a first visit loads the build without Lua; a typed EVAL in the middle of a
// session hands the session over to the build with Lua, which resumes it — the same step, the
// typed lines of two clients, a blocked client — and runs the EVAL; a lesson whose steps run
// scripts opens in the build with Lua from a light page; and when the build with Lua cannot be
// downloaded the page says so and loses nothing.
func TestHandOverToLua(t *testing.T) {
	b := start(t, 1280, 800)
	b.open("?lang=en&lesson=sds-growth")
	if got := b.eval(`window.redscopeBuild.lua`); got != false {
		t.Fatalf("a first visit loads the build with Lua: %v", got)
	}
	if got := b.fetchedWasm(); got != "/main.wasm" {
		t.Fatalf("a first visit fetched %q", got)
	}
	b.eval(`window.redscope.step()`)
	if r := b.eval(`window.redscope.exec("SET k 41")`); r != "OK" {
		t.Fatalf("SET: %v", r)
	}
	b.eval(`document.getElementById("client3").click()`)
	b.poll(`window.redscope.state().active === 3`, 10*time.Second)
	if r := b.eval(`window.redscope.exec("BLPOP nothing 0")`); r != "" {
		t.Fatalf("BLPOP: %v", r)
	}
	b.eval(`document.getElementById("client1").click()`)
	b.poll(`window.redscope.state().active === 1`, 10*time.Second)
	before := b.str(`JSON.stringify(window.redscope.state().outputs.commands.map(c => [c.cmd, c.reply, c.client || 0]))`)

	// The light build cannot run EVAL: it says it is loading Lua and hands the session over.
	eval := `EVAL "return redis.call('INCR', KEYS[1])" 1 k`
	r, _ := b.eval(`window.redscope.exec(` + jsQuote(eval) + `)`).(string)
	if !strings.Contains(r, "Lua") {
		t.Fatalf("EVAL in the light build answered %q", r)
	}
	b.waitLuaBuild(60 * time.Second)
	if got := b.fetchedWasm(); got != "/main-lua.wasm" {
		t.Fatalf("the build with Lua fetched %q", got)
	}
	st := b.eval(`window.redscope.state()`).(map[string]any)
	if st["lesson"] != "sds-growth" || stepOf(st) != 1 || st["active"] != float64(1) {
		t.Fatalf("resumed at lesson %v step %v client %v", st["lesson"], st["step"], st["active"])
	}
	after := b.str(`JSON.stringify(window.redscope.state().outputs.commands.map(c => [c.cmd, c.reply, c.client || 0]))`)
	if want := strings.TrimSuffix(before, "]") + `,["` + strings.ReplaceAll(eval, `"`, `\"`) + `","(integer) 42",1]]`; after != want {
		t.Fatalf("after the handover the exchanges are\n%s\nwant\n%s", after, want)
	}
	if w := b.str(`window.redscope.state().clients.map(c => c.waiting || "").join("|")`); w != "||BLPOP nothing 0" {
		t.Fatalf("clients waiting after the handover: %q", w)
	}
	if r := b.eval(`window.redscope.exec("GET k")`); r != `"42"` {
		t.Fatalf("GET k after the handover: %v", r)
	}
	if e := b.eval(`window.redscope.error`); e != "" {
		t.Fatalf("error after the handover: %v", e)
	}
	// The tab stays on the build with Lua.
	b.open("?lang=en&lesson=sds-growth")
	if got := b.eval(`window.redscopeBuild.lua`); got != true {
		t.Fatalf("the tab went back to the light build")
	}
	b.stop()

	// A lesson that runs scripts, asked for by address in a light page.
	c := start(t, 1280, 800)
	c.do(chromedp.Navigate(c.url + "/?lang=vi&lesson=cart-script"))
	c.waitLuaBuild(60 * time.Second)
	if st := c.eval(`window.redscope.state()`).(map[string]any); st["lesson"] != "cart-script" || stepOf(st) != 0 {
		t.Fatalf("cart-script opened as %v at %v", st["lesson"], st["step"])
	}
	c.stop()

	// The build with Lua cannot be downloaded: the page says so and the session is as it was.
	d := start(t, 1280, 800)
	d.open("?lang=vi&lesson=sds-growth")
	if _, err := chromedp.Call(d.ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(d.ctx, network.SetBlockedURLs, network.SetBlockedURLsParams{URLPatterns: []*network.BlockPattern{{URLPattern: d.url + "/main-lua.wasm", Block: true}}}); err != nil {
		t.Fatal(err)
	}
	d.eval(`window.redscope.step()`)
	d.eval(`window.redscope.exec("SET a 1")`)
	// state() in a canonical form (its objects' keys in order).
	const canon = `JSON.stringify((function c(v) { return Array.isArray(v) ? v.map(c) : v && typeof v === "object" ? Object.fromEntries(Object.keys(v).sort().map(k => [k, c(v[k])])) : v; })(window.redscope.state()))`
	before = d.str(canon)
	d.eval(`window.redscope.exec("FUNCTION LIST")`)
	d.poll(`window.redscope.error !== ""`, 30*time.Second)
	if e := d.str(`window.redscope.error`); !strings.Contains(e, "không tải được trình thông dịch Lua") {
		t.Fatalf("error %q", e)
	}
	if got := d.eval(`window.redscopeBuild.lua`); got != false {
		t.Fatalf("the page reloaded")
	}
	if after := d.str(canon); after != before {
		t.Fatalf("the session changed:\n%s\nwant\n%s", after, before)
	}
	if r := d.eval(`window.redscope.exec("GET a")`); r != `"1"` {
		t.Fatalf("GET a: %v", r)
	}
	// The blocked download is the console error this part expects.
	d.mu.Lock()
	var rest []string
	for _, e := range d.errs {
		if !strings.Contains(e, "ERR_BLOCKED_BY_CLIENT") {
			rest = append(rest, e)
		}
	}
	d.errs = rest
	d.mu.Unlock()
}

// jsQuote quotes s as a JavaScript string literal.
func jsQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

// TestLuaNoticeShots: what the page shows while the build with Lua downloads (the notice) and when
// it cannot be had (the error box), at 360, 1280 and 1920 px in Vietnamese and English, with the
// texts of the page's language. The loader's download is replaced by one that never ends, then by
// one that fails, so the page stays in each state long enough to be looked at.
func TestLuaNoticeShots(t *testing.T) {
	for _, sz := range [][2]int{{360, 740}, {1280, 800}, {1920, 1080}} {
		b := start(t, sz[0], sz[1])
		for _, lang := range []string{"vi", "en"} {
			b.open("?lesson=sds-growth&lang=" + lang)
			b.eval(`window.redscope.step()`)
			b.eval(`window.redscopeUseLua = () => {}`)
			b.eval(`window.redscope.exec("SCRIPT LOAD \"return 1\"")`)
			b.poll(`!document.getElementById("notice").hidden`, 10*time.Second)
			if got, want := b.str(`document.getElementById("notice").textContent`), assets.T(lang, "luaLoading"); got != want {
				t.Fatalf("%s: notice %q, want %q", lang, got, want)
			}
			b.shot(fmt.Sprintf("lua-loading-%d-%s.png", sz[0], lang))

			b.open("?lesson=sds-growth&lang=" + lang)
			b.eval(`window.redscope.step()`)
			b.eval(`window.redscopeUseLua = (key, session, fail) => setTimeout(() => fail("Failed to fetch"), 50)`)
			b.eval(`window.redscope.exec("FCALL f 0")`)
			b.poll(`window.redscope.error !== ""`, 10*time.Second)
			want := fmt.Sprintf(assets.T(lang, "luaFailed"), "Failed to fetch")
			if got := b.str(`window.redscope.error`); got != want {
				t.Fatalf("%s: error %q, want %q", lang, got, want)
			}
			if !b.eval(`document.getElementById("notice").hidden`).(bool) {
				t.Fatalf("%s: the loading notice stays after the failure", lang)
			}
			b.shot(fmt.Sprintf("lua-failed-%d-%s.png", sz[0], lang))
		}
		b.stop()
	}
}
