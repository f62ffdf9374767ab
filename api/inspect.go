package api

import "time"

// Native status inspection (seed 003 "Native Status Inspection"): the
// agent's own status panel, read through its closed /status command. It
// is no send: it creates no Session, Turn, binding, public receipt or
// callback; its private reservation only makes it crash-safe.

// Operations and tools of native inspection.
const (
	OpNativeInspect    = "native_inspect"
	ToolNativeInspect  = "agent_knock_knock_native_inspect"
	InspectionStatus   = "status"
	MaxInspectFields   = 32
	MaxInspectFieldLen = 200
)

// NativeInspectRequest is POST /v1/native_inspect: exactly these two fields.
type NativeInspectRequest struct {
	TerminalID string `json:"terminal_id"`
	Inspection string `json:"inspection"` // "status"
}

// NativeStatus is the bounded, redacted result of one inspection: the
// panel's rows as the agent draws them, each a name and a value, in order.
type NativeStatus struct {
	Inspection string        `json:"inspection"`
	Agent      string        `json:"agent"`
	Version    string        `json:"version"`
	Fields     []StatusField `json:"fields"`
	ObservedAt time.Time     `json:"observed_at"`
}

// StatusField is one row of the agent's status panel. A redacted row
// keeps its name and says so (an organization policy's value, a key).
type StatusField struct {
	Name     string `json:"name"`
	Value    string `json:"value,omitempty"`
	Redacted bool   `json:"redacted,omitempty"`
}
