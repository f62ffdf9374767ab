package supervisor

import (
	"context"
	"errors"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// A tmux server that dies takes every pane with it: its control clients
// end, no session is there to re-attach (reattach.go), and each pane is
// recorded removed. Until a server answers on the socket again, list,
// status and health answer api.CodeTmuxUnavailable (the CLI exits 7)
// rather than an empty table. A new server on the same socket is adopted
// when the daemon next looks (an API call while down, at most every
// probeGap; the slow timer; a rescan): its panes are followed as new
// terminals. Terminal identity holds the server pid, so a new server's %0
// is never the old %0, and the old server's terminals, offers and Turns
// are not found on the new one.

const (
	// serverCheckEvery is the slow timer: while the server is down, or
	// no session is attached (no control client would see it die).
	serverCheckEvery = 2 * time.Second
	// probeGap spaces the looks an API call takes while the server is down.
	probeGap = 200 * time.Millisecond
)

// serverWatch is what the daemon knows of its server's health. Guarded by
// Supervisor.mu, except ask.
type serverWatch struct {
	down     error     // why the server does not answer (nil: it does)
	probedAt time.Time // when the socket was last looked at (monotonic)
	// ask hands watchServer a request to look now; it closes the channel
	// it got when the look is done. The look runs on watchServer, under
	// the daemon's context: a session it attaches outlives the API call
	// that asked.
	ask chan chan struct{}
}

// newEnv is what every pane of server srv shares.
func (s *Supervisor) newEnv(srv tmuxServer) *terminal.Env {
	return &terminal.Env{Server: terminal.Server{Socket: srv.Socket, PID: srv.PID}, Secret: s.secret,
		Key: terminal.InteractionKey(s.secret), Ident: s.ident, Now: s.cfg.Now, Logger: s.lg,
		Recognize: s.cfg.recognize, Profiles: s.profiles, Host: paneHost{journal{s}}, Observer: paneObserver{s}}
}

// watchServer looks at the socket on the slow timer and when an API call
// asks (tmuxAvailable).
func (s *Supervisor) watchServer(ctx context.Context) error {
	t := time.NewTicker(serverCheckEvery)
	defer t.Stop()
	for {
		var asked chan struct{}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		case asked = <-s.watch.ask:
		}
		s.mu.Lock()
		look := s.watch.down != nil || len(s.sessions) == 0
		recent := time.Since(s.watch.probedAt) < probeGap
		s.mu.Unlock()
		if look && !(asked != nil && recent) {
			s.probe(ctx)
		}
		if asked != nil {
			close(asked)
		}
	}
}

// serverAnswered notes whether the server answered a listing (err nil) or
// is gone (err wraps ErrNoServer); another error says nothing of it.
func (s *Supervisor) serverAnswered(err error) {
	if err != nil && !errors.Is(err, ErrNoServer) {
		return
	}
	s.mu.Lock()
	was := s.watch.down
	s.watch.down = err
	s.mu.Unlock()
	switch {
	case err != nil && was == nil:
		s.lg.Warn("tmux server gone", "tmux", s.cfg.TmuxSocket, "err", err)
	case err == nil && was != nil:
		s.lg.Info("tmux server answers again", "tmux", s.cfg.TmuxSocket)
	}
}

// probe looks at the socket once: a server that answers is adopted (if
// new) and its sessions attached.
func (s *Supervisor) probe(ctx context.Context) {
	s.mu.Lock()
	s.watch.probedAt = time.Now()
	s.mu.Unlock()
	s.syncSessions(ctx)
}

// tmuxAvailable is nil when the server answers, else the API's
// tmux_unavailable error. While the server is down it looks again (at
// most every probeGap), so a new server is found by the call that needs it.
func (s *Supervisor) tmuxAvailable(ctx context.Context) error {
	s.mu.Lock()
	down, none := s.watch.down, len(s.sessions) == 0
	s.mu.Unlock()
	if down == nil && !none {
		return nil // a live control client would have seen the server die
	}
	asked := make(chan struct{})
	select {
	case s.watch.ask <- asked:
		select {
		case <-asked:
		case <-ctx.Done():
			return ctx.Err()
		}
	case <-ctx.Done():
		return ctx.Err()
	}
	s.mu.Lock()
	down = s.watch.down
	s.mu.Unlock()
	if down == nil {
		return nil
	}
	return api.Errorf(api.CodeTmuxUnavailable, "the tmux server on %s does not answer (%v); akk follows a new server on that socket as soon as one starts", s.cfg.TmuxSocket, down)
}

// adopt makes srv the daemon's server if it is a new one on the socket:
// what belonged to the old server is let go (its sessions forgotten, its
// panes stopped and recorded removed, its unclaimed records removed), and
// new panes are built with the new server's identity.
func (s *Supervisor) adopt(srv tmuxServer) {
	s.mu.Lock()
	old := s.server
	if srv.PID == 0 || srv.PID == old.PID {
		s.mu.Unlock()
		return
	}
	s.server = srv
	s.env = s.newEnv(srv)
	var ended []*session
	for id, se := range s.sessions {
		if se.server != srv.PID {
			delete(s.sessions, id)
			ended = append(ended, se)
		}
	}
	var stop []*terminal.Pane
	for id, m := range s.panes {
		if m.Server().PID != srv.PID {
			delete(s.panes, id)
			stop = append(stop, m)
		}
	}
	var gone []store.Terminal
	for id, t := range s.stored {
		if t.Socket == old.Socket && t.ServerPID != srv.PID {
			delete(s.stored, id)
			gone = append(gone, t)
		}
	}
	s.mu.Unlock()
	s.lg.Warn("new tmux server on the socket", "tmux", srv.Socket, "server_pid", srv.PID, "was", old.PID, "version", srv.Version)
	for _, se := range ended {
		se.client.Close() // ended already: the old server is gone
	}
	for _, m := range stop {
		m.Stop()
	}
	for _, t := range gone {
		s.removeTerminal(t, "tmux server ended")
	}
}
