package engine_test

import (
	"path/filepath"
	"strings"
	"testing"

	"redscope/engine"
	"redscope/engine/alloc"
	"redscope/internal/transcript"
)

// TestBitTranscripts replays the bit-command transcripts on the engine alone through the
// project's transcript runner (internal/transcript). The diff ones run on what Debian's
// redis-server 7.0.15 is (the 7.0 profile, jemalloc with a 16-byte quantum), against the reply
// lines recorded from it; internal/difftest also replays them against a live redis-server, and
// this test keeps `go test ./engine` checking the bit commands where none is installed.
// bitop-82 runs on the profile it declares.
func TestBitTranscripts(t *testing.T) {
	for _, path := range []string{
		"../testdata/transcripts/diff/bitmap.txt",
		"../testdata/transcripts/diff/bitfield.txt",
		"../testdata/transcripts/profile/bitop-82.txt",
	} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, err := transcript.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(path, "/diff/") {
				if f.Version == 0 {
					f.Version = engine.V70
				}
				if !f.HasAllocator {
					f.Allocator, f.HasAllocator = alloc.Jemalloc16, true
				}
			}
			fails, err := transcript.RunEngine(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, fl := range fails {
				t.Error("\n" + fl.String())
			}
			if len(f.Steps) < 50 {
				t.Fatalf("%s: only %d commands read", path, len(f.Steps))
			}
		})
	}
}
