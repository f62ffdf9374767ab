package api

import (
	"time"

	"github.com/agent-knock-knock/akk/contract"
)

// Native thread transitions (seed 003 "Native Thread Transitions"): a new
// conversation, or an earlier one resumed, in the agent's own pane through
// its closed native command. They are Session-lifecycle steps, not sends:
// they create no Turn.

// Operations and tools of the transitions.
const (
	OpNewThread        = "new_thread"
	OpResumeThread     = "resume_thread"
	ToolNewThread      = "agent_knock_knock_new_thread"
	ToolResumeThread   = "agent_knock_knock_resume_thread"
	ToolReconcile      = "agent_knock_knock_reconcile_binding"
	ToolClose          = "agent_knock_knock_close"
	MaxThreadCandidate = 20
	// CandidateSnapshotTTL is how long human numbers and short refs of a
	// candidate listing resolve to full ids.
	CandidateSnapshotTTL = 5 * time.Minute
)

// Reasons of refused transitions (with ReasonUnknownVersion, ReasonNotIdle,
// ReasonComposerNotEmpty, ReasonBindingChanged...).
const (
	ReasonTurnActive      = "turn_active"       // an active or unresolved Turn or dispatch on the terminal
	ReasonStaleCandidates = "stale_candidates"  // the candidate set changed since the listing
	ReasonNotResumable    = "not_resumable"     // another workspace, archived, active in another process, or the current one
	ReasonNotStale        = "binding_not_stale" // reconcile: the binding is not proven stale
)

// Close reasons a controller may give.
const (
	// CloseSupersededByHuman settles a Turn in handoff: a person switched
	// the agent's conversation while it ran.
	CloseSupersededByHuman = "superseded_by_human_context_switch"
)

// NewThreadRequest is POST /v1/new_thread.
type NewThreadRequest struct {
	TerminalID string `json:"terminal_id"`
}

// ResumeThreadRequest is POST /v1/resume_thread. NativeThreadID is the
// full id from the candidates; a human number or short ref is resolved by
// the CLI from its own listing (Ref), never by a model.
type ResumeThreadRequest struct {
	TerminalID     string `json:"terminal_id"`
	NativeThreadID string `json:"native_thread_id,omitempty"`
	// Ref is a human number ("2") or a short id prefix from a listing of
	// the last five minutes by the same controller.
	Ref string `json:"ref,omitempty"`
}

// ThreadCandidatesRequest is POST /v1/thread_candidates.
type ThreadCandidatesRequest struct {
	TerminalID string `json:"terminal_id"`
}

// ThreadCandidate is one resumable conversation of the terminal's agent.
type ThreadCandidate struct {
	Number         int       `json:"number"` // 1-based, in this listing
	NativeThreadID string    `json:"native_thread_id"`
	ShortRef       string    `json:"short_ref"` // the shortest unique prefix, at least 8
	Title          string    `json:"title"`
	UpdatedAt      time.Time `json:"updated_at"`
	// Previous: the conversation the last committed transition left.
	Previous bool `json:"previous,omitempty"`
}

// ThreadCandidates is the listing: newest first, at most 20.
type ThreadCandidates struct {
	V          int               `json:"v"`
	TerminalID string            `json:"terminal_id"`
	Candidates []ThreadCandidate `json:"candidates"`
	// ExpiresAt bounds the listing's numbers and short refs.
	ExpiresAt time.Time `json:"expires_at"`
}

// ThreadFacts are what a transition reports (on ActionResult).
type ThreadFacts struct {
	PreviousNativeThreadID string `json:"previous_native_thread_id,omitempty"`
	// NativeThreadID is the conversation entered; empty after Codex's
	// /new until the first prompt writes its rollout.
	NativeThreadID    string `json:"native_thread_id,omitempty"`
	BindingGeneration uint64 `json:"binding_generation"`
	// NativeIdentityState is the binding's state after the transition.
	NativeIdentityState contract.Identity `json:"native_identity_state"`
}

// ReconcileBindingRequest is POST /v1/reconcile_binding: detach the
// terminal's proven stale binding to a session a person left.
type ReconcileBindingRequest struct {
	TerminalID           string `json:"terminal_id"`
	ConflictingSessionID string `json:"conflicting_session_id"`
}
