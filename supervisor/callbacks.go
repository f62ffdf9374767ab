package supervisor

import (
	"encoding/json"
	"fmt"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/outbox"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// notificationIDs derive a logical notification's idempotency key and its
// per-route id from the subject and the event identity: the same event
// observed again (after a restart, by a second pass) derives the same
// ids, and the store enqueues an id once.
func notificationIDs(secret []byte, subject, event, route string) (id, key string) {
	return "ntf_" + terminal.Derive(secret, "notification", subject, event, route),
		"akk-" + terminal.Derive(secret, "idempotency", subject, event)
}

// buildNotifications freezes one envelope per route for an event of a
// subject.
func (s *Supervisor) buildNotifications(env api.CallbackEnvelope, event string, routes []string) ([]store.Notification, error) {
	subject := env.WatchID
	if env.TaskKind == taskManagedTurn {
		subject = env.TurnID
	}
	var out []store.Notification
	for _, r := range routes {
		id, key := notificationIDs(s.secret, subject, event, r)
		e := env
		e.V, e.Schema, e.NotificationID, e.IdempotencyKey = 1, api.CallbackSchema, id, key
		body, err := json.Marshal(e)
		if err != nil {
			return nil, fmt.Errorf("supervisor: envelope: %w", err)
		}
		n := store.Notification{ID: id, Subject: subject, TerminalID: env.TerminalID, Type: env.Type, Event: event,
			IdempotencyKey: key, Route: r, Envelope: body, Created: env.Time}
		if env.Interaction != nil {
			n.Interaction = env.Interaction.InteractionID
		}
		out = append(out, n)
	}
	return out, nil
}

// commitTasks writes a monitors' change with the store writer held, wakes
// the event followers and schedules what was enqueued.
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
	if len(added) > 0 && s.tasks != nil {
		s.tasks.out.Schedule(added...)
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
