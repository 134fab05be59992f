package engine

import "testing"

func TestDispatchErrors(t *testing.T) {
	e := New(Options{})
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"PING"}, "PONG\n"},
		{[]string{"ping", "hi"}, "\"hi\"\n"},
		{[]string{"ping", "a", "b"}, "(error) ERR wrong number of arguments for 'ping' command\n"},
		{[]string{"Nope", "a", "b"}, "(error) ERR unknown command 'Nope', with args beginning with: 'a' 'b' \n"},
		{[]string{"echo"}, "(error) ERR wrong number of arguments for 'echo' command\n"},
	}
	for _, c := range cases {
		if got := e.Do(c.args...).FormatCLI(); got != c.want {
			t.Errorf("%v: got %q want %q", c.args, got, c.want)
		}
	}
}

func TestFormatCLINested(t *testing.T) {
	items := make([]Reply, 10)
	for i := range items {
		items[i] = Int(int64(i))
	}
	r := Array(Array(BulkStr("a"), BulkStr("b\n")), Reply{Kind: KindArray, Array: items}, NilReply)
	want := "1) 1) \"a\"\n   2) \"b\\n\"\n2)  1) (integer) 0\n    2) (integer) 1\n    3) (integer) 2\n    4) (integer) 3\n    5) (integer) 4\n    6) (integer) 5\n    7) (integer) 6\n    8) (integer) 7\n    9) (integer) 8\n   10) (integer) 9\n3) (nil)\n"
	if got := r.FormatCLI(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
