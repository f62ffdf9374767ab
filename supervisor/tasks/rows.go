package tasks

import (
	"errors"
	"strings"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/store"
)

// A row is a Watch or a Turn as an operation reads it (task_status,
// unwatch, renew, recover, close, retry_callback): the follower's live
// state while one follows it, else its durable record, the store's Watch
// or the ledger's Turn. Its task is what the contract shows of it.
type row interface {
	task(k *kit) api.Task
}

// watchRow is a Watch as an operation reads it.
type watchRow struct{ rec store.Watch }

// turnRow is a Turn as an operation reads it: its spec and its state.
type turnRow struct {
	spec  TurnSpec
	state string
}

// row reads the Watch or the Turn subject names.
func (k *kit) row(subject string) (row, error) {
	if strings.HasPrefix(subject, "watch_") {
		rec, err := k.watch(subject)
		return watchRow{rec}, err
	}
	r, err := k.turn(subject)
	return r, err
}

// watch reads a Watch; an unknown id is not_found.
func (k *kit) watch(id string) (store.Watch, error) {
	if w := k.fs.watches[id]; w != nil {
		return w.rec, nil
	}
	rec, err := k.st.Watch(id)
	if errors.Is(err, store.ErrNotFound) {
		return rec, api.Errorf(api.CodeNotFound, "no watch %s", id)
	}
	return rec, err
}

// turn reads a Turn from its monitor or the ledger; an unknown id is
// not_found.
func (k *kit) turn(id string) (turnRow, error) {
	if tr := k.fs.turns[id]; tr != nil {
		return turnRow{tr.spec, TurnRunning}, nil
	}
	if k.ledger == nil {
		return turnRow{}, api.Errorf(api.CodeNotFound, "no turn %s (no managed Turns in this daemon)", id)
	}
	sp, st, err := k.ledger.TurnState(id)
	if errors.Is(err, store.ErrNotFound) {
		return turnRow{sp, st}, api.Errorf(api.CodeNotFound, "no turn %s", id)
	}
	return turnRow{sp, st}, err
}

// task is the contract's view of a Watch: no anchor path, no routes; an
// active one shows the interaction on its terminal's screen.
func (r watchRow) task(k *kit) api.Task {
	rec := r.rec
	out := api.Task{V: api.SchemaVersion, WatchID: rec.ID, TerminalID: rec.TerminalID, TaskKind: TaskWatch,
		WatchMode: rec.Mode, Confidence: rec.Confidence, State: rec.State, Reason: rec.Reason,
		ObservationState: rec.State, Warnings: rec.Warnings, Deadline: rec.Deadline}
	if rec.State == WatchActive {
		if o, ok := k.last[rec.TerminalID]; ok && o.Interaction != nil {
			out.Interaction = o.Interaction
		}
	}
	out.Notifications = k.outbox(rec.ID)
	return out
}

// task is the contract's view of a Turn; a running one whose handoff is
// open shows the decision its controller owes.
func (r turnRow) task(k *kit) api.Task {
	sp, state := r.spec, r.state
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
	if tr := k.fs.turns[sp.TurnID]; tr != nil && tr.handoff != "" && state == TurnRunning {
		out.State, out.Handoff = TurnHandoff, handoffDecision(sp, tr.handoff)
	}
	out.Notifications = k.outbox(sp.TurnID)
	return out
}

// outbox lists a subject's outbox entries as the contract shows them (no
// route, no envelope).
func (k *kit) outbox(subject string) []api.Notification {
	ns, err := k.st.Notifications(func(n *store.Notification) bool { return n.Subject == subject })
	if err != nil {
		k.lg.Warn("notifications", "subject", subject, "err", err)
		return nil
	}
	out := []api.Notification{}
	for _, n := range ns {
		an := api.Notification{NotificationID: n.ID, Type: n.Type, Event: n.Event,
			State: n.State, Attempts: len(n.Attempts), Created: n.Created}
		if i := len(n.Attempts); i > 0 {
			an.Detail = n.Attempts[i-1].Detail
		}
		out = append(out, an)
	}
	return out
}
