// Command shaderpack precompiles ebiten's built-in Kage shaders, down to their GLSL, for
// redscope's browser build, so that main.wasm links neither ebiten's Kage compiler
// (internal/shader with go/parser, go/ast, go/scanner), nor text/template (with which ebiten's
// internal/builtinshader writes its sources), nor its GLSL back end (internal/shaderir/glsl, the
// only user of regexp in ebiten). The app draws with ebiten's 14 built-in shaders only and
// creates no shader of its own.
//
//	go run ./scripts/shaderpack -out DIR
//	GOWORK=DIR/go.work GOOS=js GOARCH=wasm go build -overlay=DIR/overlay.json -trimpath ... ./wasm
//
// What it does, all of it in DIR (a build directory, never committed; nothing of ebiten is
// in the repository):
//
//  1. Checks that go.mod requires github.com/hajimehoshi/ebiten/v2 at wantVersion, and copies
//     that module from the module cache to DIR/ebiten (without examples/). `go build -overlay`
//     refuses to replace files beneath GOMODCACHE, so the copy is what the build reads: DIR/go.work
//     is a workspace of the repository and the copy. (A workspace rather than a `replace` in a
//     -modfile: the build info then names ebiten "(devel)" instead of the build directory's
//     path, so main.wasm, and its content-hashed name, stay the same from build to build.)
//     The copy stays as it is in the module cache: every change is in the overlay.
//  2. Builds and runs, natively, a small program inside the copy (overlaid into it as the
//     package github.com/hajimehoshi/ebiten/v2/redscopeshaderpack: gen.go with child_table.go
//     and child_gen.go), which may import ebiten's internal packages. It calls ebiten's own
//     ShaderSource and CompileShader for every built-in source, and glsl.Compile for every
//     program, and writes DIR/gen/:
//     builtinshader_shader.go (internal/builtinshader/shader.go with ShaderSource returning a
//     table of the sources: no text/template), graphics_shader.go (internal/graphics/shader.go
//     with CompileShader returning the precompiled program, an error for any other source),
//     graphics_shaderpack.go (the programs as Go composite literals, PrecompiledProgram) and
//     glsl_glsl.go (package glsl with only GLSLVersion, its constants and Compile, which returns
//     the GLSL ES 3.00 that ebiten's glsl.Compile made of each program, keyed by its SourceHash).
//     The files are rewritten from the originals with go/ast, and the rewrite fails with a
//     message naming the declaration when one is not the shape it was written for (as it does
//     when another package of ebiten uses more of package glsl, or when WebGL could ask for
//     another GLSL version).
//  3. Verifies (child_verify.go, with the unchanged originals and the generated files) that each
//     precompiled program is reflect.DeepEqual to what the compiler returns, that the sources
//     table equals ShaderSource's output, and that the generated glsl.Compile returns exactly
//     what the original returns for each program; -verify runs only this step.
//  4. Writes DIR/overlay.json, which replaces the three files, deletes glsl/type.go and adds the
//     table.
//
// Upgrading ebiten: change wantVersion, run it; where it fails, read the new versions of the
// files it names and adapt gen.go (docs/shaderpack.md).
package main

import (
	_ "embed"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// childPkg is the package shaderpack adds to the copy of ebiten for its children.
const childPkg = "redscopeshaderpack"

var (
	//go:embed gen.go
	genSource string
	//go:embed child_table.go
	childTableSource string
	//go:embed child_gen.go
	childGenSource string
	//go:embed child_verify.go
	childVerifySource string
)

func main() {
	out := flag.String("out", "", "the build directory to write (required)")
	verifyOnly := flag.Bool("verify", false, "only verify the files generated in -out before")
	flag.Parse()
	if *out == "" || flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: shaderpack -out DIR [-verify]")
		os.Exit(2)
	}
	if err := run(*out, *verifyOnly); err != nil {
		fail(err)
	}
}

func run(out string, verifyOnly bool) error {
	out, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	gomod, err := goOutput("", "env", "GOMOD")
	if err != nil || gomod == "" || gomod == os.DevNull {
		return fmt.Errorf("run it inside the redscope module (go env GOMOD: %q, %v)", gomod, err)
	}
	root := filepath.Dir(gomod)
	copyDir := filepath.Join(out, "ebiten")
	work := filepath.Join(out, "go.work")
	if !verifyOnly {
		if err := prepare(root, copyDir, work); err != nil {
			return err
		}
		if err := runChild(root, out, copyDir, work, childGenSource, nil); err != nil {
			return err
		}
	}
	gen := filepath.Join(out, "gen")
	if err := runChild(root, out, copyDir, work, childVerifySource, map[string]string{
		filepath.Join(copyDir, addedPrograms): filepath.Join(gen, genPrograms),
		filepath.Join(copyDir, checkedGLSL):   filepath.Join(gen, genGLSL),
	}); err != nil {
		return err
	}
	return writeOverlay(filepath.Join(out, "overlay.json"), map[string]string{
		filepath.Join(copyDir, origBuiltinShader):  filepath.Join(gen, genBuiltinShader),
		filepath.Join(copyDir, origGraphicsShader): filepath.Join(gen, genGraphicsShader),
		filepath.Join(copyDir, addedPrograms):      filepath.Join(gen, genPrograms),
		filepath.Join(copyDir, origGLSL):           filepath.Join(gen, genGLSL),
		filepath.Join(copyDir, origGLSLType):       "", // deleted: the generated glsl.go is the whole package
	})
}

// prepare checks the ebiten version, copies the module and writes the workspace DIR/go.work.
func prepare(root, copyDir, work string) error {
	var mod struct{ Version, Dir, Error string }
	js, err := goOutput(root, "mod", "download", "-json", ebitenModule)
	if err == nil {
		err = json.Unmarshal([]byte(js), &mod)
	}
	if err != nil || mod.Error != "" || mod.Dir == "" {
		return fmt.Errorf("go mod download %s: %v %s", ebitenModule, err, mod.Error)
	}
	if mod.Version != wantVersion {
		return fmt.Errorf("go.mod requires %s %s, and shaderpack was written for %s: read the new internal/builtinshader/shader.go and internal/graphics/shader.go, adapt scripts/shaderpack/gen.go if they changed, then set wantVersion (docs/shaderpack.md)", ebitenModule, mod.Version, wantVersion)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return err
	}
	if strings.Contains(string(gomod), "replace") {
		return fmt.Errorf("go.mod has a replace directive: shaderpack adds its own and does not merge them")
	}
	if err := os.RemoveAll(copyDir); err != nil {
		return err
	}
	if err := copyTree(mod.Dir, copyDir); err != nil {
		return err
	}
	goVersion := ""
	for _, line := range strings.Split(string(gomod), "\n") {
		if v, ok := strings.CutPrefix(line, "go "); ok {
			goVersion = strings.TrimSpace(v)
		}
	}
	if goVersion == "" {
		return fmt.Errorf("go.mod has no go line")
	}
	return os.WriteFile(work, []byte(fmt.Sprintf("// Written by redscope's scripts/shaderpack: the repository and a copy of %s@%s.\ngo %s\n\nuse %s\n\nuse %s\n", ebitenModule, wantVersion, goVersion, root, copyDir)), 0o644)
}

// copyTree copies the module directory from (read-only in the module cache) to to, without its
// examples (not a dependency of anything, 12 MB of the 21).
func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if rel == "examples" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		src, err := os.Open(p)
		if err != nil {
			return err
		}
		defer src.Close()
		dst, err := os.OpenFile(filepath.Join(to, rel), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			return err
		}
		if _, err := io.Copy(dst, src); err != nil {
			dst.Close()
			return err
		}
		return dst.Close()
	})
}

// runChild builds and runs, natively, the package childPkg made of gen.go, child_table.go and
// main (child_gen.go or child_verify.go) inside the copy of ebiten, with extra overlaid files.
func runChild(root, out, copyDir, work, main string, extra map[string]string) error {
	srcDir := filepath.Join(out, "child")
	if err := os.MkdirAll(srcDir, 0o755); err != nil {
		return err
	}
	pkgDir := filepath.Join(copyDir, childPkg)
	replace := map[string]string{}
	for name, text := range map[string]string{"gen.go": genSource, "table.go": childTableSource, "main.go": main} {
		text = strings.Replace(text, "//go:build ignore\n", "", 1)
		p := filepath.Join(srcDir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			return err
		}
		replace[filepath.Join(pkgDir, name)] = p
	}
	for k, v := range extra {
		replace[k] = v
	}
	overlay := filepath.Join(srcDir, "overlay.json")
	if err := writeOverlay(overlay, replace); err != nil {
		return err
	}
	cmd := exec.Command("go", "run", "-trimpath", "-overlay="+overlay, ebitenModule+"/"+childPkg, "-ebiten", copyDir, "-out", out)
	cmd.Dir = root
	cmd.Env = append(nativeEnv(), "CGO_ENABLED=0", "GOWORK="+work)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %v", strings.Join(cmd.Args, " "), err)
	}
	return nil
}

func writeOverlay(path string, replace map[string]string) error {
	b, err := json.MarshalIndent(map[string]any{"Replace": replace}, "", "\t")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// nativeEnv is the environment without GOOS, GOARCH, GOFLAGS, CGO_ENABLED and with GOWORK=off:
// the go commands of shaderpack run on this machine, in the repository's module alone, whatever
// the caller builds for.
func nativeEnv() []string {
	env := []string{"GOWORK=off"}
	for _, e := range os.Environ() {
		k, _, _ := strings.Cut(e, "=")
		switch k {
		case "GOOS", "GOARCH", "GOFLAGS", "CGO_ENABLED", "GOWORK":
		default:
			env = append(env, e)
		}
	}
	return env
}

func goOutput(dir string, args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = nativeEnv()
	cmd.Stderr = os.Stderr
	b, err := cmd.Output()
	return strings.TrimSpace(string(b)), err
}
