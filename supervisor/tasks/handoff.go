package tasks

import (
	"slices"
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/supervisor/terminal"
	"github.com/agent-knock-knock/akk/watchers/evidence"
)

// Human handoff (seed 003 "Human Handoff"): a person took a managed Turn
// over in the pane: interrupted it (Esc: the agent's own record says the
// turn was aborted, and akk sent no cancel or reject for it), or switched
// the agent's conversation (/clear, /new, /resume) while it ran. That is
// a decision for the Turn's controller, not an end akk declares on its
// own: the Turn stops following evidence, Status shows the decision, one
// blocked wake-up (handoff_required) tells the controller, and
// close({turn_id, reason: superseded_by_human_context_switch}) settles it
// once after a fresh check that the switch still stands (a plain close
// releases any Turn).

// Handoff values.
const (
	// TurnHandoff is the state Status shows a Turn in while its handoff
	// decision is open (the Turn is still managed, not settled).
	TurnHandoff = "handoff_required"
	// ReasonHumanContextSwitch: the pane's conversation is no longer the
	// Turn's.
	ReasonHumanContextSwitch = "human_context_switch"
	// ReasonHumanInterrupt: a person interrupted the Turn in the pane.
	ReasonHumanInterrupt = "human_interrupt"
	// ReasonSuperseded is how a handoff closes.
	ReasonSuperseded = api.CloseSupersededByHuman
)

// switchedAway says whether the binding in o proves the Turn's
// conversation left the pane: the Turn was bound to a file, and the
// terminal's binding now names another one (resolved elsewhere, or
// ambiguous among others only). A binding that names none is no proof:
// a rollout not open for a moment, or open before its first line, reads
// as verified_absent or unavailable, and the evidence of the Turn's own
// file goes on (a loaded CI run of TestLiveHostLoop handed a plain Turn
// off so). An ambiguous binding that still counts the Turn's file proves
// no switch either: Codex keeps every rollout of its process open, and
// one it left that grows again (a line written late) makes two fit while
// the Turn's own goes on (a CI run of TestLiveResumeCrash). A person's
// /new in a running Codex shows as the Turn's abort; Claude's /clear as a
// transcript resolved elsewhere.
func switchedAway(sp TurnSpec, b terminal.Binding) bool {
	if sp.Path == "" || sp.File == (evidence.FileID{}) || b.Generation == sp.BindingGen {
		return false
	}
	switch b.State {
	case contract.IdentityResolved:
		return b.Path != sp.Path
	case contract.IdentityAmbiguous:
		return !slices.ContainsFunc(b.Candidates, func(c terminal.BindingCandidate) bool { return c.Path == sp.Path })
	}
	return false
}

// openHandoff opens the Turn's handoff decision for why, or moves an
// open one on to a context switch; the controller is woken once.
func (tr *turnState) openHandoff(k *kit, why string, now time.Time) {
	if tr.handoff == why || tr.handoff == ReasonHumanContextSwitch {
		return
	}
	first := tr.handoff == ""
	tr.handoff = why
	ev := store.Event{Type: api.EventTurnHandoff, TerminalID: tr.spec.TerminalID,
		Attrs: map[string]string{"turn_id": tr.spec.TurnID, "reason": why}}
	k.lg.Info("turn handoff", "turn", tr.spec.TurnID, "terminal", tr.spec.TerminalID, "reason", why)
	if !first {
		if _, err := k.notes.commit(store.TaskChange{Events: []store.Event{ev}}); err != nil {
			k.lg.Error("handoff event", "turn", tr.spec.TurnID, "err", err)
		}
		return
	}
	k.host.Asked(tr.spec, nil)
	v := tr.voice()
	k.say(v, v.envelope(api.CallbackBlocked, api.CallbackHandoff, why, now), "handoff", store.TaskChange{Events: []store.Event{ev}})
}

// handoffDecision is what Status shows of an open handoff: close settles
// a context switch with its reason; an interrupt alone is released with a
// plain close (or goes on to a switch).
func handoffDecision(sp TurnSpec, why string) *api.Handoff {
	args := map[string]any{"turn_id": sp.TurnID}
	if why == ReasonHumanContextSwitch {
		args["reason"] = ReasonSuperseded
	}
	return &api.Handoff{Reason: why, Decision: api.Action{Tool: api.ToolClose, Arguments: args}}
}

// akkInterrupted says whether akk itself interrupted the Turn: its cancel,
// or a reject it sent (Claude Code's No ends the native turn as
// interrupted). An unreadable store keeps the old rule: akk's.
func (k *kit) akkInterrupted(turnID string) bool {
	rs, err := k.st.Reservations()
	if err != nil {
		return true
	}
	for _, r := range rs {
		if r.TurnID == turnID && r.Stage != store.StageRejected &&
			(r.Op == "cancel" || r.Op == "approve" && r.Choice == string(contract.DecisionReject)) {
			return true
		}
	}
	return false
}
