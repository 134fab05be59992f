package engine

// CLUSTER. redscope is a single non-cluster node, yet CLUSTER KEYSLOT answers in every profile as
// a cluster-enabled node does (cluster.c keyHashSlot; checked on a cluster-enabled 7.0.15 node): the
// lessons use it to show hash slots. Every other subcommand answers what a real non-cluster
// server answers for it, "ERR This instance has cluster support disabled" (checked on 7.0.15,
// which says so for KEYSLOT too: that one difference is deliberate). Arity is checked first and
// an unknown subcommand gets the usual unknown-subcommand error.

func init() {
	disabled := func(e *Engine, args [][]byte) Reply { return errClusterDisabled }
	sub := map[string]*Command{
		"keyslot": {Name: "keyslot", Arity: 3, Flags: FlagStale, Fn: cmdClusterKeyslot},
	}
	// The other subcommands of 7.0.15 (COMMAND INFO cluster) with their arities, and later ones.
	for _, s := range []struct {
		name  string
		arity int
		since Version
	}{
		{"addslots", -3, 0}, {"addslotsrange", -4, 0}, {"bumpepoch", 2, 0},
		{"count-failure-reports", 3, 0}, {"countkeysinslot", 3, 0}, {"delslots", -3, 0},
		{"delslotsrange", -4, 0}, {"failover", -2, 0}, {"flushslots", 2, 0}, {"forget", 3, 0},
		{"getkeysinslot", 4, 0}, {"help", 2, 0}, {"info", 2, 0}, {"links", 2, 0}, {"meet", -4, 0},
		{"myid", 2, 0}, {"nodes", 2, 0}, {"replicas", 3, 0}, {"replicate", 3, 0}, {"reset", -2, 0},
		{"saveconfig", 2, 0}, {"set-config-epoch", 3, 0}, {"setslot", -4, 0}, {"shards", 2, 0},
		{"slaves", 3, 0}, {"slots", 2, 0},
		{"myshardid", 2, V72}, {"slot-stats", -4, V80},
	} {
		sub[s.name] = &Command{Name: s.name, Arity: s.arity, Since: s.since, Flags: FlagStale, Fn: disabled}
	}
	register(&Command{Name: "cluster", Arity: -2, Sub: sub})
}

var errClusterDisabled = Err("ERR This instance has cluster support disabled")

func cmdClusterKeyslot(e *Engine, args [][]byte) Reply {
	return Int(int64(KeySlot(args[2])))
}

// KeySlot is the Redis Cluster hash slot of a key: CRC16-XMODEM of the key, or of its hash tag
// (the bytes between the first '{' and the first '}' after it, when there is at least one), mod
// 16384.
func KeySlot(key []byte) int {
	for s := 0; s < len(key); s++ {
		if key[s] == '{' {
			for e := s + 1; e < len(key); e++ {
				if key[e] == '}' {
					if e > s+1 {
						key = key[s+1 : e]
					}
					break
				}
			}
			break
		}
	}
	return int(CRC16(key) & 0x3FFF)
}

// crc16Table is CRC16-CCITT (XMODEM): polynomial 0x1021, initial value 0, no reflection.
var crc16Table = func() (t [256]uint16) {
	for i := range t {
		c := uint16(i) << 8
		for b := 0; b < 8; b++ {
			if c&0x8000 != 0 {
				c = c<<1 ^ 0x1021
			} else {
				c <<= 1
			}
		}
		t[i] = c
	}
	return
}()

// CRC16 is CRC16-XMODEM ("123456789" → 0x31C3).
func CRC16(b []byte) uint16 {
	var crc uint16
	for _, c := range b {
		crc = crc<<8 ^ crc16Table[byte(crc>>8)^c]
	}
	return crc
}
