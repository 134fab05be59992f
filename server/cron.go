package server

// The server's cron: ten times a second (Redis's default hz 10) the engine deletes the keys
// whose TTL has passed although no command reads them (engine.ActiveExpireCycle, Redis's
// activeExpireCycle in serverCron), so DBSIZE and INFO keyspace fall as on a real server.
// DEBUG SET-ACTIVE-EXPIRE 0 turns it off, as in Redis.

import "time"

const cronInterval = 100 * time.Millisecond

// cron runs until the server is closed.
func (s *Server) cron() {
	t := time.NewTicker(cronInterval)
	defer t.Stop()
	for range t.C {
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			return
		}
		s.eng.ActiveExpireCycle()
		s.trackLimit()        // tracking-table-max-keys (tracking.go)
		s.trackBroadcast(nil) // keys expired under a BCAST prefix (beforeSleep; tracking.go)
		s.mu.Unlock()
	}
}
