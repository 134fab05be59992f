package server

// A connection whose command blocked (BLPOP q 0 with q missing) leaves the connection loop
// (loop.go), which would neither read from it while it waits nor notice the client hang up. From then on
// two goroutines serve it, for the rest of its life:
//
//   - the reader reads commands (loop.go's parser, netConn.ReadCommand), copies them and
//     hands them over a channel of 128; it ends when the connection does.
//   - serveDetached waits, without the engine lock, for whichever comes first: the blocked
//     command's reply (c.wake, sent by the engine while another connection's command runs), its
//     deadline (a timer; the engine decides with its own clock, ExpireBlocked), or the reader's
//     end (the client hung up: its place among the blocked clients is dropped, nothing is
//     answered). Once answered it runs the commands read meanwhile, in order, each pipeline under
//     one acquisition of the lock like handle, and may block again.
//
// Everything shared (engine, clients, blocking table) is still touched only under s.mu; c.wake
// has room for the one reply a blocked command gets, so the engine never waits on a connection.

import (
	"strings"
	"time"

	"redscope/engine"
)

func (s *Server) serveDetached(c *client, dc detachedConn) {
	cmds := make(chan [][]byte, 128)
	readerDone := make(chan struct{})
	stop := make(chan struct{})
	defer func() {
		close(stop)
		dc.Close()
		s.mu.Lock()
		delete(s.detached, c)
		s.dropClient(c)
		s.mu.Unlock()
	}()
	if dc.Flush() != nil {
		return
	}
	var protoErr error // set before readerDone closes
	go func() {
		defer close(readerDone)
		for {
			cmd, err := dc.ReadCommand()
			if err != nil {
				if strings.HasPrefix(err.Error(), "Protocol error") {
					protoErr = err // answered like the connection loop does, then closed
				}
				return
			}
			select {
			case cmds <- engine.CopyArgs(cmd.Args):
			case <-stop:
				return
			}
		}
	}()
	for {
		if c.parked {
			if !s.waitBlocked(c, readerDone, func() bool { return protoErr != nil }) {
				return
			}
		} else if len(c.pending) == 0 {
			c.out = c.out[:0]
			select {
			case args := <-cmds:
				c.pending = append(c.pending, args)
			case <-readerDone:
				// The client hung up; what it sent before still runs, as Redis processes a
				// query buffer before it reads the end of the stream.
				select {
				case args := <-cmds:
					c.pending = append(c.pending, args)
				default:
					if protoErr != nil {
						dc.WriteError("ERR " + protoErr.Error())
						dc.Flush()
					}
					return
				}
			}
		}
		for more := true; more; { // the rest of the pipeline already read
			select {
			case args := <-cmds:
				c.pending = append(c.pending, args)
			default:
				more = false
			}
		}
		s.runPending(c)
		if len(c.out) > 0 {
			dc.WriteRaw(c.out)
			if dc.Flush() != nil {
				return
			}
		}
		if c.quit {
			return
		}
	}
}

// waitBlocked waits for the blocked command's reply and puts it in c.out; false when the client
// hung up first. A protocol error (garbled) is no hang-up: like Redis, which parses a blocked
// client's input only once it is unblocked, the client waits on and the error comes after.
func (s *Server) waitBlocked(c *client, readerDone <-chan struct{}, garbled func() bool) bool {
	c.out = c.out[:0]
	for {
		s.mu.Lock()
		var deadline, now int64
		if c.tx != nil {
			_, _, deadline = c.tx.BlockedOn()
			now = c.txEng.NowMs()
		}
		s.mu.Unlock()
		var timer *time.Timer
		var fire <-chan time.Time
		if deadline != 0 {
			// Redis times a client out once now > deadline: one millisecond past it, on the
			// engine's clock (the wall clock for a server; at least 1 ms between checks).
			// (clamped to 30 years: a larger wait would overflow time.Duration)
			wait := min(max(deadline+1-now, 1), 30*365*24*3600*1000)
			timer = time.NewTimer(time.Duration(wait) * time.Millisecond)
			fire = timer.C
		}
		select {
		case res := <-c.wake:
			if timer != nil {
				timer.Stop()
			}
			s.mu.Lock()
			c.parked = false
			c.lastAt = time.Now()
			c.out = res.Reply.AppendRESP(c.out, c.proto)
			s.mu.Unlock()
			return true
		case <-fire:
			s.mu.Lock()
			if c.tx != nil {
				c.txEng.ExpireBlocked() // answers every client that is due, this one too
			}
			s.mu.Unlock()
		case <-readerDone:
			if timer != nil {
				timer.Stop()
			}
			if !garbled() {
				return false
			}
			readerDone = nil
		}
	}
}

// runPending runs c.pending under the engine lock until it is empty or a command blocks.
func (s *Server) runPending(c *client) {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.recoverRun(c)
	now := time.Now()
	for len(c.pending) > 0 && !c.parked && !c.quit {
		args := c.pending[0]
		c.pending = c.pending[1:]
		s.run(c, args, now)
	}
	if len(c.pending) == 0 {
		c.pending = nil
	}
}
