package scene

// One colour per structure, in every scene and lesson: a listpack is the same blue in the hash
// lesson, the set lesson and the leaderboard, a hashtable the same orange, and so on. The colours
// are the theme's node hues (Theme.Nodes), so they keep the theme's contrast rules (each one is
// ≥ 4.5:1 on Background and on Panel, text drawn on one of them uses textOn).
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

// encodingNames lists the structures encColor knows.
func encodingNames() []string {
	out := make([]string, len(encHue))
	for n, i := range encHue {
		out[i] = n
	}
	return out
}

// encColor is the colour of the structure (OBJECT ENCODING name, or "sparse"/"dense" for a
// HyperLogLog) enc; Dim for any other.
func encColor(enc string) Color {
	if i, ok := encHue[enc]; ok && len(nodeColors) > i {
		return nodeColors[i]
	}
	return dim
}

// nodeColors are the current theme's node colours (SetTheme assigns them): ≥ 3:1 against the
// background and the panel, and ≥ 4.5:1 for the first ones, which the counters scene also uses
// as text (a client's token). Accent is kept for what changed.
var nodeColors = darkNodeColors

var darkNodeColors = []Color{
	{0x4a, 0x9d, 0xf0, 0xff}, {0x3d, 0xc9, 0x8a, 0xff}, {0xff, 0x8a, 0x3d, 0xff}, {0xc7, 0x92, 0xea, 0xff},
	{0xff, 0x6b, 0x9d, 0xff}, {0x5f, 0xd7, 0xd7, 0xff}, {0xd7, 0xd7, 0x5f, 0xff}, {0xa0, 0xe0, 0x5a, 0xff},
	{0xf0, 0xa0, 0xa0, 0xff}, {0x9d, 0xb0, 0xff, 0xff}, {0xe0, 0xb0, 0x80, 0xff}, {0xb0, 0xb0, 0xb0, 0xff},
}

// lightNodeColors are the same hues, deep enough for a light background (every one ≥ 4.5:1 on
// the light background and panel).
var lightNodeColors = []Color{
	{0x1f, 0x62, 0xb4, 0xff}, {0x10, 0x6b, 0x40, 0xff}, {0xa8, 0x48, 0x00, 0xff}, {0x7a, 0x3d, 0xb0, 0xff},
	{0xb0, 0x22, 0x5c, 0xff}, {0x0b, 0x6a, 0x6e, 0xff}, {0x6b, 0x63, 0x00, 0xff}, {0x3f, 0x6e, 0x0c, 0xff},
	{0xa3, 0x36, 0x36, 0xff}, {0x3a, 0x4c, 0xb0, 0xff}, {0x85, 0x52, 0x22, 0xff}, {0x5a, 0x5f, 0x66, 0xff},
}

// nodeColor is the colour of node i (in the order nodes were first named).
func nodeColor(i int) Color {
	if i < 0 {
		return grid
	}
	return nodeColors[i%len(nodeColors)]
}

// Byte classes of a drawn structure.
const (
	byteLPHeader = iota // listpack total-bytes + count header (6 bytes)
	byteEnc             // an entry's encoding byte(s)
	byteField           // field / member data
	byteValue           // value / score data
	byteTTL             // listpackex TTL
	byteBacklen         // an entry's backlen
	byteEOF             // the 0xFF terminator
	byteISHeader        // intset encoding + length
	byteISValue         // intset member bytes
	byteISValue2        // alternate shade for neighbouring members
	numByteClasses
)

// byteColor is a byte class's fill.
func byteColor(c int) Color {
	switch c {
	case byteLPHeader, byteISHeader:
		return headerC.mix(Background, 0.35)
	case byteEnc:
		return headerC
	case byteField:
		return dataC
	case byteValue:
		return oneC
	case byteTTL:
		return runC
	case byteBacklen:
		return slackC
	case byteEOF:
		return nulC
	case byteISValue:
		return indexC
	case byteISValue2:
		return oneC
	}
	return zeroC
}
