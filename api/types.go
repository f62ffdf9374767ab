package api

import (
	"encoding/json"
	"time"

	"github.com/agent-knock-knock/akk/contract"
)

// SchemaVersion is the "v" of every top-level response.
const SchemaVersion = 1

// AgentNone is the agent of a pane whose foreground process is no coding
// agent (a shell, an editor). The agents' own names are their folders'
// (agents/*, a terminal row's "agent" value).
const AgentNone = "none"

// ListResponse is `akk list --json` and POST /v1/list.
type ListResponse struct {
	V         int        `json:"v"`
	Terminals []Terminal `json:"terminals"`
	// Degraded: the daemon cannot do all it should (nil: it can).
	Degraded *Degraded `json:"degraded,omitempty"`
}

// Degraded says why a daemon that answers cannot act: every mutation is
// refused before input while it lasts.
type Degraded struct {
	State  string `json:"state"`  // DegradedStoreUnavailable, DegradedStoreCorrupt
	Detail string `json:"detail"` // what failed, and what to do
}

// Degraded states.
const (
	// The store cannot be written (full, read-only or failing disk); the
	// daemon restarts itself once it can write again.
	DegradedStoreUnavailable = "store_unavailable"
	// A store file failed its checksum: `akk doctor --store DIR` says more.
	DegradedStoreCorrupt = "store_corrupt"
)

// Daemon states (Health.State).
const (
	DaemonOK       = "ok"
	DaemonDegraded = "degraded"
)

// Terminal is one row of the list: a tmux pane incarnation and what runs
// in it. The field names and values are the contract.
type Terminal struct {
	TerminalID string `json:"terminal_id"`
	Agent      string `json:"agent"`
	Version    string `json:"version"`
	Profile    string `json:"profile"` // exact, generic, or "" when no agent
	// Qualification is set for a binary akk does not pin that akk qualify
	// qualified: its screens are read with Base's profile, exact on
	// Passed of Judged surfaces (issue 41).
	Qualification        *Qualification        `json:"qualification,omitempty"`
	Replica              bool                  `json:"replica"`
	PaneID               string                `json:"pane_id"`
	Session              string                `json:"session"`
	Window               string                `json:"window"`
	PID                  int                   `json:"pid"`
	Cwd                  string                `json:"cwd"`
	ScreenState          contract.ScreenState  `json:"screen_state"`
	Composer             contract.Composer     `json:"composer"`
	NativeIdentityState  contract.Identity     `json:"native_identity_state"`
	DurableActivityState contract.Durable      `json:"durable_activity_state"`
	ActivityState        contract.Activity     `json:"activity_state"`
	Interaction          *contract.Interaction `json:"interaction"`
	AvailableActions     map[string]Action     `json:"available_actions"`
	Warnings             []string              `json:"warnings"`
	// SessionID is the AKK session of the bound native session (the
	// send target that follows the conversation, not the pane).
	SessionID string `json:"session_id,omitempty"`
	// Command is the foreground process's name (what a plain pane runs).
	Command string `json:"command,omitempty"`
	// DraftLength is the composer draft's length in characters; the text
	// never crosses the contract.
	DraftLength int `json:"draft_length,omitempty"`
	// TmuxSocket and ServerPID name the tmux server the pane is in (the
	// terminal id derives from them): which server, and which run of it,
	// on whichever machine the row comes from.
	TmuxSocket string `json:"tmux_socket,omitempty"`
	ServerPID  int    `json:"server_pid,omitempty"`
	// Host is the machine the row is on, when a client reached several
	// (akk --host ssh://…); the daemon itself never sets it.
	Host string `json:"host,omitempty"`
	// StateSince is when screen_state last changed.
	StateSince time.Time `json:"state_since,omitzero"`
	// Blocked says why a blocked screen is blocked (screen_state blocked).
	Blocked *Blocked `json:"blocked,omitempty"`
}

// Blocked is why an agent stopped on something only time or a person can
// clear (an API error it gave up on, a rate or usage limit), with the
// facts its screen prints. akk never types on such a screen: the
// controller resumes with a fresh status and a normal send.
type Blocked struct {
	// Reason: rate_limited, usage_limit, overloaded or api_error.
	Reason string `json:"reason"`
	// HTTPStatus is the status the screen prints (429, 529, 503), if any.
	HTTPStatus int `json:"http_status,omitempty"`
	// ResetsAtShown is the reset or retry time as the screen prints it;
	// ResetsAt the instant akk reads it as (the pane's local time, the
	// next such time after the screen showed it), when it can.
	ResetsAtShown string    `json:"resets_at_shown,omitempty"`
	ResetsAt      time.Time `json:"resets_at,omitzero"`
	// AutoContinue: the agent says it continues by itself at the reset
	// (Claude Code's "Continuing automatically at 9:36pm · esc to
	// cancel"): no send is offered, since a prompt would cancel that.
	AutoContinue bool `json:"auto_continue,omitempty"`
}

// Action is one advertised operation: the tool to call and its arguments.
// The read-only daemon advertises none yet.
type Action struct {
	Tool      string              `json:"tool"`
	Arguments map[string]any      `json:"arguments"`
	Decisions []contract.Decision `json:"decisions,omitempty"`
	// Candidates are resume_thread's conversations (status only): pass one
	// native_thread_id with the arguments.
	Candidates []ThreadCandidate `json:"candidates,omitempty"`
}

// StatusRequest is POST /v1/status.
type StatusRequest struct {
	TerminalID string `json:"terminal_id"`
	// Render asks for the styled prompt region and the screen text, for a
	// person's own terminal (akk status on a TTY, the popup). These may
	// show a draft; a controller never asks for them.
	Render bool `json:"render,omitempty"`
}

// StatusResponse is `akk status ID --json`: the row plus its evidence and
// the current prompt region.
type StatusResponse struct {
	V        int      `json:"v"`
	Terminal Terminal `json:"terminal"`
	Evidence Evidence `json:"evidence"`
	// Prompt is the prompt region the recognizer isolated, as plain text
	// (nil when none). The draft's text is never in it: a composer row
	// with a draft is omitted.
	Prompt *PromptRegion `json:"prompt"`
	// Screen is the whole visible screen as plain text, for a person
	// looking at `akk status --json` of a pane with no prompt.
	Screen string `json:"screen,omitempty"`
	// OfferExpiresAt: this Status made a private offer for its caller
	// (a pending interaction or a sendable composer); responses by the same
	// controller before then need no live re-read beyond the fingerprint.
	OfferExpiresAt *time.Time `json:"offer_expires_at,omitempty"`
	// Degraded: the daemon cannot act now (ListResponse.Degraded).
	Degraded *Degraded `json:"degraded,omitempty"`
}

// PromptRegion is the rows of the prompt.
type PromptRegion struct {
	Top    int    `json:"top"`
	Bottom int    `json:"bottom"`
	Text   string `json:"text"`
	// ANSI is the region with its styles, for local terminals only
	// (set when the request came from a person's terminal).
	ANSI string `json:"ansi,omitempty"`
}

// Evidence is what the row's states rest on.
type Evidence struct {
	Process        []Process       `json:"process"`
	Binding        *Binding        `json:"binding"`
	Recognizer     string          `json:"recognizer"`
	ScreenSeq      uint64          `json:"screen_seq"`
	Stale          bool            `json:"stale,omitempty"`
	StaleCause     string          `json:"stale_cause,omitempty"`
	LastEvent      uint64          `json:"last_event,omitempty"`
	Identification json.RawMessage `json:"identification,omitempty"`
	// Rules, on a screen akk cannot act on (unknown, or an interaction
	// that is manual_required), are the profile's rules that failed, in
	// evaluation order: names, rows and columns only, never screen text
	// (`akk recognize --explain` shows the cells locally).
	Rules []FailedRule `json:"rules,omitempty"`
}

// FailedRule is a rule of the profile that did not hold on the screen.
type FailedRule struct {
	Rule    string `json:"rule"`
	Check   string `json:"check"` // hasAt, rowIs, styled, rule
	Row     int    `json:"row"`
	LastRow int    `json:"last_row,omitempty"` // a scan's last row
	Col     *int   `json:"col,omitempty"`      // where it first differs
}

// Process is one member of the pane's foreground process group.
type Process struct {
	PID       int    `json:"pid"`
	StartTime uint64 `json:"start_time"`
	Exe       string `json:"exe"`
	Comm      string `json:"comm"`
}

// Binding is the terminal's native session binding.
type Binding struct {
	Generation uint64            `json:"generation"`
	State      contract.Identity `json:"state"`
	SessionID  string            `json:"session_id,omitempty"`
	Path       string            `json:"path,omitempty"`
	Reason     string            `json:"reason,omitempty"`
}

// Health is POST /v1/health: the daemon's own view, for `akk doctor`.
type Health struct {
	V            int       `json:"v"`
	PID          int       `json:"pid"`
	Started      time.Time `json:"started"`
	TmuxSocket   string    `json:"tmux_socket"`
	TmuxVersion  string    `json:"tmux_version"`
	Store        string    `json:"store"`
	StoreOK      bool      `json:"store_ok"`
	Sessions     int       `json:"sessions"`
	Terminals    int       `json:"terminals"`
	Agents       int       `json:"agents"`
	LastEvent    uint64    `json:"last_event"`
	AllowReplica bool      `json:"allow_replicas"`
	State        string    `json:"state"`                // DaemonOK or DaemonDegraded (then Degraded says why)
	Degraded     *Degraded `json:"degraded,omitempty"`   // why the daemon cannot act
	StoreLost    string    `json:"store_lost,omitempty"` // writes the store had synced and lost before this start
}

// Event is one line of GET /v1/events: seq, time, type and terminal_id,
// then the event's own fields (attrs) at the top level.
type Event struct {
	Seq        uint64            `json:"seq"`
	Time       time.Time         `json:"time"`
	Type       string            `json:"type"`
	TerminalID string            `json:"terminal_id,omitempty"`
	Attrs      map[string]string `json:"-"`
}

// Event types.
const (
	EventTerminalAdded   = "terminal.added"
	EventTerminalRemoved = "terminal.removed"
	EventTerminalState   = "terminal.state"
	EventTerminalProcess = "terminal.process"
	EventBindingChanged  = "binding.changed"
	// Dispatch: a reservation was written (before any input), and its
	// receipt (stage done, rejected or uncertain). No text, no keys.
	EventDispatchReserved = "dispatch.reserved"
	EventDispatchReceipt  = "dispatch.receipt"
	// Managed Turns (send): created, and every state change.
	EventTurnCreated = "turn.created"
	EventTurnState   = "turn.state"
)

// Clone copies b (nil stays nil).
func (b *Blocked) Clone() *Blocked {
	if b == nil {
		return nil
	}
	cp := *b
	return &cp
}

// Qualification is what akk qualify proved of an unpinned agent binary.
type Qualification struct {
	Base   string `json:"base"`
	Passed int    `json:"passed"`
	Judged int    `json:"judged"`
}
