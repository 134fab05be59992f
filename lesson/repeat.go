package lesson

import (
	"fmt"
	"strconv"
	"strings"

	"redscope/engine"
)

// A `repeat` line runs one command many times with a counter (see FORMAT.md, "Repeating a
// command"): `repeat 0..99 > BF.ADD bf product:%d` stands for the 100 commands BF.ADD bf
// product:0 … BF.ADD bf product:99. The parser expands it into ordinary actions, so the Player,
// Back and Reset treat them like commands written one by one.

// MaxStepActions bounds the actions of one step (repeats included), so a step stays quick to
// replay in the browser.
const MaxStepActions = 5000

// expandRepeat parses "A..B > CMD" and returns the commands, %d replaced by A … B (without a
// %d, the same command B-A+1 times: 1000 × INCRBYFLOAT price 19999.99).
func expandRepeat(rest string) ([]string, error) {
	rng, cmd, ok := strings.Cut(rest, ">")
	if !ok {
		return nil, fmt.Errorf("repeat needs a range and a command: repeat 0..99 > BF.ADD bf item:%%d")
	}
	rng, cmd = strings.TrimSpace(rng), strings.TrimSpace(cmd)
	a, b, ok := strings.Cut(rng, "..")
	lo, err1 := strconv.Atoi(a)
	hi, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || lo < 0 || hi < lo {
		return nil, fmt.Errorf("repeat needs a range FIRST..LAST of whole numbers, FIRST ≤ LAST")
	}
	if hi-lo+1 > MaxStepActions {
		return nil, fmt.Errorf("repeat: at most %d commands in a step", MaxStepActions)
	}
	if cmd == "" {
		return nil, fmt.Errorf("repeat needs a command after >")
	}
	if IsRingLine(cmd) {
		return nil, fmt.Errorf("repeat: ring lines cannot be repeated")
	}
	if _, err := engine.SplitArgs(strings.ReplaceAll(cmd, "%d", "0")); err != nil {
		return nil, fmt.Errorf("cannot split command: %v", err)
	}
	out := make([]string, 0, hi-lo+1)
	for i := lo; i <= hi; i++ {
		out = append(out, strings.ReplaceAll(cmd, "%d", strconv.Itoa(i)))
	}
	return out, nil
}
