package difftest

import (
	"bytes"
	"sort"
	"strconv"
	"strings"
	"testing"

	"redscope/engine"
	"redscope/internal/transcript"
)

// Which writes touch a watched key. Redis marks a WATCHer dirty when the command calls
// signalModifiedKey (db.c) for its key, and each command decides when: SADD only when a member
// was added, HSET always, SETBIT only when the bit changed, PFMERGE always, ZADD only when a
// score changed, FLUSHDB only for keys that exist (touchAllWatchedKeysInDb in multi.c). Each case
// below is played on redis-server 7.0.15 and on redscope: connection 1 runs the setup, connection
// 0 WATCHes, connection 1 runs the write, connection 0 runs MULTI, PING, EXEC; every reply of the
// two servers must be byte-identical (EXEC is a null array when the key was touched).
//
// TestWatchWritesCoverTable walks the command table: every command flagged write has a case here
// or is listed in watchUncovered with the reason.

type watchCase struct {
	cmd   string // the command-table name the case covers ("xgroup|create")
	setup string // commands of connection 1 before WATCH, separated by " ; "
	db    int    // the watcher's database
	watch string // keys WATCHed (default "k")
	write string // commands of connection 1 after WATCH, separated by " ; "
	want  string // what redis-server 7.0.15's EXEC answers: "nil", "PONG" ("" = not checked)
	// random: the write's reply depends on each server's random choice (SPOP with a count); only
	// its kind is compared
	random bool
}

// wc: key k watched in database 0.
func wc(cmd, setup, write, want string) watchCase {
	return watchCase{cmd: cmd, setup: setup, write: write, want: want}
}

const (
	touched   = "nil"
	untouched = "PONG"
)

// dumpV is DUMP of the string "v" on 7.0.15 (RDB version 10).
const dumpV = `"\x00\x01v\x0a\x00\x91\x08\xce\xb2\x198\x8a\xce"`

var watchCases = []watchCase{
	// strings
	wc("set", "SET k v", "SET k v", touched), // the same value
	wc("set", "SET k v", "SET k w NX", untouched),
	wc("set", "", "SET k w XX", untouched),
	wc("set", "SET k v EX 100", "SET k v KEEPTTL GET", touched),
	wc("set", "", "SET k v", touched),
	wc("setnx", "SET k v", "SETNX k w", untouched),
	wc("setnx", "", "SETNX k w", touched),
	wc("setex", "SET k v", "SETEX k 100 v", touched),
	wc("psetex", "SET k v", "PSETEX k 100000 v", touched),
	wc("getset", "SET k v", "GETSET k v", touched),
	wc("mset", "SET k v", "MSET a 1 k v", touched),
	wc("msetnx", "SET a 1", "MSETNX a 2 k v", untouched),
	wc("msetnx", "", "MSETNX a 2 k v", touched),
	wc("append", "SET k v", `APPEND k ""`, touched),
	wc("append", "SET k v", "APPEND k w", touched),
	wc("setrange", "SET k v", `SETRANGE k 0 ""`, untouched),
	wc("setrange", "SET k v", "SETRANGE k 0 v", touched),
	wc("setrange", "", `SETRANGE k 3 ""`, untouched),
	wc("setrange", "SET k 12345", "SETRANGE k 1 x", touched), // an int-encoded string
	wc("incr", "SET k 1", "INCR k", touched),
	wc("incr", "SET k 100000", "INCR k", touched), // a shared-integer range crossed
	wc("decr", "SET k 1", "DECR k", touched),
	wc("incrby", "SET k 1", "INCRBY k 0", touched),
	wc("decrby", "SET k 1", "DECRBY k 0", touched),
	wc("incrbyfloat", "SET k 1.5", "INCRBYFLOAT k 0", touched),
	wc("incr", "SET k v", "INCR k", untouched), // an error
	wc("getdel", "", "GETDEL k", untouched),
	wc("getdel", "SET k v", "GETDEL k", touched),
	wc("getex", "SET k v EX 100", "GETEX k", untouched),
	wc("getex", "SET k v", "GETEX k EX 100", touched),
	wc("getex", "SET k v", "GETEX k PERSIST", untouched),
	wc("getex", "SET k v EX 100", "GETEX k PERSIST", touched),
	wc("setbit", "SETBIT k 3 1", "SETBIT k 3 1", untouched), // the same bit
	wc("setbit", "SETBIT k 3 1", "SETBIT k 3 0", touched),
	wc("setbit", "SETBIT k 3 1", "SETBIT k 100 0", touched), // grows the string
	wc("setbit", "SET k 12", "SETBIT k 0 0", untouched),
	wc("bitfield", "SET k v", "BITFIELD k GET u8 0", untouched),
	wc("bitfield", "SET k v", "BITFIELD k SET u8 0 118", untouched), // 'v': the same byte
	wc("bitfield", "SET k v", "BITFIELD k SET u8 0 119", touched),
	wc("bitfield", "SET k v", "BITFIELD k INCRBY u8 0 0", untouched),
	wc("bitfield", "SET k v", "BITFIELD k SET u8 8 0", touched), // grows the string
	wc("bitfield", "SET k \xff", "BITFIELD k OVERFLOW FAIL INCRBY u8 0 1", untouched),
	wc("bitop", "", "BITOP AND k a b", untouched),
	wc("bitop", "SET k v", "BITOP AND k a b", touched),
	wc("bitop", "SET k v ; SET a v", "BITOP OR k a", touched),
	wc("pfadd", "PFADD k a", "PFADD k a", untouched),
	wc("pfadd", "PFADD k a", "PFADD k", untouched),
	wc("pfadd", "", "PFADD k", touched),
	wc("pfadd", "PFADD k a", "PFADD k b", touched),
	wc("pfmerge", "PFADD k a", "PFMERGE k", touched), // nothing merged, signalled all the same
	wc("pfmerge", "PFADD k a ; PFCOUNT k", "PFMERGE k k", touched),
	wc("pfmerge", "PFADD a x", "PFMERGE k a", touched),
	wc("pfcount", "PFADD k a", "PFCOUNT k", touched), // the cached cardinality is written
	wc("pfcount", "PFADD k a ; PFCOUNT k", "PFCOUNT k", untouched),
	wc("pfdebug", "PFADD k a", "PFDEBUG TODENSE k", untouched),
	wc("pfdebug", "PFADD k a", "PFDEBUG GETREG k", untouched),

	// keys
	wc("del", "", "DEL k", untouched),
	wc("del", "SET k v", "DEL a k", touched),
	wc("unlink", "", "UNLINK k", untouched),
	wc("unlink", "SET k v", "UNLINK k", touched),
	wc("expire", "", "EXPIRE k 100", untouched),
	wc("expire", "SET k v", "EXPIRE k 100", touched),
	wc("expire", "SET k v", "EXPIRE k 100 XX", untouched),
	wc("expire", "SET k v EX 100", "EXPIRE k 50 GT", untouched),
	wc("expire", "SET k v EX 100", "EXPIRE k 100", touched), // the same TTL again
	wc("expire", "SET k v", "EXPIRE k -1", touched),         // deletes
	wc("pexpire", "SET k v", "PEXPIRE k 100000", touched),
	wc("expireat", "SET k v", "EXPIREAT k 4000000000", touched),
	wc("pexpireat", "SET k v", "PEXPIREAT k 1", touched),
	wc("pexpireat", "", "PEXPIREAT k 1", untouched),
	wc("persist", "SET k v", "PERSIST k", untouched),
	wc("persist", "SET k v EX 100", "PERSIST k", touched),
	wc("rename", "SET k v", "RENAME k k", untouched),
	wc("rename", "SET k v", "RENAME k j", touched),
	{cmd: "rename", setup: "SET j v", watch: "k", write: "RENAME j k", want: touched},
	wc("rename", "SET j v", "RENAME k j", untouched), // an error: no such key
	wc("renamenx", "SET k v ; SET j v", "RENAMENX k j", untouched),
	{cmd: "renamenx", setup: "SET j v", watch: "k", write: "RENAMENX j k", want: touched},
	wc("move", "SET k v", "MOVE k 1", touched),
	{cmd: "move", setup: "SET k v", db: 1, write: "MOVE k 1", want: touched},
	{cmd: "move", setup: "SET k v ; SELECT 1 ; SET k w ; SELECT 0", db: 1, write: "MOVE k 1", want: untouched},
	wc("copy", "SET k v", "COPY k j", untouched),
	{cmd: "copy", setup: "SET j v", watch: "k", write: "COPY j k", want: touched},
	{cmd: "copy", setup: "SET j v ; SET k v", watch: "k", write: "COPY j k", want: untouched},
	{cmd: "copy", setup: "SET j v ; SET k v", watch: "k", write: "COPY j k REPLACE", want: touched},
	{cmd: "copy", setup: "SET j v", db: 2, watch: "k", write: "COPY j k DB 2", want: touched},
	wc("restore", "", "RESTORE k 0 "+dumpV, touched),
	wc("restore", "SET k v", "RESTORE k 0 "+dumpV+" REPLACE", touched), // the same value
	wc("restore", "SET k v", "RESTORE k 0 "+dumpV, untouched),          // BUSYKEY
	wc("restore", "SET k v", "RESTORE k 1 "+dumpV+" REPLACE ABSTTL", touched),
	wc("restore", "", "RESTORE k 1 "+dumpV+" ABSTTL", untouched), // already expired: not stored
	wc("sort", "RPUSH l 2 1", "SORT l STORE k", touched),
	wc("sort", "", "SORT l STORE k", untouched),
	wc("sort", "SET k v", "SORT l STORE k", touched),
	wc("sort", "SET k v", "SORT k", untouched), // an error, and a read
	wc("swapdb", "", "SWAPDB 0 1", untouched),
	wc("swapdb", "SELECT 1 ; SET k v ; SELECT 0", "SWAPDB 0 1", touched),
	wc("swapdb", "SET k v", "SWAPDB 1 0", touched),
	wc("swapdb", "SET k v", "SWAPDB 0 0", untouched),
	wc("swapdb", "SET k v", "SWAPDB 2 3", untouched),
	wc("flushdb", "", "FLUSHDB", untouched), // an empty database
	wc("flushdb", "SET k v", "FLUSHDB", touched),
	wc("flushdb", "SET k v", "SELECT 1 ; FLUSHDB", untouched),
	wc("flushall", "", "FLUSHALL", untouched),
	wc("flushall", "SET k v", "FLUSHALL ASYNC", touched),

	// hashes
	wc("hset", "HSET k f v", "HSET k f v", touched), // the same value
	wc("hset", "", "HSET k f v", touched),
	wc("hmset", "HSET k f v", "HMSET k f v", touched),
	wc("hsetnx", "HSET k f v", "HSETNX k f w", untouched),
	wc("hsetnx", "HSET k f v", "HSETNX k g w", touched),
	wc("hincrby", "HSET k f 1", "HINCRBY k f 0", touched),
	wc("hincrbyfloat", "HSET k f 1", "HINCRBYFLOAT k f 0", touched),
	wc("hdel", "HSET k f v", "HDEL k g", untouched),
	wc("hdel", "HSET k f v g w", "HDEL k g", touched),
	wc("hdel", "HSET k f v", "HDEL k f", touched), // deletes the key

	// lists
	wc("lpush", "RPUSH k a", "LPUSH k a", touched),
	wc("rpush", "", "RPUSH k a", touched),
	wc("lpushx", "", "LPUSHX k a", untouched),
	wc("lpushx", "RPUSH k a", "LPUSHX k a", touched),
	wc("rpushx", "", "RPUSHX k a", untouched),
	wc("rpushx", "RPUSH k a", "RPUSHX k a", touched),
	wc("linsert", "RPUSH k a", "LINSERT k BEFORE zz b", untouched),
	wc("linsert", "RPUSH k a", "LINSERT k AFTER a b", touched),
	wc("lset", "RPUSH k a", "LSET k 0 a", touched), // the same element
	wc("lset", "RPUSH k a", "LSET k 5 a", untouched),
	wc("lpop", "", "LPOP k", untouched),
	wc("lpop", "RPUSH k a b", "LPOP k", touched),
	wc("lpop", "RPUSH k a b", "LPOP k 0", untouched),
	wc("rpop", "RPUSH k a", "RPOP k 5", touched),
	wc("lmpop", "RPUSH k a", "LMPOP 2 a k LEFT", touched),
	wc("lmpop", "RPUSH a x ; RPUSH k a", "LMPOP 2 a k LEFT", untouched),
	wc("ltrim", "RPUSH k a b", "LTRIM k 0 -1", touched), // keeps everything
	wc("ltrim", "", "LTRIM k 0 -1", untouched),
	wc("ltrim", "RPUSH k a b", "LTRIM k 5 6", touched),
	wc("lrem", "RPUSH k a", "LREM k 0 zz", untouched),
	wc("lrem", "RPUSH k a b", "LREM k 0 a", touched),
	wc("lmove", "RPUSH k a", "LMOVE k k LEFT RIGHT", touched), // one element onto itself
	wc("lmove", "RPUSH s a", "LMOVE s k LEFT RIGHT", touched),
	wc("lmove", "RPUSH k a", "LMOVE k d LEFT RIGHT", touched),
	wc("lmove", "", "LMOVE s k LEFT RIGHT", untouched),
	wc("rpoplpush", "RPUSH k a b", "RPOPLPUSH k k", touched),
	wc("rpoplpush", "RPUSH s a", "RPOPLPUSH s k", touched),
	wc("blpop", "RPUSH k a", "BLPOP k 1", touched),
	wc("blpop", "RPUSH a x ; RPUSH k a", "BLPOP a k 1", untouched),
	wc("brpop", "RPUSH k a", "BRPOP k 1", touched),
	wc("blmpop", "RPUSH k a b", "BLMPOP 1 1 k RIGHT COUNT 5", touched),
	wc("blmove", "RPUSH s a", "BLMOVE s k LEFT LEFT 1", touched),
	wc("brpoplpush", "RPUSH k a", "BRPOPLPUSH k d 1", touched),

	// sets
	wc("sadd", "SADD k a", "SADD k a", untouched), // a member already there
	wc("sadd", "SADD k a", "SADD k a b", touched),
	wc("sadd", "", "SADD k a", touched),
	wc("srem", "SADD k a", "SREM k zz", untouched),
	wc("srem", "SADD k a b", "SREM k a", touched),
	wc("srem", "SADD k a", "SREM k a", touched),
	wc("smove", "SADD k a ; SADD d a", "SMOVE k d a", touched),
	{cmd: "smove", setup: "SADD s a ; SADD k a", watch: "k", write: "SMOVE s k a", want: untouched},
	{cmd: "smove", setup: "SADD s a", watch: "k", write: "SMOVE s k a", want: touched},
	wc("smove", "SADD k a", "SMOVE k k a", untouched),
	wc("smove", "SADD k a", "SMOVE k d zz", untouched),
	wc("spop", "", "SPOP k", untouched),
	{cmd: "spop", setup: "SADD k a b", write: "SPOP k", want: touched, random: true},
	wc("spop", "SADD k a b", "SPOP k 0", untouched),
	{cmd: "spop", setup: "SADD k a b", write: "SPOP k 5", want: touched, random: true}, // (the order of the members differs)
	{cmd: "spop", setup: "SADD k a b c d e f", write: "SPOP k 2", want: touched, random: true},
	wc("sinterstore", "", "SINTERSTORE k a b", untouched),
	wc("sinterstore", "SET k v", "SINTERSTORE k a b", touched),
	wc("sinterstore", "SADD a x ; SADD b x", "SINTERSTORE k a b", touched),
	wc("sinterstore", "SADD a x ; SADD b y", "SINTERSTORE k a b", untouched),
	wc("sunionstore", "SADD k a", "SUNIONSTORE k k", touched), // the same members
	wc("sunionstore", "", "SUNIONSTORE k a", untouched),
	wc("sdiffstore", "SADD a x", "SDIFFSTORE k a a", untouched),
	wc("sdiffstore", "SADD a x", "SDIFFSTORE k a b", touched),

	// sorted sets
	wc("zadd", "ZADD k 1 a", "ZADD k 1 a", untouched), // the same score
	wc("zadd", "ZADD k 1 a", "ZADD k 2 a", touched),
	wc("zadd", "ZADD k 1 a", "ZADD k NX 2 a", untouched),
	wc("zadd", "ZADD k 1 a", "ZADD k GT 0 a", untouched),
	wc("zadd", "ZADD k 1 a", "ZADD k XX 1 b", untouched),
	wc("zadd", "", "ZADD k XX 1 b", untouched),
	wc("zadd", "ZADD k 1 a", "ZADD k INCR 0 a", untouched),
	wc("zadd", "ZADD k 1 a", "ZADD k 1 b", touched),
	wc("zincrby", "ZADD k 1 a", "ZINCRBY k 0 a", untouched),
	wc("zincrby", "ZADD k 1 a", "ZINCRBY k 1 a", touched),
	wc("zrem", "ZADD k 1 a", "ZREM k zz", untouched),
	wc("zrem", "ZADD k 1 a 2 b", "ZREM k a", touched),
	wc("zremrangebyscore", "ZADD k 1 a", "ZREMRANGEBYSCORE k 5 6", untouched),
	wc("zremrangebyscore", "ZADD k 1 a", "ZREMRANGEBYSCORE k 0 6", touched),
	wc("zremrangebyrank", "ZADD k 1 a", "ZREMRANGEBYRANK k 5 6", untouched),
	wc("zremrangebyrank", "ZADD k 1 a 2 b", "ZREMRANGEBYRANK k 0 0", touched),
	wc("zremrangebylex", "ZADD k 0 a", "ZREMRANGEBYLEX k [x [y", untouched),
	wc("zremrangebylex", "ZADD k 0 a 0 b", "ZREMRANGEBYLEX k [a [a", touched),
	wc("zpopmin", "", "ZPOPMIN k", untouched),
	wc("zpopmin", "ZADD k 1 a 2 b", "ZPOPMIN k", touched),
	wc("zpopmin", "ZADD k 1 a", "ZPOPMIN k 0", untouched),
	wc("zpopmax", "ZADD k 1 a 2 b", "ZPOPMAX k 5", touched),
	wc("zmpop", "ZADD k 1 a", "ZMPOP 1 k MIN", touched),
	wc("zmpop", "ZADD a 1 x ; ZADD k 1 a", "ZMPOP 2 a k MAX", untouched),
	wc("bzpopmin", "ZADD k 1 a 2 b", "BZPOPMIN k 1", touched),
	wc("bzpopmax", "ZADD k 1 a", "BZPOPMAX k 1", touched),
	wc("bzmpop", "ZADD k 1 a 2 b", "BZMPOP 1 1 k MIN COUNT 1", touched),
	wc("zunionstore", "ZADD k 1 a", "ZUNIONSTORE k 1 k", touched), // the same members
	wc("zunionstore", "", "ZUNIONSTORE k 1 a", untouched),
	wc("zinterstore", "ZADD a 1 x", "ZINTERSTORE k 2 a b", untouched),
	wc("zinterstore", "ZADD k 1 x", "ZINTERSTORE k 2 a b", touched),
	wc("zdiffstore", "ZADD a 1 x", "ZDIFFSTORE k 1 a", touched),
	wc("zrangestore", "ZADD a 1 x", "ZRANGESTORE k a 0 -1", touched),
	wc("zrangestore", "ZADD a 1 x", "ZRANGESTORE k a 5 6", untouched),
	wc("zrangestore", "ZADD a 1 x ; SET k v", "ZRANGESTORE k a 5 6", touched),

	// streams: entries added or removed signal; consumer groups do not
	wc("xadd", "", "XADD k 1-1 f v", touched),
	wc("xadd", "", "XADD k NOMKSTREAM 1-1 f v", untouched),
	wc("xadd", "XADD k 1-1 f v", "XADD k 1-1 f v", untouched), // an error: id too small
	wc("xadd", "XADD k 1-1 f v", "XADD k MAXLEN 0 2-1 f v", touched),
	wc("xdel", "XADD k 1-1 f v", "XDEL k 5-5", untouched),
	wc("xdel", "XADD k 1-1 f v", "XDEL k 1-1", touched),
	wc("xtrim", "XADD k 1-1 f v", "XTRIM k MAXLEN 5", untouched),
	wc("xtrim", "XADD k 1-1 f v ; XADD k 2-1 f v", "XTRIM k MAXLEN 1", touched),
	wc("xsetid", "XADD k 1-1 f v", "XSETID k 5-5", untouched),
	wc("xgroup|create", "XADD k 1-1 f v", "XGROUP CREATE k g 0", untouched),
	wc("xgroup|create", "", "XGROUP CREATE k g $ MKSTREAM", touched),
	wc("xgroup|setid", "XADD k 1-1 f v ; XGROUP CREATE k g 0", "XGROUP SETID k g $", untouched),
	wc("xgroup|destroy", "XADD k 1-1 f v ; XGROUP CREATE k g 0", "XGROUP DESTROY k g", untouched),
	wc("xgroup|createconsumer", "XADD k 1-1 f v ; XGROUP CREATE k g 0", "XGROUP CREATECONSUMER k g c", untouched),
	wc("xgroup|delconsumer", "XADD k 1-1 f v ; XGROUP CREATE k g 0 ; XGROUP CREATECONSUMER k g c", "XGROUP DELCONSUMER k g c", untouched),
	wc("xreadgroup", "XADD k 1-1 f v ; XGROUP CREATE k g 0", "XREADGROUP GROUP g c STREAMS k >", untouched),
	wc("xack", "XADD k 1-1 f v ; XGROUP CREATE k g 0 ; XREADGROUP GROUP g c STREAMS k >", "XACK k g 1-1", untouched),
	wc("xclaim", "XADD k 1-1 f v ; XGROUP CREATE k g 0 ; XREADGROUP GROUP g c STREAMS k >", "XCLAIM k g d 0 1-1", untouched),
	wc("xautoclaim", "XADD k 1-1 f v ; XGROUP CREATE k g 0 ; XREADGROUP GROUP g c STREAMS k > ; XDEL k 1-1", "XAUTOCLAIM k g d 0 0", untouched),

	// writes made by a script, by a transaction of the writer, by DEBUG RELOAD
	wc("eval", "HSET k f v", `EVAL "return redis.call('HSET', KEYS[1], 'f', 'v')" 1 k`, touched),
	wc("eval", "SADD k a", `EVAL "return redis.call('SADD', KEYS[1], 'a')" 1 k`, untouched),
	wc("eval", "SET k v", `EVAL "redis.call('SET', KEYS[1], 'w') return redis.call('DEL', KEYS[1])" 1 k`, touched),
	wc("fcall", "SET k 5 ; FUNCTION LOAD REPLACE \"#!lua name=watchlib\nredis.register_function('incr0', function(keys) return redis.call('INCRBY', keys[1], 0) end)\"", "FCALL incr0 1 k ; FUNCTION DELETE watchlib", touched),
	wc("exec", "SET k v", "MULTI ; SETRANGE k 0 v ; EXEC", touched),
	wc("exec", "SET k v", "MULTI ; SETRANGE k 0 v ; DISCARD", untouched),
	wc("debug", "SET k v", "DEBUG RELOAD", touched),   // emptyData before the load
	wc("debug", "SET j v", "DEBUG RELOAD", untouched), // k does not exist
}

// watchUncovered: the write commands without a case, and why.
var watchUncovered = map[string]string{
	"bf.add":           "a module command (RedisBloom), absent from redis-server 7.0.15: engine TestWatchTouchedByEveryWriteTracingOff covers it",
	"bf.madd":          "a module command, as bf.add",
	"bf.reserve":       "a module command, as bf.add",
	"migrate":          "needs a second server to migrate to; its local deletion goes through the same Delete as DEL",
	"function|load":    "libraries are not keys: nothing to WATCH",
	"function|delete":  "libraries are not keys",
	"function|flush":   "libraries are not keys",
	"function|restore": "libraries are not keys",
}

// watchExtra: commands that are not flagged write but may write a key (the cases above cover
// them too).
var watchExtra = []string{"pfcount", "eval", "fcall", "exec", "debug"}

func TestWatchWritesCoverTable(t *testing.T) {
	e := newEngine70()
	covered := map[string]bool{}
	for _, c := range watchCases {
		covered[c.cmd] = true
	}
	var names []string
	known := map[string]bool{}
	for _, c := range e.Commands() {
		known[c.Name] = true
		if c.Flags&engine.FlagWrite != 0 {
			names = append(names, c.Name)
		}
		for n, s := range c.Sub {
			known[c.Name+"|"+n] = true
			if s.Flags&engine.FlagWrite != 0 {
				names = append(names, c.Name+"|"+n)
			}
		}
	}
	sort.Strings(names)
	if len(names) < 90 {
		t.Fatalf("only %d write commands in the table: the walk is broken", len(names))
	}
	for _, n := range names {
		if !covered[n] && watchUncovered[n] == "" {
			t.Errorf("write command %s: no WATCH case in watchCases and not listed in watchUncovered", n)
		}
		if covered[n] && watchUncovered[n] != "" {
			t.Errorf("%s is both covered and listed as uncovered", n)
		}
	}
	for _, n := range watchExtra {
		if !covered[n] {
			t.Errorf("%s: no WATCH case", n)
		}
	}
	for n := range covered {
		if !known[n] {
			t.Errorf("case for %s: no such command in the table", n)
		}
	}
	t.Logf("%d write commands: %d with cases, %d listed as uncovered", len(names), len(names)-len(watchUncovered), len(watchUncovered))
}

func splitCmds(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, " ; ")
}

// TestWatchWrites plays watchCases on redis-server 7.0.15 and on redscope.
func TestWatchWrites(t *testing.T) {
	sv := freshServers(t)
	dial := func(a string) []*transcript.Conn {
		var cs []*transcript.Conn
		for i := 0; i < 2; i++ {
			cs = append(cs, dialConn(t, a))
		}
		return cs
	}
	ref, got := dial(sv.ref), dial(sv.scope)
	var compared, nTouched, nUntouched int
	for i, wcase := range watchCases {
		watch := wcase.watch
		if watch == "" {
			watch = "k"
		}
		type step struct {
			conn int
			cmd  string
		}
		steps := []step{{1, "FLUSHALL"}, {1, "SELECT 0"}, {0, "SELECT " + strconv.Itoa(wcase.db)}}
		for _, s := range splitCmds(wcase.setup) {
			steps = append(steps, step{1, s})
		}
		nsetup := len(steps)
		steps = append(steps, step{1, "SELECT 0"}, step{0, "WATCH " + watch})
		for _, s := range splitCmds(wcase.write) {
			steps = append(steps, step{1, s})
		}
		steps = append(steps, step{0, "MULTI"}, step{0, "PING"}, step{0, "EXEC"})
		var exec string
		for j, st := range steps {
			args, err := engine.SplitArgs(st.cmd)
			if err != nil {
				t.Fatal(err)
			}
			refRaw, refR, err := ref[st.conn].Do(args)
			if err != nil {
				t.Fatalf("case %d %s, %q: redis-server: %v", i, wcase.write, st.cmd, err)
			}
			refRaw = append([]byte(nil), refRaw...)
			gotRaw, gotR, err := got[st.conn].Do(args)
			if err != nil {
				t.Fatalf("case %d %s, %q: redscope: %v", i, wcase.write, st.cmd, err)
			}
			compared++
			if j < nsetup && refR.IsError() {
				t.Errorf("case %d: setup %s: redis-server answered %s", i, st.cmd, refR.FormatCLI())
			}
			if wcase.random && j > 0 && j < len(steps)-3 && steps[j-1].cmd == "WATCH "+watch {
				refRaw, gotRaw = []byte{refRaw[0]}, []byte{gotRaw[0]}
			}
			if !bytes.Equal(refRaw, gotRaw) {
				t.Errorf("case %d (%s; WATCH %s; %s), step %d %s:\nredis-server: %sredscope:     %s",
					i, wcase.setup, watch, wcase.write, j, st.cmd, refR.FormatCLI(), gotR.FormatCLI())
			}
			if j == len(steps)-1 {
				exec = "PONG"
				if refR.Kind == engine.KindNilArray {
					exec = "nil"
					nTouched++
				} else {
					nUntouched++
				}
			}
		}
		if wcase.want != "" && exec != wcase.want {
			t.Errorf("case %d (%s; WATCH %s; %s): redis-server's EXEC says %s, the case expects %s",
				i, wcase.setup, watch, wcase.write, exec, wcase.want)
		}
	}
	t.Logf("%d cases, %d replies compared; on redis-server %d touched the watched key, %d did not",
		len(watchCases), compared, nTouched, nUntouched)
}

// A client blocked in BLMOVE and served by another's push writes its destination as the command
// would (t_list.c lmoveHandlePush signals it): the WATCHer of the destination is touched. The
// source was signalled by the push already.
var watchBlockingScenarios = []bscenario{
	{"a served BLMOVE touches its destination", []bstep{
		bsend(2, "BLMOVE src dst LEFT RIGHT 0", 1), bat(0, "WATCH dst", "OK"),
		bat(1, "LPUSH src x", "(integer) 1"), brecv(2, `"x"`),
		bat(0, "MULTI", "OK"), bat(0, "PING", "QUEUED"), bat(0, "EXEC", "(nil)"),
	}},
	{"a served BRPOPLPUSH touches an existing destination", []bstep{
		bat(1, "RPUSH dst a", "(integer) 1"), bsend(2, "BRPOPLPUSH src dst 0", 1), bat(0, "WATCH dst", "OK"),
		bat(1, "RPUSH src x", "(integer) 1"), brecv(2, `"x"`),
		bat(0, "MULTI", "OK"), bat(0, "PING", "QUEUED"), bat(0, "EXEC", "(nil)"),
	}},
	{"a served BLPOP leaves other keys alone", []bstep{
		bsend(2, "BLPOP src 0", 1), bat(0, "WATCH dst", "OK"),
		bat(1, "LPUSH src x", "(integer) 1"), brecv(2, `1) "src"`, `2) "x"`),
		bat(0, "MULTI", "OK"), bat(0, "PING", "QUEUED"), bat(0, "EXEC", "1) PONG"),
	}},
	{"a served BZPOPMIN: the ZADD touched the key", []bstep{
		bsend(2, "BZPOPMIN z 0", 1), bat(0, "WATCH z", "OK"),
		bat(1, "ZADD z 1 a", "(integer) 1"), brecv(2, `1) "z"`, `2) "a"`, `3) "1"`),
		bat(0, "MULTI", "OK"), bat(0, "PING", "QUEUED"), bat(0, "EXEC", "(nil)"),
	}},
}

func TestWatchBlockedClientServed(t *testing.T) {
	if n := playLockstep(t, watchBlockingScenarios); n == 0 {
		t.Fatal("nothing compared")
	}
}
