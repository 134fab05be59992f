package server

import "redscope/engine"

// INFO is the engine's (engine/info.go); the server tells it what only it knows.

// infoHost is what INFO reports of the server; s.mu is held.
func (s *Server) infoHost() engine.InfoHost {
	h := engine.InfoHost{Port: s.port, ProcessID: pid, RunID: s.runID, Executable: executable(),
		StartMs: s.started.UnixMilli(), ConnectedClients: len(s.clients), TotalConnections: s.totalConns,
		PubsubChannels: len(s.reg.chans), PubsubPatterns: len(s.reg.pats),
		PubsubShardChannels: len(s.reg.shards), PubsubClients: s.reg.clients}
	s.trackInfo(&h) // tracking.go
	return h
}

// info is INFO's text for the sections (s.mu held).
func (s *Server) info(sections [][]byte) string {
	s.eng.SetInfoHost(s.infoHost)
	return s.eng.Info(sections)
}
