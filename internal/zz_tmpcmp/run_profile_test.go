package zz_tmpcmp

import (
	"fmt"
	"os"
	"testing"

	"redscope/engine"
	"redscope/internal/transcript"
)

func TestProfileShow(t *testing.T) {
	f, err := transcript.ParseFile(os.Getenv("P"))
	if err != nil {
		t.Fatal(err)
	}
	o, _ := transcript.EngineOptions(f)
	e := engine.New(o)
	for _, st := range f.Steps {
		fmt.Printf("> %s\n%s", st.Text, e.Exec(st.Args).Reply.FormatCLI())
	}
}
