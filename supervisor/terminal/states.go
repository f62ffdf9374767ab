package terminal

import (
	"time"

	"github.com/agent-knock-knock/akk/api"
	"github.com/agent-knock-knock/akk/contract"
	"github.com/agent-knock-knock/akk/internal/procid"
	"github.com/agent-knock-knock/akk/store"
)

// ScreenActivity is what a screen state alone says of activity: a prompt
// that waits for a person counts as awaiting_approval.
func ScreenActivity(screen contract.ScreenState) contract.Activity {
	switch {
	case screen.Prompting():
		return contract.ActivityAwaitingApproval
	case screen == contract.ScreenWorking:
		return contract.ActivityWorking
	case screen == contract.ScreenIdle:
		return contract.ActivityIdle
	}
	return contract.ActivityUnknown
}

// ActivityState combines the screen and durable axes conservatively: the
// result is unknown whenever they disagree (seed 003: activity_state stays
// conservative; it is never mutation authority). A durable axis that
// cannot be known (unavailable: a replica, files unreadable) leaves the
// screen's word.
func ActivityState(screen contract.ScreenState, durable contract.Durable) contract.Activity {
	a := ScreenActivity(screen)
	switch durable {
	case contract.DurableUnavailable:
		return a
	case contract.DurableUnknown, "":
		return contract.ActivityUnknown
	case contract.DurableWorking:
		if a == contract.ActivityWorking || a == contract.ActivityAwaitingApproval {
			return a // a pending tool shows as working in the file
		}
	case contract.DurableAwaitingInput:
		if a == contract.ActivityAwaitingApproval {
			return a
		}
	case contract.DurableIdle:
		if a == contract.ActivityIdle {
			return a
		}
	}
	return contract.ActivityUnknown
}

// Binding is what a pane knows of its terminal's native session (the
// binding package resolves it and follows the bound file).
type Binding struct {
	// Seq is the binder's order of this value: a pane keeps the newest
	// (a resolution and a bound file's event are handed on from two
	// goroutines; an older one arriving late would bring back an older
	// tool call and fence a new prompt for good). 0: unordered.
	Seq        uint64
	Generation uint64
	State      contract.Identity // "" until resolved once
	SessionID  string
	Path       string
	Reason     string
	Durable    contract.Durable // durable_activity_state from the bound file
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
func (b Binding) IdentityState(id *procid.Identity) contract.Identity {
	if id.Agent == api.AgentNone || id.Replica || b.State == "" {
		return contract.IdentityUnavailable
	}
	return b.State
}

// DurableState is durable_activity_state: the bound file's word, idle
// when the agent verifiably has no session file yet (before its first
// prompt), unknown when several files fit, unavailable otherwise.
func (b Binding) DurableState(id *procid.Identity) contract.Durable {
	if id.Agent == api.AgentNone || id.Replica {
		return contract.DurableUnavailable
	}
	switch contract.Identity(b.State) {
	case contract.IdentityResolved:
		if b.Durable == "" {
			return contract.DurableUnknown
		}
		return b.Durable
	case contract.IdentityVerifiedAbsent:
		return contract.DurableIdle
	case contract.IdentityAmbiguous:
		return contract.DurableUnknown
	}
	return contract.DurableUnavailable
}
