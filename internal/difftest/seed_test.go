package difftest

import (
	"bytes"
	"testing"

	"redscope/engine"
	"redscope/engine/alloc"
	"redscope/internal/transcript"
)

// TestDiffTranscriptsIgnoreTheSeed: a real server hashes with a random per-process seed and draws
// from its own random source, so a reply TestDiffTranscripts compares byte for byte must come out
// the same whatever the seed — or the comparison is a lottery that fails once in a while (a
// hashtable's MEMORY USAGE caught in the middle of a rehash, a sample of 5 members of different
// sizes, a reply in bucket order without @sort). Every diff transcript runs on the engine under
// 64 seeds besides the default; every reply must be the same as under seed 0.
func TestDiffTranscriptsIgnoreTheSeed(t *testing.T) {
	eachTranscript(t, "diff", func(t *testing.T, path string, f *transcript.File) {
		t.Parallel()
		base := runSeeded(f, 0)
		for seed := uint64(1); seed <= 64; seed++ {
			got := runSeeded(f, seed)
			for i := range base {
				if !bytes.Equal(got[i], base[i]) {
					st := f.Steps[i]
					t.Fatalf("%s:%d: > %s: seed %d answers %q, seed 0 %q: a real server's answer here is a lottery",
						path, st.Line, st.Text, seed, got[i], base[i])
				}
			}
		}
	})
}

// runSeeded replays f on a fresh engine (7.0, jemalloc-16, a clock that does not move) with the
// given seed and returns each reply's RESP2 bytes (sorted for @sort steps).
func runSeeded(f *transcript.File, seed uint64) [][]byte {
	e := engine.New(engine.Options{Version: engine.V70, Allocator: alloc.Jemalloc16, Seed: seed,
		Clock: &engine.ManualClock{Ms: engine.StartMs}})
	out := make([][]byte, len(f.Steps))
	for i := range f.Steps {
		st := &f.Steps[i]
		r := e.Exec(st.Args).Reply
		if st.Sort {
			r = transcript.SortReply(r)
		}
		out[i] = r.AppendRESP2(nil)
	}
	return out
}
