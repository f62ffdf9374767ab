package supervisor

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/agent-knock-knock/akk/controlmode"
)

// session is one tmux session and the control client attached to it. tmux
// sends %output only for the attached session's panes, hence one client per
// session.
type session struct {
	id     controlmode.SessionID
	name   string // guarded by Supervisor.mu
	client *controlmode.Client
	scan   chan struct{} // cap 1: list this session's panes again
	// scanned: the panes were listed and claimed once (reconcile waits).
	scanned atomic.Bool
}

// fgSubscription names our refresh-client -B subscription.
const fgSubscription = "akk-fg"

// sessionLoop lists the server's sessions whenever a client reports that
// they changed, attaching to new ones; clients of closed sessions end by
// themselves (%exit).
func (s *Supervisor) sessionLoop(ctx context.Context) error {
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.rescan:
		}
		s.syncSessions(ctx)
	}
}

func (s *Supervisor) syncSessions(ctx context.Context) {
	var via *controlmode.Client
	s.mu.Lock()
	for _, se := range s.sessions {
		via = se.client
		break
	}
	s.mu.Unlock()
	var list []sessionInfo
	var err error
	if via != nil {
		_, list, err = listSessionsVia(ctx, via, s.cfg.TmuxSocket)
	}
	if via == nil || err != nil {
		_, list, err = s.listSessions(ctx)
	}
	if err != nil {
		s.lg.Warn("list sessions", "err", err)
		return
	}
	for _, si := range list {
		s.startSession(ctx, si)
	}
	// A pane whose follower went away may now be in another session.
	s.mu.Lock()
	for _, se := range s.sessions {
		se.pokeScan()
	}
	s.mu.Unlock()
}

func (se *session) pokeScan() {
	select {
	case se.scan <- struct{}{}:
	default:
	}
}

// startSession attaches a control client to si unless one is attached.
func (s *Supervisor) startSession(ctx context.Context, si sessionInfo) {
	s.mu.Lock()
	if se, ok := s.sessions[si.ID]; ok {
		se.name = si.Name
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	c, err := controlmode.Start(sctx, controlmode.Config{
		Socket: s.cfg.TmuxSocket, Session: si.ID.String(), Env: s.cfg.TmuxEnv,
		Logger: s.lg.With("session", si.Name), PauseAfter: s.cfg.PauseAfter, OnCommand: s.cfg.onCommand,
	})
	cancel()
	if err != nil {
		s.lg.Warn("attach session", "session", si.Name, "err", err)
		return
	}
	// tmux reports a pane's death and its foreground command (polled about
	// once a second) to a subscriber: what changes without pane output.
	sctx, cancel = context.WithTimeout(ctx, 10*time.Second)
	_, err = c.Command(sctx, "refresh-client", "-B", fgSubscription+":%*:#{pane_dead} #{pane_current_command}")
	cancel()
	if err != nil {
		s.lg.Warn("subscribe", "session", si.Name, "err", err)
	}
	se := &session{id: si.ID, name: si.Name, client: c, scan: make(chan struct{}, 1)}
	s.mu.Lock()
	if _, dup := s.sessions[si.ID]; dup || ctx.Err() != nil {
		s.mu.Unlock()
		c.Close()
		return
	}
	s.sessions[si.ID] = se
	s.mu.Unlock()
	s.lg.Info("session attached", "session", si.Name, "id", si.ID.String())
	se.pokeScan()
	s.wg.Add(2)
	go s.sessionEvents(ctx, se)
	go s.sessionScanner(ctx, se)
}

// sessionEvents reads the client's notifications until the connection
// ends: they trigger pane scans, session scans and respawn handling.
func (s *Supervisor) sessionEvents(ctx context.Context, se *session) {
	defer s.wg.Done()
	defer func() {
		s.mu.Lock()
		delete(s.sessions, se.id)
		s.mu.Unlock()
		se.client.Close()
		s.lg.Info("session detached", "session", se.name, "err", se.client.Err())
		s.poke()
	}()
	events := se.client.Events()
	for {
		select {
		case <-ctx.Done():
			se.client.Close()
			return
		case ev, ok := <-events:
			if !ok {
				return
			}
			s.onEvent(se, ev)
		}
	}
}

func (s *Supervisor) onEvent(se *session, ev controlmode.Event) {
	switch e := ev.(type) {
	case *controlmode.SessionsChanged:
		s.poke()
	case *controlmode.SessionRenamed:
		s.poke()
	case *controlmode.WindowAdd, *controlmode.WindowClose, *controlmode.LayoutChange,
		*controlmode.SessionWindowChanged, *controlmode.EventsLost, *controlmode.WindowPaneChanged:
		se.pokeScan()
	case *controlmode.SubscriptionChanged:
		if e.Name == fgSubscription {
			if m := s.monitor(e.Pane); m != nil {
				m.ForegroundChanged()
			}
		}
	case *controlmode.PaneRespawned:
		if m := s.monitor(e.Pane); m != nil {
			m.Respawned(e.NewPID)
		}
	}
}

// sessionScanner lists the session's panes whenever asked (coalesced),
// and claims the ones nobody follows.
func (s *Supervisor) sessionScanner(ctx context.Context, se *session) {
	defer s.wg.Done()
	for {
		select {
		case <-ctx.Done():
			return
		case <-se.client.Done():
			return
		case <-se.scan:
		}
		qctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		panes, err := se.client.Panes(qctx)
		cancel()
		if err != nil {
			s.lg.Debug("list panes", "session", se.name, "err", err)
			continue
		}
		s.claimPanes(ctx, se, panes)
		se.scanned.Store(true)
	}
}
