// Command wasmsize tells what a Go wasm module holds: the size of each section, and the code
// section's function bodies summed by Go package (from the wasm "name" section, which a build
// without -ldflags='-s -w' keeps; `go tool nm` does not read wasm).
//
//	GOOS=js GOARCH=wasm go build -trimpath -o /tmp/names.wasm ./wasm
//	go run ./scripts/wasmsize /tmp/names.wasm            # sections and the top packages
//	go run ./scripts/wasmsize -groups /tmp/names.wasm    # the groups BENCHMARKS.md lists
//	go run ./scripts/wasmsize -funcs 30 /tmp/names.wasm  # the 30 largest functions
//
// Go writes its symbol names into the name section with '/', '-', '(', '*' and ')' as '_'
// ("redscope_engine.__Engine_.Exec" for redscope/engine.(*Engine).Exec), so a function's package
// is the longest of the program's packages (`go list -deps`, GOOS=js GOARCH=wasm, of -pkg) whose
// name written that way prefixes the function's name and a '.'.
package main

import (
	"bytes"
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
)

func main() {
	groups := flag.Bool("groups", false, "sum the packages into the groups of BENCHMARKS.md")
	funcs := flag.Int("funcs", 0, "list the n largest functions")
	top := flag.Int("top", 40, "how many packages to list")
	pkg := flag.String("pkg", "./wasm", "the program the module was built from (for its package list)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: wasmsize [-groups] [-funcs n] file.wasm")
		os.Exit(2)
	}
	b, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	m, err := parse(b)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("%-12s %10s\n", "section", "bytes")
	for _, s := range m.sections {
		fmt.Printf("%-12s %10d\n", s.name, s.size)
	}
	if len(m.names) == 0 {
		fmt.Println("no name section (built with -s -w?): no package table")
		return
	}
	pkgs, err := packages(*pkg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	byPkg := map[string]int{}
	type fn struct {
		name string
		size int
	}
	var all []fn
	total := 0
	for i, sz := range m.bodies {
		name := m.names[m.imported+i]
		byPkg[pkgs.of(name)] += sz
		all = append(all, fn{name, sz})
		total += sz
	}
	type row struct {
		k string
		v int
	}
	var rows []row
	if *groups {
		g := map[string]int{}
		for p, v := range byPkg {
			g[groupOf(p)] += v
		}
		for k, v := range g {
			rows = append(rows, row{k, v})
		}
	} else {
		for k, v := range byPkg {
			rows = append(rows, row{k, v})
		}
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].v > rows[j].v })
	fmt.Printf("\ncode bodies %d B in %d functions\n", total, len(m.bodies))
	for i, r := range rows {
		if i == *top {
			break
		}
		fmt.Printf("%10d  %5.1f%%  %s\n", r.v, 100*float64(r.v)/float64(total), r.k)
	}
	if *funcs > 0 {
		sort.Slice(all, func(i, j int) bool { return all[i].size > all[j].size })
		fmt.Println()
		for i := 0; i < *funcs && i < len(all); i++ {
			fmt.Printf("%10d  %s\n", all[i].size, all[i].name)
		}
	}
}

// pkgList maps mangled package names to import paths.
type pkgList map[string]string

func packages(prog string) (pkgList, error) {
	cmd := exec.Command("go", "list", "-deps", prog)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -deps %s: %v", prog, err)
	}
	l := pkgList{"main": "main"}
	for _, p := range strings.Fields(string(out)) {
		l[mangle(p)] = p
	}
	return l, nil
}

func mangle(p string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '/', '-', '(', '*', ')':
			return '_'
		}
		return r
	}, p)
}

// of is the package of a function name ("" when none matches: the runtime's assembly stubs and
// wasm-only helpers are named without one).
func (l pkgList) of(name string) string {
	best := ""
	for i := 0; i < len(name); i++ {
		if name[i] == '.' {
			if p, ok := l[name[:i]]; ok && len(p) > len(best) {
				best = p
			}
		}
	}
	if best == "" {
		if i := strings.IndexByte(name, '.'); i > 0 {
			return "?" + name[:i]
		}
		return "?" + name
	}
	return best
}

// groupOf sums packages the way BENCHMARKS.md's payload table does.
func groupOf(p string) string {
	has := func(prefixes ...string) bool {
		for _, x := range prefixes {
			if p == x || strings.HasPrefix(p, x+"/") {
				return true
			}
		}
		return false
	}
	switch {
	case has("redscope/engine"):
		return "redscope/engine/..."
	case has("redscope/scene"):
		return "redscope/scene"
	case has("redscope/lesson"):
		return "redscope/lesson"
	case has("redscope/wasm", "redscope/assets", "redscope/ring", "redscope/internal", "main"):
		return "redscope/wasm, assets, ring, internal"
	case has("github.com/hajimehoshi/ebiten/v2/internal/shader", "github.com/hajimehoshi/ebiten/v2/internal/shaderir",
		"github.com/hajimehoshi/ebiten/v2/internal/builtinshader", "go", "math/big", "text/template", "regexp"):
		// With the precompiled shaders (docs/shaderpack.md) go/parser, go/ast and text/template
		// are gone; what stays is shaderir and its GLSL back end, go/constant and math/big (which
		// shaderir's constants need) and regexp (the engine's and Lua's too).
		return "ebiten's shader IR and GLSL back end, go/constant, math/big, regexp (the compiler itself only without the precompiled shaders)"
	case has("github.com/hajimehoshi/ebiten"):
		return "the rest of ebiten"
	case has("github.com/yuin/gopher-lua"):
		return "gopher-lua"
	case has("runtime", "internal", "sync", "syscall"):
		return "runtime, internal, sync, syscall"
	case has("reflect", "fmt", "encoding"):
		return "reflect, fmt, encoding/*"
	case has("image", "compress", "archive", "hash"):
		return "image, compress, archive/zip, hash"
	case has("golang.org/x/image", "golang.org/x/text", "github.com/go-text"):
		return "golang.org/x/image, x/text, go-text"
	case has("crypto", "github.com/zeebo/xxh3"):
		return "crypto, xxh3"
	case has("honnef.co/go/js/dom"):
		return "honnef.co/go/js/dom"
	}
	return "other standard library"
}

type section struct {
	name string
	size int
}

type module struct {
	sections []section
	imported int            // imported functions (they come first in the function index space)
	bodies   []int          // code section body sizes, in order
	names    map[int]string // function index → name
}

func uleb(b []byte) (uint64, int) {
	v, n := binary.Uvarint(b)
	return v, n
}

func parse(b []byte) (*module, error) {
	if len(b) < 8 || !bytes.Equal(b[:4], []byte("\x00asm")) {
		return nil, fmt.Errorf("not a wasm module")
	}
	ids := []string{"custom", "type", "import", "function", "table", "memory", "global", "export", "start", "element", "code", "data", "datacount"}
	m := &module{names: map[int]string{}}
	p := b[8:]
	for len(p) > 0 {
		id := p[0]
		size, n := uleb(p[1:])
		body := p[1+n : 1+n+int(size)]
		p = p[1+n+int(size):]
		name := fmt.Sprint(id)
		if int(id) < len(ids) {
			name = ids[id]
		}
		switch id {
		case 0:
			l, k := uleb(body)
			cname := string(body[k : k+int(l)])
			name = "custom:" + cname
			if cname == "name" {
				m.readNames(body[k+int(l):])
			}
		case 2:
			m.imported = countFuncImports(body)
		case 10:
			cnt, k := uleb(body)
			q := body[k:]
			for i := 0; i < int(cnt); i++ {
				sz, k := uleb(q)
				m.bodies = append(m.bodies, int(sz)+k)
				q = q[k+int(sz):]
			}
		}
		m.sections = append(m.sections, section{name, int(size)})
	}
	return m, nil
}

func countFuncImports(b []byte) int {
	cnt, k := uleb(b)
	q, funcs := b[k:], 0
	for i := 0; i < int(cnt); i++ {
		for j := 0; j < 2; j++ { // module, field
			l, k := uleb(q)
			q = q[k+int(l):]
		}
		kind := q[0]
		q = q[1:]
		switch kind {
		case 0: // func: type index
			_, k := uleb(q)
			q = q[k:]
			funcs++
		case 1: // table: reftype, limits
			q = q[1:]
			q = skipLimits(q)
		case 2: // memory
			q = skipLimits(q)
		case 3: // global: valtype, mut
			q = q[2:]
		}
	}
	return funcs
}

func skipLimits(q []byte) []byte {
	flags := q[0]
	q = q[1:]
	_, k := uleb(q)
	q = q[k:]
	if flags&1 != 0 {
		_, k = uleb(q)
		q = q[k:]
	}
	return q
}

func (m *module) readNames(b []byte) {
	for len(b) > 0 {
		id := b[0]
		size, n := uleb(b[1:])
		sub := b[1+n : 1+n+int(size)]
		b = b[1+n+int(size):]
		if id != 1 {
			continue
		}
		cnt, k := uleb(sub)
		q := sub[k:]
		for i := 0; i < int(cnt); i++ {
			idx, k := uleb(q)
			q = q[k:]
			l, k := uleb(q)
			m.names[int(idx)] = string(q[k : k+int(l)])
			q = q[k+int(l):]
		}
	}
}
