package difftest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"redscope/engine"
	"redscope/internal/transcript"
)

// refBinaries names, per profile, the environment variable that may point at a redis-server
// binary of that version (built from the public Redis source, outside the project). The 8.0
// one is a build of the pull request that added INFO keysizes (docs/config.md §INFO): no 8.0
// profile transcript is in refChecked, it serves TestInfoKeysizesOnReference.
var refBinaries = map[engine.Version]string{engine.V74: "REDSCOPE_REDIS74", engine.V80: "REDSCOPE_REDIS80"}

// refChecked are the profile transcripts whose replies do not depend on the clock (a profile
// transcript runs on a logical clock, the real server on its own), checked on a real server of
// their version. Others cannot be replayed there: dump-74 (field TTLs in DUMP bytes),
// scripting-74 (the profile reports 7.4.2).
var refChecked = map[string]bool{"acl-74": true, "stream-74": true}

// TestProfileTranscriptsOnReference checks the expected lines of the profile transcripts against
// a real redis-server of the transcript's version, when one is given (REDSCOPE_REDIS74=path to
// a 7.4 redis-server): each file runs on a fresh server, and every reply must print as the file
// says. TestProfileTranscripts checks the same lines against the engine, so a file that passes
// both is a comparison of redscope with that server. Skipped without the variable.
func TestProfileTranscriptsOnReference(t *testing.T) {
	for v, env := range refBinaries {
		bin := os.Getenv(env)
		if bin == "" {
			t.Logf("%s is not set: profile %s transcripts are not checked against a real server", env, v)
			continue
		}
		eachTranscript(t, "profile", func(t *testing.T, path string, f *transcript.File) {
			if f.Version != v || !refChecked[strings.TrimSuffix(filepath.Base(path), ".txt")] {
				t.Skip("not a clock-independent transcript of this version (refChecked)")
			}
			addr := startRefServer(t, bin)
			c := dialConn(t, addr)
			for i := range f.Steps {
				st := &f.Steps[i]
				_, r, err := c.Do(st.Args)
				if err != nil {
					t.Fatalf("%s:%d: > %s: %v", path, st.Line, st.Text, err)
				}
				if ok, got := transcript.CheckWant(st, r); !ok {
					t.Errorf("%s:%d: > %s\n  the file says:\n%s\n  %s answers:\n%s", path, st.Line, st.Text,
						strings.Join(st.Want, "\n"), bin, got)
				}
			}
			t.Logf("%s: %d commands on %s", path, len(f.Steps), bin)
		})
	}
}

// startRefServer starts bin on a free loopback port for one test (stopped when it ends).
func startRefServer(t *testing.T, bin string) string {
	t.Helper()
	port := startTestRedis(t, bin, "127.0.0.1", t.TempDir(), "redis.log", "--enable-debug-command", "yes")
	return fmt.Sprintf("127.0.0.1:%d", port)
}
