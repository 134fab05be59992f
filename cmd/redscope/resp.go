package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"syscall"

	"redscope/engine"
	"redscope/engine/alloc"
	"redscope/server"
)

func cmdResp(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("resp", stderr)
	addr := fs.String("addr", "127.0.0.1:6380", "listen address host:port")
	ver := fs.String("redis-version", engine.DefaultVersion.String(), fmt.Sprintf("Redis version profile, one of %v", engine.Versions))
	al := fs.String("allocator", alloc.Names[0], "jemalloc size classes: jemalloc (8-byte quantum, Redis's own build) or jemalloc-16 (Debian's)")
	seed := fs.Uint64("seed", 0, "seed of every random choice")
	nCluster := fs.Int("cluster", 0, "serve a Redis Cluster of this many masters (1-16) on the port of --addr and the next ones")
	nEmpty := fs.Int("cluster-empty", 0, "with --cluster: this many more nodes with no slots, to add with redis-cli --cluster add-node")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile to this file until the server stops")
	requirepass := fs.String("requirepass", "", "the default user's password (CONFIG SET requirepass); without one, protected mode answers only clients on the loopback interface")
	dir := fs.String("dir", "", "the directory SAVE, BGSAVE and DEBUG RELOAD write dump.rdb to (CONFIG GET dir; default: the working directory)")
	gogc := fs.Int("gogc", 400, "the Go collector's GOGC for the server (the GOGC environment variable wins when set)")
	if err := parse(fs, args); err != nil {
		return err
	}
	v, err := engine.ParseVersion(*ver)
	if err != nil {
		return usageError{err}
	}
	a, err := alloc.Parse(*al)
	if err != nil {
		return usageError{err}
	}
	if clusterFlagSet(fs) || *nEmpty != 0 {
		return serveCluster(*addr, *nCluster, *nEmpty, *requirepass, engine.Options{Version: v, Allocator: a, Seed: *seed, Clock: engine.WallClock{}}, stdout)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer func() {
			pprof.StopCPUProfile()
			f.Close()
		}()
	}
	// Every command allocates its parsed arguments and reply (redcon, engine.Reply) and a server
	// keeps a large live keyspace; collecting when the heap has grown 4× instead of 2× (GOGC 100)
	// spends a quarter of the collector's time for the same work (BENCHMARKS.md, RESP server).
	if os.Getenv("GOGC") == "" && *gogc != 0 {
		debug.SetGCPercent(*gogc)
	}
	e := engine.New(engine.Options{Version: v, Allocator: a, Seed: *seed, Clock: engine.WallClock{}})
	if err := setRequirepass(e, *requirepass); err != nil {
		return err
	}
	if err := setDir(e, *dir); err != nil {
		return err
	}
	srv := server.New(e)
	fmt.Fprintf(stdout, "redscope: Redis %s profile, %s allocator, seed %d: RESP2 on %s (redis-cli -p %d)\n",
		v, a, *seed, ln.Addr(), ln.Addr().(*net.TCPAddr).Port)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sig
		srv.Close()
	}()
	err = srv.Serve(ln)
	if errors.Is(err, net.ErrClosed) {
		err = nil
	}
	return err
}

// clusterFlagSet reports whether --cluster was given (--cluster 0 --cluster-empty K is a set of
// lone nodes for redis-cli --cluster create).
func clusterFlagSet(fs *flag.FlagSet) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == "cluster" })
	return set
}

// serveCluster is resp --cluster N: N masters with redis-cli --cluster create's slot layout on
// the port of addr and the next ones, then the empty nodes.
// setRequirepass is --requirepass: CONFIG SET requirepass on the engine ("" leaves it nopass, so
// protected mode answers only local clients).
func setRequirepass(e *engine.Engine, pass string) error {
	if pass == "" {
		return nil
	}
	if r := e.Do("CONFIG", "SET", "requirepass", pass); r.IsError() {
		return usageError{fmt.Errorf("--requirepass: %s", r.Str)}
	}
	return nil
}

// setDir is --dir: the engine saves its RDB file on disk there (redis-server's dir, an absolute
// path as CONFIG GET dir prints it).
func setDir(e *engine.Engine, dir string) error {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return usageError{err}
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return usageError{fmt.Errorf("--dir %s: not a directory", dir)}
	}
	e.SetDir(abs)
	e.SetStorage(server.DiskStorage{})
	return nil
}

func serveCluster(addr string, masters, empty int, requirepass string, o engine.Options, stdout io.Writer) error {
	if masters < 0 || masters > 16 || masters == 0 && empty == 0 {
		return usageError{fmt.Errorf("--cluster wants 1 to 16 masters (or 0 with --cluster-empty), not %d", masters)}
	}
	if empty < 0 || masters+empty > 64 {
		return usageError{fmt.Errorf("--cluster-empty wants 0 to %d nodes, not %d", 64-masters, empty)}
	}
	host, portStr, err := net.SplitHostPort(addr)
	if err != nil {
		return usageError{err}
	}
	port, err := strconv.Atoi(portStr)
	if err != nil || port <= 0 || port+masters+empty-1 > 65535-10000 {
		return usageError{fmt.Errorf("--addr %s: the port must leave room for %d nodes (and their bus ports, port+10000)", addr, masters+empty)}
	}
	if host == "" {
		host = "127.0.0.1"
	}
	cl := engine.NewCluster(engine.ClusterOptions{Masters: masters, Empty: empty, Host: host, Port: port, Options: o})
	for _, e := range cl.Nodes() {
		if err := setRequirepass(e, requirepass); err != nil {
			return err
		}
	}
	srv := server.NewCluster(cl)
	if err := srv.Listen(host, port); err != nil {
		return err
	}
	for i := 0; i < masters+empty; i++ {
		what := "no slots, knows only itself"
		if i < masters {
			var first, last int = -1, -1
			for s := 0; s < engine.ClusterSlots; s++ {
				if cl.SlotOwner(s) == i {
					if first < 0 {
						first = s
					}
					last = s
				}
			}
			what = fmt.Sprintf("master, slots %d-%d", first, last)
		}
		fmt.Fprintf(stdout, "redscope: cluster node %s on %s:%d (%s)\n", cl.NodeID(i), host, port+i, what)
	}
	fmt.Fprintf(stdout, "redscope: Redis %s profile, %s allocator, seed %d (redis-cli -c -p %d)\n", o.Version, o.Allocator, o.Seed, port)
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-sig
		srv.Close()
	}()
	err = srv.Serve()
	if errors.Is(err, net.ErrClosed) {
		err = nil
	}
	return err
}
