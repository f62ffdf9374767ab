package supervisor

import (
	"os"
	"strings"

	"fmt"

	"github.com/agent-knock-knock/akk/api"

	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/outbox"
)

// commitTasks writes a monitors' change with the store writer held and
// wakes the event followers (tasks.Host.CommitTasks; the tasks schedule
// what was enqueued).
func (s *Supervisor) commitTasks(ch store.TaskChange) ([]store.Notification, error) {
	s.writeMu.Lock()
	added, evs, err := s.st.ApplyTasks(ch)
	if err == nil && len(evs) > 0 {
		s.wakeFollowers()
	}
	s.writeMu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("supervisor: record task: %w", err)
	}
	return added, nil
}

// SessionOf returns the control client and session name of a terminal's
// pane, or nil when no monitor follows it (outbox.Sessions: the tmux
// route shows its message there).
func (s *Supervisor) SessionOf(terminalID string) (outbox.Commander, string) {
	for _, m := range s.monitors() {
		if m.ID() == terminalID {
			s.mu.Lock()
			defer s.mu.Unlock()
			name := ""
			if se := s.sessions[m.Session()]; se != nil {
				name = se.name
			}
			return m.Client(), name
		}
	}
	return nil, ""
}

// PlaceOf names where a terminal's agent runs, for a person's notice
// (outbox.Places): its agent, tmux session and window, and directory
// with the home as ~.
func (s *Supervisor) PlaceOf(terminalID string) (outbox.Place, bool) {
	m := s.terminalMonitor(terminalID)
	if m == nil {
		return outbox.Place{}, false
	}
	row, ok := m.Row()
	if !ok {
		return outbox.Place{}, false
	}
	cwd := row.Cwd
	if home, err := os.UserHomeDir(); err == nil && home != "/" {
		if rest, ok := strings.CutPrefix(cwd, home); ok && (rest == "" || rest[0] == '/') {
			cwd = "~" + rest
		}
	}
	return outbox.Place{Agent: row.Agent, Session: row.Session, Window: row.Window, Cwd: cwd}, true
}

// WebLink is the web page's entry for the terminal while `akk web` serves
// this daemon ("" otherwise).
func (s *Supervisor) WebLink(terminalID string) string {
	if s.cfg.Listener == nil {
		return ""
	}
	return api.WebLink(s.cfg.Listener.Addr().String(), terminalID)
}
