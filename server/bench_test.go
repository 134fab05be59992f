package server

import (
	"bufio"
	"fmt"
	"math/rand"
	"net"
	"runtime"
	"strconv"
	"testing"

	"redscope/engine"
	"redscope/engine/alloc"
)

// Per-command cost of the protocol server, over loopback TCP as redis-benchmark drives it:
// 20 connections at once (redis-benchmark -c 20) each send pipelines of 16 commands (-P 16) whose
// key or member is drawn from 100 000 (-r 100000) and read the 16 replies. ns/op and allocs/op are per command
// and include the client side of this benchmark (which allocates nothing per reply: a reused
// bufio.Reader, replies skipped in place). Run with
//
//	go test ./server -run '^$' -bench BenchmarkServer -benchmem
//
// BENCHMARKS.md (RESP server) gives the figures before and after the server's fast paths.

const (
	benchPipeline = 16
	benchClients  = 20 // connections at once (redis-benchmark -c 20)
)

// benchPipelines prepares 64 pipelines of benchPipeline commands: mk(r) is one command's
// arguments for the random number r.
func benchPipelines(mk func(r string) []string) [][]byte { return benchPipelinesN(64, mk) }

// benchPipelinesN prepares n pipelines.
func benchPipelinesN(n int, mk func(r string) []string) [][]byte {
	rng := rand.New(rand.NewSource(1))
	out := make([][]byte, n)
	for i := range out {
		var p []byte
		for j := 0; j < benchPipeline; j++ {
			args := mk(fmt.Sprintf("%012d", rng.Intn(100000)))
			p = append(p, '*')
			p = strconv.AppendInt(p, int64(len(args)), 10)
			p = append(p, "\r\n"...)
			for _, a := range args {
				p = append(p, '$')
				p = strconv.AppendInt(p, int64(len(a)), 10)
				p = append(p, "\r\n"...)
				p = append(p, a...)
				p = append(p, "\r\n"...)
			}
		}
		out[i] = p
	}
	return out
}

// skipReply reads one RESP2 reply (no aggregates: the benchmarked commands answer a status,
// integer, bulk or error).
func skipReply(r *bufio.Reader) error {
	line, err := r.ReadSlice('\n')
	if err != nil {
		return err
	}
	if line[0] == '$' {
		n, _ := strconv.Atoi(string(line[1 : len(line)-2]))
		if n >= 0 {
			_, err = r.Discard(n + 2)
		}
	}
	return err
}

func runServerBench(b *testing.B, v engine.Version, setup []string, mk func(r string) []string) {
	_, addr := start(b, v)
	dial := func() (net.Conn, *bufio.Reader) {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { conn.Close() })
		return conn, bufio.NewReaderSize(conn, 64<<10)
	}
	ps := benchPipelines(mk)
	roundTrip := func(conn net.Conn, rd *bufio.Reader, p []byte) error {
		if _, err := conn.Write(p); err != nil {
			return err
		}
		for j := 0; j < benchPipeline; j++ {
			if err := skipReply(rd); err != nil {
				return err
			}
		}
		return nil
	}
	conn, rd := dial()
	if setup != nil {
		one := benchPipelines(func(string) []string { return setup })[0]
		if err := roundTrip(conn, rd, one); err != nil {
			b.Fatal(err)
		}
	}
	// warm up: fill the keyspace as a long redis-benchmark run does
	for i := 0; i < 400; i++ {
		if err := roundTrip(conn, rd, ps[i%len(ps)]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.SetParallelism(benchClients / max(1, runtime.GOMAXPROCS(0)))
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		conn, rd := dial()
		i, n := 0, 0
		for pb.Next() {
			if n++; n == benchPipeline {
				if err := roundTrip(conn, rd, ps[i%len(ps)]); err != nil {
					b.Error(err)
					return
				}
				i, n = i+1, 0
			}
		}
	})
}

func BenchmarkServerSET(b *testing.B) {
	runServerBench(b, engine.V70, nil, func(r string) []string { return []string{"SET", "key:" + r, "xxx"} })
}
func BenchmarkServerGET(b *testing.B) {
	runServerBench(b, engine.V70, []string{"SET", "key:000000000001", "xxx"}, func(r string) []string { return []string{"GET", "key:" + r} })
}
func BenchmarkServerINCR(b *testing.B) {
	runServerBench(b, engine.V70, nil, func(r string) []string { return []string{"INCR", "counter:" + r} })
}
func BenchmarkServerPFADD(b *testing.B) {
	runServerBench(b, engine.V70, nil, func(r string) []string { return []string{"PFADD", "hll", r} })
}
func BenchmarkServerHSET(b *testing.B) {
	runServerBench(b, engine.V70, nil, func(r string) []string { return []string{"HSET", "h", r, "v"} })
}
func BenchmarkServerZINCRBY(b *testing.B) {
	runServerBench(b, engine.V70, nil, func(r string) []string { return []string{"ZINCRBY", "z", "1", r} })
}
func BenchmarkServerSADD(b *testing.B) {
	runServerBench(b, engine.V70, nil, func(r string) []string { return []string{"SADD", "s", r} })
}

// BenchmarkServerPING is the server's own cost per command (PING does nothing in the engine).
func BenchmarkServerPING(b *testing.B) {
	runServerBench(b, engine.V70, nil, func(r string) []string { return []string{"PING"} })
}

// The server's and the engine's CPU per command without sockets: one client's pipelines of 16,
// parsed by the connection's parser and run by runAll as serveConn runs them (replies appended
// to the client's output, which is then dropped). This is the part of BenchmarkServer* (and of a
// redis-benchmark run) that redscope's code decides; the rest is the kernel's loopback.
//
//	go test ./server -run '^$' -bench BenchmarkRunAll -benchmem
func runAllBench(b *testing.B, setup []string, mk func(r string) []string) {
	s := New(engine.New(engine.Options{Version: engine.V70, Allocator: alloc.Jemalloc16, Clock: engine.WallClock{}}))
	a, z := net.Pipe()
	defer a.Close()
	defer z.Close()
	cn := newNetConn(a)
	c := s.accept(cn)
	cn.maxBulk, cn.queryLimit = int(s.maxBulk.Load()), int(s.queryLimit.Load())
	// parseAll slices the arguments out of the connection's buffer and reuses its arrays for the
	// next read: a batch parsed ahead keeps copies of its own.
	parse := func(p []byte) [][][]byte {
		cn.r, cn.w = 0, copy(cn.buf, p)
		cmds, err := cn.parseAll()
		if err != nil || len(cmds) == 0 {
			b.Fatalf("parse: %v", err)
		}
		own := make([][][]byte, len(cmds))
		for i, args := range cmds {
			own[i] = make([][]byte, len(args))
			for j, a := range args {
				own[i][j] = append([]byte(nil), a...)
			}
		}
		return own
	}
	if setup != nil {
		cmds := parse(benchPipelines(func(string) []string { return setup })[0])
		s.runAll(c, cmds)
	}
	ps := benchPipelinesN(4096, mk)        // 65 536 commands: most of the 100 000 keys or members
	batches := make([][][][]byte, len(ps)) // parsed ahead: each run gets arguments of its own
	for i := range batches {
		batches[i] = parse(ps[i])
	}
	for _, cmds := range batches { // warm up: fill the keyspace
		c.out = c.out[:0]
		s.runAll(c, cmds)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i += benchPipeline {
		cmds := batches[(i/benchPipeline)%len(batches)]
		c.out = c.out[:0]
		s.runAll(c, cmds)
		if len(c.out) == 0 || c.out[0] == '-' {
			b.Fatalf("reply %q", c.out)
		}
	}
}

func BenchmarkRunAllSET(b *testing.B) {
	runAllBench(b, nil, func(r string) []string { return []string{"SET", "key:" + r, "xxx"} })
}
func BenchmarkRunAllGET(b *testing.B) {
	runAllBench(b, []string{"SET", "key:000000000001", "xxx"}, func(r string) []string { return []string{"GET", "key:" + r} })
}
func BenchmarkRunAllINCR(b *testing.B) {
	runAllBench(b, nil, func(r string) []string { return []string{"INCR", "counter:" + r} })
}
func BenchmarkRunAllPFADD(b *testing.B) {
	runAllBench(b, nil, func(r string) []string { return []string{"PFADD", "hll", r} })
}
func BenchmarkRunAllHSET(b *testing.B) {
	runAllBench(b, nil, func(r string) []string { return []string{"HSET", "h", r, "v"} })
}
func BenchmarkRunAllZINCRBY(b *testing.B) {
	runAllBench(b, nil, func(r string) []string { return []string{"ZINCRBY", "z", "1", r} })
}
func BenchmarkRunAllSADD(b *testing.B) {
	runAllBench(b, nil, func(r string) []string { return []string{"SADD", "s", r} })
}
func BenchmarkRunAllPING(b *testing.B) {
	runAllBench(b, nil, func(r string) []string { return []string{"PING"} })
}
