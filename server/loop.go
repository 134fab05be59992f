package server

// The connection loop: one goroutine per connection reads what the client sent, parses every
// complete command in it, runs them under one acquisition of the engine lock (a pipeline of 16
// SETs from redis-benchmark -P 16 is one read, one lock, one write), and writes the replies.
//
// Parsing is Redis's (networking.c processMultibulkBuffer and processInlineBuffer: multibulk
// `*3\r\n$3\r\nSET\r\n…`, where `*0` is skipped and the two bytes after an argument are not
// checked, and inline `PING hello\r\n` split like sdssplitargs; the "Protocol error: …" texts;
// PROTO_INLINE_MAX_SIZE for a line still open, the unauthenticated limits, strchr's stop at a NUL
// byte; after the error the connection is closed). internal/difftest/protocol_test.go compares
// the raw exchanges with redis-server.
// It replaces redcon's loop, whose parser differs on those three points and which made two
// allocations per command; here a pipeline costs none once the connection has seen one as long:
// every argument is a slice of the connection's input buffer, the arguments of all the commands
// share one [][]byte and the commands one [][][]byte, all three reused by the next pipeline.
// So nothing may keep an argument after its command ran without copying it: a MULTI queue
// (engine.CopyArgs), a blocked command's arguments (engine/blocking.go copyArgv) and the
// commands after it (runAll: c.pending) copy theirs; the map keys, values and replies the engine
// makes are copies anyway. PoisonInput (the differential tests turn it on) overwrites each
// pipeline's input after it ran, so a command that kept an argument shows at once. Under
// redis-benchmark reusing the memory is 10–15 % of the server's CPU per command (BENCHMARKS.md,
// RESP server): fresh memory each pipeline meant cold cache lines and garbage to collect.
//
// A command that blocks hands the connection to serveDetached (blocking.go), which reads the next
// commands with ReadCommand from the same buffer.

import (
	"errors"
	"math"
	"net"
	"sync/atomic"

	"github.com/tidwall/redcon"

	"redscope/engine"
)

// PoisonInput: tests set it (before serving) to overwrite each pipeline's input once its
// commands ran (see above).
var PoisonInput bool

// poison overwrites the input of the batch that just ran.
func (cn *netConn) poison() {
	if PoisonInput {
		for i := range cn.last {
			cn.last[i] = '#'
		}
	}
	cn.last = nil
}

// errQueryBufLimit closes a client whose unparsed input passed client-query-buffer-limit.
var errQueryBufLimit = errors.New("closing client that reached max query buffer length")

type protoError string

func (e protoError) Error() string { return "Protocol error: " + string(e) }

const (
	errUnbalancedQuotes  = protoError("unbalanced quotes in request")
	errInvalidBulkLength = protoError("invalid bulk length")
	errInvalidMultiBulk  = protoError("invalid multibulk length")
	errTooBigInline      = protoError("too big inline request")
	errTooBigMbulkCount  = protoError("too big mbulk count string")
	errTooBigBulkCount   = protoError("too big bulk count string")
	errUnauthMultiBulk   = protoError("unauthenticated multibulk length")
	errUnauthBulkLength  = protoError("unauthenticated bulk length")
)

// netConn is one client connection: the socket, its unparsed input and pending output.
type netConn struct {
	nc   net.Conn
	addr string
	buf  []byte // buf[r:w] is read and not yet parsed
	r, w int
	out  []byte // written by Flush (the detached path)
	// parseAll's scratch: offsets only, never handed out
	spans  [][2]int
	counts []int
	// the batch parseAll returned: its input (last), its arguments and its commands, reused by
	// the next batch (see the top of the file)
	last    []byte
	allBuf  [][]byte
	cmdsBuf [][][]byte
	// unauth: the client has not authenticated (requirepass), so the parser refuses long
	// commands; set by the connection's own loop between two batches.
	unauth bool
	// maxBulk and queryLimit: proto-max-bulk-len and client-query-buffer-limit, set by the
	// connection's own loop between two batches (Server.syncLimits)
	maxBulk, queryLimit int
	// inFlight: input was read and its commands have not run yet (pubsub.go, catchUp)
	inFlight atomic.Bool
}

func newNetConn(nc net.Conn) *netConn {
	return &netConn{nc: nc, addr: nc.RemoteAddr().String(), buf: make([]byte, 16<<10)}
}

// fill reads more input, compacting or growing the buffer first.
func (cn *netConn) fill() error { return cn.fillWith(cn.nc.Read) }

// fillWith is fill with the given read (the event loop's does not wait: eventloop_linux.go).
func (cn *netConn) fillWith(read func([]byte) (int, error)) error {
	if cn.r > 0 {
		n := copy(cn.buf, cn.buf[cn.r:cn.w])
		cn.r, cn.w = 0, n
	}
	if cn.w >= cn.queryLimit {
		return errQueryBufLimit
	}
	if cn.w == len(cn.buf) {
		nb := make([]byte, 2*len(cn.buf))
		copy(nb, cn.buf[:cn.w])
		cn.buf = nb
	}
	n, err := read(cn.buf[cn.w:])
	if n > 0 {
		cn.w += n
		cn.inFlight.Store(true)
		return nil
	}
	return err
}

// readBatch returns every complete command of the input (at least one), reading as needed.
func (cn *netConn) readBatch() ([][][]byte, error) {
	for {
		cmds, err := cn.parseAll()
		if err != nil || len(cmds) > 0 {
			return cmds, err
		}
		if err := cn.fill(); err != nil {
			return nil, err
		}
	}
}

// parseAll parses the complete commands in buf[r:w] into memory of their own.
func (cn *netConn) parseAll() ([][][]byte, error) {
	spans := cn.spans[:0]   // argument offsets, relative to start
	counts := cn.counts[:0] // arguments per command (-1: inline, copied apart)
	var inline [][][]byte
	defer func() { cn.spans, cn.counts = spans[:0], counts[:0] }() // scratch, reused
	start := cn.r
	p := cn.r
	var perr error
	for p < cn.w {
		b := cn.buf[p:cn.w]
		if b[0] != '*' {
			args, n, err := parseInline(b)
			if err != nil {
				perr = err
				break
			}
			if n == 0 {
				break
			}
			p += n
			if len(args) > 0 {
				inline = append(inline, args)
				counts = append(counts, -1)
			}
			continue
		}
		before := len(spans)
		var n int
		var err error
		spans, n, err = parseMultibulk(b, p-start, spans, cn.unauth, cn.maxBulk)
		if err != nil {
			perr = err
			break
		}
		if n == 0 {
			spans = spans[:before]
			break
		}
		p += n
		if len(spans) > before {
			counts = append(counts, len(spans)-before)
		}
	}
	if len(counts) == 0 {
		return nil, perr
	}
	block := cn.buf[start:p]
	cn.r = p
	if cn.r == cn.w {
		cn.r, cn.w = 0, 0
	}
	cn.last = block
	if cap(cn.allBuf) < len(spans) {
		cn.allBuf = make([][]byte, len(spans))
	}
	all := cn.allBuf[:len(spans)]
	for i, sp := range spans {
		all[i] = block[sp[0]:sp[1]:sp[1]]
	}
	if cap(cn.cmdsBuf) < len(counts) {
		cn.cmdsBuf = make([][][]byte, len(counts))
	}
	cmds := cn.cmdsBuf[:len(counts)]
	for i, k := range counts {
		if k < 0 {
			cmds[i], inline = inline[0], inline[1:]
			continue
		}
		cmds[i], all = all[:k:k], all[k:]
	}
	// A protocol error after complete commands: they run first, the error comes next time.
	return cmds, nil
}

// parseMultibulk parses one `*n` command at the start of b, appending its arguments' offsets
// (plus base) to spans; n is 0 when the command is not complete yet. It follows
// processMultibulkBuffer step by step: a count or length line ends at its first '\r' (found as
// strchr does, so a NUL byte before it means "not there yet") and the byte after that '\r' is
// skipped unread; a line that is still open after PROTO_INLINE_MAX_SIZE bytes is refused; an
// unauthenticated client may send at most 10 arguments of at most 16384 bytes.
func parseMultibulk(b []byte, base int, spans [][2]int, unauth bool, maxBulk int) (_ [][2]int, n int, err error) {
	i := strchr(b, 1, '\r')
	if i < 0 {
		if len(b) > protoInlineMaxSize {
			return spans, 0, errTooBigMbulkCount
		}
		return spans, 0, nil
	}
	if i > len(b)-2 {
		return spans, 0, nil // the byte after '\r' is not there yet
	}
	count, ok := parseInt(b[1:i])
	if !ok || count > math.MaxInt32 {
		return spans, 0, errInvalidMultiBulk
	}
	if count > 10 && unauth {
		return spans, 0, errUnauthMultiBulk
	}
	p := i + 2
	if count <= 0 {
		return spans, p, nil // *0 and *-1 are skipped (processMultibulkBuffer)
	}
	for j := 0; j < count; j++ {
		e := strchr(b, p, '\r')
		if e < 0 {
			if len(b)-p > protoInlineMaxSize {
				return spans, 0, errTooBigBulkCount
			}
			return spans, 0, nil
		}
		if e > len(b)-2 {
			return spans, 0, nil
		}
		if b[p] != '$' {
			return spans, 0, protoError("expected '$', got '" + string(b[p]) + "'")
		}
		size, ok := parseInt(b[p+1 : e])
		if !ok || size < 0 || size > maxBulk {
			return spans, 0, errInvalidBulkLength
		}
		if size > 16384 && unauth {
			return spans, 0, errUnauthBulkLength
		}
		d := e + 2
		if len(b)-d < size+2 {
			return spans, 0, nil
		}
		// the two bytes after the argument are skipped unread, as Redis does
		spans = append(spans, [2]int{base + d, base + d + size})
		p = d + size + 2
	}
	return spans, p, nil
}

// protoInlineMaxSize is PROTO_INLINE_MAX_SIZE (server.h): how much input an inline command, a
// multibulk count or a bulk length may take before its line ends.
const protoInlineMaxSize = 64 << 10

// strchr is C's strchr on Redis's NUL-terminated query buffer from b[from]: the index of the
// first c, or -1 when the input ends or a NUL byte comes first.
func strchr(b []byte, from int, c byte) int {
	for i := from; i < len(b); i++ {
		switch b[i] {
		case c:
			return i
		case 0:
			return -1
		}
	}
	return -1
}

// parseInt is string2ll (util.c) for a length: an optional '-', then "0" or digits without a
// leading zero, no '+', no spaces; at most 18 digits (lengths never need more).
func parseInt(b []byte) (int, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 18 || (b[0] == '0' && len(b) > 1) {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// parseInline splits one inline command line as processInlineBuffer does (sdssplitargs, the
// quoting redis-cli uses too: engine.SplitArgs); n is 0 while no line is complete, and a line
// still open after PROTO_INLINE_MAX_SIZE bytes is refused. The line ends at the first '\n'
// found by strchr (a NUL byte first: not yet).
func parseInline(b []byte) (args [][]byte, n int, err error) {
	i := strchr(b, 0, '\n')
	if i < 0 {
		if len(b) > protoInlineMaxSize {
			return nil, 0, errTooBigInline
		}
		return nil, 0, nil
	}
	line := b[:i]
	if i > 0 && b[i-1] == '\r' {
		line = b[:i-1]
	}
	args, err = engine.SplitArgs(string(line))
	if err != nil {
		return nil, 0, errUnbalancedQuotes
	}
	return args, i + 1, nil
}

// The detached side (blocking.go): one command at a time, writes buffered until Flush.

func (cn *netConn) ReadCommand() (redcon.Command, error) {
	for {
		cmds, err := cn.parseOne()
		if err != nil || cmds != nil {
			return redcon.Command{Args: cmds}, err
		}
		if err := cn.fill(); err != nil {
			return redcon.Command{}, err
		}
	}
}

// parseOne parses the first complete command only (the rest stays for the next call).
func (cn *netConn) parseOne() ([][]byte, error) {
	for cn.r < cn.w {
		b := cn.buf[cn.r:cn.w]
		if b[0] != '*' {
			args, n, err := parseInline(b)
			if err != nil || n == 0 {
				return nil, err
			}
			cn.r += n
			if len(args) > 0 {
				return args, nil
			}
			continue
		}
		spans, n, err := parseMultibulk(b, 0, nil, cn.unauth, cn.maxBulk)
		if err != nil || n == 0 {
			return nil, err
		}
		if len(spans) == 0 {
			cn.r += n
			continue
		}
		args := make([][]byte, len(spans))
		for i, sp := range spans {
			args[i] = b[sp[0]:sp[1]:sp[1]] // copied by the caller (engine.CopyArgs)
		}
		cn.r += n
		return args, nil
	}
	return nil, nil
}

func (cn *netConn) WriteRaw(b []byte) { cn.out = append(cn.out, b...) }
func (cn *netConn) WriteError(msg string) {
	cn.out = append(append(append(cn.out, '-'), msg...), '\r', '\n')
}
func (cn *netConn) RemoteAddr() string { return cn.addr }
func (cn *netConn) NetConn() net.Conn  { return cn.nc }
func (cn *netConn) Close() error       { cn.Flush(); return cn.nc.Close() }
func (cn *netConn) Flush() error {
	if len(cn.out) == 0 {
		return nil
	}
	_, err := cn.nc.Write(cn.out)
	cn.out = cn.out[:0]
	return err
}

// detachedConn is what serveDetached needs of a connection.
type detachedConn interface {
	ReadCommand() (redcon.Command, error)
	WriteRaw([]byte)
	WriteError(string)
	Flush() error
	Close() error
	NetConn() net.Conn
}

// outBuf appends replies to a client's output buffer.
type outBuf client

func (o *outBuf) WriteRaw(b []byte) { o.out = append(o.out, b...) }

// Proto is the connection's RESP version (read without the lock: only its own loop sets it).
func (o *outBuf) Proto() int { return o.proto }

// serveConn is one connection's loop; c is its client, made by the accept loop (so ids follow
// the order connections were accepted, as Redis numbers them). first, when not nil, is a batch
// the event loop read and handed over with the connection (eventloop_linux.go), and firstErr
// the error that came with it.
func (s *Server) serveConn(cn *netConn, c *client) { s.serveConnFrom(cn, c, nil, nil) }

func (s *Server) serveConnFrom(cn *netConn, c *client, first [][][]byte, firstErr error) {
	detached := false
	defer func() {
		if !detached { // (else serveDetached owns the connection now)
			s.closeConn(cn, c)
		}
	}()
	cmds, err := first, firstErr
	read := first == nil && firstErr == nil
	for {
		if read {
			s.readLimits(cn, c)
			cmds, err = cn.readBatch()
		}
		read = true
		st := s.runBatch(cn, c, cmds, err, c.write)
		if st != stepDetach {
			cn.poison()
		}
		switch st {
		case stepClose:
			return
		case stepDetach:
			detached = true
			s.detach(cn, c)
			return
		}
	}
}

// closeConn closes a connection and forgets its client.
func (s *Server) closeConn(cn *netConn, c *client) {
	cn.nc.Close()
	s.mu.Lock()
	delete(s.conns, cn)
	s.dropClient(c)
	s.mu.Unlock()
}

// readLimits sets what the parser checks for the next input (only the connection's own loop
// changes c.authed): proto-max-bulk-len refuses a longer argument at once instead of waiting for
// its bytes (processMultibulkBuffer); past client-query-buffer-limit of unparsed input the client
// is closed without a reply (readQueryFromClient).
func (s *Server) readLimits(cn *netConn, c *client) {
	cn.unauth = !c.authed
	cn.maxBulk, cn.queryLimit = int(s.maxBulk.Load()), int(s.queryLimit.Load())
}

// step is what a connection's loop does after a batch.
type step int

const (
	stepNext   step = iota // read the next input
	stepClose              // close the connection
	stepDetach             // its command blocked: serveDetached takes it (blocking.go)
)

// runBatch runs the commands one read brought (cmds, with the error that ended the read) and
// writes the replies with write.
func (s *Server) runBatch(cn *netConn, c *client, cmds [][][]byte, err error, write func([]byte) error) step {
	c.out = c.out[:0]
	// script_busy.go: while a script holds the engine past busy-reply-threshold, each command
	// is answered (BUSY, SCRIPT KILL, FUNCTION STATS) without waiting for the lock.
	for len(cmds) > 0 && s.scriptBusy((*outBuf)(c), cmds[0]) {
		cmds = cmds[1:]
	}
	if len(cmds) > 0 {
		if hasPublish(cmds) {
			s.catchUp(c)
		}
		s.runAll(c, cmds)
	}
	cn.inFlight.Store(false)
	var pe protoError
	if len(cmds) == 0 && errors.As(err, &pe) {
		c.out = append(append(append(c.out, "-ERR "...), pe.Error()...), '\r', '\n')
		write(c.out)
		return stepClose
	}
	if len(c.out) > 0 || c.wlocked {
		if werr := write(c.out); werr != nil {
			return stepClose
		}
	}
	if cap(c.out) > 1<<20 {
		c.out = nil
	}
	if err != nil || c.quit {
		return stepClose
	}
	if c.parked {
		return stepDetach
	}
	return stepNext
}

// detach hands a connection whose command blocked to serveDetached (blocking.go), which serves
// it from then on.
func (s *Server) detach(cn *netConn, c *client) {
	s.mu.Lock()
	c.detached = true
	delete(s.conns, cn)
	if s.detached == nil {
		s.detached = map[*client]detachedConn{}
	}
	s.detached[c] = cn
	closed := s.closed
	s.mu.Unlock()
	if closed {
		cn.nc.Close()
	}
	s.serveDetached(c, cn)
}
