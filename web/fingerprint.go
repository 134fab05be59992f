package web

// Content-hashed names and the offline service worker (issue 11, repeat visits).
//
// ./build.sh dist calls Fingerprint on the fresh dist/ before compressing it:
//
//	main.wasm     → main.3f9a0c1d2e4b5a69.wasm    (16 hex digits of its SHA-256)
//	main-lua.wasm → main-lua.…​.wasm               (the build with Lua, wasm/lua.go)
//	wasm_exec.js  → wasm_exec.8c1e…​.js
//	index.html      keeps its name; its references to the two files are rewritten, and the
//	                loader's `/*sw*/null` becomes "sw.js", which registers the worker
//	sw.js           generated: it precaches the page and the hashed files but main-lua's
//
// The handler then serves a hashed name with Cache-Control "public, max-age=31536000,
// immutable" (a year: its content can never change under that name), and index.html and sw.js
// with "no-cache" (revalidated on every visit; the answer is a 304 when nothing changed). A repeat
// visit so downloads nothing but the page's revalidation, and with the worker installed a visit
// with no network at all still reaches the first frame: the worker answers the page from its
// cache when the network fails, and the hashed files from its cache first.

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Fingerprinted are the files of a dist that get content-hashed names, with the text that refers
// to each in index.html (`"main.wasm"`: the loader's choice of build, preloaded and fetched) and
// whether the service worker precaches it. The build with Lua is not precached: a first visit
// does not download it (wasm/lua.go); the worker keeps it once a session has used it.
var Fingerprinted = []struct {
	Name, Ref string
	Precache  bool
}{
	{"main.wasm", `"main.wasm"`, true},
	{"main-lua.wasm", `"main-lua.wasm"`, false},
	{"wasm_exec.js", `src="wasm_exec.js"`, true},
}

// swMarker is the loader's placeholder for the service worker's URL (null: no worker, as in the
// browser tests' plain dist and a page opened from the source tree).
const swMarker = "/*sw*/null"

// hashedName matches a content-hashed file name (a compressed sibling's .br/.gz excluded first).
var hashedName = regexp.MustCompile(`\.[0-9a-f]{16}\.[A-Za-z0-9]+$`)

// Hashed reports whether a file name carries a content hash (main.<16 hex>.wasm).
func Hashed(name string) bool {
	name = strings.TrimSuffix(strings.TrimSuffix(name, ".br"), ".gz")
	return hashedName.MatchString(filepath.Base(name))
}

// HashName returns name with the first 16 hex digits of content's SHA-256 before its extension.
func HashName(name string, content []byte) string {
	sum := sha256.Sum256(content)
	ext := filepath.Ext(name)
	return strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(sum[:8]) + ext
}

// Fingerprint renames dir's Fingerprinted files to their hashed names, rewrites index.html to
// refer to them (every occurrence: the preload link and the loader) and to register sw.js, and
// writes sw.js. It returns the old → new names. It fails when index.html does not refer to a file
// (a loader changed without this table).
func Fingerprint(dir string) (map[string]string, error) {
	indexPath := filepath.Join(dir, "index.html")
	page, err := os.ReadFile(indexPath)
	if err != nil {
		return nil, err
	}
	html := string(page)
	renamed := map[string]string{}
	for _, f := range Fingerprinted {
		b, err := os.ReadFile(filepath.Join(dir, f.Name))
		if err != nil {
			return nil, err
		}
		if !strings.Contains(html, f.Ref) {
			return nil, fmt.Errorf("index.html does not refer to %s as %s", f.Name, f.Ref)
		}
		h := HashName(f.Name, b)
		if err := os.Rename(filepath.Join(dir, f.Name), filepath.Join(dir, h)); err != nil {
			return nil, err
		}
		html = strings.ReplaceAll(html, f.Ref, strings.Replace(f.Ref, f.Name, h, 1))
		renamed[f.Name] = h
	}
	if strings.Count(html, swMarker) != 1 {
		return nil, fmt.Errorf("index.html has no %s placeholder for the service worker", swMarker)
	}
	html = strings.Replace(html, swMarker, `"sw.js"`, 1)
	if err := os.WriteFile(indexPath, []byte(html), 0o644); err != nil {
		return nil, err
	}
	var files []string
	for _, f := range Fingerprinted {
		if f.Precache {
			files = append(files, renamed[f.Name])
		}
	}
	sort.Strings(files)
	if err := os.WriteFile(filepath.Join(dir, "sw.js"), []byte(ServiceWorker(files, []byte(html))), 0o644); err != nil {
		return nil, err
	}
	return renamed, nil
}

// ServiceWorker returns sw.js for the hashed files. Its cache is named after a hash of the page
// and the file list, so a new build installs a new cache and the old one is deleted on activation.
//
//   - install: precache "./" (the page) and the hashed files;
//   - a hashed file: from the cache, else from the network (and cached);
//   - anything else of this origin (the page, lessons by URL, FORMAT.md): from the network,
//     cached when it answers 200, and from the cache (query string ignored) when the network fails.
func ServiceWorker(hashed []string, page []byte) string {
	h := sha256.New()
	h.Write(page)
	for _, f := range hashed {
		h.Write([]byte(f))
	}
	version := hex.EncodeToString(h.Sum(nil)[:8])
	list, _ := json.Marshal(append([]string{"./"}, hashed...))
	return `// redscope's service worker, generated by ./build.sh dist (web/fingerprint.go): the app works
// offline after the first visit.
const CACHE = "redscope-` + version + `";
const PRECACHE = ` + string(list) + `;
const HASHED = /\.[0-9a-f]{16}\.[A-Za-z0-9]+$/;

self.addEventListener("install", e => {
  e.waitUntil(caches.open(CACHE).then(c => c.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", e => {
  e.waitUntil(caches.keys()
    .then(keys => Promise.all(keys.filter(k => k.startsWith("redscope-") && k !== CACHE).map(k => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", e => {
  const req = e.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== location.origin) return;
  if (HASHED.test(url.pathname)) {
    e.respondWith(caches.match(req).then(hit => hit || fetch(req).then(resp => {
      if (resp.ok) { const copy = resp.clone(); caches.open(CACHE).then(c => c.put(req, copy)); }
      return resp;
    })));
    return;
  }
  e.respondWith(fetch(req).then(resp => {
    if (resp.ok && resp.status === 200) { const copy = resp.clone(); caches.open(CACHE).then(c => c.put(req, copy)); }
    return resp;
  }).catch(() => caches.match(req, { ignoreSearch: true })
    .then(hit => hit || (req.mode === "navigate" ? caches.match("./") : undefined))
    .then(hit => hit || Response.error())));
});
`
}
