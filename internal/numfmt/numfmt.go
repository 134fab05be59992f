// Package numfmt formats numbers for people: the labs' header lines and the scenes' labels.
package numfmt

import (
	"strconv"
	"strings"
)

// Group writes n with a space between groups of three digits: 536870912 → "536 870 912",
// -1234 → "-1 234".
func Group(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(c)
	}
	return b.String()
}
