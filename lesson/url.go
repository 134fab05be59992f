package lesson

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"redscope/engine"
	"redscope/engine/alloc"
)

// The app's address carries its settings (query) and, optionally, a whole lesson (fragment):
//
//	index.html?lesson=bit-offsets&step=3&lang=en&version=7.0&allocator=jemalloc-16
//	          &theme=light&controls=minimal&autoplay=1&seed=7&origins=https://a.example&lua=1
//	index.html?step=2#lesson=<base64url of the deflate-compressed lesson text>
//
// ParseParams reads both; Params.Link and EmbedCode write them back. FORMAT.md documents them.

// Params are the app's URL parameters.
type Params struct {
	Lesson    string          // ?lesson= built-in lesson name ("sandbox" for none); "" when absent
	Source    []byte          // #lesson= a lesson's text, decompressed (nil when absent)
	Step      int             // ?step= position to open at; -1 when absent
	Lang      string          // ?lang= "vi" (default) or "en"
	Version   engine.Version  // ?version= 0 when absent
	Allocator alloc.Allocator // ?allocator= (HasAllocator tells whether it was given)
	HasAlloc  bool
	Theme     string // ?theme= "dark" (default), "light" or "auto" (the reader's prefers-color-scheme)
	Controls  string // ?controls= "full" (default) or "minimal"
	Autoplay  bool   // ?autoplay=1 (or true/yes/on)
	Seed      uint64 // ?seed= engine seed when the lesson sets none
	HasSeed   bool
	// Lua: ?lua=1 opens the page in its build with Lua (wasm/lua.go); a link to a lesson whose
	// steps run scripts carries it, so the page does not first load the build without Lua.
	Lua     bool
	Origins []string // ?origins= comma-separated origins allowed to drive the page by postMessage
}

// FragmentKey is the fragment's parameter holding a compressed lesson: #lesson=….
const FragmentKey = "lesson"

// ParseParams reads the query (location.search, with or without "?") and the fragment
// (location.hash, with or without "#"). Every bad value is reported (and left at its default);
// lim bounds the lesson in the fragment (nil: DefaultLimits).
func ParseParams(query, fragment string, lim *Limits) (Params, []error) {
	if lim == nil {
		lim = &DefaultLimits
	}
	p := Params{Step: -1, Lang: "vi", Theme: "dark", Controls: "full"}
	var errs []error
	bad := func(vi, en string, a ...any) { errs = append(errs, Msgf(vi, en, a...)) }
	q, err := url.ParseQuery(strings.TrimPrefix(query, "?"))
	if err != nil {
		bad("không đọc được tham số của địa chỉ: %v", "the address's parameters do not parse: %v", err)
	}
	get := func(k string) (string, bool) {
		v, ok := q[k]
		if !ok || len(v) == 0 {
			return "", false
		}
		return strings.TrimSpace(v[len(v)-1]), true
	}
	// oneOf sets *dst to the parameter k when it is one of choices; vi and en say what it may be.
	oneOf := func(k string, dst *string, vi, en string, choices ...string) {
		if v, ok := get(k); ok {
			if slices.Contains(choices, v) {
				*dst = v
			} else {
				bad(k+"=%q: "+vi, k+"=%q: "+en, clip(v))
			}
		}
	}
	if v, ok := get("lesson"); ok {
		if len(v) > 100 {
			bad("lesson: tên dài %d byte", "lesson: a name of %d bytes", len(v))
		} else {
			p.Lesson = v
		}
	}
	if v, ok := get("step"); ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 1_000_000 {
			bad("step=%q: cần số bước 0, 1, 2 …", "step=%q: want a step number 0, 1, 2 …", clip(v))
		} else {
			p.Step = n
		}
	}
	oneOf("lang", &p.Lang, "chỉ có vi hoặc en", "want vi or en", "vi", "en")
	if v, ok := get("version"); ok && v != "" {
		if ver, err := engine.ParseVersion(v); err == nil {
			p.Version = ver
		} else {
			bad("version=%q: không có phiên bản này; chọn %s", "version=%q: no such version; choose %s", clip(v), versionList())
		}
	}
	if v, ok := get("allocator"); ok && v != "" {
		if a, err := alloc.Parse(v); err == nil {
			p.Allocator, p.HasAlloc = a, true
		} else {
			bad("allocator=%q: chỉ có jemalloc hoặc jemalloc-16", "allocator=%q: want jemalloc or jemalloc-16", clip(v))
		}
	}
	oneOf("theme", &p.Theme, "chỉ có light, dark hoặc auto", "want light, dark or auto", "dark", "light", "auto")
	oneOf("controls", &p.Controls, "chỉ có full hoặc minimal", "want full or minimal", "full", "minimal")
	if v, ok := get("autoplay"); ok {
		switch strings.ToLower(v) {
		case "", "1", "true", "yes", "on":
			p.Autoplay = true
		case "0", "false", "no", "off":
		default:
			bad("autoplay=%q: chỉ có 1 hoặc 0", "autoplay=%q: want 1 or 0", clip(v))
		}
	}
	if v, ok := get("seed"); ok {
		s, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			bad("seed=%q: cần một số nguyên không âm", "seed=%q: want an unsigned integer", clip(v))
		} else {
			p.Seed, p.HasSeed = s, true
		}
	}
	if v, ok := get("lua"); ok {
		switch strings.ToLower(v) {
		case "1", "true", "yes", "on":
			p.Lua = true
		case "", "0", "false", "no", "off":
		default:
			bad("lua=%q: chỉ có 1 hoặc 0", "lua=%q: want 1 or 0", clip(v))
		}
	}
	if v, ok := get("origins"); ok {
		o, err := ParseOrigins(v)
		if err != nil {
			bad("origins: %v", "origins: %v", err)
		}
		p.Origins = o
	}
	if fragment = strings.TrimPrefix(fragment, "#"); fragment != "" {
		fq, err := url.ParseQuery(fragment)
		if err != nil {
			bad("không đọc được phần # của địa chỉ: %v", "the address's fragment does not parse: %v", err)
		}
		if v := fq.Get(FragmentKey); v != "" {
			src, err := DecodeLesson(v, lim.LessonBytes)
			if err != nil {
				bad("bài học trong liên kết hỏng (%v); đã mở bài khác", "the lesson in the link: %v", err)
			} else {
				p.Source = src
			}
		}
	}
	return p, errs
}

func clip(s string) string { return truncate(s, 40) }

// EncodeLesson compresses a lesson's text for a link's fragment: raw DEFLATE (RFC 1951,
// compress/flate at BestCompression), then base64url without padding (RFC 4648 §5).
func EncodeLesson(src []byte) string {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	w.Write(src)
	w.Close()
	return base64.RawURLEncoding.EncodeToString(b.Bytes())
}

// ErrTooLarge is wrapped by DecodeLesson when the text would pass the limit.
var ErrTooLarge = errors.New("lesson too large")

// DecodeLesson undoes EncodeLesson, refusing text longer than maxBytes (0: no limit) without
// decompressing past it. Padding is accepted.
func DecodeLesson(s string, maxBytes int) ([]byte, error) {
	s = strings.TrimRight(strings.TrimSpace(s), "=")
	if maxBytes > 0 && len(s) > 2*maxBytes {
		return nil, wrapMsg(ErrTooLarge, "bài quá lớn: %d ký tự đã nén; ứng dụng nhận bài tới %d byte (giới hạn LessonBytes)",
			"%d characters of compressed text; the app accepts lessons up to %d bytes (limit LessonBytes)", len(s), maxBytes)
	}
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, Msgf("không phải base64url (%v): hãy sao chép cả liên kết", "not base64url (%v): copy the whole link", err)
	}
	r := flate.NewReader(bytes.NewReader(raw))
	defer r.Close()
	var lr io.Reader = r
	if maxBytes > 0 {
		lr = io.LimitReader(r, int64(maxBytes)+1)
	}
	out, err := io.ReadAll(lr)
	if err != nil {
		return nil, Msgf("dữ liệu nén bị hỏng (%v): hãy sao chép cả liên kết", "damaged compressed text (%v): copy the whole link", err)
	}
	if maxBytes > 0 && len(out) > maxBytes {
		return nil, wrapMsg(ErrTooLarge, "bài quá lớn: hơn %d byte khi giải nén (giới hạn LessonBytes)",
			"more than %d bytes once decompressed (limit LessonBytes)", maxBytes)
	}
	return out, nil
}

// Link is the address of the app at base (scheme://host/path/, no query) with p's settings: a
// built-in lesson by name in the query, a lesson's text in the fragment. Defaults are left out.
func (p Params) Link(base string) string {
	q := url.Values{}
	if p.Lesson != "" && p.Source == nil {
		q.Set("lesson", p.Lesson)
	}
	if p.Step > 0 {
		q.Set("step", strconv.Itoa(p.Step))
	}
	if p.Lang != "" && p.Lang != "vi" {
		q.Set("lang", p.Lang)
	}
	if p.Version != 0 {
		q.Set("version", p.Version.String())
	}
	if p.HasAlloc {
		q.Set("allocator", p.Allocator.String())
	}
	if p.Theme == "light" || p.Theme == "auto" {
		q.Set("theme", p.Theme)
	}
	if p.Controls == "minimal" {
		q.Set("controls", "minimal")
	}
	if p.Autoplay {
		q.Set("autoplay", "1")
	}
	if p.HasSeed {
		q.Set("seed", strconv.FormatUint(p.Seed, 10))
	}
	if len(p.Origins) > 0 {
		q.Set("origins", strings.Join(p.Origins, ","))
	}
	if p.Lua {
		q.Set("lua", "1")
	}
	s := base
	if e := q.Encode(); e != "" {
		s += "?" + e
	}
	if p.Source != nil {
		s += "#" + FragmentKey + "=" + EncodeLesson(p.Source)
	}
	return s
}

// EmbedCode is an <iframe> for a course page showing the app at p (see Link), titled for
// screen readers. Every attribute value is escaped: titles and links are data, never markup.
func EmbedCode(base string, p Params, title string) string {
	return EmbedCodeSized(base, p, title, 640)
}

// EmbedCodeSized is EmbedCode with the iframe's height in CSS pixels (clamped to 240 … 2400).
func EmbedCodeSized(base string, p Params, title string, height int) string {
	height = max(240, min(height, 2400))
	if title == "" {
		title = "redscope"
	} else {
		title = "redscope: " + title
	}
	return fmt.Sprintf(`<iframe src="%s" title="%s" width="100%%" height="%d" style="border:0;max-width:1200px" loading="lazy" allow="clipboard-write"></iframe>`,
		attrEscaper.Replace(p.Link(base)), attrEscaper.Replace(title), height)
}

// attrEscaper escapes the five characters html.EscapeString escapes, with the same entities;
// importing package html would link its 2 231-entry entity table into the page (for
// UnescapeString, which nothing here uses).
var attrEscaper = strings.NewReplacer(`&`, "&amp;", `'`, "&#39;", `<`, "&lt;", `>`, "&gt;", `"`, "&#34;")

// ParseOrigins reads a list of origins separated by commas or spaces: each scheme://host[:port]
// (http or https; a trailing slash is dropped), or "*" for any origin. Bad entries are reported
// and left out.
func ParseOrigins(s string) ([]string, error) {
	var out, bad []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\n' }) {
		if o, ok := normOrigin(f); ok {
			out = append(out, o)
		} else {
			bad = append(bad, clip(f))
		}
	}
	if len(bad) > 0 {
		return out, Msgf("không phải origin (cần https://host[:port] hoặc *): %s", "not an origin (want https://host[:port] or *): %s", strings.Join(bad, ", "))
	}
	return out, nil
}

func normOrigin(s string) (string, bool) {
	if s == "*" {
		return s, true
	}
	u, err := url.Parse(strings.TrimSuffix(s, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		u.Path != "" || u.RawQuery != "" || u.Fragment != "" {
		return "", false
	}
	return strings.ToLower(u.Scheme + "://" + u.Host), true
}

// OriginPolicy decides which parent pages may drive an embedded app by postMessage.
//
//   - The app's own origin (self) is always allowed.
//   - Site: origins the deployer of the app lists (index.html's <html data-redscope-origins>);
//     "*" there allows any origin.
//   - Page: origins the embedding page lists in the iframe's address (?origins=); "*" allows any.
//   - Without Site, Page decides. With Site, Page can only narrow it: an origin must be allowed by
//     Site, and by Page when Page is given.
//   - Without either, only self.
//
// An opaque origin ("null": sandboxed frames, file: pages) is never allowed: a reply to it could
// not be addressed.
type OriginPolicy struct {
	Self string
	Site []string
	Page []string
}

// Allows reports whether origin may drive the app.
func (o OriginPolicy) Allows(origin string) bool {
	origin = strings.ToLower(origin)
	if origin == "" || origin == "null" {
		return false
	}
	if origin == strings.ToLower(o.Self) {
		return true
	}
	in := func(list []string) bool {
		for _, x := range list {
			if x == "*" || x == origin {
				return true
			}
		}
		return false
	}
	switch {
	case len(o.Site) == 0 && len(o.Page) == 0:
		return false
	case len(o.Site) == 0:
		return in(o.Page)
	case len(o.Page) == 0:
		return in(o.Site)
	default:
		return in(o.Site) && in(o.Page)
	}
}

// OriginOf is the origin (scheme://host[:port]) of an absolute http(s) URL, "" otherwise.
func OriginOf(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return strings.ToLower(u.Scheme + "://" + u.Host)
}

// Msg is an error the page shows in either of its languages (Error is the English text).
type Msg struct {
	vi, en string
	wrap   error
}

func (m *Msg) Error() string { return m.en }

// Unwrap is the sentinel the message wraps (ErrTooLarge), or nil.
func (m *Msg) Unwrap() error { return m.wrap }

// In is the message in lang ("vi" or "en").
func (m *Msg) In(lang string) string {
	if lang == "en" {
		return m.en
	}
	return m.vi
}

// Msgf formats a message in both languages. An argument that is itself a *Msg is written in the
// message's language.
func Msgf(vi, en string, a ...any) *Msg {
	in := func(lang string) []any {
		out := make([]any, len(a))
		for i, x := range a {
			if err, ok := x.(error); ok {
				out[i] = ErrIn(err, lang)
			} else {
				out[i] = x
			}
		}
		return out
	}
	return &Msg{vi: fmt.Sprintf(vi, in("vi")...), en: fmt.Sprintf(en, in("en")...)}
}

func wrapMsg(sentinel error, vi, en string, a ...any) *Msg {
	m := Msgf(vi, en, a...)
	m.en = sentinel.Error() + ": " + m.en
	m.wrap = sentinel
	return m
}

// ErrIn is err's text in lang: a *Msg in that language, any other error as it is.
func ErrIn(err error, lang string) string {
	if m, ok := err.(*Msg); ok {
		return m.In(lang)
	}
	return err.Error()
}

// versionList is "7.0, 7.2, …, 8.8".
func versionList() string {
	var s []string
	for _, v := range engine.Versions {
		s = append(s, v.String())
	}
	return strings.Join(s, ", ")
}
