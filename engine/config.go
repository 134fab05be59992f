package engine

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// ConfigParam is one CONFIG GET/SET parameter the engine models.
//
// Kinds and how CONFIG SET parses them (config.c of 7.0.15):
//   - "int": a strict integer (string2ll) → "argument couldn't be parsed into an integer";
//   - "memory": memtoull (digits then an optional b/k/kb/m/mb/g/gb unit, any case; "" is 0)
//     → "argument must be a memory value";
//   - "enum": one of Enum, any case → "argument(s) must be one of the following: …";
//   - "bool": yes/no → "argument must be 'yes' or 'no'";
//   - "save": pairs of seconds/changes or "" → "Invalid save parameters";
//   - "string": any value (a few have a validity check, see checkString);
//   - "percent": a memory value or N% (stored as -N, printed "N%");
//   - "octal": an octal number;
//   - "obuf", "oom-values", "notify", "bind", "percentiles", "dir", "replicaof": the special
//     parameters (client-output-buffer-limit, oom-score-adj-values, notify-keyspace-events, bind,
//     latency-tracking-info-percentiles, dir, replicaof), parsed as config.c's set functions do.
//
// Numbers are then checked against [Min, Max]: signed for long long / int configs, and as
// unsigned 64-bit values when Unsigned (size_t, unsigned int, unsigned long long configs: a
// negative input wraps around and fails, and Max -1 stands for ULLONG_MAX).
type ConfigParam struct {
	Name      string
	Aliases   []string
	Kind      string // "int", "memory" (accepts 1kb, 512mb…), "enum", "string", "bool", "save"
	Default   string
	Min       int64
	Max       int64
	Enum      []string
	Since     Version
	Unsigned  bool    // bounds checked (and the value printed) as an unsigned number
	Immutable bool    // CONFIG SET fails with "can't set immutable config"
	Protected bool    // CONFIG SET fails with "can't set protected config" (enable-protected-configs no)
	Hidden    bool    // not matched by CONFIG GET patterns, only by its exact name
	Flags     bool    // a multi-argument enum whose names combine as bit flags (shutdown-on-sig*)
	Until     Version // first profile without it (0: still there)
}

// numeric reports whether the parameter's value is also kept as a number (Config.Int).
func (p *ConfigParam) numeric() bool {
	switch p.Kind {
	case "int", "memory", "percent", "octal":
		return true
	}
	return false
}

// in reports whether the parameter exists in profile v.
func (p *ConfigParam) in(v Version) bool {
	return v.Has(p.Since) && (p.Until == 0 || !v.Has(p.Until))
}

const maxLong = 1<<63 - 1

// configParams is 7.0.15's parameter table (config.c static_configs, the TLS ones included as
// Debian builds them), in its order, then the parameters later profiles add. Defaults are what a
// 7.0.15 started without a config file reports, except save (empty: the simulator never
// writes a snapshot), enable-debug-command (yes: DEBUG works), and the per-machine values (dir
// "/", port 6379, bind "* -::*", no log or pid file). Which parameters change what the engine
// does is listed in docs/config.md; the others are validated and stored.
var configParams = []*ConfigParam{
	{Name: "rdbchecksum", Kind: "bool", Default: "yes", Immutable: true},
	{Name: "daemonize", Kind: "bool", Default: "no", Immutable: true},
	{Name: "io-threads-do-reads", Kind: "bool", Default: "no", Immutable: true},
	{Name: "always-show-logo", Kind: "bool", Default: "no", Immutable: true},
	{Name: "protected-mode", Kind: "bool", Default: "yes"},
	{Name: "rdbcompression", Kind: "bool", Default: "yes"},
	{Name: "rdb-del-sync-files", Kind: "bool", Default: "no"},
	{Name: "activerehashing", Kind: "bool", Default: "yes"},
	{Name: "stop-writes-on-bgsave-error", Kind: "bool", Default: "yes"},
	{Name: "set-proc-title", Kind: "bool", Default: "yes", Immutable: true},
	{Name: "dynamic-hz", Kind: "bool", Default: "yes"},
	{Name: "lazyfree-lazy-eviction", Kind: "bool", Default: "no"},
	{Name: "lazyfree-lazy-expire", Kind: "bool", Default: "no"},
	{Name: "lazyfree-lazy-server-del", Kind: "bool", Default: "no"},
	{Name: "lazyfree-lazy-user-del", Kind: "bool", Default: "no"},
	{Name: "lazyfree-lazy-user-flush", Kind: "bool", Default: "no"},
	{Name: "repl-disable-tcp-nodelay", Kind: "bool", Default: "no"},
	{Name: "repl-diskless-sync", Kind: "bool", Default: "yes"},
	{Name: "aof-rewrite-incremental-fsync", Kind: "bool", Default: "yes"},
	{Name: "no-appendfsync-on-rewrite", Kind: "bool", Default: "no"},
	{Name: "cluster-require-full-coverage", Kind: "bool", Default: "yes"},
	{Name: "rdb-save-incremental-fsync", Kind: "bool", Default: "yes"},
	{Name: "aof-load-truncated", Kind: "bool", Default: "yes"},
	{Name: "aof-use-rdb-preamble", Kind: "bool", Default: "yes"},
	{Name: "aof-timestamp-enabled", Kind: "bool", Default: "no"},
	{Name: "cluster-replica-no-failover", Aliases: []string{"cluster-slave-no-failover"}, Kind: "bool", Default: "no"},
	{Name: "replica-lazy-flush", Aliases: []string{"slave-lazy-flush"}, Kind: "bool", Default: "no"},
	{Name: "replica-serve-stale-data", Aliases: []string{"slave-serve-stale-data"}, Kind: "bool", Default: "yes"},
	{Name: "replica-read-only", Aliases: []string{"slave-read-only"}, Kind: "bool", Default: "yes"},
	{Name: "replica-ignore-maxmemory", Aliases: []string{"slave-ignore-maxmemory"}, Kind: "bool", Default: "yes"},
	{Name: "jemalloc-bg-thread", Kind: "bool", Default: "yes"},
	{Name: "activedefrag", Kind: "bool", Default: "no"},
	{Name: "syslog-enabled", Kind: "bool", Default: "no", Immutable: true},
	{Name: "cluster-enabled", Kind: "bool", Default: "no", Immutable: true},
	{Name: "appendonly", Kind: "bool", Default: "no"},
	{Name: "cluster-allow-reads-when-down", Kind: "bool", Default: "no"},
	{Name: "cluster-allow-pubsubshard-when-down", Kind: "bool", Default: "yes"},
	{Name: "crash-log-enabled", Kind: "bool", Default: "yes"},
	{Name: "crash-memcheck-enabled", Kind: "bool", Default: "yes"},
	{Name: "use-exit-on-panic", Kind: "bool", Default: "no", Hidden: true},
	{Name: "disable-thp", Kind: "bool", Default: "yes", Immutable: true},
	{Name: "cluster-allow-replica-migration", Kind: "bool", Default: "yes"},
	{Name: "replica-announced", Kind: "bool", Default: "yes"},
	{Name: "latency-tracking", Kind: "bool", Default: "yes"},
	{Name: "aof-disable-auto-gc", Kind: "bool", Default: "no", Until: V72},
	{Name: "aof-disable-auto-gc", Kind: "bool", Default: "no", Since: V72, Hidden: true},
	{Name: "replica-ignore-disk-write-errors", Kind: "bool", Default: "no"},
	{Name: "aclfile", Kind: "string", Default: "", Immutable: true},
	{Name: "unixsocket", Kind: "string", Default: "", Immutable: true},
	{Name: "pidfile", Kind: "string", Default: "", Immutable: true},
	{Name: "replica-announce-ip", Aliases: []string{"slave-announce-ip"}, Kind: "string", Default: ""},
	{Name: "masteruser", Kind: "string", Default: ""},
	{Name: "cluster-announce-ip", Kind: "string", Default: ""},
	{Name: "cluster-config-file", Kind: "string", Default: "nodes.conf", Immutable: true},
	{Name: "cluster-announce-hostname", Kind: "string", Default: ""},
	{Name: "syslog-ident", Kind: "string", Default: "redis", Immutable: true},
	{Name: "dbfilename", Kind: "string", Default: "dump.rdb", Protected: true},
	{Name: "appendfilename", Kind: "string", Default: "appendonly.aof", Immutable: true},
	{Name: "appenddirname", Kind: "string", Default: "appendonlydir", Immutable: true},
	{Name: "server_cpulist", Kind: "string", Default: "", Immutable: true, Until: V74},
	{Name: "bio_cpulist", Kind: "string", Default: "", Immutable: true, Until: V74},
	{Name: "aof_rewrite_cpulist", Kind: "string", Default: "", Immutable: true, Until: V74},
	{Name: "bgsave_cpulist", Kind: "string", Default: "", Immutable: true, Until: V74},
	{Name: "ignore-warnings", Kind: "string", Default: ""},
	{Name: "proc-title-template", Kind: "string", Default: "{title} {listen-addr} {server-mode}"},
	{Name: "bind-source-addr", Kind: "string", Default: ""},
	{Name: "logfile", Kind: "string", Default: "", Immutable: true},
	{Name: "masterauth", Kind: "string", Default: ""},
	{Name: "requirepass", Kind: "string", Default: ""},
	{Name: "supervised", Kind: "enum", Default: "no", Enum: []string{"upstart", "systemd", "auto", "no"}, Immutable: true},
	{Name: "syslog-facility", Kind: "enum", Default: "local0", Enum: []string{"user", "local0", "local1", "local2", "local3", "local4", "local5", "local6", "local7"}, Immutable: true},
	{Name: "repl-diskless-load", Kind: "enum", Default: "disabled", Enum: []string{"disabled", "on-empty-db", "swapdb"}},
	{Name: "loglevel", Kind: "enum", Default: "notice", Enum: []string{"debug", "verbose", "notice", "warning"}},
	{Name: "maxmemory-policy", Kind: "enum", Default: "noeviction", Enum: []string{"volatile-lru", "volatile-lfu", "volatile-random", "volatile-ttl", "allkeys-lru", "allkeys-lfu", "allkeys-random", "noeviction"}},
	{Name: "appendfsync", Kind: "enum", Default: "everysec", Enum: []string{"everysec", "always", "no"}},
	{Name: "oom-score-adj", Kind: "enum", Default: "no", Enum: []string{"no", "yes", "relative", "absolute"}},
	{Name: "acl-pubsub-default", Kind: "enum", Default: "resetchannels", Enum: []string{"allchannels", "resetchannels"}},
	{Name: "sanitize-dump-payload", Kind: "enum", Default: "no", Enum: []string{"no", "yes", "clients"}},
	{Name: "enable-protected-configs", Kind: "enum", Default: "no", Enum: []string{"no", "yes", "local"}, Immutable: true},
	{Name: "enable-debug-command", Kind: "enum", Default: "yes", Enum: []string{"no", "yes", "local"}, Immutable: true},
	{Name: "enable-module-command", Kind: "enum", Default: "no", Enum: []string{"no", "yes", "local"}, Immutable: true},
	{Name: "cluster-preferred-endpoint-type", Kind: "enum", Default: "ip", Enum: []string{"ip", "hostname", "unknown-endpoint"}},
	{Name: "propagation-error-behavior", Kind: "enum", Default: "ignore", Enum: []string{"ignore", "panic", "panic-on-replicas"}},
	{Name: "shutdown-on-sigint", Kind: "enum", Default: "default", Enum: []string{"default", "save", "nosave", "now", "force"}, Flags: true},
	{Name: "shutdown-on-sigterm", Kind: "enum", Default: "default", Enum: []string{"default", "save", "nosave", "now", "force"}, Flags: true},
	{Name: "databases", Kind: "int", Default: "16", Min: 1, Max: 1<<31 - 1, Immutable: true},
	{Name: "port", Kind: "int", Default: "6379", Min: 0, Max: 65535},
	{Name: "io-threads", Kind: "int", Default: "1", Min: 1, Max: 128, Immutable: true},
	{Name: "auto-aof-rewrite-percentage", Kind: "int", Default: "100", Min: 0, Max: 1<<31 - 1},
	{Name: "cluster-replica-validity-factor", Aliases: []string{"cluster-slave-validity-factor"}, Kind: "int", Default: "10", Min: 0, Max: 1<<31 - 1},
	{Name: "list-max-listpack-size", Aliases: []string{"list-max-ziplist-size"}, Kind: "int", Default: "-2", Min: -(1 << 31), Max: 1<<31 - 1},
	{Name: "tcp-keepalive", Kind: "int", Default: "300", Min: 0, Max: 1<<31 - 1},
	{Name: "cluster-migration-barrier", Kind: "int", Default: "1", Min: 0, Max: 1<<31 - 1},
	{Name: "active-defrag-cycle-min", Kind: "int", Default: "1", Min: 1, Max: 99},
	{Name: "active-defrag-cycle-max", Kind: "int", Default: "25", Min: 1, Max: 99},
	{Name: "active-defrag-threshold-lower", Kind: "int", Default: "10", Min: 0, Max: 1000},
	{Name: "active-defrag-threshold-upper", Kind: "int", Default: "100", Min: 0, Max: 1000},
	{Name: "lfu-log-factor", Kind: "int", Default: "10", Min: 0, Max: 1<<31 - 1},
	{Name: "lfu-decay-time", Kind: "int", Default: "1", Min: 0, Max: 1<<31 - 1},
	{Name: "replica-priority", Aliases: []string{"slave-priority"}, Kind: "int", Default: "100", Min: 0, Max: 1<<31 - 1},
	{Name: "repl-diskless-sync-delay", Kind: "int", Default: "5", Min: 0, Max: 1<<31 - 1},
	{Name: "maxmemory-samples", Kind: "int", Default: "5", Min: 1, Max: 1<<31 - 1, Until: V74},
	{Name: "maxmemory-samples", Kind: "int", Default: "5", Min: 1, Max: 64, Since: V74},
	{Name: "maxmemory-eviction-tenacity", Kind: "int", Default: "10", Min: 0, Max: 100},
	{Name: "timeout", Kind: "int", Default: "0", Min: 0, Max: 1<<31 - 1},
	{Name: "replica-announce-port", Aliases: []string{"slave-announce-port"}, Kind: "int", Default: "0", Min: 0, Max: 65535},
	{Name: "tcp-backlog", Kind: "int", Default: "511", Min: 0, Max: 1<<31 - 1, Immutable: true},
	{Name: "cluster-port", Kind: "int", Default: "0", Min: 0, Max: 65535, Immutable: true},
	{Name: "cluster-announce-bus-port", Kind: "int", Default: "0", Min: 0, Max: 65535},
	{Name: "cluster-announce-port", Kind: "int", Default: "0", Min: 0, Max: 65535},
	{Name: "cluster-announce-tls-port", Kind: "int", Default: "0", Min: 0, Max: 65535},
	{Name: "repl-timeout", Kind: "int", Default: "60", Min: 1, Max: 1<<31 - 1},
	{Name: "repl-ping-replica-period", Aliases: []string{"repl-ping-slave-period"}, Kind: "int", Default: "10", Min: 1, Max: 1<<31 - 1},
	{Name: "list-compress-depth", Kind: "int", Default: "0", Min: 0, Max: 1<<31 - 1},
	{Name: "rdb-key-save-delay", Kind: "int", Default: "0", Min: -(1 << 31), Max: 1<<31 - 1, Hidden: true},
	{Name: "key-load-delay", Kind: "int", Default: "0", Min: -(1 << 31), Max: 1<<31 - 1, Hidden: true},
	{Name: "active-expire-effort", Kind: "int", Default: "1", Min: 1, Max: 10},
	{Name: "hz", Kind: "int", Default: "10", Min: 0, Max: 1<<31 - 1},
	{Name: "min-replicas-to-write", Aliases: []string{"min-slaves-to-write"}, Kind: "int", Default: "0", Min: 0, Max: 1<<31 - 1},
	{Name: "min-replicas-max-lag", Aliases: []string{"min-slaves-max-lag"}, Kind: "int", Default: "10", Min: 0, Max: 1<<31 - 1},
	{Name: "watchdog-period", Kind: "int", Default: "0", Min: 0, Max: 1<<31 - 1, Hidden: true},
	{Name: "shutdown-timeout", Kind: "int", Default: "10", Min: 0, Max: 1<<31 - 1},
	{Name: "repl-diskless-sync-max-replicas", Kind: "int", Default: "0", Min: 0, Max: 1<<31 - 1},
	{Name: "maxclients", Kind: "int", Default: "10000", Min: 1, Max: 1<<32 - 1, Unsigned: true},
	{Name: "unixsocketperm", Kind: "octal", Default: "0", Min: 0, Max: 511, Unsigned: true, Immutable: true},
	{Name: "socket-mark-id", Kind: "int", Default: "0", Min: 0, Max: 1<<32 - 1, Unsigned: true, Immutable: true},
	{Name: "active-defrag-max-scan-fields", Kind: "int", Default: "1000", Min: 1, Max: maxLong},
	{Name: "slowlog-max-len", Kind: "int", Default: "128", Min: 0, Max: maxLong},
	{Name: "acllog-max-len", Kind: "int", Default: "128", Min: 0, Max: maxLong},
	{Name: "busy-reply-threshold", Aliases: []string{"lua-time-limit"}, Kind: "int", Default: "5000", Min: 0, Max: maxLong},
	{Name: "cluster-node-timeout", Kind: "int", Default: "15000", Min: 0, Max: maxLong},
	{Name: "slowlog-log-slower-than", Kind: "int", Default: "10000", Min: -1, Max: maxLong},
	{Name: "latency-monitor-threshold", Kind: "int", Default: "0", Min: 0, Max: maxLong},
	{Name: "proto-max-bulk-len", Kind: "memory", Default: "536870912", Min: 1048576, Max: maxLong},
	{Name: "stream-node-max-entries", Kind: "int", Default: "100", Min: 0, Max: maxLong},
	{Name: "repl-backlog-size", Kind: "memory", Default: "1048576", Min: 1, Max: maxLong},
	{Name: "maxmemory", Kind: "memory", Default: "0", Min: 0, Max: -1, Unsigned: true},
	{Name: "cluster-link-sendbuf-limit", Kind: "memory", Default: "0", Min: 0, Max: -1, Unsigned: true},
	{Name: "hash-max-listpack-entries", Aliases: []string{"hash-max-ziplist-entries"}, Kind: "int", Default: "512", Min: 0, Max: maxLong, Unsigned: true},
	{Name: "set-max-intset-entries", Kind: "int", Default: "512", Min: 0, Max: maxLong, Unsigned: true},
	{Name: "zset-max-listpack-entries", Aliases: []string{"zset-max-ziplist-entries"}, Kind: "int", Default: "128", Min: 0, Max: maxLong, Unsigned: true},
	{Name: "active-defrag-ignore-bytes", Kind: "memory", Default: "104857600", Min: 1, Max: maxLong, Unsigned: true},
	{Name: "hash-max-listpack-value", Aliases: []string{"hash-max-ziplist-value"}, Kind: "memory", Default: "64", Min: 0, Max: maxLong, Unsigned: true},
	{Name: "stream-node-max-bytes", Kind: "memory", Default: "4096", Min: 0, Max: maxLong, Unsigned: true},
	{Name: "zset-max-listpack-value", Aliases: []string{"zset-max-ziplist-value"}, Kind: "memory", Default: "64", Min: 0, Max: maxLong, Unsigned: true},
	{Name: "hll-sparse-max-bytes", Kind: "memory", Default: "3000", Min: 0, Max: maxLong, Unsigned: true},
	{Name: "tracking-table-max-keys", Kind: "int", Default: "1000000", Min: 0, Max: maxLong, Unsigned: true},
	{Name: "client-query-buffer-limit", Kind: "memory", Default: "1073741824", Min: 1048576, Max: maxLong, Unsigned: true},
	{Name: "maxmemory-clients", Kind: "percent", Default: "0", Min: -100, Max: maxLong},
	{Name: "repl-backlog-ttl", Kind: "int", Default: "3600", Min: 0, Max: maxLong},
	{Name: "auto-aof-rewrite-min-size", Kind: "memory", Default: "67108864", Min: 0, Max: maxLong},
	{Name: "loading-process-events-interval-bytes", Kind: "int", Default: "2097152", Min: 1024, Max: 1<<31 - 1, Hidden: true},
	{Name: "tls-port", Kind: "int", Default: "0", Min: 0, Max: 65535},
	{Name: "tls-session-cache-size", Kind: "int", Default: "20480", Min: 0, Max: 1<<31 - 1},
	{Name: "tls-session-cache-timeout", Kind: "int", Default: "300", Min: 0, Max: 1<<31 - 1},
	{Name: "tls-cluster", Kind: "bool", Default: "no"},
	{Name: "tls-replication", Kind: "bool", Default: "no"},
	{Name: "tls-auth-clients", Kind: "enum", Default: "yes", Enum: []string{"no", "yes", "optional"}},
	{Name: "tls-prefer-server-ciphers", Kind: "bool", Default: "no"},
	{Name: "tls-session-caching", Kind: "bool", Default: "yes"},
	{Name: "tls-cert-file", Kind: "string", Default: ""},
	{Name: "tls-key-file", Kind: "string", Default: ""},
	{Name: "tls-key-file-pass", Kind: "string", Default: ""},
	{Name: "tls-client-cert-file", Kind: "string", Default: ""},
	{Name: "tls-client-key-file", Kind: "string", Default: ""},
	{Name: "tls-client-key-file-pass", Kind: "string", Default: ""},
	{Name: "tls-dh-params-file", Kind: "string", Default: ""},
	{Name: "tls-ca-cert-file", Kind: "string", Default: ""},
	{Name: "tls-ca-cert-dir", Kind: "string", Default: ""},
	{Name: "tls-protocols", Kind: "string", Default: ""},
	{Name: "tls-ciphers", Kind: "string", Default: ""},
	{Name: "tls-ciphersuites", Kind: "string", Default: ""},
	{Name: "dir", Kind: "dir", Default: "/", Protected: true},
	{Name: "save", Kind: "save", Default: ""},
	{Name: "client-output-buffer-limit", Kind: "obuf", Default: "normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60"},
	{Name: "oom-score-adj-values", Kind: "oom-values", Default: "0 200 800"},
	{Name: "notify-keyspace-events", Kind: "notify", Default: ""},
	{Name: "bind", Kind: "bind", Default: "* -::*"},
	{Name: "replicaof", Aliases: []string{"slaveof"}, Kind: "replicaof", Default: "", Immutable: true},
	{Name: "latency-tracking-info-percentiles", Kind: "percentiles", Default: "50 99 99.9"},

	// 7.2 (config.c of 7.2.6)
	{Name: "set-max-listpack-entries", Kind: "int", Default: "128", Min: 0, Max: maxLong, Since: V72, Unsigned: true},
	{Name: "set-max-listpack-value", Kind: "memory", Default: "64", Min: 0, Max: maxLong, Since: V72, Unsigned: true},
	{Name: "cluster-announce-human-nodename", Kind: "string", Default: "", Since: V72},
	{Name: "req-res-logfile", Kind: "string", Default: "", Since: V72, Immutable: true, Hidden: true},
	{Name: "locale-collate", Kind: "string", Default: "", Since: V72},
	{Name: "client-default-resp", Kind: "int", Default: "2", Min: 2, Max: 3, Since: V72, Unsigned: true, Immutable: true, Hidden: true},
	{Name: "cluster-ping-interval", Kind: "int", Default: "0", Min: 0, Max: maxLong, Since: V72, Hidden: true},
	// 7.4 (config.c of 7.4.1): the cpulist parameters renamed with dashes, the old names aliases.
	{Name: "hide-user-data-from-log", Kind: "bool", Default: "no", Since: V74},
	{Name: "server-cpulist", Aliases: []string{"server_cpulist"}, Kind: "string", Default: "", Immutable: true, Since: V74},
	{Name: "bio-cpulist", Aliases: []string{"bio_cpulist"}, Kind: "string", Default: "", Immutable: true, Since: V74},
	{Name: "aof-rewrite-cpulist", Aliases: []string{"aof_rewrite_cpulist"}, Kind: "string", Default: "", Immutable: true, Since: V74},
	{Name: "bgsave-cpulist", Aliases: []string{"bgsave_cpulist"}, Kind: "string", Default: "", Immutable: true, Since: V74},
	{Name: "max-new-connections-per-cycle", Kind: "int", Default: "10", Min: 1, Max: 1000, Since: V74, Unsigned: true},
	{Name: "max-new-tls-connections-per-cycle", Kind: "int", Default: "1", Min: 1, Max: 1000, Since: V74, Unsigned: true},
}

// Config holds the current parameter values.
type Config struct {
	e    *Engine
	vals map[string]string // canonical name → value as CONFIG GET prints it
	ints map[string]int64
	hot  hotInts // the parameters read on every command, also kept here (setInt)
	lfu  bool    // maxmemory-policy is an LFU one (read on every key access)
	acl  *ACL    // the users (acl.go); requirepass is the default user's password
	// INFO's counters (info.go), which CONFIG RESETSTAT clears, and the layer above's fields.
	stats    *infoStats
	infoHost func() InfoHost
}

func newConfig(e *Engine) *Config {
	c := &Config{e: e, vals: map[string]string{}, ints: map[string]int64{}}
	for _, p := range configParams {
		c.vals[p.Name] = p.Default
		if p.numeric() {
			base := 10
			if p.Kind == "octal" {
				base = 8
			}
			n, _ := strconv.ParseInt(p.Default, base, 64)
			c.setInt(p.Name, n)
		}
	}
	c.acl = newACL(e)
	c.stats = newInfoStats()
	return c
}

// Param finds a parameter by name or alias (case-insensitive) available in this profile.
func (c *Config) Param(name string) *ConfigParam {
	p, _ := c.lookup(name)
	return p
}

// lookup is Param that also reports whether name was an alias (Redis 7.0 keeps aliases as
// separate table entries: `CONFIG SET a 1 alias-of-a 2` is not a duplicate).
func (c *Config) lookup(name string) (*ConfigParam, bool) {
	name = strings.ToLower(name)
	for _, p := range configParams {
		if !p.in(c.e.ver) {
			continue
		}
		if p.Name == name {
			return p, false
		}
		for _, a := range p.Aliases {
			if a == name {
				return p, true
			}
		}
	}
	return nil, false
}

// Int returns a numeric parameter's value (an unsigned value above MaxInt64, only possible for
// maxmemory, reads as negative).
func (c *Config) Int(name string) int64 { return c.ints[name] }

// hotInts are numeric parameters every command reads, as fields: a map lookup by a name as long
// as "slowlog-log-slower-than" costs more than the rest of a PING (server/bench_test.go).
type hotInts struct {
	maxmemory, slowlogSlower, slowlogMaxLen int64
}

// setInt stores a numeric parameter's value.
func (c *Config) setInt(name string, n int64) {
	c.ints[name] = n
	switch name {
	case "maxmemory":
		c.hot.maxmemory = n
	case "slowlog-log-slower-than":
		c.hot.slowlogSlower = n
	case "slowlog-max-len":
		c.hot.slowlogMaxLen = n
	}
}

// Get returns a parameter's value as CONFIG GET prints it.
func (c *Config) Get(name string) string { return c.vals[name] }

// set stores an already validated value.
func (c *Config) set(p *ConfigParam, printed string, n int64) {
	c.vals[p.Name] = printed
	if p.numeric() {
		c.setInt(p.Name, n)
	}
	if p.Name == "maxmemory-policy" {
		c.lfu = strings.HasSuffix(printed, "-lfu")
	}
	if p.Name == "requirepass" {
		c.acl.setDefaultPassword(printed)
	}
}

// Config gives read access to the engine's configuration.
func (e *Engine) Config() *Config { return e.cfg }

// memtoull is Redis's memory-value parser: leading digits, then "", b, k, kb, m, mb, g or gb
// (any case). Digits overflowing 64 bits saturate (strtoull) and the unit multiplication wraps,
// exactly as the C code does; "" reads as 0.
func memtoull(s string) (uint64, bool) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	var mul uint64
	switch strings.ToLower(s[i:]) {
	case "", "b":
		mul = 1
	case "k":
		mul = 1000
	case "kb":
		mul = 1024
	case "m":
		mul = 1000 * 1000
	case "mb":
		mul = 1024 * 1024
	case "g":
		mul = 1000 * 1000 * 1000
	case "gb":
		mul = 1024 * 1024 * 1024
	default:
		return 0, false
	}
	var v uint64
	for _, ch := range []byte(s[:i]) {
		d := uint64(ch - '0')
		if v > (math.MaxUint64-d)/10 {
			v = math.MaxUint64
			break
		}
		v = v*10 + d
	}
	return v * mul, true
}

// errNoDetail is the errText of a value refused without a reason: CONFIG SET then answers
// "CONFIG SET failed (possibly related to argument '…')" alone.
const errNoDetail = "\x00"

// splitSpaces is sdssplitlen(value, " "): every single space separates (empty tokens
// included); "" gives none.
func splitSpaces(v string) []string {
	if v == "" {
		return nil
	}
	return strings.Split(v, " ")
}

// parseValue validates a CONFIG SET value: the printed form and the number, or Redis's error.
func (c *Config) parseValue(p *ConfigParam, val string) (printed string, n int64, errText string) {
	switch p.Kind {
	case "bool":
		switch strings.ToLower(val) {
		case "yes":
			if p.Name == "activedefrag" {
				// isValidActiveDefrag: the reference build (Debian's, system jemalloc) has no
				// defragmentation support.
				return "", 0, "Active defragmentation cannot be enabled: it requires a Redis server compiled with a modified Jemalloc like the one shipped by default with the Redis source distribution"
			}
			return "yes", 0, ""
		case "no":
			return "no", 0, ""
		}
		return "", 0, "argument must be 'yes' or 'no'"
	case "enum":
		return parseEnum(p, val)
	case "save":
		// sdssplitlen on single spaces, then strtoll per token: seconds >= 1, changes >= 0.
		if val == "" {
			return "", 0, ""
		}
		f := strings.Split(val, " ")
		if len(f)%2 != 0 {
			return "", 0, "Invalid save parameters"
		}
		nums := make([]string, len(f))
		for i, x := range f {
			v, ok := strtoll(x)
			if !ok || (i%2 == 0 && v < 1) || (i%2 == 1 && v < 0) {
				return "", 0, "Invalid save parameters"
			}
			nums[i] = itoa(v)
		}
		return strings.Join(nums, " "), 0, ""
	case "string":
		if msg := checkString(p.Name, val); msg != "" {
			return "", 0, msg
		}
		return val, 0, ""
	case "obuf":
		return c.parseObuf(val)
	case "oom-values":
		f := splitSpaces(val)
		if len(f) != 3 {
			return "", 0, "wrong number of arguments"
		}
		for i, x := range f {
			v, ok := strtoll(x)
			if !ok || x == "" || v < -2000 || v > 2000 {
				return "", 0, "Invalid oom-score-adj-values, elements must be between -2000 and 2000."
			}
			f[i] = itoa(v)
		}
		return strings.Join(f, " "), 0, ""
	case "notify":
		flags := 0
		for _, ch := range val {
			i := strings.IndexRune(notifyClasses, ch)
			if i < 0 {
				return "", 0, "Invalid event class character. Use 'Ag$lshzxeKEtmdn'."
			}
			flags |= notifyFlags[i]
		}
		return notifyString(flags), 0, ""
	case "bind":
		f := splitSpaces(val)
		if len(f) > 16 {
			return "", 0, "Too many bind addresses specified."
		}
		return strings.Join(f, " "), 0, ""
	case "percentiles":
		f := splitSpaces(val)
		out := make([]string, len(f))
		for i, x := range f {
			d, err := strconv.ParseFloat(x, 64)
			if err != nil || x == "" || strings.ContainsAny(x, " \t") || d != d {
				return "", 0, "Invalid latency-tracking-info-percentiles parameters"
			}
			if d > 100 || d < 0 {
				return "", 0, "latency-tracking-info-percentiles parameters should sit between [0.0,100.0]"
			}
			t := strconv.FormatFloat(d, 'f', 6, 64)
			t = strings.TrimRight(t, "0")
			out[i] = strings.TrimSuffix(t, ".")
		}
		return strings.Join(out, " "), 0, ""
	case "percent":
		if u, ok := memtoull(val); ok {
			ll := int64(u)
			if ll < p.Min || ll > p.Max {
				return "", 0, errBetween(itoa(p.Min), itoa(p.Max))
			}
			return strconv.FormatUint(u, 10), ll, ""
		}
		if len(val) > 1 && val[len(val)-1] == '%' {
			if v, ok := string2ll([]byte(val[:len(val)-1])); ok && v >= 0 {
				if -v < p.Min {
					return "", 0, "percentage argument must be less or equal to " + itoa(-p.Min)
				}
				return itoa(v) + "%", -v, ""
			}
		}
		return "", 0, "argument must be a memory or percent value"
	case "octal":
		v, err := strconv.ParseInt(val, 8, 64)
		if err != nil {
			return "", 0, "argument couldn't be parsed as an octal number"
		}
		if v < p.Min || v > p.Max {
			return "", 0, errBetween(strconv.FormatInt(p.Min, 8), strconv.FormatInt(p.Max, 8))
		}
		return strconv.FormatInt(v, 8), v, ""
	case "dir", "replicaof":
		return val, 0, ""
	}
	var ll int64
	if p.Kind == "memory" {
		u, ok := memtoull(val)
		if !ok {
			return "", 0, "argument must be a memory value"
		}
		ll = int64(u)
	} else {
		v, ok := string2ll([]byte(val))
		if !ok {
			return "", 0, "argument couldn't be parsed into an integer"
		}
		ll = v
	}
	if p.Unsigned {
		u, lo, hi := uint64(ll), uint64(p.Min), uint64(p.Max)
		if u < lo || u > hi {
			return "", 0, errBetween(strconv.FormatUint(lo, 10), strconv.FormatUint(hi, 10))
		}
		return strconv.FormatUint(u, 10), ll, ""
	}
	if ll < p.Min || ll > p.Max {
		return "", 0, errBetween(itoa(p.Min), itoa(p.Max))
	}
	return itoa(ll), ll, ""
}

// errBetween is the bound error of config.c's numeric configs, the bounds printed as the
// parameter prints its values (decimal, unsigned or octal).
func errBetween(lo, hi string) string {
	return "argument must be between " + lo + " and " + hi + " inclusive"
}

// strtoll is C's strtoll(s, &end, 10) with the check end == "": leading white space, an optional
// sign, digits (saturating); a string with no digits parses as 0 only when it is empty.
func strtoll(s string) (int64, bool) {
	i, neg := strtolStart(s)
	start := i
	var v uint64
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		if v < 1<<63 {
			v = v*10 + uint64(s[i]-'0')
		}
		i++
	}
	if i == start {
		return 0, s == ""
	}
	if i != len(s) {
		return 0, false
	}
	if neg {
		if v > 1<<63 {
			v = 1 << 63
		}
		return -int64(v), true
	}
	if v > math.MaxInt64 {
		v = math.MaxInt64
	}
	return int64(v), true
}

// strtolStart is where C's strtol family starts reading s: after the white space isspace skips
// and an optional sign. neg tells whether the sign was '-'. (strtoll here, string2ull in
// cmd_stream.go.)
func strtolStart[T string | []byte](s T) (i int, neg bool) {
	for i < len(s) && dblIsSpace(s[i]) {
		i++
	}
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	return i, neg
}

// parseEnum is enumConfigSet: one name (any case), or for a flags enum any space-separated
// names OR-ed together; printed as configEnumGetName does (the first name with exactly that
// value, else the names of its bits in table order).
func parseEnum(p *ConfigParam, val string) (string, int64, string) {
	bad := "argument(s) must be one of the following: " + strings.Join(p.Enum, ", ")
	if !p.Flags {
		lv := strings.ToLower(val)
		for _, o := range p.Enum {
			if o == lv {
				if p.Name == "oom-score-adj" && o == "relative" {
					return "yes", 0, "" // "yes" and "relative" are one value; "yes" comes first
				}
				return o, 0, ""
			}
		}
		return "", 0, bad
	}
	// shutdown-on-sigint / -sigterm: default 0, save 1, nosave 2, now 4, force 8.
	flags := 0
	for _, a := range splitSpaces(val) {
		i := slices.Index(p.Enum, strings.ToLower(a))
		if i < 0 {
			return "", 0, bad
		}
		if i > 0 {
			flags |= 1 << (i - 1)
		}
	}
	if val == "" {
		return "", 0, bad
	}
	if flags&1 != 0 && flags&2 != 0 {
		return "", 0, "shutdown options SAVE and NOSAVE can't be used simultaneously"
	}
	if flags == 0 {
		return p.Enum[0], 0, ""
	}
	var names []string
	for i := 1; i < len(p.Enum); i++ {
		if flags&(1<<(i-1)) != 0 {
			names = append(names, p.Enum[i])
		}
	}
	return strings.Join(names, " "), int64(flags), ""
}

// notify-keyspace-events classes (notify.c keyspaceEventsStringToFlags) and their bits.
const notifyClasses = "Ag$lshzxeKEtmdn"

const (
	notifyKeyspace = 1 << iota
	notifyKeyevent
	notifyGeneric
	notifyStr
	notifyList
	notifySet
	notifyHash
	notifyZset
	notifyExpired
	notifyEvicted
	notifyStream
	notifyKeyMiss
	notifyModule
	notifyNew
	notifyAll = notifyGeneric | notifyStr | notifyList | notifySet | notifyHash | notifyZset |
		notifyExpired | notifyEvicted | notifyStream | notifyModule
)

var notifyFlags = []int{notifyAll, notifyGeneric, notifyStr, notifyList, notifySet, notifyHash,
	notifyZset, notifyExpired, notifyEvicted, notifyKeyspace, notifyKeyevent, notifyStream,
	notifyKeyMiss, notifyModule, notifyNew}

// notifyString is keyspaceEventsFlagsToString.
func notifyString(f int) string {
	var b strings.Builder
	if f&notifyAll == notifyAll {
		b.WriteByte('A')
	} else {
		for _, x := range []struct {
			bit int
			c   byte
		}{{notifyGeneric, 'g'}, {notifyStr, '$'}, {notifyList, 'l'}, {notifySet, 's'}, {notifyHash, 'h'},
			{notifyZset, 'z'}, {notifyExpired, 'x'}, {notifyEvicted, 'e'}, {notifyStream, 't'},
			{notifyModule, 'd'}, {notifyNew, 'n'}} {
			if f&x.bit != 0 {
				b.WriteByte(x.c)
			}
		}
	}
	if f&notifyKeyspace != 0 {
		b.WriteByte('K')
	}
	if f&notifyKeyevent != 0 {
		b.WriteByte('E')
	}
	if f&notifyKeyMiss != 0 {
		b.WriteByte('m')
	}
	return b.String()
}

// parseObuf is updateClientOutputBufferLimit: groups of class hard soft seconds; the classes
// given replace theirs, the others keep their limits.
func (c *Config) parseObuf(val string) (string, int64, string) {
	f := splitSpaces(val)
	if len(f)%4 != 0 {
		return "", 0, "Wrong number of arguments in buffer limit configuration."
	}
	cur := strings.Split(c.vals["client-output-buffer-limit"], " ")
	classes := map[string]int{"normal": 0, "slave": 4, "replica": 4, "pubsub": 8}
	for j := 0; j < len(f); j += 4 {
		at, ok := classes[strings.ToLower(f[j])]
		if !ok {
			return "", 0, "Invalid client class specified in buffer limit configuration."
		}
		hard, ok1 := memtoull(f[j+1])
		soft, ok2 := memtoull(f[j+2])
		secs, ok3 := strtoll(f[j+3])
		if !ok1 || !ok2 || !ok3 || secs < 0 || f[j+3] == "" {
			return "", 0, "Error in hard, soft or soft_seconds setting in buffer limit configuration."
		}
		if secs > math.MaxInt32 || secs < math.MinInt32 {
			secs = int64(int32(secs)) // soft_seconds is an int
		}
		cur[at+1], cur[at+2], cur[at+3] = strconv.FormatUint(hard, 10), strconv.FormatUint(soft, 10), itoa(secs)
	}
	return strings.Join(cur, " "), 0, ""
}

// checkString is the validity check of the string parameters that have one.
func checkString(name, v string) string {
	switch name {
	case "cluster-announce-hostname":
		if len(v) >= 256 {
			return "Hostnames must be less than 256 characters"
		}
		for _, ch := range []byte(v) {
			if !(ch >= 'A' && ch <= 'Z' || ch >= 'a' && ch <= 'z' || ch >= '0' && ch <= '9' || ch == '-' || ch == '.') {
				return "Hostnames may only contain alphanumeric characters, hyphens or dots"
			}
		}
	case "proc-title-template":
		if !validProcTitle(v) {
			return "template format is invalid or contains unknown variables"
		}
	}
	return ""
}

// validProcTitle is validateProcTitleTemplate: every {variable} known, braces balanced, and the
// expansion not empty.
func validProcTitle(t string) bool {
	known := map[string]bool{"title": true, "listen-addr": true, "server-mode": true, "port": true,
		"tls-port": true, "unixsocket": true, "config-file": true}
	out := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '{':
			j := strings.IndexByte(t[i:], '}')
			if j < 0 || !known[t[i+1:i+j]] {
				return false
			}
			out++
			i += j
		case '}':
			return false
		default:
			out++
		}
	}
	return out > 0 && strings.TrimSpace(t) != ""
}
