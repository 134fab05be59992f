// Package web serves the built browser app (dist/): static files with the right Content-Type
// (application/wasm included) and, when the client accepts them, the precompressed `.br` or
// `.gz` sibling of a file, with Content-Encoding and Vary headers. Content-hashed names
// (main.<hash>.wasm, fingerprint.go) are cached for a year as immutable; index.html and sw.js
// are revalidated on every visit.
package web

import (
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
)

var types = map[string]string{
	".html":  "text/html; charset=utf-8",
	".js":    "text/javascript; charset=utf-8",
	".mjs":   "text/javascript; charset=utf-8",
	".css":   "text/css; charset=utf-8",
	".wasm":  "application/wasm",
	".json":  "application/json",
	".svg":   "image/svg+xml",
	".png":   "image/png",
	".jpg":   "image/jpeg",
	".ico":   "image/x-icon",
	".txt":   "text/plain; charset=utf-8",
	".md":    "text/markdown; charset=utf-8",
	".woff2": "font/woff2",
	".map":   "application/json",
}

// ContentType returns the Content-Type for a file name.
func ContentType(name string) string {
	ext := strings.ToLower(filepath.Ext(name))
	if t, ok := types[ext]; ok {
		return t
	}
	if t := mime.TypeByExtension(ext); t != "" {
		return t
	}
	return "application/octet-stream"
}

// Handler serves the files under dir. "/" and directories serve their index.html.
func Handler(dir string) http.Handler {
	return &handler{dir: dir}
}

type handler struct{ dir string }

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	p := path.Clean("/" + r.URL.Path)
	if strings.Contains(p, "\x00") {
		http.NotFound(w, r)
		return
	}
	name := filepath.Join(h.dir, filepath.FromSlash(p))
	st, err := os.Stat(name)
	if err == nil && st.IsDir() {
		name = filepath.Join(name, "index.html")
		st, err = os.Stat(name)
	}
	if err != nil || st.IsDir() {
		http.NotFound(w, r)
		return
	}
	// A request for a compressed sibling itself is served as is.
	hdr := w.Header()
	hdr.Set("Content-Type", ContentType(name))
	switch {
	case Hashed(name):
		// A content-hashed name (fingerprint.go) never changes content: cache it for a year.
		hdr.Set("Cache-Control", "public, max-age=31536000, immutable")
	case strings.HasSuffix(name, ".html") || filepath.Base(name) == "sw.js":
		// The page and the service worker are revalidated on every visit (a 304 when unchanged).
		hdr.Set("Cache-Control", "no-cache")
	}
	hdr.Add("Vary", "Accept-Encoding")
	serve := name
	for _, enc := range []struct{ token, ext string }{{"br", ".br"}, {"gzip", ".gz"}} {
		if !accepts(r.Header.Get("Accept-Encoding"), enc.token) {
			continue
		}
		// A copy older than its source is stale; compare whole seconds (brotli keeps the source's
		// mtime truncated to the second).
		if cst, err := os.Stat(name + enc.ext); err == nil && !cst.IsDir() && cst.ModTime().Unix() >= st.ModTime().Unix() {
			serve = name + enc.ext
			hdr.Set("Content-Encoding", enc.token)
			break
		}
	}
	f, err := os.Open(serve)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	fst, err := f.Stat()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	// ServeContent handles Range, If-Modified-Since and HEAD; the Content-Type set above wins.
	http.ServeContent(w, r, "", fst.ModTime(), f)
}

// accepts reports whether an Accept-Encoding header allows token (q=0 refuses it).
func accepts(header, token string) bool {
	for _, part := range strings.Split(header, ",") {
		part = strings.TrimSpace(part)
		name, params, _ := strings.Cut(part, ";")
		name = strings.TrimSpace(name)
		if !strings.EqualFold(name, token) && name != "*" {
			continue
		}
		params = strings.ReplaceAll(params, " ", "")
		if strings.HasPrefix(params, "q=0") && strings.Trim(strings.TrimPrefix(params, "q=0"), ".0") == "" {
			if name == "*" {
				continue
			}
			return false
		}
		return true
	}
	return false
}
