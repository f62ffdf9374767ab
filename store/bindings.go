package store

import (
	"time"

	"github.com/agent-knock-knock/akk/contract"
)

// Binding is a terminal's attachment to a native session (a Codex rollout
// or a Claude transcript). Generation advances whenever the attachment
// changes, so that anything decided under an older binding can be told
// apart from the current one.
type Binding struct {
	V          int               `json:"v"`
	TerminalID string            `json:"terminal_id"`
	Generation uint64            `json:"generation"`
	Agent      string            `json:"agent"`
	State      contract.Identity `json:"state"` // native_identity_state
	SessionID  string            `json:"session_id,omitempty"`
	Path       string            `json:"path,omitempty"`
	Reason     string            `json:"reason,omitempty"`
	Since      time.Time         `json:"since"`
	// Transition is the last native thread transition committed on the
	// terminal: it names the conversation left (resume's "previous").
	Transition *BindingTransition `json:"transition,omitempty"`
	// Left is the native session the terminal was last resolved to, kept
	// while the binding names no other (a person's switch made it
	// ambiguous): what reconcile_binding may detach.
	Left     string `json:"left,omitempty"`
	LeftPath string `json:"left_path,omitempty"`
	// Detached are the conversations the process left (a native thread
	// transition, or reconcile_binding's proof): not candidates while
	// their files do not grow.
	Detached []BindingDetach `json:"detached,omitempty"`
}

// BindingDetach is one conversation a process left, and its file's size
// then.
type BindingDetach struct {
	Incarnation string `json:"incarnation"`
	SessionID   string `json:"session_id"`
	Path        string `json:"path"`
	Size        int64  `json:"size"`
}

// BindingTransition is one committed native thread transition.
type BindingTransition struct {
	Op          string    `json:"op"`
	Receipt     string    `json:"receipt_id"`
	Incarnation string    `json:"incarnation"`        // the process it ran in
	Previous    string    `json:"previous,omitempty"` // the native session left
	Next        string    `json:"next,omitempty"`     // the native session entered ("" until Codex writes it)
	At          time.Time `json:"at"`
}

const bindingSchema = 1

// Binding reads a terminal's binding.
func (s *Store) Binding(terminalID string) (Binding, error) {
	return getAs[Binding](s, bindingKey(terminalID), bindingSchema, "binding "+terminalID)
}

// Bindings lists every binding in terminal id order.
func (s *Store) Bindings() ([]Binding, error) {
	return listAs[Binding](s, kindBinding, bindingSchema, nil)
}
