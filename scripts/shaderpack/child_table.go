//go:build ignore

// Not built in redscope (see the line above): scripts/shaderpack copies this file, without that
// line, beside child_gen.go or child_verify.go into its scratch copy of ebiten.

package main

import "github.com/hajimehoshi/ebiten/v2/internal/builtinshader"

// sourceTable is ShaderSource(filter, address, useColorM) for every filter, address and
// color matrix, as [filter][address][0 without, 1 with].
func sourceTable() [][][]string {
	var t [][][]string
	for f := builtinshader.Filter(0); f < builtinshader.FilterCount; f++ {
		var byAddress [][]string
		for a := builtinshader.Address(0); a < builtinshader.AddressCount; a++ {
			byAddress = append(byAddress, []string{
				string(builtinshader.ShaderSource(f, a, false)),
				string(builtinshader.ShaderSource(f, a, true)),
			})
		}
		t = append(t, byAddress)
	}
	return t
}
