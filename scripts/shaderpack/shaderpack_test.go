package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// shaderpack runs the command in dir and returns its stdout, or its stderr as the error text.
func shaderpack(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	cmd := exec.Command("go", append([]string{"run", "."}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return strings.TrimSpace(stdout.String()), stderr.String(), err
}

// TestGenerateVerifyAndBuild generates the files, checks that the browser build with them
// links neither the Kage compiler nor text/template, and that the verification fails when the
// table of programs or of sources is not what ebiten's own code makes.
func TestGenerateVerifyAndBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds ebiten's shader compiler natively")
	}
	dir := t.TempDir()
	stdout, stderr, err := shaderpack(t, "-out", dir)
	if err != nil {
		t.Fatalf("shaderpack: %v\n%s", err, stderr)
	}
	if stdout != "" {
		t.Errorf("stdout %q, want nothing", stdout)
	}
	if !strings.Contains(stderr, "14 precompiled programs equal the compiler's, 12 sources equal ShaderSource's") {
		t.Errorf("no verification reported:\n%s", stderr)
	}

	list := exec.Command("go", "list", "-deps", "-overlay="+filepath.Join(dir, "overlay.json"), "./wasm")
	list.Dir = filepath.Join("..", "..")
	list.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "GOWORK="+filepath.Join(dir, "go.work"))
	out, err := list.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		deps[p] = true
	}
	for _, p := range []string{"go/parser", "go/ast", "go/scanner", "text/template", ebitenModule + "/internal/shader"} {
		if deps[p] {
			t.Errorf("the browser build still links %s", p)
		}
	}
	for _, p := range []string{ebitenModule + "/internal/shaderir", ebitenModule + "/internal/graphics", ebitenModule + "/internal/builtinshader"} {
		if !deps[p] {
			t.Errorf("the browser build does not link %s: go list saw %d packages", p, len(deps))
		}
	}

	if _, stderr, err := shaderpack(t, "-out", dir, "-verify"); err != nil {
		t.Fatalf("-verify of untouched files: %v\n%s", err, stderr)
	}
	for _, c := range []struct{ file, old, new, want string }{
		{genPrograms, `Swizzling: "x"`, `Swizzling: "y"`, "the precompiled program differs from the compiler's at Program.Funcs["},
		{genPrograms, "constant.MakeInt64(2)", "constant.MakeInt64(5)", "the precompiled program differs"},
		{genPrograms, "constant.ToFloat(constant.MakeInt64(0))", "constant.MakeInt64(0)", "the precompiled program differs"}, // an int where the compiler has a float 0
		{genBuiltinShader, "clr *= color", "clr *= color * 2.0", "the sources table differs"},
	} {
		p := filepath.Join(dir, "gen", c.file)
		orig, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(orig, []byte(c.old)) {
			t.Fatalf("%s has no %s", c.file, c.old)
		}
		if err := os.WriteFile(p, bytes.Replace(orig, []byte(c.old), []byte(c.new), 1), 0o644); err != nil {
			t.Fatal(err)
		}
		_, stderr, err := shaderpack(t, "-out", dir, "-verify")
		if err == nil || !strings.Contains(stderr, c.want) {
			t.Errorf("%s with %s for %s: -verify %v, want a failure naming %q:\n%s", c.file, c.new, c.old, err, c.want, stderr)
		}
		if err := os.WriteFile(p, orig, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRewriteRefusesOtherShapes: a file whose declarations are not those shaderpack was
// written for is refused with a message naming what differs, never rewritten.
func TestRewriteRefusesOtherShapes(t *testing.T) {
	gomodcache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	mod := filepath.Join(strings.TrimSpace(string(gomodcache)), "github.com", "hajimehoshi", "ebiten", "v2@"+wantVersion)
	read := func(rel string) string {
		b, err := os.ReadFile(filepath.Join(mod, rel))
		if err != nil {
			t.Fatalf("ebiten %s is not in the module cache (go mod download): %v", wantVersion, err)
		}
		return string(b)
	}
	graphics, builtin := read(origGraphicsShader), read(origBuiltinShader)
	table := [][][]string{{{"a", "b"}, {"c", "d"}, {"e", "f"}}, {{"g", "h"}, {"i", "j"}, {"k", "l"}}}
	if _, err := rewriteGraphicsShader([]byte(graphics)); err != nil {
		t.Fatalf("the pinned graphics/shader.go: %v", err)
	}
	if _, err := rewriteBuiltinShader([]byte(builtin), table); err != nil {
		t.Fatalf("the pinned builtinshader/shader.go: %v", err)
	}
	for _, c := range []struct {
		name, src, old, new, want string
		builtin                   bool
	}{
		{"CompileShader's signature", graphics, "func CompileShader(fragmentSrc []byte) (*shaderir.Program, error)", "func CompileShader(fragmentSrc []byte, name string) (*shaderir.Program, error)", "func CompileShader(fragmentSrc []byte, name string) (*shaderir.Program, error), shaderpack expects", false},
		{"a new function", graphics, "func CalcSourceHash(", "func Other() {}\n\nfunc CalcSourceHash(", "funcs", false},
		{"no tmpl", builtin, "var tmpl = ", "var tmpl2 = ", "var tmpl is missing", true},
		{"ShaderSource's signature", builtin, "useColorM bool) []byte", "useColorM bool) string", "shaderpack expects func ShaderSource", true},
	} {
		src := strings.Replace(c.src, c.old, c.new, 1)
		if src == c.src {
			t.Fatalf("%s: %q not found", c.name, c.old)
		}
		var err error
		if c.builtin {
			_, err = rewriteBuiltinShader([]byte(src), table)
		} else {
			_, err = rewriteGraphicsShader([]byte(src))
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error naming %q", c.name, err, c.want)
		}
	}
}
