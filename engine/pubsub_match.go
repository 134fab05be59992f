package engine

// StringMatch is Redis's stringmatchlen (util.c) without nocase, as KEYS and SCAN MATCH use
// it: the RESP server matches PSUBSCRIBE patterns and PUBSUB CHANNELS with it.
func StringMatch(pattern, str []byte) bool { return stringMatch(pattern, str, false) }
