package transcript

import (
	"bytes"
	"fmt"

	"redscope/engine"
	"redscope/engine/alloc"
)

// EngineOptions are the options a profile transcript runs with: its @version (required), its
// @allocator (default jemalloc) and a logical clock at engine.StartMs.
func EngineOptions(f *File) (engine.Options, error) {
	if f.Version == 0 {
		return engine.Options{}, fmt.Errorf("%s: a profile transcript needs an @version header", f.Path)
	}
	a := alloc.Jemalloc
	if f.HasAllocator {
		a = f.Allocator
	}
	return engine.Options{Version: f.Version, Allocator: a, Clock: &engine.ManualClock{Ms: engine.StartMs}}, nil
}

// RunEngine replays a profile transcript on a fresh engine. Every command must have expected
// lines; a missing one is reported as a failure. The error is for files that cannot run at all.
func RunEngine(f *File) ([]Failure, error) {
	opts, err := EngineOptions(f)
	if err != nil {
		return nil, err
	}
	e := engine.New(opts)
	var fails []Failure
	for i := range f.Steps {
		st := &f.Steps[i]
		r := e.Exec(st.Args).Reply
		if st.Sort {
			r = SortReply(r)
		}
		if st.Want == nil {
			fails = append(fails, Failure{Path: f.Path, Line: st.Line, Cmd: st.Text, What: "want",
				Want: "(no expected lines: profile transcripts need them)\n", Got: r.FormatCLI()})
			continue
		}
		if ok, got := CheckWant(st, r); !ok {
			fails = append(fails, Failure{Path: f.Path, Line: st.Line, Cmd: st.Text, What: "want",
				Want: joinWant(st.Want), Got: got})
		}
	}
	return fails, nil
}

// RunDiff replays a differential transcript on a reference server (a real redis-server) and on
// redscope, comparing the raw RESP2 replies byte for byte, and both with the expected lines where
// given. It stops at a connection error.
func RunDiff(f *File, ref, scope *Conn) ([]Failure, error) {
	var fails []Failure
	for i := range f.Steps {
		st := &f.Steps[i]
		refRaw, refR, err := ref.Do(st.Args)
		if err != nil {
			return fails, fmt.Errorf("%s:%d: > %s: redis-server: %v", f.Path, st.Line, st.Text, err)
		}
		refRaw = append([]byte(nil), refRaw...)
		gotRaw, gotR, err := scope.Do(st.Args)
		if err != nil {
			return fails, fmt.Errorf("%s:%d: > %s: redscope: %v", f.Path, st.Line, st.Text, err)
		}
		if st.Sort {
			refR, gotR = SortReply(refR), SortReply(gotR)
			refRaw, gotRaw = refR.AppendRESP2(nil), gotR.AppendRESP2(nil)
		}
		if st.Clock && ClockEqual(refR, gotR) {
			continue
		}
		if !bytes.Equal(refRaw, gotRaw) {
			fails = append(fails, Failure{Path: f.Path, Line: st.Line, Cmd: st.Text, What: "redis",
				Want: describe(refR, refRaw), Got: describe(gotR, gotRaw)})
			continue
		}
		if st.Want != nil {
			if ok, got := CheckWant(st, refR); !ok {
				fails = append(fails, Failure{Path: f.Path, Line: st.Line, Cmd: st.Text, What: "want",
					Want: joinWant(st.Want), Got: got + "  (redis-server and redscope agree on this)\n"})
			}
		}
	}
	return fails, nil
}

// ClockSlackMs is how far apart two integers of an '@clock' step may be: each server reads its own
// clock, a few milliseconds apart — or much more on a loaded machine, where one process can wait
// for a core between two steps.
const ClockSlackMs = 1000

// ClockEqual compares two replies as '@clock' does: same shape and bytes, integers within
// ClockSlackMs of each other.
func ClockEqual(a, b engine.Reply) bool {
	if a.Kind != b.Kind || a.Str != b.Str || len(a.Array) != len(b.Array) {
		return false
	}
	if a.Kind == engine.KindInt && (a.Int-b.Int > ClockSlackMs || b.Int-a.Int > ClockSlackMs) {
		return false
	}
	for i := range a.Array {
		if !ClockEqual(a.Array[i], b.Array[i]) {
			return false
		}
	}
	return true
}

// describe renders a reply as redis-cli does, plus its raw bytes when short (two replies can
// print alike and still differ on the wire).
func describe(r engine.Reply, raw []byte) string {
	s := r.FormatCLI()
	if len(raw) <= 200 {
		s += fmt.Sprintf("(raw %q)\n", raw)
	}
	return s
}
