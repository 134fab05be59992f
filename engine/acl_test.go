package engine

import "testing"

// TestACLProfiles: NOPERM's texts are 7.0's processCommand ones before 7.2 and
// getAclErrorMessage's (non-verbose) after; the default user is unrestricted; SETUSER is atomic.
func TestACLProfiles(t *testing.T) {
	for _, c := range []struct {
		v        Version
		cmd, key string
	}{
		{V70, "NOPERM this user has no permissions to run the 'hset' command", "NOPERM this user has no permissions to access one of the keys used as arguments"},
		{V74, "NOPERM User alice has no permissions to run the 'hset' command", "NOPERM No permissions to access a key"},
	} {
		e := New(Options{Version: c.v})
		a := e.ACL()
		if !a.Default().Unrestricted() || a.AuthRequired() {
			t.Fatalf("%v: default user restricted", c.v)
		}
		if r := e.Exec(argv("ACL", "SETUSER", "alice", "on", ">pw", "~k*", "+@string", "+nosuch")).Reply; r.Str != "ERR Error in ACL SETUSER modifier '+nosuch': Unknown command or category name in ACL" {
			t.Fatalf("%v: %q", c.v, r.Str)
		}
		if a.User("alice") != nil {
			t.Fatalf("%v: a refused SETUSER created the user", c.v)
		}
		e.Exec(argv("ACL", "SETUSER", "alice", "on", ">pw", "~k*", "+@string"))
		u := a.Authenticate([]byte("alice"), []byte("pw"))
		if u == nil || a.Authenticate([]byte("alice"), []byte("no")) != nil {
			t.Fatalf("%v: authenticate", c.v)
		}
		if r, ok := a.Check(u, argv("HSET", "k", "f", "v")); ok || r.Str != c.cmd {
			t.Errorf("%v: %q", c.v, r.Str)
		}
		if r, ok := a.Check(u, argv("GET", "other")); ok || r.Str != c.key {
			t.Errorf("%v: %q", c.v, r.Str)
		}
		if _, ok := a.Check(u, argv("GET", "k1")); !ok {
			t.Errorf("%v: GET k1 refused", c.v)
		}
		e.Exec(argv("CONFIG", "SET", "requirepass", "x"))
		if !a.AuthRequired() || a.Authenticate([]byte("default"), []byte("x")) == nil {
			t.Errorf("%v: requirepass", c.v)
		}
	}
}
