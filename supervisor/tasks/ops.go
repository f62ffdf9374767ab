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
	subject, terminal := req.WatchID, ""
	if req.WatchID != "" {
		rec, err := t.watchRecord(req.WatchID)
		if err != nil {
			return api.Task{}, err
		}
		if rec.State == WatchStopped {
			return api.Task{}, api.Errorf(api.CodeConflict, "retry_callback: watch %s was unwatched: it dispatches no callbacks", rec.ID)
		}
		terminal = rec.TerminalID
	} else {
		subject = req.TurnID
		sp, state, err := t.turnRecord(req.TurnID)
		if err != nil {
			return api.Task{}, err
		}
		if state == TurnClosed {
			return api.Task{}, api.Errorf(api.CodeConflict, "retry_callback: turn %s is closed: it dispatches no callbacks", req.TurnID)
		}
		terminal = sp.TerminalID
	}
	ns, err := t.kit.st.Notifications(func(n *store.Notification) bool {
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
		o, ok := t.kit.host.Observation(terminal)
		if !ok || o.Interaction == nil || o.Interaction.InteractionID != n.Interaction {
			return api.Task{}, api.Errorf(api.CodeConflict, "retry_callback: the interaction of %s is no longer on the screen", n.ID)
		}
	}
	n, err = t.kit.st.Requeue(n.ID, t.kit.now())
	if err != nil {
		if errors.Is(err, store.ErrConflict) {
			return api.Task{}, api.Errorf(api.CodeConflict, "retry_callback: %v", err)
		}
		return api.Task{}, err
	}
	t.kit.notes.schedule(n)
	return t.taskOf(subject)
}

// TaskStatus answers POST /v1/task_status: a Turn's or Watch's states and
// its notifications.
func (t *Manager) TaskStatus(ctx context.Context, req api.TaskRequest) (api.Task, error) {
	if err := exactlyOne(req.WatchID, req.TurnID); err != nil {
		return api.Task{}, err
	}
	t.opMu.Lock()
	defer t.opMu.Unlock()
	if req.WatchID != "" {
		return t.taskOf(req.WatchID)
	}
	return t.taskOf(req.TurnID)
}

// taskOf projects a Watch or a Turn. Called with opMu held.
func (t *Manager) taskOf(subject string) (api.Task, error) {
	if len(subject) > 6 && subject[:6] == "watch_" {
		rec, err := t.watchRecord(subject)
		if err != nil {
			return api.Task{}, err
		}
		return t.watchTask(rec), nil
	}
	sp, state, err := t.turnRecord(subject)
	if err != nil {
		return api.Task{}, err
	}
	return t.turnTask(sp, state)
}

// watchTask is the contract's view of a Watch: no anchor path, no routes.
func (t *Manager) watchTask(rec store.Watch) api.Task {
	out := api.Task{V: api.SchemaVersion, WatchID: rec.ID, TerminalID: rec.TerminalID, TaskKind: TaskWatch,
		WatchMode: rec.Mode, Confidence: rec.Confidence, State: rec.State, Reason: rec.Reason,
		ObservationState: rec.State, Warnings: rec.Warnings, Deadline: rec.Deadline}
	if rec.State == WatchActive {
		if o, ok := t.kit.last[rec.TerminalID]; ok && o.Interaction != nil {
			out.Interaction = o.Interaction
		}
	}
	out.Notifications = t.notificationsOf(rec.ID)
	return out
}

func (t *Manager) turnTask(sp TurnSpec, state string) (api.Task, error) {
	mgmt := "managed"
	if state == TurnClosed {
		mgmt = "closed"
	}
	obs := "active"
	if state != TurnRunning {
		obs = "settled"
	}
	out := api.Task{V: api.SchemaVersion, TurnID: sp.TurnID, SessionID: sp.SessionID, TerminalID: sp.TerminalID,
		TaskKind: TaskManagedTurn, Confidence: api.ConfidenceExact, State: state, ManagementState: mgmt,
		ObservationState: obs, Deadline: sp.Deadline}
	if state != TurnRunning {
		out.Reason = sp.Reason
		out.Answerable = state == TurnCompleted && sp.EndedWithText
	}
	if tr := t.kit.fs.turns[sp.TurnID]; tr != nil && tr.handoff != "" && state == TurnRunning {
		out.State, out.Handoff = TurnHandoff, handoffDecision(sp, tr.handoff)
	}
	out.Notifications = t.notificationsOf(sp.TurnID)
	return out, nil
}

// notificationsOf lists a subject's outbox entries as the contract shows
// them (no route, no envelope).
func (t *Manager) notificationsOf(subject string) []api.Notification {
	ns, err := t.kit.st.Notifications(func(n *store.Notification) bool { return n.Subject == subject })
	if err != nil {
		t.kit.lg.Warn("notifications", "subject", subject, "err", err)
		return nil
	}
	out := []api.Notification{}
	for _, n := range ns {
		an := api.Notification{NotificationID: n.ID, Type: n.Type, Event: n.Event,
			State: n.State, Attempts: len(n.Attempts), Created: n.Created}
		if k := len(n.Attempts); k > 0 {
			an.Detail = n.Attempts[k-1].Detail
		}
		out = append(out, an)
	}
	return out
}
