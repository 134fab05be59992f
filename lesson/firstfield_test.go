package lesson

import (
	"strings"
	"testing"
)

// TestFirstFieldIsFieldsFirst: exec's look at a line's first word (firstField) is what
// strings.Fields gives, the word IsClusterLine requires to be CLUSTER.
func TestFirstFieldIsFieldsFirst(t *testing.T) {
	for _, s := range []string{"", "  ", "cluster create 3", "\tCLUSTER\tnode", "cluster", "\u00a0cluster node", "clusterx node",
		"\xffcluster", "PFADD h " + strings.Repeat("u1 ", 1000), "é cluster"} {
		want := ""
		if f := strings.Fields(s); len(f) > 0 {
			want = f[0]
		}
		if got := firstField(s); got != want {
			t.Errorf("firstField(%q) = %q, strings.Fields gives %q", s, got, want)
		}
	}
}
