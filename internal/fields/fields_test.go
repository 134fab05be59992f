package fields

import (
	"strings"
	"testing"
)

// TestFirstIsFieldsFirst: First is what strings.Fields gives, on the lines the lesson player
// asks about (the word IsClusterLine requires to be CLUSTER) and the ones the scenes do.
func TestFirstIsFieldsFirst(t *testing.T) {
	for _, s := range []string{"", "  ", "cluster create 3", "\tCLUSTER\tnode", "cluster", "\u00a0cluster node", "clusterx node",
		"\xffcluster", "PFADD h " + strings.Repeat("u1 ", 1000), "é cluster",
		" ", "\t\n", "PFADD h a b", "  get k", "x", "a\u00a0b c", "\u0085 set k",
		"\u3000hset\u3000h f v", "\xff\xfe set", "set\xffk v", "ring\tproduct:%d", "cluster keyslot \"a b\"", "é  ", "\v\fdel k"} {
		want := ""
		if f := strings.Fields(s); len(f) > 0 {
			want = f[0]
		}
		if got := First(s); got != want {
			t.Errorf("First(%q) = %q, strings.Fields gives %q", s, got, want)
		}
	}
}
