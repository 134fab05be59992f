package engine

import (
	"reflect"
	"testing"

	"redscope/engine/sds"
)

// TestTraceContractExample: the example of trace.go's doc comment, PFADD h a on a fresh traced
// 7.0 engine, reports exactly those five events in that order.
func TestTraceContractExample(t *testing.T) {
	e := New(Options{Version: V70, Trace: true})
	res := e.Exec([][]byte{[]byte("PFADD"), []byte("h"), []byte("a")})
	if got := res.Reply.FormatCLI(); got != "(integer) 1\n" {
		t.Fatalf("reply %q", got)
	}
	want := []Event{
		SDSEvent{Key: "h", Cmd: "pfadd", After: sds.Header{Type: sds.Type5, Len: 18, Alloc: 18, Usable: 24}, Requested: 18, Realloc: true},
		KeyEvent{Key: "h", Action: "created", Type: "string"},
		SDSEvent{Key: "h", Cmd: "pfadd", Before: sds.Header{Type: sds.Type5, Len: 18, Alloc: 18, Usable: 24},
			After: sds.Header{Type: sds.Type8, Len: 18, Alloc: 44, Usable: 48}, Requested: 21, Greedy: true, Realloc: true, TypeChange: true},
		HLLEvent{Key: "h", Element: []byte("a"), Hash: 0x53d2470a9b43b1a7, Index: 12711, Count: 2, Old: 0, New: 2, Encoding: "sparse"},
		HLLSparseEvent{Key: "h", Before: "Z:16384", After: "Z:12711 v:2,1 Z:3672", BytesBefore: 18, BytesAfter: 21, Index: 12711, Rewrite: "split"},
	}
	if len(res.Events) != len(want) {
		t.Fatalf("%d events, want %d: %+v", len(res.Events), len(want), res.Events)
	}
	for i, w := range want {
		g := res.Events[i]
		if g.Kind() != w.Kind() {
			t.Fatalf("event %d is %q, want %q", i, g.Kind(), w.Kind())
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("event %d:\n got  %+v\n want %+v", i, g, w)
		}
	}
}
