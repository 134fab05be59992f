package zz_tmpcmp

import (
	"fmt"
	"os"
	"testing"

	"redscope/engine"
	"redscope/engine/alloc"
	"redscope/internal/transcript"
)

// TestShow prints redis-server's and the engine's reply for each step of $T that differ or all when $ALL.
func TestShow(t *testing.T) {
	f, err := transcript.ParseFile(os.Getenv("T"))
	if err != nil {
		t.Fatal(err)
	}
	ref, err := transcript.Dial("127.0.0.1:6417")
	if err != nil {
		t.Fatal(err)
	}
	ref.DoStrings("FLUSHALL")
	ref.DoStrings("CONFIG", "SET", "stream-node-max-entries", "100")
	ref.DoStrings("CONFIG", "SET", "stream-node-max-bytes", "4096")
	e := engine.New(engine.Options{Version: engine.V70, Allocator: alloc.Jemalloc16, Clock: engine.WallClock{}})
	n := 0
	for _, st := range f.Steps {
		_, rr, _ := ref.Do(st.Args)
		er := e.Exec(st.Args).Reply
		a, b := rr.FormatCLI(), er.FormatCLI()
		if a != b || os.Getenv("ALL") != "" {
			fmt.Printf("%d > %s\n--redis:\n%s--engine:\n%s", st.Line, st.Text, a, b)
		}
		if a == b {
			n++
		}
	}
	fmt.Println("same:", n, "of", len(f.Steps))
}
