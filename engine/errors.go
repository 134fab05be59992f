package engine

import "fmt"

// Error replies shared by more than one command or call site, one text in one place.
//
// The first group are Redis's shared objects (server.c, createSharedObjects: shared.wrongtypeerr,
// shared.syntaxerr, …); the rest are texts that several commands of Redis spell alike in their own
// files (t_string.c and t_hash.c say "increment would produce NaN or Infinity" for INCRBYFLOAT and
// HINCRBYFLOAT; db.c, t_set.c, t_hash.c and t_zset.c share parseScanCursorOrReply's "invalid
// cursor"; SELECT, MOVE, SWAPDB and COPY … DB share "DB index is out of range"). Texts used by a
// single site stay next to their command, in the error block at the top of its cmd_*.go file.
// A Reply holding an error is a plain value, so every site may return the same one.
var (
	ErrWrongType  = Err("WRONGTYPE Operation against a key holding the wrong kind of value")
	ErrSyntax     = Err("ERR syntax error")
	ErrNotInt     = Err("ERR value is not an integer or out of range")
	ErrNotFloat   = Err("ERR value is not a valid float")
	ErrOverflow   = Err("ERR increment or decrement would overflow")
	ErrNoSuchKey  = Err("ERR no such key")
	ErrMaxBulkLen = Err("ERR string exceeds maximum allowed size (proto-max-bulk-len)")

	errIncrNaN          = Err("ERR increment would produce NaN or Infinity") // INCRBYFLOAT, HINCRBYFLOAT, INCREX
	errNotPositive      = Err("ERR value is out of range, must be positive") // getPositiveLongFromObjectOrReply
	errValueOutOfRange  = Err("ERR value is out of range")                   // getRangeLongFromObjectOrReply
	errRangeInt64       = Err("ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807")
	errInvalidCursor    = Err("ERR invalid cursor")                              // parseScanCursorOrReply
	errDBIndex          = Err("ERR DB index is out of range")                    // SELECT, MOVE, SWAPDB, COPY … DB
	errSameObject       = Err("ERR source and destination objects are the same") // MOVE, COPY
	errNumkeysZero      = Err("ERR numkeys should be greater than 0")
	errNumkeysTooMany   = Err("ERR Number of keys can't be greater than number of args")
	errNumkeysNegative  = Err("ERR Number of keys can't be negative")
	errScriptWriteRO    = Err("ERR Can not execute a script with write flag using *_ro command.")
	errLimitNegative    = Err("ERR LIMIT can't be negative")
	errLimitByScoreLex  = Err("ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX")
	errTimeoutNegative  = Err("ERR timeout is negative")     // getTimeoutFromObjectOrReply
	errTimeoutRange     = Err("ERR timeout is out of range") // getTimeoutFromObjectOrReply
	errExpireNegative   = Err("ERR invalid expire time, must be >= 0")
	errOnlyOneExpiry    = Err("ERR Only one of EX, PX, EXAT, PXAT or KEEPTTL arguments can be specified")
	errFieldsMissing    = Err("ERR Mandatory argument FIELDS is missing or not at the right position")
	errLboundUbound     = Err("ERR LBOUND must not be greater than UBOUND")
	errRDBLoad          = Err("ERR Error trying to load the RDB dump")
	errBadExpansion     = Err("ERR bad expansion")
	errNonScalingExpand = Err("Nonscaling filters cannot expand") // BF.RESERVE (RedisBloom)
	errSelectCluster    = Err("ERR SELECT is not allowed in cluster mode")
	errClusterDown      = Err("CLUSTERDOWN The cluster is down")
	errSlotNotServed    = Err("CLUSTERDOWN Hash slot not served")
	errBusyKey          = Err("BUSYKEY Target key name already exists.")
)

// errInvalidExpire is "invalid expire time in '<cmd>' command" (SET EX, EXPIRE, GETEX, HEXPIRE…).
func errInvalidExpire(cmd string) Reply {
	return Err("ERR invalid expire time in '" + cmd + "' command")
}

// errSubcommandSyntax is networking.c's addReplySubcommandSyntaxError: the subcommand cut to 128
// bytes, then "Try <CMD> HELP.".
func errSubcommandSyntax(cmd string, sub []byte) Reply {
	s := sub
	if len(s) > 128 {
		s = s[:128]
	}
	return Err(cleanErr("ERR unknown subcommand or wrong number of arguments for '" + string(s) + "'. Try " + cmd + " HELP."))
}

// errUnknownNode is cluster.c's "Unknown node <id>" (CLUSTER FORGET, REPLICATE, COUNT-FAILURE-REPORTS…).
func errUnknownNode(id []byte) Reply {
	return Err("ERR Unknown node " + cleanErr(string(id)))
}

// errNodeNotKnown is cluster.c's "I don't know about node <id>" (CLUSTER SETSLOT … MIGRATING|IMPORTING).
func errNodeNotKnown(id []byte) Reply {
	return Err("ERR I don't know about node " + cleanErr(string(id)))
}

// errConfigSet is config.c's "CONFIG SET failed (possibly related to argument '<name>')", with
// " - <detail>" when the parameter's check gave one.
func errConfigSet(name, detail string) Reply {
	s := "ERR CONFIG SET failed (possibly related to argument '" + name + "')"
	if detail != "" {
		s += " - " + detail
	}
	return Err(cleanErr(s))
}

// errInternal is the reply of a command that panicked: the engine recovers and stays usable
// (Engine.Do), a redscope fault shown as an error instead of a dead page.
func errInternal(p any) Reply {
	return Err(fmt.Sprintf("ERR redscope internal error: %v", p))
}
