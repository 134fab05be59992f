package engine

// HashFieldTTLs calls fn with every field of a hash and its expiry time (unix ms, 0 = no TTL), in
// storage order, until fn returns false: a read-only view for the visualizer (scene/fieldttl.go),
// which expires nothing — a field whose time has passed but that no command touched yet is
// reported with its past time, as HLEN still counts it. ok is false for any other value.
func (o *Object) HashFieldTTLs(fn func(field string, expireMs int64) bool) (ok bool) {
	if o == nil || o.Type != TypeHash {
		return false
	}
	if _, is := o.Val.(*hashValue); !is {
		return false
	}
	hashEach(o, func(f, _ []byte, _ int64, _ bool, expire int64) bool { return fn(string(f), expire) })
	return true
}
