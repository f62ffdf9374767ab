package tasks

import (
	"encoding/json"
	"fmt"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/store"
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
func (t *Manager) buildNotifications(env api.CallbackEnvelope, event string, routes []string) ([]store.Notification, error) {
	subject := env.WatchID
	switch env.TaskKind {
	case TaskManagedTurn:
		subject = env.TurnID
	case TaskTerminal:
		subject = env.TerminalID
	}
	var out []store.Notification
	for _, r := range routes {
		id, key := notificationIDs(t.secret, subject, event, r)
		e := env
		e.V, e.Schema, e.NotificationID, e.IdempotencyKey = 1, api.CallbackSchema, id, key
		body, err := json.Marshal(e)
		if err != nil {
			return nil, fmt.Errorf("tasks: envelope: %w", err)
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

// Enqueue freezes an event's notifications for routes, writes them and
// schedules their delivery; it returns those enqueued (none when the
// event was enqueued before).
func (t *Manager) Enqueue(env api.CallbackEnvelope, event string, routes []string) ([]store.Notification, error) {
	ns, err := t.buildNotifications(env, event, routes)
	if err != nil {
		return nil, err
	}
	return t.commit(store.TaskChange{Notifications: ns})
}
