package api

import "github.com/agent-knock-knock/akk/contract"

// The mutating operations of the contract (DESIGN "Contract details",
// seeds 000 and 003): requests carry semantic ids and bounded typed text
// only — never keys, menu indexes, labels, fingerprints or routes.

// Outcomes of a mutation.
const (
	OutcomeAccepted  = "accepted"
	OutcomeRejected  = "rejected_before_input"
	OutcomeManual    = "manual_required"
	OutcomeUncertain = "uncertain"
	// OutcomePending: a send's text and Enter went in and the screen
	// took them, but the agent's own file shows no record of the request
	// yet. The Turn stays managed (promoted when the record appears,
	// unproven after its inactivity window); never send it again.
	OutcomePending     = "pending"
	OutcomeAlreadyDone = "already_done" // an idempotent repeat of an accepted request (no input)
)

// Tool names advertised in available_actions (the MCP tools' names).
const (
	ToolApprove = "agent_knock_knock_approve"
	ToolRespond = "agent_knock_knock_respond_interaction"
	ToolSend    = "agent_knock_knock_send"
	ToolAnswer  = "agent_knock_knock_respond" // respond({turn_id, request}): seed 003's answer
	ToolCancel  = "agent_knock_knock_cancel"
	ToolWatch   = "agent_knock_knock_watch"
	ToolStatus  = "agent_knock_knock_status"
)

// Limits of typed text.
const (
	// MaxRequestText caps a send's task text in bytes.
	MaxRequestText = 64 << 10
	// MaxAnswerText caps an answer's text in bytes (profiles cap it
	// further: Claude's editor takes at most 799 characters).
	MaxAnswerText = 4096
)

// ApproveRequest is POST /v1/approve: exactly one of TurnID (decisions
// approve_once and reject) and TerminalID (approve_once only).
type ApproveRequest struct {
	TurnID     string            `json:"turn_id,omitempty"`
	TerminalID string            `json:"terminal_id,omitempty"`
	Decision   contract.Decision `json:"decision,omitempty"` // default approve_once
}

// RespondRequest is POST /v1/respond_interaction: exactly one subject.
// WatchID only for an exact_task Watch; TerminalID only for offers made to
// a local person (CLI, popup), never over MCP.
type RespondRequest struct {
	TurnID        string                `json:"turn_id,omitempty"`
	WatchID       string                `json:"watch_id,omitempty"`
	TerminalID    string                `json:"terminal_id,omitempty"`
	InteractionID string                `json:"interaction_id"`
	Answers       []Answer              `json:"answers"`
	DeliveryMode  contract.DeliveryMode `json:"delivery_mode,omitempty"`
}

// Answer answers one question of the current step.
type Answer struct {
	QuestionID        string                `json:"question_id"`
	ResponseKind      contract.ResponseKind `json:"response_kind"`
	SelectedOptionIDs []string              `json:"selected_option_ids,omitempty"`
	// Text is the typed answer, for a free_text question or an option
	// marked free_text.
	Text string `json:"text,omitempty"`
}

// SendRequest is POST /v1/send: a Turn, to at most one of SessionID (the
// native context, session_exact) and TerminalID (terminal_follow_current
// or terminal_user_explicit). With neither, akk must prove exactly one
// send-ready pane. Mode "" is the target's managed mode.
type SendRequest struct {
	SessionID  string `json:"session_id,omitempty"`
	TerminalID string `json:"terminal_id,omitempty"`
	Mode       string `json:"mode,omitempty"`
	Request    string `json:"request"`
	// MessageID makes the send idempotent: a repeat with the same id
	// returns the original record and never sends again.
	MessageID string `json:"message_id,omitempty"`
}

// Send modes (seed 003 "Managed Turn Flow"): the advertised action names
// one of them with its target.
const (
	// SendSessionExact: the native context the session_id names, in the
	// pane bound to it; idle with an exactly empty composer.
	SendSessionExact = "session_exact"
	// SendFollowCurrent: whatever native context the terminal runs now;
	// idle with an exactly empty composer.
	SendFollowCurrent = "terminal_follow_current"
	// SendUserExplicit: a person's own send to the terminal they chose:
	// a working agent or a draft does not refuse it (the profile's native
	// clear empties the composer first); a dialog still does.
	SendUserExplicit = "terminal_user_explicit"
)

// SendModes lists the modes.
var SendModes = []string{SendSessionExact, SendFollowCurrent, SendUserExplicit}

// AnswerRequest is POST /v1/answer: continue a completed managed Turn
// whose agent ended with its own text (Task.Answerable) with the
// controller's reply, under the same turn_id.
type AnswerRequest struct {
	TurnID  string `json:"turn_id"`
	Request string `json:"request"`
}

// CancelRequest is POST /v1/cancel: interrupt a managed Turn.
type CancelRequest struct {
	TurnID string `json:"turn_id"`
}

// ActionResult is the reply of every mutation (and the CLI's --json).
type ActionResult struct {
	V          int    `json:"v"`
	Op         string `json:"op"`
	Outcome    string `json:"outcome"`
	Reason     string `json:"reason,omitempty"`
	DoNotRetry bool   `json:"do_not_retry"`
	// ReceiptID names the audit receipt (rcpt_...); empty when nothing
	// was reserved.
	ReceiptID     string `json:"receipt_id,omitempty"`
	TerminalID    string `json:"terminal_id,omitempty"`
	TurnID        string `json:"turn_id,omitempty"`
	SessionID     string `json:"session_id,omitempty"`
	InteractionID string `json:"interaction_id,omitempty"`
	// ScreenState is the state the recapture proved after the step.
	ScreenState contract.ScreenState `json:"screen_state,omitempty"`
	// Next is the interaction the recapture shows after the step (the
	// next question of a flow), if any.
	Next *contract.Interaction `json:"next,omitempty"`
	// Evidence names what proved the postcondition (for example
	// "screen:working", "transcript:user_prompt").
	Evidence string `json:"evidence,omitempty"`
	// Timing splits the call's time: akk's own checks and durable
	// reservation before any input, and the wait from the input to the
	// proven postcondition (mostly the agent drawing its next screen).
	Timing *Timing `json:"timing,omitempty"`
	// SendFacts: a send's or an answer's separate facts (seed 003).
	*SendFacts
	// ThreadFacts: a native thread transition's facts.
	*ThreadFacts
	// Status is a native inspection's result.
	Status *NativeStatus `json:"native_status,omitempty"`
	// Catalog is model_options' result; ModelSet set_model's.
	Catalog  *ModelCatalog `json:"model_catalog,omitempty"`
	ModelSet *ModelSet     `json:"model_set,omitempty"`
	// Foreground is identify_foreground's and identify_and_send's probe.
	Foreground *ForegroundProof `json:"foreground,omitempty"`
}

// SendFacts are the facts a send reports separately (seed 003 "Send
// output"): whether input reached the pane, what the agent's own file
// says of it, and how akk follows it from here.
type SendFacts struct {
	// TerminalInputDispatched: some of the input went to the pane (true
	// for accepted, pending and uncertain; false for a refusal).
	TerminalInputDispatched bool `json:"terminal_input_dispatched"`
	// AgentAcceptance: accepted (the agent's file shows the request),
	// screen_only (a replica: no file), pending (none yet), uncertain,
	// or none (nothing was sent).
	AgentAcceptance string `json:"agent_acceptance"`
	// ManagementMode is managed_turn while akk manages the Turn.
	ManagementMode string `json:"management_mode,omitempty"`
	// ObservationMode is exact_task (the agent's own file) or
	// terminal_activity (the screen alone).
	ObservationMode string `json:"observation_mode,omitempty"`
	// Capabilities are the tools that act on the Turn by its turn_id.
	Capabilities []string `json:"capabilities,omitempty"`
	// WatchID names the Watch that follows a user-explicit send akk could
	// not manage as a Turn (no native session file to prove it from).
	WatchID string `json:"watch_id,omitempty"`
	// ClearedDraft: a user-explicit send emptied the composer's draft
	// first (Codex: deleted; Claude Code: stashed, and put back by the
	// agent after the submit).
	ClearedDraft bool `json:"cleared_draft,omitempty"`
	// DraftRestored: the composer shows a draft again after the submit
	// (Claude Code puts back a draft the person stashed): theirs, not a
	// new one of the agent's.
	DraftRestored bool `json:"draft_restored,omitempty"`
}

// Agent acceptance values of SendFacts.
const (
	AcceptanceAccepted   = "accepted"
	AcceptanceScreenOnly = "screen_only"
	AcceptancePending    = "pending"
	AcceptanceUncertain  = "uncertain"
	AcceptanceNone       = "none"
)

// Timing of a mutation, in milliseconds.
type Timing struct {
	// SettleMS is the wait for a quiet screen before the first key (150
	// ms without output: an agent that just drew a dialog may not take
	// keys yet); near zero when the prompt has been up a while.
	SettleMS  float64 `json:"settle_ms"`
	ChecksMS  float64 `json:"checks_ms"`  // lock, barrier, recapture, revalidation
	ReserveMS float64 `json:"reserve_ms"` // the durable reservation (fsync)
	InputMS   float64 `json:"input_ms"`   // handing the input to tmux
	ProofMS   float64 `json:"proof_ms"`   // input to proven postcondition
}

// Exit codes of the CLI per outcome (DESIGN).
const (
	ExitAccepted  = 0
	ExitUsage     = 2
	ExitRejected  = 3
	ExitManual    = 4
	ExitUncertain = 5
	ExitNoDaemon  = 6
)

// ExitCode maps an outcome to the CLI's exit code.
func ExitCode(outcome string) int {
	switch outcome {
	case OutcomeAccepted, OutcomeAlreadyDone:
		return ExitAccepted
	case OutcomeRejected:
		return ExitRejected
	case OutcomeManual:
		return ExitManual
	default:
		return ExitUncertain
	}
}

// Reasons of rejected_before_input and manual_required outcomes.
const (
	ReasonNoOffer          = "no_offer"            // no fresh Status by this controller
	ReasonOfferExpired     = "offer_expired"       // and the live recheck failed
	ReasonPromptChanged    = "prompt_changed"      // the fingerprint differs
	ReasonStaleInteraction = "stale_interaction"   // interaction_id is not the current one
	ReasonUnknownChoice    = "unknown_choice"      // an id that is not offered
	ReasonNotActionable    = "not_actionable"      // the screen shows nothing to answer
	ReasonFenced           = "prompt_already_used" // a consumed prompt
	ReasonProcessChanged   = "process_changed"     // incarnation differs
	ReasonBindingChanged   = "binding_changed"     // binding generation differs
	ReasonCwdChanged       = "cwd_changed"         // the agent's cwd moved
	ReasonNotIdle          = "not_idle"            // send: no idle agent
	ReasonComposerNotEmpty = "composer_not_empty"  // send: a draft or no composer
	ReasonSlashCommand     = "slash_command"       // text's first line starts with /
	ReasonTextTooLong      = "text_too_long"       // over the profile's cap
	ReasonBadText          = "bad_text"            // control characters, not UTF-8
	ReasonUnknownVersion   = "unknown_version"     // generic profile
	// A qualified binary (akk qualify) on a surface its qualification did
	// not pass: failed, not reached, or covered by no scenario.
	ReasonUnqualifiedSurface = "unqualified_surface"
	ReasonTerminalBusy       = "terminal_busy"   // another mutation holds the terminal
	ReasonScreenStale        = "screen_stale"    // the model is re-seeding
	ReasonNotCancellable     = "not_cancellable" // cancel: a dialog is up
	ReasonPostcondition      = "postcondition_unproven"
	ReasonDelivery           = "delivery_failed" // tmux refused the input
	ReasonNoReply            = "no_reply"        // the connection to the daemon dropped after the request was sent

	ReasonUnknownTerminal   = "unknown_terminal"     // no terminal with this id
	ReasonUnknownTurn       = "unknown_turn"         // no managed turn with this id
	ReasonUnknownWatch      = "unknown_watch"        // no watch with this id
	ReasonUnknownTarget     = "unknown_target"       // send: no terminal for the session or terminal id
	ReasonTerminalGone      = "terminal_gone"        // the pane closed, or tmux stopped answering
	ReasonNotOwner          = "not_owner"            // the turn belongs to another controller
	ReasonTurnClosed        = "turn_closed"          // the turn was closed
	ReasonTurnSettled       = "turn_settled"         // the turn has ended
	ReasonNotAnswerable     = "not_answerable"       // answer: the turn is not completed with the agent's own text last
	ReasonSuperseded        = "superseded"           // answer: a newer turn was sent to the terminal
	ReasonTurnMoved         = "turn_moved"           // the turn's terminal runs something else now
	ReasonTerminalScope     = "terminal_scope"       // terminal-scoped authority is for local people
	ReasonNotAnAgent        = "not_an_agent"         // send: no coding agent in the terminal
	ReasonManualRequired    = "manual_required"      // the recognizer says a person must answer
	ReasonUnsupportedAnswer = "unsupported_response" // a response kind akk never sends
	ReasonWatch             = "watch"                // the watch cannot answer (expired, not exact, another controller)
	ReasonAnchor            = "anchor"               // send: the session file could not be anchored
	ReasonStore             = "store"                // the store could not be read or written: nothing sent
	ReasonStoreUnavailable  = "store_unavailable"    // the store cannot be written (disk full, read-only, failing; or the reservation's own commit failed): the daemon is degraded, nothing reserved, nothing sent
	ReasonBadMode           = "bad_mode"             // send: the mode does not fit the target
	ReasonAmbiguousTarget   = "ambiguous_target"     // send without a target: not exactly one send-ready pane
	ReasonDraftShape        = "draft_shape_unproven" // user-explicit: the draft cannot be cleared exactly
	ReasonKeysRemapped      = "keys_remapped"        // user-explicit: the agent's keybindings change the keys akk sends
	ReasonInputOwned        = "input_owned"          // user-explicit: a dialog, editor, menu or viewer owns the input
	// The pane's tmux state at the barrier: a key would not reach the
	// agent (a mode takes it), would be dropped (input off), or would
	// reach other panes too (synchronize-panes). Nothing is reserved.
	ReasonPaneInMode        = "pane_in_mode"       // copy-mode, view-mode, choose-tree... owns the pane's keys
	ReasonPaneInputOff      = "pane_input_off"     // select-pane -d: tmux drops the pane's input
	ReasonPanesSynchronized = "panes_synchronized" // synchronize-panes copies input to other panes
	ReasonTmuxTimeout       = "tmux_timeout"       // a tmux command inside the transaction did not answer in time
)

// RefusalReasons lists every reason above: a refusal's reason is one of
// them (tests check that each has a case).
var RefusalReasons = []string{ReasonNoOffer, ReasonOfferExpired, ReasonPromptChanged, ReasonStaleInteraction,
	ReasonUnknownChoice, ReasonNotActionable, ReasonFenced, ReasonProcessChanged, ReasonBindingChanged,
	ReasonCwdChanged, ReasonNotIdle, ReasonComposerNotEmpty, ReasonSlashCommand, ReasonTextTooLong, ReasonBadText,
	ReasonUnknownVersion, ReasonTerminalBusy, ReasonScreenStale, ReasonNotCancellable, ReasonPostcondition,
	ReasonDelivery, ReasonUnknownTerminal, ReasonUnknownTurn, ReasonUnknownWatch, ReasonUnknownTarget,
	ReasonTerminalGone, ReasonNotOwner, ReasonTurnClosed, ReasonTurnSettled, ReasonTurnMoved, ReasonTerminalScope,
	ReasonNotAnAgent, ReasonManualRequired, ReasonUnsupportedAnswer, ReasonWatch, ReasonAnchor, ReasonStore, ReasonStoreUnavailable,
	ReasonBadMode, ReasonAmbiguousTarget, ReasonDraftShape, ReasonKeysRemapped, ReasonInputOwned,
	ReasonTurnActive, ReasonStaleCandidates, ReasonNotResumable, ReasonNotStale,
	ReasonPaneInMode, ReasonPaneInputOff, ReasonPanesSynchronized, ReasonTmuxTimeout}
