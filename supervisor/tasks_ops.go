package supervisor

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
func (s *Supervisor) RetryCallback(ctx context.Context, req api.RetryCallbackRequest) (api.Task, error) {
	if err := exactlyOne(req.WatchID, req.TurnID); err != nil {
		return api.Task{}, err
	}
	t := s.tasks
	t.opMu.Lock()
	defer t.opMu.Unlock()
	subject, terminal := req.WatchID, ""
	if req.WatchID != "" {
		rec, err := s.watchRecord(req.WatchID)
		if err != nil {
			return api.Task{}, err
		}
		if rec.State == watchStopped {
			return api.Task{}, api.Errorf(api.CodeConflict, "retry_callback: watch %s was unwatched: it dispatches no callbacks", rec.ID)
		}
		terminal = rec.TerminalID
	} else {
		subject = req.TurnID
		sp, state, err := s.turnRecord(req.TurnID)
		if err != nil {
			return api.Task{}, err
		}
		if state == turnClosed {
			return api.Task{}, api.Errorf(api.CodeConflict, "retry_callback: turn %s is closed: it dispatches no callbacks", req.TurnID)
		}
		terminal = sp.TerminalID
	}
	ns, err := s.st.Notifications(func(n *store.Notification) bool {
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
		o, ok := s.currentObservation(terminal)
		if !ok || o.Interaction == nil || o.Interaction.InteractionID != n.Interaction {
			return api.Task{}, api.Errorf(api.CodeConflict, "retry_callback: the interaction of %s is no longer on the screen", n.ID)
		}
	}
	n, err = s.st.Requeue(n.ID, s.cfg.Now())
	if err != nil {
		if errors.Is(err, store.ErrConflict) {
			return api.Task{}, api.Errorf(api.CodeConflict, "retry_callback: %v", err)
		}
		return api.Task{}, err
	}
	t.out.Schedule(n)
	return s.taskOf(subject)
}

// TaskStatus answers POST /v1/task_status: a Turn's or Watch's states and
// its notifications.
func (s *Supervisor) TaskStatus(ctx context.Context, req api.TaskRequest) (api.Task, error) {
	if err := exactlyOne(req.WatchID, req.TurnID); err != nil {
		return api.Task{}, err
	}
	s.tasks.opMu.Lock()
	defer s.tasks.opMu.Unlock()
	if req.WatchID != "" {
		return s.taskOf(req.WatchID)
	}
	return s.taskOf(req.TurnID)
}

// taskOf projects a Watch or a Turn. Called with opMu held.
func (s *Supervisor) taskOf(subject string) (api.Task, error) {
	if len(subject) > 6 && subject[:6] == "watch_" {
		rec, err := s.watchRecord(subject)
		if err != nil {
			return api.Task{}, err
		}
		return s.tasks.watchTask(rec), nil
	}
	sp, state, err := s.turnRecord(subject)
	if err != nil {
		return api.Task{}, err
	}
	return s.turnTask(sp, state)
}

// watchTask is the contract's view of a Watch: no anchor path, no routes.
func (t *taskManager) watchTask(rec store.Watch) api.Task {
	out := api.Task{V: api.SchemaVersion, WatchID: rec.ID, TerminalID: rec.TerminalID, TaskKind: taskWatch,
		WatchMode: rec.Mode, Confidence: rec.Confidence, State: rec.State, Reason: rec.Reason,
		ObservationState: rec.State, Warnings: rec.Warnings, Deadline: rec.Deadline}
	if rec.State == watchActive {
		if o, ok := t.lastObs[rec.TerminalID]; ok && o.Interaction != nil {
			out.Interaction = o.Interaction
		}
	}
	out.Notifications = t.s.notificationsOf(rec.ID)
	return out
}

func (s *Supervisor) turnTask(sp TurnSpec, state string) (api.Task, error) {
	mgmt := "managed"
	if state == turnClosed {
		mgmt = "closed"
	}
	obs := "active"
	if state != turnRunning {
		obs = "settled"
	}
	out := api.Task{V: api.SchemaVersion, TurnID: sp.TurnID, SessionID: sp.SessionID, TerminalID: sp.TerminalID,
		TaskKind: taskManagedTurn, Confidence: api.ConfidenceExact, State: state, ManagementState: mgmt,
		ObservationState: obs, Deadline: sp.Deadline}
	out.Notifications = s.notificationsOf(sp.TurnID)
	return out, nil
}

// notificationsOf lists a subject's outbox entries as the contract shows
// them (no route, no envelope).
func (s *Supervisor) notificationsOf(subject string) []api.Notification {
	ns, err := s.st.Notifications(func(n *store.Notification) bool { return n.Subject == subject })
	if err != nil {
		s.lg.Warn("notifications", "subject", subject, "err", err)
		return nil
	}
	out := []api.Notification{}
	for _, n := range ns {
		out = append(out, api.Notification{NotificationID: n.ID, Type: n.Type, Event: n.Event,
			State: n.State, Attempts: len(n.Attempts), Created: n.Created})
	}
	return out
}
