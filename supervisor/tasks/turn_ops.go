package tasks

import (
	"context"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// SetTurnLedger installs the managed Turns' ledger (before Run).
func (t *Manager) SetTurnLedger(l TurnLedger) { t.kit.ledger = l }

// MonitorTurn starts monitoring a Turn (the send path calls it once the
// Turn is durably accepted; again after a restart is harmless).
func (t *Manager) MonitorTurn(spec TurnSpec) {
	t.opMu.Lock()
	defer t.opMu.Unlock()
	t.monitor(spec)
	t.poke()
}

// Monitor starts monitoring a stored Turn the send path submitted.
func (t *Manager) Monitor(turn store.Turn) { t.MonitorTurn(SpecOf(turn)) }

// monitor follows a Turn, unless it is followed already, and returns it.
func (t *Manager) monitor(spec TurnSpec) *turnState {
	fs := t.kit.fs
	if _, ok := fs.turns[spec.TurnID]; !ok {
		fs.turns[spec.TurnID] = newTurn(spec, t.kit.cfg.HardTimeout, t.routes, t.kit.now())
	}
	return fs.turns[spec.TurnID]
}

// Accepted tells the monitor what acceptance proved (the native turn
// and file), in case the accepting line was read before the monitor
// started following the Turn.
func (t *Manager) Accepted(turn store.Turn) {
	t.opMu.Lock()
	defer t.opMu.Unlock()
	if tr := t.kit.fs.turns[turn.ID]; tr != nil {
		if tr.spec.NativeTurnID == "" {
			tr.spec.NativeTurnID = turn.NativeTurn
		}
		tr.spec.File, tr.spec.Path = evidence.FileID{Dev: turn.FileDev, Ino: turn.FileIno}, turn.NativePath
		tr.spec.Start, tr.spec.BindingGen = turn.Anchor, turn.BindingGen
		// The turn may have ended before the monitor knew its file.
		tr.catchUp(&t.kit)
	}
}

// Drop stops monitoring a Turn whose send ended uncertain: nothing
// proves which native turn is its own.
func (t *Manager) Drop(id string) {
	t.opMu.Lock()
	defer t.opMu.Unlock()
	t.kit.fs.drop(id)
}

// Close answers POST /v1/close: release a managed Turn (stop observing,
// withdraw what is not dispatched). It does not claim the native task
// failed and does not cancel it. A Watch must use Unwatch; closed
// management cannot be reopened.
func (t *Manager) Close(ctx context.Context, req api.CloseRequest) (api.Task, error) {
	if req.TurnID == "" {
		return api.Task{}, api.Errorf(api.CodeBadRequest, "close: turn_id is required (a Watch is ended with unwatch)")
	}
	return onTask(t, (*kit).turn, req.TurnID, func(k *kit, r turnRow) (api.Task, error) {
		return closeTurn(k, req, r)
	})
}

// closeTurn closes the Turn r under opMu.
func closeTurn(k *kit, req api.CloseRequest, r turnRow) (api.Task, error) {
	sp, state := r.spec, r.state
	if state == TurnClosed {
		return api.Task{}, api.Errorf(api.CodeConflict, "close: turn %s is already closed", req.TurnID)
	}
	reason := ReasonClosed
	switch req.Reason {
	case "":
	case ReasonSuperseded:
		// The decision is revalidated: the Turn's handoff is open and the
		// terminal's conversation is still not the Turn's.
		tr := k.fs.turns[req.TurnID]
		if tr == nil || tr.handoff == "" {
			return api.Task{}, api.Errorf(api.CodeConflict, "close: turn %s has no open handoff decision (state %s)", req.TurnID, state)
		}
		if o, ok := k.host.Observation(sp.TerminalID); ok && o.Incarnation == sp.Incarnation && !switchedAway(sp, o.Bind) {
			return api.Task{}, api.Errorf(api.CodeConflict, "close: the terminal runs the turn's conversation (%s): no context switch to settle; close without a reason releases the turn", tr.handoff)
		}
		reason = ReasonSuperseded
	default:
		return api.Task{}, api.Errorf(api.CodeBadRequest, "close: reason %q is not one akk knows (only %s)", req.Reason, ReasonSuperseded)
	}
	now := k.now()
	k.fs.drop(req.TurnID)
	k.host.Asked(sp, nil)
	if k.ledger != nil {
		if err := k.ledger.SettleTurn(req.TurnID, TurnEnd{State: TurnClosed, Reason: reason, At: now}); err != nil {
			return api.Task{}, err
		}
	}
	if _, err := k.st.Withdraw(req.TurnID, now); err != nil {
		return api.Task{}, err
	}
	sp.Reason = reason
	return turnRow{sp, TurnClosed}.task(k), nil
}

// renewTurn refreshes a running Turn's inactivity window; it cannot pass
// the Turn's hard deadline, and a closed or ended Turn is refused.
func (t *Manager) renewTurn(ctx context.Context, req api.RenewRequest) (api.Task, error) {
	return onTask(t, (*kit).turn, req.TurnID, func(k *kit, r turnRow) (api.Task, error) {
		tr := k.fs.turns[req.TurnID]
		if tr == nil {
			return api.Task{}, api.Errorf(api.CodeConflict, "renew: turn %s is %s", req.TurnID, r.state)
		}
		tr.lastSeen, tr.stalled = k.now(), false
		t.poke()
		return r.task(k), nil
	})
}

// recoverTurn re-reads a running Turn's terminal and reschedules its
// open notifications; it changes no deadline and refuses a closed Turn.
func (t *Manager) recoverTurn(ctx context.Context, req api.RecoverRequest) (api.Task, error) {
	return onTask(t, (*kit).turn, req.TurnID, func(k *kit, r turnRow) (api.Task, error) {
		if r.state == TurnClosed {
			return api.Task{}, api.Errorf(api.CodeConflict, "recover: turn %s is closed", req.TurnID)
		}
		if tr := k.fs.turns[req.TurnID]; tr != nil {
			if o, ok := k.host.Observation(r.spec.TerminalID); ok {
				tr.observed(k, o)
			} else {
				tr.end(k, TurnFailed, api.CallbackError, api.CallbackFailed, ReasonExited, k.now())
			}
		}
		if err := k.reschedule(req.TurnID); err != nil {
			return api.Task{}, err
		}
		if now, err := k.turn(req.TurnID); err == nil {
			r = now // settled by the look just taken
		}
		return r.task(k), nil
	})
}
