//go:build linux

package server

// The event loop: how the plain connections are served on Linux, the way redis-server serves
// all of its own (ae.c with epoll; networking.c readQueryFromClient and writeToClient).
//
// One goroutine waits in epoll_wait for every registered connection at once, reads what each
// ready one sent, runs its complete commands under the engine lock (the same runBatch as a
// connection goroutine: loop.go) and writes the replies. Measured under redis-benchmark -P 16
// -c 20 (BENCHMARKS.md, RESP server), a goroutine per connection spent twice redis-server's
// kernel time per command: every pipeline woke a goroutine (futex, a thread switch), and half of
// the reads after a reply found nothing yet (EAGAIN) and parked it again. Here a pipeline costs
// one read and one write, as in Redis.
//
// The loop owns a connection's socket while the connection is plain. It hands the connection to
// a goroutine of its own (serveConnFrom), for the rest of its life, before anything that must
// not stop the loop or that other goroutines write to:
//   - a batch that runs a script (EVAL, FCALL …: engine.NeedsLua), which may run until SCRIPT
//     KILL arrives on another connection (script_busy.go);
//   - a command that blocked (BLPOP …: serveDetached, blocking.go);
//   - Pub/Sub, MONITOR or CLIENT TRACKING, whose pushes another goroutine writes (pubsub.go);
//   - a reply the socket did not take at once (a client that does not read while it sends):
//     the goroutine finishes writing it, blocking only itself.
//
// Go's own network poller must not see these sockets: its idle threads would wake for each
// pipeline and find nothing to run. So the accepted connection's descriptor is duplicated and the
// net.Conn closed; fdConn (below) is the connection's net.Conn from then on, and on a hand-over
// it wraps a net.Conn made anew from the descriptor (net.FileConn).

import (
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"redscope/engine"
)

// eventLoop is the loop of one server.
type eventLoop struct {
	s      *Server
	epfd   int
	wake   int // an eventfd: Server.Close wakes the loop with it
	mu     sync.Mutex
	conns  map[int32]*loopConn // by descriptor
	writes []*loopConn         // the connections with a reply to write (serve, flushAll)
	done   chan struct{}
}

// loopConn is a connection the loop serves.
type loopConn struct {
	cn     *netConn
	c      *client
	fc     *fdConn
	out    []byte // the reply to write at the end of the round (c.out)
	queued bool   // in the loop's writes
}

// startEventLoop starts the loop (nil when epoll is not available: connections then get
// goroutines).
func startEventLoop(s *Server) *eventLoop {
	epfd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return nil
	}
	wfd, _, errno := syscall.Syscall(syscall.SYS_EVENTFD2, 0, syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if errno != 0 {
		syscall.Close(epfd)
		return nil
	}
	l := &eventLoop{s: s, epfd: epfd, wake: int(wfd), conns: map[int32]*loopConn{}, done: make(chan struct{})}
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: int32(wfd)}
	if syscall.EpollCtl(epfd, syscall.EPOLL_CTL_ADD, int(wfd), &ev) != nil {
		syscall.Close(epfd)
		syscall.Close(int(wfd))
		return nil
	}
	go l.run()
	return l
}

// add takes a new connection; false: it could not (the caller starts a goroutine instead).
func (l *eventLoop) add(nc net.Conn) (net.Conn, bool) {
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return nc, false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nc, false
	}
	fd := -1
	rc.Control(func(s uintptr) { fd, err = syscall.Dup(int(s)) })
	if err != nil || fd < 0 {
		return nc, false
	}
	syscall.CloseOnExec(fd)
	if syscall.SetNonblock(fd, true) != nil {
		syscall.Close(fd)
		return nc, false
	}
	fc := &fdConn{fd: fd, laddr: nc.LocalAddr(), raddr: nc.RemoteAddr(), loop: l}
	nc.Close() // (Go's poller forgets the socket; fd keeps it open)
	return fc, true
}

// register starts serving a connection that add took.
func (l *eventLoop) register(cn *netConn, c *client) {
	fc := cn.nc.(*fdConn)
	l.mu.Lock()
	l.conns[int32(fc.fd)] = &loopConn{cn: cn, c: c, fc: fc}
	l.mu.Unlock()
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN | syscall.EPOLLRDHUP, Fd: int32(fc.fd)}
	if syscall.EpollCtl(l.epfd, syscall.EPOLL_CTL_ADD, fc.fd, &ev) != nil {
		l.mu.Lock()
		delete(l.conns, int32(fc.fd))
		l.mu.Unlock()
		l.handOver(&loopConn{cn: cn, c: c, fc: fc}, nil, nil, nil)
	}
}

// stop wakes the loop so that it ends (Server.Close).
func (l *eventLoop) stop() {
	var one = [8]byte{1}
	syscall.Write(l.wake, one[:])
}

func (l *eventLoop) run() {
	defer close(l.done)
	events := make([]syscall.EpollEvent, 128)
	ready := make([]*loopConn, 0, 128)
	for {
		n, err := syscall.EpollWait(l.epfd, events, -1)
		if err != nil {
			if err == syscall.EINTR {
				continue
			}
			return
		}
		ready = ready[:0]
		stopping := false
		l.mu.Lock()
		for _, ev := range events[:n] {
			if int(ev.Fd) == l.wake {
				stopping = true
				continue
			}
			if lc := l.conns[ev.Fd]; lc != nil {
				ready = append(ready, lc)
			}
		}
		l.mu.Unlock()
		if stopping {
			l.s.mu.Lock()
			closed := l.s.closed
			l.s.mu.Unlock()
			if closed {
				l.closeAll()
				return
			}
		}
		for _, lc := range ready {
			l.serve(lc)
		}
		l.flushAll()
	}
}

// closeAll ends every connection still in the loop (the server closed).
func (l *eventLoop) closeAll() {
	l.mu.Lock()
	all := make([]*loopConn, 0, len(l.conns))
	for _, lc := range l.conns {
		all = append(all, lc)
	}
	l.mu.Unlock()
	for _, lc := range all {
		l.close(lc)
	}
	syscall.Close(l.epfd)
	syscall.Close(l.wake)
}

// forget takes a connection out of the loop.
func (l *eventLoop) forget(lc *loopConn) {
	syscall.EpollCtl(l.epfd, syscall.EPOLL_CTL_DEL, lc.fc.fd, nil)
	l.mu.Lock()
	delete(l.conns, int32(lc.fc.fd))
	l.mu.Unlock()
}

// close ends a connection the loop serves.
func (l *eventLoop) close(lc *loopConn) {
	l.forget(lc)
	lc.fc.mu.Lock()
	lc.fc.byLoop = true
	lc.fc.mu.Unlock()
	l.s.closeConn(lc.cn, lc.c)
}

// serve reads what a ready connection sent (one read: epoll reports it again while more is
// waiting) and runs its complete commands; input left after a batch is parsed again at once, as
// a connection goroutine does (a protocol error after complete commands is answered after them).
// The replies are written when every ready connection has run (flushAll), as redis-server
// writes them before it waits again (beforeSleep, handleClientsWithPendingWrites): the client,
// woken by the first, is still awake for the others, and its wake-ups cost the most kernel time
// on a virtual machine (BENCHMARKS.md, RESP server).
func (l *eventLoop) serve(lc *loopConn) {
	s, cn, c := l.s, lc.cn, lc.c
	read := false
	for {
		s.readLimits(cn, c)
		cmds, err := cn.parseAll()
		if len(cmds) == 0 && err == nil {
			if read {
				return // a command not complete yet
			}
			read = true
			err = cn.fillWith(lc.fc.readNow)
			if err == syscall.EAGAIN || err == syscall.EINTR {
				return // nothing yet
			}
			if err == nil {
				continue
			}
		}
		// the reply of the batch before (c.out is reused)
		if lc.out != nil && !l.flush(lc) {
			return
		}
		if needsGoroutine(cmds) {
			l.handOver(lc, cmds, err, nil)
			return
		}
		write := func(b []byte) error {
			if c.ps != nil {
				return c.write(b) // (a pusher may write too: the loop hands it over below)
			}
			lc.out = b // (flushAll)
			return nil
		}
		st := s.runBatch(cn, c, cmds, err, write)
		if st == stepNext && c.ps == nil {
			cn.poison()
		}
		switch st {
		case stepClose:
			if lc.out != nil {
				l.flush(lc)
			}
			l.close(lc)
			return
		case stepDetach:
			if lc.out != nil && !l.flush(lc) {
				return
			}
			l.forget(lc)
			lc.fc.handOver()
			go s.detach(cn, c)
			return
		}
		if c.ps != nil || c.monitor || c.tr != nil {
			if lc.out == nil || l.flush(lc) {
				l.handOver(lc, nil, nil, nil)
			}
			return
		}
		if lc.out != nil && !lc.queued {
			lc.queued = true
			l.writes = append(l.writes, lc)
		}
	}
}

// flush writes a connection's pending reply; false when that ended the loop's service of it
// (an error closed it, or the socket did not take everything and a goroutine finishes).
func (l *eventLoop) flush(lc *loopConn) bool {
	out := lc.out
	lc.out = nil
	left, err := lc.fc.writeNow(out)
	if err != nil {
		l.close(lc)
		return false
	}
	if len(left) > 0 {
		l.handOver(lc, nil, nil, append([]byte(nil), left...))
		return false
	}
	return true
}

// flushAll writes the replies of the round.
func (l *eventLoop) flushAll() {
	for _, lc := range l.writes {
		lc.queued = false
		if lc.out != nil {
			l.flush(lc)
		}
	}
	clear(l.writes)
	l.writes = l.writes[:0]
}

// needsGoroutine: a batch the loop must not run itself (scripts: see the top of the file).
func needsGoroutine(cmds [][][]byte) bool {
	for _, a := range cmds {
		if engine.NeedsLua(a) {
			return true
		}
	}
	return false
}

// handOver gives a connection a goroutine of its own: it writes out (what the socket did not
// take), runs cmds (a batch read but not run) and serves the connection from then on.
func (l *eventLoop) handOver(lc *loopConn, cmds [][][]byte, err error, out []byte) {
	l.forget(lc)
	lc.fc.handOver()
	s, cn, c := l.s, lc.cn, lc.c
	go func() {
		if len(out) > 0 {
			if _, werr := cn.nc.Write(out); werr != nil {
				s.closeConn(cn, c)
				return
			}
		}
		s.serveConnFrom(cn, c, cmds, err)
	}()
}

// fdConn is the net.Conn of a connection the loop took: its own duplicate of the socket's
// descriptor, non-blocking. Once handed over (handOver) it passes everything to a net.Conn made
// from the descriptor, so whoever kept it (a Pub/Sub pusher) goes on writing through it.
type fdConn struct {
	fd           int
	laddr, raddr net.Addr
	loop         *eventLoop
	mu           sync.Mutex // guards fd's use for blocking reads and writes, and close
	real         atomic.Pointer[net.Conn]
	closed       bool // fd is closed (or handed over)
	byLoop       bool // the loop closes the connection (Close really closes fd)
}

// readNow reads what is there without waiting (EAGAIN: nothing; io.EOF: the client closed).
func (f *fdConn) readNow(b []byte) (int, error) {
	n, err := syscall.Read(f.fd, b)
	if n == 0 && err == nil {
		return 0, io.EOF
	}
	if n < 0 {
		n = 0
	}
	return n, err
}

// writeNow writes what the socket takes without waiting and returns the rest.
func (f *fdConn) writeNow(b []byte) ([]byte, error) {
	for len(b) > 0 {
		n, err := syscall.Write(f.fd, b)
		if n > 0 {
			b = b[n:]
		}
		switch {
		case err == syscall.EINTR:
		case err == syscall.EAGAIN:
			return b, nil
		case err != nil:
			return b, err
		}
	}
	return nil, nil
}

// handOver makes the net.Conn the connection's goroutine reads and writes from now on (the loop
// has forgotten the descriptor).
func (f *fdConn) handOver() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return
	}
	file := os.NewFile(uintptr(f.fd), "")
	nc, err := net.FileConn(file) // (a duplicate, in Go's poller)
	file.Close()                  // (closes f.fd)
	f.closed = true
	if err != nil {
		nc = closedConn{f.laddr, f.raddr}
	}
	f.real.Store(&nc)
}

func (f *fdConn) Read(b []byte) (int, error) {
	if r := f.real.Load(); r != nil {
		return (*r).Read(b)
	}
	return 0, errors.New("read of a connection the event loop serves")
}

func (f *fdConn) Write(b []byte) (int, error) {
	if r := f.real.Load(); r != nil {
		return (*r).Write(b)
	}
	// the loop's own writes (c.write while the connection is still in the loop): wait for room
	f.mu.Lock()
	defer f.mu.Unlock()
	if r := f.real.Load(); r != nil {
		return (*r).Write(b)
	}
	if f.closed {
		return 0, net.ErrClosed
	}
	total := len(b)
	for {
		rest, err := f.writeNow(b)
		if err != nil {
			return total - len(rest), err
		}
		if len(rest) == 0 {
			return total, nil
		}
		b = rest
		time.Sleep(100 * time.Microsecond) // (rare: a subscriber that does not read)
	}
}

// Close closes the connection. From another goroutine than the loop's (Server.Close) it only
// shuts the socket down: the loop sees the end and closes the descriptor itself, so that its
// number is not reused while the loop may still use it.
func (f *fdConn) Close() error {
	if r := f.real.Load(); r != nil {
		return (*r).Close()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return nil
	}
	if r := f.real.Load(); r != nil {
		return (*r).Close()
	}
	if !f.byLoop {
		return syscall.Shutdown(f.fd, syscall.SHUT_RDWR)
	}
	f.closed = true
	return syscall.Close(f.fd)
}

// closeNow closes a connection the loop never served.
func (f *fdConn) closeNow() {
	f.mu.Lock()
	f.byLoop = true
	f.mu.Unlock()
	f.Close()
}

func (f *fdConn) LocalAddr() net.Addr  { return f.laddr }
func (f *fdConn) RemoteAddr() net.Addr { return f.raddr }

func (f *fdConn) SetDeadline(t time.Time) error {
	if r := f.real.Load(); r != nil {
		return (*r).SetDeadline(t)
	}
	return nil
}

func (f *fdConn) SetReadDeadline(t time.Time) error {
	if r := f.real.Load(); r != nil {
		return (*r).SetReadDeadline(t)
	}
	return nil
}

func (f *fdConn) SetWriteDeadline(t time.Time) error {
	if r := f.real.Load(); r != nil {
		return (*r).SetWriteDeadline(t)
	}
	return nil
}

// unreadBytes is unread (peek_unix.go) for the loop's descriptor.
func (f *fdConn) unreadBytes() bool {
	if r := f.real.Load(); r != nil {
		return unread(*r)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return false
	}
	var b [1]byte
	n, _, err := syscall.Recvfrom(f.fd, b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
	return err == nil && n > 0
}

// closedConn stands for a connection whose hand-over failed: everything fails.
type closedConn struct{ laddr, raddr net.Addr }

func (closedConn) Read([]byte) (int, error)         { return 0, net.ErrClosed }
func (closedConn) Write([]byte) (int, error)        { return 0, net.ErrClosed }
func (closedConn) Close() error                     { return nil }
func (c closedConn) LocalAddr() net.Addr            { return c.laddr }
func (c closedConn) RemoteAddr() net.Addr           { return c.raddr }
func (closedConn) SetDeadline(time.Time) error      { return nil }
func (closedConn) SetReadDeadline(time.Time) error  { return nil }
func (closedConn) SetWriteDeadline(time.Time) error { return nil }
