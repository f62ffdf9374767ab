package supervisor

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/controlmode"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// A control client ends for many reasons, and most leave its session
// alive: tmux's %exit (a person's `detach-client -a` from their own
// terminal, `%exit too far behind`), a killed `tmux -C` process, or the
// daemon closing a client whose command timed out. None of these is an
// event for the agents: the session is attached again at once, its panes
// follow the new client (their screens re-seeded, each terminal's
// identity, Turn and Watch state kept: terminal/link.go), and no Turn,
// Watch or offer ends because of it. Only a session that really ended
// (its panes stopped: each is recorded removed unless tmux still shows it
// elsewhere) or a server that died (server_watch.go) ends what it held.
//
//	client ended --ctx done--> nothing (the daemon stops)
//	     |
//	     v
//	attach a new client --ok, same server pid--> replace the session,
//	     |                                       Reattach its panes
//	     +--another server pid--> let go
//	     +--error--> ask the server (listServer)
//	                   --no server / another server / session not listed--> let go
//	                   --else--> back off, attach again (reattachAttempts),
//	                             then let go: a later rescan may attach afresh

const (
	// reattachAttempts bounds the attaches tried for one lost client;
	// with the backoff below they span about 10 s.
	reattachAttempts = 8
	reattachFirst    = 50 * time.Millisecond
	reattachMax      = 3 * time.Second
	// A client that ends within flapWindow of its attach counts as a
	// flap: the first is re-attached at once, each further one in a row
	// waits flapDelay more, and after maxFlaps in a row the session is
	// let go (something keeps detaching us; a later rescan tries again).
	flapWindow = 250 * time.Millisecond
	flapDelay  = 50 * time.Millisecond
	maxFlaps   = 20
)

// clientEnded handles the end of se's client while the daemon runs.
func (s *Supervisor) clientEnded(ctx context.Context, se *session) {
	se.client.Close()
	if ctx.Err() != nil {
		return
	}
	s.lg.Info("control client ended", "session", se.name, "err", se.client.Err())
	c, flaps, why := s.reattach(ctx, se)
	if c == nil {
		s.letGo(se, why)
		return
	}
	s.mu.Lock()
	if s.sessions[se.id] != se || ctx.Err() != nil {
		// The server was replaced meanwhile (adopt), or the daemon stops.
		s.mu.Unlock()
		c.Close()
		return
	}
	next := newSession(se.id, se.name, c, se.server)
	next.flaps = flaps
	s.sessions[se.id] = next
	panes := s.panesOf(se)
	s.mu.Unlock()
	for _, m := range panes {
		if err := m.Reattach(c); err != nil {
			// The new client ended already: its own end re-attaches again.
			s.lg.Debug("re-follow", "pane", m.PaneID().String(), "err", err)
		}
	}
	s.runSession(ctx, next)
}

// panesOf lists the panes followed through se's session on se's server.
// Called with mu held.
func (s *Supervisor) panesOf(se *session) []*terminal.Pane {
	var out []*terminal.Pane
	for _, m := range s.panes {
		if m.Session() == se.id && m.Server().PID == se.server {
			out = append(out, m)
		}
	}
	return out
}

// reattach attaches a new client to se's session if the session lives on
// the same server, backing off between attempts. It returns the client
// and the flap count it carries, or nil and why the session is let go.
func (s *Supervisor) reattach(ctx context.Context, se *session) (*controlmode.Client, int, string) {
	flaps, delay := 0, time.Duration(0)
	if time.Since(se.attached) < flapWindow {
		flaps = se.flaps + 1
		delay = time.Duration(flaps-1) * flapDelay
	}
	if flaps > maxFlaps {
		return nil, 0, fmt.Sprintf("its control clients ended %d times in a row within %v of attaching", flaps, flapWindow)
	}
	var last error
	for range reattachAttempts {
		if delay > 0 {
			t := time.NewTimer(delay)
			select {
			case <-ctx.Done():
				t.Stop()
				return nil, 0, "the daemon stops"
			case <-t.C:
			}
		}
		delay = min(max(2*delay, reattachFirst), reattachMax)
		// Attach first (the common case: the session lives); the attach
		// fails on a session or server that ended, and a client attached
		// to a new server's session of the same id says so by its pid.
		c, err := s.attachClient(ctx, se.id, se.name)
		if err == nil {
			pid, err := clientServerPID(ctx, c)
			if err == nil && pid == se.server {
				return c, flaps, ""
			}
			c.Close()
			if err == nil {
				return nil, 0, fmt.Sprintf("the tmux server was replaced (pid %d, was %d)", pid, se.server)
			}
		}
		last = err
		srv, list, err := s.listServer(ctx)
		switch {
		case errors.Is(err, ErrNoServer):
			s.serverAnswered(err)
			return nil, 0, "the tmux server is gone"
		case err != nil:
			last = err
		case srv.PID != se.server:
			return nil, 0, fmt.Sprintf("the tmux server was replaced (pid %d, was %d)", srv.PID, se.server)
		case !slices.ContainsFunc(list, func(si sessionInfo) bool { return si.ID == se.id }):
			return nil, 0, "the session ended"
		}
	}
	return nil, 0, fmt.Sprintf("%d attaches failed, the last: %v", reattachAttempts, last)
}

// clientServerPID asks the server a client is attached to for its pid.
func clientServerPID(ctx context.Context, c *controlmode.Client) (int, error) {
	qctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	r, err := c.Command(qctx, "display-message", "-p", "#{pid}")
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(string(r.Body)))
}

// letGo forgets a session whose client ended for good: its panes stop
// (each is recorded removed unless tmux still shows it, e.g. in a linked
// window of another session), and the session list is read again.
func (s *Supervisor) letGo(se *session, why string) {
	s.mu.Lock()
	if s.sessions[se.id] == se {
		delete(s.sessions, se.id)
	}
	panes := s.panesOf(se)
	s.mu.Unlock()
	s.lg.Info("session detached", "session", se.name, "why", why)
	for _, m := range panes {
		m.Stop()
	}
	s.poke()
}
