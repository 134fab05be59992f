// Package engine is redscope's Redis simulator: a keyspace, a clock, a seeded random source, a
// config and a version profile, answering commands as a real redis-server of that version does
// and reporting what it did inside as typed trace events (trace.go).
//
// The engine is pure Go (no syscall/js, no graphics): the browser app, the RESP server and the
// command-line labs are thin layers over Exec. Commands run one at a time; an Engine is not safe
// for concurrent use.
package engine

import (
	"math/rand/v2"
	"time"

	"redscope/engine/alloc"
	"redscope/engine/dict"
)

// Clock gives the engine's notion of now, in Unix milliseconds.
type Clock interface {
	NowMs() int64
}

// WallClock is real time (the protocol server).
type WallClock struct{}

func (WallClock) NowMs() int64 { return time.Now().UnixMilli() }

// ManualClock is a logical clock for lessons and tests: it moves only when told.
type ManualClock struct{ Ms int64 }

func (c *ManualClock) NowMs() int64            { return c.Ms }
func (c *ManualClock) Advance(d time.Duration) { c.Ms += d.Milliseconds() }

// Options configure a new Engine.
type Options struct {
	Version   Version         // default DefaultVersion
	Allocator alloc.Allocator // default alloc.Jemalloc (Redis's bundled build)
	Seed      uint64          // seeds every random choice
	Clock     Clock           // default: a ManualClock at 2026-01-01T00:00:00Z
	Trace     bool            // collect trace events
}

// Result is what one command produced.
type Result struct {
	Reply  Reply
	Events []Event
	// Blocked: the command waits (a Client with Blocking set, blocking.go); Reply means nothing
	// and the real reply comes later through Client.OnWake.
	Blocked bool
}

// Engine is one simulated redis-server.
type Engine struct {
	ver     Version
	tracker Tracker // client-side caching (tracking_hook.go)
	expired bool    // signalModifiedKey for an expired key (tracking_hook.go)
	alloc   alloc.Allocator
	clock   Clock
	now     callTime // the time of the command running (calltime.go)
	lastCmd *Command // the command dispatch looked up last (a pipeline repeats one)
	rng     *rand.Rand
	seed    uint64
	cfg     *Config
	db      *DB
	dbs     []*DB
	tracing bool
	events  []Event
	// lastTraceKey is the key string the last event of traceKey named.
	lastTraceKey string
	// vdict is the dict environment (hash seed, shared random source, rules) of value hash
	// tables: hashtable sets and hashes (made lazily by valueDictEnv in t_set.go).
	vdict *dict.Env
	// implicit is the client of Exec, unless SetClient chose another (client); wst is the WATCH
	// table (multi.go).
	implicit *Client
	client   *Client
	wst      watchState
	// blk is the blocking table (blocking.go); blocker is the client whose command runs now and
	// may block; inMultiExec is set while EXEC runs its queue (blocking denied).
	blk         blockTable
	blocker     *Client
	blockArgs   [][]byte // the blocker's command
	running     []byte   // name of the command Exec runs (a blocking command called by another may not block)
	execDepth   int      // exec nesting (a command run from inside another may not block)
	inMultiExec bool
	// monitor receives what MONITOR shows (monitor.go); monitorMute is set while a blocked
	// command is served again (not fed twice)
	monitor     MonitorFunc
	monitorMute bool
	// cluster is this engine's node of a Cluster (nil: a standalone server); ccs is the cluster
	// flags (ASKING, READONLY) of the client whose command runs (cluster.go).
	cluster *clusterNode
	ccs     *clusterConn
	// lua is the scripting state (script_state.go), mon what other goroutines may read of it.
	lua  *scriptState
	mon  ScriptMonitor
	dbg  debugState   // DEBUG switches (cmd_debug.go)
	slow slowlogState // SLOWLOG (slowlog.go)
	// Work counts the elementary steps (bytes scanned/moved, registers touched…) commands did;
	// labs report it instead of wall time.
	Work Work
}

// Work counters, reset by the caller.
type Work struct {
	BytesScanned int64
	BytesMoved   int64
	Steps        int64
}

// StartMs is the default logical clock start: 2026-01-01T00:00:00Z.
const StartMs int64 = 1767225600000

// New makes an engine.
func New(o Options) *Engine {
	if o.Version == 0 {
		o.Version = DefaultVersion
	}
	if o.Clock == nil {
		o.Clock = &ManualClock{Ms: StartMs}
	}
	e := &Engine{ver: o.Version, alloc: o.Allocator, clock: o.Clock, seed: o.Seed, tracing: o.Trace}
	e.rng = rand.New(rand.NewPCG(o.Seed, o.Seed^0x9e3779b97f4a7c15))
	e.cfg = newConfig(e)
	e.dbs = make([]*DB, 16)
	for i := range e.dbs {
		e.dbs[i] = newDB()
	}
	e.db = e.dbs[0]
	return e
}

// Version is the engine's profile.
func (e *Engine) Version() Version { return e.ver }

// Allocator is the engine's size-class table.
func (e *Engine) Allocator() alloc.Allocator { return e.alloc }

// NowMs is the engine clock.
func (e *Engine) NowMs() int64 {
	if e.now.depth > 0 && e.now.wall {
		return e.now.us / 1000
	}
	return e.clock.NowMs()
}

// Rand is the engine's seeded random source.
func (e *Engine) Rand() *rand.Rand { return e.rng }

// SetTracing turns trace collection on or off.
func (e *Engine) SetTracing(on bool) { e.tracing = on }

// Tracing reports whether events are being collected.
func (e *Engine) Tracing() bool { return e.tracing }

// emit records a trace event when tracing is on.
func (e *Engine) emit(ev Event) {
	if e.tracing {
		e.events = append(e.events, ev)
	}
}

// Exec runs one command for the engine's implicit client (its MULTI queue and watched keys:
// multi.go; a protocol server gives each connection its own Client). It never panics: a panic
// inside a command becomes an error reply ("ERR redscope internal error: …") and the engine stays
// usable.
func (e *Engine) Exec(args [][]byte) (res Result) {
	if e.client != nil {
		return e.client.Exec(args)
	}
	e.beginCall() // the command's time (calltime.go)
	defer e.endCall()
	if e.implicit == nil && (len(args) == 0 || txKind(args[0]) == txNone) && e.cfg.hot.maxmemory == 0 {
		res = e.exec(args) // no transaction state nor maxmemory yet: the plain path
		if len(e.blk.ready) > 0 {
			res.Events = append(res.Events, e.handleBlocked()...)
		}
		return res
	}
	return e.implicitClient().Exec(args)
}

// exec runs one command outside any transaction logic.
func (e *Engine) exec(args [][]byte) (res Result) {
	e.execInto(args, &res)
	return res
}

// execInto is exec filling res.
func (e *Engine) execInto(args [][]byte, res *Result) {
	e.events = nil
	running := e.running
	if len(args) > 0 {
		e.running = args[0]
	}
	e.execDepth++
	defer func() {
		if p := recover(); p != nil {
			*res = Result{Reply: errInternal(p), Events: e.events}
		}
		e.events = nil
		e.running = running
		e.execDepth--
	}()
	res.Reply = e.dispatch(args)
	res.Events = e.events
}

// Do runs a command given as strings and returns only the reply.
func (e *Engine) Do(args ...string) Reply {
	b := make([][]byte, len(args))
	for i, a := range args {
		b[i] = []byte(a)
	}
	return e.Exec(b).Reply
}

// SelectDB makes database n current, as SELECT does; the protocol server calls it before each
// command of a connection. It reports false (and changes nothing) when n is out of range.
func (e *Engine) SelectDB(n int) bool {
	if n < 0 || n >= len(e.dbs) {
		return false
	}
	e.db = e.dbs[n]
	return true
}

// CurrentDB is the index of the current database (0 if it cannot be found).
func (e *Engine) CurrentDB() int {
	for i, d := range e.dbs {
		if d == e.db {
			return i
		}
	}
	return 0
}

// DBCount is the number of databases (16).
func (e *Engine) DBCount() int { return len(e.dbs) }

// DBStats returns the number of keys and of keys with a TTL in database n, as INFO keyspace
// prints them (keys whose time has passed but that were not yet touched still count).
func (e *Engine) DBStats(n int) (keys, expires int) {
	if n < 0 || n >= len(e.dbs) {
		return 0, 0
	}
	return len(e.dbs[n].keys), len(e.dbs[n].expires)
}

// DatasetMemory adds up the MEMORY USAGE of every key of every database, without expiring
// anything (INFO memory's dataset part).
func (e *Engine) DatasetMemory() int64 { return e.sumKeys(e.objectMemory) }

// sumKeys adds up size(key, value, 0) over every key of every database, expired or not.
func (e *Engine) sumKeys(size func(key []byte, o *Object, samples int) int64) int64 {
	var sum int64
	for _, d := range e.dbs {
		for k, o := range d.keys {
			sum += size([]byte(k), o, 0)
		}
	}
	return sum
}
