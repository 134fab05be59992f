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
// links neither the Kage compiler, nor text/template, nor ebiten's GLSL back end, nor regexp
// (whose other user was redscope's engine, now with the matchers of engine/script_match.go),
// and that the verification fails when the table of programs, of sources or of GLSL is not what
// ebiten's own code makes.
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
	if !strings.Contains(stderr, "14 precompiled programs equal the compiler's, 12 sources equal ShaderSource's, 14 programs' precompiled GLSL ES 3.00 equals glsl.Compile's") {
		t.Errorf("no verification reported:\n%s", stderr)
	}

	list := exec.Command("go", "list", "-deps", "-overlay="+filepath.Join(dir, "overlay.json"), "-f", "{{.ImportPath}}|{{join .Imports \" \"}}|{{join .GoFiles \" \"}}", "./wasm")
	list.Dir = filepath.Join("..", "..")
	list.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "GOWORK="+filepath.Join(dir, "go.work"))
	out, err := list.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := map[string]bool{}
	imports, files := map[string][]string{}, map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "|")
		if len(f) != 3 {
			t.Fatalf("go list printed %q", line)
		}
		deps[f[0]] = true
		imports[f[0]], files[f[0]] = strings.Fields(f[1]), f[2]
	}
	for _, p := range []string{"go/parser", "go/ast", "go/scanner", "text/template", ebitenModule + "/internal/shader", "regexp", "regexp/syntax"} {
		if deps[p] {
			t.Errorf("the browser build still links %s", p)
		}
	}
	for _, p := range []string{ebitenModule + "/internal/shaderir", ebitenModule + "/internal/graphics", ebitenModule + "/internal/builtinshader", ebitenModule + "/" + glslPkg} {
		if !deps[p] {
			t.Errorf("the browser build does not link %s: go list saw %d packages", p, len(deps))
		}
	}
	// ebiten's GLSL back end was its only user of regexp.
	if got := files[ebitenModule+"/"+glslPkg]; got != "glsl.go" {
		t.Errorf("the browser build's package glsl has the files %q, want only the generated glsl.go", got)
	}
	// No package imports regexp: ebiten's GLSL back end and redscope's engine were its users.
	for p, imps := range imports {
		for _, imp := range imps {
			if imp == "regexp" || imp == "regexp/syntax" {
				t.Errorf("the browser build's %s still imports %s", p, imp)
			}
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
		{genGLSL, "#version 300 es", "#version 310 es", "built-in shader 0: the precompiled GLSL of its vertex shader differs from glsl.Compile's at line 1"},
		{genGLSL, "return source0, source1\n", "return source0, source4\n", "built-in shader 0: the precompiled GLSL of its fragment shader differs"}, // another shader's GLSL
		{genGLSL, "if version == GLSLVersionES300 {", "if true {", "for GLSLVersionDefault does not panic naming shaderpack"},
		{genGLSL, "\tpanic(fmt.Sprintf(", "\treturn \"\", \"\"\n\tpanic(fmt.Sprintf(", "with another source hash: the generated glsl.Compile does not panic"},
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
	glslGo, contextGo, defaultJSGo := read(origGLSL), read(origGLContext), read(origGLDefaultJS)
	table := [][][]string{{{"a", "b"}, {"c", "d"}, {"e", "f"}}, {{"g", "h"}, {"i", "j"}, {"k", "l"}}}
	hashes, vs, fs := [][16]byte{{1}, {2}}, []string{"v", "v"}, []string{"f0", "f1"}
	if _, err := rewriteGraphicsShader([]byte(graphics)); err != nil {
		t.Fatalf("the pinned graphics/shader.go: %v", err)
	}
	if _, err := rewriteBuiltinShader([]byte(builtin), table); err != nil {
		t.Fatalf("the pinned builtinshader/shader.go: %v", err)
	}
	if _, err := rewriteGLSL([]byte(glslGo), hashes, vs, fs); err != nil {
		t.Fatalf("the pinned glsl/glsl.go: %v", err)
	}
	if err := checkGLSLUse(mod, []byte(contextGo), []byte(defaultJSGo)); err != nil {
		t.Fatalf("the pinned module's use of glsl: %v", err)
	}
	if _, err := rewriteGLSL([]byte(glslGo), [][16]byte{{1}, {1}}, vs, fs); err == nil || !strings.Contains(err.Error(), "have the same source hash") {
		t.Errorf("two programs with one source hash: %v, want an error naming it", err)
	}
	for _, c := range []struct{ name, file, old, new, want string }{
		{"WebGL asking for GLSLVersionDefault", contextGo, "return glsl.GLSLVersionES300\n", "return glsl.GLSLVersionDefault\n", "method glslVersion"},
		{"the js context not ES", defaultJSGo, "return true\n", "return false\n", "method IsES"},
	} {
		src := strings.Replace(c.file, c.old, c.new, 1)
		if src == c.file {
			t.Fatalf("%s: %q not found", c.name, c.old)
		}
		ctx, js := contextGo, defaultJSGo
		if c.file == contextGo {
			ctx = src
		} else {
			js = src
		}
		if err := checkGLSLUse(mod, []byte(ctx), []byte(js)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error naming %q", c.name, err, c.want)
		}
	}
	for _, c := range []struct {
		name, src, old, new, want string
		builtin                   bool
		glsl                      bool
	}{
		{"CompileShader's signature", graphics, "func CompileShader(fragmentSrc []byte) (*shaderir.Program, error)", "func CompileShader(fragmentSrc []byte, name string) (*shaderir.Program, error)", "func CompileShader(fragmentSrc []byte, name string) (*shaderir.Program, error), shaderpack expects", false, false},
		{"a new function", graphics, "func CalcSourceHash(", "func Other() {}\n\nfunc CalcSourceHash(", "funcs", false, false},
		{"no tmpl", builtin, "var tmpl = ", "var tmpl2 = ", "var tmpl is missing", true, false},
		{"ShaderSource's signature", builtin, "useColorM bool) []byte", "useColorM bool) string", "shaderpack expects func ShaderSource", true, false},
		{"glsl.Compile's signature", glslGo, "version GLSLVersion) (vertexShader, fragmentShader string)", "version GLSLVersion) (vertexShader, fragmentShader string, err error)", "shaderpack expects func Compile", false, true},
		{"a new GLSL version", glslGo, "\tGLSLVersionES300\n", "\tGLSLVersionES300\n\tGLSLVersionES310\n", "no const block of GLSLVersionDefault", false, true},
		{"GLSLVersion's type", glslGo, "type GLSLVersion int", "type GLSLVersion string", "no declaration type GLSLVersion int", false, true},
	} {
		src := strings.Replace(c.src, c.old, c.new, 1)
		if src == c.src {
			t.Fatalf("%s: %q not found", c.name, c.old)
		}
		var err error
		switch {
		case c.glsl:
			_, err = rewriteGLSL([]byte(src), hashes, vs, fs)
		case c.builtin:
			_, err = rewriteBuiltinShader([]byte(src), table)
		default:
			_, err = rewriteGraphicsShader([]byte(src))
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error naming %q", c.name, err, c.want)
		}
	}
}
