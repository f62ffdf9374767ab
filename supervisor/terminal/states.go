package terminal

import (
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/store"
	"github.com/agent-knock-knock/akk/watchers"
)

// Durable activity states (DESIGN "Contract details").
const (
	DurableWorking       = "working"
	DurableIdle          = "idle"
	DurableAwaitingInput = "awaiting_input"
	DurableUnknown       = "unknown"
	DurableUnavailable   = "unavailable"
)

// Activity states.
const (
	ActivityAwaitingApproval = "awaiting_approval"
	ActivityWorking          = "working"
	ActivityIdle             = "idle"
	ActivityUnknown          = "unknown"
)

// ScreenActivity is what a screen state alone says of activity: a prompt
// that waits for a person counts as awaiting_approval.
func ScreenActivity(screen string) string {
	switch screen {
	case api.ScreenAwaitingApproval, api.ScreenQuestionnaire, api.ScreenFreeText,
		api.ScreenConfirmation, api.ScreenAsyncQuestion:
		return ActivityAwaitingApproval
	case api.ScreenWorking:
		return ActivityWorking
	case api.ScreenIdle:
		return ActivityIdle
	}
	return ActivityUnknown
}

// ActivityState combines the screen and durable axes conservatively: the
// result is unknown whenever they disagree (seed 003: activity_state stays
// conservative; it is never mutation authority). A durable axis that
// cannot be known (unavailable: a replica, files unreadable) leaves the
// screen's word.
func ActivityState(screen, durable string) string {
	a := ScreenActivity(screen)
	switch durable {
	case DurableUnavailable:
		return a
	case DurableUnknown, "":
		return ActivityUnknown
	case DurableWorking:
		if a == ActivityWorking || a == ActivityAwaitingApproval {
			return a // a pending tool shows as working in the file
		}
	case DurableAwaitingInput:
		if a == ActivityAwaitingApproval {
			return a
		}
	case DurableIdle:
		if a == ActivityIdle {
			return a
		}
	}
	return ActivityUnknown
}

// Binding is what a pane knows of its terminal's native session (the
// binding package resolves it and follows the bound file).
type Binding struct {
	Generation uint64
	State      string // watchers.IdentityState; "" until resolved once
	SessionID  string
	Path       string
	Reason     string
	Durable    string // durable_activity_state from the bound file
	// LastCall is the newest tool_use id (Claude) or call_id (Codex) the
	// bound file announced: the durable evidence that tells a new prompt
	// from a byte-identical repeat (DESIGN invariant 6).
	LastCall string
	// SecretQuestion: the bound file shows a question call the agent marks
	// secret, possibly still on screen (binding.Durable.SecretCall).
	SecretQuestion bool
	// RunningTurn is the native turn the bound file shows in progress
	// (binding.Durable.Turn).
	RunningTurn string
	// Last is the last native thread transition committed on the terminal.
	Last *store.BindingTransition
	// Left and LeftPath: the session the terminal was last resolved to,
	// while the binding names no other (store.Binding.Left).
	Left, LeftPath string
	// Detached are the conversations the process left: by a native
	// thread transition, or as reconcile_binding proved. Codex keeps every
	// rollout it wrote open, and Claude's transcripts are all appended
	// since its start: a left one is no candidate until it grows.
	Detached []store.BindingDetach
	// Candidates: while State is ambiguous, the files that fit (Codex:
	// every rollout the process holds open that is not detached), as the
	// binder's last resolution found them. Not stored: each resolution
	// finds them again.
	Candidates []BindingCandidate
}

// BindingCandidate is one file an ambiguous binding may mean.
type BindingCandidate struct {
	SessionID, Path string
}

// Quiet is the files that are not candidates for process inc by their
// appends alone: the detached sessions', up to their size then.
func (b Binding) Quiet(inc string) map[string]int64 {
	var q map[string]int64
	for _, d := range b.Detached {
		if d.Incarnation == inc {
			if q == nil {
				q = map[string]int64{}
			}
			q[d.Path] = d.Size
		}
	}
	return q
}

// Transition is what a native thread transition in progress expects of
// the terminal's next binding: until it shows, the binder keeps the one
// before (no intermediate ambiguity, one generation step).
type Transition struct {
	Op          string // api.OpNewThread, api.OpResumeThread or api.OpIdentifyAndSend
	Receipt     string // the transition's receipt id
	Incarnation string
	From        Binding   // the binding before
	Target      string    // resume, identify_and_send: the native session id
	Since       time.Time // wall clock just before the Enter
	// Leave: identify_and_send's ambiguous candidates that did not take
	// the request, each up to its size before the send: detached like a
	// conversation a transition leaves (no candidate until it grows).
	Leave []store.BindingDetach
}

// IdentityState is native_identity_state for the process id runs.
func (b Binding) IdentityState(id *procid.Identity) string {
	if id.Agent == api.AgentNone || id.Replica || b.State == "" {
		return string(watchers.Unavailable)
	}
	return b.State
}

// DurableState is durable_activity_state: the bound file's word, idle
// when the agent verifiably has no session file yet (before its first
// prompt), unknown when several files fit, unavailable otherwise.
func (b Binding) DurableState(id *procid.Identity) string {
	if id.Agent == api.AgentNone || id.Replica {
		return DurableUnavailable
	}
	switch watchers.IdentityState(b.State) {
	case watchers.Resolved:
		if b.Durable == "" {
			return DurableUnknown
		}
		return b.Durable
	case watchers.VerifiedAbsent:
		return DurableIdle
	case watchers.Ambiguous:
		return DurableUnknown
	}
	return DurableUnavailable
}
