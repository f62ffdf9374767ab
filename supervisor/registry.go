package supervisor

import (
	"context"
	"time"

	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// monitor returns the pane's monitor, if followed.
func (s *Supervisor) monitor(p controlmode.PaneID) *terminal.Pane {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.panes[p]
}

// monitors returns every monitor (a snapshot).
func (s *Supervisor) monitors() []*terminal.Pane {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*terminal.Pane, 0, len(s.panes))
	for _, m := range s.panes {
		out = append(out, m)
	}
	return out
}

// claimPanes starts a monitor for every listed pane nobody follows (a
// window linked into two sessions is followed through the first session
// that lists it) and stops the monitors of se's panes it no longer lists.
func (s *Supervisor) claimPanes(ctx context.Context, se *session, panes []controlmode.PaneInfo) {
	listed := map[controlmode.PaneID]bool{}
	var start []*terminal.Pane
	s.mu.Lock()
	for _, p := range panes {
		listed[p.Pane] = true
		if m, ok := s.panes[p.Pane]; ok {
			if m.Session() == se.id {
				m.SetInfo(p)
			}
			continue
		}
		m := terminal.New(s.env, se.id, se.client, p)
		s.panes[p.Pane] = m
		start = append(start, m)
	}
	var stop []*terminal.Pane
	for id, m := range s.panes {
		if m.Session() == se.id && !listed[id] {
			stop = append(stop, m)
		}
	}
	s.mu.Unlock()
	for _, m := range start {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			m.Run(ctx)
		}()
	}
	for _, m := range stop {
		m.Stop()
	}
}

// claimStored hands a monitor the store's record of its terminal, if the
// store has one nobody claimed: the daemon restarted, or the pane moved
// between sessions. ok is false for a terminal the store never saw.
func (s *Supervisor) claimStored(id string) (store.Terminal, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.stored[id]
	delete(s.stored, id)
	return t, ok
}

// storedStart is the pane process start time the store recorded for this
// server, pane and pid (0: none).
func (s *Supervisor) storedStart(pane string, pid int) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, t := range s.stored {
		if t.Pane == pane && t.PanePID == pid && t.ServerPID == s.server.PID && t.Socket == s.server.Socket {
			return t.PaneStart
		}
	}
	return 0
}

// staleForPane takes the stored records of earlier incarnations of a pane
// (its process was respawned while the daemon was not running).
func (s *Supervisor) staleForPane(pane, current string) []store.Terminal {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []store.Terminal
	for id, t := range s.stored {
		if t.Pane == pane && id != current && t.ServerPID == s.server.PID {
			out = append(out, t)
			delete(s.stored, id)
		}
	}
	return out
}

// release is called by a monitor's goroutine as it ends. A pane that still
// exists (it moved to another session, or its session's client ended while
// a linked window lives on) keeps its record for the next follower; a pane
// that is gone is recorded as removed.
func (s *Supervisor) release(ctx context.Context, m *terminal.Pane, reason string) {
	s.mu.Lock()
	if s.panes[m.PaneID()] == m {
		delete(s.panes, m.PaneID())
	}
	s.mu.Unlock()
	t, recorded := m.Recorded()
	if !recorded {
		return
	}
	if ctx.Err() != nil {
		return // the daemon stops: the pane is not gone
	}
	qctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	exists := s.paneExists(qctx, m.PaneID(), m.Server().PID)
	cancel()
	if exists {
		s.mu.Lock()
		s.stored[t.ID] = t
		for _, se := range s.sessions {
			se.pokeScan()
		}
		s.mu.Unlock()
		return
	}
	s.removeTerminal(t, reason)
}

// removeTerminal records that a terminal is gone: one event, and its
// record and binding deleted (the history keeps what it was).
func (s *Supervisor) removeTerminal(t store.Terminal, reason string) {
	ev := terminal.RemovedEvent(t, reason)
	if _, err := s.commit(store.Change{DeleteTerminals: []string{t.ID}, Events: []store.Event{ev}}); err != nil {
		s.lg.Error("record removal", "terminal", t.ID, "err", err)
	}
}

// terminalMonitor finds the pane of a recorded terminal id.
func (s *Supervisor) terminalMonitor(id string) *terminal.Pane {
	for _, m := range s.monitors() {
		if t, ok := m.Recorded(); ok && t.ID == id {
			return m
		}
	}
	return nil
}
