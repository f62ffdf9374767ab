package tasks

import (
	"strconv"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// Watch lifecycle states.
const (
	WatchActive      = "active"
	WatchSettled     = "settled"
	WatchInvalidated = "invalidated"
	WatchExpired     = "expired"
	WatchStopped     = "stopped" // unwatch
)

// Reasons a Watch or a Turn ends or is refused.
const (
	ReasonCompleted      = "task_completed"
	ReasonFailed         = "task_failed"
	ReasonAborted        = "task_aborted"
	ReasonProcessChanged = "process_changed"
	ReasonBindingChanged = "binding_changed"
	ReasonFileChanged    = "file_changed"
	ReasonSuccessor      = "successor_task"
	ReasonExited         = "terminal_exited"
	ReasonExpired        = "watch_expired"
	ReasonUnwatched      = "unwatched"
	ReasonClosed         = "closed" // a Turn released by close
	ReasonUnproven       = "unproven_acceptance"
)

// watchState is an active Watch: its record and what the monitor tracks
// between observations (never persisted: a restart observes afresh).
type watchState struct {
	rec store.Watch
	// firstIdle is the time of the first idle recognition after activity
	// (zero: not idle since the last activity).
	firstIdle time.Time
	// outBytes and outAt: the pane's %output byte count last seen, and when
	// it last grew.
	outBytes int64
	outAt    time.Time
	// poked: a recognition was asked for at this time (stable idle check).
	poked time.Time
	// rest: the anchored turn's last reply, which ended it if the screen
	// rests after it (an agent whose file writes no end of turn).
	rest *restingReply
}

// isActivity reports whether a screen state is activity for a
// terminal_activity Watch (seed 003: working or awaiting_approval).
func isActivity(screen contract.ScreenState) bool {
	a := terminal.ScreenActivity(screen)
	return a == contract.ActivityWorking || a == contract.ActivityAwaitingApproval
}

// watchObserved folds one observation of the Watch's terminal.
func (t *Manager) watchObserved(w *watchState, o terminal.Observation) {
	switch {
	case o.Screen == contract.ScreenExited:
		t.endWatch(w, WatchInvalidated, api.CallbackError, api.CallbackInvalidated, ReasonExited, o.At)
		return
	case o.Incarnation != w.rec.Incarnation:
		t.endWatch(w, WatchInvalidated, api.CallbackError, api.CallbackInvalidated, ReasonProcessChanged, o.At)
		return
	case w.rec.Anchor != nil && o.Bind.Generation != w.rec.Anchor.Generation:
		t.endWatch(w, WatchInvalidated, api.CallbackError, api.CallbackInvalidated, ReasonBindingChanged, o.At)
		return
	}
	if o.OutBytes != w.outBytes {
		w.outBytes, w.outAt = o.OutBytes, o.At
	}
	w.rest.observe(o)
	t.watchInteraction(w, o)
	t.blockSeen(w.rec.ID, o, t.watchBlock(w))
	if w.rec.Mode != api.WatchTerminalActivity {
		return
	}
	// A session file that appeared (or moved) since the Watch began is
	// the agent's own record of a prompt taken: activity, even when its
	// screen went from idle to idle between two looks (a fast model).
	filed := o.Bind.Generation != w.rec.BindingGen && o.Bind.State == contract.IdentityResolved
	switch {
	case isActivity(o.Screen) || filed && !w.rec.SawActivity:
		w.firstIdle = time.Time{}
		if !w.rec.SawActivity {
			w.rec.SawActivity = true
			w.rec.Revision++
			t.saveWatch(w)
		}
		w.rec.LastActivity = o.At
	case o.Screen == contract.ScreenIdle && w.rec.SawActivity:
		if w.firstIdle.IsZero() {
			w.firstIdle = o.At
		}
		t.checkStableIdle(w, o.At)
	default:
		w.firstIdle = time.Time{} // unknown, menus, starting: not idle
	}
}

// checkStableIdle settles a terminal_activity Watch when idle was
// recognized at two recognitions at least IdleGap apart and the pane took
// no %output for StableIdle. It is called on an idle recognition only.
func (t *Manager) checkStableIdle(w *watchState, at time.Time) {
	if at.Sub(w.firstIdle) >= t.cfg.IdleGap && at.Sub(w.outAt) >= t.cfg.StableIdle {
		t.endWatch(w, WatchSettled, api.CallbackDone, api.CallbackStablyIdle, api.CallbackStablyIdle, at)
	}
}

// watchInteraction wakes the controller once per distinct prompt. A Watch
// never approves: a permission, and anything a terminal_activity Watch
// sees, is interaction_manual_required (a person answers in the TUI); an
// exact Watch's pending questionnaire step is interaction_required (a
// same-controller Status may then offer the narrow response lease).
func (t *Manager) watchInteraction(w *watchState, o terminal.Observation) {
	t.interactionSeen(w.rec.ID, o, func(in *contract.Interaction, at time.Time) {
		event := api.CallbackInteractionManual
		if w.rec.Mode == api.WatchExactTask && in.State == contract.StatePending && in.Kind != contract.KindPermission {
			event = api.CallbackInteractionRequired
		}
		env := w.envelope(api.CallbackBlocked, event, "", at)
		env.Interaction = in
		t.notes.notify(env, "interaction:"+in.InteractionID, w.rec.Routes, store.TaskChange{})
	})
}

// watchEvidence folds one event of the bound file into an exact Watch:
// completion, failure or abort of the anchored native turn settles it;
// a changed file, binding or a successor task invalidates it.
func (t *Manager) watchEvidence(w *watchState, e boundEvidence) {
	a := w.rec.Anchor
	at := e.ev.At()
	now := t.now()
	if e.gen != a.Generation {
		t.endWatch(w, WatchInvalidated, api.CallbackError, api.CallbackInvalidated, ReasonBindingChanged, now)
		return
	}
	if fe, ok := e.ev.(evidence.FileEvent); ok {
		switch fe.Change {
		case evidence.FileTruncated, evidence.FileReplaced, evidence.FileDeleted:
			t.endWatch(w, WatchInvalidated, api.CallbackError, api.CallbackInvalidated, ReasonFileChanged, now)
		}
		return
	}
	if at.File != (evidence.FileID{Dev: a.FileDev, Ino: a.FileIno}) {
		t.endWatch(w, WatchInvalidated, api.CallbackError, api.CallbackInvalidated, ReasonFileChanged, now)
		return
	}
	if at.End <= a.Start {
		return // before the anchor: the past
	}
	t.lastEvidence(w, now)
	w.rest = nil // the file moved on past the reply
	switch ev := e.ev.(type) {
	case evidence.ReplyEnded:
		if a.TurnID != "" && ev.TurnID == a.TurnID {
			w.rest = t.restAfter(w.rec.TerminalID, ev, now)
		}
	case evidence.TurnStarted:
		t.anchorTurn(w, ev.TurnID, now)
	case evidence.PromptAccepted:
		t.anchorTurn(w, ev.TurnID, now)
	case evidence.TurnCompleted:
		if a.TurnID != "" && ev.TurnID == a.TurnID {
			t.endWatch(w, WatchSettled, api.CallbackDone, api.CallbackCompleted, ReasonCompleted, now)
		}
	case evidence.TurnAborted:
		if a.TurnID != "" && ev.TurnID == a.TurnID {
			t.endWatch(w, WatchSettled, api.CallbackControl, api.CallbackAborted, ReasonAborted, now)
		}
	case evidence.TurnFailed:
		if a.TurnID != "" && ev.TurnID == a.TurnID {
			t.endWatch(w, WatchSettled, api.CallbackError, api.CallbackFailed, ReasonFailed, now)
		}
	}
}

func (t *Manager) lastEvidence(w *watchState, now time.Time) { w.rec.LastActivity = now }

// anchorTurn binds an exact Watch that started idle to the first native
// turn after its boundary; another turn while one is anchored is a
// successor task, which the Watch does not follow.
func (t *Manager) anchorTurn(w *watchState, turnID string, now time.Time) {
	a := w.rec.Anchor
	switch {
	case turnID == "" || turnID == a.TurnID:
	case a.TurnID == "":
		a.TurnID = turnID
		w.rec.Revision++
		t.saveWatch(w)
	default:
		t.endWatch(w, WatchInvalidated, api.CallbackError, api.CallbackInvalidated, ReasonSuccessor, now)
	}
}

// watchTimers expires a Watch at its deadline, asks the pane for a fresh
// recognition when a stable-idle check is due, and returns when to look
// again.
func (t *Manager) watchTimers(w *watchState, now time.Time) time.Time {
	if !now.Before(w.rec.Deadline) {
		t.expireWatch(w, now)
		return time.Time{}
	}
	next := w.rec.Deadline
	if due := w.rest.due(t.cfg.ReplyRest); !due.IsZero() {
		if !now.Before(due) {
			t.endWatch(w, WatchSettled, api.CallbackDone, api.CallbackCompleted, ReasonCompleted, now)
			return time.Time{}
		}
		if due.Before(next) {
			next = due // the pane is quiet: no pass comes to look again
		}
	}
	if w.rec.Mode == api.WatchTerminalActivity && !w.firstIdle.IsZero() {
		due := w.firstIdle.Add(t.cfg.IdleGap)
		if quiet := w.outAt.Add(t.cfg.StableIdle); quiet.After(due) {
			due = quiet
		}
		if !now.Before(due) && w.poked.Before(due) {
			// The pane is quiet, so no pass will run by itself: ask for
			// the second recognition.
			w.poked = now
			if o, ok := t.lastObs[w.rec.TerminalID]; ok && o.Pane != nil {
				o.Pane.Poke()
			}
		}
		if due.After(now) && due.Before(next) {
			next = due
		}
	}
	return next
}

// endWatch settles, invalidates or stops a Watch once, with its one
// terminal notification (event identity "settled": whatever the reason, a
// Watch ends once).
func (t *Manager) endWatch(w *watchState, state, typ, event, reason string, now time.Time) {
	delete(t.watches, w.rec.ID)
	delete(t.held, w.rec.ID)
	delete(t.blocks, w.rec.ID)
	w.rec.State, w.rec.Reason, w.rec.SettledAt = state, reason, now
	w.rec.Revision++
	ev := store.Event{Type: api.EventWatchSettled, TerminalID: w.rec.TerminalID,
		Attrs: map[string]string{"watch_id": w.rec.ID, "state": state, "reason": reason, "confidence": w.rec.Confidence}}
	ch := store.TaskChange{Watches: []store.Watch{w.rec}, Events: []store.Event{ev}}
	t.notes.notify(w.envelope(typ, event, reason, now), "settled", w.rec.Routes, ch)
}

// expireWatch ends observation at the deadline. Its notification belongs
// to that deadline: a Renew sets another, whose expiry is a new event.
func (t *Manager) expireWatch(w *watchState, now time.Time) {
	delete(t.watches, w.rec.ID)
	delete(t.held, w.rec.ID)
	delete(t.blocks, w.rec.ID)
	w.rec.State, w.rec.Reason, w.rec.SettledAt = WatchExpired, ReasonExpired, now
	w.rec.Revision++
	ev := store.Event{Type: api.EventWatchSettled, TerminalID: w.rec.TerminalID,
		Attrs: map[string]string{"watch_id": w.rec.ID, "state": WatchExpired, "reason": ReasonExpired}}
	ch := store.TaskChange{Watches: []store.Watch{w.rec}, Events: []store.Event{ev}}
	env := w.envelope(api.CallbackControl, api.CallbackTimeout, ReasonExpired, now)
	t.notes.notify(env, "expired:"+strconv.FormatInt(w.rec.Deadline.UnixNano(), 10), w.rec.Routes, ch)
}

func (t *Manager) saveWatch(w *watchState) {
	if _, err := t.notes.commit(store.TaskChange{Watches: []store.Watch{w.rec}}); err != nil {
		t.lg.Error("save watch", "watch", w.rec.ID, "err", err)
	}
}

// envelope is the callback envelope of one of the Watch's notifications.
func (w *watchState) envelope(typ, event, reason string, now time.Time) api.CallbackEnvelope {
	return api.CallbackEnvelope{Type: typ, Event: event, Reason: reason, Confidence: w.rec.Confidence,
		TaskKind: TaskWatch, WatchID: w.rec.ID, TerminalID: w.rec.TerminalID, Time: now}
}
