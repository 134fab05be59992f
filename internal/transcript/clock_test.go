package transcript

import (
	"strings"
	"testing"

	"redscope/engine"
)

func TestClockDirective(t *testing.T) {
	f, err := Parse("t", strings.NewReader("> @clock XPENDING s g - + 10\n> @sort @clock SMEMBERS s\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !f.Steps[0].Clock || f.Steps[0].Text != "XPENDING s g - + 10" || len(f.Steps[0].Args) != 6 {
		t.Fatalf("step 0 = %+v", f.Steps[0])
	}
	if !f.Steps[1].Clock || !f.Steps[1].Sort {
		t.Fatalf("step 1 = %+v", f.Steps[1])
	}
	entry := func(idle, count int64) engine.Reply {
		return engine.Array(engine.BulkStr("1-0"), engine.BulkStr("c"), engine.Int(idle), engine.Int(count))
	}
	cases := []struct {
		a, b engine.Reply
		want bool
	}{
		{entry(3, 1), entry(3, 1), true},
		{entry(3, 1), entry(3+ClockSlackMs, 1), true},
		{entry(1767225600000, 1), entry(1767225600000-ClockSlackMs, 1), true},
		{entry(3, 1), entry(4+ClockSlackMs, 1), false},
		{entry(3, 1), engine.Array(engine.BulkStr("1-1"), engine.BulkStr("c"), engine.Int(3), engine.Int(1)), false},
		{entry(3, 1), engine.Array(engine.BulkStr("1-0"), engine.BulkStr("c"), engine.Int(3)), false},
		{engine.Int(5), engine.BulkStr("5"), false},
	}
	for i, c := range cases {
		if got := ClockEqual(c.a, c.b); got != c.want {
			t.Errorf("case %d: ClockEqual = %v, want %v", i, got, c.want)
		}
	}
}
