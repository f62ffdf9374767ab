package tasks

import (
	"context"
	"errors"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/store"
)

// RetryCallback answers POST /v1/retry_callback: send one recorded
// retryable_failure again (automatic attempts exhausted or not), keeping
// its envelope, route, idempotency key and attempt history. Accepted,
// in-flight, uncertain, permanent and withdrawn notifications are refused;
// so is any notification of an unwatched Watch or a closed Turn. An
// interaction notification needs fresh evidence that the same interaction
// is still on the screen. Several eligible notifications need an explicit
// notification_id.
func (t *Manager) RetryCallback(ctx context.Context, req api.RetryCallbackRequest) (api.Task, error) {
	if err := exactlyOne(req.WatchID, req.TurnID); err != nil {
		return api.Task{}, err
	}
	t.opMu.Lock()
	defer t.opMu.Unlock()
	k := &t.kit
	subject, terminal := req.WatchID, ""
	if req.WatchID != "" {
		rec, err := k.watch(req.WatchID)
		if err != nil {
			return api.Task{}, err
		}
		if rec.State == WatchStopped {
			return api.Task{}, api.Errorf(api.CodeConflict, "retry_callback: watch %s was unwatched: it dispatches no callbacks", rec.ID)
		}
		terminal = rec.TerminalID
	} else {
		subject = req.TurnID
		r, err := k.turn(req.TurnID)
		if err != nil {
			return api.Task{}, err
		}
		if r.state == TurnClosed {
			return api.Task{}, api.Errorf(api.CodeConflict, "retry_callback: turn %s is closed: it dispatches no callbacks", req.TurnID)
		}
		terminal = r.spec.TerminalID
	}
	ns, err := k.st.Notifications(func(n *store.Notification) bool {
		return n.Subject == subject && (req.NotificationID == "" || n.ID == req.NotificationID)
	})
	if err != nil {
		return api.Task{}, err
	}
	if req.NotificationID != "" && len(ns) == 0 {
		return api.Task{}, api.Errorf(api.CodeNotFound, "retry_callback: no notification %s of %s", req.NotificationID, subject)
	}
	var eligible []store.Notification
	for _, n := range ns {
		if n.State == store.NtfRetryable {
			eligible = append(eligible, n)
		}
	}
	switch {
	case len(eligible) == 0 && req.NotificationID != "":
		return api.Task{}, api.Errorf(api.CodeConflict, "retry_callback: notification %s is %s; only a retryable_failure is retried", ns[0].ID, ns[0].State)
	case len(eligible) == 0:
		return api.Task{}, api.Errorf(api.CodeConflict, "retry_callback: %s has no retryable_failure notification", subject)
	case len(eligible) > 1:
		return api.Task{}, api.Errorf(api.CodeConflict, "retry_callback: %s has %d retryable notifications: name one with notification_id", subject, len(eligible))
	}
	n := eligible[0]
	if n.Interaction != "" {
		o, ok := k.host.Observation(terminal)
		if !ok || o.Interaction == nil || o.Interaction.InteractionID != n.Interaction {
			return api.Task{}, api.Errorf(api.CodeConflict, "retry_callback: the interaction of %s is no longer on the screen", n.ID)
		}
	}
	n, err = k.st.Requeue(n.ID, k.now())
	if err != nil {
		if errors.Is(err, store.ErrConflict) {
			return api.Task{}, api.Errorf(api.CodeConflict, "retry_callback: %v", err)
		}
		return api.Task{}, err
	}
	k.notes.schedule(n)
	r, err := k.row(subject)
	if err != nil {
		return api.Task{}, err
	}
	return r.task(k), nil
}

// TaskStatus answers POST /v1/task_status: a Turn's or Watch's states and
// its notifications.
func (t *Manager) TaskStatus(ctx context.Context, req api.TaskRequest) (api.Task, error) {
	if err := exactlyOne(req.WatchID, req.TurnID); err != nil {
		return api.Task{}, err
	}
	t.opMu.Lock()
	defer t.opMu.Unlock()
	subject := req.WatchID
	if subject == "" {
		subject = req.TurnID
	}
	r, err := t.kit.row(subject)
	if err != nil {
		return api.Task{}, err
	}
	return r.task(&t.kit), nil
}

// onTask runs op under opMu on the task read finds by id: a Turn
// ((*kit).turn: its monitor's or the ledger's) or a Watch ((*kit).watch:
// its follower's or the store's). An unknown id is not_found before op
// runs.
func onTask[R any](t *Manager, read func(*kit, string) (R, error), id string, op func(k *kit, r R) (api.Task, error)) (api.Task, error) {
	t.opMu.Lock()
	defer t.opMu.Unlock()
	r, err := read(&t.kit, id)
	if err != nil {
		return api.Task{}, err
	}
	return op(&t.kit, r)
}

// reschedule puts a task's open (not final) notifications back on the
// dispatch schedule: recover's last step, for a Watch and a Turn alike.
func (k *kit) reschedule(subject string) error {
	open, err := k.st.Notifications(func(n *store.Notification) bool { return n.Subject == subject && !n.Final() })
	if err != nil {
		return err
	}
	k.notes.schedule(open...)
	return nil
}
