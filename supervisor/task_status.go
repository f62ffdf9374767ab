package supervisor

import (
	"context"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/supervisor/dispatch"
	"github.com/agent-knock-knock/akk/supervisor/tasks"
)

// Reasons of an interaction a task status shows but does not offer.
const (
	// reasonActivityWatch: a terminal_activity Watch observes a terminal,
	// not a request of its controller's: it never answers its prompts.
	reasonActivityWatch = "terminal_activity_watch"
)

// TaskStatus answers POST /v1/task_status: the Turn's or Watch's record,
// and, for its owner while it is active, the terminal's interaction as a
// fresh status shows it (with the task's turn_id), with the caller's
// offer when the task may answer it: a managed Turn, or an exact_task
// Watch whose request was accepted. A terminal_activity Watch shows the
// interaction as manual_required and makes no offer. This is the status
// the controller's loop calls after a wake-up, by the id the wake-up
// named (seed 003 "Managed Turn Flow").
func (s *Supervisor) TaskStatus(ctx context.Context, req api.TaskRequest) (api.Task, error) {
	task, err := s.tasks.TaskStatus(ctx, req)
	if err != nil {
		return task, err
	}
	controller := dispatch.ControllerOf(ctx)
	var owner, incarnation string
	answers := false
	switch {
	case req.TurnID != "":
		t, err := s.st.Turn(req.TurnID)
		if err != nil || task.State != tasks.TurnRunning {
			return task, nil
		}
		owner, incarnation, answers = t.Controller, t.Incarnation, true
	default:
		w, err := s.st.Watch(req.WatchID)
		if err != nil || w.State != tasks.WatchActive {
			return task, nil
		}
		owner, incarnation = w.Controller, w.Incarnation
		answers = w.Mode == api.WatchExactTask && w.Anchor != nil && w.Anchor.TurnID != ""
	}
	if owner != api.Owner(controller) {
		return task, nil
	}
	m := s.terminalMonitor(task.TerminalID)
	if m == nil {
		return task, nil
	}
	if err := m.Barrier(ctx); err != nil {
		s.lg.Debug("task status: barrier", "terminal", task.TerminalID, "err", err)
	}
	_, v := m.Status(api.StatusRequest{TerminalID: task.TerminalID})
	task.Interaction = nil
	if v.Ident == nil || v.Ident.Incarnation() != incarnation || v.Rec.Interaction == nil {
		return task, nil // the task's process shows nothing to answer
	}
	in := v.Rec.Interaction.Clone()
	in.TurnID = req.TurnID
	if !answers {
		in.State = contract.StateManualRequired
		in.Reasons = append(in.Reasons, reasonActivityWatch)
		in.Decisions = nil
		task.Interaction = in
		return task, nil
	}
	task.Interaction = in
	if exp, ok := s.disp.MakeOffer(controller, v); ok {
		task.OfferExpiresAt = &exp
	}
	return task, nil
}
