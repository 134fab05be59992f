//go:build ignore

// Not built in redscope (see the line above): scripts/shaderpack copies this file, without
// that line, with gen.go and child_table.go into a package it adds to its scratch
// copy of ebiten, beside ebiten's unchanged CompileShader and ShaderSource and the generated
// table of programs (PrecompiledProgram). It checks the generated files (verifyMain, gen.go).

package main

import (
	"github.com/hajimehoshi/ebiten/v2/internal/builtinshader"
	"github.com/hajimehoshi/ebiten/v2/internal/graphics"
)

func main() {
	verifyMain(sourceTable(), builtinshader.AppendShaderSources(nil), func(src []byte) (any, error) {
		return graphics.CompileShader(src)
	}, func(src []byte) any {
		if p := graphics.PrecompiledProgram(src); p != nil {
			return p
		}
		return nil
	})
}
