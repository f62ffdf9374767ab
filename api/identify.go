package api

import (
	"log/slog"
	"time"
)

// Foreground identification (seed 003, issue 22): a Codex process that
// holds several rollouts open (a person's /new or /resume: Codex keeps
// every rollout it wrote open until it exits) leaves its terminal's
// binding ambiguous. identify_foreground runs the agent's closed /status
// once and reports the thread it names as a diagnostic proof;
// identify_and_send runs that probe and then, under the same terminal
// lock, one ordinary managed send, whose durable identity still comes only
// from the rollout that accepts the exact request.
//
// The proof is no authority: no operation accepts it back. Both create no
// Session or Turn by the probe alone; identify_and_send's Turn is the
// send's.

// Operations, tools and bounds of foreground identification.
const (
	OpIdentifyForeground   = "identify_foreground"
	ToolIdentifyForeground = "agent_knock_knock_identify_foreground"
	OpIdentifyAndSend      = "identify_and_send"
	ToolIdentifyAndSend    = "agent_knock_knock_identify_and_send"
	// ForegroundProofTTL is how long a proof describes the pane: it is
	// diagnostic, and expires with the screen it was read on.
	ForegroundProofTTL = 30 * time.Second
)

// Reasons of foreground identification (a reason's code is the text
// before its first colon).
const (
	ReasonIdentifyUnsupported = "identify_unsupported"     // not Codex: its binding never needs a probe
	ReasonNotAmbiguous        = "binding_not_ambiguous"    // the binding names one conversation (or none): nothing to identify
	ReasonNotCandidate        = "foreground_not_candidate" // /status names a thread none of the ambiguous rollouts holds
	ReasonForegroundUnproven  = "foreground_unproven"      // the probe's result is not one status the profile reads
	ReasonBoundaryChanged     = "boundary_changed"         // between the probe and the task the pane moved on
	ReasonVersionChanged      = "version_changed"          // the agent's version is not the one probed
	ReasonAcceptedElsewhere   = "accepted_elsewhere"       // a rollout other than the /status one took the request
)

// IdentifyForegroundRequest is POST /v1/identify_foreground: exactly the
// advertised terminal_id.
type IdentifyForegroundRequest struct {
	TerminalID string `json:"terminal_id"`
}

// IdentifyAndSendRequest is POST /v1/identify_and_send: the advertised
// terminal_id and one request (a send's text rules).
type IdentifyAndSendRequest struct {
	TerminalID string `json:"terminal_id"`
	Request    string `json:"request"`
}

// LogValue of identify_and_send: its terminal and the request's length.
func (r IdentifyAndSendRequest) LogValue() slog.Value {
	return slog.GroupValue(slog.String("terminal_id", r.TerminalID), slog.Int("request_len", len(r.Request)))
}

// String is LogValue as text.
func (r IdentifyAndSendRequest) String() string { return r.LogValue().String() }

// ForegroundProof is what one /status probe showed of an ambiguous Codex
// pane, and what it was bound to. It is diagnostic: it expires at
// ExpiresAt and grants nothing (no call takes it).
type ForegroundProof struct {
	// NativeThreadID is the status card's Session row: the thread the
	// agent's foreground runs.
	NativeThreadID string `json:"native_thread_id"`
	// Candidate: one of the binding's ambiguous rollouts holds that
	// thread (CandidatePath); otherwise the foreground is a thread the
	// process has not written yet, or one akk cannot see.
	Candidate     bool   `json:"candidate"`
	CandidatePath string `json:"candidate_path,omitempty"`
	// Candidates counts the rollouts the binding was ambiguous between.
	Candidates        int       `json:"candidates"`
	TerminalID        string    `json:"terminal_id"`
	Incarnation       string    `json:"incarnation"`
	Cwd               string    `json:"cwd"`
	Agent             string    `json:"agent"`
	Version           string    `json:"version"`
	BindingGeneration uint64    `json:"binding_generation"`
	ScreenGeneration  uint64    `json:"screen_generation"`
	ObservedAt        time.Time `json:"observed_at"`
	ExpiresAt         time.Time `json:"expires_at"`
}
