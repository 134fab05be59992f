package main

import (
	"io"

	"redscope/internal/lab"
)

// cmdLab runs one of the course labs (internal/lab): `redscope lab ring …`, `lab bloom …`,
// `lab hll`, `lab bitmap`, `lab bitfield`, `lab random`, `lab listpack`, `lab lesson FILE`.
func cmdLab(args []string, stdout, stderr io.Writer) error {
	return lab.Run(args, stdout)
}
