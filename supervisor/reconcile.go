package supervisor

import (
	"context"
	"fmt"
	"time"

	"github.com/agent-knock-knock/akk/store"
)

// loadStored reads the store's terminals: the panes the daemon knew when it
// last ran. Monitors claim them by terminal id (same server, pane and pane
// process: the same terminal); reconcile removes those nobody claimed.
func (s *Supervisor) loadStored() error {
	ts, err := s.st.Terminals()
	if err != nil {
		return fmt.Errorf("supervisor: load terminals: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stored = map[string]store.Terminal{}
	for _, t := range ts {
		s.stored[t.ID] = t
	}
	return nil
}

// reconcile waits until every session's first pane listing has been
// claimed (bounded), then records as removed every stored terminal that
// tmux no longer shows: a pane closed, a server restarted, or a pane
// respawned while the daemon was not running.
func (s *Supervisor) reconcile(ctx context.Context) error {
	deadline := time.Now().Add(10 * time.Second)
	for !s.initialScanDone() {
		if time.Now().After(deadline) {
			return fmt.Errorf("supervisor: reconcile: sessions not listed within 10s; stored terminals kept")
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
	s.mu.Lock()
	var gone []store.Terminal
	for id, t := range s.stored {
		if !s.claimedLater(t) {
			gone = append(gone, t)
			delete(s.stored, id)
		}
	}
	s.mu.Unlock()
	for _, t := range gone {
		s.removeTerminal(t, "gone while akk was not running")
	}
	if len(gone) > 0 {
		s.lg.Info("reconciled", "removed", len(gone))
	}
	return nil
}

// claimedLater: a stored terminal whose pane is followed but whose monitor
// has not reached setTerminal yet keeps its record (it claims it soon).
// Called with mu held.
func (s *Supervisor) claimedLater(t store.Terminal) bool {
	for p, m := range s.panes {
		if p.String() == t.Pane && !m.Started() {
			return true
		}
	}
	return false
}

// initialScanDone reports whether every attached session has listed its
// panes once.
func (s *Supervisor) initialScanDone() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, se := range s.sessions {
		if !se.scanned.Load() {
			return false
		}
	}
	return true
}
