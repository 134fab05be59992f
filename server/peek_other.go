//go:build !unix

package server

import "net"

// unread: no peek here; catchUp then waits only for input already read (inFlight).
func unread(nc net.Conn) bool { return false }
