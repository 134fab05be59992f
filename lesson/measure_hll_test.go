package lesson

import (
	"strings"
	"testing"

	"redscope/engine"
)

// TestMeasureHLL: KeyInfo.HLL names a HyperLogLog's encoding from its header (engine/hll's
// Recognise), and stays empty for any other string, however long.
func TestMeasureHLL(t *testing.T) {
	p := NewPlayer(Config{Version: engine.V70})
	e := p.Engine()
	for _, l := range []string{"PFADD h a b c", "PFADD d x", "PFDEBUG TODENSE d"} {
		if x := p.Exec(l); x.Error {
			t.Fatalf("%s: %s", l, x.Reply)
		}
	}
	pad := strings.Repeat("\x00", 40) // past 44 bytes: a raw string, as an HLL is
	e.Do("SET", "fake", "HYLL\x01"+pad)
	e.Do("SET", "badenc", "HYLL\x02"+pad)
	e.Do("SET", "magic", "HYLX\x01"+pad)
	e.Do("SET", "text", strings.Repeat("HYLL", 12))
	for key, want := range map[string]string{"h": "sparse", "d": "dense", "fake": "sparse", "badenc": "", "magic": "", "text": "", "missing": ""} {
		if got := e.Inspect(key).HLL; got != want {
			t.Errorf("%s: HLL %q, want %q", key, got, want)
		}
	}
}
