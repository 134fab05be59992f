//go:build !(js && wasm)

package browsertest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"redscope/web"
)

// hashedDist is the test dist as ./build.sh dist lays it out: content-hashed main.<hash>.wasm and
// wasm_exec.<hash>.js, index.html rewritten to them, and sw.js (web.Fingerprint).
func hashedDist(t *testing.T) (string, map[string]string) {
	src := buildDist(t)
	dir := t.TempDir()
	for _, f := range []string{"main.wasm", "main-lua.wasm", "wasm_exec.js", "index.html", "FORMAT.md"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	renamed, err := web.Fingerprint(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, renamed
}

// requestLog records the paths the server was asked for.
type requestLog struct {
	mu    sync.Mutex
	paths []string
}

func (l *requestLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.paths = append(l.paths, r.URL.Path)
		l.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

func (l *requestLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	p := l.paths
	l.paths = nil
	return p
}

// TestRepeatVisitAndOffline loads the fingerprinted page, waits for its service worker, and
// reloads it: the second visit must ask the server for nothing but the page (and the worker's
// update check), the Performance API must show the hashed files with transferSize 0; then, with
// the server stopped, a reload must still reach window.redscope.ready.
func TestRepeatVisitAndOffline(t *testing.T) {
	dist, renamed := hashedDist(t)
	var log requestLog
	srv := httptest.NewServer(log.wrap(web.Handler(dist)))
	defer srv.Close()
	b := start(t, 1024, 700)
	b.url = srv.URL

	// First visit: everything is downloaded, the worker installs and takes control.
	b.open("")
	first := log.take()
	for name, f := range renamed {
		// Once: index.html's <link rel=preload> and the loader's fetch must share one download.
		// The build with Lua: never, on a page without scripts (wasm/lua.go).
		want := 1
		if name == "main-lua.wasm" {
			want = 0
		}
		if n := count(first, "/"+f); n != want {
			t.Errorf("first visit fetched /%s %d times, want %d: %v", f, n, want, first)
		}
	}
	run(b, chromedp.Poll[bool](`navigator.serviceWorker.controller !== null`, chromedp.WithPollingTimeout(60*time.Second)))
	// Let the worker finish precaching (its install fetched the hashed files, probably from the
	// HTTP cache) before the next visit.
	run(b, chromedp.Poll[bool](`(async () => { const c = await caches.keys(); if (!c.length) return false;
	  const k = await (await caches.open(c[0])).keys(); return k.length >= 3; })()`,
		chromedp.WithPollingTimeout(60*time.Second)))
	t.Logf("first visit asked the server for %v", first)
	log.take()

	// Second visit: only the page (revalidated) and sw.js (the browser's update check).
	b.open("")
	second := log.take()
	t.Logf("second visit asked the server for %v", second)
	for _, p := range second {
		if p != "/" && p != "/index.html" && p != "/sw.js" {
			t.Errorf("second visit fetched %s from the server (all requests: %v)", p, second)
		}
	}
	var rs []resource
	if err := json.Unmarshal([]byte(run(b, chromedp.Evaluate[string](`JSON.stringify(performance.getEntriesByType('resource').map(e => ({name: e.name, enc: e.encodedBodySize, dec: e.decodedBodySize, transfer: e.transferSize})))`))), &rs); err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, r := range rs {
		for _, f := range renamed {
			if strings.HasSuffix(r.Name, "/"+f) {
				seen++
				t.Logf("second visit: %s transferSize %.0f (decoded %.0f)", f, r.Transfer, r.Decoded)
				if r.Transfer != 0 {
					t.Errorf("second visit: %s transferred %.0f bytes, want 0 (from a cache)", f, r.Transfer)
				}
			}
		}
	}
	// Every hashed file a visit loads: all but the build with Lua, which a page without scripts
	// never fetches (wasm/lua.go).
	if want := len(renamed) - 1; seen != want {
		t.Errorf("second visit's resource entries %v: %d of the hashed files %v, want %d (all but main-lua)", rs, seen, renamed, want)
	}
	for _, r := range rs {
		if strings.HasSuffix(r.Name, "/"+renamed["main-lua.wasm"]) {
			t.Errorf("a page without scripts fetched the build with Lua: %v", r)
		}
	}

	// Offline: the server is gone, the worker answers everything.
	srv.CloseClientConnections()
	srv.Close()
	b.open("?lesson=ttl")
	if e := b.eval(`window.redscope.error`); e != "" {
		t.Errorf("offline visit shows an error: %v", e)
	}
	if st := b.eval(`window.redscope.state().lesson`); st == nil || st == "" {
		t.Errorf("offline visit: no lesson in the state (%v)", st)
	}
}

func count(xs []string, s string) int {
	n := 0
	for _, x := range xs {
		if x == s {
			n++
		}
	}
	return n
}
