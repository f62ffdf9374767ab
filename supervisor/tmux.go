package supervisor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/agent-knock-knock/akk/controlmode"
)

// tmuxServer is the server the supervisor attached to.
type tmuxServer struct {
	Socket  string
	PID     int
	Version string
}

type sessionInfo struct {
	ID   controlmode.SessionID
	Name string
}

// ErrNoServer: no tmux server answers on the socket.
var ErrNoServer = errors.New("supervisor: no tmux server")

// sessionsFormat gives the server's pid and version with every session, so
// one command tells both.
const sessionsFormat = "#{pid}\t#{version}\t#{session_id}\t#{session_name}"

// listSessions runs tmux list-sessions once (at start, and when no control
// client is attached to ask through).
func (s *Supervisor) listSessions(ctx context.Context) (tmuxServer, []sessionInfo, error) {
	cmd := controlmode.Command(ctx, s.cfg.TmuxSocket, "list-sessions", "-F", sessionsFormat)
	cmd.Env = s.cfg.TmuxEnv
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if strings.Contains(msg, "no server running") || strings.Contains(msg, "No such file") ||
			strings.Contains(msg, "error connecting") {
			return tmuxServer{}, nil, fmt.Errorf("%w on %s: start tmux first (or pick the server with -L/-S)", ErrNoServer, s.cfg.TmuxSocket)
		}
		return tmuxServer{}, nil, fmt.Errorf("supervisor: tmux list-sessions: %w: %s", err, msg)
	}
	return parseSessions(s.cfg.TmuxSocket, string(out))
}

// listSessionsVia asks through an attached control client (no process
// spawned).
func listSessionsVia(ctx context.Context, c *controlmode.Client, socket string) (tmuxServer, []sessionInfo, error) {
	r, err := c.Command(ctx, "list-sessions", "-F", sessionsFormat)
	if err != nil {
		return tmuxServer{}, nil, fmt.Errorf("supervisor: list-sessions: %w", err)
	}
	return parseSessions(socket, string(r.Body))
}

func parseSessions(socket, out string) (tmuxServer, []sessionInfo, error) {
	srv := tmuxServer{Socket: socket}
	var ss []sessionInfo
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if l == "" {
			continue
		}
		f := strings.SplitN(l, "\t", 4)
		if len(f) != 4 {
			return srv, nil, fmt.Errorf("supervisor: list-sessions line %q", l)
		}
		pid, err := strconv.Atoi(f[0])
		if err != nil {
			return srv, nil, fmt.Errorf("supervisor: list-sessions pid %q", f[0])
		}
		id, err := controlmode.ParseSessionID(f[2])
		if err != nil {
			return srv, nil, fmt.Errorf("supervisor: list-sessions: %w", err)
		}
		srv.PID, srv.Version = pid, f[1]
		ss = append(ss, sessionInfo{ID: id, Name: f[3]})
	}
	return srv, ss, nil
}

// paneExists asks tmux whether a pane still exists anywhere on the server
// whose pid is serverPID (after its follower lost it: it may have moved to
// another session). A new server on the same socket numbers its panes
// from %0 again: its %0 is not the old server's.
func (s *Supervisor) paneExists(ctx context.Context, pane controlmode.PaneID, serverPID int) bool {
	cmd := controlmode.Command(ctx, s.cfg.TmuxSocket, "display-message", "-p", "-t", pane.String(), "#{pane_id} #{pid}")
	cmd.Env = s.cfg.TmuxEnv
	out, err := cmd.Output()
	return err == nil && strings.TrimSpace(string(out)) == fmt.Sprintf("%s %d", pane, serverPID)
}

// listServer lists the sessions through a live control client if one is
// attached, else by running tmux once.
func (s *Supervisor) listServer(ctx context.Context) (tmuxServer, []sessionInfo, error) {
	var via *controlmode.Client
	s.mu.Lock()
	for _, se := range s.sessions {
		select {
		case <-se.client.Done():
			continue
		default:
		}
		via = se.client
		break
	}
	s.mu.Unlock()
	if via != nil {
		qctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		srv, list, err := listSessionsVia(qctx, via, s.cfg.TmuxSocket)
		cancel()
		if err == nil {
			return srv, list, nil
		}
	}
	return s.listSessions(ctx)
}
