package tasks

import (
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
)

// notifier is the tasks' one commit-and-schedule path: a change of the
// Watches and Turns, with the notifications an event freezes for its
// routes, is written in one synced commit (Host.CommitTasks), and only
// then is what that commit enqueued handed to the Scheduler. Nothing
// reaches the outbox that the store does not hold, and an event enqueued
// before (the same subject and event identity) is not enqueued again.
type notifier struct {
	host   committer
	out    Scheduler
	secret []byte // derives the notifications' ids
	lg     *slog.Logger
}

// committer writes a change of the tasks (Host.CommitTasks).
type committer interface {
	CommitTasks(store.TaskChange) ([]store.Notification, error)
}

// commit writes a change of the tasks and schedules what it enqueued.
func (n *notifier) commit(ch store.TaskChange) ([]store.Notification, error) {
	added, err := n.host.CommitTasks(ch)
	if err != nil {
		return nil, err
	}
	if len(added) > 0 {
		n.schedule(added...)
	}
	return added, nil
}

// schedule hands notifications the store holds to the Scheduler: those a
// commit enqueued, or (recover, retry_callback) those put back on it.
func (n *notifier) schedule(ns ...store.Notification) { n.out.Schedule(ns...) }

// notify freezes and enqueues an event's notifications together with the
// records that changed, in one synced write. A failure is logged: the
// event is observed again, or its record read again by recover.
func (n *notifier) notify(env api.CallbackEnvelope, event string, routes []string, ch store.TaskChange) {
	ns, err := n.freeze(env, event, routes)
	if err != nil {
		n.lg.Error("notification", "err", err)
		return
	}
	ch.Notifications = append(ch.Notifications, ns...)
	added, err := n.commit(ch)
	if err != nil {
		n.lg.Error("notification", "event", event, "err", err)
		return
	}
	if len(added) > 0 {
		n.lg.Info("notify", "subject", ns[0].Subject, "type", env.Type, "event", env.Event, "routes", len(added))
	}
}

// notificationIDs derive a logical notification's idempotency key and its
// per-route id from the subject and the event identity: the same event
// observed again (after a restart, by a second pass) derives the same
// ids, and the store enqueues an id once.
func notificationIDs(secret []byte, subject, event, route string) (id, key string) {
	return "ntf_" + terminal.Derive(secret, "notification", subject, event, route),
		"akk-" + terminal.Derive(secret, "idempotency", subject, event)
}

// freeze builds one envelope per route for an event of a subject.
func (n *notifier) freeze(env api.CallbackEnvelope, event string, routes []string) ([]store.Notification, error) {
	subject := env.WatchID
	switch env.TaskKind {
	case TaskManagedTurn:
		subject = env.TurnID
	case TaskTerminal:
		subject = env.TerminalID
	}
	var out []store.Notification
	for _, r := range routes {
		id, key := notificationIDs(n.secret, subject, event, r)
		e := env
		e.V, e.Schema, e.NotificationID, e.IdempotencyKey = 1, api.CallbackSchema, id, key
		body, err := json.Marshal(e)
		if err != nil {
			return nil, fmt.Errorf("tasks: envelope: %w", err)
		}
		nt := store.Notification{ID: id, Subject: subject, TerminalID: env.TerminalID, Type: env.Type, Event: event,
			IdempotencyKey: key, Route: r, Envelope: body, Created: env.Time}
		if env.Interaction != nil {
			nt.Interaction = env.Interaction.InteractionID
		}
		out = append(out, nt)
	}
	return out, nil
}

// LogValue of the notifier: never the secret.
func (n *notifier) LogValue() slog.Value {
	return slog.GroupValue(slog.Bool("secret", len(n.secret) > 0))
}

// String is LogValue as text.
func (n *notifier) String() string { return n.LogValue().String() }

// Enqueue freezes an event's notifications for routes, writes them and
// schedules their delivery; it returns those enqueued (none when the
// event was enqueued before).
func (t *Manager) Enqueue(env api.CallbackEnvelope, event string, routes []string) ([]store.Notification, error) {
	ns, err := t.kit.notes.freeze(env, event, routes)
	if err != nil {
		return nil, err
	}
	return t.kit.notes.commit(store.TaskChange{Notifications: ns})
}
