package web

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
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
