package engine

import (
	"fmt"
	"sort"
	"strings"
)

// INFO [section ...] (server.c genInfoSectionDict and genRedisInfoString of 7.0.15; 7.2.7 and
// 7.4.1 for the fields later profiles add).
//
// Sections, in Redis's order: server, clients, memory, persistence, stats, replication, cpu,
// modules, commandstats, errorstats, latencystats, cluster, keyspace. No argument (or "default")
// is server … cpu, modules, errorstats, cluster, keyspace; "all" adds commandstats and
// latencystats; "everything" is all. Several sections may be named in one call (any case, each
// once); an unknown one adds nothing, so `INFO nosuch` is an empty string. Sections after the
// first are preceded by an empty line ("\r\n").
//
// Values come from three places:
//   - what the engine knows, as Redis computes it: the keyspace line per database, commandstats
//     (calls, rejected_calls, failed_calls per command, counted in dispatch and by the layer
//     above for its own commands), errorstats (per error code: the first word of the error),
//     total_commands_processed, total_error_replies, expired_keys, keyspace_hits and
//     keyspace_misses (one per read key of a read command: the keys its key specs mark RO),
//     rdb_changes_since_last_save (the writes: dirty), maxmemory, the config-derived fields
//     (hz, maxclients, maxmemory_policy, repl_backlog_size, aof_enabled …);
//   - what the layer that serves connections tells (InfoHost): port, process id, run id,
//     executable, connected clients, connections received, the start time;
//   - what a simulator cannot know, given fixed, documented values (docs/config.md): CPU times
//     are 0.000000, rss and allocator figures equal used_memory (fragmentation ratio 1.00),
//     every usec and latency percentile is 0 (commands take no time on the engine's clock),
//     replication ids are derived from the seed, the server never saved (rdb_last_save_time is
//     the start time, rdb_last_bgsave_time_sec -1, statuses ok).
//
// On 7.2+ "debug" (named, never part of "everything") adds the event-loop figures, all 0.
// On 8.0+ keysizes follows keyspace and is part of the default set (info_keysizes.go).

// InfoHost is what the layer above knows for INFO (the RESP server; nil in the browser, where the
// console is the one client).
type InfoHost struct {
	Port             int
	ProcessID        int
	RunID            string
	Executable       string
	StartMs          int64
	ConnectedClients int
	TotalConnections int64
	// Pub/Sub (the RESP server's registry): channels and patterns with a subscriber, shard
	// channels, clients with any subscription.
	PubsubChannels, PubsubPatterns, PubsubShardChannels, PubsubClients int
	// Client-side caching (the RESP server's tracking table): clients with tracking on, keys and
	// (key, client) items remembered, BCAST prefixes.
	TrackingClients, TrackingKeys, TrackingItems, TrackingPrefixes int
}

// infoStats are the counters INFO reports and CONFIG RESETSTAT clears.
type infoStats struct {
	numCommands int64
	cmds        map[string]*cmdStat
	errors      map[string]int64
	errorTotal  int64
	expired     int64
	hits        int64
	misses      int64
	dirty       int64  // writes since the start (never saved)
	xdirty      int64  // server.dirty of the running stream command (cmd_stream.go streamDirty)
	lastName    string // the command cmd found last, and its counters
	last        *cmdStat
}

type cmdStat struct{ calls, rejected, failed int64 }

func newInfoStats() *infoStats {
	return &infoStats{cmds: map[string]*cmdStat{}, errors: map[string]int64{}}
}

func (s *infoStats) cmd(name string) *cmdStat {
	if name == s.lastName && s.last != nil {
		return s.last // (a pipeline repeats one command)
	}
	c := s.cmds[name]
	if c == nil {
		c = &cmdStat{}
		s.cmds[name] = c
	}
	s.lastName, s.last = name, c
	return c
}

// errorReply is afterErrorReply's count: the code is the error's first word.
func (s *infoStats) errorReply(r Reply) {
	if r.Kind != KindError {
		return
	}
	code, _, _ := strings.Cut(r.Str, " ")
	if code == "" {
		code = "ERR"
	}
	s.errorTotal++
	if _, ok := s.errors[code]; ok || len(s.errors) < 128 {
		s.errors[code]++
	}
}

// rejected counts a command refused before it ran (unknown: name ""; arity, ACL …).
func (s *infoStats) rejected(name string, r Reply) Reply {
	if name != "" {
		s.cmd(name).rejected++
	}
	s.errorReply(r)
	return r
}

// called counts a command that ran and the error it answered, if any.
func (s *infoStats) called(name string, r Reply) {
	s.numCommands++
	c := s.cmd(name)
	c.calls++
	if r.Kind == KindError {
		c.failed++
		s.errorReply(r)
	}
}

// CountCommand lets the layer above count the commands it answers itself (HELLO, AUTH, CLIENT …,
// MULTI/EXEC) and those it refuses (NOAUTH, NOPERM: rejected).
// jemallocVersion is the jemalloc Redis 7.x and 8.x bundle (deps/jemalloc), as INFO and MEMORY
// MALLOC-STATS name it.
const jemallocVersion = "5.3.0"

func (e *Engine) CountCommand(fullname string, r Reply, rejected bool) {
	if rejected {
		e.cfg.stats.rejected(fullname, r)
		return
	}
	e.cfg.stats.called(fullname, r)
}

// SetInfoHost sets the source of INFO's connection fields.
func (e *Engine) SetInfoHost(f func() InfoHost) { e.cfg.infoHost = f }

// countReads is lookupKeyRead's keyspace_hits / keyspace_misses: each key of the call whose spec
// flags are read-only ("RO …": GET's key, SUNIONSTORE's sources), found live or not.
func (e *Engine) countReads(c *Command, args [][]byte) {
	if !c.hasKeys() {
		return
	}
	s := e.cfg.stats
	count := func(k []byte) {
		o := e.db.keys[string(k)]
		if o != nil {
			if when, ok := e.db.expires[string(k)]; ok && e.NowMs() > when {
				o = nil
			}
		}
		if o != nil {
			s.hits++
		} else {
			s.misses++
		}
	}
	if c.KeysFn == nil && c.KeyNum.NumIdx == 0 && c.FirstKey > 0 && c.FirstKey == c.LastKey && len(c.KeyFlags) <= 1 {
		if len(c.KeyFlags) == 0 && c.Flags&FlagWrite == 0 || len(c.KeyFlags) == 1 && strings.HasPrefix(c.KeyFlags[0], "RO") {
			if c.FirstKey < len(args) {
				count(args[c.FirstKey])
			}
		}
		return
	}
	for _, r := range c.keyRefs(args) {
		if strings.HasPrefix(r.Flags, "RO") {
			count(args[r.Arg])
		}
	}
}

var infoDefault = []string{"server", "clients", "memory", "persistence", "stats", "replication",
	"cpu", "module_list", "errorstats", "cluster", "keyspace"}

func cmdInfo(e *Engine, args [][]byte) Reply {
	return Verbatim(e.Info(args[1:])) // a verbatim "txt" string in RESP3 (infoCommand)
}

// Info is INFO's text for the given section arguments.
func (e *Engine) Info(sectionArgs [][]byte) string {
	want := map[string]bool{}
	all := false
	if len(sectionArgs) == 0 {
		for _, s := range infoDefault {
			want[s] = true
		}
		want["keysizes"] = e.ver.Has(V80) // 8.0: default_sections gained "keysizes"
	}
	for _, a := range sectionArgs {
		switch n := strings.ToLower(string(a)); n {
		case "default":
			for _, s := range infoDefault {
				want[s] = true
			}
			want["keysizes"] = want["keysizes"] || e.ver.Has(V80)
		case "all", "everything":
			all = true
		default:
			want[n] = true
		}
	}
	host := InfoHost{Port: 6379, ProcessID: 1, StartMs: StartMs, ConnectedClients: 1, TotalConnections: 1}
	if e.cfg.infoHost != nil {
		host = e.cfg.infoHost()
	}
	if host.RunID == "" {
		host.RunID = e.seededHex(40, 1)
	}
	var b strings.Builder
	n := 0
	section := func(names ...string) bool {
		hit := all
		for _, s := range names {
			hit = hit || want[s]
		}
		if hit {
			if n > 0 {
				b.WriteString("\r\n")
			}
			n++
		}
		return hit
	}
	kv := func(k string, v any) { fmt.Fprintf(&b, "%s:%v\r\n", k, v) }
	v72, v74 := e.ver.Has(V72), e.ver.Has(V74)
	cfg := e.cfg
	now := e.NowMs()
	uptime := (now - host.StartMs) / 1000
	if uptime < 0 {
		uptime = 0
	}
	used, data := e.infoMemory()
	st := cfg.stats
	if section("server") {
		b.WriteString("# Server\r\n")
		kv("redis_version", profileRedisVersion(e.ver))
		kv("redis_git_sha1", "00000000")
		kv("redis_git_dirty", 0)
		kv("redis_build_id", "0")
		mode := "standalone"
		if e.ClusterEnabled() {
			mode = "cluster"
		}
		kv("redis_mode", mode)
		kv("os", "redscope")
		kv("arch_bits", 64)
		kv("monotonic_clock", "POSIX clock_gettime")
		kv("multiplexing_api", "epoll")
		kv("atomicvar_api", "c11-builtin")
		kv("gcc_version", "0.0.0")
		kv("process_id", host.ProcessID)
		kv("process_supervised", "no")
		kv("run_id", host.RunID)
		kv("tcp_port", host.Port)
		kv("server_time_usec", now*1000)
		kv("uptime_in_seconds", uptime)
		kv("uptime_in_days", uptime/86400)
		kv("hz", cfg.Get("hz"))
		kv("configured_hz", cfg.Get("hz"))
		kv("lru_clock", (now/1000)&(1<<24-1))
		kv("executable", host.Executable)
		kv("config_file", "")
		kv("io_threads_active", 0)
		if v74 {
			kv("shutdown_in_milliseconds", 0)
		}
	}
	if section("clients") {
		b.WriteString("# Clients\r\n")
		kv("connected_clients", host.ConnectedClients)
		kv("cluster_connections", 0)
		kv("maxclients", cfg.Get("maxclients"))
		kv("client_recent_max_input_buffer", 0)
		kv("client_recent_max_output_buffer", 0)
		kv("blocked_clients", e.BlockedClients())
		kv("tracking_clients", host.TrackingClients)
		if v74 {
			kv("pubsub_clients", host.PubsubClients)
			kv("watching_clients", e.watchingClients())
		}
		kv("clients_in_timeout_table", e.ClientsInTimeoutTable())
		if v74 {
			kv("total_watched_keys", e.watchedKeys())
		}
		if v72 {
			keys, onNoKey := e.BlockingKeys()
			kv("total_blocking_keys", keys)
			kv("total_blocking_keys_on_nokey", onNoKey)
		}
	}
	if section("memory") {
		b.WriteString("# Memory\r\n")
		kv("used_memory", used)
		kv("used_memory_human", bytesToHuman(used))
		kv("used_memory_rss", used)
		kv("used_memory_rss_human", bytesToHuman(used))
		kv("used_memory_peak", used)
		kv("used_memory_peak_human", bytesToHuman(used))
		kv("used_memory_peak_perc", "100.00%")
		kv("used_memory_overhead", used-data)
		kv("used_memory_startup", infoStartupMemory)
		kv("used_memory_dataset", data)
		kv("used_memory_dataset_perc", fmt.Sprintf("%.2f%%", percentOf(data, used-infoStartupMemory)))
		kv("allocator_allocated", used)
		kv("allocator_active", used)
		kv("allocator_resident", used)
		if v74 {
			kv("allocator_muzzy", 0)
		}
		kv("total_system_memory", 0)
		kv("total_system_memory_human", "0B")
		kv("used_memory_lua", 32768)
		kv("used_memory_vm_eval", 32768)
		kv("used_memory_lua_human", "32.00K")
		kv("used_memory_scripts_eval", 0)
		kv("number_of_cached_scripts", 0)
		kv("number_of_functions", 0)
		kv("number_of_libraries", 0)
		kv("used_memory_vm_functions", 32768)
		kv("used_memory_vm_total", 65536)
		kv("used_memory_vm_total_human", "64.00K")
		kv("used_memory_functions", 0)
		kv("used_memory_scripts", 0)
		kv("used_memory_scripts_human", "0B")
		kv("maxmemory", cfg.Get("maxmemory"))
		kv("maxmemory_human", bytesToHuman(cfg.hot.maxmemory))
		kv("maxmemory_policy", cfg.Get("maxmemory-policy"))
		kv("allocator_frag_ratio", "1.00")
		kv("allocator_frag_bytes", 0)
		kv("allocator_rss_ratio", "1.00")
		kv("allocator_rss_bytes", 0)
		kv("rss_overhead_ratio", "1.00")
		kv("rss_overhead_bytes", 0)
		kv("mem_fragmentation_ratio", "1.00")
		kv("mem_fragmentation_bytes", 0)
		kv("mem_not_counted_for_evict", 0)
		kv("mem_replication_backlog", 0)
		kv("mem_total_replication_buffers", 0)
		kv("mem_clients_slaves", 0)
		kv("mem_clients_normal", 0)
		kv("mem_cluster_links", 0)
		kv("mem_aof_buffer", 0)
		kv("mem_allocator", "jemalloc-"+jemallocVersion)
		if v74 {
			kv("mem_overhead_db_hashtable_rehashing", 0)
		}
		kv("active_defrag_running", 0)
		kv("lazyfree_pending_objects", 0)
		kv("lazyfreed_objects", 0)
	}
	if section("persistence") {
		b.WriteString("# Persistence\r\n")
		e.persistTick()
		ps := &e.dbg.ps
		bgLast, curBg := int64(-1), int64(-1)
		if ps.bgDone {
			bgLast = ps.bgLastSec
		}
		if e.bgsaveRunning() {
			curBg = now/1000 - ps.bgStart/1000
		}
		aofLast := -1
		if ps.aofDone {
			aofLast = 0 // a rewrite ends within its second
		}
		status := func(failed bool) string {
			if failed {
				return "err"
			}
			return "ok"
		}
		for _, f := range []struct {
			k string
			v any
		}{{"loading", 0}, {"async_loading", 0}, {"current_cow_peak", 0}, {"current_cow_size", 0},
			{"current_cow_size_age", 0}, {"current_fork_perc", "0.00"}, {"current_save_keys_processed", 0},
			{"current_save_keys_total", 0}, {"rdb_changes_since_last_save", st.dirty},
			{"rdb_bgsave_in_progress", boolInt(e.bgsaveRunning())}, {"rdb_last_save_time", e.lastSaveSec()},
			{"rdb_last_bgsave_status", status(ps.bgFailed)}, {"rdb_last_bgsave_time_sec", bgLast},
			{"rdb_current_bgsave_time_sec", curBg}, {"rdb_saves", ps.saves}, {"rdb_last_cow_size", 0},
			{"rdb_last_load_keys_expired", ps.expired}, {"rdb_last_load_keys_loaded", ps.loaded},
			{"aof_enabled", boolInt(cfg.Get("appendonly") == "yes")}, {"aof_rewrite_in_progress", 0},
			{"aof_rewrite_scheduled", boolInt(ps.aofScheduled)}, {"aof_last_rewrite_time_sec", aofLast},
			{"aof_current_rewrite_time_sec", -1}, {"aof_last_bgrewrite_status", "ok"},
			{"aof_rewrites", ps.aofRewrites}, {"aof_rewrites_consecutive_failures", 0},
			{"aof_last_write_status", "ok"}, {"aof_last_cow_size", 0},
			{"module_fork_in_progress", 0}, {"module_fork_last_cow_size", 0}} {
			kv(f.k, f.v)
		}
		if cfg.Get("appendonly") == "yes" { // server.aof_enabled (the AOF is modelled: persist.go)
			kv("aof_current_size", 0)
			kv("aof_base_size", 0)
			kv("aof_pending_rewrite", boolInt(ps.aofScheduled))
			for _, k := range []string{"aof_buffer_length", "aof_pending_bio_fsync", "aof_delayed_fsync"} {
				kv(k, 0)
			}
		}
	}
	if section("stats") {
		b.WriteString("# Stats\r\n")
		kv("total_connections_received", host.TotalConnections)
		kv("total_commands_processed", st.numCommands)
		kv("instantaneous_ops_per_sec", 0)
		kv("total_net_input_bytes", 0)
		kv("total_net_output_bytes", 0)
		kv("total_net_repl_input_bytes", 0)
		kv("total_net_repl_output_bytes", 0)
		kv("instantaneous_input_kbps", "0.00")
		kv("instantaneous_output_kbps", "0.00")
		kv("instantaneous_input_repl_kbps", "0.00")
		kv("instantaneous_output_repl_kbps", "0.00")
		kv("rejected_connections", 0)
		kv("sync_full", 0)
		kv("sync_partial_ok", 0)
		kv("sync_partial_err", 0)
		if v74 {
			kv("expired_subkeys", 0)
		}
		kv("expired_keys", st.expired)
		kv("expired_stale_perc", "0.00")
		kv("expired_time_cap_reached_count", 0)
		kv("expire_cycle_cpu_milliseconds", 0)
		kv("evicted_keys", 0)
		kv("evicted_clients", 0)
		if v74 {
			kv("evicted_scripts", 0)
		}
		kv("total_eviction_exceeded_time", 0)
		kv("current_eviction_exceeded_time", 0)
		kv("keyspace_hits", st.hits)
		kv("keyspace_misses", st.misses)
		kv("pubsub_channels", host.PubsubChannels)
		kv("pubsub_patterns", host.PubsubPatterns)
		kv("pubsubshard_channels", host.PubsubShardChannels)
		for _, k := range []string{"latest_fork_usec", "total_forks", "migrate_cached_sockets", "slave_expires_tracked_keys",
			"active_defrag_hits", "active_defrag_misses", "active_defrag_key_hits",
			"active_defrag_key_misses", "total_active_defrag_time", "current_active_defrag_time"} {
			kv(k, 0)
		}
		kv("tracking_total_keys", host.TrackingKeys)
		kv("tracking_total_items", host.TrackingItems)
		kv("tracking_total_prefixes", host.TrackingPrefixes)
		kv("unexpected_error_replies", 0)
		kv("total_error_replies", st.errorTotal)
		for _, k := range []string{"dump_payload_sanitizations", "total_reads_processed",
			"total_writes_processed", "io_threaded_reads_processed", "io_threaded_writes_processed"} {
			kv(k, 0)
		}
		if v74 {
			kv("client_query_buffer_limit_disconnections", 0)
			kv("client_output_buffer_limit_disconnections", 0)
		}
		kv("reply_buffer_shrinks", 0)
		kv("reply_buffer_expands", 0)
		if v72 {
			for _, k := range []string{"eventloop_cycles", "eventloop_duration_sum", "eventloop_duration_cmd_sum",
				"instantaneous_eventloop_cycles_per_sec", "instantaneous_eventloop_duration_usec",
				"acl_access_denied_auth", "acl_access_denied_cmd", "acl_access_denied_key", "acl_access_denied_channel"} {
				kv(k, 0)
			}
		}
	}
	if section("replication") {
		b.WriteString("# Replication\r\n")
		kv("role", "master")
		kv("connected_slaves", 0)
		if cfg.Int("min-replicas-to-write") != 0 && cfg.Int("min-replicas-max-lag") != 0 {
			kv("min_slaves_good_slaves", 0)
		}
		kv("master_failover_state", "no-failover")
		kv("master_replid", e.seededHex(40, 2))
		kv("master_replid2", strings.Repeat("0", 40))
		kv("master_repl_offset", 0)
		kv("second_repl_offset", -1)
		kv("repl_backlog_active", 0)
		kv("repl_backlog_size", cfg.Get("repl-backlog-size"))
		kv("repl_backlog_first_byte_offset", 0)
		kv("repl_backlog_histlen", 0)
	}
	if section("cpu") {
		b.WriteString("# CPU\r\n")
		for _, k := range []string{"used_cpu_sys", "used_cpu_user", "used_cpu_sys_children",
			"used_cpu_user_children", "used_cpu_sys_main_thread", "used_cpu_user_main_thread"} {
			kv(k, "0.000000")
		}
	}
	if section("modules", "module_list") {
		b.WriteString("# Modules\r\n")
	}
	names := make([]string, 0, len(st.cmds))
	for k := range st.cmds {
		names = append(names, k)
	}
	sort.Strings(names)
	if section("commandstats") {
		b.WriteString("# Commandstats\r\n")
		for _, k := range names {
			c := st.cmds[k]
			if c.calls == 0 && c.failed == 0 && c.rejected == 0 {
				continue
			}
			fmt.Fprintf(&b, "cmdstat_%s:calls=%d,usec=0,usec_per_call=0.00,rejected_calls=%d,failed_calls=%d\r\n",
				k, c.calls, c.rejected, c.failed)
		}
	}
	if section("errorstats") {
		b.WriteString("# Errorstats\r\n")
		codes := make([]string, 0, len(st.errors))
		for k := range st.errors {
			codes = append(codes, k)
		}
		sort.Strings(codes)
		for _, k := range codes {
			fmt.Fprintf(&b, "errorstat_%s:count=%d\r\n", k, st.errors[k])
		}
	}
	if section("latencystats") {
		b.WriteString("# Latencystats\r\n")
		if cfg.Get("latency-tracking") == "yes" {
			for _, k := range names {
				if st.cmds[k].calls > 0 {
					fmt.Fprintf(&b, "latency_percentiles_usec_%s:%s\r\n", k, e.latencyPercentiles())
				}
			}
		}
	}
	if section("cluster") {
		b.WriteString("# Cluster\r\n")
		kv("cluster_enabled", boolInt(e.ClusterEnabled()))
	}
	if want["redscope"] { // only when asked by name: not a Redis section
		if n > 0 {
			b.WriteString("\r\n")
		}
		n++
		b.WriteString("# Redscope\r\n")
		kv("redscope_profile", e.ver.String())
		kv("redscope_allocator", e.alloc.String())
	}
	if section("keyspace") {
		b.WriteString("# Keyspace\r\n")
		for i := 0; i < e.DBCount(); i++ {
			keys, exp := e.DBStats(i)
			if keys > 0 {
				fmt.Fprintf(&b, "db%d:keys=%d,expires=%d,avg_ttl=0\r\n", i, keys, exp)
			}
		}
	}
	if e.ver.Has(V80) && section("keysizes") {
		b.WriteString("# Keysizes\r\n")
		e.writeKeysizes(&b)
	}
	if v72 && want["debug"] { // only when named, not in "everything"
		if n > 0 {
			b.WriteString("\r\n")
		}
		b.WriteString("# Debug\r\n")
		keys := []string{"eventloop_duration_aof_sum", "eventloop_duration_cron_sum", "eventloop_duration_max", "eventloop_cmd_per_cycle_max"}
		if v74 {
			keys = append(keys, "allocator_allocated_lua", "allocator_active_lua", "allocator_resident_lua", "allocator_frag_bytes_lua")
		}
		for _, k := range keys {
			kv(k, 0)
		}
	}
	return b.String()
}

// latencyPercentiles prints latency-tracking-info-percentiles with every latency 0 (the
// engine's commands take no time).
func (e *Engine) latencyPercentiles() string {
	var parts []string
	for _, p := range strings.Fields(e.cfg.Get("latency-tracking-info-percentiles")) {
		parts = append(parts, "p"+p+"=0.000")
	}
	return strings.Join(parts, ",")
}

// infoStartupMemory is used_memory_startup of Debian's 7.0.15 started without a config file.
const infoStartupMemory = 876160

// infoMemory is used_memory and used_memory_dataset: the startup figure plus the MEMORY USAGE of
// every key (a panic in a type's memory model costs the figure, not the server).
func (e *Engine) infoMemory() (used, data int64) {
	defer func() {
		if recover() != nil {
			used, data = infoStartupMemory, 0
		}
	}()
	data = e.DatasetMemory()
	return infoStartupMemory + data, data
}

func percentOf(a, b int64) float64 {
	if b <= 0 {
		return 0
	}
	return float64(a) * 100 / float64(b)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// bytesToHuman is Redis's bytesToHuman: B, K, M, G, T, P with two decimals above 1023 bytes.
func bytesToHuman(n int64) string {
	d := float64(n)
	switch {
	case n < 1024:
		return fmt.Sprintf("%dB", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.2fK", d/1024)
	case n < 1024*1024*1024:
		return fmt.Sprintf("%.2fM", d/(1024*1024))
	case n < 1024*1024*1024*1024:
		return fmt.Sprintf("%.2fG", d/(1024*1024*1024))
	case n < 1024*1024*1024*1024*1024:
		return fmt.Sprintf("%.2fT", d/(1024*1024*1024*1024))
	}
	return fmt.Sprintf("%.2fP", d/(1024*1024*1024*1024*1024))
}

// seededHex is a run id / replication id from the engine's seed (Redis reads /dev/urandom).
func (e *Engine) seededHex(n int, salt uint64) string {
	return HexID(e.seed^(salt*0x9e3779b97f4a7c15), n)
}

// HexID is n hex digits drawn from seed by xorshift64: the engine's run and replication ids,
// and the RESP server's run id (seeded from the clock there, as a real server's differs per start).
func HexID(seed uint64, n int) string {
	const hexd = "0123456789abcdef"
	x := seed
	b := make([]byte, n)
	for i := range b {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		b[i] = hexd[x&15]
	}
	return string(b)
}

// profileRedisVersion is the redis_version a profile reports.
func profileRedisVersion(v Version) string {
	switch v {
	case V70:
		return "7.0.15"
	case V72:
		return "7.2.7"
	case V74:
		return "7.4.2"
	case V80:
		return "8.0.2"
	case V82:
		return "8.2.1"
	case V84:
		return "8.4.0"
	case V88:
		return "8.8.0"
	}
	return v.String() + ".0"
}

// watchedKeys is total_watched_keys: the (database, key) pairs some client watches.
func (e *Engine) watchedKeys() int { return len(e.wst.keys) }

// watchingClients is watching_clients: the clients watching at least one key.
func (e *Engine) watchingClients() int {
	seen := map[*Client]bool{}
	for _, ws := range e.wst.keys {
		for _, w := range ws {
			seen[w.c] = true
		}
	}
	return len(seen)
}
