package watchcases

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestParse reads each field and option of the format, and refuses a line that is not a case
// with an error naming its line.
func TestParse(t *testing.T) {
	text := `# a comment, then an empty line

set | - | SET k w XX | untouched
move | SET k v ; SELECT 1 | MOVE k 1 | touched db=1  # a comment after the answer
spop | SADD k a b | SPOP k 5 | touched random
fcall | FUNCTION LOAD "#!lua name=x\n" | FCALL f 1 k | untouched watch=k,j db=2
`
	got, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	want := []Case{
		{Line: 3, Cmd: "set", Write: "SET k w XX", Want: Untouched},
		{Line: 4, Cmd: "move", Setup: "SET k v ; SELECT 1", DB: 1, Write: "MOVE k 1", Want: Touched},
		{Line: 5, Cmd: "spop", Setup: "SADD k a b", Write: "SPOP k 5", Want: Touched, Random: true},
		{Line: 6, Cmd: "fcall", Setup: `FUNCTION LOAD "#!lua name=x\n"`, DB: 2, Watch: "k j", Write: "FCALL f 1 k", Want: Untouched},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Parse:\n got %+v\nwant %+v", got, want)
	}
	if k := got[0].WatchKeys(); k != "k" {
		t.Errorf("WatchKeys without watch=: %q, want k", k)
	}
	if s := SplitCmds(got[1].Setup); !reflect.DeepEqual(s, []string{"SET k v", "SELECT 1"}) {
		t.Errorf("SplitCmds: %q", s)
	}

	for _, c := range []struct{ line, err string }{
		{"set | SET k v | SET k w", "3 fields, want 4"},
		{"set | | SET k w | touched", "fields, want 4"},
		{"set |  | SET k w | touched", "an empty field"},
		{"set | - | SET k w | nil", `answer "nil", want touched or untouched`},
		{"set | - | SET k w |  # no answer", "no answer"},
		{"set | - | SET k w | touched db=x", "db=x: not a database number"},
		{"set | - | SET k w | touched db=-1", "db=-1: not a database number"},
		{"set | - | SET k w | touched fast", `unknown option "fast"`},
	} {
		_, err := Parse("# first\n" + c.line + "\n")
		if err == nil || !strings.HasPrefix(err.Error(), "2: ") || !strings.Contains(err.Error(), c.err) {
			t.Errorf("Parse(%q): %v, want an error at line 2 with %q", c.line, err, c.err)
		}
	}
}

// TestLoad names the file in its errors; a file without a case is an error.
func TestLoad(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(filepath.Join(dir, "none.txt")); err == nil {
		t.Error("Load of a missing file: no error")
	}
	p := filepath.Join(dir, "cases.txt")
	for _, c := range []struct{ text, err string }{
		{"# only a comment\n", p + ":1: no case"},
		{"set | - | SET k v | touched\nset | - | SET k v\n", p + ":2: 3 fields"},
	} {
		if err := os.WriteFile(p, []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(p); err == nil || !strings.HasPrefix(err.Error(), c.err) {
			t.Errorf("Load of %q: %v, want %s…", c.text, err, c.err)
		}
	}
}
