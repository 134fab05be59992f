package engine

import "testing"

// TestWaiters: the clients blocked on a key, first blocked first, and none once served.
func TestWaiters(t *testing.T) {
	e := New(Options{Version: V70})
	c1, c2, c3 := e.NewClient(), e.NewClient(), e.NewClient()
	c1.Blocking, c2.Blocking = true, true
	if r := c1.Exec([][]byte{[]byte("BRPOP"), []byte("jobs"), []byte("0")}); !r.Blocked {
		t.Fatalf("c1 did not block: %+v", r)
	}
	if r := c2.Exec([][]byte{[]byte("BLPOP"), []byte("jobs"), []byte("5")}); !r.Blocked {
		t.Fatalf("c2 did not block: %+v", r)
	}
	w := e.Waiters("jobs")
	if len(w) != 2 || w[0].Client != c1.ID || w[0].Cmd != "brpop" || w[0].Deadline != 0 || w[1].Client != c2.ID || w[1].Cmd != "blpop" || w[1].Deadline == 0 {
		t.Fatalf("waiters %+v", w)
	}
	if len(e.Waiters("other")) != 0 {
		t.Fatal("waiters on another key")
	}
	c3.Exec([][]byte{[]byte("LPUSH"), []byte("jobs"), []byte("a")})
	if w := e.Waiters("jobs"); len(w) != 1 || w[0].Client != c2.ID {
		t.Fatalf("after one push: %+v", w)
	}
}
