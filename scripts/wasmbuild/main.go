// Command wasmbuild builds the browser app's main.wasm, the one way every build of it is made:
// `./build.sh dist`, the browser tests (wasm/browsertest) and scripts/perf-page.sh all call it.
//
//	go run ./scripts/wasmbuild -o main.wasm          # what the page downloads
//	go run ./scripts/wasmbuild -names -o names.wasm  # the same code with its name section, for scripts/wasmsize
//	go run ./scripts/wasmbuild -tags nolua -o lite.wasm # without the Lua interpreter (engine/script_nolua.go)
//
// It runs from the repository's root (the folder with go.mod) and does two things:
//
//  1. `go run ./scripts/shaderpack -out DIR` in a scratch directory: ebiten's built-in shaders
//     precompiled, through a workspace and an overlay (docs/shaderpack.md).
//  2. `GOWORK=DIR/go.work GOOS=js GOARCH=wasm go build -overlay=DIR/overlay.json -trimpath
//     -ldflags='-s -w' <the inlining policy> -o OUT ./wasm`.
//
// The inlining policy (docs/wasm-build.md): most packages are compiled without inlining
// (-gcflags=-l), which makes main.wasm 12 % smaller once compressed (brotli -q 11: 3 041 912 →
// 2 659 888 B). Inlined code repeats the body of a small function at every call, and brotli
// compresses that repetition badly: without inlining the code section is 0.7 MB smaller raw and
// the function tables 0.45 MB larger. The packages whose speed the page feels keep inlining:
// the Go runtime (without inlining there the typed HyperLogLog week runs 1.4–1.85× slower under
// node), the standard library's small helpers (strings, bytes, strconv, slices, maps, math, sync,
// internal/...) and the engine's data structures (redscope/engine/... but the engine package
// itself: HyperLogLog, SDS, listpack, dict, skiplist, intset, quicklist, bitops, Bloom). The
// engine's command layer, the scenes, the lesson player, ebiten, gopher-lua, fmt and the rest
// are compiled without it; the typed week under node, the frame cost and the cold start in the
// browser were measured the same with and without the policy, within the machine's noise.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// inlined are the package patterns that keep the compiler's inlining in the browser build; every
// other package is compiled with -l. noInline are patterns inside them that do not (a later
// -gcflags pattern wins over an earlier one for the packages it matches).
var (
	inlined = []string{
		"runtime", "internal/...", "sync/...",
		"strings", "bytes", "strconv", "unicode/utf8", "slices", "maps", "math", "math/bits",
		"redscope/engine/...",
	}
	noInline = []string{"redscope/engine"}
)

// GCFlags returns the -gcflags arguments of the inlining policy, in order.
func GCFlags() []string {
	args := []string{"-gcflags=all=-l"}
	for _, p := range inlined {
		args = append(args, "-gcflags="+p+"=")
	}
	for _, p := range noInline {
		args = append(args, "-gcflags="+p+"=-l")
	}
	return args
}

func main() {
	out := flag.String("o", "main.wasm", "where to write main.wasm")
	names := flag.Bool("names", false, "keep the symbol names (no -ldflags='-s -w'), for scripts/wasmsize")
	inlineAll := flag.Bool("inline-all", false, "compile every package with inlining (to measure the policy)")
	tags := flag.String("tags", "", "build tags, passed to go build as -tags (nolua: without the Lua interpreter)")
	flag.Parse()
	if err := build(*out, *tags, *names, *inlineAll); err != nil {
		fmt.Fprintln(os.Stderr, "wasmbuild:", err)
		os.Exit(1)
	}
}

func build(out, tags string, names, inlineAll bool) error {
	if _, err := os.Stat("go.mod"); err != nil {
		return fmt.Errorf("run it from the repository's root (no go.mod here)")
	}
	out, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	sp, err := os.MkdirTemp("", "redscope-shaderpack-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(sp)
	pack := exec.Command("go", "run", "./scripts/shaderpack", "-out", sp)
	pack.Stdout, pack.Stderr = os.Stderr, os.Stderr
	if err := pack.Run(); err != nil {
		return fmt.Errorf("scripts/shaderpack: %v", err)
	}
	args := []string{"build", "-overlay=" + filepath.Join(sp, "overlay.json"), "-trimpath"}
	if !names {
		args = append(args, "-ldflags=-s -w")
	}
	if tags != "" {
		args = append(args, "-tags="+tags)
	}
	if !inlineAll {
		args = append(args, GCFlags()...)
	}
	args = append(args, "-o", out, "./wasm")
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "GOWORK="+filepath.Join(sp, "go.work"))
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go build of the wasm: %v", err)
	}
	return nil
}
