// Package fonts embeds the two fonts the browser app draws on its canvas: subsets of Liberation
// Sans and Liberation Mono renamed Redscope Sans and Redscope Mono (README.md, LICENSE).
package fonts

import _ "embed"

// Sans is Redscope Sans Regular (TrueType).
//
//go:embed RedscopeSans-Regular.ttf
var Sans []byte

// Mono is Redscope Mono Regular (TrueType), for bytes, hex and commands.
//
//go:embed RedscopeMono-Regular.ttf
var Mono []byte
