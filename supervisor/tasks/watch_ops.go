package tasks

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/agent-knock-knock/akk/agents/registry"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
	"github.com/agent-knock-knock/akk/watchers"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// Watch answers POST /v1/watch: observe one exact terminal. It never
// acquires input authority. An exact_task Watch needs a unique native task
// anchor (a resolved binding to a readable transcript/rollout); otherwise
// the Watch observes the terminal's activity, best effort, with the
// reasons as warnings. The same active Watch of the same terminal and
// process is returned again rather than refused.
func (t *Manager) Watch(ctx context.Context, req api.WatchRequest) (api.Task, error) {
	t.opMu.Lock()
	defer t.opMu.Unlock()
	k := &t.kit
	o, ok := k.host.Observation(req.TerminalID)
	if !ok {
		return api.Task{}, api.Errorf(api.CodeNotFound, "no terminal %s: run `akk list` for the current ids", req.TerminalID)
	}
	if o.Incarnation == "" {
		return api.Task{}, api.Errorf(api.CodeConflict, "terminal %s: its process is not identified yet", req.TerminalID)
	}
	if o.Screen == contract.ScreenExited {
		return api.Task{}, api.Errorf(api.CodeConflict, "terminal %s: its process has exited", req.TerminalID)
	}
	for _, w := range k.fs.watches {
		if w.rec.TerminalID == req.TerminalID && w.rec.Incarnation == o.Incarnation {
			return watchRow{w.rec}.task(k), nil
		}
	}
	now := k.now()
	owner := api.Owner(api.ControllerFrom(ctx))
	rec := store.Watch{TerminalID: req.TerminalID, State: WatchActive, Incarnation: o.Incarnation,
		Agent: o.Agent, Cwd: o.Cwd, Controller: owner, Routes: t.routes(owner),
		Created: now, Deadline: now.Add(time.Duration(k.cfg.WatchMinutes) * time.Minute), Revision: 1}
	// The id names this terminal, process and creation: a new Watch after
	// an earlier one ended is another Watch.
	rec.ID = "watch_" + terminal.Derive(t.secret, "watch", req.TerminalID, o.Incarnation, now.Format(time.RFC3339Nano))
	anchor, why := taskAnchor(o)
	if anchor != nil {
		rec.Mode, rec.Confidence, rec.Anchor = api.WatchExactTask, api.ConfidenceExact, anchor
	} else {
		rec.Mode, rec.Confidence, rec.Warnings = api.WatchTerminalActivity, api.ConfidenceBestEffort, []string{why}
		rec.BindingGen = o.Bind.Generation
		// Activity is observed from now on: the state at creation is not
		// evidence of this epoch's activity (starting idle never settles).
	}
	w := &watchState{rec: rec, outBytes: o.OutBytes, outAt: now}
	ev := store.Event{Type: api.EventWatchCreated, TerminalID: rec.TerminalID,
		Attrs: map[string]string{"watch_id": rec.ID, "watch_mode": rec.Mode, "confidence": rec.Confidence}}
	if _, err := k.notes.commit(store.TaskChange{Watches: []store.Watch{rec}, Events: []store.Event{ev}}); err != nil {
		return api.Task{}, err
	}
	k.fs.watches[rec.ID] = w
	k.last[o.TerminalID] = o
	if n, ok := w.seen.blocked(o); ok {
		k.tell(w.voice(), n) // an agent blocked already: its owner hears of it now
	}
	k.lg.Info("watch", "watch", rec.ID, "terminal", rec.TerminalID, "mode", rec.Mode)
	return watchRow{rec}.task(k), nil
}

// WatchSent is the Watch that follows a user-explicit send akk could not
// manage as a Turn (no native session file to prove it from): the Watch
// of the terminal, made for the controller whose context ctx is, or the
// one already following it.
func (t *Manager) WatchSent(ctx context.Context, terminalID, controller string) (string, string, error) {
	task, err := t.Watch(api.WithController(ctx, controller), api.WatchRequest{TerminalID: terminalID})
	if err != nil {
		return "", "", err
	}
	return task.WatchID, task.WatchMode, nil
}

// WatchTerminal resolves a watch_id to its terminal for respond_interaction
// (seed 003): only an active exact_task Watch of the same controller, and
// never for approval (approve takes no watch_id).
func (t *Manager) WatchTerminal(watchID, controller string) (string, error) {
	w, err := t.kit.st.Watch(watchID)
	if errors.Is(err, store.ErrNotFound) {
		return "", fmt.Errorf("no watch %s", watchID)
	} else if err != nil {
		return "", err
	}
	switch {
	case w.Controller != api.Owner(controller):
		return "", fmt.Errorf("watch %s belongs to another controller", watchID)
	case w.Mode != api.WatchExactTask:
		return "", fmt.Errorf("watch %s is %s: only an exact_task Watch may answer", watchID, w.Mode)
	case w.State != "active":
		return "", fmt.Errorf("watch %s is %s", watchID, w.State)
	case !w.Deadline.IsZero() && t.kit.now().After(w.Deadline):
		return "", fmt.Errorf("watch %s expired", watchID)
	}
	return w.TerminalID, nil
}

// taskAnchor finds a unique native task anchor for an observation, or says
// why there is none.
func taskAnchor(o terminal.Observation) (*store.TaskAnchor, string) {
	if !registry.Known(o.Agent) {
		return nil, "no coding agent identified: observing terminal activity"
	}
	if o.Bind.State != contract.IdentityResolved || o.Bind.Path == "" {
		return nil, "native session not resolved (" + stateOr(o.Bind.State, "unavailable") + "): observing terminal activity"
	}
	scan, err := scanTask(evidence.Agent(o.Agent), o.Bind.Path)
	if err != nil {
		return nil, "native session file unreadable: observing terminal activity"
	}
	a := &store.TaskAnchor{Agent: o.Agent, SessionID: o.Bind.SessionID, Path: o.Bind.Path, FileDev: scan.file.Dev,
		FileIno: scan.file.Ino, Generation: o.Bind.Generation, Start: scan.end}
	if scan.running != "" && !(scan.replied && o.Screen == contract.ScreenIdle) {
		// The task running now: from its first line on is the task. (A
		// turn whose last record is a reply that may end it, on an idle
		// screen, ended: restingReply.)
		a.TurnID, a.Start = scan.running, scan.runningAt
	}
	return a, ""
}

func stateOr[S ~string](s S, def string) string {
	if s == "" {
		return def
	}
	return string(s)
}

// taskScan is what a bound file says of its latest native turn.
type taskScan struct {
	file      evidence.FileID
	end       int64  // the last complete line's end
	running   string // the turn started and not ended, if any
	runningAt int64  // the offset of its first line
	// replied: the running turn's last record is a reply that may end it
	// (watchers.ReplyEnded: a file that writes no end of turn).
	replied bool
}

// scanTask reads a bound file's complete lines for its latest turn.
func scanTask(agent evidence.Agent, path string) (taskScan, error) {
	var out taskScan
	file, end, err := readEvidence(agent, path, func(w evidence.Where, ev evidence.Event) {
		out.replied = false
		switch ev := ev.(type) {
		case evidence.ReplyEnded:
			out.replied = ev.TurnID == out.running
		case evidence.TurnStarted:
			if out.running != ev.TurnID {
				out.running, out.runningAt = ev.TurnID, w.Offset
			}
		case evidence.PromptAccepted:
			if out.running == "" || out.running != ev.TurnID {
				out.running, out.runningAt = ev.TurnID, w.Offset
			}
		case evidence.TurnCompleted, evidence.TurnAborted, evidence.TurnFailed:
			out.running = ""
		}
	})
	out.file, out.end = file, end
	return out, err
}

// readEvidence parses a native record's complete entries and hands each
// event to fn; it returns the record's identity and the last complete
// entry's end. The identity is taken from what was read.
func readEvidence(agent evidence.Agent, path string, fn func(evidence.Where, evidence.Event)) (evidence.FileID, int64, error) {
	return watchers.ReadRecord(context.Background(), agent, path, fn)
}

// Unwatch answers POST /v1/unwatch: stop observing and withdraw the
// notifications not yet dispatched (one in flight cannot be recalled). A
// managed Turn stays managed: Unwatch takes only a watch_id.
//
// Seed 003 says two things about an explicit unwatch. Its Terminal Watch
// prose lists "explicit unwatch" among what "settles once and enqueues one
// terminal notification"; its operations table (backend-task-recovery)
// says Unwatch stops observation and withdraws what is not dispatched, and
// that "a closed or unwatched record cannot dispatch callbacks". A
// notification enqueued by Unwatch could never be sent under the second
// rule, and the controller that unwatches already has the answer in this
// call's result. akk follows the table: Unwatch ends the Watch once
// (stopped, reason unwatched, one watch.settled event in the history) and
// enqueues nothing; retry_callback refuses its notifications.
func (t *Manager) Unwatch(ctx context.Context, req api.UnwatchRequest) (api.Task, error) {
	return onTask(t, (*kit).watch, req.WatchID, func(k *kit, rec store.Watch) (api.Task, error) {
		now := k.now()
		if rec.State == WatchActive || rec.State == WatchExpired {
			k.fs.drop(rec.ID)
			rec.State, rec.Reason, rec.SettledAt = WatchStopped, ReasonUnwatched, now
			rec.Revision++
			ev := store.Event{Type: api.EventWatchSettled, TerminalID: rec.TerminalID,
				Attrs: map[string]string{"watch_id": rec.ID, "state": WatchStopped, "reason": ReasonUnwatched, "confidence": rec.Confidence}}
			if _, err := k.notes.commit(store.TaskChange{Watches: []store.Watch{rec}, Events: []store.Event{ev}}); err != nil {
				return api.Task{}, err
			}
		}
		if _, err := k.st.Withdraw(rec.ID, now); err != nil {
			return api.Task{}, err
		}
		return watchRow{rec}.task(k), nil
	})
}

// Renew answers POST /v1/renew for a Watch: verify the same task is still
// there, then set the deadline to the later of the saved one and now plus
// minutes (0: the configured default). An expired or stopped Watch resumes
// only while its terminal, process (and anchor) are unchanged; a settled
// or invalidated one cannot be renewed. Old unsent expiry notices are
// withdrawn.
func (t *Manager) Renew(ctx context.Context, req api.RenewRequest) (api.Task, error) {
	if err := exactlyOne(req.WatchID, req.TurnID); err != nil {
		return api.Task{}, err
	}
	if req.Minutes < 0 {
		return api.Task{}, api.Errorf(api.CodeBadRequest, "renew: minutes must be positive")
	}
	if req.TurnID != "" {
		return t.renewTurn(ctx, req)
	}
	return onTask(t, (*kit).watch, req.WatchID, func(k *kit, rec store.Watch) (api.Task, error) {
		if rec.State == WatchSettled || rec.State == WatchInvalidated {
			return api.Task{}, api.Errorf(api.CodeConflict, "renew: watch %s is %s (%s); create a new Watch", rec.ID, rec.State, rec.Reason)
		}
		o, ok := k.host.Observation(rec.TerminalID)
		if !ok || o.Incarnation != rec.Incarnation || o.Screen == contract.ScreenExited ||
			(rec.Anchor != nil && o.Bind.Generation != rec.Anchor.Generation) {
			return api.Task{}, api.Errorf(api.CodeConflict, "renew: watch %s: its terminal, process or native task changed", rec.ID)
		}
		now := k.now()
		minutes := req.Minutes
		if minutes == 0 {
			minutes = k.cfg.WatchMinutes
		}
		if d := now.Add(time.Duration(minutes) * time.Minute); d.After(rec.Deadline) {
			rec.Deadline = d
		}
		if rec.State != WatchActive {
			if _, err := k.st.Withdraw(rec.ID, now); err != nil {
				return api.Task{}, err
			}
			rec.State, rec.Reason, rec.SettledAt = WatchActive, "", time.Time{}
		}
		rec.Revision++
		if _, err := k.notes.commit(store.TaskChange{Watches: []store.Watch{rec}}); err != nil {
			return api.Task{}, err
		}
		if w := k.fs.watches[rec.ID]; w != nil {
			w.rec = rec
		} else {
			k.fs.watches[rec.ID] = &watchState{rec: rec, outBytes: o.OutBytes, outAt: now}
		}
		t.poke()
		return watchRow{rec}.task(k), nil
	})
}

// Recover answers POST /v1/recover for a Watch: re-read the original task
// (an exact anchor's file for a completion already written), reconcile
// the Watch with it and put its open notifications back on the schedule.
// It neither extends the deadline nor resumes a stopped or expired Watch.
func (t *Manager) Recover(ctx context.Context, req api.RecoverRequest) (api.Task, error) {
	if err := exactlyOne(req.WatchID, req.TurnID); err != nil {
		return api.Task{}, err
	}
	if req.TurnID != "" {
		return t.recoverTurn(ctx, req)
	}
	return onTask(t, (*kit).watch, req.WatchID, func(k *kit, rec store.Watch) (api.Task, error) {
		switch rec.State {
		case WatchStopped, WatchExpired:
			return api.Task{}, api.Errorf(api.CodeConflict, "recover: watch %s is %s; recover does not resume it (renew does, while its task is unchanged)", rec.ID, rec.State)
		case WatchActive:
			w := k.fs.watches[rec.ID]
			if w == nil {
				w = &watchState{rec: rec, outAt: k.now()}
				k.fs.watches[rec.ID] = w
			}
			if o, ok := k.host.Observation(rec.TerminalID); !ok {
				w.end(k, WatchInvalidated, api.CallbackError, api.CallbackInvalidated, ReasonExited, k.now())
			} else {
				w.observed(k, o)
				if w.rec.State == WatchActive && w.rec.Anchor != nil {
					w.reconcile(k)
				}
			}
			rec = w.rec
		}
		if err := k.reschedule(rec.ID); err != nil {
			return api.Task{}, err
		}
		return watchRow{rec}.task(k), nil
	})
}

func exactlyOne(watchID, turnID string) error {
	if (watchID == "") == (turnID == "") {
		return api.Errorf(api.CodeBadRequest, "exactly one of watch_id and turn_id (a conversation id alone selects no task)")
	}
	return nil
}
