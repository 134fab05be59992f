package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"runtime/debug"
	"runtime/pprof"
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
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile to this file until the server stops")
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
