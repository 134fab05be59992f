// Package fields holds the one word-splitting shortcut the lesson player and the scenes share.
package fields

import "unicode"

// First is strings.Fields(s)[0] ("" when s has no field) without splitting the rest of s: the
// lesson player and the scenes look at the first word of every command line, and a PFADD of
// 1 000 elements is a 7 KB line.
func First(s string) string {
	start := -1
	for i, r := range s {
		if unicode.IsSpace(r) {
			if start >= 0 {
				return s[start:i]
			}
		} else if start < 0 {
			start = i
		}
	}
	if start < 0 {
		return ""
	}
	return s[start:]
}
