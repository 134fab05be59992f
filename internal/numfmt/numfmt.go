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

// Bytes writes a size with a unit people read at a glance: bytes below 10 KiB ("9 B", "10239 B"),
// then KiB with one decimal ("192.0 KiB"), MiB with two below 10 MiB ("6.00 MiB") and one above
// ("10.0 MiB", "512.0 MiB"), GiB with one from 1 GiB on ("4.0 GiB").
func Bytes(n int64) string {
	switch {
	case n < 10<<10:
		return strconv.FormatInt(n, 10) + " B"
	case n < 1<<20:
		return strconv.FormatFloat(float64(n)/(1<<10), 'f', 1, 64) + " KiB"
	case n < 10<<20:
		return strconv.FormatFloat(float64(n)/(1<<20), 'f', 2, 64) + " MiB"
	case n < 1<<30:
		return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
	}
	return strconv.FormatFloat(float64(n)/(1<<30), 'f', 1, 64) + " GiB"
}
