package engine

import (
	"fmt"
	"strings"
	"testing"
)

// TestCommandCostGetrange: GETRANGE's Cost is the length of the reply GETRANGE gives, for starts
// and ends around and past both ends of the string and for both profiles' clamping (7.0 and
// 8.0), of a short string, an integer-encoded one and an empty key.
func TestCommandCostGetrange(t *testing.T) {
	idx := []int64{-30, -12, -11, -10, -3, -1, 0, 1, 2, 9, 10, 11, 29, 1 << 40, -1 << 40}
	for _, v := range []Version{V70, V80} {
		e := New(Options{Version: v})
		e.Exec(mustSplit(t, "SET s helloworld!"))
		e.Exec(mustSplit(t, "SET n 1234567"))
		for _, key := range []string{"s", "n", "nokey"} {
			for _, a := range idx {
				for _, b := range idx {
					for _, name := range []string{"GETRANGE", "SUBSTR"} {
						call := mustSplit(t, fmt.Sprintf("%s %s %d %d", name, key, a, b))
						r := e.Exec(call).Reply
						if got := e.CommandCost(call).CopyBytes; got != int64(len(r.Str)) {
							t.Fatalf("%s %s: cost %d, reply %q", v, strings.Join(strs(call), " "), got, r.Str)
						}
					}
				}
			}
		}
	}
}

// TestCommandCost: the other estimates: a whole string for a command that is not Paged, none for
// one that is; APPEND's and SETRANGE's stored bytes; LCS's cells; counts; BF.RESERVE's filter.
func TestCommandCost(t *testing.T) {
	e := New(Options{Version: V70})
	e.Exec(mustSplit(t, "SET s helloworld"))
	e.Exec(mustSplit(t, "SET t abc"))
	e.Exec(mustSplit(t, "SADD set a"))
	e.Exec(mustSplit(t, "SETBIT big 4294967295 1"))
	cases := []struct {
		line string
		want Cost
	}{
		{"GET s", Cost{CopyBytes: 10}},
		{"MGET t s nokey", Cost{CopyBytes: 10}},
		{"STRLEN big", Cost{}},
		{"GET big", Cost{CopyBytes: 1 << 29}},
		{"DEL big", Cost{}},
		{"OBJECT ENCODING big", Cost{}},
		{"DEBUG OBJECT big", Cost{CopyBytes: 1 << 29}}, // no key specs: every argument
		{"APPEND s xyz", Cost{StoreBytes: 13}},
		{"APPEND s \"\"", Cost{}},
		{"SETRANGE big 0 xyz", Cost{StoreBytes: 65536 + 3}}, // one page stored
		{"SETRANGE new 1000 xyz", Cost{StoreBytes: 3}},
		{"LCS s t", Cost{CopyBytes: 10, Cells: 11 * 4}},
		{"LCS s nokey LEN", Cost{CopyBytes: 10, Cells: 11}},
		{"SRANDMEMBER set -7", Cost{ReplyItems: 7}},
		{"HRANDFIELD h 5 WITHVALUES", Cost{ReplyItems: 5}},
		{"ZRANDMEMBER z x", Cost{}},
		{"SRANDMEMBER set", Cost{}},
		{"BF.RESERVE bf 0.01 1000", Cost{AllocBytes: 1200}},
		{"BF.RESERVE bf 2 1000", Cost{}},
		{"GET", Cost{}},
		{"NOSUCH s", Cost{}},
	}
	for _, c := range cases {
		if got := e.CommandCost(mustSplit(t, c.line)); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.line, got, c.want)
		}
	}
	// BF.RESERVE's estimate is the bit array of the filter the command then makes: most of the
	// size BF.INFO reports.
	e.Exec(mustSplit(t, "BF.RESERVE bf2 0.001 100000"))
	if got, want := e.CommandCost(mustSplit(t, "BF.RESERVE x 0.001 100000")).AllocBytes, e.Exec(mustSplit(t, "BF.INFO bf2 SIZE")).Reply.Array[0].Int; got > want || got < want*9/10 {
		t.Errorf("BF.RESERVE 0.001 100000: cost %d, BF.INFO SIZE %d", got, want)
	}
}

func strs(a [][]byte) []string {
	out := make([]string, len(a))
	for i, x := range a {
		out[i] = string(x)
	}
	return out
}
