package server

// Serving an engine.Cluster: one Server per node, node i on port P+i, all under one lock (MIGRATE
// on one node writes into another node's keyspace, and the slot map is shared). There is no
// cluster bus: nodes learn of each other through the shared engine.Cluster, so nothing listens
// on port+10000, and redis-cli's --cluster commands (check, reshard, add-node, info) only need
// the client ports.

import (
	"errors"
	"net"
	"strconv"
	"sync"

	"redscope/engine"
)

// Cluster serves every node of an engine.Cluster.
type Cluster struct {
	mu      sync.Mutex
	Servers []*Server
	lns     []net.Listener
}

// NewCluster makes a server per node; the nodes must use real time (engine.WallClock{}).
func NewCluster(cl *engine.Cluster) *Cluster {
	c := &Cluster{}
	for _, e := range cl.Nodes() {
		s := New(e)
		s.mu = &c.mu
		c.Servers = append(c.Servers, s)
	}
	return c
}

// Listen opens node i's listener on host:port+i for every node.
func (c *Cluster) Listen(host string, port int) error {
	for i := range c.Servers {
		ln, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(port+i)))
		if err != nil {
			for _, l := range c.lns {
				l.Close()
			}
			c.lns = nil
			return err
		}
		c.lns = append(c.lns, ln)
	}
	return nil
}

// Serve serves every node on the listeners of Listen until Close; it returns the first error.
func (c *Cluster) Serve() error {
	if len(c.lns) != len(c.Servers) {
		return errors.New("server: Cluster.Serve before Listen")
	}
	errs := make(chan error, len(c.Servers))
	for i, s := range c.Servers {
		go func(s *Server, ln net.Listener) { errs <- s.Serve(ln) }(s, c.lns[i])
	}
	err := <-errs
	c.Close()
	for range len(c.Servers) - 1 {
		<-errs
	}
	return err
}

// Close stops every node.
func (c *Cluster) Close() error {
	var first error
	for _, s := range c.Servers {
		if err := s.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

func clusterEnabled(e *engine.Engine) int {
	if e.ClusterEnabled() {
		return 1
	}
	return 0
}

func redisMode(e *engine.Engine) string {
	if e.ClusterEnabled() {
		return "cluster"
	}
	return "standalone"
}
