package scene

// One colour per structure, in every scene and lesson: a listpack is the same blue in the hash
// lesson, the set lesson and the leaderboard, a hashtable the same orange, and so on. The colours
// are the theme's node hues (Theme.Nodes), so they keep the theme's contrast rules (each one is
// ≥ 4.5:1 on Background and on Panel, text drawn on one of them uses TextOn).
var encHue = map[string]int{
	"listpack":   0,
	"intset":     1,
	"hashtable":  2,
	"skiplist":   3,
	"dense":      4,
	"quicklist":  5,
	"sparse":     6,
	"embstr":     7,
	"int":        8,
	"listpackex": 9,
	"raw":        10,
}

// EncodingNames lists the structures EncColor knows.
func EncodingNames() []string {
	out := make([]string, len(encHue))
	for n, i := range encHue {
		out[i] = n
	}
	return out
}

// EncColor is the colour of the structure (OBJECT ENCODING name, or "sparse"/"dense" for a
// HyperLogLog) enc; Dim for any other.
func EncColor(enc string) Color {
	if i, ok := encHue[enc]; ok && len(NodeColors) > i {
		return NodeColors[i]
	}
	return Dim
}
