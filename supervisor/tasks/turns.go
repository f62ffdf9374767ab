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

// turnState is a monitored Turn, a follower.
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
	seen    alerts
}

// newTurn is the monitor's state of a Turn sent at now: its hard deadline
// counts from the later of its creation and its last answer, and a spec
// with no routes of its own takes its owner's.
func newTurn(spec TurnSpec, hard time.Duration, routes func(owner string) []string, now time.Time) *turnState {
	if spec.Deadline.IsZero() {
		spec.Deadline = spec.Created.Add(hard)
		if spec.Resumed.After(spec.Created) {
			spec.Deadline = spec.Resumed.Add(hard)
		}
	}
	if spec.Routes == nil {
		spec.Routes = routes(spec.Controller)
	}
	return &turnState{spec: spec, lastSeen: now}
}

// voice: a managed Turn wakes its controller for every distinct prompt,
// approvals included (approve by turn_id); an answer that continues the
// Turn starts a new round, whose events are named apart.
func (tr *turnState) voice() voice {
	return voice{subject: tr.spec.TurnID, routes: tr.spec.Routes, round: tr.spec.Round,
		answers: true, approves: true, ownInterrupts: true,
		base: api.CallbackEnvelope{Confidence: api.ConfidenceExact, TaskKind: TaskManagedTurn, TurnID: tr.spec.TurnID,
			SessionID: tr.spec.SessionID, TerminalID: tr.spec.TerminalID}}
}

func (tr *turnState) alerts() *alerts { return &tr.seen }

// observed folds one observation of the Turn's terminal.
func (tr *turnState) observed(k *kit, o terminal.Observation) {
	switch {
	case o.Screen == contract.ScreenExited:
		tr.end(k, TurnFailed, api.CallbackError, api.CallbackFailed, ReasonExited, o.At)
		return
	case o.Incarnation != tr.spec.Incarnation:
		tr.end(k, TurnFailed, api.CallbackError, api.CallbackFailed, ReasonProcessChanged, o.At)
		return
	case switchedAway(tr.spec, o.Bind):
		tr.openHandoff(k, ReasonHumanContextSwitch, o.At)
		return
	case tr.handoff != "":
		return
	}
	if o.OutBytes != tr.outBytes {
		tr.outBytes, tr.lastSeen, tr.stalled = o.OutBytes, o.At, false
	}
	tr.rest.observe(o)
	k.host.Asked(tr.spec, o.Interaction)
	k.heed(tr, o)
}

// evidence correlates the bound file's evidence with the Turn: the prompt
// accepted after the boundary with the Turn's hash names the native turn;
// only that turn's end settles the Turn. The file bound afresh is read
// again (catchUp).
func (tr *turnState) evidence(k *kit, e boundEvidence) {
	if fb, ok := e.ev.(fileBound); ok {
		if tr.spec.Path == fb.where.Path {
			tr.catchUp(k)
		}
		return
	}
	at := e.ev.At()
	now := k.now()
	if e.gen != tr.spec.BindingGen && tr.spec.File != (evidence.FileID{}) && at.File == tr.spec.File {
		// The Turn's own file under a later binding (bound again after a
		// moment that named none): the same conversation.
		tr.spec.BindingGen = e.gen
	}
	if e.gen != tr.spec.BindingGen {
		if tr.spec.File != (evidence.FileID{}) || tr.spec.NativeTurnID != "" {
			// Evidence of another file: the person switched the
			// conversation (a transition by akk waits for no Turn).
			tr.openHandoff(k, ReasonHumanContextSwitch, now)
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
	tr.rest = nil // the file moved on past the reply
	tr.native(k, e.ev, at, now)
}

// native folds an event of the Turn's own file after its boundary.
func (tr *turnState) native(k *kit, ev evidence.Event, at evidence.Where, now time.Time) {
	native := tr.spec.NativeTurnID
	switch ev := ev.(type) {
	case evidence.ReplyEnded:
		if native != "" && ev.TurnID == native {
			tr.rest = k.last.restAfter(tr.spec.TerminalID, ev, now)
		}
	case evidence.PromptAccepted:
		if native == "" && ev.SHA256 == tr.spec.PromptSHA256 {
			tr.spec.NativeTurnID = ev.TurnID
			if k.ledger != nil {
				if err := k.ledger.Promote(tr.spec.TurnID, ev.TurnID, now); err != nil {
					k.lg.Error("promote turn", "turn", tr.spec.TurnID, "err", err)
				}
			}
		}
	case evidence.TurnCompleted:
		if native != "" && ev.TurnID == native {
			tr.endedWithText, tr.endOffset = ev.EndedWithText, at.End
			tr.end(k, TurnCompleted, api.CallbackDone, api.CallbackCompleted, ReasonCompleted, now)
		}
	case evidence.TurnAborted:
		if native != "" && ev.TurnID == native {
			if !k.akkInterrupted(tr.spec.TurnID) {
				// A person interrupted the Turn in the pane (Esc): they took
				// it over; the controller decides (handoff.go).
				tr.openHandoff(k, ReasonHumanInterrupt, now)
				return
			}
			tr.end(k, TurnCancelled, api.CallbackControl, api.CallbackAborted, ReasonAborted, now)
		}
	case evidence.TurnFailed:
		if native != "" && ev.TurnID == native {
			tr.end(k, TurnFailed, api.CallbackError, api.CallbackFailed, ReasonFailed, now)
		}
	}
}

// due: a hard timeout ends the Turn; an inactivity window without output
// or evidence sends one stall notification per quiet spell.
func (tr *turnState) due(k *kit, now time.Time) time.Time {
	if !now.Before(tr.spec.Deadline) {
		tr.end(k, TurnTimedOut, api.CallbackControl, api.CallbackTimeout, "hard_timeout", now)
		return time.Time{}
	}
	if tr.handoff != "" {
		return tr.spec.Deadline // the decision is the controller's; only the deadline still runs
	}
	stallAt := tr.lastSeen.Add(k.cfg.StallAfter)
	if tr.spec.NativeTurnID == "" && tr.spec.Path != "" && !now.Before(stallAt) {
		// No record of the request in the agent's file for a whole
		// inactivity window: it is not the agent's turn that is quiet,
		// it is the request that was never shown to be taken.
		tr.end(k, TurnUnproven, api.CallbackError, TurnUnproven, ReasonUnproven, now)
		return time.Time{}
	}
	due := tr.rest.due(k.cfg.ReplyRest)
	if !due.IsZero() && !now.Before(due) {
		tr.endedWithText, tr.endOffset = tr.rest.text, tr.rest.end.End
		tr.end(k, TurnCompleted, api.CallbackDone, api.CallbackCompleted, ReasonCompleted, now)
		return time.Time{}
	}
	if !tr.stalled && !now.Before(stallAt) {
		tr.stalled = true
		tr.stalls++
		v := tr.voice()
		k.say(v, v.envelope(api.CallbackProgress, api.CallbackStalled, "no_activity", now), "stalled:"+strconv.Itoa(tr.stalls), store.TaskChange{})
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

// end records the Turn's end through the ledger and enqueues its one
// terminal notification.
func (tr *turnState) end(k *kit, state, typ, event, reason string, now time.Time) {
	k.fs.drop(tr.spec.TurnID)
	k.host.Asked(tr.spec, nil)
	if k.ledger != nil {
		end := TurnEnd{State: state, Reason: reason, At: now, EndedWithText: tr.endedWithText, End: tr.endOffset}
		if err := k.ledger.SettleTurn(tr.spec.TurnID, end); err != nil {
			k.lg.Error("settle turn", "turn", tr.spec.TurnID, "err", err)
		}
	}
	ev := store.Event{Type: api.EventTurnSettled, TerminalID: tr.spec.TerminalID,
		Attrs: map[string]string{"turn_id": tr.spec.TurnID, "state": state, "reason": reason}}
	v := tr.voice()
	env := v.envelope(typ, event, reason, now)
	env.Answerable = tr.endedWithText
	k.say(v, env, "settled", store.TaskChange{Events: []store.Event{ev}})
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
func (tr *turnState) catchUp(k *kit) {
	if tr.spec.Path == "" {
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
		if !k.fs.has(tr) {
			return // ended
		}
		tr.evidence(k, boundEvidence{terminalID: sp.TerminalID, gen: tr.spec.BindingGen, ev: ev})
	}
}
