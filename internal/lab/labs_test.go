package lab

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// wantLines fails unless every line occurs, whole, in out; runs of spaces compare equal (the
// column widths depend on which rows a run printed).
func wantLines(t *testing.T, out string, lines ...string) {
	t.Helper()
	have := map[string]bool{}
	for _, l := range strings.Split(out, "\n") {
		have[strings.Join(strings.Fields(l), " ")] = true
	}
	for _, l := range lines {
		if !have[strings.Join(strings.Fields(l), " ")] {
			t.Errorf("missing line %q in\n%s", l, out)
		}
	}
}

// fields splits the output line starting with prefix into its space-separated cells.
func fields(t *testing.T, out, prefix string) []string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, prefix) {
			return strings.Fields(strings.TrimPrefix(l, prefix))
		}
	}
	t.Fatalf("no line starting with %q in\n%s", prefix, out)
	return nil
}

func atoi(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return n
}

// The article (seeds/000 §3.7, Redis 8.8, bundled jemalloc) prints for u0, u1, … added in order:
//
//	100 99 -1.00 408 sparse · 1000 994 -0.60 2584 sparse · 1500 1497 -0.20 3096 sparse ·
//	2000 2006 0.30 14360 dense · 10000 9977 -0.23 · 100000 100420 0.42 · 1000000 1005024 0.50
//	week: true 800000, PFCOUNT d1..d7 = 807767, PFMERGE → 807767, MEMORY USAGE week 14360,
//	PFADD week u5 → 0.
//
// The engine computes every one of them (the HLL hash, the sparse growth and the 8.8 kvobj
// memory model), so they are asserted here.
func TestHLLLabReproducesArticle(t *testing.T) {
	counts := "100,1000,1500,2000,10000,100000"
	if !testing.Short() {
		counts += ",1000000"
	}
	out := run(t, "hll", "--counts", counts, "--set=false")
	wantLines(t, out,
		"lab hll: Redis 8.8, jemalloc, seed 0; elements u0, u1, … added in order (the article's naming, not listed in it)",
		"true     PFCOUNT  error %  bytes  encoding",
		"    100       99    -1.00    408  sparse",
		"   1000      994    -0.60   2584  sparse",
		"   1500     1497    -0.20   3096  sparse",
		"   2000     2006     0.30  14360  dense",
		"  10000     9977    -0.23  14360  dense",
		" 100000   100420     0.42  14360  dense",
		"true distinct viewers        800000",
		"PFCOUNT d1 … d7              807767  merged on the fly, error 0.97%",
		"PFMERGE week, PFCOUNT week   807767  error 0.97%",
		"MEMORY USAGE week             14360  bytes, dense",
		"sum of the daily PFCOUNTs   1402936  what adding up the days gives: returning viewers counted again (true sum 1400000)",
		"PFADD week u5                     0  a day-1 viewer again: no register changes (1 only when one does)",
	)
	if !testing.Short() {
		wantLines(t, out, "1000000  1005024     0.50  14360  dense")
	}
	if strings.Contains(out, "wset") || !strings.Contains(out, "true distinct") {
		t.Errorf("--set=false still built the set:\n%s", out)
	}
}

// Checked against Debian's redis-server 7.0.15 (jemalloc, 16-byte quantum): the same PFADD
// batches of 1000 give 432/3120/3120/14384 bytes (7.0's greedy sparse growth), the three-day
// merge 49982 and the set of the 50000 viewers, one SADD a day, 2124392 bytes.
func TestHLLLab70MatchesServer(t *testing.T) {
	out := run(t, "hll", "--redis-version", "7.0", "--allocator", "jemalloc-16", "--counts", "100,1000,1500,2000,10000",
		"--days", "3", "--per-day", "20000", "--overlap", "0.25")
	wantLines(t, out,
		"  100       99    -1.00    432  sparse",
		" 1000      994    -0.60   3120  sparse",
		" 1500     1497    -0.20   3120  sparse",
		" 2000     2006     0.30  14384  dense",
		"10000     9977    -0.23  14384  dense",
		"PFCOUNT d1 … d3               49982  merged on the fly, error -0.04%",
		"PFMERGE week, PFCOUNT week    49982  error -0.04%",
		"MEMORY USAGE week             14384  bytes, dense",
		"sum of the daily PFCOUNTs     59988  what adding up the days gives: returning viewers counted again (true sum 60000)",
		"SCARD wset                    50000  the same viewers in a set: exact",
		"MEMORY USAGE wset           2124392  bytes, hashtable",
	)
}

// The BITOP answers must be what the generated attendance says, computed here without the engine.
func TestBitmapLabAnswers(t *testing.T) {
	cfg := BitmapConfig{Students: 3000, Days: 7, RateMin: 0.3, RateMax: 1, Set: true}
	for _, seed := range []uint64{0, 5} {
		out := run(t, "bitmap", "--students", "3000", "--seed", strconv.FormatUint(seed, 10))
		att := attendance(seed, cfg)
		var and, or, diff, diff1, andor, one, d1 int64
		for i := 0; i < 3000; i++ {
			n := 0
			for d := 0; d < 7; d++ {
				if att[d][i] {
					n++
				}
			}
			b := func(d int) bool { return att[d][i] }
			if b(0) {
				d1++
			}
			if n == 7 {
				and++
			}
			if n > 0 {
				or++
			}
			if n == 1 {
				one++
			}
			if b(5) && !b(6) {
				diff++
			}
			if b(6) && !b(5) {
				diff1++
			}
			if b(0) && n > 1 {
				andor++
			}
		}
		for _, c := range []struct {
			prefix string
			want   int64
		}{
			{"present all 7 days ", and}, {"present at least 1 day ", or}, {"present day 6, absent day 7 ", diff},
			{"present day 7, absent day 6 ", diff1}, {"present day 1 and at least one other day ", andor},
			{"present exactly 1 day ", one}, {"the same with the sets: all 7 days ", and},
		} {
			f := fields(t, out, c.prefix)
			// command words, then students, bytes scanned, bytes written
			if got := atoi(t, f[len(f)-3]); got != c.want {
				t.Errorf("seed %d %s: %d students, want %d", seed, c.prefix, got, c.want)
			}
		}
		f := fields(t, out, "att:d1 ")
		if atoi(t, f[len(f)-4]) != d1 {
			t.Errorf("seed %d: BITCOUNT att:d1 %s, want %d", seed, f[len(f)-4], d1)
		}
		// AND over 7 bitmaps of 375 bytes: 7·375 scanned, 375 written; DIFF reads two.
		wantLines(t, out)
		if f := fields(t, out, "present all 7 days "); f[len(f)-2] != "2625" || f[len(f)-1] != "375" {
			t.Errorf("BITOP AND work %v, want 2625 scanned, 375 written", f)
		}
		if f := fields(t, out, "present day 6, absent day 7 "); f[len(f)-2] != "750" {
			t.Errorf("BITOP DIFF work %v, want 750 scanned", f)
		}
	}
}

// Article (seeds/000 §3.5, Redis 8.8): a day of 100000 students is a 16416-byte bitmap; one bit at
// offset 10000000 costs 1310752 bytes, at 4294967295 671088664. Redis 7.0.15 with Debian's
// jemalloc answered 16432 (and 2604720 for the set of the same ids), 1310768 and 671088688.
func TestBitmapLabMemory(t *testing.T) {
	out := run(t, "bitmap", "--set=false")
	if strings.Contains(out, "att:set") {
		t.Errorf("--set=false still built sets:\n%s", out)
	}
	wantLines(t, out,
		"att:d1  bitmap, SETBIT id 1 in id order  65010         16416  STRLEN 12500",
		"SETBIT sparse 10000000 1  (integer) 0    1250001       1310752  1250001 bytes allocated and zeroed",
		"SETBIT huge 4294967295 1  (integer) 0  536870912     671088664  536870912 bytes allocated and zeroed",
		"BITCOUNT huge             (integer) 1                           536870912 bytes scanned",
		"SETBIT huge 4294967296 1 → (error) ERR bit offset is not an integer or out of range",
	)
	if testing.Short() {
		return
	}
	out = run(t, "bitmap", "--redis-version", "7.0", "--allocator", "jemalloc-16")
	wantLines(t, out,
		"att:d1      bitmap, SETBIT id 1 in id order  65010         16432  STRLEN 12500",
		"att:set:d1  set, SADD the same ids           65010       2604720  hashtable",
		"present all 7 days                  BITOP AND res att:d1 … att:d7            17788          87500          12500",
		"present at least 1 day              BITOP OR res att:d1 … att:d7             99001          87500          12500",
		"BITOP DIFF, DIFF1, ANDOR, ONE: Redis 8.2+, not in the 7.0 profile",
	)
	wantLines(t, out,
		"SETBIT sparse 10000000 1 (integer) 0 1250001 1310768 1250001 bytes allocated and zeroed",
		"SETBIT huge 4294967295 1 (integer) 0 536870912 671088688 536870912 bytes allocated and zeroed")
}

// 1000 students × 40 lessons on Redis 7.0.15 (Debian jemalloc): MEMORY USAGE prog 57392, the 1000
// listpack hashes 247920 bytes in all, cell #39967 = 66. The article's 100000 × 40 string is
// 5242904 bytes on 8.8 (greedy growth of 3500000 bytes), which the engine computes.
func TestBitfieldLab(t *testing.T) {
	out := run(t, "bitfield", "--students", "1000", "--redis-version", "7.0", "--allocator", "jemalloc-16")
	wantLines(t, out,
		"one string, u7 cells                1   57392  BITFIELD_RO prog GET u7 #39967  66",
		"one hash per student (listpack)  1000  247920  HGET prog:999 7                 \"66\"",
		"(none: WRAP)  INCRBY u7 #0 10                     2            2",
		"WRAP          OVERFLOW WRAP INCRBY u7 #0 10       2            2",
		"SAT           OVERFLOW SAT INCRBY u7 #0 10      127          127",
		"FAIL          OVERFLOW FAIL INCRBY u7 #0 10   (nil)          120",
	)
	if testing.Short() {
		return
	}
	out = run(t, "bitfield", "--hash=false")
	if f := fields(t, out, "one string, u7 cells "); f[1] != "5242904" {
		t.Errorf("100000×40 string: %v, want 5242904 bytes", f)
	}
	if !strings.Contains(out, "STRLEN 3500000 = ceil(4000000 cells × 7 bits / 8)") {
		t.Errorf("STRLEN line missing:\n%s", out)
	}
}

// SRANDMEMBER on a 1000-member hashtable set is far from uniform (the article: chi-square 13870
// where a fair draw gives ≈ 999); a rank drawn by the application is fair; a 10-member listpack
// set is fair too.
func TestRandomLab(t *testing.T) {
	out := run(t, "random", "--seed", "1")
	chi := func(prefix string) (enc string, chi2, n int64) {
		f := fields(t, out, prefix)
		return f[0], atoi(t, f[len(f)-2]), atoi(t, f[1])
	}
	for _, c := range []struct {
		prefix, enc string
		biased      bool
	}{
		{"SRANDMEMBER small ", "listpack", false}, {"SRANDMEMBER big ", "hashtable", true},
		{"ZRANDMEMBER z ", "skiplist", true}, {"app rank i, ZRANGE z i i ", "skiplist", false},
	} {
		enc, chi2, n := chi(c.prefix)
		if enc != c.enc {
			t.Errorf("%s: encoding %s, want %s", c.prefix, enc, c.enc)
		}
		if c.biased && chi2 < 5*(n-1) || !c.biased && (chi2 > 2*(n-1)+20 || chi2 < (n-1)/3) {
			t.Errorf("%s: chi-square %d for %d members (biased: %v)", c.prefix, chi2, n, c.biased)
		}
	}
	f := fields(t, out, "SRANDMEMBER big ")
	if lo, hi := atoi(t, f[5]), atoi(t, f[6]); hi < 3*lo {
		t.Errorf("SRANDMEMBER big: min %d max %d, want a wide spread", lo, hi)
	}
	// 7.0 has no listpack sets: the small set is a hashtable.
	out = run(t, "random", "--redis-version", "7.0", "--draws", "20000")
	if f := fields(t, out, "SRANDMEMBER small "); f[0] != "hashtable" || f[2] != "20000" || f[3] != "2000" {
		t.Errorf("7.0 small set row %v", f)
	}
}

// Memory checked on redis-server 7.0.15 (hash-max-listpack-entries N+1 / 0): 368/1128, 3120/8296,
// 24632/64304. The listpack work follows from the entry sizes: field:i and value:i are
// 1+len+1-byte entries, so finding the last field walks all 2N entries.
func TestListpackLab(t *testing.T) {
	out := run(t, "listpack", "--redis-version", "7.0", "--allocator", "jemalloc-16", "--counts", "16,128,1000")
	wantLines(t, out,
		"fields  listpack bytes  hashtable bytes  hashtable/listpack",
		"    16             368             1128               3.07x",
		"   128            3120             8296               2.66x",
		"  1000           24632            64304               2.61x",
	)
	for _, n := range []int64{16, 128, 1000} {
		var all int64
		for i := int64(0); i < n; i++ {
			l := int64(len("field:" + strconv.FormatInt(i, 10)))
			all += 2 * (l + 2) // field and value:i have the same length
		}
		last := fields(t, out, fmt.Sprintf("        HGET field:%d ", n-1))
		if n == 16 {
			last = fields(t, out, "    16  HGET field:0 ")
			if last[0] != "1" || last[1] != "18" || last[2] != "0" {
				t.Errorf("HGET field:0 on 16 fields: %v", last)
			}
			last = fields(t, out, "        HGET field:15 ")
		}
		if atoi(t, last[0]) != n || atoi(t, last[1]) != all || last[2] != "0" {
			t.Errorf("HGET field:%d: %v, want %d compared, %d scanned, 0 moved", n-1, last, n, all)
		}
		fresh := fields(t, out, fmt.Sprintf("        HSET field:%d (new) ", n))
		if atoi(t, fresh[0]) != n || atoi(t, fresh[1]) != all {
			t.Errorf("HSET field:%d (new): %v, want the whole listpack walked", n, fresh)
		}
	}
	// In the hashtable an existing field is found in its bucket chain: at least one comparison,
	// rarely more than a few.
	found := regexp.MustCompile(`(?m)HGET field:\d+ +\d+ +\d+ +\d+ +(\d+) +\d+$`).FindAllStringSubmatch(out, -1)
	if len(found) != 6 {
		t.Errorf("%d HGET rows, want 6", len(found))
	}
	for _, m := range found {
		if n := atoi(t, m[1]); n < 1 || n > 8 {
			t.Errorf("hashtable lookup compared %d entries: %q", n, m[0])
		}
	}
	// A missing field is compared with every field and walks the whole listpack.
	miss := regexp.MustCompile(`(?m)^ *HGET missing +(\d+) +(\d+) +(\d+)`).FindAllStringSubmatch(out, -1)
	if len(miss) != 3 {
		t.Fatalf("HGET missing rows: %v", miss)
	}
	for i, n := range []int64{16, 128, 1000} {
		if atoi(t, miss[i][1]) != n || miss[i][3] != "0" {
			t.Errorf("%d fields, HGET missing: %v", n, miss[i][1:])
		}
	}
	// Replacing value:0 (9 bytes) by value:0-updated (17) moves the tail: every entry after it
	// (the fields 1…N-1 and the field:N added just before, with their values) and the EOF byte.
	rows := regexp.MustCompile(`(?m)^ *HSET field:0 value:0-updated +(\d+) +(\d+) +(\d+)`).FindAllStringSubmatch(out, -1)
	for i, n := range []int64{16, 128, 1000} {
		var tail int64 = 1
		for j := int64(1); j <= n; j++ {
			tail += 2 * (int64(len("field:"+strconv.FormatInt(j, 10))) + 2)
		}
		if atoi(t, rows[i][1]) != 1 || atoi(t, rows[i][3]) != tail {
			t.Errorf("%d fields, HSET field:0 value:0-updated: %v, want 1 compared and %d moved", n, rows[i][1:], tail)
		}
	}
}

func TestLessonLab(t *testing.T) {
	files, _ := filepath.Glob("../../assets/lessons/*.lesson")
	if len(files) == 0 {
		t.Skip("no built-in lessons")
	}
	for _, f := range files {
		for _, v := range []string{"7.0", "8.8"} {
			var b bytes.Buffer
			err := Run([]string{"lesson", f, "--check", "--redis-version", v}, &b)
			if err != nil && !strings.Contains(err.Error(), "needs Redis") {
				t.Errorf("%s on %s: %v\n%s", f, v, err, b.String())
			}
		}
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.lesson")
	src := "lesson bad\ntitle en: A wrong expectation\nkeys k\nstep\nen: Set it.\n> SET k 12345\nexpect reply: OK\nexpect encoding k: embstr\n" +
		"step\n> APPEND k x\nexpect reply: (integer) 6\n"
	if err := os.WriteFile(bad, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := Run([]string{"lesson", "--check", bad}, &b); err == nil || !strings.Contains(err.Error(), "1 of 3 checks failed") {
		t.Errorf("--check: err %v\n%s", err, b.String())
	}
	out := b.String()
	wantLines(t, out,
		"lesson bad: A wrong expectation",
		"step 1/2: Set it.",
		"> SET k 12345",
		"OK",
		"  ok   expect reply: OK",
		"  FAIL expect encoding k: embstr (got int)",
		"  key k: string, raw, len 6, sds8 alloc 12 avail 6 usable 16, MEMORY USAGE 40",
		"checks: 3, held 2, failed 1",
	)
	// Without --check the transcript is printed and nothing fails.
	b.Reset()
	if err := Run([]string{"lesson", bad}, &b); err != nil || b.String() != out {
		t.Errorf("without --check: err %v, output differs: %v", err, b.String() != out)
	}
	since := filepath.Join(dir, "since.lesson")
	os.WriteFile(since, []byte("title en: New\nsince 8.2\nstep\n> PING\n"), 0o644)
	if err := Run([]string{"lesson", since, "--redis-version", "7.4"}, &b); err == nil || !strings.Contains(err.Error(), "needs Redis 8.2") {
		t.Errorf("since: %v", err)
	}
}

func TestEngineLabsDeterministic(t *testing.T) {
	for _, args := range [][]string{
		{"hll", "--counts", "100,3000", "--days", "3", "--per-day", "3000"},
		{"bitmap", "--students", "2000"},
		{"bitfield", "--students", "200", "--lessons", "10"},
		{"random", "--members", "300", "--draws", "6000"},
		{"listpack", "--counts", "10,600"},
	} {
		a := run(t, append(args, "--seed", "11")...)
		b := run(t, append(args, "--seed", "11")...)
		if a != b {
			t.Errorf("%v: two runs with one seed differ", args)
		}
		if args[0] == "bitmap" || args[0] == "bitfield" || args[0] == "random" {
			if c := run(t, append(args, "--seed", "12")...); c == a {
				t.Errorf("%v: the seed changes nothing", args)
			}
		}
		if !strings.Contains(a, "seed 11") {
			t.Errorf("%v: header does not name the seed:\n%s", args, a)
		}
	}
}

func TestUsageListsLabs(t *testing.T) {
	out := run(t, "help")
	for _, l := range []string{"ring", "bloom", "hll", "bitmap", "bitfield", "random", "listpack", "lesson"} {
		if !strings.Contains(out, "redscope lab "+l+" ") {
			t.Errorf("usage does not list %s", l)
		}
	}
}

func TestEngineLabErrors(t *testing.T) {
	wantRunErrors(t, []runError{
		{[]string{"hll", "--allocator", "tcmalloc"}, "unknown allocator"},
		{[]string{"hll", "--redis-version", "6.2"}, "unknown Redis version"},
		{[]string{"hll", "--counts", "100,50"}, "must increase"},
		{[]string{"hll", "--counts", "0"}, "positive"},
		{[]string{"hll", "--counts", "x"}, "positive"},
		{[]string{"hll", "--overlap", "1.5"}, "--overlap"},
		{[]string{"hll", "--per-day", "0"}, "--per-day"},
		{[]string{"hll", "--elements", "u"}, "--elements"},
		{[]string{"hll", "--seed", "-1"}, "seed"},
		{[]string{"bitmap", "--students", "0"}, "--students"},
		{[]string{"bitmap", "--days", "1"}, "--days"},
		{[]string{"bitfield", "--lessons", "0"}, "--lessons"},
		{[]string{"bitfield", "--students", "1000000", "--lessons", "1000"}, "too many"},
		{[]string{"random", "--draws", "0"}, "--draws"},
		{[]string{"random", "--members", "0"}, "--members"},
		{[]string{"listpack", "--counts", "200000"}, "too many"},
		{[]string{"listpack", "extra"}, "unexpected argument"},
		{[]string{"lesson"}, "which lesson file"},
		{[]string{"lesson", "/nonexistent.lesson"}, "no such file"},
		{[]string{"lesson", "x.lesson", "--lang", "fr"}, "--lang"},
	})
}
