// Package watchcases is the table of which writes touch a WATCHed key, as redis-server 7.0.15
// answers: internal/difftest plays every case on a real redis-server and on redscope (TestWatchWrites),
// and the engine's tests play them on the engine alone with tracing off
// (TestWatchTouchedByEveryWriteTracingOff), so that `go test ./engine` checks WATCH where no
// redis-server is installed.
//
// Redis marks a WATCHer dirty when the command calls signalModifiedKey (db.c) for its key, and
// each command decides when: SADD only when a member was added, HSET always, SETBIT only when the
// bit changed, PFMERGE always, ZADD only when a score changed, FLUSHDB only for keys that exist
// (touchAllWatchedKeysInDb in multi.c). A case is played with two clients: the writer runs the
// setup in database 0, the watcher selects its database and WATCHes, the writer (back in
// database 0) runs the write, the watcher runs MULTI, PING, EXEC: a null array when the key was
// touched.
package watchcases

import "strings"

// Case is one write and what it does to the watcher.
type Case struct {
	Cmd   string // the command-table name the case covers ("xgroup|create")
	Setup string // the writer's commands before WATCH, separated by " ; " (redis-cli quoting)
	DB    int    // the watcher's database
	Watch string // keys WATCHed (default "k")
	Write string // the writer's commands after WATCH, separated by " ; "
	Want  string // what redis-server 7.0.15's EXEC answers: Touched or Untouched ("" = not checked)
	// Random: the write's reply depends on each server's random choice (SPOP with a count); a
	// differential test compares only its kind
	Random bool
}

// wc: key k watched in database 0.
func wc(cmd, setup, write, want string) Case {
	return Case{Cmd: cmd, Setup: setup, Write: write, Want: want}
}

// What EXEC answers: a null array when a watched key was touched, the queued PING's reply when not.
const (
	Touched   = "nil"
	Untouched = "PONG"
)

// WatchKeys is what the watcher WATCHes.
func (c Case) WatchKeys() string {
	if c.Watch == "" {
		return "k"
	}
	return c.Watch
}

// SplitCmds splits a Setup or a Write into its commands.
func SplitCmds(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, " ; ")
}

// dumpV is DUMP of the string "v" on 7.0.15 (RDB version 10).
const dumpV = `"\x00\x01v\x0a\x00\x91\x08\xce\xb2\x198\x8a\xce"`

var Cases = []Case{
	// strings
	wc("set", "SET k v", "SET k v", Touched), // the same value
	wc("set", "SET k v", "SET k w NX", Untouched),
	wc("set", "", "SET k w XX", Untouched),
	wc("set", "SET k v EX 100", "SET k v KEEPTTL GET", Touched),
	wc("set", "", "SET k v", Touched),
	wc("setnx", "SET k v", "SETNX k w", Untouched),
	wc("setnx", "", "SETNX k w", Touched),
	wc("setex", "SET k v", "SETEX k 100 v", Touched),
	wc("psetex", "SET k v", "PSETEX k 100000 v", Touched),
	wc("getset", "SET k v", "GETSET k v", Touched),
	wc("mset", "SET k v", "MSET a 1 k v", Touched),
	wc("msetnx", "SET a 1", "MSETNX a 2 k v", Untouched),
	wc("msetnx", "", "MSETNX a 2 k v", Touched),
	wc("append", "SET k v", `APPEND k ""`, Touched),
	wc("append", "SET k v", "APPEND k w", Touched),
	wc("setrange", "SET k v", `SETRANGE k 0 ""`, Untouched),
	wc("setrange", "SET k v", "SETRANGE k 0 v", Touched),
	wc("setrange", "", `SETRANGE k 3 ""`, Untouched),
	wc("setrange", "SET k 12345", "SETRANGE k 1 x", Touched), // an int-encoded string
	wc("incr", "SET k 1", "INCR k", Touched),
	wc("incr", "SET k 100000", "INCR k", Touched), // a shared-integer range crossed
	wc("decr", "SET k 1", "DECR k", Touched),
	wc("incrby", "SET k 1", "INCRBY k 0", Touched),
	wc("decrby", "SET k 1", "DECRBY k 0", Touched),
	wc("incrbyfloat", "SET k 1.5", "INCRBYFLOAT k 0", Touched),
	wc("incr", "SET k v", "INCR k", Untouched), // an error
	wc("getdel", "", "GETDEL k", Untouched),
	wc("getdel", "SET k v", "GETDEL k", Touched),
	wc("getex", "SET k v EX 100", "GETEX k", Untouched),
	wc("getex", "SET k v", "GETEX k EX 100", Touched),
	wc("getex", "SET k v", "GETEX k PERSIST", Untouched),
	wc("getex", "SET k v EX 100", "GETEX k PERSIST", Touched),
	wc("setbit", "SETBIT k 3 1", "SETBIT k 3 1", Untouched), // the same bit
	wc("setbit", "SETBIT k 3 1", "SETBIT k 3 0", Touched),
	wc("setbit", "SETBIT k 3 1", "SETBIT k 100 0", Touched), // grows the string
	wc("setbit", "SET k 12", "SETBIT k 0 0", Untouched),
	wc("bitfield", "SET k v", "BITFIELD k GET u8 0", Untouched),
	wc("bitfield", "SET k v", "BITFIELD k SET u8 0 118", Untouched), // 'v': the same byte
	wc("bitfield", "SET k v", "BITFIELD k SET u8 0 119", Touched),
	wc("bitfield", "SET k v", "BITFIELD k INCRBY u8 0 0", Untouched),
	wc("bitfield", "SET k v", "BITFIELD k SET u8 8 0", Touched), // grows the string
	wc("bitfield", "SET k \xff", "BITFIELD k OVERFLOW FAIL INCRBY u8 0 1", Untouched),
	wc("bitop", "", "BITOP AND k a b", Untouched),
	wc("bitop", "SET k v", "BITOP AND k a b", Touched),
	wc("bitop", "SET k v ; SET a v", "BITOP OR k a", Touched),
	wc("pfadd", "PFADD k a", "PFADD k a", Untouched),
	wc("pfadd", "PFADD k a", "PFADD k", Untouched),
	wc("pfadd", "", "PFADD k", Touched),
	wc("pfadd", "PFADD k a", "PFADD k b", Touched),
	wc("pfmerge", "PFADD k a", "PFMERGE k", Touched), // nothing merged, signalled all the same
	wc("pfmerge", "PFADD k a ; PFCOUNT k", "PFMERGE k k", Touched),
	wc("pfmerge", "PFADD a x", "PFMERGE k a", Touched),
	wc("pfcount", "PFADD k a", "PFCOUNT k", Touched), // the cached cardinality is written
	wc("pfcount", "PFADD k a ; PFCOUNT k", "PFCOUNT k", Untouched),
	wc("pfdebug", "PFADD k a", "PFDEBUG TODENSE k", Untouched),
	wc("pfdebug", "PFADD k a", "PFDEBUG GETREG k", Untouched),

	// keys
	wc("del", "", "DEL k", Untouched),
	wc("del", "SET k v", "DEL a k", Touched),
	wc("unlink", "", "UNLINK k", Untouched),
	wc("unlink", "SET k v", "UNLINK k", Touched),
	wc("expire", "", "EXPIRE k 100", Untouched),
	wc("expire", "SET k v", "EXPIRE k 100", Touched),
	wc("expire", "SET k v", "EXPIRE k 100 XX", Untouched),
	wc("expire", "SET k v EX 100", "EXPIRE k 50 GT", Untouched),
	wc("expire", "SET k v EX 100", "EXPIRE k 100", Touched), // the same TTL again
	wc("expire", "SET k v", "EXPIRE k -1", Touched),         // deletes
	wc("pexpire", "SET k v", "PEXPIRE k 100000", Touched),
	wc("expireat", "SET k v", "EXPIREAT k 4000000000", Touched),
	wc("pexpireat", "SET k v", "PEXPIREAT k 1", Touched),
	wc("pexpireat", "", "PEXPIREAT k 1", Untouched),
	wc("persist", "SET k v", "PERSIST k", Untouched),
	wc("persist", "SET k v EX 100", "PERSIST k", Touched),
	wc("rename", "SET k v", "RENAME k k", Untouched),
	wc("rename", "SET k v", "RENAME k j", Touched),
	{Cmd: "rename", Setup: "SET j v", Watch: "k", Write: "RENAME j k", Want: Touched},
	wc("rename", "SET j v", "RENAME k j", Untouched), // an error: no such key
	wc("renamenx", "SET k v ; SET j v", "RENAMENX k j", Untouched),
	{Cmd: "renamenx", Setup: "SET j v", Watch: "k", Write: "RENAMENX j k", Want: Touched},
	wc("move", "SET k v", "MOVE k 1", Touched),
	{Cmd: "move", Setup: "SET k v", DB: 1, Write: "MOVE k 1", Want: Touched},
	{Cmd: "move", Setup: "SET k v ; SELECT 1 ; SET k w ; SELECT 0", DB: 1, Write: "MOVE k 1", Want: Untouched},
	wc("copy", "SET k v", "COPY k j", Untouched),
	{Cmd: "copy", Setup: "SET j v", Watch: "k", Write: "COPY j k", Want: Touched},
	{Cmd: "copy", Setup: "SET j v ; SET k v", Watch: "k", Write: "COPY j k", Want: Untouched},
	{Cmd: "copy", Setup: "SET j v ; SET k v", Watch: "k", Write: "COPY j k REPLACE", Want: Touched},
	{Cmd: "copy", Setup: "SET j v", DB: 2, Watch: "k", Write: "COPY j k DB 2", Want: Touched},
	wc("restore", "", "RESTORE k 0 "+dumpV, Touched),
	wc("restore", "SET k v", "RESTORE k 0 "+dumpV+" REPLACE", Touched), // the same value
	wc("restore", "SET k v", "RESTORE k 0 "+dumpV, Untouched),          // BUSYKEY
	wc("restore", "SET k v", "RESTORE k 1 "+dumpV+" REPLACE ABSTTL", Touched),
	wc("restore", "", "RESTORE k 1 "+dumpV+" ABSTTL", Untouched), // already expired: not stored
	wc("sort", "RPUSH l 2 1", "SORT l STORE k", Touched),
	wc("sort", "", "SORT l STORE k", Untouched),
	wc("sort", "SET k v", "SORT l STORE k", Touched),
	wc("sort", "SET k v", "SORT k", Untouched), // an error, and a read
	wc("swapdb", "", "SWAPDB 0 1", Untouched),
	wc("swapdb", "SELECT 1 ; SET k v ; SELECT 0", "SWAPDB 0 1", Touched),
	wc("swapdb", "SET k v", "SWAPDB 1 0", Touched),
	wc("swapdb", "SET k v", "SWAPDB 0 0", Untouched),
	wc("swapdb", "SET k v", "SWAPDB 2 3", Untouched),
	wc("flushdb", "", "FLUSHDB", Untouched), // an empty database
	wc("flushdb", "SET k v", "FLUSHDB", Touched),
	wc("flushdb", "SET k v", "SELECT 1 ; FLUSHDB", Untouched),
	wc("flushall", "", "FLUSHALL", Untouched),
	wc("flushall", "SET k v", "FLUSHALL ASYNC", Touched),

	// hashes
	wc("hset", "HSET k f v", "HSET k f v", Touched), // the same value
	wc("hset", "", "HSET k f v", Touched),
	wc("hmset", "HSET k f v", "HMSET k f v", Touched),
	wc("hsetnx", "HSET k f v", "HSETNX k f w", Untouched),
	wc("hsetnx", "HSET k f v", "HSETNX k g w", Touched),
	wc("hincrby", "HSET k f 1", "HINCRBY k f 0", Touched),
	wc("hincrbyfloat", "HSET k f 1", "HINCRBYFLOAT k f 0", Touched),
	wc("hdel", "HSET k f v", "HDEL k g", Untouched),
	wc("hdel", "HSET k f v g w", "HDEL k g", Touched),
	wc("hdel", "HSET k f v", "HDEL k f", Touched), // deletes the key

	// lists
	wc("lpush", "RPUSH k a", "LPUSH k a", Touched),
	wc("rpush", "", "RPUSH k a", Touched),
	wc("lpushx", "", "LPUSHX k a", Untouched),
	wc("lpushx", "RPUSH k a", "LPUSHX k a", Touched),
	wc("rpushx", "", "RPUSHX k a", Untouched),
	wc("rpushx", "RPUSH k a", "RPUSHX k a", Touched),
	wc("linsert", "RPUSH k a", "LINSERT k BEFORE zz b", Untouched),
	wc("linsert", "RPUSH k a", "LINSERT k AFTER a b", Touched),
	wc("lset", "RPUSH k a", "LSET k 0 a", Touched), // the same element
	wc("lset", "RPUSH k a", "LSET k 5 a", Untouched),
	wc("lpop", "", "LPOP k", Untouched),
	wc("lpop", "RPUSH k a b", "LPOP k", Touched),
	wc("lpop", "RPUSH k a b", "LPOP k 0", Untouched),
	wc("rpop", "RPUSH k a", "RPOP k 5", Touched),
	wc("lmpop", "RPUSH k a", "LMPOP 2 a k LEFT", Touched),
	wc("lmpop", "RPUSH a x ; RPUSH k a", "LMPOP 2 a k LEFT", Untouched),
	wc("ltrim", "RPUSH k a b", "LTRIM k 0 -1", Touched), // keeps everything
	wc("ltrim", "", "LTRIM k 0 -1", Untouched),
	wc("ltrim", "RPUSH k a b", "LTRIM k 5 6", Touched),
	wc("lrem", "RPUSH k a", "LREM k 0 zz", Untouched),
	wc("lrem", "RPUSH k a b", "LREM k 0 a", Touched),
	wc("lmove", "RPUSH k a", "LMOVE k k LEFT RIGHT", Touched), // one element onto itself
	wc("lmove", "RPUSH s a", "LMOVE s k LEFT RIGHT", Touched),
	wc("lmove", "RPUSH k a", "LMOVE k d LEFT RIGHT", Touched),
	wc("lmove", "", "LMOVE s k LEFT RIGHT", Untouched),
	wc("rpoplpush", "RPUSH k a b", "RPOPLPUSH k k", Touched),
	wc("rpoplpush", "RPUSH s a", "RPOPLPUSH s k", Touched),
	wc("blpop", "RPUSH k a", "BLPOP k 1", Touched),
	wc("blpop", "RPUSH a x ; RPUSH k a", "BLPOP a k 1", Untouched),
	wc("brpop", "RPUSH k a", "BRPOP k 1", Touched),
	wc("blmpop", "RPUSH k a b", "BLMPOP 1 1 k RIGHT COUNT 5", Touched),
	wc("blmove", "RPUSH s a", "BLMOVE s k LEFT LEFT 1", Touched),
	wc("brpoplpush", "RPUSH k a", "BRPOPLPUSH k d 1", Touched),

	// sets
	wc("sadd", "SADD k a", "SADD k a", Untouched), // a member already there
	wc("sadd", "SADD k a", "SADD k a b", Touched),
	wc("sadd", "", "SADD k a", Touched),
	wc("srem", "SADD k a", "SREM k zz", Untouched),
	wc("srem", "SADD k a b", "SREM k a", Touched),
	wc("srem", "SADD k a", "SREM k a", Touched),
	wc("smove", "SADD k a ; SADD d a", "SMOVE k d a", Touched),
	{Cmd: "smove", Setup: "SADD s a ; SADD k a", Watch: "k", Write: "SMOVE s k a", Want: Untouched},
	{Cmd: "smove", Setup: "SADD s a", Watch: "k", Write: "SMOVE s k a", Want: Touched},
	wc("smove", "SADD k a", "SMOVE k k a", Untouched),
	wc("smove", "SADD k a", "SMOVE k d zz", Untouched),
	wc("spop", "", "SPOP k", Untouched),
	{Cmd: "spop", Setup: "SADD k a b", Write: "SPOP k", Want: Touched, Random: true},
	wc("spop", "SADD k a b", "SPOP k 0", Untouched),
	{Cmd: "spop", Setup: "SADD k a b", Write: "SPOP k 5", Want: Touched, Random: true}, // (the order of the members differs)
	{Cmd: "spop", Setup: "SADD k a b c d e f", Write: "SPOP k 2", Want: Touched, Random: true},
	wc("sinterstore", "", "SINTERSTORE k a b", Untouched),
	wc("sinterstore", "SET k v", "SINTERSTORE k a b", Touched),
	wc("sinterstore", "SADD a x ; SADD b x", "SINTERSTORE k a b", Touched),
	wc("sinterstore", "SADD a x ; SADD b y", "SINTERSTORE k a b", Untouched),
	wc("sunionstore", "SADD k a", "SUNIONSTORE k k", Touched), // the same members
	wc("sunionstore", "", "SUNIONSTORE k a", Untouched),
	wc("sdiffstore", "SADD a x", "SDIFFSTORE k a a", Untouched),
	wc("sdiffstore", "SADD a x", "SDIFFSTORE k a b", Touched),

	// sorted sets
	wc("zadd", "ZADD k 1 a", "ZADD k 1 a", Untouched), // the same score
	wc("zadd", "ZADD k 1 a", "ZADD k 2 a", Touched),
	wc("zadd", "ZADD k 1 a", "ZADD k NX 2 a", Untouched),
	wc("zadd", "ZADD k 1 a", "ZADD k GT 0 a", Untouched),
	wc("zadd", "ZADD k 1 a", "ZADD k XX 1 b", Untouched),
	wc("zadd", "", "ZADD k XX 1 b", Untouched),
	wc("zadd", "ZADD k 1 a", "ZADD k INCR 0 a", Untouched),
	wc("zadd", "ZADD k 1 a", "ZADD k 1 b", Touched),
	wc("zincrby", "ZADD k 1 a", "ZINCRBY k 0 a", Untouched),
	wc("zincrby", "ZADD k 1 a", "ZINCRBY k 1 a", Touched),
	wc("zrem", "ZADD k 1 a", "ZREM k zz", Untouched),
	wc("zrem", "ZADD k 1 a 2 b", "ZREM k a", Touched),
	wc("zremrangebyscore", "ZADD k 1 a", "ZREMRANGEBYSCORE k 5 6", Untouched),
	wc("zremrangebyscore", "ZADD k 1 a", "ZREMRANGEBYSCORE k 0 6", Touched),
	wc("zremrangebyrank", "ZADD k 1 a", "ZREMRANGEBYRANK k 5 6", Untouched),
	wc("zremrangebyrank", "ZADD k 1 a 2 b", "ZREMRANGEBYRANK k 0 0", Touched),
	wc("zremrangebylex", "ZADD k 0 a", "ZREMRANGEBYLEX k [x [y", Untouched),
	wc("zremrangebylex", "ZADD k 0 a 0 b", "ZREMRANGEBYLEX k [a [a", Touched),
	wc("zpopmin", "", "ZPOPMIN k", Untouched),
	wc("zpopmin", "ZADD k 1 a 2 b", "ZPOPMIN k", Touched),
	wc("zpopmin", "ZADD k 1 a", "ZPOPMIN k 0", Untouched),
	wc("zpopmax", "ZADD k 1 a 2 b", "ZPOPMAX k 5", Touched),
	wc("zmpop", "ZADD k 1 a", "ZMPOP 1 k MIN", Touched),
	wc("zmpop", "ZADD a 1 x ; ZADD k 1 a", "ZMPOP 2 a k MAX", Untouched),
	wc("bzpopmin", "ZADD k 1 a 2 b", "BZPOPMIN k 1", Touched),
	wc("bzpopmax", "ZADD k 1 a", "BZPOPMAX k 1", Touched),
	wc("bzmpop", "ZADD k 1 a 2 b", "BZMPOP 1 1 k MIN COUNT 1", Touched),
	wc("zunionstore", "ZADD k 1 a", "ZUNIONSTORE k 1 k", Touched), // the same members
	wc("zunionstore", "", "ZUNIONSTORE k 1 a", Untouched),
	wc("zinterstore", "ZADD a 1 x", "ZINTERSTORE k 2 a b", Untouched),
	wc("zinterstore", "ZADD k 1 x", "ZINTERSTORE k 2 a b", Touched),
	wc("zdiffstore", "ZADD a 1 x", "ZDIFFSTORE k 1 a", Touched),
	wc("zrangestore", "ZADD a 1 x", "ZRANGESTORE k a 0 -1", Touched),
	wc("zrangestore", "ZADD a 1 x", "ZRANGESTORE k a 5 6", Untouched),
	wc("zrangestore", "ZADD a 1 x ; SET k v", "ZRANGESTORE k a 5 6", Touched),

	// streams: entries added or removed signal; consumer groups do not
	wc("xadd", "", "XADD k 1-1 f v", Touched),
	wc("xadd", "", "XADD k NOMKSTREAM 1-1 f v", Untouched),
	wc("xadd", "XADD k 1-1 f v", "XADD k 1-1 f v", Untouched), // an error: id too small
	wc("xadd", "XADD k 1-1 f v", "XADD k MAXLEN 0 2-1 f v", Touched),
	wc("xdel", "XADD k 1-1 f v", "XDEL k 5-5", Untouched),
	wc("xdel", "XADD k 1-1 f v", "XDEL k 1-1", Touched),
	wc("xtrim", "XADD k 1-1 f v", "XTRIM k MAXLEN 5", Untouched),
	wc("xtrim", "XADD k 1-1 f v ; XADD k 2-1 f v", "XTRIM k MAXLEN 1", Touched),
	wc("xsetid", "XADD k 1-1 f v", "XSETID k 5-5", Untouched),
	wc("xgroup|create", "XADD k 1-1 f v", "XGROUP CREATE k g 0", Untouched),
	wc("xgroup|create", "", "XGROUP CREATE k g $ MKSTREAM", Touched),
	wc("xgroup|setid", "XADD k 1-1 f v ; XGROUP CREATE k g 0", "XGROUP SETID k g $", Untouched),
	wc("xgroup|destroy", "XADD k 1-1 f v ; XGROUP CREATE k g 0", "XGROUP DESTROY k g", Untouched),
	wc("xgroup|createconsumer", "XADD k 1-1 f v ; XGROUP CREATE k g 0", "XGROUP CREATECONSUMER k g c", Untouched),
	wc("xgroup|delconsumer", "XADD k 1-1 f v ; XGROUP CREATE k g 0 ; XGROUP CREATECONSUMER k g c", "XGROUP DELCONSUMER k g c", Untouched),
	wc("xreadgroup", "XADD k 1-1 f v ; XGROUP CREATE k g 0", "XREADGROUP GROUP g c STREAMS k >", Untouched),
	wc("xack", "XADD k 1-1 f v ; XGROUP CREATE k g 0 ; XREADGROUP GROUP g c STREAMS k >", "XACK k g 1-1", Untouched),
	wc("xclaim", "XADD k 1-1 f v ; XGROUP CREATE k g 0 ; XREADGROUP GROUP g c STREAMS k >", "XCLAIM k g d 0 1-1", Untouched),
	wc("xautoclaim", "XADD k 1-1 f v ; XGROUP CREATE k g 0 ; XREADGROUP GROUP g c STREAMS k > ; XDEL k 1-1", "XAUTOCLAIM k g d 0 0", Untouched),

	// writes made by a script, by a transaction of the writer, by DEBUG RELOAD
	wc("eval", "HSET k f v", `EVAL "return redis.call('HSET', KEYS[1], 'f', 'v')" 1 k`, Touched),
	wc("eval", "SADD k a", `EVAL "return redis.call('SADD', KEYS[1], 'a')" 1 k`, Untouched),
	wc("eval", "SET k v", `EVAL "redis.call('SET', KEYS[1], 'w') return redis.call('DEL', KEYS[1])" 1 k`, Touched),
	wc("fcall", "SET k 5 ; FUNCTION LOAD REPLACE \"#!lua name=watchlib\nredis.register_function('incr0', function(keys) return redis.call('INCRBY', keys[1], 0) end)\"", "FCALL incr0 1 k ; FUNCTION DELETE watchlib", Touched),
	wc("exec", "SET k v", "MULTI ; SETRANGE k 0 v ; EXEC", Touched),
	wc("exec", "SET k v", "MULTI ; SETRANGE k 0 v ; DISCARD", Untouched),
	wc("debug", "SET k v", "DEBUG RELOAD", Touched),   // emptyData before the load
	wc("debug", "SET j v", "DEBUG RELOAD", Untouched), // k does not exist
}
