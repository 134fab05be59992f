package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func write(t *testing.T, path, body string, mtime time.Time) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

func get(t *testing.T, h http.Handler, path, acceptEncoding string) *http.Response {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	if acceptEncoding != "" {
		req.Header.Set("Accept-Encoding", acceptEncoding)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func body(t *testing.T, r *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(r.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestHandler(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour).Truncate(time.Second).Add(700 * time.Millisecond)
	write(t, filepath.Join(dir, "index.html"), "<html>", old)
	write(t, filepath.Join(dir, "index.html.gz"), "GZ-HTML", old)
	write(t, filepath.Join(dir, "main.wasm"), "\x00asm", old)
	// brotli copies the mtime truncated to whole seconds: still fresh.
	write(t, filepath.Join(dir, "main.wasm.br"), "BR-WASM", old.Truncate(time.Second))
	write(t, filepath.Join(dir, "main.wasm.gz"), "GZ-WASM", old)
	write(t, filepath.Join(dir, "wasm_exec.js"), "js", old)
	write(t, filepath.Join(dir, "assets", "a.lesson"), "lesson", old)
	// A stale compressed copy (older than its source) is not used.
	write(t, filepath.Join(dir, "wasm_exec.js.gz"), "STALE", old.Add(-time.Hour))
	h := Handler(dir)

	cases := []struct {
		path, ae, status, ctype, enc, body string
	}{
		{"/", "", "200 OK", "text/html; charset=utf-8", "", "<html>"},
		{"/", "gzip, deflate", "200 OK", "text/html; charset=utf-8", "gzip", "GZ-HTML"},
		{"/index.html", "br", "200 OK", "text/html; charset=utf-8", "", "<html>"},
		{"/main.wasm", "gzip, deflate, br, zstd", "200 OK", "application/wasm", "br", "BR-WASM"},
		{"/main.wasm", "gzip", "200 OK", "application/wasm", "gzip", "GZ-WASM"},
		{"/main.wasm", "br;q=0, gzip", "200 OK", "application/wasm", "gzip", "GZ-WASM"},
		{"/main.wasm", "identity", "200 OK", "application/wasm", "", "\x00asm"},
		{"/wasm_exec.js", "gzip", "200 OK", "text/javascript; charset=utf-8", "", "js"},
		{"/assets/a.lesson", "", "200 OK", "application/octet-stream", "", "lesson"},
		{"/nope.js", "", "404 Not Found", "", "", ""},
		{"/../../etc/passwd", "", "404 Not Found", "", "", ""},
	}
	for _, c := range cases {
		r := get(t, h, c.path, c.ae)
		b := body(t, r)
		if r.Status != c.status {
			t.Errorf("%s (%s): status %s", c.path, c.ae, r.Status)
			continue
		}
		if c.status != "200 OK" {
			continue
		}
		if got := r.Header.Get("Content-Type"); got != c.ctype {
			t.Errorf("%s: Content-Type %q want %q", c.path, got, c.ctype)
		}
		if got := r.Header.Get("Content-Encoding"); got != c.enc {
			t.Errorf("%s (%s): Content-Encoding %q want %q", c.path, c.ae, got, c.enc)
		}
		if got := r.Header.Get("Vary"); got != "Accept-Encoding" {
			t.Errorf("%s: Vary %q", c.path, got)
		}
		if b != c.body {
			t.Errorf("%s (%s): body %q want %q", c.path, c.ae, b, c.body)
		}
	}
	req := httptest.NewRequest(http.MethodPost, "/", nil)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", rec.Code)
	}
}

func TestFingerprint(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	page := "<script src=\"wasm_exec.js\"></script><script>const sw = /*sw*/null; const w = lua ? \"main-lua.wasm\" : \"main.wasm\"; fetch(\"main-lua.wasm\");</script>"
	write(t, filepath.Join(dir, "index.html"), page, now)
	write(t, filepath.Join(dir, "main.wasm"), "\x00asm-one", now)
	write(t, filepath.Join(dir, "main-lua.wasm"), "\x00asm-lua", now)
	write(t, filepath.Join(dir, "wasm_exec.js"), "// go", now)
	renamed, err := Fingerprint(dir)
	if err != nil {
		t.Fatal(err)
	}
	wasm, lua, js := renamed["main.wasm"], renamed["main-lua.wasm"], renamed["wasm_exec.js"]
	if wasm != HashName("main.wasm", []byte("\x00asm-one")) || !Hashed(wasm) || !Hashed(js) || !Hashed(lua) {
		t.Fatalf("renamed %v", renamed)
	}
	if HashName("main.wasm", []byte("\x00asm-two")) == wasm {
		t.Fatal("two contents, one name")
	}
	for _, n := range []string{"main.wasm", "main-lua.wasm", "wasm_exec.js"} {
		if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
			t.Errorf("%s still there", n)
		}
	}
	got, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	want := "<script src=\"" + js + "\"></script><script>const sw = \"sw.js\"; const w = lua ? \"" + lua + "\" : \"" + wasm + "\"; fetch(\"" + lua + "\");</script>"
	if string(got) != want {
		t.Errorf("index.html\n got %s\nwant %s", got, want)
	}
	sw, err := os.ReadFile(filepath.Join(dir, "sw.js"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`"./"`, `"` + wasm + `"`, `"` + js + `"`, "caches.match"} {
		if !strings.Contains(string(sw), s) {
			t.Errorf("sw.js lacks %s", s)
		}
	}
	// The build with Lua is not precached: a first visit does not download it.
	if strings.Contains(string(sw), lua) {
		t.Errorf("sw.js precaches the build with Lua %s", lua)
	}
	// A page whose loader lost a reference is refused, not half-rewritten.
	dir2 := t.TempDir()
	write(t, filepath.Join(dir2, "index.html"), "<script>fetch('main.wasm')</script>", now)
	write(t, filepath.Join(dir2, "main.wasm"), "x", now)
	write(t, filepath.Join(dir2, "main-lua.wasm"), "z", now)
	write(t, filepath.Join(dir2, "wasm_exec.js"), "y", now)
	if _, err := Fingerprint(dir2); err == nil {
		t.Error("Fingerprint accepted a page without the references")
	}
}

func TestCacheHeaders(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	hashed := HashName("main.wasm", []byte("\x00asm"))
	write(t, filepath.Join(dir, "index.html"), "<html>", old)
	write(t, filepath.Join(dir, "sw.js"), "//", old)
	write(t, filepath.Join(dir, hashed), "\x00asm", old)
	write(t, filepath.Join(dir, hashed+".br"), "BR", old)
	write(t, filepath.Join(dir, "main.wasm"), "\x00asm", old)
	write(t, filepath.Join(dir, "FORMAT.md"), "# f", old)
	h := Handler(dir)
	for _, c := range []struct{ path, enc, cc, ctype string }{
		{"/" + hashed, "br", "public, max-age=31536000, immutable", "application/wasm"},
		{"/" + hashed, "", "public, max-age=31536000, immutable", "application/wasm"},
		{"/", "", "no-cache", "text/html; charset=utf-8"},
		{"/index.html", "", "no-cache", "text/html; charset=utf-8"},
		{"/sw.js", "", "no-cache", "text/javascript; charset=utf-8"},
		{"/main.wasm", "", "", "application/wasm"}, // an unhashed name: the browser's heuristics
		{"/FORMAT.md", "", "", "text/markdown; charset=utf-8"},
	} {
		r := get(t, h, c.path, c.enc)
		if r.StatusCode != 200 || r.Header.Get("Cache-Control") != c.cc || r.Header.Get("Content-Type") != c.ctype {
			t.Errorf("%s (%q): %d Cache-Control %q Content-Type %q, want %q %q", c.path, c.enc, r.StatusCode,
				r.Header.Get("Cache-Control"), r.Header.Get("Content-Type"), c.cc, c.ctype)
		}
	}
	// The page revalidates: a conditional request gets a 304.
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.Header.Set("If-Modified-Since", time.Now().UTC().Format(http.TimeFormat))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotModified {
		t.Errorf("conditional GET / = %d, want 304", rec.Code)
	}
	for name, want := range map[string]bool{
		"main.0123456789abcdef.wasm": true, "main.0123456789abcdef.wasm.br": true, "wasm_exec.0123456789abcdef.js": true,
		"main.wasm": false, "main.0123456789abcde.wasm": false, "index.html": false, "sw.js": false,
	} {
		if Hashed(name) != want {
			t.Errorf("Hashed(%q) = %v", name, !want)
		}
	}
}
