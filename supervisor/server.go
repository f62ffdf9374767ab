package supervisor

import (
	"context"
	"os"
	"sort"
	"strconv"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/supervisor/dispatch"
)

// List answers POST /v1/list: every followed pane, by session, window and
// pane.
func (s *Supervisor) List(ctx context.Context) (api.ListResponse, error) {
	if err := s.tmuxAvailable(ctx); err != nil {
		return api.ListResponse{}, err
	}
	out := api.ListResponse{V: api.SchemaVersion, Terminals: []api.Terminal{}, Degraded: s.degraded()}
	for _, m := range s.monitors() {
		if row, ok := m.Row(); ok {
			out.Terminals = append(out.Terminals, row)
		}
	}
	sort.Slice(out.Terminals, func(i, j int) bool {
		a, b := out.Terminals[i], out.Terminals[j]
		if a.Session != b.Session {
			return a.Session < b.Session
		}
		return paneNum(a.PaneID) < paneNum(b.PaneID)
	})
	return out, nil
}

func paneNum(p string) int {
	n, _ := strconv.Atoi(p[min(1, len(p)):])
	return n
}

// Status answers POST /v1/status: the row, its evidence and the prompt
// region (terminal.Pane.Status), and the controller's offer for what it
// shows.
func (s *Supervisor) Status(ctx context.Context, req api.StatusRequest) (api.StatusResponse, error) {
	if err := s.tmuxAvailable(ctx); err != nil {
		return api.StatusResponse{}, err
	}
	m := s.terminalMonitor(req.TerminalID)
	if m == nil {
		return api.StatusResponse{}, api.Errorf(api.CodeNotFound,
			"no terminal %s: run `akk list` for the current ids (a respawned pane gets a new id)", req.TerminalID)
	}
	// A status is fresh: the model takes every byte tmux has sent and
	// recognizes it before the answer (and the offer) is made. A pane
	// that just went away answers from what was last recorded.
	if err := m.Barrier(ctx); err != nil {
		s.lg.Debug("status: barrier", "terminal", req.TerminalID, "err", err)
	}
	out, v := m.Status(req)
	out.Degraded = s.degraded()
	if exp, ok := s.disp.MakeOffer(dispatch.ControllerOf(ctx), v); ok {
		out.OfferExpiresAt = &exp
	}
	if a, ok := out.Terminal.AvailableActions["resume_thread"]; ok {
		// The candidates, freshly listed: the controller's snapshot for
		// numbers and short refs too. None: nothing to resume.
		list, err := s.disp.Listing(ctx, dispatch.ControllerOf(ctx), v)
		if err != nil || len(list.Candidates) == 0 {
			delete(out.Terminal.AvailableActions, "resume_thread")
		} else {
			a.Candidates = list.Candidates
			out.Terminal.AvailableActions["resume_thread"] = a
		}
	}
	return out, nil
}

// Approve answers POST /v1/approve (DESIGN invariant 9).
func (s *Supervisor) Approve(ctx context.Context, req api.ApproveRequest) (api.ActionResult, error) {
	return s.disp.Approve(ctx, req)
}

// Respond answers POST /v1/respond_interaction.
func (s *Supervisor) Respond(ctx context.Context, req api.RespondRequest) (api.ActionResult, error) {
	return s.disp.Respond(ctx, req)
}

// Send answers POST /v1/send: a managed Turn.
func (s *Supervisor) Send(ctx context.Context, req api.SendRequest) (api.ActionResult, error) {
	return s.disp.Send(ctx, req)
}

// The daemon serves every operation of the contract (api.Handler is the
// whole route table).
var _ api.Handler = (*Supervisor)(nil)

// Answer answers POST /v1/answer: a completed Turn continued.
func (s *Supervisor) Answer(ctx context.Context, req api.AnswerRequest) (api.ActionResult, error) {
	return s.disp.Answer(ctx, req)
}

// Cancel answers POST /v1/cancel.
func (s *Supervisor) Cancel(ctx context.Context, req api.CancelRequest) (api.ActionResult, error) {
	return s.disp.Cancel(ctx, req)
}

// NewThread answers POST /v1/new_thread.
func (s *Supervisor) NewThread(ctx context.Context, req api.NewThreadRequest) (api.ActionResult, error) {
	return s.disp.NewThread(ctx, req)
}

// ResumeThread answers POST /v1/resume_thread.
func (s *Supervisor) ResumeThread(ctx context.Context, req api.ResumeThreadRequest) (api.ActionResult, error) {
	return s.disp.ResumeThread(ctx, req)
}

// ThreadCandidates answers POST /v1/thread_candidates.
func (s *Supervisor) ThreadCandidates(ctx context.Context, req api.ThreadCandidatesRequest) (api.ThreadCandidates, error) {
	return s.disp.ThreadCandidates(ctx, req)
}

// NativeInspect answers POST /v1/native_inspect.
func (s *Supervisor) NativeInspect(ctx context.Context, req api.NativeInspectRequest) (api.ActionResult, error) {
	return s.disp.NativeInspect(ctx, req)
}

// ReconcileBinding answers POST /v1/reconcile_binding.
func (s *Supervisor) ReconcileBinding(ctx context.Context, req api.ReconcileBindingRequest) (api.ActionResult, error) {
	return s.disp.ReconcileBinding(ctx, req)
}

// Health answers POST /v1/health.
func (s *Supervisor) Health(ctx context.Context) (api.Health, error) {
	if err := s.tmuxAvailable(ctx); err != nil {
		return api.Health{}, err
	}
	h := api.Health{V: api.SchemaVersion, PID: os.Getpid(), Started: s.started,
		Store: s.st.Dir(), AllowReplica: s.cfg.AllowReplicas, LastEvent: s.st.LastSeq()}
	_, err := s.st.Terminals()
	h.Degraded = s.degraded()
	h.StoreOK = err == nil && h.Degraded == nil
	h.State = api.DaemonOK
	if h.Degraded != nil {
		h.State = api.DaemonDegraded
	}
	if l := s.st.Lost(); l != nil {
		h.StoreLost = l.String()
	}
	s.mu.Lock()
	h.TmuxSocket, h.TmuxVersion, h.Sessions = s.server.Socket, s.server.Version, len(s.sessions)
	s.mu.Unlock()
	for _, m := range s.monitors() {
		if t, ok := m.Recorded(); ok {
			h.Terminals++
			if t.Agent != api.AgentNone {
				h.Agents++
			}
		}
	}
	return h, nil
}

// Watch answers POST /v1/watch.
func (s *Supervisor) Watch(ctx context.Context, req api.WatchRequest) (api.Task, error) {
	return s.tasks.Watch(ctx, req)
}

// Unwatch answers POST /v1/unwatch.
func (s *Supervisor) Unwatch(ctx context.Context, req api.UnwatchRequest) (api.Task, error) {
	return s.tasks.Unwatch(ctx, req)
}

// Renew answers POST /v1/renew.
func (s *Supervisor) Renew(ctx context.Context, req api.RenewRequest) (api.Task, error) {
	return s.tasks.Renew(ctx, req)
}

// Recover answers POST /v1/recover.
func (s *Supervisor) Recover(ctx context.Context, req api.RecoverRequest) (api.Task, error) {
	return s.tasks.Recover(ctx, req)
}

// Close answers POST /v1/close: a managed Turn released from management.
func (s *Supervisor) Close(ctx context.Context, req api.CloseRequest) (api.Task, error) {
	return s.tasks.Close(ctx, req)
}

// RetryCallback answers POST /v1/retry_callback.
func (s *Supervisor) RetryCallback(ctx context.Context, req api.RetryCallbackRequest) (api.Task, error) {
	return s.tasks.RetryCallback(ctx, req)
}

// MonitorTurn starts monitoring a Turn (tests hand it specs directly).
func (s *Supervisor) MonitorTurn(spec TurnSpec) { s.tasks.MonitorTurn(spec) }

// SetTurnLedger installs the managed Turns' ledger (before Run).
func (s *Supervisor) SetTurnLedger(l TurnLedger) { s.tasks.SetTurnLedger(l) }

// ModelOptions answers POST /v1/model_options.
func (s *Supervisor) ModelOptions(ctx context.Context, req api.ModelOptionsRequest) (api.ActionResult, error) {
	return s.disp.ModelOptions(ctx, req)
}

// SetModel answers POST /v1/set_model.
func (s *Supervisor) SetModel(ctx context.Context, req api.SetModelRequest) (api.ActionResult, error) {
	return s.disp.SetModel(ctx, req)
}

// RepairModelControl answers POST /v1/repair_model_control.
func (s *Supervisor) RepairModelControl(ctx context.Context, req api.RepairModelControlRequest) (api.ActionResult, error) {
	return s.disp.RepairModelControl(ctx, req)
}

// Qualify answers POST /v1/qualify: it starts a background qualification
// of the binary in a terminal, or at a path.
func (s *Supervisor) Qualify(_ context.Context, req api.QualifyRequest) (api.QualifyStarted, error) {
	return s.qual.start(req, func(id string) (*procid.Identity, bool) {
		m := s.terminalMonitor(id)
		if m == nil {
			return nil, false
		}
		return m.View().Ident, true
	})
}
