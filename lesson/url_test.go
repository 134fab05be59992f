package lesson

import (
	"bytes"
	"encoding/base64"
	"errors"
	"math/rand/v2"
	"net/url"
	"strings"
	"testing"
	"time"

	"redscope/engine"
	"redscope/engine/alloc"
)

const urlSample = "lesson demo\ntitle en: Demo\ntitle vi: Thử\nstep\nen: <img src=x onerror=alert(1)>\n> SET a \"x\\x00y\"\n"

func TestEncodeDecodeLesson(t *testing.T) {
	enc := EncodeLesson([]byte(urlSample))
	if strings.ContainsAny(enc, "+/=") {
		t.Fatalf("not unpadded base64url: %q", enc)
	}
	for _, s := range []string{enc, enc + "=", enc + "=="} {
		got, err := DecodeLesson(s, 1<<20)
		if err != nil || string(got) != urlSample {
			t.Fatalf("%q → %q %v", s, got, err)
		}
	}
	// What a course author produces elsewhere (Python zlib wbits=-15, JS deflate-raw) is raw
	// DEFLATE too: a stored (uncompressed) block decodes the same.
	n := len(urlSample)
	stored := append([]byte{1, byte(n), byte(n >> 8), ^byte(n), ^byte(n >> 8)}, urlSample...)
	if got, err := DecodeLesson(base64.URLEncoding.EncodeToString(stored), 0); err != nil || string(got) != urlSample {
		t.Fatalf("stored block: %q %v", got, err)
	}
	// Damaged links.
	for _, s := range []string{"!!!", enc[:len(enc)/2], "AAAA"} {
		if _, err := DecodeLesson(s, 1<<20); err == nil {
			t.Errorf("%q decoded", s)
		}
	}
	// A zip bomb: 16 MiB of zeros is a small link; it is refused after LessonBytes, quickly.
	bomb := EncodeLesson(make([]byte, 16<<20))
	t0 := time.Now()
	if _, err := DecodeLesson(bomb, 1<<20); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("bomb: %v", err)
	}
	if d := time.Since(t0); d > 200*time.Millisecond {
		t.Errorf("bomb took %v", d)
	}
	if _, err := DecodeLesson(strings.Repeat("A", 3<<20), 1<<20); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("long link: %v", err)
	}
}

func TestParseParams(t *testing.T) {
	p, errs := ParseParams("?lesson=bit-offsets&step=3&lang=en&version=7.0&allocator=jemalloc-16&theme=light&controls=minimal&autoplay=1&seed=42&origins=https://a.example,https://B.example:8443/", "", nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := Params{Lesson: "bit-offsets", Step: 3, Lang: "en", Version: engine.V70, Allocator: alloc.Jemalloc16, HasAlloc: true,
		Theme: "light", Controls: "minimal", Autoplay: true, Seed: 42, HasSeed: true,
		Origins: []string{"https://a.example", "https://b.example:8443"}}
	if !equalParams(p, want) {
		t.Fatalf("%+v\nwant %+v", p, want)
	}
	// Defaults.
	p, errs = ParseParams("", "", nil)
	if len(errs) > 0 || !equalParams(p, Params{Step: -1, Lang: "vi", Theme: "dark", Controls: "full"}) {
		t.Fatalf("defaults %+v %v", p, errs)
	}
	// Every bad value is reported, named, and left at its default; markup stays text.
	p, errs = ParseParams("step=-1&lang=fr&version=6.2&allocator=tcmalloc&theme=%3Cb%3E&controls=some&autoplay=maybe&seed=x&origins=javascript:alert(1),https://ok.example", "#lesson=%%%", nil)
	if len(errs) != 10 {
		t.Fatalf("%d errors: %v", len(errs), errs)
	}
	for i, w := range []string{"step=", "lang=", "version=", "allocator=", "theme=\"<b>\"", "controls=", "autoplay=", "seed=", "origins: not an origin", "fragment"} {
		if !strings.Contains(errs[i].Error(), w) {
			t.Errorf("error %d %q lacks %q", i, errs[i], w)
		}
	}
	if p.Step != -1 || p.Lang != "vi" || p.Theme != "dark" || len(p.Origins) != 1 {
		t.Fatalf("bad values not left at defaults: %+v", p)
	}
	// The fragment's lesson.
	p, errs = ParseParams("step=1", "#lesson="+EncodeLesson([]byte(urlSample)), nil)
	if len(errs) > 0 || string(p.Source) != urlSample || p.Step != 1 {
		t.Fatalf("fragment %+v %v", p, errs)
	}
	_, errs = ParseParams("", "lesson="+EncodeLesson(bytes.Repeat([]byte("# x\n"), 1<<19)), nil)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "limit LessonBytes") {
		t.Fatalf("big fragment: %v", errs)
	}
}

func equalParams(a, b Params) bool {
	return a.Lesson == b.Lesson && bytes.Equal(a.Source, b.Source) && a.Step == b.Step && a.Lang == b.Lang &&
		a.Version == b.Version && a.Allocator == b.Allocator && a.HasAlloc == b.HasAlloc && a.Theme == b.Theme &&
		a.Controls == b.Controls && a.Autoplay == b.Autoplay && a.Seed == b.Seed && a.HasSeed == b.HasSeed &&
		strings.Join(a.Origins, " ") == strings.Join(b.Origins, " ") && a.Lua == b.Lua
}

func TestLinkRoundTrip(t *testing.T) {
	for _, p := range []Params{
		{Lesson: "hll-registers", Step: 4, Lang: "en", Version: engine.V72, Theme: "dark", Controls: "full"},
		{Lesson: "cart-script", Step: 1, Lang: "vi", Theme: "dark", Controls: "full", Lua: true},
		{Source: []byte(urlSample), Step: 2, Lang: "vi", Theme: "light", Controls: "minimal", Autoplay: true, Seed: 9, HasSeed: true},
		{Lesson: "a&b=c#d", Step: -1, Lang: "vi", Theme: "dark", Controls: "full", HasAlloc: true, Allocator: alloc.Jemalloc16},
	} {
		link := p.Link("https://app.example/redscope/")
		u, err := url.Parse(link)
		if err != nil {
			t.Fatal(err)
		}
		got, errs := ParseParams(u.RawQuery, u.Fragment, nil)
		if len(errs) > 0 || !equalParams(got, p) {
			t.Fatalf("%s\n→ %+v %v\nwant %+v", link, got, errs, p)
		}
	}
}

func TestEmbedCodeEscapes(t *testing.T) {
	p := Params{Lesson: `x"><script>alert(1)</script>`, Step: -1, Lang: "en"}
	code := EmbedCode("https://app.example/", p, `Demo "quoted" <b>&`)
	if strings.Contains(code, "<script") || strings.Contains(code, "<b>") || strings.Count(code, `"`)%2 != 0 {
		t.Fatalf("unescaped: %s", code)
	}
	if !strings.HasPrefix(code, `<iframe src="https://app.example/?lang=en&amp;lesson=x%22%3E%3Cscript%3E`) ||
		!strings.Contains(code, `title="redscope: Demo &#34;quoted&#34; &lt;b&gt;&amp;"`) || !strings.HasSuffix(code, "></iframe>") {
		t.Fatalf("embed code: %s", code)
	}
}

func TestOriginPolicy(t *testing.T) {
	self := "https://app.example"
	for _, c := range []struct {
		site, page []string
		origin     string
		ok         bool
	}{
		{nil, nil, self, true},
		{nil, nil, "https://course.example", false},
		{nil, nil, "null", false},
		{nil, nil, "", false},
		{nil, []string{"https://course.example"}, "https://course.example", true},
		{nil, []string{"https://course.example"}, "https://evil.example", false},
		{nil, []string{"*"}, "https://any.example", true},
		{nil, []string{"*"}, "null", false},
		{[]string{"https://course.example"}, nil, "https://course.example", true},
		{[]string{"https://course.example"}, []string{"https://evil.example"}, "https://evil.example", false},
		{[]string{"https://course.example", "https://b.example"}, []string{"https://b.example"}, "https://course.example", false},
		{[]string{"https://course.example", "https://b.example"}, []string{"https://b.example"}, "https://b.example", true},
		{[]string{"*"}, []string{"https://b.example"}, "https://c.example", false},
		{[]string{"*"}, nil, "https://c.example", true},
		{nil, []string{"https://course.example"}, "HTTPS://COURSE.EXAMPLE", true},
		{nil, []string{"https://course.example"}, "http://course.example", false},
	} {
		if got := (OriginPolicy{Self: self, Site: c.site, Page: c.page}).Allows(c.origin); got != c.ok {
			t.Errorf("site %v page %v origin %q: %v", c.site, c.page, c.origin, got)
		}
	}
	if o, err := ParseOrigins("https://a.example/path"); err == nil || len(o) != 0 {
		t.Errorf("a path accepted: %v %v", o, err)
	}
	if OriginOf("https://a.example:8080/x/y?z#w") != "https://a.example:8080" || OriginOf("about:blank") != "" {
		t.Error("OriginOf")
	}
}

// TestQuoteArgRoundTrip: every byte string survives QuoteArg → SplitArgs.
func TestQuoteArgRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	cases := [][]byte{{}, []byte(" "), []byte(`"`), []byte(`'`), []byte(`\`), []byte("a\"b c"), []byte("\x00\xff\r\n\t\a\b"), []byte("plain"), []byte("\\x41")}
	for i := 0; i < 2000; i++ {
		b := make([]byte, r.IntN(12))
		for j := range b {
			b[j] = byte(r.IntN(256))
		}
		cases = append(cases, b)
	}
	for _, c := range cases {
		line := QuoteArgs([][]byte{[]byte("SET"), c, c})
		if strings.ContainsAny(line, "\r\n") {
			t.Fatalf("%q: a line break in %q", c, line)
		}
		args, err := engine.SplitArgs(line)
		if err != nil || len(args) != 3 || !bytes.Equal(args[1], c) || !bytes.Equal(args[2], c) {
			t.Fatalf("%q → %q → %q %v", c, line, args, err)
		}
	}
}

// TestThemeParam: theme=auto (follow the reader's prefers-color-scheme) is accepted and kept in
// links; dark, the default, is left out of them.
func TestThemeParam(t *testing.T) {
	for _, c := range []struct{ q, want, link string }{
		{"theme=auto", "auto", "theme=auto"}, {"theme=light", "light", "theme=light"}, {"theme=dark", "dark", ""}, {"", "dark", ""},
	} {
		p, errs := ParseParams(c.q, "", nil)
		if len(errs) > 0 || p.Theme != c.want {
			t.Fatalf("%q: theme %q %v", c.q, p.Theme, errs)
		}
		if l := p.Link("https://a.example/"); strings.Contains(l, "theme=") != (c.link != "") || c.link != "" && !strings.Contains(l, c.link) {
			t.Fatalf("%q: link %s", c.q, l)
		}
	}
	if _, errs := ParseParams("theme=Light", "", nil); len(errs) != 1 || !strings.Contains(errs[0].Error(), "want light, dark or auto") {
		t.Fatalf("theme=Light: %v", errs)
	}
}

// TestParamsErrorsInVietnamese: every bad parameter is reported in both languages, the value
// quoted in each, and the English text is the error's own.
func TestParamsErrorsInVietnamese(t *testing.T) {
	_, errs := ParseParams("step=x&lang=fr&version=9.9&allocator=tc&theme=neon", "#lesson=!!!", nil)
	if len(errs) != 6 {
		t.Fatalf("%d errors: %v", len(errs), errs)
	}
	for i, w := range []string{`step="x": cần số bước`, `lang="fr": chỉ có vi`, `version="9.9": không có phiên bản này; chọn 7.0, 7.2`,
		`allocator="tc": chỉ có`, `theme="neon": chỉ có`, "bài học trong liên kết hỏng (không phải base64url"} {
		if got := ErrIn(errs[i], "vi"); !strings.Contains(got, w) {
			t.Errorf("vi %d: %q lacks %q", i, got, w)
		}
		if ErrIn(errs[i], "en") != errs[i].Error() {
			t.Errorf("en %d: %q ≠ %q", i, ErrIn(errs[i], "en"), errs[i].Error())
		}
	}
	if !strings.Contains(errs[5].Error(), "the lesson in the link: not base64url") {
		t.Errorf("en fragment: %q", errs[5])
	}
}
