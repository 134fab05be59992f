package engine

import (
	"reflect"
	"testing"
)

func TestSplitArgs(t *testing.T) {
	cases := map[string][]string{
		`SET foo bar`:         {"SET", "foo", "bar"},
		`  set "a b" 'c d'  `: {"set", "a b", "c d"},
		`set k "\x41\n\"q\""`: {"set", "k", "A\n\"q\""},
		`set k 'it\'s'`:       {"set", "k", "it's"},
		`set k ""`:            {"set", "k", ""},
		`echo "\xZZ"`:         {"echo", "xZZ"},
	}
	for in, want := range cases {
		got, err := SplitArgs(in)
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		var gs []string
		for _, g := range got {
			gs = append(gs, string(g))
		}
		if !reflect.DeepEqual(gs, want) {
			t.Errorf("%q: got %q want %q", in, gs, want)
		}
	}
	for _, bad := range []string{`set "abc`, `set 'abc`, `set "a"b`} {
		if _, err := SplitArgs(bad); err == nil {
			t.Errorf("%q: want error", bad)
		}
	}
}
