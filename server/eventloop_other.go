//go:build !linux

package server

import "net"

// eventLoop: without epoll every connection has its goroutine (eventloop_linux.go).
type eventLoop struct{}

func startEventLoop(*Server) *eventLoop             { return nil }
func (*eventLoop) add(nc net.Conn) (net.Conn, bool) { return nc, false }
func (*eventLoop) register(*netConn, *client)       {}
func (*eventLoop) stop()                            {}

// fdConn is the loop's connection type (never made here).
type fdConn struct{ net.Conn }

func (f *fdConn) closeNow() { f.Close() }
