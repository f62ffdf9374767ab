package terminal

import (
	"github.com/agent-knock-knock/akk/agents/registry"
	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/recognizers"
)

// availableActions is Actions of the pane now. Called with mu held, for
// every row of every List: it builds only the fields Actions reads (no
// fence key, no copy of the identity).
func (m *Pane) availableActions() map[string]api.Action {
	v := View{ID: m.id, Ident: m.ident, Bind: m.bind, Rec: m.rec, ActiveTurn: m.activeTurn, Dead: m.dead}
	if m.ident != nil {
		v.SessionID, v.LeftSessionID = m.sessionID(), m.leftSessionID()
	}
	return Actions(v)
}

// sessionID is the AKK session id of the pane's resolved native session,
// or "". Called with mu held.
func (m *Pane) sessionID() string {
	if m.bind.State != contract.IdentityResolved || m.bind.SessionID == "" || m.ident.Replica {
		return ""
	}
	return SessionID(m.env.Secret, m.ident.Agent, m.bind.SessionID)
}

// leftSessionID is the AKK session of the conversation the terminal was
// bound to while its binding names none, or "". Called with mu held.
func (m *Pane) leftSessionID() string {
	if m.bind.State == contract.IdentityResolved || m.bind.Left == "" || m.ident.Replica {
		return ""
	}
	return SessionID(m.env.Secret, m.ident.Agent, m.bind.Left)
}

// Actions advertises what a controller may do with the terminal in v,
// with the exact semantic arguments (seed 003: copy them from list or
// status). It only advertises what the dispatch transaction could carry
// out on this screen; the transaction checks everything again.
func Actions(v View) map[string]api.Action {
	out := map[string]api.Action{}
	r := v.Rec
	if v.Ident == nil || v.Dead {
		return out
	}
	turn := v.ActiveTurn
	if in := r.Interaction; in != nil && in.State == contract.StatePending && r.Plan != nil {
		if in.Kind == contract.KindPermission {
			var decisions []contract.Decision
			for _, c := range r.Plan.Choices {
				if c.Decision != "" && (turn != "" || c.Decision == contract.DecisionApproveOnce) {
					decisions = append(decisions, c.Decision)
				}
			}
			if len(decisions) > 0 {
				args := map[string]any{"terminal_id": v.ID}
				if turn != "" {
					args = map[string]any{"turn_id": turn}
				}
				out["approve"] = api.Action{Tool: api.ToolApprove, Arguments: args, Decisions: decisions}
			}
		} else {
			args := map[string]any{"terminal_id": v.ID, "interaction_id": in.InteractionID}
			if turn != "" {
				args = map[string]any{"turn_id": turn, "interaction_id": in.InteractionID}
			}
			out["respond_interaction"] = api.Action{Tool: api.ToolRespond, Arguments: args}
		}
	}
	if Ready(r) && !NativeBusy(v) {
		out["send"] = api.Action{Tool: api.ToolSend, Arguments: map[string]any{"terminal_id": v.ID, "mode": api.SendFollowCurrent}}
		if v.SessionID != "" {
			out["send_session"] = api.Action{Tool: api.ToolSend, Arguments: map[string]any{"session_id": v.SessionID, "mode": api.SendSessionExact}}
		}
	}
	if UserSendable(r) {
		out["send_user_explicit"] = api.Action{Tool: api.ToolSend, Arguments: map[string]any{"terminal_id": v.ID, "mode": api.SendUserExplicit}}
	}
	if v.Ident.Agent != api.AgentNone && v.Ident.Agent != "" {
		// Any agent may be watched (exact_task when its request can be
		// anchored, else terminal_activity): a Watch never types.
		out["watch"] = api.Action{Tool: api.ToolWatch, Arguments: map[string]any{"terminal_id": v.ID}}
	}
	if turn != "" && r.Screen == contract.ScreenWorking {
		out["cancel"] = api.Action{Tool: api.ToolCancel, Arguments: map[string]any{"turn_id": turn}}
	}
	if ThreadReady(v) {
		out["new_thread"] = api.Action{Tool: api.ToolNewThread, Arguments: map[string]any{"terminal_id": v.ID}}
		// Status fills in the candidates (a listing scans the agent's files).
		out["resume_thread"] = api.Action{Tool: api.ToolResumeThread, Arguments: map[string]any{"terminal_id": v.ID}}
	}
	if InspectReady(v) {
		out["native_inspect"] = api.Action{Tool: api.ToolNativeInspect,
			Arguments: map[string]any{"terminal_id": v.ID, "inspection": api.InspectionStatus}}
	}
	identifyActions(v, out)
	modelActions(v, out)
	if v.LeftSessionID != "" {
		out["reconcile_binding"] = api.Action{Tool: api.ToolReconcile,
			Arguments: map[string]any{"terminal_id": v.ID, "conflicting_session_id": v.LeftSessionID}}
	}
	return out
}

// ThreadReady says whether v allows a native thread transition, and
// InspectReady a native status inspection: the version's profile for it,
// and nativeReady.
func ThreadReady(v View) bool {
	if !nativeReady(v) {
		return false
	}
	_, ok := recognizers.Threads(v.Ident.Agent, v.Ident.Version)
	return ok
}

// InspectReady: see ThreadReady.
func InspectReady(v View) bool {
	if !nativeReady(v) {
		return false
	}
	_, ok := recognizers.Inspect(v.Ident.Agent, v.Ident.Version)
	return ok
}

// nativeReady: an exact profile's idle agent with an empty composer, no
// managed Turn, and a binding that names its conversation (or verifiably
// none yet): what a native command needs besides its profile.
func nativeReady(v View) bool {
	r := v.Rec
	if v.Ident == nil || v.Ident.Replica || v.ActiveTurn != "" || !r.Exact || r.Screen != contract.ScreenIdle || r.Composer != contract.ComposerEmpty || NativeBusy(v) {
		return false
	}
	return v.Bind.State == contract.IdentityResolved || v.Bind.State == contract.IdentityVerifiedAbsent
}

// Ready says whether r takes a managed send: an exact profile's idle
// agent with its composer proven empty, or one that stopped on an API
// error, a limit or a person's Esc (blocked, Resumable) above that same
// composer. A block is the agent's own stop: akk never types there on its
// own, and the controller resumes with a normal send when it decides to
// (after limit_reset).
func Ready(r Recognition) bool {
	return r.Exact && r.Composer == contract.ComposerEmpty &&
		(r.Screen == contract.ScreenIdle || r.Screen == contract.ScreenBlocked && r.Blocked != nil && Resumable(r.Blocked.Reason) &&
			!r.Blocked.AutoContinue)
}

// Resumable: a block after which a new prompt is the way on. Not a
// missing login ("Not logged in · Run /login" sits above a composer
// too: every prompt would fail until a person logs in), nor a startup
// dialog (no composer).
func Resumable(reason string) bool {
	switch reason {
	case recognizers.BlockedRateLimited, recognizers.BlockedUsageLimit, recognizers.BlockedOverloaded,
		recognizers.BlockedAPIError, recognizers.BlockedInterrupted:
		return true
	}
	return false
}

// NativeBusy: the agent's own session file shows a turn in progress
// while its screen reads idle, for an agent that hides its working row
// while it streams a reply (Traits.HidesWorking): there an idle screen
// alone proves nothing while the record has a turn without its end. An
// agent that shows its spinner while it streams is read by its screen
// (Claude Code also writes its transcript out of order on some versions).
func NativeBusy(v View) bool {
	if v.Ident == nil {
		return false
	}
	a, ok := registry.Lookup(v.Ident.Agent)
	return ok && a.Traits().HidesWorking && v.Bind.DurableState(v.Ident) == contract.DurableWorking
}

// UserSendable says whether r allows a person's user-explicit send (seed
// 003): an exact profile's main composer owns the input, idle or working,
// and it is empty or holds a draft whose shape the profile proves it can
// clear. Any dialog, questionnaire, editor, menu or viewer owns the input
// instead: zero input.
func UserSendable(r Recognition) bool {
	switch {
	case !r.Exact || r.Interaction != nil && !CollapsedAsync(r):
		return false
	case r.Screen != contract.ScreenIdle && r.Screen != contract.ScreenWorking:
		return false
	}
	return r.Composer == contract.ComposerEmpty || r.Composer == contract.ComposerDraft && r.Clear != nil
}

// CollapsedAsync: the screen is Codex's main composer under a collapsed
// async-question summary ("? 2 questions / alt + ↑ to answer"), which
// the main composer owns (seed 003: sendable); its expanded editor is an
// async_question screen instead, which owns the input.
func CollapsedAsync(r Recognition) bool {
	return r.Interaction != nil && r.Interaction.Kind == contract.KindAsyncQuestion &&
		(r.Screen == contract.ScreenIdle || r.Screen == contract.ScreenWorking) && r.Composer != contract.ComposerAbsent
}
