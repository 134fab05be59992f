package scene

import (
	"testing"

	"redscope/engine"
	"redscope/lesson"
)

// TestFieldTTLStrip plays the hash-field-ttl lesson and checks the strip against what HTTL and
// HLEN answered in the lesson: both fields at 100 s after HEXPIRE (framed as changed), a at −1
// once HSET overwrote it, the key's own TTL after EXPIRE, and the 1000-field hash with 999 fields
// past their time still stored, then swept to one field by HRANDFIELD.
func TestFieldTTLStrip(t *testing.T) {
	l := encBuiltin(t, "hash-field-ttl")
	for _, v := range []engine.Version{engine.V80, engine.DefaultVersion} {
		cfg := lesson.Config{Version: v}
		at := func(pos int) *FieldTTL { return updated(&FieldTTL{}, encAt(t, l, cfg, pos, "en")) }
		if s := at(1); s.Key != "h" || len(s.Rows) != 2 || s.WithTTL != 0 {
			t.Errorf("%v step 1: %+v", v, s.Rows)
		}
		s := at(2)
		if len(s.Rows) != 2 || s.WithTTL != 2 || s.Rows[0].LeftMs != 100000 || s.Rows[1].LeftMs != 100000 || !s.Rows[0].Changed || !s.Rows[1].Changed {
			t.Errorf("%v step 2 (HEXPIRE a b 100): %+v", v, s.Rows)
		}
		s = at(3) // HSET h a 9: a loses its TTL, b keeps it; fields with a TTL come first
		if len(s.Rows) != 2 || s.Rows[0].Field != "b" || s.Rows[0].LeftMs != 100000 || s.Rows[1].Field != "a" || s.Rows[1].LeftMs != -1 {
			t.Errorf("%v step 3 (HSET h a 9): %+v", v, s.Rows)
		}
		if s = at(8); s.Gone != "h" || s.GoneHow != "expired" { // EXPIRE h 5, 6 s, EXISTS h
			t.Errorf("%v step 8: gone %q (%s)", v, s.Gone, s.GoneHow)
		}
		if s = at(10); s.Gone != "h2" || s.GoneHow != "deleted" { // HGETDEL of the last field
			t.Errorf("%v step 10: gone %q (%s)", v, s.Gone, s.GoneHow)
		}
		s = at(12) // 999 fields past their 300 ms, HLEN still 1000
		if len(s.Rows) != 1000 || s.Expired != 999 || s.WithTTL != 999 || s.Rows[999].Field != "sv:1000" || s.Rows[999].LeftMs != -1 {
			t.Errorf("%v step 12: %d rows, %d expired, %d with a TTL", v, len(s.Rows), s.Expired, s.WithTTL)
		}
		s = at(13) // HGET sv:5, then HRANDFIELD sweeps the other 998
		if len(s.Rows) != 1 || s.Expired != 0 || len(s.Removed) != 999 {
			t.Errorf("%v step 13: %d rows, %d expired, %d removed", v, len(s.Rows), s.Expired, len(s.Removed))
		}
	}
	// The key's own TTL is read beside the field TTLs (EXPIRE h 5 while a keeps 100 s).
	p := lesson.NewPlayer(lesson.Config{})
	for _, c := range []string{"HSET h a 1", "HEXPIRE h 100 FIELDS 1 a", "EXPIRE h 5"} {
		p.Exec(c)
	}
	s := &FieldTTL{}
	s.Update(Input{Engine: p.Engine(), Keys: []string{"h"}, Last: lesson.EngineExchanges(p.Last()), Lang: "en"})
	if s.KeyTTL != 5000 || len(s.Rows) != 1 || s.Rows[0].LeftMs != 100000 {
		t.Errorf("EXPIRE h 5 beside a 100 s field: key TTL %d, %+v", s.KeyTTL, s.Rows)
	}
}
