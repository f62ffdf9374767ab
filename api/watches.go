package api

import (
	"time"

	"github.com/agent-knock-knock/akk/contract"
)

// Watches, managed Turns and their recovery (seed 003). Requests carry
// semantic ids only; routes and timeouts are the daemon's configuration.

// Watch modes and confidence (seed 003).
const (
	WatchExactTask        = "exact_task"
	WatchTerminalActivity = "terminal_activity"
	ConfidenceExact       = "exact"
	ConfidenceBestEffort  = "best_effort"
)

// WatchRequest is POST /v1/watch.
type WatchRequest struct {
	TerminalID string `json:"terminal_id"`
}

// UnwatchRequest is POST /v1/unwatch.
type UnwatchRequest struct {
	WatchID string `json:"watch_id"`
}

// CloseRequest is POST /v1/close: release a managed Turn.
type CloseRequest struct {
	TurnID string `json:"turn_id"`
	// Reason, when set, is superseded_by_human_context_switch: it settles
	// the Turn's open handoff decision (Task.Handoff).
	Reason string `json:"reason,omitempty"`
}

// RenewRequest is POST /v1/renew: exactly one of WatchID and TurnID.
// Minutes 0 means the configured default.
type RenewRequest struct {
	WatchID string `json:"watch_id,omitempty"`
	TurnID  string `json:"turn_id,omitempty"`
	Minutes int    `json:"minutes,omitempty"`
}

// RecoverRequest is POST /v1/recover: exactly one of WatchID and TurnID.
type RecoverRequest struct {
	WatchID string `json:"watch_id,omitempty"`
	TurnID  string `json:"turn_id,omitempty"`
}

// RetryCallbackRequest is POST /v1/retry_callback.
type RetryCallbackRequest struct {
	WatchID        string `json:"watch_id,omitempty"`
	TurnID         string `json:"turn_id,omitempty"`
	NotificationID string `json:"notification_id,omitempty"`
}

// TaskRequest is POST /v1/task_status: the status of a Turn or a Watch
// (exactly one).
type TaskRequest struct {
	TurnID  string `json:"turn_id,omitempty"`
	WatchID string `json:"watch_id,omitempty"`
}

// Task is a managed Turn or a Watch as the contract shows it: its states,
// the evidence axes and its callbacks. Fields beyond these may be added by
// the monitors.
type Task struct {
	V          int    `json:"v"`
	TurnID     string `json:"turn_id,omitempty"`
	WatchID    string `json:"watch_id,omitempty"`
	SessionID  string `json:"session_id,omitempty"`
	TerminalID string `json:"terminal_id"`
	TaskKind   string `json:"task_kind"` // managed_turn, watch
	WatchMode  string `json:"watch_mode,omitempty"`
	Confidence string `json:"confidence,omitempty"`
	State      string `json:"state"`
	Reason     string `json:"reason,omitempty"`
	// Answerable: a completed Turn whose agent ended with its own text;
	// answer({turn_id, request}) continues it under the same turn_id.
	Answerable       bool                  `json:"answerable,omitempty"`
	ManagementState  string                `json:"management_state,omitempty"`
	ObservationState string                `json:"observation_state,omitempty"`
	Interaction      *contract.Interaction `json:"interaction,omitempty"`
	Notifications    []Notification        `json:"notifications,omitempty"`
	Warnings         []string              `json:"warnings,omitempty"`
	Deadline         time.Time             `json:"deadline,omitzero"`
	// OfferExpiresAt: this status made the caller's offer for the
	// interaction it shows (an owner's active Turn, or exact_task Watch
	// whose request was accepted): approve and respond_interaction by the
	// same turn_id or watch_id may follow, from the same session.
	OfferExpiresAt *time.Time `json:"offer_expires_at,omitempty"`
	// Handoff is the open decision of a Turn whose conversation a person
	// switched away (state handoff_required).
	Handoff *Handoff `json:"handoff,omitempty"`
}

// Handoff is a Turn's open handoff decision: what happened, and the one
// call that settles it.
type Handoff struct {
	Reason   string `json:"reason"` // human_context_switch
	Decision Action `json:"decision"`
}

// Notification is one outbox entry as the contract shows it (no route,
// no envelope body).
type Notification struct {
	NotificationID string `json:"notification_id"`
	Type           string `json:"type"`
	State          string `json:"state"` // pending, in_flight, accepted, retryable_failure, permanent_failure, uncertain, withdrawn
	Attempts       int    `json:"attempts"`
	// Event is what it reports (settled, interaction:<interaction_id>,
	// stalled:<n>, expired:<deadline>).
	Event string `json:"event,omitempty"`
	// Detail is the last attempt's reason, without secrets ("http 401:
	// the receiver refused the token", "not sent: connection refused").
	Detail  string    `json:"detail,omitempty"`
	Created time.Time `json:"created,omitzero"`
}
