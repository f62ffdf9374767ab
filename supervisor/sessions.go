package supervisor

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/agent-knock-knock/akk/controlmode"
)

// session is one tmux session and the control client attached to it. tmux
// sends %output only for the attached session's panes, hence one client per
// session. A session value lives as long as its client: when the client
// ends while the session lives on, a new value with a new client replaces
// it (reattach.go), and the panes move over to that client.
type session struct {
	id       controlmode.SessionID
	name     string // guarded by Supervisor.mu
	client   *controlmode.Client
	server   int           // the pid of the tmux server the client is attached to
	attached time.Time     // when the client attached (monotonic)
	flaps    int           // consecutive clients that ended soon after attaching
	scan     chan struct{} // cap 1: list this session's panes again
	// scanned: the panes were listed and claimed once (reconcile waits).
	scanned atomic.Bool
}

// fgSubscription names our refresh-client -B subscription.
const fgSubscription = "akk-fg"

// sessionLoop lists the server's sessions whenever a client reports that
// they changed, attaching to new ones; a client that ends is re-attached
// or its session let go (reattach.go).
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
	srv, list, err := s.listServer(ctx)
	if err != nil {
		s.serverAnswered(err)
		s.lg.Warn("list sessions", "err", err)
		return
	}
	s.serverAnswered(nil)
	s.adopt(srv)
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
	srv := s.server.PID
	s.mu.Unlock()
	c, err := s.attachClient(ctx, si.ID, si.Name)
	if err != nil {
		s.lg.Warn("attach session", "session", si.Name, "err", err)
		return
	}
	se := newSession(si.ID, si.Name, c, srv)
	s.mu.Lock()
	if _, dup := s.sessions[si.ID]; dup || ctx.Err() != nil || s.server.PID != srv {
		s.mu.Unlock()
		c.Close()
		return
	}
	s.sessions[si.ID] = se
	s.mu.Unlock()
	s.runSession(ctx, se)
}

func newSession(id controlmode.SessionID, name string, c *controlmode.Client, server int) *session {
	return &session{id: id, name: name, client: c, server: server, attached: time.Now(), scan: make(chan struct{}, 1)}
}

// attachClient starts a control client on session id.
func (s *Supervisor) attachClient(ctx context.Context, id controlmode.SessionID, name string) (*controlmode.Client, error) {
	sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	c, err := controlmode.Start(sctx, controlmode.Config{
		Socket: s.cfg.TmuxSocket, Session: id.String(), Env: s.cfg.TmuxEnv,
		Logger: s.lg.With("session", name), PauseAfter: s.cfg.PauseAfter, OnCommand: s.cfg.onCommand,
	})
	if err != nil {
		return nil, err
	}
	// tmux reports a pane's death and its foreground command (polled about
	// once a second) to a subscriber: what changes without pane output.
	if _, err := c.Command(sctx, "refresh-client", "-B", fgSubscription+":%*:#{pane_dead} #{pane_current_command}"); err != nil {
		s.lg.Warn("subscribe", "session", name, "err", err)
	}
	return c, nil
}

// runSession starts the goroutines of a registered session.
func (s *Supervisor) runSession(ctx context.Context, se *session) {
	s.lg.Info("session attached", "session", se.name, "id", se.id.String())
	se.pokeScan()
	s.wg.Add(2)
	go s.sessionEvents(ctx, se)
	go s.sessionScanner(ctx, se)
}

// sessionEvents reads the client's notifications until the connection
// ends: they trigger pane scans, session scans and respawn handling. An
// end while the daemon runs is handed to clientEnded (reattach.go).
func (s *Supervisor) sessionEvents(ctx context.Context, se *session) {
	defer s.wg.Done()
	events := se.client.Events()
	for {
		select {
		case <-ctx.Done():
			se.client.Close()
			return
		case ev, ok := <-events:
			if !ok {
				s.clientEnded(ctx, se)
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
