package store

import (
	"time"

	"github.com/agent-knock-knock/akk/contract"
)

// Terminal is what the store remembers of one terminal (a tmux pane
// incarnation, see DESIGN "Identity"): its tmux coordinates, the process
// seen in it and the last states recorded, so that a restarted daemon
// recognises the pane and emits no event for a state it already recorded.
type Terminal struct {
	V          int                       `json:"v"`
	ID         string                    `json:"id"`
	Socket     string                    `json:"socket"`
	ServerPID  int                       `json:"server_pid"`
	Pane       string                    `json:"pane"`
	PanePID    int                       `json:"pane_pid"`
	PaneStart  uint64                    `json:"pane_start"`
	Session    string                    `json:"session"`
	SessionID  string                    `json:"session_id"`
	Window     string                    `json:"window"`
	Agent      string                    `json:"agent"`
	Version    string                    `json:"version,omitempty"`
	Replica    bool                      `json:"replica,omitempty"`
	PID        int                       `json:"pid,omitempty"`
	Cwd        string                    `json:"cwd,omitempty"`
	Command    string                    `json:"command,omitempty"`
	Screen     contract.ScreenState      `json:"screen_state"`
	Composer   contract.Composer         `json:"composer"`
	Identity   contract.Identity         `json:"native_identity_state"`
	Durable    contract.Durable          `json:"durable_activity_state"`
	Activity   contract.Activity         `json:"activity_state"`
	Interact   contract.Kind             `json:"interaction_kind,omitempty"`
	InterState contract.InteractionState `json:"interaction_state,omitempty"`
	FirstSeen  time.Time                 `json:"first_seen"`
	LastSeen   time.Time                 `json:"last_seen"`
	// Gone: the pane (or its incarnation) no longer exists.
	Gone   bool      `json:"gone,omitempty"`
	GoneAt time.Time `json:"gone_at,omitzero"`
}

const terminalSchema = 1

// Terminal reads one terminal.
func (s *Store) Terminal(id string) (Terminal, error) {
	return getAs[Terminal](s, terminalKey(id), terminalSchema, "terminal "+id)
}

// Terminals lists every terminal, gone ones included, in id order.
func (s *Store) Terminals() ([]Terminal, error) {
	return listAs[Terminal](s, kindTerminal, terminalSchema, nil)
}
