package engine

import (
	"sort"
	"strings"
	"testing"

	"redscope/engine/alloc"
)

// fuzzSeeds are real commands (redis-cli syntax, one per line; a seed may hold several lines that
// run in sequence on one engine).
var fuzzSeeds = []string{
	"SET k v\nGET k",
	"SET k 12345\nINCR k\nINCRBY k -9223372036854775808\nDECRBY k 5",
	"SET k 1.5\nINCRBYFLOAT k 1e308\nINCRBYFLOAT k -inf",
	"SET k hello EX 100 GET\nGETEX k PERSIST\nTTL k\nPTTL k",
	"SET k v PXAT 1767225600001 KEEPTTL NX XX",
	"APPEND k hello\nAPPEND k \" world\"\nSTRLEN k\nGETRANGE k -3 -1\nSUBSTR k 0 -100",
	"SETRANGE k 10 \"\\x00\\xff\"\nGETRANGE k 0 9223372036854775807",
	"SETRANGE k 536870911 x\nSTRLEN k",
	"MSET a 1 b 2 c 3\nMGET a b c d\nMSETNX a 1 z 2",
	"GETSET k 5\nGETDEL k\nSETNX k 1\nSETEX k 10 v\nPSETEX k 100 v",
	"SETBIT k 7 1\nGETBIT k 7\nBITCOUNT k\nBITCOUNT k 0 -1 BIT\nBITPOS k 1 0 -1 BYTE",
	"SETBIT k 4294967295 1\nBITCOUNT k\nBITPOS k 1\nMEMORY USAGE k\nSTRLEN k",
	"SETBIT a 100 1\nSETBIT b 3 1\nBITOP AND d a b\nBITOP OR d a b\nBITOP XOR d a b x\nBITOP NOT d a",
	"BITFIELD k SET i8 0 -100 GET u4 #1 INCRBY i5 100 1 OVERFLOW SAT INCRBY u2 102 1 OVERFLOW FAIL INCRBY i64 0 9223372036854775807",
	"BITFIELD_RO k GET u63 0 GET i64 #3",
	"PFADD h a b c d e\nPFCOUNT h\nPFADD h2 x\nPFMERGE h3 h h2\nPFCOUNT h h2 h3",
	"PFADD h a\nSETRANGE h 4 x\nPFCOUNT h\nPFDEBUG GETREG h\nPFDEBUG DECODE h\nPFDEBUG ENCODING h\nPFDEBUG TODENSE h",
	"CONFIG SET hll-sparse-max-bytes 0\nPFADD h a b c\nPFDEBUG ENCODING h\nCONFIG GET hll*",
	"SET k v\nEXPIRE k 100 NX\nEXPIRE k 10 GT\nEXPIRETIME k\nPEXPIRETIME k\nPERSIST k\nEXPIREAT k 1\nEXISTS k",
	"SET a 1\nRENAME a b\nRENAMENX b c\nCOPY c d REPLACE\nTYPE d\nKEYS *\nDBSIZE\nSCAN 0 MATCH * COUNT 10 TYPE string",
	"SET a 1\nOBJECT ENCODING a\nOBJECT REFCOUNT a\nOBJECT FREQ a\nOBJECT IDLETIME a\nDEBUG SDSLEN a\nDEBUG OBJECT a",
	"SELECT 3\nSET a 1\nFLUSHDB\nSELECT 0\nFLUSHALL\nRANDOMKEY\nTOUCH a b\nUNLINK a\nDEL a b",
	"COMMAND COUNT\nCOMMAND INFO get set\nCOMMAND GETKEYS set a b\nCOMMAND DOCS get",
	"SET k v IFEQ v\nDELEX k IFNE x\nDIGEST k\nMSETEX 2 a 1 b 2 EX 10\nINCREX k BYINT 5 EX 10",
	"PING\nECHO \"\"\nTIME\nINFO\nCONFIG RESETSTAT\nMEMORY USAGE k SAMPLES 0",
	// hashes
	"CONFIG SET hash-max-listpack-entries 2\nHSET h a 1 b 2 c 3\nOBJECT ENCODING h\nHGETALL h\nHDEL h a b c\nEXISTS h",
	"HSET h f 9223372036854775807\nHINCRBY h f 1\nHINCRBYFLOAT h f 1e308\nHINCRBYFLOAT h g inf\nHSTRLEN h f\nHMGET h f g x",
	"CONFIG SET hash-max-listpack-value 4\nHSET h f 12345\nHSETNX h f 1\nHRANDFIELD h -5 WITHVALUES\nHSCAN h 0 MATCH * COUNT 1\nMEMORY USAGE h",
	"HSET h a 1\nHEXPIRE h 100 FIELDS 1 a\nHTTL h FIELDS 2 a b\nHPERSIST h FIELDS 1 a\nHGETEX h PX 10 FIELDS 1 a\nHSETEX h FNX EX 5 FIELDS 1 b 2\nHGETDEL h FIELDS 1 b",
	// sets
	"CONFIG SET set-max-intset-entries 2\nSADD s 1 2 3 -9223372036854775808\nOBJECT ENCODING s\nSMEMBERS s\nSPOP s 2\nSRANDMEMBER s -3\nSSCAN s 0 COUNT 1",
	"SADD a 1 2 x\nSADD b 2 x y\nSINTER a b\nSINTERCARD 2 a b LIMIT 1\nSUNIONSTORE u a b\nSDIFFSTORE d a b nosuch\nSMOVE a b 1\nSMISMEMBER a 1 2 x",
	"CONFIG SET set-max-listpack-entries 1\nSADD s a b\nSREM s a b\nSPOP s\nSCARD s\nMEMORY USAGE s SAMPLES 0",
	// sorted sets
	"ZADD z NX CH 1 a 2 b inf c -inf d\nZINCRBY z nan a\nZINCRBY z -inf c\nZRANGE z 0 -1 WITHSCORES\nZRANGEBYSCORE z (1 +inf LIMIT 0 -1\nZCOUNT z -inf (2",
	"CONFIG SET zset-max-listpack-entries 1\nZADD z 0 a 0 b 0 c\nZRANGEBYLEX z [a (c\nZREVRANGEBYLEX z + - LIMIT 1 1\nZLEXCOUNT z - +\nZRANGE z (a [c BYLEX REV LIMIT 0 2",
	"ZADD z GT LT 1 a\nZADD z INCR 1 a 2 b\nZRANK z a\nZREVRANK z a WITHSCORE\nZMSCORE z a x\nZPOPMIN z 9223372036854775807\nZRANDMEMBER z -3 WITHSCORES\nZSCAN z 0",
	// lists
	"CONFIG SET list-max-listpack-size 1\nRPUSH l a b c d\nLINSERT l BEFORE c x\nLSET l -1 y\nLRANGE l -100 100\nLPOS l x RANK -1 COUNT 0 MAXLEN 2\nLREM l -1 a",
	"LPUSH l 1 2 3\nLMOVE l l RIGHT LEFT\nRPOPLPUSH l m\nBLMOVE m l LEFT RIGHT 0.01\nBLPOP nosuch l inf\nBRPOP l 1e30\nLTRIM l 1 -1\nLPOP l 9223372036854775807\nMEMORY USAGE l",
	"CONFIG SET list-max-listpack-size -5\nRPUSH l \"\"\nLINDEX l -9223372036854775808\nRPUSHX nosuch a\nLPUSHX l b\nOBJECT ENCODING l\nDEBUG LISTPACK l",
	// Bloom filters and CLUSTER KEYSLOT
	"BF.RESERVE bf 0.01 100\nBF.ADD bf a\nBF.MADD bf a b c\nBF.EXISTS bf a\nBF.MEXISTS bf a x\nBF.INFO bf\nBF.CARD bf\nMEMORY USAGE bf",
	"BF.RESERVE bf 0.0000001 1 EXPANSION 1 NONSCALING\nBF.INSERT bf CAPACITY 5 ERROR 0.5 ITEMS a b c d e f\nBF.SCANDUMP bf 0\nCLUSTER KEYSLOT {a}b\nCLUSTER KEYSLOT \"\"",
}

// FuzzExec runs random argument vectors (mutated from real commands) on fresh engines of every
// profile: no reply may be the internal-error reply Exec makes out of a panic.
func FuzzExec(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, uint8(0))
		f.Add(s, uint8(6))
	}
	// One seed per command and subcommand of the table, after keys of each type exist, so new
	// commands are fuzzed as soon as they are registered.
	names := make([]string, 0, len(commandTable))
	for n := range commandTable {
		names = append(names, n)
	}
	sort.Strings(names)
	const setup = "SET s 1\nSETBIT b 9 1\nPFADD h a\nRPUSH l a 1\nSADD st a 1\nHSET hs f v\nZADD z 1 a\n"
	for _, n := range names {
		c := commandTable[n]
		f.Add(setup+n+" s 0 1\n"+n+" l h\n"+n+" z a 1 2", uint8(6))
		subs := make([]string, 0, len(c.Sub))
		for sn := range c.Sub {
			subs = append(subs, sn)
		}
		sort.Strings(subs)
		for _, sn := range subs {
			f.Add(setup+n+" "+sn+" s\n"+n+" "+sn+" hs 1\n"+n+" "+sn, uint8(6))
		}
	}
	f.Fuzz(func(t *testing.T, script string, profile uint8) {
		if len(script) > 4096 {
			return
		}
		lines := strings.Split(script, "\n")
		if len(lines) > 24 {
			return
		}
		v := Versions[int(profile)%len(Versions)]
		a := alloc.Jemalloc
		if profile&0x80 != 0 {
			a = alloc.Jemalloc16
		}
		e := New(Options{Version: v, Allocator: a, Trace: profile&0x40 != 0})
		for _, line := range lines {
			args, err := SplitArgs(line)
			if err != nil {
				args = nil
				for _, w := range strings.Fields(line) {
					args = append(args, []byte(w))
				}
			}
			if len(args) == 0 {
				continue
			}
			if skipFuzz(args) {
				continue
			}
			r := e.Exec(args).Reply
			if bad := internalError(r); bad != "" {
				t.Fatalf("profile %s, %s: %q\n  on %q\n  script %q", v, a, bad, line, script)
			}
			_ = r.AppendRESP2(nil)
			_ = r.FormatCLI()
		}
	})
}

// skipFuzz leaves out commands whose cost is legitimately unbounded: DEBUG SLEEP waits, LCS is
// quadratic, and a huge count makes SRANDMEMBER s -1000000000 or DEBUG POPULATE build a huge
// reply or keyspace on a real server too.
func skipFuzz(args [][]byte) bool {
	name := strings.ToLower(string(args[0]))
	if len(args) < 3 {
		return name == "lcs"
	}
	switch name {
	case "lcs":
		return true
	case "srandmember", "hrandfield", "zrandmember":
		return hugeNumber(args[2:])
	case "debug":
		switch strings.ToLower(string(args[1])) {
		case "sleep", "segfault", "panic", "restart", "crash-and-recover", "oom", "reload", "loadaof":
			return true
		case "populate":
			return hugeNumber(args[2:])
		}
	}
	return false
}

// hugeNumber reports an argument that is an integer beyond ±100000.
func hugeNumber(args [][]byte) bool {
	for _, a := range args {
		if n, ok := string2ll(a); ok && (n > 100000 || n < -100000) {
			return true
		}
	}
	return false
}

// internalError finds an internal-error reply anywhere in r.
func internalError(r Reply) string {
	if r.Kind == KindError && strings.Contains(r.Str, "redscope internal error") {
		return r.Str
	}
	for _, it := range r.Array {
		if s := internalError(it); s != "" {
			return s
		}
	}
	return ""
}
