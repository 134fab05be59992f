//go:build unix

package server

import (
	"net"
	"syscall"
)

// unread reports whether nc's socket holds bytes not read yet (recv with MSG_PEEK; Control
// does not wait for the connection's own pending Read).
func unread(nc net.Conn) bool {
	if p, ok := nc.(interface{ unreadBytes() bool }); ok {
		return p.unreadBytes() // (eventloop_linux.go)
	}
	sc, ok := nc.(syscall.Conn)
	if !ok {
		return false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	pending := false
	rc.Control(func(fd uintptr) {
		var b [1]byte
		n, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		pending = err == nil && n > 0
	})
	return pending
}
