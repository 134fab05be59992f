package engine

// Tracker is told what client-side caching (tracking.c) needs from the keyspace: the keys a
// read-only command read (call's trackingRememberKeys, from the command table's key specs), every
// key signalModifiedKey reports (trackingInvalidateKey; expired: the server deleted it as expired,
// which Redis signals with no client, so NOLOOP does not hide it) and every flush (signalFlushedDb's
// trackingInvalidateKeysOnFlush). The RESP server keeps the tracking table (server/tracking.go).
type Tracker interface {
	TrackRead(args [][]byte, keys []KeyRef)
	TrackModified(key string, expired bool)
	TrackFlush()
}

// SetTracker installs t (nil: none).
func (e *Engine) SetTracker(t Tracker) { e.tracker = t }

// trackRead is call()'s condition: a read-only command other than EVAL_RO, EVALSHA_RO and
// FCALL_RO (a read-only script's own commands are tracked one by one).
func (e *Engine) trackRead(c *Command, args [][]byte) {
	switch c.Name {
	case "eval_ro", "evalsha_ro", "fcall_ro":
		return
	}
	if !c.hasKeys() {
		return
	}
	if refs := c.keyRefs(args); len(refs) > 0 {
		e.tracker.TrackRead(args, refs)
	}
}
