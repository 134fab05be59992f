//go:build ignore

// Not built in redscope (see the line above): scripts/shaderpack copies this file, without
// that line, with gen.go and child_table.go into a package it adds to its scratch copy of
// ebiten, where it may import ebiten's internal packages. It writes the generated files
// (genMain, gen.go).

package main

import (
	"github.com/hajimehoshi/ebiten/v2/internal/builtinshader"
	"github.com/hajimehoshi/ebiten/v2/internal/graphics"
	"github.com/hajimehoshi/ebiten/v2/internal/shaderir"
	"github.com/hajimehoshi/ebiten/v2/internal/shaderir/glsl"
)

func main() {
	genMain(sourceTable(), builtinshader.AppendShaderSources(nil), func(src []byte) (any, error) {
		return graphics.CompileShader(src)
	}, func(prog any) (string, string) {
		return glsl.Compile(prog.(*shaderir.Program), glsl.GLSLVersionES300)
	})
}
