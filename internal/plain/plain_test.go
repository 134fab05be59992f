package plain

import (
	"encoding/json"
	"testing"

	"redscope/engine"
	"redscope/lesson"
)

// TestOfMatchesJSON: the page's state through Of and through encoding/json gives the same JSON,
// for a state with every field set and one with the omitempty fields empty.
func TestOfMatchesJSON(t *testing.T) {
	type pageState struct {
		lesson.State
		Scene string `json:"scene"`
		Focus string `json:"focus"`
	}
	full := pageState{State: lesson.State{
		Lesson: "sds-growth", Step: 2, Steps: 5, Version: "7.0", Allocator: "jemalloc-16", Needs: "8.8",
		Outputs: lesson.Outputs{
			Commands: []lesson.Exchange{
				{Exchange: engine.Exchange{Cmd: "SET k v", Reply: "OK", Error: true, Console: true, Advance: "10s", Client: 2, Blocked: true, Woken: true, Refused: "limit"},
					Checks: []lesson.CheckResult{{Check: "expect reply OK", OK: true, Got: "OK", Key: "k", Want: "OK"}}},
				{Exchange: engine.Exchange{Cmd: "GET k", Reply: `"v"`}},
			},
			Keys: []engine.KeyInfo{
				{Key: "k", Exists: true, Type: "string", Encoding: "embstr", Len: 1, Memory: 56, TTLMs: -1,
					SDS: &engine.SDSInfo{Type: "sds8", Header: 3, Len: 1, Alloc: 1, Usable: 8}, HLL: "sparse"},
				{Key: "gone", Type: "none", Len: -1, Memory: -1, TTLMs: -2},
			},
		},
		Clients: []lesson.ClientState{{N: 1}, {N: 2, Waiting: "BRPOP jobs 0"}},
		Active:  2,
	}, Scene: "sds", Focus: "k"}
	for _, st := range []pageState{full, {}} {
		want, err := json.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		got, err := json.Marshal(Of(st))
		if err != nil {
			t.Fatal(err)
		}
		// encoding/json sorts a map's keys; compare both as maps
		var a, b any
		json.Unmarshal(want, &a)
		json.Unmarshal(got, &b)
		wa, _ := json.Marshal(a)
		gb, _ := json.Marshal(b)
		if string(wa) != string(gb) {
			t.Errorf("Of:\n%s\njson:\n%s", gb, wa)
		}
	}
}
