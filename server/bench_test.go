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
func benchPipelines(mk func(r string) []string) [][]byte {
	rng := rand.New(rand.NewSource(1))
	out := make([][]byte, 64)
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
