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

// watchState is an active Watch, a follower: its record and what the
// monitor tracks between observations (never persisted: a restart
// observes afresh).
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
	seen alerts
}

// voice: a Watch never approves. A permission, and anything a
// terminal_activity Watch sees, is interaction_manual_required (a person
// answers in the TUI); an exact Watch's pending questionnaire step is
// interaction_required (a same-controller Status may then offer the
// narrow response lease).
func (w *watchState) voice() voice {
	return voice{subject: w.rec.ID, routes: w.rec.Routes, answers: w.rec.Mode == api.WatchExactTask,
		base: api.CallbackEnvelope{Confidence: w.rec.Confidence, TaskKind: TaskWatch, WatchID: w.rec.ID, TerminalID: w.rec.TerminalID}}
}

func (w *watchState) alerts() *alerts { return &w.seen }

// isActivity reports whether a screen state is activity for a
// terminal_activity Watch (seed 003: working or awaiting_approval).
func isActivity(screen contract.ScreenState) bool {
	a := terminal.ScreenActivity(screen)
	return a == contract.ActivityWorking || a == contract.ActivityAwaitingApproval
}

// observed folds one observation of the Watch's terminal.
func (w *watchState) observed(k *kit, o terminal.Observation) {
	switch {
	case o.Screen == contract.ScreenExited:
		w.end(k, WatchInvalidated, api.CallbackError, api.CallbackInvalidated, ReasonExited, o.At)
		return
	case o.Incarnation != w.rec.Incarnation:
		w.end(k, WatchInvalidated, api.CallbackError, api.CallbackInvalidated, ReasonProcessChanged, o.At)
		return
	case w.rec.Anchor != nil && o.Bind.Generation != w.rec.Anchor.Generation:
		w.end(k, WatchInvalidated, api.CallbackError, api.CallbackInvalidated, ReasonBindingChanged, o.At)
		return
	}
	if o.OutBytes != w.outBytes {
		w.outBytes, w.outAt = o.OutBytes, o.At
	}
	w.rest.observe(o)
	k.heed(w, o)
	if w.rec.Mode == api.WatchTerminalActivity {
		w.activity(k, o)
	}
}

// activity folds an observation into a terminal_activity Watch: activity,
// then idle that settles it once stable.
func (w *watchState) activity(k *kit, o terminal.Observation) {
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
			w.save(k)
		}
		w.rec.LastActivity = o.At
	case o.Screen == contract.ScreenIdle && w.rec.SawActivity:
		if w.firstIdle.IsZero() {
			w.firstIdle = o.At
		}
		// Settled when idle was recognized at two recognitions at least
		// IdleGap apart and the pane took no %output for StableIdle.
		if o.At.Sub(w.firstIdle) >= k.cfg.IdleGap && o.At.Sub(w.outAt) >= k.cfg.StableIdle {
			w.end(k, WatchSettled, api.CallbackDone, api.CallbackStablyIdle, api.CallbackStablyIdle, o.At)
		}
	default:
		w.firstIdle = time.Time{} // unknown, menus, starting: not idle
	}
}

// evidence folds one event of the bound file into an exact Watch:
// completion, failure or abort of the anchored native turn settles it;
// a changed file, binding or a successor task invalidates it. The file
// bound afresh is read again (reconcile).
func (w *watchState) evidence(k *kit, e boundEvidence) {
	a := w.rec.Anchor
	if a == nil {
		return
	}
	if fb, ok := e.ev.(fileBound); ok {
		if a.Path == fb.where.Path {
			w.reconcile(k)
		}
		return
	}
	at := e.ev.At()
	now := k.now()
	if e.gen != a.Generation {
		w.end(k, WatchInvalidated, api.CallbackError, api.CallbackInvalidated, ReasonBindingChanged, now)
		return
	}
	if fe, ok := e.ev.(evidence.FileEvent); ok {
		switch fe.Change {
		case evidence.FileTruncated, evidence.FileReplaced, evidence.FileDeleted:
			w.end(k, WatchInvalidated, api.CallbackError, api.CallbackInvalidated, ReasonFileChanged, now)
		}
		return
	}
	if at.File != (evidence.FileID{Dev: a.FileDev, Ino: a.FileIno}) {
		w.end(k, WatchInvalidated, api.CallbackError, api.CallbackInvalidated, ReasonFileChanged, now)
		return
	}
	if at.End <= a.Start {
		return // before the anchor: the past
	}
	w.rec.LastActivity = now
	w.rest = nil // the file moved on past the reply
	switch ev := e.ev.(type) {
	case evidence.ReplyEnded:
		if a.TurnID != "" && ev.TurnID == a.TurnID {
			w.rest = k.last.restAfter(w.rec.TerminalID, ev, now)
		}
	case evidence.TurnStarted:
		w.anchor(k, ev.TurnID, now)
	case evidence.PromptAccepted:
		w.anchor(k, ev.TurnID, now)
	case evidence.TurnCompleted:
		if a.TurnID != "" && ev.TurnID == a.TurnID {
			w.end(k, WatchSettled, api.CallbackDone, api.CallbackCompleted, ReasonCompleted, now)
		}
	case evidence.TurnAborted:
		if a.TurnID != "" && ev.TurnID == a.TurnID {
			w.end(k, WatchSettled, api.CallbackControl, api.CallbackAborted, ReasonAborted, now)
		}
	case evidence.TurnFailed:
		if a.TurnID != "" && ev.TurnID == a.TurnID {
			w.end(k, WatchSettled, api.CallbackError, api.CallbackFailed, ReasonFailed, now)
		}
	}
}

// anchor binds an exact Watch that started idle to the first native turn
// after its boundary; another turn while one is anchored is a successor
// task, which the Watch does not follow.
func (w *watchState) anchor(k *kit, turnID string, now time.Time) {
	a := w.rec.Anchor
	switch {
	case turnID == "" || turnID == a.TurnID:
	case a.TurnID == "":
		a.TurnID = turnID
		w.rec.Revision++
		w.save(k)
	default:
		w.end(k, WatchInvalidated, api.CallbackError, api.CallbackInvalidated, ReasonSuccessor, now)
	}
}

// due expires a Watch at its deadline, settles it once its anchored
// turn's reply rested, asks the pane for a fresh recognition when a
// stable-idle check is due, and returns when to look again.
func (w *watchState) due(k *kit, now time.Time) time.Time {
	if !now.Before(w.rec.Deadline) {
		w.expire(k, now)
		return time.Time{}
	}
	next := w.rec.Deadline
	if due := w.rest.due(k.cfg.ReplyRest); !due.IsZero() {
		if !now.Before(due) {
			w.end(k, WatchSettled, api.CallbackDone, api.CallbackCompleted, ReasonCompleted, now)
			return time.Time{}
		}
		if due.Before(next) {
			next = due // the pane is quiet: no pass comes to look again
		}
	}
	if w.rec.Mode == api.WatchTerminalActivity && !w.firstIdle.IsZero() {
		due := w.firstIdle.Add(k.cfg.IdleGap)
		if quiet := w.outAt.Add(k.cfg.StableIdle); quiet.After(due) {
			due = quiet
		}
		if !now.Before(due) && w.poked.Before(due) {
			// The pane is quiet, so no pass will run by itself: ask for
			// the second recognition.
			w.poked = now
			k.last.poke(w.rec.TerminalID)
		}
		if due.After(now) && due.Before(next) {
			next = due
		}
	}
	return next
}

// end settles or invalidates a Watch once, with its one terminal
// notification (event identity "settled": whatever the reason, a Watch
// ends once).
func (w *watchState) end(k *kit, state, typ, event, reason string, now time.Time) {
	k.fs.drop(w.rec.ID)
	w.rec.State, w.rec.Reason, w.rec.SettledAt = state, reason, now
	w.rec.Revision++
	ev := store.Event{Type: api.EventWatchSettled, TerminalID: w.rec.TerminalID,
		Attrs: map[string]string{"watch_id": w.rec.ID, "state": state, "reason": reason, "confidence": w.rec.Confidence}}
	v := w.voice()
	k.say(v, v.envelope(typ, event, reason, now), "settled", store.TaskChange{Watches: []store.Watch{w.rec}, Events: []store.Event{ev}})
}

// expire ends observation at the deadline. Its notification belongs to
// that deadline: a Renew sets another, whose expiry is a new event.
func (w *watchState) expire(k *kit, now time.Time) {
	k.fs.drop(w.rec.ID)
	w.rec.State, w.rec.Reason, w.rec.SettledAt = WatchExpired, ReasonExpired, now
	w.rec.Revision++
	ev := store.Event{Type: api.EventWatchSettled, TerminalID: w.rec.TerminalID,
		Attrs: map[string]string{"watch_id": w.rec.ID, "state": WatchExpired, "reason": ReasonExpired}}
	v := w.voice()
	env := v.envelope(api.CallbackControl, api.CallbackTimeout, ReasonExpired, now)
	k.say(v, env, "expired:"+strconv.FormatInt(w.rec.Deadline.UnixNano(), 10),
		store.TaskChange{Watches: []store.Watch{w.rec}, Events: []store.Event{ev}})
}

// save writes the Watch's record (its first activity, its anchor).
func (w *watchState) save(k *kit) {
	if _, err := k.notes.commit(store.TaskChange{Watches: []store.Watch{w.rec}}); err != nil {
		k.lg.Error("save watch", "watch", w.rec.ID, "err", err)
	}
}

// reconcile reads an exact Watch's file again: a completion of the
// anchored turn already written wins; a replaced file invalidates.
func (w *watchState) reconcile(k *kit) {
	a := w.rec.Anchor
	scan, err := scanTask(evidence.Agent(a.Agent), a.Path)
	now := k.now()
	if err != nil || scan.file != (evidence.FileID{Dev: a.FileDev, Ino: a.FileIno}) || scan.end < a.Start {
		w.end(k, WatchInvalidated, api.CallbackError, api.CallbackInvalidated, ReasonFileChanged, now)
		return
	}
	if a.TurnID != "" && scan.running != a.TurnID && scan.end > a.Start {
		// The anchored turn is no longer running: read its end.
		w.replay(k, scan)
	}
}

// replay feeds the record's entries after the anchor through the Watch's
// evidence path (a completion the watcher's events did not bring).
func (w *watchState) replay(k *kit, scan taskScan) {
	a := w.rec.Anchor
	// The parser needs every entry for its context; only those after the
	// anchor are evidence (evidence skips the others).
	// A record gone since the scan brings no events; one replaced brings
	// another identity, which invalidates the Watch.
	readEvidence(evidence.Agent(a.Agent), a.Path, func(wh evidence.Where, ev evidence.Event) {
		if k.fs.watches[w.rec.ID] != nil && wh.End <= scan.end {
			w.evidence(k, boundEvidence{terminalID: w.rec.TerminalID, gen: a.Generation, ev: ev})
		}
	})
}
