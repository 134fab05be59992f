// The part of shaderpack that runs inside the scratch copy of ebiten (child_gen.go and
// child_verify.go call it there; see main.go): it rewrites ebiten's three files, prints the
// compiled programs as Go composite literals and their GLSL as string constants, and checks the
// generated files against the compiler and the GLSL back end.
// It imports only the standard library, so it also builds, and is vetted, as part of the driver.

package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/constant"
	"go/format"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The module and the one version of it that shaderpack was written for (checked by main.go).
const (
	ebitenModule = "github.com/hajimehoshi/ebiten/v2"
	wantVersion  = "v2.8.8"
)

// The generated files, in the -out directory's gen/ folder, and the ebiten files they stand for.
const (
	genBuiltinShader  = "builtinshader_shader.go"
	genGraphicsShader = "graphics_shader.go"
	genPrograms       = "graphics_shaderpack.go"

	origBuiltinShader  = "internal/builtinshader/shader.go"
	origGraphicsShader = "internal/graphics/shader.go"
	addedPrograms      = "internal/graphics/shaderpack_programs.go"
)

// The GLSL back end: the package's two files are replaced by one generated file (genGLSL, in
// place of glsl.go; type.go is deleted by the overlay). The verifying child reads the generated
// file as the package checkedGLSL beside the original one.
const (
	genGLSL      = "glsl_glsl.go"
	glslPkg      = "internal/shaderir/glsl"
	origGLSL     = glslPkg + "/glsl.go"
	origGLSLType = glslPkg + "/type.go"
	checkedGLSL  = "internal/shaderir/redscopeglsl/glsl.go"

	// The files that say which GLSL version the browser build asks for.
	origGLContext   = "internal/graphicsdriver/opengl/context.go"
	origGLDefaultJS = "internal/graphicsdriver/opengl/gl/default_js.go"
)

// errNoGLSL is what the generated glsl.Compile panics with for a program or a version it has no
// precompiled GLSL for (none in redscope: CompileShader refuses other sources, and WebGL asks
// for GLSL ES 3.00 only).
const errNoGLSL = "this build of ebiten has only the GLSL ES 3.00 of its built-in shaders, precompiled by redscope's scripts/shaderpack: it cannot translate other programs or versions to GLSL at run time"

// errNotBuiltin is what the rewritten CompileShader answers for a source that is not one of
// the built-in shaders (a custom Kage shader: redscope has none).
const errNotBuiltin = "this build of ebiten has only its built-in shaders, precompiled by redscope's scripts/shaderpack: it cannot compile other Kage sources at run time"

// childFlags are the flags the driver passes to a child.
func childFlags() (ebitenDir, outDir string) {
	flag.StringVar(&ebitenDir, "ebiten", "", "the pristine copy of the ebiten module")
	flag.StringVar(&outDir, "out", "", "the shaderpack directory")
	flag.Parse()
	if ebitenDir == "" || outDir == "" {
		fail(fmt.Errorf("the child needs -ebiten and -out"))
	}
	return ebitenDir, outDir
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "shaderpack:", err)
	os.Exit(1)
}

// genMain writes the four generated files: table holds ShaderSource(filter, address, useColorM)
// as table[filter][address][0 or 1]; srcs are all the built-in sources (AppendShaderSources),
// compile is ebiten's own graphics.CompileShader and glslES300 its glsl.Compile of a program
// for GLSLVersionES300.
func genMain(table [][][]string, srcs [][]byte, compile func([]byte) (any, error), glslES300 func(prog any) (vs, fs string)) {
	ebitenDir, outDir := childFlags()
	read := func(rel string) []byte {
		b, err := os.ReadFile(filepath.Join(ebitenDir, rel))
		if err != nil {
			fail(err)
		}
		return b
	}
	bs, err := rewriteBuiltinShader(read(origBuiltinShader), table)
	if err != nil {
		fail(fmt.Errorf("%s: %v", origBuiltinShader, err))
	}
	gs, err := rewriteGraphicsShader(read(origGraphicsShader))
	if err != nil {
		fail(fmt.Errorf("%s: %v", origGraphicsShader, err))
	}
	if err := checkUnreferenced(filepath.Join(ebitenDir, filepath.Dir(origGraphicsShader)), filepath.Base(origGraphicsShader), "shaderSuffix", "completeShaderSource"); err != nil {
		fail(err)
	}
	progs := make([]any, len(srcs))
	for i, s := range srcs {
		if progs[i], err = compile(s); err != nil {
			fail(fmt.Errorf("compiling built-in shader %d: %v", i, err))
		}
	}
	pf, err := programsFile(srcs, progs)
	if err != nil {
		fail(err)
	}
	if err := checkGLSLUse(ebitenDir, read(origGLContext), read(origGLDefaultJS)); err != nil {
		fail(err)
	}
	hashes := make([][16]byte, len(progs))
	vss, fss := make([]string, len(progs)), make([]string, len(progs))
	for i, prog := range progs {
		if hashes[i], err = sourceHash(prog); err != nil {
			fail(err)
		}
		vss[i], fss[i] = glslES300(prog)
	}
	gl, err := rewriteGLSL(read(origGLSL), hashes, vss, fss)
	if err != nil {
		fail(fmt.Errorf("%s: %v", origGLSL, err))
	}
	dir := filepath.Join(outDir, "gen")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fail(err)
	}
	for name, b := range map[string][]byte{genBuiltinShader: bs, genGraphicsShader: gs, genPrograms: pf, genGLSL: gl} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			fail(err)
		}
	}
}

// verifyMain checks the generated files against ebiten's own code: every built-in source
// compiled by graphics.CompileShader must be reflect.DeepEqual to the generated table's
// program (precompiled), a source that is not built in must have none, and the rewritten
// ShaderSource's table must hold exactly what the original ShaderSource returns. For the GLSL,
// glslES300 is ebiten's glsl.Compile for GLSLVersionES300 and packed the generated Compile (for
// GLSLVersionES300 or, es300 false, GLSLVersionDefault): packed must return exactly what
// glslES300 does for every compiled program, and panic, naming shaderpack, for the other version
// and for a program that is not built in.
func verifyMain(table [][][]string, srcs [][]byte, compile func([]byte) (any, error), precompiled func([]byte) any, glslES300 func(prog any) (vs, fs string), packed func(prog any, es300 bool) (vs, fs string)) {
	_, outDir := childFlags()
	var bad []string
	for i, s := range srcs {
		want, err := compile(s)
		if err != nil {
			fail(fmt.Errorf("compiling built-in shader %d: %v", i, err))
		}
		bad = append(bad, verifyGLSL(i, want, glslES300, packed)...)
		got := precompiled(s)
		if got == nil {
			bad = append(bad, fmt.Sprintf("built-in shader %d has no precompiled program", i))
			continue
		}
		if !reflect.DeepEqual(got, want) {
			bad = append(bad, fmt.Sprintf("built-in shader %d: the precompiled program differs from the compiler's at %s", i, firstDiff(reflect.ValueOf(got), reflect.ValueOf(want), "Program")))
		}
	}
	other := []byte("//kage:unit pixels\n\npackage main\n\nfunc Fragment() vec4 {\n\treturn vec4(1)\n}\n")
	if precompiled(other) != nil {
		bad = append(bad, "a source that is not built in has a precompiled program")
	}
	b, err := os.ReadFile(filepath.Join(outDir, "gen", genBuiltinShader))
	if err != nil {
		fail(err)
	}
	got, err := readSourceTable(b)
	if err != nil {
		fail(fmt.Errorf("%s: %v", genBuiltinShader, err))
	}
	if !reflect.DeepEqual(got, table) {
		bad = append(bad, genBuiltinShader+": the sources table differs from what ShaderSource returns")
	}
	if len(bad) > 0 {
		fail(fmt.Errorf("the generated files do not match ebiten's compiler:\n  %s", strings.Join(bad, "\n  ")))
	}
	fmt.Fprintf(os.Stderr, "shaderpack: %d precompiled programs equal the compiler's, %d sources equal ShaderSource's, %d programs' precompiled GLSL ES 3.00 equals glsl.Compile's\n", len(srcs), 2*len(table)*len(table[0]), len(srcs))
}

// verifyGLSL checks the generated glsl.Compile (packed) for the compiler's program prog of
// built-in shader i, and returns what is wrong.
func verifyGLSL(i int, prog any, glslES300 func(prog any) (vs, fs string), packed func(prog any, es300 bool) (vs, fs string)) []string {
	var bad []string
	wantVS, wantFS := glslES300(prog)
	var gotVS, gotFS string
	if msg := panicked(func() { gotVS, gotFS = packed(prog, true) }); msg != "" {
		return []string{fmt.Sprintf("built-in shader %d has no precompiled GLSL: %s", i, msg)}
	}
	for _, c := range []struct{ kind, got, want string }{{"vertex", gotVS, wantVS}, {"fragment", gotFS, wantFS}} {
		if c.got != c.want {
			bad = append(bad, fmt.Sprintf("built-in shader %d: the precompiled GLSL of its %s shader differs from glsl.Compile's at %s", i, c.kind, firstLineDiff(c.got, c.want)))
		}
	}
	if msg := panicked(func() { packed(prog, false) }); !strings.Contains(msg, "scripts/shaderpack") {
		bad = append(bad, fmt.Sprintf("built-in shader %d: the generated glsl.Compile for GLSLVersionDefault does not panic naming shaderpack (%q)", i, msg))
	}
	// The same program with another source hash: not one of the built-in shaders.
	other := reflect.New(reflect.TypeOf(prog).Elem())
	other.Elem().Set(reflect.ValueOf(prog).Elem())
	h := other.Elem().FieldByName("SourceHash")
	h.Index(0).SetUint(h.Index(0).Uint() ^ 0xff)
	if msg := panicked(func() { packed(other.Interface(), true) }); !strings.Contains(msg, "scripts/shaderpack") {
		bad = append(bad, fmt.Sprintf("built-in shader %d with another source hash: the generated glsl.Compile does not panic naming shaderpack (%q)", i, msg))
	}
	return bad
}

// panicked runs f and returns what it panicked with, as text ("" when it returns).
func panicked(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
			if msg == "" {
				msg = "(empty panic)"
			}
		}
	}()
	f()
	return ""
}

// firstLineDiff names the first line where two texts differ (for the error message).
func firstLineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl || i >= len(g) || i >= len(w) {
			return fmt.Sprintf("line %d (%q, want %q)", i+1, gl, wl)
		}
	}
	return "(equal)"
}

// firstDiff names the first place where a and b differ (for the error message).
func firstDiff(a, b reflect.Value, path string) string {
	if a.IsValid() != b.IsValid() || (a.IsValid() && a.Type() != b.Type()) {
		return path + " (type)"
	}
	if !a.IsValid() {
		return ""
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return path + " (nil)"
			}
			return ""
		}
		return firstDiff(a.Elem(), b.Elem(), path)
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if d := firstDiff(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() || (a.Kind() == reflect.Slice && a.IsNil() != b.IsNil()) {
			return path + " (length)"
		}
		for i := 0; i < a.Len(); i++ {
			if d := firstDiff(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
		return ""
	}
	if a.CanInterface() && b.CanInterface() && !reflect.DeepEqual(a.Interface(), b.Interface()) {
		return fmt.Sprintf("%s (%v, want %v)", path, a, b)
	}
	if !a.CanInterface() && fmt.Sprint(a) != fmt.Sprint(b) {
		return fmt.Sprintf("%s (%v, want %v)", path, a, b)
	}
	return ""
}

// edit replaces src[start:end] with text.
type edit struct {
	start, end int
	text       string
}

// apply applies non-overlapping edits, formats the result, and drops the imports it no
// longer uses.
func apply(src []byte, edits []edit, header string) ([]byte, error) {
	sort.Slice(edits, func(i, j int) bool { return edits[i].start > edits[j].start })
	out := append([]byte(nil), src...)
	for i, e := range edits {
		if i > 0 && e.end > edits[i-1].start {
			return nil, fmt.Errorf("overlapping edits")
		}
		out = append(out[:e.start:e.start], append([]byte(e.text), out[e.end:]...)...)
	}
	out, err := pruneImports(append([]byte(header), out...))
	if err != nil {
		return nil, err
	}
	return format.Source(out)
}

// pruneImports removes the import specs whose package name no selector uses.
func pruneImports(src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments)
	if err != nil {
		return nil, fmt.Errorf("the rewritten file does not parse: %v", err)
	}
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := s.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	var edits []edit
	for _, d := range f.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		var drop []edit
		for _, s := range gd.Specs {
			imp := s.(*ast.ImportSpec)
			p, _ := strconv.Unquote(imp.Path.Value)
			name := p[strings.LastIndex(p, "/")+1:]
			if imp.Name != nil {
				name = imp.Name.Name
			}
			if !used[name] && name != "_" {
				drop = append(drop, edit{off(fset, imp.Pos()), off(fset, imp.End()), ""})
			}
		}
		if len(drop) == len(gd.Specs) {
			drop = []edit{{off(fset, gd.Pos()), off(fset, gd.End()), ""}}
		}
		edits = append(edits, drop...)
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].start > edits[j].start })
	for _, e := range edits {
		src = append(src[:e.start:e.start], src[e.end:]...)
	}
	return src, nil
}

// decls parses a Go file and indexes its top-level functions and value specs by name.
func decls(src []byte) (*token.FileSet, *ast.File, map[string]*ast.FuncDecl, map[string]*ast.GenDecl, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.ParseComments)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	funcs := map[string]*ast.FuncDecl{}
	vars := map[string]*ast.GenDecl{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				funcs[d.Name.Name] = d
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				if vs, ok := s.(*ast.ValueSpec); ok {
					for _, n := range vs.Names {
						vars[n.Name] = d
					}
				}
			}
		}
	}
	return fset, f, funcs, vars, nil
}

// wantFunc checks that funcs has name with exactly the signature sig (as gofmt prints it).
func wantFunc(fset *token.FileSet, funcs map[string]*ast.FuncDecl, name, sig string) (*ast.FuncDecl, error) {
	fd := funcs[name]
	if fd == nil {
		return nil, fmt.Errorf("func %s is missing: the file is not the one shaderpack was written for", name)
	}
	var b bytes.Buffer
	printer.Fprint(&b, fset, fd.Type)
	if got := strings.TrimPrefix(b.String(), "func"); got != sig {
		return nil, fmt.Errorf("func %s%s, shaderpack expects func %s%s: the file is not the one shaderpack was written for", name, got, name, sig)
	}
	return fd, nil
}

func off(fset *token.FileSet, p token.Pos) int { return fset.Position(p).Offset }

// declStart is where a declaration starts, its doc comment included.
func declStart(fset *token.FileSet, d ast.Decl) int {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Doc != nil {
			return off(fset, d.Doc.Pos())
		}
	case *ast.GenDecl:
		if d.Doc != nil {
			return off(fset, d.Doc.Pos())
		}
	}
	return off(fset, d.Pos())
}

func header(orig string) string {
	return "// Code generated by redscope's scripts/shaderpack from github.com/hajimehoshi/ebiten/v2@" + wantVersion + "'s\n" +
		"// " + orig + " (see redscope's docs/shaderpack.md); DO NOT EDIT. It exists only in a build directory.\n\n"
}

// rewriteBuiltinShader turns internal/builtinshader/shader.go into a file without text/template:
// ShaderSource returns the sources from a table instead of executing the template.
func rewriteBuiltinShader(src []byte, table [][][]string) ([]byte, error) {
	fset, _, funcs, vars, err := decls(src)
	if err != nil {
		return nil, err
	}
	fd, err := wantFunc(fset, funcs, "ShaderSource", "(filter Filter, address Address, useColorM bool) []byte")
	if err != nil {
		return nil, err
	}
	tmpl := vars["tmpl"]
	if tmpl == nil || len(tmpl.Specs) != 1 {
		return nil, fmt.Errorf("var tmpl is missing or not alone in its declaration: the file is not the one shaderpack was written for")
	}
	cache := vars["shaders"]
	if cache == nil || cache != vars["shadersM"] || len(cache.Specs) != 2 {
		return nil, fmt.Errorf("the var block of shaders and shadersM is missing or holds more: the file is not the one shaderpack was written for")
	}
	var t strings.Builder
	t.WriteString("// shaders holds what the template made of each ShaderSource(filter, address, useColorM),\n")
	t.WriteString("// computed when this file was generated.\nvar shaders = [FilterCount][AddressCount][2][]byte{\n")
	for _, byAddress := range table {
		t.WriteString("{\n")
		for _, byColorM := range byAddress {
			t.WriteString("{\n")
			for _, s := range byColorM {
				t.WriteString("[]byte(" + strconv.Quote(s) + "),\n")
			}
			t.WriteString("},\n")
		}
		t.WriteString("},\n")
	}
	t.WriteString("}")
	body := `{
	var c int
	if useColorM {
		c = 1
	}
	return shaders[filter][address][c]
}`
	return apply(src, []edit{
		{declStart(fset, tmpl), off(fset, tmpl.End()), ""},
		{declStart(fset, cache), off(fset, cache.End()), t.String()},
		{off(fset, fd.Body.Pos()), off(fset, fd.Body.End()), body},
	}, header(origBuiltinShader))
}

// readSourceTable reads the shaders table back from a rewritten builtinshader file.
func readSourceTable(src []byte) ([][][]string, error) {
	_, _, _, vars, err := decls(src)
	if err != nil {
		return nil, err
	}
	d := vars["shaders"]
	if d == nil {
		return nil, fmt.Errorf("no shaders table")
	}
	var walk func(e ast.Expr, depth int) (any, error)
	walk = func(e ast.Expr, depth int) (any, error) {
		if depth == 3 {
			call, ok := e.(*ast.CallExpr)
			if !ok || len(call.Args) != 1 {
				return nil, fmt.Errorf("unexpected table entry")
			}
			lit, ok := call.Args[0].(*ast.BasicLit)
			if !ok {
				return nil, fmt.Errorf("unexpected table entry")
			}
			return strconv.Unquote(lit.Value)
		}
		cl, ok := e.(*ast.CompositeLit)
		if !ok {
			return nil, fmt.Errorf("unexpected table level")
		}
		var out []any
		for _, el := range cl.Elts {
			v, err := walk(el, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	}
	v, err := walk(d.Specs[0].(*ast.ValueSpec).Values[0], 0)
	if err != nil {
		return nil, err
	}
	var table [][][]string
	for _, a := range v.([]any) {
		var byAddress [][]string
		for _, b := range a.([]any) {
			var byColorM []string
			for _, s := range b.([]any) {
				byColorM = append(byColorM, s.(string))
			}
			byAddress = append(byAddress, byColorM)
		}
		table = append(table, byAddress)
	}
	return table, nil
}

// rewriteGraphicsShader turns internal/graphics/shader.go into a file without the Kage compiler
// (internal/shader, and with it go/parser, go/ast, go/scanner): CompileShader returns the
// precompiled program of a built-in source, and an error for any other source.
func rewriteGraphicsShader(src []byte) ([]byte, error) {
	fset, f, funcs, vars, err := decls(src)
	if err != nil {
		return nil, err
	}
	want := []struct{ name, sig string }{
		{"shaderSuffix", "(unit shaderir.Unit) (string, error)"},
		{"completeShaderSource", "(fragmentSrc []byte) ([]byte, error)"},
		{"CompileShader", "(fragmentSrc []byte) (*shaderir.Program, error)"},
		{"CalcSourceHash", "(fragmentSrc []byte) (shaderir.SourceHash, error)"},
	}
	if len(funcs) != len(want) || len(vars) != 0 || len(f.Decls) != len(want)+1 {
		var names []string
		for _, w := range want {
			names = append(names, w.name)
		}
		return nil, fmt.Errorf("the file has %d funcs in %d declarations, shaderpack expects one import and the funcs %s: the file is not the one shaderpack was written for", len(funcs), len(f.Decls), strings.Join(names, ", "))
	}
	fds := map[string]*ast.FuncDecl{}
	for _, w := range want {
		if fds[w.name], err = wantFunc(fset, funcs, w.name, w.sig); err != nil {
			return nil, err
		}
	}
	compile := `{
	p := PrecompiledProgram(fragmentSrc)
	if p == nil {
		return nil, fmt.Errorf("graphics: %s", ` + strconv.Quote(errNotBuiltin) + `)
	}
	// A new Program for each call, as the compiler gives; what it points to is only read.
	ir := *p
	return &ir, nil
}`
	hash := `{
	// The hash the compiler records: that of the source completed with the shader suffix.
	ir, err := CompileShader(fragmentSrc)
	if err != nil {
		return shaderir.SourceHash{}, err
	}
	return ir.SourceHash, nil
}`
	return apply(src, []edit{
		{declStart(fset, fds["shaderSuffix"]), off(fset, fds["shaderSuffix"].End()), ""},
		{declStart(fset, fds["completeShaderSource"]), off(fset, fds["completeShaderSource"].End()), ""},
		{off(fset, fds["CompileShader"].Body.Pos()), off(fset, fds["CompileShader"].Body.End()), compile},
		{off(fset, fds["CalcSourceHash"].Body.Pos()), off(fset, fds["CalcSourceHash"].Body.End()), hash},
	}, header(origGraphicsShader))
}

// checkUnreferenced fails when a file of dir other than skip (tests excluded) names one of ids.
func checkUnreferenced(dir, skip string, ids ...string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		n := e.Name()
		if n == skip || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, n), nil, 0)
		if err != nil {
			return err
		}
		var found error
		ast.Inspect(f, func(x ast.Node) bool {
			if id, ok := x.(*ast.Ident); ok && found == nil {
				for _, w := range ids {
					if id.Name == w {
						found = fmt.Errorf("%s uses %s, which the rewritten %s drops", n, w, skip)
					}
				}
			}
			return true
		})
		if found != nil {
			return found
		}
	}
	return nil
}

// programsFile prints the compiled programs as package graphics's PrecompiledProgram.
func programsFile(srcs [][]byte, progs []any) ([]byte, error) {
	p := &literal{consts: map[string]string{}, blocks: map[string]string{}}
	var body strings.Builder
	for i, prog := range progs {
		s, err := p.value(reflect.ValueOf(prog))
		if err != nil {
			return nil, fmt.Errorf("built-in shader %d: %v", i, err)
		}
		fmt.Fprintf(&body, "\nvar precompiled%d = %s\n", i, s)
	}
	var b strings.Builder
	b.WriteString("// Code generated by redscope's scripts/shaderpack from the built-in shaders of\n")
	b.WriteString("// github.com/hajimehoshi/ebiten/v2@" + wantVersion + " (see redscope's docs/shaderpack.md); DO NOT EDIT.\n")
	b.WriteString("// It exists only in a build directory.\n\npackage graphics\n\nimport (\n\t\"go/constant\"\n")
	if p.token {
		b.WriteString("\t\"go/token\"\n")
	}
	b.WriteString("\n\t\"github.com/hajimehoshi/ebiten/v2/internal/shaderir\"\n)\n\n")
	b.WriteString("// PrecompiledProgram returns what CompileShader made of the built-in shader source src when\n")
	b.WriteString("// this file was generated, or nil when src is not a built-in shader source.\n")
	b.WriteString("func PrecompiledProgram(src []byte) *shaderir.Program {\n\tswitch string(src) {\n")
	for i, s := range srcs {
		fmt.Fprintf(&b, "\tcase %s:\n\t\treturn precompiled%d\n", strconv.Quote(string(s)), i)
	}
	b.WriteString("\t}\n\treturn nil\n}\n\n// The constants of the programs (go/constant values are immutable: they are shared).\n")
	writeVars(&b, p.consts, "")
	b.WriteString("\n// The blocks of the programs' functions, each distinct one once (they are only read).\n")
	writeVars(&b, p.blocks, "&")
	b.WriteString(body.String())
	return format.Source([]byte(b.String()))
}

// writeVars writes a var block declaring, for each expression → name of m, name = prefix+expression,
// sorted by name so that the file is the same from run to run.
func writeVars(b *strings.Builder, m map[string]string, prefix string) {
	lines := make([]string, 0, len(m))
	for expr, name := range m {
		lines = append(lines, name+" = "+prefix+expr)
	}
	sort.Strings(lines)
	b.WriteString("var (\n")
	for _, l := range lines {
		b.WriteString("\t" + l + "\n")
	}
	b.WriteString(")\n")
}

// literal prints values of shaderir's types as Go composite literals.
type literal struct {
	consts map[string]string // constant expression → the name of its var
	blocks map[string]string // a Block's literal → the name of its var (a *shaderir.Block)
	token  bool              // go/token is used
}

func (p *literal) typeName(t reflect.Type) (string, error) {
	switch t.Kind() {
	case reflect.Pointer:
		s, err := p.typeName(t.Elem())
		return "*" + s, err
	case reflect.Slice:
		s, err := p.typeName(t.Elem())
		return "[]" + s, err
	}
	if t.PkgPath() == "" {
		return t.String(), nil
	}
	if !strings.HasSuffix(t.PkgPath(), "/internal/shaderir") {
		return "", fmt.Errorf("a value of type %s, which shaderpack cannot print", t)
	}
	return "shaderir." + t.Name(), nil
}

func (p *literal) value(v reflect.Value) (string, error) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return "nil", nil
		}
		s, err := p.value(v.Elem())
		if err != nil || v.Type().Elem().Name() != "Block" {
			return "&" + s, err
		}
		// The programs share most of their blocks (the functions of the shader suffix):
		// each distinct block is one var, which every program that has it points to.
		name, ok := p.blocks[s]
		if !ok {
			name = fmt.Sprintf("block%d", len(p.blocks))
			p.blocks[s] = name
		}
		return name, nil
	case reflect.Struct:
		tn, err := p.typeName(v.Type())
		if err != nil {
			return "", err
		}
		var fields []string
		for i := 0; i < v.NumField(); i++ {
			f := v.Field(i)
			if f.IsZero() {
				continue
			}
			sf := v.Type().Field(i)
			if !sf.IsExported() {
				return "", fmt.Errorf("%s.%s is set, and shaderpack cannot set an unexported field", tn, sf.Name)
			}
			s, err := p.value(f)
			if err != nil {
				return "", err
			}
			fields = append(fields, sf.Name+": "+s)
		}
		return tn + "{" + strings.Join(fields, ", ") + "}", nil
	case reflect.Slice, reflect.Array:
		tn, err := p.typeName(v.Type())
		if err != nil {
			return "", err
		}
		if v.Kind() == reflect.Slice && v.IsNil() {
			return "nil", nil
		}
		var elems []string
		for i := 0; i < v.Len(); i++ {
			s, err := p.value(v.Index(i))
			if err != nil {
				return "", err
			}
			elems = append(elems, s)
		}
		return tn + "{" + strings.Join(elems, ", ") + "}", nil
	case reflect.Interface:
		if v.IsNil() {
			return "nil", nil
		}
		c, ok := v.Interface().(constant.Value)
		if !ok {
			return "", fmt.Errorf("an interface holding %T, which shaderpack cannot print", v.Interface())
		}
		return p.constant(c)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.FormatUint(v.Uint(), 10), nil
	case reflect.Bool:
		return strconv.FormatBool(v.Bool()), nil
	case reflect.String:
		return strconv.Quote(v.String()), nil
	}
	return "", fmt.Errorf("a value of kind %s, which shaderpack cannot print", v.Kind())
}

// constant prints c as a call that makes a value of the same representation inside go/constant
// (the same dynamic type and, through the same function, the same big.Rat), so that the table's
// programs are reflect.DeepEqual to the compiler's: int64Val through MakeInt64, ratVal as the
// compiler makes it (ToFloat of an int64Val for an integer, a quotient of two int64Vals for a
// fraction), boolVal through MakeBool. Any other representation fails loudly.
func (p *literal) constant(c constant.Value) (string, error) {
	rep := reflect.TypeOf(c).Name()
	var expr string
	switch {
	case rep == "int64Val":
		i, _ := constant.Int64Val(c)
		expr = fmt.Sprintf("constant.MakeInt64(%d)", i)
	case rep == "boolVal":
		expr = fmt.Sprintf("constant.MakeBool(%t)", constant.BoolVal(c))
	case rep == "ratVal":
		num, ok1 := constant.Int64Val(constant.Num(c))
		den, ok2 := constant.Int64Val(constant.Denom(c))
		if !ok1 || !ok2 {
			return "", fmt.Errorf("the constant %s does not fit int64/int64", c.ExactString())
		}
		if den == 1 {
			expr = fmt.Sprintf("constant.ToFloat(constant.MakeInt64(%d))", num)
		} else {
			p.token = true
			expr = fmt.Sprintf("constant.BinaryOp(constant.MakeInt64(%d), token.QUO, constant.MakeInt64(%d))", num, den)
		}
	default:
		return "", fmt.Errorf("the constant %s is a go/constant %s, which shaderpack cannot print", c.ExactString(), rep)
	}
	name, ok := p.consts[expr]
	if !ok {
		name = fmt.Sprintf("const%d", len(p.consts))
		p.consts[expr] = name
	}
	return name, nil
}

// glslKept are the names of package glsl that the generated file keeps: all that ebiten's
// other packages use (checkGLSLUse).
var glslKept = []string{"GLSLVersion", "GLSLVersionDefault", "GLSLVersionES300", "Compile"}

// checkGLSLUse checks what the generated glsl package relies on: the package is glsl.go and
// type.go, no other package of ebiten uses a name of it outside glslKept, and the browser build
// only asks for GLSLVersionES300 (context.go's glslVersion returns it when IsES, and the js
// context's IsES returns true).
func checkGLSLUse(ebitenDir string, contextGo, defaultJSGo []byte) error {
	ents, err := os.ReadDir(filepath.Join(ebitenDir, glslPkg))
	if err != nil {
		return err
	}
	var files []string
	for _, e := range ents {
		if n := e.Name(); strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") {
			files = append(files, n)
		}
	}
	if strings.Join(files, " ") != "glsl.go type.go" {
		return fmt.Errorf("%s has the files %s, shaderpack expects glsl.go and type.go: the package is not the one shaderpack was written for", glslPkg, strings.Join(files, ", "))
	}
	kept := map[string]bool{}
	for _, n := range glslKept {
		kept[n] = true
	}
	importPath := ebitenModule + "/" + glslPkg
	err = filepath.WalkDir(ebitenDir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(ebitenDir, p)
		if d.IsDir() {
			if filepath.ToSlash(rel) == glslPkg {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if !bytes.Contains(src, []byte(strconv.Quote(importPath))) {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		name := ""
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); path == importPath {
				name = "glsl"
				if imp.Name != nil {
					name = imp.Name.Name
				}
			}
		}
		if name == "" {
			return nil
		}
		if name == "." || name == "_" {
			return fmt.Errorf("%s imports %s as %s, which shaderpack does not follow", rel, importPath, name)
		}
		var found error
		ast.Inspect(f, func(n ast.Node) bool {
			if s, ok := n.(*ast.SelectorExpr); ok && found == nil {
				if id, ok := s.X.(*ast.Ident); ok && id.Name == name && !kept[s.Sel.Name] {
					found = fmt.Errorf("%s uses glsl.%s, which the generated glsl package (only %s) does not have", filepath.ToSlash(rel), s.Sel.Name, strings.Join(glslKept, ", "))
				}
			}
			return true
		})
		return found
	})
	if err != nil {
		return err
	}
	if err := wantMethodBody(contextGo, "glslVersion", `{
	if c.ctx.IsES() {
		return glsl.GLSLVersionES300
	}
	return glsl.GLSLVersionDefault
}`); err != nil {
		return fmt.Errorf("%s: %v", origGLContext, err)
	}
	if err := wantMethodBody(defaultJSGo, "IsES", "{\n\treturn true\n}"); err != nil {
		return fmt.Errorf("%s: %v", origGLDefaultJS, err)
	}
	return nil
}

// wantMethodBody checks that src has exactly one method name, whose body is want (as gofmt
// prints it, without its comments: indentation, spacing within a line and empty lines (where a
// comment was) do not matter, the other line breaks do).
func wantMethodBody(src []byte, name, want string) error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", src, parser.SkipObjectResolution)
	if err != nil {
		return err
	}
	var bodies []string
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv != nil && fd.Name.Name == name && fd.Body != nil {
			var b bytes.Buffer
			printer.Fprint(&b, fset, fd.Body)
			bodies = append(bodies, b.String())
		}
	}
	if len(bodies) != 1 || normLines(bodies[0]) != normLines(want) {
		return fmt.Errorf("method %s is %q, shaderpack expects one with the body %q: the file is not the one shaderpack was written for", name, bodies, want)
	}
	return nil
}

// normLines is s without its empty lines, each other line's white space made one space: Go
// printed by go/printer, to compare without the indentation and alignment it chose.
func normLines(s string) string {
	var lines []string
	for _, l := range strings.Split(s, "\n") {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

// sourceHash is the SourceHash field of a *shaderir.Program.
func sourceHash(prog any) ([16]byte, error) {
	var h [16]byte
	v := reflect.ValueOf(prog)
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	f := v.FieldByName("SourceHash")
	if !f.IsValid() || f.Kind() != reflect.Array || f.Len() != len(h) || f.Type().Elem().Kind() != reflect.Uint8 {
		return h, fmt.Errorf("%T has no field SourceHash [16]byte, which shaderpack keys the GLSL by", prog)
	}
	for i := range h {
		h[i] = byte(f.Index(i).Uint())
	}
	return h, nil
}

// rewriteGLSL writes, from internal/shaderir/glsl/glsl.go, the generated package glsl: the
// declarations of GLSLVersion and its constants as they are, and Compile returning, for
// GLSLVersionES300, the sources vs[i] and fs[i] of the program whose SourceHash is hashes[i]
// (and panicking otherwise). Nothing else of the GLSL back end stays, nor regexp.
func rewriteGLSL(src []byte, hashes [][16]byte, vs, fs []string) ([]byte, error) {
	fset, f, funcs, vars, err := decls(src)
	if err != nil {
		return nil, err
	}
	if f.Name.Name != "glsl" {
		return nil, fmt.Errorf("package %s, shaderpack expects package glsl", f.Name.Name)
	}
	const compileSig = "(p *shaderir.Program, version GLSLVersion) (vertexShader, fragmentShader string)"
	if _, err := wantFunc(fset, funcs, "Compile", compileSig); err != nil {
		return nil, err
	}
	print := func(n ast.Node) string {
		var b bytes.Buffer
		printer.Fprint(&b, fset, n)
		return b.String()
	}
	var typeDecl *ast.GenDecl
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.TYPE {
			for _, s := range gd.Specs {
				if s.(*ast.TypeSpec).Name.Name == "GLSLVersion" {
					typeDecl = gd
				}
			}
		}
	}
	if typeDecl == nil || normLines(print(typeDecl)) != "type GLSLVersion int" {
		return nil, fmt.Errorf("no declaration type GLSLVersion int alone: the file is not the one shaderpack was written for")
	}
	constDecl := vars["GLSLVersionDefault"]
	if constDecl == nil || constDecl != vars["GLSLVersionES300"] || normLines(print(constDecl)) != "const (\nGLSLVersionDefault GLSLVersion = iota\nGLSLVersionES300\n)" {
		return nil, fmt.Errorf("no const block of GLSLVersionDefault = iota and GLSLVersionES300 alone: the file is not the one shaderpack was written for")
	}
	if len(hashes) != len(vs) || len(hashes) != len(fs) {
		return nil, fmt.Errorf("%d hashes for %d vertex and %d fragment shaders", len(hashes), len(vs), len(fs))
	}
	seen := map[[16]byte]int{}
	for i, h := range hashes {
		if h == ([16]byte{}) {
			return nil, fmt.Errorf("built-in shader %d has no source hash", i)
		}
		if j, ok := seen[h]; ok {
			return nil, fmt.Errorf("built-in shaders %d and %d have the same source hash %x: it cannot key their GLSL", j, i, h)
		}
		seen[h] = i
	}

	var b strings.Builder
	b.WriteString(header(origGLSL + " and type.go"))
	b.WriteString("// Package glsl, in this build, holds the GLSL that ebiten's GLSL back end made of the built-in\n")
	b.WriteString("// shaders' programs when this file was generated: the back end itself (and regexp) is not linked.\n")
	b.WriteString("package glsl\n\nimport (\n\t\"fmt\"\n\n\t\"github.com/hajimehoshi/ebiten/v2/internal/shaderir\"\n)\n\n")
	b.Write(src[declStart(fset, typeDecl):off(fset, typeDecl.End())])
	b.WriteString("\n\n")
	b.Write(src[declStart(fset, constDecl):off(fset, constDecl.End())])
	b.WriteString("\n\n// Compile returns what the original Compile returned for p and version when this file was\n")
	b.WriteString("// generated, for GLSLVersionES300 (all that WebGL asks for) and the built-in shaders' programs,\n")
	b.WriteString("// told apart by their SourceHash. It panics for anything else.\n")
	b.WriteString("func Compile" + compileSig + " {\n\tif version == GLSLVersionES300 {\n\t\tswitch p.SourceHash {\n")
	names := map[string]string{} // a source → the name of its const
	name := func(s string) string {
		n, ok := names[s]
		if !ok {
			n = fmt.Sprintf("source%d", len(names))
			names[s] = n
		}
		return n
	}
	for i, h := range hashes {
		var bs []string
		for _, c := range h {
			bs = append(bs, fmt.Sprintf("0x%02x", c))
		}
		fmt.Fprintf(&b, "\t\tcase shaderir.SourceHash{%s}: // built-in shader %d\n\t\t\treturn %s, %s\n", strings.Join(bs, ", "), i, name(vs[i]), name(fs[i]))
	}
	fmt.Fprintf(&b, "\t\t}\n\t}\n\tpanic(fmt.Sprintf(\"glsl: %%s (version %%d, source hash %%s)\", %s, version, p.SourceHash))\n}\n\n", strconv.Quote(errNoGLSL))
	b.WriteString("// The GLSL sources (each distinct one once).\nconst (\n")
	lines := make([]string, 0, len(names))
	for s, n := range names {
		lit := strconv.Quote(s)
		if !strings.ContainsAny(s, "`\r") && utf8.ValidString(s) {
			lit = "`" + s + "`"
		}
		lines = append(lines, n+" = "+lit)
	}
	sort.Slice(lines, func(i, j int) bool {
		ni, _ := strconv.Atoi(strings.TrimPrefix(strings.Fields(lines[i])[0], "source"))
		nj, _ := strconv.Atoi(strings.TrimPrefix(strings.Fields(lines[j])[0], "source"))
		return ni < nj
	})
	for _, l := range lines {
		b.WriteString("\t" + l + "\n")
	}
	b.WriteString(")\n")
	return format.Source([]byte(b.String()))
}
