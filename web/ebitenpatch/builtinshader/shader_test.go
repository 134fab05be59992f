package builtinshader

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"text/template"
)

// TestSameAsUpstream executes upstream's text/template (read from the module cache) and compares
// its output with ShaderSource for every filter, address and color-matrix choice.
func TestSameAsUpstream(t *testing.T) {
	dir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/hajimehoshi/ebiten/v2").Output()
	if err != nil {
		t.Skipf("ebiten's module directory: %v", err)
	}
	src, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(dir)), "internal", "builtinshader", "shader.go"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	const open = "template.New(\"tmpl\").Parse(`"
	i := strings.Index(s, open)
	if i < 0 {
		t.Fatal("upstream shader.go has no template")
	}
	body := s[i+len(open):]
	body = body[:strings.Index(body, "`))")]
	tmpl := template.Must(template.New("tmpl").Parse(body))
	n := 0
	for f := Filter(0); f < FilterCount; f++ {
		for a := Address(0); a < AddressCount; a++ {
			for _, m := range []bool{false, true} {
				var want bytes.Buffer
				if err := tmpl.Execute(&want, map[string]any{
					"Filter": f, "FilterNearest": FilterNearest, "FilterLinear": FilterLinear,
					"Address": a, "AddressUnsafe": AddressUnsafe, "AddressClampToZero": AddressClampToZero,
					"AddressRepeat": AddressRepeat, "UseColorM": m,
				}); err != nil {
					t.Fatal(err)
				}
				if got := ShaderSource(f, a, m); string(got) != want.String() {
					t.Errorf("filter %d address %d colorM %v:\n got %q\nwant %q", f, a, m, got, want.String())
				}
				n++
			}
		}
	}
	if n != 12 {
		t.Fatalf("%d combinations", n)
	}
}
