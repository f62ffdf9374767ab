package supervisor

import (
	"fmt"

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
