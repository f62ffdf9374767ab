package tasks

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// TurnSpec is what the send path hands the managed Turn monitor once a
// Turn's prompt was injected: the exact terminal, process and binding it
// was sent to, the prompt's hash (watchers.PromptHash) and the bound
// file's boundary before the send. Completion is then proven only by
// evidence after that boundary correlated with this prompt.
type TurnSpec struct {
	TurnID, SessionID, TerminalID string
	Controller                    string
	Agent                         string
	Incarnation                   string
	BindingGen                    uint64
	PromptSHA256                  [32]byte
	// NativeTurnID is the agent's turn once the file accepted the prompt
	// (Codex turn_id, Claude the prompt record's uuid).
	NativeTurnID string
	// Path is the bound file's path (for catching up on its lines).
	Path    string
	File    evidence.FileID
	Start   int64
	Created time.Time
	// Deadline is the hard timeout (zero: Created + Config.HardTimeout).
	Deadline time.Time
	Routes   []string // nil: its owner's routes (outbox.Config.RoutesFor)
	// Reason is why a settled Turn ended, as the ledger recorded it
	// (completed, exited, binding_changed, hard_timeout, closed...);
	// EndedWithText that the agent's own text had the last word.
	Reason        string
	EndedWithText bool
	// Round counts the answers that continued the Turn; Resumed is when
	// the last was sent (the hard deadline counts from the later of it
	// and Created).
	Round   int
	Resumed time.Time
}

// TurnEnd is how a Turn ended, as the ledger records it.
type TurnEnd struct {
	State, Reason string
	At            time.Time
	// EndedWithText: the agent's own text had the last word, so an
	// answer may continue the Turn; End is then the offset just past the
	// line that ended the native turn (anything the file takes after it
	// is a later prompt's).
	EndedWithText bool
	End           int64
}

// Managed Turn states the monitor ends in.
const (
	TurnRunning   = "running"
	TurnCompleted = "completed"
	TurnFailed    = "failed"
	TurnCancelled = "cancelled"
	TurnTimedOut  = "timed_out"
	// TurnUnproven: a send answered pending whose request the agent's
	// file never showed within the inactivity window (seed 003: zero
	// matches stay pending, then unproven); never sent again.
	TurnUnproven = "unproven"
	TurnClosed   = "closed"
)

// TurnLedger is the durable side of managed Turns (the dispatch path's
// store.Turn records). The monitor reads the open Turns at start and
// writes each Turn's end through it.
type TurnLedger interface {
	// OpenTurns lists the Turns still under management.
	OpenTurns() ([]TurnSpec, error)
	// TurnState returns a Turn's spec and state (store.ErrNotFound: none).
	TurnState(turnID string) (TurnSpec, string, error)
	// SettleTurn records a Turn's end, or its release by Close (state
	// closed).
	SettleTurn(turnID string, end TurnEnd) error
	// Promote records that the agent's file showed a pending Turn's
	// request (as its native turn).
	Promote(turnID, nativeTurn string, at time.Time) error
}

// SetTurnLedger installs the managed Turns' ledger (before Run).
func (t *Manager) SetTurnLedger(l TurnLedger) { t.ledger = l }

// turnState is a monitored Turn.
type turnState struct {
	spec     TurnSpec
	lastSeen time.Time // the last activity (output, evidence)
	outBytes int64
	stalls   int // stall notifications so far
	stalled  bool
	// endedWithText: the native turn's end that settles it came after
	// the agent's own text (TurnCompleted.EndedWithText), written in the
	// line that ends at endOffset.
	endedWithText bool
	endOffset     int64
	// rest: the native turn's last reply, which ended it if the screen
	// rests after it (an agent whose file writes no end of turn).
	rest *restingReply
	// handoff: why a person took the Turn over (interrupted it, switched
	// its conversation away); the Turn waits for its controller's decision
	// (handoff.go). "" while akk manages it.
	handoff string
}

// event names a notification of this Turn's current round: an answer
// that continues the Turn starts a new round, whose notifications must
// not be taken for the earlier round's (their ids derive from the name).
func (tr *turnState) event(name string) string {
	if tr.spec.Round == 0 {
		return name
	}
	return name + "@" + strconv.Itoa(tr.spec.Round)
}

// MonitorTurn starts monitoring a Turn (the send path calls it once the
// Turn is durably accepted; again after a restart is harmless).
func (t *Manager) MonitorTurn(spec TurnSpec) {
	t.opMu.Lock()
	defer t.opMu.Unlock()
	t.addTurn(spec)
	t.poke()
}

func (t *Manager) addTurn(spec TurnSpec) {
	if spec.Deadline.IsZero() {
		spec.Deadline = spec.Created.Add(t.cfg.HardTimeout)
		if spec.Resumed.After(spec.Created) {
			spec.Deadline = spec.Resumed.Add(t.cfg.HardTimeout)
		}
	}
	if spec.Routes == nil {
		spec.Routes = t.routes(spec.Controller)
	}
	if _, ok := t.turns[spec.TurnID]; !ok {
		t.turns[spec.TurnID] = &turnState{spec: spec, lastSeen: t.now()}
	}
}

// loadTurns resumes the open Turns of the ledger.
func (t *Manager) loadTurns() error {
	if t.ledger == nil {
		return nil
	}
	specs, err := t.ledger.OpenTurns()
	if err != nil {
		return err
	}
	for _, sp := range specs {
		t.addTurn(sp)
		// What the agent wrote while no daemon ran is read now: the
		// binder's stream starts at the file's end.
		t.catchUp(t.turns[sp.TurnID])
	}
	return nil
}

// catchUp replays the bound file's complete lines into a Turn. Evidence
// the binder delivered before the monitor followed the Turn is otherwise
// lost: a short Claude turn can be written, end included, within the
// second that acceptance takes to find a first transcript, and a restart
// misses what was written while down. The Turn would then never settle.
// Replaying a line the stream also delivers is harmless: the Turn's
// native id is set once, and it ends once.
//
// A Turn whose file was not known at its send (Claude's first prompt,
// pending) adopts the bound path's file from its start, as the stream's
// binding change would: its prompt's hash must still be found there.
func (t *Manager) catchUp(tr *turnState) {
	if tr == nil || tr.spec.Path == "" {
		return
	}
	sp := tr.spec
	var evs []evidence.Event
	file, _, err := readEvidence(evidence.Agent(sp.Agent), sp.Path, func(_ evidence.Where, ev evidence.Event) {
		evs = append(evs, ev)
	})
	switch {
	case err != nil:
		return
	case sp.File == (evidence.FileID{}) && sp.NativeTurnID == "":
		tr.spec.File, tr.spec.Start = file, 0
	case file != sp.File:
		return // another file now: the stream's binding change decides
	}
	for _, ev := range evs {
		if t.turns[sp.TurnID] != tr {
			return // ended
		}
		t.turnEvidence(tr, boundEvidence{terminalID: sp.TerminalID, gen: tr.spec.BindingGen, ev: ev})
	}
}

// rebound catches up the Turns and exact Watches of a terminal whose file
// was bound afresh (FileBound): what was written while it was unbound
// reaches no stream. Each reads only its own file (same identity).
func (t *Manager) rebound(terminalID, path string) {
	for _, tr := range t.turns {
		if tr.spec.TerminalID == terminalID && tr.spec.Path == path {
			t.catchUp(tr)
		}
	}
	for _, w := range t.watches {
		if a := w.rec.Anchor; w.rec.TerminalID == terminalID && a != nil && a.Path == path {
			t.reconcileAnchor(w)
		}
	}
}

func (t *Manager) turnObserved(tr *turnState, o terminal.Observation) {
	switch {
	case o.Screen == contract.ScreenExited:
		t.endTurn(tr, TurnFailed, api.CallbackError, api.CallbackFailed, ReasonExited, o.At)
		return
	case o.Incarnation != tr.spec.Incarnation:
		t.endTurn(tr, TurnFailed, api.CallbackError, api.CallbackFailed, ReasonProcessChanged, o.At)
		return
	case switchedAway(tr.spec, o.Bind):
		t.handoff(tr, ReasonHumanContextSwitch, o.At)
		return
	case tr.handoff != "":
		return
	}
	if o.OutBytes != tr.outBytes {
		tr.outBytes, tr.lastSeen, tr.stalled = o.OutBytes, o.At, false
	}
	tr.rest.observe(o)
	t.host.Asked(tr.spec, o.Interaction)
	// A managed Turn wakes its controller for every distinct prompt:
	// approvals included (approve by turn_id), manual ones as such.
	t.interactionSeen(tr.spec.TurnID, o, func(in *contract.Interaction, at time.Time) {
		event := api.CallbackInteractionManual
		if in.State == contract.StatePending {
			event = api.CallbackInteractionRequired
		}
		env := tr.envelope(api.CallbackBlocked, event, "", at)
		env.Interaction = in
		t.notes.notify(env, tr.event("interaction:"+in.InteractionID), tr.spec.Routes, store.TaskChange{})
	})
	t.blockSeen(tr.spec.TurnID, o, t.turnBlock(tr))
}

// turnEvidence correlates the bound file's evidence with the Turn: the
// prompt accepted after the boundary with the Turn's hash names the native
// turn; only that turn's end settles the Turn.
func (t *Manager) turnEvidence(tr *turnState, e boundEvidence) {
	at := e.ev.At()
	now := t.now()
	if e.gen != tr.spec.BindingGen && tr.spec.File != (evidence.FileID{}) && at.File == tr.spec.File {
		// The Turn's own file under a later binding (bound again after a
		// moment that named none): the same conversation.
		tr.spec.BindingGen = e.gen
	}
	if e.gen != tr.spec.BindingGen {
		if tr.spec.File != (evidence.FileID{}) || tr.spec.NativeTurnID != "" {
			// Evidence of another file: the person switched the
			// conversation (a transition by akk waits for no Turn).
			t.handoff(tr, ReasonHumanContextSwitch, now)
			return
		}
		// A Turn sent before its agent had a file (Claude's first prompt
		// creates the transcript) follows the binding to the new file
		// once, from its start: the prompt's hash must still be found
		// there before any end of turn counts.
		tr.spec.BindingGen, tr.spec.File, tr.spec.Start = e.gen, at.File, 0
	}
	if at.File != tr.spec.File || at.End <= tr.spec.Start || tr.handoff != "" {
		return
	}
	tr.lastSeen, tr.stalled = now, false
	native := tr.spec.NativeTurnID
	tr.rest = nil // the file moved on past the reply
	switch ev := e.ev.(type) {
	case evidence.ReplyEnded:
		if native != "" && ev.TurnID == native {
			tr.rest = t.restAfter(tr.spec.TerminalID, ev, now)
		}
	case evidence.PromptAccepted:
		if native == "" && ev.SHA256 == tr.spec.PromptSHA256 {
			tr.spec.NativeTurnID = ev.TurnID
			if t.ledger != nil {
				if err := t.ledger.Promote(tr.spec.TurnID, ev.TurnID, now); err != nil {
					t.lg.Error("promote turn", "turn", tr.spec.TurnID, "err", err)
				}
			}
		}
	case evidence.TurnCompleted:
		if native != "" && ev.TurnID == native {
			tr.endedWithText, tr.endOffset = ev.EndedWithText, at.End
			t.endTurn(tr, TurnCompleted, api.CallbackDone, api.CallbackCompleted, ReasonCompleted, now)
		}
	case evidence.TurnAborted:
		if native != "" && ev.TurnID == native {
			if !t.akkInterrupted(tr.spec.TurnID) {
				// A person interrupted the Turn in the pane (Esc): they took
				// it over; the controller decides (handoff.go).
				t.handoff(tr, ReasonHumanInterrupt, now)
				return
			}
			t.endTurn(tr, TurnCancelled, api.CallbackControl, api.CallbackAborted, ReasonAborted, now)
		}
	case evidence.TurnFailed:
		if native != "" && ev.TurnID == native {
			t.endTurn(tr, TurnFailed, api.CallbackError, api.CallbackFailed, ReasonFailed, now)
		}
	}
}

// turnTimers: a hard timeout ends the Turn; an inactivity window without
// output or evidence sends one stall notification per quiet spell.
func (t *Manager) turnTimers(tr *turnState, now time.Time) time.Time {
	if !now.Before(tr.spec.Deadline) {
		t.endTurn(tr, TurnTimedOut, api.CallbackControl, api.CallbackTimeout, "hard_timeout", now)
		return time.Time{}
	}
	if tr.handoff != "" {
		return tr.spec.Deadline // the decision is the controller's; only the deadline still runs
	}
	stallAt := tr.lastSeen.Add(t.cfg.StallAfter)
	if tr.spec.NativeTurnID == "" && tr.spec.Path != "" && !now.Before(stallAt) {
		// No record of the request in the agent's file for a whole
		// inactivity window: it is not the agent's turn that is quiet,
		// it is the request that was never shown to be taken.
		t.endTurn(tr, TurnUnproven, api.CallbackError, TurnUnproven, ReasonUnproven, now)
		return time.Time{}
	}
	due := tr.rest.due(t.cfg.ReplyRest)
	if !due.IsZero() && !now.Before(due) {
		tr.endedWithText, tr.endOffset = tr.rest.text, tr.rest.end.End
		t.endTurn(tr, TurnCompleted, api.CallbackDone, api.CallbackCompleted, ReasonCompleted, now)
		return time.Time{}
	}
	if !tr.stalled && !now.Before(stallAt) {
		tr.stalled = true
		tr.stalls++
		env := tr.envelope(api.CallbackProgress, api.CallbackStalled, "no_activity", now)
		t.notes.notify(env, tr.event("stalled:"+strconv.Itoa(tr.stalls)), tr.spec.Routes, store.TaskChange{})
	}
	next := tr.spec.Deadline
	if !tr.stalled && stallAt.Before(next) {
		next = stallAt
	}
	if !due.IsZero() && due.Before(next) {
		next = due // the pane is quiet: no pass comes to look again
	}
	return next
}

// endTurn records the Turn's end through the ledger and enqueues its one
// terminal notification.
func (t *Manager) endTurn(tr *turnState, state, typ, event, reason string, now time.Time) {
	delete(t.turns, tr.spec.TurnID)
	t.host.Asked(tr.spec, nil)
	delete(t.held, tr.spec.TurnID)
	delete(t.blocks, tr.spec.TurnID)
	if t.ledger != nil {
		end := TurnEnd{State: state, Reason: reason, At: now, EndedWithText: tr.endedWithText, End: tr.endOffset}
		if err := t.ledger.SettleTurn(tr.spec.TurnID, end); err != nil {
			t.lg.Error("settle turn", "turn", tr.spec.TurnID, "err", err)
		}
	}
	ev := store.Event{Type: api.EventTurnSettled, TerminalID: tr.spec.TerminalID,
		Attrs: map[string]string{"turn_id": tr.spec.TurnID, "state": state, "reason": reason}}
	env := tr.envelope(typ, event, reason, now)
	env.Answerable = tr.endedWithText
	t.notes.notify(env, tr.event("settled"), tr.spec.Routes, store.TaskChange{Events: []store.Event{ev}})
}

// envelope is the callback envelope of one of the Turn's notifications.
func (tr *turnState) envelope(typ, event, reason string, now time.Time) api.CallbackEnvelope {
	return api.CallbackEnvelope{Type: typ, Event: event, Reason: reason, Confidence: api.ConfidenceExact,
		TaskKind: TaskManagedTurn, TurnID: tr.spec.TurnID, SessionID: tr.spec.SessionID,
		TerminalID: tr.spec.TerminalID, Time: now}
}

// turnRecord reads a Turn from the monitor or the ledger.
func (t *Manager) turnRecord(id string) (TurnSpec, string, error) {
	if tr := t.turns[id]; tr != nil {
		return tr.spec, TurnRunning, nil
	}
	if t.ledger == nil {
		return TurnSpec{}, "", api.Errorf(api.CodeNotFound, "no turn %s (no managed Turns in this daemon)", id)
	}
	sp, st, err := t.ledger.TurnState(id)
	if errors.Is(err, store.ErrNotFound) {
		return sp, st, api.Errorf(api.CodeNotFound, "no turn %s", id)
	}
	return sp, st, err
}

// Close answers POST /v1/close: release a managed Turn (stop observing,
// withdraw what is not dispatched). It does not claim the native task
// failed and does not cancel it. A Watch must use Unwatch; closed
// management cannot be reopened.
func (t *Manager) Close(ctx context.Context, req api.CloseRequest) (api.Task, error) {
	if req.TurnID == "" {
		return api.Task{}, api.Errorf(api.CodeBadRequest, "close: turn_id is required (a Watch is ended with unwatch)")
	}
	t.opMu.Lock()
	defer t.opMu.Unlock()
	sp, state, err := t.turnRecord(req.TurnID)
	if err != nil {
		return api.Task{}, err
	}
	if state == TurnClosed {
		return api.Task{}, api.Errorf(api.CodeConflict, "close: turn %s is already closed", req.TurnID)
	}
	reason := ReasonClosed
	switch req.Reason {
	case "":
	case ReasonSuperseded:
		// The decision is revalidated: the Turn's handoff is open and the
		// terminal's conversation is still not the Turn's.
		tr := t.turns[req.TurnID]
		if tr == nil || tr.handoff == "" {
			return api.Task{}, api.Errorf(api.CodeConflict, "close: turn %s has no open handoff decision (state %s)", req.TurnID, state)
		}
		if o, ok := t.host.Observation(sp.TerminalID); ok && o.Incarnation == sp.Incarnation && !switchedAway(sp, o.Bind) {
			return api.Task{}, api.Errorf(api.CodeConflict, "close: the terminal runs the turn's conversation (%s): no context switch to settle; close without a reason releases the turn", tr.handoff)
		}
		reason = ReasonSuperseded
	default:
		return api.Task{}, api.Errorf(api.CodeBadRequest, "close: reason %q is not one akk knows (only %s)", req.Reason, ReasonSuperseded)
	}
	now := t.now()
	delete(t.turns, req.TurnID)
	t.host.Asked(sp, nil)
	delete(t.held, req.TurnID)
	if t.ledger != nil {
		if err := t.ledger.SettleTurn(req.TurnID, TurnEnd{State: TurnClosed, Reason: reason, At: now}); err != nil {
			return api.Task{}, err
		}
	}
	if _, err := t.st.Withdraw(req.TurnID, now); err != nil {
		return api.Task{}, err
	}
	sp.Reason = reason
	return t.turnTask(sp, TurnClosed)
}

// renewTurn refreshes a running Turn's inactivity window; it cannot pass
// the Turn's hard deadline, and a closed or ended Turn is refused.
func (t *Manager) renewTurn(ctx context.Context, req api.RenewRequest) (api.Task, error) {
	t.opMu.Lock()
	defer t.opMu.Unlock()
	sp, state, err := t.turnRecord(req.TurnID)
	if err != nil {
		return api.Task{}, err
	}
	tr := t.turns[req.TurnID]
	if tr == nil {
		return api.Task{}, api.Errorf(api.CodeConflict, "renew: turn %s is %s", req.TurnID, state)
	}
	tr.lastSeen, tr.stalled = t.now(), false
	t.poke()
	return t.turnTask(sp, state)
}

// recoverTurn re-reads a running Turn's terminal and reschedules its
// open notifications; it changes no deadline and refuses a closed Turn.
func (t *Manager) recoverTurn(ctx context.Context, req api.RecoverRequest) (api.Task, error) {
	t.opMu.Lock()
	defer t.opMu.Unlock()
	sp, state, err := t.turnRecord(req.TurnID)
	if err != nil {
		return api.Task{}, err
	}
	if state == TurnClosed {
		return api.Task{}, api.Errorf(api.CodeConflict, "recover: turn %s is closed", req.TurnID)
	}
	if tr := t.turns[req.TurnID]; tr != nil {
		if o, ok := t.host.Observation(sp.TerminalID); ok {
			t.turnObserved(tr, o)
		} else {
			t.endTurn(tr, TurnFailed, api.CallbackError, api.CallbackFailed, ReasonExited, t.now())
		}
	}
	open, err := t.st.Notifications(func(n *store.Notification) bool { return n.Subject == req.TurnID && !n.Final() })
	if err != nil {
		return api.Task{}, err
	}
	t.notes.schedule(open...)
	if now, st, err := t.turnRecord(req.TurnID); err == nil {
		sp, state = now, st // settled by the look just taken
	}
	return t.turnTask(sp, state)
}
