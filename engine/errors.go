package engine

import (
	"errors"
	"fmt"
)

// Error texts: every error text the engine names as a value stands here, one text in one place,
// grouped by the Redis source file that spells it — first the error Replies, then the Go errors
// whose texts become replies, then ACL SETUSER's texts. The first group are Redis's shared
// objects (server.c, createSharedObjects: shared.wrongtypeerr, shared.syntaxerr, …); the next
// are texts that several commands of Redis spell alike in their own files (t_string.c and
// t_hash.c say "increment would produce NaN or Infinity" for INCRBYFLOAT and HINCRBYFLOAT; db.c,
// t_set.c, t_hash.c and t_zset.c share parseScanCursorOrReply's "invalid cursor"; SELECT, MOVE,
// SWAPDB and COPY … DB share "DB index is out of range"); then one group a source file for the
// texts of its commands, and redscope's own texts. A Reply holding an error is a plain value, so
// every site may return the same one.
//
// What is not here: a text a function spells inline at its one call site or builds from its
// arguments (the err* functions at the end of this file, and their kin beside their commands:
// errArity and errUnknownCommand in command.go, errNoGroup in cmd_stream.go, errACLSub in
// cmd_acl.go …), and the protocol server's own errors (server/loop.go, another package).
var (
	// server.c, createSharedObjects.
	ErrWrongType    = Err("WRONGTYPE Operation against a key holding the wrong kind of value")
	ErrSyntax       = Err("ERR syntax error")
	ErrNoSuchKey    = Err("ERR no such key")
	errOutOfRange   = Err("ERR index out of range")
	errSameObject   = Err("ERR source and destination objects are the same") // MOVE, COPY
	errBusyKey      = Err("BUSYKEY Target key name already exists.")
	errNoScript     = Err("NOSCRIPT No matching script. Please use EVAL.")
	errBusyEval     = Err("BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.")
	errBusyFunction = Err("BUSY Redis is busy running a script. You can only call FUNCTION KILL or SHUTDOWN NOSAVE.")
	errOOM          = Err("OOM command not allowed when used memory > 'maxmemory'.")

	// Spelled alike by several commands (the comments name them or the helper of Redis's).
	ErrNotInt          = Err("ERR value is not an integer or out of range")                  // object.c getLongLongFromObjectOrReply
	ErrNotFloat        = Err("ERR value is not a valid float")                               // object.c getDoubleFromObjectOrReply
	ErrOverflow        = Err("ERR increment or decrement would overflow")                    // INCR family, HINCRBY
	ErrMaxBulkLen      = Err("ERR string exceeds maximum allowed size (proto-max-bulk-len)") // checkStringLength: SETRANGE, APPEND
	errIncrNaN         = Err("ERR increment would produce NaN or Infinity")                  // INCRBYFLOAT, HINCRBYFLOAT, INCREX
	errNotPositive     = Err("ERR value is out of range, must be positive")                  // getPositiveLongFromObjectOrReply
	errValueOutOfRange = Err("ERR value is out of range")                                    // getRangeLongFromObjectOrReply
	errRangeInt64      = Err("ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807")
	errInvalidCursor   = Err("ERR invalid cursor")           // parseScanCursorOrReply
	errDBIndex         = Err("ERR DB index is out of range") // SELECT, MOVE, SWAPDB, COPY … DB
	errNumkeysZero     = Err("ERR numkeys should be greater than 0")
	errNumkeysTooMany  = Err("ERR Number of keys can't be greater than number of args")
	errNumkeysNegative = Err("ERR Number of keys can't be negative")
	errScriptWriteRO   = Err("ERR Can not execute a script with write flag using *_ro command.")
	errLimitNegative   = Err("ERR LIMIT can't be negative")
	errLimitByScoreLex = Err("ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX")
	errTimeoutNegative = Err("ERR timeout is negative")     // getTimeoutFromObjectOrReply
	errTimeoutRange    = Err("ERR timeout is out of range") // getTimeoutFromObjectOrReply
	errExpireNegative  = Err("ERR invalid expire time, must be >= 0")
	errOnlyOneExpiry   = Err("ERR Only one of EX, PX, EXAT, PXAT or KEEPTTL arguments can be specified")
	errFieldsMissing   = Err("ERR Mandatory argument FIELDS is missing or not at the right position")
	errLboundUbound    = Err("ERR LBOUND must not be greater than UBOUND")
	errRDBLoad         = Err("ERR Error trying to load the RDB dump")
	errSelectCluster   = Err("ERR SELECT is not allowed in cluster mode")
	errClusterDown     = Err("CLUSTERDOWN The cluster is down")
	errSlotNotServed   = Err("CLUSTERDOWN Hash slot not served")

	// t_stream.c (cmd_stream.go, t_stream.go); errStreamTimeoutInt is timeout.c's
	// getTimeoutFromObjectOrReply for XREAD BLOCK, errStreamBlockedNoGroup and errStreamBlockedGone
	// are 7.0's blocked.c, for a blocked XREADGROUP whose group or key went away.
	errStreamID             = Err("ERR Invalid stream ID specified as stream command argument")
	errStreamIDSmall        = Err("ERR The ID specified in XADD is equal or smaller than the target stream top item")
	errStreamIDZero         = Err("ERR The ID specified in XADD must be greater than 0-0")
	errStreamExhausted      = Err("ERR The stream has exhausted the last possible ID, unable to add more items")
	errStreamTooLarge       = Err("ERR Elements are too large to be stored")
	errStreamStartIntvl     = Err("ERR invalid start ID for the interval")
	errStreamEndIntvl       = Err("ERR invalid end ID for the interval")
	errStreamBothTrim       = Err("ERR syntax error, MAXLEN and MINID options at the same time are not compatible")
	errStreamMaxlenNeg      = Err("ERR The MAXLEN argument must be >= 0.")
	errStreamLimitNeg       = Err("ERR The LIMIT argument must be >= 0.")
	errStreamLimitNoTr      = Err("ERR syntax error, LIMIT cannot be used without specifying a trimming strategy")
	errStreamXtrimNoTr      = Err("ERR syntax error, XTRIM must be called with a trimming strategy")
	errStreamLimitExact     = Err("ERR syntax error, LIMIT cannot be used without the special ~ option")
	errStreamBusyGroup      = Err("BUSYGROUP Consumer Group name already exists")
	errStreamKeyMissing     = Err("ERR The XGROUP subcommand requires the key to exist. Note that for CREATE you may want to use the MKSTREAM option to create an empty stream automatically.")
	errStreamEntriesRd      = Err("ERR value for ENTRIESREAD must be positive or -1")
	errStreamDollarRG       = Err("ERR The $ ID is meaningless in the context of XREADGROUP: you want to read the history of this consumer by specifying a proper ID, or use the > ID to get new messages. The $ ID would just return an empty result set.")
	errStreamPlusRG         = Err("ERR The + ID is meaningless in the context of XREADGROUP: you want to read the history of this consumer by specifying a proper ID, or use the > ID to get new messages. The + ID would just return an empty result set.")
	errStreamGtXread        = Err("ERR The > ID can be specified only when calling XREADGROUP using the GROUP <group> <consumer> option.")
	errStreamGroupOpt       = Err("ERR The GROUP option is only supported by XREADGROUP. You called XREAD instead.")
	errStreamNoackOpt       = Err("ERR The NOACK option is only supported by XREADGROUP. You called XREAD instead.")
	errStreamNoGroupOpt     = Err("ERR Missing GROUP option for XREADGROUP")
	errStreamTimeoutInt     = Err("ERR timeout is not an integer or out of range")
	errStreamBlockedNoGroup = Err("NOGROUP the consumer group this client was blocked on no longer exists")
	errStreamBlockedGone    = Err("UNBLOCKED the stream key no longer exists")
	// XACKDEL and XDELEX (Redis 8.2): no 8.2 server was available, these two are the engine's
	// own wording (cmd_stream.go).
	errStreamNumIDs      = Err("ERR Number of IDs must be a positive integer")
	errStreamNumIDsMatch = Err("ERR The `numids` parameter must match the number of arguments")

	// script.c (script.go): SCRIPT KILL and FUNCTION KILL, and scriptPrepareForRun for a script
	// or function flagged no-cluster on a cluster node.
	errNotBusy         = Err("NOTBUSY No scripts in execution right now.")
	errUnkillable      = Err("UNKILLABLE Sorry the script already executed write commands against the dataset. You can either wait the script termination or kill the server in a hard way using the SHUTDOWN NOSAVE command.")
	errScriptNoCluster = Err("ERR Can not run script on cluster, 'no-cluster' flag is set.")

	// bitops.c (cmd_bitfield.go, cmd_bitmap.go).
	errBitfieldType = Err("ERR Invalid bitfield type. Use something like i16 u8. Note that u64 is not supported but i64 is.")
	errOverflowType = Err("ERR Invalid OVERFLOW type specified")
	errBitfieldRO   = Err("ERR BITFIELD_RO only supports the GET subcommand")
	errBitOffset    = Err("ERR bit offset is not an integer or out of range")
	errBitValue     = Err("ERR bit is not an integer or out of range")
	errBitArg       = Err("ERR The bit argument must be 1 or 0.")
	errBitopNot     = Err("ERR BITOP NOT must be called with a single source key.")

	// hyperloglog.c (cmd_hll.go).
	errNotHLL     = Err("WRONGTYPE Key is not a valid HyperLogLog string value.")
	errCorruptHLL = Err("INVALIDOBJ Corrupted HLL object detected")

	// t_zset.c (cmd_zset.go).
	errZNaN    = Err("ERR resulting score is not a number (NaN)")
	errZMinMax = Err("ERR min or max is not a float")
	errZLex    = Err("ERR min or max not valid string range item")

	// networking.c: CLIENT UNBLOCK … ERROR (blocking.go).
	errUnblocked = Err("UNBLOCKED client unblocked via CLIENT UNBLOCK")

	// cluster.c: the cluster commands on a server without cluster mode (cmd_cluster.go).
	errClusterDisabled = Err("ERR This instance has cluster support disabled")

	// multi.c, execCommandAbort: EXEC with a wrong number of arguments inside MULTI (multi.go).
	errExecArity = Err("EXECABORT Transaction discarded because of: wrong number of arguments for 'exec' command")

	// debug.c: DEBUG LOADAOF, 7.2's text (7.0.15 exits the server instead) (persist.go).
	errAOFLoad = Err("ERR Error trying to load the AOF files, check server logs.")

	// RedisBloom (cmd_bloom.go).
	errBadExpansion     = Err("ERR bad expansion")
	errNonScalingExpand = Err("Nonscaling filters cannot expand") // BF.RESERVE
	errBFNotFound       = Err("ERR not found")
	errBFExists         = Err("ERR item exists")

	// redscope's own: what a simulator refuses that Redis would do (cmd_set.go, multi.go).
	errTooManyPicks  = Err("ERR redscope: count too large for a simulated reply (limit 4194304)")
	errClientBlocked = Err("ERR redscope: this client is blocked; its commands wait until it is served")
	// The scripting commands that need the interpreter, in the build without it (-tags nolua,
	// script_nolua.go): the browser app switches to the full build before sending one.
	errNoLuaInterpreter = Err("ERR " + noLuaText)
)

// noLuaText is errNoLuaInterpreter's text without "ERR " (also loadLibrary's refusal without Lua).
const noLuaText = "this build of redscope has no Lua interpreter"

// Go errors (type error) whose texts reach the client through the function that returns them.
var (
	// server.c, getKeysSubcommandImpl: COMMAND GETKEYS's texts without their "ERR ", the errors of
	// CommandKeys (command_keys.go).
	ErrKeysUnknownCommand = errors.New("Invalid command specified")
	ErrKeysNoKeys         = errors.New("The command has no key arguments")
	ErrKeysArity          = errors.New("Invalid number of arguments specified for command")
	ErrKeysInvalid        = errors.New("Invalid arguments specified for command")

	// cluster.c, restoreCommand: the errors of RestorePayload (rdb.go).
	ErrDumpPayload = errors.New("ERR DUMP payload version or checksum are wrong")
	ErrBadData     = errors.New("ERR Bad data format")

	// script_lua.c: the Lua error a script stopped by SCRIPT KILL ends with (script.go).
	errScriptKilled = errors.New("Script killed by user with SCRIPT KILL...")
)

// acl.c, ACLSetUserStringError: the texts of a rule ACL SETUSER refuses (acl.go).
const (
	aclErrUnknown  = "Unknown command or category name in ACL"
	aclErrSyntax   = "Syntax error"
	aclErrKeysAll  = "Adding a pattern after the * pattern (or the 'allkeys' flag) is not valid and does not have any effect. Try 'resetkeys' to start with an empty list of patterns"
	aclErrChansAll = "Adding a pattern after the * pattern (or the 'allchannels' flag) is not valid and does not have any effect. Try 'resetchannels' to start with an empty list of channels"
	aclErrNoPass   = "The password you are trying to remove from the user does not exist"
	aclErrHash     = "The password hash must be exactly 64 characters and contain only lowercase hexadecimal characters"
	aclErrChild    = "Allowing first-arg of a subcommand is not supported"
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
