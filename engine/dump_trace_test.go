package engine

import (
	"bytes"
	"testing"

	"redscope/engine/rdb"
)

// TestDumpEvent: a traced DUMP reports its payload (the reply's bytes) split by rdb.Sections;
// an untraced one reports nothing, and DUMP of a missing key no event.
func TestDumpEvent(t *testing.T) {
	e := New(Options{Version: V74, Trace: true})
	e.Exec([][]byte{[]byte("HSET"), []byte("h"), []byte("a"), []byte("1")})
	res := e.Exec([][]byte{[]byte("DUMP"), []byte("h")})
	if len(res.Events) != 1 {
		t.Fatalf("events %+v", res.Events)
	}
	ev, ok := res.Events[0].(DumpEvent)
	if !ok || ev.Key != "h" || ev.Encoding != "listpack" || ev.Kind() != "dump" {
		t.Fatalf("event %+v", res.Events[0])
	}
	if !bytes.Equal(ev.Payload, e.DumpPayload(e.Lookup([]byte("h")))) {
		t.Fatalf("payload %x", ev.Payload)
	}
	d := ev.Dump
	if d.Type != rdb.TypeHashListpack || d.Version != 12 || len(d.Sections) != 5 || d.Sections[2].Part != rdb.PartListpack {
		t.Fatalf("dump %+v", d)
	}
	if res := e.Exec([][]byte{[]byte("DUMP"), []byte("nope")}); len(res.Events) != 0 {
		t.Fatalf("missing key: %+v", res.Events)
	}
	e2 := New(Options{Version: V74})
	e2.Exec([][]byte{[]byte("SET"), []byte("k"), []byte("1")})
	if res := e2.Exec([][]byte{[]byte("DUMP"), []byte("k")}); len(res.Events) != 0 {
		t.Fatalf("untraced: %+v", res.Events)
	}
}
