package api

import (
	"time"

	"github.com/agent-knock-knock/akk/contract"
)

// CallbackSchema names the envelope every callback route delivers.
const CallbackSchema = "agent-knock-knock/callback"

// Callback message types (seed 003 "Message Types").
const (
	CallbackDone     = "done"     // the task completed (or, best_effort, the terminal became stably idle)
	CallbackBlocked  = "blocked"  // the task needs attention (an interaction)
	CallbackError    = "error"    // the task failed, or its Watch was invalidated
	CallbackControl  = "control"  // cancellation, abort, timeout, unwatch
	CallbackProgress = "progress" // reliable non-final progress (a stall)
)

// Callback events: what happened, finer than the type.
const (
	CallbackInteractionRequired = "interaction_required"
	CallbackInteractionManual   = "interaction_manual_required"
	CallbackCompleted           = "completed"
	CallbackFailed              = "failed"
	CallbackAborted             = "aborted"
	CallbackStalled             = "stalled"
	CallbackTimeout             = "timeout"
	CallbackInvalidated         = "invalidated"
	CallbackStablyIdle          = "terminal_activity_became_stably_idle"
	// CallbackHandoff: a person switched the Turn's conversation away; the
	// controller decides (close with superseded_by_human_context_switch).
	CallbackHandoff = "handoff_required"
	// CallbackAgentBlocked: the agent stopped on an API error or a limit
	// (type blocked, with the facts); CallbackLimitReset: the reset time
	// that screen printed has come (type progress): a fresh status may
	// find the agent ready again. akk itself sends nothing to the pane.
	CallbackAgentBlocked = "agent_blocked"
	CallbackLimitReset   = "limit_reset"
	// CallbackUnqualified: the daemon met an agent binary it does not
	// pin and no qualification covers (type progress, its reason the
	// command that qualifies it): akk only watches it. Told once per
	// terminal and binary.
	CallbackUnqualified = "agent_unqualified"
)

// CallbackEnvelope is the JSON a route delivers: a wake-up signal, never
// authority (DESIGN invariant 7). It carries semantic ids and the public
// interaction projection only; never a fingerprint, route, token, draft or
// answer text.
type CallbackEnvelope struct {
	V              int    `json:"v"`
	Schema         string `json:"schema"`
	NotificationID string `json:"notification_id"`
	// IdempotencyKey is the logical notification's key: the same for every
	// attempt and every route of one event.
	IdempotencyKey string `json:"idempotency_key"`
	Type           string `json:"type"`
	Event          string `json:"event"`
	Reason         string `json:"reason,omitempty"`
	// Answerable: a completed Turn whose agent ended with its own text
	// (a question, often): answer({turn_id, request}) continues it.
	Answerable  bool                  `json:"answerable,omitempty"`
	Confidence  string                `json:"confidence,omitempty"`
	TaskKind    string                `json:"task_kind"`
	WatchID     string                `json:"watch_id,omitempty"`
	TurnID      string                `json:"turn_id,omitempty"`
	SessionID   string                `json:"session_id,omitempty"`
	TerminalID  string                `json:"terminal_id"`
	Interaction *contract.Interaction `json:"interaction,omitempty"`
	// Blocked: an agent_blocked or limit_reset wake-up's facts.
	Blocked *Blocked  `json:"blocked,omitempty"`
	Time    time.Time `json:"time"`
}

// Event types of the monitors in the event stream.
const (
	EventWatchCreated  = "watch.created"
	EventWatchSettled  = "watch.settled"
	EventTurnSettled   = "turn.settled"
	EventTurnHandoff   = "turn.handoff"
	EventCallbackState = "callback.state"
)

// CodeConflict: the operation does not apply to the record's state (renew
// of a settled Watch, retry of an accepted notification, recover of a
// stopped Watch, close of a closed Turn).
const CodeConflict = "conflict"
