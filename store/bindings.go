package store

import (
	"fmt"
	"time"
)

// Binding is a terminal's attachment to a native session (a Codex rollout
// or a Claude transcript). Generation advances whenever the attachment
// changes, so that anything decided under an older binding can be told
// apart from the current one.
type Binding struct {
	V          int       `json:"v"`
	TerminalID string    `json:"terminal_id"`
	Generation uint64    `json:"generation"`
	Agent      string    `json:"agent"`
	State      string    `json:"state"` // native_identity_state
	SessionID  string    `json:"session_id,omitempty"`
	Path       string    `json:"path,omitempty"`
	Reason     string    `json:"reason,omitempty"`
	Since      time.Time `json:"since"`
}

const bindingSchema = 1

// Binding reads a terminal's binding.
func (s *Store) Binding(terminalID string) (Binding, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.checkOpen(); err != nil {
		return Binding{}, err
	}
	data, err := s.get(bindingKey(terminalID))
	if err != nil {
		return Binding{}, err
	}
	var b Binding
	if err := decode(data, bindingSchema, &b); err != nil {
		return Binding{}, fmt.Errorf("store: binding %s: %w", terminalID, err)
	}
	return b, nil
}

// Bindings lists every binding in terminal id order.
func (s *Store) Bindings() ([]Binding, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.checkOpen(); err != nil {
		return nil, err
	}
	var out []Binding
	err := s.scan(kindBinding, func(k, v []byte) error {
		var b Binding
		if err := decode(v, bindingSchema, &b); err != nil {
			return fmt.Errorf("store: %s: %w", k, err)
		}
		out = append(out, b)
		return nil
	})
	return out, err
}
