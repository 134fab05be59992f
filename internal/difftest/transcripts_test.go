package difftest

import (
	"path/filepath"
	"strings"
	"testing"

	"redscope/engine"
	"redscope/engine/alloc"
	"redscope/internal/transcript"
)

const maxReported = 25

func globTranscripts(t *testing.T, sub string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(transcriptsDir, sub, "*.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// eachTranscript runs check, as a subtest named after the file, on every parsed
// testdata/transcripts/sub/*.txt; the test is skipped when there are none.
func eachTranscript(t *testing.T, sub string, check func(t *testing.T, path string, f *transcript.File)) {
	t.Helper()
	files := globTranscripts(t, sub)
	if len(files) == 0 {
		t.Skipf("no testdata/transcripts/%s/*.txt yet", sub)
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txt"), func(t *testing.T) {
			f, err := transcript.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			check(t, path, f)
		})
	}
}

func report(t *testing.T, fails []transcript.Failure) {
	t.Helper()
	for i, f := range fails {
		if i == maxReported {
			t.Errorf("… and %d more differences", len(fails)-maxReported)
			break
		}
		t.Error("\n" + f.String())
	}
}

// TestDiffTranscripts replays every testdata/transcripts/diff/*.txt on Debian's redis-server and
// on redscope (7.0, jemalloc-16): every reply must be byte-identical.
func TestDiffTranscripts(t *testing.T) {
	sv := startServers(t)
	eachTranscript(t, "diff", func(t *testing.T, path string, f *transcript.File) {
		if f.Version != 0 && f.Version != engine.V70 {
			t.Fatalf("%s: @version %s: diff transcripts run against redis-server 7.0 (put other versions under profile/)", path, f.Version)
		}
		if f.HasAllocator && f.Allocator != alloc.Jemalloc16 {
			t.Fatalf("%s: @allocator %s: Debian's redis-server uses jemalloc-16", path, f.Allocator)
		}
		sv.fresh(t)
		ref, got := dialPair(t, sv.ref, sv.scope)
		fails, err := transcript.RunDiff(f, ref, got)
		report(t, fails)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d commands", path, len(f.Steps))
	})
}

// TestProfileTranscripts replays every testdata/transcripts/profile/*.txt on the engine with the
// profile it declares; every command needs expected lines.
func TestProfileTranscripts(t *testing.T) {
	eachTranscript(t, "profile", func(t *testing.T, path string, f *transcript.File) {
		fails, err := transcript.RunEngine(f)
		if err != nil {
			t.Fatal(err)
		}
		report(t, fails)
	})
}
