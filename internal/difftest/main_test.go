package difftest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"redscope/engine"
	"redscope/engine/alloc"
	"redscope/internal/transcript"
	"redscope/server"
)

// transcriptsDir is testdata/transcripts at the repository root.
var transcriptsDir = filepath.Join("..", "..", "testdata", "transcripts")

var (
	redisOnce sync.Once
	redisProc *exec.Cmd
	redisAddr string
	redisErr  error
	redisDir  string
)

func TestMain(m *testing.M) {
	server.PoisonInput = true // a command that keeps an argument without copying it shows (server/loop.go)
	code := m.Run()
	stopRedis()
	os.Exit(code)
}

// need skips the test when a tool is missing, or fails it under CI=true.
func need(t testing.TB, tool string) string {
	t.Helper()
	p, err := exec.LookPath(tool)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s is not installed: CI needs it (apt-get install redis-server redis-tools)", tool)
		}
		t.Skipf("%s is not installed: skipping (apt-get install redis-server redis-tools to run this test)", tool)
	}
	return p
}

// freePort asks the kernel for an unused loopback port.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// realRedis starts (once per test binary) Debian's redis-server on a free loopback port and
// returns its address.
func realRedis(t testing.TB) string {
	t.Helper()
	bin := need(t, "redis-server")
	redisOnce.Do(func() {
		dir, err := os.MkdirTemp("", "redscope-difftest-")
		if err != nil {
			redisErr = err
			return
		}
		redisDir = dir
		for try := 0; try < 5; try++ {
			port, err := freePort()
			if err != nil {
				redisErr = err
				return
			}
			cmd, err := startRedisProc(bin, port, "127.0.0.1", dir, "redis.log", "--enable-debug-command", "yes")
			if err == nil {
				redisProc, redisAddr, redisErr = cmd, fmt.Sprintf("127.0.0.1:%d", port), nil
				return
			}
			redisErr = err
		}
	})
	if redisErr != nil {
		t.Fatalf("starting redis-server: %v", redisErr)
	}
	return redisAddr
}

// startRedisProc starts redis-server bin on port, listening on bind, without persistence, with
// its files in dir and its log in dir/logName, then the extra arguments; it waits for the PONG
// on 127.0.0.1:port and kills the server when none comes.
func startRedisProc(bin string, port int, bind, dir, logName string, extra ...string) (*exec.Cmd, error) {
	cmd := exec.Command(bin, append([]string{"--port", strconv.Itoa(port), "--bind", bind,
		"--save", "", "--appendonly", "no", "--dir", dir, "--daemonize", "no",
		"--logfile", filepath.Join(dir, logName)}, extra...)...)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	if err := waitPing(fmt.Sprintf("127.0.0.1:%d", port), 5*time.Second); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return nil, fmt.Errorf("redis-server did not answer on port %d: %v", port, err)
	}
	return cmd, nil
}

// startTestRedis starts redis-server bin for one test on a free port (startRedisProc's settings,
// listening on bind, then the extra arguments) and stops it when the test ends; a server that
// does not answer fails the test with its log. It returns the port.
func startTestRedis(t testing.TB, bin, bind, dir, logName string, extra ...string) int {
	t.Helper()
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	cmd, err := startRedisProc(bin, port, bind, dir, logName, extra...)
	if err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, logName))
		t.Fatalf("%v\n%s", err, log)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return port
}

func stopRedis() {
	if redisProc != nil {
		if c, err := transcript.Dial(redisAddr); err == nil {
			c.Timeout = 2 * time.Second
			c.DoStrings("SHUTDOWN", "NOSAVE")
			c.Close()
		}
		done := make(chan struct{})
		go func() { redisProc.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(3 * time.Second):
			redisProc.Process.Kill()
			<-done
		}
		redisProc = nil
	}
	if redisDir != "" {
		os.RemoveAll(redisDir)
	}
}

func waitPing(addr string, d time.Duration) error {
	deadline := time.Now().Add(d)
	for {
		c, err := transcript.Dial(addr)
		if err == nil {
			_, r, err2 := c.DoStrings("PING")
			c.Close()
			if err2 == nil && r.Kind == engine.KindStatus && r.Str == "PONG" {
				return nil
			}
			err = err2
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("no PONG from %s: %v", addr, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// newEngine70 is the engine the differential tests compare with Debian's 7.0.15.
func newEngine70() *engine.Engine {
	return engine.New(engine.Options{Version: engine.V70, Allocator: alloc.Jemalloc16, Clock: engine.WallClock{}})
}

// scopeServer starts an in-process redscope server (7.0 profile, jemalloc-16) on a free port.
func scopeServer(t testing.TB) (*server.Server, string) {
	t.Helper()
	return scopeServerAt(t, "127.0.0.1:0")
}

// scopeServerAt is scopeServer listening on addr.
func scopeServerAt(t testing.TB, listen string) (*server.Server, string) {
	t.Helper()
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		t.Fatal(err)
	}
	srv := server.New(newEngine70())
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	addr := ln.Addr().String()
	if err := waitPing(addr, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	return srv, addr
}

// checkRealVersion makes sure the reference really is a 7.0 server.
func checkRealVersion(t testing.TB, addr string) {
	t.Helper()
	c, err := transcript.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, r, err := c.DoStrings("INFO", "server")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Str, "redis_version:7.0.") {
		t.Fatalf("the reference redis-server is not 7.0.x; the differential tests compare with 7.0:\n%.200s", r.Str)
	}
}

// resetter puts the reference server back to its starting state between files: FLUSHALL and
// every config parameter a file changed.
type resetter struct {
	addr string
	base map[string]string
}

func newResetter(t testing.TB, addr string) *resetter {
	t.Helper()
	cfg, err := configAll(addr)
	if err != nil {
		t.Fatal(err)
	}
	return &resetter{addr: addr, base: cfg}
}

func configAll(addr string) (map[string]string, error) {
	c, err := transcript.Dial(addr)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	_, r, err := c.DoStrings("CONFIG", "GET", "*")
	if err != nil {
		return nil, err
	}
	if r.Kind != engine.KindArray {
		return nil, fmt.Errorf("CONFIG GET *: %s", r.FormatCLI())
	}
	m := map[string]string{}
	for i := 0; i+1 < len(r.Array); i += 2 {
		m[r.Array[i].Str] = r.Array[i+1].Str
	}
	return m, nil
}

func (rs *resetter) reset(t testing.TB) {
	t.Helper()
	now, err := configAll(rs.addr)
	if err != nil {
		t.Fatal(err)
	}
	c, err := transcript.Dial(rs.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for k, v := range rs.base {
		if now[k] != v {
			if _, r, err := c.DoStrings("CONFIG", "SET", k, v); err != nil || r.IsError() {
				t.Logf("cannot restore %s=%q on redis-server: %v %s", k, v, err, r.FormatCLI())
			}
		}
	}
	if _, r, err := c.DoStrings("FLUSHALL"); err != nil || r.IsError() {
		t.Fatalf("FLUSHALL: %v %s", err, r.FormatCLI())
	}
}
