//go:build ignore

// Not built in redscope (see the line above): scripts/shaderpack copies this file, without
// that line, with gen.go and child_table.go into a package it adds to its scratch
// copy of ebiten, beside ebiten's unchanged CompileShader, ShaderSource and GLSL back end, the
// generated table of programs (PrecompiledProgram) and the generated package glsl (as the
// package redscopeglsl). It checks the generated files (verifyMain, gen.go).

package main

import (
	"github.com/hajimehoshi/ebiten/v2/internal/builtinshader"
	"github.com/hajimehoshi/ebiten/v2/internal/graphics"
	"github.com/hajimehoshi/ebiten/v2/internal/shaderir"
	"github.com/hajimehoshi/ebiten/v2/internal/shaderir/glsl"
	packed "github.com/hajimehoshi/ebiten/v2/internal/shaderir/redscopeglsl"
)

func main() {
	verifyMain(sourceTable(), builtinshader.AppendShaderSources(nil), func(src []byte) (any, error) {
		return graphics.CompileShader(src)
	}, func(src []byte) any {
		if p := graphics.PrecompiledProgram(src); p != nil {
			return p
		}
		return nil
	}, func(prog any) (string, string) {
		return glsl.Compile(prog.(*shaderir.Program), glsl.GLSLVersionES300)
	}, func(prog any, es300 bool) (string, string) {
		v := packed.GLSLVersionDefault
		if es300 {
			v = packed.GLSLVersionES300
		}
		return packed.Compile(prog.(*shaderir.Program), v)
	})
}
