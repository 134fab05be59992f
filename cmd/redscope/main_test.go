package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestBadUsage(t *testing.T) {
	cases := []struct {
		args []string
		code int
		msg  string
	}{
		{nil, 2, "usage:"},
		{[]string{"nope"}, 2, `unknown command "nope"`},
		{[]string{"lab"}, 1, "lab: which one?"},
		{[]string{"lab", "nope"}, 1, `lab: unknown lab "nope"`},
		{[]string{"resp", "--redis-version", "6.2"}, 2, `redscope resp: unknown Redis version "6.2"`},
		{[]string{"resp", "--allocator", "tcmalloc"}, 2, `redscope resp: unknown allocator "tcmalloc"`},
		{[]string{"resp", "--seed", "x"}, 2, `invalid value "x" for flag -seed`},
		{[]string{"resp", "extra"}, 2, `unexpected argument "extra"`},
		{[]string{"resp", "--addr", "127.0.0.1:99999"}, 1, "redscope resp: listen tcp"},
		{[]string{"resp", "--cluster", "17"}, 2, "--cluster wants 1 to 16 masters (or 0 with --cluster-empty), not 17"},
		{[]string{"resp", "--cluster", "0"}, 2, "--cluster wants 1 to 16 masters (or 0 with --cluster-empty), not 0"},
		{[]string{"resp", "--cluster", "3", "--addr", "127.0.0.1:65530"}, 2, "the port must leave room for 3 nodes"},
		{[]string{"serve", "--dir", "/nonexistent"}, 1, "no /nonexistent/index.html: build the app first (./build.sh dist)"},
		{[]string{"serve", "--port", "1"}, 2, "flag provided but not defined: -port"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		code := run(c.args, &out, &errb)
		if code != c.code || !strings.Contains(errb.String(), c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, code, errb.String(), c.code, c.msg)
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"help"}, &out, &errb); code != 0 || !strings.Contains(out.String(), "redscope resp") {
		t.Errorf("help: %d %q", code, out.String())
	}
}

func TestLabRing(t *testing.T) {
	var out, errb bytes.Buffer
	args := []string{"lab", "ring", "--hash", "md5", "--keys", "product:%d", "--count", "100000",
		"--nodes", "cache-a,cache-b,cache-c,cache-d", "--add", "cache-e", "--vnodes", "1,150"}
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"hash % N", "ring vnodes=1", "ring vnodes=150", "moved"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}
